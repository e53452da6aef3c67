"""Told to end (Control C, SIGTERM, the terminal hanging up) or quitting,
both faces end cleanly on a real pseudo-terminal: no traceback, plain mode says
goodbye, and the terminal is given back as it was (echo and line editing
on, the full screen's alternate screen left)."""

from __future__ import annotations

import fcntl
import os
import pty
import random
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from dataclasses import dataclass
from pathlib import Path

import pytest


def _read_until(master: int, wanted: bytes, timeout: float = 30) -> bytes:
    seen = b""
    end = time.monotonic() + timeout
    while wanted not in seen and time.monotonic() < end:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                seen += os.read(master, 65536)
            except OSError:
                break
    assert wanted in seen, seen[-500:]
    return seen


@pytest.mark.sampled
@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP, 0],
                         ids=["control-c", "sigterm", "sighup", "quit"])
@pytest.mark.parametrize("plain", [True, False], ids=["plain", "full"])
def test_an_ending_signal_ends_cleanly(plain: bool, number: int, tmp_path: Path) -> None:
    """(``quit``: no signal, the player quits: the word in plain mode,
    Control Q in the full screen.)"""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 25, 80, 0, 0))
    before = termios.tcgetattr(slave)
    env = {**os.environ, "COMPANION_DATA_DIR": str(tmp_path / "data"),
           "COMPANION_CONFIG_DIR": str(tmp_path / "config"), "TERM": "xterm-256color",
           "LANG": "C.UTF-8"}
    command = [sys.executable, "-m", "companion", *(["--plain"] if plain else [])]
    process = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=env,
                               start_new_session=True)
    try:
        # the first question: both faces take the signals by then
        seen = _read_until(master, b"Choose 1 to 4:")
        if number:
            os.kill(process.pid, number)
        else:
            os.write(master, b"quit\r" if plain else b"\x11")
        rest = b""
        end = time.monotonic() + 60
        while time.monotonic() < end:  # read all it writes until it has ended
            ready = select.select([master], [], [], 0.1)[0]
            chunk = b""
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    chunk = b""
            rest += chunk
            if not chunk and process.poll() is not None:
                break
        # the status names the signal (128 + its number), as the shell names it
        assert process.wait(timeout=10) == (128 + number if number else 0)
        written = seen + rest
        assert b"Traceback" not in written, written[-800:]
        if plain:
            # (each row it writes is erased to its end first: no old text beside it)
            assert written.replace(b"\x1b[K", b"").rstrip().endswith(b"Goodbye."), \
                written[-200:]
        else:
            assert b"\x1b[?1049l" in rest  # out of the alternate screen
        after = termios.tcgetattr(slave)
        assert after[3] & (termios.ECHO | termios.ICANON) == before[3] & (
            termios.ECHO | termios.ICANON)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(master)
        os.close(slave)


# -- told to end at any moment -------------------------------------------------------------------

#: Take the terminal on standard input as the controlling terminal of the
#: new session (so that Control C typed on it is SIGINT), then become the app.
CONTROLLING = ("import fcntl, os, sys, termios; fcntl.ioctl(0, termios.TIOCSCTTY, 0); "
               "os.execv(sys.argv[1], sys.argv[1:])")
#: How long a start may take on a loaded machine, and the app to end.
PATIENCE = 120.0
#: How each way of ending is given: a signal sent, or a key typed on the terminal.
ENDINGS: dict[str, int | bytes] = {
    "sigint": signal.SIGINT, "sigterm": signal.SIGTERM, "sighup": signal.SIGHUP,
    "control-c": b"\x03", "control-d": b"\x04",
}
#: The statuses each may end the app with: 128 + the signal's number, as
#: the shell says it; or, for Control C, killed by SIGINT, which the shell
#: says as 130 too (Python ends so when an interruption has gone through a
#: string it runs, such as a dataclass's code being made, even caught
#: later); Control D ends the input: 0.
STATUS = {"sigint": {130, -signal.SIGINT}, "sigterm": {143}, "sighup": {129},
          "control-c": {130, -signal.SIGINT}, "control-d": {0}}
