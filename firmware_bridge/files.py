"""Where the app keeps its files, how it writes them so that none is ever
half written, and how it reads them so that none can hang or swamp it.

The scanner's registry, the virtual scanner's link and the app's journals
all live in one data folder: ``COMPANION_DATA_DIR`` if set (tests and
portable set-ups), else the platform's user data folder. Folders the app
makes for itself are the user's alone (0700) and its files too (0600),
whatever the umask.

>>> import tempfile
>>> note = Path(tempfile.mkdtemp()) / "note.txt"
>>> write_atomically(note, b"kept whole")
>>> note.read_bytes(), oct(note.stat().st_mode & 0o777)
(b'kept whole', '0o600')

Every file the app or the bridge reads goes through :func:`read_limited`:
a regular file only (a named pipe would hang the start, a device such as
``/dev/zero`` would never end), no bigger than a limit, and, for the app's
own files, not through a link out of its folder. JSON is parsed by
:func:`parse_json`, which refuses nesting deeper than :data:`DEPTH_LIMIT`.
Each refusal is a :class:`FileRefused` carrying the reason:

>>> os.mkfifo(note.with_name("pipe"))
>>> read_limited(note.with_name("pipe"), SMALL_FILE_LIMIT)
Traceback (most recent call last):
...
firmware_bridge.files.FileRefused: ... is a named pipe, not a file
>>> parse_json(b"[" * 100 + b"]" * 100)
Traceback (most recent call last):
...
firmware_bridge.files.FileRefused: is nested more than 64 deep
"""

from __future__ import annotations

import enum
import json
import os
import re
import secrets
import stat
import time
from itertools import accumulate
from pathlib import Path

import platformdirs

from firmware_bridge.shown import PATH_LIMIT, shown

APP_NAME = "tactile-companion"
#: The biggest settings, registry or deck file read, in bytes (1 MiB: a
#: registry of a thousand tags is 60 kB).
SMALL_FILE_LIMIT = 1 << 20
#: The deepest nesting of lists and objects read from a JSON file (a
#: registry needs 3).
DEPTH_LIMIT = 64
# Opening a named pipe must not wait for a writer; a link is looked
# through by hand (see read_limited). Neither flag exists on Windows.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
#: What a file that is not a regular one is, by its type.
_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"),
          (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


class FileProblem(enum.Enum):
    """Why a file was not read (for a caller that words each its own way)."""

    NOT_A_FILE = "not-a-file"
    TOO_BIG = "too-big"
    LINK_OUT = "link-out"
    TOO_DEEP = "too-deep"


class FileRefused(OSError):
    """A file that was not read, and why: ``problem``, and ``reason``, which
    says it after the file's name (``is a named pipe, not a file``). An
    :class:`OSError`, so that whoever copes with a file that cannot be read
    copes with this one."""

    def __init__(self, path: Path | str | None, problem: FileProblem, reason: str) -> None:
        self.path = None if path is None else str(path)
        self.problem = problem
        self.reason = reason
        shown_path = "" if path is None else shown(str(path), PATH_LIMIT) + " "
        super().__init__(f"{shown_path}{reason}")

    def __str__(self) -> str:
        return str(self.args[0])


def data_dir() -> Path:
    """Where the app keeps its data: ``COMPANION_DATA_DIR``, else the platform's."""
    override = os.environ.get("COMPANION_DATA_DIR")
    return Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME))


def write_atomically(path: Path, data: bytes) -> None:
    """Replace a file whole, readable by the user only: it is the old file or
    the new one, never half of each, even if the power goes."""
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    temporary.replace(path)
    _sync_dir(path.parent)


def _sync_dir(directory: Path) -> None:
    # the rename is durable only once the folder's entry is on disk too
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sweep_temporaries(directory: Path, older_than: float = 600.0) -> int:
    """Remove what :func:`write_atomically` left half written when a process
    was killed (``.<name>.<hex>.tmp``, older than ``older_than`` seconds, so
    that a write going on now is left alone); how many went.

    >>> import tempfile, time
    >>> folder = Path(tempfile.mkdtemp())
    >>> left = folder / ".settings.toml.0a1b2c3d.tmp"
    >>> left.write_bytes(b"half")
    4
    >>> os.utime(left, (time.time() - 3600, time.time() - 3600))
    >>> sweep_temporaries(folder), left.exists()
    (1, False)
    """
    removed = 0
    limit = time.time() - older_than
    for path in directory.glob(".*.tmp"):
        try:
            if path.is_file() and path.stat().st_mtime < limit:
                path.unlink()
                removed += 1
        except OSError:
            continue
    return removed


