"""Mici Maki in the real app (``python -m companion --plain --game
mici-maki`` through a pipe, as a person or a script drives it): a whole
practice game against bots with the words eat, risk, pile, tokens, hint
and undo; a code of the other game explained, in both directions; the game
kept in the settings; the table companion's set-up and first moves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.games.micimaki.session import Entry, TableSession
from tests.drivers import PipedApp as Conversation
from tests.drivers import first_start

#: Where the app asks for a practice move, or is back at the main menu.
ASKS = ("Start a pile with a food card:", "Your move: a card, a pair, or eat:",
        "Choose 1 to 6:", "Choose 1 to 2:")


def test_a_whole_practice_game_of_mici_maki_through_a_pipe(tmp_path: Path) -> None:
    app = Conversation(tmp_path, "--plain", "--game", "mici-maki")
    first_start(app)
    app.until("Main menu, Mici Maki.")
    app.answer("Choose 1 to 6:", "2")  # practice
    app.answer("3 to 7:", "9")  # refused: 3 to 7
    app.answer("3 to 7:", "4")
    app.answer("Choose 1 to 4:", "1")  # cautious bots
    app.until("Start a pile with a food card:")
    assert any(line == "Mici Maki practice: You, Bot 1, Bot 2, Bot 3. First: You."
               for line in app.lines)
    app.send("w2")  # a Sushi Go! card: explained, nothing changes
    app.until("Start a pile with a food card:")
    assert any("w2 is Salmon nigiri, of Sushi Go!: this game is Mici Maki." in line
               for line in app.lines[-4:]), app.lines[-4:]
    app.send("tokens")
    app.heard("You: 0 tokens, 5 cards.")
    moves = 0
    said_eat = said_risk = False

    def word(typed: str, question: str) -> str:
        """A word typed at a question: its reply, the question asked again read too."""
        app.send(typed)
        reply = app.until(".", timeout=30)
        app.until(question, timeout=30)
        return reply

    while True:
        line = app.until(*ASKS, timeout=120)
        if line.endswith(("Choose 1 to 6:",)):
            break  # the game ended: back at the main menu
        moves += 1
        assert moves < 600, "the game does not end"
        if line.endswith("Choose 1 to 2:"):
            app.send("1")  # no extra overeating card
            continue
        held = word("hand", line)
        assert held.startswith("Your hand, "), held
        values = [int(v) for v in re.findall(r"Food (\d)", held)]
        if line.endswith("Start a pile with a food card:"):
            app.send(str(max(values)))
            continue
        if not said_risk:
            said_risk = True
            assert word("risk", line).startswith("Eating now: ")
            assert re.match(r"^(Eat now|Serve|Skip|\+1|Reverse|Choose)", word("hint", line))
            assert word("pile", line).startswith("Pile worth ")
        app.send("eat")
        said_eat = True
    assert said_eat
    text = "\n".join(app.lines)
    assert re.search(r"^You: eat \d+ cards?", text, re.MULTILINE)
    assert "Game over. " in text
    assert app.close() == 0


def test_the_other_game_s_codes_are_explained_in_sushi_go_and_the_game_is_kept(
        tmp_path: Path) -> None:
    app = Conversation(tmp_path, "--plain")
    first_start(app)
    app.until("Main menu.")
    app.answer("Choose 1 to 6:", "4")  # learn the codes (Sushi Go!, the default game)
    app.answer("Choose 1 to 4:", "1")  # type a card to hear it (4: back)
    app.answer("A code or a scan, or an empty line to stop:", "5")
    app.until("A code or a scan, or an empty line to stop:")
    assert any("5 is Food 5, of Mici Maki: this game is Sushi Go!." in line
               for line in app.lines[-4:]), app.lines[-4:]
    app.send("")
    app.answer("Choose 1 to 6:", "5")  # settings
    app.answer("Choose 1 to 7:", "6")  # game (7: back)
    app.until("Game:")
    app.until("Choose 1 to 3:")
    assert app.lines[-4:-1] == ["1. Sushi Go! Chosen now.", "2. Mici Maki", "3. Back."]
    app.send("2")
    app.until("Settings saved.")
    app.until("Main menu, Mici Maki.")
    app.send("quit")
    assert app.close() == 0
    # the next start plays Mici Maki: its table companion
    app = Conversation(tmp_path, "--plain")
    app.until("Main menu, Mici Maki.")
    app.answer("Choose 1 to 6:", "1")
    app.answer("3 to 7:", "3")
    for name in ("Ana", "Ben", "Cleo"):
        app.answer("going round the table to the left:", name)
    app.answer("Choose 1 to 4:", "1")  # I am Ana
    app.answer("Choose 1 to 4:", "2")  # Ben starts
    app.answer("Choose 1 to 3:", "1")  # the usual deck
    app.answer("Choose 1 to 5:", "1")  # typed codes only: then the dealt hand is asked
    app.answer("Your 5 cards as dealt, card by card:", "5 5 3 p")  # one short
    assert app.until("Type it again.") == (
        "That is 4 cards; each player is dealt 5 cards. Type it again.")
    app.answer("Your 5 cards as dealt, card by card:", "5 5 3 p c")
    # read back before the next question, the count first, the cards grouped
    assert app.until(".") == (
        "Your hand, 5 cards: Food 3, 2 Food 5, +1 food, Choose the next player.")
    app.answer("Ben starts a pile with:", "5")
    app.until("Cleo's move: a card, a pair, or eat:")
    assert "Ben: starts a pile with Food 5." in app.lines
    app.send("4")
    app.until("Cleo's move: a card, a pair, or eat:")
    assert ("The food in play is 5: serve a 5, eat, play an action or skip with a pair."
            in app.lines)
    app.send("eat")
    app.until("Cleo starts a pile with:")
    assert "Cleo: eats 5 cards, no overeating." in app.lines
    assert "Cleo: 0 tokens, 10 cards." not in app.lines
    app.send("undo")
    app.until("Cleo's move: a card, a pair, or eat:")
    assert "Taken back: Cleo's last entry." in app.lines
    app.send("quit")
    assert app.close() == 0


def table_of_three(app: Conversation) -> None:
    """From the main menu, a table of Ana (the player), Ben and Cy, Ana
    first, with the usual deck and typed codes only: up to the dealt hand."""
    app.answer("Choose 1 to 6:", "1")  # the table companion
    app.answer("3 to 7:", "3")
    for name in ("Ana", "Ben", "Cy"):
        app.answer("going round the table to the left:", name)
    app.answer("Choose 1 to 4:", "1")  # I am Ana
    app.answer("Choose 1 to 4:", "1")  # Ana starts
    app.answer("Choose 1 to 3:", "1")  # the usual deck
    app.answer("Choose 1 to 5:", "1")  # typed codes only


def test_the_dealt_hand_is_taken_back_by_undo_and_asked_again(tmp_path: Path) -> None:
    app = Conversation(tmp_path, "--plain", "--game", "mici-maki")
    first_start(app)
    table_of_three(app)  # up to the dealt hand
    app.answer("Your 5 cards as dealt, card by card:", "5 5 3 p c")  # a typo: c for r
    assert app.until(".") == (
        "Your hand, 5 cards: Food 3, 2 Food 5, +1 food, Choose the next player.")
    app.answer("Start a pile with a food card:", "undo")  # nothing else entered yet
    assert app.until(".") == (
        "Taken back: your hand as dealt, Food 3, 2 Food 5, +1 food, Choose the next player.")
    app.answer("Your 5 cards as dealt, card by card:", "5 5 3 p r")
    assert app.until(".") == (
        "Your hand, 5 cards: Food 3, 2 Food 5, +1 food, Reverse direction.")
    app.answer("Start a pile with a food card:", "hand")
    assert app.until(".") == (
        "Your hand, 5 cards: Food 3, 2 Food 5, +1 food, Reverse direction.")
    app.answer("Start a pile with a food card:", "undo")  # the hand entered again, back
    assert app.until(".") == ("Taken back: the hand you entered. Your hand, 5 cards: "
                              "Food 3, 2 Food 5, +1 food, Choose the next player.")
    app.send("quit")
    assert app.close() == 0


def test_the_dealt_hand_taken_back_is_asked_again_after_a_kill_and_a_restart(
        tmp_path: Path) -> None:
    """Undo of the dealt hand is journaled like every answer: killed while
    the hand is asked again, the next start asks it again (not the first
    move with the hand taken back); the hand entered then is kept."""
    app = Conversation(tmp_path, "--plain", "--game", "mici-maki")
    first_start(app)
    table_of_three(app)  # up to the dealt hand
    app.answer("Your 5 cards as dealt, card by card:", "5 5 3 p c")  # a typo: c for r
    app.answer("Start a pile with a food card:", "undo")
    assert app.until(".") == (
        "Taken back: your hand as dealt, Food 3, 2 Food 5, +1 food, Choose the next player.")
    app.until("Your 5 cards as dealt, card by card:")
    app.process.kill()  # kill -9 while the hand is asked again
    app.process.wait(timeout=60)
    again = Conversation(tmp_path, "--plain", "--game", "mici-maki")
    again.until("An unfinished table game was found.")
    again.answer("Choose 1 to 4:", "1")  # resume it
    again.answer("Your 5 cards as dealt, card by card:", "5 5 3 p r")  # asked again
    assert again.until(".") == "Your hand, 5 cards: Food 3, 2 Food 5, +1 food, Reverse direction."
    again.until("Start a pile with a food card:")
    again.process.kill()
    again.process.wait(timeout=60)
    third = Conversation(tmp_path, "--plain", "--game", "mici-maki")
    third.answer("Choose 1 to 4:", "1")  # resume it: the hand entered kept, not asked
    third.answer("Start a pile with a food card:", "hand")
    assert third.until(".") == "Your hand, 5 cards: Food 3, 2 Food 5, +1 food, Reverse direction."
    third.answer("Start a pile with a food card:", "undo")  # the hand entered, taken back
    assert third.until(".") == ("Taken back: the hand you entered. Your hand, 5 cards: "
                                "Food 3, 2 Food 5, +1 food, Choose the next player.")
    third.send("quit")
    assert third.close() == 0


def test_the_word_hand_with_cards_answers_the_dealt_hand_asked_again(tmp_path: Path) -> None:
    app = Conversation(tmp_path, "--plain", "--game", "mici-maki")
    first_start(app)
    table_of_three(app)  # up to the dealt hand
    app.answer("Your 5 cards as dealt, card by card:", "5 5 3 p c")
    app.answer("Start a pile with a food card:", "undo")
    app.answer("Your 5 cards as dealt, card by card:", "hand 5 5 3 p r")
    assert app.until(".") == "Your hand, 5 cards: Food 3, 2 Food 5, +1 food, Reverse direction."
    app.until("Start a pile with a food card:")  # not the hand again
    app.send("quit")
    assert app.close() == 0


def test_your_eat_is_read_back_in_one_sentence_count_first_cards_grouped(
        tmp_path: Path) -> None:
    app = Conversation(tmp_path, "--plain", "--game", "mici-maki")
    first_start(app)
    app.answer("Choose 1 to 6:", "1")  # the table companion
    app.answer("3 to 7:", "3")
    for name in ("Ana", "Ben", "Cy"):
        app.answer("going round the table to the left:", name)
    app.answer("Choose 1 to 4:", "1")  # I am Ana
    app.answer("Choose 1 to 4:", "2")  # Ben starts
    app.answer("Choose 1 to 3:", "1")  # the usual deck
    app.answer("Choose 1 to 5:", "1")  # typed codes only
    app.answer("Your 5 cards as dealt, card by card:", "5 5 3 p r")
    app.answer("Ben starts a pile with:", "2")
    app.answer("Cy's move: a card, a pair, or eat:", "2")  # the pile worth 4
    app.answer("Your move: a card, a pair, or eat:", "eat 6 2 6 6")  # four cards at once
    said = app.until("Food 6.")
    assert said == "Ana: eats 4 cards, no overeating: Food 2, 3 Food 6.", said
    assert said.index("no overeating") < 40  # who, how many and the outcome in 40 cells
    app.send("quit")
    assert app.close() == 0


#: The issue's refusal: an eat of 77 against a draw pile of 75, 1 of them overeating.
MUST_OVEREAT = ("At least 1 overeating card turns up: that eat draws 75 cards, and only 74 in "
                "the draw pile are not overeating cards. Type eat x.")


def test_the_table_refuses_an_eat_the_rules_make_overeat_and_goes_on(tmp_path: Path) -> None:
    app = Conversation(tmp_path, "--plain", "--game", "mici-maki")
    first_start(app)
    app.until("Main menu, Mici Maki.")
    table_of_three(app)  # up to the dealt hand
    app.answer("Your 5 cards as dealt, card by card:", "7 7 7 7 2")
    app.answer("Start a pile with a food card:", "7")
    for player in ("Ben", "Cy", "You", "Ben", "Cy", "You", "Ben", "Cy", "You", "Ben"):
        prompt = ("Your move: a card, a pair, or eat:" if player == "You"
                  else f"{player}'s move: a card, a pair, or eat:")
        app.answer(prompt, "7")  # eleven 7s served in all: 77
    app.answer("Cy's move: a card, a pair, or eat:", "eat")  # entered as no overeating
    app.heard(MUST_OVEREAT)
    app.until("Cy's move: a card, a pair, or eat:")  # asked again: nothing stored
    app.send("risk")
    app.heard("Eating now: 100% risk of overeating. It draws 77 of 75 cards, 1 of them "
              "overeating.")
    app.until("Cy's move: a card, a pair, or eat:")
    app.send("eat x")
    app.answer("Choose 1 to 2:", "1")  # Cy adds no overeating card
    assert "Cy: eats 75 cards, an overeating card among them." in app.lines
    assert "Cy: overeats, 1 token now." in app.lines
    app.answer("Cy starts a pile with:", "5")
    app.until("Your move: a card, a pair, or eat:")
    app.send("risk")
    app.until("Your move: a card, a pair, or eat:")
    assert not any("Traceback" in line or "RiskInputError" in line for line in app.lines)
    app.send("quit")
    assert app.close() == 0
    assert app.process.stderr is not None
    assert "Traceback" not in app.process.stderr.read()


def test_a_game_saved_with_that_eat_resumes_before_it_and_says_so_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the game as an older version kept it: Cy's eat of 77 with no overeating card
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    session = TableSession.start(["Ana", "Ben", "Cy"], 0, [7, 7, 7, 7, 2])
    session.add(Entry("start", 0, 7))
    for _ in range(10):
        session.add(Entry("serve", session.tracker.turn, 7))
    session.journal.append(Entry("ate", 2, 0).json())
    session.journal.append(Entry("start", 2, 5).json())
    session.close()
    app = Conversation(tmp_path, "--plain", "--game", "mici-maki")
    first_start(app)
    app.until("An unfinished table game was found.")
    app.answer("Choose 1 to 4:", "1")  # resume it
    app.until("Cy's move: a card, a pair, or eat:")
    notes = [line for line in app.lines if line.startswith("This game was saved with")]
    assert notes == [
        "This game was saved with an entry the rules do not allow, Cy's: it and the 1 entry "
        f"after it are taken out, and it is asked again. {MUST_OVEREAT}"]
    app.send("eat x")
    app.answer("Choose 1 to 2:", "2")  # Cy adds one more
    app.until("Cy starts a pile with:")
    app.send("quit")
    assert app.close() == 0
    # the next start goes on where it was, and says the note no more
    app = Conversation(tmp_path, "--plain", "--game", "mici-maki")
    app.answer("Choose 1 to 4:", "1")
    app.until("Cy starts a pile with:")
    assert not any(line.startswith("This game was saved with") for line in app.lines)
    app.send("quit")
    assert app.close() == 0
