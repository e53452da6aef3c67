"""A reader of the kit's own PDF files, only as much as its tests need: the
objects found through the cross-reference stream (in the file, or in an
object stream), each parsed into Python values, and their streams inflated.

>>> parse(b"<< /Type /Page /Parent 2 0 R /Kids [3 0 R] /N 2.5 >>")
{'Type': 'Page', 'Parent': Ref(number=2), 'Kids': [Ref(number=3)], 'N': 2.5}
>>> text(parse(b"<FEFF0041> ")), parse(rb"(a\\(b\\))")
('A', b'a(b)')
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from typing import Any

#: A parsed PDF value: None, bool, int, float, bytes (a string), Name,
#: Ref, list or dict (names to values).
Value = Any
_SPACE = b" \t\r\n\f\x00"
_DELIMITERS = b"()<>[]{}/%"
_ESCAPES = {ord("n"): b"\n", ord("r"): b"\r", ord("t"): b"\t", ord("b"): b"\b",
            ord("f"): b"\f"}


class Name(str):
    """A PDF name, without its slash."""

    __slots__ = ()


@dataclass(frozen=True)
class Ref:
    """An indirect reference: ``number 0 R``."""

    number: int


def _skip(data: bytes, at: int) -> int:
    while at < len(data):
        if data[at] in _SPACE:
            at += 1
        elif data[at] == ord("%"):
            while at < len(data) and data[at] not in b"\r\n":
                at += 1
        else:
            break
    return at


def _word(data: bytes, at: int) -> tuple[bytes, int]:
    end = at
    while end < len(data) and data[end] not in _SPACE and data[end] not in _DELIMITERS:
        end += 1
    return data[at:end], end


def _literal(data: bytes, at: int) -> tuple[bytes, int]:
    out, depth, at = bytearray(), 1, at + 1
    while True:
        byte = data[at]
        if byte == ord("\\"):
            following = data[at + 1]
            if following in _ESCAPES:
                out += _ESCAPES[following]
                at += 2
            elif chr(following).isdigit():
                digits = re.match(rb"[0-7]{1,3}", data[at + 1:at + 4])
                assert digits is not None
                out.append(int(digits.group(), 8) & 0xFF)
                at += 1 + len(digits.group())
            else:
                out.append(following)
                at += 2
            continue
        if byte == ord("("):
            depth += 1
        elif byte == ord(")"):
            depth -= 1
            if depth == 0:
                return bytes(out), at + 1
        out.append(byte)
        at += 1


def _value(data: bytes, at: int = 0) -> tuple[Value, int]:
    """The value starting at ``at`` (after blanks), and where it ends."""
    at = _skip(data, at)
    if data.startswith(b"<<", at):
        found: dict[str, Value] = {}
        at = _skip(data, at + 2)
        while not data.startswith(b">>", at):
            key, at = _value(data, at)
            assert isinstance(key, Name), key
            found[str(key)], at = _value(data, at)
            at = _skip(data, at)
        return found, at + 2
    if data.startswith(b"[", at):
        items: list[Value] = []
        at = _skip(data, at + 1)
        while not data.startswith(b"]", at):
            item, at = _value(data, at)
            items.append(item)
            at = _skip(data, at)
        return _refs(items), at + 1
    if data.startswith(b"<", at):
        end = data.index(b">", at)
        digits = re.sub(rb"\s", b"", data[at + 1:end])
        return bytes.fromhex((digits + b"0" * (len(digits) % 2)).decode("ascii")), end + 1
    if data.startswith(b"(", at):
        return _literal(data, at)
    if data.startswith(b"/", at):
        word, end = _word(data, at + 1)
        return Name(word.decode("ascii")), end
    word, end = _word(data, at)
    if word in (b"true", b"false"):
        return word == b"true", end
    if word == b"null":
        return None, end
    if word == b"R":
        return _Mark(), end
    assert word, f"no value at {at}: {data[at:at + 20]!r}"
    return (float(word) if b"." in word else int(word)), end


class _Mark:
    """An ``R`` seen while reading an array; :func:`_refs` makes references of it."""


def _refs(items: list[Value]) -> list[Value]:
    found: list[Value] = []
    for item in items:
        if isinstance(item, _Mark):
            generation, number = found.pop(), found.pop()
            assert generation == 0
            found.append(Ref(number))
        else:
            found.append(item)
    return found


@dataclass
class Document:
    """Every object of a PDF by number, its streams inflated, and its trailer."""

    objects: dict[int, Value]
    streams: dict[int, bytes]
    trailer: dict[str, Value]

    def get(self, value: Value) -> Value:
        """``value``, or the object it refers to."""
        return self.objects[value.number] if isinstance(value, Ref) else value

    @property
    def catalog(self) -> dict[str, Value]:
        found: dict[str, Value] = self.get(self.trailer["Root"])
        return found

    def pages(self) -> list[tuple[Ref, dict[str, Value]]]:
        """The pages in order, each with its reference."""
        kids = self.get(self.catalog["Pages"])["Kids"]
        return [(kid, self.get(kid)) for kid in kids]

    def content(self, page: dict[str, Value]) -> bytes:
        return self.streams[page["Contents"].number]


def parse(body: bytes) -> Value:
    """The value ``body`` holds. A reference may stand for any value, in a
    dictionary too: each ``n 0 R`` is read as an array of its own first,
    then made a :class:`Ref`."""
    value, _ = _value(re.sub(rb"(\d+) 0 R", rb"[\1 0 R]", body))
    return _unfold(value)


def _unfold(value: Value) -> Value:
    if isinstance(value, dict):
        return {key: _unfold(item) for key, item in value.items()}
    if isinstance(value, list):
        if len(value) == 1 and isinstance(value[0], Ref):
            return value[0]
        return [_unfold(item) for item in value]
    return value


def _object(data: bytes, offset: int, number: int) -> tuple[Value, bytes | None]:
    """Object ``number``, which must be at ``offset``, and its stream's data, inflated."""
    head = f"{number} 0 obj\n".encode("ascii")
    assert data.startswith(head, offset), f"object {number} is not where the xref says"
    at = offset + len(head)
    end = data.index(b"\nendobj", at)
    stream_at = data.find(b">>\nstream\n", at, end)
    if stream_at < 0:
        return parse(data[at:end]), None
    value = parse(data[at:stream_at + 2])
    begin = stream_at + len(b">>\nstream\n")
    raw = data[begin:begin + value["Length"]]
    assert data.startswith(b"\nendstream\nendobj", begin + value["Length"]), number
    return value, zlib.decompress(raw) if value.get("Filter") == "FlateDecode" else raw


