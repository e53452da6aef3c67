"""One stream of input events from every source.

The serial link posts into it from its thread; typed lines (from the
keyboard or a keyboard-wedge scanner) go through :meth:`InputStream.typed`.
Whoever reads the stream sees :class:`~firmware_bridge.events.CardIdentified`
events with their source, whatever the source was.

>>> from firmware_bridge.vocabulary import SimpleVocabulary
>>> fruit = SimpleVocabulary("fruit", "Fruit Salad", 9, (("apple", 2), ("pear", 1)))
>>> stream = InputStream({"fruit": fruit})
>>> event = stream.typed("pear", [0.0, 0.2])
>>> stream.get(timeout=0).card, stream.get(timeout=0)
('pear', None)
"""

from __future__ import annotations

import queue
from collections.abc import Mapping, Sequence

from firmware_bridge.events import InputEvent
from firmware_bridge.vocabulary import Vocabulary
from firmware_bridge.wedge import identify


class InputStream:
    """A thread-safe queue of input events; the link's ``on_event`` is :meth:`post`.

    Typed lines name cards of the games of ``vocabularies``, the installed
    games' unless given."""

    def __init__(self, vocabularies: Mapping[str, Vocabulary] | None = None) -> None:
        self._queue: queue.Queue[InputEvent] = queue.Queue()
        self.vocabularies = vocabularies

    def post(self, event: InputEvent) -> None:
        self._queue.put(event)

    __call__ = post

    def typed(self, text: str, key_times: Sequence[float] = ()) -> InputEvent:
        """A typed line, as an event on the stream (and returned)."""
        event = identify(text, key_times, self.vocabularies)
        self.post(event)
        return event

    def get(self, timeout: float | None = None) -> InputEvent | None:
        """The next event; ``None`` if none came within ``timeout`` seconds."""
        try:
            return self._queue.get(timeout=timeout) if timeout else self._queue.get_nowait()
        except queue.Empty:
            return None
