"""What a page of the kit holds, in millimetres from its top left corner,
and the relief shapes drawn with it: the one picture both the SVG and the
PDF writers render.

A page is a list of items: lines, circles, polygons and text, some of them
grouped (a sticker: its cut line and its shape, named by card and shape so a
test can count them in the SVG). Shapes are filled black: on swell paper the
black rises, on paper they are the outline to cut.

A page is read in the order of its items, for those who do not see it: a
line of text is a heading (``level`` 1 or 2) or a paragraph, a
:class:`Figure` is a drawing with a sentence saying what it shows, and any
other drawing is a mark that says nothing (:func:`reading`).

>>> items = shape("plus", 10.0, 10.0, 8.0)
>>> [type(item).__name__ for item in items]
['Polygon']
>>> extent("dots", 8.0, count=5)
(19.68, 2.4)
>>> [(part.role, part.alt) for part in reading([Text((0.0, 5.0), "Sheet", 5.0, level=1),
...     Figure("A plus sign.", tuple(items)), *shape("circle", 5.0, 5.0, 2.0)])]
[('H1', ''), ('Figure', 'A plus sign.'), ('Artifact', '')]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

#: Braille cells at their standard size (mm): dot diameter, dots apart, cells apart.
BRAILLE_DOT = 1.5
BRAILLE_PITCH = 2.5
BRAILLE_CELL = 6.0

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Line:
    """A straight line; ``dashed`` for a cut line, ``grey`` for a guide."""

    start: Point
    end: Point
    width: float = 0.25
    dashed: bool = False
    grey: bool = False


@dataclass(frozen=True, slots=True)
class Circle:
    centre: Point
    radius: float
    fill: bool = True
    width: float = 0.25
    dashed: bool = False


@dataclass(frozen=True, slots=True)
class Polygon:
    """A closed outline, filled (``width`` 0) or drawn with a line ``width``
    wide; ``closed`` False for an open line through the points."""

    points: tuple[Point, ...]
    fill: bool = True
    width: float = 0.0
    closed: bool = True
    dashed: bool = False
    grey: bool = False


@dataclass(frozen=True, slots=True)
class Text:
    """A line of print: ``size`` is the font size in mm, ``anchor`` start or
    middle; ``level`` 1 for a page's heading, 2 for a heading within the
    page, 0 for the rest."""

    at: Point
    text: str
    size: float = 3.5
    anchor: str = "start"
    level: int = 0


@dataclass(frozen=True, slots=True)
class Group:
    """Items that belong together: ``kind`` names it in the SVG (``sticker``,
    ``card``), ``card`` and ``shape`` say whose it is."""

    kind: str
    card: str
    shape: str
    items: tuple[Item, ...]


@dataclass(frozen=True, slots=True)
class Figure:
    """A drawing that shows something: ``alt`` says what, in a sentence, in
    the kit's language (the PDF's alternative text, the SVG's title)."""

    alt: str
    items: tuple[Item, ...]


Item = Line | Circle | Polygon | Text | Group | Figure
Drawn = Line | Circle | Polygon | Text


@dataclass(frozen=True, slots=True)
class Part:
    """A piece of a page as it is read: ``role`` ``H1`` or ``H2`` (a
    heading), ``P`` (a line of text), ``Figure`` (a drawing, ``alt`` saying
    what it shows) or ``Artifact`` (drawn, but saying nothing); ``items``
    what draws it."""

    role: str
    alt: str
    items: tuple[Drawn, ...]


@dataclass(slots=True)
class Page:
    """One sheet of paper, ``size`` in mm (width, height), and what is on it."""

    size: tuple[float, float]
    title: str
    items: list[Item] = field(default_factory=list)


# -- the shapes --------------------------------------------------------------------------------


def _star(cx: float, cy: float, outer: float, inner: float, points: int, *,
          turn: float = -math.pi / 2) -> tuple[Point, ...]:
    found = []
    for i in range(points * 2):
        radius = outer if i % 2 == 0 else inner
        angle = turn + i * math.pi / points
        found.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return tuple(found)


def _cross(cx: float, cy: float, size: float, angle: float) -> tuple[Point, ...]:
    half, arm = size / 2, size * 0.16
    outline = ((-arm, -half), (arm, -half), (arm, -arm), (half, -arm), (half, arm), (arm, arm),
               (arm, half), (-arm, half), (-arm, arm), (-half, arm), (-half, -arm), (-arm, -arm))
    cos, sin = math.cos(angle), math.sin(angle)
    return tuple((cx + x * cos - y * sin, cy + x * sin + y * cos) for x, y in outline)


def _arc(cx: float, cy: float, radius: float, start: float, end: float, *,
         steps: int = 24) -> list[Point]:
    return [(cx + radius * math.cos(start + (end - start) * i / steps),
             cy + radius * math.sin(start + (end - start) * i / steps)) for i in range(steps + 1)]


def _towards(start: Point, end: Point) -> float:
    return math.atan2(end[1] - start[1], end[0] - start[0])


def _head(tip: Point, towards: float, size: float) -> Polygon:
    """A filled arrowhead with its tip at ``tip``, pointing along ``towards`` (radians)."""
    back = towards + math.pi
    left = (tip[0] + size * math.cos(back - 0.5), tip[1] + size * math.sin(back - 0.5))
    right = (tip[0] + size * math.cos(back + 0.5), tip[1] + size * math.sin(back + 0.5))
    return Polygon((tip, left, right))


