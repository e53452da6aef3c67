"""The full screen's conversation model (companion/faces/screen_state.py),
without Textual: the reply, the transcript and the cursor's resting place
as the journeys' news and the player's keys come, in the order a player
meets them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from companion.contract.events import Answered, Menu, Text
from companion.faces.screen_state import Facts, ScreenState

LANGUAGE = Menu("Language / Langue", ("English", "Français"))
NAME = Text("Player 1's name:")
ROOT = Path(__file__).resolve().parents[3]


def test_the_model_needs_no_textual() -> None:
    """Imported alone, it brings in neither Textual nor rich."""
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, companion.faces.screen_state\n"
         "print(sorted({m.split('.')[0] for m in sys.modules} & {'textual', 'rich'}))"],
        capture_output=True, text=True, check=True, cwd=ROOT)
    assert loaded.stdout.strip() == "[]", loaded.stdout


def test_a_turn_said_before_the_player_acts_is_one_reply() -> None:
    state = ScreenState()
    assert state.say("Welcome.")  # a new reply: the one before (none) flushed
    assert not state.say("Language / Langue")
    assert state.reply == ["Welcome.", "Language / Langue"]
    assert state.news and state.cursor_on_reply
    state.ask("Choose 1 to 2:")
    assert state.cursor_on_reply, "the news keeps the cursor"
    assert state.lines == ["Welcome.", "Language / Langue", "Choose 1 to 2:"]
    assert state.prompt == "Choose 1 to 2:"


def test_a_question_with_nothing_new_said_takes_the_cursor() -> None:
    state = ScreenState()
    state.ask("Your pick:")
    assert not state.cursor_on_reply and not state.news


def test_a_menu_answered_goes_into_the_transcript_after_the_reply() -> None:
    state = ScreenState()
    state.say("Welcome.")
    assert not state.open_menu(LANGUAGE)  # said in the same turn: no flush
    state.ask("Choose 1 to 2:")
    assert state.menu is LANGUAGE and state.options == 2
    state.press()
    assert state.choice("2", "en") == 1 and state.choice("3", "en") is None
    assert state.choice("a", "en") is None and state.choice("é", "fr") == 1
    assert state.choose() and not state.choose(), "a second choice waits for the next menu"
    assert state.closed(Answered(LANGUAGE, "2. Français"))
    assert state.transcript == ["Welcome.", "Language / Langue", "2. Français"]
    assert state.reply == [] and state.menu is None and state.acted
    assert state.retire_menu() and not state.retire_menu(), "its list goes once"
    assert state.say("Français choisi.")  # the player acted: a new reply
    assert state.reply == ["Français choisi."]


def test_a_text_question_answered_is_not_written_as_a_menu() -> None:
    state = ScreenState()
    assert not state.closed(Answered(NAME, "Ann"))
    assert state.transcript == []


def test_a_line_given_is_written_after_what_it_answered() -> None:
    state = ScreenState()
    state.say("Table game.")
    state.ask("Player 1's name:")
    state.press()
    state.submit()
    assert state.submitted and state.given_to == "Player 1's name:"
    assert state.clear_answer("Ann"), "the reply before it goes into the transcript first"
    assert state.transcript == ["Table game.", "Player 1's name: Ann"]
    assert not state.submitted


def test_a_line_given_to_a_menu_or_blank_is_not_written() -> None:
    state = ScreenState()
    state.open_menu(LANGUAGE)
    state.ask("Choose 1 to 2:")
    state.submit()
    assert state.given_to == ""  # a menu's answer is written as its option
    assert not state.clear_answer("1")
    state.menu = None
    state.ask("Player 1's name:")
    state.submit()
    assert not state.clear_answer("   ")
    assert state.transcript == []


def test_a_digit_that_chose_ends_with_the_next_key() -> None:
    state = ScreenState(digit_chose=True)
    assert state.digit_ended() and not state.digit_ended()


def test_the_key_facts() -> None:
    state = ScreenState()
    state.progress(Facts("R1 T3, 12 points, 7 cards"))
    assert state.facts == "R1 T3, 12 points, 7 cards"
