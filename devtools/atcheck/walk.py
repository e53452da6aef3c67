"""A player's walk through the app under real BRLTTY and Fenrir, step by
step, and the figures of what they presented.

Each :class:`Step` is one thing the player does (keys typed on the console)
and what should follow: ``shows``, what the 40-cell braille window at the
cursor must show once the app has answered (the newest information: the
reply to that action), and ``says``, what the screen reader must speak.
Steps wait for what they expect, never for a fixed time: the keys are sent,
then the step waits until the screen changed, until the cursor's row shows
the expected text, until BRLTTY's window caught up with the cursor, until
Fenrir said the expected words, and then until both were quiet for a
moment (to catch anything said twice). A step that never gets there ends
after a long timeout and counts as failed.

The figures (:class:`Figures`), for one face at one console size:

* ``line_ups_needed``: braille line-up presses a user needs to read each
  step's reply (0 when it is in the window at the cursor; the walk presses
  BRLTTY's line-up key to count);
* ``duplicate_utterances``: things a screen reader (BRLTTY's speech or
  Fenrir) said twice within one step;
* ``blank_flickers``: braille windows that went blank while something else
  followed within the step;
* ``announcements_missed``: replies neither in the window at the cursor nor
  spoken by Fenrir, and declared announcements (a step's ``expect``) not
  in the braille window at rest nor in the windows its forward pans reach
  (the same rules as the shared walk's, :mod:`devtools.atcheck.reach`:
  a menu's title with its first option, the end of a long reply before
  the next question, a game's final scores); ``line_ups_needed`` counts
  the line-ups to those found above the window;
* ``fenrir_missed``: declared announcements Fenrir did not say;
* ``stale_utterances``: things Fenrir said again that the screen showed
  before the key (an old turn's rows re-read), but at steps that ask
  for something to be said again.
"""

from __future__ import annotations

import contextlib
import difflib
import fcntl
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from pathlib import Path
from types import FrameType
from typing import Any

from devtools.atcheck.devices import (
    KEYS,
    Brltty,
    Fenrir,
    Frame,
    Utterance,
    VirtualConsole,
    now,
    outlived_never,
    stop,
)
from devtools.atcheck.reach import Reach, reach, stale

TIOCSCTTY = 0x540E
#: Longest wait for anything the app or a screen reader should do.
PATIENCE = 40.0
#: ALSA's null device as the default sound output.
NULL_SOUND = "pcm.!default {\n    type null\n}\nctl.!default {\n    type hw\n    card 0\n}\n"
#: Quiet time that ends a step once everything expected has happened.
QUIET = 1.0

Keys = str | tuple[str, str] | Callable[[list[str]], str]
"""A key name (``"Enter"``, ``"F2"``), ``("type", text)``, a function of
the screen's lines giving the text to type, or :data:`KILL`."""

#: Not a key: the app killed with SIGKILL (a crash, a power cut), then
#: started again on the same console, as its screen was left.
KILL = "kill -9"


@dataclass(frozen=True)
class Step:
    """One action of the player and what should follow it."""

    label: str
    keys: Keys | None
    shows: str | None = None
    says: str | None = None
    changes: bool = True
    #: What the whole screen shows once the app waits for the next action
    #: (the next question), when the reply comes before it: the step ends
    #: only then, so the next keys never reach the app in between.
    ready: str | None = None
    #: What must reach the player in this step, declared: short texts
    #: (:func:`devtools.atcheck.reach.pattern`), each in the braille window
    #: at rest or its forward pans, and said by Fenrir.
    expect: tuple[str, ...] = ()
    #: The step asks for something to be said again (repeat, back, where):
    #: what was on screen before may rightly be said.
    repeats: bool = False
    #: A test on the screen's lines before the step: the step is taken only if true.
    when: Callable[[list[str]], bool] | None = None
    #: What must reach the player too when the reply shows a pattern (on its
    #: screen at rest or a page): ``(pattern, expectations)``; for a move
    #: that may end a game, the end ("Game over", the winner).
    finale: tuple[str, tuple[str, ...]] | None = None


def with_finale(step: Step, lines: Sequence[str]) -> Step:
    """``step``, its :attr:`Step.finale` expectations added when ``lines``
    show its pattern (once).

    >>> move = Step("a move", "Enter", expect=("You: ",), finale=("Game over", ("Winner",)))
    >>> with_finale(move, ["You: eat.", "Game over. Winner: Bot 1."]).expect
    ('You: ', 'Winner')
    >>> with_finale(move, ["You: eat."]).expect
    ('You: ',)
    """
    if step.finale is None or not re.search(step.finale[0], "\n".join(lines)):
        return step
    return replace(step, expect=(*step.expect, *step.finale[1]), finale=None)


