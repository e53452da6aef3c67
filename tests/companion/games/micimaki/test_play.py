"""Mici Maki played through the conversation's interface (the one both
faces use): the table companion follows whole engine games entered move by
move through its questions and words, saying each entry back and ending
with the engine's winners; impossible entries are refused with their
reason and change nothing; undo and resume land on the very question; a
practice game against bots plays to its end, with the risk, the hint and
undo."""

from __future__ import annotations

import json
import random
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.contract.events import (
    Announcement,
    Cards,
    CardsQuestion,
    Menu,
    Role,
    Verbosity,
    YesNo,
)
from companion.contract.game import Step
from companion.games import games
from companion.games.micimaki.practice import MOVE as PRACTICE_MOVE
from companion.games.micimaki.practice import Practice
from companion.games.micimaki.rules import (
    CHOOSE,
    EAT,
    EXTRA,
    OVEREATING,
    PILE,
    PLUS,
    REVERSE,
    SERVE,
    SKIP,
    Event,
    Game,
    Setup,
    hand_cards,
)
from companion.games.micimaki.session import Entry, PracticeSession, TableSession
from companion.games.micimaki.table import EATEN, EMPTY, EXTRA_CARD, MOVE, NO_FOOD, WHOM, TableGame
from companion.games.micimaki.tactile import code
from companion.journal import GameRef, Journal, journals
from tests.companion.games.micimaki.test_tracker import same


@pytest.fixture(autouse=True)
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    yield


def texts(said: Any) -> list[str]:
    return [a.text for a in said]


def question(play: TableGame | Practice, said: list[Announcement]) -> Step:
    """The play's next question, what it says on the way kept."""
    while True:
        step = play.advance()
        assert step is not None, "the game ended early"
        said += step.before
        if step.question is not None:
            return step


class Mirror:
    """Enters at the table, through the table companion's questions and
    words, what a whole engine game shows (the engine is the real table)."""

    def __init__(self, players: int, seed: int, you: int,
                 verbosity: Verbosity = Verbosity.NORMAL) -> None:
        self.rng = random.Random(seed)
        self.game = Game(Setup(players=players), self.rng)
        self.you = you
        names = ["Ana", "Ben", "Cleo", "Dan", "Eva", "Fred", "Gus"][:players]
        self.session = TableSession.start(names, you, hand_cards(self.game.hands[you]))
        self.play = TableGame(self.session, "en", verbosity)
        #: Draws the engine made that the table has not been told yet.
        self.draws: deque[Event] = deque()
        self.said: list[Announcement] = []
        self.entries = 0

    def _engine(self, move: tuple[int, int]) -> list[Event]:
        self.game.play(move)
        events = list(self.game.events)
        self.draws.extend(e for e in events if e.kind in ("drew", "passed"))
        return events

    def _said(self, said: Any) -> list[str]:
        said = list(said)
        self.said += said
        assert said, "every entry is said back"
        return texts(said)

    def step(self) -> bool:
        """One question answered (or one word typed); False at the end."""
        play, game, you = self.play, self.game, self.you
        step = play.advance()
        if step is None:
            return False
        self.said += step.before
        if step.question is None:
            return True
        self.entries += 1
        key = step.key
        if key == EXTRA_CARD:
            add = self.rng.random() < 0.5 and (EXTRA, 1) in game.legal_moves()
            self._engine((EXTRA, int(add)))
            said = self._said(play.take(step, add))
            assert "adds" in said[0]
        elif key in (EMPTY, NO_FOOD):
            drawn = self.draws.popleft()
            assert drawn.kind == "drew" and drawn.seat == self.play.tracker.turn
            if isinstance(step.question, Menu):  # another player's: where an overeating card came
                answer: Any = (drawn.cards.index(OVEREATING) + 1
                               if OVEREATING in drawn.cards else 0)
            else:
                answer = Cards.of(list(drawn.cards))
            said = self._said(play.take(step, answer))
            assert "draws" in said[0]
        elif key == MOVE and self.draws:
            drawn = self.draws.popleft()  # another player drew to find food, or passed
            assert drawn.seat != you
            argument = ("0" if drawn.kind == "passed" else
                        f"{len(drawn.cards)} x" if drawn.cards[-1] == OVEREATING
                        else str(len(drawn.cards)))
            answered = play.command("drew", argument)
            assert answered is not None and answered.changed
            self._said(answered.said)
        elif key == MOVE:
            seat = game.turn
            move = self.rng.choice(game.legal_moves())
            events = self._engine(move)
            if move[0] == EAT:
                ate = next(e for e in events if e.kind == "ate")
                if seat == you and self.rng.random() < 0.5:
                    answered = play.command("eat", "")  # then the cards are asked
                    assert answered is not None and answered.changed
                    assert "enter them" in self._said(answered.said)[0]
                    eaten = play.advance()
                    assert eaten is not None and eaten.key == EATEN
                    said = self._said(play.take(eaten, Cards.of(list(ate.cards))))
                elif seat == you:
                    answered = play.command("eat", " ".join(code(c) for c in ate.cards))
                    assert answered is not None
                    said = self._said(answered.said)
                else:
                    answered = play.command("eat", " ".join("x" * ate.cards.count(OVEREATING)))
                    assert answered is not None
                    said = self._said(answered.said)
                assert said[0].startswith(self.play.names[seat] + ": eats"), said
            elif move[0] == CHOOSE:
                said = self._said(play.take(step, Cards.of([CHOOSE])))
                whom = play.advance()
                assert whom is not None and whom.key == WHOM
                others = [s for s in range(game.players) if s != seat]
                said = self._said(play.take(whom, others.index(move[1])))
                assert f"{play.names[move[1]]} plays next" in said[0]
            else:
                cards = [move[1]] * (2 if move[0] == SKIP else 1)
                said = self._said(play.take(step, Cards.of(cards)))
                assert said[0].startswith(play.names[seat] + ":"), said
        else:
            raise AssertionError(f"an unexpected question: {key!r}")
        if not self.draws and not (self.session.pending()):
            same(game, self.play.tracker)
        return True


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3), (7, 4), (4, 5), (6, 6)])
def test_the_table_companion_follows_whole_games_to_their_end(players: int, seed: int) -> None:
    mirror = Mirror(players, seed, you=seed % players)
    while mirror.step():
        assert mirror.entries < 5000, "the game does not end"
    assert mirror.game.over
    assert mirror.play.tracker.winners == mirror.game.winners
    results = [a.text for a in mirror.said if a.role is Role.RESULT]
    assert results[0].startswith("Game over. ")
    winner = mirror.play.names[mirror.game.winners[0]]
    assert winner in results[0]
    assert mirror.session.ended
    mirror.session.close()


