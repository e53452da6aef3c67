"""Plain line mode: numbered prompts and append-only output.

For braille terminals that read line by line, screen readers that prefer a
plain console, and pipes (``companion --plain``; also when ``ACCESSIBLE=1``,
``TERM=dumb`` or standard input is not a terminal). Nothing moves, nothing
is redrawn: every sentence is a new line. A menu is its title, its options
numbered a line each, then the prompt.

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

import threading
from typing import Protocol

from companion.conversation.core import Talk
from companion.conversation.events import Announcement, Answered, Asked, Menu
from companion.conversation.journeys import run
from companion.inbox import Inbox, LineReader
from companion.settings import Settings


class LineSink(Protocol):
    """Where lines go: standard output, or any text stream."""

    def write(self, text: str, /) -> int: ...

    def flush(self) -> None: ...


class PlainFace:
    """The conversation as lines on a text stream."""

    def __init__(self, output: LineSink) -> None:
        self.output = output
        # a speech failure is told from the speech thread
        self._lock = threading.Lock()

    @property
    def has_keys(self) -> bool:
        return False

    def _write(self, text: str) -> None:
        with self._lock:
            self.output.write(text + "\n")
            self.output.flush()

    def show(self, announcement: Announcement) -> None:
        self._write(announcement.text)

    def asked(self, asked: Asked) -> None:
        question = asked.question
        if isinstance(question, Menu) and not asked.again:
            self._write(question.title)
            for number, option in enumerate(question.options, start=1):
                self._write(f"{number}. {option}")
        if asked.prompt is not None:
            self._write(asked.prompt)

    def answered(self, answered: Answered) -> None:
        pass  # what was typed is on the line already

    def progress(self, facts: str) -> None:
        pass  # the key facts are said with each turn; no status line here


def run_plain(source: Inbox | LineReader, output: LineSink, settings: Settings, *,
              first_start: bool = False, scanner: str | None = None) -> int:
    """The app in plain line mode, reading ``source`` until the player quits
    or it ends."""
    talk = Talk(PlainFace(output), source, settings, scanner=scanner)
    return run(talk, first_start=first_start)
