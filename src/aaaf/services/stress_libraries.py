"""Custom stress-task libraries: publish, list, install (issue 20 §3; the "marketplace" of
document 004 §8 phase 3, its first step).

* :func:`publish_library` validates a library as ``--library DIR`` would be validated
  (:func:`aaaf.stress.library.library_from_content`: the task format of document 004 §5.3,
  unique task ids, known colleagues) and stores it as (name, version) — immutable once
  published.  A ``shared`` library may hold only declarative graders (answers, regexes, JSON
  Schema, file checks, tool use): one that would run its code on another organization's
  workers — a ``unit_tests`` check, or a reference action with ``bash`` or ``python`` the
  oracle replays — is refused, naming the task and the grader.
* :func:`list_libraries` — the organization's own and every shared library (never whose a
  shared one is).
* :func:`install_library` — by name and version; after it, the organization's stress runs
  (``aaaf stress-test``, ``POST …/stress-test``) add the library's tasks as ``--library DIR``
  tasks are added: :func:`installed_library_dirs` writes each installed library once to a
  directory of its own (named ``NAME@VERSION``, keyed by its digest) which the run loads.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from aaaf.errors import AAAFError
from aaaf.models import StressLibrary
from aaaf.private_directory import private_directory
from aaaf.store import OrgStore
from aaaf.store.repositories.stress_libraries import PublishedLibrary
from aaaf.stress.library import code_graders, grader_kinds, library_from_content

NAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,63}$")
VERSION_PATTERN = re.compile(r"^[0-9A-Za-z][0-9A-Za-z._+-]{0,63}$")
DOCUMENT_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$")
VISIBILITIES = ("private", "shared")
CACHE_ENV = "AAAF_STRESS_LIBRARY_CACHE"
"""Where installed libraries are written for runs (default: a folder of the system temp dir)."""


def _invalid(field: str, message: str, **details: object) -> AAAFError:
    return AAAFError("INVALID_REQUEST", message, {"field": field, **details})


def _check_identity(name: str, version: str, visibility: str) -> None:
    if not NAME_PATTERN.match(name):
        raise _invalid(
            "name", f"Invalid library name {name!r}: lower-case letters, digits, '_', '.', '-' (1-64)."
        )
    if not VERSION_PATTERN.match(version):
        raise _invalid(
            "version", f"Invalid library version {version!r}: letters, digits, '.', '_', '+', '-' (1-64)."
        )
    if visibility not in VISIBILITIES:
        raise _invalid("visibility", f"Invalid visibility {visibility!r}; expected private or shared.")


def _check_documents(documents: Mapping[str, object]) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, text in documents.items():
        if not DOCUMENT_PATTERN.match(str(name)) or not isinstance(text, str):
            raise _invalid(
                "documents", f"Document {name!r}: a plain file name with text content is expected."
            )
        out[str(name)] = text
    return out


def _digest(content: Mapping[str, object], documents: Mapping[str, str]) -> str:
    canonical = json.dumps(
        {"content": content, "documents": documents}, sort_keys=True, separators=(",", ":")
    )
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def _model(org: OrgStore, library: PublishedLibrary, installed: set[uuid.UUID]) -> StressLibrary:
    tasks = library.content.get("tasks") or []
    return StressLibrary(
        name=library.name,
        version=library.version,
        visibility=library.visibility,
        description=library.description,
        digest=library.digest,
        task_count=library.task_count,
        task_ids=[str(task.get("id")) for task in tasks if isinstance(task, dict)],
        graders=list(library.graders),
        owned=library.organization_id == org.organization_id,
        installed=library.id in installed,
        created_at=library.created_at.isoformat().replace("+00:00", "Z"),
    )


def _installed_ids(org: OrgStore) -> set[uuid.UUID]:
    return {library.id for library in org.installed_libraries()}


def publish_library(
    org: OrgStore,
    *,
    name: str,
    version: str,
    content: Mapping[str, Any],
    documents: Mapping[str, object] | None = None,
    visibility: str = "private",
    description: str | None = None,
) -> StressLibrary:
    """Validate and store a library version (``INVALID_REQUEST`` naming the problem;
    ``CONFLICT`` when the version exists or another organization shares the name)."""
    _check_identity(name, version, visibility)
    if not isinstance(content, Mapping) or not content.get("tasks"):
        raise _invalid("tasks", f"Library {name} {version}: give at least one task.")
    texts = _check_documents(documents or {})
    library = library_from_content(name, dict(content), texts)
    if visibility == "shared":
        running = code_graders(library)
        if running:
            first = running[0]
            raise AAAFError(
                "INVALID_REQUEST",
                f"Library {name} {version} cannot be shared: task {first['task_id']!r} uses grader "
                f"{first['grader']} ({first['name']}), which runs code on the installing organization's "
                "workers; a shared library may use only declarative graders (answers, regexes, JSON Schema, "
                "file checks). Publish it as private, or replace the grader.",
                {"field": "tasks", "visibility": "shared", "code_graders": running},
            )
    stored_content = {"colleagues": list(content.get("colleagues") or []), "tasks": list(content["tasks"])}
    published = org.publish_library(
        name=name,
        version=version,
        visibility=visibility,
        description=description,
        content=stored_content,
        documents=texts,
        digest=_digest(stored_content, texts),
        task_count=len(library.tasks),
        graders=grader_kinds(library),
    )
    return _model(org, published, _installed_ids(org))


def list_libraries(org: OrgStore) -> list[StressLibrary]:
    """The organization's own libraries and every shared one."""
    installed = _installed_ids(org)
    return [_model(org, library, installed) for library in org.stress_libraries()]


