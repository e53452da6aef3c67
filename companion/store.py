"""The game store: every game in one SQLite file, safe from crashes and odd disks.

One file, ``games.sqlite3``, in the journals' folder, holds every game: its
header and its events, one row each. It is opened in write-ahead mode with
``synchronous=FULL``, so a transaction is on disk when its commit returns,
and a transaction cut by ``kill -9`` or a pulled plug is simply not there.
The schema's version is the file's ``user_version``; a store written by a
newer version of the app is opened read-only.

What a game writes is saved by :meth:`Store.save` in one transaction: the
events the disk has and memory no longer has are deleted, the new ones
inserted (an answered input, or an undo, is one call). When the disk
refuses (full, read-only, locked by another program, no folder at all), the
game goes on in memory: :data:`SAVING` notes it, and the app says once
"playing without saving". Every later save tries again, with everything not
yet on disk; the first that succeeds says that saving is back.

Journals of JSON lines written before the store (``*.jsonl`` in the same
folder) are imported once, and their files kept; one whose header says a
newer format than this version writes (:data:`JOURNAL_FORMAT`) is refused:
kept as it is, neither imported nor written.

**Damage.** Every writable open runs ``PRAGMA quick_check``: it reads every
page once (but checks no index against its table, which integrity_check
does), 25 to 50 ms for a store of 500 games of 90 events each (7.5 MB) on
a loaded two-core machine; the whole open then takes about 40 ms. A store
that fails it, or that is not a database at all, or that a write finds
damaged later, is recovered so that a kill at any moment loses nothing:
every game that still reads whole (its header and each of its events, in
order, decoded) is read from it where it is, read-only, and copied into a
new store built beside it, ``games.sqlite3.recovering``, in one transaction
with the recovery's news (a ``recovery`` row of ``meta``); once that is on
disk, the damaged store is moved aside whole as
``games.sqlite3.damaged-<date>-<time>`` (with its log, never deleted) and
the new one renamed into its place, which goes on saving. A start that finds
a ``.recovering`` left by a kill takes it if the damaged store was already
moved aside (it was finished), else removes it and recovers again. The news
(how many games were recovered and how many were not) is told by the store
that holds it, at every start until it is said (:func:`notices_said`).
A damaged store never leaves the app "playing without saving" (unless the
disk refuses the new store too: the damaged one then stays in place).

**Whose log is it.** SQLite applies any ``-wal`` file beside the store whose
frames are valid among themselves: nothing in it names the database, so a
log copied from another store, or the log of a crash left beside a store
restored from a backup, silently replaces pages of the games. So every
transaction this module writes also rewrites one row of ``meta``,
``identity``: ``tactile-companion-store <store id> <previous> <current>``,
a random id of the store and a random token of each transaction with the
one it follows (rewritten in place, same length, ``secure_delete`` on: the
page holds that one copy). A checkpoint, whoever runs it, copies whole
committed transactions into the store, and a log begins again only once
everything in it is in the store; so the store's own token is always the
``previous`` of the log's first transaction or the token of one in it.
Before SQLite opens the store, :func:`log_belongs` reads the log's valid
committed frames (salts and checksums, as SQLite does) and the store's
file: a log with frames belongs if the store has no identity yet (new, or
from before identities), or if the log has none (another program, such as
a person's ``sqlite3``, wrote it on this store: SQLite applies it, and the
check below catches pages that do not fit), else only if it has the same
store id and the store's token is among the log's. A log that does not belong is kept aside
as ``games.sqlite3-wal.foreign-<date>-<time>`` (and said) unless another
process has the store open now (it holds SQLite's lock on the ``-shm``):
that log is live and was checked when that process opened the store. A log
copied together with its store, from the same moment, belongs. A store
restored from a backup made at the same checkpoint as the live one is the
same file, so its log belongs too.

**Links.** No write follows a link out of the store's folder: a store, log
or locks folder that is a link leading out of it (or nowhere) is set aside
as it is (the link renamed, never written through) and a real one made;
lock files are opened with ``O_NOFOLLOW`` (Windows has no such flag, and
makes no link without a privilege a player's account lacks). Folders are made 0700 and files
0600 whatever the umask.

What the app must say at start (a damaged store, a newer one, a game
that could not be imported) is queued as :class:`~companion.notices.Notice`
values (:mod:`companion.notices`), handed over once.

>>> import tempfile
>>> store = Store.at(Path(tempfile.mkdtemp()))
>>> store.save(Record("g1", {"type": "test"}), [{"type": "step"}])
>>> store.read("g1")
({'type': 'test'}, [{'type': 'step'}])
>>> store.unfinished()
['g1']
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import re
import secrets
import sqlite3
import stat
import struct
import threading
import time
import zlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

from companion.notices import Notice, tell
from companion.portable import (
    NOFOLLOW,
    NONBLOCK,
    SQLITE_SHM_DMS,
    held_by_another,
    release,
    sync_folder,
    try_lock,
)
from firmware_bridge.files import (
    make_private_folder,
    read_limited,
    sweep_temporaries,
    write_atomically,
)

#: The largest journal file (of JSON lines) imported: a game of hours is well under 1 MiB.
JOURNAL_FILE_LIMIT = 64 << 20
#: The schema this version of the app writes (the file's ``user_version``).
SCHEMA = 1
#: The newest game format (a header's ``format``) any game of this version
#: writes; an old journal file of a newer one is refused.
JOURNAL_FORMAT = 1
STORE_NAME = "games.sqlite3"
JSONL = ".jsonl"
#: How long a write waits for another program holding the store, in ms.
BUSY_MS = 1500
#: The same while saving is already paused (each answered input tries).
BUSY_PAUSED_MS = 50
#: How many stores (folders) stay connected at once.
KEPT_OPEN = 8
#: The new store of a recovery, while it is built (after the store's name).
RECOVERING = ".recovering"
#: How long a start waits for another window recovering the store, in s.
RECOVERY_WAIT = 30.0

Event = dict[str, Any]

_SCHEMA_SQL = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    header TEXT NOT NULL,
    count INTEGER NOT NULL DEFAULT 0,
    finished INTEGER NOT NULL DEFAULT 0,
    told INTEGER NOT NULL DEFAULT 0,
    written INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS games_untold ON games (told, written);
CREATE INDEX IF NOT EXISTS games_written ON games (written);
CREATE TABLE IF NOT EXISTS events (
    game INTEGER NOT NULL,
    n INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (game, n)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


class JournalError(ValueError):
    """A journal that cannot be used at all (no valid header)."""


class NewerFormat(JournalError):
    """A journal file written by a newer version of the app: never imported."""


class GameInUse(JournalError):
    """The game is open in another window (another process holds its lock)."""


class SaveError(OSError):
    """The store refused a write (full, read-only, locked, gone)."""


class Damaged(sqlite3.DatabaseError):
    """The store's file is damaged (its check failed, or it is not a file)."""


class Stale(SaveError):
    """A save whose record is behind the disk (a row taken meanwhile)."""