def test_how_much_is_said_follows_the_verbosity() -> None:
    told: dict[Verbosity, list[str]] = {}
    for verbosity in Verbosity:
        mirror = Mirror(4, 8, you=0, verbosity=verbosity)
        while mirror.step():
            pass
        told[verbosity] = texts(mirror.said)
        mirror.session.close()
    terse, normal, verbose = (told[v] for v in Verbosity)
    rule = "The pile goes to the discard pile; the eater starts a new one."
    assert rule in verbose and rule not in normal and rule not in terse
    assert any(t.startswith("Eating now: ") for t in normal)
    assert not any(t.startswith("Eating now: ") for t in terse)
    # the moves themselves are said at every level, the same
    moves = [t for t in normal if t.startswith("Ben: ")]
    assert moves == [t for t in terse if t.startswith("Ben: ")]


def test_a_table_game_resumes_at_the_very_question_and_undo_lands_on_it_too() -> None:
    mirror = Mirror(4, 11, you=1)
    for _ in range(60):
        mirror.step()
    said: list[Announcement] = []
    step = question(mirror.play, said)
    facts = mirror.play.facts()
    mirror.session.close()
    (path,) = journals()
    journal, loaded = Journal.open(path)
    assert not loaded.damaged
    again = games()["mici-maki"].resume(journal, random.Random(1), "en", Verbosity.NORMAL)
    assert isinstance(again, TableGame)
    resumed = question(again, said)
    assert (resumed.question, again.facts()) == (step.question, facts)
    # undo takes the last entry back: the question it answered is asked again
    before = len(again.session.journal.events)
    answered = again.command("undo", "")
    assert answered is not None and answered.changed
    assert answered.said[0].text.startswith("Taken back: ")
    assert len(again.session.journal.events) < before
    again.close()


def table(players: int = 3, hand: tuple[int, ...] = (6, 6, 2, PLUS, CHOOSE)) -> TableGame:
    session = TableSession.start(["Ana", "Ben", "Cleo"][:players], 0, list(hand))
    return TableGame(session, "en", Verbosity.NORMAL)


