"""Typed codes, card names and sticker words, against the French tactile adaptation.

The expected stickers are copied from the "Adaptation" table of seed 001:

    Triangle – Wasabi            Fenêtre Haut – 1 sushis
    Etoile – Raviolis            Fenêtre milieu – 2 sushis
    Croix diagonale – Tempura    Fenêtre bas – 3 sushis
    Carré – Sashimis             Cercle haut – 1 makis
    Croix vertical – Baguettes   Cercle milieu – 2 makis
    Fleur – Dessert              Cercle Bas – 3 makis
"""

from __future__ import annotations

import string
import unicodedata

import pytest

from companion.games.sushigo.cards import BASE_CARDS, Card
from companion.games.sushigo.tactile import (
    REFERENCE_ORDER,
    SHAPE_KEYS,
    STICKERS,
    CodeRefusal,
    Position,
    Shape,
    Sticker,
    UnknownCodeError,
    parse,
    short_code,
    sticker,
)
from companion.games.typed import normalize

ADAPTATION: list[tuple[Card, Shape, Position | None]] = [
    (Card.WASABI, Shape.TRIANGLE, None),
    (Card.DUMPLING, Shape.STAR, None),
    (Card.TEMPURA, Shape.DIAGONAL_CROSS, None),
    (Card.SASHIMI, Shape.SQUARE, None),
    (Card.CHOPSTICKS, Shape.PLUS, None),
    (Card.PUDDING, Shape.FLOWER, None),
    (Card.EGG, Shape.WINDOW, Position.TOP),
    (Card.SALMON, Shape.WINDOW, Position.MIDDLE),
    (Card.SQUID, Shape.WINDOW, Position.BOTTOM),
    (Card.MAKI1, Shape.CIRCLE, Position.TOP),
    (Card.MAKI2, Shape.CIRCLE, Position.MIDDLE),
    (Card.MAKI3, Shape.CIRCLE, Position.BOTTOM),
]

# The project's codes (README, CHANGELOG, the docstring of tactile.py): one
# shape key, then 1 top / 2 middle / 3 bottom.
CODES: dict[Card, str] = {
    Card.WASABI: "t",
    Card.DUMPLING: "s",
    Card.TEMPURA: "x",
    Card.SASHIMI: "q",
    Card.CHOPSTICKS: "p",
    Card.PUDDING: "f",
    Card.EGG: "w1",
    Card.SALMON: "w2",
    Card.SQUID: "w3",
    Card.MAKI1: "o1",
    Card.MAKI2: "o2",
    Card.MAKI3: "o3",
    Card.SOY_SAUCE: "d",
}


CODE_TABLE: list[tuple[Card, str]] = sorted(CODES.items(), key=lambda item: item[1])


# -- the stickers ------------------------------------------------------------


@pytest.mark.parametrize(("card", "shape", "position"), ADAPTATION)
def test_sticker_follows_the_adaptation_table(
    card: Card, shape: Shape, position: Position | None
) -> None:
    assert sticker(card) == Sticker(shape, position)
    assert STICKERS[card] == Sticker(shape, position)


def test_every_card_has_a_sticker_and_no_two_collide() -> None:
    assert set(STICKERS) == set(Card)
    assert len(set(STICKERS.values())) == len(Card)


def test_soy_sauce_has_its_own_shape() -> None:
    soy = sticker(Card.SOY_SAUCE)
    assert soy.position is None
    assert all(sticker(card).shape is not soy.shape for card in BASE_CARDS)


def test_only_window_and_circle_have_positions() -> None:
    positioned = {shape for shape in Shape if shape.has_position}
    assert positioned == {Shape.WINDOW, Shape.CIRCLE}
    for card in Card:
        found = sticker(card)
        assert (found.position is not None) is found.shape.has_position


@pytest.mark.parametrize("card", [Card.EGG, Card.SALMON, Card.SQUID])
def test_lower_nigiri_sticker_higher_value(card: Card) -> None:
    # Ruling: egg is at the top (the "très bas" of the scoring section is a typo)
    position = sticker(card).position
    assert position is not None
    assert int(position) == card.nigiri_value


@pytest.mark.parametrize("card", [Card.MAKI1, Card.MAKI2, Card.MAKI3])
def test_lower_maki_sticker_more_icons(card: Card) -> None:
    position = sticker(card).position
    assert position is not None
    assert int(position) == card.maki_icons


def test_position_digits() -> None:
    assert [int(p) for p in (Position.TOP, Position.MIDDLE, Position.BOTTOM)] == [1, 2, 3]


# -- the codes -----------------------------------------------------------------