def get_library(org: OrgStore, name: str, version: str) -> StressLibrary:
    library = _find(org, name, version)
    return _model(org, library, _installed_ids(org))


def _find(org: OrgStore, name: str, version: str) -> PublishedLibrary:
    library = org.find_library(name, version)
    if library is None:
        raise AAAFError(
            "NOT_FOUND",
            f"No library {name} version {version} (yours or shared).",
            {"resource": "stress_library", "name": name, "version": version},
        )
    return library


def install_library(org: OrgStore, name: str, version: str) -> StressLibrary:
    """Install (name, version) — the organization's own or a shared one; installing twice is a no-op."""
    library = _find(org, name, version)
    clash = {
        task_id: other
        for other in org.installed_libraries()
        if other.id != library.id
        for task_id in _task_ids(other) & _task_ids(library)
    }
    if clash:
        first = sorted(clash)[0]
        raise AAAFError(
            "CONFLICT",
            f"Library {name} {version} has task ids already installed from another library "
            f"({', '.join(sorted(clash)[:5])}; {first} from {clash[first].name} {clash[first].version}); "
            "a stress run needs every task id once — uninstall that library first.",
            {"task_ids": sorted(clash)[:20], "library": f"{clash[first].name}@{clash[first].version}"},
        )
    org.install_library(library.id)
    return _model(org, library, _installed_ids(org))


def _task_ids(library: PublishedLibrary) -> set[str]:
    return {str(task.get("id")) for task in library.content.get("tasks") or [] if isinstance(task, dict)}


def _cache_root() -> Path:
    """Where installed libraries are written: a directory of this user's alone (mode 0700,
    checked), never a shared path another local user could plant tasks in."""
    return private_directory(
        Path(
            os.environ.get(CACHE_ENV) or Path(tempfile.gettempdir()) / f"aaaf-stress-libraries-{os.getuid()}"
        )
    )


def materialise(library: PublishedLibrary, root: Path | None = None) -> Path:
    """The library written as a library directory (``tasks.json``, ``documents/``), once per digest."""
    base = (root or _cache_root()) / library.digest
    target = base / f"{library.name}@{library.version}"
    if target.is_dir():
        return target
    base.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=base))
    (staging / "tasks.json").write_text(json.dumps(dict(library.content), indent=1), encoding="utf-8")
    if library.documents:
        (staging / "documents").mkdir()
        for doc_name, text in library.documents.items():
            (staging / "documents" / doc_name).write_text(text, encoding="utf-8")
    try:
        staging.rename(target)
    except OSError:  # another process wrote it first: the same bytes
        shutil.rmtree(staging, ignore_errors=True)
    return target


def installed_library_dirs(org: OrgStore) -> list[str]:
    """A directory per installed library, for a stress run's ``library_dirs``."""
    return [str(materialise(library)) for library in org.installed_libraries()]
