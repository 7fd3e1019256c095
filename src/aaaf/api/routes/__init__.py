"""One router per resource (DESIGN.md suggested layout); :data:`ROUTERS` in mounting order."""

from aaaf.api.routes import (
    agents,
    appeals,
    assessments,
    audits,
    badges,
    config,
    events,
    health,
    keys,
    oauth,
    organizations,
    usage,
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
    oauth.router,
    usage.router,
]