@pytest.mark.parametrize(("card", "code"), CODE_TABLE)
def test_short_code(card: Card, code: str) -> None:
    assert short_code(card) == code
    assert sticker(card).code == code
    assert parse(code) is card


def test_codes_have_at_most_two_keystrokes() -> None:
    for card in Card:
        code = short_code(card)
        found = sticker(card)
        assert 1 <= len(code) <= 2
        assert code[0] == SHAPE_KEYS[found.shape] == found.shape.key
        if found.position is None:
            assert len(code) == 1
        else:
            assert code[1] == str(int(found.position))
            assert code[1] in "123"


def test_no_two_codes_collide() -> None:
    codes = [short_code(card) for card in Card]
    assert len(set(codes)) == len(codes) == 13


def test_shape_keys_are_distinct_letters() -> None:
    keys = list(SHAPE_KEYS.values())
    assert len(set(keys)) == len(keys) == len(Shape)
    assert all(len(key) == 1 and key in string.ascii_lowercase for key in keys)


def test_no_code_is_a_prefix_of_another() -> None:
    # a single-key code never starts a two-key one: what is typed is never ambiguous
    codes = [short_code(card) for card in Card]
    for short in codes:
        for other in codes:
            if other != short:
                assert not other.startswith(short)


def test_reference_order_lists_every_card_once() -> None:
    assert sorted(REFERENCE_ORDER, key=lambda c: c.id) == sorted(Card, key=lambda c: c.id)
    assert len(REFERENCE_ORDER) == len(set(REFERENCE_ORDER))


@pytest.mark.parametrize(
    ("typed", "card"),
    [
        ("W2", Card.SALMON),
        ("O3", Card.MAKI3),
        ("T", Card.WASABI),
        (" w2 ", Card.SALMON),
        ("w 2", Card.SALMON),
        ("\tq\n", Card.SASHIMI),
        ("F", Card.PUDDING),
    ],
)
def test_codes_ignore_case_and_spaces(typed: str, card: Card) -> None:
    assert parse(typed) is card


# -- keyboard layouts ------------------------------------------------------------

# Where the code keys sit on a Russian ЙЦУКЕН keyboard (the same physical key
# as the QWERTY letter): q й, w ц, t е, s ы, d в, f а, x ч, o щ, p з.
RUSSIAN_KEYS: dict[str, str] = {
    "q": "й", "w": "ц", "t": "е", "s": "ы", "d": "в", "f": "а", "x": "ч", "o": "щ", "p": "з",
}


@pytest.mark.parametrize(("card", "code"), CODE_TABLE)
def test_russian_layout_reads_the_qwerty_key(card: Card, code: str) -> None:
    typed = RUSSIAN_KEYS[code[0]] + code[1:]
    assert parse(typed) is card
    assert parse(typed.upper()) is card


@pytest.mark.parametrize(
    ("typed", "card"),
    [
        # AZERTY, unshifted top row: & é " are 1 2 3
        ("w&", Card.EGG),
        ("wé", Card.SALMON),
        ('w"', Card.SQUID),
        ("o&", Card.MAKI1),
        ("oé", Card.MAKI2),
        ('o"', Card.MAKI3),
        # Czech QWERTZ, unshifted top row: + ě š are 1 2 3
        ("w+", Card.EGG),
        ("wě", Card.SALMON),
        ("wš", Card.SQUID),
        ("o+", Card.MAKI1),
        ("oě", Card.MAKI2),
        ("oš", Card.MAKI3),
        ("WĚ", Card.SALMON),
        ("OŠ", Card.MAKI3),
        # both at once: Russian letter, then a French digit
        ("цé", Card.SALMON),
        ("щ\"", Card.MAKI3),
    ],
)
def test_layout_digits(typed: str, card: Card) -> None:
    assert parse(typed) is card


@pytest.mark.parametrize(("typed", "card"), [("wě", Card.SALMON), ("oš", Card.MAKI3)])
def test_layout_digits_in_decomposed_unicode(typed: str, card: Card) -> None:
    # The same keystroke may arrive decomposed (e + combining caron), as some
    # input methods and macOS terminals send it.
    decomposed = unicodedata.normalize("NFD", typed)
    assert decomposed != typed
    assert parse(decomposed) is card


# -- names and sticker words -------------------------------------------------------

