"""Events still queued when the interpreter exits are delivered (issue 18 §1): a subprocess
ingests and exits without ``close()`` — sync client, and an async client whose loop ended."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from typing import Any

import pytest
from sdk_helpers import make_events, stored_event_keys
from tests.api.conftest import Org

SYNC = """
import json, sys
from aaaf_client import AAAFClient
events = json.load(sys.stdin)
client = AAAFClient(base_url=sys.argv[1], api_key=sys.argv[2], flush_interval=60)
for event in events:
    client.ingest(event)
# no flush(), no close(): the interpreter exits with everything still queued
"""

ASYNC = """
import asyncio, json, sys
from aaaf_client import AsyncAAAFClient
events = json.load(sys.stdin)

async def main():
    client = AsyncAAAFClient(base_url=sys.argv[1], api_key=sys.argv[2], flush_interval=60)
    for event in events:
        await client.ingest(event)

asyncio.run(main())  # the loop ends with the events queued; no close()
"""


@pytest.mark.parametrize("program", [SYNC, ASYNC], ids=["sync", "async"])
def test_events_queued_at_exit_are_delivered(live: Any, org: Org, agent_id: str, program: str) -> None:
    events = make_events(agent_id, 2345, prefix="exit")
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(program), live.base_url, org.key],
        input=json.dumps(events),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert sorted(stored_event_keys(org.client, agent_id)) == sorted(e["id"] for e in events)
