"""The SDK cannot drift from the API (issue 18 §1): regenerating its generated layer from the
committed ``openapi.json`` (``scripts/gen_sdk_python.py``, openapi-python-client pinned) into a
temporary folder gives exactly the committed files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
COMMITTED = ROOT / "sdk" / "python" / "src" / "aaaf_client" / "_generated"


def _files(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def test_regenerating_from_openapi_json_gives_the_committed_code(tmp_path: Path) -> None:
    out = tmp_path / "_generated"
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_sdk_python.py"), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    fresh, committed = _files(out), _files(COMMITTED)
    assert sorted(fresh) == sorted(committed), "files added or removed: run `make regen`"
    changed = [name for name in fresh if fresh[name] != committed[name]]
    assert changed == [], f"{changed[:10]} differ from openapi.json: run `make regen`"


def test_every_operation_of_openapi_json_is_a_resource_method() -> None:
    import json

    from aaaf_client import AAAFClient, AsyncAAAFClient

    spec = json.loads((ROOT / "openapi.json").read_text())
    operations = [op["operationId"] for path in spec["paths"].values() for op in path.values()]
    sync_client = AAAFClient(base_url="http://127.0.0.1:9", api_key="unused")
    async_client = AsyncAAAFClient(base_url="http://127.0.0.1:9", api_key="unused")
    for client in (sync_client, async_client):
        methods = {
            name
            for resource in vars(client).values()
            if type(resource).__name__.endswith("Resource")
            for name in dir(resource)
            if not name.startswith("_")
        }
        assert sorted(set(operations) - methods) == []
    sync_client.close()
