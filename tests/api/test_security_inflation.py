"""Compressed inputs are inflated under one bound (docs/security.md "Limits"): a zip bomb
uploaded as an inspect_ai ``.eval`` log is 413, as a gzip bomb to ``/v1/traces`` is."""

from __future__ import annotations

import gzip
import io
import zipfile

from aaaf.inflation import MAX_INFLATED_BYTES
from tests.api.conftest import LiveServer, assert_error


def _zip_bomb() -> bytes:
    """Under the 1 MiB body limit; four times the inflation bound once inflated."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("header.json", b"{" + b" " * (4 * MAX_INFLATED_BYTES) + b"}")
        archive.writestr("_journal/start.json", b"{}")
    return buffer.getvalue()


def test_a_zip_bomb_uploaded_as_an_eval_log_is_413(live: LiveServer) -> None:
    org = live.organization()
    bomb = _zip_bomb()
    assert len(bomb) < 1_048_576
    response = org.client.post("/api/v1/eval-runs", files={"file": ("run.eval", bomb, "application/zip")})
    error = assert_error(response, 413, "PAYLOAD_TOO_LARGE")
    assert error["details"]["limit_bytes"] == MAX_INFLATED_BYTES
    assert "/tmp" not in response.text  # the server's temporary path is not in the answer


def test_a_gzip_bomb_to_traces_is_413_under_the_same_bound(live: LiveServer) -> None:
    org = live.organization()
    bomb = gzip.compress(b"\0" * (MAX_INFLATED_BYTES + 1))
    response = org.client.post(
        "/v1/traces",
        content=bomb,
        headers={"Content-Type": "application/x-protobuf", "Content-Encoding": "gzip"},
    )
    assert response.status_code == 413, response.text