def test_impossible_entries_are_refused_with_their_reason_and_change_nothing() -> None:
    play = table()
    said: list[Announcement] = []
    step = question(play, said)
    assert said[0].text == "Mici Maki at the table: Ana, Ben, Cleo. You are Ana."
    assert isinstance(step.question, CardsQuestion)
    assert step.question.prompt == "Start a pile with a food card:"
    events = len(play.session.journal.events)
    refused = [
        (Cards.of([7]), "Not in your hand: Food 7. Type hand to hear it."),
        (Cards.of([PLUS]), "Start the pile with one food card, 2 to 7."),
        (Cards.of([OVEREATING]), "x, an overeating card, is only entered for cards turned up."),
    ]
    for cards, why in refused:
        assert texts(play.take(step, cards)) == [why]
        assert len(play.session.journal.events) == events
    assert texts(play.take(step, Cards.of([6]))) == ["Ana: starts a pile with Food 6."]
    step = question(play, said)
    assert step.question.prompt == "Ben's move: a card, a pair, or eat:"  # type: ignore[union-attr]
    assert texts(play.take(step, Cards.of([5]))) == [
        "The food in play is 6: serve a 6, eat, play an action or skip with a pair."]
    assert texts(play.take(step, Cards.of([5, 4]))) == [
        "Skipping the food takes two of the same food card, as in 5 5."]
    assert texts(play.take(step, Cards.of([6]))) == ["Ben: serves Food 6, pile worth 12."]
    # only one overeating card is in the game: two cannot turn up
    answered = play.command("eat", "x x")
    assert answered is not None
    assert texts(answered.said) == ["Only 1 overeating card can turn up there."]
    answered = play.command("eat", "5")
    assert answered is not None
    assert texts(answered.said) == [
        "After eat, type x for each overeating card that turned up, or nothing."]
    risk = play.command("risk", "")
    assert risk is not None
    assert texts(risk.said) == [
        "Eating now: 16% risk of overeating. It draws 12 of 75 cards, 1 of them overeating."]


def test_your_turn_says_the_pile_the_risk_and_what_you_could_play() -> None:
    play = table()
    said: list[Announcement] = []
    play.take(question(play, said), Cards.of([6]))
    play.take(question(play, said), Cards.of([6]))  # Ben serves
    play.take(question(play, said), Cards.of([PLUS]))  # Cleo plays +1
    said.clear()
    step = question(play, said)
    assert step.question.prompt == "Your move: a card, a pair, or eat:"  # type: ignore[union-attr]
    assert texts(said) == [
        "Pile worth 13, food in play 6: Food 6, Food 6, +1 food.",
        "Eating now: 17.3% risk of overeating. It draws 13 of 75 cards, 1 of them overeating.",
        "You could: eat, serve Food 6, +1 food, Choose the next player.",
    ]
    hint = play.command("hint", "")
    assert hint is not None
    assert texts(hint.said) == ["Eat now: 17.3% risk; not eating would pass a pile of 19 to Ben."]
    tokens = play.command("tokens", "")
    assert tokens is not None
    assert texts(tokens.said) == ["Ana: 0 tokens, 4 cards.", "Ben: 0 tokens, 4 cards.",
                                  "Cleo: 0 tokens, 4 cards."]


def test_a_practice_game_plays_to_its_end_with_hints_undo_and_the_result() -> None:
    rng = random.Random(5)
    session = PracticeSession.start(["You", "Bot 1", "Bot 2", "Bot 3"],
                                    [None, "cautious", "advisor", "random"], seed=5)
    play = Practice(session, rng, "en", Verbosity.NORMAL)
    said: list[Announcement] = []
    turns = 0
    undone = False
    while True:
        step = play.advance()
        if step is None:
            break
        said += step.before
        if step.question is None:
            continue
        turns += 1
        assert turns < 2000
        game = play.game
        if isinstance(step.question, YesNo):
            said += play.take(step, False)
            continue
        if isinstance(step.question, Menu):
            said += play.take(step, 0)
            continue
        assert step.key == PRACTICE_MOVE
        hint = play.command("hint", "")
        assert hint is not None and hint.said[0].important
        if turns == 3 and not undone:
            undone = True
            moved = len(session.journal.events)
            answered = play.command("eat", "") if game.phase != PILE else None
            if answered is not None:
                assert answered.changed
                back = play.command("undo", "")
                assert back is not None and back.said[0].text == "Your last move is taken back."
                assert len(session.journal.events) == moved
            continue
        move = rng.choice(game.legal_moves())
        if move[0] == EAT:
            answered = play.command("eat", "")
            assert answered is not None and answered.changed
            said += answered.said
        elif move[0] == CHOOSE:
            said += play.take(step, Cards.of([CHOOSE]))
        else:
            cards = [move[1]] * (2 if move[0] == SKIP else 1)
            said += play.take(step, Cards.of(cards))
            if move[0] == SERVE:
                assert said[-1].text.startswith("You: serve ") or any(
                    a.text.startswith("You: serve ") for a in said[-6:])
    assert play.game.over
    results = [a.text for a in said if a.role is Role.RESULT]
    assert results[0].startswith("Game over. Winner") or results[0].startswith(
        "Game over. Shared win")
    assert len(results) == 5  # the head, then a line per player
    assert session.ended
    session.close()


