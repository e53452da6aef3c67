"""A Mici Maki table shared between devices, played through: each seat its
own game, asked only its own hand and moves (its draws, its eats, the
overeating card it adds); every other seat takes each move from the table
as it is made, in the form the table sees it (the cards turned up when
eating shown, the cards drawn at a turn's start not). The engine is the
real table: every seat's game and the host follow it exactly to the same
winners. Undo takes back only a seat's own last entry, at every seat,
before the next player moves; the host may end the table."""

from __future__ import annotations

import random
import re
from collections import deque
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.contract.events import Cards, Menu, Role, Text, Verbosity
from companion.contract.game import Step
from companion.games import games
from companion.games.micimaki.narration import card_name, catalog
from companion.games.micimaki.rules import (
    CHOOSE,
    EAT,
    EXTRA,
    SKIP,
    Event,
    Game,
    Setup,
    hand_cards,
)
from companion.games.micimaki.shared import WAIT, HostGame, SeatGame, Table
from companion.games.micimaki.table import (
    DEALT,
    EATEN,
    EMPTY,
    EXTRA_CARD,
    MOVE,
    NO_FOOD,
    WHOM,
    TableGame,
)
from companion.games.micimaki.tactile import code
from companion.journal import Journal, journals
from tests.companion.games.micimaki.test_tracker import same

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gil"]


@pytest.fixture(autouse=True)
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    yield


def question(play: SeatGame | HostGame, said: list[str]) -> Step:
    while True:
        step = play.advance()
        assert step is not None, "the game ended early"
        said += [a.text for a in step.before]
        if step.question is not None:
            return step


