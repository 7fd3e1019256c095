"""Loading stress-test libraries: the standard one shipped in the package and an
organization's own directories (issue 15 §1, document 004 §5.2 step 4).

A library is a directory of ``*.yaml`` / ``*.yml`` / ``*.json`` data files (each a
:class:`~aaaf.stress.models.LibraryFile`) and an optional ``documents/`` folder of text
files, the corpus the ``search`` tool looks in.  Every file is validated on load; an
invalid one is an ``INVALID_REQUEST`` naming the file and the field.  The version is the
SHA-256 of the files' contents, so a run records exactly which tasks it ran.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from aaaf.errors import AAAFError
from aaaf.stress.models import Colleague, LibraryFile, StressTask

STANDARD_LIBRARY = Path(__file__).parent / "library"
STANDARD_NAME = "aaaf-standard"
LIBRARY_DIRS_ENV = "AAAF_STRESS_LIBRARY_DIRS"
"""Set for the agent under test: the oracle reference agent finds the reference solutions there."""


@dataclass(frozen=True)
class LoadedTask:
    task: StressTask
    library: str
    """``aaaf-standard`` or the directory's name: which library the task came from."""


@dataclass
class Library:
    tasks: list[LoadedTask] = field(default_factory=list)
    colleagues: dict[str, Colleague] = field(default_factory=dict)
    documents: dict[str, str] = field(default_factory=dict)
    sources: list[dict[str, str]] = field(default_factory=list)
    """Per library directory: name, path, version."""

    def get(self, task_id: str) -> LoadedTask:
        for loaded in self.tasks:
            if loaded.task.id == task_id:
                return loaded
        raise AAAFError("NOT_FOUND", f"no stress task {task_id!r} in the library", {"task_id": task_id})

    def select(
        self, *, dimension: str | None = None, task_ids: Iterable[str] | None = None
    ) -> list[LoadedTask]:
        chosen = self.tasks
        if dimension is not None:
            chosen = [t for t in chosen if dimension in t.task.dimensions]
        if task_ids is not None:
            wanted = set(task_ids)
            chosen = [t for t in chosen if t.task.id in wanted]
        return chosen

    @property
    def version(self) -> str:
        return "+".join(f"{s['name']}@{s['version']}" for s in self.sources)

    @property
    def directories(self) -> list[str]:
        return [s["path"] for s in self.sources]


def _parse(path: Path) -> object:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as error:
            raise AAAFError("INVALID_REQUEST", f"{path}: not valid JSON: {error.msg}") from None
    import yaml

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise AAAFError("INVALID_REQUEST", f"{path}: not valid YAML: {error}") from None


def _data_files(directory: Path) -> list[Path]:
    return sorted(p for p in directory.iterdir() if p.is_file() and p.suffix in (".yaml", ".yml", ".json"))


def _add_directory(library: Library, directory: Path, name: str) -> None:
    if not directory.is_dir():
        raise AAAFError("INVALID_REQUEST", f"{directory}: no such library directory")
    digest = hashlib.sha256()
    files = _data_files(directory)
    documents_dir = directory / "documents"
    documents = sorted(documents_dir.iterdir()) if documents_dir.is_dir() else []
    if not files:
        raise AAAFError("INVALID_REQUEST", f"{directory}: no task files (*.yaml, *.yml, *.json)")
    known = {loaded.task.id for loaded in library.tasks}
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
        raw = _parse(path)
        try:
            parsed = LibraryFile.model_validate(raw if raw is not None else {})
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise AAAFError(
                "INVALID_REQUEST",
                f"{path}: invalid stress task file at {where}: {first['msg']}",
                {"file": str(path), "field": where, "errors": len(error.errors())},
            ) from None
        for colleague in parsed.colleagues:
            library.colleagues[colleague.name] = colleague
        for task in parsed.tasks:
            if task.id in known:
                raise AAAFError(
                    "INVALID_REQUEST", f"{path}: task id {task.id!r} is defined twice", {"task_id": task.id}
                )
            known.add(task.id)
            library.tasks.append(LoadedTask(task=task, library=name))
    for document in documents:
        if document.is_file():
            digest.update(b"doc:" + document.name.encode() + b"\0" + document.read_bytes())
            library.documents[document.name] = document.read_text(encoding="utf-8")
    library.sources.append({"name": name, "path": str(directory), "version": digest.hexdigest()[:16]})


def load_library(extra_dirs: Sequence[str | Path] = (), *, standard: bool = True) -> Library:
    """The standard library (unless ``standard`` is false) and each of ``extra_dirs``, validated."""
    library = Library()
    if standard:
        _add_directory(library, STANDARD_LIBRARY, STANDARD_NAME)
    for directory in extra_dirs:
        path = Path(directory).resolve()
        _add_directory(library, path, path.name)
    for loaded in library.tasks:
        for colleague in (loaded.task.delegation.optimal_delegate,) if loaded.task.delegation else ():
            if colleague is not None and colleague not in library.colleagues:
                raise AAAFError(
                    "INVALID_REQUEST",
                    f"task {loaded.task.id!r}: optimal_delegate {colleague!r} is no known colleague",
                )
    return library
