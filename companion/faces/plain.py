"""Plain line mode: numbered prompts and append-only output.

For braille terminals that read line by line, screen readers that prefer a
plain console, and pipes (``companion --plain``; also when ``ACCESSIBLE=1``,
``TERM=dumb`` or standard input is not a terminal). Nothing moves, nothing
is redrawn: every sentence is a new line. A menu is its title, its options
numbered a line each, then the prompt.

On a terminal the prompt ends its line with a space, and the answer is
typed there; lines are wrapped at the terminal's width between phrases and
words (a card name is not cut in two). What the app wrote since the
player's last key (the reply, then the question) is a block, and once the
question is written the cursor rests on the block's first row, so a
braille display at the cursor shows the reply without a line-up and
reading down reaches the question; the first key typed takes the cursor
back to the answer. The cursor moves in the same write as the text, so a
screen reader reads new text once and no line again. Function keys typed
in a line are the actions they stand for (F2 repeat, F5 where...), arrow
keys and other control characters are dropped:
nothing of them is ever written back. On a pipe every prompt is a line of
its own, and nothing is wrapped.

At any prompt the words of the key map work (``repeat``, ``back``,
``next``, ``stop``, ``help``, ``menu``, ``quit``; in a game also the game's:
``where``, ``hand``, ``tables``, ``hint``, ``undo``...).

>>> import io
>>> out = io.StringIO()
>>> face = PlainFace(out)
>>> face.asked(Asked(Menu("Main menu.", ("Practice.", "Quit.")), "Choose 1 to 2:"))
>>> print(out.getvalue(), end="")
Main menu.
1. Practice.
2. Quit.
Choose 1 to 2:
"""

from __future__ import annotations

import os
import re
import shutil
import textwrap
import threading
from collections.abc import Callable
from typing import Protocol, cast

from companion.conversation.core import Talk
from companion.conversation.events import Announcement, Answered, Asked, Menu
from companion.conversation.journeys import run
from companion.faces.keyboard import Keyboard, TerminalKeyboard
from companion.inbox import LineReader, Source
from companion.settings import Settings


