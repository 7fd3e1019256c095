"""Importers that turn other tools' eval logs into runs of SCORING.md §4.

* :mod:`aaaf.evals.importers.inspect_ai` — inspect_ai eval logs (``.eval``, ``.json``);
* :mod:`aaaf.evals.importers.promptfoo` — promptfoo result JSON (one run per column).

Imported verdicts are kept as the tool graded them (``passed`` given); the type of each
imported assertion only decides its layer.  What cannot be mapped is listed in the
run's ``import_notes``, never guessed.
"""
