"""One stream of input events from every source.

The serial link posts into it from its thread; typed lines (from the
keyboard or a keyboard-wedge scanner) go through :meth:`InputStream.typed`.
Whoever reads the stream sees :class:`~firmware_bridge.events.CardIdentified`
events with their source, whatever the source was.

>>> stream = InputStream()
>>> event = stream.typed("t", [0.0, 0.2])
>>> stream.get(timeout=0).card, stream.get(timeout=0)
(Card.WASABI, None)
"""

from __future__ import annotations

import queue
from collections.abc import Sequence

from firmware_bridge.events import InputEvent
from firmware_bridge.wedge import identify


class InputStream:
    """A thread-safe queue of input events; the link's ``on_event`` is :meth:`post`."""

    def __init__(self) -> None:
        self._queue: queue.Queue[InputEvent] = queue.Queue()

    def post(self, event: InputEvent) -> None:
        self._queue.put(event)

    __call__ = post

    def typed(self, text: str, key_times: Sequence[float] = ()) -> InputEvent:
        """A typed line, as an event on the stream (and returned)."""
        event = identify(text, key_times)
        self.post(event)
        return event

    def get(self, timeout: float | None = None) -> InputEvent | None:
        """The next event; ``None`` if none came within ``timeout`` seconds."""
        try:
            return self._queue.get(timeout=timeout) if timeout else self._queue.get_nowait()
        except queue.Empty:
            return None
