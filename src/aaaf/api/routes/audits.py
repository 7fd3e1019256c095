"""Audits over HTTP: checking what agents report about themselves (SCORING.md §2.6; issue 16 §4).

Every route needs the ``auditor`` scope, so an organization can give a third-party auditor
a key that audits (and resolves appeals) but cannot ingest evidence — and its ingest key
cannot audit:

* ``POST /api/v1/agents/{agent_id}/audits`` draws the audit sample of the agent's window
  (``rate``, ``seed``, ``window_end``): the sampled tasks with what the agent reported and
  blank finding fields.  Drawing changes nothing and nothing is stored: the answer carries
  the parameters, and the same ones draw the same tasks again;
* ``GET /api/v1/agents/{agent_id}/audits`` answers the audit status of the agent's window:
  coverage, honesty, the required rate and whether it is met, the refuted facts;
* ``POST /api/v1/agents/{agent_id}/audits/findings`` records findings — the sampled tasks
  with their ``finding`` filled in, or ``task_audited`` events — through the collect service
  as ``aaaf audit record`` does, answering per item like the events batch.

The logic is :mod:`aaaf.services.audits`'s; these routes only translate.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Query
from pydantic import AwareDatetime

from aaaf.api.deps import Auditor, NowDep
from aaaf.api.limits import MAX_BATCH_EVENTS
from aaaf.api.models import AuditFindings, AuditSample, AuditSampleRequest, BatchResult
from aaaf.api.routes.events import batch_answer
from aaaf.errors import AAAFError
from aaaf.models.audit import AuditStatus
from aaaf.services import agents as agent_service
from aaaf.services import audits as audit_service
from aaaf.services.collect import collect as collect_events

router = APIRouter(prefix="/api/v1/agents/{agent_id}/audits", tags=["audits"])


@router.post("", response_model=AuditSample, operation_id="draw_audit_sample")
def draw_audit_sample(
    agent_id: str,
    org: Auditor,
    now: NowDep,
    body: Annotated[AuditSampleRequest | None, Body()] = None,
) -> AuditSample:
    """Draw the audit sample of the agent's window (``auditor``); nothing is stored."""
    asked = body or AuditSampleRequest()
    return audit_service.audit_sample(
        org, agent_id, now=now, rate=asked.rate, seed=asked.seed, window_end=asked.window_end
    )


@router.get("", response_model=AuditStatus, operation_id="get_audit_status")
def get_audit_status(
    agent_id: str,
    org: Auditor,
    now: NowDep,
    window_end: Annotated[
        AwareDatetime | None, Query(description="End of the window (RFC 3339 with offset; default now).")
    ] = None,
) -> AuditStatus:
    """Coverage, honesty, the required rate and whether it is met, for the agent's window."""
    return audit_service.agent_audit_status(org, agent_id, now=now, window_end=window_end)


@router.post("/findings", status_code=201, response_model=BatchResult, operation_id="record_audit_findings")
def record_audit_findings(agent_id: str, body: AuditFindings, org: Auditor, now: NowDep) -> BatchResult:
    """Record up to 1 000 findings about the agent's tasks: each is accepted, a duplicate, or
    rejected with its index, the code and the field of its problem."""
    agent = agent_service.get_agent(org, agent_id)
    if len(body.findings) > MAX_BATCH_EVENTS:
        raise AAAFError(
            "PAYLOAD_TOO_LARGE",
            f"A request holds at most {MAX_BATCH_EVENTS} findings; this one has {len(body.findings)}.",
            {"limit_events": MAX_BATCH_EVENTS, "events": len(body.findings)},
        )
    items = audit_service.finding_items(body.findings, auditor=body.auditor, now=now)
    report = collect_events(org, items, now=now, default_agent=agent.id)
    return batch_answer(report, body.findings)