def test_a_game_stopped_just_after_its_end_says_its_result_once_when_resumed() -> None:
    mirror = Mirror(3, 9, you=0)
    while mirror.step():
        pass
    assert mirror.session.ended
    # the app stopped before the result reached the player: the game comes back
    again = TableGame(mirror.session, "en", Verbosity.NORMAL)
    step = again.advance()
    assert step is not None and step.question is None
    assert step.before[0].text.startswith("Game over. ")
    assert again.advance() is None  # said once
    mirror.session.close()

    rng = random.Random(2)
    session = PracticeSession.start(["You", "Bot 1", "Bot 2"], [None, "random", "random"],
                                    seed=2)
    play = Practice(session, rng, "en", Verbosity.NORMAL)
    while (step := play.advance()) is not None:
        if step.question is None:
            continue
        if isinstance(step.question, YesNo):
            play.take(step, False)
        elif isinstance(step.question, Menu):
            play.take(step, 0)
        elif play.game.phase == PILE:
            foods = [card for card in hand_cards(play.game.view(0).hand) if card <= 7]
            play.take(step, Cards.of([max(foods)]))
        else:
            play.command("eat", "")
    assert session.ended
    again_practice = Practice(session, rng, "en", Verbosity.NORMAL)
    step = again_practice.advance()
    assert step is not None and step.before[0].text.startswith("Game over. ")
    assert again_practice.advance() is None
    session.close()


# -- what the rules force -------------------------------------------------------------------


def served(count: int, hand: tuple[int, ...] = (7, 7, 7, 7, 2)) -> TableGame:
    """The issue's table: Ana (you, first), Ben and Cy; ``count`` 7s served in
    turn through the table's own questions."""
    session = TableSession.start(["Ana", "Ben", "Cy"], 0, list(hand))
    play = TableGame(session, "en", Verbosity.NORMAL)
    said: list[Announcement] = []
    for _ in range(count):
        step = question(play, said)
        assert step.key == MOVE
        answered = texts(play.take(step, Cards.of([7])))
        assert answered[0].startswith(("Ana: ", "Ben: ", "Cy: ")), answered
    return play


def word(play: TableGame, name: str, argument: str = "") -> list[str]:
    answered = play.command(name, argument)
    assert answered is not None
    return texts(answered.said)


def test_another_player_s_eat_that_must_turn_up_an_overeating_card_is_refused() -> None:
    play = served(11)  # 77 against a draw pile of 75, 1 of them overeating
    said: list[Announcement] = []
    step = question(play, said)
    assert step.question.prompt == "Cy's move: a card, a pair, or eat:"  # type: ignore[union-attr]
    assert word(play, "risk") == [
        "Eating now: 100% risk of overeating. It draws 77 of 75 cards, 1 of them overeating."]
    events = len(play.session.journal.events)
    assert word(play, "eat") == [
        "At least 1 overeating card turns up: that eat draws 75 cards, and only 74 in the "
        "draw pile are not overeating cards. Type eat x."]
    assert len(play.session.journal.events) == events  # never stored
    again = question(play, said)
    assert again.question == step.question
    assert word(play, "risk")[0].startswith("Eating now: 100% risk")  # and never raises
    assert word(play, "eat", "x") == ["Cy: eats 75 cards, an overeating card among them.",
                                      "Cy: overeats, 1 token now."]
    step = question(play, said)
    assert step.key == EXTRA_CARD
    play.take(step, False)
    step = question(play, said)
    assert step.question.prompt == "Cy starts a pile with:"  # type: ignore[union-attr]
    play.take(step, Cards.of([5]))
    assert word(play, "risk")[0].startswith("Eating now: ")
    play.close()


