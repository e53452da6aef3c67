"""The tactile sticker coding and the typed codes that mirror it.

The French tactile adaptation puts a relief sticker on the top left of each
card. Its shape names the card; for maki and nigiri the sticker's height also
counts: top, middle, bottom, and the lower the sticker the higher the value.

A typed code mirrors the touch: one key for the shape, then one digit for the
position where the shape has one (``1`` top, ``2`` middle, ``3`` bottom, which
is also the card's value). Every card is at most two keystrokes:

>>> parse("w2")
Card.SALMON
>>> short_code(Card.MAKI3)
'o3'
>>> parse("T")
Card.WASABI

Full names and sticker words work too, in English, French, Czech and
Russian, whatever the case and accents:

>>> parse("Sushi au saumon"), parse("knedlicek"), parse("ПЕЛЬМЕНИ")
(Card.SALMON, Card.DUMPLING, Card.DUMPLING)
>>> parse("fenêtre bas"), parse("circle 2")
(Card.SQUID, Card.MAKI2)

Anything else is refused with the closest valid codes:

>>> try:
...     parse("w4")
... except UnknownCodeError as error:
...     print(error.detail)
window (w) has positions 1 to 3; try w1 egg, w2 salmon, w3 squid

Keys that move with the keyboard layout are read by where they sit, as the
fingers find them: a Russian layout's ``ц`` is the key of ``w``, and the
unshifted top row of a French (``& é "``) or Czech (``+ ě š``) keyboard
gives the digits 1 to 3.
"""

from __future__ import annotations

import difflib
import enum
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from companion.games.sushigo.cards import Card
from companion.games.typed import layout_table, normalize


class Shape(enum.Enum):
    """The relief shapes of the adaptation (``drop`` is this project's, see below)."""

    TRIANGLE = "triangle"
    STAR = "star"
    DIAGONAL_CROSS = "diagonal-cross"
    SQUARE = "square"
    PLUS = "plus"
    FLOWER = "flower"
    WINDOW = "window"
    CIRCLE = "circle"
    #: Soy sauce is a promo card the adaptation does not cover. Ruling: a
    #: drop-shaped sticker, the shape of a drop of sauce.
    DROP = "drop"

    def __repr__(self) -> str:
        return f"Shape.{self.name}"

    @property
    def key(self) -> str:
        """The key that types this shape."""
        return SHAPE_KEYS[self]

    @property
    def has_position(self) -> bool:
        return self in (Shape.WINDOW, Shape.CIRCLE)


class Position(enum.IntEnum):
    """Height of a sticker on the card's left edge; the digit that types it."""

    TOP = 1
    MIDDLE = 2
    BOTTOM = 3

    def __repr__(self) -> str:
        return f"Position.{self.name}"


@dataclass(frozen=True, slots=True)
class Sticker:
    """What the fingers find on a card: a shape, and a height for some shapes."""

    shape: Shape
    position: Position | None = None

    @property
    def code(self) -> str:
        """The typed code: shape key, then position digit if any.

        >>> Sticker(Shape.WINDOW, Position.TOP).code
        'w1'
        """
        digit = "" if self.position is None else str(int(self.position))
        return self.shape.key + digit


#: One key per shape. Chosen to be easy to find and remember without sight:
#: ``t`` triangle (the word starts with t in all four languages), ``s`` star,
#: ``x`` diagonal cross (the letter is the shape), ``q`` square (sQuare),
#: ``p`` plus (the same word in all four languages), ``f`` flower (flower,
#: fleur), ``w`` window, ``o`` circle (the letter is the shape), ``d`` drop.
SHAPE_KEYS: Mapping[Shape, str] = MappingProxyType(
    {
        Shape.TRIANGLE: "t",
        Shape.STAR: "s",
        Shape.DIAGONAL_CROSS: "x",
        Shape.SQUARE: "q",
        Shape.PLUS: "p",
        Shape.FLOWER: "f",
        Shape.WINDOW: "w",
        Shape.CIRCLE: "o",
        Shape.DROP: "d",
    }
)
_SHAPE_BY_KEY: Mapping[str, Shape] = MappingProxyType(
    {key: shape for shape, key in SHAPE_KEYS.items()}
)

