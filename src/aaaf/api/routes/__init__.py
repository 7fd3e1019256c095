"""One router per resource (DESIGN.md suggested layout); :data:`ROUTERS` in mounting order."""

from aaaf.api.routes import agents, assessments, badges, events, health, keys, organizations

ROUTERS = [
    health.router,
    organizations.router,
    agents.router,
    events.router,
    assessments.router,
    keys.router,
    badges.router,
]
