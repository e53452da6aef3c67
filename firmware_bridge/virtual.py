"""A virtual scanner on a pseudo-terminal, speaking the real protocol.

For trying the whole serial path without hardware, and for tests. The host
opens :attr:`VirtualScanner.path` like a real port; :meth:`scan` sends the
``CARD`` line a board would send; :meth:`reset` starts the "board" again
(``HELLO``, numbers from 0, maybe a line cut in half first); :meth:`unplug`
closes the terminal as a pulled cable would, :meth:`plug` brings a new one.
A stable symbolic link (:attr:`link`) always points to the current terminal,
as ``/dev/serial/by-id`` does for a real board.

The link trusts a pseudo-terminal only while a live program of this user
offers it: a lock file beside the stable link, and a lease in a private
folder (:func:`lease`) for the terminal itself, each naming the process
that holds it. Test equipment that makes a terminal of its own (the
simulated board's, a relay) leases it the same way.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import stat
import tempfile
import threading
from pathlib import Path

from firmware_bridge.files import (
    SMALL_FILE_LIMIT,
    data_dir,
    parse_json,
    read_limited,
    write_atomically,
)
from firmware_bridge.protocol import (
    LineSplitter,
    ProtocolError,
    check_line,
    format_line,
)

DEVICE = "tactile-scanner"
FIRMWARE = "1.0.0-virtual"


def _uid() -> int:
    """This user's number (Windows has none, and no pseudo-terminal either)."""
    return os.getuid() if hasattr(os, "getuid") else 0


def lock_of(link: Path) -> Path:
    """The file beside a virtual scanner's link that names its process and
    its terminal, while it runs."""
    return link.with_name(link.name + ".lock")


def _held(facts: object, terminal: str) -> bool:
    """Whether a lock's facts name a live process of this user that holds
    ``terminal`` open, a terminal of this user's."""
    try:
        assert isinstance(facts, dict)
        pid = int(facts["pid"])
        if int(facts["uid"]) != _uid() or str(facts["pty"]) != terminal:
            return False
        os.kill(pid, 0)  # alive (ProcessLookupError), ours (PermissionError)
        if Path(f"/proc/{pid}").stat().st_uid != _uid():
            return False  # alive, but another user's (root may signal anyone)
        if Path(terminal).stat().st_uid != _uid():
            return False
        opened = Path(f"/proc/{pid}/fd")
        return not opened.is_dir() or any(
            os.path.realpath(fd) == terminal for fd in opened.iterdir())
    except (OSError, ValueError, KeyError, TypeError, AssertionError):
        return False


def _facts(path: Path) -> dict[str, object]:
    """A lock or lease file's facts; :class:`OSError` for one that is not a
    file (a named pipe never hangs), :class:`ValueError` for one that is not
    a JSON object."""
    facts = parse_json(read_limited(path, SMALL_FILE_LIMIT))
    if not isinstance(facts, dict):
        raise ValueError(f"{path} holds no facts")
    return facts


def live_terminal(link: Path) -> str | None:
    """The terminal of the virtual scanner ``link`` points to, if a live
    virtual scanner of this user holds it: its lock file names a running
    process of ours, that process has the terminal open, and the link
    points there. ``None`` otherwise: a link left by a scanner that quit
    may point at a terminal the system has since given to another program,
    which must never be opened."""
    try:
        facts = _facts(lock_of(link))
        terminal = str(link.readlink())
    except (OSError, ValueError):
        return None
    return terminal if _held(facts, terminal) else None


def leases_dir() -> Path:
    """Where a program that offers a pseudo-terminal as a scanner says so
    (a virtual scanner, test equipment): a folder of this user's alone, in
    ``XDG_RUNTIME_DIR`` or else the temporary folder."""
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    base = runtime if runtime and Path(runtime).is_dir() else tempfile.gettempdir()
    return Path(base) / f"tactile-companion-{_uid()}" / "terminals"


