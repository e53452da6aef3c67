"""The data folder and atomic writes, shared by the bridge and the app."""

from __future__ import annotations

import stat
from pathlib import Path

import platformdirs
import pytest

import companion.journal
from firmware_bridge import files
from firmware_bridge.virtual import default_link


def test_the_data_folder_is_the_environment_s_else_the_platform_s(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    assert files.data_dir() == tmp_path
    assert default_link() == tmp_path / "virtual-scanner"
    monkeypatch.delenv("COMPANION_DATA_DIR")
    assert files.data_dir() == Path(platformdirs.user_data_dir("tactile-companion"))


def test_a_file_is_replaced_whole_and_private(tmp_path: Path) -> None:
    path = tmp_path / "registry.json"
    path.write_text("old")
    files.write_atomically(path, b"new")
    assert path.read_bytes() == b"new"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["registry.json"]  # no temporary left


def test_the_app_finds_them_where_it_always_did() -> None:
    assert companion.journal.data_dir is files.data_dir
    assert companion.journal.write_atomically is files.write_atomically
    assert companion.journal.APP_NAME == files.APP_NAME == "tactile-companion"
