"""A badge per agent from the CLI: `aaaf badge NAME` takes an agent's name (its latest completed
assessment), files are named after the agent, `--all` writes one set per agent, and the
Markdown starts with the snippet a README embeds (the agent's stable badge URL linking the
verification page)."""

from __future__ import annotations

import json
from pathlib import Path

from aaaf.services.agent_badges import badge_file_stem
from aaaf.store import open_store
from tests.cli.test_badge import assessment, db, run  # noqa: F401  (db is a fixture)


def test_badge_takes_an_agent_name_and_names_files_after_it(db: Path, tmp_path: Path) -> None:  # noqa: F811
    older = assessment(db, agent_name="readme-bot")
    newest = assessment(db, agent_name="readme-bot")
    out = tmp_path / "badges"
    issued = run("badge", "readme-bot", "--format", "svg,png,md", "--output", out, "--db", db, "--json")
    assert issued.exit_code == 0, issued.output
    body = json.loads(issued.stdout)
    # the current one: the later completed, then created, then the greater id (docs/scoring.md
    # §3.7) — the two may have completed in the same instant
    with open_store(f"sqlite:///{db}") as store:
        org = store.scope(store.default_organization().id)
        current = max(
            (org.get_assessment(older), org.get_assessment(newest)), key=lambda a: a.completion_order
        )
    assert body["assessment_id"] == str(current.id)
    assert sorted(p.name for p in out.iterdir()) == ["readme-bot.md", "readme-bot.png", "readme-bot.svg"]
    markdown = (out / "readme-bot.md").read_text()
    first = next(line for line in markdown.splitlines() if line.startswith("[!["))
    assert first == (
        "[![AAAF badge of readme-bot: Performance Expert, Capability Versatile]"
        "(https://assess.example.com/badges/default/readme-bot.svg)]"
        f"(https://assess.example.com/verify/{body['assessment_id']})"
    )
    assert "| Tier |" in markdown  # the table follows
    # an assessment id still works: the current one's (the other is superseded)
    by_id = run(
        "badge", str(current.id), "--format", "json", "--output", tmp_path / "by-id", "--db", db, "--json"
    )
    assert by_id.exit_code == 0 and json.loads(by_id.stdout)["assessment_id"] == str(current.id)


def test_an_unknown_name_is_one_sentence_with_the_nearest_agent(db: Path, tmp_path: Path) -> None:  # noqa: F811
    assessment(db, agent_name="security-auditor")
    missing = run("badge", "security-audtor", "--output", tmp_path, "--db", db)
    assert missing.exit_code == 2
    assert "No agent or assessment named 'security-audtor'. Did you mean security-auditor?" in missing.output
    assert "Assessment security-audtor not found" not in missing.output


def test_badge_all_writes_one_set_per_agent(db: Path, tmp_path: Path) -> None:  # noqa: F811
    for name in ("one", "two", "../escape", "a/b"):
        assessment(db, agent_name=name)
    out = tmp_path / "all"
    done = run("badge", "--all", "--format", "svg", "--output", out, "--db", db)
    assert done.exit_code == 0, done.output
    names = sorted(p.name for p in out.iterdir())
    assert "one.svg" in names and "two.svg" in names and len(names) == 4
    assert all(Path(name).parent == Path(".") for name in names)  # nothing outside the folder
    assert not (tmp_path / "escape.svg").exists()


def test_file_stems_are_safe_and_distinct() -> None:
    assert badge_file_stem("security-auditor") == "security-auditor"
    hostile = ["../x", "a/b", "a_b", ".hidden", "a b", "", "ü"]
    stems = [badge_file_stem(name) for name in hostile]
    assert len(set(stems)) == len(stems)
    assert all("/" not in stem and not stem.startswith(".") and stem for stem in stems)
