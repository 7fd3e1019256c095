"""Server-rendered pages served by aaaf serve (issue 17)."""
