"""One router per resource (DESIGN.md suggested layout); :data:`ROUTERS` in mounting order."""

from aaaf.api.routes import (
    agents,
    appeals,
    assessments,
    audits,
    badges,
    benchmarks,
    config,
    eval_runs,
    events,
    health,
    keys,
    oauth,
    organizations,
    otlp,
    stress_libraries,
    stress_runs,
    trust,
    usage,
    webhooks,
    workflow,
)
from aaaf.api.web import agent_badge
from aaaf.api.web import verify as verify_page

ROUTERS = [
    health.router,
    organizations.router,
    config.router,
    agents.router,
    events.router,
    audits.router,
    assessments.router,
    appeals.router,
    keys.router,
    badges.router,
    trust.router,
    workflow.router,
    eval_runs.router,
    webhooks.router,
    stress_runs.router,
    oauth.router,
    usage.router,
    benchmarks.router,  # issue 20 §2
    stress_libraries.router,  # issue 20 §3
    verify_page.router,  # the public verification page, HTML
    agent_badge.router,  # an agent's current badge at one stable URL
    otlp.router,
]
