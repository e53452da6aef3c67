"""Bots choose legally; greedy takes the obvious points; the advisor sees
only its seat's view and says why."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest

from companion.games.sushigo.bots import Advisor, GreedyBot, RandomBot, Reason, table_advice
from companion.games.sushigo.cards import Card, deck_counts, hand_size
from companion.games.sushigo.draft import Choice, Game, Variant
from companion.games.sushigo.simulate import simulate

T, S, W, C, P = Card.TEMPURA, Card.SASHIMI, Card.WASABI, Card.CHOPSTICKS, Card.PUDDING
EGG, SALMON, SQUID = Card.EGG, Card.SALMON, Card.SQUID

QUICK = Advisor(budget=60.0, worlds=24)  # a fixed amount of look-ahead: deterministic


def stacked(hands: Sequence[Sequence[Card]]) -> list[Card]:
    rest = Counter(deck_counts(0))
    for hand in hands:
        rest.subtract(hand)
    deck = sorted(rest.elements(), key=lambda c: c.index)
    for hand in reversed(hands):
        deck.extend(reversed(hand))
    return deck


@pytest.mark.sampled
@pytest.mark.parametrize(
    ("players", "variant"),
    [(2, Variant()), (4, Variant(pass_both_ways=True)), (5, Variant(soy_sauce=3)),
     (2, Variant(dummy=True))],
)
@pytest.mark.parametrize("bot", [RandomBot(), GreedyBot(), QUICK], ids=lambda b: b.name)
def test_bots_play_whole_games_legally(
    players: int, variant: Variant, bot: RandomBot | GreedyBot | Advisor
) -> None:
    game = Game(players, rng=random.Random(players), variant=variant)
    rng = random.Random(1)
    while not game.over:
        for seat in game.waiting_for():
            choices = game.legal_choices(seat)
            choice = bot.choose(game.view(seat), choices, rng)
            assert choice in choices
            game.choose(seat, choice)


def test_greedy_puts_squid_on_its_open_wasabi_with_chopsticks() -> None:
    n = hand_size(2)
    first = [C, T, S, T, S, T, S, T, S, EGG]
    other = [W, SQUID, T, S, T, S, T, S, T, S]
    game = Game(2, deck=stacked([first, other]))
    game.choose(0, "p")
    game.choose(1, "x")
    # seat 0 has chopsticks on its table and now holds wasabi and squid
    assert {W, SQUID} <= set(game.hand(0)) and len(game.hand(0)) == n - 1
    choice = GreedyBot().choose(game.view(0), game.legal_choices(0), random.Random(0))
    assert choice.cards == (W, SQUID)


def test_greedy_completes_a_tempura_pair() -> None:
    n = hand_size(2)
    game = Game(2, deck=stacked([[T, *([S, Card.DUMPLING] * 5)][:n]] * 2))
    game.choose(0, "x")
    game.choose(1, "q")
    choice = GreedyBot().choose(game.view(0), game.legal_choices(0), random.Random(0))
    assert choice == Choice((T,))


def test_the_advisor_gives_salmon_on_wasabi_with_its_points() -> None:
    n = hand_size(2)
    first = [W, *([T] * (n - 1))]
    other = [SALMON, *([S] * (n - 1))]
    game = Game(2, deck=stacked([first, other]))
    game.choose(0, "t")
    game.choose(1, "q")
    advice = QUICK.advise(game.view(0), game.legal_choices(0), random.Random(3))
    assert advice.choice == Choice((SALMON,))
    assert advice.reason is Reason.NIGIRI_ON_WASABI
    assert advice.card is SALMON and advice.points == 6
    assert advice.worlds == 24


def test_the_advisor_never_sees_hidden_information() -> None:
    game = Game(4, rng=random.Random(21))
    rng = random.Random(5)
    for _ in range(2):
        for seat in game.waiting_for():
            game.choose(seat, game.legal_choices(seat).sample(rng))
    view = game.view(0)
    first = QUICK.advise(view, game.legal_choices(0), random.Random(7))
    # change every card seat 0 cannot see: the others' unseen hands and the pile
    hidden = [list(game._hands[s]) for s in (1, 2, 3)] + [list(game._pile)]
    pool = [c for part in hidden for c in part]
    random.Random(2).shuffle(pool)
    for s in (1, 2, 3):
        size = len(game._hands[s])
        game._hands[s][:] = pool[:size]
        del pool[:size]
    game._pile[:] = pool
    # turn 3 of 4 players: the hand at seat 3 is unseen, seats 1 and 2 are known;
    # a reshuffle can break those known hands, so only compare if still consistent
    again = game.view(0)
    assert again.hand == view.hand and again.tables == view.tables
    second = QUICK.advise(again, game.legal_choices(0), random.Random(7))
    assert second == first


@pytest.mark.slow
def test_the_advisor_beats_greedy_bots_in_a_short_series() -> None:
    results = simulate(["advisor", "greedy"], 6, seed=3)
    advisor, greedy = results.entrants
    assert advisor.mean_points > greedy.mean_points


def test_table_advice_puts_the_best_nigiri_on_an_open_wasabi() -> None:
    hand = (Card.EGG, Card.SQUID, Card.MAKI1, Card.TEMPURA)
    tables = [(Card.WASABI, Card.TEMPURA), (Card.MAKI3,), (Card.PUDDING,)]
    advice = table_advice(hand, tables, [0, 0, 0], 1, 0)
    assert advice.choice.cards == (Card.SQUID,)
    assert advice.reason is Reason.NIGIRI_ON_WASABI and advice.points == 9
    assert advice.worlds == 0


def test_table_advice_completes_a_tempura_pair_and_sees_chopsticks() -> None:
    hand = (Card.TEMPURA, Card.EGG)
    advice = table_advice(hand, [(Card.TEMPURA,), ()], [0, 0], 2, 0)
    assert advice.choice.cards == (Card.TEMPURA,)
    assert advice.reason is Reason.COMPLETES_TEMPURA and advice.points == 5
    both = table_advice((Card.SQUID, Card.SALMON, Card.EGG),
                        [(Card.CHOPSTICKS, Card.WASABI), ()], [0, 0], 1, 0)
    assert sorted(both.choice.cards, key=lambda c: c.index) == sorted(
        (Card.SQUID, Card.SALMON), key=lambda c: c.index)