# The card names as the rulebooks write them (000 Czech, 001 French,
# 003 Russian) and in English (the digest).
NAMES: list[tuple[str, Card]] = [
    # English
    ("Tempura", Card.TEMPURA),
    ("Sashimi", Card.SASHIMI),
    ("Dumpling", Card.DUMPLING),
    ("Egg nigiri", Card.EGG),
    ("Salmon nigiri", Card.SALMON),
    ("Squid nigiri", Card.SQUID),
    ("Pudding", Card.PUDDING),
    ("Wasabi", Card.WASABI),
    ("Chopsticks", Card.CHOPSTICKS),
    ("Soy sauce", Card.SOY_SAUCE),
    ("maki 1", Card.MAKI1),
    ("maki 2", Card.MAKI2),
    ("maki 3", Card.MAKI3),
    ("maki1", Card.MAKI1),
    ("soy-sauce", Card.SOY_SAUCE),
    # French (seed 001)
    ("Tam Poura", Card.TEMPURA),
    ("Tampoura", Card.TEMPURA),
    ("Sashimis", Card.SASHIMI),
    ("Ravioli", Card.DUMPLING),
    ("Raviolis", Card.DUMPLING),
    ("Sushi à l’omelette", Card.EGG),
    ("Sushi à l'omelette", Card.EGG),
    ("Sushi au saumon", Card.SALMON),
    ("Sushi au calamar", Card.SQUID),
    ("Dessert", Card.PUDDING),
    ("Baguettes chinoises", Card.CHOPSTICKS),
    ("Baguettes", Card.CHOPSTICKS),
    # Czech (seed 000)
    ("knedlíček", Card.DUMPLING),
    ("lososové nigiri", Card.SALMON),
    ("nigiri s chobotnicí", Card.SQUID),
    ("vaječné nigiri", Card.EGG),
    ("pudink", Card.PUDDING),
    ("hůlky", Card.CHOPSTICKS),
    ("maki rolka 1", Card.MAKI1),
    # Russian (seed 003)
    ("Темпура", Card.TEMPURA),
    ("Сашими", Card.SASHIMI),
    ("Пельмени", Card.DUMPLING),
    ("Вареники", Card.DUMPLING),
    ("Клецки", Card.DUMPLING),
    ("Нигири из лосося", Card.SALMON),
    ("Нигири из кальмаров", Card.SQUID),
    ("Яйцо Нигири", Card.EGG),
    ("Пудинг", Card.PUDDING),
    ("Васаби", Card.WASABI),
    ("Палочки для еды", Card.CHOPSTICKS),
    ("Соевый соус", Card.SOY_SAUCE),
]


@pytest.mark.parametrize(("name", "card"), NAMES)
def test_full_names(name: str, card: Card) -> None:
    assert parse(name) is card


@pytest.mark.parametrize(
    ("name", "card"),
    [("1 maki rolka", Card.MAKI1), ("2 maki rolky", Card.MAKI2), ("3 maki rolky", Card.MAKI3)],
)
def test_czech_rulebook_maki_names(name: str, card: Card) -> None:
    # Seed 000 lists the maki as "6 1 maki rolka", "12 2 maki rolky",
    # "8 3 maki rolky": the icon count comes first in Czech, as in "2 maki".
    assert parse(name) is card


@pytest.mark.parametrize(("name", "card"), NAMES)
def test_full_names_ignore_case(name: str, card: Card) -> None:
    assert parse(name.upper()) is card
    assert parse(name.lower()) is card


@pytest.mark.parametrize(
    ("typed", "card"),
    [
        ("KNEDLICEK", Card.DUMPLING),
        ("hulky", Card.CHOPSTICKS),
        ("Lososove Nigiri", Card.SALMON),
        ("nigiri s chobotnici", Card.SQUID),
        ("sushi a l omelette", Card.EGG),
        ("fenetre bas", Card.SQUID),
        ("FENÊTRE BAS", Card.SQUID),
        ("Fenêtre—Haut", Card.EGG),
        ("carre", Card.SASHIMI),
        ("ÉTOILE", Card.DUMPLING),
        ("звёздочка", Card.DUMPLING),
        ("звездочка", Card.DUMPLING),
        ("ПЕЛЬМЕНИ", Card.DUMPLING),
        ("  wasabi!  ", Card.WASABI),
    ],
)
def test_accents_case_and_punctuation_do_not_matter(typed: str, card: Card) -> None:
    assert parse(typed) is card


