"""The one small interface every speech backend offers.

``say`` queues a sentence and returns at once: speech never blocks the
interface. ``interrupt`` silences everything, now. Routine echoes (a card
read back) replace one another; important sentences (scores, errors) cut a
routine one short and wait for each other. No backend ever writes to the
terminal: every process it starts has its input and output elsewhere.
"""

from __future__ import annotations

import abc
import enum
import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol


class Priority(enum.IntEnum):
    """How a sentence stands against the others."""

    #: Echoes of what the player just did: the newest replaces the rest.
    ROUTINE = 0
    #: Scores, errors, the scanner lost: never cut short by a routine echo.
    IMPORTANT = 1


@dataclass
class VoiceSettings:
    """Voice, rate (words a minute), pitch and volume (0 to 100)."""

    voice: str | None = None
    rate: int = 175
    pitch: int = 50
    volume: int = 100

    def clamped(self) -> VoiceSettings:
        return VoiceSettings(
            self.voice,
            max(80, min(self.rate, 450)),
            max(0, min(self.pitch, 100)),
            max(0, min(self.volume, 100)),
        )


class Cause(enum.Enum):
    """Why a backend stopped speaking, as the app says it to the player (in
    the player's language: the value is for developers' logs and tests)."""

    #: Its program, daemon or library is not on this machine.
    NOT_INSTALLED = "not installed"
    #: It takes sentences, but no sound comes out (no sound card, no sound
    #: server): speech-dispatcher then never finishes a sentence.
    NO_SOUND_OUTPUT = "no sound output"
    #: It did not answer within the time it is given.
    NO_ANSWER = "did not answer in time"
    #: Its process or daemon ended while it was speaking.
    DIED = "stopped working"
    #: Any other error.
    FAILED = "failed"


class SpeechError(RuntimeError):
    """A backend that cannot speak (missing, or failing here), and why.

    >>> SpeechError("espeak-ng is not installed", Cause.NOT_INSTALLED).cause
    <Cause.NOT_INSTALLED: 'not installed'>
    """

    def __init__(self, message: str, cause: Cause = Cause.FAILED) -> None:
        super().__init__(message)
        self.cause = cause


def cause_of(error: BaseException) -> Cause:
    """The cause an error stands for: a :class:`SpeechError`'s own; any other
    (an ``OSError``, a bug in a speech library) is a failure.

    >>> cause_of(SpeechError("gone", Cause.DIED)), cause_of(ValueError("bad"))
    (<Cause.DIED: 'stopped working'>, <Cause.FAILED: 'failed'>)
    """
    return error.cause if isinstance(error, SpeechError) else Cause.FAILED


#: The longest text a speech engine is given, in characters (several
#: minutes of speech); longer text is cut at a word, with "…".
MAX_SPOKEN = 4000


def clean(text: str, limit: int = MAX_SPOKEN) -> str:
    r"""Text any speech engine takes: control characters become spaces (a
    NUL stops espeak-ng's process from starting), format characters (bidi
    controls, zero-width marks), surrogates and private-use characters go,
    runs of spaces are one, and text longer than ``limit`` is cut at a
    word with "…" (a 128 KB argument cannot start a process at all).

    >>> clean("Ann\x00: 5\u202e points.\n\x1b[2J")
    'Ann : 5 points. [2J'
    >>> clean("word " * 3, limit=12)
    'word word…'
    """
    kept = "".join(
        " " if category == "Cc" else "" if category in {"Cf", "Cs", "Co"} else char
        for char in text
        for category in (unicodedata.category(char),)
    )
    words = " ".join(kept.split())
    if len(words) > limit:
        cut = words[: limit - 1]
        words = (cut.rsplit(" ", 1)[0] if " " in cut else cut) + "…"
    return words


class Speaker(Protocol):
    """What the app asks of a voice."""

    @property
    def name(self) -> str: ...

    def say(self, text: str, language: str, priority: Priority = Priority.ROUTINE) -> None: ...

    def interrupt(self) -> None: ...

    def close(self) -> None: ...


@dataclass
class Utterance:
    text: str
    language: str
    priority: Priority


@dataclass
class Timings:
    """When the last utterance's process started and when the last one ended,
    for the speech benchmark (``time.perf_counter`` seconds)."""

    started: float = 0.0
    silenced: float = 0.0
    events: threading.Condition = field(default_factory=threading.Condition)