def test_your_eat_that_must_turn_up_an_overeating_card_is_refused() -> None:
    play = served(10)  # 70: Ben eats it, no overeating card (possible: 74 are not)
    assert word(play, "eat") == ["Ben: eats 70 cards, no overeating."]
    said: list[Announcement] = []
    play.take(question(play, said), Cards.of([5]))  # Ben starts a pile
    play.take(question(play, said), Cards.of([5]))  # Cy serves: 10 against 5 cards
    question(play, said)
    assert word(play, "eat") == ["You eat 10 cards: enter them as you turn them up."]
    step = question(play, said)
    assert step.key == EATEN
    events = len(play.session.journal.events)
    assert texts(play.take(step, Cards.of([2, 3, 4, 5, 6, 7, 7, 7, 7, 7]))) == [
        "At least 1 overeating card turns up: that eat draws 10 cards, and only 4 in the "
        "draw pile are not overeating cards. Enter the cards again, with x for each "
        "overeating card."]
    # past the draw pile's 5, the cards are the discard pile's: its ten 7s
    assert texts(play.take(step, Cards.of([2, 3, OVEREATING, 4, 5, 7, 7, 7, 7, 6]))) == [
        "From card 6 on, the cards drawn are the discard pile's, shuffled, and it holds too "
        "few of Food 6: enter the cards again."]
    assert len(play.session.journal.events) == events
    assert question(play, said).key == EATEN
    answered = texts(play.take(step, Cards.of([2, 3, OVEREATING, 4, 5, 7, 7, 7, 7, 7])))
    assert answered[:2] == ["Ana: eats 10 cards, an overeating card among them.",
                            "Ana: overeats, 1 token now."]
    play.close()


def test_a_draw_for_food_that_must_turn_up_an_overeating_card_is_refused() -> None:
    play = served(10)
    word(play, "eat")  # Ben eats 70: 5 cards left, 1 of them overeating
    said: list[Announcement] = []
    step = question(play, said)
    assert step.question.prompt == "Ben starts a pile with:"  # type: ignore[union-attr]
    events = len(play.session.journal.events)
    assert word(play, "drew", "5") == [
        "An overeating card turns up by card 5 drawn: only 4 cards of the draw pile are not "
        "overeating cards. Type drew 5 x, or a smaller number with x."]
    assert word(play, "drew", "6 x") == [
        "An overeating card turns up by card 5 drawn: only 4 cards of the draw pile are not "
        "overeating cards. Type drew 5 x, or a smaller number with x."]
    assert len(play.session.journal.events) == events
    assert question(play, said).question == step.question
    assert word(play, "drew", "5 x")[:2] == ["Ben: draws 5 cards.", "Ben: overeats, 1 token now."]
    play.close()


def test_an_empty_hand_draws_first_and_its_draw_follows_the_draw_pile() -> None:
    play = served(10, hand=(7, 7, 7, 7, 5))
    said: list[Announcement] = []

    def move(cards: list[int]) -> list[str]:
        step = question(play, said)
        assert step.key == MOVE
        return texts(play.take(step, Cards.of(cards)))

    move([PLUS])  # Ben: 71
    assert word(play, "eat") == ["Cy: eats 71 cards, no overeating."]  # 4 left, 3 not x
    for cards in ([5], [5], [PLUS], [5]):  # Cy starts, you serve your last card, Ben too
        move(cards)
    step = question(play, said)
    assert step.key == EMPTY and isinstance(step.question, CardsQuestion)
    assert step.question.prompt == (
        "Your hand is empty: draw 3 cards and enter them (x for an overeating card):")
    assert texts(play.take(step, Cards.of([PLUS, 2]))) == [
        "That turns up 3 cards: enter exactly that many."]
    play.take(step, Cards.of([PLUS, 2, 3]))  # 1 card left: the overeating card
    move([PLUS])
    step = question(play, said)
    assert step.key == EMPTY and isinstance(step.question, Menu)
    assert step.question.title == "Ben's hand is empty: Ben draws 3 cards."
    events = len(play.session.journal.events)
    assert word(play, "eat") == [
        "Ben's hand is empty: three cards are drawn first, then the move."]
    why = ("An overeating card turns up by card 1 drawn: only 0 cards of the draw pile are "
           "not overeating cards. Choose where the overeating card came, card 1 at the latest.")
    assert texts(play.take(step, 0)) == [why]  # no overeating card
    assert texts(play.take(step, 2)) == [why]  # as card 2
    assert len(play.session.journal.events) == events
    assert question(play, said).question == step.question
    assert texts(play.take(step, 1)) == ["Ben: draws 1 card.",
                                         "Ben: overeats, 1 token now."]
    play.close()


