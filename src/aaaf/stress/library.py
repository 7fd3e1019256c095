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
        """The chosen tasks in run order (:func:`run_order`)."""
        chosen = run_order(self.tasks)
        if dimension is not None:
            chosen = [t for t in chosen if dimension in t.task.dimensions]
        if task_ids is not None:
            wanted = set(task_ids)
            chosen = [t for t in chosen if t.task.id in wanted]
        return chosen

    def position(self, task_id: str) -> int:
        """The task's place in the library's run order (0 first): the order its evidence keeps."""
        for index, loaded in enumerate(run_order(self.tasks)):
            if loaded.task.id == task_id:
                return index
        raise AAAFError("NOT_FOUND", f"no stress task {task_id!r} in the library", {"task_id": task_id})

    @property
    def version(self) -> str:
        return "+".join(f"{s['name']}@{s['version']}" for s in self.sources)

    @property
    def directories(self) -> list[str]:
        return [s["path"] for s in self.sources]


def sequences(tasks: Iterable[LoadedTask]) -> dict[str, list[LoadedTask]]:
    """The learning sequences: per ``category``, its tasks in id order (position 1 first)."""
    found: dict[str, list[LoadedTask]] = {}
    for loaded in tasks:
        if loaded.task.category is not None:
            found.setdefault(loaded.task.category, []).append(loaded)
    return {name: sorted(members, key=lambda t: t.task.id) for name, members in sorted(found.items())}


def run_order(tasks: Sequence[LoadedTask]) -> list[LoadedTask]:
    """The order a run's evidence keeps, set by the library and never by the run's scheduling
    (docs/stress-tests.md "Learning sequences"): every task outside a learning sequence in
    library order, then the sequences, interleaved position by position (the first task of
    each, then the second of each, …).  SCORING.md §2.3's learning rate reads a domain's 15
    most recently completed tasks in completion order: with its sequence last, a domain's
    recent tasks are its sequence, in the sequence's order."""
    found = sequences(tasks)
    rest = [loaded for loaded in tasks if loaded.task.category is None]
    longest = max((len(members) for members in found.values()), default=0)
    interleaved = [
        members[index] for index in range(longest) for members in found.values() if index < len(members)
    ]
    return rest + interleaved


def sequence_position(tasks: Sequence[LoadedTask], task_id: str) -> int | None:
    """The task's position (1-based) in its learning sequence, None outside one."""
    for members in sequences(tasks).values():
        for index, loaded in enumerate(members, 1):
            if loaded.task.id == task_id:
                return index
    return None


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


def validate_library_file(raw: object, where: str) -> LibraryFile:
    """``raw`` (a parsed data file, or a published library's content) as a :class:`LibraryFile`;
    an invalid one is ``INVALID_REQUEST`` naming ``where``, the field and, when it is inside a
    task, the task's id."""
    try:
        return LibraryFile.model_validate(raw if raw is not None else {})
    except ValidationError as error:
        first = error.errors()[0]
        field_path = ".".join(str(p) for p in first["loc"])
        details: dict[str, object] = {"file": where, "field": field_path, "errors": len(error.errors())}
        loc = first["loc"]
        task_note = ""
        if len(loc) >= 2 and loc[0] == "tasks" and isinstance(loc[1], int) and isinstance(raw, dict):
            tasks = raw.get("tasks")
            if isinstance(tasks, list) and loc[1] < len(tasks) and isinstance(tasks[loc[1]], dict):
                task_id = tasks[loc[1]].get("id")
                if isinstance(task_id, str):
                    details["task_id"] = task_id
                    task_note = f" (task {task_id!r})"
        raise AAAFError(
            "INVALID_REQUEST",
            f"{where}: invalid stress task file at {field_path}{task_note}: {first['msg']}",
            details,
        ) from None


def _add_parsed(library: Library, parsed: LibraryFile, where: str, name: str, known: set[str]) -> None:
    for colleague in parsed.colleagues:
        library.colleagues[colleague.name] = colleague
    for task in parsed.tasks:
        if task.id in known:
            raise AAAFError(
                "INVALID_REQUEST", f"{where}: task id {task.id!r} is defined twice", {"task_id": task.id}
            )
        known.add(task.id)
        library.tasks.append(LoadedTask(task=task, library=name))


def _check_delegates(library: Library) -> None:
    for loaded in library.tasks:
        for colleague in (loaded.task.delegation.optimal_delegate,) if loaded.task.delegation else ():
            if colleague is not None and colleague not in library.colleagues:
                raise AAAFError(
                    "INVALID_REQUEST",
                    f"task {loaded.task.id!r}: optimal_delegate {colleague!r} is no known colleague",
                    {"task_id": loaded.task.id, "field": "delegation.optimal_delegate"},
                )


def read_library_directory(directory: str | Path) -> tuple[dict[str, list[object]], dict[str, str]]:
    """A library directory as one content object ``{"colleagues", "tasks"}`` (its data files'
    merged, each validated) and its ``documents/`` texts — what ``aaaf stress-libraries
    publish DIR`` uploads (issue 20 §3)."""
    path = Path(directory)
    library = Library()
    _add_directory(library, path, path.name)
    colleagues: dict[str, object] = {}
    tasks: list[object] = []
    for data in _data_files(path):
        raw = _parse(data)
        if isinstance(raw, dict):
            for colleague in raw.get("colleagues") or []:
                colleagues[str(colleague.get("name"))] = colleague
            tasks.extend(raw.get("tasks") or [])
    return {"colleagues": list(colleagues.values()), "tasks": tasks}, dict(library.documents)


def library_from_content(name: str, content: object, documents: dict[str, str]) -> Library:
    """A published library's content validated as a library directory would be (issue 20 §3):
    every task against the format, no task id twice nor one of the standard library's, every
    optimal delegate a known colleague.  The standard library is loaded beside it (its
    colleagues and ids); the result holds only the published library's tasks."""
    library = load_library()
    known = {loaded.task.id for loaded in library.tasks}
    standard = len(library.tasks)
    _add_parsed(library, validate_library_file(content, f"library {name}"), f"library {name}", name, known)
    _check_delegates(library)
    library.tasks = library.tasks[standard:]
    library.documents = dict(documents)
    return library


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
        parsed = validate_library_file(_parse(path), str(path))
        _add_parsed(library, parsed, str(path), name, known)
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
    _check_delegates(library)
    return library


# issue 20 §3: what a library shared across organizations may not contain — anything that runs
# code on the installing organization's workers: a ``unit_tests`` check runs the library's
# Python; a reference action with ``bash`` or ``python`` runs it when the oracle replays it.
CODE_CHECKS: tuple[str, ...] = ("unit_tests",)
CODE_TOOLS: tuple[str, ...] = ("bash", "python")


def grader_kinds(library: Library) -> list[str]:
    """The check kinds the library's tasks use, sorted."""
    return sorted({check.kind for loaded in library.tasks for check in loaded.task.checks})


def code_graders(library: Library) -> list[dict[str, str]]:
    """Every place a task would run the library's code: ``{"task_id", "grader", "name"}``."""
    found: list[dict[str, str]] = []
    for loaded in library.tasks:
        task = loaded.task
        for check in task.checks:
            if check.kind in CODE_CHECKS:
                found.append({"task_id": task.id, "grader": check.kind, "name": check.name})
        for index, action in enumerate(task.reference.actions):
            if action.tool in CODE_TOOLS:
                found.append(
                    {
                        "task_id": task.id,
                        "grader": f"reference.actions[{index}]",
                        "name": f"{action.tool} action",
                    }
                )
    return found
