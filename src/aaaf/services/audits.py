"""Audits for the front ends (SCORING.md §2.6): the sample worksheet, reading it back, the status.

* :func:`audit_sample` — the audit sample of an agent's window as worksheet rows: one task
  each, with what the agent reported about it (the record *before* any finding) and blank
  finding fields for the auditor;
* :func:`render_worksheet` — the rows as JSON Lines, CSV (a spreadsheet) or Markdown (a review
  document to read; findings are recorded from the JSON Lines or CSV form);
* :func:`read_findings` — a filled worksheet (JSON Lines or CSV), or a file of ``task_audited``
  events, as ``(line, raw event | EventError)`` items for the collect service, which validates
  and stores them exactly as ``aaaf collect`` does;
* :func:`finding_items` — findings sent over the API (worksheet rows or ``task_audited``
  events) as the same ``(line, raw event | EventError)`` items;
* :func:`gate_findings` — through the API only a key with the ``auditor`` scope may submit
  ``task_audited`` events: anyone else's become per-item ``FORBIDDEN`` errors;
* :func:`audit_status` — coverage, honesty and the required rate of the agent's current window.

The pure parts (the draw, the summary) are :mod:`aaaf.scoring.audit`.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from aaaf.errors import AAAFError
from aaaf.escaping import csv_cell, csv_value, markdown_text
from aaaf.evidence.models import EventError
from aaaf.models.audit import AuditSample, AuditSampleTask, AuditStatus, BlankFinding, ReportedFacts
from aaaf.scoring.aaaf import window_evidence
from aaaf.scoring.audit import draw_sample, window_audit
from aaaf.scoring.fold import Task, fold_evidence
from aaaf.scoring.records import EventRecord
from aaaf.scoring.results import iso

if TYPE_CHECKING:
    from aaaf.scoring.defaults import AAAFConfig
    from aaaf.store.org_store import OrgStore

AUDIT_EVENT = "task_audited"
FORMATS = ("jsonl", "csv", "md")
FINDING_FIELDS = ("auditor", "completion_status", "milestone_fraction", "errors", "notes")
TRUE_WORDS = frozenset({"true", "yes", "y", "1", "pass", "passed"})
FALSE_WORDS = frozenset({"false", "no", "n", "0", "fail", "failed"})

FindingItem = tuple[int | None, object]
"""``(line or None, raw event | EventError)``: what the collect service validates and stores; a
raw event is decoded JSON, whatever its shape (the validator names what is wrong with it)."""


def _self_reported_window(events: Sequence[EventRecord], config: AAAFConfig, end: datetime) -> list[Task]:
    """The window's tasks as the agent reported them (findings left out)."""
    reported = [event for event in events if event.type != AUDIT_EVENT]
    return [item.task for item in window_evidence(fold_evidence(reported), config, end).scored]


def audit_sample(
    org: OrgStore,
    agent_ref: str,
    *,
    now: datetime,
    rate: float | None = None,
    seed: int = 0,
    window_end: datetime | None = None,
) -> AuditSample:
    """The audit sample of the agent's window (SCORING.md §2.6): the draw, then one worksheet
    row per sampled task (``tasks``), as the API answers it and the CLI writes it."""
    agent = org.get_agent(agent_ref)
    config = org.config()
    rate = config.audit_rate if rate is None else rate
    if not 0.0 < rate <= 1.0:
        raise AAAFError("INVALID_REQUEST", f"--rate must be in (0, 1], got {rate}", {"rate": rate})
    end = window_end or now
    tasks = {task.task_id: task for task in _self_reported_window(org.events(agent.id), config, end)}
    completed = [task_id for task_id, task in tasks.items() if task.completed]
    sample = draw_sample(completed, rate, seed)
    rows = [_row(agent.name, tasks[task_id], config.checklist) for task_id in sample]
    return AuditSample(
        agent_id=str(agent.id),
        agent=agent.name,
        window_start=iso(end - timedelta(days=config.window_days)),
        window_end=iso(end),
        rate=rate,
        seed=seed,
        completed_tasks=len(completed),
        sampled=len(rows),
        tasks=rows,
    )


