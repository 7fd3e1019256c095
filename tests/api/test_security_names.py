"""Names read as what they are (docs/security.md "Names"): NFKC-normalised, invisible and
direction-changing characters refused naming the field, uniqueness on the normalised form."""

from __future__ import annotations

from tests.api.conftest import ADMIN_KEY, LiveServer, assert_error


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
