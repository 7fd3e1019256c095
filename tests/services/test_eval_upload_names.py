"""An uploaded run file that cannot be read is named as the client named it (made safe), never
by the server's temporary path — in the message and anywhere in the details."""

from __future__ import annotations

import pytest

from aaaf.errors import AAAFError
from aaaf.services.eval_runs import read_upload


@pytest.mark.parametrize("content", [b"not json at all", b'{"a": 1}', b"[1, 2]"])
def test_an_unreadable_upload_is_named_as_the_client_named_it(content: bytes) -> None:
    with pytest.raises(AAAFError) as caught:
        read_upload(content, filename="my run.json")
    error = caught.value
    assert error.code == "INVALID_REQUEST"
    assert error.message.startswith("my-run.json: ")
    assert "aaaf-upload-" not in error.message and "aaaf-upload-" not in repr(error.details)
    assert "my-run.json" in repr(error.details)
