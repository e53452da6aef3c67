"""Mici Maki's cards as the scanner sees them, and the game's names: its
vocabulary for the bridge, and the one home of the names the rest of the
package shares (the game's name, its catalog domain, its own words).

The scanner's bridge knows no game. It finds :data:`VOCABULARY` through the
entry point ``mici-maki`` of the group ``tactile_companion.vocabularies``
and asks it the game's name, its kinds of card in a fixed order (the demo
deck's numbering), their copies, and what a typed code or card name means.
This module imports the game's rules and codes only, never the app's
conversation, journals or store: listing the games is quick and safe.

>>> VOCABULARY.game, VOCABULARY.identify("5"), VOCABULARY.identify("Reverse direction")
('mici-maki', 'food5', 'reverse')
>>> VOCABULARY.copies("food5"), VOCABULARY.copies("plus"), VOCABULARY.card_ids()[6]
(12, 7, 'plus')
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path

from companion.games.micimaki.risk import MOST_OVEREATING
from companion.games.micimaki.rules import CARDS, CHOOSE, OVEREATING, PLUS, REVERSE, Setup
from companion.games.micimaki.tactile import UnknownCodeError, from_id, parse
from companion.games.micimaki.tactile import card_id as id_of
from companion.i18n import Catalog
from companion.shown import shown

#: The game's name: its entry points, its journals' ``"game"``, its tags.
GAME = "mici-maki"
#: Its message catalogs' domain (companion/games/micimaki/locale).
DOMAIN = "micimaki"


class Word(enum.StrEnum):
    """The game's own words, besides the app's game words (where, hand,
    hint, undo): each its action's name, as the player's typed word is
    looked up (``telling.ACTIONS``) and as its Plays answer it.

    >>> Word.EAT == "eat", [word.value for word in Word]
    (True, ['eat', 'pile', 'risk', 'tokens', 'drew'])
    """

    EAT = "eat"
    PILE = "pile"
    RISK = "risk"
    TOKENS = "tokens"
    DREW = "drew"

def copies(card: int, setup: Setup | None = None) -> int:
    """Cards of this kind in a deck (with the setup's split of actions; the
    overeating cards: all six of the box).

    >>> copies(PLUS), copies(PLUS, Setup(players=3, plus=4)), copies(OVEREATING)
    (7, 4, 6)
    """
    deck = setup or Setup(players=4)
    return {PLUS: deck.plus, REVERSE: deck.reverse, CHOOSE: deck.choose,
            OVEREATING: MOST_OVEREATING}.get(card, deck.food_each)


@dataclass(frozen=True, slots=True)
class MiciMakiVocabulary:
    """Mici Maki's vocabulary: the part of its plugin the bridge uses."""

    @property
    def game(self) -> str:
        return GAME

    @property
    def title(self) -> str:
        return "Mici Maki"

    @property
    def demo_number(self) -> int:
        return 1

    def card_ids(self) -> tuple[str, ...]:
        return tuple(id_of(card) for card in CARDS)

    def copies(self, card_id: str) -> int:
        """Copies in a deck (the usual split of action cards; all six
        overeating cards of the box)."""
        try:
            return copies(from_id(card_id))
        except KeyError:
            raise ValueError(f"{card_id!r} is not a Mici Maki card id") from None

    def identify(self, text: str) -> str:
        try:
            return id_of(parse(text))
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


def refusal_text(language: str, error: ValueError) -> str:
    """Why a typed code names no Mici Maki card, and what to type instead."""
    words = Catalog.for_language(language, DOMAIN, Path(__file__).with_name("locale"))
    if isinstance(error, UnknownCodeError):
        if error.reason == "food":
            return words.text("%(text)s: food cards are 2 to 7. Type 2 to 7, p, r, c or x.",
                              text=shown(error.text))
        if error.reason == "empty":
            return words.text("Type a card: 2 to 7, p, r, c or x.")
        if error.suggestions:
            return words.text("%(text)s is not a Mici Maki card. Try %(codes)s.",
                              text=shown(error.text), codes=", ".join(error.suggestions))
    return words.text("%(text)s is not a Mici Maki card.", text=shown(str(error)))


#: What the entry point ``tactile_companion.vocabularies`` finds.
VOCABULARY = MiciMakiVocabulary()
