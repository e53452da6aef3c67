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
folder) are imported once, and their files kept. A store that cannot be
read at all is moved aside as a kept copy, and a new one is begun (the old
journals imported again).

What the app must say at start (a damaged store, a newer one, a game
that could not be imported) is queued as :class:`Notice` values:
:func:`take_notices` hands them over, once.

>>> import tempfile
>>> store = Store.at(Path(tempfile.mkdtemp()))
>>> store.save(Record("g1", {"type": "test"}), [{"type": "step"}])
>>> store.read("g1")
({'type': 'test'}, [{'type': 'step'}])
>>> store.unfinished()
['g1']
"""

from __future__ import annotations

import contextlib
import enum
import fcntl
import json
import os
import sqlite3
import threading
import time
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import quote

from firmware_bridge.files import make_private_folder, sweep_temporaries, write_atomically

#: The schema this version of the app writes (the file's ``user_version``).
SCHEMA = 1
STORE_NAME = "games.sqlite3"
JSONL = ".jsonl"
#: How long a write waits for another program holding the store, in ms.
BUSY_MS = 1500
#: The same while saving is already paused (each answered input tries).
BUSY_PAUSED_MS = 50
#: How many stores (folders) stay connected at once.
KEPT_OPEN = 8

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


class GameInUse(JournalError):
    """The game is open in another window (another process holds its lock)."""


class SaveError(OSError):
    """The store refused a write (full, read-only, locked, gone)."""


class Notice(enum.Enum):
    """What the app must tell the player about its files, once."""

    STORE_DAMAGED = "store-damaged"  # the store was unreadable: a copy kept, a new one begun
    STORE_NEWER = "store-newer"  # written by a newer version: read-only, nothing saved
    GAME_UNREADABLE = "game-unreadable"  # an old journal with no game in it: its file kept
    GAME_DAMAGED = "game-damaged"  # a game's end was damaged: the whole part kept, a copy kept
    NOT_SAVING = "not-saving"  # the disk refuses: playing without saving
    SAVING_AGAIN = "saving-again"  # saved again, everything answered with it
    SETTINGS_DAMAGED = "settings-damaged"  # settings unreadable: a copy kept, defaults used
    REGISTRY_DAMAGED = "registry-damaged"  # the scanner's tags unreadable: a copy kept


_notices: list[Notice] = []
_notices_lock = threading.Lock()


def tell(notice: Notice) -> None:
    """Queue a notice for the app to say (each kind once until it is taken)."""
    with _notices_lock:
        if notice not in _notices:
            _notices.append(notice)


def take_notices() -> list[Notice]:
    """The notices queued so far, oldest first; the queue is emptied."""
    with _notices_lock:
        taken = list(_notices)
        _notices.clear()
    return taken


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
    """The games of one folder. :meth:`at` gives the one store of a folder."""

    _opened: ClassVar[dict[Path, Store]] = {}
    _opened_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.path = directory / STORE_NAME
        self.lock = threading.RLock()
        self.connection: sqlite3.Connection | None = None
        #: Why nothing can be written: "" when writing works (as far as known).
        self.refusal = ""
        self.newer = False
        self._open()

    @classmethod
    def at(cls, directory: Path) -> Store:
        """The store of a folder, opened once per process (the few used last
        stay connected; one let go connects again when next used)."""
        key = directory.absolute()
        with cls._opened_lock:
            store = cls._opened.pop(key, None)
            if store is None:
                store = cls(key)
            cls._opened[key] = store  # the newest last
            while len(cls._opened) > KEPT_OPEN:
                oldest = next(iter(cls._opened))
                cls._opened.pop(oldest).close()
            return store

    @classmethod
    def forget(cls) -> None:
        """Close every store opened (tests start afresh with it)."""
        with cls._opened_lock:
            for store in cls._opened.values():
                store.close()
            cls._opened.clear()

    # -- opening -------------------------------------------------------------------------------

    def _open(self) -> None:
        """Open the store for writing if the disk allows, else for reading, else
        none at all (games then live in memory); a damaged one is moved aside."""
        try:
            make_private_folder(self.directory)  # and the data folder, whatever the umask
        except OSError as error:
            self.refusal = f"cannot make {self.directory}: {error}"
        with contextlib.suppress(OSError):
            sweep_temporaries(self.directory)
        if self.path.is_dir() or (self.path.is_symlink() and not self.path.exists()):
            self._move_aside()
        try:
            self._connect(read_only=False)
        except sqlite3.DatabaseError as error:
            if _damage(error):
                self._move_aside()
                with contextlib.suppress(sqlite3.Error, OSError):
                    self._connect(read_only=False)
            else:
                self.refusal = str(error)
                self._close_connection()
                with contextlib.suppress(sqlite3.Error, OSError):
                    self._connect(read_only=True)
        except OSError as error:
            self.refusal = str(error)
        if self.connection is None and not self.refusal:
            self.refusal = "the store cannot be opened"

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
                if version == 0:
                    connection.executescript(_SCHEMA_SQL + f"PRAGMA user_version = {SCHEMA};")
            if not self.newer:
                # a cheap read of what every start reads: an unreadable store shows here
                connection.execute("SELECT count(*) FROM games WHERE told = 0").fetchone()
                connection.execute("SELECT count(*) FROM meta").fetchone()
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                connection.close()
            raise
        self.connection = connection
        if read_only:
            self.refusal = self.refusal or "the store is read-only"
        else:
            self.refusal = ""
            self._import_journals()

    def _move_aside(self) -> None:
        """Keep an unreadable store (and its log) as a copy, out of the way."""
        self._close_connection()
        when = stamp()
        moved = False
        for suffix in ("", "-wal", "-shm"):
            source = self.path.with_name(self.path.name + suffix)
            if source.exists() or source.is_symlink():
                try:
                    source.rename(source.with_name(f"{self.path.name}.damaged-{when}{suffix}"))
                    moved = True
                except OSError:
                    self.refusal = f"cannot move the damaged {source.name} aside"
        if moved:
            tell(Notice.STORE_DAMAGED)

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
                self._import_file(path)
            connection.execute("INSERT OR REPLACE INTO meta VALUES ('imported', ?)", (stamp(),))
            connection.execute("COMMIT")
        except (sqlite3.Error, OSError):
            with contextlib.suppress(sqlite3.Error):
                connection.execute("ROLLBACK")

    def _import_file(self, path: Path) -> str | None:
        """One journal file into the open transaction; its game's name, if any."""
        connection = self.connection
        assert connection is not None
        try:
            raw = path.read_bytes()
        except OSError:
            tell(Notice.GAME_UNREADABLE)
            return None
        events, dropped, _, _ = parse_lines(raw)
        if not events:
            tell(Notice.GAME_UNREADABLE)
            return None
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
                connection.execute("COMMIT")
            except sqlite3.Error as error:
                with contextlib.suppress(sqlite3.Error):
                    connection.execute("ROLLBACK")
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
                connection.execute("COMMIT")
            except (sqlite3.Error, OSError) as error:
                with contextlib.suppress(sqlite3.Error):
                    connection.execute("ROLLBACK")
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
                path.parent.mkdir(exist_ok=True, mode=0o700)
                fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError:
                return None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
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
            if done:
                with contextlib.suppress(OSError):
                    path.unlink()
            os.close(held[0])


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
