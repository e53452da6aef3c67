"""The kit of one game: every file, made in memory, then written into a
folder all at once (into a temporary folder beside it first, then moved into
place, so a failure leaves nothing half written).

The game is known only through its plugin
(its :meth:`~companion.contract.game.TactileKit.stickers`): its kinds of card in
the order tags are enrolled, their names in the language asked, counts,
codes and marks. Every sentence of the kit is the app's (domain
``companion``), in the language asked.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from companion.contract.game import (
    Mark,
    Progressed,
    SomeGame,
    StickerKind,
    Stickers,
    TactileKit,
    capability,
    lacking_text,
    no_progress,
)
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
from companion.parts import how_to_get
from companion.portable import NOFOLLOW
from companion.shown import shown
from firmware_bridge import words as bridge_words
from firmware_bridge.files import SMALL_FILE_LIMIT, parse_json, read_limited

Placed = tuple[tuple[Mark, Spot, str], ...]

#: Paper sizes (mm, portrait).
PAPERS: Mapping[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
#: Sizes accepted (mm): a card's sides, and a sticker.
CARD_SIDES = (20.0, 200.0)
STICKER_SIZES = (4.0, 20.0)
DEFAULT_STICKER = 8.0
#: The file in a kit's folder listing what the kit wrote there (size and
#: SHA-256 of each): only those files are ever replaced or removed.
MANIFEST = ".companion-kit.json"
MANIFEST_FORMAT = 1
_FILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
_SHA256 = re.compile(r"[0-9a-f]{64}")

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
    card (cards covered), sticker sheet pages and guide pages; ``missing``:
    a sentence for each file not made for lack of a part (liblouis, a font),
    saying how to get it."""

    files: dict[str, bytes] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
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


#: The steps of :func:`make` its ``progress`` is told of.
STEPS = 5


def make(plugin: SomeGame, options: Options, progress: Progressed = no_progress) -> Kit:
    """The whole kit of ``plugin``'s game (one with a
    :class:`~companion.contract.game.TactileKit`), in memory; raises :class:`KitError`.
    ``progress`` is told the steps done of :data:`STEPS` (braille, the
    sheets' layout, the guide's, the sheets' files, the guide's)."""
    words = Catalog.for_language(options.language)
    kit_of = capability(plugin, TactileKit)
    if kit_of is None:
        raise KitError(lacking_text(plugin, TactileKit, options.language,
                                    words.text("%(game)s has no tactile kit.", game=plugin.title)))
    check_options(options, words)
    kit = Kit()
    louis = braille.available()
    if not louis:
        kit.missing.append(" ".join((words.text(
            "The braille labels (labels.brf) were not made: they need liblouis."),
            how_to_get("liblouis", words))))
    font = _font(kit, words)
    deck = kit_of.stickers(options.language)
    card = (options.card_width or deck.card_size[0], options.card_height or deck.card_size[1])
    title = plugin.title
    cells = _braille(deck, options.language, words, louis=louis)
    progress(1, STEPS)
    spots = _spots(deck, card, options, cells, words)
    paper = PAPERS[options.paper]
    kit.stickers = {k.card_id: k.count for k in deck.kinds}
    names = {k.card_id: k.name for k in deck.kinds}
    sheets_title = words.text("%(game)s: stickers", game=title)
    guide_title = words.text("%(game)s: placement guide", game=title)
    try:
        sheet_pages = sheets(
            _pieces(deck, cells, words), paper, options.sticker,
            heading=lambda page, pages: _sheet_heading(words, title, page, pages),
            continued=lambda label: words.text("%(label)s (continued)", label=label),
            alt=lambda piece, number: _sticker_alt(words, names[piece.card], piece, number),
            title=sheets_title)
        progress(2, STEPS)
        guide_pages = guide(
            [_outline(words, kind, spots[kind.card_id], deck.punched_corner)
             for kind in deck.kinds], card,
            deck.punched_corner, paper=paper, size=options.sticker,
            heading=lambda page, pages: _guide_heading(
                words, title, card, deck.punched_corner, page=page, pages=pages),
            title=guide_title)
    except LayoutError:
        raise KitError(words.text(
            "A card of %(width)s by %(height)s mm does not fit on %(paper)s paper.",
            width=_mm(card[0]), height=_mm(card[1]), paper=options.paper.upper())) from None
    progress(3, STEPS)
    kit.pages, kit.guide_pages = len(sheet_pages), len(guide_pages)
    for number, page in enumerate(sheet_pages, 1):
        kit.files[f"stickers-{number}.svg"] = svg.render(page, options.language).encode()
    if font is not None:
        kit.files["stickers.pdf"] = pdf.write(sheet_pages, options.language, sheets_title,
                                              font=font)
    progress(4, STEPS)
    for number, page in enumerate(guide_pages, 1):
        kit.files[f"guide-{number}.svg"] = svg.render(page, options.language).encode()
    if font is not None:
        kit.files["guide.pdf"] = pdf.write(guide_pages, options.language, guide_title,
                                           font=font)
    kit.files["guide.md"] = guide_text(words, title, deck, card, spots).encode()
    kit.files["cards.txt"] = enrol_text(words, plugin.game, title, deck).encode()
    if louis:
        kit.files["labels.brf"] = _labels(words, title, deck, options.language).encode("ascii")
    progress(STEPS, STEPS)
    return kit


