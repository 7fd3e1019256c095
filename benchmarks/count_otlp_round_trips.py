"""Round trips to PostgreSQL per request of ``POST /v1/traces`` beside ``POST
/api/v1/events/batch`` for the same evidence (the workload of :mod:`bench_otlp`), counted at
libpq (not timed), with the app served in this process.

The counts are :mod:`libpq_counts`' (run with ``PSYCOPG_IMPL=python``).  Only what is sent
while a request of the workload is answered is counted (requests are sent one at a time).
``python benchmarks/count_otlp_round_trips.py [--traces N --tools M] [-v]`` (``-v``: every
statement with its count).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from libpq_counts import patch_libpq, recording, round_trips, statements, texts

_kind: list[str] = ["other"]


def run(traces: int, tools: int) -> dict[str, dict[str, float]]:
    from fastapi.testclient import TestClient

    import bench_otlp
    from bench_api import ADMIN_KEY, BENCH_RATE_LIMIT_PER_MINUTE, postgres_schema

    spans = bench_otlp.record(traces, tools)
    encoded = bench_otlp.bodies(spans)
    events = bench_otlp.mapped_events(encoded)
    batches = [
        json.dumps({"events": events[start : start + bench_otlp.EVENTS_PER_BATCH]}).encode()
        for start in range(0, len(events), bench_otlp.EVENTS_PER_BATCH)
    ]
    os.environ.setdefault("AAAF_SECRET_KEY", "YmVuY2gtc2VjcmV0LW9mLXRoZS1hYWFmLWJlbmNoLTMyYnl0ZXMhIQ==")
    os.environ["AAAF_MAX_RATE_LIMIT_PER_MINUTE"] = str(BENCH_RATE_LIMIT_PER_MINUTE)
    requests = collections.Counter[str]()
    with postgres_schema() as url:
        from aaaf.api.app import create_app

        app = create_app(url, admin_key=ADMIN_KEY)
        with TestClient(app) as client:
            keys = {}
            for kind in ("otlp", "batch"):
                created = client.post(
                    "/api/v1/organizations",
                    json={"name": f"count-{uuid.uuid4().hex[:8]}"},
                    headers={"Authorization": f"Bearer {ADMIN_KEY}"},
                )
                created.raise_for_status()
                keys[kind] = created.json()["api_key"]
                client.patch(
                    f"/api/v1/organizations/{created.json()['id']}/config",
                    json={"rate_limit_per_minute": BENCH_RATE_LIMIT_PER_MINUTE},
                    headers={"Authorization": f"Bearer {keys[kind]}"},
                ).raise_for_status()
                client.post(
                    "/api/v1/agents",
                    json={"name": "bench-agent"},
                    headers={"Authorization": f"Bearer {keys[kind]}"},
                ).raise_for_status()
            content_types = {"otlp": "application/x-protobuf", "batch": "application/json"}
            paths = {"otlp": "/v1/traces", "batch": "/api/v1/events/batch"}
            for kind, body in bench_otlp.interleaved(encoded, batches):
                headers = {"Content-Type": content_types[kind], "Authorization": f"Bearer {keys[kind]}"}
                _kind[0] = kind
                recording.set()
                answer = client.post(paths[kind], content=body, headers=headers)
                recording.clear()
                answer.raise_for_status()
                requests[kind] += 1
    return {
        kind: {
            "requests": requests[kind],
            "statements": statements[kind],
            "round_trips": round_trips[kind],
            "statements_per_request": round(statements[kind] / requests[kind], 2),
            "round_trips_per_request": round(round_trips[kind] / requests[kind], 2),
            "events": len(events),
        }
        for kind in ("otlp", "batch")
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--traces", type=int, default=2000)
    parser.add_argument("--tools", type=int, default=4)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    patch_libpq(lambda: _kind[0])
    counts = run(args.traces, args.tools)
    print(json.dumps(counts, indent=2))
    if args.verbose:
        for kind in ("otlp", "batch"):
            print(f"{kind}:")
            for statement, times in texts[kind].most_common():
                print(f"  {times:5d}  {statement}")


if __name__ == "__main__":
    main()
