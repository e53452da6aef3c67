"""Scoring, table-driven from the rulebooks' worked examples and the digest's rulings.

Expected points are written by hand from the rulebooks (seeds 000, 001, 003)
and the rules digest; none is computed by the code under test.
"""

from __future__ import annotations

import pytest

from companion.games.sushigo.cards import Card
from companion.games.sushigo.scoring import (
    GameScore,
    Line,
    LineKind,
    Place,
    SeatScore,
    colours,
    dumpling_points,
    maki_places,
    round_points,
    score_game,
    score_puddings,
    score_round,
    split,
    tally,
    winners,
)

Tableau = list[Card]


def t(text: str = "") -> Tableau:
    """A tableau from canonical ids separated by spaces, in play order."""
    return [Card.from_id(word) for word in text.split()]


def points(tableaux: list[Tableau]) -> list[int]:
    """Every seat's points, the same by the breakdown and by the fast path."""
    breakdown = [seat.points for seat in score_round(tableaux)]
    fast = round_points([tally(card.index for card in tableau) for tableau in tableaux])
    assert fast == breakdown
    return breakdown


def alone(tableau: Tableau) -> int:
    """One seat's points with an empty second seat (no maki rivals)."""
    return points([tableau, []])[0]


def lines_of(score: SeatScore) -> set[Line]:
    return set(score.lines)


# -- tempura, sashimi, dumplings ----------------------------------------------------


@pytest.mark.parametrize(
    ("count", "expected"),
    # "Sada 2 karet tempura se počítá za 5 bodů. Jedna karta tempura nemá žádnou hodnotu.
    # Během kola můžeš získat body za více sad."
    [(0, 0), (1, 0), (2, 5), (3, 5), (4, 10), (5, 10), (6, 15), (9, 20), (10, 25)],
)
def test_tempura_pairs(count: int, expected: int) -> None:
    assert alone([Card.TEMPURA] * count) == expected


@pytest.mark.parametrize(
    ("count", "expected"),
    # "Sada 3 karet sashimi se počítá za 10 bodů. Jedna karta sashimi nebo sada
    # jen 2 karet nemají žádnou hodnotu."
    [(0, 0), (1, 0), (2, 0), (3, 10), (4, 10), (5, 10), (6, 20), (8, 20), (9, 30)],
)
def test_sashimi_sets(count: int, expected: int) -> None:
    assert alone([Card.SASHIMI] * count) == expected


@pytest.mark.parametrize(
    ("count", "expected"),
    # "Knedlíčky: 1 2 3 4 5 a více / Body: 1 3 6 10 15"
    [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (5, 15), (6, 15), (7, 15), (10, 15)],
)
def test_dumplings(count: int, expected: int) -> None:
    assert alone([Card.DUMPLING] * count) == expected
    assert dumpling_points(count) == expected


def test_sets_do_not_mix() -> None:
    # one tempura and one sashimi and nothing else: no set of either
    assert alone(t("tempura sashimi")) == 0
    # 2 tempura + 3 sashimi + 2 dumplings = 5 + 10 + 3
    assert alone(t("tempura sashimi dumpling tempura sashimi dumpling sashimi")) == 18


# -- nigiri and wasabi --------------------------------------------------------------


@pytest.mark.parametrize(
    ("tableau", "expected"),
    [
        # "Nigiri s chobotnicí se počítá za 3 body. Pokud se nachází navrchu karty
        # wasabi, počítá se za 9 bodů." Salmon 2 / 6, egg 1 / 3.
        ("squid", 3),
        ("salmon", 2),
        ("egg", 1),
        ("wasabi squid", 9),
        ("wasabi salmon", 6),
        ("wasabi egg", 3),
        # "Karta wasabi, na které není žádné nigiri, se nepočítá."
        ("wasabi", 0),
        ("wasabi wasabi wasabi", 0),
        # "Karta hůlky se nepočítá."
        ("chopsticks", 0),
        ("chopsticks chopsticks", 0),
        # only a nigiri played after the wasabi goes on it
        ("squid wasabi", 3),
        ("salmon wasabi egg", 2 + 3),
        # one nigiri per wasabi: the second nigiri is plain
        ("wasabi squid squid", 9 + 3),
        ("wasabi egg squid", 3 + 3),
        # several wasabi, each takes one nigiri
        ("wasabi wasabi egg squid", 3 + 9),
        ("wasabi wasabi egg squid salmon", 3 + 9 + 2),
        ("wasabi egg wasabi squid", 3 + 9),
        ("wasabi squid wasabi", 9),
        ("wasabi wasabi wasabi squid squid squid", 27),
        ("squid squid wasabi wasabi", 6),
        ("egg wasabi squid wasabi salmon", 1 + 9 + 6),
        # wasabi is not a nigiri, and nothing else goes on a wasabi
        ("wasabi tempura tempura squid", 5 + 9),
        ("wasabi maki3 egg", 3 + 6),
    ],
)
def test_nigiri_and_wasabi(tableau: str, expected: int) -> None:
    assert alone(t(tableau)) == expected


