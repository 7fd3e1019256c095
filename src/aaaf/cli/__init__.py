"""The `aaaf` command line (Typer + Rich): a thin shell over services."""
