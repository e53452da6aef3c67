"""Plain line mode, driven as a person would through a pipe."""

from __future__ import annotations

import os
import random
import signal
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import cycle
from pathlib import Path

import pytest

from companion.games.sushigo.cards import Card, deck_counts
from companion.games.sushigo.draft import Game, Revealed
from companion.games.sushigo.plugin import PLUGIN as VOCABULARY
from companion.games.sushigo.tactile import short_code
from companion.journal import journals, load
from firmware_bridge.registry import demo_uid
from firmware_bridge.virtual import VirtualScanner
from tests.drivers import WHOLE_GAME, Picks, first_start
from tests.drivers import PipedApp as Conversation

CODES = ["t", "s", "x", "q", "p", "f", "w1", "w2", "w3", "o1", "o2", "o3", "d"]


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path


def play_out(app: Conversation, limit: int = 400) -> None:
    """Answer every pick with the codes in turn until the game ends."""
    codes = cycle(CODES)
    for _ in range(limit):
        line = app.until("Your pick:", "Choose 1 to 6:")
        if line.endswith("Choose 1 to 6:"):
            return
        app.send(next(codes))
    raise AssertionError("the game did not end")


def test_a_whole_practice_game_through_a_pipe(home: Path) -> None:
    app = Conversation(home)
    first_start(app)
    app.answer("Choose 1 to 6:", "2")  # practice
    app.answer("2 to 5:", "2")  # 2 players
    app.answer("Choose 1 to 4:", "1")  # greedy
    app.answer("Choose 1 to 5:", "1")  # no variant
    app.until("Your pick:")
    app.send("hand")
    assert app.until("Your pick:")
    hand_line = app.lines[-2]
    assert hand_line.startswith("10 cards: "), hand_line
    app.send("help")
    app.until("Your pick:")
    app.send("zz")  # not a card: explained, nothing changes
    app.until("Your pick:")
    assert any("zz is not a card" in line for line in app.lines[-4:])
    app.send("w2")
    play_out(app)
    text = "\n".join(app.lines)
    assert "Round 1 scores." in text and "Round 3 scores." in text
    # each round's last cards, played with no pick, are said as such (the
    # same cards twice, the turn's before and these, would puzzle)
    for scores in ("Round 1 scores.", "Round 2 scores.", "Round 3 scores."):
        at = app.lines.index(scores)
        told = app.lines.index("The last cards play by themselves:", at - 4, at)
        assert app.lines[told + 1].startswith("You: ") and app.lines[told + 2].startswith(
            "Bot 1: "), app.lines[told - 3:at + 1]
    assert "Final scores." in text
    assert any(line.startswith(("Winner", "Shared win")) for line in app.lines)
    app.send("6")
    assert app.close() == 0
    (game,) = journals(home / "data" / "journals")
    assert load(game).events[-1]["type"] == "end"
    saved = (home / "config" / "settings.toml").read_text()
    assert 'speech = "none"' in saved and 'language = "en"' in saved


def test_the_second_start_remembers_the_settings(home: Path) -> None:
    app = Conversation(home)
    first_start(app, verbosity="3")
    app.answer("Choose 1 to 6:", "6")
    app.close()
    again = Conversation(home)
    again.until("Choose 1 to 6:")
    assert not any("Language" in line for line in again.lines)
    again.send("6")
    assert again.close() == 0


def test_learning_the_codes(home: Path) -> None:
    app = Conversation(home)
    first_start(app)
    app.answer("Choose 1 to 6:", "4")
    app.answer("Choose 1 to 4:", "1")  # three ways, and Back
    app.answer("A code or a scan, or an empty line to stop:", "w2")
    line = app.until("Code w2.")
    assert line.startswith("Salmon nigiri: Window, middle")
    app.answer("A code or a scan, or an empty line to stop:", "okno dole")
    assert app.until("Code w3.").startswith("Squid nigiri")
    app.answer("A code or a scan, or an empty line to stop:", "w4")
    assert "w4 is not a card" in app.until("Squid nigiri.")
    app.answer("A code or a scan, or an empty line to stop:", "")
    app.answer("Choose 1 to 6:", "6")
    assert app.close() == 0


