"""Write the JSON Schemas of the public shapes into docs/schemas/, those of the input events
into docs/schemas/events/, and the table of event fields of docs/evidence-format.md.

    .venv/bin/python scripts/gen_schemas.py [--output docs/schemas]

Run after changing a model of ``aaaf.models`` or an event payload; ``tests/models/test_schemas.py``
and ``tests/models/test_event_schemas.py`` fail until the committed files match.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from aaaf.evidence.event_schemas import page_with_table, write_event_schemas
from aaaf.models.schemas import write_schemas

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--output", type=Path, default=ROOT / "docs" / "schemas")
    args = parser.parse_args(argv)
    written = [*write_schemas(args.output), *write_event_schemas(args.output / "events")]
    page = ROOT / "docs" / "evidence-format.md"
    page.write_text(page_with_table(page.read_text(encoding="utf-8")), encoding="utf-8")
    for path in [*written, page]:
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


if __name__ == "__main__":
    main()
