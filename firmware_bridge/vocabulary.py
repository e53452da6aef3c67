"""What the scanner needs to know of a game: its name, its kinds of card, its typed codes.

The bridge knows tags, links and ports, not games. Each installed game lends
it a :class:`Vocabulary`: the name its tags are registered under, its kinds
of card in a fixed order (which numbers the demo deck), how many copies of
each a deck holds, and how to read a typed code or card name. Games are
found through the entry points group ``tactile_companion.vocabularies``, so one
scanner serves every game installed, and the bridge imports none of them.

:class:`SimpleVocabulary` is a whole game in a few words, for trying the
bridge without one installed, and for tests:

>>> fruit = SimpleVocabulary("fruit", "Fruit Salad", 9, (("apple", 2), ("pear", 1)))
>>> isinstance(fruit, Vocabulary)
True
>>> fruit.identify(" Pear "), fruit.copies("apple"), fruit.card_ids()
('pear', 2, ('apple', 'pear'))
>>> fruit.identify("plum")
Traceback (most recent call last):
ValueError: 'plum' is not a card of Fruit Salad: type one of apple, pear
"""

from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Protocol, runtime_checkable

#: The entry points group where games offer their vocabulary (the app finds
#: their whole plugins in another, ``tactile_companion.games``).
GROUP = "tactile_companion.vocabularies"
#: The longest game name or card id a tag may be registered under.
NAME_LIMIT = 40


@runtime_checkable
class Vocabulary(Protocol):
    """A game's cards, as the scanner and typed codes name them."""

    @property
    def game(self) -> str:
        """The name its tags are registered under, such as ``"sushigo"``."""
        ...

    @property
    def title(self) -> str:
        """The game's name for people, such as ``"Sushi Go!"``."""
        ...

    @property
    def demo_number(self) -> int:
        """0 to 255: the game's byte in the UIDs of the demo deck."""
        ...

    def card_ids(self) -> tuple[str, ...]:
        """Every kind of card, in a fixed order: its index is its demo UIDs' card byte."""
        ...

    def copies(self, card_id: str) -> int:
        """How many cards of this kind a full deck holds."""
        ...

    def identify(self, text: str) -> str:
        """The card id a typed code or card name names.

        Raises :class:`ValueError` saying, in English, why it names none."""
        ...


@dataclass(frozen=True, slots=True)
class SimpleVocabulary:
    """A game given as its cards and their copies; a card is typed as its id."""

    game: str
    title: str
    demo_number: int
    cards: tuple[tuple[str, int], ...]

    def card_ids(self) -> tuple[str, ...]:
        return tuple(card_id for card_id, _ in self.cards)

    def copies(self, card_id: str) -> int:
        for known, count in self.cards:
            if known == card_id:
                return count
        raise ValueError(f"{card_id!r} is not a card of {self.title}")

    def identify(self, text: str) -> str:
        wanted = text.strip().casefold()
        for card_id in self.card_ids():
            if card_id.casefold() == wanted:
                return card_id
        choices = ", ".join(self.card_ids())
        raise ValueError(f"{text.strip()!r} is not a card of {self.title}: type one of {choices}")


def vocabularies() -> dict[str, Vocabulary]:
    """The installed games' vocabularies by game name, in the order of their names.

    Found once, then remembered: games are installed, not added while running."""
    return dict(_installed())


def forget_installed() -> None:
    """Forget the vocabularies found, so the next :func:`vocabularies` looks
    for the installed games again (a test that installs a game, or takes
    it away, calls this)."""
    _installed.cache_clear()


@functools.cache
def _installed() -> tuple[tuple[str, Vocabulary], ...]:
    found: dict[str, Vocabulary] = {}
    demo_numbers: dict[int, str] = {}
    for point in sorted(entry_points(group=GROUP), key=lambda point: point.name):
        try:
            offered = point.load()
        except Exception as error:  # one broken game must not stop the others
            _skip(point.value, f"it cannot be loaded ({type(error).__name__}: {error})")
            continue
        problem = _unusable(offered, found, demo_numbers)
        if problem is not None:
            _skip(point.value, problem)
            continue
        found[offered.game] = offered
        demo_numbers[offered.demo_number] = offered.game
    return tuple(found.items())


def _unusable(
    offered: object, found: dict[str, Vocabulary], demo_numbers: dict[int, str]
) -> str | None:
    """Why ``offered`` cannot serve as a game's vocabulary beside those ``found``;
    ``None`` if it can."""
    if not isinstance(offered, Vocabulary):
        return "it is not a vocabulary (game, title, demo_number, card_ids, copies, identify)"
    game = offered.game
    if not isinstance(game, str) or not 0 < len(game) <= NAME_LIMIT:
        return f"its game name {game!r} is not 1 to {NAME_LIMIT} characters"
    if game in found:
        return f"another vocabulary already serves the game {game!r}"
    number = offered.demo_number
    if not isinstance(number, int) or not 0 <= number <= 255:
        return f"its demo number {number!r} is not 0 to 255"
    if number in demo_numbers:
        return f"its demo number {number} is already {demo_numbers[number]!r}'s"
    return None


def _skip(where: str, problem: str) -> None:
    # A warning, not an error: the other games and the scanner still work.
    warnings.warn(f"game {where} left out: {problem}", RuntimeWarning, stacklevel=3)
