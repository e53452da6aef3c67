"""Where the app keeps its files, and how it writes them so that none is ever half written.

The scanner's registry, the virtual scanner's link and the app's journals
all live in one data folder: ``COMPANION_DATA_DIR`` if set (tests and
portable set-ups), else the platform's user data folder.

>>> import tempfile
>>> note = Path(tempfile.mkdtemp()) / "note.txt"
>>> write_atomically(note, b"kept whole")
>>> note.read_bytes(), oct(note.stat().st_mode & 0o777)
(b'kept whole', '0o600')
"""

from __future__ import annotations

import os
import secrets
import time
from pathlib import Path

import platformdirs

APP_NAME = "tactile-companion"


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
