"""The dashboard's configuration form: the submitted fields of one part of the configuration page
as the changes :func:`aaaf.services.configuration.change_config` takes (docs/dashboard.md)."""

from __future__ import annotations

from typing import Any

from aaaf.errors import AAAFError
from aaaf.reports.markdown import title_of
from aaaf.scoring.defaults import AXES


def config_changes(part: str, form: Any) -> dict[str, Any]:
    """The changes one submitted part of the form asks for (``INVALID_REQUEST`` naming the field
    whose value is not a number or a whole number of days)."""
    if part in ("performance_weights", "capability_weights"):
        axis = part.removesuffix("_weights")
        weights = {}
        for name in AXES[axis]:
            raw = str(form.get(f"w_{name}") or "").strip()
            try:
                weights[name] = float(raw)
            except ValueError:
                raise AAAFError(
                    "INVALID_REQUEST", f"{title_of(name)}: {raw!r} is not a number.", {"field": name}
                ) from None
        return {part: weights}
    if part == "domain_taxonomy":
        domains = [line.strip() for line in str(form.get("domains") or "").splitlines() if line.strip()]
        return {"domain_taxonomy": domains}
    if part == "window":
        out = {}
        for key in ("assessment_window_days", "validity_period_days"):
            raw = str(form.get(key) or "").strip()
            if not raw.isdigit():
                raise AAAFError(
                    "INVALID_REQUEST", f"{key}: {raw!r} is not a whole number of days.", {"field": key}
                )
            out[key] = int(raw)
        return out
    raise AAAFError("INVALID_REQUEST", f"Unknown configuration part {part!r}.", {"field": "part"})
