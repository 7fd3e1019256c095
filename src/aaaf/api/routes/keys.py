"""API keys of the caller's organization (SCORING.md §7 "Admin and keys"; issue 13 §3).

Managing keys takes the ``admin`` scope.  A key is shown once, when it is created; the
list shows each key's prefix, scopes and dates, never the key; a revoked key stays on the
list with its revocation time and never authenticates again.
"""

from __future__ import annotations

from fastapi import APIRouter

from aaaf.api.deps import Admin, NowDep, StoreDep
from aaaf.api.models import KeyCreate, KeyCreated, KeyOut, Page
from aaaf.api.pagination import CursorQuery, LimitQuery, keyset_page, time_id_after, time_key
from aaaf.services import keys as key_service

router = APIRouter(prefix="/api/v1/keys", tags=["keys"])


@router.post("", status_code=201, response_model=KeyCreated, operation_id="create_key")
def create_key(body: KeyCreate, org: Admin, store: StoreDep, now: NowDep) -> KeyCreated:
    """A new key of the caller's organization with these scopes (shown once)."""
    issued = key_service.create_key(store, org.organization_id, body.scopes, name=body.name, now=now)
    return KeyCreated(**issued.key.to_dict(), api_key=issued.secret)


@router.get("", response_model=Page[KeyOut], operation_id="list_keys")
def list_keys(
    org: Admin, store: StoreDep, cursor: CursorQuery = None, limit: LimitQuery = 100
) -> Page[KeyOut]:
    """The organization's keys, oldest first, revoked ones included."""
    keys = key_service.list_keys(store, org.organization_id, after=time_id_after(cursor), limit=limit + 1)
    return keyset_page(
        keys,
        limit=limit,
        key=lambda k: [time_key(k.created_at), str(k.id)],
        render=lambda k: k.to_dict(),
        page=Page[KeyOut],
    )


@router.delete("/{key_id}", response_model=KeyOut, operation_id="revoke_key")
def revoke_key(key_id: str, org: Admin, store: StoreDep, now: NowDep) -> KeyOut:
    """Revoke a key (it stays listed, revoked); another organization's key is 404."""
    return KeyOut(**key_service.revoke_key(store, org.organization_id, key_id, now=now).to_dict())
