"""The Node example and the README's TypeScript section, run against a live ``aaaf serve``
on SQLite and PostgreSQL (issue 18 §3 and "Done when": the README's SDK section works as
written)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import httpx

from tests.api.conftest import LiveServer
from tests.sdk_typescript.conftest import REPO, SDK, NodeSDK


def _events(live_client: httpx.Client, agent_id: str) -> list[dict]:
    response = live_client.get("/api/v1/events", params={"agent_id": agent_id, "limit": 1000})
    assert response.status_code == 200, response.text
    return list(response.json()["items"])


def test_the_node_example_sends_its_events(live: LiveServer, node_sdk: NodeSDK) -> None:
    org = live.organization()
    env = {"AAAF_BASE_URL": live.base_url, "AAAF_API_KEY": org.key}
    with node_sdk.locked():  # npm test of another worker may be rebuilding dist/
        output = node_sdk.run(
            node_sdk.node, str(REPO / "examples" / "node_agent.mjs"), "3", cwd=REPO, env=env
        )
    result = json.loads(output.strip().splitlines()[-1])
    # three tasks using 1, 2 and 3 tools: an assignment, the tool calls and a completion each
    assert result["summary"] == {"accepted": 12, "duplicates": 0, "rejected": [], "dropped": 0}, output
    events = _events(org.client, result["agent_id"])
    assert Counter(event["type"] for event in events) == {
        "task_assigned": 3,
        "tool_invoked": 6,
        "task_completed": 3,
    }
    assert all(event["key"].startswith(f"node-{result['run']}-") for event in events)
    failed = [event for event in events if event["type"] == "tool_invoked" and not event["data"]["success"]]
    assert [event["task_id"] for event in failed] == [f"node-{result['run']}-1"]


def _readme_section() -> str:
    text = (REPO / "README.md").read_text()
    start = text.index("### TypeScript")
    end = text.find("\n## ", start)
    return text[start : end if end != -1 else len(text)]


def test_the_readme_typescript_section_works_as_written(
    live: LiveServer, node_sdk: NodeSDK, tmp_path: Path
) -> None:
    section = _readme_section()
    install = re.search(r"```bash\n(npm install \S+)\n```", section)
    code = re.search(r"```js\n(.*?)```", section, re.S)
    assert install is not None and code is not None, section
    assert install.group(1) == "npm install /path/to/aaaf/sdk/typescript"
    project = tmp_path / "my-agent"
    project.mkdir()
    (project / "package.json").write_text(json.dumps({"name": "my-agent", "private": True}))
    (project / "agent.mjs").write_text(code.group(1))
    org = live.organization()
    with node_sdk.locked():  # npm test of another worker may be rebuilding dist/
        node_sdk.run(node_sdk.npm, "install", "--no-audit", "--no-fund", str(SDK), cwd=project)
        output = node_sdk.run(
            node_sdk.node,
            "agent.mjs",
            cwd=project,
            env={"AAAF_BASE_URL": live.base_url, "AAAF_API_KEY": org.key},
        )
    assert "accepted: 2" in output and "duplicates: 0" in output and "rejected: []" in output, output
    assert "404 NOT_FOUND" in output, output
    agents = org.client.get("/api/v1/agents").json()["items"]
    assert [agent["name"] for agent in agents] == ["my-agent"]
    events = _events(org.client, agents[0]["id"])
    assert sorted(event["type"] for event in events) == ["task_assigned", "task_completed"]
    # id-less events: the SDK gave them the ids the server derives from their content
    assert all(re.fullmatch(r"[0-9a-f]{64}", event["key"]) for event in events)
