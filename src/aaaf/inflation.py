"""One bound on what a compressed input may inflate to (docs/security.md "Limits").

A few kilobytes of gzip or zip can inflate to gigabytes.  Every compressed input the
service reads — a gzip or deflate request body (``/v1/traces``) and a zip archive (an
inspect_ai ``.eval`` log) — is inflated here, in chunks, counting what comes out, and
refused with 413 ``PAYLOAD_TOO_LARGE`` as soon as it passes :data:`MAX_INFLATED_BYTES`,
whatever sizes the archive claims.
"""

from __future__ import annotations

import contextlib
import zipfile
import zlib
from pathlib import Path

from aaaf.errors import AAAFError

MAX_INFLATED_BYTES = 16 * 1_048_576
MAX_ARCHIVE_MEMBERS = 10_000
_CHUNK = 65_536


def too_large(what: str, limit: int = MAX_INFLATED_BYTES) -> AAAFError:
    """413 ``PAYLOAD_TOO_LARGE``: ``what`` inflates beyond ``limit`` bytes."""
    return AAAFError(
        "PAYLOAD_TOO_LARGE", f"{what} inflates beyond the limit of {limit} bytes.", {"limit_bytes": limit}
    )


def inflate(data: bytes, *, wbits: int, what: str, limit: int = MAX_INFLATED_BYTES) -> bytes:
    """``data`` inflated by zlib (``wbits`` 31 gzip, 15 zlib/deflate), at most ``limit`` bytes.

    Raises ``zlib.error`` for data that is not what ``wbits`` says, 413 beyond ``limit``.
    """
    inflater = zlib.decompressobj(wbits=wbits)
    out = inflater.decompress(data, limit + 1)
    if len(out) > limit or inflater.unconsumed_tail:
        raise too_large(what, limit)
    return out


def check_archive(path: Path, *, what: str, limit: int = MAX_INFLATED_BYTES) -> None:
    """Refuse the zip at ``path`` when its members together inflate beyond ``limit`` bytes
    (or it has more than :data:`MAX_ARCHIVE_MEMBERS`): each member is inflated in chunks and
    counted, so sizes the archive lies about do not matter.  A file that is not a zip is
    left for its reader to refuse."""
    with contextlib.suppress(ImportError):
        import zipfile_zstd  # noqa: F401  (patches zipfile to read zstd members, as inspect_ai does)
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError):
        return
    with archive:
        members = archive.infolist()
        if len(members) > MAX_ARCHIVE_MEMBERS:
            raise AAAFError(
                "PAYLOAD_TOO_LARGE",
                f"{what} holds {len(members)} files; the limit is {MAX_ARCHIVE_MEMBERS}.",
                {"limit_members": MAX_ARCHIVE_MEMBERS},
            )
        total = 0
        for member in members:
            total += member.file_size
            if total > limit:
                raise too_large(what, limit)
        total = 0
        for member in members:
            try:
                with archive.open(member) as stream:
                    while chunk := stream.read(_CHUNK):
                        total += len(chunk)
                        if total > limit:
                            raise too_large(what, limit)
            except (zipfile.BadZipFile, NotImplementedError, OSError, EOFError, zlib.error):
                return  # unreadable member: its reader says why
