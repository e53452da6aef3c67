"""What every game's sessions do with their saved game, written once.

A session (a practice game, a table game, of any game) is a game plus its
:class:`~companion.journal.Journal`. Whatever the game, its saved game
ends the same way and is resumed the same way, and :class:`Saved` holds
that part:

- its end: :meth:`Saved.finish` when the game was played out (with what a
  game keeps of its result, such as the totals), :meth:`Saved.discard`
  when the player threw it away (marked ended, so never offered again);
  :attr:`Saved.ended` and :attr:`Saved.discarded` read it back (the
  journal's :data:`~companion.journal.END` event);
- a note journaled for the player, said once: :meth:`Saved.untold` is the
  last event if it is such a note not yet told (its ``told`` false),
  :meth:`Saved.mark_told` writes it again told (a table game's note of a
  fact taken out as it resumed);
- resuming: :meth:`Saved.check` checks a journal's records and its kind
  before a session replays it, :meth:`Saved.resume` opens a saved game
  as a session of its kind, and :func:`session_of` picks the session of
  a saved game's kind; :func:`resumed`, that of a game played in
  practice or at the table, is what a game's plugin resumes.

The events on disk are the ones every version wrote: ``{"type": "end"}``
(with the game's own fields, and ``"discarded": true`` when thrown away),
and a note's ``"told"`` flag.

>>> import pathlib, tempfile
>>> from dataclasses import dataclass
>>> @dataclass
... class Demo(Saved):
...     KIND = "demo"
...     WHAT = "demo game"
...     journal: Journal
>>> game = Demo(Journal.create({"type": "demo"}, pathlib.Path(tempfile.mkdtemp())))
>>> game.ended, game.discarded
(False, False)
>>> game.discard()
>>> game.ended, game.discarded, game.last_event()
(True, True, {'type': 'end', 'discarded': True})
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar, Self, TypeVar

from companion.journal import (
    DISCARDED,
    END,
    Event,
    GameRef,
    Journal,
    JournalError,
    Loaded,
    transaction,
)
from companion.records import Records

#: The field of a note that says it was told.
TOLD = "told"


class Saved:
    """A session's saved game: its end, its notes said once, its resuming.

    A session class says which kind of saved game it is (``KIND``, its
    header's ``type``) and how messages name that kind (``WHAT``)."""

    #: The ``type`` of the headers of this session's saved games.
    KIND: ClassVar[str]
    #: How messages name this kind of game ("practice game").
    WHAT: ClassVar[str]

    journal: Journal

    # -- resuming ------------------------------------------------------------------------------

    @classmethod
    def check(cls, journal: Journal, records: Records) -> None:
        """A saved game's records checked (raising
        :class:`~companion.records.Damaged` for one that cannot be trusted),
        then its kind (raising :class:`~companion.journal.JournalError` for a
        saved game of another kind)."""
        records.check(journal.ref.name, journal.header, journal.events)
        if journal.header["type"] != cls.KIND:
            raise JournalError(f"{journal.ref.label} is not a {cls.WHAT}")

    @classmethod
    def from_journal(cls, journal: Journal) -> Self:
        """The session of a journal, as it stood (each session replays its own)."""
        raise NotImplementedError(f"{cls.__name__} does not say how it replays")

    @classmethod
    def resume(cls, ref: GameRef) -> tuple[Self, Loaded]:
        """A saved game of this kind opened (locked for this window) and
        replayed, exactly as it stood at its last whole event; and what the
        opening read."""
        journal, loaded = Journal.open(ref)
        if journal.header.get("type") != cls.KIND:
            journal.close()
            raise JournalError(f"{ref.label} is not a {cls.WHAT}")
        return cls.from_journal(journal), loaded

    # -- its end -------------------------------------------------------------------------------

    def last_event(self) -> Event | None:
        return self.journal.events[-1] if self.journal.events else None

    @property
    def ended(self) -> bool:
        """Whether the game's end is journaled (played out, or thrown away)."""
        return self.journal.ended

    @property
    def discarded(self) -> bool:
        """Whether the game was thrown away."""
        return self.journal.discarded

    def finish(self, **result: object) -> None:
        """The game was played out: its end journaled, with ``result`` (what
        the game keeps of it, such as the totals)."""
        self.journal.append({"type": END, **result})

    def discard(self) -> None:
        """Throw the game away for good: marked ended (and so never offered
        again), then closed."""
        self.journal.append({"type": END, DISCARDED: True})
        self.close()

    def close(self) -> None:
        self.journal.close()

    # -- notes said once -----------------------------------------------------------------------

    def untold(self, kind: str) -> Event | None:
        """The last event, if it is a note of this ``type`` not yet told."""
        last = self.last_event()
        if last is not None and last["type"] == kind and not last[TOLD]:
            return last
        return None

    def mark_told(self, note: Event) -> None:
        """The last event, a note, written again as ``note`` (the same note,
        told): in one transaction, so that it is said once, whenever the app
        is stopped."""
        with transaction():
            self.journal.undo()
            self.journal.append(note)


S = TypeVar("S", bound=Saved)


def session_of(journal: Journal, records: Records, title: str,
               kinds: Mapping[str, Callable[[Journal], S]]) -> S:
    """The session of a saved game, by its kind (its header's ``type``): made
    by ``kinds``, which replays it. A saved game of no kind there raises
    :class:`~companion.records.Damaged` if its records say what is wrong,
    else :class:`~companion.journal.JournalError` (``title`` names the game)."""
    kind = journal.header.get("type")
    for known, make in kinds.items():
        if kind == known:
            return make(journal)
    records.check(journal.ref.name, journal.header, journal.events)  # says what is wrong
    raise JournalError(f"{journal.ref.label} is not a {title} game")


P = TypeVar("P", bound=Saved)
T = TypeVar("T", bound=Saved)


def resumed(journal: Journal, records: Records, title: str, practice: type[P],
            table: type[T]) -> P | T:
    """The session of a saved game played in practice or at the table (its
    two session classes), by its header's ``type``: what a game's plugin
    resumes. Raises as :func:`session_of` does for a game of neither kind
    (``records`` are the game's, ``title`` names it)."""
    kinds: dict[str, Callable[[Journal], P | T]] = {
        practice.KIND: practice.from_journal, table.KIND: table.from_journal}
    return session_of(journal, records, title, kinds)