def _row(agent: str, task: Task, org_checklist: Sequence[str]) -> AuditSampleTask:
    reported_checklist = dict(task.checklist or {})
    items = list(dict.fromkeys([*org_checklist, *sorted(reported_checklist)]))
    return AuditSampleTask(
        agent=agent,
        task_id=task.task_id,
        completed_at=iso(task.completed_at) if task.completed_at else None,
        domain=task.domain,
        complexity_level=task.complexity_level,
        self_reported=ReportedFacts(
            completion_status=task.completion_status,
            milestone_fraction=task.milestone_fraction,
            checklist={item: reported_checklist.get(item) is True for item in items},
            errors=task.error_count,
            weighted_errors=task.weighted_errors,
        ),
        finding=BlankFinding(
            auditor=None,
            completion_status=None,
            milestone_fraction=None,
            checklist=dict.fromkeys(items),
            errors=None,
            notes=None,
        ),
    )


# --------------------------------------------------------------------------- rendering


def _checklist_items(rows: Sequence[AuditSampleTask]) -> list[str]:
    return list(dict.fromkeys(item for row in rows for item in row.finding.checklist))


def _cell(value: str | float | None) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def render_worksheet(sheet: AuditSample, fmt: str) -> str:
    """The worksheet as JSON Lines (one task a line), CSV or Markdown."""
    rows = sheet.tasks
    if fmt == "jsonl":
        return "".join(
            json.dumps(row.model_dump(), ensure_ascii=False, sort_keys=False) + "\n" for row in rows
        )
    items = _checklist_items(rows)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(
            [
                "agent",
                "task_id",
                "completed_at",
                "reported_completion_status",
                "reported_milestone_fraction",
                "reported_errors",
                *(f"reported_checklist.{item}" for item in items),
                *FINDING_FIELDS[:4],
                *(f"checklist.{item}" for item in items),
                "notes",
            ]
        )
        for row in rows:
            reported = row.self_reported
            writer.writerow(
                csv_cell(cell)
                for cell in [
                    row.agent,
                    row.task_id,
                    row.completed_at or "",
                    _cell(reported.completion_status),
                    _cell(reported.milestone_fraction),
                    reported.errors,
                    *(_cell(reported.checklist.get(item)) for item in items),
                    "",
                    "",
                    "",
                    "",
                    *("" for _ in items),
                    "",
                ]
            )
        return out.getvalue()
    if fmt == "md":
        lines = [
            f"# Audit worksheet: {markdown_text(sheet.agent)}",
            "",
            f"Window {sheet.window_start} to {sheet.window_end}; {sheet.sampled} of "
            f"{sheet.completed_tasks} completed tasks sampled (rate {sheet.rate}, seed {sheet.seed}).",
            "Record findings from the JSON Lines or CSV worksheet (`aaaf audit record FILE`).",
            "",
        ]
        for row in rows:
            reported = row.self_reported
            lines += [
                f"## {markdown_text(row.task_id)}",
                "",
                f"Completed {row.completed_at or '—'}; domain {markdown_text(row.domain or '—')}, "
                f"complexity {row.complexity_level or '—'}.",
                "",
                "| fact | self-reported | found |",
                "|---|---|---|",
                f"| completion status | {markdown_text(_cell(reported.completion_status))} | |",
                f"| errors | {markdown_text(reported.errors)} | |",
                *(
                    f"| checklist: {markdown_text(item)} | {markdown_text(_cell(reported.checklist.get(item)))} | |"
                    for item in items
                ),
                "",
            ]
        return "\n".join(lines)
    raise AAAFError("INVALID_REQUEST", f"--format must be one of {', '.join(FORMATS)}, got {fmt!r}")


# --------------------------------------------------------------------------- reading findings


