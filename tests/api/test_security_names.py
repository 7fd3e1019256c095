"""Names read as what they are (docs/security.md "Names"): NFKC-normalised, invisible and
direction-changing characters refused naming the field, uniqueness on the normalised form."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.api.conftest import ADMIN_KEY, LiveServer, assert_error, task_events


def test_look_alike_and_invisible_names_are_refused(live: LiveServer) -> None:
    victim = live.organization()
    mimic = live.organization()
    renamed = mimic.client.patch(f"/api/v1/organizations/{mimic.id}", json={"name": victim.name + "\u200b"})
    error = assert_error(renamed, 400, "INVALID_REQUEST")
    assert error["details"]["field"].endswith("name") and "U+200B" in error["message"]

    fullwidth = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in victim.name)
    assert_error(
        mimic.client.patch(f"/api/v1/organizations/{mimic.id}", json={"name": fullwidth}), 409, "CONFLICT"
    )

    created = live.anonymous.post(
        "/api/v1/organizations",
        json={"name": "evil\u202egnp.exe"},
        headers={"Authorization": f"Bearer {ADMIN_KEY}"},
    )
    assert "U+202E" in assert_error(created, 400, "INVALID_REQUEST")["message"]

    for bad in ("paypal\u202e", "two\nlines", "zero\u200bwidth", "nul\u0000"):
        answer = mimic.client.post("/api/v1/agents", json={"name": bad})
        assert_error(answer, 400, "INVALID_REQUEST")
    agent = mimic.client.post("/api/v1/agents", json={"name": "ｆｕｌｌｗｉｄｔｈ"})
    assert agent.status_code == 201, agent.text
    assert agent.json()["name"] == "fullwidth"
    again = mimic.client.post("/api/v1/agents", json={"name": "fullwidth"})
    assert_error(again, 409, "CONFLICT")


def test_a_name_in_any_spelling_reaches_the_one_agent_it_normalises_to(live: LiveServer) -> None:
    """OpenTelemetry auto-enrolment stores the normalised name, and every lookup by name (a
    span's ``gen_ai.agent.name``, an event's ``agent``, a route's ``{agent_id}``) uses it."""
    from tests.otlp.conftest import protobuf_body, record_task

    org = live.organization()
    traces = {"Content-Type": "application/x-protobuf", "Authorization": f"Bearer {org.key}"}
    for name in ("ｃｌａｉｍｓ-bot", "claims-bot"):  # fullwidth first: it enrols
        answer = live.anonymous.post(
            "/v1/traces", content=protobuf_body(record_task(name, [("search", True)])), headers=traces
        )
        assert answer.status_code == 200, answer.text
    agents = org.client.get("/api/v1/agents").json()["items"]
    assert [agent["name"] for agent in agents] == ["claims-bot"]
    agent_id = agents[0]["id"]
    assert org.client.get("/api/v1/agents/ｃｌａｉｍｓ-bot").json()["id"] == agent_id

    events = task_events("ｃｌａｉｍｓ-bot", "fw-task", datetime.now(UTC) - timedelta(hours=1))
    for event in events:
        event["agent"] = event.pop("agent_id")
    stored = org.client.post("/api/v1/events/batch", json={"events": events})
    assert stored.status_code == 201, stored.text
    assert [agent["id"] for agent in org.client.get("/api/v1/agents").json()["items"]] == [agent_id]
    listed = org.client.get("/api/v1/events", params={"agent_id": "claims-bot", "type": "task_completed"})
    assert "fw-task-c" in [item["key"] for item in listed.json()["items"]]
    # renaming to another spelling of a taken name is refused like enrolling it
    other = org.client.post("/api/v1/agents", json={"name": "other-bot"}).json()
    renamed = org.client.patch(f"/api/v1/agents/{other['id']}", json={"name": "ｃｌａｉｍｓ-bot"})
    assert_error(renamed, 409, "CONFLICT")
