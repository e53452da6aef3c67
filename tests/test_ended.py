"""Told to end (Control C, SIGTERM, the terminal hanging up) or quitting,
both faces end cleanly on a real pseudo-terminal: no traceback, plain mode says
goodbye, and the terminal is given back as it was (echo and line editing
on, the full screen's alternate screen left)."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time
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
        assert process.wait(timeout=10) == 0
        written = seen + rest
        assert b"Traceback" not in written, written[-800:]
        if plain:
            assert written.rstrip().endswith(b"Goodbye."), written[-200:]
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
