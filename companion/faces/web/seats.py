"""The seats of a table shared between devices, as the web face serves
them (a :class:`~companion.contract.game.Seating`).

The host's conversation sets the table up and opens it
(:meth:`Seats.opened`); from then on a device that gives the table's join
code (typed, or in the address of the host's QR code) may take a free
seat. Taking it starts that seat's own conversation, with its own page
(:class:`Window`), and gives the device a session of its own (a cookie):
that device alone reaches the seat's page. The same device comes back to
it (the page reloaded, the connection lost, the browser closed and opened
again); a seat whose device is lost is freed by the host, and taken again
from any device with the code.

The join code is unguessable (50 bits, from :mod:`secrets`) and typed in
groups of letters and digits that do not look alike; each session is a
secret of 192 bits. Both are compared in constant time.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from companion.contract.game import SharedTable
from companion.faces.web.face import WebFace
from companion.faces.web.page import Window

#: The join code's letters and digits: none that looks like another (no
#: I, L, O, 0, 1), none that a screen reader says alike.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: Characters of a join code (31 ** 10: about 2 ** 50).
CODE_LENGTH = 10
#: The cookie a seat's device keeps, and for how long (seconds).
SEAT_COOKIE = "seat"
SEAT_COOKIE_AGE = 12 * 3600
#: Seconds the seats' conversations are given, together, to end (their
#: games are saved as they go: this is for the last answer's save).
END_WAIT = 10.0


def join_code() -> str:
    """A new table's join code, as it is shown and said (groups of four).

    >>> code = join_code()
    >>> len(code), code.count("-"), all(c in CODE_ALPHABET + "-" for c in code)
    (12, 2, True)
    """
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return "-".join(raw[i:i + 4] for i in range(0, CODE_LENGTH, 4))


def plain(code: str) -> str:
    """A code as typed (any case, spaces or dashes), as it is compared.

    >>> plain(" abcd-efgh jk ")
    'ABCDEFGHJK'
    """
    return "".join(c for c in code.upper() if c.isascii() and c.isalnum())


#: Opens seat ``seat``'s conversation, in ``language``: its window.
Opener = Callable[[SharedTable, int, str], Window]


@dataclass(frozen=True, slots=True)
class SeatState:
    """A seat as the join page and the host's page show it."""

    number: int
    name: str
    taken: bool


class Seats:
    """The seats of the shared table this server serves (none before the
    host opens it). ``host``: the host's face, told of the table's news;
    ``opener`` starts a seat's conversation; ``address``: where players
    join (on the local network, with ``--lan``)."""

    def __init__(self, host: WebFace, opener: Opener, address: str) -> None:
        self.host = host
        self.code = join_code()
        self.address = address
        self._opener = opener
        self._lock = threading.Lock()
        self._table: SharedTable | None = None
        self._windows: dict[int, Window] = {}
        #: Each seat's device: its session (the cookie's value).
        self._sessions: dict[int, str] = {}
        self._closed = False

    # -- what the host's conversation calls (a Seating) ------------------------------------

    def opened(self, table: SharedTable) -> tuple[str, str]:
        """(A table after another: the last one's seats are ended, and the
        new one has a code of its own.)"""
        with self._lock:
            windows = list(self._windows.values())
            if self._table is not None:
                self.code = join_code()
            self._table = table
            self._windows.clear()
            self._sessions.clear()
        self._end(windows)
        return self.join_address(), self.code

    def news(self, seat: int | None) -> None:
        if seat is None:
            self.host.moved()
            return
        with self._lock:
            window = self._windows.get(seat)
        if window is not None:
            window.face.moved()

    # -- what the server asks ----------------------------------------------------------------

    def join_address(self) -> str:
        """The address a player opens, the code in it (the QR code's)."""
        return f"{self.address.rstrip('/')}/join?code={plain(self.code)}"

    @property
    def is_open(self) -> bool:
        """Whether seats may be taken: a table is open, and not over."""
        with self._lock:
            return self._table is not None and not self._closed and not self._table.over

    @property
    def over(self) -> bool:
        """Whether the table open is over (its game finished, or ended)."""
        with self._lock:
            return self._table is not None and self._table.over

    def code_is(self, typed: str) -> bool:
        """Whether ``typed`` is this table's join code."""
        return hmac.compare_digest(plain(typed).encode(), plain(self.code).encode())

    def seats(self) -> list[SeatState]:
        with self._lock:
            names = self._table.names if self._table is not None else ()
            return [SeatState(n, name, n in self._sessions) for n, name in enumerate(names)]

    def window(self, session: str | None) -> Window | None:
        """The window of the seat whose device holds ``session``, if any."""
        if not session:
            return None
        with self._lock:
            for seat, held in self._sessions.items():
                if hmac.compare_digest(held.encode(), session.encode()):
                    return self._windows.get(seat)
        return None

    def take(self, seat: int, language: str) -> str | None:
        """Seat ``seat`` taken by a device: its new session, or ``None``
        (no such seat, or another device holds it). The seat's
        conversation starts the first time it is taken."""
        with self._lock:
            table = self._table
            if (table is None or self._closed or table.over
                    or not 0 <= seat < len(table.names) or seat in self._sessions):
                return None
            session = secrets.token_urlsafe(24)
            self._sessions[seat] = session
            opened = seat in self._windows
        if not opened:
            try:
                window = self._opener(table, seat, language)
            except BaseException:
                with self._lock:  # (the seat is not held by a device it never reached)
                    if self._sessions.get(seat) == session:
                        del self._sessions[seat]
                raise
            with self._lock:
                # the table may have moved on while the seat's conversation
                # started (another table opened, the server stopping, the
                # seat freed and taken again): then this one is ended at once
                kept = (self._table is table and not self._closed
                        and self._sessions.get(seat) == session and seat not in self._windows)
                if kept:
                    self._windows[seat] = window
            if not kept:
                self._end([window])
                return None
        table.joined(seat)
        return session

    def free(self, seat: int) -> bool:
        """The host frees a seat whose device is lost: the device that
        held it reaches it no more; the seat's game waits, as it was, for
        the device that takes it next. Whether it was held."""
        with self._lock:
            held = self._sessions.pop(seat, None) is not None
            window = self._windows.get(seat)
            table = self._table
        if held and table is not None:
            table.freed(seat)
        if window is not None:
            window.face.wake()  # its old device's update stream ends now
        return held

    def close(self) -> None:
        """The server stops: every seat's conversation ends (its game saved)."""
        with self._lock:
            self._closed = True
            windows = list(self._windows.values())
        self._end(windows)

    @staticmethod
    def _end(windows: list[Window]) -> None:
        """Seats' conversations told to end, all at once, then waited for
        (:data:`END_WAIT` seconds at most, for all of them)."""
        for window in windows:
            window.close()
        deadline = time.monotonic() + END_WAIT
        for window in windows:
            window.wait(max(0.0, deadline - time.monotonic()))


__all__ = ["SEAT_COOKIE", "Opener", "SeatState", "Seats", "join_code", "plain"]