#: The sticker of every card (seed 001, "Adaptation").
STICKERS: Mapping[Card, Sticker] = MappingProxyType(
    {
        Card.TEMPURA: Sticker(Shape.DIAGONAL_CROSS),
        Card.SASHIMI: Sticker(Shape.SQUARE),
        Card.DUMPLING: Sticker(Shape.STAR),
        Card.MAKI1: Sticker(Shape.CIRCLE, Position.TOP),
        Card.MAKI2: Sticker(Shape.CIRCLE, Position.MIDDLE),
        Card.MAKI3: Sticker(Shape.CIRCLE, Position.BOTTOM),
        Card.EGG: Sticker(Shape.WINDOW, Position.TOP),
        Card.SALMON: Sticker(Shape.WINDOW, Position.MIDDLE),
        Card.SQUID: Sticker(Shape.WINDOW, Position.BOTTOM),
        Card.PUDDING: Sticker(Shape.FLOWER),
        Card.WASABI: Sticker(Shape.TRIANGLE),
        Card.CHOPSTICKS: Sticker(Shape.PLUS),
        Card.SOY_SAUCE: Sticker(Shape.DROP),
    }
)
_CARD_BY_CODE: Mapping[str, Card] = MappingProxyType(
    {sticker.code: card for card, sticker in STICKERS.items()}
)

#: Cards in the order the reference lists them: shapes without a position
#: first, then window and circle from top to bottom.
REFERENCE_ORDER: tuple[Card, ...] = (
    Card.WASABI,
    Card.DUMPLING,
    Card.TEMPURA,
    Card.SASHIMI,
    Card.CHOPSTICKS,
    Card.PUDDING,
    Card.EGG,
    Card.SALMON,
    Card.SQUID,
    Card.MAKI1,
    Card.MAKI2,
    Card.MAKI3,
    Card.SOY_SAUCE,
)


def short_code(card: Card) -> str:
    """The two-keystroke (at most) code of a card."""
    return STICKERS[card].code


def sticker(card: Card) -> Sticker:
    return STICKERS[card]


class CodeRefusal(enum.Enum):
    """Why a typed text names no card."""

    #: Nothing but spaces.
    EMPTY = "empty"
    #: A word that names several cards ("maki", "nigiri").
    AMBIGUOUS = "ambiguous"
    #: A window or circle without a valid height (``w``, ``w4``, ``o12``).
    NEEDS_POSITION = "needs-position"
    #: A shape without heights given one (``t2``).
    NO_POSITION = "no-position"
    #: A short code that is no card's.
    UNKNOWN_CODE = "unknown-code"
    #: A longer text that is no card's name or sticker.
    UNKNOWN_NAME = "unknown-name"

    def __repr__(self) -> str:
        return f"CodeRefusal.{self.name}"


class UnknownCodeError(ValueError):
    """A typed code, name or word that names no card.

    ``text`` is what was typed, ``refusal`` why it names no card, ``shape``
    the shape it began with (if any), ``suggestions`` the closest valid
    short codes, best first. ``reason`` and ``detail`` say it in English;
    the app says it in the player's language (``companion.games.sushigo.narration``).
    """

    def __init__(
        self,
        text: str,
        refusal: CodeRefusal,
        suggestions: tuple[str, ...],
        shape: Shape | None = None,
    ) -> None:
        self.text = text
        self.refusal = refusal
        self.suggestions = suggestions
        self.shape = shape
        super().__init__(f"{text!r} is not a card: {self.detail}")

    @property
    def reason(self) -> str:
        shape = "" if self.shape is None else self.shape.value.replace("-", " ")
        key = "" if self.shape is None else self.shape.key
        return {
            CodeRefusal.EMPTY: "nothing was typed",
            CodeRefusal.AMBIGUOUS: "say which one",
            CodeRefusal.NEEDS_POSITION: f"{shape} ({key}) has positions 1 to 3",
            CodeRefusal.NO_POSITION: f"{shape} ({key}) has no position",
            CodeRefusal.UNKNOWN_CODE: "no card has this code",
            CodeRefusal.UNKNOWN_NAME: "no card has this name",
        }[self.refusal]

    @property
    def detail(self) -> str:
        """Why it was refused and what to type instead."""
        if not self.suggestions:
            return self.reason
        named = (f"{code} {_CARD_BY_CODE[code]}" for code in self.suggestions)
        return f"{self.reason}; try {', '.join(named)}"


