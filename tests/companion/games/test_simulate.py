"""``companion simulate`` and ``companion bench advisor`` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion.cli import engine_lines
from companion.games.micimaki.bench import engine_report as mici_maki_engine_report
from companion.games.sushigo.bench import engine_report
from companion.games.sushigo.simulate import simulate
from companion.i18n import Catalog


def companion(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        capture_output=True, text=True, timeout=300, check=False,
    )


def test_simulate_reports_wins_scores_and_throughput() -> None:
    done = companion("simulate", "--players", "3", "--games", "12",
                     "--bots", "greedy,random,random", "--seed", "4", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["games"] == 12 and report["games_per_second"] > 0
    bots = report["bots"]
    assert [b["bot"] for b in bots] == ["greedy", "random 2", "random 3"]
    assert sum(b["win_rate"] for b in bots) == pytest.approx(1.0)
    for bot in bots:
        low, high = bot["win_rate_95"]
        assert 0 <= low <= bot["win_rate"] <= high <= 1
        assert bot["mean_score"] > 0


def test_simulate_is_repeatable_with_a_seed() -> None:
    args = ("simulate", "--players", "2", "--games", "5", "--bots", "greedy,random",
            "--seed", "9", "--json")
    first, second = companion(*args), companion(*args)
    assert json.loads(first.stdout)["bots"] == json.loads(second.stdout)["bots"]


def test_simulate_plays_every_variant_and_in_parallel() -> None:
    done = companion("simulate", "--players", "2", "--games", "4", "--bots", "greedy",
                     "--variant", "dummy,soy-sauce=2,pass-both-ways", "--workers", "2")
    assert done.returncode == 0, done.stderr
    assert "4 games in" in done.stdout.splitlines()[-1]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("--bots", "wizard"), "wizard"),
        (("--bots", "greedy,random"), "one for each of the 4 players"),
        (("--variant", "chaos"), "chaos"),
        (("--variant", "dummy"), "2 players"),
        (("--games", "0"), "at least one game"),
    ],
)
def test_simulate_refuses_bad_requests(args: tuple[str, ...], fragment: str) -> None:
    done = companion("simulate", "--players", "4", "--games", "2", *args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert fragment in done.stderr and done.stderr.count("\n") == 1


@pytest.mark.slow
def test_bench_advisor_json_has_the_figures() -> None:
    done = companion("bench", "advisor", "--games", "2", "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert 0 < figures["decision_ms"]["p50"] <= figures["decision_ms"]["p95"]
    for key in ("win_rate_4p_vs_greedy", "win_rate_2p_vs_greedy"):
        assert 0 <= figures[key] <= 1
    low, high = figures["win_rate_4p_95"]
    assert low <= figures["win_rate_4p_vs_greedy"] <= high
    assert figures["games"] == 2


def test_a_series_is_the_same_games_in_one_process_or_several() -> None:
    lineup = ["random", "greedy", "random"]
    alone = simulate(lineup, 24, seed=5)
    shared = simulate(lineup, 24, seed=5, workers=2)
    again = simulate(lineup, 24, seed=5)
    for results in (shared, again):
        assert [(e.label, e.wins, e.points) for e in results.entrants] == [
            (e.label, e.wins, e.points) for e in alone.entrants]
    assert all(e.decision_seconds == [] for e in alone.entrants)  # untimed
    timed = simulate(lineup, 3, seed=5, timed=True)
    assert all(len(e.decision_seconds) >= 3 * 7 for e in timed.entrants)


def test_bench_engine_puts_the_simulations_beside_the_engine() -> None:
    report = engine_report(seconds=0.05)
    data = report.data
    for key in ("games_per_second", "simulate_games_per_second", "simulate_ratio"):
        figures = data[key]
        assert isinstance(figures, dict) and set(figures) == {"2", "3", "4", "5"}
        assert all(value > 0 for value in figures.values())
    assert [row.players for row in report.rows] == [2, 3, 4, 5]
    assert all(row.simulate_games_per_second > 0 for row in report.rows)
    lines = engine_lines(report, Catalog.for_language("en"))
    assert len(lines) == 4
    assert all("through the bots' API" in line for line in lines)


def test_bench_engine_of_mici_maki_puts_the_simulations_beside_the_engine() -> None:
    data = mici_maki_engine_report(seconds=0.05).data
    for key in ("games_per_second", "simulate_games_per_second", "simulate_ratio"):
        figures = data[key]
        assert isinstance(figures, dict) and set(figures) == {"3", "4", "5", "6", "7"}
        assert all(value > 0 for value in figures.values())