def lease_of(terminal: str) -> Path:
    """The lease file of a terminal: ``/dev/pts/5`` has ``dev-pts-5.lock``."""
    return leases_dir() / (terminal.strip("/").replace("/", "-") + ".lock")


def _private(folder: Path) -> bool:
    """A real folder of this user's that nobody else may write in."""
    try:
        facts = folder.lstat()
    except OSError:
        return False
    return (stat.S_ISDIR(facts.st_mode) and facts.st_uid == _uid()
            and not facts.st_mode & 0o022)


def lease(terminal: str, pid: int | None = None) -> Path:
    """Offer ``terminal`` as a scanner: process ``pid`` (this one unless
    given) holds it open and speaks the scanner's protocol there. The link
    opens a pseudo-terminal only while such a lease names a live holder.
    Returns the lease file; :func:`release` ends it."""
    folder = leases_dir()
    for part in (folder.parent, folder):
        with contextlib.suppress(FileExistsError):
            part.mkdir(mode=0o700)
        if not _private(part):
            raise PermissionError(f"{part} is not a private folder of this user")
    facts = {"pid": os.getpid() if pid is None else pid, "pty": terminal, "uid": _uid()}
    write_atomically(lease_of(terminal), json.dumps(facts).encode())
    return lease_of(terminal)


def release(terminal: str, pid: int | None = None) -> None:
    """End the lease of ``terminal`` if process ``pid`` (this one) holds it."""
    with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
        path = lease_of(terminal)
        if _facts(path)["pid"] == (
                os.getpid() if pid is None else pid):
            path.unlink()


def leased(terminal: str) -> bool:
    """Whether a live program of this user offers ``terminal`` as a scanner."""
    folder = leases_dir()
    if not (_private(folder.parent) and _private(folder)):
        return False
    try:
        facts = _facts(lease_of(terminal))
    except (OSError, ValueError):
        return False
    return _held(facts, terminal)


def default_link() -> Path:
    """Where ``firmware-bridge simulate`` links its virtual scanner, and where
    the app looks for it: ``virtual-scanner`` in the data folder."""
    return data_dir() / "virtual-scanner"


class LinkTaken(ValueError):
    """Something that is not a virtual scanner's is where its link would go
    (``lock``: where its lock file would go); ``name``, the file's name."""

    def __init__(self, message: str, *, name: str = "", lock: bool = False) -> None:
        super().__init__(message)
        self.name = name
        self.lock = lock


def check_link(link: Path) -> None:
    """Raise :class:`LinkTaken` unless ``link`` and its lock file are free or
    a virtual scanner's (a link to a terminal, a lock of facts): the
    scanner never replaces a file of anyone else's.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> check_link(folder / "scanner")
    >>> _ = (folder / "notes.txt").write_text("mine")
    >>> try:
    ...     check_link(folder / "notes.txt")
    ... except LinkTaken as error:
    ...     print(error)
    notes.txt is there already and is not a virtual scanner's link
    """
    if link.is_symlink():
        if not str(link.readlink()).startswith("/dev/"):
            raise LinkTaken(f"{link.name} is there already and is not a virtual scanner's link",
                            name=link.name)
    elif link.exists():
        raise LinkTaken(f"{link.name} is there already and is not a virtual scanner's link",
                        name=link.name)
    lock = lock_of(link)
    if lock.exists() or lock.is_symlink():
        try:
            facts = _facts(lock)
        except (OSError, ValueError):
            facts = {}
        if not {"pid", "pty"} <= facts.keys():
            raise LinkTaken(f"{lock.name} is there already and is not a virtual scanner's lock",
                            name=lock.name, lock=True)


