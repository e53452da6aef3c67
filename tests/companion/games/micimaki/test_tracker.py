"""The Mici Maki table companion's state, followed from entries: checked
move by move against whole engine games (two writings of the rules must
agree on everything public and on the player's hand), and impossible
entries refused with their reason, changing nothing."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable

import pytest

from companion.games.micimaki.risk import overeating_risk
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


def sevens(served: int, hand: tuple[int, ...] = (7, 7, 7, 7, 2)) -> Tracker:
    """Ana (you), Ben and Cy, Ana first: a pile of ``served`` 7s, served in turn."""
    table = Tracker(3, 0, hand=list(hand))
    table.start(0, 7)
    for _ in range(served - 1):
        table.serve(table.turn, 7)
    return table


def refused(entry: Callable[[], None], table: Tracker) -> Refusal:
    """The refusal of an entry, which changed nothing."""
    before = copy.deepcopy(table.__dict__)
    with pytest.raises(IllegalMove) as error:
        entry()
    assert table.__dict__ == before
    return error.value.refusal


def test_an_eat_past_every_card_that_is_not_overeating_must_turn_one_up() -> None:
    # the case: eleven 7s (77) against a draw pile of 75, 1 of them overeating
    table = sevens(11)
    assert (table.value, table.turn, table.draw, table.overeating) == (77, 2, 75, 1)
    assert table.overeating_bounds(table.value) == (1, 1) and table.risk() == 1
    assert refused(lambda: table.ate(2, overate=0), table) == Refusal(
        "overeats", {"least": 1, "cards": 75, "free": 74, "shown": 0})
    table.ate(2, overate=1)
    assert table.tokens == [0, 0, 1] and table.phase == ADD
    table.add_overeating(True)
    assert table.risk() == 0  # a new round: no pile yet
    # your own eat, the cards entered: the same; 74 is still possible without one
    table = sevens(11)
    table.serve(2, 7)  # the twelfth: 84
    assert refused(lambda: table.eat(0, [2] * 75), table) == Refusal(
        "overeats", {"least": 1, "cards": 75, "free": 74, "shown": 1})
    table = sevens(10)
    table.serve(1, 7)
    assert table.overeating_bounds(table.value) == (1, 1)
    table = sevens(10)
    assert table.overeating_bounds(70) == (0, 1)
    table.ate(1, overate=0)  # 70 of 75: possible
    assert (table.draw, table.free(), table.overeating) == (5, 4, 1)


def test_a_draw_past_every_card_that_is_not_overeating_must_turn_one_up() -> None:
    table = sevens(10)
    table.ate(1, overate=0)  # Ben eats 70 cards: 5 left, 1 of them overeating
    assert (table.phase, table.turn, table.free()) == (PILE, 1, 4)
    # Ben holds no food to start a pile (unseen): his draw stops at food or overeating
    assert refused(lambda: table.drew(1, 5), table) == Refusal(
        "draw-overeats", {"card": 5, "free": 4, "shown": 0, "empty": 0})
    assert refused(lambda: table.drew(1, 6, overate=True), table) == Refusal(
        "draw-overeats", {"card": 5, "free": 4, "shown": 0, "empty": 0})
    probe = copy.deepcopy(table)
    probe.drew(1, 4)  # four actions: possible
    assert probe.free() == 0 and probe.sizes[1] == 76
    table.drew(1, 5, overate=True)
    assert table.tokens == [0, 1, 0] and table.phase == ADD


def test_your_draws_and_empty_hands_follow_what_the_rules_force() -> None:
    # you hold food: no draw for food; at a pile in play, no draw at all
    table = Tracker(3, 0, hand=[2, PLUS, PLUS, REVERSE, CHOOSE])
    assert refused(lambda: table.drew(0, [8, 3]), table) == Refusal("draw", {"seat": 0})
    table.start(0, 2)
    assert refused(lambda: table.drew(1, 2), table) == Refusal("draw", {"seat": 1})
    # no food in your hand: your draw for food stops at the first food card, or an
    # overeating card
    table = Tracker(3, 0, hand=[PLUS, PLUS, REVERSE, CHOOSE, CHOOSE])
    assert refused(lambda: table.drew(0, [5, 8]), table) == Refusal("until")
    assert refused(lambda: table.drew(0, [8, 9]), table) == Refusal("until")
    table.drew(0, [REVERSE, 5])
    assert table.sizes[0] == 7
    # your five 5s played, Ben and Cy serving: your turn comes with an empty hand
    table = Tracker(3, 0, hand=[5, 5, 5, 5, 5])
    table.start(0, 5)
    for card in (5, 5, 5, 5, 5, 5, 5, 5, 5, PLUS, PLUS, 5, 5, PLUS):
        table.serve(table.turn, 5) if card == 5 else table.action(table.turn, card)
    # your turn with an empty hand: three cards first, nothing else
    assert table.sizes[0] == 0 and table.phase == TURN
    assert refused(lambda: table.eat(0, [2] * table.value), table) == Refusal(
        "empty", {"seat": 0})
    assert refused(lambda: table.drew(0, [2, 3]), table) == Refusal("count", {"cards": 3})
    assert refused(lambda: table.drew(0, [2, 3, 4, 5]), table) == Refusal(
        "count", {"cards": 3})
    table.drew(0, [2, 3, 4])
    assert table.sizes[0] == 3


def test_no_card_is_seen_more_often_than_the_deck_has_it() -> None:
    # a deck of 3 cards of each food: Ben, Cy, then Ben again serve the three 7s
    table = Tracker(3, 0, hand=[PLUS, 2, 3, 4, 5], setup=Setup(players=3, food_each=3),
                    first=1)
    table.start(1, 7)
    table.serve(2, 7)
    table.action(0, PLUS)
    table.serve(1, 7)
    assert refused(lambda: table.serve(2, 7), table) == Refusal("supply", {"card": 7, "most": 3})
    # the pile: eleven 7s, then the twelfth; a thirteenth cannot come
    table = sevens(12)
    assert table.pile.count(7) == 12 and table.turn == 0 and table.sizes[0] == 1
    assert refused(lambda: table.correct_hand([7]), table) == Refusal(
        "supply", {"card": 7, "most": 12})
    table.correct_hand([3])
    # a deck set up with no choose card deals none, and none can be played
    setup = Setup(players=3, choose=0)
    with pytest.raises(IllegalMove) as error:
        Tracker(3, 0, hand=[CHOOSE, 2, 3, 4, 5], setup=setup)
    assert error.value.refusal == Refusal("supply", {"card": CHOOSE, "most": 0})
    table = Tracker(3, 0, hand=[2, 3, 4, 5, 6], setup=setup)
    table.start(0, 2)
    assert refused(lambda: table.action(1, CHOOSE, 0), table) == Refusal(
        "supply", {"card": CHOOSE, "most": 0})
    assert refused(lambda: table.correct_hand([CHOOSE, 3, 4, 5]), table) == Refusal(
        "supply", {"card": CHOOSE, "most": 0})


def test_past_the_draw_pile_your_eat_turns_up_the_discard_pile_s_cards() -> None:
    table = sevens(10)
    table.ate(1, overate=0)  # 5 left in the draw pile, ten 7s in the discard pile
    table.start(1, 5)
    table.serve(2, 5)
    assert (table.turn, table.value, table.draw, len(table.discard)) == (0, 10, 5, 10)
    cards = [2, 3, OVEREATING, 4, 5]
    assert refused(lambda: table.eat(0, [*cards, 7, 7, 7, 7, 6]), table) == Refusal(
        "discard", {"card": 6, "name": 6})
    assert refused(lambda: table.eat(0, [2, 3, 4, 5, 6] + [7] * 5), table) == Refusal(
        "overeats", {"least": 1, "cards": 10, "free": 4, "shown": 1})
    table.eat(0, [*cards, 7, 7, 7, 7, 7])
    assert table.tokens[0] == 1 and table.hand[7] == 5
