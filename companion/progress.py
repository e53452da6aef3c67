"""Progress of long work, told on standard error a plain line at a time.

A command that can take more than a couple of seconds (``companion simulate``
with many games, ``companion bench``, ``companion kit``) says how far it has
got, in the player's language: what is done of what, and the time left::

    Simulating 4000 games…
    1200 of 4000 games, 25 s left
    2400 of 4000 games, 15 s left
    4000 of 4000 games, done in 33 s

The rules, for a screen reader and a braille display as much as for the eye:

- Every line is a new, whole line: never a bar redrawn in place (no carriage
  return, no escape sequence), on a terminal as through a pipe or with
  ``ACCESSIBLE`` set, so that a screen reader says each line once.
- Work known to be long says what it does at once (the *title*); other work
  says nothing until it has run :data:`QUIET_FOR` seconds or its pace shows
  it will run twice that; work that ends before says nothing at all (the
  environment variable :data:`QUIET_VARIABLE` sets those seconds for a
  run).
- Then at most a line every :data:`EVERY` seconds, and a last line when it is
  done (only if anything was said).
- Only standard error: what a command prints on standard output (its report,
  its ``--json``) is the same with or without progress.

The clock and the stream are given (:class:`Progress`), so that the tests
drive them without waiting. The work calls the :class:`Progress` with what
is done of what (it is a :data:`~companion.contract.game.Progressed`), as
often as it likes: a call costs a clock reading.
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import time
from collections.abc import Callable, Mapping
from typing import TextIO

from companion.i18n import Catalog

#: A clock in seconds that only goes forward (:func:`time.monotonic`).
Clock = Callable[[], float]
#: The words for ``done`` of ``total`` of what the work counts, in a
#: catalog's language: ``games_done(words, 120, 400)`` is "120 of 400 games".
Unit = Callable[[Catalog, int, int], str]

#: Work that ends within this many seconds says nothing.
QUIET_FOR = 2.0
#: The environment variable that sets those seconds for a run instead (the
#: tests set it to 0, so that a command's progress is told however fast the
#: machine).
QUIET_VARIABLE = "COMPANION_QUIET_FOR"
#: At most one line in this many seconds.
EVERY = 5.0
#: How long work runs before its pace is trusted to tell it will be long.
PACE_AFTER = 0.5


def quiet_limit(environ: Mapping[str, str] = os.environ) -> float:
    """The seconds work runs before it says anything: :data:`QUIET_VARIABLE`
    when it holds a number of 0 or more, else :data:`QUIET_FOR`.

    >>> quiet_limit({QUIET_VARIABLE: "0"}), quiet_limit({}), quiet_limit({QUIET_VARIABLE: "soon"})
    (0.0, 2.0, 2.0)
    """
    try:
        seconds = float(environ.get(QUIET_VARIABLE, ""))
    except ValueError:
        return QUIET_FOR
    return seconds if seconds >= 0 else QUIET_FOR


def games_done(words: Catalog, done: int, total: int) -> str:
    return words.plural("%(done)d of %(n)d game", "%(done)d of %(n)d games", total, done=done)


def sizes_done(words: Catalog, done: int, total: int) -> str:
    return words.plural("%(done)d of %(n)d table size", "%(done)d of %(n)d table sizes", total,
                        done=done)


def scans_done(words: Catalog, done: int, total: int) -> str:
    return words.plural("%(done)d of %(n)d scan", "%(done)d of %(n)d scans", total, done=done)


def runs_done(words: Catalog, done: int, total: int) -> str:
    return words.plural("%(done)d of %(n)d run", "%(done)d of %(n)d runs", total, done=done)


def steps_done(words: Catalog, done: int, total: int) -> str:
    return words.plural("%(done)d of %(n)d step", "%(done)d of %(n)d steps", total, done=done)


def duration(words: Catalog, seconds: float) -> str:
    """A time to wait or taken, as short as it can be said: seconds under a
    minute (to 5 s from 10 s on), whole minutes from 2 min on.

    >>> words = Catalog.for_language("en")
    >>> [duration(words, s) for s in (0.2, 7.2, 31, 58, 75, 170)]
    ['1 s', '8 s', '30 s', '1 min', '1 min 15 s', '3 min']
    """
    if seconds < 10:
        return words.text("%(n)d s", n=max(1, math.ceil(seconds)))
    rounded = 5 * round(seconds / 5)
    if rounded < 60:
        return words.text("%(n)d s", n=rounded)
    if rounded == 60:
        return words.text("%(n)d min", n=1)
    if rounded < 120:
        return words.text("%(minutes)d min %(seconds)d s", minutes=1, seconds=rounded - 60)
    return words.text("%(n)d min", n=round(seconds / 60))


class Progress:
    """Progress lines for one piece of work of ``total`` units (a :data:`Unit`;
    0 when the work will tell it).

    Call it with what is done (and the total, when that changes) as the work
    goes, then :meth:`finish` it; or use it as a context manager, which
    finishes it when the work ends well (work cut short says nothing more)::

        with Progress(words, games_done, 400, title=words.text("Simulating…")) as progress:
            for number in range(400):
                play(number)
                progress(number + 1, 400)
    """

    def __init__(self, words: Catalog, unit: Unit, total: int, *, title: str = "",
                 long: bool = False, stream: TextIO | None = None,
                 clock: Clock = time.monotonic, quiet_for: float | None = None,
                 every: float = EVERY) -> None:
        self.words = words
        self.unit = unit
        self.total = total
        self.done = 0
        self.title = title
        self.stream = stream
        self.clock = clock
        self.quiet_for = quiet_limit() if quiet_for is None else quiet_for
        self.every = every
        self.started = clock()
        #: When, and at what count, the pace is measured from: the start, or
        #: the last change of the total (work left out, or found).
        self.since = (self.started, 0)
        #: When the last line was written; ``None`` while nothing has been.
        self.said: float | None = None
        if long:
            self._open(self.started)

    def __call__(self, done: int, total: int | None = None) -> None:
        """``done`` units of the work are done (of ``total``, if it changed)."""
        now = self.clock()
        self.done = done
        if total is not None and total != self.total:
            if self.total:  # the pace before was that of other work (0: none was known)
                self.since = (now, done)
            self.total = total
        if self.said is None:
            if self._long(now) and self.done >= self.total and not self.title:
                self.said = now  # all done: the last line says it all
            elif self._long(now):
                self._open(now)
        elif now - self.said >= self.every and self.done < self.total:
            self._write(self.line(now))
            self.said = now

    def finish(self) -> None:
        """The work is done: a last line, if anything was said."""
        if self.said is not None:
            self._write(self.words.text("%(progress)s, done in %(time)s",
                                        progress=self.unit(self.words, self.done, self.total),
                                        time=duration(self.words,
                                                      self.clock() - self.started)))
            self.said = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is None:
            self.finish()

    def line(self, now: float) -> str:
        """What is done of what, and the time left once the pace is known."""
        progress = self.unit(self.words, self.done, self.total)
        began, counted = self.since
        elapsed, done = now - began, self.done - counted
        if done <= 0 or elapsed <= 0 or self.done >= self.total:
            return progress
        left = (self.total - self.done) * elapsed / done
        return self.words.text("%(progress)s, %(time)s left", progress=progress,
                               time=duration(self.words, left))

    def _long(self, now: float) -> bool:
        elapsed = now - self.started
        if elapsed >= self.quiet_for:
            return True
        if elapsed < PACE_AFTER or self.done <= 0:
            return False
        return elapsed * self.total / self.done >= 2 * self.quiet_for

    def _open(self, now: float) -> None:
        self._write(self.title or self.line(now))
        self.said = now

    def _write(self, line: str) -> None:
        stream = self.stream or sys.stderr
        # Progress never stops the work: a closed or full standard error loses the line.
        with contextlib.suppress(OSError, ValueError):
            stream.write(line + "\n")
            stream.flush()