def braille_dots(cells: str, left: float, top: float) -> list[Circle]:
    """The dots of Unicode braille ``cells``, the first cell's dot 1 at
    (``left``, ``top``) plus half a dot.

    >>> len(braille_dots("⠼⠑", 0.0, 0.0))  # number sign (4 dots), e (2 dots)
    6
    """
    found = []
    radius = BRAILLE_DOT / 2
    for index, cell in enumerate(cells):
        bits = ord(cell) - 0x2800
        if not 0 <= bits < 0x100:
            continue
        for dot in range(6):
            if bits & (1 << dot):
                column, row = divmod(dot, 3)
                found.append(Circle((left + radius + index * BRAILLE_CELL + column * BRAILLE_PITCH,
                                     top + radius + row * BRAILLE_PITCH), radius))
    return found


def extent(name: str, size: float, *, count: int = 1, cells: int = 0) -> tuple[float, float]:
    """The width and height (mm) a shape takes, at sticker size ``size``."""
    if name == "dots":
        dot = max(size * 0.3, 2.0)
        return (round(count * dot * 1.8 - dot * 0.8, 3), round(dot, 3))
    if name == "braille":
        return ((max(cells, 1) - 1) * BRAILLE_CELL + BRAILLE_PITCH + BRAILLE_DOT,
                2 * BRAILLE_PITCH + BRAILLE_DOT)
    return (size, size)


def shape(name: str, cx: float, cy: float, size: float, *, count: int = 1,
          cells: str = "") -> list[Item]:
    """The items that draw shape ``name`` centred on (``cx``, ``cy``), ``size``
    mm across (dots and braille take the room :func:`extent` says)."""
    r = size / 2
    if name == "triangle":
        h = size * math.sqrt(3) / 2
        return [Polygon(((cx, cy - h / 2 - r * 0.05), (cx + r, cy + h / 2), (cx - r, cy + h / 2)))]
    if name == "star":
        return [Polygon(_star(cx, cy, r, r * 0.45, 5))]
    if name == "diagonal-cross":
        return [Polygon(_cross(cx, cy, size * 1.1, math.pi / 4))]
    if name == "plus":
        return [Polygon(_cross(cx, cy, size, 0.0))]
    if name == "square":
        s = r * 0.85
        return [Polygon(((cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)))]
    if name == "circle":
        return [Circle((cx, cy), r * 0.9)]
    if name == "flower":
        petals: list[Item] = [
            Circle((cx + r * 0.5 * math.cos(a), cy + r * 0.5 * math.sin(a)), r * 0.45)
            for a in (-math.pi / 2 + i * 2 * math.pi / 5 for i in range(5))
        ]
        return [*petals, Circle((cx, cy), r * 0.35)]
    if name == "window":
        s, bar = r * 0.85, size * 0.12
        frame = Polygon(((cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)),
                        fill=False, width=bar)
        return [frame, Line((cx, cy - s), (cx, cy + s), width=bar),
                Line((cx - s, cy), (cx + s, cy), width=bar)]
    if name == "drop":
        bottom = _arc(cx, cy + r * 0.3, r * 0.6, -math.pi * 0.15, math.pi * 1.15)
        return [Polygon(((cx, cy - r), *bottom))]
    if name == "arrowhead":
        return [Polygon(((cx + r, cy), (cx - r, cy - r * 0.8), (cx - r * 0.45, cy),
                         (cx - r, cy + r * 0.8)))]
    if name == "double-arrow":
        # An arc over the top, a head at each end pointing along it.
        arc = _arc(cx, cy + r * 1.05, r * 1.25, math.pi * 1.22, math.pi * 1.78)
        head = size * 0.36
        return [Polygon(tuple(arc[3:-3]), fill=False, width=size * 0.15, closed=False),
                _head(arc[0], _towards(arc[4], arc[0]), head),
                _head(arc[-1], _towards(arc[-5], arc[-1]), head)]
    if name == "jagged":
        return [Polygon(_star(cx, cy, r, r * 0.72, 14))]
    if name == "dots":
        width, dot = extent("dots", size, count=count)
        left = cx - width / 2 + dot / 2
        return [Circle((left + i * dot * 1.8, cy), dot / 2) for i in range(count)]
    if name == "braille":
        width, height = extent("braille", size, cells=len(cells))
        return list(braille_dots(cells, cx - width / 2, cy - height / 2))
    raise ValueError(f"no shape called {name!r}")


def dashed_box(left: float, top: float, width: float, height: float) -> Polygon:
    """A cut line around a box."""
    return Polygon(((left, top), (left + width, top), (left + width, top + height),
                    (left, top + height)), fill=False, width=0.2, dashed=True, grey=True)


def box(left: float, top: float, width: float, height: float, line: float = 0.3) -> Polygon:
    """A card's outline."""
    return Polygon(((left, top), (left + width, top), (left + width, top + height),
                    (left, top + height)), fill=False, width=line)


def flatten(items: Sequence[Item]) -> list[Drawn]:
    """Every item, groups and figures opened."""
    found: list[Drawn] = []
    for item in items:
        if isinstance(item, Group | Figure):
            found.extend(flatten(item.items))
        else:
            found.append(item)
    return found


def reading(items: Sequence[Item]) -> list[Part]:
    """``items`` in reading order, the order they come in: each line of text
    a part, each figure one (whatever it holds), and each run of other
    drawings one artifact. Groups say nothing of their own: they are opened."""
    found: list[Part] = []
    for item in items:
        if isinstance(item, Group):
            found.extend(reading(item.items))
        elif isinstance(item, Figure):
            found.append(Part("Figure", item.alt, tuple(flatten(item.items))))
        elif isinstance(item, Text):
            found.append(Part(f"H{item.level}" if item.level else "P", "", (item,)))
        elif found and found[-1].role == "Artifact":
            found[-1] = Part("Artifact", "", (*found[-1].items, item))
        else:
            found.append(Part("Artifact", "", (item,)))
    return found
