"""The pure scoring core: evidence and config in, results out (no I/O, no clock, no database)."""