def test_no_card_is_entered_more_often_than_the_deck_has_it() -> None:
    session = TableSession.start(["Ana", "Ben", "Cy"], 0, [PLUS, 2, 3, 4, 5],
                                 setup=Setup(players=3, food_each=3), first=1)
    play = TableGame(session, "en", Verbosity.NORMAL)
    said: list[Announcement] = []
    for cards in ([7], [7], [PLUS], [7]):
        play.take(question(play, said), Cards.of(cards))
    step = question(play, said)
    assert texts(play.take(step, Cards.of([7]))) == [
        "Food 7: the deck has only 3, all already in sight in your hand and on the piles: "
        "check the card."]
    assert question(play, said).question == step.question
    play.close()


def stored_with(*old: Entry, you_first: int = 11) -> GameRef:
    """A game saved by an older version: eleven 7s served (Ana, Ben, Cy, Ana
    first), then ``old``, entries it accepted, journaled as it did."""
    session = TableSession.start(["Ana", "Ben", "Cy"], 0, [7, 7, 7, 7, 2])
    session.add(Entry("start", 0, 7))
    for _ in range(you_first - 1):
        session.add(Entry("serve", session.tracker.turn, 7))
    for entry in old:
        session.journal.append(entry.json())
    path = session.journal.ref
    session.close()
    return path


def resumed(path: GameRef) -> TableGame:
    journal, loaded = Journal.open(path)
    assert not loaded.damaged
    play = games()["mici-maki"].resume(journal, random.Random(1), "en", Verbosity.NORMAL)
    assert isinstance(play, TableGame)
    return play


def test_a_game_saved_with_an_impossible_entry_resumes_just_before_it_and_asks_again() -> None:
    # the game, as the old version kept it: Cy's eat of 77 with no overeating
    # card, then Cy's new pile
    path = stored_with(Entry("ate", 2, 0), Entry("start", 2, 5))
    play = resumed(path)
    said: list[Announcement] = []
    step = question(play, said)
    assert texts(said) == [
        "Mici Maki at the table: Ana, Ben, Cy. You are Ana.",
        "This game was saved with an entry the rules do not allow, Cy's: it and the 1 entry "
        "after it are taken out, and it is asked again. At least 1 overeating card turns up: "
        "that eat draws 75 cards, and only 74 in the draw pile are not overeating cards. "
        "Type eat x."]
    assert said[1].role is Role.WARNING
    assert step.question.prompt == "Cy's move: a card, a pair, or eat:"  # type: ignore[union-attr]
    assert [e.what for e in play.session.entries()] == ["start"] + ["serve"] * 10
    assert word(play, "risk")[0].startswith("Eating now: 100% risk")
    # what was taken out is kept beside the store
    (kept,) = path.folder.glob(f"{path.label}.damaged-*")
    assert [json.loads(line)["what"] for line in kept.read_text().splitlines()] == [
        "ate", "start"]
    # said once: not at the next start
    play.close()
    again = resumed(path)
    said = []
    assert question(again, said).question == step.question
    assert texts(said) == ["Mici Maki at the table: Ana, Ben, Cy. You are Ana."]
    # undo goes on from there, the note aside: Ben's serve is taken back
    assert word(again, "undo") == ["Taken back: Ben's last entry."]
    assert question(again, said).question.prompt == (  # type: ignore[union-attr]
        "Ben's move: a card, a pair, or eat:")
    again.close()


