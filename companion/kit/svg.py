"""A page of the kit as an SVG file, at true size: one user unit is one
millimetre, and the page says its size in millimetres.

Every sticker is a ``<g class="sticker" data-card="..." data-shape="...">``
holding its cut line and its shape, so the sheet can be read back and
counted. A figure is a ``<g role="img">`` whose ``<title>`` says what it
shows, so a screen reader names it; a heading is a ``<text role="heading">``
of its level.

>>> from companion.kit.drawing import Circle, Figure, Group, Page, Text
>>> page = Page((210.0, 297.0), "Sheet", [Text((10.0, 10.0), "Tempura & co", level=1),
...     Figure("Tempura: circle.",
...            (Group("sticker", "tempura", "circle", (Circle((20.0, 20.0), 4.0),)),))])
>>> svg = render(page, "en")
>>> print(svg.splitlines()[1][:60])
<svg xmlns="http://www.w3.org/2000/svg" width="210mm" height
>>> '<g role="img"><title>Tempura: circle.</title><g class="sticker" data-card="tempura"' in svg
True
>>> '<text x="10" y="10" font-size="3.5" role="heading" aria-level="1">Tempura &amp; co' in svg
True
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from companion.kit.drawing import Circle, Figure, Group, Item, Line, Page, Polygon

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


def _n(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")


def _stroke(width: float, *, dashed: bool = False, grey: bool = False) -> str:
    colour = "#808080" if grey else "#000"
    dash = ' stroke-dasharray="1.5 1"' if dashed else ""
    return f'stroke="{colour}" stroke-width="{_n(width)}"{dash}'


def _item(item: Item) -> str:
    if isinstance(item, Group):
        inner = "".join(_item(child) for child in item.items)
        return (f'<g class={quoteattr(item.kind)} data-card={quoteattr(item.card)}'
                f' data-shape={quoteattr(item.shape)}>{inner}</g>\n')
    if isinstance(item, Figure):
        inner = "".join(_item(child).rstrip("\n") for child in item.items)
        return f'<g role="img"><title>{escape(item.alt)}</title>{inner}</g>\n'
    if isinstance(item, Line):
        return (f'<line x1="{_n(item.start[0])}" y1="{_n(item.start[1])}" x2="{_n(item.end[0])}"'
                f' y2="{_n(item.end[1])}" {_stroke(item.width, dashed=item.dashed, grey=item.grey)}'
                f' stroke-linecap="square"/>')
    if isinstance(item, Circle):
        paint = 'fill="#000"' if item.fill else (
            f'fill="none" {_stroke(item.width, dashed=item.dashed)}')
        return (f'<circle cx="{_n(item.centre[0])}" cy="{_n(item.centre[1])}"'
                f' r="{_n(item.radius)}" {paint}/>')
    if isinstance(item, Polygon):
        points = " ".join(f"{_n(x)},{_n(y)}" for x, y in item.points)
        tag = "polygon" if item.closed else "polyline"
        if item.fill and item.closed:
            paint = 'fill="#000"'
        else:
            paint = f'fill="none" {_stroke(item.width, dashed=item.dashed, grey=item.grey)}'
        return f'<{tag} points="{points}" {paint} stroke-linejoin="miter"/>'
    anchor = ' text-anchor="middle"' if item.anchor == "middle" else ""
    heading = f' role="heading" aria-level="{item.level}"' if item.level else ""
    return (f'<text x="{_n(item.at[0])}" y="{_n(item.at[1])}" font-size="{_n(item.size)}"'
            f'{anchor}{heading}>{escape(item.text)}</text>')


def render(page: Page, language: str) -> str:
    """The SVG document of ``page``, its text in ``language``."""
    width, height = page.size
    body = "\n".join(_item(item).rstrip("\n") for item in page.items)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}mm" height="{_n(height)}mm"'
        f' viewBox="0 0 {_n(width)} {_n(height)}" xml:lang={quoteattr(language)}'
        f' font-family={quoteattr(FONT)}>\n'
        f"<title>{escape(page.title)}</title>\n"
        f'<rect width="{_n(width)}" height="{_n(height)}" fill="#fff"/>\n'
        f"{body}\n</svg>\n"
    )
