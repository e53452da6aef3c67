"""The journal: every accepted action, on disk before it is acknowledged.

A game's journal is its header and its events, in order. The games write
it through :class:`Journal`: :meth:`Journal.append` an event,
:meth:`Journal.undo` the last one, :meth:`Journal.close` when done. Each of
those is one transaction of the game store (:mod:`companion.store`, one
SQLite file): on disk when it returns, so whatever the caller acknowledged
survives ``kill -9`` or a pulled plug. Inside :func:`transaction` (an
answered input and everything it makes happen, or an undo of several
events) the transaction is the whole block's, saved when the block ends:
a kill in the middle leaves none of it.

A saved game is named by a :class:`GameRef`: the folder of its store and
its name there (a row of the store, not a file; journals of JSON lines
written before the store, ``*.jsonl`` in the same folder, are imported once
and their files kept). A game is open in one window at a time:
:meth:`Journal.open` raises :class:`GameInUse` while another window has it.

A game ends with one event, :data:`END` (played out; or thrown away, with
:data:`DISCARDED` true): the store counts a game whose last event it is as
finished, and :attr:`Journal.ended` and :attr:`Journal.discarded` read it.

When the disk refuses to write (full, read-only, locked), the game goes on
in memory and the store says so once (:data:`companion.store.SAVING`);
every later write saves all that is not yet on disk.

The store lives in the user's data directory (``COMPANION_DATA_DIR`` if
set), readable by the user only.

>>> import tempfile
>>> journal = Journal.create({"type": "test"}, Path(tempfile.mkdtemp()))
>>> journal.append({"type": "step", "n": 1})
>>> with transaction():
...     journal.append({"type": "step", "n": 2})
...     journal.append({"type": "step", "n": 3})
>>> journal.undo()
{'type': 'step', 'n': 3}
>>> journal.close()
>>> [event["n"] for event in load(journal.ref).events]
[1, 2]
"""

from __future__ import annotations

import contextlib
import secrets
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.notices import Notice, tell
from companion.store import (
    SAVING,
    Record,
    SaveError,
    Store,
    inside,
    private_folder,
    write_copy,
)
from companion.store import GameInUse as GameInUse  # noqa: PLC0414
from companion.store import JournalError as JournalError  # noqa: PLC0414
from firmware_bridge.files import data_dir, make_private_folder

#: How messages and the copies kept beside the store name a game: its
#: name and this (as every version has named them).
SUFFIX = ".game"
#: The event that ends a game (its ``type``): played out, or thrown away.
END = "end"
#: The field of an end that says the game was thrown away.
DISCARDED = "discarded"

Event = dict[str, Any]


def journal_dir() -> Path:
    """The store's folder (made if it can be: a disk that refuses leaves the
    games in memory, and the store says so). It and the data folder are made
    0700 whatever the umask; a journals folder that is a link out of the data
    folder is set aside, never written through (and said)."""
    data = data_dir()
    directory = data / "journals"
    with contextlib.suppress(OSError):
        make_private_folder(data)  # and what is missing above it, whatever the umask
        if directory.is_symlink() and not inside(directory, data):
            tell(Notice.STORE_LINK)
        private_folder(directory, data)
        if not directory.is_symlink():
            directory.chmod(0o700)
    return directory


@dataclass(frozen=True, slots=True)
class GameRef:
    """A saved game: the folder of its store, and its name in the store.

    >>> game = GameRef(Path("/data/journals"), "20261203-101500-ab12cd")
    >>> game.label
    '20261203-101500-ab12cd.game'
    """

    folder: Path
    name: str

    @property
    def store(self) -> Store:
        """The store that keeps it (the folder's, opened once a process)."""
        return Store.at(self.folder)

    @property
    def label(self) -> str:
        """How messages name it: its name and :data:`SUFFIX`."""
        return f"{self.name}{SUFFIX}"

    def keep_copy(self, data: bytes) -> Path | None:
        """Keep ``data`` beside the store, as ``<label>.damaged-<time>``;
        where it was kept, if it could be."""
        return write_copy(self.folder / self.label, data)


@dataclass
class Loaded:
    """What a journal's opening read: the events, and what it had to drop.

    ``dropped_lines`` counts the stored events after the last whole one;
    ``kept_copy`` is where they were kept, if anything was dropped.
    """

    ref: GameRef
    header: Event
    events: list[Event]
    dropped_lines: int = 0
    dropped_bytes: int = 0
    kept_copy: Path | None = None
    problem: str = ""

    @property
    def damaged(self) -> bool:
        return self.dropped_lines > 0


# -- one transaction for a block ---------------------------------------------------------------

_block = threading.local()


@contextlib.contextmanager
def transaction() -> Iterator[None]:
    """Every journal written in this block (in this thread) is saved when it
    ends, each in one transaction: all of the block's events, or none. A
    block cut by an exception (Control C, a signal, an error) saves none of
    them, and each journal it wrote is again what it was when the block began
    (what is on disk)."""
    depth = getattr(_block, "depth", 0)
    if depth == 0:
        _block.dirty = []
        _block.before = {}
    _block.depth = depth + 1
    whole = False
    try:
        yield
        whole = True
    finally:
        _block.depth -= 1
        if _block.depth == 0:
            dirty: list[Journal] = _block.dirty
            before: dict[int, _State] = _block.before
            _block.dirty, _block.before = [], {}
            for journal in dirty:
                if whole:
                    journal._save()
                elif id(journal) in before:  # (one made in the block was never saved)
                    journal._restore(before[id(journal)])


def _in_block() -> bool:
    return getattr(_block, "depth", 0) > 0