# The sticker words: shape, then position where the shape has one (seed 001
# in French; the same words in English, Czech and Russian).
STICKER_WORDS: list[tuple[str, Card]] = [
    # English
    ("triangle", Card.WASABI),
    ("star", Card.DUMPLING),
    ("diagonal cross", Card.TEMPURA),
    ("square", Card.SASHIMI),
    ("plus", Card.CHOPSTICKS),
    ("vertical cross", Card.CHOPSTICKS),
    ("flower", Card.PUDDING),
    ("window top", Card.EGG),
    ("window middle", Card.SALMON),
    ("window bottom", Card.SQUID),
    ("circle top", Card.MAKI1),
    ("circle middle", Card.MAKI2),
    ("circle bottom", Card.MAKI3),
    ("circle 2", Card.MAKI2),
    ("window 3", Card.SQUID),
    ("bottom window", Card.SQUID),
    # French
    ("étoile", Card.DUMPLING),
    ("croix diagonale", Card.TEMPURA),
    ("carré", Card.SASHIMI),
    ("croix verticale", Card.CHOPSTICKS),
    ("fleur", Card.PUDDING),
    ("fenêtre haut", Card.EGG),
    ("fenêtre milieu", Card.SALMON),
    ("fenêtre bas", Card.SQUID),
    ("cercle haut", Card.MAKI1),
    ("cercle milieu", Card.MAKI2),
    ("cercle bas", Card.MAKI3),
    ("rond bas", Card.MAKI3),
    # Czech
    ("trojúhelník", Card.WASABI),
    ("hvězda", Card.DUMPLING),
    ("čtverec", Card.SASHIMI),
    ("květina", Card.PUDDING),
    ("okno nahoře", Card.EGG),
    ("okno uprostřed", Card.SALMON),
    ("okno dole", Card.SQUID),
    ("kruh nahoře", Card.MAKI1),
    ("kruh uprostřed", Card.MAKI2),
    ("kruh dole", Card.MAKI3),
    # Russian
    ("треугольник", Card.WASABI),
    ("звезда", Card.DUMPLING),
    ("квадрат", Card.SASHIMI),
    ("плюс", Card.CHOPSTICKS),
    ("цветок", Card.PUDDING),
    ("окно вверху", Card.EGG),
    ("окно посередине", Card.SALMON),
    ("окно внизу", Card.SQUID),
    ("круг вверху", Card.MAKI1),
    ("круг посередине", Card.MAKI2),
    ("круг внизу", Card.MAKI3),
]


@pytest.mark.parametrize(("words", "card"), STICKER_WORDS)
def test_sticker_words(words: str, card: Card) -> None:
    assert parse(words) is card


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("  Fenêtre—BAS! ", "fenetre bas"),
        ("Пельмени", "пельмени"),
        ("KNEDLÍČEK", "knedlicek"),
        ("Sushi à l’omelette", "sushi a l omelette"),
        ("", ""),
    ],
)
def test_normalize(text: str, folded: str) -> None:
    assert normalize(text) == folded


# -- refusals ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "suggestions"),
    [
        ("w4", ("w1", "w2", "w3")),
        ("w0", ("w1", "w2", "w3")),
        ("w", ("w1", "w2", "w3")),
        ("o", ("o1", "o2", "o3")),
        ("o9", ("o1", "o2", "o3")),
        ("t1", ("t",)),
        ("x2", ("x",)),
        ("maki", ("o1", "o2", "o3")),
        ("nigiri", ("w1", "w2", "w3")),
        ("window", ("w1", "w2", "w3")),
        ("fenêtre", ("w1", "w2", "w3")),
        ("circle", ("o1", "o2", "o3")),
    ],
)
def test_refusal_lists_the_codes_to_choose_from(
    typed: str, suggestions: tuple[str, ...]
) -> None:
    with pytest.raises(UnknownCodeError) as caught:
        parse(typed)
    error = caught.value
    assert error.text == typed
    assert error.suggestions == suggestions
    message = str(error)
    assert repr(typed) in message
    for code in suggestions:
        assert code in message
        assert code in error.detail


def test_refusal_message_names_the_cards() -> None:
    with pytest.raises(UnknownCodeError) as caught:
        parse("w4")
    assert caught.value.detail == (
        "window (w) has positions 1 to 3; try w1 egg, w2 salmon, w3 squid"
    )
    assert str(caught.value) == (
        "'w4' is not a card: window (w) has positions 1 to 3;"
        " try w1 egg, w2 salmon, w3 squid"
    )


@pytest.mark.parametrize(
    ("typed", "best"),
    [
        ("salmn", "w2"),
        ("wasab", "t"),
        ("squidd", "w3"),
        ("tempora", "x"),
        ("puding", "f"),
        ("e", "w1"),  # one key off w on QWERTY
        ("a", "s"),  # one key off s
    ],
)
def test_refusal_suggests_the_closest_code_first(typed: str, best: str) -> None:
    with pytest.raises(UnknownCodeError) as caught:
        parse(typed)
    assert caught.value.suggestions[0] == best
    assert typed in str(caught.value)