#: Caught from the app's first line on (the last signal it takes, in
#: /proc/PID/status): before that, what a signal does is Python's.
QUIT_CAUGHT = 1 << (signal.SIGQUIT - 1)


def signals_taken(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = next(line for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(caught.split()[1], 16) & QUIT_CAUGHT)


def practice_game(data: Path, picks: int, seed: int) -> tuple[int, str]:
    """A practice game in the store, ``picks`` turns in: its events, and a
    pick the player may make next."""
    from companion.games.sushigo.session import PracticeSession  # noqa: PLC0415
    from companion.store import Store  # noqa: PLC0415

    rng = random.Random(seed)
    session = PracticeSession.start(["You", "Bot 1"], [None, "greedy"], seed=seed,
                                    directory=data / "journals")
    for _ in range(picks):
        session.choose(0, session.game.legal_choices(0).sample(rng))
        session.play_bots(rng)
    events, pick = len(session.journal.events), str(session.game.legal_choices(0).sample(rng))
    session.close()
    Store.forget()
    return events, pick


@dataclass
class Ending:
    """One way of ending, at one moment: after ``delay`` seconds (from the
    app's first line for Control C and SIGINT, from its start for the
    others), or once the app has written ``after`` bytes."""

    how: str
    delay: float | None = None
    after: int | None = None


def moments() -> list[Ending]:
    rng = random.Random(20261203)
    made = []
    for how in ENDINGS:
        made += [Ending(how, delay=delay) for delay in (0.0, 0.001, 0.005, 0.02)]
        made += [Ending(how, delay=rng.uniform(0.02, 1.5)) for _ in range(2)]
        # (the app writes some 420 bytes up to the pick's next turn)
        made += [Ending(how, after=after) for after in (1, rng.randrange(2, 150),
                                                        rng.randrange(150, 380))]
    return made


@pytest.mark.sampled
@pytest.mark.parametrize("ending", moments(), ids=lambda e: f"{e.how}-"
                         + (f"{e.delay * 1000:.0f}ms" if e.delay is not None else f"{e.after}B"))
def test_told_to_end_at_any_moment_ends_cleanly_and_saved(ending: Ending,
                                                          tmp_path: Path) -> None:
    """The app resumes a practice game and the player picks a card, as the
    app is told to end: a signal or a key, at a moment from its first
    millisecond (in its imports, its start, the resume offer, the pick,
    the goodbye). Whenever it comes: no traceback, the known status, the
    terminal given back as it was, and the game on disk with the pick
    (if the app went on to the next turn) or without it, never half of it;
    and it is offered again at the next start."""
    from companion.journal import Journal, load, unfinished  # noqa: PLC0415
    from companion.store import Store  # noqa: PLC0415

    data = tmp_path / "data"
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.toml").write_text('speech = "none"\n')
    events, pick = practice_game(data, picks=2, seed=len(tmp_path.name))
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 25, 80, 0, 0))
    before = termios.tcgetattr(slave)
    env = {**os.environ, "COMPANION_DATA_DIR": str(data),
           "COMPANION_CONFIG_DIR": str(tmp_path / "config"), "TERM": "xterm-256color",
           "LANG": "C.UTF-8"}
    command = [sys.executable, "-c", CONTROLLING, sys.executable, "-m", "companion", "--plain"]
    began = time.monotonic()
    process = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=env,
                               start_new_session=True)
    given = ENDINGS[ending.how]
    written = b""
    told = False
    answered: set[bytes] = set()
    try:
        start = began if ending.how in ("sigterm", "sighup", "control-d") else None
        while True:
            if start is None and signals_taken(process.pid):
                start = time.monotonic()
            due = not told and (
                (ending.delay is not None and start is not None
                 and time.monotonic() - start >= ending.delay)
                or (ending.after is not None and len(written) >= ending.after))
            if due and (ending.how != "control-d" or b"Choose 1 to 4: " in written):
                # (Control D is the app's once it asks: before, the terminal's own)
                if isinstance(given, int):
                    os.kill(process.pid, given)
                else:
                    os.write(master, given)
                told = True
            ready = select.select([master], [], [], 0.0005 if not told else 0.05)[0]
            if ready:
                try:
                    written += os.read(master, 65536)
                except OSError:  # every end of the terminal's other side is closed
                    ready = []
            for prompt, answer in ((b"Choose 1 to 4: ", b"1\r"),
                                   (b"Your pick: ", pick.encode() + b"\r")):
                if prompt in written and prompt not in answered:
                    answered.add(prompt)
                    os.write(master, answer)
            if process.poll() is not None and not ready:
                break
            assert time.monotonic() - began < PATIENCE, (ending, written[-2000:])
        status = process.wait(PATIENCE)
        assert b"Traceback" not in written, written[-3000:]
        known = set(STATUS[ending.how])
        if ending.how in ("sigterm", "sighup"):  # before the app took it: it was killed
            known.add(-ENDINGS[ending.how])  # type: ignore[operator]
        assert told, f"the app ended before it was told to: {written[-1000:]!r}"
        assert status in known, (status, ending, written[-1500:])
        assert termios.tcgetattr(slave)[3] & (termios.ECHO | termios.ICANON) == (
            before[3] & (termios.ECHO | termios.ICANON)), "the terminal was left without echo"
        Store.forget()
        (path,) = unfinished(data / "journals")
        saved = len(load(path).events)
        if b"turn 4." in written:  # the pick was taken: the next turn was said
            assert saved == events + 2, (saved, events, written[-1500:])
        else:
            assert saved in (events, events + 2), (saved, events)
        journal, _ = Journal.open(path)  # not held by the ended app
        journal.close()
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(PATIENCE)
        os.close(master)
        os.close(slave)
        Store.forget()


