"""Every ``--json`` output is byte-identical to what it was before the public shapes moved
into ``aaaf.models`` (issue 10 §3, "Done when").

The recorded outputs in ``tests/fixtures/json_outputs/`` were taken with
``scripts/json_snapshots.py --write`` before the move; this test runs the same commands on
the same deterministic fleet and compares every byte but the placeholders for fresh UUIDs,
the wall clock and the issuer's random key.

One allowance: a number with a fraction may differ in its last digits (relative 1e-12).
The bootstraps' matrix products run on BLAS, and OpenBLAS picks a kernel per CPU that sums
in an order of its own: on an AVX-512 machine a compare bound came out 0.22486772486772494
where the AVX2 kernel that recorded it gives 0.22486772486772483 (``OPENBLAS_CORETYPE``
switches between the two).  SCORING.md §2.5 and §4 compare such results with a tolerance
(1e-9) and treat a bound within 1e-9 of 0 as 0, so no verdict depends on those digits;
every other byte must be the same.
"""

from __future__ import annotations

import importlib.util
import math
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RECORDED = ROOT / "tests" / "fixtures" / "json_outputs"


def _snapshots() -> dict[str, str]:
    spec = importlib.util.spec_from_file_location("json_snapshots", ROOT / "scripts" / "json_snapshots.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.snapshots()  # type: ignore[no-any-return]


# a JSON number with a fraction or an exponent (integers must match byte for byte)
_FRACTIONAL = re.compile(r"-?\d+(?:\.\d+(?:[eE][-+]?\d+)?|[eE][-+]?\d+)")


def same_but_last_digits(taken: str, recorded: str) -> bool:
    """Byte-identical, but for fractional numbers within a relative 1e-12 of each other."""
    if taken == recorded:
        return True
    if _FRACTIONAL.split(taken) != _FRACTIONAL.split(recorded):
        return False
    return all(
        math.isclose(float(a), float(b), rel_tol=1e-12, abs_tol=1e-15)
        for a, b in zip(_FRACTIONAL.findall(taken), _FRACTIONAL.findall(recorded), strict=True)
    )


def test_the_comparison_allows_only_last_digits_of_fractions() -> None:
    assert same_but_last_digits('{"ci": [0.22486772486772494]}', '{"ci": [0.22486772486772483]}')
    assert not same_but_last_digits('{"ci": [0.2248677248]}', '{"ci": [0.2248677249]}')
    assert not same_but_last_digits('{"n": 61}', '{"n": 60}')
    assert not same_but_last_digits('{"ci": [0.5], "a": 1}', '{"ci": [0.5], "b": 1}')
    assert not same_but_last_digits('{"x": 1.5}', '{"x": 15}')


def test_every_json_output_is_byte_identical_to_the_recorded_one() -> None:
    taken = _snapshots()
    recorded = {path.stem: path.read_text() for path in RECORDED.glob("*.txt")}
    assert sorted(taken) == sorted(recorded)
    for name, text in taken.items():
        assert same_but_last_digits(text, recorded[name]), f"--json output of {name!r} changed"
    # the outputs are real results, not empty answers
    assert '"composite_score"' in recorded["assess_one"]
    assert '"verdict"' in recorded["compare"] and '"valid": true' in recorded["verify_json"]