# -- reading what was typed ------------------------------------------------

# Keys read by where they sit, whatever the layout: a Russian layout's
# letters as the QWERTY keys, the digit row of a Czech or French keyboard
# as the digits 1 to 3.
_LAYOUT = layout_table("123")


# Cyrillic letters that look like a shape key, read as that key when the
# key under the finger means nothing (о is on the QWERTY j, which is no code).
_LOOKALIKE = str.maketrans("охр", "oxp")
_SEPARATORS = frozenset(" \t-_.,;:")


def _key_positions(text: str) -> str:
    """A short code as typed on any layout, read as the QWERTY keys pressed."""
    composed = unicodedata.normalize("NFC", text.casefold())
    typed = "".join(ch for ch in composed if ch not in _SEPARATORS and not ch.isspace())
    keys = typed.translate(_LAYOUT)
    if keys not in _CARD_BY_CODE:
        lookalike = typed.translate(_LOOKALIKE).translate(_LAYOUT)
        if lookalike in _CARD_BY_CODE:
            return lookalike
    return keys


_POSITION_WORDS: Mapping[Position, tuple[str, ...]] = MappingProxyType(
    {
        Position.TOP: (
            "1", "top", "high", "upper", "haut", "en haut", "tout en haut",
            "nahore", "horni", "верх", "вверху", "верхний", "сверху",
        ),
        Position.MIDDLE: (
            "2", "middle", "centre", "center", "milieu", "au milieu",
            "uprostred", "prostredni", "stred", "середина", "посередине",
            "средний", "в середине",
        ),
        Position.BOTTOM: (
            "3", "bottom", "low", "lower", "bas", "en bas", "tout en bas",
            "dole", "dolni", "низ", "внизу", "нижний", "снизу",
        ),
    }
)

_SHAPE_WORDS: Mapping[Shape, tuple[str, ...]] = MappingProxyType(
    {
        Shape.TRIANGLE: ("triangle", "trojuhelnik", "треугольник"),
        Shape.STAR: ("star", "etoile", "hvezda", "hvezdicka", "звезда", "звездочка"),
        # A cross alone could be either cross of the adaptation (diagonal:
        # tempura; vertical: chopsticks): it is asked about, not guessed.
        Shape.DIAGONAL_CROSS: (
            "diagonal cross", "croix diagonale", "sikmy kriz", "sikmy krizek",
            "косой крест", "косой крестик",
        ),
        Shape.SQUARE: ("square", "carre", "ctverec", "ctverecek", "квадрат", "квадратик"),
        Shape.PLUS: (
            "plus", "vertical cross", "croix verticale", "croix vertical", "svisly kriz",
            "плюс", "прямой крест",
        ),
        Shape.FLOWER: ("flower", "fleur", "kvetina", "kvetinka", "kytka", "kyticka",
                       "цветок", "цветочек"),
        Shape.WINDOW: ("window", "fenetre", "okno", "okenko", "окно", "окошко"),
        Shape.CIRCLE: ("circle", "round", "cercle", "rond", "kruh", "kolecko",
                       "круг", "кружок"),
        Shape.DROP: ("drop", "goutte", "kapka", "капля"),
    }
)

