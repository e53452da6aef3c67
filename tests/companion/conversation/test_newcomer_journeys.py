"""The journeys as a newcomer meets them, in both faces: menus that say
which game a journey belongs to, Back below the main menu, help that
answers the question open, the pick question naming chopsticks only when
they are on the table, the hand check worded for a typed hand, the pass
direction where hands pass both ways, and a quit that says the game is kept."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app import FullScreen
from companion.settings import Settings
from tests.drivers import PipedApp, Player, first_start
from tests.drivers import ThreadApp as App
from tests.drivers import run_screen as run

SAVED = "The game is saved: choose Resume at the next start."


@pytest.fixture(autouse=True)
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    yield


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path


# -- menus that say which game a journey belongs to ------------------------------------------


def test_with_mici_maki_chosen_scoring_says_it_is_sushi_gos() -> None:
    app = App(Settings(speech="none", game="mici-maki"))
    options = app.main_menu()
    assert options[0] == "1. Table companion for a real game."  # Mici Maki has one
    assert options[2] == "3. Score a finished game. Only for Sushi Go!"
    app.type("3")
    app.until("Player 1's name, or an empty line when all are in:")  # Sushi Go!'s scorer
    app.type("menu")
    app.until("Back to the main menu.")
    assert app.goodbye("quit") == 0


def test_with_sushi_go_chosen_every_journey_is_its_own() -> None:
    app = App()
    options = app.main_menu()
    assert options[2] == "3. Score a finished game."
    assert not any("Only for" in option for option in options)
    app.type("quit")
    assert app.close() == 0


# -- Back ----------------------------------------------------------------------------------------


def test_back_in_the_settings_goes_up_a_menu_and_changes_nothing() -> None:
    app = App()
    app.main_menu()
    app.type("5")  # settings
    app.until("Choose 1 to 7:")
    assert app.out.lines[app.seen - 2] == "7. Back."
    app.type("1")  # language
    app.until("Choose 1 to 5:")
    assert app.out.lines[app.seen - 2] == "5. Back."
    app.type("5")  # Back: the settings again
    assert app.until(("Settings:", "Settings saved.")) == "Settings:"
    app.until("Choose 1 to 7:")
    app.type("4")  # voice
    app.until("Choose 1 to 4:")
    app.type("back")  # the word chooses Back, as the item does
    assert app.until(("Settings:", "Settings saved.")) == "Settings:"
    app.until("Choose 1 to 7:")
    app.type("back")
    app.until("Back to the main menu.")
    app.main_menu()
    assert "Settings saved." not in app.out.lines
    app.type("4")  # learn the codes
    app.until("Choose 1 to 4:")
    assert app.out.lines[app.seen - 2] == "4. Back."
    app.type("4")
    app.until("Back to the main menu.")
    app.main_menu()
    app.type("quit")
    assert app.close() == 0


def test_back_is_in_the_settings_of_the_full_screen_and_the_word_chooses_it() -> None:
    async def body(player: Player) -> None:
        await player.menu(6)
        await player.pick(5)  # settings
        choices = await player.menu(7)
        assert str(choices.children[6].query_one("Label").render()) == "7. Back."
        await player.pick(7)  # Back, by the arrow keys and Enter
        await player.said("Choose 1 to 6:")
        assert "Back to the main menu." in player.app.lines[-10:]
        await player.pick(5)
        await player.menu(7)
        await player.type("back")  # the word, typed
        await player.said("Choose 1 to 6:")
        assert player.app.lines.count("Back to the main menu.") == 2
        await player.quit()

    assert run(body).return_value == 0


# -- help that answers the question open ----------------------------------------------------------


def test_help_at_a_menu_says_how_to_choose_then_the_words() -> None:
    app = App()
    app.main_menu()
    app.type("help")
    assert app.until("then Enter.") == "Type the number of your choice, 1 to 6, then Enter."
    app.until("Words that work everywhere: repeat, back, next, stop, help, menu, quit.")
    app.until("Choose 1 to 6:")
    app.type("5")
    app.until("Choose 1 to 7:")
    app.type("help")
    assert app.until("Back.") == ("Type the number of your choice, 1 to 7, then Enter. "
                                  "The word back chooses Back.")
    app.type("quit")
    assert app.close() == 0


def test_help_at_a_card_question_says_how_to_type_a_card_of_this_game() -> None:
    app = App(Settings(speech="none", game="mici-maki"))
    app.main_menu()
    app.type("4")  # learn the codes
    app.until("Choose 1 to 4:")
    app.type("1")  # type a card to hear it
    app.until("A code or a scan, or an empty line to stop:")
    app.type("help")
    first = app.until("reverse direction, c for choose the next player.")
    assert first.startswith("Type a Mici Maki card: its food value, 2 to 7")
    app.until("Words that work everywhere: repeat, back, next, stop, help, menu, quit.")
    app.type("quit")
    assert app.close() == 0


def test_help_in_the_drill_says_how_to_find_the_asked_cards_code() -> None:
    app = App()
    app.main_menu()
    app.type("4")
    app.until("Choose 1 to 4:")
    app.type("2")  # the drill
    asked = app.until("? An empty line stops.")
    card = asked.removeprefix("Code for ").removesuffix("? An empty line stops.")
    app.type("help")
    assert app.until("an empty line stops.") == (
        f"Type the code of {card}, the one on its sticker, or scan the card. A wrong "
        "code is answered with the right one; an empty line stops.")
    # then how a Sushi Go! code is made, then the words
    assert app.until("then 1 top, 2 middle, 3 bottom.") == (
        "Type a card: its shape key, then 1 top, 2 middle, 3 bottom.")
    app.until("Words that work everywhere: repeat, back, next, stop, help, menu, quit.")
    assert app.until("? An empty line stops.") == asked  # the same card, asked again
    app.type("quit")
    assert app.close() == 0


def test_help_in_the_full_screen_names_the_arrow_keys_at_a_menu() -> None:
    async def body(player: Player) -> None:
        await player.menu(6)
        await player.type("help")
        await player.said("Choose 1 to 6:")
        lines = player.app.lines
        said = lines[lines.index("Type the number of your choice, 1 to 6, then Enter, or "
                                 "move to it with the arrow keys and press Enter."):]
        assert said[1].startswith("Words that work everywhere:")
        assert any(line.startswith("Keys: F1 help") for line in said)
        await player.quit()

    assert run(body).return_value == 0


# -- a table game's words: chopsticks, the hand check, the pass direction ---------------------


def start_table(app: App, variant: str) -> None:
    app.main_menu()
    app.type("1")  # table companion
    app.until("you included? 2 to 5:")
    app.type("2")
    for name in ("Ana", "Ben"):
        app.until("to the left:")
        app.type(name)
    app.until("Choose 1 to 3:")
    app.type("1")  # I am Ana
    app.until("Choose 1 to 5:")
    app.type(variant)
    app.until("Cards come from:")
    app.until("Choose 1 to 5:")
    app.type("1")  # typed codes


def test_chopsticks_are_named_at_the_pick_only_when_on_the_table() -> None:
    app = App()
    start_table(app, "2")  # pass both ways
    assert app.until("this round.") == "Round 1, turn 1. Hands pass to the left this round."
    app.until("Your hand, card by card (an empty line skips):")
    app.type("p t s x q o1 w1 f s x")  # chopsticks in the hand, none on the table
    assert app.until("Maki 1.").startswith("10 cards: Wasabi, 2 Dumpling")  # read back
    app.until("Your pick:")  # no chopsticks on the table: none named
    app.type("p")  # chopsticks taken
    app.until("Ben's reveal (an empty line skips):")
    app.type("")
    assert app.until("turn 2.") == "Round 1, turn 2."  # the direction said once a round
    app.until("Your hand, card by card (an empty line skips):")
    app.type("")
    app.until("Your pick (two with chopsticks):")  # now they are there
    app.type("quit")
    app.until(SAVED)
    app.until("Goodbye.")
    assert app.close() == 0


@pytest.mark.slow
def test_a_practice_game_passing_both_ways_says_the_direction_each_round(home: Path) -> None:
    app = PipedApp(home)
    first_start(app)
    app.answer("Choose 1 to 6:", "2")  # practice
    app.answer("2 to 5:", "2")
    app.answer("Choose 1 to 4:", "1")  # greedy bots
    app.answer("Choose 1 to 5:", "2")  # pass both ways
    app.until("Round 1, turn 1. Hands pass to the left this round.")
    while not app.last_turn().startswith("Round 2"):
        app.turn()
    assert app.last_turn() == "Round 2, turn 1. Hands pass to the right this round."
    while not app.last_turn().startswith("Round 3"):
        app.turn()
    assert app.last_turn() == "Round 3, turn 1. Hands pass to the left this round."
    app.ended_well()
    assert SAVED in app.lines  # quit mid-game: kept, and said


# -- quit says the game is kept -----------------------------------------------------------------


def test_quit_in_a_plain_practice_game_says_it_is_kept_and_how_to_resume(home: Path) -> None:
    app = PipedApp(home)
    first_start(app)
    app.practice()
    app.until("Your pick:")
    app.send("quit")
    app.until(SAVED)
    app.until("Goodbye.")
    assert app.close() == 0
    again = PipedApp(home)
    again.until("An unfinished practice game was found.")
    assert again.until("Choose 1 to 4:")
    assert again.lines[-5] == "1. Resume it."
    assert again.quit() == 0


def test_quit_outside_a_game_says_nothing_of_one(home: Path) -> None:
    app = PipedApp(home)
    first_start(app)
    app.until("Choose 1 to 6:")
    app.send("quit")
    app.until("Goodbye.")
    assert app.close() == 0
    assert SAVED not in app.lines


def test_quit_in_a_full_screen_game_says_it_is_kept() -> None:
    async def body(player: Player) -> None:
        await player.menu(6)
        await player.pick(2)  # practice
        await player.said("2 to 5:")
        await player.type("2")
        await player.menu(4)
        await player.press("enter")  # greedy
        await player.menu(5)
        await player.press("enter")  # no variant
        await player.said("Your pick:")
        await player.type("quit")
        await player.until(lambda: player.app.return_value is not None, "the app ended")

    full: list[FullScreen] = []
    assert run(body, kept=full).return_value == 0
    talk = full[0].talk
    assert talk is not None
    # said (spoken, with speech) as the app ends: the screen is given back
    # before it draws its last words (the goodbye as well)
    assert [a.text for a in talk.voice.history[-2:]] == [SAVED, "Goodbye."]


@pytest.mark.parametrize(("language", "back", "choose"), [
    ("fr", "5. Retour.", "Tapez le numéro de votre choix, de 1 à 5, puis Entrée."),
    ("cs", "5. Zpět.", "Napište číslo své volby, 1 až 5, a stiskněte Enter."),
    ("ru", "5. Назад.", "Введите номер нужного пункта, от 1 до 5, и нажмите Enter."),
])
def test_back_and_help_are_in_the_players_language(language: str, back: str,
                                                   choose: str) -> None:
    def menu_of(count: int) -> None:  # its prompt, French spacing too
        app.until((f" {count}:", f" {count}\xa0:"))

    app = App(Settings(language=language, speech="none"))
    menu_of(6)
    app.type("5")  # settings
    menu_of(7)
    app.type("1")  # language
    menu_of(5)
    assert app.out.lines[app.seen - 2] == back
    app.type("help")  # the English word works in every language
    assert app.until(".").startswith(choose)
    app.type("quit")
    assert app.close() == 0


# -- Back in the set-up menus and the resume offer ------------------------------------------


def test_back_in_a_practice_set_up_asks_the_question_before_and_keeps_the_answers() -> None:
    app = App()
    app.until("Choose 1 to 6:")
    app.type("2")  # practice
    app.until("you included? 2 to 5:")
    app.type("2")
    assert app.until("Opponents:") == "Opponents:"
    assert app.until("Choose 1 to 4:") == "Choose 1 to 4:"  # three bots, and Back
    assert app.out.lines[app.seen - 2] == "4. Back."
    app.type("2")  # random bots
    app.until("Variant:")
    app.until("Choose 1 to 5:")  # four variants for two, and Back
    app.type("back")  # the word: the question before
    app.until("Opponents:")
    app.until("Choose 1 to 4:")
    app.type("4")  # the Back item: the question before that
    app.until("you included? 2 to 5:")
    app.type("3")  # three players now
    app.until("Opponents:")
    app.type("2")
    app.until("Variant:")
    app.until("Choose 1 to 4:")  # no dummy for three, and Back
    app.type("2")  # pass both ways
    assert app.until("this round.") == "Round 1, turn 1. Hands pass to the left this round."
    assert "Practice game: You, Bot 1, Bot 2." in app.out.lines[app.seen - 4:app.seen], (
        app.out.lines[app.seen - 6:app.seen])
    app.type("quit")
    app.until("Goodbye.")
    assert app.close() == 0


def test_back_in_a_table_set_up_goes_back_a_question_at_a_time_names_kept() -> None:
    app = App(Settings(speech="none", game="mici-maki"))
    app.until("Choose 1 to 6:")
    app.type("1")  # the table companion
    app.until("you included? 3 to 7:")
    app.type("3")
    for name in ("Ana", "Ben", "Cy"):
        app.until("to the left:")
        app.type(name)
    app.until("Which one are you?")
    app.until("Choose 1 to 4:")  # three players, and Back
    app.type("back")  # the last name asked again, the others kept
    assert app.until("to the left:") == (
        "Player 3's name, going round the table to the left:")
    app.type("Cleo")
    app.until("Which one are you?")
    app.until("Choose 1 to 4:")
    assert app.out.lines[app.seen - 5:app.seen - 1] == ["1. Ana", "2. Ben", "3. Cleo",
                                                        "4. Back."]
    app.type("2")  # I am Ben
    app.until("Who starts the first pile?")
    app.until("Choose 1 to 4:")
    app.type("4")  # Back: which one am I, again
    app.until("Which one are you?")
    app.type("1")  # Ana
    app.until("Who starts the first pile?")
    app.type("1")
    app.until("Action cards in your deck:")
    app.until("Choose 1 to 3:")  # two, and Back
    app.type("1")  # the usual deck
    app.until("Cards come from:")
    app.until("Choose 1 to 5:")  # four places, and Back
    app.type("back")  # the deck again
    app.until("Action cards in your deck:")
    app.type("1")
    app.until("Cards come from:")
    app.type("1")  # typed codes only
    app.until("Your 5 cards as dealt, card by card:")
    app.type("5 5 3 p r")
    assert app.until("Reverse direction.") == (
        "Your hand, 5 cards: Food 3, 2 Food 5, +1 food, Reverse direction.")
    assert app.until("You are Ana.") == "Mici Maki at the table: Ana, Ben, Cleo. You are Ana."
    app.type("quit")
    app.until("Goodbye.")
    assert app.close() == 0


def test_back_in_the_resume_offer_keeps_the_game_for_the_next_start(home: Path) -> None:
    app = PipedApp(home)
    first_start(app)
    app.practice()
    app.until("Your pick:")
    app.send("quit")
    app.until("Goodbye.")
    assert app.close() == 0
    again = PipedApp(home)
    again.until("An unfinished practice game was found.")
    again.until("Choose 1 to 4:")
    assert again.lines[-5:-1] == ["1. Resume it.", "2. Not now.", "3. Throw it away.",
                                  "4. Back."]
    again.send("back")  # the word chooses Back: the main menu, the game kept
    again.until("Choose 1 to 6:")
    assert again.quit() == 0
    third = PipedApp(home)
    third.until("An unfinished practice game was found.")  # offered again
    third.answer("Choose 1 to 4:", "1")
    third.until("Your pick:")
    assert third.quit() == 0


def test_a_game_left_with_menu_is_offered_again_by_its_own_journey(home: Path) -> None:
    """"menu" mid-game says the game is kept and how to come back; the
    practice journey then offers it (Resume, or Start a new game), the table
    companion does not (it is not a table game); resumed, it is at the
    question it was left at."""
    app = PipedApp(home)
    first_start(app)
    app.practice()
    app.until("Your pick:")
    hand = app.lines[-2]
    app.send("menu")
    assert app.until("resumes it.") == (
        "The game is saved: the same choice in the menu resumes it.")
    app.until("Back to the main menu.")
    app.answer("Choose 1 to 6:", "1")  # the table companion: its own set-up
    app.until("How many players at the table, you included? 2 to 5:")
    app.send("menu")
    app.answer("Choose 1 to 6:", "2")  # practice: the game left is offered
    app.until("An unfinished practice game was found.")
    app.until("Choose 1 to 4:")
    assert app.lines[-5:-1] == ["1. Resume it.", "2. Start a new game.", "3. Throw it away.",
                                "4. Back."]
    app.send("1")
    app.until("Your pick:")
    assert hand in app.lines[-12:]  # the same hand, the same question
    app.send("menu")
    app.answer("Choose 1 to 6:", "2")
    app.answer("Choose 1 to 4:", "2")  # a new game: its set-up, the old one kept
    assert "table" not in app.until("2 to 5:")  # the practice game's first question
    assert app.quit() == 0
    again = PipedApp(home)  # the old game offered at the next start still
    again.until("An unfinished practice game was found.")
    assert again.quit() == 0
