"""Mici Maki's tactile coding and the typed codes that mirror it.

No seed gives a coding for this game; this project's ruling follows the
Sushi Go! adaptation (a relief sticker whose shape names the kind):

- a food card: its value in braille in the top left corner, and as many
  raised dots in a row along the bottom edge (for fingers that do not
  read braille); typed as the digit, ``2`` to ``7``;
- "+1 food": a plus sign, typed ``p``;
- "reverse direction": a curved double arrow, typed ``r``;
- "choose the next player": a pointing triangle (an arrowhead), typed ``c``;
- the overeating card: a rough, jagged patch over the card's centre,
  typed ``x``, only when it is reported turned up while eating.

Every Mici Maki card has its top left corner punched (a Sushi Go! card its
top right), so the fingers tell the games apart, and which way up a card is.

>>> parse("5"), parse(" P "), parse("změna směru"), parse("ВЫБОР")
(5, 8, 9, 10)
>>> parse("ř"), parse("(")  # the digit row of a Czech or French keyboard
(5, 5)
>>> code(REVERSE), card_id(5), from_id("overeating") == OVEREATING
('r', 'food5', True)

Anything else is refused, with the codes to type instead:

>>> try:
...     parse("9")
... except UnknownCodeError as error:
...     print(error.detail)
food cards are 2 to 7; try 2, 3, 4, 5, 6, 7
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from companion.games.micimaki.rules import CARDS, CHOOSE, FOODS, OVEREATING, PLUS, REVERSE
from companion.games.typed import layout_table, normalize
from companion.i18n import N_

#: Every kind of card, in the order of the code reference (and of the demo
#: deck's numbering): food from 2 to 7, the actions, the overeating card.
KINDS: tuple[int, ...] = CARDS

#: The typed code of every card.
CODES: Mapping[int, str] = MappingProxyType({
    **{value: str(value) for value in FOODS},
    PLUS: "p", REVERSE: "r", CHOOSE: "c", OVEREATING: "x",
})
_BY_CODE: Mapping[str, int] = MappingProxyType({c: card for card, c in CODES.items()})

#: Card ids, as tags are registered and games are saved.
IDS: Mapping[int, str] = MappingProxyType({
    **{value: f"food{value}" for value in FOODS},
    PLUS: "plus", REVERSE: "reverse", CHOOSE: "choose", OVEREATING: "overeating",
})
_BY_ID: Mapping[str, int] = MappingProxyType({i: card for card, i in IDS.items()})

#: Card names (English ids of the game's catalog; ``%(value)s`` for food).
NAMES: Mapping[int, str] = MappingProxyType({
    **{value: N_("Food %(value)s") for value in FOODS},
    PLUS: N_("+1 food"),
    REVERSE: N_("Reverse direction"),
    CHOOSE: N_("Choose the next player"),
    OVEREATING: N_("Overeating"),
})


@dataclass(frozen=True, slots=True)
class Sticker:
    """What the fingers find on a card: the shape, and where it sits."""

    shape: str
    #: The shape and its place, as the reference says it (a catalog id).
    words: str


#: The sticker of every card (this project's ruling, see above).
STICKERS: Mapping[int, Sticker] = MappingProxyType({
    **{value: Sticker("braille-digit", N_(
        "braille %(value)s top left, %(value)s dots along the bottom edge"))
       for value in FOODS},
    PLUS: Sticker("plus", N_("a plus sign")),
    REVERSE: Sticker("double-arrow", N_("a curved double arrow")),
    CHOOSE: Sticker("arrowhead", N_("a pointing triangle")),
    OVEREATING: Sticker("jagged", N_("a rough, jagged patch over the centre")),
})

#: Where the punched corner of each game's cards is: the fingers tell the
#: games apart by it, and which way up a card is.
PUNCHED_CORNER = N_("Mici Maki cards have their top left corner punched; "
                    "hold a card with the punched corner top left.")


def code(card: int) -> str:
    return CODES[card]


def card_id(card: int) -> str:
    return IDS[card]


def from_id(identifier: str) -> int:
    """The card of an id (``food5``); raises :class:`KeyError`."""
    return _BY_ID[identifier]


class UnknownCodeError(ValueError):
    """A typed code or name that names no Mici Maki card. ``reason`` is a
    code for the narration (``empty``, ``food`` a digit that is no food
    value, ``unknown``), ``suggestions`` the codes to type instead; ``detail``
    says it in English."""

    def __init__(self, text: str, reason: str, suggestions: tuple[str, ...]) -> None:
        self.text = text
        self.reason = reason
        self.suggestions = suggestions
        super().__init__(f"{text!r} is not a Mici Maki card: {self.detail}")

    @property
    def detail(self) -> str:
        why = {"empty": "nothing was typed", "food": "food cards are 2 to 7",
               "unknown": "no Mici Maki card has this code or name"}[self.reason]
        if not self.suggestions:
            return why
        return f"{why}; try {', '.join(self.suggestions)}"


# Keys read where they sit: a Russian layout's letters as the QWERTY keys,
# the unshifted digit row of a Czech or French keyboard as 2 to 7.
_LAYOUT = layout_table("234567")
# Cyrillic letters that look like a code's letter (р, с, х), read as it.
_LOOKALIKE = str.maketrans("рсх", "pcx")

_WORDS: Mapping[int, tuple[str, ...]] = MappingProxyType({
    **{value: tuple(f"{word} {value}" for word in (
        "food", "jidlo", "karta jidla", "plat", "nourriture", "еда", "блюдо"))
       + tuple(f"{value} {word}" for word in ("food", "jidlo", "еда"))
       for value in FOODS},
    PLUS: ("+1", "+1 food", "plus one", "plus", "+1 jidlo", "plus jedna",
           "pridej 1 jidlo", "+1 plat", "plus un", "+1 еда", "плюс один", "плюс",
           "plus sign"),
    REVERSE: ("reverse", "reverse direction", "double arrow", "curved arrow",
              "zmena smeru", "zmena smeru hry", "sipka", "dvojita sipka", "inversion",
              "changement de sens", "demi tour", "double fleche", "fleche",
              "смена направления", "разворот", "стрелка", "двойная стрелка"),
    CHOOSE: ("choose", "choose the next player", "arrowhead", "pointing triangle",
             "vyber dalsiho hrace", "vyber hrace", "trojuhelnik", "choix",
             "choix du joueur suivant", "choisir", "triangle", "выбор",
             "выбор следующего игрока", "треугольник"),
    OVEREATING: ("overeating", "overeat", "jagged", "rough", "prezrani", "karta prezrani",
                 "indigestion", "rugueux", "переедание", "обжорство"),
})


def _words(text: str) -> str:
    """A name folded for looking up ("+1 jídlo": "plus 1 jidlo")."""
    return normalize(text.replace("+", " plus "))


def _vocabulary() -> dict[str, int]:
    found: dict[str, int] = {}
    for card, words in _WORDS.items():
        for word in words:
            key = _words(word)
            if found.setdefault(key, card) != card:
                raise AssertionError(f"{word!r} names two cards")
    return found


_VOCABULARY: Mapping[str, int] = MappingProxyType(_vocabulary())


def parse(text: str) -> int:
    """The card a typed code or name names; raises :class:`UnknownCodeError`."""
    typed = "".join(unicodedata.normalize("NFC", text.casefold()).split())
    for keys in (typed.translate(_LAYOUT), typed.translate(_LOOKALIKE).translate(_LAYOUT)):
        if keys in _BY_CODE:
            return _BY_CODE[keys]
    words = _words(text)
    if words in _VOCABULARY:
        return _VOCABULARY[words]
    if not typed:
        raise UnknownCodeError(text.strip(), "empty", ())
    keys = typed.translate(_LAYOUT)
    if keys.isdigit():
        raise UnknownCodeError(text.strip(), "food", tuple(CODES[v] for v in FOODS))
    close = difflib.get_close_matches(words, list(_VOCABULARY), n=3, cutoff=0.6)
    suggestions = tuple(dict.fromkeys(CODES[_VOCABULARY[word]] for word in close))
    raise UnknownCodeError(text.strip(), "unknown", suggestions or ("2", "p", "r", "c"))
