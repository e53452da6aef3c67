"""Sushi Go!'s names of cards and shapes, its catalogs, and why a typed text
names no card: what both the game and its vocabulary for the scanner's
bridge say.

A light module: it imports the game's cards and codes and the catalogs
only (never the game's engine, tracker or narration, nor the app's
conversation), so that the bridge, listing the games, loads little more
than the cards. :mod:`companion.games.sushigo.narration` builds every other
sentence on these names.

>>> for typed, language in (("wasabi 3", "en"), ("", "cs")):
...     try:
...         parse(typed)
...     except UnknownCodeError as error:
...         print(refusal_text(language, error))
wasabi 3 is not a card. Closest: t Wasabi.
Nic nebylo zadáno: zadejte kód karty, například w2.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from types import MappingProxyType

from companion.games.sushigo.cards import Card
from companion.games.sushigo.tactile import CodeRefusal, Shape, UnknownCodeError, parse
from companion.i18n import N_, Catalog
from companion.shown import shown

#: The game's name: in tags, journals and ``--game``; also its catalogs' domain.
GAME = "sushigo"
#: Where its catalogs are: ``locale/<language>/LC_MESSAGES/sushigo.po``.
LOCALE_DIR = Path(__file__).with_name("locale")


@cache
def catalog(language: str) -> Catalog:
    """Sushi Go!'s sentences in ``language`` (the app's as a fallback)."""
    return Catalog.for_language(language, GAME, LOCALE_DIR)


CARD_NAMES: Mapping[Card, str] = MappingProxyType(
    {
        Card.TEMPURA: N_("Tempura"),
        Card.SASHIMI: N_("Sashimi"),
        Card.DUMPLING: N_("Dumpling"),
        Card.MAKI1: N_("Maki 1"),
        Card.MAKI2: N_("Maki 2"),
        Card.MAKI3: N_("Maki 3"),
        Card.EGG: N_("Egg nigiri"),
        Card.SALMON: N_("Salmon nigiri"),
        Card.SQUID: N_("Squid nigiri"),
        Card.PUDDING: N_("Pudding"),
        Card.WASABI: N_("Wasabi"),
        Card.CHOPSTICKS: N_("Chopsticks"),
        Card.SOY_SAUCE: N_("Soy sauce"),
    }
)


SHAPE_NAMES: Mapping[Shape, str] = MappingProxyType(
    {
        Shape.TRIANGLE: N_("Triangle"),
        Shape.STAR: N_("Star"),
        Shape.DIAGONAL_CROSS: N_("Diagonal cross"),
        Shape.SQUARE: N_("Square"),
        Shape.PLUS: N_("Plus"),
        Shape.FLOWER: N_("Flower"),
        Shape.WINDOW: N_("Window"),
        Shape.CIRCLE: N_("Circle"),
        Shape.DROP: N_("Drop"),
    }
)


def _suggested(catalog: Catalog, codes: Sequence[str]) -> str:
    """'w1 Egg nigiri, w2 Salmon nigiri': codes with the card each names."""
    return ", ".join(f"{code} {catalog.text(CARD_NAMES[parse(code)])}" for code in codes)


def refused(catalog: Catalog, error: UnknownCodeError) -> str:
    """Why a typed text names no card, and what to type instead, in the
    catalog's language."""
    c = catalog
    codes = _suggested(c, error.suggestions)
    if error.refusal is CodeRefusal.EMPTY:
        return c.text("Nothing was typed: type a card code, such as w2.")
    if error.refusal is CodeRefusal.AMBIGUOUS:
        return c.text("%(text)s names several cards: type %(codes)s.",
                      text=shown(error.text), codes=codes)
    if error.shape is not None:
        shape = c.text(SHAPE_NAMES[error.shape])
        if error.refusal is CodeRefusal.NEEDS_POSITION:
            return c.text("%(text)s is not a card: %(shape)s needs a height, 1 to 3: %(codes)s.",
                          text=shown(error.text), shape=shape, codes=codes)
        return c.text("%(text)s is not a card: %(shape)s has no height: %(codes)s.",
                      text=shown(error.text), shape=shape, codes=codes)
    if codes:
        return c.text("%(text)s is not a card. Closest: %(codes)s.", text=shown(error.text),
                      codes=codes)
    return c.text("%(text)s is not a card. The codes: companion codes.", text=shown(error.text))


def refusal_text(language: str, error: ValueError) -> str:
    """Why a typed code names no Sushi Go! card, and what to type instead,
    in ``language`` (the card reader's refusal, and the bridge's)."""
    if isinstance(error, UnknownCodeError):
        return refused(catalog(language), error)
    return str(error)

