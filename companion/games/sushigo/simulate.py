"""Whole games between bots: ``companion simulate`` and ``companion bench advisor``.

Seats rotate from game to game so that every bot plays every seat as often;
a shared win counts as a fraction of a win for each winner.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from companion.contract.game import GameInputError, Progressed, no_progress
from companion.games.sushigo.bots import BOTS, Advisor, Bot
from companion.games.sushigo.cards import MAX_PLAYERS, MIN_PLAYERS
from companion.games.sushigo.draft import Choice, Choices, Game, SeatView, Variant
from companion.i18n import N_
from companion.stats import percentile, wilson_interval
from companion.workers import pool

PLAIN = Variant()


class UnknownBotError(GameInputError):
    """A bot name the game has no bot by."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(N_("There is no bot called %(name)s: choose from %(bots)s."),
                         name=repr(name), bots=", ".join(sorted(BOTS)))


def parse_variant(text: str) -> Variant:
    """``pass-both-ways``, ``dummy``, ``soy-sauce`` or ``soy-sauce=N``, comma separated.

    >>> parse_variant("dummy,soy-sauce=2")
    Variant(pass_both_ways=False, dummy=True, soy_sauce=2)
    """
    both = dummy = False
    soy = 0
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, count = part.partition("=")
        if name == "pass-both-ways":
            both = True
        elif name == "dummy":
            dummy = True
        elif name == "soy-sauce":
            if count and not count.isdigit():
                raise GameInputError(N_("soy-sauce=%(count)s: give the number of soy sauce "
                                        "cards, such as soy-sauce=3."), count=count)
            soy = int(count) if count else 3
            if soy < 1:
                raise GameInputError(N_("Soy sauce needs at least one card: give soy-sauce=1 "
                                        "or more."))
        else:
            raise GameInputError(
                N_("There is no variant called %(name)s: choose from pass-both-ways, dummy, "
                   "soy-sauce[=N]."),
                name=repr(name))
    return Variant(pass_both_ways=both, dummy=dummy, soy_sauce=soy)


