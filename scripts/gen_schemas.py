"""Write the JSON Schemas of the public shapes into docs/schemas/ (issue 10 §3).

    .venv/bin/python scripts/gen_schemas.py [--output docs/schemas]

Run after changing a model of ``aaaf.models``; ``tests/models/test_schemas.py`` fails until
the committed schemas match the models.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from aaaf.models.schemas import write_schemas

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--output", type=Path, default=ROOT / "docs" / "schemas")
    args = parser.parse_args(argv)
    for path in write_schemas(args.output):
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


if __name__ == "__main__":
    main()
