"""Plain line mode in a real 40x15 pseudo-terminal, read back with pyte as a
braille display reads it: once the app has answered, the cursor rests on
the first row of what it wrote (the reply, or the question when nothing
else came), the first key takes it back to the answer on the question's
own line; a reply taller than the screen (less the old rows it keeps in
view) comes a page at a time, "More: Enter." between pages; keys are
understood or dropped and never written back as escapes, and lines break
between phrases, not inside a card's name."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path

import pyte
import pytest

from companion.contract.events import Announcement, Asked, Text
from companion.faces import KEPT
from companion.faces.plain import PlainFace
from tests.drivers import Terminal
from tests.voices.test_notices import machine

COLUMNS, ROWS = 40, 15
F2, F5, DOWN, ESCAPE = "\x1bOQ", "\x1b[15~", "\x1b[B", "\x1b"


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    term = Terminal(tmp_path, "--plain", columns=COLUMNS, rows=ROWS, lang="C.UTF-8", typed=0,
                    shown=0)
    yield term
    term.close()


def test_the_reply_is_at_the_cursor_and_typing_goes_to_the_answer(terminal: Terminal) -> None:
    terminal.until_at("Language / Langue / Jazyk / Язык:")  # first start: the menu's title
    terminal.until("Choose 1 to 4:")
    terminal.type("1")
    terminal.until_cursor("Choose 1 to 4: 1")  # the first key: back to the answer, echoed
    terminal.type("\r")
    terminal.until_at("Speech:")
    terminal.type("x\x7f")  # Backspace erases
    terminal.until_cursor("Choose 1 to 2: ")
    terminal.type("2\r")
    terminal.until_at("How much should it say?")
    terminal.type("2\r")  # the typing help and the main menu: more than the screen holds
    terminal.until_at("Settings saved.")  # a page, the reply on its first row
    rows = [line.rstrip() for line in terminal.screen.display]
    # the old screen's last rows above it, which a screen reader comparing
    # lines finds in common: every row of the page is read as new
    assert terminal.screen.cursor.y == KEPT and rows[-1] == "More: Enter. Page 1.", rows
    assert rows[KEPT - 1] == "Choose 1 to 3: 2", rows
    assert "Main menu." not in rows  # a sentence is not cut between pages
    terminal.type("\r")  # the next page: taken by the pager, not by the menu
    terminal.until("More: Enter. Page 2.")
    # numbered: its last line is not the page's before (a screen reader
    # comparing lines would take it for that one, and not say it)
    terminal.read_pages("Choose 1 to 6:")  # (and the pages after it)
    rows = [line.rstrip() for line in terminal.screen.display]
    menu = rows.index("Main menu.")
    assert rows[menu + 1] == "1. Table companion for a real game."
    assert "More: Enter." not in rows and rows[-1] == "Choose 1 to 6:", rows
    # the cursor on the last page's first row, at or above the menu's title
    assert terminal.screen.cursor.x == 0 and terminal.screen.cursor.y <= menu, rows
    terminal.type("7\r")
    terminal.until_at("7 is not a choice:")  # the reply, then the question below it
    rows = [line.rstrip() for line in terminal.screen.display]
    assert rows[terminal.screen.cursor.y + 1] == "type a number from 1 to 6."
    assert rows[terminal.screen.cursor.y + 2] == "Choose 1 to 6:"


def test_keys_are_understood_or_dropped_never_written_back(terminal: Terminal) -> None:
    terminal.until_at("Language")
    terminal.type("1\r")
    terminal.until_at("Speech:")
    terminal.type(DOWN + "\x1b[C" + "\x07")  # arrows and a bell: nothing
    terminal.pump(0.3)
    assert terminal.cursor_line().rstrip() == "Speech:"
    terminal.type("2\r")
    terminal.until_at("How much should it say?")
    terminal.type("9\r")
    terminal.until_at("9 is not a choice:")  # broken after the phrase, at 40 cells
    terminal.type(F2)  # repeat, at once, with no Enter
    terminal.pump(0.5)
    said = [line.rstrip() for line in terminal.screen.display]
    assert said.count("9 is not a choice:") == 2, said
    terminal.until_at("9 is not a choice:")  # the repeated reply at the cursor
    assert said.index("9 is not a choice:") < terminal.screen.cursor.y
    rows = [line.rstrip() for line in terminal.screen.display if line.strip()]
    assert rows[-1] == "Choose 1 to 3:" and rows[-2] != "Choose 1 to 3:", rows  # once
    terminal.type("2\r")
    terminal.until("More: Enter.")
    # the rest of the page first; a lone Escape (before the F5: an Escape
    # last would take the next key typed within its wait as Alt+key); a game
    # word out of a game
    terminal.type(ESCAPE + F5)
    terminal.until_at("where works during a game.")
    assert "6. Quit." in [line.rstrip() for line in terminal.screen.display]
    terminal.type("x")
    terminal.until_cursor("Choose 1 to 6: x")
    assert b"^[" not in terminal.written
    assert b"\x1b[B" not in terminal.written and b"\x07" not in terminal.written


def test_a_key_while_a_page_waits_shows_the_rest_and_is_typed(terminal: Terminal) -> None:
    terminal.until("Choose 1 to 4:")
    for answer, prompt in (("1", "Choose 1 to 2:"), ("2", "Choose 1 to 3:")):
        terminal.type(answer + "\r")
        terminal.until(prompt)
    terminal.type("2\r")
    terminal.until("More: Enter.")
    terminal.type("4")  # the rest at once, then the 4 at the menu's answer
    terminal.until_cursor("Choose 1 to 6: 4")
    rows = [line.rstrip() for line in terminal.screen.display]
    assert "More: Enter." not in rows and "6. Quit." in rows, rows
    terminal.type("\r")
    terminal.until_at("Learn the codes:")


def test_lines_break_between_phrases_not_inside_a_card_name(terminal: Terminal) -> None:
    terminal.until("Choose 1 to 4:")
    for answer, prompt in (("1", "Choose 1 to 2:"), ("2", "Choose 1 to 3:"),
                           ("3", "Choose 1 to 6:"), ("4", "Choose 1 to 4:")):
        terminal.type(answer + "\r")
        terminal.read_pages(prompt)
    terminal.type("3\r")  # the whole reference: long lines, over pages
    terminal.until_at("Tactile codes:")
    terminal.read_pages("Code o3.")
    rows = [line.rstrip() for line in terminal.screen.display if line.strip()]
    assert all(len(row) < COLUMNS for row in rows)
    assert not any(row.endswith(("Squid", "Egg", "Salmon", "Maki")) for row in rows), rows


def _face_on_screen() -> tuple[PlainFace, pyte.Screen, Callable[[], None]]:
    """A terminal face writing into a pyte screen of 40x15, fed on demand."""
    out = io.StringIO()
    face = PlainFace(out, terminal=True, width=COLUMNS)
    screen = pyte.Screen(COLUMNS, ROWS)
    stream = pyte.Stream(screen)
    fed = 0

    def feed() -> None:
        nonlocal fed
        text = out.getvalue()
        stream.feed(text[fed:].replace("\n", "\r\n"))
        fed = len(text)

    return face, screen, feed


def test_news_while_a_line_is_typed_ahead_goes_below_it_then_the_line_again() -> None:
    """Keys typed ahead (after Enter, before the reply to that line) are
    echoed at once; the reply that comes then is not written inside them:
    it goes below their row, and what was typed comes again under it, where
    the cursor is and the next keys go; the question after it takes the
    typed line along. Erased keys are not shown again."""
    face, screen, feed = _face_on_screen()
    face.asked(Asked(Text("Your pick:"), "Your pick:"))
    for key in "w2":
        face.echo(key)
    face.echo("\n")  # Enter: the answer is taken
    face.entered()
    for key in "xyz":  # typed ahead, before the reply
        face.echo(key)
    face.echo("\b \b")  # Backspace erases the z
    face.show(Announcement("Salmon nigiri: taken."))
    feed()
    rows = [line.rstrip() for line in screen.display if line.strip()]
    assert rows == ["Your pick: w2", "xy", "Salmon nigiri: taken.", "xy"], rows
    assert screen.cursor.y == 3 and screen.cursor.x == 2  # typing goes on here
    face.echo("q")
    face.asked(Asked(Text("Your pick:"), "Your pick:"))
    feed()
    rows = [line.rstrip() for line in screen.display if line.strip()]
    assert rows[-1] == "Your pick: xyq" and screen.cursor.x == len("Your pick: xyq"), rows
    face.echo("\n")
    face.entered()
    face.show(Announcement("xyq is not a card."))
    feed()
    rows = [line.rstrip() for line in screen.display if line.strip()]
    assert rows[-1] == "xyq is not a card.", rows  # nothing typed: no row again


def test_news_while_a_question_waits_is_a_block_of_its_own(tmp_path: Path) -> None:
    """Speech that fails while the main menu waits (a machine with no sound
    device): its notice comes at the cursor, the question again under it, a
    block of its own; not a page of the menu's block ending in "More:
    Enter.", which took the player's answer for its Enter (the menu's
    eight rows and the notice are more than a 40x15 screen holds less the
    rows it keeps)."""
    environment = machine(tmp_path, language="en", speech="espeak-ng",
                          programs={"espeak-ng": "/bin/cat > /dev/null\nexit 3\n"})
    term = Terminal(tmp_path, "--plain", columns=COLUMNS, rows=ROWS, lang="C.UTF-8", typed=0,
                    shown=0, environment=environment)
    try:
        term.until_at("Speech stopped")
        rows = [line.rstrip() for line in term.screen.display]
        assert not any(row.startswith("More: Enter.") for row in rows), rows
        assert [row for row in rows if row][-1] == "Choose 1 to 6:", rows
        term.type("4")  # Learn the codes
        term.until_cursor("Choose 1 to 6: 4")
        term.type("\r")
        term.until_at("Learn the codes:")
    finally:
        term.close()