def test_scoring_a_finished_game(home: Path) -> None:
    app = Conversation(home)
    first_start(app)
    app.answer("Choose 1 to 6:", "3")
    app.answer("when all are in:", "Ana")
    app.answer("when all are in:", "Ben")
    app.answer("when all are in:", "")
    played = "in the order played:"
    app.answer(played, "t w3 o2 f")  # 4 cards: that line only, asked again
    assert app.until("Type it again.") == (
        "That is 4 cards; each player has 10 at the end of a round with 2 players. "
        "Type it again.")
    app.answer("Round 1, Ana's cards, in the order played:", WHOLE_GAME[0][0])
    # read back before the next question: the count first, the cards grouped
    assert app.until(".") == ("Ana, round 1, 10 cards: Wasabi, 2 Tempura, 3 Sashimi, "
                              "Chopsticks, Pudding, Squid nigiri, Maki 2.")
    app.answer("Round 1, Ben's cards, in the order played:", "undo")  # Ana's line back
    assert app.until(".") == "Taken back: Ana's cards of round 1."
    app.answer("Round 1, Ana's cards, in the order played:", WHOLE_GAME[0][0])
    app.answer("Round 1, Ben's cards, in the order played:", WHOLE_GAME[0][1])
    app.answer("Round 2, Ana's cards, in the order played:", WHOLE_GAME[1][0])
    app.answer("Round 2, Ben's cards, in the order played:", WHOLE_GAME[1][1])
    app.answer("Round 3, Ana's cards, in the order played:", WHOLE_GAME[2][0])
    app.answer("Round 3, Ben's cards, in the order played:", "banana")  # asked again
    app.answer("Round 3, Ben's cards, in the order played:", WHOLE_GAME[2][1])
    app.until("Final scores.")
    app.answer("Choose 1 to 2:", "2")  # how every point came: yes
    app.until("Choose 1 to 6:")
    app.send("6")
    assert app.close() == 0
    text = "\n".join(app.lines)
    assert "banana is not a card" in text
    assert "Puddings at the end of the game." in text
    # Ana: 24 + most maki 6; 8 + most maki 6; 20 + second maki 3; the most
    # puddings (2 to 1) +6 = 73. Ben: 14 + 3; 25; 18 + 6 = 66.
    final = text[text.index("Final scores."):].splitlines()
    assert final[1:3] == ["  Ana: 73 points.", "  Ben: 66 points."]
    assert final[3] == "Winner: Ana."


def test_the_scorer_offers_soy_sauce_and_asks_that_line_again(home: Path) -> None:
    app = Conversation(home)
    first_start(app)
    app.answer("Choose 1 to 6:", "3")
    for name in ("Ana", "Ben", ""):
        app.answer("when all are in:", name)
    app.answer("Round 1, Ana's cards, in the order played:", WHOLE_GAME[0][0])
    ben = "x x x s s s w1 w2 o1 d"  # soy sauce where the pudding was
    app.answer("Round 1, Ben's cards, in the order played:", ben)
    app.until("Were soy sauce cards in this game?")
    app.answer("Choose 1 to 2:", "1")  # no: that line again, Ana's kept
    app.answer("Round 1, Ben's cards, in the order played:", ben)
    app.answer("Choose 1 to 2:", "2")  # yes: soy sauce was in play
    assert app.until(".").startswith("Ben, round 1, 10 cards: ")
    app.until("Round 2, Ana's cards, in the order played:")
    text = "\n".join(app.lines)
    assert "variant.soy_sauce" not in text and "Round 1 again." not in text
    assert text.count("Round 1, Ana's cards, in the order played:") == 1
    app.send("quit")
    assert app.close() == 0


def test_a_killed_game_resumes_where_it_stopped(home: Path) -> None:
    app = Conversation(home)
    first_start(app)
    app.answer("Choose 1 to 6:", "2")
    app.answer("2 to 5:", "3")  # 3 players
    app.answer("Choose 1 to 4:", "2")  # random bots
    app.answer("Choose 1 to 4:", "1")  # no variant
    codes = cycle(CODES)
    while not any(line == "Round 1, turn 4." for line in app.lines):
        app.until("Your pick:")
        app.send(next(codes))
    app.until("Your pick:")
    app.send("where")
    app.until("Your pick:")
    where = next(line for line in reversed(app.lines) if " Scores: You " in line)
    os.kill(app.process.pid, signal.SIGKILL)
    app.process.wait(timeout=10)
    again = Conversation(home)
    again.answer("Choose 1 to 4:", "1")  # resume it
    again.answer("Your pick:", "where")
    assert again.until(" Scores: " + where.partition(" Scores: ")[2]) == where
    play_out(again)
    again.send("6")
    assert again.close() == 0


