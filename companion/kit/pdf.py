"""Pages of the kit as one PDF file, at true size, written by hand: lines,
circles (four Bézier curves each), polygons and text, nothing else.

Text is set in a TrueType font (DejaVu Sans where it is installed, the
font Debian's fonts-dejavu-core gives), as a Type 0 font with Identity-H
encoding and a ToUnicode map, so Czech, French and Russian print, and a PDF
reader or pdftotext reads the text back. Only the glyphs the document uses
are embedded (:func:`subset`, through fontTools): a few kilobytes instead of
the whole font's 700. The document carries its language and title.

The PDF is tagged, for screen readers: each part of a page
(:func:`~companion.kit.drawing.reading`) is a marked-content sequence
(``BDC``/``EMC`` with its MCID) of a structure element: ``H1`` the page's
heading, ``H2`` a heading within it (a group of stickers, a kind of card),
``P`` a line of text, ``Figure`` a drawing with its alternative text
(``/Alt``) and box; a drawing that says nothing is an ``Artifact``, outside
the structure. The structure tree (one ``Document``) holds them in reading
order, page by page, and its parent tree leads from each page's MCIDs back to
them; pages are tabbed in structure order. The structure's many small
dictionaries go in one compressed object stream, so the file has a
cross-reference stream (PDF 1.5 and later).

>>> from companion.kit.drawing import Circle, Page
>>> data = write([Page((210.0, 297.0), "Sheet", [Circle((10.0, 10.0), 3.0)])], "en",
...              "Sheet", font=None)
>>> data[:8], b"/MediaBox [0 0 595.276 841.89]" in data
(b'%PDF-1.7', True)
"""

from __future__ import annotations

import hashlib
import io
import shutil
import string
import struct
import subprocess
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from fontTools import subset as font_subset
from fontTools.ttLib import TTFont

from companion.kit.drawing import Circle, Drawn, Line, Page, Part, Polygon, Text, flatten, reading
from firmware_bridge.files import read_limited

#: Points in a millimetre.
PT = 72 / 25.4
#: The biggest font file read (DejaVu Sans is 0.7 MB; a font of every script, 20).
FONT_LIMIT = 32 << 20
#: Where a font is looked for first (Debian, Fedora, Arch, macOS, Windows), then fontconfig.
FONT_PATHS = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/Library/Fonts/Arial Unicode.ttf",
    "/System/Library/Fonts/Supplemental/Arial Unicode.ttf",
    "C:/Windows/Fonts/arial.ttf",
)
_KAPPA = 0.5522847498
#: The tables a subset keeps: what a PDF reader draws a TrueType glyph with,
#: and the font's names and licence (``name``); none of hinting or layout.
SUBSET_TABLES = frozenset({"head", "hhea", "hmtx", "loca", "glyf", "maxp", "cmap", "OS/2",
                           "name", "post"})


class FontError(ValueError):
    """No usable TrueType font."""


@dataclass(frozen=True, slots=True)
class Font:
    """What the PDF needs of a TrueType font: its bytes, glyph of each
    character, advance widths and metrics (in thousandths of the size)."""

    name: str
    data: bytes
    glyphs: dict[int, int]
    widths: tuple[int, ...]
    units: int
    bbox: tuple[int, int, int, int]
    ascent: int
    descent: int

    def glyph(self, character: str) -> int:
        return self.glyphs.get(ord(character), 0)

    def width(self, glyph: int) -> float:
        """Advance of a glyph, in thousandths of the font size."""
        advance = self.widths[min(glyph, len(self.widths) - 1)]
        return advance * 1000 / self.units

    def measure(self, text: str, size: float) -> float:
        return sum(self.width(self.glyph(ch)) for ch in text) * size / 1000


def _tables(data: bytes) -> dict[bytes, tuple[int, int]]:
    (count,) = struct.unpack_from(">H", data, 4)
    found = {}
    for i in range(count):
        tag, _, offset, length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        found[tag] = (offset, length)
    return found


