"""What the docs say about the repository matches it (issue 21, Why 9): links a clone can follow,
and the number of agents the demo really makes."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from aaaf.demo import audit, fleet, workflow

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def _markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_every_relative_link_resolves_inside_the_clone() -> None:
    for document in _markdown_files():
        for target in LINK.findall(document.read_text(encoding="utf-8")):
            if "://" in target or target.startswith("mailto:"):
                continue
            resolved = (document.parent / target).resolve()
            assert resolved.is_relative_to(ROOT), f"{document.name} links outside the clone: {target}"
            assert resolved.exists(), f"{document.name} links a missing file: {target}"
        assert "../shared" not in document.read_text(encoding="utf-8"), document.name


def test_the_readme_links_the_architecture() -> None:
    assert "(docs/architecture.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
    architecture = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    # it describes the code as it is: every package it names exists
    for package in re.findall(r"^  (\w+)/ ", architecture, flags=re.MULTILINE):
        assert (ROOT / "src" / "aaaf" / package).is_dir(), package


def _demo_agent_names() -> set[str]:
    """The agents scripts/demo.sh enrols: the fleet runs' --agents / --only, and the workflow pool."""
    names: set[str] = set()
    script = (ROOT / "scripts" / "demo.sh").read_text(encoding="utf-8").replace("\\\n", " ")
    for line in script.splitlines():
        if "aaaf.demo.fleet" not in line:
            continue
        words = shlex.split(line.split("aaaf.demo.fleet", 1)[1])
        options = dict(zip(words[::2], words[1::2], strict=False))
        profiles = fleet.fleet_profiles(int(options.get("--agents", fleet.DEFAULT_AGENTS)))
        chosen = [profile.name for profile in profiles]
        if "--only" in options:
            chosen = options["--only"].split(",")
        names.update(chosen)
    assert "aaaf.demo.workflow" in script
    names.update(profile.name for profile in workflow.PROFILES)
    if "aaaf.demo.audit agent" in script:
        names.add(audit.AGENT)  # the agent with inflated self-reports (issue 16)
    stress = (ROOT / "scripts" / "stress_demo.sh").read_text(encoding="utf-8")
    if "scripts/stress_demo.sh" in script:  # the reference agents of the stress-test part
        agents = stress.split("for agent in ", 1)[1].split(";", 1)[0].split()
        names.update(f"ref-{agent}" for agent in agents)
    return names


def test_docs_give_the_demo_its_real_agent_count() -> None:
    count = len(_demo_agent_names())
    assert (
        count == 49
    )  # 30 + 2 newcomers of the AAAF fleet, 12 workflow agents, 1 audited agent, 4 reference agents
    cli = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert f"`aaaf agents` then lists {count}" in cli


def test_the_readme_states_the_minimum_evidence() -> None:
    """The minimums are no hidden wall: the README says them, as the defaults are."""
    from aaaf.scoring.defaults import AAAFConfig

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    config = AAAFConfig()
    assert f"**{config.min_tasks_performance} completed tasks**" in readme
    assert f"**{config.min_tasks_capability}** for Capability" in readme
    assert "aaaf config set minimum_tasks_capability" in readme and "--type single_dimension" in readme


def test_collect_help_says_the_summary_comes_first() -> None:
    from aaaf.cli.commands.collect import collect

    assert "The first line is `accepted N, rejected M`" in (collect.__doc__ or "")