_NAMES: Mapping[Card, tuple[str, ...]] = MappingProxyType(
    {
        Card.TEMPURA: ("tempura", "tam poura", "tampoura", "темпура"),
        Card.SASHIMI: ("sashimi", "sashimis", "shashimi", "сашими"),
        Card.DUMPLING: (
            "dumpling", "dumplings", "ravioli", "raviolis", "knedlicek",
            "knedlicky", "knedlik", "knedliky", "пельмени", "пельмень",
            "клецки", "клецка", "вареники", "вареник",
        ),
        Card.MAKI1: ("maki 1", "maki1", "maki roll 1", "1 maki", "maki rolka 1",
                     "1 maki rolka", "маки 1", "1 маки"),
        Card.MAKI2: ("maki 2", "maki2", "maki roll 2", "2 maki", "maki rolky 2",
                     "2 maki rolky", "маки 2", "2 маки"),
        Card.MAKI3: ("maki 3", "maki3", "maki roll 3", "3 maki", "maki rolky 3",
                     "3 maki rolky", "маки 3", "3 маки"),
        Card.EGG: (
            "egg", "egg nigiri", "sushi a l omelette", "omelette",
            "vajecne nigiri", "vajicko", "vejce", "яйцо", "яйцо нигири",
            "нигири с яйцом",
        ),
        Card.SALMON: (
            "salmon", "salmon nigiri", "sushi au saumon", "saumon",
            "lososove nigiri", "losos", "лосось", "нигири из лосося",
        ),
        Card.SQUID: (
            "squid", "squid nigiri", "sushi au calamar", "calamar",
            "nigiri s chobotnici", "chobotnice", "кальмар", "нигири из кальмара",
            "нигири из кальмаров",
        ),
        Card.PUDDING: ("pudding", "dessert", "pudink", "пудинг"),
        Card.WASABI: ("wasabi", "васаби"),
        Card.CHOPSTICKS: (
            "chopsticks", "chopstick", "baguettes", "baguette", "baguettes chinoises",
            "hulky", "палочки", "палочки для еды",
        ),
        Card.SOY_SAUCE: (
            "soy sauce", "soy", "soy-sauce", "sauce soja", "soja",
            "sojova omacka", "соевый соус", "соус",
        ),
    }
)

# Words that name several cards: the message lists the codes to choose from.
_AMBIGUOUS: Mapping[str, tuple[Card, ...]] = MappingProxyType(
    {
        **{
            normalize(word): (Card.MAKI1, Card.MAKI2, Card.MAKI3)
            for word in ("maki", "maki roll", "maki rolka", "маки", "ролл")
        },
        **{
            normalize(word): (Card.EGG, Card.SALMON, Card.SQUID)
            for word in ("nigiri", "sushi", "нигири", "суши")
        },
        **{
            normalize(word): (Card.TEMPURA, Card.CHOPSTICKS)
            for word in ("cross", "croix", "kriz", "krizek", "крест", "крестик")
        },
    }
)


def _build_vocabulary() -> dict[str, Card]:
    vocabulary: dict[str, Card] = {}

    def add(phrase: str, card: Card) -> None:
        key = normalize(phrase)
        if vocabulary.setdefault(key, card) is not card:
            raise AssertionError(f"{phrase!r} names two cards")

    for card, names in _NAMES.items():
        for name in names:
            add(name, card)
    for card, stick in STICKERS.items():
        for shape_word in _SHAPE_WORDS[stick.shape]:
            if stick.position is None:
                add(shape_word, card)
                continue
            for position_word in _POSITION_WORDS[stick.position]:
                add(f"{shape_word} {position_word}", card)
                add(f"{position_word} {shape_word}", card)
    return vocabulary


_VOCABULARY: Mapping[str, Card] = MappingProxyType(_build_vocabulary())
_SHAPE_BY_WORD: Mapping[str, Shape] = MappingProxyType(
    {normalize(w): shape for shape, words in _SHAPE_WORDS.items() for w in words}
)

