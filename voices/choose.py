"""Choosing a backend, and falling back when one fails.

Automatic order on Linux: speech-dispatcher, espeak-ng, pyttsx3, none; on
Windows and macOS: pyttsx3, none. Backends start in a thread of their own:
the app never waits for speech to start (sentences said meanwhile wait for
the first backend that works). In the automatic order a backend that is not
installed is skipped, with nothing said, unless none at all is installed:
that is said once (a :class:`Switched` from :data:`NO_VOICE`). One that dies after it has spoken
(its process killed, its daemon gone) is started again, with no notice, and
says again what was lost. Any other failure, of any kind, at its start or
later, drops it for the next backend, with one notice, at once (a
:class:`Switched` given to ``on_notice``, which the app says in the
player's language); never a crash.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, fields

from voices.backends import (
    DispatcherSpeaker,
    EspeakSpeaker,
    NoSpeech,
    Pyttsx3Speaker,
)
from voices.base import Cause, Priority, QueuedSpeaker, SpeechError, VoiceSettings, cause_of
from voices.screen_reader import ScreenReaderSpeaker

#: Every backend: the automatic order's, and the running screen reader's
#: (Windows: NVDA or JAWS; chosen, never automatic: a screen reader that
#: reads the console already would say everything twice).
BACKENDS = ("speech-dispatcher", "espeak-ng", "pyttsx3", "screen-reader", "none")
#: The automatic order on Linux.
LINUX_ORDER = ("speech-dispatcher", "espeak-ng", "pyttsx3", "none")
#: The name a :class:`Switched` gives when no voice of the automatic order is
#: installed at all (the app says so once, and only writes).
NO_VOICE = "any voice"
#: How often a backend that died after it had spoken is started again, in a
#: run, before the next backend takes over.
MOST_RESTARTS = 3
#: Seconds :meth:`FallbackSpeaker.close` waits for a backend still starting
#: (a daemon it had to start, ended with it).
STARTING_ENDS_WITHIN = 20.0


def automatic_order(platform: str = sys.platform) -> tuple[str, ...]:
    """The backends to try, best first, on this platform.

    >>> automatic_order("linux")
    ('speech-dispatcher', 'espeak-ng', 'pyttsx3', 'none')
    >>> automatic_order("win32")
    ('pyttsx3', 'none')
    """
    if platform.startswith("linux"):
        return LINUX_ORDER
    return ("pyttsx3", "none")


Speech = QueuedSpeaker | NoSpeech | ScreenReaderSpeaker


@dataclass(frozen=True, slots=True)
class Switched:
    """``failed`` stopped speaking for ``cause``; ``backend`` speaks from now
    on (``None``: nothing does, the app only writes). Its text is for
    developers, in English; an app says it in the player's language from its
    fields.

    >>> print(Switched("speech-dispatcher", Cause.NO_SOUND_OUTPUT, "espeak-ng"))
    speech-dispatcher stopped speaking (no sound output); now speaking with espeak-ng.
    """

    failed: str
    cause: Cause
    backend: str | None

    def __str__(self) -> str:
        said = f"{self.failed} stopped speaking ({self.cause.value})"
        if self.backend is None:
            return f"{said}; the app will only write."
        return f"{said}; now speaking with {self.backend}."


def make_backend(
    name: str,
    settings: VoiceSettings | None = None,
    on_failure: Callable[[Cause], None] | None = None,
) -> Speech:
    """One backend by name; :class:`SpeechError` if it cannot work here."""
    if name == "speech-dispatcher":
        return DispatcherSpeaker(settings, on_failure)
    if name == "espeak-ng":
        return EspeakSpeaker(settings, on_failure)
    if name == "pyttsx3":
        return Pyttsx3Speaker(settings, on_failure)
    if name == "screen-reader":
        return ScreenReaderSpeaker(settings, on_failure)
    if name == "none":
        return NoSpeech(settings)
    raise SpeechError(f"no speech backend called {name!r}; choose from {', '.join(BACKENDS)}")


Said = tuple[str, str, Priority]


class FallbackSpeaker:
    """The first backend of ``order`` that works, and the next when it fails.

    ``order`` ``None`` is the automatic order, without the backends named in
    ``skip`` (those that failed earlier in the run). The backend is chosen
    in a thread: :attr:`backend` is :class:`NoSpeech` until one is up
    (:meth:`ready` waits for it), and what is said meanwhile waits for it.
    ``start`` false: the search begins at :meth:`start` (once whoever is
    told of a failure is ready to be told).
    """

    def __init__(
        self,
        order: tuple[str, ...] | None = None,
        settings: VoiceSettings | None = None,
        on_notice: Callable[[Switched], None] | None = None,
        factory: Callable[..., Speech] = make_backend,
        *,
        skip: Collection[str] = (),
        start: bool = True,
    ) -> None:
        self.settings = settings or VoiceSettings()
        self.on_notice = on_notice
        #: The order is the automatic one: a backend not installed is not news.
        self._automatic = order is None
        self._order = [name for name in (order or automatic_order())
                       if order is not None or name not in skip or name == "none"]
        self._factory = factory
        self._lock = threading.Lock()
        self._last: Said | None = None
        #: What was said while no backend was up, for the one that comes.
        self._pending: list[Said] = []
        #: Sentences given to the backend now since it was started.
        self._given = 0
        #: Restarts so far of each backend that died after it had spoken.
        self._restarts: dict[str, int] = {}
        #: Counts the backends started: a failure told by an older one is old news.
        self._generation = 0
        self._closed = False
        #: The backends left after a failure, being closed.
        self._closing: list[threading.Thread] = []
        #: Set once the latest search for a backend is over.
        self._searched = threading.Event()
        self._search_id = 0
        self.backend: Speech = NoSpeech(self.settings)
        self._search_thread: threading.Thread | None = None
        if start:
            self.start()

    @property
    def name(self) -> str:
        return self.backend.name

    def start(self) -> None:
        """Begin the search for the first backend that works."""
        with self._lock:
            if self._search_thread is None and not self._closed:
                self._search_thread = self._search_for([], restart=None)

    def ready(self, timeout: float = 30.0) -> bool:
        """Wait until a backend is up (or none could be); False if still starting."""
        return self._searched.wait(timeout)

    def retune(self, settings: VoiceSettings) -> None:
        """Take these voice settings, for the sentences from now on."""
        for item in fields(VoiceSettings):
            setattr(self.settings, item.name, getattr(settings, item.name))

    # -- starting a backend ---------------------------------------------------------------

    def _search_for(self, failures: list[tuple[str, Cause]],
                    restart: str | None) -> threading.Thread:
        """A search in a thread of its own (called with the lock held)."""
        self._searched.clear()
        self._search_id += 1
        thread = threading.Thread(target=self._search, args=(self._search_id, failures, restart),
                                  daemon=True, name="speech-start")
        thread.start()
        return thread

    def _make(self, name: str) -> tuple[Speech | None, Cause | None]:
        generation = self._generation + 1

        def failed(cause: Cause) -> None:
            self._failed(generation, cause)

        try:
            return self._factory(name, self.settings, failed), None
        except Exception as error:  # any failure at its start: the next one is tried
            return None, cause_of(error)

    def _search(self, search: int, failures: list[tuple[str, Cause]],
                restart: str | None) -> None:
        """Start the backend that died again (``restart``), or the next of the
        order that works; then tell what failed, and say what waits."""
        backend: Speech | None = None
        if restart is not None:
            backend, _ = self._make(restart)
        restarted = backend is not None  # the same voice again: nothing to tell
        missing = False  # a voice of the automatic order not installed here
        name = ""
        while backend is None and self._order and not self._closed:
            name = self._order.pop(0)
            backend, cause = self._make(name)
            if cause is not None and not (self._automatic and cause is Cause.NOT_INSTALLED):
                failures.append((name, cause))
            missing = missing or cause is Cause.NOT_INSTALLED
        if backend is None:
            backend = NoSpeech(self.settings)
        if name == "none" and self._automatic and missing and not failures:
            # not one voice is here: news once, or the player waits for speech in vain
            failures.append((NO_VOICE, Cause.NOT_INSTALLED))
        with self._lock:
            closed = self._closed
            if not closed:
                self._generation += 1
                self.backend = backend
                pending, self._pending = self._pending, []
                self._given = len(pending)
        if closed:
            backend.close()
            self._searched.set()
            return
        # told outside the lock: the app may write and stop speech meanwhile
        speaking = None if isinstance(backend, NoSpeech) else backend.name
        if self.on_notice is not None and not restarted:
            for name, cause in failures:
                # whoever is told failing must not end speech
                with contextlib.suppress(Exception):
                    self.on_notice(Switched(name, cause, speaking))
        while True:  # what waited, and what came meanwhile, in order
            for said in pending:
                backend.say(*said)
            with self._lock:
                if search != self._search_id or self._closed:
                    return  # a newer search (this one failed already), or the end
                pending, self._pending = self._pending, []
                if not pending:
                    self._searched.set()
                    return

    def _failed(self, generation: int, cause: Cause) -> None:
        """The backend of ``generation`` failed: the search for the next
        begins, and what it was saying waits for it."""
        with self._lock:
            if self._closed or generation != self._generation:
                return  # the end of the run, or a backend already left
            failed = self.backend
            self._generation += 1  # nothing more from the one that failed
            died_after_speaking = cause is Cause.DIED and self._given >= 2
            restart = None
            if died_after_speaking and self._restarts.get(failed.name, 0) < MOST_RESTARTS:
                self._restarts[failed.name] = self._restarts.get(failed.name, 0) + 1
                restart = failed.name
            self.backend = NoSpeech(self.settings)
            if self._last is not None and not self._pending:
                self._pending = [self._last]  # say again what was lost
            self._search_thread = self._search_for([(failed.name, cause)], restart)
        closing = threading.Thread(target=failed.close, daemon=True, name="speech-closing")
        closing.start()
        with self._lock:
            self._closing = [*(t for t in self._closing if t.is_alive()), closing]

    # -- the interface --------------------------------------------------------------------

    def say(self, text: str, language: str, priority: Priority = Priority.ROUTINE) -> None:
        with self._lock:
            said = (text, language, priority)
            self._last = said
            if not self._searched.is_set():
                if priority is Priority.ROUTINE:  # as a backend does: the newest echo
                    self._pending = [p for p in self._pending if p[2] is not Priority.ROUTINE]
                self._pending.append(said)
                return
            self._given += 1
            backend = self.backend
        backend.say(text, language, priority)

    def interrupt(self) -> None:
        with self._lock:
            self._pending.clear()
            backend = self.backend
        backend.interrupt()

    def idle(self, timeout: float = 10.0) -> bool:
        """Wait until a backend is up and has said everything, the one that
        took over from a failed one included (for tools and tests)."""
        deadline = time.monotonic() + timeout
        while True:
            if not self.ready(max(0.0, deadline - time.monotonic())):
                return False
            backend = self.backend
            wait = getattr(backend, "idle", None)
            if wait is not None and not wait(max(0.0, deadline - time.monotonic())):
                return False
            if self._searched.is_set() and self.backend is backend:
                return True

    def close(self) -> None:
        """Silence and end the backend, and one still starting; nothing is
        told from now on."""
        with self._lock:
            self._closed = True
            self._pending.clear()
            backend = self.backend
            search = self._search_thread
        backend.close()
        if search is not None and search is not threading.current_thread():
            search.join(STARTING_ENDS_WITHIN)
        if self.backend is not backend:
            with contextlib.suppress(Exception):  # ending anyway
                self.backend.close()  # one that came up while this closed
        for closing in self._closing:  # the processes of those that failed end too
            closing.join(STARTING_ENDS_WITHIN)
        self._searched.set()