class Saving:
    """Whether saving works now: paused once a write fails, back once one succeeds.

    >>> saving = Saving()
    >>> saving.failed(); saving.failed(); saving.paused
    True
    >>> saving.succeeded(); saving.paused
    False
    """

    def __init__(self) -> None:
        self.paused = False
        self.quiet = False  # the reason was said another way (a newer store)

    def failed(self, *, quiet: bool = False) -> None:
        if not self.paused:
            self.paused = True
            if not (quiet or self.quiet):
                tell(Notice.NOT_SAVING)
        self.quiet = self.quiet or quiet

    def succeeded(self) -> None:
        if self.paused:
            self.paused = False
            if not self.quiet:
                tell(Notice.SAVING_AGAIN)


#: The app's one saving state.
SAVING = Saving()


def stamp() -> str:
    return time.strftime("%Y%m%d-%H%M%S")


def crc(number: int, event: Mapping[str, Any]) -> int:
    body = json.dumps({"n": number, "event": event}, sort_keys=True, ensure_ascii=False)
    return zlib.crc32(body.encode("utf-8"))


def encode_line(number: int, event: Mapping[str, Any]) -> bytes:
    """One line of a journal file (the export format): its number, event and CRC."""
    record = {"n": number, "event": event, "crc": crc(number, event)}
    return json.dumps(record, sort_keys=True, ensure_ascii=False).encode("utf-8") + b"\n"


def parse_lines(raw: bytes) -> tuple[list[Event], int, int, str]:
    """Whole, valid events of a journal file from its start (the header
    first); then how many lines and bytes were left, and why.

    >>> parse_lines(encode_line(0, {"type": "t"}) + b'{"n": 1')[1:]
    (1, 7, 'the last line was cut short')
    """
    events: list[Event] = []
    good = 0
    problem = ""
    for line in raw.splitlines(keepends=True):
        if not line.endswith(b"\n"):
            problem = "the last line was cut short"
            break
        try:
            record = json.loads(line)
            number, event, check = record["n"], record["event"], record["crc"]
        except (ValueError, KeyError, TypeError):
            problem = f"line {len(events) + 1} is not a journal entry"
            break
        if not isinstance(event, dict) or number != len(events):
            problem = f"line {len(events) + 1} is out of order"
            break
        if crc(number, event) != check or not _usable(event):
            problem = f"line {len(events) + 1} is damaged"
            break
        events.append(event)
        good += len(line)
    rest = raw[good:]
    dropped_lines = rest.count(b"\n") + (1 if rest and not rest.endswith(b"\n") else 0)
    return events, dropped_lines, len(rest), problem


def _usable(event: Mapping[str, Any]) -> bool:
    """Every event the games write has a ``type`` that is text."""
    return isinstance(event.get("type"), str)


def _decode(text: object) -> Event | None:
    try:
        event = json.loads(str(text))
    except ValueError:
        return None
    return event if isinstance(event, dict) and _usable(event) else None


# -- whose log is it ------------------------------------------------------------------------------

_MARK = "tactile-companion-store"
_MARKER = re.compile(rb"tactile-companion-store ([0-9a-f]{32}) ([0-9a-f]{32}) ([0-9a-f]{32})")
_WAL_MAGIC = (0x377F0682, 0x377F0683)  # the low bit: checksums of big-endian words
_WAL_HEADER = 32
_FRAME_HEADER = 24
_WORDS = {False: struct.Struct("<2I"), True: struct.Struct(">2I")}


def _checksum(data: bytes, sums: tuple[int, int], big: bool) -> tuple[int, int]:
    """SQLite's running checksum of a log over ``data`` (a multiple of 8 bytes)."""
    first, second = sums
    for one, two in _WORDS[big].iter_unpack(data):
        first = (first + one + second) & 0xFFFFFFFF
        second = (second + two + first) & 0xFFFFFFFF
    return first, second


def log_frames(raw: bytes) -> list[tuple[int, bytes]]:
    """The pages a ``-wal`` file holds that SQLite would apply: every frame up
    to the last commit whose salts match the log's header and whose running
    checksum holds, as (page number, page image); none for a log that is
    empty, cut inside its header or not a log.

    >>> log_frames(b""), log_frames(b"not a log at all, not at all, no")
    ([], [])
    """
    if len(raw) < _WAL_HEADER:
        return []
    magic, _, size, _, salt1, salt2, check1, check2 = struct.unpack(">8I", raw[:_WAL_HEADER])
    if magic not in _WAL_MAGIC or not 512 <= size <= 65536 or size & (size - 1):
        return []
    big = bool(magic & 1)
    sums = _checksum(raw[:24], (0, 0), big)
    if sums != (check1, check2):
        return []
    frames: list[tuple[int, bytes]] = []
    committed = 0
    offset = _WAL_HEADER
    while offset + _FRAME_HEADER + size <= len(raw):
        page, commit, frame1, frame2, check1, check2 = struct.unpack(
            ">6I", raw[offset:offset + _FRAME_HEADER])
        if page == 0 or (frame1, frame2) != (salt1, salt2):
            break
        image = raw[offset + _FRAME_HEADER:offset + _FRAME_HEADER + size]
        sums = _checksum(image, _checksum(raw[offset:offset + 8], sums, big), big)
        if sums != (check1, check2):
            break
        frames.append((page, image))
        if commit:
            committed = len(frames)
        offset += _FRAME_HEADER + size
    return frames[:committed]


def _identities(data: bytes) -> list[tuple[str, str, str]]:
    """The identity rows (store id, previous token, token) found in raw pages."""
    return [(found.group(1).decode(), found.group(2).decode(), found.group(3).decode())
            for found in _MARKER.finditer(data)]


def log_belongs(store: bytes, log: bytes) -> bool:
    """Whether a ``-wal`` file (its bytes) belongs with the store file (its
    bytes), so that SQLite may apply it (see the module's docstring).

    >>> log_belongs(b"", b"")  # no frames: SQLite applies nothing
    True
    """
    return _belongs(store, log_frames(log))


def _belongs(store: bytes, frames: Sequence[tuple[int, bytes]]) -> bool:
    if not frames:
        return True
    if len(store) < 100:
        return False  # no store for it to belong to: its pages would become one
    mine = _identities(store)
    if not mine:
        return True  # a new store, or one from before identities: nothing to tell by
    theirs = _identities(b"".join(image for _, image in frames))
    if not theirs:
        return True  # written by another program (a person's sqlite3): SQLite's to apply
    stores = {identity[0] for identity in mine}
    tokens = {token for identity in theirs for token in identity[1:]}
    return all(identity[0] in stores for identity in theirs) and any(
        identity[2] in tokens for identity in mine)


def _identity(old: object) -> str:
    """The identity row that follows ``old`` (a new store's when there is none)."""
    parts = str(old).split() if old is not None else []
    if len(parts) == 4 and parts[0] == _MARK and _MARKER.fullmatch(str(old).encode()):
        store, previous = parts[1], parts[3]
    else:
        store, previous = secrets.token_hex(16), "0" * 32
    return f"{_MARK} {store} {previous} {secrets.token_hex(16)}"