def _cmap(data: bytes, offset: int) -> dict[int, int]:
    (_, count) = struct.unpack_from(">HH", data, offset)
    chosen: tuple[int, int] | None = None
    for i in range(count):
        platform, encoding, sub = struct.unpack_from(">HHI", data, offset + 4 + 8 * i)
        (fmt,) = struct.unpack_from(">H", data, offset + sub)
        rank = {(3, 10, 12): 0, (0, 4, 12): 1, (3, 1, 4): 2, (0, 3, 4): 3}.get(
            (platform, encoding, fmt))
        if rank is not None and (chosen is None or rank < chosen[0]):
            chosen = (rank, offset + sub)
    if chosen is None:
        raise FontError("the font has no Unicode character map")
    table = chosen[1]
    glyphs: dict[int, int] = {}
    (fmt,) = struct.unpack_from(">H", data, table)
    if fmt == 12:
        (groups,) = struct.unpack_from(">I", data, table + 12)
        for g in range(groups):
            start, end, first = struct.unpack_from(">III", data, table + 16 + 12 * g)
            for code in range(start, min(end, 0x2FFFF) + 1):
                glyphs[code] = first + code - start
        return glyphs
    (segments,) = struct.unpack_from(">H", data, table + 6)
    segments //= 2
    ends = table + 14
    starts = ends + 2 * segments + 2
    deltas = starts + 2 * segments
    ranges = deltas + 2 * segments
    for s in range(segments):
        (end,) = struct.unpack_from(">H", data, ends + 2 * s)
        (start,) = struct.unpack_from(">H", data, starts + 2 * s)
        (delta,) = struct.unpack_from(">h", data, deltas + 2 * s)
        (rng,) = struct.unpack_from(">H", data, ranges + 2 * s)
        for code in range(start, end + 1):
            if code == 0xFFFF:
                continue
            if rng == 0:
                glyph = (code + delta) & 0xFFFF
            else:
                (glyph,) = struct.unpack_from(">H", data, ranges + 2 * s + rng + 2 * (code - start))
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                glyphs[code] = glyph
    return glyphs


def read_font(path: Path) -> Font:
    """A TrueType font file (``glyf`` outlines; not a collection)."""
    data = read_limited(path, FONT_LIMIT)  # a file, not a pipe or device a link leads to
    return parse_font(data, path.stem.replace(" ", ""), str(path))


def parse_font(data: bytes, name: str, shown: str = "the font") -> Font:
    """The TrueType font ``data``, called ``name`` in the PDF (``shown`` in
    a :class:`FontError`)."""
    if data[:4] not in (b"\x00\x01\x00\x00", b"true"):
        raise FontError(f"{shown} is not a TrueType font")
    tables = _tables(data)
    try:
        head, hhea, hmtx, cmap = (tables[t][0] for t in (b"head", b"hhea", b"hmtx", b"cmap"))
    except KeyError as missing:
        raise FontError(f"{shown} has no {missing} table") from None
    (units,) = struct.unpack_from(">H", data, head + 18)
    bbox = struct.unpack_from(">hhhh", data, head + 36)
    ascent, descent = struct.unpack_from(">hh", data, hhea + 4)
    (metrics,) = struct.unpack_from(">H", data, hhea + 34)
    widths = tuple(struct.unpack_from(">H", data, hmtx + 4 * i)[0] for i in range(metrics))
    scale = 1000 / units
    return Font(
        name=name, data=data, glyphs=_cmap(data, cmap), widths=widths,
        units=units, bbox=(round(bbox[0] * scale), round(bbox[1] * scale),
                           round(bbox[2] * scale), round(bbox[3] * scale)),
        ascent=round(ascent * scale), descent=round(descent * scale),
    )


@cache
def find_font() -> Font:
    """The first usable font of :data:`FONT_PATHS`, else the one fontconfig
    matches for sans-serif Cyrillic; raises :class:`FontError`."""
    candidates = [Path(p) for p in FONT_PATHS]
    if shutil.which("fc-match"):
        found = subprocess.run(["fc-match", "-f", "%{file}", "sans-serif:lang=ru"],
                               capture_output=True, text=True, check=False, timeout=30)
        if found.stdout.strip():
            candidates.append(Path(found.stdout.strip()))
    for path in candidates:
        if path.is_file():
            try:
                return read_font(path)
            except (FontError, OSError, struct.error):
                continue
    raise FontError("no TrueType font")


def subset(font: Font, text: str) -> Font:
    """``font`` with only .notdef and the glyphs of ``text``'s characters, its
    glyphs numbered afresh: its glyph numbers, widths and character map are
    the subset's own, read back from it, so the three always agree. Its name
    takes the tag a subset's name has in a PDF: six capitals (from the glyphs
    kept, so the same text gives the same bytes), then ``+``."""
    loaded = TTFont(io.BytesIO(font.data), recalcTimestamp=False)
    options = font_subset.Options()
    options.layout_features = []
    options.hinting = False
    options.glyph_names = False
    options.drop_tables = sorted(set(loaded.keys()) - SUBSET_TABLES - {"GlyphOrder"})
    subsetter = font_subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(loaded)
    out = io.BytesIO()
    loaded.save(out)
    data = out.getvalue()
    digest = hashlib.sha256(data).digest()
    tag = "".join(string.ascii_uppercase[byte % 26] for byte in digest[:6])
    return parse_font(data, f"{tag}+{font.name}")