@dataclass
class Seen:
    """What one step brought."""

    step: Step
    typed: str
    frames: list[Frame]
    brltty_said: list[Utterance]
    fenrir_said: list[Utterance]
    window: str
    cursor_row: str
    screen: list[str]
    line_ups: int | None = 0
    reviewed: list[str] = field(default_factory=list)
    timed_out: str = ""
    #: The screen before the step's keys.
    before: list[str] = field(default_factory=list)
    #: Where each declared announcement was (:attr:`Step.expect`).
    reached: list[Reach] = field(default_factory=list)
    #: The cursor's row at the end of the step.
    cursor_y: int = 0
    #: How many times each row (as plain words) was shown in the step: the
    #: screen at rest, then the rows each page of the reply brought.
    shown: dict[str, int] = field(default_factory=dict)
    #: The row the keys answered, as it stood once answered (the question's
    #: prompt and what was typed): a screen reader may read it once more.
    answered: str = ""
    #: The screen at rest before the reply's pages were read, and its
    #: cursor's row (the screen at the end, when there were none).
    rest: list[str] | None = None
    #: What the keys typed (its echo, said as typed, is not speech of the app).
    text: str = ""
    rest_y: int = 0
    #: The rows of the pages read after it.
    paged: list[str] = field(default_factory=list)
    #: The rows each page of the reply wrote (:func:`changed_rows`),
    #: whatever a screen reader's comparison of lines makes of them.
    wrote: list[str] = field(default_factory=list)
    #: Characters beyond ASCII as the screen reader reads them from the
    #: console's memory (:attr:`devices.VirtualConsole.read_as`: "Č" as "C"
    #: where the font lacks it).
    read_as: dict[str, str] = field(default_factory=dict)
    #: Whether the face redraws rows in place (the full screen): a row equal
    #: to the one under it before was not written (:func:`changed_rows`).
    in_place: bool = False

    @property
    def missed(self) -> list[Reach]:
        """The declared announcements not in the window at rest nor its pans."""
        return [r for r in self.reached if not r.at_cursor]

    def unsaid(self) -> list[str]:
        """The declared announcements Fenrir did not say."""
        from devtools.atcheck.reach import pattern  # noqa: PLC0415

        heard = " ".join(piece for u in self.fenrir_said if u.kind == "say"
                         for piece in re.split(r" +, ?| / ", u.text))
        return [r.text for r in self.reached if not pattern(r.text).search(heard)]

    def unheard(self) -> list[str]:
        """The rows of the reply and its question that Fenrir did not say,
        each as many times as they were written (the cursor's row down,
        or the row answered down, and every row each page wrote): a line
        equal to one it had read, which its comparison of the screens took
        for an old line, goes unsaid."""
        if self.step.repeats or self.step.keys is None:
            return []
        screen, y = (self.screen, self.cursor_y) if self.rest is None else (self.rest, self.rest_y)
        found = _answered_at(screen, y, self.answered)  # (plain mode: the reply below it)
        y = y if found is None else found
        written = [screen[i] for i in changed_rows(self.before, screen, in_place=self.in_place)
                   if i >= y]
        heard = Counter(piece for utterance in self.fenrir_said if utterance.kind == "say"
                        for piece in _pieces(utterance.text))
        missing = []
        for shown in [*written, *self.wrote]:
            row = "".join(self.read_as.get(char, char) for char in shown)
            words = _plain_words(_as_said(row))
            if len(words.split()) < 2 or words == _plain_words(self.answered):
                continue
            # as Fenrir's utterance is cut into rows (a blank and a comma in
            # the row, "28%," said "28 ,", cut it too)
            parts = _pieces(_as_said(row))
            if all(heard[part] > 0 for part in parts):
                heard.subtract(parts)
            else:
                missing.append(shown.strip())
        return missing

    def stale(self) -> list[str]:
        """What Fenrir said again of the screen before the key."""
        if self.step.repeats or not self.before:
            return []
        # the news: from the row answered down (plain mode: the cursor is on
        # the next question, below the reply), else from the cursor down
        # and every row of the pages after it
        screen, y = (self.screen, self.cursor_y) if self.rest is None else (self.rest, self.rest_y)
        news = [*screen[y:], *([self.answered] if self.answered else [])]
        if self.answered:
            found = _answered_at(screen, y, self.answered)
            if found is not None:
                news = screen[found:]
            # read as typed and once more as the screen moves on (as
            # :meth:`duplicates` counts it), whatever earlier row had its text
            news = [*news, self.answered]
        return stale(self.before, self.screen, [
            piece for u in self.fenrir_said if u.kind == "say" for piece in _pieces(u.text)],
            news=[*news, *self.paged])

    @property
    def at_cursor(self) -> bool:
        return self.step.shows is None or re.search(self.step.shows, self.window) is not None

    @property
    def spoken(self) -> bool:
        if self.step.says is None:
            return True
        heard = " ".join(u.text for u in self.fenrir_said if u.kind == "say")
        return re.search(self.step.says, _plain_words(heard), re.IGNORECASE) is not None

    def duplicates(self, *, brltty: bool = True) -> list[str]:
        """Pieces of speech said twice in this step, by one screen reader
        (Fenrir, and BRLTTY's autospeak unless ``brltty`` is false); a line
        the screen shows twice (two players with 0 points, on one page of
        the reply or two) may be said twice."""
        shown = dict(self.shown or _counted(self.screen))
        if self.answered:  # read as typed, and again as the screen moves on
            answered = _plain_words(_as_said(self.answered))
            shown[answered] = shown.get(answered, 0) + 1
        twice = []
        echo = set(_plain_words(self.text).split())
        for said in ((self.brltty_said, self.fenrir_said) if brltty else (self.fenrir_said,)):
            heard: Counter[str] = Counter()
            for utterance in said:
                if utterance.kind != "say":
                    continue
                for piece in _pieces(utterance.text):
                    if set(piece.split()) <= echo:
                        continue  # the echo of what was typed
                    heard[piece] += 1
                    if heard[piece] > max(shown.get(piece, 0), 1):
                        twice.append(piece)
        return twice

    def blank_flickers(self) -> int:
        """Windows that were blank with something else shown after them (but
        at the app's start, again after :data:`KILL` too: it clears the
        screen first, which a dead app left as it was)."""
        if self.step.keys is None or self.step.keys == KILL:
            return 0
        count = 0
        for index, frame in enumerate(self.frames[:-1]):
            if not frame.text.strip() and any(f.text.strip() for f in self.frames[index + 1:]):
                count += 1
        return count


