"""The entry point of the ``companion`` command and of ``python -m companion``.

It takes the ending signals (:mod:`companion.ending`) before it imports
anything else: the app's imports take a good part of a second on a busy
machine, and a Control C in them was a ``KeyboardInterrupt`` traceback.
From here on a signal, wherever it lands (an import, the start of the
speech or the scanner, a question, the goodbye), ends the app with at most
its goodbye, no traceback, and the status that names the signal (130 for
Control C). What comes before this module runs is Python's own start
(a few milliseconds; see docs/development.md, "Ending").
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Sequence

from companion import ending


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command with ``argv`` (default: the process's arguments); its exit status."""
    ending.take_signals()
    code, interrupted = 1, False
    try:
        from companion.cli import main as command  # noqa: PLC0415 - after the signals

        code = command(argv)
    except KeyboardInterrupt:  # told to end: the status says by what
        interrupted = True
    finally:
        ending.calm()  # what Python does after this (its threads, its exit) is not broken into
        _forget_interruption()
        _flush_or_let_go()
    told = ending.told()
    return ending.status(code, told=signal.SIGINT if told is None and interrupted else told)


def _forget_interruption() -> None:
    """CPython notes a :class:`KeyboardInterrupt` that went through code run
    from a string (``exec`` of a str: a dataclass or a named tuple being
    made, in an import) and, once the program has ended, ends itself by
    SIGINT whatever status it gave: a SIGTERM in an import ended the app as
    killed by SIGINT, not with 143. Running an empty string clears that
    note (each run from a string starts by clearing it): the status is the
    app's."""
    exec("")  # an empty string: it runs nothing, it clears the note


def _flush_or_let_go() -> None:
    """Write out what is left for the terminal; where it has gone (a dropped
    remote session, a closed window), point the output at nothing instead.
    Python flushes its streams as it ends, and a failed flush ends it with
    status 120 whatever the app's."""
    streams = {id(s): s for s in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__)
               if s is not None}
    for stream in streams.values():
        try:
            stream.flush()
        except (OSError, ValueError):
            with contextlib.suppress(OSError, ValueError):
                nothing = os.open(os.devnull, os.O_WRONLY)
                os.dup2(nothing, stream.fileno())
                os.close(nothing)
