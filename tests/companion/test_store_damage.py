"""A store that knows when it is damaged, whose log is its own, and that no link leads astray.

Each case is reproduced as a user's machine would have it: a page of a real
store overwritten with garbage, a ``-wal`` copied from another store or
left beside a store restored from a backup, an old journal file of a newer
format, the store (or its log, its locks, its folder) a link to somewhere
outside the data folder, a umask of 0. Then the real app runs
(``python -m companion --plain`` through pipes, :class:`tests.companion.test_damaged.App`),
says what happened once, keeps what it could not use, and goes on saving:
an answer played after it is there at the next start.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import sqlite3
import stat
from pathlib import Path

import pytest

from companion.games.micimaki import session as micimaki_session
from companion.games.sushigo import session as sushigo_session
from companion.i18n import Catalog
from companion.journal import GameRef, import_journal, journals, load
from companion.notices import Notice, counts, take_notices
from companion.store import (
    JOURNAL_FORMAT,
    STORE_NAME,
    NewerFormat,
    Record,
    Store,
    encode_line,
    log_belongs,
    log_frames,
)
from tests.companion.damage import App, fresh_fixture, home_fixture, said  # noqa: F401
from tests.drivers import GOOD_SETTINGS, copies, played, resumed_at, store_of

ENGLISH = Catalog.for_language("en")


def recovered(saved: int, lost: int) -> str:
    """The sentence of a damaged store, as the app says it in English."""
    text = said(Notice.STORE_RECOVERED) + " " + ENGLISH.plural(
        "%(n)d game was recovered.", "%(n)d games were recovered.", saved)
    if lost:
        text += " " + ENGLISH.plural(
            "%(n)d game could not be recovered: it stays in the damaged file.",
            "%(n)d games could not be recovered: they stay in the damaged file.", lost)
    return text


def finished_games(folder: Path, count: int) -> None:
    """Games played to their end, each with enough events to fill pages of its own."""
    store = Store.at(folder)
    for number in range(count):
        events: list[dict[str, object]] = [
            {"type": "entry", "tag": f"finished-{number}-" + "x" * 80, "i": i}
            for i in range(120)]
        events.append({"type": "end", "totals": [number, 0]})
        store.save(Record(f"20250101-0000{number:02d}-aaaaaa", {"type": "test"}), events,
                   told=True)
    Store.forget()


def overwrite_a_page_of(store: Path, tag: bytes, *, last: bool = False) -> bytes:
    """Garbage over one whole page (at a page boundary) that holds events of
    one game alone (its first such page, or its last); the bytes of the
    damaged file."""
    raw = bytearray(store.read_bytes())
    size = int.from_bytes(raw[16:18], "big")
    starts = range(size, len(raw), size)
    for start in reversed(starts) if last else starts:
        page = bytes(raw[start:start + size])
        others = set(re.findall(rb"finished-\d+-", page)) - {tag}
        if tag in page and not others and b"practice" not in page:
            raw[start:start + size] = b"\xde\xad" * (size // 2)
            store.write_bytes(bytes(raw))
            return bytes(raw)
    raise AssertionError("no page of that game's events alone")


def test_a_page_of_garbage_is_said_what_reads_is_recovered_and_saving_goes_on(
        home: Path) -> None:
    folder = store_of(home).parent
    finished_games(folder, 6)
    played(home)  # an unfinished practice game besides the six finished
    damaged = overwrite_a_page_of(store_of(home), b"finished-3-")
    app = App(home)
    app.answer("An unfinished practice game was found.", "")
    app.answer("Choose 1 to 4:", "1")
    turn = app.turn()  # an answer played on the store begun afresh
    app.process.kill()
    app.process.wait(timeout=60)
    assert recovered(6, 1) in app.lines, app.lines[:8]
    assert said(Notice.NOT_SAVING) not in app.lines
    assert resumed_at(home, notices=[]) == turn, "saved in the fresh store"
    (copy,) = copies(folder, STORE_NAME)
    assert copy.read_bytes() == damaged, "the damaged file is kept as it was, alone"
    Store.forget()
    names = [game.name for game in journals(folder)]
    assert len(names) == 6 and "20250101-000003-aaaaaa" not in names
    kept = load(GameRef(folder, "20250101-000005-aaaaaa")).events
    assert len(kept) == 121 and kept[-1]["type"] == "end"


def test_a_store_damaged_while_the_app_runs_is_recovered_and_the_save_goes_through(
        tmp_path: Path) -> None:
    finished_games(tmp_path, 4)
    store = Store.at(tmp_path)
    record = Record("20260101-120000-bbbbbb", {"type": "test"})
    events: list[dict[str, object]] = [{"type": "step", "tag": "finished-9-" + "y" * 80, "i": i}
                                       for i in range(120)]
    store.save(record, events)
    assert store.connection is not None
    store.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    # the page the next event goes to: that write finds the damage
    overwrite_a_page_of(store.path, b"finished-9-", last=True)
    store.connection.execute("PRAGMA shrink_memory")  # the damaged page is read again
    events.append({"type": "step", "n": 121})
    store.save(record, events)
    assert take_notices() == [Notice.STORE_RECOVERED], "said once, and saving went on"
    assert counts(Notice.STORE_RECOVERED) == {"recovered": 4, "lost": 1}
    Store.forget()
    assert load(GameRef(tmp_path, record.name)).events == events
    assert len(journals(tmp_path)) == 5
    assert len([path for path in copies(tmp_path, STORE_NAME)
                if not path.name.endswith(("-wal", "-shm"))]) == 1


def killed_with_its_log(home: Path, turns: int = 2) -> tuple[str, bytes]:
    """A game left by kill -9, its answers in the store's log: the turn and the log."""
    turn = played(home, turns=turns, killed=True)
    log = store_of(home).with_name(STORE_NAME + "-wal").read_bytes()
    assert log_frames(log), "the answers are in the log"
    return turn, log


