"""The full-screen app in a real pseudo-terminal, read back with pyte the way
a braille display or a console screen reader reads it: the cursor row holds
what has the focus, and an idle app writes nothing."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyte

COLUMNS, ROWS = 80, 24


class Terminal:
    def __init__(self, home: Path) -> None:
        env = {**os.environ, "COMPANION_DATA_DIR": str(home / "data"),
               "COMPANION_CONFIG_DIR": str(home / "config"), "TERM": "xterm-256color",
               "COLUMNS": str(COLUMNS), "LINES": str(ROWS), "LANG": "en_GB.UTF-8"}
        self.master, slave = pty.openpty()
        os.set_blocking(self.master, False)
        import fcntl  # noqa: PLC0415 - only to size the terminal
        import struct  # noqa: PLC0415
        import termios  # noqa: PLC0415

        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion"], stdin=slave, stdout=slave, stderr=slave,
            env=env, start_new_session=True,
        )
        os.close(slave)
        self.screen = pyte.Screen(COLUMNS, ROWS)
        self.stream = pyte.ByteStream(self.screen)

    def pump(self, seconds: float) -> int:
        """Read what the app writes for a while; how many bytes it wrote."""
        end = time.monotonic() + seconds
        total = 0
        while time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], 0.02)
            if ready:
                try:
                    data = os.read(self.master, 65536)
                except OSError:
                    break
                total += len(data)
                self.stream.feed(data)
        return total

    def until(self, text: str, timeout: float = 20) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.pump(0.05)
            if any(text in line for line in self.screen.display):
                self.pump(0.2)
                return
        raise AssertionError(f"{text!r} never shown: {self.screen.display}")

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def cursor_line(self) -> str:
        return self.screen.display[self.screen.cursor.y]

    def close(self) -> None:
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        os.close(self.master)


def test_the_cursor_sits_on_the_focused_answer_and_idle_means_silent(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path)
    try:
        terminal.until("Choose 1 to 4:")
        assert terminal.screen.cursor.y == ROWS - 1, "the cursor is on the answer line"
        assert terminal.pump(2.0) == 0, "an idle app writes nothing"
        terminal.type("1")  # English
        terminal.pump(0.5)
        assert "1" in terminal.cursor_line()  # what is being typed, at the cursor
        terminal.type("\r")
        terminal.until("Choose 1 to 2:")
        assert terminal.screen.cursor.y == ROWS - 1
        assert terminal.cursor_line().strip() == ""  # the answer line, emptied for the next
        status = terminal.screen.display[ROWS - 2]
        assert status.startswith("Choose 1 to 2:"), status  # the key fact, first cells
        assert terminal.pump(2.0) == 0
        assert not any(ch in "".join(terminal.screen.display) for ch in "┌┐└┘│─")
    finally:
        terminal.close()
