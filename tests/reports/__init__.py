"""Tests of the per-agent report, the fleet summary and docs/scoring.md."""
