"""The audit settings of SCORING.md §2.6 are organization configuration (rate, honesty threshold, minimum)."""

from __future__ import annotations

import pytest

from aaaf.errors import AAAFError
from aaaf.store import Store

from .factories import org_of


def test_audit_settings_round_trip(store: Store) -> None:
    org = org_of(store)
    assert (org.config().audit_rate, org.config().audit_honesty_threshold, org.config().audit_min_tasks) == (
        0.2,
        0.9,
        5,
    )
    org.update_config(audit_rate=0.1, audit_honesty_threshold=0.95, audit_min_tasks=10)
    config = org.config()
    assert (config.audit_rate, config.audit_honesty_threshold, config.audit_min_tasks) == (0.1, 0.95, 10)


@pytest.mark.parametrize(
    ("key", "value"),
    [("audit_rate", 0), ("audit_rate", 1.5), ("audit_honesty_threshold", -0.1), ("audit_min_tasks", -1)],
)
def test_bad_audit_settings_are_refused_naming_the_key(store: Store, key: str, value: float) -> None:
    with pytest.raises(AAAFError) as caught:
        org_of(store).update_config(**{key: value})
    assert caught.value.code == "INVALID_REQUEST" and key in caught.value.message
