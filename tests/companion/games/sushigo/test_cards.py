"""The deck, hand sizes and colour families, against the rulebooks.

Every expected value here is copied from the rulebooks (seeds 000, 001, 003)
or the rules digest, never computed by the code under test.
"""

from __future__ import annotations

from collections import Counter

import pytest

from companion.games.sushigo.cards import (
    BASE_CARDS,
    DECK_COUNTS,
    DEFAULT_SOY_SAUCE_COUNT,
    HAND_SIZES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROUNDS,
    Card,
    Family,
    deck_counts,
    hand_size,
    new_deck,
)

# "HERNÍ SOUČÁSTI 108 KARET 14 tempura 14 sashimi 14 knedlíček 12 2 maki rolky
# 8 3 maki rolky 6 1 maki rolka 10 lososové nigiri 5 nigiri s chobotnicí
# 5 vaječné nigiri 10 pudink 6 wasabi 4 hůlky" (seed 000); the same in 001, 003.
RULEBOOK_COUNTS: dict[str, int] = {
    "tempura": 14,
    "sashimi": 14,
    "dumpling": 14,
    "maki1": 6,
    "maki2": 12,
    "maki3": 8,
    "egg": 5,
    "salmon": 10,
    "squid": 5,
    "pudding": 10,
    "wasabi": 6,
    "chopsticks": 4,
}


def test_canonical_ids_are_exactly_the_issue_list() -> None:
    assert [card.id for card in BASE_CARDS] == [
        "tempura", "sashimi", "dumpling", "maki1", "maki2", "maki3",
        "egg", "salmon", "squid", "pudding", "wasabi", "chopsticks",
    ]
    assert {card.id for card in Card} == set(RULEBOOK_COUNTS) | {"soy-sauce"}


def test_soy_sauce_is_not_a_base_card() -> None:
    assert Card.SOY_SAUCE not in BASE_CARDS
    assert Card.SOY_SAUCE not in DECK_COUNTS
    assert Card.SOY_SAUCE.id == "soy-sauce"


@pytest.mark.parametrize(("card_id", "count"), sorted(RULEBOOK_COUNTS.items()))
def test_deck_count_per_card(card_id: str, count: int) -> None:
    assert DECK_COUNTS[Card.from_id(card_id)] == count


def test_deck_has_108_cards() -> None:
    assert sum(DECK_COUNTS.values()) == 108
    deck = new_deck()
    assert len(deck) == 108
    assert Counter(card.id for card in deck) == Counter(RULEBOOK_COUNTS)


def test_new_deck_with_soy_sauce() -> None:
    deck = new_deck(3)
    assert len(deck) == 111
    assert deck.count(Card.SOY_SAUCE) == 3
    assert len(new_deck(0)) == 108


def test_deck_counts_soy_sauce_option() -> None:
    assert DEFAULT_SOY_SAUCE_COUNT == 3
    assert Card.SOY_SAUCE not in deck_counts()
    assert deck_counts(5)[Card.SOY_SAUCE] == 5
    assert sum(deck_counts(5).values()) == 113
    # the base counts are not changed by asking for a variant deck
    assert sum(DECK_COUNTS.values()) == 108


def test_deck_counts_refuses_negative_soy_sauce() -> None:
    with pytest.raises(ValueError, match="-1"):
        deck_counts(-1)


def test_deck_counts_returns_a_fresh_copy() -> None:
    counts = deck_counts()
    counts[Card.TEMPURA] = 0
    assert deck_counts()[Card.TEMPURA] == 14


@pytest.mark.parametrize(("players", "cards"), [(2, 10), (3, 9), (4, 8), (5, 7)])
def test_hand_size(players: int, cards: int) -> None:
    assert hand_size(players) == cards
    assert HAND_SIZES[players] == cards


@pytest.mark.parametrize("players", [0, 1, 6, 7, -2])
def test_hand_size_outside_two_to_five_seats(players: int) -> None:
    with pytest.raises(ValueError, match=str(players)):
        hand_size(players)


def test_game_limits() -> None:
    assert (MIN_PLAYERS, MAX_PLAYERS, ROUNDS) == (2, 5, 3)


def test_enough_cards_for_three_rounds_at_five() -> None:
    # 5 players x 7 cards x 3 rounds, and the two-player dummy's 3 x 9 x 3
    assert 5 * 7 * 3 <= 108
    assert 3 * 9 * 3 <= 108


@pytest.mark.parametrize(
    ("card_id", "family"),
    [
        ("tempura", Family.TEMPURA),
        ("sashimi", Family.SASHIMI),
        ("dumpling", Family.DUMPLING),
        ("maki1", Family.MAKI),
        ("maki2", Family.MAKI),
        ("maki3", Family.MAKI),
        ("egg", Family.NIGIRI),
        ("salmon", Family.NIGIRI),
        ("squid", Family.NIGIRI),
        ("wasabi", Family.NIGIRI),
        ("pudding", Family.PUDDING),
        ("chopsticks", Family.CHOPSTICKS),
        ("soy-sauce", Family.SOY_SAUCE),
    ],
)
def test_colour_family(card_id: str, family: Family) -> None:
    assert Card.from_id(card_id).family is family


def test_eight_colour_families() -> None:
    # Ruling: tempura, sashimi, dumpling, maki, nigiri-and-wasabi, pudding,
    # chopsticks, soy sauce.
    assert len({card.family for card in Card}) == 8
    assert len(Family) == 8


def test_nigiri_and_wasabi_share_one_family() -> None:
    families = {Card.EGG.family, Card.SALMON.family, Card.SQUID.family, Card.WASABI.family}
    assert families == {Family.NIGIRI}


@pytest.mark.parametrize(
    ("card_id", "icons"),
    [("maki1", 1), ("maki2", 2), ("maki3", 3), ("egg", 0), ("pudding", 0), ("tempura", 0)],
)
def test_maki_icons(card_id: str, icons: int) -> None:
    card = Card.from_id(card_id)
    assert card.maki_icons == icons
    assert card.is_maki is (icons > 0)


@pytest.mark.parametrize(
    ("card_id", "value"),
    [("egg", 1), ("salmon", 2), ("squid", 3), ("wasabi", 0), ("maki3", 0), ("dumpling", 0)],
)
def test_nigiri_value(card_id: str, value: int) -> None:
    card = Card.from_id(card_id)
    assert card.nigiri_value == value
    assert card.is_nigiri is (value > 0)


def test_wasabi_is_not_a_nigiri() -> None:
    assert not Card.WASABI.is_nigiri


@pytest.mark.parametrize("card", list(Card))
def test_from_id_round_trip(card: Card) -> None:
    assert Card.from_id(card.id) is card
    assert str(card) == card.id


@pytest.mark.parametrize("text", ["Tempura", "w2", "maki", "soy sauce", "", "maki 2"])
def test_from_id_is_exact(text: str) -> None:
    with pytest.raises(KeyError):
        Card.from_id(text)
