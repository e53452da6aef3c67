"""What the player types in plain line mode, as the conversation's items.

On a terminal, :class:`TerminalKeyboard` reads key by key (the terminal's
own echo and line editing off): printable characters are echoed and
gathered into a line (of at most 4,096 characters, as the terminal's own line
editing keeps), Backspace and Control U erase, Enter ends the line;
a function key of the key map is its action at once (F2 repeats, with no
Enter), a lone Escape stops speech; arrow keys and every other escape
sequence or control character are dropped, and nothing of them is ever
written. On a pipe, :class:`Keyboard` reads lines, and keys typed inside
them are understood the same way. In Windows' console,
:class:`ConsoleKeyboard` reads the keys through ``msvcrt`` and understands
them as the terminal's.
"""

from __future__ import annotations

import codecs
import contextlib
import importlib
import os
import re
import select
import threading
import time
import unicodedata
from collections import deque
from collections.abc import Callable
from typing import Any

from rich.cells import cell_len

from companion import ending
from companion.contract.events import Item, Pressed, Typed
from companion.conversation.inbox import LINE_LONGEST, LineReader, Lines
from companion.keymap import ACTIONS

#: What terminals send for the keys of the key map: xterm and its kin, the
#: Linux console and the VT220 sequences.
KEY_SEQUENCES: dict[str, str] = {
    "\x1bOP": "f1", "\x1bOQ": "f2", "\x1bOR": "f3", "\x1bOS": "f4",
    "\x1b[[A": "f1", "\x1b[[B": "f2", "\x1b[[C": "f3", "\x1b[[D": "f4", "\x1b[[E": "f5",
    "\x1b[11~": "f1", "\x1b[12~": "f2", "\x1b[13~": "f3", "\x1b[14~": "f4",
    "\x1b[15~": "f5", "\x1b[17~": "f6", "\x1b[18~": "f7", "\x1b[19~": "f8",
    "\x1b[20~": "f9", "\x1b[21~": "f10", "\x1b[23~": "f11", "\x1b[24~": "f12",
    "\x1b": "escape",
}
#: An escape sequence (CSI, SS3, the console's F1-F5), an Alt+key, or a lone Escape.
SEQUENCE = re.compile(r"\x1b(?:\[\[[A-E]|\[[0-9;?]*[~@-Z\\a-z^_`{|}]|O[@-~]|[^\x1b]|$)")
#: A sequence not finished yet (more bytes are on their way).
_UNFINISHED = re.compile(r"\x1b(?:\[\[?|\[[0-9;?]*|O)?\Z")
#: Each key of the key map, and the action it stands for.
KEY_ACTIONS = {key: action.name for action in ACTIONS for key in action.keys}
#: Characters a typed line never keeps: controls, format characters (bidi
#: controls, zero-width marks) and lone surrogates; none is written back.
DROPPED = frozenset({"Cc", "Cf", "Cs"})
#: How long the rest of an escape sequence may take to come: a lone Escape
#: after that (a person's keys come far slower, a terminal's sequence at once).
ESCAPE_WAIT = 0.05


class _Nothing:
    """No whole item read yet."""


NOTHING = _Nothing()


def keys_in(line: str) -> tuple[list[str], str]:
    """The keys pressed in a typed line (as the key map names them), and the
    text left once every escape sequence and control character is out.

    >>> keys_in("\\x1bOQ")
    (['f2'], '')
    >>> keys_in("w2\\x1b[B\\x07")
    ([], 'w2')
    >>> keys_in("Ann\\u202e\\u200b")  # bidi and zero-width marks: never a name's
    ([], 'Ann')
    """
    keys = [KEY_SEQUENCES[match.group()] for match in SEQUENCE.finditer(line)
            if match.group() in KEY_SEQUENCES]
    text = SEQUENCE.sub("", line)
    return keys, "".join(ch for ch in text if unicodedata.category(ch) not in DROPPED)


def _actions(keys: list[str]) -> list[Item]:
    return [Pressed(KEY_ACTIONS[key]) for key in keys if key in KEY_ACTIONS]


