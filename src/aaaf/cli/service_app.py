"""The service as ``aaaf serve`` runs it: the API with the job queue of its database (issue 14).

The CLI is the composition root: the API and the jobs are layers side by side, and this
factory (uvicorn's, in every server process) hands the one to the other.

The objects built until then — the modules imported, the app and its routes, some hundreds of
thousands — live as long as the process: they are frozen out of the garbage collector
(``gc.freeze``), whose full collections would otherwise walk them all again, triggered by the
containers a batch request allocates (its parsed body, its rows).
"""

from __future__ import annotations

import gc
from typing import Any


def create_service_app() -> Any:
    from aaaf.api.app import create_app
    from aaaf.jobs.runner import queue_for_server

    app = create_app(job_queue=queue_for_server)
    # server CPU of a 1 000-event batch, bench_api's drive, --workers 2, 4 clients: 23.5-25.0 ->
    # 16.0-18.0 ms (/proc, alternating pairs)
    gc.freeze()
    return app