def test_wasabi_breakdown_says_which_nigiri_are_tripled() -> None:
    score = score_round([t("salmon wasabi wasabi squid egg egg wasabi"), []])[0]
    assert score.points == 2 + 9 + 3 + 1
    assert lines_of(score) == {
        Line(LineKind.NIGIRI, 1, 2, card=Card.SALMON, on_wasabi=False),
        Line(LineKind.NIGIRI, 1, 9, card=Card.SQUID, on_wasabi=True),
        Line(LineKind.NIGIRI, 1, 3, card=Card.EGG, on_wasabi=True),
        Line(LineKind.NIGIRI, 1, 1, card=Card.EGG, on_wasabi=False),
        Line(LineKind.WASABI, 1, 0),
    }


# -- maki ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("icons", "expected"),
    [
        # The rulebooks' example (Karel/Filip/Jana/Linda, Bertrand/Paul/Manon/Elisa,
        # Chris/Phil/Amy/Lisa): 5, 3, 3, 2 icons -> 6, 1, 1, 0
        ([5, 3, 3, 2], [6, 1, 1, 0]),
        ([2, 3, 5, 3], [0, 1, 6, 1]),
        # most and second most, no ties
        ([5, 3], [6, 3]),
        ([1, 6, 2], [0, 6, 3]),
        ([7, 4, 3, 2, 1], [6, 3, 0, 0, 0]),
        # a tie for first splits 6 (remainder dropped) and no second place is awarded
        ([4, 4, 1], [3, 3, 0]),
        ([4, 4], [3, 3]),
        ([3, 3, 3], [2, 2, 2]),
        ([3, 3, 3, 2], [2, 2, 2, 0]),
        ([2, 2, 2, 2], [1, 1, 1, 1]),
        ([1, 1, 1, 1, 1], [1, 1, 1, 1, 1]),
        ([6, 6, 6, 6, 1], [1, 1, 1, 1, 0]),
        # a tie for second splits 3, remainder dropped
        ([5, 2, 2, 2], [6, 1, 1, 1]),
        ([9, 1, 1, 1, 1], [6, 0, 0, 0, 0]),
        ([9, 4, 4, 0, 1], [6, 1, 1, 0, 0]),
        # Ruling: a seat with no icons places nowhere
        ([3, 0, 0], [6, 0, 0]),
        ([3, 0], [6, 0]),
        ([0, 0, 0], [0, 0, 0]),
        ([0, 2, 0, 2], [0, 3, 0, 3]),
        ([0, 1, 0, 3, 0], [0, 3, 0, 6, 0]),
    ],
)
def test_maki_majority(icons: list[int], expected: list[int]) -> None:
    assert [pts for _, _, pts in maki_places(icons)] == expected


@pytest.mark.parametrize(
    ("icons", "expected"),
    [
        ([5, 3, 3, 2], [(Place.FIRST, 1), (Place.SECOND, 2), (Place.SECOND, 2), (Place.NONE, 0)]),
        ([4, 4, 1], [(Place.FIRST, 2), (Place.FIRST, 2), (Place.NONE, 0)]),
        ([3, 0], [(Place.FIRST, 1), (Place.NONE, 0)]),
        ([0, 0], [(Place.NONE, 0), (Place.NONE, 0)]),
    ],
)
def test_maki_places_and_ties(icons: list[int], expected: list[tuple[Place, int]]) -> None:
    assert [(place, tied) for place, tied, _ in maki_places(icons)] == expected