def _font(kit: Kit, words: Catalog) -> pdf.Font | None:
    """The PDFs' font, or ``None`` (said in ``kit.missing``): the SVGs only."""
    try:
        return pdf.find_font()
    except pdf.FontError:
        kit.missing.append(" ".join((words.text(
            "The PDF files were not made: they need a TrueType font, such as DejaVu Sans; "
            "the SVG files hold the same pages."), how_to_get("font", words))))
        return None


def _braille(deck: Stickers, language: str, words: Catalog, *, louis: bool) -> dict[str, str]:
    """The cells of each braille text on the stickers: liblouis's, or,
    without it, the numbers the kit can write itself."""
    texts = sorted({m.text for k in deck.kinds for m in k.marks if m.shape == "braille"})
    try:
        found = (braille.translate if louis else braille.numbers)(texts, language)
    except braille.BrailleError as error:
        if not louis:  # braille other than numbers on the stickers: liblouis or nothing
            raise KitError(" ".join((words.text(
                "The stickers need braille from liblouis's lou_translate."),
                how_to_get("liblouis", words))), status=1) from None
        raise KitError(words.text("liblouis failed: %(reason)s.", reason=str(error)),
                       status=1) from None
    return dict(zip(texts, found, strict=True))


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


def _sticker_alt(words: Catalog, name: str, piece: Piece, number: int) -> str:
    """What a sticker on the sheet shows, for a screen reader: the card,
    which of its stickers, and the shape and place its label gives."""
    return words.text("%(card)s, sticker %(number)d of %(count)d: %(shape)s %(place)s.",
                      card=name, number=number, count=piece.count,
                      shape=_shape(words, piece.mark),
                      place=words.text(PLACE_NAMES[piece.mark.place]))


def _where(words: Catalog, mark: Mark, spot: Spot) -> str:
    """A sticker's shape, place and distances, as the guide says them."""
    x, y = spot.centre
    return words.text(
        "%(shape)s %(place)s: %(x)s mm from the left, %(y)s mm from the top.",
        shape=_first_upper(_shape(words, mark)), place=words.text(PLACE_NAMES[mark.place]),
        x=_mm(x), y=_mm(y))


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


