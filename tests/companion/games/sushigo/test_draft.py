"""The draft engine: full games, every variant, chopsticks and wasabi edge cases."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest

from companion.games.sushigo.bots import GreedyBot, RandomBot
from companion.games.sushigo.cards import Card, deck_counts, hand_size
from companion.games.sushigo.draft import (
    Choice,
    ChoiceProblem,
    Choices,
    Direction,
    Game,
    GameEnded,
    GameOverError,
    IllegalChoiceError,
    MalformedChoiceError,
    Revealed,
    RoundScored,
    SeatView,
    Variant,
)
from companion.games.sushigo.gamefile import read_game
from companion.games.sushigo.scoring import Line, score_round

T, S, D = Card.TEMPURA, Card.SASHIMI, Card.DUMPLING
M1, M2, M3 = Card.MAKI1, Card.MAKI2, Card.MAKI3
EGG, SALMON, SQUID = Card.EGG, Card.SALMON, Card.SQUID
P, W, C = Card.PUDDING, Card.WASABI, Card.CHOPSTICKS


PLAIN = Variant()


def stacked(hands: Sequence[Sequence[Card]], variant: Variant = PLAIN) -> list[Card]:
    """A whole deck whose first deal gives these hands (seat 0 first)."""
    rest = Counter(deck_counts(variant.soy_sauce))
    for hand in hands:
        rest.subtract(hand)
    assert all(n >= 0 for n in rest.values()), "more copies than the deck has"
    deck = sorted(rest.elements(), key=lambda c: c.index)
    for hand in reversed(hands):
        deck.extend(reversed(hand))
    return deck


def filler(n: int, *cards: Card) -> list[Card]:
    """A hand of ``n`` cards: these first, then tempura and sashimi."""
    more = [T, S] * n
    return [*cards, *more][:n]


def all_cards(game: Game) -> Counter[Card]:
    """Every card the game holds: pile, hands, tables and finished rounds."""
    return game.all_cards()


def random_game(
    players: int, seed: int, variant: Variant = PLAIN
) -> tuple[Game, list[object]]:
    """Play a game through the public API, checking invariants at every step."""
    rng = random.Random(seed)
    game = Game(players, rng=random.Random(seed * 7 + 1), variant=variant)
    full = Counter(deck_counts(variant.soy_sauce))
    events: list[object] = []
    while not game.over:
        if game.dummy is None:
            sizes = {len(game.hand(s)) for s in range(game.seats)}
            assert len(sizes) == 1, "every hand has the same size"
        for seat in game.waiting_for():
            choices = game.legal_choices(seat)
            choice = choices.sample(rng)
            assert choice in choices
            events.extend(game.choose(seat, choice))
            assert all_cards(game) == full
            assert all_cards(game)[C] == 4, "chopsticks are never lost nor made"
    return game, events


# -- whole games ------------------------------------------------------------------


VARIANTS = [
    (2, Variant()),
    (3, Variant()),
    (4, Variant()),
    (5, Variant()),
    (4, Variant(pass_both_ways=True)),
    (3, Variant(soy_sauce=3)),
    (5, Variant(soy_sauce=5, pass_both_ways=True)),
    (2, Variant(dummy=True)),
    (2, Variant(dummy=True, soy_sauce=2)),
]


@pytest.mark.parametrize(("players", "variant"), VARIANTS)
def test_random_games_end_and_score_like_the_rules_core(players: int, variant: Variant) -> None:
    for seed in range(40):
        game, events = random_game(players, seed, variant)
        assert game.over
        assert game.waiting_for() == ()
        ended = [e for e in events if isinstance(e, GameEnded)]
        assert len(ended) == 1
        scored = [e for e in events if isinstance(e, RoundScored)]
        assert [e.round for e in scored] == [1, 2, 3]
        # the breakdowns, made when read, are those of the tableaux
        assert [e.scores for e in scored] == [score_round(r) for r in game.finished_rounds]
        reveals = [e for e in events if isinstance(e, Revealed)]
        assert all(len(cards) == 1 + used for r in reveals
                   for cards, used in zip(r.cards, r.chopsticks, strict=True))
        # the engine's totals equal an independent scoring of its tableaux
        result = game.result()
        assert result.complete
        assert game.totals == result.totals == ended[0].score.totals
        assert game.winners == result.winners
        if game.dummy is not None:
            assert game.dummy not in game.winners


def test_the_last_card_is_played_by_itself() -> None:
    game = Game(4, rng=random.Random(5))
    rng = random.Random(9)
    for _ in range(hand_size(4) - 1):
        events: tuple[object, ...] = ()
        for seat in game.waiting_for():
            events = game.choose(seat, game.legal_choices(seat).sample(rng))
    reveals = [e for e in events if isinstance(e, Revealed)]
    assert len(reveals) == 2
    assert reveals[-1].automatic
    assert all(len(cards) == 1 for cards in reveals[-1].cards)
    assert game.round == 2 and game.turn == 1


def test_the_draw_pile_carries_over_and_puddings_stay() -> None:
    game = Game(5, rng=random.Random(2))
    assert len(game.draw_pile()) == 108 - 5 * 7
    rng = random.Random(1)
    while game.round == 1:
        for seat in game.waiting_for():
            game.choose(seat, game.legal_choices(seat).sample(rng))
    assert len(game.draw_pile()) == 108 - 2 * 5 * 7
    assert all(game.table(s) == () for s in range(5))


def test_same_seed_same_game() -> None:
    a, _ = random_game(4, 17)
    b, _ = random_game(4, 17)
    assert a.result() == b.result()


@pytest.mark.parametrize(("players", "variant"), VARIANTS)
def test_the_fast_playout_plays_exactly_as_choose_does(
    players: int, variant: Variant
) -> None:
    for seed in range(30):
        fast = Game(players, rng=random.Random(seed), variant=variant)
        fast.play_random(random.Random(seed + 1000))
        slow = Game(players, rng=random.Random(seed), variant=variant)
        rng = random.Random(seed + 1000)
        while not slow.over:
            for seat in slow.waiting_for():
                slow.choose(seat, slow.legal_choices(seat).sample(rng))
        assert fast.totals == slow.totals
        assert fast.result() == slow.result()


def test_a_playout_finishes_a_turn_already_under_way() -> None:
    game = Game(3, rng=random.Random(4))
    game.choose(0, game.legal_choices(0).sample(random.Random(0)))
    totals = game.play_random(random.Random(8))
    assert game.over and totals == game.result().totals


def test_final_scores_equal_what_the_score_command_reads() -> None:
    game, _ = random_game(3, 5, Variant(soy_sauce=3))
    result = game.result()
    rounds = [
        {name: [c.id for c in table] for name, table in zip("ABC", r, strict=True)}
        for r in game.finished_rounds
    ]
    data = {"players": list("ABC"), "rounds": rounds, "variant": {"soy_sauce": True}}
    assert read_game(data).score().totals == result.totals


# -- choices --------------------------------------------------------------------


def test_choices_can_be_counted_iterated_and_tested() -> None:
    hands = [
        [T, T, SQUID, W],
        [T, S, D, M1, M2, M3, EGG, SALMON],
        [C, C, P],
        [SQUID],
    ]
    for hand in hands:
        for chopsticks in (False, True):
            for dummy in (False, True):
                if dummy and len(hand) < 2:
                    continue
                choices = Choices(hand, chopsticks=chopsticks, dummy=dummy)
                listed = list(choices)
                assert len(listed) == len(set(listed)) == len(choices)
                assert all(c in choices for c in listed)


def test_choices_count_kinds_and_ordered_pairs() -> None:
    hand = [T, T, SQUID, W]
    assert len(Choices(hand, chopsticks=False, dummy=False)) == 3
    # 3 singles + ordered pairs: 3 * 3 - 2 (squid+squid and wasabi+wasabi) = 7
    assert len(Choices(hand, chopsticks=True, dummy=False)) == 10
    with_pairs = Choices(hand, chopsticks=True, dummy=False)
    assert Choice((W, SQUID)) in with_pairs
    assert Choice((T, T)) in with_pairs
    assert Choice((SQUID, SQUID)) not in with_pairs
    assert Choice((W, SQUID)) not in Choices(hand, chopsticks=False, dummy=False)
    assert "t" not in with_pairs


def test_sampling_is_uniform_over_the_choices() -> None:
    choices = Choices([T, T, SQUID, W, EGG], chopsticks=True, dummy=False)
    rng = random.Random(0)
    n = len(choices)
    draws = 40_000
    seen = Counter(choices.sample(rng) for _ in range(draws))
    assert set(seen) == set(choices)
    expected = draws / n
    # chi-square with n - 1 degrees of freedom; 99.9th percentile is well under 3n
    chi2 = sum((seen[c] - expected) ** 2 / expected for c in choices)
    assert chi2 < 3 * n


def test_a_choice_reads_and_writes_like_codes() -> None:
    assert Choice.parse("w2") == Choice((SALMON,))
    assert Choice.parse("t+w2") == Choice((W, SALMON))
    assert Choice.parse("t w2") == Choice((W, SALMON))
    assert Choice.parse("w2/o3") == Choice((SALMON,), M3)
    assert Choice.parse("salmon nigiri") == Choice((SALMON,))
    assert str(Choice((W, SALMON), M3)) == "t+w2/o3"
    assert eval(repr(Choice((W, SALMON))), {"Choice": Choice}) == Choice((W, SALMON))


@pytest.mark.parametrize("text", ["w4", "t+w2+x", "", "zz", "t+"])
def test_malformed_choices_say_so(text: str) -> None:
    with pytest.raises(MalformedChoiceError):
        Choice.parse(text)


# -- chopsticks -----------------------------------------------------------------


def chopsticks_game(second: Sequence[Card]) -> Game:
    """Two players; seat 0 opens with chopsticks, then holds ``second`` next turn."""
    n = hand_size(2)
    first = filler(n, C)
    # seat 1's hand comes to seat 0 on turn 2
    other = filler(n, T, *second)
    return Game(2, deck=stacked([first, other]))


def test_chopsticks_take_two_cards_and_go_back_into_the_hand_passed_on() -> None:
    game = chopsticks_game([W, SQUID])
    game.choose(0, "p")
    game.choose(1, "x")
    assert game.table(0) == (C,)
    assert W in game.hand(0) and SQUID in game.hand(0)
    game.choose(0, "t+w3")
    events = game.choose(1, "x")
    reveal = events[0]
    assert isinstance(reveal, Revealed)
    assert reveal.chopsticks == (True, False)
    assert reveal.cards[0] == (W, SQUID)
    assert game.table(0) == (W, SQUID)
    # the chopsticks went into the hand seat 0 passed on, now seat 1's
    assert C in game.hand(1)
    # wasabi then squid in one turn: the squid is on the wasabi
    lines = score_round([list(game.table(0)), list(game.table(1))])[0].lines
    nigiri = [line for line in lines if line.card is SQUID]
    assert nigiri and nigiri[0].on_wasabi and nigiri[0].points == 9


def test_no_chopsticks_no_two_cards() -> None:
    game = chopsticks_game([W, SQUID])
    with pytest.raises(IllegalChoiceError, match="no chopsticks on your table"):
        game.choose(0, "p+x")
    assert game.waiting_for() == (0, 1)


def test_chopsticks_cannot_be_used_the_turn_they_are_picked() -> None:
    game = chopsticks_game([W, SQUID])
    with pytest.raises(IllegalChoiceError):
        game.choose(0, "p+x")
    assert game.table(0) == ()


def test_one_chopsticks_use_a_turn_whatever_the_number() -> None:
    with pytest.raises(MalformedChoiceError):
        Choice.parse("x+q+s")
    game = chopsticks_game([W, SQUID])
    with pytest.raises(MalformedChoiceError):
        game.choose(0, Choice((C, T, S)))


def test_chopsticks_need_two_cards_in_hand() -> None:
    n = hand_size(2)
    game = Game(2, deck=stacked([filler(n, C), filler(n, T)]))
    rng = random.Random(0)
    game.choose(0, "p")
    game.choose(1, "x")
    while len(game.hand(0)) > 2:
        for seat in game.waiting_for():
            game.choose(seat, Choice((game.hand(seat)[0],)))
    assert C in game.table(0) and len(game.hand(0)) == 2
    assert game.legal_choices(0).chopsticks
    game.choose(0, Choice(tuple(game.hand(0))))
    game.choose(1, game.legal_choices(1).sample(rng))
    # now one card each: the last card is played by itself
    assert game.round == 2


def test_an_illegal_choice_changes_nothing() -> None:
    game = Game(3, rng=random.Random(1))
    hand = game.hand(0)
    missing = next(c for c in Card if c not in hand and c is not Card.SOY_SAUCE)
    with pytest.raises(IllegalChoiceError, match="your hand has no"):
        game.choose(0, Choice((missing,)))
    assert game.hand(0) == hand and game.waiting_for() == (0, 1, 2)


def test_a_seat_may_change_its_mind_until_the_reveal() -> None:
    game = Game(2, deck=stacked([filler(10, W, SQUID), filler(10)]))
    game.choose(0, "t")
    game.choose(0, "w3")
    game.choose(1, "x")
    assert game.table(0) == (SQUID,)


# -- wasabi -----------------------------------------------------------------------


def test_a_nigiri_goes_on_the_oldest_free_wasabi_only_if_it_came_first() -> None:
    scores = _score_table([SALMON, W, W, SQUID, EGG, EGG])
    by_card = {(line.card, line.on_wasabi): line.points for line in scores if line.card}
    assert by_card == {(SALMON, False): 2, (SQUID, True): 9, (EGG, True): 3, (EGG, False): 1}


def _score_table(table: list[Card]) -> tuple[Line, ...]:
    return score_round([table, []])[0].lines


# -- variants ---------------------------------------------------------------------


def test_pass_both_ways_sends_round_two_to_the_right() -> None:
    variant = Variant(pass_both_ways=True)
    game = Game(4, rng=random.Random(3), variant=variant)
    rng = random.Random(4)
    for expected_round, direction in ((1, Direction.LEFT), (2, Direction.RIGHT)):
        while game.round < expected_round:
            for seat in game.waiting_for():
                game.choose(seat, game.legal_choices(seat).sample(rng))
        assert game.direction is direction
        before = [list(game.hand(s)) for s in range(4)]
        picks = [Choice((before[s][0],)) for s in range(4)]
        for seat in range(4):
            game.choose(seat, picks[seat])
        for seat in range(4):
            left = before[seat]
            left.remove(picks[seat].cards[0])
            receiver = (seat + int(direction)) % 4
            assert Counter(game.hand(receiver)) == Counter(left)
    while game.round < 3:
        for seat in game.waiting_for():
            game.choose(seat, game.legal_choices(seat).sample(rng))
    assert game.direction is Direction.LEFT


def test_the_dummy_variant_deals_three_piles_of_nine() -> None:
    game = Game(2, rng=random.Random(1), variant=Variant(dummy=True))
    assert game.seats == 3 and game.dummy == 2
    # the controller has drawn the dummy's top card
    assert [len(game.hand(s)) for s in range(3)] == [10, 9, 8]
    assert game.controller == 0
    assert game.waiting_for() == (0, 1)


def test_the_dummy_controller_picks_for_both_and_control_alternates() -> None:
    game = Game(2, rng=random.Random(1), variant=Variant(dummy=True))
    hand0 = game.hand(0)
    with pytest.raises(IllegalChoiceError, match="also take a card for it"):
        game.choose(0, Choice((hand0[0],)))
    with pytest.raises(IllegalChoiceError, match="do not control the dummy"):
        game.choose(1, Choice((game.hand(1)[0],), game.hand(1)[1]))
    with pytest.raises(IllegalChoiceError, match="dummy does not choose"):
        game.choose(2, Choice((game.hand(2)[0],)))
    kept, given = hand0[0], hand0[1]
    game.choose(0, Choice((kept,), given))
    hand1 = game.hand(1)
    game.choose(1, Choice((hand1[0],)))
    assert game.table(2) == (given,)
    assert game.table(0) == (kept,)
    # hands swapped, the dummy pile stayed, and seat 1 now controls it
    assert game.controller == 1
    assert len(game.hand(1)) == 9  # 8 after the swap, plus the dummy's top card
    assert len(game.hand(2)) == 7


def test_control_of_the_dummy_keeps_alternating_across_rounds() -> None:
    game = Game(2, rng=random.Random(6), variant=Variant(dummy=True))
    rng = random.Random(6)
    controllers: list[tuple[int, int | None]] = []
    while not game.over:
        if game.turn == 1 and controllers[-1:] != [(game.round, game.controller)]:
            controllers.append((game.round, game.controller))
        for seat in game.waiting_for():
            game.choose(seat, game.legal_choices(seat).sample(rng))
    # nine turns a round: each round starts with the other player
    assert controllers == [(1, 0), (2, 1), (3, 0)]


def test_the_dummy_is_scored_but_never_wins() -> None:
    for seed in range(30):
        game, _ = random_game(2, seed, Variant(dummy=True))
        result = game.result()
        assert len(result.totals) == 3
        assert 2 not in result.winners
        # three seats are scored, so the pudding penalty applies
        assert result.pudding is not None


def test_soy_sauce_cards_join_the_deck() -> None:
    game = Game(5, rng=random.Random(2), variant=Variant(soy_sauce=4))
    cards = Counter(game.draw_pile())
    for seat in range(5):
        cards.update(game.hand(seat))
    assert cards[Card.SOY_SAUCE] == 4
    assert sum(cards.values()) == 112


# -- what a seat may know --------------------------------------------------------------


def test_a_view_never_shows_another_seats_hand() -> None:
    game = Game(4, rng=random.Random(12))
    rng = random.Random(3)
    for _ in range(3):
        for seat in game.waiting_for():
            game.choose(seat, game.legal_choices(seat).sample(rng))
    view = game.view(0)
    # shuffle the hidden hands of the other seats among them: seat 0's view
    # must not change, so nothing in it depends on them
    hidden = [list(game._hands[s]) for s in (1, 2, 3)]
    pooled = [c for h in hidden for c in h]
    random.Random(1).shuffle(pooled)
    size = len(hidden[0])
    for i, s in enumerate((1, 2, 3)):
        game._hands[s][:] = pooled[i * size : (i + 1) * size]
    game._pile.reverse()
    assert game.view(0) == view
    assert view.hand == game.hand(0)
    assert len(view.held) == 4
    assert view.held[-1] == (4, game.hand(0))


def test_a_view_keeps_its_moment_and_a_live_view_follows_the_game() -> None:
    game = Game(3, rng=random.Random(8))
    rng = random.Random(2)
    live = game.live_view(1)
    before = game.view(1)
    kept = repr(before)
    assert before.tables == ((), (), ()) and live == before
    for seat in game.waiting_for():
        game.choose(seat, game.legal_choices(seat).sample(rng))  # the reveal
    assert repr(before) == kept and before.turn == 1
    assert live == game.view(1) != before
    assert live.turn == 2 and all(len(table) == 1 for table in live.tables)
    assert live.held == game.view(1).held and len(live.held) == 2
    with pytest.raises(ValueError, match="not a player's seat"):
        game.live_view(3)


def test_a_live_view_never_shows_another_seats_hand() -> None:
    game = Game(4, rng=random.Random(12))
    rng = random.Random(3)
    for _ in range(3):
        for seat in game.waiting_for():
            game.choose(seat, game.legal_choices(seat).sample(rng))
    live = game.live_view(0)
    seen = repr(live)
    hidden = [list(game._hands[s]) for s in (1, 2, 3)]
    pooled = [c for h in hidden for c in h]
    random.Random(1).shuffle(pooled)
    size = len(hidden[0])
    for i, s in enumerate((1, 2, 3)):
        game._hands[s][:] = pooled[i * size : (i + 1) * size]
    game._pile.reverse()
    game._moves += 1  # as if the game had moved: the live view looks again
    assert repr(live) == seen


# -- whole games through the bots' own API ----------------------------------------------


class Recorder:
    """Chooses as a bot does, keeping what it was shown at each decision:
    the view's fields as they were, and the legal choices."""

    def __init__(self, bot: RandomBot | GreedyBot) -> None:
        self.bot = bot
        self.seen: list[tuple[tuple[object, ...], list[Choice], bool, bool]] = []

    def choose(self, view: SeatView, choices: Choices, rng: random.Random) -> Choice:
        fields = tuple(getattr(view, name) for name in SeatView.FIELDS)
        self.seen.append((fields, list(choices), choices.chopsticks, choices.dummy))
        return self.bot.choose(view, choices, rng)


