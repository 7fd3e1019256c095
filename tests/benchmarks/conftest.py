"""The live server of the API tests, reused for the benchmark and library routes (issue 20)."""

from tests.api.conftest import live  # noqa: F401
