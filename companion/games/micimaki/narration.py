"""Mici Maki's sentences, in the player's language: its catalog (the
``micimaki`` domain, falling back to the app's) and the code reference.

>>> lines = reference(catalog("en"))
>>> lines[0]
'Mici Maki tactile codes: the sticker names the card.'
>>> lines[4]
'Food 5: braille 5 top left, 5 dots along the bottom edge. 12 cards. Code 5.'
>>> lines[7]
'+1 food: a plus sign. The pile is worth one more. 7 cards. Code p.'
>>> reference(catalog("cs"))[10]
'Přežrání: drsná zubatá ploška přes střed. Otočená při jídle ukončí kolo. 6 karet. Kód x.'
"""

from __future__ import annotations

from pathlib import Path

from companion.games.micimaki.rules import (
    CHOOSE,
    FOODS,
    OVEREATING,
    PLUS,
    REVERSE,
    Setup,
)
from companion.games.micimaki.tactile import CODES, KINDS, NAMES, PUNCHED_CORNER, STICKERS
from companion.games.risk import MOST_OVEREATING
from companion.i18n import N_, Catalog

GAME = "micimaki"
LOCALE_DIR = Path(__file__).with_name("locale")

#: What each action and the overeating card do, in a short sentence.
RULES = {
    PLUS: N_("The pile is worth one more."),
    REVERSE: N_("Play goes the other way."),
    CHOOSE: N_("You name the next player."),
    OVEREATING: N_("Turned up while eating, it ends the round."),
}


def catalog(language: str) -> Catalog:
    """Mici Maki's sentences in ``language`` (the app's as a fallback)."""
    return Catalog.for_language(language, GAME, LOCALE_DIR)


def card_name(words: Catalog, card: int) -> str:
    """A card's name: "Food 5", "+1 food"."""
    return words.text(NAMES[card], value=card) if card in FOODS else words.text(NAMES[card])


def copies(card: int, setup: Setup | None = None) -> int:
    """Cards of this kind in a deck (with the setup's split of actions; the
    overeating cards: all six of the box)."""
    deck = setup or Setup(players=4)
    return {PLUS: deck.plus, REVERSE: deck.reverse, CHOOSE: deck.choose,
            OVEREATING: MOST_OVEREATING}.get(card, deck.food_each)


def reference(words: Catalog) -> list[str]:
    """The code reference: a heading, a card a line, then how to hold a card."""
    lines = [words.text("Mici Maki tactile codes: the sticker names the card.")]
    for card in KINDS:
        sticker = words.text(STICKERS[card].words, value=card)
        count = words.plural("%(n)s card", "%(n)s cards", copies(card))
        name = card_name(words, card)
        if card in RULES:
            lines.append(words.text(
                "%(name)s: %(sticker)s. %(rule)s %(count)s. Code %(code)s.", name=name,
                sticker=sticker, rule=words.text(RULES[card]), count=count, code=CODES[card]))
        else:
            lines.append(words.text("%(name)s: %(sticker)s. %(count)s. Code %(code)s.",
                                    name=name, sticker=sticker, count=count, code=CODES[card]))
    lines.append(words.text(PUNCHED_CORNER))
    return lines