def _blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def finding_event(row: Mapping[str, object], *, auditor: str | None, now: datetime) -> dict[str, object]:
    """A worksheet row (``finding`` filled in) as a raw ``task_audited`` event; blank fields
    are left out (not given)."""
    finding = row.get("finding")
    if not isinstance(finding, Mapping):
        raise ValueError("'finding' must be an object")
    data: dict[str, object] = {"task_id": row.get("task_id")}
    given_auditor = finding.get("auditor")
    data["auditor"] = given_auditor if not _blank(given_auditor) else auditor
    if data["auditor"] is None:
        del data["auditor"]  # the validator names the missing field
    for name in ("completion_status", "milestone_fraction", "milestones", "errors", "notes"):
        value = finding.get(name)
        if not _blank(value):
            data[name] = value
    checklist = finding.get("checklist")
    if isinstance(checklist, Mapping):
        given = {item: value for item, value in checklist.items() if not _blank(value)}
        if given:
            data["checklist"] = given
    elif not _blank(checklist):
        data["checklist"] = checklist  # the validator names the problem
    audited_at = finding.get("audited_at")
    return {
        "agent": row.get("agent"),
        "type": AUDIT_EVENT,
        "timestamp": audited_at if not _blank(audited_at) else iso(now),
        "data": data,
    }


def _flag(text: str, column: str) -> bool | None:
    word = text.strip().lower()
    if not word:
        return None
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ValueError(f"{column}: must be true or false (or blank: not given), got {text!r}")


def _errors_cell(text: str) -> list[object] | None:
    """Blank: not given; ``none``/``0``: no error; a JSON list; or severities ``major;minor``."""
    value = text.strip()
    if not value:
        return None
    if value.lower() in {"none", "0", "[]"}:
        return []
    if value.startswith("["):
        try:
            decoded: list[object] = json.loads(value)
        except json.JSONDecodeError as error:
            raise ValueError(f"errors: not a JSON list ({error.msg})") from None
        return decoded
    return [{"severity": part.strip()} for part in value.replace(",", ";").split(";") if part.strip()]


def _csv_row(record: Mapping[str, str]) -> dict[str, object]:
    checklist = {
        key.removeprefix("checklist."): _flag(value or "", key)
        for key, value in record.items()
        if key is not None and key.startswith("checklist.")
    }
    fraction_text = (record.get("milestone_fraction") or "").strip()
    try:
        fraction = float(fraction_text) if fraction_text else None
    except ValueError:
        raise ValueError(f"milestone_fraction: must be a number from 0 to 1, got {fraction_text!r}") from None
    return {
        "agent": csv_value(record.get("agent")),
        "task_id": csv_value(record.get("task_id")),
        "finding": {
            "auditor": record.get("auditor"),
            "completion_status": (record.get("completion_status") or "").strip() or None,
            "milestone_fraction": fraction,
            "errors": _errors_cell(record.get("errors") or ""),
            "checklist": checklist,
            "notes": record.get("notes"),
            "audited_at": record.get("audited_at"),
        },
    }


def _from_item(raw: object, *, auditor: str | None, now: datetime) -> object:
    """A JSON line: a worksheet row becomes a ``task_audited`` event; an event must be one."""
    if isinstance(raw, Mapping) and "finding" in raw and "type" not in raw:
        return finding_event(raw, auditor=auditor, now=now)
    if isinstance(raw, Mapping) and raw.get("type") != AUDIT_EVENT:
        raise TypeError(f"aaaf audit record stores {AUDIT_EVENT} events only, got type {raw.get('type')!r}")
    if isinstance(raw, Mapping) and auditor is not None and isinstance(raw.get("data"), Mapping):
        data = raw["data"]
        if _blank(data.get("auditor")):
            return {**raw, "data": {**data, "auditor": auditor}}
    return raw


