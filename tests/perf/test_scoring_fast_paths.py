"""The scoring core's fast paths give exactly what the plain computations give.

perf(S) of SCORING.md §2.3 reuses the window's consistency groups (when a subset holds a
group whole) and the renormalised weights per pattern of covered dimensions; the fold groups
events in C when every event carries its task_id.  Each is compared here, with ``==`` on
floats (bit-identical, not approximately equal), against the straightforward computation.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from types import UnionType
from typing import Union, get_args, get_origin, get_type_hints

from hypothesis import given, settings
from hypothesis import strategies as st

from aaaf.scoring import aaaf
from aaaf.scoring.aaaf_context import AUTONOMY_OF, COMPLEXITY_OF, DOMAIN_OF, AssessmentContext, partition
from aaaf.scoring.aaaf_tasks import COMPLETED_AT, completed_tasks
from aaaf.scoring.core import composite
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.fold import fold_evidence
from aaaf.scoring.records import EventRecord
from tests.scoring.factories import WINDOW_END, Events

CONFIG = AAAFConfig()
DOMAINS = ("code", "data", "writing")


def _agent_events(seed: int, tasks: int = 90) -> list[EventRecord]:
    """A varied agent: domains, levels, autonomy, statuses, errors, revisions, checklists."""
    rng = random.Random(seed)
    ev = Events()
    events: list[EventRecord] = []
    for number in range(tasks):
        task_id = f"t{number:03d}"
        days_ago = rng.uniform(0.0, 29.0)
        status = rng.choice(("accepted", "accepted", "partial", "rejected", "failed"))
        checklist = {item: rng.random() < 0.7 for item in CONFIG.checklist[: rng.randint(0, 4)]}
        events.extend(
            ev.task(
                task_id,
                status,
                domain=rng.choice(DOMAINS),
                complexity=rng.randint(1, 3),
                autonomy=rng.randint(0, 3),
                days_ago=days_ago,
                seconds=rng.uniform(60.0, 20000.0),
                errors=[{"severity": rng.choice(("critical", "major", "minor"))}]
                if rng.random() < 0.3
                else [],
                revision_count=rng.choice((0, 0, 1)),
                milestone_fraction=round(rng.random(), 3),
                review_checklist=checklist,
            )
        )
        if rng.random() < 0.2:
            events.append(ev.revised(task_id, "minor", days_ago=days_ago))
        if rng.random() < 0.5:
            events.append(ev.tool(task_id, rng.choice(("bash", "grep")), days_ago=days_ago))
    return events


def _context(events: list[EventRecord]) -> AssessmentContext:
    window = aaaf.window_evidence(fold_evidence(events), CONFIG, WINDOW_END)
    return AssessmentContext(window, CONFIG)


def _plain_perf(subset: list[aaaf.ScoredTask]) -> float | None:
    """perf(S) the plain way: every component from scratch, no reuse."""
    if not subset:
        return None
    return composite(aaaf.performance_components(subset, CONFIG).scores(), CONFIG.performance_weights).score


def test_perf_of_every_capability_subset_is_the_plain_perf() -> None:
    ctx = _context(_agent_events(7))
    scored = list(ctx.window.scored)
    subsets = [
        *(partition(scored, DOMAIN_OF).values()),
        *(partition(scored, COMPLEXITY_OF).values()),
        *(partition(scored, AUTONOMY_OF).values()),
    ]
    completed = sorted(completed_tasks(scored), key=COMPLETED_AT)
    subsets += [completed[i : i + 5] for i in range(0, len(completed), 5)]
    assert len(subsets) > 10
    reused = 0
    for subset in subsets:
        assert ctx.perf(subset) == _plain_perf(subset)
        whole = aaaf.consistency_groups(subset, CONFIG.consistency_min_group, ctx._groups)[0]
        reused += sum(1 for g in whole if g is ctx._groups.get((g.domain, g.complexity_level)))
    # domain and complexity subsets hold their groups whole: their CVs were reused, not recomputed
    assert reused > 0


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 3), picks=st.lists(st.integers(0, 10_000), max_size=60), shuffle=st.booleans())
def test_perf_of_any_subset_is_the_plain_perf(seed: int, picks: list[int], shuffle: bool) -> None:
    ctx = _context(_agent_events(seed))
    scored = ctx.window.scored
    chosen = sorted({p % len(scored) for p in picks})
    subset = [scored[i] for i in chosen]
    if shuffle:
        random.Random(len(chosen)).shuffle(subset)
    assert ctx.perf(subset) == _plain_perf(subset)
    fast = aaaf.performance_components(subset, CONFIG, ctx._groups or None)
    assert fast == aaaf.performance_components(subset, CONFIG)


def test_a_partial_group_gets_its_own_cv() -> None:
    """Known group ('code', 2) has 5 members; a subset holding 4 of them must not reuse it.

    Credits of the 4 (accepted, accepted, partial 0.5, partial 0.5): mean 0.75,
    variance ((0.25² × 2) + (0.25² × 2)) / 4 = 0.0625, std 0.25, CV 0.25 / 0.75 = 1/3.
    """
    ev = Events()
    events = [
        *ev.task("a", "accepted", days_ago=1),
        *ev.task("b", "accepted", days_ago=1),
        *ev.task("c", "partial", days_ago=1, milestone_fraction=0.5),
        *ev.task("d", "partial", days_ago=1, milestone_fraction=0.5),
        *ev.task("e", "accepted", days_ago=1),
    ]
    config = replace(CONFIG, consistency_min_group=4)
    window = aaaf.window_evidence(fold_evidence(events), config, WINDOW_END)
    whole = aaaf.performance_components(window.scored, config)
    known = {(g.domain, g.complexity_level): g for g in whole.groups}
    kept, small = aaaf.consistency_groups(window.scored[:4], 4, known)
    assert small == 0
    assert [g.tasks for g in kept] == [4]
    assert math.isclose(kept[0].cv_completion, 1 / 3, rel_tol=1e-15)
    assert kept[0] is not known[("code", 2)]
    # all five: the known group itself
    assert aaaf.consistency_groups(window.scored, 4, known)[0][0] is known[("code", 2)]
    # fewer tasks than the minimum group: every group small, none kept
    assert aaaf.consistency_groups(window.scored[:3], 4, known) == ([], 1)


def test_fold_fast_grouping_equals_the_general_loop() -> None:
    events = _agent_events(3)
    fast = fold_evidence(events)
    # records without their task_id column take the general loop (task_id read from data)
    general = fold_evidence([e._replace(task_id=None) for e in events])
    assert fast.tasks == general.tasks
    assert fast.event_types == general.event_types
    assert fast.unattached == general.unattached
    # an event of another scheme also forces the general loop, and is ignored by it
    other = Events().event("eval_result", {"task_id": "x"}, event_id="zz-eval")
    mixed = fold_evidence([*events, other])
    assert mixed.tasks == fast.tasks
    assert mixed.event_types == fast.event_types


def test_assess_is_independent_of_event_order() -> None:
    events = _agent_events(5)
    forward = aaaf.assess(events, CONFIG, WINDOW_END, enforce_minimums=False).to_dict()
    backward = aaaf.assess(list(reversed(events)), CONFIG, WINDOW_END, enforce_minimums=False).to_dict()
    assert forward == backward


def _conforms(value: object, hint: object) -> bool:
    """Whether ``value`` has the type the field is annotated with (outer types only)."""
    if hint is type(None):
        return value is None
    if get_origin(hint) in (Union, UnionType):
        return any(_conforms(value, option) for option in get_args(hint))
    origin = get_origin(hint) or hint
    if origin is float:
        return type(value) is float
    return isinstance(value, origin)  # type: ignore[arg-type]


def test_the_positional_builders_put_every_value_in_its_field() -> None:
    """The fold's Task and ToolUsage, score_task's ScoredTask and performance_components'
    components are built with tuple.__new__ in field order (keywords cost several per cent),
    which mypy cannot check: every field holds a value of its annotated type, and a task's
    values are the ones its events give."""
    ctx = _context(_agent_events(7))
    scored = ctx.window.scored
    usages = [usage for s in scored for usage in s.task.tools]
    assert usages
    built: list[tuple[object, ...]] = [*scored, *(s.task for s in scored), *usages, ctx.performance]
    built += [aaaf.performance_components(part, CONFIG) for part in partition(scored, DOMAIN_OF).values()]
    for record in built:
        hints = get_type_hints(type(record))
        wrong = {
            name: value
            for name, value in record._asdict().items()  # type: ignore[attr-defined]
            if not _conforms(value, hints[name])
        }
        assert wrong == {}, f"{type(record).__name__}: {wrong}"
    for s in scored:
        assert (s.credit, s.completed, s.revised, s.weighted_errors) == (
            s.task.credit,
            s.task.completed,
            s.task.revised,
            s.task.weighted_errors,
        )
        assert s.weight in (1.0, 0.8, 0.6) and len(s.terms) == len(aaaf.TERMS)
        assert s.terms[:2] == (s.weight, s.weight * s.credit)
    for usage in usages:
        assert usage.failures == usage.invocations - usage.successes >= usage.recovered
        assert usage.invocations >= max(usage.successes, usage.unnecessary) and usage.event_ids
    assert ctx.performance.tasks == len(scored)
    assert ctx.performance.completed == sum(s.completed for s in scored)
    assert ctx.performance.total_weight == sum(s.weight for s in scored)
