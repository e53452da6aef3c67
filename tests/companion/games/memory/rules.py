"""Memory's rules, pure: the cards, their codes, and whole games.

>>> game = Game(2, random.Random(1))
>>> sorted(game.counts().items())
[('bee', 2), ('cat', 2), ('dog', 2), ('fox', 2), ('owl', 2)]
>>> game.turn_card(0).second, game.turn, 0 in game.legal()
(False, 0, False)
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field


class Picture(enum.Enum):
    """A card's picture; its value is its card id."""

    CAT = "cat"
    DOG = "dog"
    OWL = "owl"
    FOX = "fox"
    BEE = "bee"

    def __repr__(self) -> str:
        return f"Picture.{self.name}"


#: Every picture, in the order of the code reference and the demo deck.
PICTURES = tuple(Picture)
#: The typed code of each picture: ``q`` and its number.
CODES = {picture: f"q{number}" for number, picture in enumerate(PICTURES, 1)}
#: Copies of each picture in the deck: a pair.
COPIES = 2
#: How many play.
PLAYERS = (2, 4)


class IllegalTurn(ValueError):
    """A card that cannot be turned now (taken already, or turned this turn):
    ``position``, from 0. ``str()`` is for developers; the practice game
    words it from its catalog."""

    def __init__(self, position: int) -> None:
        super().__init__(f"card {position + 1} cannot be turned now")
        self.position = position


class NotACard(ValueError):
    """Text that names no Memory card: ``text``, as given. ``str()`` is for
    developers; the card reader words it from the game's catalog."""

    def __init__(self, text: str) -> None:
        super().__init__(f"{text.strip()!r} names no memory card: type q1 to q5, or a picture")
        self.text = text.strip()


@dataclass(frozen=True, slots=True)
class Turned:
    """A card turned: where, what, whether it was the turn's second, and
    then whether the two made a pair."""

    seat: int
    position: int
    picture: Picture
    second: bool
    pair: bool = False


@dataclass
class Game:
    """A whole game: the cards face down by position (``None`` once taken),
    each seat's pairs, whose turn it is, and the card turned first this turn."""

    players: int
    rng: random.Random
    table: list[Picture | None] = field(init=False)
    pairs: list[list[Picture]] = field(init=False)
    turn: int = 0
    first: int | None = None

    def __post_init__(self) -> None:
        low, high = PLAYERS
        if not low <= self.players <= high:
            raise ValueError(f"memory is for {low} to {high} players, not {self.players}")
        deck: list[Picture | None] = [p for p in PICTURES for _ in range(COPIES)]
        self.rng.shuffle(deck)
        self.table = deck
        self.pairs = [[] for _ in range(self.players)]

    @property
    def over(self) -> bool:
        return all(card is None for card in self.table)

    def legal(self) -> list[int]:
        """The positions that may be turned now."""
        return [n for n, card in enumerate(self.table) if card is not None and n != self.first]

    def turn_card(self, position: int) -> Turned:
        """Turn the card at ``position``; raises :class:`IllegalTurn`."""
        if position not in self.legal():
            raise IllegalTurn(position)
        picture = self.table[position]
        assert picture is not None
        seat = self.turn
        if self.first is None:
            self.first = position
            return Turned(seat, position, picture, second=False)
        first, self.first = self.first, None
        if self.table[first] is picture:
            self.table[first] = self.table[position] = None
            self.pairs[seat].append(picture)
            return Turned(seat, position, picture, second=True, pair=True)
        self.turn = (seat + 1) % self.players
        return Turned(seat, position, picture, second=True)

    def counts(self) -> dict[str, int]:
        """Every card by id, wherever it lies: face down, or in a seat's pairs."""
        counts = dict.fromkeys((p.value for p in PICTURES), 0)
        for card in self.table:
            if card is not None:
                counts[card.value] += 1
        for taken in self.pairs:
            for picture in taken:
                counts[picture.value] += COPIES
        return counts

    @property
    def winners(self) -> list[int]:
        most = max(len(taken) for taken in self.pairs)
        return [seat for seat, taken in enumerate(self.pairs) if len(taken) == most]


def read(text: str) -> Picture:
    """A picture from its code or its name; :class:`NotACard` if it names none.

    >>> read(" Q2 "), read("owl")
    (Picture.DOG, Picture.OWL)
    """
    wanted = text.strip().casefold()
    for picture, code in CODES.items():
        if wanted in (code, picture.value):
            return picture
    raise NotACard(text)