@dataclass(frozen=True)
class _State:
    """A journal as a block found it: its events and what of them was on disk."""

    events: tuple[Event, ...]
    on_disk: int
    told: bool


# -- a game's journal ------------------------------------------------------------------------------


class Journal:
    """An open journal, appended to one event at a time."""

    def __init__(self, ref: GameRef, header: Mapping[str, Any],
                 events: list[Event] | None = None, *, store: Store | None = None,
                 record: Record | None = None, lock: Path | None = None) -> None:
        #: Which saved game it is.
        self.ref = ref
        self.header: Event = dict(header)
        self.events: list[Event] = events if events is not None else []
        self._store = store if store is not None else ref.store
        self._record = record or Record(ref.name, self.header)
        self._lock = lock
        self._closed = False

    @classmethod
    def create(cls, header: Mapping[str, Any], directory: Path | None = None) -> Journal:
        """A new journal for a new game; its header is on disk when this returns
        (unless the disk refuses: then the game is played without saving)."""
        directory = directory or journal_dir()
        store = Store.at(directory)
        name = f"{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(3)}"
        journal = cls(GameRef(store.directory, name), header, store=store,
                      record=Record(name, dict(header)), lock=store.lock_game(name))
        journal._changed()
        return journal

    @classmethod
    def open(cls, ref: GameRef) -> tuple[Journal, Loaded]:
        """A game to go on with, locked for this window; raises
        :class:`GameInUse` if another window has it, :class:`JournalError` if
        there is no readable game. Unreadable events at its end are dropped,
        kept in a copy beside the store, and said in what is returned."""
        store = ref.store
        found = store.read_record(ref.name)
        if found is None:
            raise JournalError(f"{ref.label} has no readable game in it")
        record, events, unreadable = found
        lock = store.lock_game(ref.name)
        journal = cls(ref, record.header, list(events), store=store, record=record, lock=lock)
        loaded = Loaded(ref, record.header, list(events))
        if unreadable:
            raw = "\n".join(unreadable).encode("utf-8", "replace") + b"\n"
            loaded.dropped_lines, loaded.dropped_bytes = len(unreadable), len(raw)
            loaded.problem = f"event {len(events) + 1} is damaged"
            loaded.kept_copy = ref.keep_copy(raw)
            journal._changed()  # the damaged end cut off
        return journal, loaded

    def append(self, event: Mapping[str, Any]) -> None:
        """Write one event; it is on disk when this returns (or, in a
        :func:`transaction`, when the block ends)."""
        self._changing()
        self.events.append(dict(event))
        self._changed()

    def undo(self) -> Event | None:
        """Remove the last event (not the header); ``None`` if there is none."""
        if not self.events:
            return None
        self._changing()
        last = self.events.pop()
        self._record.on_disk = min(self._record.on_disk, len(self.events))
        self._changed()
        return last

    @property
    def ended(self) -> bool:
        """Whether the game's end is its last event (played out, or thrown away)."""
        return bool(self.events) and self.events[-1].get("type") == END

    @property
    def discarded(self) -> bool:
        """Whether the game was thrown away (its end says so)."""
        return self.ended and bool(self.events[-1].get(DISCARDED))

    def close(self) -> None:
        """Done with the game for now; a game that ended is marked as told (its
        result has been said), and so is no longer offered at start."""
        if self._closed:
            return
        self._closed = True
        if self.ended and not self._record.told:
            self._changing()
            self._record.told = True
            self._changed()
        Store.unlock_game(self._lock, done=self.ended)
        self._lock = None

    def _changing(self) -> None:
        """Before a change inside a block: how the journal was, the first time."""
        if _in_block() and id(self) not in _block.before:
            _block.before[id(self)] = _State(tuple(self.events), self._record.on_disk,
                                             self._record.told)

    def _restore(self, state: _State) -> None:
        """The journal as it was before a block that was cut (nothing of it saved)."""
        self.events[:] = list(state.events)
        self._record.on_disk = min(state.on_disk, self._record.on_disk)
        self._record.told = state.told

    def _changed(self) -> None:
        if _in_block():
            if self not in _block.dirty:
                _block.dirty.append(self)
            return
        self._save()

    def _save(self) -> None:
        try:
            self._store.save(self._record, self.events)
        except SaveError:
            SAVING.failed()
            return
        SAVING.succeeded()

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events)


def load(ref: GameRef) -> Loaded:
    """A game as stored, without opening it for play (nothing is written)."""
    found = ref.store.read_record(ref.name)
    if found is None:
        raise JournalError(f"{ref.label} has no readable game in it")
    record, events, unreadable = found
    return Loaded(ref, record.header, events, len(unreadable))


def unfinished(directory: Path | None = None) -> list[GameRef]:
    """Games that have not ended, or whose result was never said; newest first.
    Finished games are not read."""
    store = Store.at(directory or journal_dir())
    return [GameRef(store.directory, name) for name in store.unfinished()]


def journals(directory: Path | None = None) -> list[GameRef]:
    """Every game, the one last written to first."""
    store = Store.at(directory or journal_dir())
    return [GameRef(store.directory, name) for name in store.names()]


def export(ref: GameRef) -> bytes:
    """A game as a file of JSON lines, header first, each line with a CRC
    (the format of journals before the store; :func:`import_journal` reads it)."""
    return ref.store.export(ref.name)


def import_journal(source: Path, directory: Path | None = None) -> GameRef:
    """A journal file of JSON lines (``*.jsonl``, as versions before the
    store wrote them, or as :func:`export` writes) into the store; its game."""
    store = Store.at(directory or journal_dir())
    name = store.import_file(source)
    if name is None:
        raise JournalError(f"{source.name} has no readable game in it")
    return GameRef(store.directory, name)