class _Timed:
    """A bot whose decision times are kept."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.times: list[float] = []

    def choose(self, view: SeatView, choices: Choices, rng: random.Random) -> Choice:
        start = time.perf_counter()
        choice = self.bot.choose(view, choices, rng)
        self.times.append(time.perf_counter() - start)
        return choice


@dataclass
class Tally:
    """Results of one entrant (a bot in a given place in the line-up)."""

    label: str
    games: int = 0
    wins: float = 0.0
    points: int = 0
    decision_seconds: list[float] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def mean_points(self) -> float:
        return self.points / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)


@dataclass
class Results:
    entrants: list[Tally]
    games: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


#: The advisor's thinking time in simulations and benchmarks, in seconds.
ADVISOR_BUDGET = 0.05


def make_bot(name: str) -> Bot:
    """A bot by name; the advisor thinks for :data:`ADVISOR_BUDGET` seconds a decision."""
    if name == "advisor":
        return Advisor(worlds=400, budget=ADVISOR_BUDGET, clock=time.perf_counter)
    try:
        return BOTS[name]()
    except KeyError:
        raise UnknownBotError(name) from None


Outcome = tuple[list[float], list[int], list[list[float]]]
#: How many shares of a series each worker plays, one after another, and
#: the most games in a share (more shares: progress told more often, a
#: little more time passing them to the workers and back).
SHARES = 16
MOST_A_SHARE = 250


def play_games(
    lineup: Sequence[str], games: int, *, seed: int = 0, variant: Variant = PLAIN,
    first: int = 0, timed: bool = False, progress: Progressed = no_progress,
) -> list[Outcome]:
    """Play games ``first`` to ``first + games - 1`` of a series; for each, the
    entrants' win shares, points and decision times (entrant order; kept
    when ``timed``). Each game has its own seed: the same series gives the
    same games, whoever plays which part of it.

    The bots decide through their own API (:meth:`Bot.choose`, from the
    seat's view and legal choices), made once a game; the game takes their
    choices with :meth:`Game.play_bots`, checking each. ``progress`` is
    told the games played of ``games`` after each.
    """
    players = len(lineup)
    out: list[Outcome] = []
    for number in range(first, first + games):
        bots = [make_bot(name) for name in lineup]
        timers = [_Timed(bot) for bot in bots] if timed else []
        deciders = [t.choose for t in timers] if timed else [bot.choose for bot in bots]
        shift = number % players
        seated = deciders[shift:] + deciders[:shift]  # entrant i sits at (i - shift) % players
        rng = random.Random(seed * 1_000_003 + number)
        game = Game(players, rng=rng, variant=variant)
        totals = game.play_bots(seated, rng)
        winners = game.winners
        share = 1 / len(winners)
        seats = [(i - shift) % players for i in range(players)]
        out.append((
            [share if seats[i] in winners else 0.0 for i in range(players)],
            [totals[seats[i]] for i in range(players)],
            [t.times for t in timers] if timed else [[] for _ in range(players)],
        ))
        progress(len(out), games)
    return out


def _chunk(args: tuple[list[str], int, int, Variant, int, bool]) -> list[Outcome]:
    lineup, games, seed, variant, first, timed = args
    return play_games(lineup, games, seed=seed, variant=variant, first=first, timed=timed)


def simulate(
    lineup: Sequence[str], games: int, *, seed: int = 0, variant: Variant = PLAIN,
    workers: int = 1, timed: bool = False, progress: Progressed = no_progress,
) -> Results:
    """Play ``games`` games with this line-up of bot names (one per player);
    each bot's decision times are kept when ``timed``; ``progress`` is told
    the games played (with workers, as each one's share of a few games comes
    back: the shares are small enough to tell every few seconds, and come
    back in order, so the figures are the same with any number of workers)."""
    for name in lineup:
        make_bot(name)
    players = len(lineup)
    if variant.dummy and players != 2:
        raise GameInputError(N_("The dummy variant is for 2 players."))
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:  # as the game would say in its first game
        raise GameInputError(N_("Sushi Go! is for %(low)d to %(high)d players."),
                             low=MIN_PLAYERS, high=MAX_PLAYERS)
    labels = [f"{name} {i + 1}" if lineup.count(name) > 1 else name
              for i, name in enumerate(lineup)]
    entrants = [Tally(label) for label in labels]
    start = time.perf_counter()
    if workers > 1 and games > 1:
        size = max(1, min(MOST_A_SHARE, -(-games // (workers * SHARES))))
        jobs = [
            (list(lineup), min(size, games - first), seed, variant, first, timed)
            for first in range(0, games, size)
        ]
        outcomes = []
        with pool(workers) as processes:  # its end ends them, however it is reached
            for chunk in processes.imap(_chunk, jobs):
                outcomes.extend(chunk)
                progress(len(outcomes), games)
    else:
        outcomes = play_games(lineup, games, seed=seed, variant=variant, timed=timed,
                              progress=progress)
    for shares, points, times in outcomes:
        for i, entrant in enumerate(entrants):
            entrant.games += 1
            entrant.wins += shares[i]
            entrant.points += points[i]
            entrant.decision_seconds.extend(times[i])
    return Results(entrants, games, time.perf_counter() - start)


def default_workers() -> int:
    return max(1, min(os.cpu_count() or 1, 8))


@dataclass(frozen=True)
class AdvisorFigures:
    decision_ms_p50: float
    decision_ms_p95: float
    win_rate_4p: float
    interval_4p: tuple[float, float]
    win_rate_2p: float
    interval_2p: tuple[float, float]
    games: int
    seconds: float


def bench_advisor(*, games: int = 200, seed: int = 1, workers: int | None = None,
                  progress: Progressed = no_progress) -> AdvisorFigures:
    """The advisor against greedy bots: 4 players (three greedy) and 2 players;
    ``progress`` is told the games played of both series."""
    workers = workers or default_workers()
    start = time.perf_counter()
    four = simulate(["advisor", "greedy", "greedy", "greedy"], games, seed=seed,
                    workers=workers, timed=True,
                    progress=lambda done, _: progress(done, 2 * games))
    two = simulate(["advisor", "greedy"], games, seed=seed + 1, workers=workers, timed=True,
                   progress=lambda done, _: progress(games + done, 2 * games))
    times = four.entrants[0].decision_seconds + two.entrants[0].decision_seconds
    return AdvisorFigures(
        decision_ms_p50=percentile(times, 0.50) * 1000,
        decision_ms_p95=percentile(times, 0.95) * 1000,
        win_rate_4p=four.entrants[0].win_rate,
        interval_4p=four.entrants[0].interval(),
        win_rate_2p=two.entrants[0].win_rate,
        interval_2p=two.entrants[0].interval(),
        games=games,
        seconds=time.perf_counter() - start,
    )
