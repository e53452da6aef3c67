"""Whole Mici Maki games between bots, and the advisor's benchmark: the
figures of ``companion simulate --game mici-maki`` and ``companion bench
advisor --game mici-maki``.

>>> report = simulate(players=3, games=20, bots=["cautious", "random", "advisor"], seed=1)
>>> report.data["games"], report.data["players"], round(sum(report.data["wins"].values()), 6)
(20, 3, 1.0)
>>> report.data["games_per_second"] > 0, [bot.bot for bot in report.bots]
(True, ['cautious', 'random', 'advisor'])
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence

from companion.contract.game import (
    AdvisorFigures,
    AdvisorTable,
    BotResult,
    GameInputError,
    Progressed,
    Simulated,
    no_progress,
)
from companion.games.micimaki.bots import NAMES, Advisor, CautiousBot, bot, play
from companion.games.micimaki.rules import OVER, Game, Setup
from companion.i18n import N_
from companion.stats import percentile, wilson_interval


def _check(players: int, games: int, bots: Sequence[str]) -> None:
    if not 3 <= players <= 7:  # the rules. table sizes
        raise GameInputError(N_("Mici Maki is for 3 to 7 players, not %(players)d."),
                             players=players)
    if games < 1:
        raise GameInputError(N_("Play at least one game: give 1 or more."))
    unknown = [name for name in bots if name not in NAMES]
    if unknown:
        raise GameInputError(N_("There is no bot called %(name)s: choose from %(bots)s."),
                             name=repr(unknown[0]), bots=", ".join(NAMES))
    if len(bots) not in (1, players):
        raise GameInputError(N_("Give 1 bot or %(players)d bots, one a player, not %(count)d."),
                             players=players, count=len(bots))


def play_game(setup: Setup, names: Sequence[str], seed: int, number: int) -> Game:
    """Game ``number`` of a series: its own seed (the same series gives the
    same games, in any order), the first player moving round the table, and
    the bots (made for this game) deciding through their own API, from a
    view of their seat and the legal moves."""
    rng = random.Random(seed * 1_000_003 + number)
    return play(Game(setup, rng, first=number % setup.players), [bot(name) for name in names],
                rng)


def simulate(*, players: int, games: int, bots: Sequence[str], seed: int,
             progress: Progressed = no_progress) -> Simulated:
    """``games`` games between ``bots`` (one name for every seat, or one a
    seat); the first player moves round the table from game to game. Wins
    are shares of the games (a shared win counts its share); ``progress`` is
    told the games played."""
    _check(players, games, bots)
    names = list(bots) * players if len(bots) == 1 else list(bots)
    wins = dict.fromkeys(names, 0.0)
    tokens: dict[str, list[int]] = {name: [] for name in names}
    rounds, turns = [], []
    setup = Setup(players=players)
    clock = time.perf_counter
    seconds = 0.0  # playing, the tally aside
    for number in range(games):
        began = clock()
        game = play_game(setup, names, seed, number)
        seconds += clock() - began
        for seat in game.winners:
            wins[names[seat]] += 1 / len(game.winners)
        for seat, name in enumerate(names):
            tokens[name].append(game.tokens[seat])
        rounds.append(game.round)
        turns.append(game.turns)
        progress(number + 1, games)
    data: dict[str, object] = {
        "games": games, "players": players,
        "wins": {name: round(won / games, 4) for name, won in wins.items()},
        "mean_tokens": {name: round(statistics.mean(t), 3) for name, t in tokens.items()},
        "mean_rounds": round(statistics.mean(rounds), 2),
        "mean_turns": round(statistics.mean(turns), 1),
        "games_per_second": round(games / seconds, 1) if seconds else 0.0,
    }
    results = tuple(BotResult(name, won / games, statistics.mean(tokens[name]))
                    for name, won in wins.items())
    return Simulated(data, games, players, seconds, results,
                     rounds=statistics.mean(rounds), turns=statistics.mean(turns))


def bench_advisor(games: int = 400, seed: int = 7,
                  progress: Progressed = no_progress) -> AdvisorFigures:
    """The advisor in 4-player games against three cautious bots: its time
    to decide, and its share of the wins (fewest tokens); ``progress`` is
    told the games played."""
    if games < 1:
        raise GameInputError(N_("Play at least one game: give 1 or more."))
    advisor = Advisor()
    cautious = CautiousBot()
    durations: list[float] = []
    won = 0.0
    clock = time.perf_counter
    start = clock()
    for number in range(games):
        rng = random.Random(seed * 1_000_003 + number)
        game = Game(Setup(players=4), rng, first=number % 4)
        while game.phase != OVER:
            moves = game.legal_moves()
            view = game.view(game.turn)
            if game.turn == 0:
                began = clock()
                move = advisor.choose(view, moves, rng)
                durations.append(clock() - began)
            else:
                move = cautious.choose(view, moves, rng)
            game.apply(move)
        if 0 in game.winners:
            won += 1 / len(game.winners)
        progress(number + 1, games)
    low, high = wilson_interval(won, games)
    p50, p95 = percentile(durations, 0.5) * 1000, percentile(durations, 0.95) * 1000
    data = {"decision_ms": {"p50": round(p50, 4), "p95": round(p95, 4)},
            "win_rate_vs_cautious": round(won / games, 4), "games": games,
            "win_rate_interval": [round(low, 4), round(high, 4)]}
    return AdvisorFigures(data, (p50, p95),
                          (AdvisorTable(4, "cautious", won / games, (low, high), games),),
                          clock() - start)
