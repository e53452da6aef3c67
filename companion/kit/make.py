"""The kit of one game: every file, made in memory, then written into a
folder all at once (into a temporary folder beside it first, then moved into
place, so a failure leaves nothing half written).

The game is known only through its plugin
(:meth:`~companion.games.base.GamePlugin.stickers`): its kinds of card in
the order tags are enrolled, their names in the language asked, counts,
codes and marks. Every sentence of the kit is the app's (domain
``companion``), in the language asked.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from companion.games.base import GamePlugin, Mark, StickerKind, Stickers
from companion.i18n import LANGUAGES, N_, Catalog
from companion.kit import braille, pdf, svg
from companion.kit.layout import (
    LayoutError,
    Outline,
    Piece,
    Spot,
    check_left_edge,
    guide,
    place,
    sheets,
)
from companion.shown import shown

Placed = tuple[tuple[Mark, Spot, str], ...]

#: Paper sizes (mm, portrait).
PAPERS: Mapping[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
#: Sizes accepted (mm): a card's sides, and a sticker.
CARD_SIDES = (20.0, 200.0)
STICKER_SIZES = (4.0, 20.0)
DEFAULT_STICKER = 8.0

#: How the kit names each shape it draws (braille and dots: see _shape).
SHAPE_NAMES: Mapping[str, str] = {
    "triangle": N_("triangle"),
    "star": N_("star"),
    "diagonal-cross": N_("diagonal cross"),
    "square": N_("square"),
    "plus": N_("plus sign"),
    "flower": N_("flower"),
    "window": N_("window"),
    "circle": N_("circle"),
    "drop": N_("drop"),
    "double-arrow": N_("curved double arrow"),
    "arrowhead": N_("arrowhead"),
    "jagged": N_("jagged patch"),
}
#: Where a mark goes, in words.
PLACE_NAMES: Mapping[str, str] = {
    "top-left": N_("in the top left corner"),
    "left-middle": N_("on the left edge, in the middle"),
    "left-bottom": N_("on the left edge, at the bottom"),
    "bottom-edge": N_("along the bottom edge, in the middle"),
    "centre": N_("over the centre"),
}


class KitError(ValueError):
    """A kit that cannot be made, said in one sentence in the kit's language;
    ``status`` 2 for options to change, 1 for something to install."""

    def __init__(self, message: str, status: int = 2) -> None:
        self.status = status
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class Options:
    """What the kit is made for: paper, language, the cards' size (the
    game's assumed size when not given) and the stickers' size, in mm."""

    paper: str = "a4"
    language: str = "en"
    card_width: float | None = None
    card_height: float | None = None
    sticker: float = DEFAULT_STICKER


@dataclass(slots=True)
class Kit:
    """Every file of a kit by name, and its figures: stickers per kind of
    card (cards covered), sticker sheet pages and guide pages."""

    files: dict[str, bytes] = field(default_factory=dict)
    stickers: dict[str, int] = field(default_factory=dict)
    pages: int = 0
    guide_pages: int = 0


def _mm(value: float) -> str:
    """A length as printed: ``44``, ``63.5``.

    >>> _mm(44.0), _mm(63.5), _mm(215.9)
    ('44', '63.5', '215.9')
    """
    return f"{value:.1f}".removesuffix(".0")


def check_options(options: Options, words: Catalog) -> None:
    """Refuse options that make no kit, in one sentence (:class:`KitError`)."""
    if options.paper not in PAPERS:
        raise KitError(words.text("There is no paper called %(paper)s: give a4 or letter.",
                                  paper=shown(options.paper)))
    low, high = CARD_SIDES
    for side in (options.card_width, options.card_height):
        if side is not None and not low <= side <= high:
            raise KitError(words.text(
                "A card side of %(size)s mm cannot be right: give %(low)s to %(high)s mm.",
                size=_mm(side), low=_mm(low), high=_mm(high)))
    low, high = STICKER_SIZES
    if not low <= options.sticker <= high:
        raise KitError(words.text(
            "A sticker of %(size)s mm cannot be right: give %(low)s to %(high)s mm.",
            size=_mm(options.sticker), low=_mm(low), high=_mm(high)))


def make(plugin: GamePlugin, options: Options) -> Kit:
    """The whole kit of ``plugin``'s game, in memory; raises :class:`KitError`."""
    words = Catalog.for_language(options.language)
    check_options(options, words)
    if not braille.available():
        raise KitError(words.text(
            "Braille needs liblouis's lou_translate: install liblouis (Debian: liblouis-bin)."),
            status=1)
    try:
        font = pdf.find_font()
    except pdf.FontError:
        raise KitError(words.text(
            "The PDF needs a TrueType font: install DejaVu Sans (Debian: fonts-dejavu-core)."),
            status=1) from None
    deck = plugin.stickers(options.language)
    card = (options.card_width or deck.card_size[0], options.card_height or deck.card_size[1])
    title = plugin.title
    texts = sorted({m.text for k in deck.kinds for m in k.marks if m.shape == "braille"})
    try:
        cells = dict(zip(texts, braille.translate(texts, options.language), strict=True))
    except braille.BrailleError as error:
        raise KitError(words.text("liblouis failed: %(reason)s.", reason=str(error)),
                       status=1) from None
    spots = _spots(deck, card, options, cells, words)
    paper = PAPERS[options.paper]
    kit = Kit(stickers={k.card_id: k.count for k in deck.kinds})
    sheets_title = words.text("%(game)s: stickers", game=title)
    guide_title = words.text("%(game)s: placement guide", game=title)
    try:
        sheet_pages = sheets(
            _pieces(deck, cells, words), paper, options.sticker,
            heading=lambda page, pages: _sheet_heading(words, title, page, pages),
            continued=lambda label: words.text("%(label)s (continued)", label=label),
            title=sheets_title)
        guide_pages = guide(
            [_outline(words, kind, spots[kind.card_id]) for kind in deck.kinds], card,
            deck.punched_corner, paper=paper, size=options.sticker,
            heading=lambda page, pages: _guide_heading(
                words, title, card, deck.punched_corner, page=page, pages=pages),
            title=guide_title)
    except LayoutError:
        raise KitError(words.text(
            "A card of %(width)s by %(height)s mm does not fit on %(paper)s paper.",
            width=_mm(card[0]), height=_mm(card[1]), paper=options.paper.upper())) from None
    kit.pages, kit.guide_pages = len(sheet_pages), len(guide_pages)
    for number, page in enumerate(sheet_pages, 1):
        kit.files[f"stickers-{number}.svg"] = svg.render(page, options.language).encode()
    kit.files["stickers.pdf"] = pdf.write(sheet_pages, options.language, sheets_title,
                                          font=font)
    for number, page in enumerate(guide_pages, 1):
        kit.files[f"guide-{number}.svg"] = svg.render(page, options.language).encode()
    kit.files["guide.pdf"] = pdf.write(guide_pages, options.language, guide_title, font=font)
    kit.files["guide.md"] = guide_text(words, title, deck, card, spots).encode()
    kit.files["cards.txt"] = enrol_text(words, plugin.game, title, deck).encode()
    kit.files["labels.brf"] = _labels(words, title, deck, options.language).encode("ascii")
    return kit


