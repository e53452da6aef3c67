"""The kit's PDF writer, read back by its own reader (tests/companion/kit/
pdfread.py) with no tool installed: the font is a subset whose glyph
numbers, widths and character map agree, whatever the language.

A font of boxes made here (fontTools' FontBuilder) stands in for DejaVu
Sans, so these tests need no font installed: every character of Basic
Latin, Latin-1, Latin Extended-A and Cyrillic, each its own width.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from functools import cache

import pytest
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont

from companion.kit import pdf
from companion.kit.drawing import Circle, Page, Text
from tests.companion.kit.pdfread import Document, Value, read, text

#: The characters of the font made here.
CHARACTERS = [*range(0x20, 0x7F), *range(0xA0, 0x180), *range(0x400, 0x460)]
#: A line of each language the kit speaks.
LINES = {
    "en": "Sushi Go!: stickers, sheet 1 of 2",
    "cs": "Příliš žluťoučký kůň úpěl ďábelské ódy: nálepky, list 1 z 2",
    "fr": "Gommettes : « Baguettes », croix diagonale en haut à gauche, 4 œufs",
    "ru": "Наклейки, лист 1 из 2: съешь же ещё этих мягких французских булок",
}


def width_of(code: int) -> int:
    """Each character's advance, in font units: all different nearby."""
    return 300 + (code * 37) % 600


@cache
def font_bytes() -> bytes:
    names = [".notdef", *(f"u{code:04X}" for code in CHARACTERS)]
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder(names)
    builder.setupCharacterMap({code: f"u{code:04X}" for code in CHARACTERS})
    glyphs = {}
    for name in names:
        pen = TTGlyphPen(None)
        pen.moveTo((50, 0))
        pen.lineTo((50, 700))
        pen.lineTo((250, 700))
        pen.lineTo((250, 0))
        pen.closePath()
        glyphs[name] = pen.glyph()
    builder.setupGlyf(glyphs)
    builder.setupHorizontalMetrics(
        {name: (500 if name == ".notdef" else width_of(int(name[1:], 16)), 50)
         for name in names})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "Boxes", "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=800, usWinAscent=800, usWinDescent=200)
    builder.setupPost()
    out = io.BytesIO()
    builder.save(out)
    return out.getvalue()


@pytest.fixture
def boxes() -> pdf.Font:
    return pdf.parse_font(font_bytes(), "Boxes")


def page_of(lines: Sequence[str]) -> Page:
    items: list[Text | Circle] = [Text((10.0, 10.0 + 6 * i), line, 3.5)
                                  for i, line in enumerate(lines)]
    items.append(Circle((100.0, 100.0), 5.0))
    return Page((210.0, 297.0), "Page", list(items))


def embedded(document: Document) -> tuple[dict[str, Value], TTFont]:
    """The Type 0 font of the first page, and its font file as fontTools reads it."""
    _, page = document.pages()[0]
    type0 = document.get(page["Resources"]["Font"]["F1"])
    cid = document.get(type0["DescendantFonts"][0])
    descriptor = document.get(cid["FontDescriptor"])
    data = document.streams[descriptor["FontFile2"].number]
    return type0, TTFont(io.BytesIO(data))


def to_unicode(document: Document, type0: dict[str, Value]) -> dict[int, str]:
    """The ToUnicode map of a font: glyph number to text."""
    ref = type0["ToUnicode"]
    cmap = document.streams[ref.number].decode("ascii")
    pairs = "\n".join(re.findall(r"beginbfchar\n(.*?)endbfchar", cmap, re.DOTALL))
    return {int(glyph, 16): bytes.fromhex(code).decode("utf-16-be")
            for glyph, code in re.findall(r"<([0-9A-F]{4})> <([0-9A-F]+)>", pairs)}


def shown_text(document: Document, glyphs: dict[int, str]) -> list[str]:
    """Every string the pages show, in the order drawn, read through the ToUnicode map."""
    found = []
    for _, page in document.pages():
        for hexed in re.findall(rb"<([0-9A-F]*)> Tj", document.content(page)):
            numbers = [int(hexed[i:i + 4], 16) for i in range(0, len(hexed), 4)]
            found.append("".join(glyphs.get(number, "\ufffd") for number in numbers))
    return found


