"""The API keys this process found active, trusted for :data:`VERIFIED_KEY_SECONDS` without
reading their rows again (docs/security.md "Keys").

Every API request presents a key; reading its row was a pool checkout, a ping and a query per
request.  A key is remembered only once found active (a guessed key never is), with its
organization's ``rate_limit_per_minute`` setting read with it.  Revoking a key, or changing its
organization's rate limit, forgets it at once in this process; a revocation made by another
process (another ``aaaf serve`` worker, the CLI) is in force here within
:data:`VERIFIED_KEY_SECONDS`.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import URL

if TYPE_CHECKING:
    from aaaf.store.api_keys import ApiKey

#: how long a key found active is trusted without reading its row again
VERIFIED_KEY_SECONDS = 5.0
#: at most this many keys are remembered
VERIFIED_KEYS_KEPT = 10_000


class VerifiedKeys:
    """Keys found active, by (database URL, key hash): the key and its organization's rate
    limit setting, each with the time (``clock``, monotonic seconds) its row was read."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._entries: dict[tuple[URL, str], tuple[float, ApiKey, int | None]] = {}

    def get(self, database: URL, key_hash: str) -> tuple[ApiKey, int | None] | None:
        """The key and its rate limit setting, if read less than VERIFIED_KEY_SECONDS ago."""
        entry = self._entries.get((database, key_hash))
        if entry is None:
            return None
        read_at, key, per_minute = entry
        if not 0 <= self.clock() - read_at < VERIFIED_KEY_SECONDS:
            with self._lock:
                if self._entries.get((database, key_hash)) is entry:
                    del self._entries[(database, key_hash)]
            return None
        return key, per_minute

    def put(self, database: URL, key_hash: str, key: ApiKey, per_minute: int | None) -> None:
        """Remember an active key just read."""
        with self._lock:
            if len(self._entries) >= VERIFIED_KEYS_KEPT:
                self._entries.clear()
            self._entries[(database, key_hash)] = (self.clock(), key, per_minute)

    def used(self, key_id: uuid.UUID, at: datetime) -> None:
        """Record a key's last use on its remembered row too (it is written once a minute)."""
        with self._lock:
            for name, (read_at, key, per_minute) in list(self._entries.items()):
                if key.id == key_id:
                    self._entries[name] = (read_at, replace(key, last_used_at=at), per_minute)

    def forget(self, *, key_id: uuid.UUID | None = None, organization_id: uuid.UUID | None = None) -> None:
        """Forget a key, or every key of an organization."""
        with self._lock:
            for name, (_, key, _) in list(self._entries.items()):
                if key.id == key_id or key.organization_id == organization_id:
                    del self._entries[name]


verified_keys = VerifiedKeys()


def forget_organization_keys(organization_id: uuid.UUID) -> None:
    """Read the organization's keys again at their next use (its rate limit changed)."""
    verified_keys.forget(organization_id=organization_id)
