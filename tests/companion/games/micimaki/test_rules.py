"""Mici Maki's rules engine: each move and ruling on a table set up by
hand, refusals that change nothing, and whole random games that end,
keep every card and agree with the plain simulator of the same rules."""

from __future__ import annotations

import copy
import random
import statistics

import pytest

from companion.games.micimaki.rules import (
    ADD,
    CARDS,
    CHOOSE,
    EAT,
    EXTRA,
    OVER,
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
    View,
    hand_cards,
    playout,
    random_game,
)
from companion.games.micimaki.yardstick import plain_game

#: A view's fields, in order.
FIELDS = View.__dataclass_fields__.keys()


def table(players: int = 3, *, hands: list[list[int]], draw: list[int],
          discard: list[int] | None = None, first: int = 0) -> Game:
    """A game whose hands and draw pile (top last) are as given; every other
    card of the deck is in the discard pile unless ``discard`` says."""
    game = Game(Setup(players=players), random.Random(0), first=first)
    game.hands = [[0] * (OVEREATING + 1) for _ in range(players)]
    for seat, cards in enumerate(hands):
        for card in cards:
            game.hands[seat][card] += 1
    game.sizes = [len(cards) for cards in hands]
    game.draw = list(draw)
    game.overeating = draw.count(OVEREATING)
    if discard is None:
        rest = Setup(players=players).deck()
        for card in [c for cards in hands for c in cards] + draw:
            if card != OVEREATING:
                rest.remove(card)
        discard = rest
    game.discard = list(discard)
    game.pile, game.food, game.value = [], 0, 0
    game.turn, game.direction, game.phase = first, 1, PILE
    return game


def test_a_pile_is_served_and_eaten_and_the_eater_starts_the_next() -> None:
    game = table(hands=[[4, 4, 2], [4, 6], [PLUS, 3]], draw=[5, 5, 5, 5, 5, 5, 7, 7, 7, 7])
    game.play((START, 4))
    assert (game.food, game.value, game.turn, game.phase) == (4, 4, 1, TURN)
    game.play((SERVE, 4))
    assert (game.food, game.value, game.turn) == (4, 8, 2)
    game.play((PLAY, PLUS))  # "+1 food" on the food: one more to eat
    assert (game.food, game.value, game.turn) == (4, 9, 0)
    game.play((EAT, 0))
    assert hand_cards(game.hands[0]) == [2, 4, 5, 5, 5, 5, 5, 7, 7, 7, 7]
    assert (game.phase, game.turn, game.pile, game.value) == (PILE, 0, [], 0)
    assert game.discard[-3:] == [4, 4, PLUS] and game.tokens == [0, 0, 0]


def test_serving_the_wrong_food_is_refused_and_changes_nothing() -> None:
    game = table(hands=[[6], [5, 3, 3], [2]], draw=[7] * 10)
    game.play((START, 6))
    before = copy.deepcopy({k: v for k, v in game.__dict__.items() if k != "rng"})
    assert game.refusal((SERVE, 5)) == Refusal("serve", {"food": 6})
    with pytest.raises(IllegalMove) as refused:
        game.play((SERVE, 5))
    assert refused.value.refusal.code == "serve"
    assert game.refusal((SKIP, 5)) == Refusal("pair", {"card": 5})
    assert game.refusal((PLAY, REVERSE)) == Refusal("card", {"card": REVERSE})
    assert game.refusal((START, 3)) == Refusal("phase")
    assert game.refusal((CHOOSE, 2)) == Refusal("card", {"card": CHOOSE})
    assert {k: v for k, v in game.__dict__.items() if k != "rng"} == before
    assert sorted(game.legal_moves()) == [(EAT, 0), (SKIP, 3)]


def test_an_action_on_an_action_and_the_food_in_play_beneath() -> None:
    game = table(hands=[[5, 5], [PLUS, 2], [PLUS, 2], [5]], players=4, draw=[7] * 10)
    game.play((START, 5))
    game.play((PLAY, PLUS))
    game.play((PLAY, PLUS))  # on another action
    assert (game.food, game.value, game.turn) == (5, 7, 3)
    game.play((SERVE, 5))  # the topmost food is still a 5
    assert (game.food, game.value) == (5, 12)