def test_a_log_from_another_store_is_kept_aside_and_not_applied(tmp_path: Path) -> None:
    other, mine = tmp_path / "other", tmp_path / "mine"
    for folder in (other, mine):
        (folder / "config").mkdir(parents=True)
        (folder / "config" / "settings.toml").write_text(GOOD_SETTINGS)
    _, log = killed_with_its_log(other, turns=3)
    turn = played(mine, turns=1)
    store_of(mine).with_name(STORE_NAME + "-wal").write_bytes(log)
    assert resumed_at(mine, notices=[said(Notice.LOG_FOREIGN)]) == turn
    (kept,) = store_of(mine).parent.glob(f"{STORE_NAME}-wal.foreign-*")
    assert kept.read_bytes() == log


@pytest.mark.slow
def test_a_log_left_beside_a_store_restored_from_a_backup_is_kept_aside(home: Path) -> None:
    turn = played(home, turns=1)
    backup = store_of(home).read_bytes()
    app = App(home)  # played on and left: the store itself has the later turns
    app.answer("An unfinished practice game was found.", "")
    app.answer("Choose 1 to 4:", "1")
    app.turn()
    app.ended_well()
    app = App(home)  # and again, killed: its answers only in the log
    app.answer("An unfinished practice game was found.", "")
    app.answer("Choose 1 to 4:", "1")
    app.turn()
    app.process.kill()
    app.process.wait(timeout=60)
    store_of(home).write_bytes(backup)  # the backup put back; the log stays
    assert resumed_at(home, notices=[said(Notice.LOG_FOREIGN)]) == turn