def _mark(connection: sqlite3.Connection) -> None:
    """Rewrite the identity row inside the open transaction (every write does)."""
    row = connection.execute("SELECT value FROM meta WHERE key = 'identity'").fetchone()
    if row is None:
        connection.execute("INSERT INTO meta VALUES ('identity', ?)", (_identity(None),))
    else:
        connection.execute("UPDATE meta SET value = ? WHERE key = 'identity'",
                           (_identity(row[0]),))


def _in_use(shm: Path) -> bool:
    """Whether another process has the store open now: each SQLite connection
    holds a read lock on byte 128 of the ``-shm`` while it is open. (Asked
    only of a log about to be refused: closing this descriptor would drop
    this process's own locks on that file.)"""
    try:
        fd = os.open(shm, os.O_RDWR | NOFOLLOW)
    except OSError:
        return False
    try:
        return held_by_another(fd, SQLITE_SHM_DMS)
    finally:
        os.close(fd)


def _read_plain(path: Path) -> bytes:
    """A regular file's bytes, not through a link; ``b""`` if it cannot be
    read (a named pipe is never waited on)."""
    try:
        fd = os.open(path, os.O_RDONLY | NOFOLLOW | NONBLOCK)
    except OSError:
        return b""
    with os.fdopen(fd, "rb") as file:
        return file.read() if stat.S_ISREG(os.fstat(fd).st_mode) else b""


# -- recovering a damaged store --------------------------------------------------------------


@dataclass(frozen=True)
class Salvaged:
    """A game read whole from a damaged store: its row and its events."""

    name: str
    header: str
    finished: int
    told: int
    written: int
    events: tuple[str, ...]
    #: Why it was set aside as damaged (its ``meta`` row), if it was.
    aside: str | None = None
    #: Its row in the damaged store, kept in the new one (a window that had
    #: the store open writes to the same game's row, never another's).
    row: int = 0


def salvage(path: Path) -> tuple[list[Salvaged], int]:
    """Every game of a damaged store that still reads whole (header and every
    event, in order, decoded), read row by row; and how many could not be
    (a game is never copied in part: it stays in the damaged file)."""
    # without a log of its own, read as it is: nothing made beside the kept file
    options = "mode=ro" if path.with_name(path.name + "-wal").exists() else "mode=ro&immutable=1"
    try:
        connection = sqlite3.connect(f"file:{quote(str(path))}?{options}", uri=True,
                                     isolation_level=None, check_same_thread=False)
    except sqlite3.Error:
        return [], 0
    try:
        return _salvage(connection)
    finally:
        with contextlib.suppress(sqlite3.Error):
            connection.close()


def _salvage(connection: sqlite3.Connection) -> tuple[list[Salvaged], int]:
    # games are never deleted, so their ids run from 1 to the largest; a
    # damaged page may hide some of them from a scan but not from a probe
    known: set[int] = set()
    for query in ("SELECT max(id) FROM games", "SELECT id FROM games NOT INDEXED ORDER BY id",
                  "SELECT DISTINCT game FROM events"):
        with contextlib.suppress(sqlite3.Error):
            for (number,) in connection.execute(query):
                if isinstance(number, int) and 0 < number < 10_000_000:
                    known.add(number)
    if not known:
        return [], 0
    saved: list[Salvaged] = []
    lost = 0
    for number in range(1, max(known) + 1):
        try:
            row = connection.execute(
                "SELECT name, header, count, finished, told, written FROM games NOT INDEXED "
                "WHERE id = ?", (number,)).fetchone()
        except sqlite3.Error:
            lost += 1
            continue
        if row is None:
            lost += number in known
            continue
        game = _whole(connection, number, row)
        if game is None:
            lost += 1
        else:
            saved.append(replace(game, row=number))
    return _with_asides(connection, saved), lost


def _with_asides(connection: sqlite3.Connection, saved: list[Salvaged]) -> list[Salvaged]:
    """The games, each with why it was set aside if it was (so that a game
    set aside is not offered again, nor said again, once recovered)."""
    try:
        rows = connection.execute("SELECT key, value FROM meta WHERE substr(key, 1, ?) = ?",
                                  (len(ASIDE), ASIDE)).fetchall()
    except sqlite3.Error:
        return saved  # the marks are lost with their page: each game is checked again
    asides = {str(key)[len(ASIDE):]: str(value) for key, value in rows}
    return [replace(game, aside=asides.get(game.name)) for game in saved]


def _whole(connection: sqlite3.Connection, number: int, row: Sequence[Any]) -> Salvaged | None:
    """A game's row and its events, if all of them read and decode."""
    name, header, count, finished, told, written = row
    if not isinstance(name, str) or _decode(header) is None or not isinstance(count, int):
        return None
    try:
        events = connection.execute(
            "SELECT n, event FROM events WHERE game = ? ORDER BY n", (number,)).fetchall()
    except sqlite3.Error:
        return None
    if [n for n, _ in events] != list(range(1, count + 1)) or any(
            _decode(text) is None for _, text in events):
        return None
    return Salvaged(name, str(header), int(bool(finished)), int(bool(told)),
                    written if isinstance(written, int) else 0,
                    tuple(str(text) for _, text in events))


@dataclass(frozen=True)
class Recovery:
    """A recovery's plan and news, the ``recovery`` row of the new store's
    ``meta``: where the damaged store is kept, how many games were recovered
    and how many not. Written with the recovered games, it is there until
    the player is told (:func:`notices_said`), even if the run that
    recovered was killed first.

    >>> Recovery.parse(str(Recovery("games.sqlite3.damaged-20261203-101500", 6, 1)))
    Recovery(kept='games.sqlite3.damaged-20261203-101500', recovered=6, lost=1)
    >>> Recovery("games.sqlite3.damaged-20261203-101500", 0, 0).notice
    <Notice.STORE_DAMAGED: 'store-damaged'>
    >>> Recovery.parse("not a recovery") is None
    True
    """

    kept: str
    recovered: int
    lost: int

    @property
    def notice(self) -> Notice:
        """What the player is told: games recovered (or not), or none to recover."""
        return Notice.STORE_RECOVERED if self.recovered or self.lost else Notice.STORE_DAMAGED

    def __str__(self) -> str:
        return json.dumps({"kept": self.kept, "recovered": self.recovered, "lost": self.lost},
                          sort_keys=True)

    @classmethod
    def parse(cls, text: str) -> Recovery | None:
        try:
            found = json.loads(text)
        except ValueError:
            return None
        if not isinstance(found, dict):
            return None
        kept, recovered, lost = found.get("kept"), found.get("recovered"), found.get("lost")
        if not (isinstance(kept, str) and kept.startswith(f"{STORE_NAME}.damaged-")
                and "/" not in kept and isinstance(recovered, int) and isinstance(lost, int)):
            return None
        return cls(kept, recovered, lost)


