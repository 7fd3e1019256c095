"""The installed-library cache lives in a directory only the server's user can use: created
0700, and an existing one accepted only when it is a real directory of this user closed to
others (docs/security.md "Files") — never a link or an open directory another local user
could have planted at the predictable path."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from aaaf.private_directory import private_directory


def test_a_new_directory_is_created_private(tmp_path: Path) -> None:
    made = private_directory(tmp_path / "cache" / "libraries")
    assert stat.S_IMODE(made.lstat().st_mode) == 0o700
    assert private_directory(made) == made  # and accepted again as it is


def test_a_directory_open_to_others_is_refused(tmp_path: Path) -> None:
    planted = tmp_path / "open"
    planted.mkdir()
    os.chmod(planted, 0o777)
    with pytest.raises(RuntimeError, match="not a private directory"):
        private_directory(planted)


def test_a_link_to_someone_elses_directory_is_refused(tmp_path: Path) -> None:
    elsewhere = tmp_path / "theirs"
    elsewhere.mkdir(mode=0o700)
    link = tmp_path / "cache"
    link.symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(RuntimeError, match="not a private directory"):
        private_directory(link)
