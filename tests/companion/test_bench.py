"""The benchmark commands run and report figures of the right shape.

The figures themselves are read by a person: speed is never asserted here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from devtools.rig import PrivateDispatcher, SoundSink


@pytest.mark.slow
def test_bench_engine_json_reports_every_table_size() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion", "bench", "engine", "--json", "--seconds", "0.2"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert set(figures["games_per_second"]) == {"2", "3", "4", "5"}
    for seats, rate in figures["games_per_second"].items():
        assert rate > 0
        timing = figures["game_us"][seats]
        assert 0 < timing["p50"] <= timing["p95"] <= timing["p99"]


def test_bench_engine_prints_a_line_per_table_size() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion", "bench", "engine", "--seconds", "0.1"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["2", "3", "4", "5"]
    assert all("games per second" in line for line in lines)


@pytest.mark.slow
def test_bench_scan_json_reports_latency_and_losses() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion", "bench", "scan", "--json", "--seconds", "1"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["sent"] == 200
    assert figures["received"] + figures["lost"] == figures["sent"]
    assert figures["doubled"] >= 0
    assert 0 < figures["latency_ms"]["p50"] <= figures["latency_ms"]["p99"]


def test_bench_web_json_reports_answers_fan_out_and_the_first_page(tmp_path: Path) -> None:
    env = {**os.environ, "COMPANION_DATA_DIR": str(tmp_path / "data"),
           "COMPANION_CONFIG_DIR": str(tmp_path / "config")}
    done = subprocess.run(
        [sys.executable, "-m", "companion", "bench", "web", "--json", "--runs", "12",
         "--seats", "3"], capture_output=True, text=True, timeout=120, check=False, env=env)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert (figures["runs"], figures["seats"], figures["lost"]) == (12, 3, 0)
    for measured in ("answer_ms", "fanout_ms"):
        assert 0 < figures[measured]["p50"] <= figures[measured]["p95"], figures
    assert 1000 < figures["first_page_bytes"] < 100_000
    assert not (tmp_path / "data").exists() and not (tmp_path / "config").exists()


def test_bench_web_times_a_real_table_of_three_to_seven_seats() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion", "bench", "web", "--runs", "5", "--seats", "8"],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2, done
    assert "Give 3 to 7 seats: a Mici Maki table's." in done.stderr


def test_bench_web_prints_its_figures_against_their_goals() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion", "bench", "web", "--runs", "5"],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Web face, an answer to its reply: p50 ")
    assert lines[0].endswith("(goal: p95 at most 50 ms), 5 answers.")
    assert lines[1].startswith("A move at a table of 7 devices, until every other seat and "
                               "the host have it: p50 ")
    assert lines[1].endswith("(goal: p95 at most 100 ms), 0 lost.")
    assert lines[2].startswith("The first page, with its script and style: ")


@pytest.mark.system
def test_bench_speech_json_reports_each_backend_present(tmp_path: Path) -> None:
    """On a machine whose sound works (here the test sound card, and a
    speech-dispatcher of its own playing there as the user's would), each
    backend's processes are timed; what is heard is for the developers'
    benchmark (tests/devtools/test_bench.py)."""
    sink = SoundSink(tmp_path / "card")
    daemon = PrivateDispatcher(tmp_path / "speechd", sink)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "companion", "bench", "speech", "--json"],
            capture_output=True, text=True, timeout=600, check=False,
            env={**os.environ, **sink.environment, **daemon.environment},
        )
    finally:
        daemon.close()
        sink.close()
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    # all three installed by the test command
    assert {"speech-dispatcher", "espeak-ng", "pyttsx3"} <= set(figures)
    for numbers in figures.values():
        assert 0 < numbers["start_ms_p50"] <= numbers["start_ms_p95"]
        assert numbers["interrupt_ms_max"] >= 0
        assert numbers["first_audio_ms_p50"] is None
        assert numbers["stop_ms_max"] is None
        assert numbers["runs"] == 20


@pytest.mark.system
def test_bench_speech_leaves_out_a_backend_that_does_not_speak(tmp_path: Path) -> None:
    """speech-dispatcher with no sound output takes every sentence and never
    speaks one: no figure for it, and no traceback."""
    daemon = PrivateDispatcher(tmp_path / "speechd", None)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "companion", "bench", "speech", "--json"],
            capture_output=True, text=True, timeout=600, check=False,
            env={**os.environ, **daemon.environment},
        )
    finally:
        daemon.close()
    assert done.returncode == 0, done.stderr
    assert "speech-dispatcher" not in json.loads(done.stdout)


@pytest.mark.parametrize("gone", ["ui", "a11y"])
def test_the_developers_benchmarks_are_not_the_apps(gone: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion", "bench", gone],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 2
    assert f"{gone} is not one of the choices: 'engine', 'advisor', 'scan', 'speech', 'web'." in (
        done.stderr)
