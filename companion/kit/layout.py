"""Where things go: each mark on a card, the stickers on the sheets, the
card outlines of the placement guide. Millimetres throughout, from the top
left corner of the card or the page.

Marks keep :data:`MARGIN` from the card's edges and clear of the punched
hole (a single-hole punch, :data:`HOLE` across, its centre :data:`HOLE_AT`
from the two edges of the punched corner): a mark that would touch it moves
along the top edge, away from it.

>>> from companion.contract.game import Mark
>>> spot = place(Mark("circle", "left-bottom"), (44.0, 67.0), 8.0, "top-right", 0)
>>> spot.centre, spot.size
((8.0, 59.0), (8.0, 8.0))
>>> place(Mark("braille", "top-left"), (44.0, 67.0), 8.0, "top-left", 2).centre
(14.75, 7.25)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.contract.game import Mark
from companion.kit.drawing import (
    Circle,
    Figure,
    Group,
    Item,
    Page,
    Text,
    box,
    dashed_box,
    extent,
    shape,
)

#: A mark's distance from the card's edges (mm).
MARGIN = 4.0
#: The punched hole: across, and its centre's distance from the corner's two edges.
HOLE = 5.5
HOLE_AT = 6.0
#: Room kept round the hole.
HOLE_CLEAR = 1.0
#: Page margins, and the room round a sticker inside its cut line.
PAGE_MARGIN = 12.0
PAD = 2.0


class LayoutError(ValueError):
    """Marks that do not fit: ``reason`` is ``card`` (a mark leaves the card),
    ``crowded`` (marks on the left edge touch), or ``paper`` (a card or a
    sticker is bigger than the paper)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


@dataclass(frozen=True, slots=True)
class Spot:
    """Where a mark sits on a card: its centre and its width and height."""

    centre: tuple[float, float]
    size: tuple[float, float]

    @property
    def box(self) -> tuple[float, float, float, float]:
        (x, y), (w, h) = self.centre, self.size
        return (x - w / 2, y - h / 2, x + w / 2, y + h / 2)


def hole_centre(card: tuple[float, float], corner: str) -> tuple[float, float]:
    return (HOLE_AT if corner == "top-left" else card[0] - HOLE_AT, HOLE_AT)


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def place(mark: Mark, card: tuple[float, float], size: float, corner: str, cells: int) -> Spot:
    """Where ``mark`` goes on a card ``card`` mm (width, height) punched at
    ``corner``, with stickers ``size`` mm across (``cells``: a braille mark's
    cells); raises :class:`LayoutError` when it leaves the card."""
    width, height = card
    w, h = extent(mark.shape, size * mark.scale, count=mark.count, cells=cells)
    x, y = {
        "top-left": (MARGIN + w / 2, MARGIN + h / 2),
        "left-middle": (MARGIN + w / 2, height / 2),
        "left-bottom": (MARGIN + w / 2, height - MARGIN - h / 2),
        "bottom-edge": (width / 2, height - MARGIN - h / 2),
        "centre": (width / 2, height / 2),
    }[mark.place]
    hx, hy = hole_centre(card, corner)
    keep = HOLE / 2 + HOLE_CLEAR
    spot = Spot((x, y), (w, h))
    if _overlap(spot.box, (hx - keep, hy - keep, hx + keep, hy + keep)):
        x = hx + keep + w / 2 if corner == "top-left" else hx - keep - w / 2
        spot = Spot((x, y), (w, h))
    left, top, right, bottom = spot.box
    if left < 0.5 or top < 0.5 or right > width - 0.5 or bottom > height - 0.5:
        raise LayoutError("card")
    return Spot((round(x, 3), round(y, 3)), (round(w, 3), round(h, 3)))


def check_left_edge(spots: Sequence[tuple[str, Spot]]) -> None:
    """Marks at different heights of the left edge must not touch: the
    fingers tell them apart by height."""
    edge = [(p, s) for p, s in spots if p in ("top-left", "left-middle", "left-bottom")]
    for i, (place_a, a) in enumerate(edge):
        for place_b, b in edge[i + 1:]:
            if place_a != place_b and a.box[1] - 1 < b.box[3] and b.box[1] - 1 < a.box[3]:
                raise LayoutError("crowded")


@dataclass(frozen=True, slots=True)
class Piece:
    """Stickers of one mark of one kind of card, for the sheets."""

    card: str
    mark: Mark
    count: int
    label: str
    cells: str


def _draw(mark: Mark, centre: tuple[float, float], size: float, cells: str) -> list[Item]:
    return shape(mark.shape, centre[0], centre[1], size * mark.scale, count=mark.count,
                 cells=cells)