def test_a_log_copied_with_its_store_belongs_and_is_applied(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    for folder in (first, second):
        (folder / "config").mkdir(parents=True)
        (folder / "config" / "settings.toml").write_text(GOOD_SETTINGS)
    turn, log = killed_with_its_log(first)
    store_of(second).parent.mkdir(parents=True)
    shutil.copy(store_of(first), store_of(second))
    store_of(second).with_name(STORE_NAME + "-wal").write_bytes(log)
    assert log_belongs(store_of(second).read_bytes(), log)
    assert resumed_at(second, notices=[]) == turn


def test_a_journal_of_a_newer_format_is_refused_kept_and_said(home: Path) -> None:
    header = {"type": "practice", "game": "sushigo", "format": JOURNAL_FORMAT + 1,
              "names": ["A", "B"], "bots": [None, "greedy"], "variant": {}, "seed": 3}
    folder = store_of(home).parent
    folder.mkdir(parents=True)
    journal = folder / "20260101-100000-cccccc.jsonl"
    raw = encode_line(0, header) + encode_line(1, {"type": "choose", "seat": 0, "choice": "t"})
    journal.write_bytes(raw)
    app = App(home)
    app.until("Main menu.")  # nothing offered to resume
    app.ended_well()
    assert app.notices() == [said(Notice.GAME_NEWER)]
    assert journal.read_bytes() == raw, "kept as it was"
    Store.forget()
    assert journals(folder) == [], "not imported"
    with pytest.raises(NewerFormat, match="newer version of the app"):
        import_journal(journal, folder)
    assert journals(folder) == []


def test_every_game_writes_a_format_the_store_imports() -> None:
    assert max(sushigo_session.FORMAT, micimaki_session.FORMAT) <= JOURNAL_FORMAT


def test_a_store_that_is_a_link_out_of_the_folder_is_never_written_through(
        home: Path) -> None:
    elsewhere = home / "elsewhere"
    (elsewhere / "config").mkdir(parents=True)
    (elsewhere / "config" / "settings.toml").write_text(GOOD_SETTINGS)
    played(elsewhere, turns=1)
    outside = store_of(elsewhere)
    before = outside.read_bytes()
    store_of(home).parent.mkdir(parents=True)
    store_of(home).symlink_to(outside)
    app = App(home)
    app.until("Main menu.")
    app.practice()
    app.turn()
    app.ended_well()
    assert app.notices() == [said(Notice.STORE_LINK)]
    assert outside.read_bytes() == before, "nothing written through the link"
    assert sorted(p.name for p in outside.parent.iterdir()) == [STORE_NAME, "locks"]
    (link,) = store_of(home).parent.glob(f"{STORE_NAME}.link-*")
    assert link.is_symlink() and link.readlink() == outside
    assert not store_of(home).is_symlink()
    assert resumed_at(home, notices=[]) != ""  # the new game was saved in a store of its own


@pytest.mark.sampled
@pytest.mark.parametrize("linked", ["journals", "locks", "-wal"])
def test_no_write_follows_a_link_out_of_the_data_folder(home: Path, linked: str) -> None:
    outside = home / "outside"
    outside.mkdir()
    (outside / "kept.txt").write_text("untouched")
    folder = store_of(home).parent
    if linked == "journals":
        folder.parent.mkdir(parents=True)
        folder.symlink_to(outside)
        link = folder
    else:
        played(home, turns=1)
        link = folder / "locks" if linked == "locks" else folder / (STORE_NAME + "-wal")
        if link.is_dir():
            shutil.rmtree(link)
        target = outside if linked == "locks" else outside / "kept.txt"
        link.symlink_to(target)
    app = App(home)
    if linked == "journals":
        app.practice()
    else:
        app.answer("An unfinished practice game was found.", "")
        app.answer("Choose 1 to 4:", "1")
    app.turn()
    app.ended_well()
    assert sorted(p.name for p in outside.iterdir()) == ["kept.txt"]
    assert (outside / "kept.txt").read_text() == "untouched"
    assert not link.is_symlink() or not link.exists() or link.resolve() != outside
    (aside,) = link.parent.glob(f"{link.name}.link-*")
    assert aside.is_symlink()
    expected = [said(Notice.STORE_LINK)] if linked == "journals" else []
    assert app.notices() == expected
    assert resumed_at(home, notices=[]) != ""


def test_folders_and_files_are_private_whatever_the_umask(home: Path) -> None:
    app = App(home, umask=0)
    app.practice()
    app.turn()  # a game open: its lock, the store, its log and index are there
    data = home / "data"
    folder = data / "journals"
    modes = {path.relative_to(home).as_posix(): stat.S_IMODE(path.stat().st_mode)
             for path in [data, folder, *sorted(folder.rglob("*"))]}
    app.ended_well()
    assert {name for name in modes if name.endswith(".lock")}, modes
    for name, mode in modes.items():
        wanted = 0o700 if (home / name).is_dir() else 0o600
        assert mode == wanted, (name, oct(mode), modes)


def test_opening_a_sound_store_keeps_one_identity_in_it(tmp_path: Path) -> None:
    """The identity is in the store file itself once it is opened, and one copy only."""
    store = Store.at(tmp_path)
    store.save(Record("g", {"type": "test"}), [{"type": "step"}] * 3)
    Store.forget()
    raw = (tmp_path / STORE_NAME).read_bytes()
    assert len(re.findall(rb"tactile-companion-store [0-9a-f]{32}", raw)) == 1
    with sqlite3.connect(tmp_path / STORE_NAME) as database:
        (value,) = database.execute("SELECT value FROM meta WHERE key = 'identity'").fetchone()
    database.close()
    assert value.encode() in raw


#: Run in the app's process before it starts: once the store is found
#: damaged, the app kills itself (SIGKILL, as ``kill -9``) just before its
#: ``steps``-th call that opens, writes, renames, removes, syncs or queries a
#: file (a query that a line of the store makes again, in a loop, counts
#: once: it is inside the same transaction, or only reads).
KILL_AT_STEP = """
import os, signal, sys
from companion.store import Store

STEPS = {steps}
CALLS = {{"rename", "unlink", "open", "fsync", "connect", "Connection.execute",
          "Connection.executemany", "Connection.close"}}
QUERIES = {{"Connection.execute", "Connection.executemany"}}
count = 0
seen = set()

def profile(frame, event, arg):
    global count
    name = getattr(arg, "__qualname__", "")
    if event != "c_call" or name not in CALLS:
        return
    if name in QUERIES:
        if (frame.f_code, frame.f_lineno) in seen:
            return
        seen.add((frame.f_code, frame.f_lineno))
    count += 1
    if count >= STEPS:
        os.close(os.open({mark!r}, os.O_WRONLY | os.O_CREAT))  # it was this kill
        os.kill(os.getpid(), signal.SIGKILL)

recover = Store._recover

def killed_while_recovering(self):
    sys.setprofile(profile)
    return recover(self)

Store._recover = killed_while_recovering
"""


def start_and_leave(home: Path, *, steps: int | None = None) -> tuple[App, bool]:
    """The app started on the store as it is and quit at its first question,
    or killed at that step of its recovery or after: its lines, and whether
    it was killed so."""
    mark = home / "killed"
    mark.unlink(missing_ok=True)
    app = App(home, prelude="" if steps is None else KILL_AT_STEP.format(
        steps=steps, mark=str(mark)))
    try:
        app.until("Main menu.", "An unfinished practice game was found.")
        status = app.quit()
    except (AssertionError, OSError):  # it ended before its question, or took no answer
        app.process.kill()
        status = app.process.wait(timeout=60)
        app._reader.join(timeout=30)
    if status == -signal.SIGKILL and mark.exists():
        return app, True
    assert status == 0, (steps, status, app.lines[-12:], app.stderr())
    assert "Traceback" not in app.stderr(), app.stderr()
    return app, False


@pytest.mark.slow
def test_a_recovery_killed_at_any_step_loses_nothing_and_is_said_once(
        home: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The app killed at each step of a recovery in turn (and of the start
    it belongs to, until its news is said): the next start has every game
    that read, the damaged file is kept, and the recovery is said at least
    once, then never again (the store keeps no news to say: the start after
    is run for real where it matters, after a kill that came once it was said,
    and after the whole recovery)."""
    folder = store_of(home).parent
    finished_games(folder, 6)
    played(home)
    Store.forget()
    store = Store.at(folder)
    games = {name: store.read(name) for name in store.names()
             if name != "20250101-000003-aaaaaa"}
    Store.forget()
    damaged = overwrite_a_page_of(store_of(home), b"finished-3-")
    sentence = recovered(6, 1)
    left: set[str] = set()
    steps = 0
    while True:
        steps += 1
        trial = tmp_path_factory.mktemp(f"killed-at-{steps}")
        shutil.copytree(home, trial, dirs_exist_ok=True)
        where = store_of(trial).parent
        killed, cut = start_and_leave(trial, steps=steps)
        if cut:
            beside = (where / (STORE_NAME + ".recovering")).exists()
            left.add("a new store beside the damaged one" if beside else "no new store")
            if beside and not store_of(trial).exists():
                left.add("the damaged store moved aside, the new one not yet in place")
            again, _ = start_and_leave(trial)
            lines = killed.lines + again.lines
        else:
            lines = killed.lines
        assert lines.count(sentence) >= 1, (steps, lines[:12])
        assert not list(where.glob(f"{STORE_NAME}.recovering*")), steps
        (copy,) = [path for path in copies(where, STORE_NAME)
                   if not path.name.endswith(("-wal", "-shm"))]
        assert copy.read_bytes() == damaged, ("the damaged file kept as it was", steps)
        Store.forget()
        take_notices()
        store = Store.at(where)
        assert {name: store.read(name) for name in store.names()} == games, steps
        assert take_notices() == [], ("the store still has news to say", steps)
        Store.forget()
        if not cut or sentence in killed.lines:
            assert start_and_leave(trial)[0].notices() == [], ("said again", steps)
        if not cut or (sentence in killed.lines and again.lines.count(sentence) == 0):
            break  # the recovery and its news are through: no step of it is left
    assert steps > 20, "every step of a recovery was cut, and the start after it"
    assert left == {"a new store beside the damaged one", "no new store",
                    "the damaged store moved aside, the new one not yet in place"}, left


def test_a_game_set_aside_stays_aside_once_its_store_is_recovered(tmp_path: Path) -> None:
    """A damaged game set aside, then a page of another game damaged: the
    recovered store still knows the first is set aside (it is neither
    offered nor said again)."""
    folder = tmp_path / "journals"
    finished_games(folder, 6)
    Store.at(folder).set_aside("20250101-000005-aaaaaa", "game 5, header: damaged")
    Store.forget()
    overwrite_a_page_of(folder / STORE_NAME, b"finished-3-")
    take_notices()
    store = Store.at(folder)
    assert take_notices() == [Notice.STORE_RECOVERED]
    assert "20250101-000005-aaaaaa" in store.names()
    assert store.aside() == {"20250101-000005-aaaaaa": "game 5, header: damaged"}
    Store.forget()


@pytest.mark.sampled
@pytest.mark.parametrize("kind", ["a named pipe", "a link to /dev/zero"])
def test_a_store_or_an_old_journal_that_is_no_file_never_holds_up_the_start(
        home: Path, kind: str) -> None:
    """The store a named pipe (SQLite would wait on it for ever) or a device,
    and an old journal beside it the same: the start goes on at once, says
    it, and the game played is saved in a new store."""
    folder = store_of(home).parent
    folder.mkdir(parents=True)
    for path in (store_of(home), folder / "20240101-000000-abcdef.jsonl"):
        if kind == "a named pipe":
            os.mkfifo(path, 0o600)
        else:
            path.symlink_to("/dev/zero")
    app = App(home)
    app.until("Main menu.")
    app.practice()
    app.turn()
    app.ended_well()
    store = Notice.STORE_DAMAGED if kind == "a named pipe" else Notice.STORE_LINK
    assert app.notices() == [said(store), said(Notice.GAME_UNREADABLE)]
    assert resumed_at(home, notices=[]) != ""  # the new game was saved in a store of its own


def test_a_window_whose_store_another_recovered_saves_into_the_new_one(
        tmp_path: Path) -> None:
    """Two windows on one store; the second finds it damaged and recovers it
    (a new store in its place, the damaged one moved aside). The first one's
    next answers go to the game's own row of the new store: not into the file
    moved aside (lost), nor into another game's row."""
    folder = tmp_path / "journals"
    finished_games(folder, 6)
    first = Store(folder)  # a window with the store open before the damage
    found = first.read_record("20250101-000001-aaaaaa")
    assert found is not None
    record, events, _ = found
    overwrite_a_page_of(folder / STORE_NAME, b"finished-3-")
    second = Store(folder)  # the other window: finds the damage, recovers
    assert Notice.STORE_RECOVERED in take_notices()
    before = {name: second.read(name) for name in second.names()}
    answered = [*events, {"type": "entry", "tag": "answered after", "i": 999}]
    first.save(record, answered)
    first.close()
    second.close()
    now = Store(folder)
    assert now.read("20250101-000001-aaaaaa") == ({"type": "test"}, answered)
    for name, game in before.items():
        if name != "20250101-000001-aaaaaa":
            assert now.read(name) == game, f"{name} is as it was"
    now.close()


def test_a_save_behind_the_disk_is_no_damage(tmp_path: Path) -> None:
    """A record that does not know its game is there already (a save cut
    between its commit and its bookkeeping, then saved again): the game is
    found and saved, and the healthy store is never taken for damaged."""
    folder = tmp_path / "journals"
    store = Store(folder)
    take_notices()
    store.save(Record("g1", {"type": "test"}), [{"type": "step", "n": 1}])
    store.save(Record("g1", {"type": "test"}), [{"type": "step", "n": 1},
                                               {"type": "step", "n": 2}])
    assert take_notices() == []
    assert not list(folder.glob(f"{STORE_NAME}.damaged-*"))
    assert store.read("g1") == ({"type": "test"}, [{"type": "step", "n": 1},
                                                   {"type": "step", "n": 2}])
    store.close()
