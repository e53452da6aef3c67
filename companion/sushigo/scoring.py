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
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from companion.sushigo.cards import ROUNDS, Card

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


def _nigiri_lines(tableau: Sequence[Card]) -> list[Line]:
    """Nigiri on wasabi (played before them, one each) and plain; empty wasabi."""
    free_wasabi = 0
    scored: Counter[tuple[Card, bool]] = Counter()
    for card in tableau:
        if card is Card.WASABI:
            free_wasabi += 1
        elif card.is_nigiri:
            on_wasabi = free_wasabi > 0
            free_wasabi -= on_wasabi
            scored[card, on_wasabi] += 1
    lines = []
    for nigiri in (Card.SQUID, Card.SALMON, Card.EGG):
        for on_wasabi in (True, False):
            n = scored[nigiri, on_wasabi]
            if n:
                each = nigiri.nigiri_value * (WASABI_FACTOR if on_wasabi else 1)
                lines.append(
                    Line(LineKind.NIGIRI, n, n * each, card=nigiri, on_wasabi=on_wasabi)
                )
    if free_wasabi:
        lines.append(Line(LineKind.WASABI, free_wasabi, 0))
    return lines


def _set_lines(counts: Counter[Card]) -> list[Line]:
    lines = []
    if n := counts[Card.TEMPURA]:
        lines.append(Line(LineKind.TEMPURA, n, n // 2 * TEMPURA_PAIR, sets=n // 2))
    if n := counts[Card.SASHIMI]:
        lines.append(Line(LineKind.SASHIMI, n, n // 3 * SASHIMI_SET, sets=n // 3))
    if n := counts[Card.DUMPLING]:
        lines.append(Line(LineKind.DUMPLING, n, dumpling_points(n)))
    return lines


def _ranked(values: Sequence[int], *, lowest: bool = False) -> list[list[int]]:
    """Seat numbers grouped by value, best first (lowest first if asked)."""
    groups: dict[int, list[int]] = {}
    for seat, value in enumerate(values):
        groups.setdefault(value, []).append(seat)
    return [groups[v] for v in sorted(groups, reverse=not lowest)]


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
    groups = [g for g in _ranked(icons) if icons[g[0]] > 0]
    prizes = [(Place.FIRST, MAKI_FIRST)]
    if groups and len(groups[0]) == 1:
        prizes.append((Place.SECOND, MAKI_SECOND))
    for group, (place, prize) in zip(groups, prizes, strict=False):
        for seat in group:
            result[seat] = (place, len(group), split(prize, len(group)))
    return result


def _maki_lines(tableaux: Sequence[Sequence[Card]]) -> list[list[Line]]:
    icons = [sum(card.maki_icons for card in t) for t in tableaux]
    lines: list[list[Line]] = []
    for tableau, n, (place, tied, points) in zip(
        tableaux, icons, maki_places(icons), strict=True
    ):
        cards = sum(1 for card in tableau if card.is_maki)
        lines.append(
            [Line(LineKind.MAKI, cards, points, icons=n, place=place, tied=tied)]
            if cards
            else []
        )
    return lines


def colours(tableau: Iterable[Card]) -> int:
    """Different colour families on a tableau (soy sauce variant)."""
    return len({card.family for card in tableau})


def _soy_lines(tableaux: Sequence[Sequence[Card]]) -> list[list[Line]]:
    """Soy sauce: 4 points for the most colours at the table, ties included.

    Soy sauce seats tied for the most colours split the 4 points (remainder
    dropped); a seat scores one soy sauce a round at most.
    """
    counts = [colours(t) for t in tableaux]
    most = max(counts, default=0)
    holders = [seat for seat, t in enumerate(tableaux) if Card.SOY_SAUCE in t]
    winners = [seat for seat in holders if counts[seat] == most]
    lines: list[list[Line]] = [[] for _ in tableaux]
    for seat in holders:
        won = seat in winners
        lines[seat].append(
            Line(
                LineKind.SOY_SAUCE,
                tableaux[seat].count(Card.SOY_SAUCE),
                split(SOY_SAUCE_POINTS, len(winners)) if won else 0,
                colours=counts[seat],
                place=Place.FIRST if won else Place.NONE,
                tied=len(winners) if won else 0,
            )
        )
    return lines


def score_round(tableaux: Sequence[Sequence[Card]]) -> tuple[SeatScore, ...]:
    """Every seat's points for one round, from the tableaux in table order."""
    maki = _maki_lines(tableaux)
    soy = _soy_lines(tableaux)
    scores = []
    for seat, tableau in enumerate(tableaux):
        counts = Counter(tableau)
        lines = _set_lines(counts) + _nigiri_lines(tableau) + maki[seat] + soy[seat]
        if n := counts[Card.CHOPSTICKS]:
            lines.append(Line(LineKind.CHOPSTICKS, n, 0))
        if n := counts[Card.PUDDING]:
            lines.append(Line(LineKind.PUDDING_KEPT, n, 0))
        scores.append(SeatScore(sum(line.points for line in lines), tuple(lines)))
    return tuple(scores)


def score_puddings(counts: Sequence[int], *, penalty: bool) -> tuple[SeatScore, ...]:
    """End-of-game puddings: most +6, fewest -6, each split among ties.

    Nothing when every seat has the same number; no penalty when ``penalty``
    is false (a two-seat game).

    >>> [s.points for s in score_puddings([4, 3, 0, 0], penalty=True)]
    [6, 0, -3, -3]
    >>> [s.points for s in score_puddings([1, 0], penalty=False)]
    [6, 0]
    """
    groups = _ranked(counts)
    award: dict[int, tuple[Place, int, int]] = {}
    if len(groups) == 1:
        award = {seat: (Place.EVEN, len(counts), 0) for seat in groups[0]}
    else:
        most, fewest = groups[0], groups[-1]
        for seat in most:
            award[seat] = (Place.FIRST, len(most), split(PUDDING_POINTS, len(most)))
        for seat in fewest:
            award[seat] = (
                (Place.LAST, len(fewest), split(-PUDDING_POINTS, len(fewest)))
                if penalty
                else (Place.LAST_SPARED, len(fewest), 0)
            )
    scores = []
    for seat, n in enumerate(counts):
        place, tied, points = award.get(seat, (Place.NONE, 0, 0))
        line = Line(LineKind.PUDDING, n, points, place=place, tied=tied)
        scores.append(SeatScore(points, (line,)))
    return tuple(scores)


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