# Neighbouring keys on a QWERTY row, for a finger that landed one key off.
# Where the letter keys sit, for a finger that landed a key or two off:
# (row, column), each row shifted right of the one above as on a keyboard.
_ROWS = (("qwertyuiop", 0.0), ("asdfghjkl", 0.25), ("zxcvbnm", 0.75))
_KEY_AT: Mapping[str, tuple[float, float]] = MappingProxyType(
    {key: (float(row), shift + col) for row, (keys, shift) in enumerate(_ROWS)
     for col, key in enumerate(keys)}
)


def parse(text: str) -> Card:
    """The card a typed code, card name or sticker description names.

    Raises :class:`UnknownCodeError` with the closest valid codes otherwise.
    """
    keys = _key_positions(text)
    if keys in _CARD_BY_CODE:
        return _CARD_BY_CODE[keys]
    words = normalize(text)
    if words in _VOCABULARY:
        return _VOCABULARY[words]
    compact = words.replace(" ", "")
    if compact in _VOCABULARY:
        return _VOCABULARY[compact]
    raise _refusal(text, keys, words)


def _codes(cards: Sequence[Card]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for card in cards:
        seen.setdefault(short_code(card), None)
    return tuple(seen)


def _positions_of(shape: Shape) -> tuple[Card, ...]:
    return tuple(c for c in REFERENCE_ORDER if STICKERS[c].shape is shape)


def _refusal(text: str, keys: str, words: str) -> UnknownCodeError:
    shown = text.strip()
    if not words and not keys:
        return UnknownCodeError(shown, CodeRefusal.EMPTY, ())
    if words in _AMBIGUOUS:
        return UnknownCodeError(shown, CodeRefusal.AMBIGUOUS, _codes(_AMBIGUOUS[words]))
    short = len(keys) <= 3 and keys[:1].isalpha() and (keys[1:].isdigit() or len(keys) == 1)
    shape = (_SHAPE_BY_KEY.get(keys[:1]) if short else None) or _SHAPE_BY_WORD.get(words)
    if shape is not None:
        refusal = CodeRefusal.NEEDS_POSITION if shape.has_position else CodeRefusal.NO_POSITION
        return UnknownCodeError(shown, refusal, _codes(_positions_of(shape)), shape)
    if len(keys) <= 2:
        return UnknownCodeError(shown, CodeRefusal.UNKNOWN_CODE, _near_keys(keys))
    close = difflib.get_close_matches(words, list(_VOCABULARY), n=6, cutoff=0.6)
    named = [_VOCABULARY[c] for c in close]
    return UnknownCodeError(shown, CodeRefusal.UNKNOWN_NAME, _codes(named)[:3])


def _near_keys(keys: str) -> tuple[str, ...]:
    """The codes of the shape keys nearest the key that was typed (at the same
    height if a digit was typed), or the cards at a height typed alone."""
    first, digit = keys[:1], keys[1:]
    if first in "123" and not digit:
        first, digit = "", first
    at_height = [
        c for c in REFERENCE_ORDER
        if STICKERS[c].position is not None and str(int(STICKERS[c].position or 0)) == digit
    ]
    if first not in _KEY_AT:
        return _codes(at_height)
    shapes = [sh for sh in _SHAPE_BY_KEY.values() if sh.has_position or not digit]
    distance = {sh: _key_distance(first, sh.key) for sh in shapes}
    nearest = sorted(shapes, key=lambda sh: (distance[sh], sh.key))[:2]
    found = [
        c for c in REFERENCE_ORDER
        if STICKERS[c].shape in nearest and (not digit or c in at_height)
    ]
    found.sort(key=lambda c: distance[STICKERS[c].shape])
    return _codes(found)[:3]


def _key_distance(a: str, b: str) -> float:
    (row_a, col_a), (row_b, col_b) = _KEY_AT[a], _KEY_AT[b]
    return float(((row_a - row_b) ** 2 + (col_a - col_b) ** 2) ** 0.5)