def test_reverse_and_choose_set_who_plays_next() -> None:
    game = table(players=5, hands=[[3, 2], [REVERSE, 2], [2], [2], [CHOOSE, 2]], draw=[7] * 10)
    game.play((START, 3))
    game.play((PLAY, REVERSE))
    assert (game.direction, game.turn) == (-1, 0)
    assert game.refusal((CHOOSE, 0)) == Refusal("card", {"card": CHOOSE})
    game.turn = 4  # the player holding "choose"
    assert game.refusal((CHOOSE, 4)) == Refusal("choose", {"seat": 4})
    game.play((CHOOSE, 1))  # the player who played before may be named
    assert (game.turn, game.direction) == (1, -1)


def test_skipping_the_food_changes_it_and_discards_the_pile() -> None:
    game = table(hands=[[6], [3, 3, 4], [2]], draw=[7] * 10)
    game.play((START, 6))
    game.play((SKIP, 3))
    assert (game.pile, game.food, game.value, game.turn) == ([3], 3, 3, 2)
    assert game.discard[-2:] == [6, 3]
    assert game.sizes[1] == 1


def test_overeating_ends_the_round_one_token_per_eat() -> None:
    game = table(hands=[[7], [4], [2]], draw=[2, OVEREATING, 5, 3, 3, 3, 3, OVEREATING])
    game.play((START, 7))
    game.play((EAT, 0))  # 7 cards: two overeating cards among them, the last drawn too
    assert game.tokens == [0, 1, 0]
    assert hand_cards(game.hands[1]) == [3, 3, 3, 3, 4, 5]  # the rest goes to hand
    assert (game.phase, game.turn) == (ADD, 1)
    assert game.legal_moves() == [(EXTRA, 1), (EXTRA, 0)]
    game.play((EXTRA, 1))
    assert game.overeating == 3 and game.draw.count(OVEREATING) == 3
    assert (game.phase, game.turn, game.direction, game.round) == (PILE, 1, 1, 2)
    assert not game.discard and not game.pile


def test_the_round_starts_clockwise_again() -> None:
    game = table(hands=[[3], [3, 5], [REVERSE, 4]], draw=[OVEREATING, 2, 2])
    game.play((START, 3))
    game.play((SERVE, 3))
    game.play((PLAY, REVERSE))
    assert (game.direction, game.turn) == (-1, 1)
    game.play((EAT, 0))
    game.play((EXTRA, 0))
    assert (game.direction, game.turn, game.overeating) == (1, 1, 1)


def test_eating_across_a_reshuffle_of_the_discard_pile() -> None:
    game = table(hands=[[6], [2, 2], [2]], draw=[5, 5], discard=[7, 7, 7, 7, 7, 7])
    game.play((START, 6))
    game.play((EAT, 0))
    assert hand_cards(game.hands[1]) == [2, 2, 5, 5, 7, 7, 7, 7]
    assert game.draw == [7, 7] and game.phase == PILE  # no overeating card anywhere


def test_an_empty_hand_draws_three_and_an_overeating_card_stops_it() -> None:
    game = table(hands=[[4], [], [2]], draw=[5, OVEREATING, 6])
    game.play((START, 4))  # the next player's hand is empty: 6, then the overeating card
    assert game.tokens == [0, 1, 0]
    assert hand_cards(game.hands[1]) == [6] and game.draw == [5]
    assert game.events[-1].kind == "overate" and game.events[0].cards == (6, OVEREATING)


def test_a_starter_with_no_food_draws_until_food_comes() -> None:
    game = table(hands=[[CHOOSE, PLUS], [3], [2]], draw=[2, 2, 5, REVERSE, PLUS])
    game._prepare()  # what every move ends with: the next turn's draws
    assert sorted(hand_cards(game.hands[0])) == sorted([CHOOSE, PLUS, PLUS, REVERSE, 5])
    assert game.draw == [2, 2] and game.events[-1].cards == (PLUS, REVERSE, 5)
    assert game.legal_moves() == [(START, 5)]


def test_the_third_token_ends_the_game_ties_by_cards_in_hand() -> None:
    game = table(hands=[[4], [5], [2, 3]], draw=[6] * 8 + [OVEREATING])
    game.tokens = [0, 2, 0]
    game.play((START, 4))
    game.play((EAT, 0))  # seat 1 turns up the overeating card first: its third token
    assert game.phase == OVER and game.tokens == [0, 3, 0]
    assert game.winners == (2,)  # seats 0 and 2 have no token: 2 holds more cards
    assert game.legal_moves() == [] and game.refusal((EAT, 0)) == Refusal("over")