@dataclass(frozen=True)
class Figures:
    """The walk's figures for one face at one size."""

    face: str
    size: str
    steps: int
    line_ups_needed: int
    duplicate_utterances: int
    blank_flickers: int
    announcements_missed: int
    steps_failed: int
    announcements: int = 0
    fenrir_missed: int = 0
    stale_utterances: int = 0
    #: Rows the reply wrote that Fenrir did not say (:meth:`Seen.unheard`):
    #: reported, not yet failing a walk (see docs/development.md).
    rows_unheard: int = 0

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def _counted(rows: Sequence[str]) -> dict[str, int]:
    """How many times each row shows, as plain words (as Fenrir says it:
    "+1 food" is "plus 1 food")."""
    counts: dict[str, int] = {}
    for row in rows:
        words = _plain_words(_as_said(row))
        counts[words] = counts.get(words, 0) + 1
    return counts


def _brought(shown: dict[str, int], before: Sequence[str], after: Sequence[str]) -> list[str]:
    """The rows ``after`` (a page of the reply) brought that ``before`` (the
    page before) did not show, as a screen reader comparing lines finds
    them; added to ``shown``."""
    old, new = [_plain_words(row) for row in before], [_plain_words(row) for row in after]
    brought = [after[j] for tag, _i1, _i2, j1, j2 in
               difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
               if tag in ("insert", "replace") for j in range(j1, j2)]
    for row in brought:
        words = _plain_words(_as_said(row))
        shown[words] = shown.get(words, 0) + 1
    return brought


def _answered_at(screen: Sequence[str], y: int, answered: str) -> int | None:
    """The lowest row of ``screen`` down to ``y`` that shows ``answered``
    (the row the keys answered), if one does.

    >>> _answered_at(["Your pick: q", "You: Sashimi.", "Your pick: q", "Bot 1: Tempura."], 3,
    ...              "Your pick: q")
    2
    >>> _answered_at(["You: Sashimi."], 0, "Your pick: q") is None
    True
    """
    if not answered:
        return None
    rows = [_plain_words(row) for row in screen[:y + 1]]
    if _plain_words(answered) not in rows:
        return None
    return len(rows) - 1 - rows[::-1].index(_plain_words(answered))


def changed_rows(before: Sequence[str], after: Sequence[str], *,
                  in_place: bool = False) -> list[int]:
    """The rows of ``after`` a terminal wrote since ``before``, whatever a
    screen reader's comparison of lines makes of them: ``before`` moved up
    by the rows it scrolled (the shift that leaves most rows as they
    were, the smallest of equals), each row of ``after`` that differs from
    the row of ``before`` now under it. With ``in_place`` (a face that
    redraws rows where they are rather than scrolling the terminal: the
    full screen), a row equal to the one at its place before (the key
    facts' row, at the screen's foot) was not written either, and the
    shift is the one that leaves most of the other rows as they were (a
    page's first rows, the page before's last, moved up above new ones:
    not the key facts, equal in place under both).

    >>> changed_rows(["a", "b", "c", "More: Enter."], ["c", "x", "b", "y"])  # two scrolled
    [1, 2, 3]
    >>> changed_rows(["1. One", "2. Two", ""], ["1. One", "2. Two", ""])
    []
    >>> changed_rows(["a", "b", "c", "R1 T1"], ["b", "c", "d", "R1 T1"], in_place=True)
    [2]
    >>> changed_rows(["x", "y", "a", "b", "More: Enter.", "R1", "T1"],  # a page after
    ...              ["a", "b", "c", "d", "e", "R1", "T1"], in_place=True)
    [2, 3, 4]
    """
    rows = max(len(before), len(after))
    old = [*before, *[""] * (rows - len(before))]
    new = [*after, *[""] * (rows - len(after))]

    def kept(shift: int) -> int:
        return sum(1 for i in range(rows - shift) if new[i].strip() and new[i] == old[i + shift]
                   and not (in_place and new[i] == old[i]))

    shift = max(range(rows), key=lambda k: (kept(k), -k)) if rows else 0
    return [i for i in range(rows) if new[i].strip()
            and (i + shift >= rows or new[i] != old[i + shift])
            and not (in_place and new[i] == old[i])]


