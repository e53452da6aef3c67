"""The developers' benchmarks (``python -m devtools bench``) run from the
project folder and report figures of the right shape; the figures
themselves are read by a person. (The a11y walk is
tests/devtools/test_assistive_tech.py.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

#: The project folder: devtools is not installed, it is run from there.
ROOT = Path(__file__).resolve().parents[2]


def devtools(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m devtools ARGS`` from the project folder."""
    return subprocess.run([sys.executable, "-m", "devtools", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600, check=False)


@pytest.mark.system
def test_bench_speech_json_reports_each_backend_present() -> None:
    done = devtools("bench", "speech", "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    # all three installed by the test command, each heard on the test sound card
    assert {"speech-dispatcher", "espeak-ng", "pyttsx3"} <= set(figures)
    for backend, numbers in figures.items():
        assert 0 < numbers["start_ms_p50"] <= numbers["start_ms_p95"]
        assert numbers["interrupt_ms_max"] >= 0
        assert 0 < numbers["first_audio_ms_p50"] <= numbers["first_audio_ms_p95"], backend
        assert 0 <= numbers["stop_ms_max"] < 5000, backend


@pytest.mark.slow
def test_bench_ui_json_reports_starts_latency_and_memory() -> None:
    done = devtools("bench", "ui", "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    for key in ("plain_start_ms", "tui_start_ms", "bare_textual_start_ms", "rss_mb"):
        assert figures[key] > 0, key
    assert 0 <= figures["announce_ms_p50"] <= figures["announce_ms_p95"]
    assert 0 < figures["scan_announce_ms_p95"] < 1000
