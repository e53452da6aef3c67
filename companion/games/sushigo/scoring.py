"""Exact Sushi Go! scoring, with a breakdown a person can follow.

Seats are numbered in table order; a round is given as each seat's tableau,
the cards in the order they were played (the order matters only for wasabi:
a nigiri goes on a wasabi played before it). Chopsticks that went back into a
hand are not on the tableau.

Every score carries its :class:`Line` items, which say which cards made which
points, so that the narration can explain it aloud.

>>> T, W, S = Card.TEMPURA, Card.WASABI, Card.SQUID
>>> [seat.points for seat in score_round([[T, T, W, S], [S, W]])]
[14, 3]
>>> score_round([[T, T, W, S], [S, W]])[0].lines[0]
Line(kind=LineKind.TEMPURA, cards=2, points=5, sets=1)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from companion.games.sushigo.cards import ROUNDS, Card

TEMPURA_PAIR = 5
SASHIMI_SET = 10
DUMPLING_POINTS = (0, 1, 3, 6, 10, 15)
WASABI_FACTOR = 3
MAKI_FIRST = 6
MAKI_SECOND = 3
SOY_SAUCE_POINTS = 4
PUDDING_POINTS = 6


class LineKind(enum.Enum):
    """What a line of a breakdown is about."""

    TEMPURA = "tempura"
    SASHIMI = "sashimi"
    DUMPLING = "dumpling"
    NIGIRI = "nigiri"
    #: Wasabi left without a nigiri.
    WASABI = "wasabi"
    MAKI = "maki"
    CHOPSTICKS = "chopsticks"
    SOY_SAUCE = "soy-sauce"
    #: Puddings played this round, kept for the end of the game.
    PUDDING_KEPT = "pudding-kept"
    #: The end-of-game pudding comparison.
    PUDDING = "pudding"

    def __repr__(self) -> str:
        return f"LineKind.{self.name}"


class Place(enum.IntEnum):
    """Where a seat stands in a race (maki, puddings, soy sauce colours)."""

    NONE = 0
    FIRST = 1
    SECOND = 2
    #: Fewest puddings.
    LAST = -1
    #: Fewest puddings in a two-seat game, where nobody loses points.
    LAST_SPARED = -2
    #: Every seat has the same number of puddings: nobody scores them.
    EVEN = 3

    def __repr__(self) -> str:
        return f"Place.{self.name}"


@dataclass(frozen=True, slots=True)
class Line:
    """Which cards made which points.

    ``cards`` counts the cards the line is about. The other fields are set
    only where they mean something: ``sets`` (tempura pairs, sashimi sets),
    ``card`` and ``on_wasabi`` (nigiri), ``icons`` (maki), ``colours``
    (soy sauce), ``place`` and ``tied`` (how many seats share that place).
    """

    kind: LineKind
    cards: int
    points: int
    sets: int = 0
    card: Card | None = None
    on_wasabi: bool = False
    icons: int = 0
    colours: int = 0
    place: Place = Place.NONE
    tied: int = 0

    def __repr__(self) -> str:
        shown = [f"kind={self.kind!r}", f"cards={self.cards}", f"points={self.points}"]
        for name in ("sets", "card", "on_wasabi", "icons", "colours", "place", "tied"):
            value = getattr(self, name)
            if value:
                shown.append(f"{name}={value!r}")
        return f"Line({', '.join(shown)})"


@dataclass(frozen=True, slots=True)
class SeatScore:
    """One seat's points for a round (or for puddings) and why."""

    points: int
    lines: tuple[Line, ...] = ()


