"""Eval runs: the run format of SCORING.md §4 (models) and importers of other tools' results."""
