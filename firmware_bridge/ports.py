"""Which ports the scanner link may open, and why it refuses the others.

The link writes ``HELLO?`` into the port it opens and switches it to raw
mode: done to another program's terminal, that takes the program's typing.
So it opens only:

* a serial port: a terminal device with hardware behind it (a USB serial
  adapter, ``/dev/ttyACM0``, ``/dev/ttyS0``, a ``/dev/serial/by-id`` link);
* a pseudo-terminal that a live program of this user offers as a scanner
  (a virtual scanner, test equipment), through its lease or the lock
  beside a virtual scanner's link (see :mod:`firmware_bridge.virtual`);
* a pyserial URL that names no local device: ``loop://``, ``socket://``,
  ``rfc2217://``;

and never a terminal that is any program's controlling terminal.

>>> check("loop://")
Allowed(path='loop://')
>>> check("/dev/null").kind
<ScannerIssue.NOT_SERIAL: 'not-serial'>
"""

from __future__ import annotations

import os
import re
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

from firmware_bridge.events import ScannerIssue
from firmware_bridge.virtual import leased, live_terminal, lock_of

#: pyserial URLs that name no device of this computer.
URL_SCHEMES = frozenset({"loop", "socket", "rfc2217"})
#: Major numbers of Unix 98 pseudo-terminals' slave side.
PTY_MAJORS = range(136, 144)
#: Serial ports by major number, when /sys cannot say: ttyS (from minor
#: 64; below are the consoles), ttyACM, ttyUSB, ttyAMA and the like.
SERIAL_MAJORS = frozenset({4, 166, 188, 204})


@dataclass(frozen=True, slots=True)
class Allowed:
    """The port may be opened; ``path`` is what to open (links resolved)."""

    path: str


@dataclass(frozen=True, slots=True)
class PortRefusal:
    """The port is not opened: the kind, the reason in English, and for
    another program's terminal, its name and process."""

    kind: ScannerIssue
    reason: str
    detail: str = ""
    count: int = 0


def check(port: str) -> Allowed | PortRefusal:
    """Whether the link may open ``port``, and what to open."""
    if "://" in port:
        if port.partition("://")[0].lower() in URL_SCHEMES:
            return Allowed(port)
        return _not_serial(port)
    if sys.platform == "win32":
        return _windows_port(port)
    given = Path(port)
    vouched = False
    try:
        if given.is_symlink() and lock_of(given).exists():
            terminal = live_terminal(given)
            if terminal is None:
                return PortRefusal(ScannerIssue.STALE_LINK,
                                   f"no virtual scanner runs behind {port}")
            real, vouched = terminal, True
        else:
            real = os.path.realpath(port)
        facts = Path(real).stat()
    except FileNotFoundError:
        return PortRefusal(ScannerIssue.NO_PORT, f"there is no port {port}")
    except (OSError, ValueError) as error:
        reason = str(error) or type(error).__name__
        return PortRefusal(ScannerIssue.CANNOT_OPEN, f"cannot use {port}: {reason}", reason)
    if not stat.S_ISCHR(facts.st_mode):
        return _not_serial(port)
    if os.major(facts.st_rdev) in PTY_MAJORS:
        if not (vouched or leased(real)):
            return _not_serial(port)
    elif not hardware_serial(facts.st_rdev):
        return _not_serial(port)
    holder = controlling(facts.st_rdev)
    if holder is not None:
        pid, name = holder
        return PortRefusal(ScannerIssue.OTHERS_TERMINAL,
                       f"{port} is the terminal of another program ({name}, process {pid})",
                       name, pid)
    return Allowed(real)


#: A serial port's name on Windows: ``COM3``, or ``\\.\COM12`` as the system spells it.
WINDOWS_PORT = re.compile(r"(?:\\\\\.\\)?COM[1-9][0-9]{0,2}", re.IGNORECASE)


def _windows_port(port: str) -> Allowed | PortRefusal:
    """On Windows a serial port is a name, not a file (``COM3``): no
    terminal of another program can be one, and opening it says the rest.

    >>> _windows_port("com3"), _windows_port("C:/x").kind.name
    (Allowed(path='com3'), 'NOT_SERIAL')
    """
    return Allowed(port) if WINDOWS_PORT.fullmatch(port) else _not_serial(port)


def _not_serial(port: str) -> PortRefusal:
    return PortRefusal(ScannerIssue.NOT_SERIAL,
                   f"{port} is neither a serial port nor a running virtual scanner: not opened")


def hardware_serial(device: int) -> bool:
    """Whether the character device number ``device`` is a terminal with
    hardware behind it, as /sys says (consoles, ``/dev/tty`` and
    pseudo-terminals have none), or by its major number without /sys."""
    major, minor = os.major(device), os.minor(device)
    node = Path(f"/sys/dev/char/{major}:{minor}")
    if node.exists():
        return (node / "subsystem").resolve().name == "tty" and (node / "device").exists()
    return major in SERIAL_MAJORS and not (major == 4 and minor < 64)


def controlling(device: int) -> tuple[int, str] | None:
    """A process whose controlling terminal is ``device``, and its name."""
    wanted = (os.major(device), os.minor(device))
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry.name}/stat").read_bytes().rpartition(b")")[2].split()
            number = int(fields[4])
        except (OSError, ValueError, IndexError):
            continue  # gone meanwhile
        # proc(5): the major in bits 15 to 8, the minor in 31 to 20 and 7 to 0
        if number and ((number >> 8) & 0xFFF, (number & 0xFF) | ((number >> 12) & 0xFFF00)) \
                == wanted:
            try:
                name = Path(f"/proc/{entry.name}/comm").read_text().strip()
            except OSError:
                name = "?"
            return int(entry.name), name
    return None
