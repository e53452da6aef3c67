"""The real firmware, built with avr-gcc, running in simavr with an emulated
MFRC522: tags placed and taken away, read through the real serial path."""

from __future__ import annotations

import contextlib
import os
import select
import subprocess
import threading
import time
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.games.sushigo.plugin import PLUGIN as VOCABULARY
from firmware_bridge.events import ScannerFound, ScannerProblem
from firmware_bridge.link import ScannerLink
from firmware_bridge.registry import Registry, demo_uid
from firmware_bridge.virtual import lease, release
from tests.drivers import PipedApp as Conversation
from tests.drivers import first_start
from tests.firmware_bridge.helpers import QUICK, Events

#: make, avr-gcc and simavr.
pytestmark = pytest.mark.system

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware_bridge" / "firmware"


@pytest.fixture(scope="module")
def built() -> Path:
    """Build the firmware and the simulated board, as `make` does for a user."""
    done = subprocess.run(["make", "-C", str(FIRMWARE), "all", "sim"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    elf = FIRMWARE / "build" / "scanner.elf"
    assert elf.stat().st_size > 0 and (FIRMWARE / "build" / "scanner.hex").exists()
    return elf


class Board:
    """The simulated board, driven through its standard input."""

    def __init__(self, elf: Path) -> None:
        self.process = subprocess.Popen(
            [str(FIRMWARE / "build" / "board"), str(elf)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, bufsize=1,
        )
        assert self.process.stdout is not None
        self.port = ""
        for line in self.process.stdout:
            if line.startswith("PTY "):
                self.port = line.split()[1]
                break
        assert self.port.startswith("/dev/pts/")
        # its terminal offered as a scanner's, as a virtual scanner's is
        lease(self.port, self.process.pid)

    def command(self, text: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()

    def kill(self) -> None:
        release(self.port, self.process.pid)
        self.process.kill()
        self.process.wait(timeout=10)


class Cable:
    """A serial cable between the simulated board and the host that can
    lose a line on the way: the board's bytes cross a pseudo-terminal of
    the test's own (leased, as every scanner's terminal is), line by line,
    and the line after :meth:`lose_hello` that says HELLO never arrives."""

    def __init__(self, board_port: str) -> None:
        self.board = os.open(board_port, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.board)
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        lease(self.path)
        self.lost: list[bytes] = []
        self._losing = threading.Event()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._carry, daemon=True)
        self._thread.start()

    def lose_hello(self) -> None:
        self._losing.set()

    def _carry(self) -> None:
        pending = b""
        while not self._done.is_set():
            ready, _, _ = select.select([self.board, self.master], [], [], 0.05)
            if self.master in ready:
                with contextlib.suppress(OSError):
                    os.write(self.board, os.read(self.master, 4096))
            if self.board in ready:
                pending += os.read(self.board, 4096)
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    if self._losing.is_set() and line.startswith(b"HELLO "):
                        self._losing.clear()
                        self.lost.append(line)
                    else:
                        os.write(self.master, line + b"\n")

    def close(self) -> None:
        self._done.set()
        self._thread.join(timeout=5)
        release(self.path)
        for fd in (self.board, self.master, self.slave):
            os.close(fd)


@pytest.fixture
def board(built: Path) -> Iterator[Board]:
    running = Board(built)
    yield running
    running.kill()


def listening(board: Board, tmp_path: Path, events: Events) -> ScannerLink:
    link = ScannerLink(board.port, events, Registry(tmp_path / "registry.json"), QUICK)
    link.start()
    events.wait_found(timeout=15)
    return link


def test_a_tag_placed_is_reported_once_through_the_real_firmware(
    board: Board, tmp_path: Path
) -> None:
    events = Events()
    with listening(board, tmp_path, events):
        found = next(e for e in events.items if isinstance(e, ScannerFound))
        assert found.device == "tactile-scanner" and found.firmware == "1.0.0"
        board.command("place 04A1B2C3D4E5F6")  # 7 bytes: cascade levels 1 and 2
        cards = events.wait_cards(1)
        time.sleep(0.6)  # held on the reader: not reported again
        assert len(events.cards()) == 1
        assert cards[0].uid == "04A1B2C3D4E5F6" and cards[0].card is None
        board.command("remove")
        time.sleep(0.4)
        board.command(f"place {demo_uid(VOCABULARY, 'salmon')}")
        events.wait_cards(2)
        board.command("remove")
        time.sleep(0.4)
        board.command("place DEADBEEF")  # 4 bytes: cascade level 1 only
        cards = events.wait_cards(3)
        assert [c.uid for c in cards][0::2] == ["04A1B2C3D4E5F6", "DEADBEEF"]
        board.command("remove")
        time.sleep(0.4)
        board.command("place 04A1B2C3D4E5F6")  # the first tag again: reported again
        cards = events.wait_cards(4)
    assert [c.uid for c in cards] == [
        "04A1B2C3D4E5F6", demo_uid(VOCABULARY, "salmon"), "DEADBEEF", "04A1B2C3D4E5F6",
    ]
    assert (cards[1].game, cards[1].card) == ("sushigo", "salmon")
    assert [c.seq for c in cards] == [0, 1, 2, 3]


def test_a_board_reset_starts_its_numbers_again_and_loses_nothing(
    board: Board, tmp_path: Path
) -> None:
    events = Events()
    with listening(board, tmp_path, events) as link:
        board.command("place 04A1B2C3")
        events.wait_cards(1)
        board.command("reset")
        board.command("remove")
        time.sleep(0.5)
        board.command("place 0A0B0C0D")
        cards = events.wait_cards(2)
        assert [(c.uid, c.seq) for c in cards] == [("04A1B2C3", 0), ("0A0B0C0D", 0)]
        assert link.counters.repeats == 0


def test_a_board_reset_whose_hello_is_lost_loses_no_scan(board: Board, tmp_path: Path) -> None:
    """The firmware starts again and its HELLO is lost on the cable: the same
    tags come again under the same numbers, and every one is taken (before,
    each was dropped as a repeat, without a word)."""
    cable = Cable(board.port)
    events = Events()
    tags = ["04A1B2C3", "0A0B0C0D", "04A1B2C3D4E5F6"]
    try:
        link = ScannerLink(cable.path, events, Registry(tmp_path / "registry.json"), QUICK)
        with link:
            events.wait_found(timeout=15)
            for n, uid in enumerate(tags, 1):  # a new tag is reported at once
                board.command(f"place {uid}")
                events.wait_cards(n)
            board.command("remove")
            cable.lose_hello()
            board.command("reset")
            for n, uid in enumerate(tags, 4):
                board.command(f"place {uid}")
                events.wait_cards(n)
            assert (link.counters.restarts, link.counters.repeats) == (1, 0)
    finally:
        cable.close()
    assert [(c.uid, c.seq) for c in events.cards()] == [
        (uid, seq) for uid, seq in zip(tags * 2, [0, 1, 2] * 2, strict=True)]
    assert [line.split(b"*")[0] for line in cable.lost] == [
        b"HELLO tactile-scanner proto=1 fw=1.0.0"]
    problems = [e for e in events.items if isinstance(e, ScannerProblem)]
    assert not problems, problems  # the newline before a HELLO is not garbled


def test_unplugging_the_board_is_noticed(board: Board, tmp_path: Path) -> None:
    events = Events()
    with listening(board, tmp_path, events):
        board.command("kill")
        events.wait_lost(timeout=10)


def test_the_app_names_a_card_put_on_the_real_scanner(board: Board, tmp_path: Path) -> None:
    """The whole path a player uses: the firmware in simavr, its serial port,
    and the companion itself (plain mode, a subprocess) learning the codes."""
    app = Conversation(tmp_path, "--scanner", board.port)
    first_start(app)
    app.answer("Choose 1 to 6:", "4")  # learn the codes
    app.answer("Choose 1 to 4:", "1")  # type or scan a card
    app.until("A code or a scan, or an empty line to stop:")
    app.heard("Scanner ready.")
    board.command(f"place {demo_uid(VOCABULARY, 'salmon')}")
    assert app.until(" Code w2.").startswith("Salmon nigiri: ")
    board.command("remove")
    time.sleep(0.4)
    board.command("place 04A1B2C3D4E5F6")
    app.until("Unknown tag 04A1B2C3D4E5F6: enrol it with firmware-bridge enrol.")
    board.command("remove")
    app.send("")
    app.answer("Choose 1 to 6:", "6")
    assert app.close() == 0
