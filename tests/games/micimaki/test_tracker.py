"""The Mici Maki table companion's state, followed from entries: checked
move by move against whole engine games (two writings of the rules must
agree on everything public and on the player's hand), and impossible
entries refused with their reason, changing nothing."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable

import pytest

from companion.games.micimaki.rules import (
    ADD,
    CHOOSE,
    EAT,
    EXTRA,
    OVEREATING,
    PILE,
    PLAY,
    PLUS,
    REVERSE,
    SERVE,
    SKIP,
    START,
    TURN,
    Game,
    IllegalMove,
    Refusal,
    Setup,
    hand_cards,
)
from companion.games.micimaki.tracker import Tracker
from companion.games.risk import overeating_risk


def mirror(game: Game, table: Tracker, move: tuple[int, int]) -> None:
    """Enter at the table what the engine's move showed."""
    kind, argument = move
    seat = game.turn
    if kind == START:
        table.start(seat, argument)
    elif kind == SERVE:
        table.serve(seat, argument)
    elif kind == PLAY:
        table.action(seat, argument)
    elif kind == CHOOSE:
        table.action(seat, CHOOSE, argument)
    elif kind == SKIP:
        table.skip(seat, argument)
    elif kind == EXTRA:
        table.add_overeating(bool(argument))
    game.play(move)
    for event in game.events:
        if event.kind == "ate":
            table.eat(event.seat, event.cards)
        elif event.kind == "drew" and event.cards:
            if event.seat == table.you:
                table.drew(event.seat, event.cards)
            elif event.cards[-1] == OVEREATING:
                table.drew(event.seat, len(event.cards), overate=True)
            else:
                table.drew(event.seat, len(event.cards))
        elif event.kind == "passed":
            table.passed(event.seat)


def same(game: Game, table: Tracker) -> None:
    view = game.view(table.you)
    assert (table.draw, table.overeating, len(table.discard)) == (
        view.draw, view.overeating, view.discard)
    assert (tuple(table.pile), table.food, table.value) == (view.pile, view.food, view.value)
    assert (table.turn, table.direction, table.phase, table.round) == (
        view.turn, view.direction, view.phase, view.round)
    assert (tuple(table.tokens), tuple(table.sizes)) == (view.tokens, view.hand_sizes)
    assert tuple(table.hand) == view.hand
    assert sorted(table.discard) == sorted(game.discard)


@pytest.mark.parametrize("players", [3, 4, 5, 7])
def test_the_table_follows_whole_games_exactly(players: int) -> None:
    for seed in range(12):
        rng = random.Random(seed)
        game = Game(Setup(players=players), rng)
        you = seed % players
        table = Tracker(players, you, hand=hand_cards(game.hands[you]))
        same(game, table)
        while not game.over:
            if table.phase == TURN:
                assert table.risk() == overeating_risk(
                    draw=len(game.draw), overeating=game.overeating, eat=game.value)
            if game.turn == you and game.phase in (PILE, TURN):
                assert sorted(table.playable()) == sorted(game.legal_moves())
            moves = game.legal_moves()
            mirror(game, table, moves[rng.randrange(len(moves))])
            same(game, table)
        assert table.winners == game.winners


def test_impossible_entries_are_refused_and_change_nothing() -> None:
    table = Tracker(3, 0, hand=[6, 6, 2, PLUS, REVERSE])
    before = copy.deepcopy(table.__dict__)
    refused: list[tuple[Callable[[], None], Refusal]] = [
        (lambda: table.serve(0, 6), Refusal("start")),  # a pile must start first
        (lambda: table.start(1, 6), Refusal("turn", {"seat": 0})),
        (lambda: table.start(0, 7), Refusal("card", {"card": 7})),  # not in your hand
        (lambda: table.start(0, PLUS), Refusal("start", {"card": PLUS})),
        (lambda: table.add_overeating(True), Refusal("phase")),
        (lambda: table.drew(0, 3), Refusal("yours")),
    ]
    for entry, refusal in refused:
        with pytest.raises(IllegalMove) as error:
            entry()
        assert error.value.refusal == refusal
        assert table.__dict__ == before
    table.start(0, 6)
    table.serve(1, 6)
    with pytest.raises(IllegalMove) as error:
        table.serve(2, 5)
    assert error.value.refusal == Refusal("serve", {"food": 6})
    with pytest.raises(IllegalMove) as error:
        table.eat(2, [2] * 11)  # the pile is worth 12
    assert error.value.refusal == Refusal("count", {"cards": 12})
    with pytest.raises(IllegalMove) as error:
        table.eat(2, [OVEREATING, OVEREATING] + [3] * 10)  # one is in the game
    assert error.value.refusal == Refusal("overeating", {"overeating": 1})
    with pytest.raises(IllegalMove) as error:
        table.action(2, CHOOSE, 2)
    assert error.value.refusal == Refusal("choose", {"seat": 2})


def test_a_round_ends_with_a_token_and_a_sixth_card_is_the_last() -> None:
    table = Tracker(3, 0, hand=[4, 4, 4, 4, 4])
    for _ in range(6):
        starter = table.turn
        table.start(starter, 4 if starter == 0 else 3)
        eater = table.turn
        tokens = table.tokens[eater]
        asked = table.overeating < 6
        table.eat(eater, [OVEREATING] + [5] * (table.value - 1))
        assert table.tokens[eater] == tokens + 1 and table.turn == eater
        if asked:
            assert table.phase == ADD
            table.add_overeating(True)
        assert (table.phase, table.direction, table.pile) == (PILE, 1, [])
        assert table.draw + len(table.discard) + sum(table.sizes) == 89 + table.overeating
    assert table.overeating == 6 and table.tokens == [2, 2, 2]
    with pytest.raises(IllegalMove) as error:
        table.add_overeating(True)
    assert error.value.refusal == Refusal("phase")


def test_the_risk_said_before_eating() -> None:
    table = Tracker(4, 2, hand=[7, 7, 3, 2, REVERSE])
    table.start(0, 5)
    table.serve(1, 5)
    assert table.value == 10 and table.turn == 2
    assert table.risk() == overeating_risk(draw=table.draw, overeating=1, eat=10)
    assert sorted(table.playable()) == [(EAT, 0), (PLAY, REVERSE), (SKIP, 7)]
