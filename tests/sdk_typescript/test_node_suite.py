"""``npm test`` of ``sdk/typescript`` (Node's test runner) against a live ``aaaf serve`` on
SQLite and on PostgreSQL (issue 18 §2): resources, the ingestion helper's summary, retries
that honour ``Retry-After`` and never double an event, the bounded queue, typed errors, the
exit hook, and the generated types against ``openapi.json``."""

from __future__ import annotations

from tests.api.conftest import LiveServer
from tests.sdk_typescript.conftest import NodeSDK


def test_the_node_suite_passes_against_the_live_server(live: LiveServer, node_sdk: NodeSDK) -> None:
    org = live.organization()
    # the rate-limit test lowers this organization's limit to provoke a real 429
    limited = live.organization(rate_limit_per_minute=None)
    env = {"AAAF_BASE_URL": live.base_url, "AAAF_API_KEY": org.key, "AAAF_LIMITED_API_KEY": limited.key}
    with node_sdk.locked():
        output = node_sdk.run(node_sdk.npm, "test", env=env)
    print(output)
    assert "# fail 0" in output and "# pass " in output, output
