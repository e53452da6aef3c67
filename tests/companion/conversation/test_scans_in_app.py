"""Scanner events inside the app: they reach the journey that waits for a
card, gather into hands, and are explained when they do not fit.

The events go through the very inbox the scanner's link posts into, from
another thread as the link does; the whole path through a real
pseudo-terminal is in test_plain.py's scanned table game.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.conversation.core import Talk
from companion.conversation.inbox import Inbox
from companion.conversation.journeys import run
from companion.conversation.scanner_news import scanner_problem_text
from companion.faces.plain import PlainFace
from companion.games import games
from companion.games.sushigo.cards import Card
from companion.games.sushigo.tactile import parse
from companion.i18n import LANGUAGES, Catalog
from companion.settings import Settings, load_settings
from firmware_bridge.events import (
    CardIdentified,
    ScannerFound,
    ScannerIssue,
    ScannerLost,
    ScannerProblem,
    Source,
)
from tests.drivers import Lines
from tests.drivers import ThreadApp as App


@pytest.fixture(autouse=True)
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    yield


def start_table_game(app: App) -> None:
    app.until("Choose 1 to 6:")
    app.type("1")  # table companion
    app.until("you included? 2 to 5:")
    app.type("2")  # 2 players
    for name in ("Ana", "Ben"):
        app.until("to the left:")
        app.type(name)
    app.until("Choose 1 to 3:")
    app.type("1")  # I am Ana
    app.until("Choose 1 to 5:")
    app.type("1")  # no variant
    app.until("Cards come from:")
    app.until("Choose 1 to 5:")
    app.type("1")  # typed codes (the events come from the test)
    app.until("Your hand, card by card (an empty line skips):")


HAND = [Card.TEMPURA, Card.SALMON, Card.WASABI, Card.MAKI2, Card.PUDDING,
        Card.DUMPLING, Card.SASHIMI, Card.CHOPSTICKS, Card.EGG, Card.SQUID]


def test_scans_gather_into_the_hand_and_end_it_when_it_is_full() -> None:
    app = App()
    start_table_game(app)
    app.scan(HAND[:3])
    assert app.until("so far.") == "Tempura: 1 so far."
    app.until("Salmon nigiri: 2 so far.")
    app.until("Wasabi: 3 so far.")
    app.type("undo")  # takes off the last scanned card, not a game entry
    app.until("Wasabi taken off: 2 so far.")
    app.scan(HAND[2:])
    app.until("Squid nigiri: 10, done.")
    app.until("10 cards: Wasabi, Dumpling, Tempura, Sashimi, Chopsticks, Pudding, "
              "Egg nigiri, Salmon nigiri, Squid nigiri, Maki 2.")
    app.until("Your pick:")
    app.scan([Card.SALMON])  # no chopsticks on the table yet: one scan is the pick
    app.until("Salmon nigiri: 1, done.")
    app.until("Ben's reveal (an empty line skips):")
    app.type("")  # Ben's not entered: he may have chopsticks, so a scan waits
    app.until("Round 1, turn 2.")
    assert app.talk.link is None
    assert app.close() == 0


def test_a_hand_ended_short_is_refused_its_scans_kept_and_the_rest_completes_it() -> None:
    app = App()
    start_table_game(app)
    app.scan(HAND[:7])
    app.until("Sashimi: 7 so far.")
    app.type("")  # ended short: a hand of 10 is all of it
    assert app.until("Type it again.") == (
        "That is 7 cards; your hand holds 10 this turn. Type it again.")
    app.scan(HAND[7:])  # the 7 scanned stay: the last 3 complete it
    app.until("Squid nigiri: 10, done.")
    # read back before the next question, the count first
    assert app.until("Maki 2.") == ("10 cards: Wasabi, Dumpling, Tempura, Sashimi, "
                                    "Chopsticks, Pudding, Egg nigiri, Salmon nigiri, "
                                    "Squid nigiri, Maki 2.")
    app.until("Your pick:")  # chopsticks in the hand, none on the table yet
    app.type("hand t s")  # the word hand takes a whole hand only: nothing changes
    app.until("Your hand holds 10 cards this turn, not 2 cards: enter every card of it.")
    app.type("hand")
    app.until("10 cards: Wasabi, Dumpling, Tempura, Sashimi, Chopsticks, Pudding, "
              "Egg nigiri, Salmon nigiri, Squid nigiri, Maki 2.")
    assert app.close() == 0


PLAYED_ANA = "Manche 1, cartes de Ana, dans l'ordre joué\u00a0:"
PLAYED_BEN = "Manche 1, cartes de Ben, dans l'ordre joué\u00a0:"


def test_a_scored_line_scanned_ends_at_a_hand_s_worth_and_is_read_back() -> None:
    app = App(Settings(language="fr", speech="none"))
    app.until("Choisissez de 1 à 6\u00a0:")
    app.type("3")  # score a finished game
    for name in ("Ana", "Ben", ""):
        app.until("quand tous sont saisis\u00a0:")
        app.type(name)
    app.until(PLAYED_ANA)
    app.scan(HAND[:9])
    app.type("")  # 9 of 10: refused, in the player's language, the scans kept
    app.until("Cela fait 9 cartes ; chaque joueur en a 10 à la fin d'une manche à 2 joueurs. "
              "Recommencez la saisie.")
    app.scan(HAND[9:])
    app.until("Sushi au calamar : 10, terminé.")
    assert app.until(".").startswith("Ana, manche 1, 10 cartes\u00a0: ")
    app.until(PLAYED_BEN)
    app.type("annuler")  # undo, in French: Ana's line taken back, asked again
    app.until("Annulé\u00a0: les cartes de Ana pour la manche 1.")
    app.until(PLAYED_ANA)
    assert app.close() == 0


def test_a_scan_that_does_not_fit_is_explained_and_changes_nothing() -> None:
    app = App()
    app.main_menu()
    app.scan([Card.SALMON])
    app.until("Salmon nigiri scanned, but no card is wanted here.")
    app.until("Choose 1 to 6:")  # asked again, nothing chosen
    app.post(CardIdentified(None, None, Source.SCANNER, "04AABBCCDDEE11", None, 2))
    app.until("Unknown tag 04AABBCCDDEE11: enrol it with firmware-bridge enrol.")
    # a card of a game this app does not have is named as such
    app.post(CardIdentified("micimaki", "salmon", Source.SCANNER, "0A0B0C0D", None, 3))
    app.until("That tag is a card of micimaki, a game this app does not have.")
    # a card id its game does not know is an unknown tag
    app.post(CardIdentified("sushigo", "caviar", Source.SCANNER, "0A0B0C0E", None, 4))
    app.until("Unknown tag 0A0B0C0E: enrol it with firmware-bridge enrol.")
    assert app.goodbye("6") == 0


def test_the_scanners_news_is_said_where_the_player_is() -> None:
    app = App()
    start_table_game(app)
    app.post(ScannerFound("/dev/ttyACM0", "sushi-scanner", "1.0.0"))
    app.until("Scanner ready.")
    app.post(ScannerLost("/dev/ttyACM0", "no answer for 3 seconds"))
    app.until("Scanner lost: check its cable. Typed codes still work.")
    app.post(ScannerFound("/dev/ttyACM0", "sushi-scanner", "1.0.0", again=True))
    app.until("Scanner found again.")
    app.post(ScannerProblem("2 scans were lost", "/dev/ttyACM0", ScannerIssue.LOST_SCANS, 2))
    app.until("2 scans were lost on the way: scan those cards again.")
    # typed codes still work, the same prompt is still open: a whole hand of 10
    app.type("t s s x x x q w2 w2 o1")
    app.until("10 cards: Wasabi, 2 Dumpling, 3 Tempura, Sashimi, 2 Salmon nigiri, Maki 1.")
    assert app.close() == 0


@pytest.mark.slow
def test_the_scanner_choice_is_saved_and_a_missing_port_is_refused(tmp_path: Path) -> None:
    app = App()
    app.main_menu()
    app.type("5")  # settings
    app.until("Choose 1 to 7:")  # six settings, and Back
    app.type("5")  # card scanner
    app.until("Cards come from:")
    app.until("Choose 1 to 5:")  # four places, and Back
    app.type("3")  # a port
    app.until("(an empty line: typed codes only):")
    app.type(str(tmp_path / "no-such-port"))
    app.until("Is the scanner plugged in?")
    app.type("loop://")  # a pyserial URL: a port that echoes, not a scanner
    app.until("The device on loop:// is not the card scanner: choose another port.")
    saved = load_settings()
    assert saved is not None and saved.scanner == "loop://"
    assert app.talk.link is not None
    assert app.goodbye("6") == 0
    assert app.talk.link is None  # stopped when the app ended


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_scanner_problem_has_its_own_sentence(language: str) -> None:
    catalog = Catalog.for_language(language)
    fallback = scanner_problem_text(catalog, ScannerProblem("x"))
    sentences = {
        scanner_problem_text(catalog, ScannerProblem("x", "/dev/ttyUSB0", kind, 3, "busy"))
        for kind in ScannerIssue
    }
    assert len(sentences) == len(ScannerIssue)
    assert fallback not in sentences


def test_a_problem_the_link_repeats_is_said_once_until_something_changes() -> None:
    app = App()
    app.main_menu()
    for _ in range(3):  # the link tries again every few seconds
        app.post(ScannerProblem("no scanner found", None, ScannerIssue.NOT_FOUND))
    app.post(ScannerFound("/dev/ttyACM0", "tactile-scanner", "1.0.0"))
    app.until("Scanner ready.")
    app.post(ScannerProblem("no scanner found", None, ScannerIssue.NOT_FOUND))
    assert app.goodbye("6") == 0
    said = [line for line in app.out.lines if line.startswith("No scanner found")]
    assert len(said) == 2  # once before the scanner came, once after


def test_a_port_that_does_not_exist_is_named_as_such(tmp_path: Path) -> None:
    missing = str(tmp_path / "ttyACM9")
    inbox = Inbox()
    out = Lines()
    talk = Talk(PlainFace(out), inbox, Settings(speech="none"), scanner=missing)
    thread = threading.Thread(target=run, args=(talk,), daemon=True)
    thread.start()
    out.until(f"There is no port {missing}. Is the scanner plugged in?")
    inbox.put_line("6")
    thread.join(timeout=10)
    assert not thread.is_alive()


def test_game_words_outside_a_game_and_an_empty_menu_answer_are_explained() -> None:
    app = App()
    app.main_menu()
    app.type("hint")
    app.until("hint works during a game.")
    app.type("")
    app.until("Type a number from 1 to 6.")
    assert app.goodbye("6") == 0


def test_menu_at_the_main_menu_and_odd_digits_change_nothing() -> None:
    app = App()
    app.main_menu()
    app.type("menu")
    app.until("Back to the main menu.")
    app.until("Choose 1 to 6:")
    app.type("²")  # a digit to str.isdigit, not a number to type
    app.until("² is not a choice: type a number from 1 to 6.")
    app.type("١")  # an Arabic-Indic one
    app.until("١ is not a choice: type a number from 1 to 6.")
    assert app.goodbye("6") == 0


def test_a_card_scanned_before_the_question_is_explained_not_taken() -> None:
    app = App()
    start_table_game(app)
    hand = HAND[:10]
    for card in hand[:-1]:
        app.scan([card])
    app.until("Egg nigiri: 9 so far.")
    # the tenth card and a double read of it come together: the second
    # arrives before the pick is asked, so it is not taken as the pick
    def twice() -> None:
        for _ in range(2):
            app.inbox.post(CardIdentified("sushigo", hand[-1].id, Source.SCANNER, "04A1B2C3",
                                          None, 1))

    both = threading.Thread(target=twice)
    both.start()
    both.join()
    app.until("Squid nigiri: 10, done.")
    app.until("Squid nigiri was scanned before this question: scan it again if you meant it.")
    app.scan([Card.SALMON])
    app.until("Salmon nigiri: 1, done.")
    assert app.close() == 0


def practice(app: App, variant: str) -> None:
    app.until("Choose 1 to 6:")
    app.type("2")
    app.until("you included? 2 to 5:")
    app.type("2")
    app.until("Choose 1 to 4:")
    app.type("1")  # greedy
    app.until("Choose 1 to 5:")
    app.type(variant)
    app.until("Your pick:")


def test_practice_picks_gather_scans_for_the_dummy_and_chopsticks() -> None:
    """Verbose hands carry their codes, so the test scans from what it hears.
    Each turn it scans the first card of the hand. Controlling the dummy, the
    pick waits for a second scan, which goes to the dummy; with chopsticks on
    the table it waits too, and an empty line ends it with one card."""
    app = App(Settings(speech="none", verbosity="verbose"))
    practice(app, "4")  # two players and the dummy
    dummy_turns = 0
    line = "Your pick:"
    while line == "Your pick:":
        prompt = app.seen - 1
        controls = app.out.lines[prompt - 1].startswith("You control the dummy")
        hand = next(text for text in reversed(app.out.lines[:prompt]) if "card: " in text
                    or "cards: " in text)
        codes = re.findall(r"\((\w+)\)", hand)
        app.scan([parse(codes[0])])
        line = app.until((" so far.", "Your pick:", "Choose 1 to 6:"))
        if line.endswith(" so far."):
            if controls:
                app.scan([parse(codes[1] if len(codes) > 1 else codes[0])])
                if app.until((", done.", " so far.")).endswith(" so far."):
                    app.type("")  # chopsticks too: one for you, one for the dummy
                dummy_turns += 1
            else:
                app.type("")  # chopsticks on the table, one card taken
            line = app.until(("Your pick:", "Choose 1 to 6:"))
        else:
            assert not controls
    assert line == "Choose 1 to 6:"
    assert dummy_turns >= 3
    assert app.close() == 0


class FruitReader:
    """The cards of a small pretend game, as a card question reads them."""

    game = "fruit"

    def read(self, text: str) -> str:
        if text not in {"apple", "pear"}:
            raise ValueError(f"{text} is not a fruit")
        return text

    def refusal(self, language: str, error: ValueError) -> str:
        return str(error)

    def from_id(self, card_id: str) -> str:
        return self.read(card_id)

    def card_id(self, card: str) -> str:
        return card

    def name(self, language: str, card: str) -> str:
        return card.capitalize()


class Fruit:
    """A second game, installed beside Sushi Go! for one test."""

    game = "fruit"
    title = "Fruit Salad"
    reader = FruitReader()
    actions = ()


def test_a_card_of_another_installed_game_is_named_with_its_game(
        monkeypatch: pytest.MonkeyPatch) -> None:

    installed: dict[str, object] = {**games(), "fruit": Fruit()}
    monkeypatch.setattr("companion.conversation.cards.games", lambda: installed)
    app = App()
    start_table_game(app)
    app.post(CardIdentified("fruit", "pear", Source.SCANNER, "0A0B0C0D", None, 5))
    app.until("Pear is a card of Fruit Salad: this question wants a card of Sushi Go!.")
    app.until("Your hand, card by card (an empty line skips):")  # asked again
    app.scan([Card.WASABI])
    app.until("Wasabi: 1 so far.")  # the Sushi Go! card is taken
    assert app.close() == 0


def test_a_mici_maki_card_scanned_in_a_sushi_go_game_is_explained() -> None:
    app = App()
    start_table_game(app)
    app.post(CardIdentified("mici-maki", "food5", Source.SCANNER, "DEC0DE03000100", None, 5))
    app.until("Food 5 is a card of Mici Maki: this question wants a card of Sushi Go!.")
    app.until("Your hand, card by card (an empty line skips):")  # asked again
    app.type("5")  # typed too: explained with its game
    app.until("5 is Food 5, of Mici Maki: this game is Sushi Go!. Type a card of Sushi Go!.")
    app.until("Your hand, card by card (an empty line skips):")  # asked again: scan now
    app.scan([Card.WASABI])
    app.until("Wasabi: 1 so far.")  # the Sushi Go! card is taken
    assert app.close() == 0
