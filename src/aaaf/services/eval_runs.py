"""Eval runs over the API: upload in the formats ``aaaf compare`` reads, compare stored runs
(SCORING.md §4; issue 13 "eval runs/compare (several treatments)").

An upload is read by the very function ``aaaf compare`` reads a file with
(:func:`aaaf.services.eval_files.read_runs`: our JSON / JSON Lines, an inspect_ai log, a
promptfoo result file — told apart by content, or named by ``source_format``); each run
(each column of a promptfoo file) is stored as its run object.  A comparison of stored runs
goes through the same grading pass and verdict functions as the CLI, so its JSON is what
``aaaf compare CONTROL T1 [T2 …] --json`` prints for the files the runs came from: one
treatment gives the two-run verdict, several give one verdict each with Bonferroni across
treatments and the worst rolled up.  No model judges run on the server: runs are graded by
the code graders (assertions without ``passed``) and carry the judge scores they were
uploaded with, as ``aaaf compare`` without ``--judge``.
"""

from __future__ import annotations

import contextlib
import re
import tempfile
import threading
import uuid
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from aaaf.errors import AAAFError
from aaaf.evidence.limits import printable
from aaaf.json_values import value_problem
from aaaf.models.comparison import Comparison, SeveralComparison
from aaaf.models.eval_run import EvalRun, EvalRunSummary
from aaaf.reports import verdict_text
from aaaf.scoring.layered import LayeredConfig
from aaaf.scoring.treatments import MultiComparison, compare_treatments
from aaaf.scoring.verdict import Comparison as RunComparison
from aaaf.scoring.verdict import compare_runs
from aaaf.services.eval_files import RUN_FORMATS, check_finished, read_runs
from aaaf.services.evals import grade_run, grading_summary, judge_calibrations, to_layered_run
from aaaf.store import OrgStore
from aaaf.store.repositories.eval_runs import StoredEvalRun

MAX_TREATMENTS = 20


def _safe_name(filename: str | None) -> str:
    """The uploaded file's base name, made safe for a temporary file (its suffix tells
    ``.jsonl`` and ``.eval`` apart, as a file's does for the CLI)."""
    base = Path(filename or "upload.json").name
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", base).strip("-.")
    return stem or "upload.json"


def _renamed(error: AAAFError, temp: str, shown: str) -> AAAFError:
    """``error`` naming the upload as the client named it, not the server's temporary path."""

    def fix(value: object) -> object:
        if isinstance(value, str):
            return value.replace(temp, shown)
        if isinstance(value, list):
            return [fix(item) for item in value]
        if isinstance(value, dict):
            return {key: fix(item) for key, item in value.items()}
        return value

    details = {key: fix(value) for key, value in error.details.items()}
    return AAAFError(error.code, error.message.replace(temp, shown), details)


def check_compare_cost(resamples: int, treatments: int) -> None:
    """400 ``INVALID_REQUEST`` when a comparison asks for more resamples or treatments than
    this installation allows (``AAAF_MAX_COMPARE_RESAMPLES``, ``AAAF_MAX_COMPARE_TREATMENTS``;
    docs/security.md "Limits"): a read-scoped key must not buy minutes of CPU."""
    from aaaf.settings import get_settings

    settings = get_settings()
    for field, asked, cap, setting in (
        ("resamples", resamples, settings.max_compare_resamples, "AAAF_MAX_COMPARE_RESAMPLES"),
        ("treatments", treatments, settings.max_compare_treatments, "AAAF_MAX_COMPARE_TREATMENTS"),
    ):
        if asked > cap:
            raise AAAFError(
                "INVALID_REQUEST",
                f"{field}: at most {cap} on this installation ({setting}), got {asked}.",
                {"field": field, "value": asked, "limit": cap},
            )


_RUNNING: dict[uuid.UUID, int] = {}
_RUNNING_LOCK = threading.Lock()