def test_a_tie_on_tokens_and_cards_is_shared() -> None:
    game = table(hands=[[4, 2, 3], [5], [2, 3]], draw=[6] * 8 + [OVEREATING])
    game.tokens = [1, 2, 1]
    game.play((START, 4))
    game.play((EAT, 0))
    assert game.phase == OVER and game.sizes[0] == game.sizes[2] == 2
    assert game.winners == (0, 2)


def test_a_seventh_overeating_card_is_never_added() -> None:
    game = table(hands=[[4], [5], [2]], draw=[6, 6, 6, 6] + [OVEREATING] * 6)
    game.play((START, 4))
    game.play((EAT, 0))  # four overeating cards turned up: six in the game already
    assert game.overeating == 6 and game.phase == PILE and game.round == 2
    assert game.refusal((EXTRA, 1)) == Refusal("phase")


def test_a_view_shows_only_what_that_seat_may_know() -> None:
    game = Game(Setup(players=4), random.Random(9))
    view = game.view(2)
    assert view.hand == tuple(game.hands[2]) and view.hand_sizes == (5, 5, 5, 5)
    assert view.draw == len(game.draw) and view.overeating == 1
    assert not hasattr(view, "hands")


def test_a_live_view_is_the_view_of_the_moment_and_hides_the_other_hands() -> None:
    for seed in range(20):
        rng = random.Random(seed)
        game = Game(Setup(players=3 + seed % 5), rng)
        live = [game.live_view(seat) for seat in range(game.players)]
        first = game.view(1)
        while game.phase != OVER:
            for seat, view in enumerate(live):
                now = game.view(seat)
                assert view.snapshot() == now and view == now
                assert all(getattr(view, name) == getattr(now, name) for name in FIELDS)
            # the other seats' hidden cards, dealt again among them, change
            # nothing a seat's live view says
            others = [s for s in range(game.players) if s != game.turn]
            before = live[game.turn].snapshot()
            pooled = [card for s in others for card in hand_cards(game.hands[s])]
            rng.shuffle(pooled)
            for s in others:
                game.hands[s] = [0] * (OVEREATING + 1)
                for _ in range(game.sizes[s]):
                    game.hands[s][pooled.pop()] += 1
            game.draw.reverse()
            assert live[game.turn].snapshot() == before
            moves = game.legal_moves()
            game.play(moves[rng.randrange(len(moves))])
        # a view keeps its moment
        assert first == Game(Setup(players=3 + seed % 5), random.Random(seed)).view(1)
        assert first != game.view(1)
    with pytest.raises(ValueError, match="no seat 3"):
        Game(Setup(players=3), random.Random(1)).live_view(3)


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_random_games_end_and_keep_every_card(players: int) -> None:
    setup = Setup(players=players)
    for seed in range(40):
        counts = list(playout(setup, random.Random(seed)))
        deck = {card: setup.deck().count(card) for card in CARDS if card != OVEREATING}
        for count in counts:
            assert {card: count[card] for card in deck} == deck
            assert 1 <= count[OVEREATING] <= 6
        game = random_game(setup, random.Random(seed))
        assert game.phase == OVER and max(game.tokens) == 3 and game.winners
        assert all(game.tokens[s] == min(game.tokens) for s in game.winners)


def test_the_action_split_is_a_setup_option() -> None:
    setup = Setup(players=3, plus=4, reverse=6, choose=7)
    assert setup.deck().count(PLUS) == 4 and setup.deck().count(CHOOSE) == 7
    assert random_game(setup, random.Random(1)).phase == OVER
    assert Setup(players=2).problem() == Refusal("players", {"players": 2, "fewest": 3,
                                                             "most": 7})
    with pytest.raises(IllegalMove):
        Game(Setup(players=8), random.Random(1))


def test_the_engine_and_the_plain_simulator_play_the_same_game() -> None:
    """Two independent writings of the rules: over 300 random games each,
    the mean turns and rounds agree (seeded: the same figures every run)."""
    for players in (3, 5, 7):
        engine = [random_game(Setup(players=players), random.Random(seed))
                  for seed in range(300)]
        plain = [plain_game(players, random.Random(10_000 + seed)) for seed in range(300)]
        turns = statistics.mean(g.turns for g in engine)
        plain_turns = statistics.mean(int(str(r["turns"])) for r in plain)
        rounds = statistics.mean(g.round for g in engine)
        plain_rounds = statistics.mean(int(str(r["rounds"])) for r in plain)
        assert abs(turns - plain_turns) < 0.1 * plain_turns, (players, turns, plain_turns)
        assert abs(rounds - plain_rounds) < 0.1 * plain_rounds, (players, rounds, plain_rounds)