def notices_said(notices: Sequence[Notice]) -> None:
    """The notices were said to the player: a recovery's news among them
    leaves its store, so that no later start says it again."""
    STORES.notices_said(notices)


def _recovering_files(recovering: Path) -> list[Path]:
    """The new store being built and the files SQLite may make beside it."""
    return [recovering, *(recovering.with_name(recovering.name + suffix)
                          for suffix in ("-journal", "-wal", "-shm"))]


def _remove_recovering(recovering: Path) -> None:
    for leftover in _recovering_files(recovering):
        leftover.unlink(missing_ok=True)  # a link itself, never what it leads to


def _build(recovering: Path, saved: Sequence[Salvaged], recovery: Recovery) -> None:
    """The new store, whole: the schema, the salvaged games and the
    recovery's row in one transaction, then synced. It keeps a rollback
    journal while built (it is one file once closed), and takes the
    write-ahead log when opened in place."""
    _remove_recovering(recovering)
    os.close(os.open(recovering, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW, 0o600))
    connection = sqlite3.connect(f"file:{quote(str(recovering))}?mode=rw", uri=True,
                                 isolation_level=None, check_same_thread=False)
    try:
        connection.execute("PRAGMA journal_mode = DELETE")
        connection.execute("PRAGMA synchronous = FULL")
        connection.execute("PRAGMA secure_delete = ON")
        connection.execute("BEGIN IMMEDIATE")
        for statement in _SCHEMA_SQL.split(";"):
            if statement.strip():
                connection.execute(statement)
        connection.execute(f"PRAGMA user_version = {SCHEMA}")
        for game in sorted(saved, key=lambda game: game.written):
            connection.execute(
                "INSERT INTO games (id, name, header, count, finished, told, written) "
                "VALUES (?, ?, ?, ?, ?, ?, (SELECT coalesce(max(written), 0) + 1 FROM games))",
                (game.row or None, game.name, game.header, len(game.events), game.finished,
                 game.told))
            (row,) = connection.execute("SELECT id FROM games WHERE name = ?",
                                        (game.name,)).fetchone()
            connection.executemany("INSERT INTO events VALUES (?, ?, ?)", [
                (row, number, text) for number, text in enumerate(game.events, 1)])
            if game.aside is not None:
                connection.execute("INSERT INTO meta VALUES (?, ?)",
                                   (ASIDE + game.name, game.aside))
        connection.execute("INSERT INTO meta VALUES ('recovery', ?)", (str(recovery),))
        _mark(connection)
        connection.execute("COMMIT")
    finally:
        connection.close()
    fd = os.open(recovering, os.O_RDONLY | NOFOLLOW)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _recovery_of(recovering: Path) -> Recovery | None:
    """The plan a finished new store holds (``None`` if it cannot be read)."""
    try:
        connection = sqlite3.connect(f"file:{quote(str(recovering))}?mode=ro", uri=True,
                                     isolation_level=None, check_same_thread=False)
    except sqlite3.Error:
        return None
    try:
        row = connection.execute("SELECT value FROM meta WHERE key = 'recovery'").fetchone()
    except sqlite3.Error:
        return None
    finally:
        connection.close()
    return None if row is None else Recovery.parse(str(row[0]))


def _free_name(path: Path) -> Path:
    """``<store>.damaged-<date>-<time>``, with a number after it if that name
    (or its log's) is taken: a kept copy is never replaced."""
    base = f"{path.name}.damaged-{stamp()}"
    for number in range(1, 1000):
        kept = path.with_name(base if number == 1 else f"{base}-{number}")
        if not any(side.exists() or side.is_symlink() for side in (
                kept, kept.with_name(kept.name + "-wal"), kept.with_name(kept.name + "-shm"))):
            return kept
    raise FileExistsError(f"too many damaged copies named {base} in {path.parent}")


def _file_id(path: Path) -> tuple[int, int] | None:
    """Which file a name is now (device and inode, the link itself if one)."""
    try:
        found = path.lstat()
    except OSError:
        return None
    return found.st_dev, found.st_ino


# -- private folders --------------------------------------------------------------------------


def inside(path: Path, folder: Path) -> bool:
    """Whether ``path``, links followed, is in ``folder`` (links followed).

    >>> inside(Path("/tmp/a/b"), Path("/tmp/a")), inside(Path("/tmp/ab"), Path("/tmp/a"))
    (True, False)
    """
    real, base = os.path.realpath(path), os.path.realpath(folder)
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


def set_aside(path: Path) -> Path:
    """Rename a link that leads out of its folder (or nowhere), never
    following it: ``<name>.link-<date>-<time>``; the new name."""
    kept = path.with_name(f"{path.name}.link-{stamp()}")
    path.rename(kept)
    return kept


def private_folder(path: Path, within: Path) -> Path:
    """A folder of the app's own, mode 0700 whatever the umask: made if
    missing; a link in its place that leads out of ``within`` (or nowhere)
    set aside first (a link inside it, a user's choice, is kept). Raises
    :class:`OSError` if it cannot be made."""
    if path.is_symlink() and (not path.is_dir() or not inside(path, within)):
        set_aside(path)
    try:
        path.mkdir(mode=0o700)
    except FileExistsError:
        if not path.is_dir():
            raise
    else:
        path.chmod(0o700)  # the umask cannot take away bits it may need
    return path


@dataclass
class Record:
    """A game as the store knows it: its name, header, and how much of it is on disk.

    ``on_disk`` events of memory are on disk as they are; the disk may hold
    ``disk_count`` (more, after an undo not yet saved)."""

    name: str
    header: Event
    row: int | None = None
    on_disk: int = 0
    disk_count: int = 0
    told: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


