"""One router per resource (DESIGN.md suggested layout); :data:`ROUTERS` in mounting order."""

from aaaf.api.routes import (
    agents,
    appeals,
    assessments,
    audits,
    badges,
    config,
    eval_runs,
    events,
    health,
    keys,
    organizations,
    stress_runs,
    trust,
    webhooks,
    workflow,
)

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
]
