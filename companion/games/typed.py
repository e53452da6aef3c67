"""Reading what a player types for a card, in every game: words folded
(case, accents, punctuation) and keys read by where they sit on the
keyboard, as the fingers find them, whatever layout is active.

>>> normalize("  Fenêtre—BAS! "), normalize("Пельмени")
('fenetre bas', 'пельмени')
>>> "цщ".translate(layout_table("123")), "ěšé\\"".translate(layout_table("234567"))
('wo', '2323')
"""

from __future__ import annotations

import unicodedata

from companion.digits import CZECH_DIGITS, FRENCH_DIGITS

#: A Russian (JCUKEN) layout's letters, and the QWERTY keys they sit on.
JCUKEN = "йцукенгшщзхъфывапролджэячсмитьбю"
QWERTY = "qwertyuiop[]asdfghjkl;'zxcvbnm,."


def normalize(text: str) -> str:
    """Fold case and accents and collapse everything but letters and digits."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    kept = "".join(
        ch if ch.isalnum() else " "
        for ch in decomposed
        if not unicodedata.combining(ch)
    )
    return " ".join(kept.split())


def layout_table(digits: str) -> dict[int, int]:
    """A translation table reading Russian letters as the QWERTY keys they
    sit on, and the Czech and French digit-row keys of ``digits`` as those
    digits (only those: ``é`` is 2 in French and 0 in Czech)."""
    keys = JCUKEN
    wanted = QWERTY
    for digit in digits:
        position = (int(digit) - 1) % 10
        for row in (FRENCH_DIGITS, CZECH_DIGITS):
            if row[position] not in keys:
                keys += row[position]
                wanted += digit
    return str.maketrans(keys, wanted)