def _as_said(row: str) -> str:
    """A row's text as Fenrir says it: the signs it reads out as words,
    and "%", which it leaves out (a blank in its place).

    >>> _as_said("t+w2, two-player dummy")
    't plus w2, two dash player dummy'
    >>> _as_said("risk 28%, you")
    'risk 28 , you'
    """
    return row.replace("+", " plus ").replace("-", " dash ").replace("/", " slash ").replace(
        "%", " ").replace("  ", " ")


def _plain_words(text: str) -> str:
    """Speech reduced to words: what was said, not how it was spelt out."""
    return " ".join(re.findall(r"\w+", text.lower()))


def _pieces(text: str) -> list[str]:
    """An utterance cut into its lines (Fenrir joins screen lines with
    " , " after their trailing blanks, and the debug driver's lines with
    " / "), as plain words; single
    letters (typing echo) and Fenrir's attribute notes left out."""
    pieces = []
    for piece in re.split(r" +, ?| / ", text):
        words = _plain_words(piece)
        if len(words) > 1 and words != "has attribute":
            pieces.append(words)
    return pieces


def figures(face: str, size: str, seen: Sequence[Seen]) -> Figures:
    """The figures of a walk from what each step brought."""
    ups = sum(s.line_ups or 0 for s in seen if s.step.shows is not None and not s.at_cursor)
    ups += sum(r.line_ups or 0 for s in seen for r in s.missed)
    missed = sum(1 for s in seen if s.step.shows is not None and not s.at_cursor and not s.spoken)
    missed += sum(len(s.missed) for s in seen)
    failed = sum(1 for s in seen if failures(s))
    return Figures(face, size, len(seen), ups, sum(len(s.duplicates()) for s in seen),
                   sum(s.blank_flickers() for s in seen), missed, failed,
                   announcements=sum(len(s.reached) for s in seen),
                   fenrir_missed=sum(len(s.unsaid()) for s in seen),
                   stale_utterances=sum(len(s.stale()) for s in seen),
                   rows_unheard=sum(len(s.unheard()) for s in seen))


def failures(seen: Seen, *, speech: bool = True, autospeak: bool = True) -> list[str]:
    """What went wrong in a step, in words (empty: nothing); with ``speech``
    false, only what the braille display showed; with ``autospeak`` false,
    of speech only what Fenrir said."""
    wrong = []
    if seen.timed_out and (speech or "Fenrir" not in seen.timed_out):
        wrong.append(f"waited in vain for {seen.timed_out}")
    if not seen.at_cursor:
        wrong.append(f"window at the cursor {seen.window!r} lacks /{seen.step.shows}/"
                     + (f" ({seen.line_ups} line-ups away)" if seen.line_ups else ""))
    if speech and not seen.spoken:
        said = [u.text for u in seen.fenrir_said if u.kind == "say"]
        wrong.append(f"Fenrir did not say /{seen.step.says}/ (said {said!r})")
    twice = seen.duplicates(brltty=autospeak)
    if speech and twice:
        wrong.append(f"said twice: {twice!r}")
    if seen.blank_flickers():
        wrong.append(f"{seen.blank_flickers()} blank braille window(s)")
    for missed in seen.missed:
        wrong.append(f"{missed.text!r} not in the braille window nor its forward pans"
                     + (f" ({missed.line_ups} line-ups up)" if missed.line_ups is not None
                        else " (nowhere above it on the screen)"))
    if speech:
        for text in seen.unsaid():
            wrong.append(f"Fenrir did not say {text!r}")
        if seen.stale():
            wrong.append(f"said again of the screen before the key: {seen.stale()!r}")
    return wrong


