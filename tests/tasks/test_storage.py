"""``tasks.storage``: why a path cannot be a folder cslearn creates and writes into."""

from __future__ import annotations

import os

import pytest

from tasks.storage import unusable_folder


def test_a_folder_or_a_path_that_can_be_created_is_usable(tmp_path):
    assert unusable_folder(tmp_path) is None
    assert unusable_folder(tmp_path / "new" / "deeper") is None
    assert not (tmp_path / "new").exists()  # looking creates nothing


def test_a_file_and_a_path_below_a_file_are_named(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x")
    assert unusable_folder(afile) == f"{afile} is a file, not a folder"
    assert (
        unusable_folder(afile / "a" / "b")
        == f"{afile / 'a' / 'b'} cannot be created: {afile} is a file, not a folder"
    )


def test_a_dangling_symlink_is_not_a_folder(tmp_path):
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "gone")
    assert unusable_folder(link) == f"{link} is not a folder"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into any folder")
def test_a_folder_this_user_cannot_write_to_is_named(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o555)
    try:
        assert unusable_folder(locked / "home") == f"{locked} is a folder this user cannot write to"
    finally:
        locked.chmod(0o755)
