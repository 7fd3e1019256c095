"""Do two source trees store the same ``aaaf assess --all``?  The check behind every change to
the scoring's internals: the stored rows must be byte-identical, old code against new.

``python benchmarks/compare_assess_trees.py OLD_SRC NEW_SRC DB [DB ...]`` copies each SQLite
database twice, runs ``assess_all`` (``--no-uncertainty`` unless ``--uncertainty``; one
process, the window ending at benchmarks/run.py's ``NOW``) with each tree's ``aaaf`` on its
copy, and compares what each stored: every assessment's columns but its own id and times
(type, status, composites, tiers, evidence summary, result, error), its dimension rows and its
evidence trace (the event ids' bytes, the per-dimension positions, the config), keyed by agent
name.  Prints the first difference and exits 1, or prints how many rows matched.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

_RUN = """
import sys
sys.path.insert(0, {bench!r})
from aaaf.services.assess import assess_all
from aaaf.store import open_store
from run import NOW
store = open_store("sqlite:///" + {db!r})
org = store.scope(store.default_organization().id)
assess_all(org, now=NOW, uncertainty={uncertainty!r}, workers=1)
store.close()
"""

_ASSESSMENTS = (
    "SELECT g.name, a.type, a.status, a.dimension, a.window_start, a.window_end,"
    " a.performance_composite, a.performance_tier, a.capability_composite, a.capability_tier,"
    " a.evidence_summary, a.result, a.error, a.anomalous, a.review_state"
    " FROM assessments a JOIN agents g ON g.id = a.agent_id ORDER BY g.name, a.type"
)
_DIMENSIONS = (
    "SELECT g.name, d.axis, d.dimension, d.score, d.sample_size, d.evidence_count, d.details, d.reason"
    " FROM dimension_scores d JOIN assessments a ON a.id = d.assessment_id"
    " JOIN agents g ON g.id = a.agent_id ORDER BY g.name, d.axis, d.dimension"
)
_EVIDENCE = (
    "SELECT g.name, e.scheme, e.scheme_version, e.config, e.event_ids, e.dimension_events"
    " FROM assessment_evidence e JOIN assessments a ON a.id = e.assessment_id"
    " JOIN agents g ON g.id = a.agent_id ORDER BY g.name"
)


def stored_rows(db: Path) -> dict[str, list[tuple[object, ...]]]:
    connection = sqlite3.connect(db)
    try:
        return {
            name: connection.execute(query).fetchall()
            for name, query in (
                ("assessments", _ASSESSMENTS),
                ("dimension_scores", _DIMENSIONS),
                ("evidence", _EVIDENCE),
            )
        }
    finally:
        connection.close()


def assessed_with(
    src: Path, db: Path, workdir: Path, tag: str, uncertainty: bool
) -> dict[str, list[tuple[object, ...]]]:
    copy = workdir / f"{tag}-{db.name}"
    shutil.copyfile(db, copy)
    bench = str(Path(__file__).resolve().parent)
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"}
    code = _RUN.format(bench=bench, db=str(copy), uncertainty=uncertainty)
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
    return stored_rows(copy)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("old_src", type=Path)
    parser.add_argument("new_src", type=Path)
    parser.add_argument("databases", type=Path, nargs="+")
    parser.add_argument("--uncertainty", action="store_true", help="the default run (§2.5 intervals)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        for db in args.databases:
            old = assessed_with(args.old_src, db, workdir, "old", args.uncertainty)
            new = assessed_with(args.new_src, db, workdir, "new", args.uncertainty)
            for table, rows in old.items():
                if rows != new[table]:
                    for index, (before, after) in enumerate(zip(rows, new[table], strict=False)):
                        if before != after:
                            print(
                                f"{db.name}: {table} row {index} differs:\n  old {before!r}\n  new {after!r}"
                            )
                            return 1
                    print(f"{db.name}: {table}: {len(rows)} rows old, {len(new[table])} new")
                    return 1
            print(f"{db.name}: identical ({', '.join(f'{len(r)} {t}' for t, r in old.items())})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
