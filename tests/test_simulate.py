"""``companion simulate`` and ``companion bench advisor`` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


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
        (("--bots", "greedy,random"), "one per player"),
        (("--variant", "chaos"), "chaos"),
        (("--variant", "dummy"), "2 players"),
        (("--games", "0"), "at least 1"),
    ],
)
def test_simulate_refuses_bad_requests(args: tuple[str, ...], fragment: str) -> None:
    done = companion("simulate", "--players", "4", "--games", "2", *args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert fragment in done.stderr and done.stderr.count("\n") == 1


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
