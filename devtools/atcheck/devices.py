"""The real assistive technology the walk runs the app under, and the
console it reads.

* :class:`VirtualConsole`: a spare Linux virtual console (VT), made the
  foreground one, sized as asked; keys go into its input queue (TIOCSTI)
  byte for byte as the Linux keyboard sends them; its text and cursor are
  read back from ``/dev/vcsu`` and ``/dev/vcsa``.
* :class:`Brltty`: BRLTTY reading that console (its ``lx`` screen driver)
  with the ``tt`` braille driver writing its window to a pseudo-terminal
  read here (text, dots and cursor cell, parsed with pyte) and the ``xs``
  (ExternalSpeech) speech driver sending every utterance to a socket served
  here; its navigation keys (line up, back to the cursor) are sent to it.
* :class:`Fenrir`: the Fenrir screen reader reading the same console, its
  debug speech driver printing each utterance.

All of it needs root, ``/dev/tty0`` and the Debian packages ``brltty`` and
``fenrir``; :func:`missing` says what is absent.
"""

from __future__ import annotations

import array
import contextlib
import ctypes
import errno
import fcntl
import importlib.util
import os
import pty
import select
import shutil
import signal
import socket
import struct
import subprocess
import termios
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

VT_OPENQRY = 0x5600
GIO_UNIMAP = 0x4B66
VT_GETHIFONTMASK = 0x560D
VT_GETSTATE = 0x5603
VT_ACTIVATE = 0x5606
VT_WAITACTIVE = 0x5607
VT_DISALLOCATE = 0x5608
TIOCSTI = 0x5412

#: What the Linux console keyboard sends, by key name.
KEYS: dict[str, bytes] = {
    "Enter": b"\r", "Tab": b"\t", "Escape": b"\x1b", "Backspace": b"\x7f",
    "Up": b"\x1b[A", "Down": b"\x1b[B", "Right": b"\x1b[C", "Left": b"\x1b[D",
    "F1": b"\x1b[[A", "F2": b"\x1b[[B", "F3": b"\x1b[[C", "F4": b"\x1b[[D", "F5": b"\x1b[[E",
    "F6": b"\x1b[17~", "F7": b"\x1b[18~", "F8": b"\x1b[19~", "F9": b"\x1b[20~",
    "C-q": b"\x11",
}

#: The braille display's own keys, as BRLTTY's tt driver reads them (xterm keypad).
BRAILLE_KEYS: dict[str, bytes] = {
    "LineUp": b"\x1bOA",
    "LineDown": b"\x1bOB",
    "ToCursor": b"\x1bOu",
}


def outlived_never() -> None:
    """In a child, before it runs: a process group of its own (stopped
    whole, its own children with it, by :func:`stop`), and SIGTERM when the
    walk's process dies, however it dies (Linux's PR_SET_PDEATHSIG; killed
    with SIGKILL, the walk's keeper stops what its children started:
    :mod:`devtools.atcheck.keeper`)."""
    os.setsid()
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


#: prctl's option: the signal a child gets when its parent dies.
PR_SET_PDEATHSIG = 1


def now() -> float:
    return time.monotonic()


def missing() -> list[str]:
    """What the walk needs and this machine lacks, in words (empty: all there)."""
    gaps = []
    if os.geteuid() != 0:
        gaps.append("root (VT switching, /dev/vcsa and TIOCSTI need it)")
    if not Path("/dev/tty0").exists():
        gaps.append("virtual consoles (/dev/tty0)")
    for program, package in (("brltty", "brltty"), ("fenrir", "fenrir")):
        if shutil.which(program, path="/usr/sbin:/usr/bin:/sbin:/bin") is None:
            gaps.append(f"{program} (Debian package {package})")
    if importlib.util.find_spec("pyte") is None:
        gaps.append("the Python package pyte")
    return gaps


@dataclass
class Utterance:
    """One thing a screen reader said (or a cut: ``kind`` "mute"/"cancel")."""

    t: float
    kind: str
    text: str


@dataclass
class Frame:
    """One braille window BRLTTY showed: its text and the cursor cell in it."""

    t: float
    text: str
    cursor: int | None


