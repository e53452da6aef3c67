"""What the input layer tells the app: one stream of events, whatever the source.

A card identified by the serial scanner, typed at the keyboard or typed by
a keyboard-wedge barcode scanner arrives as the same :class:`CardIdentified`
event with its :class:`Source`; the scanner's comings and goings and its
problems arrive as events too. Everything downstream listens to this one
stream.

A card is named by two plain strings, its game and its card id, as the
game's vocabulary names them (:mod:`firmware_bridge.vocabulary`): the
bridge serves every game and knows none.

>>> scan = CardIdentified("sushigo", "salmon", Source.SCANNER, "DEC0DE07000000", None, 0)
>>> scan.game, scan.card, scan.seq
('sushigo', 'salmon', 0)
>>> CardIdentified(None, None, Source.SCANNER, "04A1B2C3", None, 1).card is None
True
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Source(enum.Enum):
    """Where a card came from."""

    SCANNER = "scanner"
    KEYBOARD = "keyboard"
    WEDGE = "wedge"


@dataclass(frozen=True, slots=True)
class CardIdentified:
    """A card of a game, or an unknown tag (``game`` and ``card`` are ``None``:
    enrol it first)."""

    game: str | None
    card: str | None
    source: Source
    uid: str | None = None
    text: str | None = None
    seq: int | None = None


@dataclass(frozen=True, slots=True)
class CardRefused:
    """Typed text that names no card: ``reason`` says why and what to type, in English."""

    text: str
    reason: str
    source: Source


@dataclass(frozen=True, slots=True)
class ScannerFound:
    """The scanner answered on a port (again, if ``again``)."""

    port: str
    device: str
    firmware: str
    again: bool = False


@dataclass(frozen=True, slots=True)
class ScannerLost:
    """The scanner stopped answering or went away; the link keeps trying."""

    port: str
    reason: str


class ScannerIssue(enum.Enum):
    """What kind of scanner problem, so that an app can say it in its language."""

    NOT_FOUND = "not-found"  # no board on any USB port
    NO_PORT = "no-port"  # the port given does not exist
    NO_ANSWER = "no-answer"  # a port where nothing answers
    FOREIGN_DEVICE = "foreign-device"  # something answers, not in the protocol
    PROTOCOL = "protocol"  # a board with another protocol version
    CANNOT_OPEN = "cannot-open"  # the port cannot be opened
    LOST_SCANS = "lost-scans"  # ``count`` scans missing in the sequence
    GARBLED = "garbled"  # ``count`` garbled lines ignored
    DEVICE_ERROR = "device-error"  # the board reported ``detail``
    STALE_LINK = "stale-link"  # a virtual scanner's link, its scanner gone
    NOT_SERIAL = "not-serial"  # neither a serial port nor a live virtual scanner's terminal
    OTHERS_TERMINAL = "others-terminal"  # a program's terminal (``detail``, process ``count``)


@dataclass(frozen=True, slots=True)
class ScannerProblem:
    """Something the scanner sent or did that was wrong; nothing was lost for it.

    ``reason`` says it in English (for logs and ``firmware-bridge``);
    ``kind``, ``count`` and ``detail`` let an app say it in any language."""

    reason: str
    port: str | None = None
    kind: ScannerIssue | None = None
    count: int = 0
    detail: str = ""


InputEvent = CardIdentified | CardRefused | ScannerFound | ScannerLost | ScannerProblem
