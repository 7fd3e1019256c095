"""Regenerate the Python SDK's generated layer from the committed ``openapi.json`` (issue 18 §1).

Two steps, both deterministic (the same ``openapi.json`` gives byte-identical files):

1. ``openapi-python-client`` (pinned in the dev extra: a well-kept generator that emits httpx
   calls, sync and async, with typed attrs models; its configuration is
   ``sdk/python/openapi-python-client.yaml``) writes ``aaaf_client/_generated``: the models
   and one module per operation.
2. This script adds ``_generated/resources.py``: one resource class per OpenAPI tag (sync and
   async), one method per operation named by its ``operationId``, with the signature of the
   generated ``sync_detailed`` and its success type; an error answer raises the SDK's typed
   exception (:mod:`aaaf_client.errors`).

Usage: ``python scripts/gen_sdk_python.py`` (rewrites ``sdk/python/src/aaaf_client/_generated``)
or ``--out DIR`` (writes there instead; the drift test compares the two).  The generated files
are never edited by hand: change the API, regenerate ``openapi.json``, rerun this script.
"""

from __future__ import annotations

import argparse
import ast
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SDK = ROOT / "sdk" / "python"
TARGET = SDK / "src" / "aaaf_client" / "_generated"
CONFIG = SDK / "openapi-python-client.yaml"
SPEC = ROOT / "openapi.json"
GENERATOR_VERSION = "0.29.1"


def _generator() -> list[str]:
    script = Path(sys.executable).with_name("openapi-python-client")
    return [str(script)] if script.exists() else [sys.executable, "-m", "openapi_python_client"]


def run_generator(out: Path) -> None:
    version = subprocess.run([*_generator(), "--version"], capture_output=True, text=True, check=True)
    if GENERATOR_VERSION not in version.stdout:
        raise SystemExit(
            f"openapi-python-client {GENERATOR_VERSION} is required (found: {version.stdout.strip()}); "
            "run `make install`"
        )
    done = subprocess.run(
        [
            *_generator(),
            "generate",
            "--path",
            str(SPEC),
            "--config",
            str(CONFIG),
            "--meta",
            "none",
            "--output-path",
            str(out),
            "--overwrite",
        ],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0 or not (out / "client.py").exists():
        raise SystemExit(f"openapi-python-client failed:\n{done.stdout}\n{done.stderr}")


# the resource layer --------------------------------------------------------------------------
def _class_name(tag: str) -> str:
    return "".join(part.capitalize() for part in tag.replace("-", "_").split("_"))


def _success_type(returns: ast.expr | None) -> str:
    """``Response[A | HTTPValidationError]`` -> ``A``; no documented body -> ``bytes``."""
    if not isinstance(returns, ast.Subscript):
        return "bytes"
    parts = [p.strip() for p in ast.unparse(returns.slice).split(" | ")]
    kept = [p for p in parts if p not in ("HTTPValidationError", "Any")]
    return " | ".join(kept) if kept else "bytes"


def _operation(module_path: Path) -> tuple[str, list[str], list[str], str, str, set[str]]:
    """(signature parameters, call arguments, model imports, success type, summary, names)."""
    tree = ast.parse(module_path.read_text())
    func = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "sync_detailed")
    params: list[str] = []
    call: list[str] = []
    positional = func.args.args
    for arg in positional:
        params.append(f"{arg.arg}: {ast.unparse(arg.annotation) if arg.annotation else 'Any'}")
        call.append(arg.arg)
    keyword = [
        (arg, default)
        for arg, default in zip(func.args.kwonlyargs, func.args.kw_defaults, strict=True)
        if arg.arg != "client"
    ]
    if keyword:
        params.append("*")
    for arg, default in keyword:
        annotation = ast.unparse(arg.annotation) if arg.annotation else "Any"
        tail = f" = {ast.unparse(default)}" if default is not None else ""
        params.append(f"{arg.arg}: {annotation}{tail}")
        call.append(f"{arg.arg}={arg.arg}")
    doc = ast.get_docstring(func) or module_path.stem
    lines: list[str] = []
    for line in doc.splitlines():
        if line.strip() in ("Args:", "Raises:", "Returns:"):
            break
        lines.append(line.strip())
    summary = " ".join(lines).replace('"""', "'").replace("\\", "\\\\")
    summary = " ".join(summary.split())
    imports = {
        f"from .{node.module} import {', '.join(a.name for a in node.names)}"
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        and node.level == 3
        and node.module
        and node.module.startswith("models.")
    }
    names = (
        {"datetime"}
        if any(isinstance(n, ast.Import) and n.names[0].name == "datetime" for n in tree.body)
        else set()
    )
    return ", ".join(params), call, sorted(imports), _success_type(func.returns), summary, names


