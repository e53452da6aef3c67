"""Grade 1 braille through liblouis, and the BRF file embossers take.

Text is translated by liblouis's own ``lou_translate`` (Debian's
liblouis-bin), with the uncontracted literary table of each language, to
Unicode braille cells; the cells are then written in the North American
ASCII braille code that BRF files use (the same code liblouis's
``en-us-brf.dis`` display table gives).

A BRF page is at most :data:`CELLS` cells wide and :data:`LINES` lines
long; lines end with CR LF and pages with a form feed.

>>> to_brf("⠠⠞⠑⠍⠏⠥⠗⠁⠀⠼⠁⠙")
',TEMPURA #AD'
>>> wrap("⠁⠃⠀⠉⠙⠑⠀⠋", 4)
['⠁⠃', '⠉⠙⠑', '⠋']
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence

#: The liblouis table of each language: literary braille, uncontracted.
TABLES = {
    "en": "en-ueb-g1.ctb",
    "fr": "fr-bfu-comp6.utb",
    "cs": "cs-g1.ctb",
    "ru": "ru-litbrl.ctb",
}
#: An embosser's usual page: cells a line, lines a page.
CELLS = 40
LINES = 25
#: North American ASCII braille: the character of each cell of dots 1 to 6,
#: in the order of the Unicode braille patterns (U+2800 to U+283F).
_ASCII = " A1B'K2L@CIF/MSP\"E3H9O6R^DJG>NTQ,*5<-U8V.%[$+X!&;:4\\0Z7(_?W]#Y)="
BLANK = "\u2800"


class BrailleError(RuntimeError):
    """liblouis is missing or failed."""


def available() -> bool:
    """Whether ``lou_translate`` can be run."""
    return shutil.which("lou_translate") is not None


def translate(lines: Sequence[str], language: str) -> list[str]:
    """Each line in grade 1 braille of ``language``, as Unicode braille cells
    (one run of liblouis for all of them)."""
    if not lines:
        return []
    table = TABLES[language]
    command = ["lou_translate", "--forward", f"unicode.dis,{table}"]
    flat = [" ".join(line.split()) for line in lines]
    try:
        done = subprocess.run(command, input="\n".join(flat) + "\n", capture_output=True,
                              text=True, encoding="utf-8", check=False, timeout=60)
    except OSError as error:
        raise BrailleError(f"cannot run lou_translate: {error.strerror}") from None
    if done.returncode != 0:
        raise BrailleError(f"lou_translate failed: {done.stderr.strip()[:200]}")
    found = done.stdout.split("\n")[: len(flat)]
    if len(found) != len(flat):
        raise BrailleError("lou_translate gave fewer lines than it was given")
    # A cell liblouis could not translate is left as it came: keep cells only.
    return ["".join(_cells(line)).strip(BLANK) for line in found]


def numbers(lines: Sequence[str], language: str) -> list[str]:
    """Each line, a whole number, in grade 1 braille of ``language`` without
    liblouis: the number sign and the digits as liblouis's tables give them
    (French braille: dot 6, then the digits with dot 6 added; the others:
    dots 3456, then the letters a to j). The kit's stickers need only
    numbers, so they are made even where liblouis is missing (the system
    tests check these against liblouis). Raises :class:`BrailleError` for
    a line that is not a number.

    >>> numbers(["5", "10"], "en"), numbers(["10"], "fr")
    (['⠼⠑', '⠼⠁⠚'], ['⠠⠡⠼'])
    """
    sign, digits = _NUMBERS["fr" if language == "fr" else "en"]
    found = []
    for line in lines:
        if not (line.isascii() and line.isdigit()):
            raise BrailleError(f"{line!r} needs liblouis: it is not a number")
        found.append(sign + "".join(digits[int(digit)] for digit in line))
    return found


#: The number sign and the cells of 0 to 9: literary braille (English UEB,
#: Czech, Russian) and French (the six-dot computer code of fr-bfu-comp6).
_NUMBERS = {"en": ("⠼", "⠚⠁⠃⠉⠙⠑⠋⠛⠓⠊"), "fr": ("⠠", "⠼⠡⠣⠩⠹⠱⠫⠻⠳⠪")}


def _cells(line: str) -> list[str]:
    return [BLANK if ch == " " else ch for ch in line if ch == " " or 0x2800 <= ord(ch) < 0x2840]


def to_brf(cells: str) -> str:
    """Unicode braille cells (six dots) in the ASCII braille of BRF files."""
    return "".join(_ASCII[(ord(ch) - 0x2800) & 0x3F] for ch in cells)


def wrap(cells: str, width: int = CELLS) -> list[str]:
    """Braille cells broken into lines of at most ``width`` cells, at blank
    cells where there is one (a word longer than a line is cut)."""
    lines: list[str] = []
    current = ""
    for whole in cells.split(BLANK):
        word = whole
        if not word:
            continue
        while len(word) > width:
            if current:
                lines.append(current)
                current = ""
            lines.append(word[:width])
            word = word[width:]
        if not current:
            current = word
        elif len(current) + 1 + len(word) <= width:
            current += BLANK + word
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines


def brf(blocks: Sequence[Sequence[str]]) -> str:
    """A BRF document: ``blocks`` of braille lines (Unicode cells), a blank
    line between blocks, a block not split across pages where it fits on one,
    pages of :data:`LINES` lines ending in a form feed."""
    pages: list[list[str]] = [[]]
    for block in blocks:
        lines = [line for cells in block for line in wrap(cells)]
        page = pages[-1]
        needed = len(lines) + (1 if page else 0)
        if page and len(page) + needed > LINES and len(lines) <= LINES:
            pages.append([])
            page = pages[-1]
        elif page:
            page.append("")
        for line in lines:
            if len(page) == LINES:
                pages.append([])
                page = pages[-1]
            page.append(line)
    return "\f".join(
        "".join(to_brf(line) + "\r\n" for line in page) for page in pages if page) + "\f"
