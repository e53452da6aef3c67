"""The scanner's wire protocol, as pure functions of bytes and strings.

One message a line: printable ASCII, at most 80 characters, ended by ``\\n``
(``\\r\\n`` is accepted), and ending in ``*HH``, the XOR of every byte before
the ``*`` in two upper-case hex digits.

>>> format_line("PING")
b'PING*10\\n'
>>> parse_line(b"CARD 04A1B2C3D4E5F6 7*27\\n")
Card(uid='04A1B2C3D4E5F6', seq=7)
>>> parse_line(b"CARD 04A1B2C3D4E5F6 7*00\\n")
Traceback (most recent call last):
...
firmware_bridge.protocol.ProtocolError: bad checksum: the line says 00, its bytes give 27

Device to host: ``HELLO <device> proto=<major> fw=<x.y.z>``,
``CARD <uid hex> <seq>``, ``PONG``, ``ERR <code> <text>``.
Host to device: ``HELLO?`` and ``PING``. See docs/protocol.md.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator
from dataclasses import dataclass

PROTOCOL_MAJOR = 1
MAX_LINE = 80
SEQ_MODULUS = 1 << 16


class ProtocolError(ValueError):
    """A line that is not a valid message, and why."""


@dataclass(frozen=True, slots=True)
class Hello:
    device: str
    proto: int
    firmware: str


@dataclass(frozen=True, slots=True)
class Card:
    uid: str
    seq: int


@dataclass(frozen=True, slots=True)
class Pong:
    pass


@dataclass(frozen=True, slots=True)
class DeviceError:
    code: str
    text: str


Message = Hello | Card | Pong | DeviceError


def checksum(text: str) -> str:
    """The XOR of a message's bytes, in two upper-case hex digits.

    >>> checksum("PING")
    '10'
    """
    value = 0
    for byte in text.encode("ascii"):
        value ^= byte
    return f"{value:02X}"


def format_line(message: str) -> bytes:
    """A message as a line on the wire, checksum and newline added."""
    line = f"{message}*{checksum(message)}"
    if len(line) > MAX_LINE:
        raise ProtocolError(f"message too long: {len(line)} characters, at most {MAX_LINE}")
    return (line + "\n").encode("ascii")


# Later versions may add fields at the end of a message: they are ignored.
_HELLO = re.compile(r"HELLO (\S+) proto=(\d+) fw=(\S+)(?: .*)?")
_CARD = re.compile(
    r"CARD ((?:[0-9A-F]{2}){4}|(?:[0-9A-F]{2}){7}|(?:[0-9A-F]{2}){10}) (\d{1,5})(?: .*)?"
)
_ERR = re.compile(r"ERR ([A-Z]+) (.+)")


def check_line(raw: bytes) -> str:
    """The message of a line, its checksum verified and stripped."""
    line = raw.removesuffix(b"\n").removesuffix(b"\r")
    if b"\x00" in line:
        raise ProtocolError("the line holds a NUL byte")
    if len(line) > MAX_LINE:
        raise ProtocolError(f"line too long: {len(line)} bytes, at most {MAX_LINE}")
    try:
        text = line.decode("ascii")
    except UnicodeDecodeError:
        raise ProtocolError("the line is not ASCII") from None
    if not text.isprintable():
        raise ProtocolError("the line holds control characters")
    body, star, given = text.rpartition("*")
    if not star or len(given) != 2:
        raise ProtocolError("no checksum at the end of the line")
    expected = checksum(body)
    if given.upper() != expected:
        raise ProtocolError(f"bad checksum: the line says {given}, its bytes give {expected}")
    return body


def parse_message(body: str) -> Message:
    """A message from a line's text (checksum already removed)."""
    if body == "PONG":
        return Pong()
    if match := _CARD.fullmatch(body):
        seq = int(match.group(2))
        if seq >= SEQ_MODULUS:
            raise ProtocolError(f"sequence number {seq} is out of range")
        return Card(match.group(1), seq)
    if match := _HELLO.fullmatch(body):
        return Hello(match.group(1), int(match.group(2)), match.group(3))
    if match := _ERR.fullmatch(body):
        return DeviceError(match.group(1), match.group(2))
    raise ProtocolError(f"unknown message: {body[:20]!r}")