class Walker:
    """The app on a console under BRLTTY and Fenrir, driven step by step."""

    def __init__(self, argv: Sequence[str], *, cols: int, rows: int, workdir: Path,
                 cells: int = 40, term: str = "linux", in_place: bool = False) -> None:
        self.argv = list(argv)
        self.in_place = in_place
        self.cells = cells
        self.workdir = workdir
        self.env = {
            "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(workdir / "home"),
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": term,
            "COMPANION_CONFIG_DIR": str(workdir / "config"),
            "COMPANION_DATA_DIR": str(workdir / "data"),
            # the app's own voice: espeak-ng, whatever speech-dispatcher can do here
            "COMPANION_SPEECH": os.environ.get("COMPANION_SPEECH", "espeak-ng"),
            # the same deals every walk (another seed: another walk of the same steps)
            "COMPANION_SEED": os.environ.get("COMPANION_SEED", "walk"),
        }
        # the app's speech plays into ALSA's null device unless the caller
        # chose an output (what is measured is the screen readers; a console
        # with no sound card would have the app say so before its first question)
        if "ALSA_CONFIG_PATH" in os.environ:
            self.env["ALSA_CONFIG_PATH"] = os.environ["ALSA_CONFIG_PATH"]
        else:
            null = workdir / "null-sound.conf"
            null.write_text(NULL_SOUND, encoding="utf-8")
            self.env["ALSA_CONFIG_PATH"] = str(null)
        for sub in ("home", "config", "data"):
            (workdir / sub).mkdir(parents=True, exist_ok=True)
        self.console = VirtualConsole(cols, rows)
        self.brltty: Brltty | None = None
        self.fenrir: Fenrir | None = None
        self.app: subprocess.Popen[bytes] | None = None
        self._marks = (0, 0, 0)
        #: The console's lock while the walk holds it (:func:`take_console`).
        self._console_lock: int | None = None
        #: The signal the walk was told to end by (0: none).
        self._signalled = 0
        #: The keeper (:mod:`devtools.atcheck.keeper`): it stops what the
        #: walk started if the walk's process dies before it does.
        self._keeper: subprocess.Popen[bytes] | None = None
        #: SIGTERM's handler before the walk (the walk's own while it runs).
        self._terminated: Callable[[int, FrameType | None], Any] | int | None = None

    def __enter__(self) -> Walker:
        self._console_lock = take_console()
        if threading.current_thread() is threading.main_thread():
            self._terminated = signal.signal(signal.SIGTERM, self._ended)
        try:
            self.console.open()  # (the lock held: no other walk's console is left)
            self._keeper = subprocess.Popen(
                [sys.executable, str(Path(__file__).with_name("keeper.py"))],
                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True, close_fds=True)
            self.brltty = Brltty(self.workdir, self.cells)
            self._keep(self.brltty.process.pid)
            self._until(lambda: bool(self.brltty and self.brltty.frames), "BRLTTY's first window")
            self.fenrir = Fenrir(self.workdir)
            self._keep(self.fenrir.process.pid)
            self._until(lambda: bool(self.fenrir and self.fenrir.said), "Fenrir to start")
            self._quiet()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _ended(self, number: int, _frame: FrameType | None) -> None:
        """SIGTERM (a time limit, ``kill``): the walk ends, everything it
        started stopped on the way out, and then the signal is the
        process's again (:meth:`close`): it ends the run as it would have."""
        self._signalled = number
        raise SystemExit(128 + number)

    def _keep(self, pid: int) -> None:
        """``pid`` (a session's leader) to the keeper, to stop if the walk dies."""
        if self._keeper is not None and self._keeper.stdin is not None:
            with contextlib.suppress(OSError):
                self._keeper.stdin.write(b"%d\n" % pid)
                self._keeper.stdin.flush()

    def close(self) -> None:
        if self.app is not None:
            stop(self.app)
        for reader in (self.fenrir, self.brltty):
            if reader is not None:
                reader.close()
        if self._keeper is not None:  # all stopped: the keeper has nothing to do
            with contextlib.suppress(OSError):
                if self._keeper.stdin is not None:
                    self._keeper.stdin.write(b"end\n")
                    self._keeper.stdin.close()
            try:
                self._keeper.wait(5)
            except subprocess.TimeoutExpired:
                self._keeper.kill()
                self._keeper.wait()
            self._keeper = None
        self.console.close()
        if self._console_lock is not None:
            os.close(self._console_lock)  # (the lock goes with it)
            self._console_lock = None
        if self._terminated is not None:
            signal.signal(signal.SIGTERM, self._terminated)
            self._terminated = None
        if self._signalled:  # told to end: now as it would have been, nothing left behind
            number, self._signalled = self._signalled, 0
            os.kill(os.getpid(), number)

    # ------------------------------------------------------------------ waiting

    def _until(self, condition: Callable[[], bool], what: str,
               patience: float | None = None) -> str:
        """Wait for ``condition``; "" when it came, ``what`` when it never did."""
        deadline = now() + (PATIENCE if patience is None else patience)
        while not condition():
            if now() > deadline:
                return what
            time.sleep(0.05)
        return ""

    def _last_event(self) -> float:
        times = [0.0]
        assert self.brltty is not None and self.fenrir is not None
        with self.brltty.lock:
            if self.brltty.frames:
                times.append(self.brltty.frames[-1].t)
        for source, lock in ((self.brltty.speech.said, self.brltty.speech.lock),
                             (self.fenrir.said, self.fenrir.lock)):
            with lock:
                if source:
                    times.append(source[-1].t)
        return max(times)

    def _quiet(self, quiet: float = QUIET, longest: float = 15.0) -> None:
        """Wait until the console, BRLTTY and Fenrir were all still for ``quiet``."""
        start = changed = now()
        screen = self.console.snapshot()
        while now() - start < longest:
            if (latest := self.console.snapshot()) != screen:
                screen, changed = latest, now()
            if now() - max(self._last_event(), changed) >= quiet:
                return
            time.sleep(0.05)

    def _segment(self) -> str:
        """The cells of the cursor's row a braille window at the cursor shows."""
        lines, x, y = self.console.snapshot()
        row = lines[y] if y < len(lines) else ""
        start = (x // self.cells) * self.cells
        return row[start:start + self.cells]

    # ------------------------------------------------------------------ steps

    def _start_app(self) -> None:
        console = self.console.path

        def child() -> None:
            outlived_never()
            fd = os.open(console, os.O_RDWR)
            with contextlib.suppress(OSError):
                fcntl.ioctl(fd, TIOCSCTTY, 0)
            for target in (0, 1, 2):
                os.dup2(fd, target)
            if fd > 2:
                os.close(fd)

        self.app = subprocess.Popen(self.argv, env=self.env, preexec_fn=child,  # noqa: PLW1509
                                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL, close_fds=True)
        self._keep(self.app.pid)

    def _start_again(self) -> str:
        """The app killed with SIGKILL, its whole group, then started again."""
        if self.app is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.app.pid, signal.SIGKILL)
            self.app.wait(10)
        self.console.reopen()  # (the dead app's console was hung up, the walk's hold on it too)
        self._start_app()
        return KILL

    def _send(self, keys: Keys, screen: list[str]) -> str:
        if callable(keys):
            text = keys(screen)
            for char in text:
                self.console.send(char.encode())
                time.sleep(0.05)
            return f"typed {text!r}"
        if isinstance(keys, tuple):
            for char in keys[1]:
                self.console.send(char.encode())
                time.sleep(0.05)
            return f"typed {keys[1]!r}"
        self.console.send(KEYS[keys])
        return keys

    def step(self, step: Step) -> Seen:
        """Do one step and gather what it brought."""
        assert self.brltty is not None and self.fenrir is not None
        brltty, fenrir = self.brltty, self.fenrir
        with brltty.lock, brltty.speech.lock, fenrir.lock:
            marks = (len(brltty.frames), len(brltty.speech.said), len(fenrir.said))
        before_state = self.console.snapshot()
        before = before_state[0]
        typed = text = ""
        if step.keys is None:
            self._start_app()
        elif step.keys == KILL:
            typed = self._start_again()
        else:
            typed = self._send(step.keys, before)
            text = _typed(step.keys, before)

        waited, step = self._settle(step, before_state, marks[2])
        reached = self._reach(step)
        # the reply at rest, where the cursor put it (pages read after it)
        window, (lines, _x, y) = brltty.window(), self.console.snapshot()
        row = lines[y] if y < len(lines) else ""
        shown = _counted(lines)
        rest = (lines, y)
        paged: list[str] = []
        wrote: list[str] = []
        pages, reached, step = self._pages(step, reached, shown, paged, wrote)
        typed += ", Enter (More)" * pages
        with brltty.lock, brltty.speech.lock, fenrir.lock:
            frames = brltty.frames[marks[0]:]
            brltty_said = brltty.speech.said[marks[1]:]
            fenrir_said = fenrir.said[marks[2]:]
        lines, _x, y = self.console.snapshot()
        answered = _answered(before, rest[0], text)
        seen = Seen(step, typed, frames, brltty_said, fenrir_said, window, row, lines,
                    timed_out=waited, before=before, reached=reached, cursor_y=y,
                    shown=shown, answered=answered,
                    rest=rest[0] if pages else None, rest_y=rest[1], paged=paged, text=text,
                    wrote=wrote, in_place=self.in_place, read_as=self.console.read_as)
        if step.shows is not None and not seen.at_cursor:
            self._review(seen)
        return seen

    def _settle(self, step: Step, before_state: tuple[list[str], int, int],
                mark: int) -> tuple[str, Step]:
        """Wait for what the step's keys brought (the screen changed, the
        reply at the cursor, the question ready, BRLTTY and Fenrir caught
        up, then quiet): what was waited for in vain, if anything, and the
        step, its finale's expectations added if the reply shows it."""
        assert self.brltty is not None and self.fenrir is not None
        brltty, fenrir = self.brltty, self.fenrir
        waited = ""
        if step.changes:
            waited = self._until(lambda: self.console.snapshot() != before_state,
                                 "the screen to change")
        if step.shows is not None and not waited:
            pattern = step.shows
            waited = self._until(lambda: re.search(pattern, self._segment()) is not None,
                                 f"/{pattern}/ at the cursor")
        if step.ready is not None and not waited:
            ready = step.ready
            waited = self._until(lambda: re.search(
                ready, "\n".join(self.console.snapshot()[0])) is not None
                or _paged(self.console.snapshot()[0]),  # or a page before it, read below
                f"/{ready}/ on the screen")
        if not waited:  # BRLTTY caught up with the cursor
            waited = self._until(
                lambda: brltty.window().rstrip() == self._segment().rstrip(),
                "BRLTTY's window to reach the cursor", patience=10.0)
        if step.says is not None and not waited:
            says = step.says
            waited = self._until(lambda: re.search(says, _plain_words(" ".join(
                u.text for u in fenrir.said[mark:] if u.kind == "say")), re.IGNORECASE)
                is not None, f"Fenrir to say /{says}/", patience=15.0)

        def said_all(step: Step) -> None:  # Fenrir is given the time to say them
            if step.expect and not waited:
                self._until(lambda: not Seen(step, "", [], [], fenrir.said[mark:], "", "",
                                             [], reached=[Reach(e) for e in step.expect]
                                             ).unsaid(), "", patience=10.0)
            self._quiet()

        step = with_finale(step, self.console.snapshot()[0])
        said_all(step)
        if (ended := with_finale(step, self.console.snapshot()[0])) is not step:  # (shown late)
            step = ended
            said_all(step)
        return waited, step

    def _pages(self, step: Step, reached: list[Reach], shown: dict[str, int],
               paged: list[str], wrote: list[str]) -> tuple[int, list[Reach], Step]:
        """A reply in pages: each page read, Enter for the next; how many
        Enters, where the declared announcements were at best (the step's
        finale among them once a page shows it: the step returned), the rows
        each page brought added to ``shown``, each page's rows to ``paged``
        (as a screen reader comparing lines finds them) and to ``wrote``
        (as the page wrote them: :func:`changed_rows`)."""
        pages = 0
        while pages < PAGES_READ and _paged(self.console.snapshot()[0]):
            screen = self.console.snapshot()
            self.console.send(KEYS["Enter"])
            pages += 1
            self._until(partial(_changed, self.console, screen), "", patience=10.0)
            self._quiet()
            page = self.console.snapshot()[0]
            if (ended := with_finale(step, page)) is not step:
                reached += [Reach(text) for text in ended.expect[len(step.expect):]]
                step = ended
            reached = [_better(a, b) for a, b in zip(reached, self._reach(step), strict=True)]
            paged += _brought(shown, screen[0], page)
            wrote += [page[i] for i in changed_rows(screen[0], page, in_place=self.in_place)]
        return pages, reached, step

    def _reach(self, step: Step) -> list[Reach]:
        """Where the step's declared announcements are on the screen now."""
        assert self.brltty is not None
        lines, x, y = self.console.snapshot()
        return reach(lines, x, y, step.expect, cells=self.cells, cols=self.console.cols,
                     shown=self.brltty.window())

    def _review(self, seen: Seen, limit: int = 12) -> None:
        """Count the braille line-ups to the reply, then go back to the cursor."""
        assert self.brltty is not None and seen.step.shows is not None
        brltty = self.brltty
        seen.line_ups = None
        for press in range(1, limit + 1):
            shown = brltty.window()
            brltty.press("LineUp")
            self._until(partial(_moved, brltty, shown), "", patience=2.0)
            seen.reviewed.append(brltty.window())
            if re.search(seen.step.shows, brltty.window()):
                seen.line_ups = press
                break
        brltty.press("ToCursor")
        self._until(lambda: brltty.window().rstrip() == self._segment().rstrip(), "",
                    patience=5.0)
        self._quiet()