def test_a_game_resumed_before_an_impossible_eat_of_yours_asks_for_its_cards_again() -> None:
    # twelve 7s: your eat of 84 begun, then 75 cards with no overeating card
    path = stored_with(Entry("pending", 0, EAT), Entry("eat", 0, cards=(2,) * 75),
                       you_first=12)
    play = resumed(path)
    said: list[Announcement] = []
    step = question(play, said)
    assert step.key == EATEN
    assert texts(said)[1] == (
        "This game was saved with an entry the rules do not allow, Ana's: it is taken out and "
        "asked again. At least 1 overeating card turns up: that eat draws 75 cards, and only "
        "74 in the draw pile are not overeating cards. Enter the cards again, with x for each "
        "overeating card.")
    turned = [OVEREATING, *[2] * 11, *[3, 4, 5, 6] * 12, *[PLUS] * 7, *[REVERSE] * 5,
              *[CHOOSE] * 3]
    answered = texts(play.take(step, Cards.of(turned)))
    assert answered[0] == "Ana: eats 75 cards, an overeating card among them."
    play.close()
    # a game not resumed when offered keeps the note for the next start
    path = stored_with(Entry("ate", 2, 0))
    resumed(path).close()
    play = resumed(path)
    said = []
    question(play, said)
    assert texts(said)[1].startswith("This game was saved with an entry the rules do not allow")
    play.close()


def test_a_chance_that_cannot_be_worked_out_is_said_and_never_raised() -> None:
    play = served(11)
    said: list[Announcement] = []
    question(play, said)
    play.take(question(play, said), Cards.of([7]))  # Cy serves the twelfth: your turn
    # figures no table can show (no version records them now): a fault, said
    play.tracker.draw = 0
    fault = ("The chance of overeating cannot be worked out from what is entered (draw pile 0, "
             "overeating cards 1): a fault of the companion, please report it. Undo takes back "
             "the last entry.")
    assert word(play, "risk") == [fault]
    assert word(play, "hint") == [fault]
    assert "risk unknown" in play.facts()
    said.clear()
    step = question(play, said)
    assert step.question.prompt == "Your move: a card, a pair, or eat:"  # type: ignore[union-attr]
    assert fault in texts(said)
    play.close()


def _practice_said(names: list[str], language: str, seed: int) -> list[str]:
    """A practice game of three played to its end by random moves: all it said."""
    rng = random.Random(seed)
    session = PracticeSession.start(names, [None, "cautious", "random"], seed=seed)
    play = Practice(session, rng, language, Verbosity.NORMAL)
    said: list[str] = []
    while (step := play.advance()) is not None and len(said) < 3000:
        said += [a.text for a in step.before]
        if step.question is None:
            continue
        if isinstance(step.question, YesNo):
            said += texts(play.take(step, False))
        elif isinstance(step.question, Menu):
            said += texts(play.take(step, 0))
        else:
            move = rng.choice(play.game.legal_moves())
            if move[0] == EAT:
                answered = play.command("eat", "")
                assert answered is not None
                said += texts(answered.said)
            elif move[0] == CHOOSE:
                said += texts(play.take(step, Cards.of([CHOOSE])))
            else:
                said += texts(play.take(step, Cards.of([move[1]] * (2 if move[0] == SKIP else 1))))
    play.close()
    return said


def test_in_english_your_own_moves_and_tokens_and_your_turn_chosen_are_said_to_you() -> None:
    """"You: overeat, 1 token now." and "Bot 1: Choose the next player, you
    play next.", never "You: overeats" or "You plays next"."""
    said = [line for seed in range(6) for line in _practice_said(["You", "Bot 1", "Bot 2"],
                                                                  "en", seed)]
    assert any(line.startswith("You: overeat, ") for line in said)
    assert any(line.startswith("Bot ") and line.endswith(", you play next.") for line in said)
    assert not [line for line in said if "You plays" in line or "You: overeats" in line]


def test_in_czech_your_own_moves_are_said_to_you_and_the_bots_moves_of_them() -> None:
    """"Vy: zakládáte", "Vy: sníte" (second person plural, as Czech speaks
    to the player), while a bot "zakládá", "sní" (third person)."""
    said = _practice_said(["Vy", "Bot 1", "Bot 2"], "cs", 3)
    mine = [line for line in said if line.startswith("Vy: ")]
    theirs = [line for line in said if line.startswith("Bot ")]
    assert any(line.startswith("Vy: zakládáte balíček") for line in mine), mine
    assert any(line.startswith(("Vy: sníte", "Vy: dobíráte")) for line in mine), mine
    third = ("zakládá ", "sní ", "dobírá ", "servíruje ", "přidá ", "nepřidává ", "vynechává ")
    assert not [line for line in mine if line.split(": ", 1)[1].startswith(third)], mine
    assert any(line.split(": ", 1)[1].startswith(("zakládá ", "sní ")) for line in theirs)
