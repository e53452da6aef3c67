"""Sushi Go! cards: the deck, hand sizes and the colour families.

Everything here is fixed game data. The canonical id of each card is the
value of its :class:`Card` member, and it is the id used in game files, in
journals and on the wire.

>>> Card.from_id("maki2")
Card.MAKI2
>>> Card.SALMON.id
'salmon'
>>> DECK_COUNTS[Card.TEMPURA]
14
>>> sum(DECK_COUNTS.values())
108
>>> hand_size(4)
8
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType


class Family(enum.Enum):
    """Colour family of a card, as counted by the soy sauce variant.

    The nigiri and wasabi share one yellow family.
    """

    TEMPURA = "tempura"
    SASHIMI = "sashimi"
    DUMPLING = "dumpling"
    MAKI = "maki"
    NIGIRI = "nigiri"
    PUDDING = "pudding"
    CHOPSTICKS = "chopsticks"
    SOY_SAUCE = "soy-sauce"


class Card(enum.Enum):
    """One kind of Sushi Go! card, by canonical id."""

    TEMPURA = "tempura"
    SASHIMI = "sashimi"
    DUMPLING = "dumpling"
    MAKI1 = "maki1"
    MAKI2 = "maki2"
    MAKI3 = "maki3"
    EGG = "egg"
    SALMON = "salmon"
    SQUID = "squid"
    PUDDING = "pudding"
    WASABI = "wasabi"
    CHOPSTICKS = "chopsticks"
    SOY_SAUCE = "soy-sauce"

    # Members are singletons compared by identity: hash them the same way,
    # in C, rather than by name in Python (the engine hashes cards a lot).
    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"Card.{self.name}"

    def __str__(self) -> str:
        return self.value

    @property
    def id(self) -> str:
        """The canonical id, as written in game files."""
        return self.value

    @classmethod
    def from_id(cls, card_id: str) -> Card:
        """The card with this exact canonical id.

        Raises :class:`KeyError` for anything else; typed codes and names
        in other languages go through :func:`companion.games.sushigo.tactile.parse`.
        """
        try:
            return cls(card_id)
        except ValueError:
            raise KeyError(card_id) from None

    @property
    def index(self) -> int:
        """Position in ``Card``: the number the engine works with."""
        return _INDEX[self]

    @property
    def family(self) -> Family:
        """The colour family (soy sauce variant)."""
        return _FAMILY[self]

    @property
    def maki_icons(self) -> int:
        """Maki roll icons on the card (0 for anything but maki)."""
        return _MAKI_ICONS.get(self, 0)

    @property
    def nigiri_value(self) -> int:
        """Base points of a nigiri (0 for anything but nigiri)."""
        return _NIGIRI_VALUE.get(self, 0)

    @property
    def is_maki(self) -> bool:
        return self in _MAKI_ICONS

    @property
    def is_nigiri(self) -> bool:
        return self in _NIGIRI_VALUE


_MAKI_ICONS: Mapping[Card, int] = MappingProxyType(
    {Card.MAKI1: 1, Card.MAKI2: 2, Card.MAKI3: 3}
)
_NIGIRI_VALUE: Mapping[Card, int] = MappingProxyType(
    {Card.EGG: 1, Card.SALMON: 2, Card.SQUID: 3}
)
_FAMILY: Mapping[Card, Family] = MappingProxyType(
    {
        Card.TEMPURA: Family.TEMPURA,
        Card.SASHIMI: Family.SASHIMI,
        Card.DUMPLING: Family.DUMPLING,
        Card.MAKI1: Family.MAKI,
        Card.MAKI2: Family.MAKI,
        Card.MAKI3: Family.MAKI,
        Card.EGG: Family.NIGIRI,
        Card.SALMON: Family.NIGIRI,
        Card.SQUID: Family.NIGIRI,
        Card.WASABI: Family.NIGIRI,
        Card.PUDDING: Family.PUDDING,
        Card.CHOPSTICKS: Family.CHOPSTICKS,
        Card.SOY_SAUCE: Family.SOY_SAUCE,
    }
)

_INDEX: Mapping[Card, int] = MappingProxyType({card: i for i, card in enumerate(Card)})

#: Cards by index: ``CARDS[card.index] is card``.
CARDS: tuple[Card, ...] = tuple(Card)

#: The cards of the base game, in the order the rulebooks list them.
BASE_CARDS: tuple[Card, ...] = tuple(c for c in Card if c is not Card.SOY_SAUCE)

#: Copies of each card in the 108-card base deck.
DECK_COUNTS: Mapping[Card, int] = MappingProxyType(
    {
        Card.TEMPURA: 14,
        Card.SASHIMI: 14,
        Card.DUMPLING: 14,
        Card.MAKI1: 6,
        Card.MAKI2: 12,
        Card.MAKI3: 8,
        Card.EGG: 5,
        Card.SALMON: 10,
        Card.SQUID: 5,
        Card.PUDDING: 10,
        Card.WASABI: 6,
        Card.CHOPSTICKS: 4,
    }
)

#: Soy sauce cards added by the variant unless the setup says otherwise.
DEFAULT_SOY_SAUCE_COUNT = 3

#: Cards in each hand, by number of players.
HAND_SIZES: Mapping[int, int] = MappingProxyType({2: 10, 3: 9, 4: 8, 5: 7})

MIN_PLAYERS = 2
MAX_PLAYERS = 5
ROUNDS = 3


def hand_size(seats: int) -> int:
    """Cards dealt to each hand for this many seats.

    The two-player dummy variant deals as for three seats: pass 3.

    >>> hand_size(2), hand_size(5)
    (10, 7)
    """
    try:
        return HAND_SIZES[seats]
    except KeyError:
        raise ValueError(
            f"Sushi Go! is for {MIN_PLAYERS} to {MAX_PLAYERS} seats, not {seats}"
        ) from None


def deck_counts(soy_sauce: int = 0) -> dict[Card, int]:
    """Copies of each card in the deck, with ``soy_sauce`` soy sauce cards.

    >>> deck_counts(3)[Card.SOY_SAUCE], sum(deck_counts(3).values())
    (3, 111)
    """
    if soy_sauce < 0:
        raise ValueError(f"soy sauce count must be 0 or more, not {soy_sauce}")
    counts = dict(DECK_COUNTS)
    if soy_sauce:
        counts[Card.SOY_SAUCE] = soy_sauce
    return counts


def new_deck(soy_sauce: int = 0) -> list[Card]:
    """An unshuffled deck, every copy listed, in a fixed order."""
    return [card for card, n in deck_counts(soy_sauce).items() for _ in range(n)]
