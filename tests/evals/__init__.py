"""Tests of eval runs (models, importers)."""
