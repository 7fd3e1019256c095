"""A directory only this process's user can write (docs/security.md "Files").

Under a shared temporary directory a predictable name can be created first by another local
user, who then controls what is read from it.  :func:`private_directory` creates the directory
with mode 0700, or accepts an existing one only when it is a real directory (not a link)
owned by this user with no access for anyone else; anything else is refused.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


def private_directory(path: Path) -> Path:
    """``path``, created private or checked to be (module docstring)."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = path.lstat()
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        raise RuntimeError(  # the installation's problem, logged; never a tenant's answer
            f"{path} is not a private directory of this user (a link, another owner, or open to others); "
            "remove it or point the setting at another place"
        )
    return path
