"""The walk's own rules (devtools/atcheck/walk.py), on screens and speech
written here: what counts as stale speech and what as said twice. These
need no console (the walk's lock on it is taken on a file of the test's);
the walk itself is tests/devtools/test_assistive_tech.py."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from devtools.atcheck.devices import Utterance
from devtools.atcheck.walk import Seen, Step, Walker, take_console

BEFORE = [
    "Your pick: q", "You: Sashimi.", "Bot 1: Tempura.", "Round 1, turn 8.",
    "2 cards: Sashimi, Egg nigiri.", "Your pick:",
]
AFTER = [
    "Your pick: q", "You: Sashimi.", "Bot 1: Egg nigiri.", "Round 1 scores.",
    "You: 14 points.", "Round 2, turn 1.", "10 cards: Wasabi, Pudding.", "Your pick:",
]


def seen(*said: str) -> Seen:
    """A pick ("q") answered on a screen that showed an earlier "Your
    pick: q": the reply restarts the screen from the top, the answered
    row kept first, the cursor on the reply."""
    return Seen(Step("a pick", ("typed", "q\r")), "typed 'q\r'", [], [],
                [Utterance(0.0, "say", text) for text in said], "", AFTER[1], AFTER,
                before=BEFORE, cursor_y=1, answered="Your pick: q", text="q\r")


def test_the_answered_row_may_be_read_as_typed_and_once_more() -> None:
    assert seen("Your pick: q", "Your pick: q  , You: Sashimi.  , Bot 1: Egg nigiri.").stale() == []


def test_the_answered_row_a_third_time_is_stale() -> None:
    assert seen("Your pick: q", "Your pick: q", "Your pick: q  , Bot 1: Egg nigiri.").stale() == [
        "your pick q"]


def test_an_old_row_read_again_is_stale() -> None:
    assert seen("Your pick: q", "Bot 1: Tempura.  , Bot 1: Egg nigiri.").stale() == [
        "bot 1 tempura"]


def scrolled(*said: str) -> Seen:
    """A reply in plain mode that scrolled the screen by four rows and
    wrote again a row an earlier turn had (two players, the same card)."""
    before = ["Ann: 9 points.", "Squid nigiri: 1 card, 9 points.", "Bot 1: 3 points.",
              "Egg nigiri: 3 cards, 3 points.", "Your pick:"]
    after = ["Egg nigiri: 3 cards, 3 points.", "Your pick: q", "Round 2 scores.",
             "Squid nigiri: 1 card, 9 points.", "Choose 1 to 2:"]
    return Seen(Step("a pick", ("typed", "q\r")), "typed 'q\r'", [], [],
                [Utterance(0.0, "say", text) for text in said], "", after[2], after,
                before=before, cursor_y=2, answered="Your pick: q", text="q\r")


def test_a_row_written_again_must_be_said_again() -> None:
    # a screen reader comparing lines may take it for the old row: unsaid
    assert scrolled("Round 2 scores.  , Choose 1 to 2:").unheard() == [
        "Squid nigiri: 1 card, 9 points."]
    assert scrolled("Round 2 scores.  , Squid nigiri: 1 card, 9 points.  , Choose 1 to 2:"
                    ).unheard() == []


def test_a_row_fenrir_cut_in_two_is_heard() -> None:
    """Fenrir leaves "%" out: "risk 28%, you" is said "risk 28 , you", which
    reads as two rows; the row is heard all the same, and unheard when
    either half is missing."""
    before = ["Your move:", "R1, turn: You, pile 0, risk 0%, you 0 tokens, 5 cards"]
    after = ["You: eat 6 cards.", "R1, turn: You, pile 21, risk 28%, you 0 tokens, 4 cards"]

    def said(text: str) -> Seen:
        return Seen(Step("a move", ("typed", "eat\r")), "typed 'eat\r'", [], [],
                    [Utterance(0.0, "say", text)], "", after[0], after, before=before,
                    cursor_y=0, text="eat\r", in_place=True)

    assert said("You: eat 6 cards.  , R1, turn: You, pile 21, risk 28 , you 0 tokens, 4 cards"
                ).unheard() == []
    assert said("You: eat 6 cards.  , R1, turn: You, pile 21, risk 28").unheard() == [after[1]]


def test_a_row_is_heard_as_the_console_s_font_shows_it() -> None:
    """A Latin console font draws "Č" as "C" and "Русский" as "Russkii",
    and Fenrir reads the screen's memory: "3. Cestina" is the row
    "3. Čeština" heard; without the font's view it would be missing."""
    before = ["Settings:", "Choose 1 to 7:"]
    after = ["Choose 1 to 7: 1", "Language:", "3. Čeština", "4. Русский", "Choose 1 to 5:"]
    read_as = {"Č": "C", "š": "s", "Р": "R", "у": "u", "с": "s", "к": "k", "и": "i", "й": "i"}
    seen = Seen(Step("1: the language", ("type", "1\r")), "typed '1\r'", [], [],
                [Utterance(0.0, "say", "Language:  , 3. Cestina  , 4. Russkii  , "
                                       "Choose 1 to 5:")],
                "", after[1], after, before=before, cursor_y=1, text="1\r", read_as=read_as)
    assert seen.unheard() == []
    assert replace(seen, read_as={}).unheard() == ["3. Čeština", "4. Русский"]


