"""What differs between Linux, macOS and Windows, in one place: file locks,
the flags of ``os.open``, the signals, a folder's sync.

- **Locks.** A lock file is held by an exclusive lock on its first byte:
  ``flock`` on Linux and macOS, ``msvcrt.locking`` on Windows (a lock
  Windows keeps for the handle, and drops when the program ends however it
  ends, as ``flock`` is). Neither waits: :func:`try_lock` says whether it
  was taken.
- **Whether SQLite has a file open**: every SQLite connection to a store
  in write-ahead mode holds a read lock on byte 128 of its ``-shm`` file
  (``UNIX_SHM_DMS`` in SQLite's Unix VFS, ``WIN_SHM_DMS`` in its Windows
  one: both 120 + 8). :func:`held_by_another` tries that byte.
- **Flags** Windows lacks (``O_NOFOLLOW``, ``O_NONBLOCK``) are 0 there:
  Windows makes no symbolic link without a privilege a player's account
  does not have, and it has no named pipe in a folder.
- **Signals**: :func:`signals` gives those of a list that the system has
  (Windows has neither SIGHUP nor SIGQUIT).

Every function takes what it needs when it is called, so that
``devtools.elsewhere`` can show the Windows paths on this machine.

>>> import tempfile
>>> from pathlib import Path
>>> path = Path(tempfile.mkdtemp()) / "a.lock"
>>> fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
>>> try_lock(fd)
True
>>> release(fd, path, remove=True)
>>> path.exists()
False
"""

from __future__ import annotations

import contextlib
import importlib
import os
import signal
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # not imported at run time: the entry point takes the signals first
    from pathlib import Path

#: ``os.open`` flags, 0 where the system has none.
NOFOLLOW: int = getattr(os, "O_NOFOLLOW", 0)
NONBLOCK: int = getattr(os, "O_NONBLOCK", 0)
#: The byte of a ``-shm`` file every SQLite connection holds a read lock on.
SQLITE_SHM_DMS = 128


def windows() -> bool:
    """Whether this is Windows."""
    return sys.platform == "win32"


def signals(*names: str) -> tuple[int, ...]:
    """The signals of ``names`` this system has, in that order.

    >>> signals("SIGINT", "SIGNOTHING") == (signal.SIGINT,)
    True
    """
    return tuple(getattr(signal, name) for name in names if hasattr(signal, name))


def _msvcrt() -> Any:
    return importlib.import_module("msvcrt")  # Windows only


def try_lock(fd: int, at: int = 0) -> bool:
    """Take an exclusive lock (of the whole file; on Windows of byte ``at``)
    without waiting: False if another program (or another descriptor of this
    one on Windows) holds it."""
    if windows():
        msvcrt = _msvcrt()
        os.lseek(fd, at, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl  # noqa: PLC0415 - POSIX only

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def unlock(fd: int, at: int = 0) -> None:
    """Let go of :func:`try_lock`'s lock (closing the descriptor does too)."""
    if windows():
        msvcrt = _msvcrt()
        os.lseek(fd, at, os.SEEK_SET)
        with contextlib.suppress(OSError):
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        return
    import fcntl  # noqa: PLC0415 - POSIX only

    with contextlib.suppress(OSError):
        fcntl.flock(fd, fcntl.LOCK_UN)


def release(fd: int, path: Path, *, remove: bool) -> None:
    """Let a lock file go, and with ``remove`` the file too. On POSIX it is
    removed while still held (no other program can take a lock on a file
    about to go); Windows removes no file that is open, so there it is
    closed first, and left if another program has opened it since."""
    if windows():
        unlock(fd)
        os.close(fd)
        if remove:
            with contextlib.suppress(OSError):
                path.unlink()
        return
    if remove:
        with contextlib.suppress(OSError):
            path.unlink()
    os.close(fd)


def held_by_another(fd: int, byte: int) -> bool:
    """Whether another program holds a lock on ``byte`` of the open file
    ``fd`` (tried with an exclusive lock of it, let go at once)."""
    if windows():  # a byte's lock is what try_lock takes there
        if not try_lock(fd, at=byte):
            return True
        unlock(fd, at=byte)
        return False
    import fcntl  # noqa: PLC0415 - POSIX only

    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, byte, os.SEEK_SET)
    except OSError:
        return True
    fcntl.lockf(fd, fcntl.LOCK_UN, 1, byte, os.SEEK_SET)
    return False


def sync_folder(folder: Path) -> None:
    """A rename is on disk once its folder is (POSIX). Windows opens no
    folder as a file; its file system keeps its renames itself."""
    if windows():
        return
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