def read(data: bytes) -> Document:
    """The PDF ``data``, through its cross-reference stream (which must be
    right: every object where it says, or in the object stream it says)."""
    assert data.startswith(b"%PDF-1.7\n")
    start = int(re.findall(rb"startxref\n(\d+)\n%%EOF\n$", data)[-1])
    found = re.match(rb"(\d+) 0 obj\n", data[start:])
    assert found is not None, "startxref leads to no object"
    trailer, table = _object(data, start, int(found.group(1)))
    assert trailer["Type"] == "XRef" and table is not None
    widths = trailer["W"]
    size = sum(widths)
    assert trailer.get("Index", [0, trailer["Size"]]) == [0, trailer["Size"]]
    assert len(table) == size * trailer["Size"]
    entries = []
    for number in range(trailer["Size"]):
        row, fields = table[number * size:(number + 1) * size], []
        for width in widths:
            fields.append(int.from_bytes(row[:width], "big"))
            row = row[width:]
        entries.append(tuple(fields))
    assert entries[0] == (0, 0, 0xFFFF)
    objects: dict[int, Value] = {}
    streams: dict[int, bytes] = {}
    for number, (kind, where, _) in enumerate(entries):
        if kind == 1:
            objects[number], stream = _object(data, where, number)
            if stream is not None:
                streams[number] = stream
    for number, (kind, holder, index) in enumerate(entries):
        if kind != 2:
            continue
        assert objects[holder]["Type"] == "ObjStm"
        heap, first = streams[holder], objects[holder]["First"]
        pairs = [int(word) for word in heap[:first].split()]
        assert len(pairs) == 2 * objects[holder]["N"]
        assert pairs[2 * index] == number, f"object {number} is not where the xref says"
        begin = first + pairs[2 * index + 1]
        end = first + pairs[2 * index + 3] if 2 * index + 3 < len(pairs) else len(heap)
        objects[number] = parse(heap[begin:end])
    return Document(objects, streams, trailer)


def text(value: bytes) -> str:
    """A PDF text string: UTF-16 after its byte order mark, else PDFDocEncoding
    (Latin-1 for what the kit writes)."""
    if value.startswith(b"\xfe\xff"):
        return value[2:].decode("utf-16-be")
    return value.decode("latin-1")


@dataclass(frozen=True)
class Element:
    """A structure element that holds marked content: its type, its page
    (from 0), its MCID there, its alternative text, and the text it shows."""

    role: str
    page: int
    mcid: int
    alt: str
    text: str


#: A line of a content stream that begins or ends marked content.
_BDC = re.compile(rb"/(\w+) <</MCID (\d+)>> BDC")


