"""Every ``--json`` output is byte-identical to what it was before the public shapes moved
into ``aaaf.models`` (issue 10 §3, "Done when").

The recorded outputs in ``tests/fixtures/json_outputs/`` were taken with
``scripts/json_snapshots.py --write`` before the move; this test runs the same commands on
the same deterministic fleet and compares every byte but the placeholders for fresh UUIDs,
the wall clock and the issuer's random key.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RECORDED = ROOT / "tests" / "fixtures" / "json_outputs"


def _snapshots() -> dict[str, str]:
    spec = importlib.util.spec_from_file_location("json_snapshots", ROOT / "scripts" / "json_snapshots.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.snapshots()  # type: ignore[no-any-return]


def test_every_json_output_is_byte_identical_to_the_recorded_one() -> None:
    taken = _snapshots()
    recorded = {path.stem: path.read_text() for path in RECORDED.glob("*.txt")}
    assert sorted(taken) == sorted(recorded)
    for name, text in taken.items():
        assert text == recorded[name], f"--json output of {name!r} changed"
    # the outputs are real results, not empty answers
    assert '"composite_score"' in recorded["assess_one"]
    assert '"verdict"' in recorded["compare"] and '"valid": true' in recorded["verify_json"]