class VirtualConsole:
    """A spare VT of this machine, in the foreground while it is used (from
    :meth:`open`: only once the walk holds the console's lock, so that a
    walk waiting for it never takes the foreground from the one walking)."""

    def __init__(self, cols: int, rows: int) -> None:
        self.cols, self.rows = cols, rows
        self.opened = False
        #: Each character beyond ASCII the screen showed, as a screen reader
        #: reading the screen's memory reads it (:meth:`_learn`).
        self.read_as: dict[str, str] = {}
        self._glyphs: dict[int, str] | None = None

    def open(self) -> None:
        """A free VT, sized, cleared and brought to the foreground."""
        cols, rows = self.cols, self.rows
        self.tty0 = os.open("/dev/tty0", os.O_RDWR | os.O_NOCTTY)
        state = array.array("H", [0, 0, 0])
        fcntl.ioctl(self.tty0, VT_GETSTATE, state, True)
        self.previous = state[0]
        free = array.array("i", [0])
        fcntl.ioctl(self.tty0, VT_OPENQRY, free, True)
        self.vt = free[0]
        self.path = f"/dev/tty{self.vt}"
        self.fd = os.open(self.path, os.O_RDWR | os.O_NOCTTY)
        subprocess.run(["stty", "sane", "cols", str(cols), "rows", str(rows)],
                       stdin=self.fd, check=False)
        os.write(self.fd, b"\x1bc")  # reset: a clear screen, default modes
        fcntl.ioctl(self.tty0, VT_ACTIVATE, self.vt)
        fcntl.ioctl(self.tty0, VT_WAITACTIVE, self.vt)
        self.opened = True

    def reopen(self) -> None:
        """The console opened again: when the app that had it as its
        terminal died, the kernel hung it up, and the old descriptor with it."""
        with contextlib.suppress(OSError):
            os.close(self.fd)
        self.fd = os.open(self.path, os.O_RDWR | os.O_NOCTTY)

    def send(self, data: bytes) -> None:
        """Bytes into the console's input queue, as typed."""
        for byte in data:
            fcntl.ioctl(self.fd, TIOCSTI, bytes([byte]))

    def snapshot(self) -> tuple[list[str], int, int]:
        """The screen's lines (trailing blanks cut), and the cursor's column and row."""
        with Path(f"/dev/vcsa{self.vt}").open("rb") as attributes:
            memory = attributes.read()
        rows, cols, x, y = memory[:4]
        with Path(f"/dev/vcsu{self.vt}").open("rb") as text:
            chars = array.array("I", text.read())
        if max(chars, default=0) > 127:
            # learnt only from a screen that did not change while it was
            # read (the glyphs of the screen before under the characters
            # of the next would be learnt for good: "\xa0" as a letter)
            with Path(f"/dev/vcsa{self.vt}").open("rb") as again:
                if again.read() == memory:
                    self._learn(chars, memory[4:])
        lines = ["".join(chr(c) if c else " " for c in chars[r * cols:(r + 1) * cols]).rstrip()
                 for r in range(rows)]
        return lines, x, y

    def _charmap(self) -> dict[int, str]:
        """The font's table, as Fenrir reads it: each glyph the first
        character it stands for (empty if it cannot be read)."""
        size = 512
        while size <= 1 << 16:
            pairs = array.array("H", [0] * (2 * size))
            wanted = array.array("B", struct.pack("@HP", size, pairs.buffer_info()[0]))
            try:
                fcntl.ioctl(self.fd, GIO_UNIMAP, wanted)
                break
            except OSError as error:
                if error.errno != errno.ENOMEM:
                    return {}
                size *= 2
        else:
            return {}
        count, = struct.unpack_from("@H", wanted)
        table = struct.unpack_from(f"@{2 * count}H", pairs)
        first: dict[int, str] = {}
        for code, glyph in zip(table[::2], table[1::2], strict=True):
            first.setdefault(glyph, chr(code))
        return first

    def _learn(self, chars: array.array[int], cells: bytes) -> None:
        """What each character shown beyond ASCII is read as from the
        screen's memory: the console draws a character its font lacks with
        a glyph of another (the kernel's fallback: "Č" as "C", "Русский"
        as "Russkii" with a Latin font), and a screen reader reading that
        memory (Fenrir) says the other: the console's font, not the app's
        text (:attr:`read_as`)."""
        if self._glyphs is None:
            self._glyphs = self._charmap()
        mask = self._hi_mask()  # (a font of 512 glyphs: one attribute bit is the ninth)
        for index, code in enumerate(chars):
            if code > 127 and (char := chr(code)) not in self.read_as:
                cell = cells[2 * index] | cells[2 * index + 1] << 8
                glyph = (cell & 0xFF) | (0x100 if mask and cell & mask else 0)
                self.read_as[char] = self._glyphs.get(glyph, "?") if self._glyphs else char

    def _hi_mask(self) -> int:
        mask = array.array("H", [0])
        with contextlib.suppress(OSError):
            fcntl.ioctl(self.fd, VT_GETHIFONTMASK, mask, True)
        return mask[0]

    def close(self) -> None:
        if not self.opened:
            return
        self.opened = False
        with contextlib.suppress(OSError):
            fcntl.ioctl(self.tty0, VT_ACTIVATE, self.previous)
            fcntl.ioctl(self.tty0, VT_WAITACTIVE, self.previous)
        with contextlib.suppress(OSError):
            os.close(self.fd)
        with contextlib.suppress(OSError):  # the app's exit hung the old descriptor up
            fd = os.open(self.path, os.O_RDWR | os.O_NOCTTY)
            subprocess.run(["stty", "sane"], stdin=fd, check=False)
            os.write(fd, b"\x1bc")
            os.close(fd)
        with contextlib.suppress(OSError):
            fcntl.ioctl(self.tty0, VT_DISALLOCATE, self.vt)
        os.close(self.tty0)


