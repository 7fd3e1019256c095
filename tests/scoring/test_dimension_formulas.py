"""A dimension is one declaration; its formulas bind to it by name (docs/architecture.md).

Every declared dimension has each form its axis needs (the engine's result, the Performance
score in perf(S), the bootstrap's rows); a formula for a name not declared is refused when it
registers, and a declaration without a formula is refused when the engine or the bootstrap is
imported — each naming the dimension."""

from __future__ import annotations

import subprocess
import sys

import pytest

from aaaf.scoring import aaaf, uncertainty
from aaaf.scoring.dimensions import (
    CAPABILITY_ROWS,
    DIMENSIONS,
    ENGINE,
    PERFORMANCE_ROWS,
    SUBSET_SCORES,
    Formulas,
    names_of,
)


def test_every_declared_dimension_has_each_of_its_formulas() -> None:
    declared = [d.name for d in DIMENSIONS]
    assert list(ENGINE.complete()) == declared
    assert list(aaaf.DIMENSIONS) == declared
    assert list(SUBSET_SCORES.complete()) == list(names_of("performance"))
    assert list(PERFORMANCE_ROWS.complete()) == list(names_of("performance"))
    assert list(CAPABILITY_ROWS.complete()) == list(names_of("capability"))
    assert uncertainty.PERFORMANCE_ROWS is PERFORMANCE_ROWS  # the bootstrap reads the same registry


def test_a_dimensions_bootstrap_formula_sits_beside_its_other_forms() -> None:
    """A Performance dimension's rows are declared in the module of its engine formula; the
    Capability rows in their own module (the engine's module must not import NumPy at start)."""
    engine = ENGINE.complete()
    for name, formula in PERFORMANCE_ROWS.complete().items():
        assert formula.__module__ == engine[name].__module__ == "aaaf.scoring.aaaf_performance", name
    for name, formula in CAPABILITY_ROWS.complete().items():
        assert formula.__module__ == "aaaf.scoring.capability_rows", name


def test_importing_the_engine_imports_neither_numpy_nor_scipy() -> None:
    code = (
        "import sys, aaaf.scoring.aaaf, aaaf.scoring.aaaf_performance, aaaf.scoring.aaaf_capability\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'numpy', 'scipy'}))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"


def test_a_formula_for_a_name_not_declared_is_refused_when_it_registers() -> None:
    with pytest.raises(RuntimeError, match="'first_pass_rate' is not declared as a dimension"):
        Formulas[object]("engine").register("first_pass_rate")
    with pytest.raises(RuntimeError, match="'speed' is not declared as a capability dimension"):
        Formulas[object]("rows", "capability").register("speed")


def test_a_dimension_with_two_formulas_of_one_form_is_refused() -> None:
    formulas = Formulas[object]("engine")
    formulas.register("speed")(print)
    with pytest.raises(RuntimeError, match="'speed' has two engine formulas"):
        formulas.register("speed")


def test_a_registry_missing_a_declared_dimension_names_it() -> None:
    formulas = Formulas[object]("rows", "performance")
    for name in names_of("performance")[1:]:
        formulas.register(name)(print)
    with pytest.raises(RuntimeError, match=r"without a formula \(rows\): task_completion_rate$"):
        formulas.complete()


_DECLARE_ONE_MORE = (
    "import aaaf.scoring.dimensions as d\n"
    "extra = d.Dimension('first_pass_rate', {axis!r}, 0.0, 'First pass rate', ('-', '-'), 'First passes.')\n"
    "d.DIMENSIONS = (*d.DIMENSIONS, extra)\n"
    "d.BY_NAME = {{**d.BY_NAME, extra.name: extra}}\n"
    "import {module}\n"
)


@pytest.mark.parametrize(
    ("axis", "module", "form"),
    [
        ("performance", "aaaf.scoring.aaaf", "engine"),
        ("capability", "aaaf.scoring.aaaf", "engine"),
        ("performance", "aaaf.scoring.uncertainty", "rows"),
        ("capability", "aaaf.scoring.uncertainty", "rows"),
    ],
)
def test_a_declaration_without_a_formula_fails_the_import_naming_it(
    axis: str, module: str, form: str
) -> None:
    run = subprocess.run(
        [sys.executable, "-c", _DECLARE_ONE_MORE.format(axis=axis, module=module)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode != 0
    assert f"RuntimeError: declared dimension(s) without a formula ({form}): first_pass_rate" in run.stderr


def test_every_declared_dimension_explains_itself_in_one_or_two_plain_sentences() -> None:
    """What a report says to a reader who has not read the formulas (docs/scoring.md §3.3, §3.5)."""
    for dimension in DIMENSIONS:
        text = dimension.explanation.strip()
        assert text, dimension.name
        assert text.endswith("."), dimension.name
        sentences = [part for part in text.rstrip(".").split(". ") if part]
        assert 1 <= len(sentences) <= 2, (dimension.name, text)
        # plain language: no formula keys, no code, no spec references
        assert "_" not in text and "`" not in text and "§" not in text, (dimension.name, text)
    assert len({d.explanation for d in DIMENSIONS}) == len(DIMENSIONS)
