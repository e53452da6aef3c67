"""A Sushi Go! table shared between devices, played through: three seats,
each its own game, asked only its own hand and pick, the picks revealed
to every seat at once; the host follows what is public. Each seat sees
no other seat's hand or pick before the reveal; undo takes back only a
seat's own entries before the reveal; every seat and the host end with
the same scores."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.contract.events import Cards, CardsQuestion, Text, Verbosity
from companion.contract.game import Step
from companion.games.sushigo.cards import ROUNDS, Card, deck_counts, hand_size
from companion.games.sushigo.draft import Variant
from companion.games.sushigo.narration import card_name
from companion.games.sushigo.shared import WAIT, HostGame, SeatGame, Table
from companion.games.sushigo.table import HAND, PICK
from companion.games.sushigo.telling import catalog

NAMES = ["Ann", "Ben", "Cy"]


@pytest.fixture(autouse=True)
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    yield


class Seated:
    """Three seats and the host of one table, and who was told of news."""

    def __init__(self, variant: Variant = Variant()) -> None:  # noqa: B008
        self.told: list[int | None] = []
        self.table = Table(NAMES, variant, self.told.append)
        self.seats = [self.table.seat(s, "en", Verbosity.NORMAL) for s in range(3)]
        for seat in range(3):
            self.table.joined(seat)
        self.host = self.table.host("en", Verbosity.NORMAL)
        self.said: list[list[str]] = [[], [], []]

    def step(self, seat: int) -> Step:
        return question(self.seats[seat], self.said[seat])


def question(play: SeatGame | HostGame, said: list[str]) -> Step:
    while True:
        step = play.advance()
        assert step is not None, "the game ended early"
        said += [a.text for a in step.before]
        if step.question is not None:
            return step


def deal(rng: random.Random) -> list[list[Card]]:
    deck = [card for card, n in deck_counts().items() for _ in range(n)]
    rng.shuffle(deck)
    size = hand_size(3)
    return [deck[i * size:(i + 1) * size] for i in range(3)]


def names(cards: list[Card]) -> list[str]:
    return [card_name(catalog("en"), card) for card in cards]


def test_a_whole_game_each_seat_its_own_hand_the_picks_revealed_to_all() -> None:
    rng = random.Random(4)
    t = Seated()
    for round_ in range(1, ROUNDS + 1):
        hands = deal(rng)
        for _turn in range(hand_size(3)):
            picks: list[Card] = []
            for seat in range(3):
                step = t.step(seat)
                assert step.key == HAND, (seat, step)
                t.said[seat] += [a.text for a in t.seats[seat].take(step, Cards.of(hands[seat]))]
                step = t.step(seat)
                assert step.key == PICK
                assert isinstance(step.question, CardsQuestion)
                pick = rng.choice(hands[seat])
                picks.append(pick)
                t.seats[seat].take(step, Cards.of([pick]))
                if seat < 2:  # the others still to pick: this seat waits
                    waiting = t.step(seat)
                    assert waiting.key == WAIT and isinstance(waiting.question, Text)
                    assert NAMES[2] in waiting.question.prompt
            for seat in range(3):
                hands[seat].remove(picks[seat])
            # the last pick revealed the turn: every seat and the host told, but the picker
            assert t.told[-3:] == [None, 0, 1]
            assert t.table.over == (round_ == ROUNDS and _turn == hand_size(3) - 1)
            step_ = int(t.seats[0].tracker.direction(round_))
            hands = [hands[(seat - step_) % 3] for seat in range(3)]
            for seat in range(3):
                said = t.said[seat]
                before = len(said)
                if t.seats[seat].tracker.turn < hand_size(3) or round_ < ROUNDS:
                    t.step(seat)
                else:  # the game's end: the reveal, the scores, and no question more
                    while (s := t.seats[seat].advance()) is not None:
                        assert s.question is None
                        said += [a.text for a in s.before]
                revealed = said[before:]
                assert "Revealed:" in revealed, revealed
                for other in range(3):
                    assert any(line.startswith(f"{NAMES[other]}: ") for line in revealed)
    assert t.table.over
    scores = [seat.tracker.score().totals for seat in t.seats]
    assert scores[0] == scores[1] == scores[2]
    assert all(seat.session.ended for seat in t.seats)
    assert not any("differs" in line or "did not" in line for said in t.said for line in said)
    host_said: list[str] = []
    while (last := t.host.advance()) is not None:
        host_said += [a.text for a in last.before]
    assert t.table.tracker().score().totals == scores[0]
    assert sum(line.startswith("Round 3, turn 9, revealed:") for line in host_said) == 1


def test_no_seat_is_told_another_seats_hand_or_pick_before_the_reveal() -> None:
    t = Seated()
    hands = deal(random.Random(9))
    for seat in range(2):
        step = t.step(seat)
        t.seats[seat].take(step, Cards.of(hands[seat]))
        step = t.step(seat)
        t.seats[seat].take(step, Cards.of([hands[seat][0]]))
        t.step(seat)
    step = t.step(2)
    assert step.key == HAND
    # Cy has heard nothing of Ann's or Ben's cards: only that they took a seat
    assert all("took a seat" in line or line.startswith(("Table game", "Round 1"))
               for line in t.said[2]), t.said[2]
    host: list[str] = []
    question(t.host, host)
    assert all("took a seat" in line for line in host), host
    assert t.told.count(2) == 0  # nothing that would move Cy's question on


def test_undo_takes_back_a_seats_own_pick_before_the_reveal_and_nothing_after() -> None:
    t = Seated(Variant())
    hands = deal(random.Random(2))
    for seat in range(3):
        step = t.step(seat)
        t.seats[seat].take(step, Cards.of(hands[seat]))
    step = t.step(0)
    t.seats[0].take(step, Cards.of([hands[0][0]]))
    undone = t.seats[0].command("undo", "")
    assert undone is not None and undone.changed
    assert t.table.waiting(1, 1) == (0, 1, 2)
    assert t.step(0).key == PICK  # asked again
    step = t.step(0)
    t.seats[0].take(step, Cards.of([hands[0][1]]))
    for seat in (1, 2):
        step = t.step(seat)
        t.seats[seat].take(step, Cards.of([hands[seat][0]]))
    assert t.step(0).key == HAND  # turn 2: the reveal came in
    refused = t.seats[1].command("undo", "")
    assert refused is not None and not refused.changed
    assert "Nothing to take back" in refused.said[0].text
    assert Counter(e.seat for e in t.seats[0].tracker.entries if e.seat is not None) == {
        0: 1, 1: 1, 2: 1}


def test_the_host_ends_the_table_and_every_seat_is_told_its_game_is_saved() -> None:
    t = Seated()
    host: list[str] = []
    step = question(t.host, host)
    t.host.take(step, 1)  # End the table
    sure = question(t.host, host)
    assert sure.key == "end"
    t.host.take(sure, True)
    assert t.told[-4:] == [None, 0, 1, 2]
    last = t.host.advance()
    assert last is not None and last.question is None
    assert t.host.advance() is None
    for seat in t.seats:
        ended = seat.advance()
        assert ended is not None and "The host ended the table" in ended.before[-1].text
        assert seat.advance() is None
        assert not seat.session.ended  # saved, to be resumed