class QueuedSpeaker(abc.ABC):
    """The queue and its policy, shared by the backends that run one process
    per utterance: a worker thread speaks, one sentence at a time.

    Subclasses give :meth:`_start` (begin speaking, return a handle),
    :meth:`_wait` (until the handle is done; False if it failed) and
    :meth:`_stop` (silence the handle now). Whatever any of them raises, or
    a sentence that fails, is told to ``on_failure`` with its :class:`Cause`
    (from the worker's thread, never from the caller's), and the voice goes
    on: nothing a backend does reaches the app as an exception.
    """

    name = "queued"

    def __init__(
        self,
        settings: VoiceSettings | None = None,
        on_failure: Callable[[Cause], None] | None = None,
    ) -> None:
        self.settings = settings or VoiceSettings()
        self.on_failure = on_failure
        self.timings = Timings()
        self._queue: list[Utterance] = []
        self._current: Utterance | None = None
        self._handle: object | None = None
        self._lock = threading.Condition()
        self._closed = False
        #: A stop that failed (in the caller's thread), for the worker to tell.
        self._fault: Cause | None = None
        self._thread = threading.Thread(target=self._work, daemon=True, name=f"{self.name}-voice")
        self._thread.start()

    # -- the interface -----------------------------------------------------------------

    def say(self, text: str, language: str, priority: Priority = Priority.ROUTINE) -> None:
        utterance = Utterance(clean(text), language, priority)
        if not utterance.text:
            return  # nothing to say (only spaces or control characters)
        with self._lock:
            if priority is Priority.ROUTINE:
                # the newest echo replaces waiting echoes and the one speaking
                self._queue = [u for u in self._queue if u.priority is not Priority.ROUTINE]
                if self._current is not None and self._current.priority is Priority.ROUTINE:
                    self._silence_locked()
            elif self._current is not None and self._current.priority is Priority.ROUTINE:
                self._silence_locked()  # an important sentence cuts an echo short
            self._queue.append(utterance)
            self._lock.notify_all()

    def interrupt(self) -> None:
        with self._lock:
            self._queue.clear()
            self._silence_locked()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._queue.clear()
            self._silence_locked()
            self._lock.notify_all()
        self._thread.join(timeout=2)

    def idle(self, timeout: float = 10.0) -> bool:
        """Wait until nothing is said or waiting (for tests and tools)."""
        with self._lock:
            return self._lock.wait_for(
                lambda: self._current is None and not self._queue, timeout
            )

    # -- the worker ----------------------------------------------------------------------

    def _silence_locked(self) -> None:
        handle, self._handle = self._handle, None
        if handle is None:
            return
        try:
            self._stop(handle)
        except Exception as error:  # the caller (a key, the UI) must not see it
            self._fault = cause_of(error)
            self._lock.notify_all()

    def _work(self) -> None:
        while True:
            failure: Cause | None = None
            with self._lock:
                self._lock.wait_for(
                    lambda: self._closed or bool(self._queue) or self._fault is not None)
                if self._closed:
                    return
                if self._fault is not None:
                    failure, self._fault = self._fault, None
                else:
                    utterance = self._queue.pop(0)
                    self._current = utterance
                    try:
                        self._handle = self._start(utterance)
                    except Exception as error:  # whatever it is, the voice goes on
                        self._handle = None
                        failure = cause_of(error)
                handle = self._handle
            if failure is None:
                try:
                    ok, failure = self._wait(handle), None
                except Exception as error:  # a wait that fails is the backend failing
                    ok, failure = False, cause_of(error)
                with self._lock:
                    stopped = self._handle is None
                    self._handle = None
                if failure is None and not ok and not stopped:
                    failure = Cause.DIED  # (after a stop, the wait's error still counts)
            if failure is not None:
                # told outside the lock (whoever is told may need to stop
                # speech, which takes the lock), and before the voice is idle
                self._failed(failure)
            with self._lock:
                self._current = None
                self._lock.notify_all()

    def _failed(self, cause: Cause) -> None:
        if self.on_failure is not None:
            self.on_failure(cause)

    # -- for the backends --------------------------------------------------------------------

    @abc.abstractmethod
    def _start(self, utterance: Utterance) -> object:
        """Begin speaking; a handle for :meth:`_wait` and :meth:`_stop`."""

    @abc.abstractmethod
    def _wait(self, handle: object) -> bool:
        """Until the utterance is over; False if the engine failed."""

    @abc.abstractmethod
    def _stop(self, handle: object) -> None:
        """Silence the utterance now."""


def render_path(path: Path) -> Path:
    if path.suffix.lower() != ".wav":
        raise SpeechError(f"{path} should end in .wav", Cause.FAILED)
    return path
