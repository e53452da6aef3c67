"""The serial link against a virtual board: every fault the issue names."""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
import tracemalloc
import tty
from pathlib import Path

import pytest

import firmware_bridge
from companion.games.sushigo.plugin import PLUGIN as VOCABULARY
from firmware_bridge.events import (
    CardIdentified,
    ScannerFound,
    ScannerIssue,
    ScannerLost,
    ScannerProblem,
    Source,
)
from firmware_bridge.link import ScannerLink, autodetect
from firmware_bridge.protocol import format_line
from firmware_bridge.registry import Registry, demo_uid
from firmware_bridge.virtual import VirtualScanner, lease, live_terminal, lock_of, release
from tests.firmware_bridge.helpers import QUICK, Events


def connected(tmp_path: Path, scanner: VirtualScanner, events: Events) -> ScannerLink:
    assert scanner.link is not None
    link = ScannerLink(str(scanner.link), events, Registry(tmp_path / "registry.json"), QUICK)
    link.start()
    events.wait_found()
    return link


def test_scans_become_cards_and_unknown_tags_stay_unknown(tmp_path: Path) -> None:
    scanner = VirtualScanner(link=tmp_path / "scanner")
    events = Events()
    with connected(tmp_path, scanner, events):
        scanner.scan(demo_uid(VOCABULARY, "salmon"))
        scanner.scan("04A1B2C3D4E5F6")
        cards = events.wait_cards(2)
    scanner.close()
    assert [(c.game, c.card, c.uid, c.seq, c.source) for c in cards] == [
        ("sushigo", "salmon", "DEC0DE07000000", 0, Source.SCANNER),
        (None, None, "04A1B2C3D4E5F6", 1, Source.SCANNER),
    ]


def test_an_enrolled_tag_is_known(tmp_path: Path) -> None:
    registry = Registry(tmp_path / "registry.json")
    registry.enrol("04A1B2C3D4E5F6", "sushigo", "squid")
    scanner = VirtualScanner(link=tmp_path / "scanner")
    events = Events()
    link = ScannerLink(str(scanner.link), events, Registry.load(tmp_path / "registry.json"), QUICK)
    with link:
        events.wait_found()
        scanner.scan("04:A1:B2:C3:D4:E5:F6".replace(":", ""))
        card = events.wait_cards(1)[0]
        assert (card.game, card.card) == ("sushigo", "squid")
    scanner.close()


def test_a_repeated_line_counts_once_and_a_gap_is_reported(tmp_path: Path) -> None:
    scanner = VirtualScanner(link=tmp_path / "scanner")
    events = Events()
    with connected(tmp_path, scanner, events) as link:
        line = format_line("CARD DEADBEEF 5")
        scanner.write(line + line)
        scanner.write(format_line("CARD CAFEBABE 8"))
        events.wait_cards(2)
        events.wait(lambda items: any(isinstance(e, ScannerProblem) for e in items))
        time.sleep(0.2)
        assert [c.uid for c in events.cards()] == ["DEADBEEF", "CAFEBABE"]
        assert link.counters.repeats == 1 and link.counters.dropped == 2
    scanner.close()


def test_bit_errors_floods_and_huge_lines_lose_no_valid_scan(tmp_path: Path) -> None:
    scanner = VirtualScanner(link=tmp_path / "scanner")
    events = Events()
    rng = random.Random(1)
    with connected(tmp_path, scanner, events) as link:
        sent = []
        for n in range(40):
            kind = n % 4
            if kind == 0:
                scanner.write(b"CARD DEADBEEF 1*00\n")  # bad checksum
            elif kind == 1:
                scanner.write(bytes(rng.randrange(256) for _ in range(300)) + b"\n")
            elif kind == 2:
                scanner.write(b"A" * 10_000 + b"\n")
            uid = f"{n:08X}"
            scanner.scan(uid)
            sent.append(uid)
        cards = events.wait_cards(40)
        assert [c.uid for c in cards] == sent
        assert link.counters.bad_lines >= 30
    scanner.close()
    problems = [e for e in events.items if isinstance(e, ScannerProblem)]
    assert problems and all("ignored" in p.reason or "lost" in p.reason for p in problems)
    assert {p.kind for p in problems} <= {ScannerIssue.GARBLED, ScannerIssue.LOST_SCANS}
    assert all(p.count > 0 for p in problems)


