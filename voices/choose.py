"""Choosing a backend, and falling back when one fails.

Automatic order on Linux: speech-dispatcher, espeak-ng, pyttsx3, none; on
Windows and macOS: pyttsx3, none. A backend that is missing is skipped. One
that dies after it has spoken (its process killed, its daemon gone) is
started again, with no notice, and says again what was lost; one that cannot
speak, or dies again and again, is dropped for the next, with one notice
(given to ``on_notice``, which the app writes and speaks), never a crash.
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
#: How often a backend that died after it had spoken is started again, in a
#: run, before the next backend takes over.
MOST_RESTARTS = 3


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
        #: Sentences given to the backend now since it was started.
        self._given = 0
        #: Restarts so far of each backend that died after it had spoken.
        self._restarts: dict[str, int] = {}
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

    def _restarted(self, failed: Speech) -> Speech | None:
        """A new start of the backend that died, if it had spoken before it
        died (a process killed, a daemon restarted) and has not died too
        often: speech goes on in the same voice, with no notice. One that
        fails at its first sentence is not restarted: it cannot speak here."""
        name = failed.name
        if self._given < 2 or self._restarts.get(name, 0) >= MOST_RESTARTS:
            return None
        self._restarts[name] = self._restarts.get(name, 0) + 1
        try:
            return self._factory(name, self.settings, self._failed)
        except SpeechError:
            return None

    def _failed(self, reason: str) -> None:
        with self._lock:
            failed = self.backend
            restarted = self._restarted(failed)
            self.backend = restarted if restarted is not None else self._next()
            self._given = 0
            last = self._last
        # told outside the lock: the app may write and stop speech meanwhile
        if restarted is None and self.on_notice is not None:
            name = None if isinstance(self.backend, NoSpeech) else self.backend.name
            self.on_notice(Switched(reason, name))
        if last is not None:
            self._given += 1
            self.backend.say(*last)  # say again what was lost
        closing = threading.Thread(target=failed.close, daemon=True)
        closing.start()

    def say(self, text: str, language: str, priority: Priority = Priority.ROUTINE) -> None:
        with self._lock:
            self._last = (text, language, priority)
            self._given += 1
            backend = self.backend
        backend.say(text, language, priority)

    def interrupt(self) -> None:
        self.backend.interrupt()

    def close(self) -> None:
        self.backend.close()
