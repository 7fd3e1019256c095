"""Command modules: each defines ``register(app: typer.Typer) -> None`` and is discovered by main.py.

Adding a command group is adding a module here; main.py needs no edit.
"""