class VirtualScanner:
    """A pretend board. ``link`` is where its stable symbolic link goes
    (:func:`check_link` first: it is replaced each time it is plugged)."""

    def __init__(self, link: Path | None = None, *, answer: bool = True) -> None:
        self.link = link
        self.answer = answer
        self.sequence = 0
        self._lock = threading.Lock()
        self._master = -1
        self._slave = -1
        self.path = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.plug()

    # -- the cable ---------------------------------------------------------------------

    def plug(self) -> str:
        """A new terminal (as when the board is plugged in): its path.
        Raises :class:`OSError` where the system has no pseudo-terminals
        (Windows)."""
        if not hasattr(os, "openpty"):
            raise OSError("the virtual scanner needs a pseudo-terminal, which Windows lacks: "
                          "use a real scanner, or typed codes")
        import tty  # noqa: PLC0415 - POSIX only

        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line discipline: bytes as the board sends them
        with self._lock:
            self._master, self._slave = master, slave
            self.path = os.ttyname(slave)
        lease(self.path)
        if self.link is not None:
            temporary = self.link.with_name(f".{self.link.name}.{os.urandom(4).hex()}.new")
            temporary.symlink_to(self.path)
            temporary.replace(self.link)
            facts = {"pid": os.getpid(), "pty": self.path, "uid": _uid()}
            write_atomically(lock_of(self.link), json.dumps(facts).encode())
        self._stop.clear()
        self._thread = threading.Thread(target=self._serve, daemon=True, name="virtual-scanner")
        self._thread.start()
        self.send("HELLO " + DEVICE + " proto=1 fw=" + FIRMWARE)
        return self.path

    def unplug(self) -> None:
        """Close the terminal: the host's next read or write fails."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        with self._lock:
            if self._master >= 0:
                release(self.path)
            for fd in (self._master, self._slave):
                if fd >= 0:
                    with contextlib.suppress(OSError):
                        os.close(fd)
            self._master = self._slave = -1

    def close(self) -> None:
        """Quit: the terminal closed, and the link and its lock removed
        (if they are still this scanner's), so nothing points at a terminal
        the system may give to another program."""
        self.unplug()
        if self.link is None:
            return
        with contextlib.suppress(OSError):
            if str(self.link.readlink()) == self.path:
                self.link.unlink()
        with contextlib.suppress(OSError, ValueError, KeyError):
            lock = lock_of(self.link)
            if _facts(lock)["pid"] == os.getpid():
                lock.unlink()

    # -- what the board says -------------------------------------------------------------

    def write(self, data: bytes) -> None:
        """Raw bytes on the wire (for garbled lines and floods in tests)."""
        with self._lock:
            if self._master >= 0:
                with contextlib.suppress(OSError):
                    os.write(self._master, data)

    def send(self, message: str) -> None:
        self.write(format_line(message))

    def scan(self, uid: str) -> int:
        """Report a tag, as the board does when one is placed; its sequence number."""
        with self._lock:
            seq = self.sequence
            self.sequence = (self.sequence + 1) % 65536
        self.send(f"CARD {uid} {seq}")
        return seq

    def reset(self, *, cut_line: bool = False, hello: bool = True) -> None:
        """Start again: numbers from 0 and a HELLO, perhaps after half a
        line; ``hello=False``: the HELLO is lost on the way."""
        if cut_line:
            self.write(b"CARD 04A1B2")
        self.sequence = 0
        if hello:
            self.send("HELLO " + DEVICE + " proto=1 fw=" + FIRMWARE)

    # -- what the host says ----------------------------------------------------------------

    def _serve(self) -> None:
        splitter = LineSplitter()
        while not self._stop.is_set():
            master = self._master
            if master < 0:
                return
            try:
                ready, _, _ = select.select([master], [], [], 0.05)
                if not ready:
                    continue
                data = os.read(master, 4096)
            except OSError:
                continue  # no host has the terminal open yet
            for line in splitter.feed(data):
                if isinstance(line, ProtocolError) or not self.answer:
                    continue
                try:
                    message = check_line(line)
                except ProtocolError:
                    self.send("ERR CHECKSUM bad or missing checksum")
                    continue
                if message == "PING":
                    self.send("PONG")
                elif message == "HELLO?":
                    self.send("HELLO " + DEVICE + " proto=1 fw=" + FIRMWARE)
                else:
                    self.send("ERR UNKNOWN unknown command")