@contextlib.contextmanager
def compare_slot(organization_id: uuid.UUID, limit: int | None = None) -> Iterator[None]:
    """One of the organization's ``AAAF_MAX_CONCURRENT_COMPARES`` comparisons running at once
    in this process (docs/security.md "Limits"), or 429 ``RATE_LIMITED`` at once — a tenant
    cannot hold every worker thread with comparisons of the largest allowed size."""
    if limit is None:
        from aaaf.settings import get_settings

        limit = get_settings().max_concurrent_compares
    with _RUNNING_LOCK:
        running = _RUNNING.get(organization_id, 0)
        if running >= limit:
            raise AAAFError(
                "RATE_LIMITED",
                f"{running} comparisons of this organization are running; at most {limit} at once on this "
                "installation (AAAF_MAX_CONCURRENT_COMPARES). Retry when one has finished.",
                {"limit": limit, "retry_after": 5},
            )
        _RUNNING[organization_id] = running + 1
    try:
        yield
    finally:
        with _RUNNING_LOCK:
            left = _RUNNING[organization_id] - 1
            if left:
                _RUNNING[organization_id] = left
            else:
                del _RUNNING[organization_id]


def read_upload(
    content: bytes, *, filename: str | None, source_format: str = "auto"
) -> tuple[str, list[dict[str, object]]]:
    """The runs of an uploaded file and its format, read exactly as ``aaaf compare`` reads a
    file (``INVALID_REQUEST`` naming the problem otherwise)."""
    if source_format not in RUN_FORMATS:
        raise AAAFError(
            "INVALID_REQUEST",
            f"from: unknown run format {source_format!r}; formats: {', '.join(RUN_FORMATS)}.",
            {"field": "from", "value": source_format, "formats": list(RUN_FORMATS)},
        )
    if not content.strip():
        raise AAAFError("INVALID_REQUEST", "file: the upload is empty.", {"field": "file"})
    name = _safe_name(filename)
    with tempfile.TemporaryDirectory(prefix="aaaf-upload-") as directory:
        path = Path(directory) / name
        path.write_bytes(content)
        try:
            if source_format == "auto":
                from aaaf.services.eval_files import detect_format

                kind = detect_format(path)
            else:
                kind = source_format
            runs = read_runs(path, kind)
        except AAAFError as error:
            raise _renamed(error, str(path), name) from None
        except (
            ValueError,
            KeyError,
            TypeError,
            OSError,
            RecursionError,
        ) as error:  # an importer's parse failure
            raise AAAFError(
                "INVALID_REQUEST",
                f"{name}: cannot read it as {kind if source_format == 'auto' else source_format} "
                f"({type(error).__name__}: {str(error).replace(str(path), name)[:200]}).",
                {"field": "file", "format": source_format},
            ) from None
    problem = value_problem(runs)
    if problem is not None:  # the JSON rule of every body, on the JSON inside the file
        raise AAAFError(
            "INVALID_REQUEST", f"{name}: {printable(problem, 300)}.", {"field": "file", "problem": problem}
        )
    return kind, runs


def upload(
    org: OrgStore, content: bytes, *, filename: str | None, source_format: str, uploaded_at: datetime
) -> list[EvalRunSummary]:
    """Read and store every run of an upload; the stored runs (one per column)."""
    kind, runs = read_upload(content, filename=filename, source_format=source_format)
    return [run_summary(run) for run in org.add_eval_runs(runs, source_format=kind, uploaded_at=uploaded_at)]


def run_summary(run: StoredEvalRun) -> EvalRunSummary:
    """A stored run without its samples (what a list shows)."""
    return EvalRunSummary(**run.summary())


def list_runs(org: OrgStore) -> list[StoredEvalRun]:
    """The organization's stored runs, newest first."""
    return org.eval_runs()