class Store:
    """The games of one folder: its connection to the folder's store file.

    :meth:`at` gives the store of a folder, kept by the process's registry
    (:data:`STORES`, a :class:`Stores`); a store made directly (a test's
    second window) belongs to no registry's cache but tells its recovery
    through one (``stores``, the process's unless given)."""

    def __init__(self, directory: Path, stores: Stores | None = None) -> None:
        self.directory = directory
        self.path = directory / STORE_NAME
        self.lock = threading.RLock()
        self.connection: sqlite3.Connection | None = None
        #: Why nothing can be written: "" when writing works (as far as known).
        self.refusal = ""
        self.newer = False
        #: The file the connection is to (another window may put another there).
        self._file: tuple[int, int] | None = None
        #: Where this store's recovery is noted as told (once in a process).
        self.stores = stores if stores is not None else STORES
        self._open()

    @classmethod
    def at(cls, directory: Path) -> Store:
        """The store of a folder, from the process's registry (:data:`STORES`)."""
        return STORES.at(directory)

    @classmethod
    def forget(cls) -> None:
        """Close every store of the process's registry (tests start afresh with it)."""
        STORES.close_all()

    # -- opening -------------------------------------------------------------------------------

    def _open(self) -> None:
        """Open the store for writing if the disk allows, else for reading, else
        none at all (games then live in memory); a damaged one is moved aside
        and what still reads of it recovered, a log not its own kept aside."""
        try:
            if not self.directory.is_dir():
                make_private_folder(self.directory.parent)  # the data folder, whatever the umask
            private_folder(self.directory, self.directory.parent)
        except OSError as error:
            self.refusal = f"cannot make {self.directory}: {error}"
        with contextlib.suppress(OSError):
            sweep_temporaries(self.directory)
        try:
            self._finish_recovery()
        except (sqlite3.Error, OSError) as error:
            # the recovered games are beside the store: nothing is begun afresh over them
            self.refusal = f"cannot finish recovering the saved games: {error}"
            return
        with contextlib.suppress(OSError):
            self._check_links()
            self._check_log()
        try:
            if (self.path.exists() or self.path.is_symlink()) and not self.path.is_file():
                # a folder, a named pipe (SQLite would wait on it for ever), a device, a
                # link to nothing
                raise Damaged("the store is not a file")
            self._connect(read_only=False)
        except sqlite3.DatabaseError as error:
            if _damage(error):
                self._recover()
            else:
                self.refusal = str(error)
                self._close_connection()
                with contextlib.suppress(sqlite3.Error, OSError):
                    self._connect(read_only=True)
        except OSError as error:
            self.refusal = str(error)
        if self.connection is None and not self.refusal:
            self.refusal = "the store cannot be opened"

    def _check_links(self) -> None:
        """No write follows a link out of the folder: a store that is such a
        link is set aside (said); a log or index that is a link at all too."""
        if self.path.is_symlink() and self.path.exists() and not inside(self.path,
                                                                         self.directory):
            self._close_connection()
            set_aside(self.path)
            tell(Notice.STORE_LINK)
        for suffix in ("-wal", "-shm"):
            side = self.path.with_name(self.path.name + suffix)
            if side.is_symlink():
                set_aside(side)

    def _check_log(self) -> None:
        """A log that is not the store's own is kept aside before SQLite sees it."""
        log = self.path.with_name(self.path.name + "-wal")
        if not log.is_file() or log.stat().st_size == 0:
            return
        frames = log_frames(_read_plain(log))
        if not frames or _belongs(_read_plain(self.path), frames):
            return
        shm = self.path.with_name(self.path.name + "-shm")
        if _in_use(shm):
            return  # live: checked by the process that opened it
        when = stamp()
        log.rename(log.with_name(f"{log.name}.foreign-{when}"))
        with contextlib.suppress(FileNotFoundError):
            shm.rename(shm.with_name(f"{shm.name}.foreign-{when}"))
        tell(Notice.LOG_FOREIGN)

    def _connect(self, *, read_only: bool) -> None:
        """Connect, check the schema, import old journals once."""
        if read_only and not self.path.is_file():
            return
        try:
            self._connect_as("mode=ro" if read_only else "mode=rwc", read_only=read_only)
        except sqlite3.OperationalError:
            if not read_only:
                raise
            # a read-only folder where the log's index cannot be made: read it as it is
            self._connect_as("mode=ro&immutable=1", read_only=True)

    def _connect_as(self, options: str, *, read_only: bool) -> None:
        if not read_only and not self.path.exists():
            # made private first: the log and its index take the store's mode
            os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        connection = sqlite3.connect(
            f"file:{quote(str(self.path))}?{options}", uri=True, timeout=BUSY_MS / 1000,
            isolation_level=None, check_same_thread=False)
        try:
            connection.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            if not isinstance(version, int) or version < 0:
                raise sqlite3.DatabaseError("file is not a database: its version is not a number")
            if version > SCHEMA:
                self.newer = True
                if not read_only:
                    connection.close()
                    self._connect(read_only=True)
                    return
                tell(Notice.STORE_NEWER)
                SAVING.failed(quiet=True)
            elif not read_only:
                if connection.execute("PRAGMA journal_mode = WAL").fetchone()[0] != "wal":
                    raise sqlite3.OperationalError("the store cannot keep a write-ahead log")
                connection.execute("PRAGMA synchronous = FULL")
                connection.execute("PRAGMA secure_delete = ON")  # one copy of the identity
                if version == 0:
                    connection.executescript(_SCHEMA_SQL + f"PRAGMA user_version = {SCHEMA};")
                problem = connection.execute("PRAGMA quick_check(1)").fetchone()[0]
                if problem != "ok":
                    raise Damaged(f"the store is damaged: {problem}")
                self._identify(connection)
                self._recall(connection)
            if not self.newer:
                # a cheap read of what every start reads: an unreadable store shows here
                connection.execute("SELECT count(*) FROM games WHERE told = 0").fetchone()
                connection.execute("SELECT count(*) FROM meta").fetchone()
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                connection.close()
            raise
        self.connection = connection
        self._file = _file_of(self.path)
        if read_only:
            self.refusal = self.refusal or "the store is read-only"
        else:
            self.refusal = ""
            self._import_journals()

    def _identify(self, connection: sqlite3.Connection) -> None:
        """A store without an identity gets one, in the store file itself."""
        if connection.execute("SELECT 1 FROM meta WHERE key = 'identity'").fetchone():
            return
        connection.execute("BEGIN IMMEDIATE")
        _mark(connection)
        connection.execute("COMMIT")
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def _recover(self) -> None:
        """What still reads of the damaged store copied into a new one, and the
        new one put in the damaged one's place, so that a kill at any moment
        loses nothing (see :meth:`_rebuild`); the player told once, by the
        new store (:class:`Recovery`)."""
        self._close_connection()
        found = _file_id(self.path)
        try:
            with self._recovery_lock():
                if _file_id(self.path) == found:
                    self._rebuild()
                # else another window recovered it meanwhile: its new store is taken
            self._connect(read_only=False)
        except (sqlite3.Error, OSError) as error:
            self._close_connection()
            self.refusal = self.refusal or f"cannot recover the damaged store: {error}"

    def _rebuild(self) -> None:
        """Build the new store beside the damaged one, then move the damaged
        one aside and put the new one in its place.

        Every game that reads is salvaged from the damaged store where it
        is (read-only), and copied into ``games.sqlite3.recovering`` (made
        0600, no link followed) with the plan and its news (the ``recovery``
        row of ``meta``), in one transaction; the file is synced. Only then
        are the damaged store and its log renamed ``.damaged-<date>-<time>``
        and the new one renamed into place, the folder synced. A kill before
        the damaged store moves leaves it in place, and an unfinished new
        one, removed at the next start, which recovers again; a kill after
        leaves the new one finished, which the next start takes
        (:meth:`_finish_recovery`)."""
        path = self.path
        readable = path.is_file() and not path.is_symlink()
        saved, lost = salvage(path) if readable else ([], 0)
        recovery = Recovery(_free_name(path).name, len(saved), lost)
        recovering = self._recovering
        try:
            _build(recovering, saved, recovery)
        except BaseException:
            with contextlib.suppress(OSError):
                _remove_recovering(recovering)
            raise
        self._put_in_place(recovering, path.with_name(recovery.kept))

    @property
    def _recovering(self) -> Path:
        return self.path.with_name(self.path.name + RECOVERING)

    def _put_in_place(self, recovering: Path, kept: Path) -> None:
        """The damaged store, then its log and the log's index, renamed as
        ``kept`` (whichever are still there), and the new store renamed into
        place; the folder synced after each step."""
        for suffix in ("", "-wal", "-shm"):
            source = self.path.with_name(self.path.name + suffix)
            if source.exists() or source.is_symlink():
                source.rename(kept.with_name(kept.name + suffix))
        sync_folder(self.directory)
        recovering.rename(self.path)
        sync_folder(self.directory)

    def _finish_recovery(self) -> None:
        """A recovery cut by a kill: if the damaged store was moved aside
        already, the new store (finished before that) is put in its place;
        if it is still in place, the unfinished new one is removed (the
        damaged store is found damaged again and recovered again)."""
        recovering = self._recovering
        if not any(leftover.exists() or leftover.is_symlink()
                   for leftover in _recovering_files(recovering)):
            return
        with self._recovery_lock():
            in_place = self.path.exists() or self.path.is_symlink()
            if in_place or recovering.is_symlink() or not recovering.is_file():
                _remove_recovering(recovering)
                return
            recovery = _recovery_of(recovering)
            kept = self.path.with_name(recovery.kept) if recovery else _free_name(self.path)
            self._put_in_place(recovering, kept)

    @contextlib.contextmanager
    def _recovery_lock(self) -> Iterator[None]:
        """One window at a time recovers the store (or finishes a recovery):
        ``locks/store.lock``, waited for up to :data:`RECOVERY_WAIT` seconds.
        Raises :class:`OSError` if another window holds it longer."""
        folder = private_folder(self.directory / "locks", self.directory)
        fd = _open_lock(folder / "store.lock")
        try:
            deadline = time.monotonic() + RECOVERY_WAIT
            while not try_lock(fd):
                if time.monotonic() > deadline:
                    raise OSError("another window is recovering the saved games")
                time.sleep(0.05)
            yield
        finally:
            release(fd, folder / "store.lock", remove=False)

    def _recall(self, connection: sqlite3.Connection) -> None:
        """A recovery's news kept in the store until it is said: told (once
        in a process, however often the store is opened)."""
        row = connection.execute("SELECT value FROM meta WHERE key = 'recovery'").fetchone()
        recovery = None if row is None else Recovery.parse(str(row[0]))
        if recovery is None:
            return
        if not self.stores.telling(self.directory, recovery):
            return
        if recovery.notice is Notice.STORE_RECOVERED:
            tell(recovery.notice, recovered=recovery.recovered, lost=recovery.lost)
        else:
            tell(recovery.notice)

    def _said(self, recovery: Recovery) -> None:
        """A recovery's news was said: its row leaves the store (if the disk
        refuses now, it is said again at the next start)."""
        with self.lock:
            connection = self.connection
            if connection is None or self.refusal:
                return
            try:
                connection.execute("BEGIN IMMEDIATE")
                connection.execute("DELETE FROM meta WHERE key = 'recovery' AND value = ?",
                                   (str(recovery),))
                _mark(connection)
                connection.execute("COMMIT")
            except sqlite3.Error:
                with contextlib.suppress(sqlite3.Error):
                    connection.execute("ROLLBACK")
                return
        self.stores.said(self.directory, recovery)

    def _close_connection(self) -> None:
        if self.connection is not None:
            with contextlib.suppress(sqlite3.Error):
                self.connection.close()
            self.connection = None

    def close(self) -> None:
        with self.lock:
            self._close_connection()

    def _ensure(self) -> None:
        """Connected again if this store was let go (a refusing disk is tried
        again by the next save, not by every read)."""
        if self.connection is None and not self.refusal:
            self._open()

    def _reopen(self) -> None:
        """Try for a writable store again (the disk may have come back)."""
        if self.newer:
            return
        self._close_connection()
        self.refusal = ""
        self._open()

    # -- old journals ------------------------------------------------------------------------

    def _import_journals(self) -> None:
        """The journal files of earlier versions, imported once; files kept."""
        connection = self.connection
        assert connection is not None
        if connection.execute("SELECT 1 FROM meta WHERE key = 'imported'").fetchone():
            return
        try:
            connection.execute("BEGIN IMMEDIATE")
            for path in sorted(self.directory.glob(f"*{JSONL}"),
                               key=lambda p: (_mtime(p), p.name)):
                try:
                    self._import_file(path)
                except NewerFormat:
                    tell(Notice.GAME_NEWER)  # kept as it is, for the newer version
            connection.execute("INSERT OR REPLACE INTO meta VALUES ('imported', ?)", (stamp(),))
            _mark(connection)
            connection.execute("COMMIT")
        except (sqlite3.Error, OSError):
            with contextlib.suppress(sqlite3.Error):
                connection.execute("ROLLBACK")

    def _import_file(self, path: Path) -> str | None:
        """One journal file into the open transaction; its game's name, if any.
        Raises :class:`NewerFormat` (nothing imported) for a newer format's."""
        connection = self.connection
        assert connection is not None
        try:  # a regular file of a sane size only: never a pipe waited on, nor /dev/zero
            raw = read_limited(path, JOURNAL_FILE_LIMIT)
        except OSError:
            tell(Notice.GAME_UNREADABLE)
            return None
        events, dropped, _, _ = parse_lines(raw)
        if not events:
            tell(Notice.GAME_UNREADABLE)
            return None
        made = events[0].get("format")
        if isinstance(made, int) and not isinstance(made, bool) and made > JOURNAL_FORMAT:
            raise NewerFormat(
                f"{path.name} was written by a newer version of the app (format {made}; "
                f"this one reads up to {JOURNAL_FORMAT}): open it with that version")
        if dropped:
            tell(Notice.GAME_DAMAGED)  # the file itself is the copy kept
        name = path.stem
        if connection.execute("SELECT 1 FROM games WHERE name = ?", (name,)).fetchone():
            return name
        header, rest = events[0], events[1:]
        ended = bool(rest) and rest[-1].get("type") == "end"
        cursor = connection.execute(
            "INSERT INTO games (name, header, count, finished, told, written) "
            "VALUES (?, ?, ?, ?, ?, (SELECT coalesce(max(written), 0) + 1 FROM games))",
            (name, _dump(header), len(rest), ended, ended))
        connection.executemany("INSERT INTO events VALUES (?, ?, ?)", [
            (cursor.lastrowid, number, _dump(event)) for number, event in enumerate(rest, 1)])
        return name

    def import_file(self, path: Path) -> str | None:
        """A journal file (the export format) into the store; its game's name."""
        with self.lock:
            if self.connection is None or self.refusal:
                raise SaveError(self.refusal or "no store")
            connection = self.connection
            try:
                connection.execute("BEGIN IMMEDIATE")
                name = self._import_file(path)
                _mark(connection)
                connection.execute("COMMIT")
            except (sqlite3.Error, NewerFormat) as error:
                with contextlib.suppress(sqlite3.Error):
                    connection.execute("ROLLBACK")
                if isinstance(error, NewerFormat):
                    raise
                raise SaveError(str(error)) from None
            return name

    # -- reading ------------------------------------------------------------------------------

    def unfinished(self) -> list[str]:
        """Games not ended, or ended with their result not yet said; newest first.
        Finished games are not read: this grows with the unfinished only."""
        return self._names("SELECT name FROM games WHERE told = 0 ORDER BY written DESC")

    def names(self) -> list[str]:
        """Every game, the one written to last first."""
        return self._names("SELECT name FROM games ORDER BY written DESC")

    def _names(self, query: str) -> list[str]:
        with self.lock:
            self._ensure()
            if self.connection is None:
                return []
            try:
                return [str(row[0]) for row in self.connection.execute(query)]
            except sqlite3.Error:
                return []

    def read(self, name: str) -> tuple[Event, list[Event]] | None:
        """A game's header and its whole events; ``None`` if the store has no
        such game. Events after the first unreadable one are left out."""
        found = self.read_record(name)
        return None if found is None else (found[0].header, found[1])

    def read_record(self, name: str) -> tuple[Record, list[Event], list[str]] | None:
        """A game as a record, its whole events, and the stored events from the
        first unreadable one on, as stored."""
        with self.lock:
            self._ensure()
            if self.connection is None:
                return None
            try:
                row = self.connection.execute(
                    "SELECT id, header, count, told FROM games WHERE name = ?", (name,)
                ).fetchone()
                if row is None:
                    return None
                rows = self.connection.execute(
                    "SELECT n, event FROM events WHERE game = ? ORDER BY n", (row[0],)
                ).fetchall()
            except sqlite3.Error as error:
                raise JournalError(f"{name}: {error}") from None
        header = _decode(row[1])
        if header is None:
            raise JournalError(f"{name} has no readable game in it")
        events: list[Event] = []
        for number, text in rows:
            event = _decode(text)
            if event is None or number != len(events) + 1:
                break
            events.append(event)
        record = Record(name, header, row[0], len(events), len(rows), bool(row[3]))
        return record, events, [str(text) for _, text in rows[len(events):]]

    def export(self, name: str) -> bytes:
        """A game as a journal file of JSON lines (header first), each with its CRC."""
        found = self.read(name)
        if found is None:
            raise JournalError(f"no game {name}")
        header, events = found
        return b"".join(encode_line(n, e) for n, e in enumerate([header, *events]))

    # -- writing ------------------------------------------------------------------------------

    def save(self, record: Record, events: Sequence[Mapping[str, Any]], *,
             told: bool | None = None) -> None:
        """Make the disk hold exactly this game, in one transaction; raises
        :class:`SaveError` if the disk refuses (the record then says what is
        still to be saved, and the next call saves it)."""
        with self.lock:
            if self.connection is not None and _file_of(self.path) != self._file:
                # another window put a recovered store in its place: this one's
                # connection is to the file moved aside; the game is found anew
                self._reopen()
                self._find(record)
            for again in (False, True):
                try:
                    self._save(record, events, told)
                    return
                except Damaged as error:
                    if again:
                        raise SaveError(str(error)) from None
                    # a page found damaged now: what reads goes to a fresh store, and
                    # this game (whatever of it was not recovered) is saved there
                    self._recover()
                    self._find(record)
                except Stale as error:
                    if again:
                        raise SaveError(str(error)) from None
                    self._find(record)  # the record was behind the disk: where is it now

    def _find(self, record: Record) -> None:
        """Where a game is in a store just begun again, and how much of it."""
        row = None
        if self.connection is not None and not self.refusal:
            with contextlib.suppress(sqlite3.Error):
                row = self.connection.execute(
                    "SELECT id, count FROM games WHERE name = ?", (record.name,)).fetchone()
        record.row = None if row is None else int(row[0])
        record.disk_count = 0 if row is None else int(row[1])
        record.on_disk = min(record.on_disk, record.disk_count)

    def _save(self, record: Record, events: Sequence[Mapping[str, Any]],
              told: bool | None) -> None:
        """One try of :meth:`save`; raises :class:`Damaged` when the store is."""
        if self.refusal or self.connection is None:
            self._reopen()
        connection = self.connection
        if connection is None or self.refusal:
            raise SaveError(self.refusal or "no store")
        keep = min(record.on_disk, len(events))
        ended = bool(events) and events[-1].get("type") == "end"
        tell_now = record.told if told is None else told
        try:
            connection.execute("BEGIN IMMEDIATE")
            if record.row is None:
                cursor = connection.execute(
                    "INSERT INTO games (name, header) VALUES (?, ?)",
                    (record.name, _dump(record.header)))
                row = cursor.lastrowid
                keep = 0
            else:
                row = record.row
            if record.disk_count > keep:
                connection.execute("DELETE FROM events WHERE game = ? AND n > ?", (row, keep))
            connection.executemany("INSERT INTO events VALUES (?, ?, ?)", [
                (row, number, _dump(events[number - 1]))
                for number in range(keep + 1, len(events) + 1)])
            connection.execute(
                "UPDATE games SET count = ?, finished = ?, told = ?, "
                "written = (SELECT coalesce(max(written), 0) + 1 FROM games) WHERE id = ?",
                (len(events), ended, ended and tell_now, row))
            _mark(connection)
            connection.execute("COMMIT")
        except (sqlite3.Error, OSError) as error:
            with contextlib.suppress(sqlite3.Error):
                connection.execute("ROLLBACK")
            if _corrupt(error):
                raise Damaged(str(error)) from None
            if isinstance(error, sqlite3.IntegrityError):
                raise Stale(str(error)) from None
            with contextlib.suppress(sqlite3.Error):
                connection.execute(f"PRAGMA busy_timeout = {BUSY_PAUSED_MS}")
            raise SaveError(str(error)) from None
        connection.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        record.row = row
        record.on_disk = record.disk_count = len(events)
        record.told = ended and tell_now

    # -- one window a game -----------------------------------------------------------------------

    def lock_game(self, name: str) -> Path | None:
        """Hold a game's lock for this process; ``None`` if the folder takes no
        lock file (nothing can be written there either). Raises
        :class:`GameInUse` if another process (another window) holds it. In
        one process a game can be opened again (its lock is counted)."""
        path = self.directory / "locks" / f"{name}.lock"
        with _held_lock:
            if path in _held:
                _held[path][1] += 1
                return path
            try:
                private_folder(path.parent, self.directory)
                fd = _open_lock(path)
            except OSError:
                return None
            if not try_lock(fd):
                os.close(fd)
                raise GameInUse(f"{name} is open in another window") from None
            _held[path] = [fd, 1]
            return path

    @staticmethod
    def unlock_game(path: Path | None, *, done: bool) -> None:
        """Let a game's lock go; the lock file goes too once the game is done."""
        if path is None:
            return
        with _held_lock:
            held = _held.get(path)
            if held is None:
                return
            held[1] -= 1
            if held[1] > 0:
                return
            del _held[path]
            release(held[0], path, remove=done)

    # -- games set aside -----------------------------------------------------------------------

    def set_aside(self, name: str, why: str) -> None:
        """Keep a damaged game out of the way: it stays in the store as it
        is, but is no longer offered. ``why`` is kept with it (a line of
        text). Raises :class:`SaveError` if the disk refuses."""
        with self.lock:
            connection = self.connection
            if self.refusal or connection is None:
                raise SaveError(self.refusal or "no store")
            try:
                connection.execute("BEGIN IMMEDIATE")
                connection.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                                   (ASIDE + name, why))
                _mark(connection)  # a write like any other: the log stays the store's
                connection.execute("COMMIT")
            except sqlite3.Error as error:
                with contextlib.suppress(sqlite3.Error):
                    connection.execute("ROLLBACK")
                raise SaveError(str(error)) from None

    def aside(self) -> dict[str, str]:
        """The games set aside, by name: why, as :meth:`set_aside` was told."""
        with self.lock:
            self._ensure()
            if self.connection is None:
                return {}
            try:
                rows = self.connection.execute(
                    "SELECT key, value FROM meta WHERE substr(key, 1, ?) = ?",
                    (len(ASIDE), ASIDE)).fetchall()
            except sqlite3.Error:
                return {}
        return {str(key)[len(ASIDE):]: str(value) for key, value in rows}


