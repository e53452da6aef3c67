"""The journal: every accepted action, on disk before it is acknowledged.

A journal is a file of JSON lines, one game per file. The first line is the
game's header; every later line is one event. Each line carries its number
and a CRC-32 of its content, so a line cut short by a crash or garbled on
disk is recognised::

    {"crc": 2801372215, "event": {"type": "practice", ...}, "n": 0}
    {"crc": 11603812, "event": {"choice": "w2", "seat": 0, "type": "choose"}, "n": 1}

:meth:`Journal.append` writes a line, flushes it and fsyncs the file before
it returns, so whatever the caller acknowledged survives ``kill -9`` or a
pulled plug. :func:`load` reads a journal up to its last whole event and
says what it dropped; the damaged file is kept beside it, never destroyed.
:meth:`Journal.undo` removes the last event by writing the shorter journal
to a new file and renaming it over the old one, so the journal is always
either the old one or the new one.

Journals live in the user's data directory (``COMPANION_DATA_DIR`` if set),
readable by the user only.
"""

from __future__ import annotations

import json
import os
import secrets
import time
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

# The data folder and atomic writes are the scanner registry's too, so they live
# in firmware_bridge; re-exported (``as``) for the app's modules that find them here.
from firmware_bridge.files import APP_NAME as APP_NAME  # noqa: PLC0414
from firmware_bridge.files import data_dir as data_dir  # noqa: PLC0414
from firmware_bridge.files import write_atomically as write_atomically  # noqa: PLC0414

SUFFIX = ".jsonl"

Event = dict[str, Any]


def journal_dir() -> Path:
    directory = data_dir() / "journals"
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    directory.chmod(0o700)
    return directory


def _crc(number: int, event: Mapping[str, Any]) -> int:
    body = json.dumps({"n": number, "event": event}, sort_keys=True, ensure_ascii=False)
    return zlib.crc32(body.encode("utf-8"))


def _encode(number: int, event: Mapping[str, Any]) -> bytes:
    record = {"n": number, "event": event, "crc": _crc(number, event)}
    return json.dumps(record, sort_keys=True, ensure_ascii=False).encode("utf-8") + b"\n"


class JournalError(ValueError):
    """A journal that cannot be used at all (no valid header)."""


@dataclass
class Loaded:
    """What :func:`load` read: the events, and what it had to drop.

    ``dropped_lines`` counts the lines after the last whole event (a torn
    last line counts as one); ``kept_copy`` is where the damaged original
    was kept, if anything was dropped.
    """

    path: Path
    header: Event
    events: list[Event]
    dropped_lines: int = 0
    dropped_bytes: int = 0
    kept_copy: Path | None = None
    problem: str = ""

    @property
    def damaged(self) -> bool:
        return self.dropped_lines > 0


def _parse(raw: bytes) -> tuple[list[Event], int, int, str]:
    """Whole, valid events from the start; then how many lines and bytes were left."""
    events: list[Event] = []
    good = 0
    problem = ""
    for line in raw.splitlines(keepends=True):
        if not line.endswith(b"\n"):
            problem = "the last line was cut short"
            break
        try:
            record = json.loads(line)
            number, event, crc = record["n"], record["event"], record["crc"]
        except (ValueError, KeyError, TypeError):
            problem = f"line {len(events) + 1} is not a journal entry"
            break
        if not isinstance(event, dict) or number != len(events):
            problem = f"line {len(events) + 1} is out of order"
            break
        if _crc(number, event) != crc:
            problem = f"line {len(events) + 1} is damaged"
            break
        events.append(event)
        good += len(line)
    rest = raw[good:]
    dropped_lines = rest.count(b"\n") + (1 if rest and not rest.endswith(b"\n") else 0)
    return events, dropped_lines, len(rest), problem


def load(path: Path) -> Loaded:
    """Read a journal up to its last whole event.

    If anything had to be dropped, the original is kept as ``<name>.damaged-<time>``
    and the journal is cut back to its whole events, ready to be appended to.
    """
    raw = path.read_bytes()
    events, dropped_lines, dropped_bytes, problem = _parse(raw)
    if not events:
        raise JournalError(f"{path.name} has no readable game in it")
    loaded = Loaded(path, events[0], events[1:], dropped_lines, dropped_bytes, None, problem)
    if dropped_lines:
        copy = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
        write_atomically(copy, raw)
        write_atomically(path, raw[: len(raw) - dropped_bytes])
        loaded.kept_copy = copy
    return loaded


@dataclass
class Journal:
    """An open journal, appended to one event at a time."""

    path: Path
    header: Event
    events: list[Event] = field(default_factory=list)
    _file: BinaryIO | None = field(default=None, repr=False)

    @classmethod
    def create(cls, header: Mapping[str, Any], directory: Path | None = None) -> Journal:
        """A new journal for a new game; its header is on disk when this returns."""
        directory = directory or journal_dir()
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = directory / f"{stamp}-{secrets.token_hex(3)}{SUFFIX}"
        header = dict(header)
        write_atomically(path, _encode(0, header))
        path.chmod(0o600)
        return cls(path, header)

    @classmethod
    def open(cls, path: Path) -> tuple[Journal, Loaded]:
        loaded = load(path)
        return cls(path, loaded.header, list(loaded.events)), loaded

    def _handle(self) -> BinaryIO:
        if self._file is None:
            self._file = self.path.open("ab")  # kept open between appends
        return self._file

    def append(self, event: Mapping[str, Any]) -> None:
        """Write one event; it is on disk (flushed and fsync'd) when this returns."""
        entry = dict(event)
        handle = self._handle()
        handle.write(_encode(len(self.events) + 1, entry))
        handle.flush()
        os.fsync(handle.fileno())
        self.events.append(entry)

    def undo(self) -> Event | None:
        """Remove the last event (not the header); ``None`` if there is none."""
        if not self.events:
            return None
        self.close()
        last = self.events.pop()
        lines = [_encode(0, self.header)]
        lines += [_encode(i, e) for i, e in enumerate(self.events, start=1)]
        write_atomically(self.path, b"".join(lines))
        return last

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events)


def unfinished(directory: Path | None = None) -> list[Path]:
    """Journals of games that have not ended, newest first (unreadable ones skipped)."""
    found = []
    for path in journals(directory):
        try:
            tail = path.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[-1]
            ended = json.loads(tail)["event"]["type"] == "end"
        except (OSError, ValueError, KeyError, TypeError):
            ended = False
        if not ended:
            found.append(path)
    return found


def journals(directory: Path | None = None) -> list[Path]:
    """Every journal, the one last written to first (not by name: two games
    begun in the same second, or after the clock went back, sort by chance)."""
    directory = directory or journal_dir()

    def last_written(path: Path) -> tuple[int, str]:
        try:
            return path.stat().st_mtime_ns, path.name
        except OSError:
            return 0, path.name

    return sorted(directory.glob(f"*{SUFFIX}"), key=last_written, reverse=True)