def test_maki_example_from_cards() -> None:
    # 5 icons: maki3 + maki2; 3 icons: maki3 / maki1 + maki2; 2 icons: maki1 + maki1
    tableaux = [t("maki3 maki2"), t("maki3"), t("maki1 maki2"), t("maki1 maki1")]
    assert points(tableaux) == [6, 1, 1, 0]
    scores = score_round(tableaux)
    assert scores[0].lines == (
        Line(LineKind.MAKI, 2, 6, icons=5, place=Place.FIRST, tied=1),
    )
    assert scores[1].lines == (
        Line(LineKind.MAKI, 1, 1, icons=3, place=Place.SECOND, tied=2),
    )
    assert scores[2].lines == (
        Line(LineKind.MAKI, 2, 1, icons=3, place=Place.SECOND, tied=2),
    )
    assert scores[3].lines == (Line(LineKind.MAKI, 2, 0, icons=2),)


def test_maki_only_counts_icons_not_cards() -> None:
    # three maki1 cards (3 icons) lose to one maki3 card... no: they tie
    assert points([t("maki1 maki1 maki1"), t("maki3")]) == [3, 3]
    # four maki1 (4 icons) beat one maki3
    assert points([t("maki1 maki1 maki1 maki1"), t("maki3")]) == [6, 3]


def test_nobody_with_maki_scores_no_maki() -> None:
    scores = score_round([t("tempura"), t("squid"), t()])
    assert [s.points for s in scores] == [0, 3, 0]
    assert all(line.kind is not LineKind.MAKI for s in scores for line in s.lines)


# -- soy sauce (variant) --------------------------------------------------------------


@pytest.mark.parametrize(
    ("tableaux", "expected"),
    [
        # the soy sauce player has the most colours at the table: 4
        (["soy-sauce tempura sashimi", "tempura sashimi"], [4, 0]),
        # fewer colours than someone else: 0 (soy sauce counts as a colour: 2 vs 3)
        (["soy-sauce tempura", "tempura sashimi dumpling"], [0, 1]),
        # ties included: as many colours as the best non-soy seat still scores 4
        (["soy-sauce tempura", "tempura sashimi"], [4, 0]),
        # soy sauce players tied for most split the 4
        (["soy-sauce tempura", "soy-sauce sashimi"], [2, 2]),
        (["soy-sauce tempura", "soy-sauce sashimi", "soy-sauce chopsticks"], [1, 1, 1]),
        (
            ["soy-sauce tempura", "soy-sauce sashimi", "soy-sauce chopsticks",
             "soy-sauce pudding"],
            [1, 1, 1, 1],
        ),
        # the one with more colours takes it all
        (["soy-sauce tempura chopsticks", "soy-sauce sashimi"], [4, 0]),
        # at most one soy sauce per player and round
        (["soy-sauce soy-sauce tempura", "sashimi"], [4, 0]),
        (["soy-sauce soy-sauce soy-sauce", "sashimi"], [4, 0]),
        # nigiri and wasabi are one colour; the three maki are one colour
        # (the egg is played before the wasabi: 1; the salmon goes on it: 6)
        (["soy-sauce egg wasabi salmon", "tempura sashimi"], [4 + 1 + 6, 0]),
        (["soy-sauce wasabi egg", "tempura sashimi dumpling"], [3, 1]),
        (["soy-sauce maki1 maki2 maki3", "maki1 tempura"], [4 + 6, 3]),
        (["soy-sauce maki1 maki2 maki3", "maki1 tempura sashimi"], [6, 3]),
        # 8 colours: tempura, sashimi, dumpling, maki, nigiri, pudding, chopsticks, soy
        (
            ["soy-sauce tempura sashimi dumpling maki1 egg pudding chopsticks",
             "soy-sauce tempura sashimi dumpling maki1 egg pudding"],
            # soy 4 / 0, dumpling 1, maki tied at 1 icon: 3 each, egg 1
            [4 + 1 + 3 + 1, 0 + 1 + 3 + 1],
        ),
    ],
)
def test_soy_sauce(tableaux: list[str], expected: list[int]) -> None:
    assert points([t(x) for x in tableaux]) == expected


@pytest.mark.parametrize(
    ("tableau", "expected"),
    [
        ("", 0),
        ("tempura", 1),
        ("tempura tempura tempura", 1),
        ("egg salmon squid wasabi", 1),
        ("maki1 maki2 maki3", 1),
        ("tempura sashimi dumpling maki2 squid pudding chopsticks soy-sauce", 8),
        ("wasabi chopsticks", 2),
    ],
)
def test_colours(tableau: str, expected: int) -> None:
    assert colours(t(tableau)) == expected


