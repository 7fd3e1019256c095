"""``GET /badges/{organization}/{agent}.svg``: the agent's current badge at one stable URL (public).

What a README embeds (``aaaf badge AGENT --format md`` writes the snippet): the URL never
changes while the agent is re-assessed, and always serves the picture of its current badge —
redrawn from the signed credential on record, like ``GET /api/v1/badges/{id}.svg``, baked with
it.  Only a public badge is served; a private, revoked or missing one is the same 404 for
everyone (:func:`aaaf.services.agent_badges.current_public_badge`).  Like the verification page
it is no part of the API, so it is not in ``openapi.json``.
"""

from __future__ import annotations

from fastapi import APIRouter, Response

from aaaf.api.deps import StoreDep

router = APIRouter(include_in_schema=False)

# a badge changes when the agent is re-assessed or a badge revoked: caches must ask again
# (shields-style badges are served the same way, so image proxies refetch them)
NO_CACHE = {"Cache-Control": "no-cache, max-age=0"}


@router.get("/badges/{organization}/{agent}.svg")
def agent_badge_svg(organization: str, agent: str, store: StoreDep) -> Response:
    """The agent's current public badge as SVG (no key)."""
    from aaaf.services import badges as badge_service
    from aaaf.services.agent_badges import current_public_badge

    badge = current_public_badge(store, organization, agent)
    return Response(
        badge_service.stored_badge(badge).render("svg"), media_type="image/svg+xml", headers=NO_CACHE
    )
