"""A database error of any SQLAlchemy class whose causes include a lost database is answered
503 with ``Retry-After`` by the API's own handler, not by the catch-all: Starlette's catch-all
raises the error again after answering, and the server then closed the client's connection
under it (docs/api.md "Errors")."""

from __future__ import annotations

import psycopg
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import exc as sa_exc

from aaaf.api.errors import install_error_handlers


def _app(error: Exception) -> FastAPI:
    app = FastAPI()
    install_error_handlers(app)

    @app.post("/fails")
    def fails() -> None:
        raise error

    return app


def _invalid_transaction_after_a_lost_connection() -> Exception:
    lost = sa_exc.OperationalError("INSERT …", {}, psycopg.OperationalError("server closed the connection"))
    try:
        try:
            raise lost
        except sa_exc.OperationalError:
            raise sa_exc.PendingRollbackError("invalid transaction")  # noqa: B904  (as SQLAlchemy: the loss is its context)
    except sa_exc.PendingRollbackError as error:
        return error


def test_an_invalid_transaction_after_a_lost_connection_is_a_503_and_nothing_is_raised() -> None:
    # raise_server_exceptions: the catch-all's raising again would fail this request here
    with TestClient(_app(_invalid_transaction_after_a_lost_connection())) as client:
        answer = client.post("/fails")
    assert answer.status_code == 503
    assert answer.headers["Retry-After"]
    assert answer.json()["error"]["code"] == "SERVICE_UNAVAILABLE"


def test_another_database_error_is_still_a_500() -> None:
    error = sa_exc.PendingRollbackError("Can't reconnect until invalid transaction is rolled back.")
    with TestClient(_app(error), raise_server_exceptions=False) as client:
        answer = client.post("/fails")
    assert answer.status_code == 500
    assert answer.json()["error"]["code"] == "INTERNAL_ERROR"
    with TestClient(_app(error)) as client, pytest.raises(sa_exc.PendingRollbackError):
        client.post("/fails")