def test_soy_sauce_breakdown() -> None:
    scores = score_round([t("soy-sauce soy-sauce tempura"), t("soy-sauce sashimi")])
    assert Line(
        LineKind.SOY_SAUCE, 2, 2, colours=2, place=Place.FIRST, tied=2
    ) in scores[0].lines
    scores = score_round([t("soy-sauce"), t("sashimi tempura")])
    assert scores[0].lines == (Line(LineKind.SOY_SAUCE, 1, 0, colours=1),)


# -- whole rounds and their breakdown --------------------------------------------------


def test_module_example_round() -> None:
    assert points([t("tempura tempura wasabi squid"), t("squid wasabi")]) == [14, 3]


def test_round_breakdown_says_which_cards_made_which_points() -> None:
    scores = score_round(
        [
            t("tempura tempura tempura sashimi sashimi sashimi dumpling dumpling"),
            t("wasabi squid maki3 maki2 chopsticks pudding pudding egg"),
            t("maki1 salmon wasabi"),
        ]
    )
    assert [s.points for s in scores] == [5 + 10 + 3, 9 + 6 + 1, 3 + 2]
    assert lines_of(scores[0]) == {
        Line(LineKind.TEMPURA, 3, 5, sets=1),
        Line(LineKind.SASHIMI, 3, 10, sets=1),
        Line(LineKind.DUMPLING, 2, 3),
    }
    assert lines_of(scores[1]) == {
        Line(LineKind.NIGIRI, 1, 9, card=Card.SQUID, on_wasabi=True),
        Line(LineKind.NIGIRI, 1, 1, card=Card.EGG),
        Line(LineKind.MAKI, 2, 6, icons=5, place=Place.FIRST, tied=1),
        Line(LineKind.CHOPSTICKS, 1, 0),
        Line(LineKind.PUDDING_KEPT, 2, 0),
    }
    assert lines_of(scores[2]) == {
        Line(LineKind.MAKI, 1, 3, icons=1, place=Place.SECOND, tied=1),
        Line(LineKind.NIGIRI, 1, 2, card=Card.SALMON),
        Line(LineKind.WASABI, 1, 0),
    }
    for score in scores:
        assert score.points == sum(line.points for line in score.lines)


def test_every_card_appears_in_one_line() -> None:
    tableau = t(
        "tempura sashimi dumpling maki1 maki2 maki3 egg salmon squid pudding wasabi chopsticks"
    )
    score = score_round([tableau, []])[0]
    # wasabi played after every nigiri stays empty
    assert sum(line.cards for line in score.lines) == len(tableau)


def test_empty_tableau_has_no_lines() -> None:
    assert score_round([[], []]) == (SeatScore(0), SeatScore(0))


def test_puddings_score_nothing_during_the_round() -> None:
    scores = score_round([t("pudding pudding pudding"), t()])
    assert scores[0].points == 0
    assert scores[0].lines == (Line(LineKind.PUDDING_KEPT, 3, 0),)


# -- puddings at the end of the game -----------------------------------------------


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        # The rulebooks' example: 4, 3, 0, 0 puddings -> +6, 0, -3, -3
        ([4, 3, 0, 0], [6, 0, -3, -3]),
        ([0, 3, 4, 0], [-3, 0, 6, -3]),
        # "Ve vzácných případech, kdy mají všichni hráči stejný počet karet s
        # pudinkem, si za ně nikdo nic nepřičítá."
        ([2, 2, 2], [0, 0, 0]),
        ([0, 0, 0, 0, 0], [0, 0, 0, 0, 0]),
        ([3, 3, 3, 3], [0, 0, 0, 0]),
        # no ties
        ([1, 0, 2], [0, -6, 6]),
        ([5, 4, 3, 2, 1], [6, 0, 0, 0, -6]),
        # ties for most split +6, remainder dropped
        ([3, 3, 0], [3, 3, -6]),
        ([2, 2, 2, 0], [2, 2, 2, -6]),
        ([4, 4, 4, 4, 1], [1, 1, 1, 1, -6]),
        # Ruling: a negative split loses floor(6 / n): three tied for fewest lose 2
        ([5, 0, 0, 0], [6, -2, -2, -2]),
        ([1, 1, 0, 0, 0], [3, 3, -2, -2, -2]),
        ([3, 1, 1, 1, 1], [6, -1, -1, -1, -1]),
        ([2, 1, 1], [6, -3, -3]),
    ],
)
def test_puddings_with_penalty(counts: list[int], expected: list[int]) -> None:
    assert [s.points for s in score_puddings(counts, penalty=True)] == expected


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        # "Při hře 2 hráčů nikdo body za pudinky neztrácí. Odměněn je pouze hráč
        # s nejvyšším počtem karet pudinků."
        ([3, 0], [6, 0]),
        ([0, 1], [0, 6]),
        ([2, 2], [0, 0]),
        ([0, 0], [0, 0]),
    ],
)
def test_puddings_two_players_no_penalty(counts: list[int], expected: list[int]) -> None:
    assert [s.points for s in score_puddings(counts, penalty=False)] == expected


