"""What a front end hands every service: the settings and the clock (issue 10 §4).

The CLI (``aaaf.cli.context.service_context``) and the API (``app.state.context``) build
one :class:`ServiceContext` per process and pass it in; a service never reads the
environment or ``datetime.now()`` itself.  Tests hand in :meth:`ServiceContext.fixed` to
pin the time.  :func:`default_context` is the one place the environment and the system
clock are read, for callers that pass none (older call sites; the Python API).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from aaaf.settings import Settings


def system_clock() -> datetime:
    """The wall clock, timezone-aware UTC."""
    return datetime.now(UTC)


@dataclass(frozen=True)
class ServiceContext:
    """The settings (``AAAF_*``, SCORING.md §7) and the clock services run with."""

    settings: Settings
    clock: Callable[[], datetime] = field(default=system_clock)

    def now(self) -> datetime:
        """The current time by this context's clock (timezone-aware)."""
        return self.clock()

    @classmethod
    def fixed(cls, at: datetime, settings: Settings | None = None) -> ServiceContext:
        """A context whose clock always says ``at`` (tests; replaying a run)."""
        if at.tzinfo is None:
            raise ValueError("a fixed clock needs a timezone-aware time")
        return cls(settings or Settings(), clock=lambda: at)


def default_context() -> ServiceContext:
    """The process's settings (environment, ``.env``) and the system clock."""
    from aaaf.settings import get_settings

    return ServiceContext(get_settings())


def context_or_default(context: ServiceContext | None) -> ServiceContext:
    return context if context is not None else default_context()