def _marked(content: bytes, glyphs: dict[int, str]) -> tuple[dict[int, tuple[str, str]], int]:
    """The MCIDs of a page's content, each with its tag and the text it shows
    (through ``glyphs``, a font's ToUnicode map); and how many artifacts.
    Everything drawn must be inside one marked-content sequence (they are
    never nested), and each begun is ended."""
    found: dict[int, tuple[str, str]] = {}
    artifacts, inside, shown = 0, None, ""
    lines = content.split(b"\n")
    assert lines[0].endswith(b" cm") and lines[1] == b"0 g 0 J 0 j", lines[:2]
    for line in lines[2:]:
        begun = _BDC.fullmatch(line)
        if begun or line == b"/Artifact BMC":
            assert inside is None, f"marked content within marked content: {line!r}"
            inside = (begun.group(1).decode(), int(begun.group(2))) if begun else ("", -1)
            shown = ""
        elif line == b"EMC":
            assert inside is not None, "EMC with no marked content begun"
            tag, mcid = inside
            if mcid < 0:
                artifacts += 1
            else:
                assert mcid not in found, f"MCID {mcid} twice on a page"
                found[mcid] = (tag, shown)
            inside = None
        else:
            assert inside is not None, f"drawn outside marked content: {line[:60]!r}"
            for hexed in re.findall(rb"<([0-9A-F]*)> Tj", line):
                shown += "".join(glyphs.get(int(hexed[i:i + 4], 16), "\ufffd")
                                 for i in range(0, len(hexed), 4))
    assert inside is None, "marked content left open at the end of the page"
    return found, artifacts


def unicode_map(document: Document, page: dict[str, Value]) -> dict[int, str]:
    """The ToUnicode map of a page's font (glyph number to text), if it has one."""
    fonts = page["Resources"].get("Font")
    if not fonts:
        return {}
    cmap = document.streams[document.get(fonts["F1"])["ToUnicode"].number].decode("ascii")
    pairs = "\n".join(re.findall(r"beginbfchar\n(.*?)endbfchar", cmap, re.DOTALL))
    return {int(glyph, 16): bytes.fromhex(code).decode("utf-16-be")
            for glyph, code in re.findall(r"<([0-9A-F]{4})> <([0-9A-F]+)>", pairs)}


def tagged(document: Document) -> list[Element]:
    """The elements of a tagged PDF in the order of its structure tree (the
    reading order), checking on the way what makes it tagged: the catalog
    marked, with a language and a structure tree; each page's structure
    parents and tab order; each MCID of a page's content (unique there) in
    the parent tree, leading to the element that holds it, of the tag its
    marked content has; every element reached from the root once."""
    catalog = document.catalog
    assert catalog["MarkInfo"] == {"Marked": True}
    assert catalog["ViewerPreferences"]["DisplayDocTitle"] is True
    assert text(catalog["Lang"])
    root_ref = catalog["StructTreeRoot"]
    root = document.get(root_ref)
    assert root["Type"] == "StructTreeRoot"
    pages = document.pages()
    assert root["ParentTreeNextKey"] == len(pages)
    nums = document.get(root["ParentTree"])["Nums"]
    parents = dict(zip(nums[::2], nums[1::2], strict=True))
    content: dict[tuple[int, int], tuple[str, str]] = {}
    for number, (ref, page) in enumerate(pages):
        assert page["StructParents"] == number and page["Tabs"] == "S"
        marked, _ = _marked(document.content(page), unicode_map(document, page))
        assert sorted(marked) == list(range(len(marked)))
        assert len(parents[number]) == len(marked), "MCIDs not in the parent tree"
        for mcid, element_ref in enumerate(parents[number]):
            element = document.get(element_ref)
            assert element["Pg"] == ref and element["K"] == mcid
            assert element["S"] == marked[mcid][0]
            content[number, mcid] = marked[mcid]
    found: list[Element] = []
    seen: set[int] = set()

    def walk(ref: Ref, parent: Ref) -> None:
        assert ref.number not in seen, "an element reached twice"
        seen.add(ref.number)
        element = document.get(ref)
        assert element["Type"] == "StructElem" and element["P"] == parent
        kids = element["K"]
        if isinstance(kids, int):
            page = next(i for i, (page_ref, _) in enumerate(pages) if page_ref == element["Pg"])
            tag, shown = content.pop((page, kids))
            assert tag == element["S"]
            found.append(Element(tag, page, kids, text(element.get("Alt", b"")), shown))
            return
        for kid in kids:
            walk(kid, ref)

    for top in root["K"]:
        walk(top, root_ref)
    assert not content, f"marked content no element holds: {sorted(content)}"
    return found
