"""Workflow scoring service: runs from a file or the store in, the pure core's results out.

SCORING.md §5.  Two sources of ``workflow_run`` evidence:

* a JSON Lines file of events (the format ``aaaf collect --source task_logs`` takes, each
  line naming its agent) — what a validator or an auditor has in hand.  Runs naming a
  workflow definition are resolved against ``definitions`` first, then every line is
  validated with ``aaaf.evidence.validate_event``; any invalid line fails the whole read
  (a score computed on silently dropped runs is not auditable), naming every bad line;
* the store: the organization's stored ``workflow_run`` events, agents named by name.

Either way the core (``aaaf.scoring.workflow``) does the scoring; nothing here changes a
number.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from aaaf.errors import AAAFError
from aaaf.evidence.models import EventValidationError
from aaaf.evidence.validation import validate_event
from aaaf.evidence.workflow_definition import WorkflowDefinition, load_definitions, resolve_event
from aaaf.scoring.records import EventRecord
from aaaf.scoring.workflow import (
    WORKFLOW_CAP,
    WORKFLOW_WINDOW,
    RunScores,
    WorkflowWeights,
    score_runs,
    workflow_weights,
)

if TYPE_CHECKING:
    from aaaf.store.org_store import OrgStore
    from aaaf.store.records import Agent

RUN_TYPE = "workflow_run"
MAX_ERRORS_REPORTED = 20


def definitions_from(directory: str | Path | None) -> dict[str, WorkflowDefinition]:
    """The definition registry of ``--workflows DIR`` (empty when no directory is given)."""
    return {} if directory is None else load_definitions(directory)


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    with path.open(encoding="utf-8") as handle:
        for number, text in enumerate(handle, start=1):
            if text.strip():
                yield number, text


def read_run_file(
    path: str | Path,
    *,
    now: datetime,
    definitions: Mapping[str, WorkflowDefinition] | None = None,
) -> list[EventRecord]:
    """The ``workflow_run`` events of a JSON Lines file, validated (other types are skipped).

    ``now`` is the clock of the "timestamp in future" rule (SCORING.md §1).  Each record's
    ``id`` is ``FILE:LINE`` so per-run output can be traced back to its line.
    """
    file = Path(path)
    if not file.is_file():
        raise AAAFError("INVALID_REQUEST", f"no such file: {file}", {"path": str(file)})
    registry = definitions or {}
    records: list[EventRecord] = []
    problems: list[dict[str, object]] = []
    for line, text in _lines(file):
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as error:
            problems.append({"line": line, "error": f"not JSON: {error.msg}"})
            continue
        if not isinstance(raw, dict) or raw.get("type") != RUN_TYPE:
            if not isinstance(raw, dict):
                problems.append({"line": line, "error": "event must be a JSON object"})
            continue
        try:
            event = validate_event(resolve_event(raw, registry), now=now)
        except EventValidationError as error:
            problems.append({"line": line, "field": error.field, "error": error.message})
            continue
        except AAAFError as error:  # a definition mismatch (resolve_event)
            problems.append({"line": line, "field": error.details.get("field"), "error": error.message})
            continue
        records.append(
            EventRecord(
                id=f"{file.name}:{line}",
                agent=event.agent,
                type=event.type,
                timestamp=event.timestamp,
                data=event.data,
                task_id=event.task_id,
                key=event.key,
            )
        )
    if problems:
        first = problems[0]
        raise AAAFError(
            "INVALID_REQUEST",
            f"{file}: {len(problems)} invalid line(s); line {first['line']}: {first['error']}",
            {"file": str(file), "errors": problems[:MAX_ERRORS_REPORTED], "invalid": len(problems)},
        )
    return records


def stored_runs(org: OrgStore, agent: str | None = None) -> list[EventRecord]:
    """The organization's stored ``workflow_run`` events, each under its agent's name.

    With ``agent`` (name or id) only that agent's runs; unknown is ``NOT_FOUND``.
    """
    agents: Sequence[Agent] = [org.get_agent(agent)] if agent is not None else org.agents()
    if not agents:
        return []
    by_id = {a.id: a for a in agents}
    events = org.events_for_agents([a.id for a in agents], types=[RUN_TYPE])
    records: list[EventRecord] = []
    for agent_id, items in events.items():
        name = by_id[agent_id].name
        for item in items:
            if item.type != RUN_TYPE:
                continue
            # ``miner`` was checked against the event's agent when it was collected (it may
            # name the agent by id); the run is now filed under the agent's name.
            data = {key: value for key, value in item.data.items() if key != "miner"}
            records.append(item._replace(agent=name, data=data))
    return records


def score_file(
    path: str | Path,
    *,
    now: datetime,
    window: int = WORKFLOW_WINDOW,
    definitions: Mapping[str, WorkflowDefinition] | None = None,
) -> RunScores:
    """``aaaf workflow score FILE``: every run's S and its four parts, and each agent's window."""
    return score_runs(read_run_file(path, now=now, definitions=definitions), window)


def score_stored(org: OrgStore, agent: str, *, window: int = WORKFLOW_WINDOW) -> RunScores:
    """``aaaf workflow score --agent NAME``: the agent's stored runs, scored."""
    return score_runs(stored_runs(org, agent), window)


def weights_for_file(
    path: str | Path,
    *,
    now: datetime,
    window: int = WORKFLOW_WINDOW,
    cap: float = WORKFLOW_CAP,
    definitions: Mapping[str, WorkflowDefinition] | None = None,
) -> WorkflowWeights:
    """Capped weights from a runs file: what any validator can recompute and compare."""
    return workflow_weights(read_run_file(path, now=now, definitions=definitions), window=window, cap=cap)


def weights_for_org(
    org: OrgStore, *, window: int = WORKFLOW_WINDOW, cap: float = WORKFLOW_CAP
) -> WorkflowWeights:
    """Capped weights over every agent of the organization with stored runs."""
    return workflow_weights(stored_runs(org), window=window, cap=cap)