def stored_summaries(org: OrgStore, run_refs: Sequence[str]) -> list[dict[str, object]]:
    """Each named run without its samples, in the order named (``NOT_FOUND`` for a missing one)."""
    return [org.get_eval_run(ref).summary() for ref in run_refs]


def get_run(org: OrgStore, run_id: str) -> EvalRun:
    """One stored run: its summary and the run object (samples and all)."""
    run = org.get_eval_run(run_id)
    return EvalRun(**run.summary(), run=dict(run.run))


def _calibrations(graded: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """What ``aaaf compare --json`` reports as ``calibration`` without ``--judge``: the ρ of
    the uploaded judge scores against any human labels (informative)."""
    if not any(s.get("human") is not None for run in graded for s in run["samples"]):
        return {}
    found = judge_calibrations(list(graded), dimensions={})
    return {name: c.to_dict() for name, c in found.items()}


def compare_stored_result(
    org: OrgStore,
    control: str,
    treatments: Sequence[str],
    *,
    config: LayeredConfig,
    allow_incomplete: bool = False,
) -> tuple[RunComparison | MultiComparison, list[dict[str, object]], list[dict[str, object]]]:
    """The comparison of stored runs (a ``Comparison`` for one treatment, a
    ``MultiComparison`` for several), the graded runs and their grading summaries — what
    :func:`compare_stored` answers as JSON and the dashboard renders as the HTML report."""
    if not treatments:
        raise AAAFError(
            "INVALID_REQUEST", "treatments: give at least one treatment run id.", {"field": "treatments"}
        )
    if len(treatments) > MAX_TREATMENTS:
        raise AAAFError(
            "INVALID_REQUEST",
            f"treatments: at most {MAX_TREATMENTS} treatments, got {len(treatments)}.",
            {"field": "treatments", "limit": MAX_TREATMENTS},
        )
    with compare_slot(org.organization_id):
        return _compare_stored_result(org, control, treatments, config, allow_incomplete)


def _compare_stored_result(
    org: OrgStore, control: str, treatments: Sequence[str], config: LayeredConfig, allow_incomplete: bool
) -> tuple[RunComparison | MultiComparison, list[dict[str, object]], list[dict[str, object]]]:
    runs = [dict(org.get_eval_run(control).run)] + [dict(org.get_eval_run(ref).run) for ref in treatments]
    if len(treatments) == 1:
        check_finished([("control", runs[0]), ("treatment", runs[1])], allow_incomplete=allow_incomplete)
    else:
        check_finished(
            [("control", runs[0])] + [(f"treatment {number}", run) for number, run in enumerate(runs[1:], 1)],
            allow_incomplete=allow_incomplete,
        )
    graded = [grade_run(run, judges=None, require_calibration=False) for run in runs]
    layered = [to_layered_run(run) for run in graded]
    summaries = [grading_summary(run) for run in graded]
    if len(treatments) == 1:
        return compare_runs(layered[0], layered[1], config), graded, summaries
    return compare_treatments(layered[0], layered[1:], config), graded, summaries


def compare_stored(
    org: OrgStore,
    control: str,
    treatments: Sequence[str],
    *,
    config: LayeredConfig,
    allow_incomplete: bool = False,
) -> Comparison | SeveralComparison:
    """``aaaf compare CONTROL T1 [T2 …] --json`` on stored runs (ids of this organization)."""
    result, graded, summaries = compare_stored_result(
        org, control, treatments, config=config, allow_incomplete=allow_incomplete
    )
    if isinstance(result, RunComparison):  # one treatment
        payload = verdict_text.comparison_dict(result)
        payload["grading"] = {"control": summaries[0], "treatment": summaries[1]}
    else:
        payload = verdict_text.multi_dict(result)
        payload["grading"] = {"control": summaries[0], "treatments": summaries[1:]}
    payload["calibration"] = _calibrations(graded)
    shape = Comparison if len(treatments) == 1 else SeveralComparison
    return shape.model_validate(payload)