class Shared:
    """An engine game (the real table) and a shared table of one device per
    seat following it; ``late``: a seat that enters its dealt hand only when
    its turn first comes."""

    def __init__(self, players: int, seed: int, late: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.game = Game(Setup(players=players), self.rng)
        self.names = NAMES[:players]
        self.told: list[int | None] = []
        self.table = Table(self.names, Setup(players=players), 0, self.told.append)
        self.seats = [self.table.seat(s, "en", Verbosity.NORMAL) for s in range(players)]
        for seat in range(players):
            self.table.joined(seat)
        self.host = self.table.host("en", Verbosity.NORMAL)
        self.host_said: list[str] = []
        self.said: list[list[str]] = [[] for _ in range(players)]
        self.dealt = [hand_cards(hand) for hand in self.game.hands]
        self.draws: deque[Event] = deque()
        self.entries = 0
        for seat in range(players):
            if seat != late:
                self.deal(seat)

    def ask(self, seat: int) -> Step:
        return question(self.seats[seat], self.said[seat])

    def take(self, seat: int, step: Step, answer: object) -> list[str]:
        said = [a.text for a in self.seats[seat].take(step, answer)]
        self.said[seat] += said
        return said

    def deal(self, seat: int) -> None:
        step = self.ask(seat)
        assert step.key == DEALT, step
        said = self.take(seat, step, Cards.of(self.dealt[seat]))
        assert said[0].startswith("Your hand"), said

    def _engine(self, move: tuple[int, int]) -> list[Event]:
        self.game.play(move)
        events = list(self.game.events)
        self.draws.extend(e for e in events if e.kind in ("drew", "passed"))
        return events

    def step(self) -> bool:
        """The seat whose turn it is answers its question (every other seat
        waiting); False once every seat's game is over."""
        if self.game.over and not self.draws:  # (a draw that ended it is entered first)
            for seat, play in enumerate(self.seats):
                while (last := play.advance()) is not None:
                    assert last.question is None
                    self.said[seat] += [a.text for a in last.before]
            return False
        self.entries += 1
        if self.draws and self.draws[0].kind == "passed":
            self.draws.popleft()  # (the seat's game passes by itself: no food, nothing to draw)
        seat = self.game.turn
        step = self.ask(seat)
        key = step.key
        if key == DEALT:
            self.deal(seat)
        elif key == EXTRA_CARD:
            add = self.rng.random() < 0.5 and (EXTRA, 1) in self.game.legal_moves()
            self._engine((EXTRA, int(add)))
            assert "add" in self.take(seat, step, add)[0]
        elif key in (EMPTY, NO_FOOD):
            drawn = self.draws.popleft()
            assert drawn.kind == "drew" and drawn.seat == seat
            said = self.take(seat, step, Cards.of(list(drawn.cards)))
            assert said[0].startswith("You: draw"), said
            self.others_heard(seat, f"{self.names[seat]}: draws {len(drawn.cards)} card")
        elif key == MOVE:
            self.move(seat, step)
        else:
            raise AssertionError(f"an unexpected question at seat {seat}: {key!r}")
        for other in self.others(seat) if not self.table.over else ():
            waiting = self.ask(other)
            if self.seats[other].tracker.turn == other:  # the next player: their move asked
                assert waiting.key in (MOVE, EMPTY, NO_FOOD, DEALT), (other, waiting)
                continue
            assert waiting.key in (WAIT, DEALT), (other, waiting)
            if waiting.key == WAIT:
                assert isinstance(waiting.question, Text)
                turn = self.seats[other].tracker.turn
                assert f"Waiting for {self.names[turn]}" in waiting.question.prompt
        if not self.draws and not any(play.session.pending() for play in self.seats):
            for play in self.seats:
                if not play.session.dealing:
                    same(self.game, play.tracker)
        self.host_said += [a.text for a in question(self.host, []).before] if not (
            self.table.over) else []
        return True

    def others(self, seat: int) -> list[int]:
        return [other for other in range(len(self.seats)) if other != seat]

    def listen(self, seat: int) -> None:
        """What seat ``seat`` hears until its next question, or its game's end."""
        while (step := self.seats[seat].advance()) is not None:
            self.said[seat] += [a.text for a in step.before]
            if step.question is not None:
                return

    def others_heard(self, seat: int, start: str) -> None:
        for other in self.others(seat):
            mark = len(self.said[other])
            self.listen(other)
            heard = self.said[other][mark:]
            assert any(line.startswith(start) for line in heard), (other, start, heard)

    def move(self, seat: int, step: Step) -> None:
        move = self.rng.choice(self.game.legal_moves())
        events = self._engine(move)
        name = self.names[seat]
        if move[0] == EAT:
            ate = next(e for e in events if e.kind == "ate")
            if self.rng.random() < 0.5:
                answered = self.seats[seat].command("eat", "")  # the cards asked next
                assert answered is not None and answered.changed
                eaten = self.ask(seat)
                assert eaten.key == EATEN
                said = self.take(seat, eaten, Cards.of(list(ate.cards)))
            else:
                answered = self.seats[seat].command("eat", " ".join(code(c) for c in ate.cards))
                assert answered is not None and answered.changed
                said = [a.text for a in answered.said]
            assert said[0].startswith("You: eat"), said
            self.others_heard(seat, f"{name}: eats {len(ate.cards)} card")
        elif move[0] == CHOOSE:
            self.take(seat, step, Cards.of([CHOOSE]))
            whom = self.ask(seat)
            assert whom.key == WHOM and isinstance(whom.question, Menu)
            others = self.others(seat)
            self.take(seat, whom, others.index(move[1]))
            self.others_heard(seat, f"{name}: Choose the next player")
            assert f"{name}: Choose the next player, you play next." in self.said[move[1]]
        else:
            cards = [move[1]] * (2 if move[0] == SKIP else 1)
            said = self.take(seat, step, Cards.of(cards))
            assert said[0].startswith("You: ") or said[0].startswith(f"{name}: "), said
            self.others_heard(seat, f"{name}: ")


# (seeds 22 and 91: players holding no food to start a pile draw for it)
@pytest.mark.parametrize(("players", "seed"), [(3, 1), (5, 22), (6, 91), (7, 4)])
def test_a_whole_game_each_seat_enters_only_its_own_moves_and_all_follow_it(
        players: int, seed: int) -> None:
    t = Shared(players, seed, late=players - 1)
    while t.step():
        assert t.entries < 5000, "the game does not end"
    assert t.table.over
    for play in t.seats:
        assert play.tracker.winners == t.game.winners
        assert play.session.ended
    winner = t.names[t.game.winners[0]]
    for said in t.said:
        finals = [line for line in said if line.startswith("Game over. ")]
        assert finals and winner in finals[-1]
    host = [a.text for a in (t.host.advance() or Step(None, ())).before]
    assert any(line.startswith("Game over. ") and winner in line
               for line in t.host_said + host), host
    # no seat heard another's hand or the cards another drew; a seat's own
    # draws and hand were said to it alone, in the second person
    for seat, said in enumerate(t.said):
        for line in said:
            if re.match(r"^\w+: draws \d+ cards?", line):
                assert re.fullmatch(r"\w+: draws \d+ cards?\.", line), (seat, line)
            assert not line.startswith(tuple(f"{n}'s hand" for n in t.names))
        assert sum(line.startswith("Your hand") for line in said) >= 1


def test_a_seat_waits_its_turn_and_may_not_enter_anothers_move() -> None:
    t = Shared(3, 1)
    waiting = t.ask(1)
    assert waiting.key == WAIT
    assert isinstance(waiting.question, Text) and waiting.question.allow_empty
    assert t.take(1, waiting, "") == ["Still waiting for Ann."]
    refused = t.seats[1].command("eat", "x")
    assert refused is not None and not refused.changed
    assert refused.said[0].text == "Not your turn: Ann enters their own move."
    drew = t.seats[1].command("drew", "2")
    assert drew is not None and "their own draws" in drew.said[0].text
    # the public words answer at any seat, the hand its own
    pile = t.seats[1].command("pile", "")
    hand = t.seats[1].command("hand", "")
    assert pile is not None and hand is not None
    assert hand.said[0].text.startswith("Your hand") and t.table.moves() == []


def test_undo_takes_a_move_back_at_every_seat_until_the_next_player_moves() -> None:
    t = Shared(3, 1)
    ann = t.ask(0)
    assert ann.key == MOVE
    food = next(card for card in t.dealt[0] if 2 <= card <= 7)
    t.take(0, ann, Cards.of([food]))
    assert len(t.table.moves()) == 1
    t.ask(1)
    assert any(line.startswith("Ann: starts a pile with") for line in t.said[1])
    undo = t.seats[0].command("undo", "")
    assert undo is not None and undo.changed
    assert undo.said[0].text == "Taken back: Ann's last entry."
    assert t.table.moves() == []
    for seat in (1, 2):
        step = t.ask(seat)
        assert step.key == WAIT
        assert t.seats[seat].tracker.value == 0 and t.seats[seat].tracker.sizes[0] == 5
    # Ben heard the move, and that it was taken back; Cy, who looked only
    # after, hears neither
    assert "Taken back: Ann's last entry." in t.said[1]
    assert not any(line.startswith("Ann: ") or line.startswith("Taken back")
                   for line in t.said[2])
    # started again; Ben begins to eat (on his device only): still Ann's to take back
    again = t.ask(0)
    t.take(0, again, Cards.of([food]))
    assert t.ask(1).key == MOVE
    answered = t.seats[1].command("eat", "")
    assert answered is not None and answered.changed
    assert t.ask(1).key == EATEN
    undone = t.seats[0].command("undo", "")
    assert undone is not None and undone.changed
    back = t.ask(1)  # Ben's eat begun goes with it: he waits for Ann again
    assert back.key == WAIT and t.seats[1].session.pending() is None
    # Ann starts again and Ben eats: her move is no longer hers to take back
    t.take(0, t.ask(0), Cards.of([food]))
    assert t.ask(1).key == MOVE
    held = t.seats[1].tracker.hand
    turned = [min(range(2, 8), key=lambda card: held[card])] * food
    eaten = t.seats[1].command("eat", " ".join(code(card) for card in turned))
    assert eaten is not None and eaten.said[0].text.startswith("You: eat")
    late = t.seats[0].command("undo", "")
    assert late is not None and not late.changed
    assert late.said[0].text == "Nothing to take back: the next player has moved since."
    t.ask(2)  # (Cy's last entry is Ben's eat now, no longer the hand Cy entered)
    nothing = t.seats[2].command("undo", "")
    assert nothing is not None and not nothing.changed
    assert nothing.said[0].text.startswith("Nothing to take back: only your own")
    # Ben's own eat, the table's last move, is his to take back
    mine = t.seats[1].command("undo", "")
    assert mine is not None and mine.changed and len(t.table.moves()) == 1


def test_a_move_taken_back_just_before_the_next_reaches_the_table_is_said() -> None:
    t = Shared(3, 1)
    food = next(card for card in t.dealt[0] if 2 <= card <= 7)
    t.take(0, t.ask(0), Cards.of([food]))
    ben = t.ask(1)
    # Ann takes her move back while Ben's move is on its way
    assert t.table.withdraw(0, 0)
    assert ben.key == MOVE
    held = t.seats[1].tracker.hand
    turned = [min(range(2, 8), key=lambda card: held[card])] * food
    answered = t.seats[1].command("eat", " ".join(code(card) for card in turned))
    assert answered is not None
    assert answered.said[-1].text.startswith("Not entered: the table moved on")
    assert t.seats[1].session.pending() is None and len(t.table.moves()) == 0
    step = t.ask(1)
    assert step.key == WAIT and "Taken back: Ann's last entry." in t.said[1]


def test_the_host_follows_the_public_game_and_may_end_the_table() -> None:
    t = Shared(3, 1)
    host: list[str] = []
    menu = question(t.host, host)
    assert host[:3] == ["Ann took a seat.", "Ben took a seat.", "Cy took a seat."]
    assert isinstance(menu.question, Menu) and menu.question.title == "The shared table:"
    assert t.host.facts() == "Round 1, Ann to play; 3 of 3 seats taken"
    food = next(card for card in t.dealt[0] if 2 <= card <= 7)
    t.take(0, t.ask(0), Cards.of([food]))
    question(t.host, host)
    assert host[-1] == f"Ann: starts a pile with {card_name(catalog('en'), food)}."
    assert not any("hand" in line.casefold() for line in host)
    where = [a.text for a in t.host.take(menu, 0)]
    assert where[0].startswith("Round 1") and "Ben" in where[0]
    tokens = t.host.command("tokens", "")
    assert tokens is not None and len(tokens.said) >= 1
    ending = question(t.host, host)
    t.host.take(ending, 1)
    sure = question(t.host, host)
    assert sure.key == "end"
    t.host.take(sure, True)
    last = t.host.advance()
    assert last is not None and last.question is None
    assert [a.text for a in last.before] == ["The table is ended. Each seat's game is saved."]
    assert t.table.over and not t.table.post(1, 1, t.table.moves()[0])
    end = t.seats[1].advance()
    assert end is not None and end.question is None
    assert next(a for a in end.before if a.role is Role.RESULT).text.startswith(
        "The host ended the table.")


def test_a_seats_game_resumes_on_one_device_as_a_table_game_where_it_was() -> None:
    t = Shared(3, 5)
    for _ in range(12):
        t.step()
    ben = t.seats[1]
    facts = ben.facts()
    hand = list(ben.tracker.hand)
    ben.session.close()
    path = next(ref for ref in journals() if ref.name == ben.session.journal.ref.name)
    journal, loaded = Journal.open(path)
    assert not loaded.damaged
    again = games()["mici-maki"].resume(journal, random.Random(1), "en", Verbosity.NORMAL)
    assert isinstance(again, TableGame) and not isinstance(again, SeatGame)
    assert again.facts() == facts and list(again.tracker.hand) == hand
    assert again.advance() is not None
