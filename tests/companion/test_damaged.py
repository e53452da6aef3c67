"""Every start survives every damaged file, and a disk that refuses loses nothing.

Each case damages the app's files or folders as a user's machine would
(settings, the scanner's tags, the game store, old journals, the folders
themselves, a full or read-only disk, a store held by another program),
then runs the real app, ``python -m companion --plain``, in a process of
its own, and checks that it starts and goes on, says what happened in one
sentence, keeps a copy of what it could not read, and loses no answered
input: a game played through the trouble is resumed at the very turn it
was left at.

Read-only folders are made with a read-only bind mount (root, as CI runs),
else ``chattr +i``, else (not root) with file modes; each is checked to
refuse a write before the case counts on it. A full disk is the process's
file size limit (RLIMIT_FSIZE), set and lifted from outside while it runs.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.conversation.journeys import NOTICES
from companion.i18n import Catalog
from companion.journal import Journal, journals, load
from companion.notices import Notice
from companion.store import SCHEMA, STORE_NAME, Store, encode_line
from firmware_bridge.registry import Registry
from tests.companion.damage import App, fresh_fixture, home_fixture, said  # noqa: F401
from tests.drivers import GOOD_SETTINGS, copies, played, resumed_at, store_of

#: Files a plain read would hang on, read to the end of memory, or recurse in.
HOSTILE = ["a named pipe", "a link to /dev/zero", "nested 100,000 deep", "2 MiB"]


# -- settings ------------------------------------------------------------------------------------

EVERY_WRONG_TYPE = b"""
language = 5
speech = true
verbosity = [1, 2]
speak_echoes = "yes"
rate = "fast"
pitch = 1.5
volume = {loud = true}
scanner = 7
game = 0
"""


@pytest.mark.sampled
@pytest.mark.parametrize("damage", [
    pytest.param(b"\xff\xfelanguage = 'fr'\n", id="not UTF-8"),
    pytest.param(b"language = \n[[[", id="not TOML"),
    pytest.param(EVERY_WRONG_TYPE, id="every wrong type"),
    pytest.param(b'speech = "none"\ncolour = "red"\n', id="an unknown key"),
    pytest.param(b'speech = "none"\nrate = 100000\n' + b"#" * 100_000, id="out of range"),
    pytest.param(None, id="a folder"),
    pytest.param(b"", id="unreadable (a link to itself)"),
])
def test_damaged_settings_are_said_kept_and_mended(home: Path, damage: bytes | None) -> None:
    path = home / "config" / "settings.toml"
    path.unlink()
    if damage is None:
        path.mkdir()
        (path / "inside").write_text("kept")
    elif not damage:
        path.symlink_to(path.name)  # every read fails (too many levels of links)
    else:
        path.write_bytes(damage)
    app = App(home)
    app.until("Main menu.")
    app.ended_well()
    assert app.notices() == [said(Notice.SETTINGS_DAMAGED)]
    (copy,) = copies(home / "config", "settings.toml")
    if damage is None:
        assert (copy / "inside").read_text() == "kept"
    elif not damage:
        assert str(copy.readlink()) == "settings.toml"
    else:
        assert copy.read_bytes() == damage
    assert path.is_file(), "the mended settings are written"
    again = App(home)
    again.until("Main menu.")
    again.ended_well()
    assert again.notices() == [], "said once: the next start is clean"


@pytest.mark.sampled
@pytest.mark.parametrize("folder", ["a file", "read-only"])
def test_a_config_folder_that_takes_nothing_keeps_the_first_start_s_answers(
        tmp_path: Path, folder: str) -> None:
    """The three answers of a first start hold for this time though they
    cannot be saved, and the player is told so once."""
    with contextlib.ExitStack() as stack:
        if folder == "a file":
            (tmp_path / "config").write_text("not a folder")
        else:
            (tmp_path / "config").mkdir()
            stack.enter_context(read_only(tmp_path / "config"))
        first_start_in_french(tmp_path)
    if folder == "a file":
        assert (tmp_path / "config").read_text() == "not a folder"
    else:
        assert list((tmp_path / "config").iterdir()) == []


def first_start_in_french(tmp_path: Path) -> None:
    app = App(tmp_path)
    french = Catalog.for_language("fr")
    app.answer("Choose 1 to 4:", "2")  # Français
    app.answer(french.text("Choose 1 to %(n)d:", n=2), "2")  # a screen reader speaks
    app.answer(french.text("Choose 1 to %(n)d:", n=3), "1")  # terse
    app.until(french.text("Main menu."))
    app.send("quit")
    app.until(french.text("Goodbye."))
    assert app.quit() == 0 and "Traceback" not in app.errors
    assert app.lines.count(french.text(NOTICES[Notice.NOT_SAVING])) == 1


def hostile(path: Path, damage: str) -> None:
    """Put a file at ``path`` that a plain read would hang on, swamp the
    memory with, or recurse too deeply in."""
    if damage == "a named pipe":
        os.mkfifo(path)
    elif damage == "a link to /dev/zero":
        path.symlink_to("/dev/zero")
    elif damage == "2 MiB":  # right, but too big to be read
        path.write_bytes(GOOD_SETTINGS.encode() + b"#" * (2 << 20) if path.suffix == ".toml"
                         else b'{"format": 2, "tags": {}}' + b" " * (2 << 20))
    elif path.suffix == ".toml":
        path.write_bytes(b"rate = " + b"[" * 100_000 + b"]" * 100_000 + b"\n")
    else:
        path.write_bytes(b'{"format": 2, "tags": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")


def is_kept(copy: Path, damage: str) -> bool:
    if damage == "a named pipe":
        return stat.S_ISFIFO(copy.lstat().st_mode)
    if damage == "a link to /dev/zero":
        return str(copy.readlink()) == "/dev/zero"
    return copy.stat().st_size > 100_000


@pytest.mark.sampled
@pytest.mark.parametrize("damage", HOSTILE)
@pytest.mark.parametrize("name", ["settings.toml", "registry.json"])
def test_a_hostile_file_never_stops_a_start(home: Path, name: str, damage: str) -> None:
    folder = home / ("config" if name == "settings.toml" else "data")
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.unlink(missing_ok=True)
    hostile(path, damage)
    app = App(home)
    try:
        app.until("Main menu.")
        app.ended_well()
    finally:
        app.process.kill()
        app.process.wait(timeout=60)
    notice = Notice.SETTINGS_DAMAGED if name == "settings.toml" else Notice.REGISTRY_DAMAGED
    assert app.notices() == [said(notice)]
    (copy,) = copies(folder, name)
    assert is_kept(copy, damage)
    assert path.is_file() if name == "settings.toml" else not path.exists()


def test_with_umask_0_a_first_start_makes_its_folders_and_files_private(
        tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    app = App(home, umask=0)
    app.answer("Choose 1 to 4:", "1")
    app.answer("Choose 1 to 2:", "2")
    app.answer("Choose 1 to 3:", "1")
    app.until("Main menu.")
    app.ended_well()
    for folder in ("config", "data", "data/journals"):
        assert stat.S_IMODE((home / folder).stat().st_mode) == 0o700, folder
    assert stat.S_IMODE((home / "config" / "settings.toml").stat().st_mode) == 0o600


# -- the scanner's tags-----------------------------------------------------------------------------


@pytest.mark.sampled
@pytest.mark.parametrize("damage", [
    pytest.param(b"\xff\xfe{", id="not UTF-8"),
    pytest.param(b'{"format": 2, "tags": {"04A1B2C3": {"game": ', id="cut mid-record"),
    pytest.param(b'{"format": [2], "tags": 5}', id="wrong types"),
    pytest.param(b'{"format": 2, "tags": {"04A1B2C3": {"game": 1, "card": []}}}',
                 id="a tag of wrong types"),
    pytest.param(None, id="a folder"),
])
def test_a_damaged_tag_list_is_said_and_kept(home: Path, damage: bytes | None) -> None:
    path = home / "data" / "registry.json"
    path.parent.mkdir(parents=True)
    if damage is None:
        path.mkdir()
    else:
        path.write_bytes(damage)
    app = App(home)
    app.until("Main menu.")
    app.ended_well()
    assert app.notices() == [said(Notice.REGISTRY_DAMAGED)]
    (copy,) = copies(home / "data", "registry.json")
    assert copy.is_dir() if damage is None else copy.read_bytes() == damage
    assert not path.exists()


def test_a_tag_list_with_some_wrong_tags_keeps_the_others(home: Path) -> None:
    """One wrong tag among many: the others are kept (no deck to enrol again),
    the wrong one said by its numbers, the file as it was kept as a copy."""
    path = home / "data" / "registry.json"
    path.parent.mkdir(parents=True)
    damage = json.dumps({"format": 2, "tags": {
        "04A1B2C3": {"game": "sushigo", "card": "salmon"},
        "04A1B2C4": {"game": "sushigo", "card": "tempura"},
        "04A1B2C5": {"game": "sushigo", "card": "no such card"},
        "04A1B2C6": {"game": "mici-maki", "card": []},
        "04A1B2C7": {"game": "mici-maki", "card": "food7"},
    }}).encode()
    path.write_bytes(damage)
    app = App(home)
    app.until("Main menu.")
    app.ended_well()
    mended = NOTICES[Notice.REGISTRY_MENDED]
    assert [line for line in app.lines if line.startswith(mended)] == [
        "The card scanner's list of tags was damaged: a copy was kept. 2 tags could not be "
        "read and were left out. 3 tags are kept."]
    assert app.notices() == []  # nothing else said of the files
    (copy,) = copies(home / "data", "registry.json")
    assert copy.read_bytes() == damage
    kept = Registry.load(path)
    assert {uid: (tag.game, tag.card) for uid, tag in kept} == {
        "04A1B2C3": ("sushigo", "salmon"), "04A1B2C4": ("sushigo", "tempura"),
        "04A1B2C7": ("mici-maki", "food7")}
    again = App(home)
    again.until("Main menu.")
    again.ended_well()
    assert not [line for line in again.lines if line.startswith(mended)], "said once"
    assert again.notices() == []


# -- the game store---------------------------------------------------------------------------------


def test_a_store_that_is_not_one_is_kept_and_begun_again(home: Path) -> None:
    store = store_of(home)
    store.parent.mkdir(parents=True)
    store.write_bytes(b"\x00garbage" * 500)
    app = App(home)
    app.until("Main menu.")
    app.ended_well()
    assert app.notices() == [said(Notice.STORE_DAMAGED)]
    (copy,) = copies(store.parent, STORE_NAME)
    assert copy.read_bytes() == b"\x00garbage" * 500
    played(home)  # games are saved afresh


def test_a_store_that_cannot_be_read_is_moved_aside(home: Path) -> None:
    store = store_of(home)
    store.parent.mkdir(parents=True)
    store.symlink_to(STORE_NAME)  # a link to itself: every open fails
    app = App(home)
    app.until("Main menu.")
    app.ended_well()
    assert app.notices() == [said(Notice.STORE_DAMAGED)]
    (copy,) = copies(store.parent, STORE_NAME)
    assert str(copy.readlink()) == STORE_NAME
    played(home)


def test_a_store_that_is_a_folder_is_moved_aside(home: Path) -> None:
    store_of(home).mkdir(parents=True)
    turn = played(home)
    assert resumed_at(home, notices=[]) == turn
    assert copies(store_of(home).parent, STORE_NAME)[0].is_dir()


def test_a_store_of_a_newer_version_is_read_only_and_says_so(home: Path) -> None:
    turn = played(home)
    with sqlite3.connect(store_of(home)) as database:
        database.execute(f"PRAGMA user_version = {SCHEMA + 1}")
    before = _game_events(home)
    app = App(home)
    app.answer("An unfinished practice game was found.", "")
    app.answer("Choose 1 to 4:", "1")
    app.until(turn)
    app.turn()  # played on, never written
    app.ended_well()
    assert app.notices() == [said(Notice.STORE_NEWER)]
    assert _game_events(home) == before


def _game_events(home: Path) -> list[dict[str, object]]:
    Store.forget()
    (game,) = journals(home / "data" / "journals")
    events = load(game).events
    Store.forget()
    return events


def test_an_old_journal_cut_mid_record_is_imported_whole(home: Path) -> None:
    header = {"type": "table", "game": "sushigo", "format": 1, "names": ["Ana", "Ben"],
              "you": 0, "variant": {}, "first_controller": 0}
    hand = {"type": "entry", "kind": "hand", "seat": 0, "round": 1, "turn": 1,
            "cards": ["wasabi", "squid", *["sashimi"] * 8]}
    folder = home / "data" / "journals"
    folder.mkdir(parents=True)
    path = folder / "20260101-100000-aaaaaa.jsonl"
    path.write_bytes(encode_line(0, header) + encode_line(1, hand) + b'{"n": 2, "event": {"ty')
    app = App(home)
    app.answer("An unfinished table game was found.", "")
    app.answer("Choose 1 to 4:", "1")
    app.until("Your pick:")  # the hand was kept: its pick is asked
    app.ended_well()
    assert app.notices() == [said(Notice.GAME_DAMAGED)]
    assert path.read_bytes().endswith(b'{"ty'), "the file is kept as it was"


def test_a_store_whose_log_is_cut_mid_record_resumes_at_its_last_whole_answer(
        home: Path) -> None:
    turn = played(home, turns=3, killed=True)
    log = store_of(home).with_name(STORE_NAME + "-wal")
    size = log.stat().st_size
    assert size > 8192, "the answers are in the log"
    with log.open("r+b") as file:
        file.truncate(size - 2000)  # the last answer's frame torn in half
    Store.forget()
    at = resumed_at(home, notices=[])
    assert at in (turn, turn.replace("turn 4", "turn 3")), (at, turn)


def test_an_event_of_a_wrong_type_is_dropped_said_and_kept(home: Path) -> None:
    turn = played(home, turns=3)
    with sqlite3.connect(store_of(home)) as database:
        last = database.execute("SELECT max(n) FROM events").fetchone()[0]
        database.execute("UPDATE events SET event = '{\"type\": [\"choose\"]}' WHERE n = ?",
                         (last,))
    at = resumed_at(home, notices=[said(Notice.GAME_DAMAGED)])
    assert at != turn
    assert copies(store_of(home).parent, "*.game")


def test_a_second_window_is_refused_the_game_the_first_plays(home: Path) -> None:
    played(home)
    first = App(home)
    first.answer("An unfinished practice game was found.", "")
    first.answer("Choose 1 to 4:", "1")
    first.until("Your pick:")
    first.pick_open = True
    second = App(home)
    second.until("Main menu.")
    second.ended_well()
    assert second.notices() == ["An unfinished game is open in another window: it stays there."]
    first.turn()
    first.ended_well()


# -- disks that refuse------------------------------------------------------------------------------


def refusing_then_back(home: Path, refuse: Callable[[App], None],
                       allow: Callable[[App], None]) -> None:
    """A game played on while the disk refuses, then saves again: the player
    is told once each, and the game resumes where it was left."""
    app = App(home)
    if journals(store_of(home).parent):
        app.answer("An unfinished practice game was found.", "")
        app.answer("Choose 1 to 4:", "1")  # resumed
        Store.forget()
    else:
        app.practice()
    app.turn()
    refuse(app)
    app.turn()
    app.turn()
    allow(app)
    turn = app.turn()
    app.ended_well()
    assert app.notices() == [said(Notice.NOT_SAVING), said(Notice.SAVING_AGAIN)], app.lines
    assert resumed_at(home, notices=[]) == turn


def test_a_full_disk_plays_on_without_saving_and_saves_again(home: Path) -> None:
    def full(app: App) -> None:
        resource.prlimit(app.process.pid, resource.RLIMIT_FSIZE, (1, resource.RLIM_INFINITY))

    def freed(app: App) -> None:
        resource.prlimit(app.process.pid, resource.RLIMIT_FSIZE,
                         (resource.RLIM_INFINITY, resource.RLIM_INFINITY))

    refusing_then_back(home, full, freed)


@pytest.mark.slow
def test_a_store_held_by_another_program_plays_on_and_saves_again(home: Path) -> None:
    played(home, turns=1)  # the store is made
    holder: list[subprocess.Popen[str]] = []

    def held(app: App) -> None:
        process = subprocess.Popen(
            [sys.executable, "-c", HOLD, str(store_of(home))],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert process.stdout is not None and process.stdout.readline() == "held\n"
        holder.append(process)

    def let_go(app: App) -> None:
        process = holder.pop()
        assert process.stdin is not None
        process.stdin.close()
        assert process.wait(timeout=30) == 0

    refusing_then_back(home, held, let_go)


HOLD = """
import sqlite3, sys
database = sqlite3.connect(sys.argv[1], isolation_level=None)
database.execute("BEGIN EXCLUSIVE")
database.execute("CREATE TABLE IF NOT EXISTS held (x)")
print("held", flush=True)
sys.stdin.read()
database.execute("ROLLBACK")
"""


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[Callable[[], None]]:
    """Make a folder and its files refuse writes (by the first way that works
    here, checked); what makes it writable again is given, and is done at
    the end anyway. (Files opened before keep writing through a bind mount:
    only files opened after it are refused.)"""
    ways: list[tuple[list[list[str]], list[list[str]]]] = [
        ([["mount", "--bind", str(folder), str(folder)],
          ["mount", "-o", "remount,ro,bind", str(folder)]],
         [["mount", "-o", "remount,rw,bind", str(folder)], ["umount", "-l", str(folder)]]),
        ([["chattr", "-R", "+i", str(folder)]], [["chattr", "-R", "-i", str(folder)]]),
        ([["chmod", "-R", "a-w", str(folder)]], [["chmod", "-R", "u+w", str(folder)]]),
    ]
    for make, undo in ways:
        if all(subprocess.run(command, check=False, capture_output=True).returncode == 0
               for command in make) and _refuses(folder):
            writable = Undo(undo)
            try:
                yield writable
            finally:
                writable()
            return
        for command in undo:
            subprocess.run(command, check=False, capture_output=True)
    pytest.fail(f"no way to make {folder} read-only here")


class Undo:
    """Commands run once, when called or at the end."""

    def __init__(self, commands: list[list[str]]) -> None:
        self.commands = commands

    def __call__(self) -> None:
        while self.commands:
            subprocess.run(self.commands.pop(0), check=True, capture_output=True)


def _refuses(folder: Path) -> bool:
    probe = folder / "probe"
    try:
        probe.write_bytes(b"x")
    except OSError:
        return True
    probe.unlink()
    return False


# Root: as another user the folder is made read-only by its modes alone, and
# the store opened then does not save again once they are given back (seen in
# the fast loop; a read-only bind mount, as root, is what a disk does).
@pytest.mark.system
def test_a_read_only_disk_plays_on_without_saving_and_saves_again(home: Path) -> None:
    """The store's folder read-only from the start: the game is resumed and
    played without saving; made writable while the app runs, it saves again."""
    played(home, turns=1)
    with read_only(store_of(home).parent) as writable:
        app = App(home)
        app.answer("An unfinished practice game was found.", "")
        app.answer("Choose 1 to 4:", "1")
        app.turn()
        app.turn()
        writable()
        turn = app.turn()
        app.ended_well()
    assert app.notices() == [said(Notice.NOT_SAVING), said(Notice.SAVING_AGAIN)], app.lines
    assert resumed_at(home, notices=[]) == turn


def test_a_data_folder_that_is_a_file_plays_without_saving(tmp_path: Path) -> None:
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.toml").write_text(GOOD_SETTINGS)
    (tmp_path / "data").write_text("not a folder")
    app = App(tmp_path)
    app.practice()
    app.turn()
    app.turn()
    app.ended_well()
    assert app.notices() == [said(Notice.NOT_SAVING)]
    assert (tmp_path / "data").read_text() == "not a folder"


def test_a_start_on_a_full_disk_resumes_the_game_and_plays_on(home: Path) -> None:
    turn = played(home)
    app = App(home, limit_files=1)
    app.answer("An unfinished practice game was found.", "")
    app.answer("Choose 1 to 4:", "1")
    app.until(turn)
    app.turn()
    app.ended_well()
    assert app.notices() == [said(Notice.NOT_SAVING)]
    assert resumed_at(home, notices=[]) == turn, "what was saved before is all there"


def test_a_game_whose_header_alone_was_saved_is_offered_and_plays(home: Path) -> None:
    Journal.create({"type": "practice", "game": "sushigo", "format": 1, "names": ["A", "B"],
                    "bots": [None, "greedy"], "variant": {}, "seed": 3},
                   home / "data" / "journals").close()
    Store.forget()
    app = App(home)
    app.answer("An unfinished practice game was found.", "")
    app.answer("Choose 1 to 4:", "1")
    app.turn()
    app.ended_well()
    assert app.notices() == []
