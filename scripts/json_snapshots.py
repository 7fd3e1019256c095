"""Every ``--json`` output of the CLI on a small deterministic fleet, for byte comparisons.

Issue 10 "Done when": the public shapes moved into ``aaaf.models`` without changing a byte
of what ``--json`` prints.  This runs the CLI (in-process) on a fresh SQLite store built
from the demo generators and returns each command's stdout (stderr for errors).  Values
that differ from run to run — fresh UUIDs, the wall clock, the temporary directory, the
issuer's random key — are replaced by numbered placeholders; everything else (keys, their
order, numbers, text) is kept as printed.

    python scripts/json_snapshots.py --write tests/fixtures/json_outputs   # record
    python scripts/json_snapshots.py --check tests/fixtures/json_outputs   # compare
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

NOW = "2026-11-20T12:00:00Z"
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
# timestamps of the wall clock (the fleet's own are fixed, all before NOW)
WALL = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?")
KEY_ID = re.compile(r"\b(kid|key_id|fingerprint)(\"?: \")([A-Za-z0-9_\-:]+)")
API_KEY = re.compile(r"\b(?:ak|oc)_[A-Za-z0-9_\-]+")  # API keys, OAuth client ids
LONG_TOKEN = re.compile(r"[A-Za-z0-9_\-]{40,}(?:\.[A-Za-z0-9_\-]+)*")
PROMPTFOO = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "promptfoo" / "graders_results.json"
LIBRARY_TASK = """tasks:
  - id: legal-1
    task_type: domain_probe
    dimensions: [domain_breadth]
    domain: legal
    complexity_level: 1
    prompt: "What is 2 + 2? Answer with the number."
    time_baseline_seconds: 5
    checks: [{kind: answer_number, name: four, value: 4}]
    reference: {answer: "4"}