class Keyboard:
    """Lines from a pipe (or any stream): keys of the key map typed in a
    line are the actions they stand for; other escape sequences and control
    characters are dropped."""

    def __init__(self, stream: LineReader, entered: Callable[[], None] | None = None) -> None:
        self.lines = Lines(stream)
        self.entered = entered
        self._waiting: deque[Item] = deque()

    @property
    def arrived(self) -> float:
        return self.lines.arrived

    def get(self) -> Item:
        if self._waiting:
            return self._waiting.popleft()
        ending.check()  # told to end, its interruption lost: end here, not in a read
        item = self.lines.get()
        if self.entered is not None:
            self.entered()  # the player ended a line
        if not isinstance(item, Typed):
            return item
        keys, text = keys_in(item.text)
        if not keys:
            return Typed(text)
        self._waiting.extend(_actions(keys))
        if text.strip():
            self._waiting.append(Typed(text))
        return self._waiting.popleft() if self._waiting else Typed("")


class TerminalKeyboard:
    """Key by key from a terminal, echoed by the app itself (so that no
    escape sequence is ever echoed). ``echo`` writes what the player typed;
    ``entered`` is told when a line ends, ``pressed`` when a key of the key
    map is (before its action is taken). ``page`` is told of Enter on an
    empty line (True: the face took it, to show the next page of a long
    reply) and of every typed character (the face writes what waits)."""

    def __init__(self, fd: int, echo: Callable[[str], None],
                 entered: Callable[[], None] | None = None,
                 pressed: Callable[[], None] | None = None,
                 page: Callable[[bool], bool] | None = None) -> None:
        self.fd = fd
        self.echo = echo
        self.entered = entered
        self.pressed = pressed
        self.page = page
        #: A pipe a signal handler's wakeup writes to (``signal.set_wakeup_fd``):
        #: a signal that reaches another thread still wakes the wait for keys.
        self.wakeup: int | None = None
        self.arrived = 0.0
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._pending = ""  # characters read, not yet taken
        self._line: list[str] = []
        self._lock = threading.Lock()
        self._saved: list[Any] | None = None

    @property
    def typing(self) -> str:
        """What is typed of the line so far."""
        with self._lock:
            return "".join(self._line)

    def start(self) -> TerminalKeyboard:
        """Take the keys from the terminal (its echo and line editing off,
        its signals kept: Control C still interrupts; its flow control off:
        Control S would freeze all output, with nothing said, until Control Q)."""
        import termios  # noqa: PLC0415 - POSIX only (Windows: ConsoleKeyboard)
        import tty  # noqa: PLC0415

        self._saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd, termios.TCSANOW)
        mode = termios.tcgetattr(self.fd)
        mode[0] &= ~termios.IXON
        termios.tcsetattr(self.fd, termios.TCSANOW, mode)
        return self

    def close(self) -> None:
        """Give the terminal back as it was."""
        if self._saved is not None:
            import termios  # noqa: PLC0415 - POSIX only

            with contextlib.suppress(termios.error, OSError):
                termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
            self._saved = None

    def _read(self, timeout: float | None = None) -> bool:
        """Read what is there (waiting at most ``timeout``); False at the end
        of the input, or when nothing came in time."""
        watched = [self.fd] if self.wakeup is None else [self.fd, self.wakeup]
        while True:
            ending.check()  # told to end, its interruption lost: end here
            ready, _, _ = select.select(watched, [], [], timeout)
            if self.wakeup in ready:  # a signal: its handler runs (and may raise) now
                with contextlib.suppress(OSError):
                    os.read(self.wakeup, 512)
                if self.fd not in ready:
                    continue
            break
        if not ready:
            return False
        data = os.read(self.fd, 4096)
        if not data:
            return False
        self._pending += self._decoder.decode(data)
        return True

    def get(self) -> Item:
        """The next line typed, or key of the key map pressed; ``None`` at the
        end of the input (Control D on an empty line, or the terminal closed)."""
        while True:
            item = self._take()
            if not isinstance(item, _Nothing):
                self.arrived = time.monotonic()
                return item
            try:
                if not self._read():
                    self.arrived = time.monotonic()
                    return None
            except OSError:
                return None
            except KeyboardInterrupt:  # Control C: the question's line ends here
                self.echo("\n")
                if self.entered is not None:
                    self.entered()
                raise

    def _take(self) -> Item | _Nothing:
        """The first whole item of what was read (``None``: the end), if
        there is one."""
        while self._pending:
            char = self._pending[0]
            if char == "\x1b":
                sequence = SEQUENCE.match(self._pending)
                if _UNFINISHED.fullmatch(self._pending) and self._read(ESCAPE_WAIT):
                    continue  # the rest of the sequence came: read it whole
                found = sequence.group() if sequence else "\x1b"
                self._pending = self._pending[len(found):]
                actions = _actions([KEY_SEQUENCES[found]] if found in KEY_SEQUENCES else [])
                if actions:
                    if self.pressed is not None:
                        self.pressed()
                    return actions[0]
                continue  # an arrow, Alt+key, a key with no action: dropped
            self._pending = self._pending[1:]
            if char in "\r\n":
                if not self._line and self.page is not None and self.page(True):
                    continue  # Enter showed the next page of a long reply
                with self._lock:
                    line, self._line = "".join(self._line), []
                self.echo("\n")
                if self.entered is not None:
                    self.entered()
                return Typed(line)
            if char in "\x7f\x08":
                self._erase(1)
            elif char == "\x15":  # Control U: the whole line
                self._erase(len(self._line))
            elif char == "\x04" and not self._line:  # Control D on an empty line
                self.echo("\n")  # the question's line ends, like an Enter
                if self.entered is not None:
                    self.entered()
                return None
            elif unicodedata.category(char) not in DROPPED and len(self._line) < LINE_LONGEST:
                if self.page is not None:
                    self.page(False)  # the rest of a long reply first, at once
                with self._lock:
                    self._line.append(char)
                self.echo(char)
        return NOTHING

    def _erase(self, count: int) -> None:
        with self._lock:
            gone = self._line[len(self._line) - count:] if count else []
            del self._line[len(self._line) - len(gone):]
        cells = cell_len("".join(gone))
        if cells:
            self.echo("\b" * cells + " " * cells + "\b" * cells)


