"""Told to end: Control C (SIGINT), Control \\ (SIGQUIT), SIGTERM and a
closed terminal (SIGHUP), at any moment.

A signal interrupts what the app is doing (a :class:`KeyboardInterrupt`,
which the journeys and the entry point take as "end now": every answer is
already on disk), unless the app is already ending (:func:`calm`: the
player quit, the input ended, or the goodbye is under way), so that none
breaks into the cleanup (a ``finally`` block, the speech or scanner being
closed) and shows a traceback. What must not be cut in two (a face putting
the terminal in its mode and starting the speech and scanner) is
:func:`held`: a signal in it interrupts at its end.

Python drops an exception in a few places without a word (a comparison
inside a dictionary lookup, for one): an interruption that lands there is
lost. So the signal is kept, and where the app waits for the player it
looks (:func:`check`): told to end and not ending yet, it ends then.

The app's exit status then says which signal ended it, as the shell
says it of a command the signal killed: 128 plus its number (130 for
Control C).

>>> status(0, told=signal.SIGINT), status(0, told=None), status(2, told=signal.SIGTERM)
(130, 0, 143)
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType

from companion.portable import signals

#: The signals that end the app (of them, Windows has SIGINT and SIGTERM).
ENDING = signals("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT")

# No lock: a handler runs in the main thread between two of its bytecodes,
# and would wait forever for a lock that thread holds. Each step below is
# one assignment, and an interruption between two of them is harmless.
#: The first ending signal received, if one was.
_told: int | None = None
#: The app is ending: signals from now on are noted, never raised.
_calm = False
#: Inside :func:`held`: an interruption waits for its end.
_holding = False


def told() -> int | None:
    """The first ending signal received, or ``None``."""
    return _told


def interrupt(number: int) -> None:
    """A signal handler's work: note the signal, and raise
    :class:`KeyboardInterrupt` (unless the app is :func:`calm` or the
    signal comes in a :func:`held` block)."""
    global _told  # noqa: PLW0603 - one process, one ending
    if _told is None:
        _told = number
    if not _calm and not _holding:
        raise KeyboardInterrupt


def check() -> None:
    """Where the app waits: told to end (its interruption lost, or held)
    and not ending yet, end now. (In the main thread only, where the
    handler raises too: another thread, such as the keyboard's read beside
    a scanner, goes on.)"""
    if (_told is not None and not _calm and not _holding
            and threading.current_thread() is threading.main_thread()):
        raise KeyboardInterrupt


@contextlib.contextmanager
def held() -> Iterator[None]:
    """A block no signal breaks into: one that comes in it interrupts at its end."""
    global _holding  # noqa: PLW0603 - one process, one ending
    outer, _holding = _holding, True
    try:
        yield
    finally:
        _holding = outer  # a signal from here on interrupts as usual
    check()


def calm() -> None:
    """The app ends now: signals from here on are noted, never raised."""
    global _calm  # noqa: PLW0603 - one process, one ending
    _calm = True


def _handler(number: int, frame: FrameType | None) -> None:
    del frame
    interrupt(number)


def take_signals() -> None:
    """Every ending signal handled by :func:`interrupt` (in the main thread)."""
    for number in ENDING:
        signal.signal(number, _handler)


def status(code: int, *, told: int | None) -> int:
    """The exit status: ``code``, or 128 plus the number of the signal that ended the app."""
    return code if told is None else 128 + told