def _n(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".") or "0"


def _pdf_text(text: str) -> str:
    """A PDF literal string (the document's title)."""
    encoded = text.encode("utf-16-be")
    return "<FEFF" + encoded.hex().upper() + ">"


def _circle(cx: float, cy: float, r: float) -> str:
    k = r * _KAPPA
    return (f"{_n(cx + r)} {_n(cy)} m "
            f"{_n(cx + r)} {_n(cy + k)} {_n(cx + k)} {_n(cy + r)} {_n(cx)} {_n(cy + r)} c "
            f"{_n(cx - k)} {_n(cy + r)} {_n(cx - r)} {_n(cy + k)} {_n(cx - r)} {_n(cy)} c "
            f"{_n(cx - r)} {_n(cy - k)} {_n(cx - k)} {_n(cy - r)} {_n(cx)} {_n(cy - r)} c "
            f"{_n(cx + k)} {_n(cy - r)} {_n(cx + r)} {_n(cy - k)} {_n(cx + r)} {_n(cy)} c h")


def _stroke(width: float, dashed: bool, grey: bool) -> str:
    return (f"{_n(width)} w {'[1.5 1] 0 d' if dashed else '[] 0 d'}"
            f" {'0.5 G' if grey else '0 G'}")


def _drawn(item: Drawn, font: Font | None, used: set[int]) -> str:
    """The operators that draw ``item`` ("" for text without a font)."""
    if isinstance(item, Line):
        return (f"{_stroke(item.width, item.dashed, item.grey)} 2 J "
                f"{_n(item.start[0])} {_n(item.start[1])} m "
                f"{_n(item.end[0])} {_n(item.end[1])} l S 0 J")
    if isinstance(item, Circle):
        path = _circle(item.centre[0], item.centre[1], item.radius)
        return (f"{path} f" if item.fill
                else f"{_stroke(item.width, item.dashed, False)} {path} S")
    if isinstance(item, Polygon):
        x, y = item.points[0]
        path = f"{_n(x)} {_n(y)} m " + " ".join(
            f"{_n(px)} {_n(py)} l" for px, py in item.points[1:])
        if item.fill and item.closed:
            return f"{path} h f"
        return (f"{_stroke(item.width, item.dashed, item.grey)} {path}"
                f"{' h' if item.closed else ''} S")
    if font is None:
        return ""
    glyphs = [font.glyph(ch) for ch in item.text]
    used.update(glyphs)
    x = item.at[0]
    if item.anchor == "middle":
        x -= font.measure(item.text, item.size) / 2
    hexed = "".join(f"{g:04X}" for g in glyphs)
    return (f"BT /F1 {_n(item.size)} Tf 1 0 0 -1 {_n(x)} {_n(item.at[1])} Tm"
            f" <{hexed}> Tj ET")


def _content(page: Page, font: Font | None, used: set[int]) -> tuple[bytes, list[Part]]:
    """The page's content stream, each part of it (:func:`~companion.kit.drawing.reading`)
    a marked-content sequence; and the parts marked, the index of each its MCID.
    Drawings that say nothing are artifacts, outside the structure."""
    height = page.size[1]
    # Millimetres from the top left, as the drawing is.
    ops = [f"{_n(PT)} 0 0 {_n(-PT)} 0 {_n(height * PT)} cm", "0 g 0 J 0 j"]
    marked: list[Part] = []
    for part in reading(page.items):
        drawn = [op for op in (_drawn(item, font, used) for item in part.items) if op]
        if not drawn:
            continue
        if part.role == "Artifact":
            ops += ["/Artifact BMC", *drawn, "EMC"]
        else:
            ops += [f"/{part.role} <</MCID {len(marked)}>> BDC", *drawn, "EMC"]
            marked.append(part)
    return "\n".join(ops).encode("ascii"), marked


def _bbox(items: Sequence[Drawn], height: float) -> str:
    """The box round ``items``, in the page's points from its bottom left."""
    xs: list[float] = []
    ys: list[float] = []
    for item in items:
        points: tuple[tuple[float, float], ...]
        if isinstance(item, Line):
            spread, points = item.width / 2, (item.start, item.end)
        elif isinstance(item, Circle):
            spread = item.radius + (0 if item.fill else item.width / 2)
            points = (item.centre,)
        elif isinstance(item, Polygon):
            spread, points = item.width / 2, item.points
        else:
            spread, points = item.size, (item.at,)
        xs += [x + sign * spread for x, _ in points for sign in (-1, 1)]
        ys += [y + sign * spread for _, y in points for sign in (-1, 1)]
    return (f"[{_n(min(xs) * PT)} {_n((height - max(ys)) * PT)}"
            f" {_n(max(xs) * PT)} {_n((height - min(ys)) * PT)}]")


