"""AAAF."""
