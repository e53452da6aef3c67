"""What a real table shared between devices keeps in every game: who took
a seat, whether the host ended it, and which seats to tell that the table
moved on. Each game's table (sushigo/shared.py, micimaki/shared.py) adds
what its seats share (Sushi Go's picks of a turn, Mici Maki's moves) and
its own facts, and says when its game is over.

Threads: every seat's game runs in a thread of its own; the table is
shared between them, behind its lock, and tells a seat that the game
moved on (``news``) without touching its game.

>>> told = []
>>> table = TableBase(["Ann", "Ben"], told.append)
>>> table.joined(1); table.end(); told
[None, None, 0, 1]
>>> table.public(0), table.over
(([Joined(seat=1), Ended()], 2), True)
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

#: Tells a seat (``None``: the host) that the table moved on.
News = Callable[[int | None], None]


@dataclass(frozen=True, slots=True)
class Joined:
    """A seat was taken (or taken again, on another device)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Ended:
    """The host ended the table."""


class TableBase:
    """The seats of one shared table: their players' names, the facts that
    became public, in order (each game adds its own kinds), and who has a
    device.

    ``news(seat)`` is called (from the thread that changed the table) for
    each seat and the host that has something new to say."""

    def __init__(self, names: Sequence[str], news: News) -> None:
        self.names = tuple(names)
        self._news = news
        self._lock = threading.Lock()
        self._public: list[object] = []
        self._seated: set[int] = set()

    @property
    def seats(self) -> int:
        return len(self.names)

    def _tell(self, *, seats: bool = True, but: int | None = None) -> None:
        """The host told that the table moved on; with ``seats``, every seat
        too (but ``but``, which moved it). A game tells a seat only of what
        moves its own game on: news of any other kind would take the
        question it is answering from under it."""
        self._news(None)
        for seat in range(self.seats) if seats else ():
            if seat != but:
                self._news(seat)

    def _finished(self) -> bool:
        """(Under the lock.) Whether the game itself is over."""
        return False

    def _ended(self) -> bool:
        return any(isinstance(fact, Ended) for fact in self._public)

    def _over(self) -> bool:
        return self._ended() or self._finished()

    def joined(self, seat: int) -> None:
        """A seat was taken (the web face calls it when a device takes it);
        none once the table is over."""
        with self._lock:
            if self._over():
                return
            self._seated.add(seat)
            self._public.append(Joined(seat))
        self._tell(seats=False)

    def freed(self, seat: int) -> None:
        """The host freed a seat whose device was lost: it has no device
        until one takes it again."""
        with self._lock:
            self._seated.discard(seat)
        self._tell(seats=False)

    def end(self) -> None:
        """The host ends the table (each seat's game stays saved)."""
        with self._lock:
            self._public.append(Ended())
        self._tell()

    def seated(self) -> frozenset[int]:
        with self._lock:
            return frozenset(self._seated)

    def public(self, since: int) -> tuple[list[object], int]:
        """What became public after the first ``since`` facts, and how many there are now."""
        with self._lock:
            return list(self._public[since:]), len(self._public)

    @property
    def ended(self) -> bool:
        """Whether the host ended the table."""
        with self._lock:
            return self._ended()

    @property
    def over(self) -> bool:
        """Whether the table is over: its game finished, or ended by the host."""
        with self._lock:
            return self._over()