def test_a_truncated_first_line_after_opening_is_shrugged_off(tmp_path: Path) -> None:
    scanner = VirtualScanner(link=tmp_path / "scanner")
    scanner.write(b"D4E5F6 12*3A\nCARD 04A1")  # the tail of something sent before
    events = Events()
    with connected(tmp_path, scanner, events):
        scanner.scan("DEADBEEF")
        assert events.wait_cards(1)[0].uid == "DEADBEEF"
    scanner.close()


def test_a_board_reset_mid_line_restarts_its_numbers(tmp_path: Path) -> None:
    scanner = VirtualScanner(link=tmp_path / "scanner")
    events = Events()
    with connected(tmp_path, scanner, events) as link:
        scanner.scan("00000001")
        scanner.scan("00000002")
        events.wait_cards(2)
        scanner.reset(cut_line=True)
        scanner.scan("00000003")  # sequence 0 again, and not a repeat
        cards = events.wait_cards(3)
        assert [c.seq for c in cards] == [0, 1, 0]
        assert link.counters.repeats == 0
    scanner.close()


def test_unplug_and_plug_back_mid_game(tmp_path: Path) -> None:
    scanner = VirtualScanner(link=tmp_path / "scanner")
    events = Events()
    with connected(tmp_path, scanner, events):
        scanner.scan("00000001")
        events.wait_cards(1)
        scanner.unplug()
        events.wait_lost()
        scanner.plug()
        events.wait_found(2)
        scanner.scan("00000002")
        scanner.scan("00000002".replace("2", "3"))
        cards = events.wait_cards(3)
    scanner.close()
    assert [c.uid for c in cards] == ["00000001", "00000002", "00000003"]
    found = [e for e in events.items if isinstance(e, ScannerFound)]
    assert [f.again for f in found] == [False, True]
    assert isinstance(next(e for e in events.items if isinstance(e, ScannerLost)), ScannerLost)


def test_silence_is_a_lost_scanner_and_its_return_is_noticed(tmp_path: Path) -> None:
    scanner = VirtualScanner(link=tmp_path / "scanner")
    events = Events()
    with connected(tmp_path, scanner, events):
        scanner.answer = False
        events.wait_lost(timeout=5)
        lost = next(e for e in events.items if isinstance(e, ScannerLost))
        assert "no answer" in lost.reason
        scanner.answer = True
        events.wait_found(2, timeout=5)
        scanner.scan("0000000A")
        assert events.wait_cards(1)[0].uid == "0000000A"
    scanner.close()


def test_a_device_speaking_something_else_is_named_not_trusted(tmp_path: Path) -> None:
    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    lease(path)  # offered as a scanner: opened, heard, not trusted
    os.write(master, b"AT+OK\r\nGPS $GPGGA,123519,4807.038,N\r\n")
    events = Events()
    link = ScannerLink(path, events, Registry(tmp_path / "registry.json"), QUICK)
    with link:
        for _ in range(20):
            os.write(master, b"$GPGGA,123519,4807.038,N,01131.000,E*47\r\n")
            time.sleep(0.05)
        events.wait(lambda items: any(isinstance(e, ScannerProblem) for e in items))
    release(path)
    os.close(master)
    os.close(slave)
    problem = next(e for e in events.items if isinstance(e, ScannerProblem))
    assert "does not speak the scanner protocol" in problem.reason
    assert problem.kind is ScannerIssue.FOREIGN_DEVICE
    assert events.count(ScannerFound) == 0


def test_autodetect_finds_a_known_usb_adapter(monkeypatch: pytest.MonkeyPatch) -> None:
    class Port:
        def __init__(self, device: str, vid: int | None, pid: int | None) -> None:
            self.device, self.vid, self.pid = device, vid, pid

    ports = [Port("/dev/ttyS0", None, None), Port("/dev/ttyUSB3", 0x1A86, 0x7523)]
    monkeypatch.setattr("firmware_bridge.link.list_ports.comports", lambda: ports)
    assert autodetect() == "/dev/ttyUSB3"
    monkeypatch.setattr("firmware_bridge.link.list_ports.comports", lambda: ports[:1])
    assert autodetect() in (None, *(str(p) for p in Path("/dev/serial/by-id").glob("*")))