def _spots(deck: Stickers, card: tuple[float, float], options: Options,
           cells: Mapping[str, str], words: Catalog) -> dict[str, Placed]:
    found: dict[str, Placed] = {}
    every: list[tuple[str, Spot]] = []
    try:
        for kind in deck.kinds:
            marks: list[tuple[Mark, Spot, str]] = []
            for mark in kind.marks:
                braille_cells = cells.get(mark.text, "") if mark.shape == "braille" else ""
                spot = place(mark, card, options.sticker, deck.punched_corner,
                             len(braille_cells))
                marks.append((mark, spot, braille_cells))
                every.append((mark.place, spot))
            found[kind.card_id] = tuple(marks)
        check_left_edge(every)
    except LayoutError as error:
        if error.reason == "crowded":
            raise KitError(words.text(
                "Stickers of %(size)s mm touch one another on a card %(height)s mm high: "
                "give a smaller --sticker-size.",
                size=_mm(options.sticker), height=_mm(card[1]))) from None
        raise KitError(words.text(
            "Stickers of %(size)s mm do not fit on a card of %(width)s by %(height)s mm: "
            "give a smaller --sticker-size.",
            size=_mm(options.sticker), width=_mm(card[0]), height=_mm(card[1]))) from None
    return found


def _shape(words: Catalog, mark: Mark) -> str:
    if mark.shape == "braille":
        return words.text("braille %(text)s", text=mark.text)
    if mark.shape == "dots":
        return words.plural("row of %(n)d dot", "row of %(n)d dots", mark.count)
    return words.text(SHAPE_NAMES[mark.shape])


