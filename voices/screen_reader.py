"""Speech through the screen reader that is running: on Windows, NVDA or
JAWS, through accessible_output2 (NVDA's controller client, JAWS's COM
interface).

The sentence is handed to the screen reader, which says it in the
player's own voice, rate and language settings, and which the player
stops with their screen reader's own key as well as the app's. The
screen reader queues what it is given and tells nothing of when a
sentence ends, so the policy is the screen reader's: a routine echo
cuts short the echo before it (it is given with "interrupt"), an
important sentence waits for what is being said, unless that is an echo.

A thread of its own hands the sentences over, so a screen reader that is
slow to answer never holds up the app. A screen reader that stops
running (NVDA quit) is found after the next sentence: it is a
:class:`~voices.base.SpeechError` of cause ``DIED``, and the app hands
over to the next voice, which says that sentence again.

Elsewhere, and on Windows with no screen reader running, the backend
cannot start: a ``NOT_INSTALLED`` :class:`~voices.base.SpeechError`.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import queue
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Protocol

from voices.base import Cause, Priority, SpeechError, VoiceSettings, clean

#: accessible_output2's screen readers the app speaks through, best first.
SCREEN_READERS = (("nvda", "NVDA"), ("jaws", "Jaws"))
#: Seconds :meth:`ScreenReaderSpeaker.close` waits for the hand-over thread.
CLOSES_WITHIN = 2.0


class Output(Protocol):
    """What the app uses of an accessible_output2 output."""

    name: str

    def is_active(self) -> bool: ...

    def speak(self, text: str, interrupt: bool = False) -> object: ...

    def silence(self) -> object: ...


def installed() -> bool:
    """Whether accessible_output2 is installed (it is, on Windows: a
    dependency there)."""
    return importlib.util.find_spec("accessible_output2") is not None


def running_outputs(platform: str = sys.platform) -> list[Output]:
    """The screen readers running now, best first (empty when none, or
    where accessible_output2 cannot load: any system but Windows)."""
    if platform != "win32":
        return []
    found: list[Output] = []
    for module_name, class_name in SCREEN_READERS:
        try:
            module = importlib.import_module(f"accessible_output2.outputs.{module_name}")
            output = getattr(module, class_name)()
            if output.is_active():
                found.append(output)
        except Exception:  # not installed, its DLL or COM server missing: not running
            continue
    return found


class ScreenReaderSpeaker:
    """The first screen reader of ``outputs()`` that is running."""

    name = "screen-reader"

    def __init__(
        self,
        settings: VoiceSettings | None = None,
        on_failure: Callable[[Cause], None] | None = None,
        outputs: Callable[[], Sequence[Output]] = running_outputs,
    ) -> None:
        self.settings = settings or VoiceSettings()
        self.on_failure = on_failure
        running = list(outputs())
        if not running:
            raise SpeechError("no screen reader is running (NVDA or JAWS, on Windows)",
                              Cause.NOT_INSTALLED)
        self.output = running[0]
        #: The screen reader's name, for the app's notices.
        self.reader = str(getattr(self.output, "name", "screen reader"))
        self._jobs: queue.SimpleQueue[tuple[str, bool] | None] = queue.SimpleQueue()
        self._last = Priority.IMPORTANT
        self._failed = False
        self._lock = threading.Condition()
        #: Sentences (and stops) given and not yet handed over.
        self._waiting = 0
        self._thread = threading.Thread(target=self._work, daemon=True,
                                        name="screen-reader-voice")
        self._thread.start()

    def say(self, text: str, language: str, priority: Priority = Priority.ROUTINE) -> None:
        """Hand ``text`` over (the screen reader speaks its own language)."""
        del language
        said = clean(text)
        if not said:
            return
        with self._lock:
            cut = self._last is Priority.ROUTINE  # an echo is cut short by what follows
            self._last = priority
            self._waiting += 1
        self._jobs.put((said, cut))

    def interrupt(self) -> None:
        with self._lock:
            self._last = Priority.IMPORTANT  # nothing left to cut short
            self._waiting += 1
        self._jobs.put(("", True))

    def idle(self, timeout: float = 10.0) -> bool:
        """Wait until everything given is handed over (the screen reader may
        still be speaking it); False at ``timeout``."""
        with self._lock:
            return self._lock.wait_for(lambda: self._waiting == 0, timeout)

    def close(self) -> None:
        """Stop handing sentences over; the screen reader goes on running."""
        self._jobs.put(None)
        self._thread.join(CLOSES_WITHIN)

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            try:
                self._hand_over(*job)
            finally:
                with self._lock:
                    self._waiting -= 1
                    self._lock.notify_all()

    def _hand_over(self, text: str, cut: bool) -> None:
        if self._failed:
            return
        try:
            if not text:
                self.output.silence()
                return
            self.output.speak(text, interrupt=cut)
            alive = self.output.is_active()
        except Exception:  # whatever the library or the screen reader raises
            self._fail(Cause.FAILED)
            return
        if not alive:
            self._fail(Cause.DIED)

    def _fail(self, cause: Cause) -> None:
        self._failed = True
        if self.on_failure is not None:
            with contextlib.suppress(Exception):
                self.on_failure(cause)
