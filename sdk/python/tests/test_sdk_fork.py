"""A forked child's events arrive (issue 31 §Smaller): ``os.register_at_fork`` gives every open
client of the child its own delivery thread, lock and connections; the child's copy of the
parent's queue is left to the parent, so nothing is sent twice."""

from __future__ import annotations

import os
from typing import Any

from aaaf_client import AAAFClient
from sdk_helpers import make_events, stored_event_keys
from tests.api.conftest import Org


def test_a_forked_childs_events_arrive_once(live: Any, org: Org, agent_id: str) -> None:
    client = AAAFClient(base_url=live.base_url, api_key=org.key, flush_interval=60.0)
    sent_before = make_events(agent_id, 3, prefix="before")
    for event in sent_before:
        client.ingest(event)
    assert client.flush(timeout=30).accepted == 3  # the delivery thread and a connection are up
    queued_at_fork = make_events(agent_id, 2, prefix="queued")
    for event in queued_at_fork:
        client.ingest(event)  # still queued in the parent when it forks
    from_child = make_events(agent_id, 5, prefix="child")
    pid = os.fork()
    if pid == 0:  # the child: exit code 0 only when its own five were accepted, and only they
        code = 1
        try:
            for event in from_child:
                client.ingest(event)
            summary = client.close(timeout=30)
            code = 0 if (summary.accepted, summary.duplicates, summary.rejected) == (5, 0, []) else 2
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    parent = client.close(timeout=30)
    assert (parent.accepted, parent.duplicates) == (2, 0)
    assert sorted(stored_event_keys(org.client, agent_id)) == sorted(
        e["id"] for e in [*sent_before, *queued_at_fork, *from_child]
    )
