"""Whether what a step must tell reaches a braille user, read off the screen.

A braille display of ``cells`` cells rests on the window around the
terminal cursor (or where the screen reader's window was left). What a
player reads without looking for it is that window and the windows its
forward pan key reaches from there: the rest of the cursor's row, then the
rows below, up to a blank row (a blank window inside a row is passed
over). Anything else needs line-ups: the rows counted up from the window's
row to the first that shows it.

An announcement is declared as short text, matched case-insensitively as
whole words, any run of spaces (or a row's end) between its words; ``a|b``
is either; ``re:...`` is a regular expression. The same rules as the
shared walk's (``../shared/at-check``), so the two count alike.

>>> rows = ["Opponents:", "1. Greedy bots.", "2. Cautious bots.", "Choose 1 to 2:"]
>>> [(r.text, r.at_cursor, r.line_ups) for r in reach(rows, 0, 1, ["Opponents", "Greedy"], cols=80)]
[('Opponents', False, 1), ('Greedy', True, None)]
>>> [(r.text, r.at_cursor, r.pans) for r in reach(rows, 0, 0, ["Opponents", "Cautious"], cols=80)]
[('Opponents', True, 0), ('Cautious', True, 4)]
>>> stale(["You: Tempura.", "Your pick:"], ["You: Tempura.", "Your pick: t", "You: Dumpling.",
...       "Your pick:"], ["you tempura", "you dumpling", "your pick"])
['you tempura']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


def pattern(expect: str) -> re.Pattern[str]:
    """An expectation as a regular expression (``re:...`` is one already).

    >>> bool(pattern("Final scores").search("Final\\n scores: You"))
    True
    >>> bool(pattern("Bot 1").search("Bot 12"))
    False
    """
    if expect.startswith("re:"):
        return re.compile(expect[3:], re.IGNORECASE)
    alternatives = []
    for alternative in expect.split("|"):
        words = alternative.strip()
        body = r"\s+".join(re.escape(word) for word in words.split())
        if words[:1].isalnum():
            body = r"(?<!\w)" + body
        if words[-1:].isalnum():
            body += r"(?!\w)"
        alternatives.append(body)
    return re.compile("|".join(alternatives), re.IGNORECASE)


def joined(lines: Sequence[str], cols: int, first: int = 0, last: int | None = None) -> str:
    """The rows ``first`` to ``last`` as running text: a full row (wrapped)
    runs on into the next, a shorter one ends with a space, a blank row is
    a paragraph break."""
    last = len(lines) - 1 if last is None else last
    out = ""
    for row in range(first, last + 1):
        line = lines[row] if 0 <= row < len(lines) else ""
        if not line.strip():
            out = out.rstrip(" ") + "\n"
            continue
        out += line + ("" if len(line) >= cols else " ")
    return out


@dataclass
class Reach:
    """Where one announcement was for a braille user."""

    text: str
    #: In the window at rest, or in a window its forward pans reach.
    at_cursor: bool = False
    #: The forward pans needed, when at the cursor.
    pans: int = 0
    #: When not at the cursor: the line-ups to the first row showing it
    #: (None: nowhere on the screen above the window).
    line_ups: int | None = None


def window_at(lines: Sequence[str], x: int, y: int, cells: int,
              shown: str | None = None) -> tuple[int, int]:
    """The (row, first column) of the braille window: the cursor's, or, when
    the display shows ``shown`` and the cursor's window is not it, the
    window with that text nearest the cursor's row."""
    def segment(row: int, column: int) -> str:
        return lines[row][column:column + cells] if 0 <= row < len(lines) else ""

    row, column = y, (x // cells) * cells
    if shown is None or segment(row, column).rstrip() == shown.rstrip() or not shown.strip():
        return row, column
    cols = max((len(line) for line in lines), default=0)
    spots = [(abs(r - y), r, c) for r in range(len(lines)) for c in range(0, cols, cells)
             if segment(r, c).rstrip() == shown.rstrip()]
    if spots:
        _, row, column = min(spots)
    return row, column


def reach(lines: Sequence[str], x: int, y: int, expects: Iterable[str], *,
          cells: int = 40, cols: int | None = None, shown: str | None = None) -> list[Reach]:
    """Where each of ``expects`` is on the screen ``lines`` (the cursor at
    column ``x`` of row ``y``) for a ``cells``-cell display; ``shown``: the
    display's window, if known (else the cursor's)."""
    cols = cols or max((len(line) for line in lines), default=cells) or cells
    row, column = window_at(lines, x, y, cells, shown)

    def segment(r: int, c: int) -> str:
        return lines[r][c:c + cells] if 0 <= r < len(lines) else ""

    rest = segment(row, column).rstrip()
    forward: list[tuple[int, int, str]] = []  # (presses, row, text)
    presses, r, c = 0, row, column
    while True:
        c += cells
        if c >= cols:
            r, c = r + 1, 0
            if r >= len(lines) or not lines[r].strip():
                break
        presses += 1
        if segment(r, c).strip():
            forward.append((presses, r, segment(r, c)))

    def running(count: int) -> str:
        out, previous = rest, row
        for _presses, r, text in forward[:count]:
            if r != previous:
                out += "" if len(lines[previous]) >= cols else " "
            out += text
            previous = r
        return out

    found = []
    for expect in expects:
        result = Reach(expect)
        wanted = pattern(expect)
        if wanted.search(rest):
            result.at_cursor = True
        else:
            for count in range(1, len(forward) + 1):
                if wanted.search(running(count)):
                    result.at_cursor, result.pans = True, forward[count - 1][0]
                    break
        if not result.at_cursor:
            for up in range(row, -1, -1):
                if wanted.search(joined(lines, cols, up, min(up + 2, row))):
                    result.line_ups = row - up
                    break
        found.append(result)
    return found


def words(text: str) -> str:
    """Text reduced to its words, lower case: what is said, not how it is spelt."""
    return " ".join(re.findall(r"\w+", text.lower()))


def stale(before: Sequence[str], after: Sequence[str], said: Sequence[str],
          news: Sequence[str] = ()) -> list[str]:
    """What a screen reader said again of the screen before the key: each
    piece of ``said`` (as :func:`words`) that a row of ``before`` showed,
    beyond the rows of that text the screen ``after`` it has more of (a
    new row with the same text as an old one may be said once; a row
    answered since, its old text followed by the answer, counts as the
    old row). ``news``: the rows of the reply and question after the key
    (from the cursor down): a row of theirs is new whatever the screen
    showed before ("You: Dumpling." again on a later turn)."""

    def counts(rows: Sequence[str]) -> dict[str, int]:
        table: dict[str, int] = {}
        for line in rows:
            if line.strip():
                table[words(line)] = table.get(words(line), 0) + 1
        return table

    old = counts(before)
    after_words = [words(line) for line in after if line.strip()]
    # a row answered since ("Your pick:" now "Your pick: t") is the same row:
    # a new row with the old text (the next "Your pick:") may be said once
    new = {text: sum(1 for row in after_words if row == text or row.startswith(text + " "))
           for text in old}
    allowed = {text: max(0, new[text] - times) for text, times in old.items()}
    for line in news:
        if words(line) in allowed:
            allowed[words(line)] += 1
    found = []
    for piece in said:
        if piece not in old or len(piece.split()) < 2:
            continue
        if allowed[piece] > 0:
            allowed[piece] -= 1
            continue
        found.append(piece)
    return found