def test_pudding_breakdown() -> None:
    scores = score_puddings([4, 3, 0, 0], penalty=True)
    assert [s.lines for s in scores] == [
        (Line(LineKind.PUDDING, 4, 6, place=Place.FIRST, tied=1),),
        (Line(LineKind.PUDDING, 3, 0),),
        (Line(LineKind.PUDDING, 0, -3, place=Place.LAST, tied=2),),
        (Line(LineKind.PUDDING, 0, -3, place=Place.LAST, tied=2),),
    ]
    spared = score_puddings([3, 0], penalty=False)
    assert spared[1].lines == (
        Line(LineKind.PUDDING, 0, 0, place=Place.LAST_SPARED, tied=1),
    )
    even = score_puddings([2, 2, 2], penalty=True)
    assert even[0].lines == (Line(LineKind.PUDDING, 2, 0, place=Place.EVEN, tied=3),)


@pytest.mark.parametrize(
    ("amount", "ways", "each"),
    [(6, 1, 6), (6, 2, 3), (6, 4, 1), (6, 7, 0), (3, 2, 1), (3, 4, 0), (4, 3, 1),
     (-6, 1, -6), (-6, 2, -3), (-6, 3, -2), (-6, 4, -1), (-6, 5, -1), (-6, 7, 0)],
)
def test_split_drops_the_remainder(amount: int, ways: int, each: int) -> None:
    assert split(amount, ways) == each


# -- whole games ------------------------------------------------------------------


def test_game_example_from_the_issue() -> None:
    game = score_game([[t("wasabi squid maki2"), t("pudding"), t()]])
    assert [s.points for s in game.rounds[0]] == [15, 0, 0]
    assert game.pudding is None
    assert game.totals == (15, 0, 0)
    assert game.winners == (0,)
    assert game.puddings == (0, 1, 0)
    assert game.complete is False


def test_full_game_totals_and_puddings() -> None:
    rounds = [
        # Ana 3 tempura (5) + maki 5 icons (6); Ben sashimi set (10) + maki 3 (1);
        # Cyril egg on wasabi (3) + salmon (2) + maki 3 (1); Dana 3 dumplings (6), maki 2 (0)
        [
            t("maki3 maki2 pudding tempura tempura tempura"),
            t("maki3 pudding sashimi sashimi sashimi"),
            t("maki2 maki1 wasabi egg salmon"),
            t("maki2 dumpling dumpling dumpling"),
        ],
        # squid before wasabi: 3; lonely wasabi: 0
        [t("pudding pudding"), t("pudding chopsticks"), t("wasabi"), t("squid wasabi")],
        [t("pudding"), t("pudding"), t(), t()],
    ]
    game = score_game(rounds)
    assert [[s.points for s in r] for r in game.rounds] == [
        [11, 11, 6, 6],
        [0, 0, 0, 3],
        [0, 0, 0, 0],
    ]
    # the rulebook example again: 4, 3, 0, 0 puddings
    assert game.puddings == (4, 3, 0, 0)
    assert game.pudding is not None
    assert [s.points for s in game.pudding] == [6, 0, -3, -3]
    assert game.totals == (17, 11, 3, 6)
    assert game.winners == (0,)
    assert game.complete is True


def test_puddings_only_after_the_third_round() -> None:
    two = score_game([[t("pudding"), t()], [t("pudding"), t()]])
    assert two.pudding is None
    assert two.totals == (0, 0)
    three = score_game([[t("pudding"), t()], [t("pudding"), t()], [t(), t()]])
    assert three.pudding is not None
    assert [s.points for s in three.pudding] == [6, 0]  # 2 seats: no penalty
    assert three.totals == (6, 0)