def _outline(words: Catalog, kind: StickerKind, marks: Placed, corner: str) -> Outline:
    if corner == "top-left":
        drawing = words.text("%(card)s: card outline, punched hole at the top left.",
                             card=kind.name)
    else:
        drawing = words.text("%(card)s: card outline, punched hole at the top right.",
                             card=kind.name)
    alt = " ".join([drawing, *(_where(words, mark, spot) for mark, spot, _ in marks)])
    return Outline(kind.card_id, marks,
                   (kind.name, words.plural("%(n)d card", "%(n)d cards", kind.count)), alt)


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
        lines += ["- " + _where(words, mark, spot) for mark, spot, _ in spots[kind.card_id]]
        lines.append("")
    return "\n".join(lines)


def enrol_text(words: Catalog, game: str, title: str, deck: Stickers) -> str:
    """Every card of the deck, one a line, in the order to enrol their tags."""
    heading = words.text("%(game)s: cards in deck order, for enrolling NFC tags", game=title)
    lines = [f"# {heading}",
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
    exist), all or nothing, and list them in the folder's :data:`MANIFEST`.

    The folder is the user's: a file there is replaced (or removed, a page an
    earlier, longer kit had) only if the manifest lists it and it still holds
    what the kit wrote. Any other file of a kit's name, or a link, is never
    touched: the kit is refused, naming it, and nothing is written. ``folder``
    itself may be a link (the user named it); no link in it is followed.
    Raises :class:`KitError`."""
    target = folder.absolute()
    shown_folder = shown(str(folder), limit=4096)
    try:
        if not target.exists():
            if target.is_symlink():  # a link to nothing: where it leads is no folder of the user's
                raise FileNotFoundError(2, os.strerror(2))
            _write_new(kit, target)
        elif not target.is_dir():
            raise NotADirectoryError(20, os.strerror(20))
        else:
            clashes = _update(kit, target, shown_folder, words)
            if clashes:
                raise KitError(words.plural(
                    "%(folder)s already holds %(n)d file of the kit's names that this app "
                    "did not write there: %(files)s. Nothing was written: move it away, or "
                    "give another --out folder.",
                    "%(folder)s already holds %(n)d files of the kit's names that this app "
                    "did not write there: %(files)s. Nothing was written: move them away, or "
                    "give another --out folder.",
                    len(clashes), files=", ".join(shown(name) for name in sorted(clashes)),
                    folder=shown_folder))
    except OSError as error:
        raise KitError(words.text("Cannot write the kit to %(folder)s: %(reason)s.",
                                  folder=shown_folder,
                                  reason=bridge_words.os_reason(error, words.language))
                       ) from None
    return [folder / name for name in kit.files]


def _digest(data: bytes) -> dict[str, object]:
    return {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def _manifest(files: Mapping[str, dict[str, object]],
              earlier: Mapping[str, dict[str, object]] | None = None) -> bytes:
    document: dict[str, object] = {"format": MANIFEST_FORMAT, "written_by": "companion kit",
                                   "files": dict(files)}
    if earlier:
        document["earlier"] = dict(earlier)
    return (json.dumps(document, indent=1, sort_keys=True) + "\n").encode()


def _write_new(kit: Kit, target: Path) -> None:
    """A new folder: made whole beside where it goes, then moved there."""
    temporary = Path(tempfile.mkdtemp(prefix=".kit-", dir=target.parent))
    try:
        for name, data in kit.files.items():
            _create(temporary / name, data)
        _create(temporary / MANIFEST, _manifest({n: _digest(d) for n, d in kit.files.items()}))
        temporary.chmod(0o755 & ~_umask())
        temporary.rename(target)
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise


def _update(kit: Kit, target: Path, shown_folder: str, words: Catalog) -> list[str]:
    """Write the kit into an existing folder; the names refused (nothing is
    then written). Files go to a temporary folder inside first; the manifest
    written before they are moved in accepts a file's earlier content as
    well as its new one, so that a kit cut off half way is still known as
    the kit's the next time."""
    listed = _read_manifest(target, shown_folder, words)
    ours = {name: found for name in listed
            if (found := _ours(target / name, listed[name])) is not None}
    clashes = [name for name in kit.files if _there(target / name) and name not in ours]
    if _is_link_or_odd(target / MANIFEST):
        clashes.append(MANIFEST)
    if clashes:
        return clashes
    stale = [name for name in ours if name not in kit.files]
    new = {name: _digest(data) for name, data in kit.files.items()}
    # what is there now, for as long as it may still be there
    earlier = {name: found for name, found in ours.items() if found != new.get(name)}
    temporary = Path(tempfile.mkdtemp(prefix=".kit-", dir=target))
    try:
        for name, data in kit.files.items():
            _create(temporary / name, data)
        _create(temporary / f"{MANIFEST}.new", _manifest(new))
        _create(temporary / MANIFEST, _manifest(new, earlier))
        (temporary / MANIFEST).replace(target / MANIFEST)
        for name in kit.files:
            (temporary / name).replace(target / name)
        for name in stale:  # a page an earlier, longer kit had would pass for this kit's
            (target / name).unlink(missing_ok=True)
        (temporary / f"{MANIFEST}.new").replace(target / MANIFEST)
    finally:
        shutil.rmtree(temporary, ignore_errors=True)
    return []


