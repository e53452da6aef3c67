"""The kit's PDF writer, read back by its own reader (tests/companion/kit/
pdfread.py) with no tool installed: the font is a subset whose glyph
numbers, widths and character map agree, whatever the language; the PDF
is tagged, every page's content marked and in the structure tree, in
reading order, every drawing a figure with its alternative text in the
kit's language. tests/companion/kit/test_kit.py reads the real kits with
poppler.

A font of boxes made here (fontTools' FontBuilder) stands in for DejaVu
Sans, so these tests need no font installed: every character of Basic
Latin, Latin-1, Latin Extended-A, Cyrillic and General Punctuation, each
its own width. Whole kits are made here with a stand-in for liblouis too
(a cell a letter: the braille is not what is checked here).
"""

from __future__ import annotations

import io
import re
import shutil
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Sequence
from functools import cache

import pytest
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont

from companion.contract.game import TactileKit, capability
from companion.games import games
from companion.i18n import LANGUAGES, Catalog
from companion.kit import braille, pdf
from companion.kit.drawing import Circle, Figure, Group, Item, Page, Text, dashed_box, shape
from companion.kit.make import Kit, Options, make
from companion.parts import how_to_get
from tests.companion.kit.pdfread import Document, Element, Value, read, tagged, text

#: The characters of the font made here.
CHARACTERS = [*range(0x20, 0x7F), *range(0xA0, 0x180), *range(0x400, 0x460),
              *range(0x2000, 0x2065)]
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


# -- the structure ------------------------------------------------------------------------------


def test_a_page_is_read_in_the_order_of_its_items(boxes: pdf.Font) -> None:
    items: list[Item] = [
        Text((10.0, 10.0), "Heading", 5.0, level=1),
        Text((10.0, 16.0), "A line under it.", 3.2),
        Text((10.0, 24.0), "Сбор: a part", 3.5, level=2),
        Figure("A star in its cut line.", (Group("sticker", "card", "star", (
            dashed_box(10.0, 30.0, 12.0, 12.0), *shape("star", 16.0, 36.0, 8.0))),)),
        *shape("circle", 50.0, 50.0, 4.0), *shape("square", 60.0, 50.0, 4.0),
        Text((10.0, 70.0), "Žluťoučký kůň", 3.2),
    ]
    pages = [Page((210.0, 297.0), "One", items),
             Page((210.0, 297.0), "Two", [Text((10.0, 10.0), "Page two", 5.0, level=1)])]
    document = read(pdf.write(pages, "cs", "Title", font=boxes))
    assert tagged(document) == [
        Element("H1", 0, 0, "", "Heading"), Element("P", 0, 1, "", "A line under it."),
        Element("H2", 0, 2, "", "Сбор: a part"),
        Element("Figure", 0, 3, "A star in its cut line.", ""),
        Element("P", 0, 4, "", "Žluťoučký kůň"), Element("H1", 1, 0, "", "Page two")]
    assert text(document.catalog["Lang"]) == "cs"
    # The two shapes that say nothing: one artifact, outside the structure.
    content = document.content(document.pages()[0][1])
    assert content.count(b"/Artifact BMC") == 1
    assert content.count(b" BDC") == 5


def test_a_figure_has_its_box_on_the_page(boxes: pdf.Font) -> None:
    figure = Figure("A circle.", tuple(shape("circle", 20.0, 30.0, 10.0)))
    document = read(pdf.write([Page((210.0, 297.0), "One", [figure])], "en", "T", font=boxes))
    (element,) = tagged(document)
    root = document.get(document.catalog["StructTreeRoot"])
    (figure_ref,) = document.get(root["K"][0])["K"]
    attributes = document.get(figure_ref)["A"]
    assert attributes["O"] == "Layout"
    left, bottom, right, top = attributes["BBox"]
    points = 72 / 25.4
    # the circle is 9 mm across (shape's 0.9), centred 20 mm from the left, 30 from the top
    assert left == pytest.approx((20 - 4.5) * points, abs=0.01)
    assert right == pytest.approx((20 + 4.5) * points, abs=0.01)
    assert top == pytest.approx((297 - 30 + 4.5) * points, abs=0.01)
    assert bottom == pytest.approx((297 - 30 - 4.5) * points, abs=0.01)
    assert element == Element("Figure", 0, 0, "A circle.", "")


def test_without_a_font_the_drawings_are_still_tagged() -> None:
    page = Page((210.0, 297.0), "One", [Text((10.0, 10.0), "Heading", 5.0, level=1),
                                        Figure("A circle.", (Circle((50.0, 50.0), 3.0),))])
    document = read(pdf.write([page], "fr", "Title", font=None))
    assert tagged(document) == [Element("Figure", 0, 0, "A circle.", "")]
    assert "Font" not in document.pages()[0][1]["Resources"]


KIT_GAMES = sorted(name for name, plugin in games().items()
                   if capability(plugin, TactileKit) is not None)


def fake_translate(texts: Sequence[str], language: str) -> list[str]:
    """A stand-in for liblouis: a braille cell a character, dots from its code."""
    return ["".join(chr(0x2800 + ord(ch) % 64) for ch in line) for line in texts]


