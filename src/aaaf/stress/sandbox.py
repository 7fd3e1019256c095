"""Which sandbox a stress run's code runs in, and whether it may run at all
(docs/stress-tests.md "Sandbox").

Every tool call of the agent under test (``bash``, ``python``, the file tools, ``grep``) and
every grader that reads the agent's work or runs a library's code (``unit_tests``, file
checks) goes through an inspect_ai sandbox provider (``inspect_ai.util.SandboxEnvironment``),
chosen by name with ``AAAF_SANDBOX``:

* ``bubblewrap`` (the default; :mod:`aaaf.stress.bubblewrap`): each call in fresh Linux
  namespaces, no environment of the server, a read-only minimal system, the task's own
  size-limited working directory, no network, limits on CPU, memory, processes, file size;
* ``docker``, ``k8s`` or any provider registered with inspect_ai (``AAAF_SANDBOX_CONFIG``
  names its configuration, e.g. a compose file): how runs spread over machines;
* ``none``: code runs on the host (:mod:`aaaf.stress.host_sandbox`).  Only the CLI, on the
  user's own machine and by explicit choice; the service refuses it for any task that runs
  code.

"No sandbox, no code": a run whose tasks execute code is refused before any task runs when
its provider is not available (:func:`require_sandbox`, ``SANDBOX_UNAVAILABLE`` naming the
setting); nothing ever falls back to the host.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from aaaf.errors import AAAFError
from aaaf.stress.models import StressTask

if TYPE_CHECKING:
    from inspect_ai.util import SandboxEnvironment

    from aaaf.settings import Settings

SETTING = "AAAF_SANDBOX"
NONE = "none"
BUBBLEWRAP = "bubblewrap"
HOST_PROVIDER = "aaaf_host"
"""The inspect_ai name of the ``none`` choice's provider (code on the host)."""
ON_HOST = frozenset({NONE, HOST_PROVIDER, "local"})
"""Names that mean "on the host": inspect_ai's own ``local`` provider is no sandbox either."""
CODE_TOOLS = frozenset({"bash", "python"})
CODE_CHECKS = frozenset({"unit_tests"})

NONE_MEANS = (
    "--sandbox none: the agent's bash and python tool calls and the library's unit tests run on "
    "this machine, as your user, with your files, environment and network in reach. Use it only "
    "for an agent and libraries you trust."
)

_PROVIDER_MODULES = {BUBBLEWRAP: "aaaf.stress.bubblewrap", HOST_PROVIDER: "aaaf.stress.host_sandbox"}


@dataclass(frozen=True)
class SandboxChoice:
    """A run's sandbox: the inspect_ai provider name and its configuration (a file, or None)."""

    provider: str
    config: str | None = None

    @property
    def on_host(self) -> bool:
        return self.provider == HOST_PROVIDER

    def to_dict(self) -> dict[str, str | None]:
        return {"provider": NONE if self.on_host else self.provider, "config": self.config}


def executes_code(task: StressTask) -> bool:
    """Whether the task lets the agent run code or runs the library's code to grade it."""
    return bool(CODE_TOOLS & set(task.tools)) or any(check.kind in CODE_CHECKS for check in task.checks)


def choose_sandbox_by_name(name: str, config: str | None = None) -> SandboxChoice:
    """``none`` (the host's provider) or an inspect_ai provider name, with its configuration."""
    name = name.strip() or BUBBLEWRAP
    if name in ON_HOST:
        return SandboxChoice(HOST_PROVIDER)
    return SandboxChoice(name, config or None)


def choose_sandbox(settings: Settings, *, requested: str | None = None) -> SandboxChoice:
    """The provider named by ``requested`` (the CLI's ``--sandbox``) or ``AAAF_SANDBOX``."""
    return choose_sandbox_by_name(requested or settings.sandbox, settings.sandbox_config)


def load_provider(provider: str) -> None:
    """Register ``provider`` with inspect_ai: ours when their module loads, inspect's own
    (``docker``, ``local``) with it, other packages' (``k8s``) by their ``inspect_ai`` entry points."""
    module = _PROVIDER_MODULES.get(provider)
    if module is not None:
        importlib.import_module(module)
        return
    from inspect_ai._util.entrypoints import ensure_entry_points

    ensure_entry_points()


def provider_problem(choice: SandboxChoice) -> str | None:
    """Why the chosen provider cannot run code here (None when it can)."""
    if choice.on_host:
        return None
    load_provider(choice.provider)
    from inspect_ai.util._sandbox.registry import registry_find_sandboxenv

    try:
        provider = registry_find_sandboxenv(choice.provider)
    except ValueError as error:
        return str(error)
    check = getattr(provider, "aaaf_problem", None)  # ours say at once whether they work here
    return check() if callable(check) else None


def require_sandbox(
    tasks: Iterable[StressTask],
    settings: Settings,
    *,
    requested: str | None = None,
    service: bool,
) -> SandboxChoice:
    """The sandbox ``tasks`` run in, or ``SANDBOX_UNAVAILABLE`` before any of them runs.

    The service (``service``) never runs code on its host: ``none`` is refused for a task that
    executes code (tasks that only answer, read and write files may run without a sandbox).
    Any run whose tasks execute code needs its provider available here; there is no fallback.
    """
    choice = choose_sandbox(settings, requested=requested)
    coding = sorted(task.id for task in tasks if executes_code(task))
    if not coding:
        return choice
    if choice.on_host:
        if service:
            raise AAAFError(
                "SANDBOX_UNAVAILABLE",
                f"{SETTING}=none: this service never runs an agent's or a library's code on its own "
                f"host, and {len(coding)} of the chosen tasks execute code ({coding[0]}, …). Set "
                f"{SETTING} to a sandbox provider (bubblewrap, docker, k8s) and restart the service.",
                {"setting": SETTING, "sandbox": NONE, "tasks_executing_code": len(coding)},
            )
        return choice
    problem = provider_problem(choice)
    if problem is not None:
        raise AAAFError(
            "SANDBOX_UNAVAILABLE",
            f"The sandbox {choice.provider!r} ({SETTING}) cannot run here: {problem}. "
            f"{len(coding)} of the chosen tasks execute code ({coding[0]}, …) and run only in a "
            "sandbox; nothing was run.",
            {"setting": SETTING, "sandbox": choice.provider, "problem": problem},
        )
    return choice


@contextlib.asynccontextmanager
async def open_sandbox(
    choice: SandboxChoice, task_name: str = "aaaf_stress"
) -> AsyncIterator[SandboxEnvironment]:
    """One sandbox of ``choice`` outside an inspect_ai eval (the harness's own episodes in
    tests and benchmarks): the provider's task and sample set-up, then its clean-up."""
    load_provider(choice.provider)
    from inspect_ai.util._sandbox.registry import registry_find_sandboxenv

    provider = registry_find_sandboxenv(choice.provider)
    await provider.task_init(task_name, choice.config)
    environments = await provider.sample_init(task_name, choice.config, {})
    try:
        yield next(iter(environments.values()))
    finally:
        await provider.sample_cleanup(task_name, choice.config, environments, False)
        await provider.task_cleanup(task_name, choice.config, True)
