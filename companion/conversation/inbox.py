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

from companion.contract.events import Chosen, Item, Typed
from firmware_bridge.events import InputEvent

__all__ = ["Chosen", "Inbox", "Item", "ItemSource", "LineReader", "Lines"]


class LineReader(Protocol):
    def readline(self, size: int = -1, /) -> str: ...


class ItemSource(Protocol):
    """Where what the player gives comes from, an item at a time."""

    @property
    def arrived(self) -> float:
        """When the item just read arrived (``time.monotonic``)."""
        ...

    def get(self) -> Item:
        """The next item, waiting for it; ``None`` once the input has ended."""
        ...


#: The longest line typed that is kept, in characters (a terminal's own line
#: editing keeps 4,095): the rest of a longer line is read and dropped, so
#: that a stream with no end of line (``< /dev/zero``) never fills memory.
LINE_LONGEST = 4096


class Lines:
    """The lines of a stream (a pipe, a file) as typed lines, each cut at
    :data:`LINE_LONGEST` characters.

    >>> import io
    >>> lines = Lines(io.StringIO("w2\\n" + "x" * 5000 + "\\nt\\n"))
    >>> lines.get(), len(lines.get().text), lines.get(), lines.get()
    (Typed(text='w2'), 4096, Typed(text='t'), None)
    """

    def __init__(self, stream: LineReader) -> None:
        self.stream = stream
        self.arrived = 0.0

    def get(self) -> Item:
        line = self.stream.readline(LINE_LONGEST)
        rest = line
        while len(rest) == LINE_LONGEST and not rest.endswith("\n"):
            rest = self.stream.readline(LINE_LONGEST)  # the rest of a long line, dropped
        self.arrived = time.monotonic()
        return Typed(line.rstrip("\r\n")) if line else None


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

    def pump(self, source: ItemSource) -> threading.Thread:
        """Copy ``source``'s items in from a thread of its own, until it ends."""

        def copy() -> None:
            try:
                while (item := source.get()) is not None:
                    self.put(item)
            except (OSError, ValueError):
                pass  # the input was closed under us: the same as its end
            self.end()

        thread = threading.Thread(target=copy, name="keyboard", daemon=True)
        thread.start()
        return thread
