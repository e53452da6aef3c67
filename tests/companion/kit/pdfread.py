"""A reader of the kit's own PDF files, only as much as its tests need: the
objects found through the cross-reference table, each parsed into Python
values, and their streams inflated.

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


def read(data: bytes) -> Document:
    """The PDF ``data``, through its cross-reference table (which must be right)."""
    assert data.startswith(b"%PDF-")
    start = int(re.findall(rb"startxref\s+(\d+)\s+%%EOF", data)[-1])
    assert data.startswith(b"xref\n", start), "startxref leads to no xref table"
    header = re.match(rb"xref\n0 (\d+)\n", data[start:])
    assert header is not None
    count, table = int(header.group(1)), start + header.end()
    objects: dict[int, Value] = {}
    streams: dict[int, bytes] = {}
    for number in range(1, count):
        entry = data[table + 20 * number:table + 20 * number + 20]
        offset, _, kind = entry.split()[:3]
        if kind != b"n":
            continue
        head = f"{number} 0 obj\n".encode("ascii")
        assert data.startswith(head, int(offset)), f"object {number} is not where xref says"
        at = int(offset) + len(head)
        end = data.index(b"\nendobj", at)
        stream_at = data.find(b">>\nstream\n", at, end)
        value = parse(data[at:stream_at + 2 if stream_at >= 0 else end])
        objects[number] = value
        if stream_at >= 0:
            begin = stream_at + len(b">>\nstream\n")
            raw = data[begin:begin + value["Length"]]
            assert data.startswith(b"\nendstream", begin + value["Length"]), number
            streams[number] = zlib.decompress(raw) if value.get("Filter") == "FlateDecode" \
                else raw
    trailer_at = data.index(b"trailer", start) + len(b"trailer")
    trailer = parse(data[trailer_at:data.index(b"startxref", trailer_at)])
    return Document(objects, streams, trailer)


def text(value: bytes) -> str:
    """A PDF text string: UTF-16 after its byte order mark, else PDFDocEncoding
    (Latin-1 for what the kit writes)."""
    if value.startswith(b"\xfe\xff"):
        return value[2:].decode("utf-16-be")
    return value.decode("latin-1")
