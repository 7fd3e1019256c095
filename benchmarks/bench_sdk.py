"""The Python SDK's ingestion helper (issue 18 §4): events/s through ``AAAFClient.ingest`` +
``flush()`` into PostgreSQL, beside the same kind of events posted as raw batches in the same run.

A real ``aaaf serve`` (bench_api's ``serving``) on a PostgreSQL schema of its own.  Each round:

* ``raw_events_per_s`` — the baseline: one ``httpx.Client`` posting the events, 1 000 per
  request, one request after the other (``json=`` encodes them inside the clock, as the SDK
  encodes its events inside its clock);
* ``sdk_events_per_s`` — the same number of events (other ids, another agent) through
  ``client.ingest(event)`` for each, then ``client.flush()``, which returns when the service
  acknowledged them all (the SDK's one delivery thread sends 1 000-event chunks one after the
  other, so both sides have one request in flight).

The best of ``--rounds`` is kept for each side; ``sdk_vs_raw`` is their ratio (the target is
at least 0.8).  Nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from aaaf_client import AAAFClient

from bench_api import BATCH, events, organization, postgres_available, postgres_schema, serving


def raw_batches(base: str, key: str, every: list[dict[str, Any]]) -> float:
    """Seconds to post ``every`` as 1 000-event batches with plain httpx, one at a time."""
    with httpx.Client(base_url=base, timeout=120, headers={"Authorization": f"Bearer {key}"}) as http:
        http.get("/health")  # connected before the clock starts
        start = time.perf_counter()
        acked = 0
        for index in range(0, len(every), BATCH):
            answer = http.post("/api/v1/events/batch", json={"events": every[index : index + BATCH]})
            answer.raise_for_status()
            result = answer.json()
            acked += result["accepted"] + result["duplicates"]
        elapsed = time.perf_counter() - start
    if acked != len(every):
        raise RuntimeError(f"raw batches: {acked} of {len(every)} acknowledged")
    return elapsed


def sdk_ingest(base: str, key: str, every: list[dict[str, Any]]) -> float:
    """Seconds to ``ingest`` every event and ``flush()`` until the service acknowledged them."""
    client = AAAFClient(base_url=base, api_key=key)
    client.health.health()  # connected before the clock starts
    start = time.perf_counter()
    for event in every:
        client.ingest(event)
    summary = client.flush()
    elapsed = time.perf_counter() - start
    client.close()
    if summary.accepted + summary.duplicates != len(every) or summary.rejected:
        raise RuntimeError(
            f"sdk: {summary.accepted} accepted, {len(summary.rejected)} rejected of {len(every)}"
        )
    return elapsed


def run(events_per_round: int = 20_000, rounds: int = 2) -> dict[str, Any] | str:
    if not postgres_available():
        return "not available: PostgreSQL cannot be reached"
    raw_times: list[float] = []
    sdk_times: list[float] = []
    with (
        postgres_schema() as url,
        tempfile.TemporaryDirectory() as workdir,
        serving(url, Path(workdir), workers=1) as base,
    ):
        key, warm_agent = organization(base)
        raw_batches(base, key, events(warm_agent, BATCH, "warm"))  # the server's first-request costs
        for number in range(rounds):
            raw_key, raw_agent = organization(base)
            raw_times.append(raw_batches(base, raw_key, events(raw_agent, events_per_round, f"raw{number}")))
            sdk_key, sdk_agent = organization(base)
            sdk_times.append(sdk_ingest(base, sdk_key, events(sdk_agent, events_per_round, f"sdk{number}")))
            print(f"round {number}: raw {raw_times[-1]:.2f} s, sdk {sdk_times[-1]:.2f} s", file=sys.stderr)
    raw_rate = events_per_round / min(raw_times)
    sdk_rate = events_per_round / min(sdk_times)
    return {
        "database": "postgresql",
        "events_per_round": events_per_round,
        "rounds": rounds,
        "batch": BATCH,
        "raw_events_per_s": round(raw_rate, 1),
        "sdk_events_per_s": round(sdk_rate, 1),
        "sdk_vs_raw": round(sdk_rate / raw_rate, 3),
        "target_sdk_vs_raw": 0.8,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--events", type=int, default=20_000, help="events per round and side")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    print(json.dumps(run(args.events, args.rounds), indent=2))


if __name__ == "__main__":
    main()
