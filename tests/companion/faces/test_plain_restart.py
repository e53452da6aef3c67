"""Plain line mode started again on a terminal a killed run left as it
was (kill -9: its rows stay, the cursor wherever it rested, on the reply's
first row or after an answer half typed), read back with pyte as a braille
display reads it: the new run's rows never mix with the old ones. Each row
it writes, its prompt, and every row below where it began are exactly what a
clean terminal shows (no "2. Not now.rn 2.", no "Choose 1 to 3: 1on
nigiri,"), even where the new answer is shorter than the old row. And an
answer longer than its row scrolls sideways on that row (never onto a row
of its own), and erased it is written again shorter, with nothing of the
old one left."""

from __future__ import annotations

from pathlib import Path

import pyte
import pytest

from tests.drivers import GOOD_SETTINGS, Terminal

COLUMNS, ROWS = 40, 15
#: What the shell writes once the app is killed, where the cursor was: its
#: word for the end, its prompt, and the command typed again.
SHELL = b"Killed\r\n$ companion --plain\r\n"


def clean_screen(before: bytes, after: bytes) -> list[str]:
    """What a terminal shows when ``before`` was written, everything from
    the cursor down then blank (as on a terminal nothing was left on), and
    then ``after``."""
    screen = pyte.Screen(COLUMNS, ROWS)
    stream = pyte.ByteStream(screen)
    stream.feed(before)
    screen.erase_in_display(0)
    stream.feed(after)
    return list(screen.display)


def at_the_main_menu(home: Path) -> Terminal:
    """Plain line mode on a 40 by 15 terminal, the settings made (no first
    start), at its main menu with the cursor on it."""
    (home / "config").mkdir()
    (home / "config" / "settings.toml").write_text(GOOD_SETTINGS)
    terminal = Terminal(home, "--plain", columns=COLUMNS, rows=ROWS, lang="C.UTF-8",
                        typed=0, shown=0)
    try:
        terminal.until_at("Main menu.")
    except BaseException:
        terminal.close()
        raise
    return terminal


@pytest.mark.parametrize("left", ["menu", "question"])
def test_a_run_after_a_kill_writes_over_nothing_old(tmp_path: Path, left: str) -> None:
    """Killed as its reply rested at the cursor, on the reply's first row:
    the main menu (``menu``), or the question after two answers
    (``question``: its options and its prompt below, where the new run's
    rows, prompt and shorter answer come)."""
    terminal = at_the_main_menu(tmp_path)
    try:
        if left == "question":
            terminal.type("2\r")  # a practice game: how many players
            terminal.until("2 to 5:")
            terminal.type("2\r")
            terminal.until_at("Opponents:")
        terminal.kill()
        terminal.another_writes(SHELL)
        begun = len(terminal.written)
        old = [row.rstrip() for row in terminal.screen.display]
        below = old[terminal.screen.cursor.y:]
        assert any(below), "nothing old left where the new run begins: no test"
        terminal.start_again("--plain")
        terminal.until("Choose 1 to")
        terminal.pump(0.5)
        terminal.type("9\r")  # an answer shorter than the old row, and its reply
        terminal.until("9 is not a choice")
        terminal.type("1")  # typed at the answer: the braille line is the prompt's
        terminal.pump(0.5)
        shown = list(terminal.screen.display)
        expected = clean_screen(terminal.written[:begun], terminal.written[begun:])
        assert shown == expected, "\n".join(
            f"{a.rstrip()!r:44} {b.rstrip()!r}" for a, b in zip(shown, expected, strict=True))
        braille = terminal.cursor_line().rstrip()
        assert braille.endswith(": 1"), braille  # the prompt and its answer, nothing after
    finally:
        terminal.close()


@pytest.mark.parametrize("erase", ["\x15", "\x7f" * 40], ids=["control-u", "backspaces"])
def test_a_long_answer_scrolls_on_its_row_and_erased_leaves_nothing(
        tmp_path: Path, erase: str) -> None:
    """A long answer scrolls sideways on the prompt's row, from a word's
    first letter (a row of its own would show a braille window blank, or a
    lone space); erased to something shorter, the answer's line is written
    again: the braille line is the prompt and the new answer, and no row
    keeps the old one."""
    terminal = at_the_main_menu(tmp_path)
    try:
        terminal.type("x")  # to the answer: the prompt's line
        terminal.pump(0.3)
        prompt = terminal.cursor_line().rstrip()[:-1]  # "Choose 1 to N: "
        prompt_row = terminal.screen.cursor.y
        terminal.type("\x7f")
        typed = "salmon nigiri, squid nigiri and more"  # past the row's 40 cells
        for char in typed:  # key by key, as typed
            terminal.type(char, settle=0.05)
        terminal.pump(0.5)
        rows = [row.rstrip() for row in terminal.screen.display]
        assert terminal.screen.cursor.y == prompt_row, rows
        assert rows[prompt_row] != prompt + typed and typed.endswith(rows[prompt_row]), rows
        assert rows[prompt_row].split()[0] in typed.split(), rows  # a whole word first
        assert not any(rows[prompt_row + 1:]), rows
        terminal.type(erase, settle=0.5)
        terminal.type("2", settle=0.5)
        rows = [row.rstrip() for row in terminal.screen.display]
        assert terminal.screen.cursor.y == prompt_row, rows
        assert rows[prompt_row] == prompt + "2", rows  # (the prompt ends with its space)
        assert not any(rows[prompt_row + 1:]), rows
        terminal.type("\r")
        terminal.until("2 to 5:")  # the practice game's first question: the answer taken
        assert not any("nigiri" in row for row in terminal.screen.display)
    finally:
        terminal.close()