def test_a_row_shown_twice_may_be_said_twice_signs_and_all() -> None:
    """Two rows the same, "+1 food" in them (said "plus 1 food"): said
    twice, they are not said twice too many."""
    row = "5 Food 7, +1 food, 3 Reverse direction."
    screen = ["Your move: eat", "You: eat 21 cards: 2 Food 3,", row,
              "Your hand, 25 cards: 2 Food 2,", row, "Start a pile with a food card:"]
    said = ("You: eat 21 cards: 2 Food 3,  , 5 Food 7,  plus 1 food, 3 Reverse direction.  , "
            "Your hand, 25 cards: 2 Food 2,  , 5 Food 7,  plus 1 food, 3 Reverse direction.")
    twice = Seen(Step("a move", ("typed", "eat\r")), "typed 'eat\r'", [], [],
                 [Utterance(0.0, "say", said)], "", screen[1], screen, cursor_y=1,
                 text="eat\r")
    assert twice.duplicates(brltty=False) == []
    again = replace(twice, fenrir_said=[*twice.fenrir_said, Utterance(
        1.0, "say", "5 Food 7,  plus 1 food, 3 Reverse direction.")])  # a third time
    assert again.duplicates(brltty=False) == ["5 food 7 plus 1 food 3 reverse direction"]


def test_a_walk_waits_for_the_console_and_no_longer_than_told(tmp_path: Path) -> None:
    lock = tmp_path / "console.lock"
    held = take_console(lock, wait=0)
    try:
        with pytest.raises(TimeoutError, match="another walk held the console"):
            take_console(lock, wait=0.6)
    finally:
        os.close(held)
    os.close(take_console(lock, wait=0))  # let go: taken at once


def test_a_walk_not_yet_walking_leaves_the_console_alone(tmp_path: Path) -> None:
    """A walk made (and waiting for the console's lock) has taken no
    virtual console and changed none: one made beside a walk that walked
    once brought its own to the foreground, and the walking one's BRLTTY
    read another console (its every step waited for the braille window)."""
    active = Path("/sys/class/tty/tty0/active")
    before = active.read_text() if active.exists() else None
    walker = Walker(["true"], cols=40, rows=15, workdir=tmp_path)
    assert not walker.console.opened
    assert (active.read_text() if active.exists() else None) == before
    walker.close()  # (nothing to give back)
    assert (active.read_text() if active.exists() else None) == before