def codes(cards: Sequence[Card]) -> str:
    return " ".join(short_code(card) for card in cards)


class Scanner:
    """A virtual scanner on a real pseudo-terminal, with the demo deck's tags."""

    def __init__(self) -> None:
        self.board = VirtualScanner()
        self.copies: Counter[Card] = Counter()

    def scan(self, app: Conversation, cards: Sequence[Card]) -> None:
        """Scan the cards one by one; Enter if the entry could take more."""
        said = ""
        for card in cards:
            self.board.scan(demo_uid(VOCABULARY, card.id, self.copies[card] % deck_counts(3)[card]))
            self.copies[card] += 1
            said = app.until(" so far.", ", done.")
        if said.endswith(" so far."):
            app.send("")  # one card with chopsticks on the table


@pytest.mark.sampled
@pytest.mark.parametrize("scanned", [False, True], ids=["typed", "scanned"])
def test_a_real_table_game_with_skipped_reveals_scores_exactly(
    home: Path, scanned: bool
) -> None:
    """The engine deals a real game; the test enters what a player at the
    table would: their hand and pick every turn, most reveals, and the whole
    tables at the end of each round for the players whose reveals it skipped.
    Scanned: hands, picks and reveals come from a scanner on a real
    pseudo-terminal, card by card, and the tables at the end are typed."""
    rng = random.Random(4)
    game = Game(3, rng=random.Random(9))
    app = Conversation(home)
    first_start(app)
    app.answer("Choose 1 to 6:", "1")  # table companion
    app.answer("2 to 5:", "3")  # 3 players
    for name in ("Ana", "Ben", "Cyril"):
        app.answer("going round the table to the left:", name)
    app.answer("Choose 1 to 4:", "1")  # I am Ana
    app.answer("Choose 1 to 4:", "1")  # no variant
    scanner = Scanner() if scanned else None
    app.until("Cards come from:")
    if scanner is None:
        app.answer("Choose 1 to 5:", "1")  # typed codes
    else:
        app.answer("Choose 1 to 5:", "3")  # a port
        app.answer("such as /dev/ttyACM0 (an empty line: typed codes only):", scanner.board.path)
        app.heard("Scanner ready.")

    def enter(prompt: str, cards: Sequence[Card]) -> None:
        app.until(prompt)
        if scanner is None or not cards:
            app.send(codes(cards))
        else:
            scanner.scan(app, cards)

    picks = Picks()
    while not game.over:
        hand_now = game.hand(0)
        events: list[object] = []
        for seat in game.waiting_for():
            events += game.choose(seat, game.legal_choices(seat).sample(rng))
        reveals = [e for e in events if isinstance(e, Revealed)]
        for number, revealed in enumerate(reveals):
            # the last turn of a round plays itself: its hand is its one card
            hand = hand_now if number == 0 else revealed.cards[0]
            enter("Your hand, card by card (an empty line skips):", hand)
            enter(picks.prompt(revealed.turn), revealed.cards[0])
            picks.took(revealed.cards[0])
            for seat, name in ((1, "Ben"), (2, "Cyril")):
                skip = rng.random() < 0.3
                enter(f"{name}'s reveal (an empty line skips):",
                      () if skip else revealed.cards[seat])
            if revealed.turn < 9:
                continue
            tables = game.finished_rounds[revealed.round - 1]
            while True:
                line = app.until("(an empty line keeps it):", "scores.")
                if line.endswith("scores."):
                    break
                seat = ("Ana", "Ben", "Cyril").index(line.split("'s whole")[0])
                app.send(codes(tables[seat]))
    app.until("Final scores.")
    app.until("Choose 1 to 6:")
    result = game.result()
    start = app.lines.index("Final scores.")
    final = app.lines[start:start + 5]
    for seat, name in enumerate(("Ana", "Ben", "Cyril")):
        expected = f"  {name}: {result.totals[seat]} point"
        assert any(line.startswith(expected) for line in final), (expected, final)
    app.send("6")
    assert app.close() == 0
    if scanner is not None:
        scanner.board.unplug()