#: What Windows' console gives ``msvcrt.getwch`` after ``"\x00"`` or
#: ``"\xe0"`` for the keys of the key map (their scan codes), as the
#: terminal's sequences; every other such key (an arrow, Home) is dropped.
CONSOLE_KEYS: dict[str, str] = {
    ";": "\x1bOP", "<": "\x1bOQ", "=": "\x1bOR", ">": "\x1bOS", "?": "\x1b[15~",
    "@": "\x1b[17~", "A": "\x1b[18~", "B": "\x1b[19~", "C": "\x1b[20~", "D": "\x1b[21~",
    "\x85": "\x1b[23~", "\x86": "\x1b[24~",
}
#: How often the console is looked at while no key comes, in seconds: a
#: signal (Control C) is taken between two looks.
CONSOLE_POLL = 0.05


class ConsoleKeyboard(TerminalKeyboard):
    """Key by key from Windows' console (``msvcrt``), understood as
    :class:`TerminalKeyboard` understands a terminal's: a function key of
    the key map is its action, Control Z on an empty line ends the input
    (as Control D does elsewhere), Escape alone stops speech. The console
    echoes nothing read this way; the app echoes as on a terminal."""

    def start(self) -> ConsoleKeyboard:
        return self

    def close(self) -> None:
        pass

    def _read(self, timeout: float | None = None) -> bool:
        msvcrt: Any = importlib.import_module("msvcrt")  # Windows only

        deadline = None if timeout is None else time.monotonic() + timeout
        while not msvcrt.kbhit():
            ending.check()  # Control C: its handler ran in the sleep
            if deadline is not None and time.monotonic() >= deadline:
                return False
            time.sleep(CONSOLE_POLL)
        read: list[str] = []
        while msvcrt.kbhit() and len(read) < 4096:
            char = msvcrt.getwch()
            if char in "\x00\xe0":
                read.append(CONSOLE_KEYS.get(msvcrt.getwch(), ""))
            elif char == "\x1a":
                read.append("\x04")  # Control Z: the end of the input, as Control D
            else:
                read.append(char)
        self._pending += "".join(read)
        return True
