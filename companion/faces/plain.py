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

import contextlib
import io
import os
import re
import shutil
import signal
import sys
import textwrap
import threading
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol, cast

from rich.cells import cell_len

from companion import ending
from companion.contract.events import (
    Announcement,
    Answered,
    Asked,
    Item,
    Menu,
    Pressed,
    Typed,
)
from companion.conversation.inbox import ItemSource, LineReader
from companion.faces import FAR_RIGHT, KEPT, break_question
from companion.faces.keyboard import ConsoleKeyboard, Keyboard, TerminalKeyboard


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
    >>> wrap("1. Type or scan a card to hear what it is.", 39)
    ['1. Type or scan a card to hear what it', 'is.']
    """
    if width < 10 or len(text) <= width:
        return [text]
    phrases = re.findall(r".+?(?:[,:;.] |$)", text)
    if len(phrases) > 1 and re.fullmatch(r"\d+\. ", phrases[0]):
        phrases[:2] = [phrases[0] + phrases[1]]  # a menu option's number stays with it
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


#: What the keyboard echoes to erase what was typed: back, blanks, back.
_ERASED = re.compile(r"(\x08+) +\x08+")


def _without_cells(text: str, cells: int) -> str:
    """``text`` without its last characters that take ``cells`` cells.

    >>> _without_cells("w2 Жé\u0301", 2), _without_cells("ab", 5)
    ('w2 ', '')
    """
    while text and cells > 0:
        cells -= cell_len(text[-1])
        text = text[:-1]
    return text


@dataclass(frozen=True)
class _Prompt:
    """A question waiting, behind the rows of a full page."""

    text: str


#: Erase to the end of the line: what a row or a prompt is written over
#: (rows a killed app left, a longer line) never stays beside it.
ERASE_LINE = "\x1b[K"
#: Erase from the cursor to the end of the screen.
ERASE_BELOW = "\x1b[J"
#: The first thing written on a terminal: the cursor at the start of its
#: line, that line and every row below it blank (a killed app's rows, where
#: the cursor was left, are not mixed with this run's).
CLEAN_START = "\r" + ERASE_BELOW


def _block(rows: list[str]) -> str:
    r"""Rows as written on a terminal: each erased to its end, and ended.

    >>> _block(["Main menu.", "1. Practice."])
    'Main menu.\x1b[K\n1. Practice.\x1b[K\n'
    """
    return "".join(row + ERASE_LINE + "\n" for row in rows)


class PlainFace:
    """The conversation as lines on a text stream."""

    def __init__(self, output: LineSink, *, terminal: bool | None = None,
                 width: int | None = None) -> None:
        self.output = output
        isatty = getattr(output, "isatty", None)
        self.terminal = terminal if terminal is not None else bool(isatty and isatty())
        self.width = width
        #: What the player has typed of the line, as echoed on the cursor's row.
        self._shown = ""
        #: The prompt waiting on its line, on a terminal; "" for a line typed
        #: ahead (before its question came) on a row of its own.
        self._prompt: str | None = None
        self._rows = 0  # rows the block written since the player's last key spans, minus one
        self._fresh = True  # the next output begins a new block
        self._owed = False  # the Enter that ended an answer, not written yet
        self._lifted = False  # the cursor is on the block's first row (the prompt's saved)
        self._begun = False  # something was written on the terminal already
        #: What waits for Enter once a block fills the screen: the rows of
        #: each sentence, and :class:`_Prompt` for the question after them.
        self._held: deque[list[str] | _Prompt] = deque()
        #: The app was told to end (Control C, SIGTERM, a hang-up): set from
        #: a signal handler, so it takes no lock.
        self.ending = False
        #: The line that ends a full page ("More: Enter. Page 1."), in the
        #: player's language: numbered, so that no page's last line is the
        #: same as the page's before it (a screen reader comparing lines
        #: would not say it).
        self.more: Callable[[int], str] = lambda page: f"More: Enter. Page {page}."
        #: The number of the page of the block being written (1: the first).
        self._page_number = 1
        # a speech failure is told from the speech thread, the keyboard echoes from its own
        self._lock = threading.Lock()

    @property
    def has_keys(self) -> bool:
        return False

    def _columns(self) -> int:
        return self.width or shutil.get_terminal_size().columns

    def _question(self, text: str) -> str:
        """A prompt's rows: wrapped at the terminal's width, the last one
        broken after a sentence when it is long (:func:`break_question`).

        >>> import io
        >>> PlainFace(io.StringIO(), terminal=True, width=80)._question(
        ...     "Code for Sashimi? An empty line stops.")
        'Code for Sashimi?\\nAn empty line stops.'
        """
        rows = break_question(wrap(text, self._columns() - 1))
        return "\n".join(rows)

    def _out(self, text: str, *, lift: bool = False) -> None:
        """Write ``text`` in one piece: on a terminal, the cursor first back
        at the answer if it was lifted, and, if ``lift``, then up on the
        first row of the block (while nothing is typed)."""
        if not self.terminal:
            self.output.write(text)
            self.output.flush()
            return
        written = "\x1b8" if self._lifted else ""
        if not self._begun and text:
            written, self._begun = CLEAN_START, True
        self._lifted = False
        if self._owed and text:  # the Enter that ended the answer, with what it brought
            self._owed, text = False, "\n" + text
        rows = text.count("\n")
        if self._fresh and text:
            self._fresh, self._rows = False, 0
            rows -= text.startswith("\n")  # it ends the line the cursor was on
        self._rows += rows
        written += text
        # the answer past a 40-cell window
        far = len(text.rsplit("\n", 1)[-1].replace(ERASE_LINE, "")) > FAR_RIGHT
        if lift and (self._rows > 0 or far) and not self._shown:
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
            if not self.terminal:
                self._out(text + "\n")
                return
            self._news(wrap(text, self._columns() - 1))

    def _news(self, rows: list[str]) -> None:
        """Rows that belong together (a sentence, a menu), on a terminal."""
        if self.ending and self._prompt is not None:  # its question is over: no answer comes
            self._prompt, self._owed, self._fresh = None, True, True
        waiting = self._prompt
        if self._held:  # a page is full: the news waits too, before the question
            prompt = self._held.pop() if isinstance(self._held[-1], _Prompt) else None
            self._held.append(rows)
            if prompt is not None:
                self._held.append(prompt)
            return
        if waiting is not None:
            # news while a question waits comes by itself (a speech notice, a
            # scan): not the reply to a key, it is a block of its own, under
            # the question already read; were it counted with the question's
            # block, a menu and a notice would be more than a page, and
            # "More: Enter." would take the player's answer for its Enter
            self._prompt, self._fresh = None, True
            self._page([rows, _Prompt(waiting)], lead="\n")
        else:
            self._page([rows])

    def _asking(self, prompt: _Prompt) -> str:
        """The question's rows, and what is typed of its answer after it (a
        line typed ahead, with no question: that line alone)."""
        if not prompt.text:
            return self._view(self._shown, "")
        rows = self._question(prompt.text).split("\n")[:-1]
        return _block(rows) + self._view(self._shown, prompt.text) + ERASE_LINE

    def _span(self, text: str) -> int:
        """The rows the block would span once ``text`` is written."""
        owed = self._owed and bool(text)
        rows = text.count("\n") + owed
        if self._fresh:
            return rows - (owed or text.startswith("\n")) + 1
        return self._rows + rows + 1

    def _page(self, items: list[list[str] | _Prompt], *, lead: str = "") -> None:
        """Write ``items`` (each the rows of a sentence, then maybe the
        question) after ``lead``, as many as the screen holds with the block
        written so far and :data:`KEPT` rows of the screen before; if some
        do not fit, "More: Enter." ends the page and the rest waits for
        Enter (:meth:`page`). A sentence is cut between pages only when it
        begins a page or is taller than one. The cursor then rests on the
        block's first row."""
        # KEPT rows of the screen before stay above the block: a screen
        # reader comparing lines reads every row of it (:data:`KEPT`)
        limit = max(shutil.get_terminal_size().lines - KEPT, 3)
        more = self.more(self._page_number) + ERASE_LINE
        empty = self._fresh
        written = lead
        for number, item in enumerate(items):
            rest: list[list[str] | _Prompt] = list(items[number:])
            if isinstance(item, _Prompt):
                last = self._asking(item)
                if self._span(written + last) <= limit:
                    self._out(written + last, lift=True)
                    self._prompt = item.text
                    return
            elif self._span(written + _block(item) + more) <= limit:
                written += _block(item)
                empty = False
                continue
            elif empty or len(item) >= limit - 1:
                fit = 0
                while self._span(written + _block(item[:fit + 1]) + more) <= limit:
                    fit += 1
                fit = max(fit, 1) if empty else fit
                written += _block(item[:fit])
                rest = [item[fit:], *items[number + 1:]]
            self._held.extend(rest)
            self._out(written + more, lift=True)
            return
        self._out(written)

    def page(self, enter: bool) -> bool:
        """A key while a page waits: Enter writes the next page (True: the
        key is taken); any other key writes all that waits at once, and then
        it is what it is (False). False too when nothing waits."""
        with self._lock:
            if not self._held:
                return False
            items = list(self._held)
            self._held.clear()
            # the next page replaces "More: Enter." and is a block of its own
            self._fresh, self._owed = True, False
            if enter:
                self._page_number += 1
                self._page(items, lead="\r\x1b[K")
                return True
            written = "\r\x1b[K"
            for item in items:
                if isinstance(item, _Prompt):
                    written += self._asking(item)
                    self._prompt = item.text
                else:
                    written += _block(item)
            self._out(written)
            return False

    def echo(self, text: str) -> None:
        """What the player types, echoed as it is typed (at the answer). The
        Enter that ends a line is written with what comes next, in the same
        write: the cursor never waits on an empty row (a blank braille
        window) for the reply. The answer never wraps onto a row of its own
        (which a braille window would show blank, or with a lone space):
        its row scrolls sideways by half its width (:meth:`_view`)."""
        with self._lock:
            self._fresh, self._page_number = True, 1
            if not self.terminal:
                self._out(text)
                return
            if text == "\n":
                self._owed, self._shown = True, ""
                return
            erased = _ERASED.fullmatch(text)
            before = self._view(self._shown, self._prompt)
            if erased:
                self._shown = _without_cells(self._shown, len(erased.group(1)))
            else:
                self._shown += text
                if self._prompt is None:  # typed ahead: news comes below this row
                    self._prompt = ""
            after = self._view(self._shown, self._prompt)
            if after.startswith(before):  # typed on, on the same view
                text = after[len(before):]
            elif not (erased and before.startswith(after)):  # (erased: the keyboard's echo)
                text = "\r" + after + ERASE_LINE  # scrolled: the row written again
            self._out(text)

    def _view(self, typed: str, prompt: str | None) -> str:
        r"""The answer's row as it shows ``typed``: the ``prompt``'s last row,
        a space and ``typed``, while they fit before the row's last cell;
        past that, ``typed`` alone, from a point that moves on by half the
        row at a time (as the full screen's answer scrolls), at a word's
        first letter when one follows: a key brings one
        more character, or, once in half a row, the row written again.

        >>> import io
        >>> face = PlainFace(io.StringIO(), terminal=True, width=20)
        >>> face._view("s", "Choose 1 to 6:")
        'Choose 1 to 6: s'
        >>> face._view("salmon nigiri", "Choose 1 to 6:"), face._view(
        ...     "salmon nigiri, squid nigiri", "Choose 1 to 6:")
        ('salmon nigiri', 'squid nigiri')
        """
        lead = self._question(prompt).rsplit("\n", 1)[-1] + " " if prompt else ""
        room = max(self._columns() - 1, 2)
        # the first character of the longest end of ``typed`` that fits the
        # row (read from the end: a key's echo costs the row's width, not
        # the line's length)
        cells, first = 0, len(typed)
        while first and cells + cell_len(typed[first - 1]) <= room:
            first -= 1
            cells += cell_len(typed[first])
        if not first and cell_len(lead) + cells <= room:
            return lead + typed
        step = max(room // 2, 1)
        start = -(-first // step) * step  # the first multiple of the step from there
        # from a word's first letter (a word's tail would read as another word)
        word = re.compile(r"(?<=\s)\S").search(typed, start) if start else None
        return typed[word.start():] if word else typed[start:]

    def entered(self) -> None:
        """The player ended a line: the next output starts a line of its own."""
        with self._lock:
            self._prompt = None

    def pressed(self) -> None:
        """The player pressed a key of the key map: what waits for Enter is
        written, and what follows is a new block."""
        self.page(False)
        with self._lock:
            self._fresh, self._page_number = True, 1

    def taken(self, item: Item) -> None:
        """The conversation takes what the player typed. If it was typed
        ahead (read by the keyboard's own thread, with a scanner, while the
        reply to the line before was still to come), it is now what it is
        when typed after that reply: the key that writes what waits for
        Enter, and its reply a block of its own (not pages held for Enter
        behind the replies to every line typed ahead)."""
        if isinstance(item, Typed | Pressed):
            self.pressed()

    def show(self, announcement: Announcement) -> None:
        self._write(announcement.text)

    def asked(self, asked: Asked) -> None:
        question = asked.question
        if isinstance(question, Menu) and not asked.again:
            options = question.numbered()
            if self.terminal:  # the title and its options are on one page
                with self._lock:
                    self._news([row for text in (question.title, *options)
                                for row in wrap(text, self._columns() - 1)])
            else:
                for text in (question.title, *options):
                    self._write(text)
        if asked.prompt is None:
            return
        if not self.terminal:
            self._write(asked.prompt)
            return
        # on a terminal the answer is typed on the prompt's own line, so a
        # braille display at the cursor shows the question
        with self._lock:
            if asked.again and asked.prompt in (
                    self._prompt, self._held and getattr(self._held[-1], "text", None)):
                return  # on the cursor's line already (written again after the news)
            if self._held:
                self._held.append(_Prompt(asked.prompt))
                return
            waiting, self._prompt = self._prompt, None
            self._page([_Prompt(asked.prompt)], lead="\n" if waiting is not None else "")

    def finish(self) -> None:
        """The app ends: what waits for Enter is written, the cursor goes
        back below the last row written and that row is ended, so that
        what the shell writes next does not go over it."""
        self.page(False)
        with self._lock:
            if not self.terminal:
                return
            ended = not self._lifted and not self._owed and self._prompt is None
            self._owed, self._prompt = False, None
            self._out("" if ended else "\n")

    def answered(self, answered: Answered) -> None:
        pass  # what was typed is on the line already

    def progress(self, facts: str) -> None:
        pass  # the key facts are said with each turn; no status line here


class PlainRun:
    """Plain line mode on a stream, around the conversation the composition
    root (:mod:`companion.app`) builds over its face: the face, the
    keyboard the stream allows, the signals that end the app, and the end
    (what waits written, the terminal given back as it was)."""

    def __init__(self, source: ItemSource | LineReader, output: LineSink) -> None:
        # Bytes that are not the locale's text (invalid UTF-8 on a pipe) are read
        # as U+FFFD, as the terminal's keyboard reads them, and a sentence the
        # locale cannot write (Russian in a Latin-1 locale) is written with "?":
        # neither is a reason to stop.
        _forgiving(source, output)
        self.source = source
        self.face = PlainFace(output)
        self.terminal: TerminalKeyboard | None = None

    def keyboard(self) -> ItemSource:
        """What the player types: a source as it is; on a terminal, key by
        key (its mode set until :meth:`finish`); otherwise lines."""
        source, face = self.source, self.face
        fileno = getattr(source, "fileno", None)
        if hasattr(source, "get"):
            return cast(ItemSource, source)
        if face.terminal and fileno is not None and os.isatty(fileno()):
            kind = ConsoleKeyboard if sys.platform == "win32" else TerminalKeyboard
            self.terminal = kind(fileno(), face.echo, face.entered, face.pressed, face.page)
            return self.terminal.start()
        return Keyboard(source, face.entered)

    def signals(self) -> contextlib.AbstractContextManager[None]:
        """While the journeys run: the signals that end the app, taken."""
        return _ended_by_signals(self.face, self.terminal)

    def finish(self) -> None:
        """The app ends: no signal breaks into it; what waits for Enter is
        written, and the terminal is given back as it was."""
        ending.calm()  # ending now: no signal breaks into what follows
        with contextlib.suppress(OSError):  # the terminal may be gone (SIGHUP)
            self.face.finish()
        if self.terminal is not None:
            self.terminal.close()


def _forgiving(*streams: object) -> None:
    """Text streams that replace what they cannot decode or encode.

    >>> import io
    >>> stream = io.TextIOWrapper(io.BytesIO(b"\\xff2\\n"), encoding="utf-8")
    >>> _forgiving(stream)
    >>> stream.readline()
    '\\ufffd2\\n'
    """
    for stream in streams:
        if isinstance(stream, io.TextIOWrapper):
            with contextlib.suppress(ValueError, OSError):  # closed, or not to be changed
                stream.reconfigure(errors="replace")


@contextlib.contextmanager
def _ended_by_signals(face: PlainFace, keyboard: TerminalKeyboard | None) -> Iterator[None]:
    """Control C, Control \\ (SIGQUIT: no core dump, no terminal left
    without echo), SIGTERM and SIGHUP (the terminal closed) end the app: the
    game saved, a goodbye on a line of its own, the terminal given back as
    it was. A signal may reach any thread: the keyboard's wait for keys
    also watches the signals' wakeup pipe, so the main thread sees it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    # Windows wakes no wait by a pipe (its wakeup takes a socket): there the
    # console's keyboard looks for keys between short sleeps, which a signal
    # breaks into.
    wakeup = sys.platform != "win32"
    if wakeup:
        wake_read, wake_write = os.pipe()
        os.set_blocking(wake_read, False)
        os.set_blocking(wake_write, False)
        old_wakeup = signal.set_wakeup_fd(wake_write, warn_on_full_buffer=False)
        if keyboard is not None:
            keyboard.wakeup = wake_read

    def interrupted(signum: int, frame: object) -> None:
        del frame
        face.ending = True
        ending.interrupt(signum)  # (not while the app ends: the goodbye is not cut)

    before = {number: signal.signal(number, interrupted) for number in ending.ENDING}
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)
        if wakeup:
            signal.set_wakeup_fd(old_wakeup)
            if keyboard is not None:
                keyboard.wakeup = None
            os.close(wake_read)
            os.close(wake_write)