@pytest.mark.parametrize(("players", "variant"), VARIANTS)
def test_play_bots_is_the_game_chosen_seat_after_seat(players: int, variant: Variant) -> None:
    """play_bots() gives the bots the same views and choices, and plays the
    same game, as asking each seat in turn with view(), legal_choices() and
    choose()."""
    for seed in range(8):
        lineups = [[Recorder(RandomBot() if (seat + seed) % 3 else GreedyBot())
                    for seat in range(players)] for _ in range(2)]
        rng = random.Random(seed)
        quick = Game(players, rng=rng, variant=variant)
        totals = quick.play_bots([bot.choose for bot in lineups[0]], rng)
        rng = random.Random(seed)
        slow = Game(players, rng=rng, variant=variant)
        while not slow.over:
            for seat in slow.waiting_for():
                bot = lineups[1][seat]
                slow.choose(seat, bot.choose(slow.view(seat), slow.legal_choices(seat), rng))
        assert totals == slow.totals and quick.winners == slow.winners
        assert quick.result() == slow.result()
        assert [b.seen for b in lineups[0]] == [b.seen for b in lineups[1]]
        assert sum(len(b.seen) for b in lineups[0]) > 0


def test_play_bots_refuses_a_choice_the_rules_do_not_allow() -> None:
    def absent(view: SeatView, choices: Choices, rng: random.Random) -> Choice:
        missing = next(card for card in Card if card.index not in view.hand_numbers)
        return Choice((missing,))

    def two(view: SeatView, choices: Choices, rng: random.Random) -> Choice:
        return Choice(view.hand[:2])

    for decider, problem in ((absent, ChoiceProblem.NOT_IN_HAND),
                             (two, ChoiceProblem.NO_CHOPSTICKS)):
        game = Game(3, rng=random.Random(6))
        with pytest.raises(IllegalChoiceError) as refused:
            game.play_bots([decider] * 3, random.Random(1))
        assert refused.value.problem is problem
        assert game.turn == 1 and game.table(0) == ()
    with pytest.raises(ValueError, match="one decider a player"):
        Game(3, rng=random.Random(6)).play_bots([absent], random.Random(1))


