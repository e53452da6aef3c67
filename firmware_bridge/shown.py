"""What the app writes back of what someone typed or a file held (a name,
a card, a path): every character that could act on a terminal or a
screen reader instead of being read (control characters, escape
sequences, bidi and other format characters) made visible, and text
cut to a sane length. It lives in the bridge, the lowest layer, so that
``firmware-bridge`` and the app write back the same way
(:mod:`companion.shown` is it, as the app knows it).

>>> shown("Ann\\x1b[2J")
'Ann␛[2J'
>>> shown("Ben\\u202e\\x00"), shown("x" * 100, limit=8)
('Ben<U+202E>␀', 'xxxxxxx…')
"""

from __future__ import annotations

import unicodedata

#: The longest text written back, in characters.
LIMIT = 60
#: The longest path written back (a port's ``/dev/serial/by-id/...`` name
#: runs to 70 or more, and must be read whole).
PATH_LIMIT = 200


def _visible(char: str) -> str:
    code = ord(char)
    if code < 0x20:  # C0 controls: their control pictures
        return chr(0x2400 + code)
    if code == 0x7F:  # delete
        return "\u2421"
    if unicodedata.category(char) in {"Cc", "Cf", "Cs", "Co", "Zl", "Zp"}:
        return f"<U+{code:04X}>"
    return char


def shown(text: str, limit: int = LIMIT) -> str:
    """``text`` safe to write back: visible, at most ``limit`` characters
    (cut with "…")."""
    cut = len(text) > limit
    visible = "".join(_visible(char) for char in text[: limit + 1])
    if cut or len(visible) > limit:
        visible = visible[: limit - 1] + "…"
    return visible
