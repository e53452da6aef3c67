"""Numbers as players type them: the digit rows of the keyboard layouts,
the few plain digits an answer may have, and the option a typed digit
chooses in a menu.

A player who types a number without Shift on a Czech or a French keyboard
types the keys of its digit row: ``ě`` for 2 in Czech, ``é`` for 2 in
French. Both faces and the conversation read a menu's digit here, and the
games' typed codes read the same rows (:mod:`companion.games.typed`), so
they cannot disagree. Pure: the standard library only.

>>> menu_choice("ě", "cs", 3), menu_choice("4", "en", 3), menu_choice("", "fr", 3)
(1, None, None)
"""

from __future__ import annotations

#: The longest number any answer has: longer is refused before int() sees it.
DIGITS = 9
#: The digit row, unshifted, keys 1 to 0, of a Czech and a French keyboard.
CZECH_DIGITS = "+ěščřžýáíé"
FRENCH_DIGITS = "&é\"'(-è_çà"
#: The digit row of a keyboard layout, unshifted, by language.
DIGIT_ROWS = {"cs": CZECH_DIGITS, "fr": FRENCH_DIGITS}
#: Each digit row as a translation to the digits it stands for.
LAYOUT_DIGITS = {language: str.maketrans(row, "1234567890")
                 for language, row in DIGIT_ROWS.items()}


def layout_digits(text: str, language: str) -> str:
    """A number typed on the digit row of the language's keyboard, as digits;
    anything else as it was.

    >>> layout_digits("ěš", "cs"), layout_digits("&à", "fr"), layout_digits("é", "en")
    ('23', '10', 'é')
    """
    table = LAYOUT_DIGITS.get(language)
    if table is None:
        return text
    folded = text.translate(table)
    return folded if folded.isascii() and folded.isdigit() else text


def is_number(text: str) -> bool:
    """A few plain digits 0-9 (not ², nor other scripts' digits, nor more
    digits than any answer has, which int() may refuse).

    >>> is_number("12"), is_number("²"), is_number("1" * 10)
    (True, False, False)
    """
    return text.isascii() and text.isdigit() and len(text) <= DIGITS


def menu_choice(typed: str, language: str, count: int) -> int | None:
    """The index (from 0) of the option of a menu of ``count`` that ``typed``
    chooses by its number (on the digit row of the language's keyboard too),
    if it chooses one.

    >>> menu_choice("2", "en", 2), menu_choice("0", "en", 2), menu_choice("12", "en", 12)
    (1, None, 11)
    """
    digits = layout_digits(typed, language)
    if is_number(digits) and 1 <= int(digits) <= count:
        return int(digits) - 1
    return None