@pytest.fixture
def kit_of(boxes: pdf.Font, monkeypatch: pytest.MonkeyPatch) -> type[Kit]:
    monkeypatch.setattr(braille, "available", lambda: True)
    monkeypatch.setattr(braille, "translate", fake_translate)
    monkeypatch.setattr(pdf, "find_font", lambda: boxes)
    return Kit


SVG = "{http://www.w3.org/2000/svg}"


def svg_reading(data: bytes) -> list[tuple[str, str]]:
    """What a page's SVG says, in its order: each text's role (H1, H2 or P)
    and words, each figure's (Figure) title."""
    found = []
    for element in ET.fromstring(data).iter():
        if element.tag == f"{SVG}text":
            level = element.get("aria-level")
            found.append((f"H{level}" if level else "P", element.text or ""))
        elif element.tag == f"{SVG}g" and element.get("role") == "img":
            title = element.find(f"{SVG}title")
            assert title is not None
            found.append(("Figure", title.text or ""))
    return found


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", KIT_GAMES)
def test_a_kit_s_pdfs_read_as_its_svg_pages_say(kit_of: type[Kit], name: str,
                                                language: str) -> None:
    plugin = games()[name]
    kit = make(plugin, Options(language=language))
    words = Catalog.for_language(language)
    for stem, pages in (("stickers", kit.pages), ("guide", kit.guide_pages)):
        document = read(kit.files[f"{stem}.pdf"])
        assert text(document.catalog["Lang"]) == language
        elements = tagged(document)
        assert {element.page for element in elements} == set(range(pages))
        for page in range(pages):
            read_out = [(e.role, e.text or e.alt) for e in elements if e.page == page]
            assert read_out == svg_reading(kit.files[f"{stem}-{page + 1}.svg"])
            heading = (words.text("%(game)s: stickers, sheet %(page)d of %(pages)d",
                                  game=plugin.title, page=page + 1, pages=pages)
                       if stem == "stickers" else
                       words.text("%(game)s: placement guide, page %(page)d of %(pages)d",
                                  game=plugin.title, page=page + 1, pages=pages))
            assert read_out[0] == ("H1", heading)
        figures = [e for e in elements if e.role == "Figure"]
        assert all(figure.alt.strip() for figure in figures)
    deck = capability(plugin, TactileKit).stickers(language)  # type: ignore[union-attr]
    sheet = [e for e in tagged(read(kit.files["stickers.pdf"])) if e.role == "Figure"]
    assert len(sheet) == sum(kind.count * len(kind.marks) for kind in deck.kinds)
    # Each sticker's words name its card, the card the heading before it names.
    heading = ""
    named: Counter[str] = Counter()
    for element in tagged(read(kit.files["stickers.pdf"])):
        if element.role == "H2":
            heading = element.text
        elif element.role == "Figure":
            (card,) = [kind.name for kind in deck.kinds if element.alt.startswith(kind.name)
                       and heading.startswith(kind.name)]
            named[card] += 1
    assert named == Counter({kind.name: kind.count * len(kind.marks) for kind in deck.kinds})
    # A card's outline says, in the guide's own words, where each sticker goes.
    guide = kit.files["guide.md"].decode()
    in_guide = tagged(read(kit.files["guide.pdf"]))
    outlines = [e for e in in_guide if e.role == "Figure"]
    assert len(outlines) == len(deck.kinds)
    for kind, figure in zip(deck.kinds, outlines, strict=True):
        # read after its name, a heading, and its count
        before = in_guide[in_guide.index(figure) - 2:in_guide.index(figure)]
        assert [(e.role, e.text) for e in before] == [
            ("H2", kind.name), ("P", words.plural("%(n)d card", "%(n)d cards", kind.count))]
        section = guide.split(f"## {kind.name}\n", 1)[1].split("\n## ", 1)[0]
        # the list: the count and code, the sticker, then a line a mark
        places = [line[2:] for line in section.splitlines() if line.startswith("- ")][2:]
        assert len(places) == len(kind.marks), section
        assert figure.alt.startswith(kind.name)
        for place in places:
            assert place in figure.alt


def test_without_a_font_the_kit_is_made_but_its_pdfs_saying_what_to_install(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(braille, "available", lambda: True)
    monkeypatch.setattr(braille, "translate", fake_translate)
    monkeypatch.setattr(pdf, "FONT_PATHS", ())
    monkeypatch.setattr(shutil, "which", lambda name: None)  # no fontconfig either
    # find_font as if called the first time (it keeps the font it found)
    monkeypatch.setattr(pdf, "find_font", pdf.find_font.__wrapped__)
    with pytest.raises(pdf.FontError):
        pdf.find_font()
    kit = make(games()["sushigo"], Options(language="fr"))
    assert sorted(name for name in kit.files if not name.endswith(".svg")) == [
        "cards.txt", "guide.md", "labels.brf"]
    french = Catalog.for_language("fr")
    assert kit.missing == [" ".join((french.text(
        "The PDF files were not made: they need a TrueType font, such as DejaVu Sans; the SVG "
        "files hold the same pages."), how_to_get("font", french)))]