def test_two_player_game_has_no_pudding_penalty() -> None:
    game = score_game([[t("pudding"), t("squid")], [t(), t()], [t(), t()]])
    assert game.totals == (6, 3)
    assert game.winners == (0,)


def test_three_seats_with_the_dummy_have_the_pudding_penalty() -> None:
    # Ruling: with the dummy three seats are scored, so the fewest lose points
    rounds = [[t("pudding pudding"), t("pudding"), t()], [t(), t(), t()], [t(), t(), t()]]
    game = score_game(rounds, dummy=2)
    assert game.pudding is not None
    assert [s.points for s in game.pudding] == [6, 0, -6]
    assert game.totals == (6, 0, -6)
    assert game.dummy == 2
    # the dummy can be the one who loses nothing
    rounds = [[t(), t("pudding"), t("pudding pudding")], [t(), t(), t()], [t(), t(), t()]]
    game = score_game(rounds, dummy=2)
    assert game.totals == (-6, 0, 6)
    assert game.winners == (1,)


def test_the_dummy_cannot_win() -> None:
    rounds = [[t("squid"), t("salmon"), t("wasabi squid")], [t(), t(), t()], [t(), t(), t()]]
    game = score_game(rounds, dummy=2)
    assert game.totals == (3, 2, 9)
    assert game.winners == (0,)
    # the dummy in seat 0, level with a player: the player wins alone
    rounds = [[t("squid"), t("squid"), t("egg")]]
    assert score_game(rounds, dummy=0).winners == (1,)
    assert score_game(rounds).winners == (0, 1)


@pytest.mark.parametrize(
    ("totals", "puddings", "dummy", "expected"),
    [
        ([30, 20, 10], [0, 5, 5], None, (0,)),
        # tie on points: more puddings wins ("V případě nerozhodného výsledku
        # vítězí ten hráč, který má více karet s pudinkem!")
        ([30, 30, 12], [2, 1, 5], None, (0,)),
        ([30, 30, 12], [1, 2, 5], None, (1,)),
        # Ruling: still tied, they share the win
        ([30, 30, 12], [2, 2, 5], None, (0, 1)),
        ([7, 7, 7, 7], [1, 1, 1, 1], None, (0, 1, 2, 3)),
        ([7, 7, 7, 7], [0, 2, 2, 1], None, (1, 2)),
        # the dummy never wins
        ([30, 30, 40], [2, 2, 0], 2, (0, 1)),
        ([10, 50, 40], [0, 9, 0], 1, (2,)),
        ([40, 40, 40], [0, 0, 9], 2, (0, 1)),
        # negative totals are totals too
        ([-3, -6], [0, 0], None, (0,)),
    ],
)
def test_winners(
    totals: list[int], puddings: list[int], dummy: int | None, expected: tuple[int, ...]
) -> None:
    assert winners(totals, puddings, dummy=dummy) == expected


def test_pudding_tie_break_in_a_whole_game() -> None:
    # both end on 6 points; Ben has a pudding, Ana has none
    rounds = [[t("dumpling dumpling dumpling"), t("pudding")], [t(), t()], [t(), t()]]
    game = score_game(rounds)
    assert game.totals == (6, 6)
    assert game.winners == (1,)


def test_shared_win_in_a_whole_game() -> None:
    rounds = [[t("squid"), t("squid"), t()], [t(), t(), t()], [t(), t(), t()]]
    game = score_game(rounds)
    # all have 0 puddings: nobody scores puddings
    assert game.pudding is not None
    assert [s.points for s in game.pudding] == [0, 0, 0]
    assert game.totals == (3, 3, 0)
    assert game.winners == (0, 1)


def test_game_score_fields() -> None:
    game = score_game([[t("maki3"), t("maki1")]])
    assert isinstance(game, GameScore)
    assert game.rounds[0][0].points == 6
    assert game.rounds[0][1].points == 3
    assert game.dummy is None


@pytest.mark.parametrize(
    ("rounds", "dummy", "message"),
    [
        ([], None, "at least one round"),
        ([[[], []]] * 4, None, "3 rounds"),
        ([[[], []], [[], [], []]], None, "every seat"),
        ([[[], [], []]], 3, "dummy"),
        ([[[], [], []]], -1, "dummy"),
    ],
)
def test_score_game_refuses(
    rounds: list[list[Tableau]], dummy: int | None, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        score_game(rounds, dummy=dummy)