def _first_upper(phrase: str) -> str:
    """
    >>> _first_upper("5 v Braillově písmu")
    '5 v Braillově písmu'
    >>> _first_upper("croix diagonale")
    'Croix diagonale'
    """
    return phrase[:1].upper() + phrase[1:]


def _pieces(deck: Stickers, cells: Mapping[str, str], words: Catalog) -> list[Piece]:
    return [
        Piece(kind.card_id, mark, kind.count,
              words.plural("%(card)s: %(shape)s %(place)s, %(n)d sticker",
                           "%(card)s: %(shape)s %(place)s, %(n)d stickers", kind.count,
                           card=kind.name, shape=_shape(words, mark),
                           place=words.text(PLACE_NAMES[mark.place])),
              cells.get(mark.text, "") if mark.shape == "braille" else "")
        for kind in deck.kinds for mark in kind.marks
    ]


def _corner(words: Catalog, corner: str) -> str:
    if corner == "top-left":
        return words.text("Hold each card face up with its punched hole at the top left.")
    return words.text("Hold each card face up with its punched hole at the top right.")


def _sheet_heading(words: Catalog, title: str, page: int, pages: int) -> tuple[str, ...]:
    return (words.text("%(game)s: stickers, sheet %(page)d of %(pages)d",
                       game=title, page=page, pages=pages),
            words.text("Print at actual size (%(scale)s), then cut along the dashed lines.",
                       scale="100%"))


def _guide_heading(words: Catalog, title: str, card: tuple[float, float], corner: str, *,
                   page: int, pages: int) -> tuple[str, ...]:
    return (words.text("%(game)s: placement guide, page %(page)d of %(pages)d",
                       game=title, page=page, pages=pages),
            _corner(words, corner),
            words.text("Cards at true size: %(width)s by %(height)s mm.",
                       width=_mm(card[0]), height=_mm(card[1])))


def _outline(words: Catalog, kind: StickerKind, marks: Placed) -> Outline:
    return Outline(kind.card_id, marks,
                   (kind.name, words.plural("%(n)d card", "%(n)d cards", kind.count)))


def guide_text(words: Catalog, title: str, deck: Stickers, card: tuple[float, float],
               spots: Mapping[str, Placed]) -> str:
    """The placement guide for reading: Markdown, a heading a kind of card,
    short lines, no table."""
    width, height = card
    lines = [f"# {words.text('%(game)s: placement guide', game=title)}", ""]
    if card == deck.card_size:
        lines.append(words.text(
            "Cards are taken to be %(width)s by %(height)s mm. Measure one of yours: if it "
            "differs, make the kit again with --card-width and --card-height.",
            width=_mm(width), height=_mm(height)))
    else:
        lines.append(words.text("Cards of %(width)s by %(height)s mm, as measured.",
                                width=_mm(width), height=_mm(height)))
    lines += ["", _corner(words, deck.punched_corner), "",
              words.text("Distances are from the card's left edge and top edge to the centre "
                         "of the sticker."), ""]
    for kind in deck.kinds:
        lines += [f"## {kind.name}", ""]
        lines.append("- " + words.plural("%(n)d card, code %(code)s.",
                                         "%(n)d cards, code %(code)s.", kind.count,
                                         code=kind.code))
        lines.append("- " + words.text("Sticker: %(sticker)s.", sticker=kind.sticker))
        for mark, spot, _ in spots[kind.card_id]:
            x, y = spot.centre
            lines.append("- " + words.text(
                "%(shape)s %(place)s: %(x)s mm from the left, %(y)s mm from the top.",
                shape=_first_upper(_shape(words, mark)), place=words.text(PLACE_NAMES[mark.place]),
                x=_mm(x), y=_mm(y)))
        lines.append("")
    return "\n".join(lines)


