"""aaaf-client: the Python SDK of the AAAF service (issue 18; document 004 §5.2 step 2, §8 phase 2).

``AAAFClient`` (sync) and ``AsyncAAAFClient`` (asyncio) expose every API resource, generated
from the service's committed ``openapi.json`` (``aaaf_client._generated``; its models are in
``aaaf_client.models``), and an ingestion helper: ``ingest(event)``, ``flush()``, ``close()``.
"""

from aaaf_client._generated import models
from aaaf_client._ingest import FailedEvent, IngestSummary
from aaaf_client.async_client import AsyncAAAFClient
from aaaf_client.client import AAAFClient
from aaaf_client.errors import (
    AAAFError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    ConnectionFailedError,
    NotFoundError,
    PayloadTooLargeError,
    PermissionDeniedError,
    RateLimitedError,
    ServerError,
    UnprocessableError,
)

__all__ = [
    "AAAFClient",
    "AAAFError",
    "AsyncAAAFClient",
    "AuthenticationError",
    "BadRequestError",
    "ConflictError",
    "ConnectionFailedError",
    "FailedEvent",
    "IngestSummary",
    "NotFoundError",
    "PayloadTooLargeError",
    "PermissionDeniedError",
    "RateLimitedError",
    "ServerError",
    "UnprocessableError",
    "models",
]
