"""The words of a table game (race, hint, help) and the voice settings,
through the line-mode app."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.games.sushigo.bots import table_advice
from companion.games.sushigo.cards import Card
from companion.games.sushigo.narration import advice_text
from companion.games.sushigo.tactile import short_code
from companion.games.sushigo.telling import catalog as sushigo_catalog
from companion.settings import load_settings
from tests.companion.conversation.test_scans_in_app import start_table_game
from tests.drivers import ThreadApp as App


@pytest.fixture(autouse=True)
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    yield


def codes(*cards: Card) -> str:
    return " ".join(short_code(card) for card in cards)


HAND = (Card.SQUID, Card.EGG, Card.EGG, Card.MAKI1, Card.MAKI1, Card.TEMPURA,
        Card.PUDDING, Card.DUMPLING, Card.SASHIMI, Card.MAKI2)


def enter_hand_and_pick(app: App, pick: Card) -> None:
    """The first turn's hand (HAND) and pick; Ben's reveal is asked next."""
    app.type(codes(*HAND))
    app.until("Your pick:")
    app.type(codes(pick))
    app.until("Ben's reveal (an empty line skips):")


def test_hint_race_and_help_during_a_table_game() -> None:
    app = App()
    start_table_game(app)
    app.type("hint")
    app.until("Enter your hand first (hand, then its cards, as in hand t w2 s): "
              "the hint needs it.")
    app.type("race")
    app.until("Maki rolls this round: Ana 0, Ben 0.")
    app.until("Puddings: Ana 0, Ben 0.")
    app.type(codes(*HAND))
    app.until("Your pick:")
    app.type("hint")
    advice = table_advice(HAND, [(), ()], [0, 0], 1, 0)
    app.until(advice_text(sushigo_catalog("en"), advice))
    app.type(codes(Card.PUDDING))
    app.until("Ana: Pudding.")  # each entry confirmed
    app.until("Ben's reveal (an empty line skips):")
    app.type(codes(Card.MAKI3))
    app.until("Ben: Maki 3.")
    app.until("Round 1, turn 2.")
    app.type("race")
    app.until("Maki rolls this round: Ben 3, Ana 0.")
    app.until("Puddings: Ana 1, Ben 0.")
    app.type("help")
    app.until("Words that work everywhere: repeat, back, next, stop, help, menu, quit.")
    app.until("In a game also: where, hand, coming, tables, race, hint, undo.")
    app.type("where")
    app.until("Round 1, turn 2. Scores: Ana 0, Ben 6.")  # Ben leads the maki
    assert app.close() == 0


def test_voice_speed_is_chosen_in_range_and_saved() -> None:
    app = App()
    app.until("Choose 1 to 6:")
    app.type("5")  # settings
    app.until("Choose 1 to 7:")  # six settings, and Back
    app.type("4")  # voice
    app.until("Speed, in words a minute (now 175).")
    app.until("Choose 1 to 4:")  # three, and Back
    app.type("1")
    app.until("Speed, in words a minute, 80 to 450 (now 175):")
    app.type("999")
    app.until("999 is not a number from 80 to 450.")
    app.type("fast")
    app.until("fast is not a number from 80 to 450.")
    app.type("220")
    app.until("Settings saved.")
    saved = load_settings()
    assert saved is not None and saved.rate == 220
    assert app.talk.settings.rate == 220
    app.type("6")
    app.until("Goodbye.")
    assert app.close() == 0


def test_an_empty_answer_keeps_the_voice_as_it_was() -> None:
    app = App()
    app.until("Choose 1 to 6:")
    app.type("5")
    app.until("Choose 1 to 7:")  # six settings, and Back
    app.type("4")
    app.until("Choose 1 to 4:")
    app.type("3")  # volume
    app.until("Volume, 0 to 100 (now 100):")
    app.type("")
    app.until("Settings saved.")
    saved = load_settings()
    assert saved is not None and saved.volume == 100
    assert app.close() == 0


def test_undo_takes_back_the_last_entry_and_asks_that_question_again() -> None:
    app = App()
    start_table_game(app)
    enter_hand_and_pick(app, Card.SQUID)
    app.type("undo")
    app.until("Taken back: your pick, Squid nigiri.")
    app.until("Your pick:")
    app.type(codes(Card.EGG))
    app.until("Ben's reveal (an empty line skips):")
    app.type(codes(Card.MAKI3))
    app.until("Round 1, turn 2.")
    app.until("Your hand, card by card (an empty line skips):")
    app.type("undo")  # nothing entered this turn: back into turn 1
    app.until("Taken back: Ben's pick, Maki 3.")
    app.until("Round 1, turn 1.")
    app.until("Ben's reveal (an empty line skips):")
    app.type(codes(Card.TEMPURA))
    app.until("Round 1, turn 2.")
    app.type("tables")
    app.until("Ana: Egg nigiri.")
    app.until("Ben: Tempura.")
    assert app.close() == 0


def test_a_stopped_table_game_resumes_at_the_very_question_it_stopped_on() -> None:
    app = App()
    start_table_game(app)
    enter_hand_and_pick(app, Card.SQUID)
    assert app.close() == 0  # the input ends here: as if the window closed
    again = App()
    again.until("An unfinished table game was found.")
    again.until("Choose 1 to 4:")
    again.type("1")
    again.until("Round 1, turn 1.")
    assert again.until("(an empty line skips):") == "Ben's reveal (an empty line skips):"
    again.type("hand")
    again.until("Squid nigiri, 2 Maki 1, Maki 2.")
    again.type("")  # Ben's reveal skipped
    again.until("Round 1, turn 2.")
    again.until("Your hand, card by card (an empty line skips):")
    assert again.close() == 0


def test_menu_leaves_a_game_which_stays_saved_and_can_be_thrown_away() -> None:
    app = App()
    start_table_game(app)
    app.type(codes(*HAND))
    app.until("Your pick:")
    app.type("menu")
    app.until("Back to the main menu.")
    app.until("Choose 1 to 6:")
    app.type("6")
    app.until("Goodbye.")
    assert app.close() == 0
    again = App()
    again.until("An unfinished table game was found.")
    again.until("Choose 1 to 4:")
    again.type("3")
    again.until("Throw it away for good?")
    again.until("Choose 1 to 2:")
    again.type("2")
    again.until("Thrown away.")
    again.until("Choose 1 to 6:")
    assert again.close() == 0
    third = App()
    third.until("Choose 1 to 6:")  # nothing offered any more
    assert not any("unfinished" in line for line in third.out.lines)
    assert third.close() == 0


def test_tables_with_a_name_or_a_seat_reads_only_that_players_table() -> None:
    app = App()
    start_table_game(app)
    enter_hand_and_pick(app, Card.SQUID)
    app.type(codes(Card.MAKI3))
    app.until("Round 1, turn 2.")
    app.type("tables be")
    assert app.until(".") == "Ben: Maki 3."
    app.type("TABLES 1")
    assert app.until(".") == "Ana: Squid nigiri."
    app.type("tables Zoe")
    app.until("No player called Zoe. Players: Ana, Ben.")
    assert app.close() == 0


def start_four(app: App) -> None:
    app.until("Choose 1 to 6:")
    app.type("1")
    app.until("you included? 2 to 5:")
    app.type("4")
    for name in ("Ana", "Ben", "Cyd", "Dan"):
        app.until("to the left:")
        app.type(name)
    app.until("Choose 1 to 5:")
    app.type("1")  # I am Ana
    app.until("Choose 1 to 4:")
    app.type("1")  # no variant
    app.until("Cards come from:")
    app.until("Choose 1 to 5:")
    app.type("1")


def test_undo_after_skips_asks_the_question_taken_back_not_an_earlier_skipped_one() -> None:
    app = App()
    start_four(app)
    app.until("Your hand, card by card (an empty line skips):")
    app.type("")  # hand skipped
    app.until("Your pick:")
    app.type("t")
    app.until("Ben's reveal (an empty line skips):")
    app.type("")  # Ben skipped
    app.until("Cyd's reveal (an empty line skips):")
    app.type("s")
    app.until("Dan's reveal (an empty line skips):")
    app.type("undo")
    app.until("Taken back: Cyd's pick, Dumpling.")
    assert app.until("(an empty line skips):") == "Cyd's reveal (an empty line skips):"
    app.type("x")
    app.until("Dan's reveal (an empty line skips):")
    assert app.close() == 0


def test_a_resumed_game_does_not_ask_again_what_was_skipped() -> None:
    app = App()
    start_four(app)
    app.until("Your hand, card by card (an empty line skips):")
    app.type("")
    app.until("Your pick:")
    app.type("t")
    app.until("Ben's reveal (an empty line skips):")
    app.type("")  # Ben skipped
    app.until("Cyd's reveal (an empty line skips):")
    assert app.close() == 0  # stopped here
    again = App()
    again.until("Choose 1 to 4:")
    again.type("1")  # resume
    assert again.until("(an empty line skips):") == "Cyd's reveal (an empty line skips):"
    again.type("")
    again.until("Dan's reveal (an empty line skips):")
    again.type("")
    again.until("Round 1, turn 2.")
    again.type("undo")  # back over the skips and the new turn: the last fact
    again.until("Taken back: your pick, Wasabi.")
    assert again.until("Your pick:") == "Your pick:"  # no chopsticks on the table: none said
    assert again.close() == 0


def test_a_skipped_hand_is_entered_later_with_a_word_and_the_hint_uses_it() -> None:
    app = App()
    start_table_game(app)
    app.type("")  # the hand skipped
    app.until("Your pick:")
    app.type("hand")
    app.until("Your hand is not entered yet: type hand, then its cards, as in hand t w2 s.")
    app.type("hand zz")
    app.until("zz is not a card. The codes: companion codes.")
    app.type("hand " + codes(*HAND))
    app.until("10 cards: Dumpling, Tempura, Sashimi, Pudding, 2 Egg nigiri, Squid nigiri, "
              "2 Maki 1, Maki 2.")
    app.until("Your pick:")  # the same question, asked again
    app.type("hint")
    advice = table_advice(HAND, [(), ()], [0, 0], 1, 0)
    app.until(advice_text(sushigo_catalog("en"), advice))
    app.type("hand")
    app.until("10 cards: Dumpling, Tempura, Sashimi, Pudding, 2 Egg nigiri, Squid nigiri, "
              "2 Maki 1, Maki 2.")
    assert app.close() == 0