@pytest.mark.parametrize("language", sorted(LINES))
def test_the_text_of_each_language_reads_back_through_the_subset(
        boxes: pdf.Font, language: str) -> None:
    lines = [LINES[language], "0123456789 (100%)"]
    document = read(pdf.write([page_of(lines)], language, "Title", font=boxes))
    type0, font = embedded(document)
    glyphs = to_unicode(document, type0)
    assert shown_text(document, glyphs) == lines
    # The font file holds .notdef and the glyphs of these characters only.
    used = set("".join(lines))
    assert len(font.getGlyphOrder()) == len(used) + 1
    cmap = font.getBestCmap()
    assert {chr(code) for code in cmap} == used
    order = font.getGlyphOrder()
    # The ToUnicode map and the font's own map agree, glyph by glyph.
    assert {order.index(name): chr(code) for code, name in cmap.items()} == glyphs


def test_the_widths_are_the_subset_s_own(boxes: pdf.Font) -> None:
    line = LINES["cs"] + LINES["ru"]
    document = read(pdf.write([page_of([line])], "cs", "Title", font=boxes))
    type0, font = embedded(document)
    glyphs = to_unicode(document, type0)
    cid = document.get(type0["DescendantFonts"][0])
    widths = cid["W"]
    listed = {widths[i]: widths[i + 1][0] for i in range(0, len(widths), 2)}
    assert set(listed) == set(glyphs)
    for glyph, character in glyphs.items():
        assert listed[glyph] == width_of(ord(character))  # units of 1000 a size
        assert font["hmtx"][font.getGlyphOrder()[glyph]][0] == width_of(ord(character))


def test_a_subset_is_named_as_one_and_the_same_text_gives_the_same_bytes(
        boxes: pdf.Font) -> None:
    pages = [page_of([LINES["fr"]])]
    first = pdf.write(pages, "fr", "Title", font=boxes)
    assert first == pdf.write(pages, "fr", "Title", font=boxes)
    document = read(first)
    type0, _ = embedded(document)
    assert re.fullmatch(r"[A-Z]{6}\+Boxes", type0["BaseFont"])
    other = read(pdf.write([page_of([LINES["ru"]])], "ru", "Title", font=boxes))
    assert embedded(other)[0]["BaseFont"] != type0["BaseFont"]


def test_the_subset_is_a_small_part_of_the_font(boxes: pdf.Font) -> None:
    whole = pdf.write([page_of([LINES["en"]])], "en", "Title", font=None)
    data = pdf.write([page_of([LINES["en"]])], "en", "Title", font=boxes)
    _, font = embedded(read(data))
    assert len(font.getGlyphOrder()) < len(CHARACTERS) / 10
    assert len(data) - len(whole) < len(font_bytes()) / 4


def test_a_font_fonttools_cannot_subset_is_embedded_whole(
        boxes: pdf.Font, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(font: pdf.Font, characters: str) -> pdf.Font:
        raise AssertionError("a table fontTools does not know")

    monkeypatch.setattr(pdf, "subset", refuse)
    document = read(pdf.write([page_of([LINES["ru"]])], "ru", "Title", font=boxes))
    type0, font = embedded(document)
    assert type0["BaseFont"] == "Boxes"
    assert len(font.getGlyphOrder()) == len(CHARACTERS) + 1
    assert shown_text(document, to_unicode(document, type0)) == [LINES["ru"]]


def test_a_character_the_font_lacks_is_drawn_as_notdef(boxes: pdf.Font) -> None:
    document = read(pdf.write([page_of(["a→b"])], "en", "Title", font=boxes))
    type0, _ = embedded(document)
    assert shown_text(document, to_unicode(document, type0)) == ["a\ufffdb"]
    assert text(document.get(document.trailer["Info"])["Title"]) == "Title"
