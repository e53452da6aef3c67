"""Choosing a backend, and falling back when one fails.

Automatic order on Linux: speech-dispatcher, espeak-ng, pyttsx3, none; on
Windows and macOS: pyttsx3, none. A backend that is missing is skipped; one
that fails while speaking is dropped for the next, with one notice (given
to ``on_notice``, which the app writes and speaks), never a crash.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass

from voices.backends import (
    DispatcherSpeaker,
    EspeakSpeaker,
    NoSpeech,
    Pyttsx3Speaker,
)
from voices.base import Priority, QueuedSpeaker, SpeechError, VoiceSettings

BACKENDS = ("speech-dispatcher", "espeak-ng", "pyttsx3", "none")


def automatic_order(platform: str = sys.platform) -> tuple[str, ...]:
    """The backends to try, best first, on this platform.

    >>> automatic_order("linux")
    ('speech-dispatcher', 'espeak-ng', 'pyttsx3', 'none')
    >>> automatic_order("win32")
    ('pyttsx3', 'none')
    """
    if platform.startswith("linux"):
        return BACKENDS
    return ("pyttsx3", "none")


Speech = QueuedSpeaker | NoSpeech


@dataclass(frozen=True, slots=True)
class Switched:
    """Speech failed for ``reason``; ``backend`` speaks from now on (``None``:
    nothing does, the app only writes). Its text is the English notice; an
    app says it in the player's language from its fields."""

    reason: str
    backend: str | None

    def __str__(self) -> str:
        if self.backend is None:
            return f"Speech failed ({self.reason}); the app will only write."
        return f"Speech failed ({self.reason}); now speaking with {self.backend}."


def make_backend(
    name: str,
    settings: VoiceSettings | None = None,
    on_failure: Callable[[str], None] | None = None,
) -> Speech:
    """One backend by name; :class:`SpeechError` if it cannot work here."""
    if name == "speech-dispatcher":
        return DispatcherSpeaker(settings, on_failure)
    if name == "espeak-ng":
        return EspeakSpeaker(settings, on_failure)
    if name == "pyttsx3":
        return Pyttsx3Speaker(settings, on_failure)
    if name == "none":
        return NoSpeech(settings)
    raise SpeechError(f"no speech backend called {name!r}; choose from {', '.join(BACKENDS)}")


class FallbackSpeaker:
    """The first backend of ``order`` that works, and the next when it fails."""

    def __init__(
        self,
        order: tuple[str, ...] | None = None,
        settings: VoiceSettings | None = None,
        on_notice: Callable[[Switched], None] | None = None,
        factory: Callable[..., Speech] = make_backend,
    ) -> None:
        self.settings = settings or VoiceSettings()
        self.on_notice = on_notice
        self._order = list(order or automatic_order())
        self._factory = factory
        self._lock = threading.Lock()
        self._last: tuple[str, str, Priority] | None = None
        self.backend: Speech = self._next()

    @property
    def name(self) -> str:
        return self.backend.name

    def _next(self) -> Speech:
        while self._order:
            name = self._order.pop(0)
            try:
                return self._factory(name, self.settings, self._failed)
            except SpeechError:
                continue
        return NoSpeech(self.settings)

    def _failed(self, reason: str) -> None:
        with self._lock:
            failed = self.backend
            self.backend = self._next()
            last = self._last
        # told outside the lock: the app may write and stop speech meanwhile
        if self.on_notice is not None:
            name = None if isinstance(self.backend, NoSpeech) else self.backend.name
            self.on_notice(Switched(reason, name))
        if last is not None:
            self.backend.say(*last)  # say again what was lost
        closing = threading.Thread(target=failed.close, daemon=True)
        closing.start()

    def say(self, text: str, language: str, priority: Priority = Priority.ROUTINE) -> None:
        with self._lock:
            self._last = (text, language, priority)
            backend = self.backend
        backend.say(text, language, priority)

    def interrupt(self) -> None:
        self.backend.interrupt()

    def close(self) -> None:
        self.backend.close()
