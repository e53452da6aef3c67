"""The ports the scanner link opens, and the ones it never touches: real
files, devices and pseudo-terminals, leased or not, someone's terminal."""

from __future__ import annotations

import os
import subprocess
import sys
import termios
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_bridge.events import ScannerFound, ScannerIssue, ScannerProblem
from firmware_bridge.link import ScannerLink
from firmware_bridge.ports import Allowed, PortRefusal, check, controlling, hardware_serial
from firmware_bridge.registry import Registry
from firmware_bridge.virtual import lease, lease_of, release
from tests.drivers import PipedApp as Conversation
from tests.drivers import first_start
from tests.firmware_bridge.helpers import QUICK, Events


class Terminal:
    """A pseudo-terminal of the test's: its slave's path, and its master to
    see whether anything was written there."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.modes = termios.tcgetattr(self.slave)

    def untouched(self) -> bool:
        """Nothing written to it, its modes as they were."""
        os.set_blocking(self.master, False)
        try:
            os.read(self.master, 1024)
        except BlockingIOError:
            return termios.tcgetattr(self.slave) == self.modes
        return False

    def close(self) -> None:
        release(self.path)
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    made = Terminal()
    yield made
    made.close()


def refused(port: str) -> ScannerIssue:
    verdict = check(port)
    assert isinstance(verdict, PortRefusal), verdict
    assert verdict.reason
    return verdict.kind


def test_files_folders_pipes_and_other_devices_are_not_serial_ports(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("HELLO")
    os.mkfifo(tmp_path / "pipe")  # opening it would wait for a writer forever
    (tmp_path / "by-id").symlink_to("/dev/null")
    for port in (tmp_path / "file", tmp_path, tmp_path / "pipe", "/dev/null",
                 tmp_path / "by-id", "/dev/tty", "/dev/ptmx"):
        assert refused(str(port)) is ScannerIssue.NOT_SERIAL, port
    assert refused(str(tmp_path / "none")) is ScannerIssue.NO_PORT
    assert refused("spy:///dev/null") is ScannerIssue.NOT_SERIAL  # a URL naming a device
    assert check("loop://") == Allowed("loop://")


def test_consoles_and_memory_devices_are_not_serial_ports() -> None:
    for major, minor in ((4, 1), (5, 0), (5, 1), (5, 2), (1, 3)):  # tty1, tty, console...
        assert not hardware_serial(os.makedev(major, minor))


def test_a_terminal_is_opened_only_while_a_live_holder_leases_it(terminal: Terminal) -> None:
    assert refused(terminal.path) is ScannerIssue.NOT_SERIAL  # nobody offers it
    lease(terminal.path)
    assert check(terminal.path) == Allowed(terminal.path)
    release(terminal.path)
    assert not lease_of(terminal.path).exists()
    assert refused(terminal.path) is ScannerIssue.NOT_SERIAL
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    lease(terminal.path, gone.pid)  # a holder that ended
    assert refused(terminal.path) is ScannerIssue.NOT_SERIAL
    with subprocess.Popen([sys.executable, "-c", "input()"], stdin=subprocess.PIPE) as other:
        lease(terminal.path, other.pid)  # alive, but it does not hold the terminal
        assert refused(terminal.path) is ScannerIssue.NOT_SERIAL
        other.communicate(b"\n")
    assert terminal.untouched()


def test_a_link_to_an_unleased_terminal_is_refused_too(tmp_path: Path, terminal: Terminal) -> None:
    (tmp_path / "by-id").symlink_to(terminal.path)  # no lock beside it
    assert refused(str(tmp_path / "by-id")) is ScannerIssue.NOT_SERIAL
    lease(terminal.path)
    assert check(str(tmp_path / "by-id")) == Allowed(terminal.path)


def test_a_programs_controlling_terminal_is_never_opened(
    tmp_path: Path, terminal: Terminal
) -> None:
    """Even leased: a program that has the terminal as its own (a shell in
    it) would have its typing taken and its modes changed."""
    shell = subprocess.Popen(
        [sys.executable, "-c",
         "import os, sys; os.setsid(); os.open(sys.argv[1], os.O_RDWR); print('in', flush=True);"
         " sys.stdin.readline()", terminal.path],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert shell.stdout is not None and shell.stdout.readline() == "in\n"
        holder = controlling(Path(terminal.path).stat().st_rdev)
        assert holder is not None and holder[0] == shell.pid
        lease(terminal.path)
        verdict = check(terminal.path)
        assert isinstance(verdict, PortRefusal) and verdict.kind is ScannerIssue.OTHERS_TERMINAL
        assert verdict.count == shell.pid and verdict.detail
        events = Events()
        with ScannerLink(terminal.path, events, Registry(tmp_path / "registry.json"), QUICK):
            events.wait(lambda items: any(isinstance(e, ScannerProblem) for e in items))
        problem = next(e for e in events.items if isinstance(e, ScannerProblem))
        assert problem.kind is ScannerIssue.OTHERS_TERMINAL and problem.count == shell.pid
        assert events.count(ScannerFound) == 0
        assert terminal.untouched()
    finally:
        shell.communicate("\n", timeout=10)


def test_the_link_writes_nothing_to_a_terminal_nobody_offers(
    tmp_path: Path, terminal: Terminal
) -> None:
    events = Events()
    with ScannerLink(terminal.path, events, Registry(tmp_path / "registry.json"), QUICK):
        events.wait(lambda items: any(isinstance(e, ScannerProblem) for e in items))
    problem = next(e for e in events.items if isinstance(e, ScannerProblem))
    assert problem.kind is ScannerIssue.NOT_SERIAL and problem.port == terminal.path
    assert "neither a serial port nor a running virtual scanner" in problem.reason
    assert events.count(ScannerFound) == 0
    assert terminal.untouched()


def test_the_app_says_why_it_does_not_open_a_terminal(tmp_path: Path, terminal: Terminal) -> None:
    """``companion --scanner /dev/pts/N`` with a terminal that is not a
    scanner's: the player hears why, and the terminal gets not a byte."""
    app = Conversation(tmp_path, "--scanner", terminal.path)
    first_start(app)
    app.heard(f"Not opened: {terminal.path} is neither a serial port nor a running virtual "
              "scanner. Choose the scanner's port. Typed codes still work.")
    app.answer("Choose 1 to 6:", "6")
    assert app.close() == 0
    assert terminal.untouched()