def test_a_board_that_resets_when_its_port_opens_loses_no_scan(tmp_path: Path) -> None:
    scanner = VirtualScanner(link=tmp_path / "scanner")
    events = Events()
    with connected(tmp_path, scanner, events):
        for n in range(70):  # more numbers than the tracker remembers
            scanner.scan(f"{n:08X}")
        events.wait_cards(70)
        scanner.unplug()
        events.wait_lost()
        scanner.plug()
        scanner.reset()  # an Uno resets when its port is opened: numbers from 0 again
        events.wait_found(2)
        for n in range(5):  # the same tags under the same numbers as before
            scanner.scan(f"{n:08X}")
        cards = events.wait_cards(75)
    scanner.close()
    assert [c.uid for c in cards[70:]] == [f"{n:08X}" for n in range(5)]


def test_a_newer_boards_messages_and_fields_are_ignored_quietly(tmp_path: Path) -> None:
    scanner = VirtualScanner(link=tmp_path / "scanner")
    events = Events()
    with connected(tmp_path, scanner, events) as link:
        scanner.send("BATTERY 87")  # a message this version does not know
        scanner.send("CARD DEADBEEF 0 rssi=-40")  # a field added at the end
        assert events.wait_cards(1)[0].uid == "DEADBEEF"
        assert link.counters.ignored == 1 and link.counters.bad_lines == 0
    scanner.close()


def test_a_port_that_does_not_exist_is_named(tmp_path: Path) -> None:
    events = Events()
    link = ScannerLink(str(tmp_path / "nothing-here"), events,
                       Registry(tmp_path / "registry.json"), QUICK)
    with link:
        events.wait(lambda items: any(isinstance(e, ScannerProblem) for e in items))
    problem = next(e for e in events.items if isinstance(e, ScannerProblem))
    assert "there is no port" in problem.reason and "nothing-here" in problem.reason
    assert problem.kind is ScannerIssue.NO_PORT and problem.port == str(tmp_path / "nothing-here")
    assert events.count(ScannerLost) == 0


