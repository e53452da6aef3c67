"""The serial link to the scanner: open, greet, listen, keep alive, come back.

:class:`ScannerLink` runs in its own thread. It opens the port (a path, or a
pyserial URL such as ``loop://``; without one it looks for a known USB
serial adapter), sends ``HELLO?`` until the board answers (an Uno resets
when its port is opened), checks the protocol version, then turns every
valid ``CARD`` line into a :class:`~firmware_bridge.events.CardIdentified`
event. A ``PING`` every second keeps watch: three without a word back, or a
read error (the board was unplugged), and the link reports the scanner lost
and tries again, waiting 0.5 s, then 1, 2, 4 and at most 5 s between tries.

Sequence numbers survive reconnection, so a line sent twice is counted once
and a missing one is reported; a ``HELLO`` at any time, or numbers that go
back (its HELLO unheard), mean the board started again and its numbers with
it: the next scans are taken. The link opens only what
:mod:`firmware_bridge.ports` allows: a serial port, or the terminal of a
live virtual scanner; never another program's terminal. What it remembers
does not grow with time: the last sequence number and tag, a line of at
most 82 bytes, counters. Events go to ``on_event`` from the link's thread: a
user interface hands them over to its own thread.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import serial
from serial.tools import list_ports

from firmware_bridge.events import (
    CardIdentified,
    InputEvent,
    ScannerFound,
    ScannerIssue,
    ScannerLost,
    ScannerProblem,
    Source,
)
from firmware_bridge.ports import WINDOWS_PORT, PortRefusal, check
from firmware_bridge.protocol import (
    PROTOCOL_MAJOR,
    Card,
    DeviceError,
    Hello,
    LineSplitter,
    Message,
    Pong,
    ProtocolError,
    SequenceTracker,
    SeqVerdict,
    check_line,
    format_line,
    parse_line,
    parse_message,
    resync,
)
from firmware_bridge.registry import Registry

BAUDRATE = 115200
#: USB serial adapters of Arduino-class boards: Uno, CH340, FTDI, CP210x.
KNOWN_ADAPTERS = {(0x2341, 0x0043), (0x1A86, 0x7523), (0x0403, 0x6001), (0x10C4, 0xEA60)}


def autodetect() -> str | None:
    """The first port that looks like the scanner's board, if any."""
    for port in list_ports.comports():
        if (port.vid, port.pid) in KNOWN_ADAPTERS:
            return str(port.device)
    by_id = Path("/dev/serial/by-id")
    found = sorted(by_id.iterdir()) if by_id.is_dir() else []
    return str(found[0]) if found else None


@dataclass
class LinkSettings:
    """Timing of the link, in seconds."""

    heartbeat: float = 1.0
    missed_heartbeats: int = 3
    hello_every: float = 0.5
    hello_for: float = 3.0
    backoff_first: float = 0.5
    backoff_max: float = 5.0
    problem_every: float = 2.0


@dataclass
class LinkCounters:
    """What the link has seen, for checks and benchmarks."""

    cards: int = 0
    repeats: int = 0
    dropped: int = 0
    bad_lines: int = 0
    ignored: int = 0
    connects: int = 0
    losses: int = 0
    #: Boards that started again unheard: their numbers went back.
    restarts: int = 0