class Stores:
    """The stores a process has open, one a folder: the connection cache.

    A process (a window of the app, a command) has one, :data:`STORES`,
    which every :meth:`Store.at` reaches. It keeps the :data:`KEPT_OPEN`
    stores used last connected and closes the one it lets go (which connects
    again when next used, through whoever still holds it). Its lifetime is
    the process's: :meth:`close_all` closes every store (tests start afresh
    with it), and :meth:`at_exit`, run as the process ends, closes those no
    thread is using (in the process that made the registry only: a forked
    worker never closes its parent's connections). Every commit is on disk
    when it returns, so closing adds nothing to what is saved: it ends the
    connections before the interpreter's own end would, while every module
    is still there.

    It also remembers the recoveries this process has told, by folder: a
    store opened again does not tell its recovery twice, and
    :meth:`notices_said` takes it out of its store once the player heard it.

    >>> import tempfile
    >>> stores = Stores(kept_open=1)
    >>> first = stores.at(Path(tempfile.mkdtemp()))
    >>> second = stores.at(Path(tempfile.mkdtemp()))
    >>> first.connection is None, second.connection is None  # the first let go
    (True, False)
    >>> stores.close_all(); second.connection is None
    True
    """

    def __init__(self, kept_open: int = KEPT_OPEN) -> None:
        self.kept_open = kept_open
        self._open: dict[Path, Store] = {}  # the one used last, last
        self._lock = threading.Lock()
        self._told: dict[Path, Recovery] = {}
        self._told_lock = threading.Lock()
        self._owner = os.getpid()

    def at(self, directory: Path) -> Store:
        """The store of a folder, opened once (the few used last stay
        connected; one let go connects again when next used)."""
        key = directory.absolute()
        with self._lock:
            store = self._open.pop(key, None)
            if store is None:
                store = Store(key, self)
            self._open[key] = store  # the newest last
            while len(self._open) > self.kept_open:
                oldest = next(iter(self._open))
                self._open.pop(oldest).close()
            return store

    def close_all(self) -> None:
        """Close every store and forget the recoveries told (tests start
        afresh with it)."""
        with self._lock:
            for store in self._open.values():
                store.close()
            self._open.clear()
        with self._told_lock:
            self._told.clear()

    def at_exit(self) -> None:
        """The process ends: every store closed that no thread is using
        (one still in use is left to the interpreter's own end, as it is)."""
        if os.getpid() != self._owner or not self._lock.acquire(blocking=False):
            return  # a forked worker's copy, or a thread opening a store now
        try:
            stores, self._open = list(self._open.values()), {}
        finally:
            self._lock.release()
        for store in stores:
            if store.lock.acquire(blocking=False):
                try:
                    store._close_connection()
                finally:
                    store.lock.release()

    def telling(self, folder: Path, recovery: Recovery) -> bool:
        """Whether a store's recovery is to be told now (not yet told in
        this process); it is noted as told."""
        with self._told_lock:
            if self._told.get(folder) == recovery:
                return False
            self._told[folder] = recovery
            return True

    def said(self, folder: Path, recovery: Recovery) -> None:
        """A recovery's news left its store: it may be told again if found again."""
        with self._told_lock:
            if self._told.get(folder) == recovery:
                del self._told[folder]

    def notices_said(self, notices: Sequence[Notice]) -> None:
        """The notices were said: a recovery's news among them leaves its store."""
        with self._told_lock:
            due = [(folder, recovery) for folder, recovery in self._told.items()
                   if recovery.notice in notices]
        for folder, recovery in due:
            self.at(folder)._said(recovery)


