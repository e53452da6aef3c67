"""The faces of the conversation: how the player sees and answers it.

- ``plain``: plain line mode, numbered prompts and output that only grows,
  for screen readers, braille terminals and pipes.
- ``screen``: the full screen (Textual), with its list, status line and
  answer line, the terminal cursor always on what matters.

Each renders the conversation's values (:mod:`companion.contract.events`)
and gives back what the player did; neither holds a journey.
"""

import re

#: The column past which an answer is out of a 40-cell braille display's
#: first window (a few cells kept for the answer): both faces keep the
#: cursor at the start of the question's row, or break the question,
#: rather than leave it there.
FAR_RIGHT = 32


def break_question(rows: list[str]) -> list[str]:
    """A question's rows with its last row, when longer than
    :data:`FAR_RIGHT` cells, broken after a sentence if the rest then fits:
    the answer typed after it stays in a 40-cell braille display's first
    window, with the words before it.

    >>> break_question(["Code for Sashimi? An empty line stops."])
    ['Code for Sashimi?', 'An empty line stops.']
    >>> break_question(["Player 1's name, or an empty line when all are in:"])
    ["Player 1's name, or an empty line when all are in:"]
    """
    tail = rows[-1]
    if len(tail) > FAR_RIGHT:
        for end in re.finditer(r"[.?!] ", tail):
            if len(tail) - end.end() <= FAR_RIGHT:
                return [*rows[:-1], tail[:end.end()].rstrip(), tail[end.end():]]
    return rows