def enrol_text(words: Catalog, game: str, title: str, deck: Stickers) -> str:
    """Every card of the deck, one a line, in the order to enrol their tags."""
    lines = [f"# {words.text('%(game)s: cards in deck order, for enrolling NFC tags', game=title)}",
             "",
             words.text("Start firmware-bridge enrol --game %(game)s. For each card in this "
                        "order, put its tag on the scanner, then type its code.", game=game),
             ""]
    number = 0
    for kind in deck.kinds:
        for copy in range(1, kind.count + 1):
            number += 1
            lines.append(words.text("%(number)d. %(card)s, %(copy)d of %(count)d, code %(code)s.",
                                    number=number, card=kind.name, copy=copy, count=kind.count,
                                    code=kind.code))
    lines.append("")
    return "\n".join(lines)


def _labels(words: Catalog, title: str, deck: Stickers, language: str) -> str:
    """The BRF: a label a kind of card, then the deck's list for enrolling."""
    heading = words.text("%(game)s: braille labels", game=title)
    listing = words.text("Cards in deck order, for enrolling NFC tags:")
    rows = [words.plural("%(card)s, code %(code)s: %(n)d card",
                         "%(card)s, code %(code)s: %(n)d cards", kind.count,
                         card=kind.name, code=kind.code) for kind in deck.kinds]
    names = [kind.name for kind in deck.kinds]
    cells = braille.translate([heading, *names, listing, *rows], language)
    first, labels = cells[0], cells[1:1 + len(names)]
    rest = cells[1 + len(names):]
    return braille.brf([[first], *([label] for label in labels), rest])


def write(kit: Kit, folder: Path, words: Catalog) -> list[Path]:
    """Write the kit's files into ``folder`` (made if missing, its parent must
    exist), all or nothing; the pages of an earlier kit there that this one
    has not are removed. Raises :class:`KitError`."""
    target = folder.absolute()
    parent = target if target.is_dir() else target.parent
    temporary: Path | None = None
    try:
        if target.exists() and not target.is_dir():
            raise NotADirectoryError(20, os.strerror(20))
        temporary = Path(tempfile.mkdtemp(prefix=".kit-", dir=parent))
        for name, data in kit.files.items():
            (temporary / name).write_bytes(data)
        if target.is_dir():
            for name in kit.files:
                (temporary / name).replace(target / name)
            temporary.rmdir()
            # A page an earlier, longer kit had would pass for this kit's.
            for stale in (*target.glob("stickers-*.svg"), *target.glob("guide-*.svg")):
                if stale.name not in kit.files and stale.stem.split("-")[-1].isdigit():
                    stale.unlink()
        else:
            temporary.chmod(0o777 & ~_umask())
            temporary.rename(target)
        temporary = None
    except OSError as error:
        raise KitError(words.text("Cannot write the kit to %(folder)s: %(reason)s.",
                                  folder=shown(str(folder), limit=4096),
                                  reason=error.strerror or str(error))
                       ) from None
    finally:
        if temporary is not None:
            shutil.rmtree(temporary, ignore_errors=True)
    return [folder / name for name in kit.files]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def language_problem(language: str, words: Catalog) -> str | None:
    """A sentence refusing ``language``, or None when the kit speaks it."""
    if language in LANGUAGES:
        return None
    return words.text("There is no language called %(language)s: give cs, en, fr or ru.",
                      language=shown(language))

