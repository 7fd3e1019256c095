"""The README's Python SDK example works as written (issue 18 "Done when"): its code block, run
against the live server with the server's address and a real key in place of the placeholders."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

README = Path(__file__).resolve().parents[3] / "README.md"


def _python_block() -> str:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("### Python") :]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "the README's SDK section has no python code block"
    return match.group(1)


def test_the_readme_sdk_example_runs(live: Any) -> None:
    org = live.organization()
    code = _python_block()
    assert "http://127.0.0.1:8000" in code and '"ak_…"' in code
    code = code.replace("http://127.0.0.1:8000", live.base_url).replace('"ak_…"', repr(org.key))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "IngestSummary(accepted=1, duplicates=0, rejected=[], dropped=0)"
    agents = org.client.get("/api/v1/agents").json()["items"]
    events = org.client.get("/api/v1/events", params={"agent_id": agents[0]["id"]}).json()["items"]
    assert [(e["key"], e["type"]) for e in events] == [("t1-done", "task_completed")]