#: The process's stores (see :class:`Stores`).
STORES = Stores()
atexit.register(STORES.at_exit)


#: The ``meta`` keys of the games set aside: this, then the game's name.
ASIDE = "aside:"


def _open_lock(path: Path) -> int:
    """A lock file's descriptor, never through a link (one in its place, a
    lock of no use, is taken away: its target is left as it was)."""
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT | NOFOLLOW, 0o600)
    except OSError:
        if not path.is_symlink():
            raise
        path.unlink()
        return os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | NOFOLLOW, 0o600)


#: The games' locks this process holds: the lock file, its descriptor and how
#: many journals have it open.
_held: dict[Path, list[int]] = {}
_held_lock = threading.Lock()


def _damage(error: sqlite3.DatabaseError) -> bool:
    """Whether an error means the file is not a usable store (not a full or
    read-only disk, not a lock held by someone else)."""
    if not isinstance(error, sqlite3.OperationalError):
        return True  # "file is not a database", "database disk image is malformed"
    text = str(error).lower()
    return "no such table" in text or "malformed" in text


def _corrupt(error: BaseException) -> bool:
    """Whether SQLite found the file damaged (not a full disk, not a lock)."""
    code = getattr(error, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in (sqlite3.SQLITE_CORRUPT,
                                                     sqlite3.SQLITE_NOTADB)


def _file_of(path: Path) -> tuple[int, int] | None:
    """Which file is at ``path`` (its device and inode), if one is."""
    try:
        found = path.stat()
    except OSError:
        return None
    return found.st_dev, found.st_ino


def _dump(event: Mapping[str, Any]) -> str:
    return json.dumps(event, sort_keys=True, ensure_ascii=False)


def _mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0


def write_copy(path: Path, data: bytes) -> Path | None:
    """Keep ``data`` as ``<path>.damaged-<time>``; where it was kept, if it could be."""
    copy = path.with_name(f"{path.name}.damaged-{stamp()}")
    try:
        write_atomically(copy, data)
    except OSError:
        return None
    return copy
