"""What a seat can know of the hidden hands, and worlds consistent with it."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.games.sushigo.cards import Card, deck_counts
from companion.games.sushigo.draft import Game, Variant
from companion.games.sushigo.knowledge import hand_knowledge, sample_game, unseen

TABLES = [
    (2, Variant()),
    (3, Variant()),
    (4, Variant()),
    (5, Variant(pass_both_ways=True, soy_sauce=3)),
    (4, Variant(pass_both_ways=True)),
    (2, Variant(dummy=True)),
]


def everything(game: Game) -> Counter[Card]:
    seen: Counter[Card] = Counter(game.draw_pile())
    for seat in range(game.seats):
        seen.update(game.hand(seat))
        seen.update(game.table(seat))
    for tables in game.finished_rounds:
        for table in tables:
            seen.update(table)
    return seen


@pytest.mark.parametrize(("players", "variant"), TABLES)
def test_what_a_seat_knows_is_true_and_worlds_match_its_view(
    players: int, variant: Variant
) -> None:
    for seed in range(12):
        game = Game(players, rng=random.Random(seed), variant=variant)
        rng = random.Random(seed + 100)
        while not game.over:
            for me in range(game.seats):
                if me == game.dummy:
                    continue
                view = game.view(me)
                for hand in hand_knowledge(view):
                    real = Counter(game.hand(hand.seat))
                    assert not Counter(hand.known) - real, "a known card is really there"
                    assert len(hand.known) + hand.unknown == len(game.hand(hand.seat))
                    if variant.dummy is False and game.turn > players:
                        assert hand.complete, "after a full circle every hand is known"
                world = sample_game(view, rng)
                assert world.view(me) == view
                assert everything(world) == Counter(deck_counts(variant.soy_sauce))
            for seat in game.waiting_for():
                game.choose(seat, game.legal_choices(seat).sample(rng))


def test_the_hand_coming_is_the_one_passed_less_what_was_taken() -> None:
    game = Game(3, rng=random.Random(4))
    mine = list(game.hand(0))
    rng = random.Random(2)
    for seat in game.waiting_for():
        game.choose(seat, game.legal_choices(seat).sample(rng))
    # turn 2: seat 1 (to the left) holds what seat 0 passed
    view = game.view(0)
    passed = Counter(mine) - Counter(view.reveals[0].cards[0])
    knowledge = hand_knowledge(view)
    assert Counter(knowledge[1].known) == passed
    assert knowledge[1].complete and knowledge[1].since == 1
    assert knowledge[2].known == () and knowledge[2].unknown == 8
    assert knowledge[1].taken == ((1, view.reveals[0].cards[0]),)


def test_unseen_cards_exclude_everything_the_seat_has_traced() -> None:
    game = Game(4, rng=random.Random(9))
    view = game.view(0)
    pool = unseen(view, hand_knowledge(view))
    assert sum(pool.values()) == 108 - 8
    assert pool == Counter(deck_counts(0)) - Counter(game.hand(0))