@pytest.mark.sampled
@pytest.mark.parametrize("delay", [0.0, 0.2, 0.6, 1.2, 2.0, 3.0], ids=lambda d: f"{d * 1000:.0f}ms")
@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["sigint", "sigterm"])
def test_the_full_screen_told_to_end_while_it_starts(number: int, delay: float,
                                                     tmp_path: Path) -> None:
    """The full screen told to end while Textual starts (before the screen
    takes the signals itself): it ends once it is up, with no traceback, the
    signal's status, and the terminal given back (out of the alternate
    screen, echo and line editing on)."""
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.toml").write_text('speech = "none"\n')
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 25, 80, 0, 0))
    before = termios.tcgetattr(slave)
    env = {**os.environ, "COMPANION_DATA_DIR": str(tmp_path / "data"),
           "COMPANION_CONFIG_DIR": str(tmp_path / "config"), "TERM": "xterm-256color",
           "LANG": "C.UTF-8"}
    process = subprocess.Popen([sys.executable, "-m", "companion"], stdin=slave, stdout=slave,
                               stderr=slave, env=env, start_new_session=True)
    written = b""
    try:
        began = time.monotonic()
        while not signals_taken(process.pid):
            assert time.monotonic() - began < PATIENCE and process.poll() is None
            time.sleep(0.0005)
        time.sleep(delay)
        os.kill(process.pid, number)
        while True:
            ready = select.select([master], [], [], 0.05)[0]
            if ready:
                try:
                    written += os.read(master, 65536)
                except OSError:
                    ready = []
            if process.poll() is not None and not ready:
                break
            assert time.monotonic() - began < PATIENCE, written[-2000:]
        known = {128 + number} | ({-signal.SIGINT} if number == signal.SIGINT else set())
        assert process.wait(PATIENCE) in known, written[-2000:]  # (-SIGINT: see STATUS)
        assert b"Traceback" not in written, written[-3000:]
        if b"\x1b[?1049h" in written:
            assert written.rindex(b"\x1b[?1049l") > written.rindex(b"\x1b[?1049h")
        after = termios.tcgetattr(slave)
        assert after[3] & (termios.ECHO | termios.ICANON) == before[3] & (
            termios.ECHO | termios.ICANON)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(PATIENCE)
        os.close(master)
        os.close(slave)
