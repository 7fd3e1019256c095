"""The HTTP API (document 004 §6): ``create_app()`` for uvicorn, ``aaaf serve`` to run it."""

from aaaf.api.app import create_app, openapi_document

__all__ = ["create_app", "openapi_document"]