def sheets(pieces: Sequence[Piece], paper: tuple[float, float], size: float, *,
           heading: Callable[[int, int], tuple[str, ...]], continued: Callable[[str], str],
           alt: Callable[[Piece, int], str], title: str) -> list[Page]:
    """Sticker sheets: each piece's label (a heading), then its stickers in
    rows, each in its dashed cut line, a figure that ``alt(piece, number)``
    says in words. ``heading(page, pages)`` gives a page's first lines."""
    width, height = paper
    right, bottom = width - PAGE_MARGIN, height - PAGE_MARGIN
    top = PAGE_MARGIN + 16.0
    pages: list[list[Item]] = [[]]
    y = top
    label_height, gap = 6.0, 3.0
    for piece in pieces:
        w, h = extent(piece.mark.shape, size * piece.mark.scale, count=piece.mark.count,
                      cells=len(piece.cells))
        cw, ch = w + 2 * PAD, h + 2 * PAD
        if PAGE_MARGIN + cw > right or top + label_height + ch > bottom:
            raise LayoutError("paper")
        label = piece.label
        if y + label_height + ch > bottom:
            pages.append([])
            y = top
        pages[-1].append(Text((PAGE_MARGIN, y + 4.0), label, 3.5, level=2))
        y += label_height
        x = PAGE_MARGIN
        for number in range(1, piece.count + 1):
            if x + cw > right:
                x = PAGE_MARGIN
                y += ch
            if y + ch > bottom:
                pages.append([])
                y = top
                pages[-1].append(Text((PAGE_MARGIN, y + 4.0), continued(label), 3.5, level=2))
                y += label_height
            items = [dashed_box(x, y, cw, ch), *_draw(piece.mark, (x + cw / 2, y + ch / 2),
                                                      size, piece.cells)]
            pages[-1].append(Figure(alt(piece, number), (
                Group("sticker", piece.card, piece.mark.shape, tuple(items)),)))
            x += cw
        y += ch + gap
    return _paged(pages, paper, heading, title)


def _paged(pages: list[list[Item]], paper: tuple[float, float],
           heading: Callable[[int, int], tuple[str, ...]], title: str) -> list[Page]:
    done = []
    for number, items in enumerate(pages, 1):
        lines = heading(number, len(pages))
        head: list[Item] = [Text((PAGE_MARGIN, PAGE_MARGIN + 5.0), lines[0], 5.0, level=1)]
        head += [Text((PAGE_MARGIN, PAGE_MARGIN + 5.0 + 5.0 * i), line, 3.2)
                 for i, line in enumerate(lines[1:], 1)]
        done.append(Page(paper, f"{title} {number}/{len(pages)}", head + items))
    return done


@dataclass(frozen=True, slots=True)
class Outline:
    """One kind of card in the placement guide: its marks and their spots,
    the lines printed under it (the first, its name, a heading), and what
    the drawing shows, in words (``alt``)."""

    card: str
    marks: tuple[tuple[Mark, Spot, str], ...]
    lines: tuple[str, ...]
    alt: str


def guide(outlines: Sequence[Outline], card: tuple[float, float], corner: str, *,
          paper: tuple[float, float], size: float,
          heading: Callable[[int, int], tuple[str, ...]], title: str) -> list[Page]:
    """The placement guide: a card outline a kind at true size, with the
    punched hole, its stickers in place and its lines under it. The lines
    are read first, then the drawing, a figure."""
    width, height = paper
    cw, ch = card
    gap_x, gap_y, line_height = 8.0, 6.0, 4.2
    below = line_height * max((len(o.lines) for o in outlines), default=1) + 2.0
    top = PAGE_MARGIN + 21.0
    columns = int((width - 2 * PAGE_MARGIN + gap_x) // (cw + gap_x))
    rows = int((height - top - PAGE_MARGIN + gap_y) // (ch + below + gap_y))
    if columns < 1 or rows < 1:
        raise LayoutError("paper")
    pages: list[list[Item]] = []
    for index, outline in enumerate(outlines):
        if index % (columns * rows) == 0:
            pages.append([])
        slot = index % (columns * rows)
        left = PAGE_MARGIN + (slot % columns) * (cw + gap_x)
        upper = top + (slot // columns) * (ch + below + gap_y)
        hx, hy = hole_centre(card, corner)
        drawn: list[Item] = [box(left, upper, cw, ch),
                             Circle((left + hx, upper + hy), HOLE / 2, fill=False, width=0.3)]
        for mark, spot, cells in outline.marks:
            drawn += _draw(mark, (left + spot.centre[0], upper + spot.centre[1]), size, cells)
        items: list[Item] = [
            Text((left + cw / 2, upper + ch + line_height * (i + 1)), line, 3.2, "middle",
                 level=2 if i == 0 else 0)
            for i, line in enumerate(outline.lines)]
        items.append(Figure(outline.alt, tuple(drawn)))
        pages[-1].append(Group("card", outline.card, "outline", tuple(items)))
    return _paged(pages, paper, heading, title)
