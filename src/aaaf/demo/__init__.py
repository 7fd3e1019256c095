"""Deterministic sample-data generators for `make demo` (one module per concern, each runnable with python -m)."""