def make_private_folder(folder: Path) -> None:
    """Make ``folder`` and every missing folder above it, each 0700 (the
    user's alone) whatever the umask; a folder already there is left as it
    is. Raises :class:`OSError` (``NotADirectoryError`` if a file is in the way).

    >>> import tempfile
    >>> base = Path(tempfile.mkdtemp())
    >>> old = os.umask(0)
    >>> make_private_folder(base / "data" / "inner")
    >>> _ = os.umask(old)
    >>> [oct((base / p).stat().st_mode & 0o777) for p in ("data", "data/inner")]
    ['0o700', '0o700']
    """
    missing = []
    current = folder
    while not (current.exists() or current.is_symlink()) and current != current.parent:
        missing.append(current)
        current = current.parent
    for part in reversed(missing):
        try:
            part.mkdir(mode=0o700)
        except FileExistsError:
            continue  # made meanwhile, by another process: its own
        part.chmod(0o700)  # mkdir's mode is masked by the umask
    if not folder.is_dir():
        raise NotADirectoryError(20, os.strerror(20), str(folder))


def read_limited(path: Path, limit: int, *, within: Path | None = None) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``limit``
    bytes; with ``within`` (the app's own folder), only if it is in that
    folder, not through a link out of it. Raises :class:`FileRefused` for
    what is not read on purpose, :class:`OSError` for what cannot be read
    (missing, not allowed)."""
    opened, flags = path, _OPEN_FLAGS
    if within is not None:
        opened = Path(os.path.realpath(path))
        if not opened.is_relative_to(os.path.realpath(within)):
            raise FileRefused(path, FileProblem.LINK_OUT,
                              f"is a link out of {shown(str(within), PATH_LIMIT)}")
        flags |= _NOFOLLOW  # the links looked through above: none may come in between
    fd = os.open(opened, flags)
    try:
        facts = os.fstat(fd)
        if not stat.S_ISREG(facts.st_mode):
            kind = next((name for test, name in _KINDS if test(facts.st_mode)), None)
            raise FileRefused(path, FileProblem.NOT_A_FILE,
                              f"is {kind}, not a file" if kind else "is not a file")
        if facts.st_size > limit:
            raise FileRefused(path, FileProblem.TOO_BIG, f"is bigger than {_size(limit)}")
        chunks = []
        left = limit + 1  # a file that grows as it is read is caught too
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise FileRefused(path, FileProblem.TOO_BIG, f"is bigger than {_size(limit)}")
    return data


def _size(limit: int) -> str:
    """
    >>> _size(1 << 20), _size(4 << 20), _size(1000)
    ('1 MiB', '4 MiB', '1000 bytes')
    """
    return f"{limit >> 20} MiB" if limit >= 1 << 20 and not limit % (1 << 20) else f"{limit} bytes"


def nesting(text: str) -> int:
    """How deep the lists and objects of JSON text go (strings skipped).

    >>> nesting('{"a": [1, {"b": "[[["}]}'), nesting("5")
    (3, 0)
    """
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    return max(accumulate(1 if b in "[{" else -1 for b in brackets), default=0)


def parse_json(data: bytes | str, *, depth: int = DEPTH_LIMIT) -> object:
    """JSON (bytes in UTF-8), nested no deeper than ``depth``; raises
    :class:`FileRefused` (no path: the caller names the file) for JSON too
    deep, :class:`ValueError` for what is not JSON.

    >>> parse_json(b'{"tags": {}}')
    {'tags': {}}
    """
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    if nesting(text) > depth:
        raise FileRefused(None, FileProblem.TOO_DEEP, f"is nested more than {depth} deep")
    try:
        return json.loads(text)
    except RecursionError:  # depth counted wrong on text that is not JSON at all
        raise FileRefused(None, FileProblem.TOO_DEEP,
                          f"is nested more than {depth} deep") from None
