"""The full-screen app in a real 40x15 pseudo-terminal, read back with pyte
the way a braille display or a console screen reader reads it: the cursor
row holds what was just said, or else what has the focus; the key facts fit
in 40 cells; an idle app writes nothing; NO_COLOR leaves no colour in what
is written."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pyte
import pytest

from companion.faces import KEPT
from tests.drivers import Terminal

COLUMNS, ROWS = 40, 15
#: The key facts during a game: the last row.
FACTS = ROWS - 1
DOWN, UP, TAB, ENTER = "\x1b[B", "\x1b[A", "\t", "\r"
SGR = re.compile(rb"\x1b\[([0-9;:]*)m")


def colours(written: bytes) -> set[str]:
    """The colour parameters of the SGR sequences written: 30-37, 90-97
    (foreground), 40-47, 100-107 (background), 38;... and 48;... (256-colour
    or RGB). The terminal's default colours, 39 and 49, are not counted:
    they are how a colourless app resets to the player's own colours."""
    found: set[str] = set()
    for match in SGR.finditer(written):
        parameters = re.split(rb"[;:]", match.group(1))
        index = 0
        while index < len(parameters):
            value = int(parameters[index] or b"0")
            if value in (38, 48):
                found.add(match.group(1).decode())
                break  # the rest of the sequence is the colour's own numbers
            if 30 <= value <= 37 or 40 <= value <= 47 or 90 <= value <= 97 or (
                    100 <= value <= 107):
                found.add(str(value))
            index += 1
    return found


def test_colours_are_recognised() -> None:
    assert colours(b"\x1b[1;4;30;47mx\x1b[39;49m") == {"30", "47"}
    assert colours(b"\x1b[38;5;195;48;2;1;2;3m") == {"38;5;195;48;2;1;2;3"}
    assert colours(b"\x1b[0m\x1b[1;39;49m\x1b[4m") == set()


@pytest.mark.slow
def test_the_cursor_is_on_the_news_or_the_focus_and_idle_means_silent(
        tmp_path: Path) -> None:
    terminal = Terminal(tmp_path)
    try:
        terminal.until("Choose 1 to 4:")  # the prompt: the answer line's label
        # The language list has the focus, opened with nothing said: the cursor
        # on its title, its highlighted first option on the row right below.
        assert terminal.cursor_line().startswith("Language"), terminal.screen.display
        assert terminal.screen.cursor.x == 0
        assert not terminal.screen.cursor.hidden, "the caret is shown"
        assert terminal.screen.display[terminal.screen.cursor.y + 1].startswith("1. English")
        assert terminal.pump(1.0) == 0, "an idle app writes nothing"
        terminal.type(DOWN)
        assert terminal.cursor_line().startswith("2. Français")
        terminal.type(UP)
        assert terminal.cursor_line().startswith("1. English")
        terminal.type(ENTER)
        terminal.until("Choose 1 to 2:")
        assert terminal.cursor_line().startswith("Speech"), terminal.screen.display
        assert terminal.screen.display[terminal.screen.cursor.y + 1].startswith(
            "1. The app speaks for itself.")
        # A letter: the answer line takes the focus, the letter and the cursor,
        # after the question's label on the same row.
        terminal.type("h")
        assert terminal.cursor_line().rstrip() == "Choose 1 to 2: h"
        assert terminal.screen.cursor.x == len("Choose 1 to 2: h")
        terminal.type("elp" + ENTER, settle=0.2)
        terminal.until("Words that work everywhere")
        terminal.pump(0.5)
        # Said in reply: the cursor on its first sentence (how to answer this
        # question), the rest below it.
        assert terminal.cursor_line().startswith("Type the number of your choice, 1 to 2,"), (
            terminal.screen.display)
        assert terminal.screen.cursor.x == 0
        assert "Choose 1 to 2:" in [row.rstrip() for row in terminal.screen.display]  # emptied
        assert terminal.pump(1.0) == 0
        terminal.type(TAB)  # back to the list
        assert terminal.cursor_line().startswith("1. The app speaks for itself.")
        terminal.type("2")  # the screen reader speaks
        terminal.until("Choose 1 to 3:")
        assert terminal.cursor_line().startswith("How much"), terminal.screen.display
        assert terminal.screen.display[terminal.screen.cursor.y + 1].startswith(
            "1. Terse: key facts only.")
        terminal.type("2")
        # The settings saved and the first-start primer, said: taller than the
        # screen with the main menu after them, they come in pages, the cursor
        # on the first row of each; the main menu after the last.
        terminal.until("More: Enter.")
        assert terminal.cursor_line().startswith("Settings saved."), terminal.screen.display
        # (the last rows of the screen before above it, for a screen reader
        # comparing lines to find in common)
        assert terminal.screen.cursor.x == 0 and terminal.screen.cursor.y <= KEPT
        while "More: Enter." in "\n".join(terminal.screen.display):
            terminal.type(ENTER)
        terminal.until("Choose 1 to 6:")
        assert terminal.cursor_line().startswith("Keys: F1 help"), terminal.screen.display
        assert terminal.screen.cursor.y <= KEPT  # the last page's own first row
        for choice in ("2", "2\r", "1", "1"):  # practice, 2 players (typed), greedy, none
            terminal.type(choice, settle=0.3)
        terminal.until("Your pick:")
        # The key facts, first and whole within the 40 columns, on the last row.
        terminal.until("R1 T1, 0 points, 10 cards", row=FACTS)  # (drawn a moment after)
        assert terminal.screen.display[FACTS].rstrip() == "R1 T1, 0 points, 10 cards"
        assert terminal.cursor_line().startswith("Practice game: You, Bot 1.")  # the news
        assert terminal.pump(1.0) == 0
        terminal.type("w")
        assert terminal.cursor_line().rstrip() == "Your pick: w"
        assert not any(ch in "".join(terminal.screen.display) for ch in "┌┐└┘│─")
        # With colours on, the theme's are the terminal's own 16 ANSI colours.
        assert colours(terminal.written) <= {str(n) for n in (*range(30, 38), *range(40, 48))}
        assert colours(terminal.written), "the highlighted option is in colour"
    finally:
        terminal.close()