def parse_line(raw: bytes) -> Message:
    return parse_message(check_line(raw))


class LineSplitter:
    """Bytes in, whole lines out; an endless line is cut off, not kept.

    ``feed`` yields each complete line (with its newline), and for a line
    longer than the limit, one ``ProtocolError`` value instead, once its end
    arrives; the bytes of it are never kept beyond the limit.
    """

    def __init__(self, limit: int = MAX_LINE + 2) -> None:
        self.limit = limit
        self._buffer = bytearray()
        self._overflow = 0

    def feed(self, data: bytes) -> Iterator[bytes | ProtocolError]:
        start = 0
        while start < len(data):
            end = data.find(b"\n", start)
            chunk = data[start:] if end < 0 else data[start : end + 1]
            start = len(data) if end < 0 else end + 1
            if self._overflow or len(self._buffer) + len(chunk) > self.limit:
                self._overflow += len(self._buffer) + len(chunk)
                self._buffer.clear()
                if end >= 0:
                    size, self._overflow = self._overflow, 0
                    yield ProtocolError(f"line too long: {size} bytes, at most {MAX_LINE}")
                continue
            self._buffer += chunk
            if end >= 0:
                line = bytes(self._buffer)
                self._buffer.clear()
                yield line

    def reset(self) -> None:
        """Forget a partial line (after the port is opened again)."""
        self._buffer.clear()
        self._overflow = 0


class SeqVerdict(enum.Enum):
    NEW = "new"
    REPEAT = "repeat"
    #: New, and the board started again: its numbers count from here.
    RESTART = "restart"


@dataclass
class SequenceTracker:
    """Card messages' sequence numbers: a repeat is ignored, a gap is
    counted, a board that started again is recognised.

    A serial line keeps the order of what is sent, so a board's numbers only
    go forward. The same number and tag as the last message is that message
    twice. A 0 that does not follow 65535, a number behind the last, or the
    last number with another tag means the board started again, whether or
    not its HELLO was heard: that message is new and the count starts again
    from it. Only the last number and tag are kept, whatever the number of
    tags seen.

    >>> t = SequenceTracker()
    >>> [t.see(seq, uid)[0].value for seq, uid in
    ...  [(0, "A1"), (1, "B2"), (1, "B2"), (0, "A1"), (1, "B2"), (2, "C3")]]
    ['new', 'new', 'repeat', 'restart', 'new', 'new']
    """

    last: int | None = None
    last_uid: str | None = None
    dropped: int = 0
    restarts: int = 0

    def see(self, seq: int, uid: str | None = None) -> tuple[SeqVerdict, int]:
        """The verdict on a card message, and how many were lost just before it."""
        last, last_uid = self.last, self.last_uid
        self.last, self.last_uid = seq, uid
        if last is None:
            return SeqVerdict.NEW, 0
        gap = (seq - last) % SEQ_MODULUS
        if gap == 0 and (uid is None or last_uid is None or uid == last_uid):
            return SeqVerdict.REPEAT, 0
        if gap == 1:
            return SeqVerdict.NEW, 0
        if gap == 0 or seq == 0 or gap > SEQ_MODULUS // 2:
            # a board counts from 0 when it starts; nothing else goes back
            self.restarts += 1
            return SeqVerdict.RESTART, 0
        self.dropped += gap - 1
        return SeqVerdict.NEW, gap - 1

    def restart(self) -> None:
        """The device started again (it said HELLO): its numbers start again."""
        self.last = self.last_uid = None


#: Where a message can start, to find one glued after a cut-off line.
MESSAGE_STARTS = (b"HELLO ", b"CARD ", b"PONG*", b"ERR ")


def resync(line: bytes) -> Message | None:
    """A valid message at the end of a garbled line, if there is one.

    When a board resets in the middle of a line, its HELLO follows the cut
    line on the same line; this finds it.

    >>> resync(b"CARD 04A1B2" + format_line("PONG"))
    Pong()
    """
    starts = [line.rfind(start) for start in MESSAGE_STARTS]
    for position in sorted((p for p in starts if p > 0), reverse=True):
        try:
            return parse_line(line[position:])
        except ProtocolError:
            continue
    return None