def _to_unicode(font: Font, used: set[int]) -> bytes:
    reverse: dict[int, int] = {}
    for code, glyph in sorted(font.glyphs.items(), reverse=True):
        if glyph in used:
            reverse[glyph] = code
    pairs = sorted(reverse.items())
    lines = ["/CIDInit /ProcSet findresource begin", "12 dict begin", "begincmap",
             "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
             "/CMapName /Adobe-Identity-UCS def", "/CMapType 2 def",
             "1 begincodespacerange", "<0000> <FFFF>", "endcodespacerange"]
    for start in range(0, len(pairs), 100):
        chunk = pairs[start:start + 100]
        lines.append(f"{len(chunk)} beginbfchar")
        lines.extend(f"<{g:04X}> <{chr(c).encode('utf-16-be').hex().upper()}>" for g, c in chunk)
        lines.append("endbfchar")
    lines += ["endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end"]
    return "\n".join(lines).encode("ascii")


class _Writer:
    """Numbered objects, then the file. The objects ``packed`` (the
    structure's: hundreds of small dictionaries, much alike) go in one
    compressed object stream; the cross-reference table is a stream too
    (PDF 1.5), as objects in an object stream need."""

    def __init__(self) -> None:
        self.objects: list[bytes] = []
        self.packed: set[int] = set()

    def reserve(self) -> int:
        self.objects.append(b"")
        return len(self.objects)

    def put(self, number: int, body: bytes, *, packed: bool = False) -> None:
        self.objects[number - 1] = body
        if packed:
            self.packed.add(number)

    def add(self, body: bytes, *, packed: bool = False) -> int:
        number = self.reserve()
        self.put(number, body, packed=packed)
        return number

    def stream(self, data: bytes, extra: str = "") -> int:
        return self.add(_stream(data, extra))

    def document(self, root: int, info: int) -> bytes:
        out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
        # (type, field 2, field 3) of each object: 1, its offset, 0; or
        # 2, the object stream holding it, its index there.
        entries: dict[int, tuple[int, int, int]] = {}
        packed = sorted(self.packed)
        numbers = len(self.objects)
        heap, index, inside = bytearray(), [], numbers + 1
        for place, number in enumerate(packed):
            index.append(f"{number} {len(heap)}")
            heap += self.objects[number - 1] + b"\n"
            entries[number] = (2, inside, place)
        first = (" ".join(index) + "\n").encode("ascii")
        bodies = [(n, body) for n, body in enumerate(self.objects, 1) if n not in self.packed]
        bodies.append((inside, _stream(first + heap, f" /Type /ObjStm /N {len(packed)}"
                                                     f" /First {len(first)}")))
        for number, body in bodies:
            entries[number] = (1, len(out), 0)
            out += f"{number} 0 obj\n".encode("ascii") + body + b"\nendobj\n"
        xref = inside + 1
        entries[xref] = (1, len(out), 0)
        table = struct.pack(">BIH", 0, 0, 0xFFFF) + b"".join(
            struct.pack(">BIH", *entries[n]) for n in range(1, xref + 1))
        body = _stream(table, f" /Type /XRef /Size {xref + 1} /W [1 4 2]"
                              f" /Root {root} 0 R /Info {info} 0 R")
        out += f"{xref} 0 obj\n".encode("ascii") + body + b"\nendobj\n"
        out += f"startxref\n{entries[xref][1]}\n%%EOF\n".encode("ascii")
        return bytes(out)


def _stream(data: bytes, extra: str = "") -> bytes:
    packed = zlib.compress(data, 9)
    head = f"<< /Length {len(packed)} /Filter /FlateDecode{extra} >>\nstream\n"
    return head.encode("ascii") + packed + b"\nendstream"


def _subset_or_whole(font: Font, pages: Sequence[Page]) -> Font:
    """The subset of ``font`` the text of ``pages`` needs; the whole font if
    fontTools cannot subset it (a font found through fontconfig it reads
    otherwise than :func:`read_font`): a PDF too big beats none."""
    text = "".join(sorted({character for page in pages for item in flatten(page.items)
                           if isinstance(item, Text) for character in item.text}))
    try:
        return subset(font, text)
    except Exception:  # fontTools raises many kinds; the whole font still works
        return font


