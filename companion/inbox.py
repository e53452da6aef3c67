"""Everything the player gives the app, in the order it came: lines typed
(or typed by a keyboard-wedge scanner) and events from the serial scanner.

The journeys read it from their own thread; the keyboard (standard input,
or the full-screen interface) and the scanner's link write to it from
theirs. A queue hands each item over safely, whatever thread wrote it.

>>> inbox = Inbox()
>>> inbox.put_line("w2")
>>> inbox.end()
>>> inbox.get(), inbox.get()
('w2', None)
"""

from __future__ import annotations

import queue
import threading
import time
from typing import Protocol

from firmware_bridge.events import InputEvent

#: What the journeys read: a line (without its newline), a scanner event,
#: or ``None`` when the input has ended.
Item = str | InputEvent | None


class LineReader(Protocol):
    def readline(self) -> str: ...


class Inbox:
    """A thread-safe queue of typed lines and scanner events."""

    def __init__(self) -> None:
        self._queue: queue.Queue[tuple[float, Item]] = queue.Queue()
        #: When the item just read arrived (``time.monotonic``): a card that
        #: came before the question it would answer was asked is not its answer.
        self.arrived = 0.0

    def put_line(self, line: str) -> None:
        """A line the player typed (or a wedge scanner typed), without newline."""
        self._queue.put((time.monotonic(), line.rstrip("\r\n")))

    def post(self, event: InputEvent) -> None:
        """An event from the scanner's link (called from the link's thread)."""
        self._queue.put((time.monotonic(), event))

    __call__ = post

    def end(self) -> None:
        """No more input will come (end of file, or the window closed)."""
        self._queue.put((time.monotonic(), None))

    def get(self) -> Item:
        """The next item, waiting for it."""
        self.arrived, item = self._queue.get()
        return item

    def readline(self) -> str:
        """The next typed line with its newline, ``""`` at the end; scanner
        events on the way are skipped (for readers that only take lines)."""
        while True:
            item = self.get()
            if item is None:
                return ""
            if isinstance(item, str):
                return item + "\n"

    def pump(self, source: LineReader) -> threading.Thread:
        """Copy ``source``'s lines in from a thread of its own, until it ends."""

        def copy() -> None:
            try:
                for line in iter(source.readline, ""):
                    self.put_line(line)
            except (OSError, ValueError):
                pass  # the input was closed under us: the same as its end
            self.end()

        thread = threading.Thread(target=copy, name="keyboard", daemon=True)
        thread.start()
        return thread
