"""Tests of the demo data generators."""