def _structure(pdf: _Writer, pages: Sequence[Page], marked: Sequence[Sequence[Part]],
               kids: Sequence[int]) -> int:
    """The structure tree: a Document of every part marked, page by page, in
    reading order; each part an element of its role (a Figure with its
    alternative text and box) holding its one MCID, and the parent tree
    that leads from a page's MCIDs back to their elements. Its root's number."""
    root, document = pdf.reserve(), pdf.reserve()
    elements: list[list[int]] = []
    for page, parts, kid in zip(pages, marked, kids, strict=True):
        found = []
        for mcid, part in enumerate(parts):
            extra = ""
            if part.role == "Figure":
                extra = (f" /Alt {_pdf_text(part.alt)} /A << /O /Layout /Placement /Block"
                         f" /BBox {_bbox(part.items, page.size[1])} >>")
            found.append(pdf.add(f"<< /Type /StructElem /S /{part.role} /P {document} 0 R"
                                 f" /Pg {kid} 0 R /K {mcid}{extra} >>".encode("ascii"),
                                 packed=True))
        elements.append(found)
    every = " ".join(f"{e} 0 R" for found in elements for e in found)
    pdf.put(document, f"<< /Type /StructElem /S /Document /P {root} 0 R /K [{every}] >>"
            .encode("ascii"), packed=True)
    nums = " ".join(f"{number} [{' '.join(f'{e} 0 R' for e in found)}]"
                    for number, found in enumerate(elements))
    parents = pdf.add(f"<< /Nums [{nums}] >>".encode("ascii"), packed=True)
    pdf.put(root, f"<< /Type /StructTreeRoot /K [{document} 0 R] /ParentTree {parents} 0 R"
            f" /ParentTreeNextKey {len(pages)} >>".encode("ascii"), packed=True)
    return root


def write(pages: Sequence[Page], language: str, title: str, *, font: Font | None) -> bytes:
    """The PDF of ``pages``; text is left out only when ``font`` is None."""
    pdf = _Writer()
    root, tree = pdf.reserve(), pdf.reserve()
    used: set[int] = set()
    if font is not None:
        font = _subset_or_whole(font, pages)
    drawn = [_content(page, font, used) for page in pages]
    contents = [pdf.stream(content) for content, _ in drawn]
    resources = ""
    if font is not None:
        file = pdf.stream(font.data, f" /Length1 {len(font.data)}")
        box = " ".join(str(v) for v in font.bbox)
        descriptor = pdf.add(
            f"<< /Type /FontDescriptor /FontName /{font.name} /Flags 32 /FontBBox [{box}]"
            f" /ItalicAngle 0 /Ascent {font.ascent} /Descent {font.descent}"
            f" /CapHeight {font.ascent} /StemV 80 /FontFile2 {file} 0 R >>".encode("ascii"))
        widths = " ".join(f"{g} [{round(font.width(g))}]" for g in sorted(used))
        cid = pdf.add(
            f"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /{font.name}"
            " /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >>"
            f" /FontDescriptor {descriptor} 0 R /DW 1000 /W [{widths}]"
            " /CIDToGIDMap /Identity >>".encode("ascii"))
        unicode_map = pdf.stream(_to_unicode(font, used))
        type0 = pdf.add(
            f"<< /Type /Font /Subtype /Type0 /BaseFont /{font.name} /Encoding /Identity-H"
            f" /DescendantFonts [{cid} 0 R] /ToUnicode {unicode_map} 0 R >>".encode("ascii"))
        resources = f"/Font << /F1 {type0} 0 R >>"
    kids = [pdf.reserve() for _ in pages]
    structure = _structure(pdf, pages, [marked for _, marked in drawn], kids)
    for number, (kid, page, content) in enumerate(zip(kids, pages, contents, strict=True)):
        width, height = page.size
        pdf.put(kid, (
            f"<< /Type /Page /Parent {tree} 0 R /MediaBox [0 0 {_n(width * PT)} {_n(height * PT)}]"
            f" /Resources << {resources} >> /Contents {content} 0 R"
            f" /StructParents {number} /Tabs /S >>").encode("ascii"))
    pdf.put(tree, f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}]"
                  f" /Count {len(kids)} >>".encode("ascii"))
    pdf.put(root, f"<< /Type /Catalog /Pages {tree} 0 R /Lang ({language})"
                  f" /MarkInfo << /Marked true >> /StructTreeRoot {structure} 0 R"
                  " /ViewerPreferences << /DisplayDocTitle true >> >>".encode("ascii"))
    info = pdf.add(f"<< /Title {_pdf_text(title)} /Producer (tactile-companion) >>"
                   .encode("ascii"))
    return pdf.document(root, info)