@dataclass(frozen=True, slots=True)
class GameScore:
    """A whole or partial game: per-round scores, puddings, totals, winners.

    ``pudding`` is ``None`` until all three rounds are in. ``winners`` are
    seat numbers after the pudding tie-break; several mean a shared win.
    """

    rounds: tuple[tuple[SeatScore, ...], ...]
    pudding: tuple[SeatScore, ...] | None
    puddings: tuple[int, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    dummy: int | None = None
    complete: bool = field(default=False)


@dataclass(frozen=True, slots=True)
class Race:
    """The two races of a game as they stand: maki icons on each table this
    round, and puddings kept so far (this round's included)."""

    maki: tuple[int, ...]
    puddings: tuple[int, ...]

    @classmethod
    def of(cls, tables: Sequence[Sequence[Card]], kept: Sequence[int]) -> Race:
        """From this round's tables and the puddings kept before it.

        >>> Race.of([[Card.MAKI3, Card.PUDDING], [Card.MAKI1]], [1, 0])
        Race(maki=(3, 1), puddings=(2, 0))
        """
        return cls(
            tuple(sum(card.maki_icons for card in table) for table in tables),
            tuple(before + table.count(Card.PUDDING)
                  for before, table in zip(kept, tables, strict=True)),
        )


def dumpling_points(count: int) -> int:
    """1, 3, 6, 10, 15 for 1, 2, 3, 4, 5 or more dumplings."""
    return DUMPLING_POINTS[min(count, len(DUMPLING_POINTS) - 1)]


def split(points: int, ways: int) -> int:
    """Points each of ``ways`` tied seats gets: split evenly, remainder dropped.

    A negative amount is split the same way on its size (ruling):

    >>> split(6, 4), split(-6, 4), split(3, 2)
    (1, -1, 1)
    """
    share = abs(points) // ways
    return share if points >= 0 else -share


# -- the tally: one pass over a tableau, shared by every scorer ----------------
#
# Cards are counted by their index in ``Card`` (see ``Card.index``). A tally
# is a list: the count of each card index, then at ON_WASABI + i the nigiri
# of index EGG + i that went on a wasabi laid before them.

_I = {card: i for i, card in enumerate(Card)}
I_TEMPURA, I_SASHIMI, I_DUMPLING = _I[Card.TEMPURA], _I[Card.SASHIMI], _I[Card.DUMPLING]
I_MAKI1, I_MAKI2, I_MAKI3 = _I[Card.MAKI1], _I[Card.MAKI2], _I[Card.MAKI3]
I_EGG, I_SALMON, I_SQUID = _I[Card.EGG], _I[Card.SALMON], _I[Card.SQUID]
I_PUDDING, I_WASABI, I_CHOPSTICKS = _I[Card.PUDDING], _I[Card.WASABI], _I[Card.CHOPSTICKS]
I_SOY = _I[Card.SOY_SAUCE]
ON_WASABI = len(Card)
TALLY_SIZE = ON_WASABI + 3
_NIGIRI_SHIFT = ON_WASABI - I_EGG
_FAMILY_OF = tuple(list(dict.fromkeys(c.family for c in Card)).index(c.family) for c in Card)


def tally(table: Iterable[int]) -> list[int]:
    """Count a tableau of card indexes, in play order (wasabi needs the order).

    >>> t = tally([Card.WASABI.index, Card.SQUID.index, Card.SQUID.index])
    >>> t[Card.SQUID.index], t[ON_WASABI + 2]
    (2, 1)
    """
    counts = [0] * TALLY_SIZE
    free = 0
    for c in table:
        counts[c] += 1
        if c == I_WASABI:
            free += 1
        elif free and I_EGG <= c <= I_SQUID:
            free -= 1
            counts[c + _NIGIRI_SHIFT] += 1
    return counts


def maki_icons(t: Sequence[int]) -> int:
    return t[I_MAKI1] + 2 * t[I_MAKI2] + 3 * t[I_MAKI3]


def base_points(t: Sequence[int]) -> int:
    """Points that depend on one tableau alone (no maki, no soy sauce)."""
    return (
        t[I_TEMPURA] // 2 * TEMPURA_PAIR
        + t[I_SASHIMI] // 3 * SASHIMI_SET
        + DUMPLING_POINTS[min(t[I_DUMPLING], 5)]
        + t[I_EGG] + 2 * t[I_SALMON] + 3 * t[I_SQUID]
        + (WASABI_FACTOR - 1)
        * (t[ON_WASABI] + 2 * t[ON_WASABI + 1] + 3 * t[ON_WASABI + 2])
    )


def tally_colours(t: Sequence[int]) -> int:
    """Different colour families on a tallied tableau (soy sauce variant)."""
    return len({_FAMILY_OF[i] for i in range(ON_WASABI) if t[i]})


def round_points(tallies: Sequence[Sequence[int]]) -> list[int]:
    """Every seat's points for a round, without the breakdown (the fast path)."""
    result = [base_points(t) for t in tallies]
    firsts, first_share, seconds, second_share = _maki_awards([maki_icons(t) for t in tallies])
    for seat in firsts:
        result[seat] += first_share
    for seat in seconds:
        result[seat] += second_share
    if any(t[I_SOY] for t in tallies):
        for seat, (_, _, points, _) in enumerate(soy_places(tallies)):
            result[seat] += points
    return result


def _nigiri_lines(t: Sequence[int]) -> list[Line]:
    """Nigiri on wasabi (played before them, one each) and plain; empty wasabi."""
    lines = []
    for card in (Card.SQUID, Card.SALMON, Card.EGG):
        i = _I[card]
        on_wasabi = t[i + _NIGIRI_SHIFT]
        for n, factor in ((on_wasabi, WASABI_FACTOR), (t[i] - on_wasabi, 1)):
            if n:
                points = n * card.nigiri_value * factor
                lines.append(Line(LineKind.NIGIRI, n, points, card=card, on_wasabi=factor > 1))
    if free := t[I_WASABI] - sum(t[ON_WASABI:]):
        lines.append(Line(LineKind.WASABI, free, 0))
    return lines


def _set_lines(t: Sequence[int]) -> list[Line]:
    lines = []
    if n := t[I_TEMPURA]:
        lines.append(Line(LineKind.TEMPURA, n, n // 2 * TEMPURA_PAIR, sets=n // 2))
    if n := t[I_SASHIMI]:
        lines.append(Line(LineKind.SASHIMI, n, n // 3 * SASHIMI_SET, sets=n // 3))
    if n := t[I_DUMPLING]:
        lines.append(Line(LineKind.DUMPLING, n, dumpling_points(n)))
    return lines


def _maki_awards(icons: Sequence[int]) -> tuple[list[int], int, list[int], int]:
    """Seats placed first and their share, seats placed second and theirs."""
    top = max(icons, default=0)
    if top == 0:
        return [], 0, [], 0
    firsts = [seat for seat, n in enumerate(icons) if n == top]
    if len(firsts) > 1:
        return firsts, split(MAKI_FIRST, len(firsts)), [], 0
    runner_up = max([n for n in icons if n < top], default=0)
    if runner_up == 0:
        return firsts, MAKI_FIRST, [], 0
    seconds = [seat for seat, n in enumerate(icons) if n == runner_up]
    return firsts, MAKI_FIRST, seconds, split(MAKI_SECOND, len(seconds))


def maki_places(icons: Sequence[int]) -> list[tuple[Place, int, int]]:
    """Each seat's maki (place, tied, points).

    Most icons: 6, split among ties, and then no second place. Otherwise the
    second most: 3, split among ties. Remainders are dropped; a seat with no
    icons places nowhere (ruling).

    >>> [points for _, _, points in maki_places([5, 3, 3, 2])]
    [6, 1, 1, 0]
    >>> [points for _, _, points in maki_places([4, 4, 1])]
    [3, 3, 0]
    """
    result = [(Place.NONE, 0, 0)] * len(icons)
    firsts, first_share, seconds, second_share = _maki_awards(icons)
    for seat in firsts:
        result[seat] = (Place.FIRST, len(firsts), first_share)
    for seat in seconds:
        result[seat] = (Place.SECOND, len(seconds), second_share)
    return result


def colours(tableau: Iterable[Card]) -> int:
    """Different colour families on a tableau (soy sauce variant)."""
    return len({card.family for card in tableau})


def soy_places(tallies: Sequence[Sequence[int]]) -> list[tuple[Place, int, int, int]]:
    """Each seat's soy sauce (place, tied, points, colours).

    Soy sauce scores 4 for the most colours at the table, ties with any seat
    included; soy sauce seats tied for the most colours split the 4 points
    (remainder dropped); a seat scores one soy sauce a round at most.
    """
    counts = [tally_colours(t) for t in tallies]
    most = max(counts, default=0)
    winners = [s for s, t in enumerate(tallies) if t[I_SOY] and counts[s] == most]
    share = split(SOY_SAUCE_POINTS, len(winners)) if winners else 0
    return [
        (Place.FIRST, len(winners), share, n) if seat in winners else (Place.NONE, 0, 0, n)
        for seat, n in enumerate(counts)
    ]


def score_round(tableaux: Sequence[Sequence[Card]]) -> tuple[SeatScore, ...]:
    """Every seat's points for one round, from the tableaux in table order."""
    tallies = [tally(_I[c] for c in t) for t in tableaux]
    icons = [maki_icons(t) for t in tallies]
    maki = maki_places(icons)
    soy = soy_places(tallies)
    scores = []
    for seat, t in enumerate(tallies):
        lines = _set_lines(t) + _nigiri_lines(t)
        if n := t[I_MAKI1] + t[I_MAKI2] + t[I_MAKI3]:
            place, tied, points = maki[seat]
            lines.append(
                Line(LineKind.MAKI, n, points, icons=icons[seat], place=place, tied=tied)
            )
        if n := t[I_SOY]:
            place, tied, points, count = soy[seat]
            lines.append(
                Line(LineKind.SOY_SAUCE, n, points, colours=count, place=place, tied=tied)
            )
        if n := t[I_CHOPSTICKS]:
            lines.append(Line(LineKind.CHOPSTICKS, n, 0))
        if n := t[I_PUDDING]:
            lines.append(Line(LineKind.PUDDING_KEPT, n, 0))
        scores.append(SeatScore(sum(line.points for line in lines), tuple(lines)))
    return tuple(scores)


def pudding_places(counts: Sequence[int], *, penalty: bool) -> list[tuple[Place, int, int]]:
    """Each seat's end-of-game puddings (place, tied, points).

    Most: +6, fewest: -6, each split among ties (remainder dropped). Nothing
    when every seat has the same number; no penalty when ``penalty`` is false
    (a two-seat game).

    >>> [points for _, _, points in pudding_places([4, 3, 0, 0], penalty=True)]
    [6, 0, -3, -3]
    >>> [points for _, _, points in pudding_places([1, 0], penalty=False)]
    [6, 0]
    """
    most, fewest = max(counts), min(counts)
    if most == fewest:
        return [(Place.EVEN, len(counts), 0)] * len(counts)
    tops = counts.count(most)
    bottoms = counts.count(fewest)
    result = [(Place.NONE, 0, 0)] * len(counts)
    for seat, n in enumerate(counts):
        if n == most:
            result[seat] = (Place.FIRST, tops, split(PUDDING_POINTS, tops))
        elif n == fewest:
            result[seat] = (
                (Place.LAST, bottoms, split(-PUDDING_POINTS, bottoms))
                if penalty
                else (Place.LAST_SPARED, bottoms, 0)
            )
    return result


def score_puddings(counts: Sequence[int], *, penalty: bool) -> tuple[SeatScore, ...]:
    """End-of-game puddings with their breakdown (see :func:`pudding_places`)."""
    return tuple(
        SeatScore(points, (Line(LineKind.PUDDING, n, points, place=place, tied=tied),))
        for n, (place, tied, points) in zip(
            counts, pudding_places(counts, penalty=penalty), strict=True
        )
    )


def score_game(
    rounds: Sequence[Sequence[Sequence[Card]]], *, dummy: int | None = None
) -> GameScore:
    """Score one to three rounds; puddings once all three are in.

    ``dummy`` is the seat number of the two-player dummy: it is scored like
    any seat (so three seats are scored and the pudding penalty applies) but
    it cannot win.
    """
    if not rounds:
        raise ValueError("a game needs at least one round")
    if len(rounds) > ROUNDS:
        raise ValueError(f"a game has {ROUNDS} rounds, not {len(rounds)}")
    seats = len(rounds[0])
    if any(len(r) != seats for r in rounds):
        raise ValueError("every round must list every seat")
    if dummy is not None and not 0 <= dummy < seats:
        raise ValueError(f"the dummy seat {dummy} is not at the table")
    round_scores = tuple(score_round(r) for r in rounds)
    puddings = tuple(
        sum(r[seat].count(Card.PUDDING) for r in rounds) for seat in range(seats)
    )
    complete = len(rounds) == ROUNDS
    pudding = score_puddings(puddings, penalty=seats > 2) if complete else None
    totals = tuple(
        sum(r[seat].points for r in round_scores)
        + (pudding[seat].points if pudding else 0)
        for seat in range(seats)
    )
    return GameScore(
        rounds=round_scores,
        pudding=pudding,
        puddings=puddings,
        totals=totals,
        winners=winners(totals, puddings, dummy=dummy),
        dummy=dummy,
        complete=complete,
    )


def winners(
    totals: Sequence[int], puddings: Sequence[int], *, dummy: int | None = None
) -> tuple[int, ...]:
    """Highest total; on a tie the most puddings; still tied, a shared win.

    The dummy seat never wins.

    >>> winners([30, 30, 12], [2, 1, 5])
    (0,)
    >>> winners([30, 30, 40], [2, 2, 0], dummy=2)
    (0, 1)
    """
    seats = [s for s in range(len(totals)) if s != dummy]
    best = max(totals[s] for s in seats)
    leaders = [s for s in seats if totals[s] == best]
    most = max(puddings[s] for s in leaders)
    return tuple(s for s in leaders if puddings[s] == most)
