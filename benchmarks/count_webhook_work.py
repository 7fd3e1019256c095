"""The sender's work per webhook delivery, counted, not timed, beside a plain httpx POST's.

``python benchmarks/count_webhook_work.py --deliveries N`` emits ``N + 200`` events for one
webhook on a SQLite store, sends a warm-up round of 200 (imports, the signer, the pool), then
:func:`aaaf.services.webhook_delivery.deliver_due` rounds until N more have been received by
``bench_webhooks.py``'s receiver process, and prints the CPU seconds of those N (every
thread of this process: the recording's worker thread too) and the SQLite statements per
delivery.  ``--plain`` does the same with plain ``httpx.AsyncClient`` POSTs of the same bodies
at the same per-endpoint concurrency (``bench_webhooks.py``'s baseline): the difference of
the two is the sender's overhead.  Instructions: count the measured part alone under
callgrind (the receiver is another process, not counted)::

    COUNT_WEBHOOK_CALLGRIND=1 valgrind --tool=callgrind --instr-atstart=no \\
        --callgrind-out-file=/tmp/webhooks.out python benchmarks/count_webhook_work.py --deliveries 400 --slowdown 100

and divide the total by N.  ``--profile FILE`` writes a cProfile of the N (the event loop's
thread only).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import event

sys.path.insert(0, str(Path(__file__).resolve().parent))

from aaaf.services import webhook_delivery
from aaaf.services import webhooks as webhook_service
from aaaf.services.issuer import secret_box
from aaaf.settings import Settings
from aaaf.store import open_store
from bench_webhooks import _plain_posts, _ReceiverProcess
from callgrind import control

WARM_UP = 200


def _instrument(*, on: bool) -> None:
    """Under ``valgrind --tool=callgrind --instr-atstart=no``, count only the measured part."""
    control("COUNT_WEBHOOK_CALLGRIND", "-i", "on" if on else "off")


def run(deliveries: int, *, plain: bool, profile: Path | None, slowdown: float = 1.0) -> dict[str, Any]:
    # under valgrind all takes ~50 times as long: the round's time limits (the lease, the
    # recorder's wait) are stretched by ``slowdown`` so that they decide as at full speed
    settings = Settings(webhook_allow_loopback=True, webhook_timeout_seconds=10.0 * slowdown)
    webhook_delivery.RECORD_WAIT_SECONDS *= slowdown
    per_endpoint = min(settings.webhook_concurrency, settings.webhook_concurrency_per_endpoint)
    with (
        tempfile.TemporaryDirectory(prefix="aaaf-count-webhooks-") as tmp,
        _ReceiverProcess() as receiver,
        open_store(f"sqlite:///{Path(tmp) / 'aaaf.db'}") as store,
    ):
        org = store.scope(store.create_organization("count-webhooks").id)
        target = receiver.url("/count")
        now = datetime.now(UTC)
        webhook_service.create_webhook(
            org, secret_box(store, settings), target, ["badge.expired"], now=now, settings=settings
        )
        with org.unit_of_work() as uow:
            for index in range(WARM_UP + deliveries):
                webhook_service.emit(uow, "badge.expired", {"badge_id": f"badge-{index}"}, now=now)
        bodies = [
            webhook_service.payload_json("badge.expired", {"badge_id": f"badge-{i}"}, now=now).encode()
            for i in range(WARM_UP, WARM_UP + deliveries)
        ]
        webhook_delivery.deliver_due(store, now=datetime.now(UTC), limit=WARM_UP, settings=settings)
        statements = [0]

        @event.listens_for(store.engine, "before_cursor_execute")
        def _counted(*_: Any) -> None:
            statements[0] += 1

        base = receiver.count
        profiler = None
        if profile is not None:
            import cProfile

            profiler = cProfile.Profile()
            profiler.enable()
        _instrument(on=True)
        usage = resource.getrusage(resource.RUSAGE_SELF)
        started = time.process_time()
        rounds = 0
        if plain:
            asyncio.run(_plain_posts(target, bodies, per_endpoint))
        else:
            while receiver.count - base < deliveries:
                webhook_delivery.deliver_due(store, now=datetime.now(UTC), settings=settings)
                rounds += 1
        cpu = time.process_time() - started
        _instrument(on=False)
        ended = resource.getrusage(resource.RUSAGE_SELF)
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(str(profile))
        received = receiver.count - base
        if received != deliveries:
            raise RuntimeError(f"the receiver counted {received} of {deliveries}")
    return {
        "mode": "plain httpx posts" if plain else "deliveries",
        "requests": deliveries,
        "rounds": rounds,
        "cpu_ms_per_request": round(1000 * cpu / deliveries, 4),
        "user_ms_per_request": round(1000 * (ended.ru_utime - usage.ru_utime) / deliveries, 4),
        "system_ms_per_request": round(1000 * (ended.ru_stime - usage.ru_stime) / deliveries, 4),
        "context_switches_per_request": round(
            (ended.ru_nvcsw + ended.ru_nivcsw - usage.ru_nvcsw - usage.ru_nivcsw) / deliveries, 3
        ),
        "sqlite_statements_per_request": round(statements[0] / deliveries, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deliveries", type=int, default=2000, help="counted deliveries (after 200 warm-up)")
    parser.add_argument("--plain", action="store_true", help="plain httpx posts of the same bodies instead")
    parser.add_argument("--profile", type=Path, help="write a cProfile of the counted part here")
    parser.add_argument(
        "--slowdown", type=float, default=1.0, help="stretch the round's time limits (under valgrind: 100)"
    )
    args = parser.parse_args()
    result = run(args.deliveries, plain=args.plain, profile=args.profile, slowdown=args.slowdown)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