class LineSink(Protocol):
    """Where lines go: standard output, or any text stream."""

    def write(self, text: str, /) -> int: ...

    def flush(self) -> None: ...


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` cells, broken after a phrase
    (", ", ": ", "; ", ". ") where it can be and between words otherwise, so
    that a card name in a list stays on one line.

    >>> wrap("10 cards: Wasabi, Squid nigiri, Maki 2.", 22)
    ['10 cards: Wasabi,', 'Squid nigiri, Maki 2.']
    """
    if width < 10 or len(text) <= width:
        return [text]
    phrases = re.findall(r".+?(?:[,:;.] |$)", text)
    lines: list[str] = []
    line = ""
    for phrase in phrases:
        if len(line) + len(phrase.rstrip()) <= width:
            line += phrase
            continue
        if line.strip():
            lines.append(line.rstrip())
        if len(phrase.rstrip()) <= width:
            line = phrase
            continue
        words = textwrap.wrap(phrase, width, break_long_words=True, break_on_hyphens=False)
        lines.extend(words[:-1])
        line = words[-1] + " " if words else ""
    if line.strip():
        lines.append(line.rstrip())
    return lines


#: The column past which the answer is out of a 40-cell braille display's
#: first window (a few cells kept for the answer): the cursor waits at the
#: start of the question's row instead, until the player types.
FAR_RIGHT = 32


class PlainFace:
    """The conversation as lines on a text stream."""

    def __init__(self, output: LineSink, *, terminal: bool | None = None,
                 width: int | None = None) -> None:
        self.output = output
        isatty = getattr(output, "isatty", None)
        self.terminal = terminal if terminal is not None else bool(isatty and isatty())
        self.width = width
        #: What the player has typed of the line (the terminal's keyboard says).
        self.typing: Callable[[], str] = str
        self._prompt: str | None = None  # the prompt waiting on its line, on a terminal
        self._rows = 0  # rows the block written since the player's last key spans, minus one
        self._fresh = True  # the next output begins a new block
        self._owed = False  # the Enter that ended an answer, not written yet
        self._lifted = False  # the cursor is on the block's first row (the prompt's saved)
        # a speech failure is told from the speech thread, the keyboard echoes from its own
        self._lock = threading.Lock()

    @property
    def has_keys(self) -> bool:
        return False

    def _columns(self) -> int:
        return self.width or shutil.get_terminal_size().columns

    def _lines(self, text: str) -> str:
        lines = wrap(text, self._columns() - 1) if self.terminal else [text]
        return "\n".join(lines)

    def _out(self, text: str, *, lift: bool = False) -> None:
        """Write ``text`` in one piece: on a terminal, the cursor first back
        at the answer if it was lifted, and, if ``lift``, then up on the
        first row of the block (while nothing is typed)."""
        if not self.terminal:
            self.output.write(text)
            self.output.flush()
            return
        written = "\x1b8" if self._lifted else ""
        self._lifted = False
        if self._owed and text:  # the Enter that ended the answer, with what it brought
            self._owed, text = False, "\n" + text
        rows = text.count("\n")
        if self._fresh and text:
            self._fresh, self._rows = False, 0
            rows -= text.startswith("\n")  # it ends the line the cursor was on
        self._rows += rows
        written += text
        far = len(text.rsplit("\n", 1)[-1]) > FAR_RIGHT  # the answer past a 40-cell window
        if lift and (self._rows > 0 or far) and not self.typing():
            up = min(self._rows, max(shutil.get_terminal_size().lines - 1, 1))
            written += "\x1b7" + (f"\x1b[{up}A" if up else "") + "\r"
            self._lifted = True
        # One write to the terminal: a text stream with line buffering would
        # send each line apart, and a braille display would show the row
        # the cursor passes through (blank) for a moment.
        binary = getattr(self.output, "buffer", None)
        if binary is None:
            self.output.write(written)
            self.output.flush()
            return
        self.output.flush()
        binary.write(written.encode(getattr(self.output, "encoding", None) or "utf-8",
                                    "replace"))
        binary.flush()

    def _write(self, text: str) -> None:
        """A line; on a terminal, news that comes while a prompt waits goes on
        the line below it, and the prompt (with what was typed) comes again."""
        with self._lock:
            waiting = self._prompt
            written = ("\n" if waiting is not None else "") + self._lines(text) + "\n"
            if waiting is not None:
                written += waiting + " " + self.typing()
            self._out(written, lift=waiting is not None)

    def echo(self, text: str) -> None:
        """What the player types, echoed as it is typed (at the answer). The
        Enter that ends a line is written with what comes next, in the same
        write: the cursor never waits on an empty row (a blank braille
        window) for the reply."""
        with self._lock:
            self._fresh = True
            if text == "\n" and self.terminal:
                self._owed = True
                return
            self._out(text)

    def entered(self) -> None:
        """The player ended a line: the next output starts a line of its own."""
        with self._lock:
            self._prompt = None

    def pressed(self) -> None:
        """The player pressed a key of the key map: what follows is a new block."""
        with self._lock:
            self._fresh = True

    def show(self, announcement: Announcement) -> None:
        self._write(announcement.text)

    def asked(self, asked: Asked) -> None:
        question = asked.question
        if isinstance(question, Menu) and not asked.again:
            self._write(question.title)
            for number, option in enumerate(question.options, start=1):
                self._write(f"{number}. {option}")
        if asked.prompt is None:
            return
        if not self.terminal:
            self._write(asked.prompt)
            return
        # on a terminal the answer is typed on the prompt's own line, so a
        # braille display at the cursor shows the question
        with self._lock:
            if asked.again and self._prompt == asked.prompt:
                return  # on the cursor's line already (written again after the news)
            self._out(("\n" if self._prompt is not None else "")
                      + self._lines(asked.prompt) + " " + self.typing(), lift=True)
            self._prompt = asked.prompt

    def answered(self, answered: Answered) -> None:
        pass  # what was typed is on the line already

    def progress(self, facts: str) -> None:
        pass  # the key facts are said with each turn; no status line here


def run_plain(source: Source | LineReader, output: LineSink, settings: Settings, *,
              first_start: bool = False, scanner: str | None = None) -> int:
    """The app in plain line mode, reading ``source`` (typed lines or keys,
    those of the key map understood) until the player quits or it ends."""
    face = PlainFace(output)
    fileno = getattr(source, "fileno", None)
    terminal = None
    if hasattr(source, "get"):
        keyboard = cast(Source, source)
    elif face.terminal and fileno is not None and os.isatty(fileno()):
        terminal = TerminalKeyboard(fileno(), face.echo, face.entered, face.pressed).start()
        face.typing = lambda: terminal.typing if terminal is not None else ""
        keyboard = terminal
    else:
        keyboard = Keyboard(source, face.entered)
    try:
        return run(Talk(face, keyboard, settings, scanner=scanner), first_start=first_start)
    finally:
        if terminal is not None:
            terminal.close()
