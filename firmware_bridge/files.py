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