def test_refusal_of_nothing() -> None:
    for typed in ("", "   "):
        with pytest.raises(UnknownCodeError) as caught:
            parse(typed)
        assert caught.value.suggestions == ()
        assert caught.value.detail == "nothing was typed"


def test_unknown_code_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="not a card"):
        parse("zz")


@pytest.mark.parametrize("digit", ["1", "2", "3"])
def test_position_digit_alone_suggests_the_cards_at_that_height(digit: str) -> None:
    # the shape key was forgotten: the closest codes are w<digit> and o<digit>
    with pytest.raises(UnknownCodeError) as caught:
        parse(digit)
    assert {"w" + digit, "o" + digit} <= set(caught.value.suggestions)


def test_every_unknown_single_key_gets_a_suggestion() -> None:
    # "Unknown code refused with ... the closest valid codes": a key that is
    # not a code must still be answered with something to type instead.
    codes = {short_code(card) for card in Card}
    without: list[str] = []
    for key in string.ascii_lowercase:
        if key in codes:
            continue
        with pytest.raises(UnknownCodeError) as caught:
            parse(key)
        if not caught.value.suggestions:
            without.append(key)
    assert without == []


def test_every_suggestion_is_a_valid_code() -> None:
    codes = {short_code(card) for card in Card}
    for typed in ("w4", "zz", "e", "a", "salmn", "maki", "t1", "xyzzy", "Клецек", "12"):
        with pytest.raises(UnknownCodeError) as caught:
            parse(typed)
        assert set(caught.value.suggestions) <= codes
        assert len(caught.value.suggestions) <= 3


# -- separators, look-alike letters, refusal kinds ------------------------------------


@pytest.mark.parametrize(
    ("typed", "card"),
    [
        ("w-2", Card.SALMON),
        ("w.2", Card.SALMON),
        ("O_3", Card.MAKI3),
        ("о1", Card.MAKI1),  # Cyrillic о, which looks like the circle key
        ("х", Card.TEMPURA),  # Cyrillic х looks like x
        ("р", Card.CHOPSTICKS),  # Cyrillic р looks like p
        ("щ1", Card.MAKI1),  # the key where o sits on a Russian layout
        ("croix vertical", Card.CHOPSTICKS),  # the adaptation table's own spelling
        ("baguette", Card.CHOPSTICKS),
    ],
)
def test_more_ways_to_type_a_card(typed: str, card: Card) -> None:
    assert parse(typed) is card


@pytest.mark.parametrize(
    ("typed", "refusal", "shape"),
    [
        ("", CodeRefusal.EMPTY, None),
        ("maki", CodeRefusal.AMBIGUOUS, None),
        # the adaptation has two crosses: a cross alone is asked about
        ("cross", CodeRefusal.AMBIGUOUS, None),
        ("kříž", CodeRefusal.AMBIGUOUS, None),
        ("croix", CodeRefusal.AMBIGUOUS, None),
        ("крест", CodeRefusal.AMBIGUOUS, None),
        ("w", CodeRefusal.NEEDS_POSITION, Shape.WINDOW),
        ("w12", CodeRefusal.NEEDS_POSITION, Shape.WINDOW),
        ("okno", CodeRefusal.NEEDS_POSITION, Shape.WINDOW),
        ("t2", CodeRefusal.NO_POSITION, Shape.TRIANGLE),
        ("k", CodeRefusal.UNKNOWN_CODE, None),
        ("salmn", CodeRefusal.UNKNOWN_NAME, None),
    ],
)
def test_refusals_say_why(typed: str, refusal: CodeRefusal, shape: Shape | None) -> None:
    with pytest.raises(UnknownCodeError) as caught:
        parse(typed)
    assert caught.value.refusal is refusal
    assert caught.value.shape is shape


def test_a_digit_after_a_wrong_key_suggests_cards_at_that_height() -> None:
    with pytest.raises(UnknownCodeError) as caught:
        parse("r2")
    assert set(caught.value.suggestions) <= {"w2", "o2"}
    assert caught.value.suggestions


@pytest.mark.parametrize("typed", ["cross", "Croix", "kříž", "крестик"])
def test_a_cross_alone_is_asked_about_with_both_crosses(typed: str) -> None:
    with pytest.raises(UnknownCodeError) as refused:
        parse(typed)
    assert refused.value.refusal is CodeRefusal.AMBIGUOUS
    assert refused.value.suggestions == ("x", "p")  # diagonal: tempura; upright: chopsticks
