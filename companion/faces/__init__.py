"""The faces of the conversation: how the player sees and answers it.

- ``plain``: plain line mode, numbered prompts and output that only grows,
  for screen readers, braille terminals and pipes.
- ``screen``: the full screen (Textual), with its list, status line and
  answer line, the terminal cursor always on what matters.

Each renders the conversation's values (:mod:`companion.contract.events`)
and gives back what the player did; neither holds a journey, and neither
builds the conversation: the composition root (:mod:`companion.app`) does,
and gives a face only what it needs (:class:`Running`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol

from companion.contract.events import Face, SettingsView, SpeechControl

#: The cells of a braille display's window (most have 40): the full
#: screen's answer row keeps to the first window (the prompt at most 60%
#: of it, the answer the rest, scrolling in it), so that typing never takes
#: the cursor, and the display's window with it, into the empty cells past
#: it (a blank display for the key that crosses, and the prompt out of
#: sight until the answer is sent).
WINDOW = 40

#: The column past which an answer is out of a 40-cell braille display's
#: first window (a few cells kept for the answer): both faces keep the
#: cursor at the start of the question's row, or break the question,
#: rather than leave it there.
FAR_RIGHT = 32


#: The old screen's rows kept on the screen by every update that writes
#: news: a console screen reader (Fenrir, NVDA in a console) compares the
#: screen's lines before and after an update, and a line of the new screen
#: that equals one of the old (a bot's same pick as the turn before, two
#: players' same score line) would go unsaid; the old rows kept together
#: are what it finds in common, and everything after them is new. The full
#: screen, when it starts again from the top, draws the old screen's last
#: KEPT rows first; plain mode writes no block (a page) taller than the
#: screen less KEPT rows, so that KEPT old rows stay above it as it scrolls.
#: Six: longer than any run of lines the news can share with the screen
#: before, which the comparison would take instead: a turn's lines between
#: two "Round 2, turn 7." lines (each said once) are at most its hand (up
#: to three rows at 40 columns, never all the same as the turn before's),
#: the answered question and two picks.
KEPT = 6


def break_question(rows: list[str]) -> list[str]:
    """A question's rows with its last row, when longer than
    :data:`FAR_RIGHT` cells, broken after a sentence if the rest then fits:
    the answer typed after it stays in a 40-cell braille display's first
    window, with the words before it. A row that ends in that window's last
    cells (the answer would begin there, and typing would take the
    display's window on into empty cells: a blank display) and has no such
    sentence is broken after a colon, else a comma, the same way.

    >>> break_question(["Code for Sashimi? An empty line stops."])
    ['Code for Sashimi?', 'An empty line stops.']
    >>> break_question(["Your 5 cards as dealt, card by card:"])
    ['Your 5 cards as dealt,', 'card by card:']
    >>> break_question(["Ben's move: a card, a pair, or eat:"])
    ["Ben's move:", 'a card, a pair, or eat:']
    >>> break_question(["Player 1's name, or an empty line when all are in:"])
    ["Player 1's name, or an empty line when all are in:"]
    """
    tail = rows[-1]
    if len(tail) <= FAR_RIGHT:
        return rows
    marks = [r"[.?!] "] + ([r": ", r", "] if len(tail) < WINDOW else [])
    for mark in marks:
        for end in re.finditer(mark, tail):
            if len(tail) - end.end() <= FAR_RIGHT:
                return [*rows[:-1], tail[:end.end()].rstrip(), tail[end.end():]]
    return rows


class Running(Protocol):
    """The conversation put together over a face, as a face that runs the
    journeys in a thread of its own sees it (the full screen): speech to
    stop when the player acts, the settings to read the player's keys by,
    and the journeys to run."""

    @property
    def speech(self) -> SpeechControl: ...

    @property
    def settings(self) -> SettingsView: ...

    def run(self) -> int:
        """Every journey, until the player quits or the input ends; the exit
        status. Called in the journeys' thread."""
        ...


#: What puts the conversation together over a face, once the face is up.
Begin = Callable[[Face], Running]
