"""The service as ``aaaf serve`` runs it: the API with the job queue of its database (issue 14).

The CLI is the composition root: the API and the jobs are layers side by side, and this
factory (uvicorn's, in every server process) hands the one to the other.
"""

from __future__ import annotations

from typing import Any


def create_service_app() -> Any:
    from aaaf.api.app import create_app
    from aaaf.jobs.runner import queue_for_server

    return create_app(job_queue=queue_for_server)