@pytest.mark.slow
def test_no_color_means_no_colour_and_the_highlight_is_not_colour_alone(
    tmp_path: Path,
) -> None:
    terminal = Terminal(tmp_path, environment={"NO_COLOR": "1"})
    try:
        terminal.until("Choose 1 to 4:")
        terminal.type(DOWN)
        row = terminal.screen.cursor.y
        assert terminal.cursor_line().startswith("2. Français")
        highlighted = terminal.screen.buffer[row][0]
        other = terminal.screen.buffer[row - 1][0]  # "1. English"
        assert highlighted.bold and highlighted.underscore, highlighted
        assert not (other.bold or other.underscore), other
        terminal.type("h")
        terminal.type(ENTER)
        terminal.until("h is not a choice", timeout=10)
        assert SGR.search(terminal.written), "styles are still written"
        assert colours(terminal.written) == set()
    finally:
        terminal.close()


def test_the_app_ends_when_its_terminal_goes_away(tmp_path: Path) -> None:
    """A terminal closed with no signal (a dropped remote session): the app
    ends at once, instead of reading nothing forever at full speed."""
    terminal = Terminal(tmp_path)
    try:
        terminal.until("Choose 1 to 4:")
        os.close(terminal.master)
        terminal.master = os.open(os.devnull, os.O_RDONLY)  # for close() to close
        assert terminal.process.wait(timeout=10) == 0
    finally:
        if terminal.process.poll() is None:
            terminal.close()
        else:
            os.close(terminal.master)


#: Leaving the alternate screen: what the terminal shows is the shell's again.
LEAVE = b"\x1b[?1049l"
#: The first thing the app writes as it gives the terminal back: the
#: terminal's own cursor shape again (pyte would draw what follows as text).
GIVING_BACK = b"\x1b[0 q"


def shown_before_the_end(written: bytes) -> pyte.Screen:
    """The screen as the app left it just before it gave the terminal back."""
    assert LEAVE in written, "the app gave the terminal back"
    screen = pyte.Screen(COLUMNS, ROWS)
    pyte.ByteStream(screen).feed(written[:written.rindex(GIVING_BACK, 0,
                                                         written.rindex(LEAVE))])
    return screen


def test_quitting_a_game_leaves_its_last_words_on_screen_at_the_cursor(
        tmp_path: Path) -> None:
    """Quit in a practice game: "The game is saved" and "Goodbye." are drawn,
    the cursor on them, before the app gives the terminal back (as plain
    mode leaves them); and the app still ends at once after."""
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.toml").write_text('speech = "none"\n')
    terminal = Terminal(tmp_path)
    try:
        terminal.until("Choose 1 to 6:")
        terminal.type("2")  # practice: how many players
        terminal.until("2 to 5:")
        terminal.type("2\r")
        terminal.until("Opponents:")
        terminal.type("1")  # greedy bots
        terminal.until("Variant:")
        terminal.type("1")  # no variant
        terminal.until("Your pick:")
        terminal.type("quit\r", settle=0)
        began = time.monotonic()
        terminal.process.wait(timeout=10)
        assert time.monotonic() - began < 3, "the app ends promptly"
        terminal.pump(0.3)
        screen = shown_before_the_end(terminal.written)
        rows = [row.rstrip() for row in screen.display]
        text = " ".join(rows)
        assert "The game is saved" in text and "Goodbye." in text, rows
        assert rows[screen.cursor.y].startswith("The game is saved"), (rows, screen.cursor.y)
        assert screen.cursor.x == 0
    finally:
        terminal.close()