class ScannerLink:
    """Listens to the scanner on ``port`` (or the one found) until stopped."""

    def __init__(
        self,
        port: str | None,
        on_event: Callable[[InputEvent], None],
        registry: Registry | None = None,
        settings: LinkSettings | None = None,
    ) -> None:
        self.port = port
        self.on_event = on_event
        self.registry = registry if registry is not None else Registry.load()
        self.settings = settings or LinkSettings()
        self.counters = LinkCounters()
        self._sequence = SequenceTracker()
        self._splitter = LineSplitter()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._serial: serial.Serial | None = None
        self._found_before = False
        self._connected = False
        self._bad_since_report = 0
        self._last_problem = 0.0

    # -- running ------------------------------------------------------------------

    def start(self) -> ScannerLink:
        """Start listening (once: starting a running link changes nothing)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="scanner-link", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._close()

    def __enter__(self) -> ScannerLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _run(self) -> None:
        wait = self.settings.backoff_first
        while not self._stop.is_set():
            port = self.port or autodetect()
            verdict = check(port) if port is not None else None
            if port is None:
                self._problem("no scanner found: plug it in, or give its port",
                              kind=ScannerIssue.NOT_FOUND)
            elif isinstance(verdict, PortRefusal):
                # a port gone after it worked was unplugged: already said
                if verdict.kind is not ScannerIssue.NO_PORT or not self._found_before:
                    self._problem(verdict.reason, port, kind=verdict.kind,
                                  count=verdict.count, detail=verdict.detail)
            elif verdict is not None:
                try:
                    if self._connect(port, verdict.path):
                        wait = self.settings.backoff_first
                        self._listen(port)
                except (serial.SerialException, OSError) as error:
                    self._lost(port, _reason(error))
                finally:
                    self._close()
            self._stop.wait(wait)
            wait = min(wait * 2, self.settings.backoff_max)

    def _close(self) -> None:
        if self._serial is not None:
            with contextlib.suppress(Exception):
                self._serial.close()
            self._serial = None

    # -- connecting -------------------------------------------------------------------

    def _connect(self, port: str, path: str) -> bool:
        """Open ``path`` (the checked device of ``port``) and greet the board;
        True once it said HELLO with our protocol."""
        link = serial.serial_for_url(path, baudrate=BAUDRATE, timeout=0.02, exclusive=True)
        self._serial = link
        link.reset_input_buffer()
        self._splitter.reset()
        early: list[bytes] = []
        deadline = time.monotonic() + self.settings.hello_for
        next_hello = 0.0
        heard_anything = False
        while time.monotonic() < deadline and not self._stop.is_set():
            if time.monotonic() >= next_hello:
                link.write(format_line("HELLO?"))
                next_hello = time.monotonic() + self.settings.hello_every
            for line in self._lines(link.read(256)):
                heard_anything = True
                try:
                    message = parse_line(line)
                except ProtocolError:
                    continue  # the first line after opening is often cut short
                if isinstance(message, Hello):
                    return self._greeted(port, message, early)
                if isinstance(message, Card):
                    early.append(line)
        if not self._stop.is_set():
            if heard_anything:
                self._problem(f"the device on {port} does not speak the scanner protocol",
                              port, kind=ScannerIssue.FOREIGN_DEVICE)
            else:
                self._problem(f"no scanner answers on {port}", port, kind=ScannerIssue.NO_ANSWER)
        return False

    def _greeted(self, port: str, hello: Hello, early: list[bytes]) -> bool:
        if hello.proto != PROTOCOL_MAJOR:
            self._problem(
                f"the scanner speaks protocol {hello.proto}, this app speaks "
                f"{PROTOCOL_MAJOR}: update the scanner's firmware or the app",
                port, kind=ScannerIssue.PROTOCOL, count=hello.proto,
            )
            return False
        self.counters.connects += 1
        # An Uno resets when its port is opened: its numbers start again.
        self._sequence.restart()
        self._connected = True
        self.on_event(ScannerFound(port, hello.device, hello.firmware, self._found_before))
        self._found_before = True
        for line in early:
            self._handle(line, port)
        return True

    # -- listening ---------------------------------------------------------------------

    def _listen(self, port: str) -> None:
        link = self._serial
        assert link is not None
        settings = self.settings
        last_heard = time.monotonic()
        next_ping = last_heard + settings.heartbeat
        while not self._stop.is_set():
            data = link.read(max(1, link.in_waiting))
            now = time.monotonic()
            for line in self._lines(data):
                if self._handle(line, port):
                    last_heard = now
            if now >= next_ping:
                link.write(format_line("PING"))
                next_ping = now + settings.heartbeat
            if now - last_heard > settings.heartbeat * settings.missed_heartbeats:
                self._lost(port, f"no answer for {now - last_heard:.0f} seconds")
                return
            self._report_bad_lines(port)

    def _lines(self, data: bytes) -> list[bytes]:
        lines = []
        for item in self._splitter.feed(data):
            if isinstance(item, ProtocolError):
                self._bad_since_report += 1
                self.counters.bad_lines += 1
            else:
                lines.append(item)
        return lines

    def _handle(self, line: bytes, port: str) -> bool:
        """Act on one line; True if it was a valid message."""
        if not line.strip(b"\r\n"):
            return False  # the newline a board sends as it starts: not garbled
        try:
            body = check_line(line)
        except ProtocolError:
            found = resync(line)
            if found is None:
                self._bad_since_report += 1
                self.counters.bad_lines += 1
                return False
            message: Message = found
        else:
            try:
                message = parse_message(body)
            except ProtocolError:
                # well formed, but not a message this version knows: a newer
                # board's addition, to be ignored
                self.counters.ignored += 1
                return True
        if isinstance(message, Card):
            verdict, dropped = self._sequence.see(message.seq, message.uid)
            if verdict is SeqVerdict.REPEAT:
                self.counters.repeats += 1
                return True
            if verdict is SeqVerdict.RESTART:  # started again, its HELLO unheard
                self.counters.restarts += 1
            if dropped:
                self.counters.dropped += dropped
                self._problem(f"{dropped} scans were lost on the way: scan again", port,
                              urgent=True, kind=ScannerIssue.LOST_SCANS, count=dropped)
            self.counters.cards += 1
            tag = self.registry.lookup(message.uid)
            game, card = (tag.game, tag.card) if tag is not None else (None, None)
            self.on_event(
                CardIdentified(game, card, Source.SCANNER, message.uid, None, message.seq)
            )
        elif isinstance(message, Hello):
            self._sequence.restart()  # the board started again
        elif isinstance(message, DeviceError):
            self._problem(f"the scanner reports: {message.text}", port,
                          kind=ScannerIssue.DEVICE_ERROR, detail=message.text)
        elif isinstance(message, Pong):
            pass
        return True

    # -- telling the user -------------------------------------------------------------------

    def _lost(self, port: str, reason: str) -> None:
        """Say once that a working scanner went away; a port that never
        worked is a problem to name, not a loss."""
        self.counters.losses += 1
        if self._stop.is_set():
            return
        if self._connected:
            self._connected = False
            self.on_event(ScannerLost(port, reason))
        elif not self._found_before:
            self._problem(f"cannot use {port}: {reason}", port, kind=ScannerIssue.CANNOT_OPEN,
                          detail=reason)

    def _problem(self, reason: str, port: str | None = None, *, urgent: bool = False,
                 kind: ScannerIssue | None = None, count: int = 0, detail: str = "") -> None:
        """Tell the user, at most every few seconds unless ``urgent``."""
        now = time.monotonic()
        if urgent or now - self._last_problem >= self.settings.problem_every:
            self._last_problem = now
            self.on_event(ScannerProblem(reason, port, kind, count, detail))

    def _report_bad_lines(self, port: str) -> None:
        if self._bad_since_report and time.monotonic() - self._last_problem >= (
            self.settings.problem_every
        ):
            count, self._bad_since_report = self._bad_since_report, 0
            self._problem(f"{count} garbled lines from the scanner were ignored", port,
                          kind=ScannerIssue.GARBLED, count=count)


def _reason(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    return text.splitlines()[0][:120]


def port_exists(port: str) -> bool:
    """A pyserial URL, a path that exists (a name too long for a path is
    not one), or on Windows a port's name (``COM3``: opening it says more)."""
    if "://" in port:
        return True
    if sys.platform == "win32":
        return WINDOWS_PORT.fullmatch(port) is not None
    try:
        return Path(port).exists()
    except (OSError, ValueError):
        return False