def read_findings(path: Path, *, auditor: str | None, now: datetime) -> Iterator[FindingItem]:
    """``(line, raw event | EventError)`` items of a filled worksheet or ``task_audited`` events."""
    if not path.is_file():
        raise AAAFError("INVALID_REQUEST", f"no such file: {path}", {"path": str(path)})
    if path.suffix.lower() == ".csv":
        yield from _read_csv(path, auditor=auditor, now=now)
        return
    from aaaf.evidence.collectors.task_logs import read_jsonl

    for index, (line, raw) in enumerate(read_jsonl(path)):
        if isinstance(raw, EventError):
            yield line, raw
            continue
        yield line, _finding_or_error(index, line, raw, auditor=auditor, now=now)


def _finding_or_error(
    index: int, line: int | None, raw: object, *, auditor: str | None, now: datetime
) -> object:
    try:
        return _from_item(raw, auditor=auditor, now=now)
    except TypeError as error:
        return EventError(index, line, "INVALID_EVENT_TYPE", "type", str(error))
    except ValueError as error:
        return EventError(index, line, "INVALID_REQUEST", "finding", str(error))


def finding_items(raws: Sequence[object], *, auditor: str | None, now: datetime) -> Iterator[FindingItem]:
    """Findings sent as a list (the API): each a worksheet row (``finding`` filled in) or a
    ``task_audited`` event, as ``(None, raw event | EventError)`` items for the collect service."""
    for index, raw in enumerate(raws):
        yield None, _finding_or_error(index, None, raw, auditor=auditor, now=now)


FORBIDDEN_FINDING = (
    "type: task_audited events are audit findings; only a key with the 'auditor' scope may "
    "submit them (docs/scoring.md §3.9)"
)


def gate_findings(items: Iterable[FindingItem], *, may_audit: bool) -> Iterator[FindingItem]:
    """SCORING.md §2.6: through the API only a key with the ``auditor`` scope may submit
    ``task_audited`` events, so an organization cannot audit itself with its ingest key.
    Without it each such event becomes a ``FORBIDDEN`` error (field ``type``); the rest pass."""
    for index, (line, raw) in enumerate(items):
        if not may_audit and isinstance(raw, Mapping) and raw.get("type") == AUDIT_EVENT:
            yield line, EventError(index, line, "FORBIDDEN", "type", FORBIDDEN_FINDING)
        else:
            yield line, raw


def _read_csv(path: Path, *, auditor: str | None, now: datetime) -> Iterator[FindingItem]:
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        if reader.fieldnames is None or "task_id" not in reader.fieldnames:
            raise AAAFError(
                "INVALID_REQUEST", f"{path}: a worksheet CSV needs a header with task_id", {"path": str(path)}
            )
        for index, record in enumerate(reader):
            line = reader.line_num
            try:
                row = _csv_row(record)
            except ValueError as error:
                column = str(error).split(":", 1)[0]
                yield line, EventError(index, line, "INVALID_REQUEST", f"finding.{column}", str(error))
                continue
            yield line, finding_event(row, auditor=auditor, now=now)


# --------------------------------------------------------------------------- status


def audit_status(
    org: OrgStore, agent_ref: str, *, now: datetime, window_end: datetime | None = None
) -> dict[str, object]:
    """The ``audit`` object (SCORING.md §2.6) of the agent's window ending at ``window_end``."""
    agent = org.get_agent(agent_ref)
    config = org.config()
    end = window_end or now
    window = window_evidence(fold_evidence(org.events(agent.id)), config, end)
    summary = window_audit(window.scored, config).to_dict()
    return {
        "agent": agent.name,
        "window_start": iso(window.window_start),
        "window_end": iso(window.window_end),
        "honesty_threshold": config.audit_honesty_threshold,
        "min_audited_tasks": config.audit_min_tasks,
        **summary,
    }


def agent_audit_status(
    org: OrgStore, agent_ref: str, *, now: datetime, window_end: datetime | None = None
) -> AuditStatus:
    """:func:`audit_status` as the API answers it, with the agent's id."""
    agent = org.get_agent(agent_ref)
    status = audit_status(org, str(agent.id), now=now, window_end=window_end)
    return AuditStatus.model_validate({"agent_id": str(agent.id), **status})