def render_resources(generated: Path) -> str:
    api = generated / "api"
    tags = sorted(p for p in api.iterdir() if p.is_dir() and (p / "__init__.py").exists())
    imports: set[str] = set()
    modules: list[str] = []
    sync_classes: list[str] = []
    async_classes: list[str] = []
    holders: list[tuple[str, str]] = []
    extra: set[str] = set()
    for tag in tags:
        cls = _class_name(tag.name)
        holders.append((tag.name, cls))
        sync_methods: list[str] = []
        async_methods: list[str] = []
        for module in sorted(p for p in tag.glob("*.py") if p.name != "__init__.py"):
            alias = f"_{tag.name}__{module.stem}"
            modules.append(f"from .api.{tag.name} import {module.stem} as {alias}")
            params, call, model_imports, success, summary, names = _operation(module)
            imports.update(model_imports)
            extra |= names
            args = ", ".join(
                [
                    *call[: sum(1 for c in call if "=" not in c)],
                    "client=self._client",
                    *[c for c in call if "=" in c],
                ]
            )
            sig = f"self, {params}" if params else "self"
            if success == "bytes":
                sync_body = f"return checked({alias}.sync_detailed({args})).content"
                async_body = f"return checked(await {alias}.asyncio_detailed({args})).content"
            else:
                sync_body = f"return cast({success!r}, checked({alias}.sync_detailed({args})).parsed)"
                async_body = (
                    f"return cast({success!r}, checked(await {alias}.asyncio_detailed({args})).parsed)"
                )
            doc = f'        """{summary}"""\n'
            sync_methods.append(f"    def {module.stem}({sig}) -> {success}:\n{doc}        {sync_body}\n")
            async_methods.append(
                f"    async def {module.stem}({sig}) -> {success}:\n{doc}        {async_body}\n"
            )
        init = "    def __init__(self, client: AuthenticatedClient) -> None:\n        self._client = client\n"
        sync_classes.append(
            f"class {cls}Resource:\n"
            f'    """The ``{tag.name}`` operations of the API (sync)."""\n\n{init}\n'
            + "\n".join(sync_methods)
        )
        async_classes.append(
            f"class Async{cls}Resource:\n"
            f'    """The ``{tag.name}`` operations of the API (async)."""\n\n{init}\n'
            + "\n".join(async_methods)
        )

    def holder(prefix: str) -> str:
        lines = [
            f"class {prefix or 'Sync'}Resources:",
            f'    """Every resource of the API ({"async" if prefix else "sync"}), one attribute per tag."""',
            "",
            "    def __init__(self, client: AuthenticatedClient) -> None:",
        ]
        lines += [f"        self.{tag} = {prefix}{cls}Resource(client)" for tag, cls in holders]
        return "\n".join(lines) + "\n"

    head = [
        '"""Resource classes over the generated operations: generated by scripts/gen_sdk_python.py',
        'from openapi.json (issue 18 §1); do not edit."""',
        "",
        "from __future__ import annotations",
        "",
        *(["import datetime"] if "datetime" in extra else []),
        "from typing import Any, cast",
        "",
        "from aaaf_client.errors import checked",
        "",
        "from .client import AuthenticatedClient",
        "from .types import UNSET, Unset",
        *sorted(imports),
        *modules,
        "",
        "__all__ = [" + ", ".join(f'"{n}"' for n in ("AsyncResources", "SyncResources")) + "]",
        "",
        "_ = (Any, UNSET, Unset)",
    ]
    body = "\n\n".join([*sync_classes, *async_classes, holder(""), holder("Async")])
    return "\n".join(head) + "\n\n\n" + body


def generate(out: Path) -> None:
    """Write the whole generated layer into ``out`` (replaced)."""
    with tempfile.TemporaryDirectory() as scratch:
        staging = Path(scratch) / "_generated"
        run_generator(staging)
        (staging / "resources.py").write_text(render_resources(staging))
        if out.exists():
            shutil.rmtree(out)
        shutil.copytree(staging, out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=Path, default=TARGET, help="where to write (default: the SDK's _generated)"
    )
    generate(parser.parse_args().out)


if __name__ == "__main__":
    main()