"""


class Normaliser:
    def __init__(self, tmp: Path) -> None:
        self.tmp = str(tmp)
        self.names: dict[str, str] = {}
        self.wall_from = datetime(2026, 11, 21, tzinfo=UTC)

    def _name(self, kind: str, value: str) -> str:
        if value not in self.names:
            self.names[value] = f"<{kind}{sum(1 for n in self.names.values() if n.startswith('<' + kind))}>"
        return self.names[value]

    def _wall(self, match: re.Match[str]) -> str:
        text = match.group(0)
        try:
            parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            return text
        if parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=UTC)
        return "<wall>" if parsed >= self.wall_from else text

    def __call__(self, text: str) -> str:
        from aaaf.store.migrate import SCHEMA_HEAD

        text = text.replace(self.tmp, "<tmp>")
        for revision in SCHEMA_HEAD:  # the newest migration's name changes with every migration
            text = text.replace(f'"{revision}"', '"<schema_head>"')
        text = UUID.sub(lambda m: self._name("uuid", m.group(0)), text)
        text = WALL.sub(self._wall, text)
        text = KEY_ID.sub(lambda m: m.group(1) + m.group(2) + self._name("key", m.group(3)), text)
        text = API_KEY.sub(lambda m: self._name("api_key", m.group(0)), text)
        return LONG_TOKEN.sub(lambda m: self._name("token", m.group(0)), text)


def snapshots() -> dict[str, str]:
    """Name → normalised output of each ``--json`` command."""
    from typer.testing import CliRunner

    from aaaf.cli.main import app

    runner = CliRunner()
    out: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as directory:
        tmp = Path(directory)
        norm = Normaliser(tmp)
        db = str(tmp / "aaaf.db")
        py = sys.executable
        gen: list[list[str]] = [
            ["aaaf.demo.fleet", "--output", f"{tmp}/fleet.jsonl", "--enrollment", f"{tmp}/agents.json",
             "--now", NOW, "--agents", "5"],
            ["aaaf.demo.trust", "--fleet", f"{tmp}/agents.json", "--output", f"{tmp}/trust.jsonl", "--now", NOW],
            ["aaaf.demo.workflow", "--output", f"{tmp}/workflow.jsonl", "--definitions", f"{tmp}/workflows",
             "--now", NOW],
            ["aaaf.demo.evals", "--output", f"{tmp}/evals", "--now", NOW],
        ]  # fmt: skip
        for args in gen:
            subprocess.run([py, "-m", *args], check=True, capture_output=True)

        # no CI's step summary (`gate` would name it); installed libraries unpacked in here
        env = {"GITHUB_STEP_SUMMARY": None, "AAAF_STRESS_LIBRARY_CACHE": str(tmp / "cache")}

        def run(name: str, *args: str, stderr: bool = False, store: bool = True) -> str:
            result = runner.invoke(app, [*args, "--db", db] if store else list(args), env=env)
            text = result.stderr if stderr else result.stdout
            out[name] = f"exit {result.exit_code}\n" + norm(text)
            return result.stdout

        import json

        run("enroll", "enroll", "--file", f"{tmp}/agents.json", "--json")
        run(
            "collect",
            "collect",
            "--source",
            "task_logs",
            f"{tmp}/fleet.jsonl",
            f"{tmp}/trust.jsonl",
            "--json",
        )
        run("collect_again", "collect", "--source", "task_logs", f"{tmp}/fleet.jsonl", "--json")
        outcomes = json.loads(run("assess_all", "assess", "--all", "--window-end", NOW, "--json"))
        agent = outcomes[0]["agent"]
        single = json.loads(run("assess_one", "assess", agent, "--window-end", NOW, "--json"))
        run("assessments", "assessments", agent, "--json")
        run("agents", "agents", "--json")
        run("explain", "explain", single["id"], "--json", "--top", "3")
        run("explain_dimension", "explain", single["id"], "--json", "-d", "accuracy")
        run("trust_one", "trust", agent, "--at", NOW, "--json")
        run("trust_history", "trust", "history", agent, "--json")
        run("collect_workflow", "collect", "--source", "task_logs", f"{tmp}/workflow.jsonl", "--enroll",
            "--workflows", f"{tmp}/workflows", "--json")  # fmt: skip
        run("workflow_score", "workflow", "score", "--agent", "wf-atlas", "--json")
        run("workflow_weights", "workflow", "weights", "--json")
        evals = f"{tmp}/evals"
        run(
            "compare",
            "compare",
            f"{evals}/control.json",
            f"{evals}/treatment.json",
            "--json",
            "--fail-on",
            "none",
            store=False,
        )
        run("compare_several", "compare", f"{evals}/control.json", f"{evals}/treatment.json",
            f"{evals}/control.json", "--json", "--fail-on", "none", store=False)  # fmt: skip
        run(
            "badge",
            "badge",
            "issue",
            agent,
            "--format",
            "json,svg",
            "--output",
            f"{tmp}/badges",
            "--json",
        )
        run("verify", "verify", f"{tmp}/badges/{agent}.svg", "--json")
        run("verify_json", "verify", f"{tmp}/badges/{agent}.json", "--json")
        run("audit_status", "audit", "status", agent, "--window-end", NOW, "--json")
        run("error_unknown_agent", "assess", "nobody", "--window-end", NOW, "--json", stderr=True)
        run("error_explain", "explain", "00000000-0000-0000-0000-000000000000", "--json", stderr=True)
        run("org_create", "org", "create", "acme", "--json")
        run("org_list", "org", "list", "--json")
        run("keys_create", "keys", "create", "--scopes", "read,events:write", "--name", "ci", "--json")
        run("keys_list", "keys", "list", "--json")
        # issue 10: the outputs that were hand-built dicts before they got public models
        run("config_set", "config", "set", "window_days", "45", "--json")
        run("config_set_unchanged", "config", "set", "window_days", "45", "--json")
        run("config_show", "config", "show", "--json")
        run("review_list", "review", "list", "--json")
        run("trust_weights", "trust", "weights", "--json")
        run("trust_review_pending", "trust", "review", "--json")
        run("badge_all", "badge", "issue", "--all", "--format", "json", "--output", f"{tmp}/all", "--json")
        run("badge_revoke", "badge", "revoke", single["id"], "--reason", "key leaked",
            "--output", f"{tmp}/status.jwt", "--json")  # fmt: skip
        client = json.loads(run("oauth_create", "oauth-clients", "create", "--scopes", "read", "--json"))
        run("oauth_list", "oauth-clients", "list", "--json")
        run("oauth_revoke", "oauth-clients", "revoke", client["client_id"], "--json")
        # issue 31: the operator's commands that printed hand-built dicts
        run("status", "status", "--json")
        run("db_upgrade", "db", "upgrade", "--json")
        run("init", "init", "--dir", f"{tmp}/init", "--json", store=False)
        run("report", "report", agent, "--output", f"{tmp}/reports", "--at", NOW, "--json")
        run("gate_promote", "gate", "promote", single["id"], "--json")
        # issue 31: the rest of the outputs that printed hand-built dicts, and those of the
        # benchmark and the libraries
        run("audit_sample", "audit", "sample", agent, "--output", f"{tmp}/sheet.jsonl", "--window-end", NOW,
            "--json")  # fmt: skip
        run("issuer_jwks", "issuer", "key", "--jwks")
        run(
            "eval_score",
            "eval",
            "score",
            f"{evals}/control.json",
            "--resamples",
            "500",
            "--json",
            store=False,
        )
        run("eval_grade", "eval", "grade", f"{evals}/treatment.json", "--output", f"{tmp}/graded.json", "--json",
            store=False)  # fmt: skip
        run("eval_import", "eval", "import", str(PROMPTFOO), "--from", "promptfoo", "--output", f"{tmp}/imported",
            "--json", store=False)  # fmt: skip
        run("gate", "gate", f"{evals}/control.json", f"{evals}/treatment.json", "--fail-on", "none",
            "--resamples", "500", "--summary", f"{tmp}/summary.md", "--json", store=False)  # fmt: skip
        run("stress_list", "stress-test", "--list", "--dimension", "learning_rate", "--json", store=False)
        library = tmp / "library"
        library.mkdir()
        (library / "tasks.yaml").write_text(LIBRARY_TASK, encoding="utf-8")
        run("library_publish", "stress-libraries", "publish", str(library), "--name", "legal-lib",
            "--version", "1.0", "--description", "one legal task", "--json")  # fmt: skip
        run("library_list", "stress-libraries", "list", "--json")
        run("library_install", "stress-libraries", "install", "legal-lib", "1.0", "--json")
        run("benchmarks_compute", "benchmarks", "compute", "--json")
        run("benchmarks_show", "benchmarks", "show", "--json")
        run("benchmarks_standing", "benchmarks", "standing", agent, "--json")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", type=Path)
    group.add_argument("--check", type=Path)
    args = parser.parse_args(argv)
    taken = snapshots()
    problems: list[str] = []
    for name, text in taken.items():
        if args.write:
            args.write.mkdir(parents=True, exist_ok=True)
            (args.write / f"{name}.txt").write_text(text)
        else:
            path: Path = args.check / f"{name}.txt"
            if not path.exists() or path.read_text() != text:
                problems.append(name)
    for name in problems:
        print(f"differs: {name}", file=sys.stderr)
    return 1 if problems else 0


check: Callable[[], dict[str, str]] = snapshots

if __name__ == "__main__":
    sys.exit(main())