def test_the_game_over_refuses_more_choices() -> None:
    game, _ = random_game(3, 1)
    with pytest.raises(GameOverError):
        game.choose(0, "x")


# -- thousands of games --------------------------------------------------------------


@pytest.mark.sampled
@pytest.mark.parametrize(("players", "variant"), VARIANTS)
def test_thousands_of_fast_games_keep_every_card_and_end(players: int, variant: Variant) -> None:
    rng = random.Random(players * 7 + variant.soy_sauce)
    full = Counter(deck_counts(variant.soy_sauce))
    for _ in range(500):
        game = Game(players, rng=rng, variant=variant)
        totals = game.play_random(rng)
        assert game.over and game.round == 3
        seen: Counter[Card] = Counter(game.draw_pile())
        for tables in game.finished_rounds:
            assert len(tables) == game.seats
            for table in tables:
                seen.update(table)
        assert seen == full
        assert all(len(t) == hand_size(game.seats) for r in game.finished_rounds for t in r)
        assert totals == game.result().totals


def test_live_totals_add_this_rounds_tables_as_they_stand() -> None:
    rng = random.Random(5)
    game = Game(3, rng=rng)
    while not game.over:
        now = score_round([game.table(seat) for seat in range(game.seats)])
        assert game.live_totals == tuple(
            total + score.points for total, score in zip(game.totals, now, strict=True))
        for seat in game.waiting_for():
            game.choose(seat, game.legal_choices(seat).sample(rng))
    assert game.live_totals == game.totals
