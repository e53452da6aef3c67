"""The table tracker: a real game followed from what is entered, nothing more.

At a real table the companion does not know the deal. It knows what the
player enters: their own hand when they scan it, their picks, the other
players' revealed cards when someone enters them (perhaps a turn late), or a
whole tableau at the end of a round. From those facts alone it keeps every
tableau and score, follows each hand round the table, and says what does not
fit (a pick the traced hand did not hold, a hand that differs from what was
traced of it, more copies of a card than the deck has, a hand entered in
part) without refusing the player's word. What the rules force is another
matter: a hand of more cards than the turn holds, two cards taken with no
chopsticks on a table known to the turn, two cards for the dummy, a tableau
larger than a round. An entry against one of those cannot be true, and is
refused (:class:`ImpossibleEntry`), never kept.

Facts are :class:`Entry` values kept in order; everything else is worked out
again from them whenever they change (an entry can be replaced or removed),
so a late or corrected entry simply changes what follows from it.

>>> from companion.games.sushigo.cards import Card
>>> t = Tracker(["Ana", "Ben", "Cyril"], you=0)
>>> _ = t.add(Entry.hand([Card.TEMPURA, Card.SQUID, Card.WASABI, Card.EGG, Card.SALMON,
...                      Card.PUDDING, Card.MAKI2, Card.DUMPLING, Card.SASHIMI]))
>>> _ = t.add(Entry.pick(0, [Card.WASABI]))
>>> _ = t.add(Entry.pick(1, [Card.TEMPURA]))
>>> [len(t.table(s)) for s in range(3)]
[1, 1, 0]
>>> passed = t.passed_hand()
>>> passed.seat, len(passed.known)
(1, 8)
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from companion.games.sushigo.cards import ROUNDS, Card, deck_counts, hand_size
from companion.games.sushigo.draft import Direction, Variant
from companion.games.sushigo.scoring import (
    GameScore,
    Race,
    SeatScore,
    score_game,
    score_round,
)


class EntryKind(enum.Enum):
    """What a fact is about."""

    #: The player's own hand, as scanned or typed.
    HAND = "hand"
    #: The cards a seat revealed on a turn (two with chopsticks).
    PICK = "pick"
    #: A seat's whole tableau at the end of a round, in play order.
    TABLEAU = "tableau"
    #: Play moved on to the next turn (or round).
    NEXT = "next"

    def __repr__(self) -> str:
        return f"EntryKind.{self.name}"


@dataclass(frozen=True, slots=True)
class Entry:
    """One fact entered at the table.

    ``round`` and ``turn`` say when it happened; ``None`` means "now" and is
    filled in when the entry is added. ``seat`` is the seat it is about.
    """

    kind: EntryKind
    cards: tuple[Card, ...] = ()
    seat: int | None = None
    round: int | None = None
    turn: int | None = None

    @classmethod
    def hand(cls, cards: Sequence[Card], *, round: int | None = None,
             turn: int | None = None) -> Entry:
        return cls(EntryKind.HAND, tuple(cards), None, round, turn)

    @classmethod
    def pick(cls, seat: int, cards: Sequence[Card], *, round: int | None = None,
             turn: int | None = None) -> Entry:
        return cls(EntryKind.PICK, tuple(cards), seat, round, turn)

    @classmethod
    def tableau(cls, seat: int, cards: Sequence[Card], *, round: int | None = None) -> Entry:
        return cls(EntryKind.TABLEAU, tuple(cards), seat, round, None)

    @classmethod
    def next_turn(cls) -> Entry:
        return cls(EntryKind.NEXT)


class Concern(enum.Enum):
    """Something that does not fit; the entry is kept all the same."""

    #: More copies of a card than the deck has.
    TOO_MANY = "too-many"
    #: A pick that the hand, as traced, did not hold.
    NOT_IN_HAND = "not-in-hand"
    #: Two cards taken without chopsticks on the table.
    NO_CHOPSTICKS = "no-chopsticks"
    #: Two cards given to the dummy, which never uses chopsticks.
    DUMMY_TWO = "dummy-two"
    #: A scanned hand of the wrong size for the turn.
    HAND_SIZE = "hand-size"
    #: A scanned hand that differs from what was traced of it.
    HAND_DIFFERS = "hand-differs"
    #: More cards on a tableau than a round allows.
    TABLEAU_SIZE = "tableau-size"

    def __repr__(self) -> str:
        return f"Concern.{self.name}"


@dataclass(frozen=True, slots=True)
class Warning:
    """A concern about one entry: which, about what card and seat, and the numbers."""

    concern: Concern
    entry: int
    seat: int | None = None
    card: Card | None = None
    count: int = 0
    limit: int = 0
    expected: tuple[Card, ...] = ()


class TrackerError(ValueError):
    """An entry that cannot mean anything (a seat not at the table, a round
    that does not exist, three cards in one pick). Consistency problems are
    never errors: they are :class:`Warning` values."""


#: Concerns that the rules force whatever else was entered: an entry raising
#: one is refused (a hand only when larger than the turn's, two cards without
#: chopsticks only on a table known to the turn). The deck's counts are not
#: among them: which entry is wrong is not known (a card counted too many is
#: said and kept).
FORCED = frozenset({Concern.NO_CHOPSTICKS, Concern.DUMMY_TWO, Concern.HAND_SIZE,
                    Concern.TABLEAU_SIZE})


class ImpossibleEntry(TrackerError):
    """An entry against what the rules force, refused and not kept;
    ``warning`` says what (its concern is one of :data:`FORCED`)."""

    def __init__(self, warning: Warning) -> None:
        super().__init__(f"{warning.concern.value}: seat {warning.seat}, card {warning.card}, "
                         f"{warning.count} of {warning.limit}")
        self.warning = warning


@dataclass(frozen=True, slots=True)
class HandInfo:
    """What is known of one hand now.

    ``known`` is every card it can still hold for sure (if a pick on the way
    was not entered, ``missing`` counts the picks whose cards are unknown, and
    ``known`` may still list cards that were taken). ``held_turn`` is the turn
    the player last held it (0: never this round); ``taken`` lists what each
    seat took from it since: ``(turn, seat, cards)``, cards ``None`` if not
    entered.
    """

    seat: int
    size: int
    known: tuple[Card, ...]
    missing: int
    held_turn: int
    taken: tuple[tuple[int, int, tuple[Card, ...] | None], ...]

    @property
    def complete(self) -> bool:
        """Every card of the hand is known (the dummy's draws are never known)."""
        return self.held_turn > 0 and self.missing == 0 and len(self.known) == self.size


@dataclass
class _Derived:
    round: int = 1
    turn: int = 1
    tables: dict[int, list[list[Card]]] = field(default_factory=dict)
    hands: dict[tuple[int, int], tuple[Card, ...]] = field(default_factory=dict)
    picks: dict[tuple[int, int, int], tuple[Card, ...]] = field(default_factory=dict)
    warnings: list[Warning] = field(default_factory=list)


class Tracker:
    """Follows a real game from the facts entered.

    ``names`` are the seats in table order (clockwise, so passing left goes
    to the next name); with ``Variant(dummy=True)`` the last name is the
    dummy's. ``you`` is the player's own seat.
    """

    def __init__(
        self,
        names: Sequence[str],
        you: int,
        variant: Variant = Variant(),  # noqa: B008 - frozen dataclass
        first_controller: int = 0,
    ) -> None:
        seats = len(names)
        if not 2 <= seats <= 5:
            raise TrackerError("Sushi Go! is for 2 to 5 seats")
        if variant.dummy and seats != 3:
            raise TrackerError("the dummy variant has 3 seats: 2 players and the dummy")
        if not 0 <= you < seats or (variant.dummy and you == 2):
            raise TrackerError("your seat must be a player's seat")
        self.names = tuple(names)
        self.you = you
        self.variant = variant
        self.seats = seats
        self.dummy = 2 if variant.dummy else None
        self.hand_size = hand_size(seats)
        self.first_controller = first_controller
        self._entries: list[Entry] = []
        self._derived = _Derived()

    # -- entering facts ---------------------------------------------------------

    @property
    def entries(self) -> tuple[Entry, ...]:
        return tuple(self._entries)

    def add(self, entry: Entry) -> list[Warning]:
        """Keep a fact (now, unless it says when); the concerns it raises.
        Raises :class:`ImpossibleEntry`, keeping nothing, for a fact against
        what the rules force.

        >>> from companion.games.sushigo.cards import Card
        >>> t = Tracker(["Ana", "Ben"], you=0)
        >>> t.add(Entry.hand([Card.TEMPURA] * 11))
        Traceback (most recent call last):
        ...
        companion.games.sushigo.tracker.ImpossibleEntry: hand-size: seat 0, card None, 11 of 10
        >>> t.entries
        ()
        """
        entry = self.place(entry)
        self._entries.append(entry)
        try:
            return self._keep(len(self._entries) - 1)
        except ImpossibleEntry:
            self._entries.pop()
            raise

    def replace(self, index: int, entry: Entry) -> list[Warning]:
        """Correct a fact (a mis-scan, a wrong seat); everything is worked out
        again (refused as :meth:`add` refuses)."""
        old = self._entries[index]
        entry = self.place(replace(entry, round=entry.round or old.round,
                                     turn=entry.turn or old.turn))
        self._entries[index] = entry
        try:
            return self._keep(index)
        except ImpossibleEntry:
            self._entries[index] = old
            raise

    def _keep(self, index: int) -> list[Warning]:
        """The facts worked out again with entry ``index`` new: its concerns,
        or :class:`ImpossibleEntry` (the facts then left as they were)."""
        derived = self._derive()
        warnings = [w for w in derived.warnings if w.entry == index]
        for warning in warnings:
            if warning.concern in FORCED and self._forced(derived, warning):
                raise ImpossibleEntry(warning)
        self._derived = derived
        return warnings

    def _forced(self, d: _Derived, warning: Warning) -> bool:
        """Whether a concern is what the rules force: always, but a hand only
        when it holds more cards than the turn's (fewer: entered in part), and
        two cards without chopsticks only when every pick before it this round
        is known."""
        if warning.concern is Concern.HAND_SIZE:
            return warning.count > warning.limit
        if warning.concern is not Concern.NO_CHOPSTICKS:
            return True
        entry = self._entries[warning.entry]
        assert entry.seat is not None and entry.round is not None and entry.turn is not None
        table = self._tables_of(_until(d, entry), entry.round)[entry.seat]
        return len(table) >= entry.turn - 1

    def remove(self, index: int) -> Entry:
        entry = self._entries.pop(index)
        self._derived = self._derive()
        return entry

    def undo(self) -> Entry | None:
        return self.remove(len(self._entries) - 1) if self._entries else None

    def place(self, entry: Entry) -> Entry:
        """The entry as it would be kept (its round and turn filled in); raises
        :class:`TrackerError` for an entry that cannot mean anything."""
        d = self._derived
        round_ = entry.round if entry.round is not None else d.round
        turn = entry.turn if entry.turn is not None else d.turn
        if entry.kind is EntryKind.NEXT:
            return entry
        if not 1 <= round_ <= ROUNDS:
            raise TrackerError(f"there is no round {round_}")
        if not 1 <= turn <= self.hand_size:
            raise TrackerError(f"a round has {self.hand_size} turns, not {turn}")
        seat_needed = entry.kind is not EntryKind.HAND
        if seat_needed and (entry.seat is None or not 0 <= entry.seat < self.seats):
            raise TrackerError(f"there is no seat {entry.seat}")
        if entry.kind is EntryKind.PICK and not 1 <= len(entry.cards) <= 2:
            raise TrackerError("a pick is one card, or two with chopsticks")
        if entry.kind is EntryKind.HAND and not entry.cards:
            raise TrackerError("a hand has at least one card")
        return replace(entry, round=round_, turn=turn)

    # -- what follows from the facts ------------------------------------------------

    def _derive(self) -> _Derived:
        d = _Derived()
        for entry in self._entries:
            if entry.kind is EntryKind.NEXT:
                d.turn += 1
                if d.turn > self.hand_size:
                    d.round, d.turn = min(d.round + 1, ROUNDS), 1
                continue
            assert entry.round is not None and entry.turn is not None
            d.round, d.turn = max((d.round, d.turn), (entry.round, entry.turn))
            if entry.kind is EntryKind.HAND:
                d.hands[entry.round, entry.turn] = entry.cards
            elif entry.kind is EntryKind.PICK:
                assert entry.seat is not None
                d.picks[entry.round, entry.turn, entry.seat] = entry.cards
            else:
                assert entry.seat is not None
                d.tables.setdefault(entry.round, [[] for _ in range(self.seats)])
                d.tables[entry.round][entry.seat] = list(entry.cards)
        d.warnings = self._check(d)
        return d

    def _tables_of(self, d: _Derived, round_: int) -> list[list[Card]]:
        """Each seat's tableau for a round: the whole one if entered, else its picks."""
        entered = d.tables.get(round_)
        tables: list[list[Card]] = []
        for seat in range(self.seats):
            if entered is not None and entered[seat]:
                tables.append(list(entered[seat]))
                continue
            table: list[Card] = []
            for turn in range(1, self.hand_size + 1):
                cards = d.picks.get((round_, turn, seat))
                if cards is None:
                    continue
                table.extend(cards)
                if len(cards) == 2 and Card.CHOPSTICKS in table[: -2]:
                    table.remove(Card.CHOPSTICKS)
            tables.append(table)
        return tables

    def direction(self, round_: int) -> Direction:
        return self.variant.direction(round_)

    def _holder(self, round_: int, start_seat: int, turn: int) -> int:
        """Who holds, on ``turn``, the hand dealt to ``start_seat``."""
        if self.dummy is not None:  # the two players swap hands every turn
            return start_seat if turn % 2 == 1 else 1 - start_seat
        step = int(self.direction(round_))
        return (start_seat + (turn - 1) * step) % self.seats

    def _dealt_to(self, round_: int, seat: int, turn: int) -> int:
        """The seat that was dealt the hand ``seat`` holds on ``turn``."""
        if self.dummy is not None:
            return seat if turn % 2 == 1 else 1 - seat
        step = int(self.direction(round_))
        return (seat - (turn - 1) * step) % self.seats

    def controller(self, round_: int, turn: int) -> int | None:
        """Who controls the dummy on a turn: control alternates every turn,
        from one round to the next."""
        if self.dummy is None:
            return None
        return (self.first_controller + (round_ - 1) * self.hand_size + turn - 1) % 2

    def hand_info(self, seat: int, *, round_: int | None = None,
                  turn: int | None = None) -> HandInfo:
        """What is known of the hand ``seat`` holds on a turn (now by default)."""
        d = self._derived
        return self._hand_info(d, seat, round_ or d.round, turn or d.turn)

    def _size(self, round_: int, seat: int, turn: int) -> int:
        size = self.hand_size - (turn - 1)
        if self.controller(round_, turn) == seat:
            size += 1  # the dummy's top card, drawn this turn
        return size

    def _hand_info(self, d: _Derived, seat: int, round_: int, turn: int) -> HandInfo:
        origin = self._dealt_to(round_, seat, turn)
        size = self._size(round_, seat, turn)
        held_turn = 0
        for earlier in range(turn, 0, -1):
            if self._holder(round_, origin, earlier) == self.you and (round_, earlier) in d.hands:
                held_turn = earlier
                break
        if held_turn == 0:
            return HandInfo(seat, size, (), 0, 0, ())
        cards = Counter(d.hands[round_, held_turn])
        missing = 0
        taken: list[tuple[int, int, tuple[Card, ...] | None]] = []
        for k in range(held_turn, turn):
            holder = self._holder(round_, origin, k)
            pick = d.picks.get((round_, k, holder))
            if self.dummy is not None and self.controller(round_, k) == holder:
                given = d.picks.get((round_, k, self.dummy))
                if given is None:
                    missing += 1
                else:
                    cards.subtract(given)
            taken.append((k, holder, pick))
            if pick is None:
                missing += 1
                continue
            cards.subtract(pick)
            if len(pick) == 2:
                cards[Card.CHOPSTICKS] += 1
        known = tuple(sorted((+cards).elements(), key=lambda c: c.index))
        return HandInfo(seat, size, known, missing, held_turn, tuple(taken))

    def coming_hand(self) -> HandInfo:
        """The hand coming to the player next turn (held now by the seat passing to them)."""
        d = self._derived
        if self.dummy is not None:
            source = 1 - self.you
        else:
            source = (self.you - int(self.direction(d.round))) % self.seats
        return self.hand_info(source)

    def passed_hand(self) -> HandInfo:
        """The hand the player just passed, as the seat that received it holds it now."""
        d = self._derived
        if self.dummy is not None:
            target = 1 - self.you
        else:
            target = (self.you + int(self.direction(d.round))) % self.seats
        if (d.round, d.turn, self.you) in d.picks and (d.round, d.turn) in d.hands:
            # the pick is entered but play has not moved on: the hand is still
            # in the player's hands, less the pick
            info = self.hand_info(self.you)
            pick = d.picks[d.round, d.turn, self.you]
            cards = Counter(info.known)
            cards.subtract(pick)
            if len(pick) == 2:
                cards[Card.CHOPSTICKS] += 1
            known = tuple(sorted(cards.elements(), key=lambda c: c.index))
            return HandInfo(target, info.size - 1, known, 0, d.turn, ((d.turn, self.you, pick),))
        return self.hand_info(target)

    def taken_since_held(self) -> tuple[Card, ...] | None:
        """Cards taken from the hand the player holds now since they last held
        it (``None`` if they have not held it before or it is not scanned)."""
        d = self._derived
        now = d.hands.get((d.round, d.turn))
        if now is None:
            return None
        loop = 2 if self.dummy is not None else self.seats
        before_turn = d.turn - loop
        if before_turn < 1 or (d.round, before_turn) not in d.hands:
            return None
        before = Counter(d.hands[d.round, before_turn])
        pick = d.picks.get((d.round, before_turn, self.you), ())
        before.subtract(pick)
        if len(pick) == 2:
            before[Card.CHOPSTICKS] += 1
        if self.dummy is not None and self.controller(d.round, before_turn) == self.you:
            before.subtract(d.picks.get((d.round, before_turn, self.dummy), ()))
        gone = before - Counter(now)
        return tuple(sorted(gone.elements(), key=lambda c: c.index))

    # -- consistency -------------------------------------------------------------------

    def _check(self, d: _Derived) -> list[Warning]:
        warnings = self._check_counts(d)
        for index, entry in enumerate(self._entries):
            if entry.kind is EntryKind.HAND:
                warnings.extend(self._check_hand(d, index, entry))
            elif entry.kind is EntryKind.PICK:
                warnings.extend(self._check_pick(d, index, entry))
            elif entry.kind is EntryKind.TABLEAU and len(entry.cards) > self.hand_size:
                warnings.append(Warning(Concern.TABLEAU_SIZE, index, entry.seat,
                                        count=len(entry.cards), limit=self.hand_size))
        return warnings

    def _check_counts(self, d: _Derived) -> list[Warning]:
        """Cards on every table of the game and in the player's hand now must
        fit in the deck; a card over the count is blamed on its last entry."""
        limits = deck_counts(self.variant.soy_sauce)
        # the hand held now, less what was taken from it this turn (on a table now)
        seen: Counter[Card] = Counter(d.hands.get((d.round, d.turn), ()))
        seen -= Counter(d.picks.get((d.round, d.turn, self.you), ()))
        if self.dummy is not None and self.controller(d.round, d.turn) == self.you:
            seen -= Counter(d.picks.get((d.round, d.turn, self.dummy), ()))
        for round_ in range(1, d.round + 1):
            for table in self._tables_of(d, round_):
                seen.update(table)
        warnings = []
        for card, count in seen.items():
            limit = limits.get(card, 0)
            if count <= limit:
                continue
            last = max(
                i for i, e in enumerate(self._entries)
                if e.kind is not EntryKind.NEXT and card in e.cards
            )
            warnings.append(
                Warning(Concern.TOO_MANY, last, self._entries[last].seat, card, count, limit)
            )
        return warnings

    def _check_hand(self, d: _Derived, index: int, entry: Entry) -> list[Warning]:
        assert entry.round is not None and entry.turn is not None
        out = []
        expected = self._size(entry.round, self.you, entry.turn)
        if len(entry.cards) != expected:
            out.append(Warning(Concern.HAND_SIZE, index, self.you,
                               count=len(entry.cards), limit=expected))
        # the same hand, as traced from the last time it was held
        without = _Derived(d.round, d.turn, d.tables,
                           {k: v for k, v in d.hands.items() if k != (entry.round, entry.turn)},
                           d.picks)
        traced = self._hand_info(without, self.you, entry.round, entry.turn)
        if traced.complete and Counter(traced.known) != Counter(entry.cards):
            out.append(Warning(Concern.HAND_DIFFERS, index, self.you, expected=traced.known))
        return out

    def _check_pick(self, d: _Derived, index: int, entry: Entry) -> list[Warning]:
        assert entry.round is not None and entry.turn is not None and entry.seat is not None
        out = []
        if len(entry.cards) == 2 and entry.seat == self.dummy:
            out.append(Warning(Concern.DUMMY_TWO, index, entry.seat))
        elif len(entry.cards) == 2:
            tables = self._tables_of(_until(d, entry), entry.round)
            if Card.CHOPSTICKS not in tables[entry.seat]:
                out.append(Warning(Concern.NO_CHOPSTICKS, index, entry.seat))
        if entry.seat == self.dummy:
            return out
        info = self._hand_info(d, entry.seat, entry.round, entry.turn)
        if info.complete:
            have = Counter(info.known)
            for card, n in Counter(entry.cards).items():
                if have[card] < n:
                    out.append(Warning(Concern.NOT_IN_HAND, index, entry.seat, card,
                                       expected=info.known))
        return out

    # -- the state --------------------------------------------------------------------------

    @property
    def round(self) -> int:
        return self._derived.round

    @property
    def turn(self) -> int:
        return self._derived.turn

    @property
    def warnings(self) -> tuple[Warning, ...]:
        return tuple(self._derived.warnings)

    def expected_hand_size(self) -> int:
        """How many cards the player's hand holds this turn."""
        return self._size(self.round, self.you, self.turn)

    def hand(self) -> tuple[Card, ...] | None:
        """The player's hand this turn, if scanned."""
        d = self._derived
        return d.hands.get((d.round, d.turn))

    def table(self, seat: int, round_: int | None = None) -> tuple[Card, ...]:
        """A seat's tableau in a round (this one by default), in play order."""
        return tuple(self._tables_of(self._derived, round_ or self.round)[seat])

    def puddings(self) -> tuple[int, ...]:
        """Puddings kept by every seat, this round's included."""
        return self.race().puddings

    def puddings_kept(self) -> tuple[int, ...]:
        """Puddings kept by every seat in the rounds before this one."""
        return tuple(
            sum(self.table(seat, r).count(Card.PUDDING) for r in range(1, self.round))
            for seat in range(self.seats)
        )

    def race(self) -> Race:
        """The maki race of this round and the puddings kept so far, from the
        tables as entered."""
        return Race.of([self.table(seat) for seat in range(self.seats)], self.puddings_kept())

    def pick_size(self, seat: int) -> int:
        """The most cards a seat may take this turn: one, or two when
        chopsticks are (or, with its picks not all entered, may be) on its
        table. The dummy takes one, never with chopsticks.

        >>> t = Tracker(["Ana", "Ben", "Dummy"], you=0, variant=Variant(dummy=True))
        >>> t.pick_size(0), t.pick_size(2)
        (1, 1)
        """
        if seat == self.dummy:
            return 1
        table = self.table(seat)
        if Card.CHOPSTICKS in table or len(table) < self.turn - 1:
            return 2
        return 1

    def round_score(self, round_: int | None = None) -> tuple[SeatScore, ...]:
        """Scores of a round from what is known of it (so far, if it goes on)."""
        tables = self._tables_of(self._derived, round_ or self.round)
        return score_round(tables)

    def score(self) -> GameScore:
        """The game as far as it is known: rounds so far, puddings after round 3."""
        rounds = [self._tables_of(self._derived, r) for r in range(1, self.round + 1)]
        return score_game(rounds, dummy=self.dummy)


def _until(d: _Derived, entry: Entry) -> _Derived:
    """The facts of the turns before ``entry``'s (to judge it against)."""
    assert entry.round is not None and entry.turn is not None
    picks = {
        key: cards for key, cards in d.picks.items()
        if (key[0], key[1]) < (entry.round, entry.turn)
    }
    return _Derived(d.round, d.turn, d.tables, d.hands, picks, [])