@dataclass
class SpeechSocket:
    """BRLTTY's ExternalSpeech protocol, served: 1 mute; 3 + rate (4 bytes);
    4 + length (2) + count (2) + text + attributes: say. The end of speech
    is answered after a plausible speaking time, so BRLTTY sees it end."""

    path: str
    said: list[Utterance] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    chars_a_second: float = 15.0

    def start(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            Path(self.path).unlink()
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(self.path)
        self.server.listen(1)
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        conn, _ = self.server.accept()
        buffer = b""
        pending: list[tuple[float, int]] = []  # (end time, index to answer)
        while True:
            ready, _, _ = select.select([conn], [], [], 0.05)
            moment = now()
            for item in [p for p in pending if moment >= p[0]]:
                with contextlib.suppress(OSError):
                    conn.sendall(struct.pack(">H", item[1]))
                pending.remove(item)
            if not ready:
                continue
            data = conn.recv(65536)
            if not data:
                return
            buffer += data
            while buffer:
                code = buffer[0]
                if code == 1:
                    buffer = buffer[1:]
                    pending.clear()
                    with self.lock:
                        self.said.append(Utterance(moment, "mute", ""))
                elif code == 3:
                    if len(buffer) < 5:
                        break
                    buffer = buffer[5:]
                elif code == 4:
                    if len(buffer) < 5:
                        break
                    length = buffer[1] << 8 | buffer[2]
                    count = buffer[3] << 8 | buffer[4]
                    if len(buffer) < 5 + length + count:
                        break
                    text = buffer[5:5 + length].decode("utf-8", "replace").strip()
                    buffer = buffer[5 + length + count:]
                    with self.lock:
                        self.said.append(Utterance(moment, "say", text))
                    pending.append((moment + max(0.2, len(text) / self.chars_a_second), count))
                else:
                    buffer = b""


class Brltty:
    """BRLTTY 6.5 on the console in the foreground (a :class:`VirtualConsole`
    made active): braille window on a pty, speech on a socket."""

    def __init__(self, workdir: Path, cells: int = 40) -> None:
        import pyte  # noqa: PLC0415  (only the walk needs it)

        self.cells = cells
        self.frames: list[Frame] = []
        self.lock = threading.Lock()
        self.master, slave = pty.openpty()
        attrs = termios.tcgetattr(slave)
        attrs[3] &= ~(termios.ECHO | termios.ICANON)
        termios.tcsetattr(slave, termios.TCSANOW, attrs)
        self._slave = slave
        self._screen = pyte.Screen(cells, 3)
        self._stream = pyte.ByteStream(self._screen)
        self.speech = SpeechSocket(str(workdir / "speech.sock"))
        self.speech.start()
        self.log = workdir / "brltty.log"
        self._stderr: BinaryIO = (workdir / "brltty.stderr").open("wb")
        self.process = subprocess.Popen(
            ["brltty", "-n", "-q", "-N", "-Z", "-e",
             "-f", "/dev/null", "-F", str(workdir / "brltty.prefs"),
             "-W", str(workdir), "-P", str(workdir / "brltty.pid"),
             "-b", "tt", "-d", os.ttyname(slave),
             "-B", f"lines=1,columns={cells},term=xterm",
             "-x", "lx", "-s", "xs", "-S", f"socket_path={self.speech.path}",
             "-o", "autospeak=yes", "-l", "info", "-L", str(self.log)],
            env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"},
            stdout=subprocess.DEVNULL, stderr=self._stderr,
            preexec_fn=outlived_never)  # noqa: PLW1509 - no threads of the app's
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                ready, _, _ = select.select([self.master], [], [], 0.5)
            except (OSError, ValueError):  # closed: the walk is over
                return
            if not ready:
                if self.process.poll() is not None:
                    return
                continue
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            while True:  # the rest of this redraw
                try:
                    ready, _, _ = select.select([self.master], [], [], 0.03)
                    if not ready:
                        break
                    data += os.read(self.master, 65536)
                except (OSError, ValueError):
                    break
            self._stream.feed(data)
            text = self._screen.display[0]
            cursor = self._screen.cursor.x if self._screen.cursor.y == 0 else None
            with self.lock:
                last = self.frames[-1] if self.frames else None
                if last is None or (last.text, last.cursor) != (text, cursor):
                    self.frames.append(Frame(now(), text, cursor))

    def press(self, key: str) -> None:
        """A key of the braille display."""
        os.write(self.master, BRAILLE_KEYS[key])

    def window(self) -> str:
        with self.lock:
            return self.frames[-1].text if self.frames else ""

    def close(self) -> None:
        stop(self.process)
        self._stderr.close()
        for fd in (self.master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)


class Fenrir:
    """The Fenrir screen reader on the console, speech to its debug driver."""

    PREFIX = "Speech Debug Driver: "

    def __init__(self, workdir: Path) -> None:
        self.said: list[Utterance] = []
        self.lock = threading.Lock()
        options = ";".join([
            "sound#enabled=False", "speech#driver=debugDriver", "speech#autoReadIncoming=True",
            "keyboard#driver=dummyDriver", "screen#driver=vcsaDriver", "braille#enabled=False",
            "remote#enable=False", "promote#enabled=False", "time#enabled=False",
            "general#autoSpellCheck=False", f"general#debugFile={workdir / 'fenrir.log'}",
        ])
        self.process = subprocess.Popen(
            ["/usr/bin/fenrir", "-s", "/etc/fenrirscreenreader/settings/settings.conf",
             "-o", options],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            env={"PATH": "/usr/bin:/bin", "PYTHONUNBUFFERED": "1", "LANG": "C.UTF-8"},
            preexec_fn=outlived_never)  # noqa: PLW1509
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        current: list[Any] | None = None
        for raw in self.process.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if current is not None:
                if line.startswith(self.PREFIX + "-----"):
                    with self.lock:
                        self.said.append(Utterance(current[0], "say", current[1].strip()))
                    current = None
                else:
                    current[1] += " / " + line
                continue
            if line.startswith(self.PREFIX + "Speak:"):
                current = [now(), line[len(self.PREFIX) + 6:]]
            elif line.startswith(self.PREFIX + "Cancel"):
                with self.lock:
                    self.said.append(Utterance(now(), "cancel", ""))

    def close(self) -> None:
        stop(self.process)


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop ``process`` and its process group (:func:`outlived_never`):
    SIGTERM, then SIGKILL after five seconds."""
    for sent in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, sent)
        try:
            process.wait(5)
            break
        except subprocess.TimeoutExpired:
            continue
    with contextlib.suppress(ProcessLookupError, PermissionError):  # (what it left behind)
        os.killpg(process.pid, signal.SIGKILL)
