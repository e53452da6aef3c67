"""The benchmark commands run and report figures of the right shape.

The figures themselves are read by a person: speed is never asserted here.
"""

from __future__ import annotations

import json
import subprocess
import sys


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


def test_bench_speech_json_reports_each_backend_present() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion", "bench", "speech", "--json"],
        capture_output=True, text=True, timeout=600, check=False,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    # all three installed by the test command, each heard on the test sound card
    assert {"speech-dispatcher", "espeak-ng", "pyttsx3"} <= set(figures)
    for backend, numbers in figures.items():
        assert 0 < numbers["start_ms_p50"] <= numbers["start_ms_p95"]
        assert numbers["interrupt_ms_max"] >= 0
        assert 0 < numbers["first_audio_ms_p50"] <= numbers["first_audio_ms_p95"], backend
        assert 0 <= numbers["stop_ms_max"] < 5000, backend


def test_bench_ui_json_reports_starts_latency_and_memory() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion", "bench", "ui", "--json"],
        capture_output=True, text=True, timeout=600, check=False,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    for key in ("plain_start_ms", "tui_start_ms", "bare_textual_start_ms", "rss_mb"):
        assert figures[key] > 0, key
    assert 0 <= figures["announce_ms_p50"] <= figures["announce_ms_p95"]
    assert 0 < figures["scan_announce_ms_p95"] < 1000
