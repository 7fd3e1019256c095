"""Tests of the statistics (aaaf.stats) against their references."""
