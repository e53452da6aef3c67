"""Sushi Go!'s cards as the scanner sees them: its vocabulary for the bridge.

The scanner's bridge knows no game. It finds :data:`VOCABULARY` through the
entry point ``sushigo`` of the group ``tactile_companion.vocabularies`` and
asks it the game's name, its kinds of card in a fixed order (the demo deck's
numbering), their copies, and what a typed code or card name means. The
answers are plain strings: the canonical ids of
:mod:`companion.games.sushigo.cards`. This module imports the game's cards
and codes only, never the app's conversation, journals or store (the game's
plugin is a :class:`SushiGoVocabulary` too, with the rest).

>>> vocabulary = SushiGoVocabulary()
>>> vocabulary.game, vocabulary.title, vocabulary.demo_number
('sushigo', 'Sushi Go!', 0)
>>> vocabulary.identify("w2"), vocabulary.copies("salmon"), vocabulary.card_ids()[7]
('salmon', 10, 'salmon')
>>> vocabulary.identify("w4")
Traceback (most recent call last):
ValueError: window (w) has positions 1 to 3; try w1 egg, w2 salmon, w3 squid
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.sushigo.cards import CARDS, DEFAULT_SOY_SAUCE_COUNT, Card, deck_counts
from companion.games.sushigo.names import refusal_text
from companion.games.sushigo.tactile import UnknownCodeError, parse


@dataclass(frozen=True, slots=True)
class SushiGoVocabulary:
    """Sushi Go!'s vocabulary: the part of its plugin the bridge uses."""

    @property
    def game(self) -> str:
        return "sushigo"

    @property
    def title(self) -> str:
        return "Sushi Go!"

    @property
    def demo_number(self) -> int:
        return 0

    def card_ids(self) -> tuple[str, ...]:
        return tuple(card.id for card in CARDS)

    def copies(self, card_id: str) -> int:
        """Copies in a deck with the soy sauce variant's cards (so the demo deck has
        a tag for each); at least one, so every kind of card has a demo tag."""
        try:
            card = Card.from_id(card_id)
        except KeyError:
            raise ValueError(f"{card_id!r} is not a Sushi Go! card id") from None
        return max(deck_counts(DEFAULT_SOY_SAUCE_COUNT).get(card, 0), 1)

    def identify(self, text: str) -> str:
        try:
            return parse(text).id
        except UnknownCodeError as error:
            raise ValueError(error.detail) from error

    def refusal(self, text: str, language: str) -> str:
        """Why ``text`` names no card, in ``language`` (the scanner's bridge
        says it so)."""
        try:
            parse(text)
        except UnknownCodeError as error:
            return refusal_text(language, error)
        return ""


#: What the entry point ``tactile_companion.vocabularies`` finds.
VOCABULARY = SushiGoVocabulary()
