"""Everything the player gives the app, in the order it came: lines typed
(or typed by a keyboard-wedge scanner), options chosen and keys pressed in
the full screen, and events from the serial scanner.

The journeys read it from their own thread; the keyboard (standard input,
or the full screen) and the scanner's link write to it from theirs. A
queue hands each item over safely, whatever thread wrote it.

>>> inbox = Inbox()
>>> inbox.put_line("w2")
>>> inbox.put(Chosen(1))
>>> inbox.end()
>>> inbox.get(), inbox.get(), inbox.get()
(Typed(text='w2'), Chosen(index=1), None)
"""

from __future__ import annotations

import queue
import threading
import time
from typing import Protocol

from companion.conversation.events import Chosen, Item, Typed
from firmware_bridge.events import InputEvent

__all__ = ["Chosen", "Inbox", "Item", "LineReader"]


class LineReader(Protocol):
    def readline(self) -> str: ...


class Inbox:
    """A thread-safe queue of what the player gives."""

    def __init__(self) -> None:
        self._queue: queue.Queue[tuple[float, Item]] = queue.Queue()
        #: When the item just read arrived (``time.monotonic``): a card that
        #: came before the question it would answer was asked is not its answer.
        self.arrived = 0.0

    def put(self, item: Item) -> None:
        """Anything the player gave (from any thread)."""
        self._queue.put((time.monotonic(), item))

    def put_line(self, line: str) -> None:
        """A line the player typed (or a wedge scanner typed), without newline."""
        self.put(Typed(line.rstrip("\r\n")))

    def post(self, event: InputEvent) -> None:
        """An event from the scanner's link (called from the link's thread)."""
        self.put(event)

    __call__ = post

    def end(self) -> None:
        """No more input will come (end of file, or the window closed)."""
        self.put(None)

    def get(self) -> Item:
        """The next item, waiting for it."""
        self.arrived, item = self._queue.get()
        return item

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
