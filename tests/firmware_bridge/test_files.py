"""The data folder and atomic writes, shared by the bridge and the app."""

from __future__ import annotations

import os
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


def test_the_app_and_the_bridge_share_one_data_folder() -> None:
    assert files.APP_NAME == "tactile-companion"
    assert companion.journal.journal_dir().parent == files.data_dir()


# -- reading with limits -------------------------------------------------------------------------


def test_a_named_pipe_is_refused_at_once_not_waited_on(tmp_path: Path) -> None:
    pipe = tmp_path / "registry.json"
    os.mkfifo(pipe)
    with pytest.raises(files.FileRefused) as refused:
        files.read_limited(pipe, files.SMALL_FILE_LIMIT)  # no writer: a plain open would hang
    assert refused.value.problem is files.FileProblem.NOT_A_FILE
    assert str(refused.value) == f"{pipe} is a named pipe, not a file"


@pytest.mark.parametrize(("target", "kind"), [("/dev/zero", "a device"), ("/", "a folder")])
def test_a_link_to_a_device_or_folder_is_refused(tmp_path: Path, target: str, kind: str) -> None:
    link = tmp_path / "deck.json"
    link.symlink_to(target)
    with pytest.raises(files.FileRefused, match=f"is {kind}, not a file"):
        files.read_limited(link, files.SMALL_FILE_LIMIT)


def test_a_link_out_of_the_app_s_folder_is_refused_one_inside_is_read(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    (tmp_path / "elsewhere.json").write_text("{}")
    (folder / "kept.json").write_text("[]")
    (folder / "out.json").symlink_to(tmp_path / "elsewhere.json")
    (folder / "in.json").symlink_to("kept.json")
    with pytest.raises(files.FileRefused) as refused:
        files.read_limited(folder / "out.json", 100, within=folder)
    assert refused.value.problem is files.FileProblem.LINK_OUT
    assert files.read_limited(folder / "in.json", 100, within=folder) == b"[]"
    assert files.read_limited(folder / "out.json", 100) == b"{}"  # a file the user named


def test_a_file_bigger_than_the_limit_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_bytes(b"#" * 1001)
    assert files.read_limited(path, 1001) == b"#" * 1001
    with pytest.raises(files.FileRefused, match="is bigger than 1000 bytes") as refused:
        files.read_limited(path, 1000)
    assert refused.value.problem is files.FileProblem.TOO_BIG


def test_json_nested_100_000_deep_is_refused_without_recursion() -> None:
    with pytest.raises(files.FileRefused, match="nested more than 64 deep") as refused:
        files.parse_json(b"[" * 100_000 + b"]" * 100_000)
    assert refused.value.problem is files.FileProblem.TOO_DEEP
    assert files.parse_json('{"a": "[[[[", "b": [[1]]}', depth=3) == {"a": "[[[[", "b": [[1]]}
    with pytest.raises(files.FileRefused):
        files.parse_json('{"b": [[[1]]]}', depth=3)


def test_folders_the_app_makes_are_its_user_s_alone_whatever_the_umask(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        files.make_private_folder(tmp_path / "a" / "b")
        files.write_atomically(tmp_path / "a" / "b" / "registry.json", b"{}")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a").stat().st_mode) == 0o700
    assert stat.S_IMODE((tmp_path / "a" / "b").stat().st_mode) == 0o700
    assert stat.S_IMODE((tmp_path / "a" / "b" / "registry.json").stat().st_mode) == 0o600
    (tmp_path / "file").write_text("in the way")
    with pytest.raises(NotADirectoryError):
        files.make_private_folder(tmp_path / "file")