#: The last row of a page that is not the last one (both faces, in the four
#: languages).
MORE = re.compile(r"^(More: Enter|La suite\s?: Entrée|Další: Enter|Дальше: Enter)\."
                  r"( (Page|Strana|Страница) \d+\.)?\s*$")


def _paged(lines: Sequence[str]) -> bool:
    """Whether the screen ends a page, the rest waiting for Enter: a page's
    last line is on it (neither face leaves one once the page is read: the
    full screen draws it only under a page, plain mode writes the next
    page over it; and the key facts under it may take two rows or more).

    >>> _paged(["Tapez une carte :", "La suite\xa0: Entrée. Page 2.", "R1 T1"])
    True
    >>> _paged(["More cards: Enter them."])
    False
    """
    return any(MORE.match(line) for line in lines)


def _better(first: Reach, second: Reach) -> Reach:
    """Where an announcement was, over two pages: the better place."""
    if first.at_cursor or (not second.at_cursor and (
            first.line_ups is not None and (second.line_ups is None
                                             or first.line_ups <= second.line_ups))):
        return first
    return second


def _answered(before: Sequence[str], after: Sequence[str], text: str) -> str:
    """The row of ``before`` the typed ``text`` answered, as it stands in
    ``after`` (the question's prompt, then the text): the lowest row of
    ``before`` that ``after`` shows followed by the text, else the last
    row of ``before`` ("" if nothing was typed)."""
    if not text.strip():
        return ""
    shown = {_plain_words(row) for row in after}
    for row in reversed(before):
        if row.strip() and _plain_words(f"{row} {text.strip()}") in shown:
            return f"{row.rstrip()} {text.strip()}"
    # gone from ``after`` (a reply in pages pushed it off): the question,
    # the last row written before the keys
    last = next((row for row in reversed(before) if row.strip()), "")
    return f"{last.rstrip()} {text.strip()}" if last else ""


