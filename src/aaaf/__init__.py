"""AAAF — the AI Agent Assessment Framework: evidence of what agents did in, scores out.

The public Python API (``docs/python-api.md`` shows it at work).  Everything here is a
re-export, loaded on first use so that ``import aaaf`` (and ``aaaf --help``) stays cheap;
everything else in the package is internal and may change.

* the store — :func:`open_store`, :class:`Store` (organizations), :class:`OrgStore` (one
  organization's agents, events, assessments, badges…);
* evidence in — :func:`collect` (validate and store raw events, per-line errors),
  :func:`validate_event`, :class:`EventRecord`;
* scores out — :func:`assess_agent` (score and store an assessment), the scoring schemes by
  name (:func:`get_scheme`, :func:`scheme_names`, :class:`SchemeSpec`, :func:`replay`) and
  their results (:class:`AAAFResult`, :class:`TrustResult`, :class:`WorkflowWeights`);
* A/B verdicts — :func:`load_run`, :func:`compare_runs`, :class:`Comparison`,
  :class:`LayeredConfig`;
* badges — :func:`verify_badge`, :class:`VerificationResult`;
* errors — :class:`AAAFError` (a §6.4 code, a message naming the problem, details).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aaaf._lazy import lazy_exports

# The version, in this one place: the wheel's metadata (pyproject.toml reads it) and
# `aaaf --version` both take it from here.
__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    "AAAFError": "aaaf.errors:AAAFError",
    "open_store": "aaaf.store:open_store",
    "Store": "aaaf.store:Store",
    "OrgStore": "aaaf.store:OrgStore",
    "collect": "aaaf.services.collect:collect",
    "validate_event": "aaaf.evidence.validation:validate_event",
    "EventRecord": "aaaf.scoring.records:EventRecord",
    "assess_agent": "aaaf.services.assess:assess_agent",
    "get_scheme": "aaaf.scoring.schemes:get_scheme",
    "scheme_names": "aaaf.scoring.schemes:scheme_names",
    "SchemeSpec": "aaaf.scoring.schemes:SchemeSpec",
    "replay": "aaaf.scoring.schemes:replay",
    "AAAFConfig": "aaaf.scoring.defaults:AAAFConfig",
    "AAAFResult": "aaaf.scoring.results:AAAFResult",
    "TrustResult": "aaaf.scoring.trust:TrustResult",
    "WorkflowWeights": "aaaf.scoring.workflow:WorkflowWeights",
    "load_run": "aaaf.evals.models:load_run",
    "compare_runs": "aaaf.scoring.verdict:compare_runs",
    "Comparison": "aaaf.scoring.verdict:Comparison",
    "LayeredConfig": "aaaf.scoring.layered:LayeredConfig",
    "verify_badge": "aaaf.badges.verify:verify",
    "VerificationResult": "aaaf.badges.verify:VerificationResult",
}

__all__ = [
    "AAAFConfig",
    "AAAFError",
    "AAAFResult",
    "Comparison",
    "EventRecord",
    "LayeredConfig",
    "OrgStore",
    "SchemeSpec",
    "Store",
    "TrustResult",
    "VerificationResult",
    "WorkflowWeights",
    "assess_agent",
    "collect",
    "compare_runs",
    "get_scheme",
    "load_run",
    "open_store",
    "replay",
    "scheme_names",
    "validate_event",
    "verify_badge",
]

if TYPE_CHECKING:  # for type checkers and IDEs: the same names, imported eagerly
    from aaaf.badges.verify import VerificationResult
    from aaaf.badges.verify import verify as verify_badge
    from aaaf.errors import AAAFError
    from aaaf.evals.models import load_run
    from aaaf.evidence.validation import validate_event
    from aaaf.scoring.defaults import AAAFConfig
    from aaaf.scoring.layered import LayeredConfig
    from aaaf.scoring.records import EventRecord
    from aaaf.scoring.results import AAAFResult
    from aaaf.scoring.schemes import SchemeSpec, get_scheme, replay, scheme_names
    from aaaf.scoring.trust import TrustResult
    from aaaf.scoring.verdict import Comparison, compare_runs
    from aaaf.scoring.workflow import WorkflowWeights
    from aaaf.services.assess import assess_agent
    from aaaf.services.collect import collect
    from aaaf.store import OrgStore, Store, open_store

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