def _create(path: Path, data: bytes) -> None:
    """A new file: never through a link, never over a file; readable by
    others as the umask allows (a kit is for printing and sharing), written
    by the user only."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW, 0o644)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def _there(path: Path) -> bool:
    return path.exists() or path.is_symlink()


def _is_link_or_odd(path: Path) -> bool:
    """A name the kit must not write over: a link, or anything but a file."""
    return path.is_symlink() or (path.exists() and not path.is_file())


def _ours(path: Path, entries: Sequence[Mapping[str, object]]) -> dict[str, object] | None:
    """The manifest's entry for what ``path`` holds, if it is a file (a link
    never is) holding what the kit wrote there: one of ``entries`` (the
    file's, and its earlier one if a kit was cut off half way)."""
    try:
        facts = path.lstat()
        if not stat.S_ISREG(facts.st_mode) or not any(
                facts.st_size == entry["size"] for entry in entries):
            return None
        found = _digest(read_limited(path, facts.st_size))
    except OSError:
        return None
    return found if found in entries else None


def _read_manifest(target: Path, shown_folder: str, words: Catalog
                   ) -> dict[str, list[dict[str, object]]]:
    """The files the folder's manifest lists (none if there is none), each
    with its size and hash, and its earlier ones if a kit was cut off."""
    path = target / MANIFEST
    if not _there(path):
        return {}
    try:
        data = parse_json(read_limited(path, SMALL_FILE_LIMIT, within=target))
        if not isinstance(data, dict) or data.get("format") != MANIFEST_FORMAT:
            raise ValueError("not a kit's manifest")
        listed: dict[str, list[dict[str, object]]] = {}
        for name, entry in (*_entries(data.get("files")), *_entries(data.get("earlier", {}))):
            listed.setdefault(name, []).append(entry)
    except (OSError, ValueError):
        raise KitError(words.text(
            "%(file)s in %(folder)s is not the list of a kit this app wrote there: nothing "
            "was written. Move it away, or give another --out folder.",
            file=MANIFEST, folder=shown_folder)) from None
    return listed


def _entries(files: object) -> list[tuple[str, dict[str, object]]]:
    """The schema of a manifest's list: a plain file name each, with a size
    and a SHA-256; raises :class:`ValueError`."""
    if not isinstance(files, dict):
        raise ValueError("no list of files")
    entries = []
    for name, entry in files.items():
        if (not isinstance(name, str) or not _FILE_NAME.fullmatch(name)
                or not isinstance(entry, dict)
                or not isinstance(entry.get("size"), int) or isinstance(entry.get("size"), bool)
                or not isinstance(entry.get("sha256"), str)
                or not _SHA256.fullmatch(entry["sha256"])):
            raise ValueError(f"a bad entry: {name!r}")
        entries.append((name, {"size": entry["size"], "sha256": entry["sha256"]}))
    return entries


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