def test_a_port_that_cannot_be_opened_is_named(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        url = f"socket://127.0.0.1:{probe.getsockname()[1]}"
    events = Events()
    with ScannerLink(url, events, Registry(tmp_path / "registry.json"), QUICK):
        events.wait(lambda items: any(isinstance(e, ScannerProblem) for e in items))
    problem = next(e for e in events.items if isinstance(e, ScannerProblem))
    assert "cannot use" in problem.reason and url in problem.reason
    assert problem.kind is ScannerIssue.CANNOT_OPEN and problem.detail
    assert events.count(ScannerLost) == 0


def test_a_quitting_virtual_scanner_takes_its_link_away(tmp_path: Path) -> None:
    link = tmp_path / "virtual-scanner"
    scanner = VirtualScanner(link=link)
    assert live_terminal(link) == scanner.path  # alive, ours, holding its terminal
    scanner.unplug()  # the cable out: the scanner still runs, its terminal is closed
    assert live_terminal(link) is None
    scanner.plug()
    assert live_terminal(link) == scanner.path
    scanner.close()
    assert not link.is_symlink() and not lock_of(link).exists()


def test_a_stale_link_to_another_programs_terminal_is_never_opened(tmp_path: Path) -> None:
    """A simulator killed without cleaning up (SIGKILL) leaves its link and its
    lock; the system gives its terminal number to another program. The app
    must write nothing there."""
    simulator = subprocess.Popen(
        [sys.executable, "-m", "firmware_bridge", "simulate", "--link",
         str(tmp_path / "virtual-scanner")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert simulator.stdout is not None
    assert simulator.stdout.readline().startswith("PORT ")
    simulator.kill()
    simulator.wait()
    link = tmp_path / "virtual-scanner"
    assert link.is_symlink() and lock_of(link).exists()  # left behind
    # another program's terminal, where the dead scanner's was
    master, slave = os.openpty()
    tty.setraw(master)
    other = os.ttyname(slave)
    facts = json.loads(lock_of(link).read_text())
    lock_of(link).write_text(json.dumps({**facts, "pty": other}))
    link.unlink()
    link.symlink_to(other)
    events = Events()
    try:
        with ScannerLink(str(link), events, Registry(tmp_path / "registry.json"), QUICK):
            events.wait(lambda items: any(isinstance(e, ScannerProblem) for e in items))
        problem = next(e for e in events.items if isinstance(e, ScannerProblem))
        assert problem.kind is ScannerIssue.STALE_LINK
        os.set_blocking(master, False)
        with pytest.raises(BlockingIOError):
            os.read(master, 1024)  # not a byte: no HELLO?, nothing
        assert events.count(ScannerFound) == 0
    finally:
        os.close(master)
        os.close(slave)


def test_a_board_that_starts_again_unheard_loses_no_scan(tmp_path: Path) -> None:
    """The issue's case: a board resets and its HELLO never arrives. Its
    numbers start again at 0: every later scan is taken (it was 50 of 50
    dropped), the same tags under the same numbers too, and no loss is said."""
    scanner = VirtualScanner(link=tmp_path / "scanner")
    events = Events()
    with connected(tmp_path, scanner, events) as link:
        for n in range(70):  # more numbers than the old tracker remembered
            scanner.scan(f"{n:08X}")
        events.wait_cards(70)
        scanner.reset(hello=False)
        for n in range(50):  # the same tags under the same numbers as before
            scanner.scan(f"{n:08X}")
        cards = events.wait_cards(120)
        scanner.reset(hello=False)
        scanner.scan("DEADBEEF")  # once more, and at 0 again after a short run
        cards = events.wait_cards(121)
        assert (link.counters.restarts, link.counters.repeats, link.counters.dropped) == (2, 0, 0)
    scanner.close()
    assert [(c.uid, c.seq) for c in cards[70:120]] == [(f"{n:08X}", n) for n in range(50)]
    assert (cards[120].uid, cards[120].seq) == ("DEADBEEF", 0)
    assert not any(isinstance(e, ScannerProblem) for e in events.items)


def test_a_hello_at_any_time_starts_the_numbers_again(tmp_path: Path) -> None:
    scanner = VirtualScanner(link=tmp_path / "scanner")
    events = Events()
    with connected(tmp_path, scanner, events) as link:
        scanner.scan("00000001")
        scanner.scan("00000002")
        events.wait_cards(2)
        scanner.send("HELLO tactile-scanner proto=1 fw=1.0.0")  # a reset, heard
        scanner.write(format_line("CARD 00000002 1"))  # its second scan: the same line
        scanner.write(format_line("CARD 00000003 2"))
        cards = events.wait_cards(4)
        assert link.counters.repeats == 0
    scanner.close()
    assert [(c.uid, c.seq) for c in cards] == [
        ("00000001", 0), ("00000002", 1), ("00000002", 1), ("00000003", 2)]


@pytest.mark.slow
def test_a_flood_of_distinct_tags_keeps_the_links_memory_bounded(tmp_path: Path) -> None:
    """20,000 different tags: what the bridge keeps does not grow with them
    (the list of tags seen grew without bound: 21 to 54 MB in 20 s)."""
    received = threading.Semaphore(0)
    link = ScannerLink(None, lambda e: received.release() if isinstance(e, CardIdentified)
                       else None, Registry(tmp_path / "registry.json"), QUICK)
    here = {"seq": 0}

    def flood(count: int) -> None:
        for _ in range(count):
            seq = here["seq"]
            here["seq"] = (seq + 1) % 65536
            assert link._handle(format_line(f"CARD {0xA0000000 + seq:08X} {seq}"), "flood")
            assert received.acquire(timeout=0)

    bridge = tracemalloc.Filter(True, str(Path(firmware_bridge.__file__).parent / "*"))
    tracemalloc.start(5)
    try:
        flood(1_000)  # warm: the registry's and the tracker's first allocations
        before = tracemalloc.take_snapshot().filter_traces([bridge])
        flood(20_000)
        after = tracemalloc.take_snapshot().filter_traces([bridge])
    finally:
        tracemalloc.stop()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    assert link.counters.cards == 21_000
    assert grown < 16_384, f"the bridge kept {grown} bytes more after 20,000 tags"