def _typed(keys: Keys, screen: list[str]) -> str:
    """The text ``keys`` type (nothing for a key such as Enter)."""
    if callable(keys):
        return keys(screen)
    return keys[1] if isinstance(keys, tuple) else ""


def _changed(console: VirtualConsole, screen: tuple[list[str], int, int]) -> bool:
    """Whether the console shows something else than ``screen``."""
    return console.snapshot() != screen


def _moved(brltty: Brltty, shown: str) -> bool:
    """Whether BRLTTY's window shows something else than ``shown``."""
    return brltty.window() != shown


#: The lock every walk takes on the machine's console, this one, the
#: suite's and the one in ../shared/at-check when run under
#: ``flock /tmp/at-console.lock``: two walks at once would each read the
#: other's keys.
CONSOLE_LOCK = Path("/tmp/at-console.lock")
#: How long a walk waits for another to end (the longest takes ten minutes).
CONSOLE_WAIT = 1800.0


def take_console(path: Path = CONSOLE_LOCK, wait: float = CONSOLE_WAIT) -> int:
    """The console's lock (a descriptor: closing it lets the lock go),
    waiting at most ``wait`` seconds for a walk that holds it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    deadline = now() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if now() > deadline:
                os.close(fd)
                raise TimeoutError(f"another walk held the console ({path}) for {wait:.0f} s"
                                   ) from None
            time.sleep(0.5)


def run_walk(face: str, cols: int, rows: int, steps: Sequence[Step], *,
             app: Sequence[str], out: Path | None = None,
             cells: int = 40) -> tuple[Figures, list[Seen]]:
    """Walk ``steps`` in ``face`` ("full" or "plain") on a ``cols`` x ``rows``
    console; the transcript goes to ``out`` when given."""
    argv = list(app) + (["--plain"] if face == "plain" else [])
    with tempfile.TemporaryDirectory(prefix="atwalk-") as folder:
        seen: list[Seen] = []
        with Walker(argv, cols=cols, rows=rows, workdir=Path(folder), cells=cells,
                    in_place=face == "full") as walker:
            for step in steps:
                if step.when is not None and not step.when(walker.console.snapshot()[0]):
                    continue
                seen.append(walker.step(step))
    size = f"{cols}x{rows}"
    result = figures(face, size, seen)
    if out is not None:
        out.write_text(transcript(result, seen), encoding="utf-8")
    return result, seen


def transcript(result: Figures, seen: Sequence[Seen],
               steps: Collection[int] | None = None) -> str:
    """What each step brought (or the steps numbered ``steps``, from 1),
    for a person to read."""
    lines = [f"# {result.face} face, {result.size}: {result.as_dict()}", ""]
    for number, s in enumerate(seen, 1):
        if steps is not None and number not in steps:
            continue
        lines.append(f"## Step {number}: {s.step.label}")
        if s.typed:
            lines.append(f"keys: {s.typed}")
        start = s.frames[0].t if s.frames else 0.0
        for frame in s.frames:
            lines.append(f"  braille +{frame.t - start:5.2f}s |{frame.text}|"
                         + (f" cursor {frame.cursor}" if frame.cursor is not None else ""))
        lines.append(f"window at the end: |{s.window}|")
        if s.reviewed:
            lines.append(f"line-ups: {s.line_ups}: " + " | ".join(w.rstrip() for w in s.reviewed))
        for who, said in (("brltty", s.brltty_said), ("fenrir", s.fenrir_said)):
            for u in said:
                lines.append(f"  {who} {u.kind}: {u.text}".rstrip())
        lines.append(f"cursor row: {s.cursor_row!r}")
        if s.answered:
            lines.append(f"answered: {s.answered!r}")
        lines.extend(f"  | {row}" for row in s.screen if row.strip())
        for r in s.reached:
            lines.append(f"  {'ok    ' if r.at_cursor else 'MISSED'} {r.text!r}: "
                         + (f"at the cursor, {r.pans} pan(s)" if r.at_cursor else
                            f"{r.line_ups} line-up(s) up" if r.line_ups is not None else
                            "not on the screen"))
        for problem in failures(s):
            lines.append(f"PROBLEM: {problem}")
        for row in s.unheard():
            lines.append(f"UNHEARD: {row!r}")
        lines.append("")
    return "\n".join(lines) + "\n"


#: The faces and console sizes the walk is taken in.
#: The pages of one reply the walk reads, at most: every page of the longest
#: (the scoring explained takes ten at 40x15); one left unread would be
#: ended by the next step's key, and its rows scroll by unseen by the walk.
PAGES_READ = 20
FACES = ("full", "plain")
SIZES = ((80, 25), (40, 15))
