"""Benchmarks of the app's own parts: ``companion bench scan`` and ``bench speech``
(each game measures its engine: ``companion bench engine --game NAME``).

Figures are measured, never asserted by the test suite: the tests check that
the benchmarks run and report sane numbers, the figures themselves are read
by a person (or CI's log) against the targets in the docs.
"""

from __future__ import annotations

import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from companion.stats import percentile
from firmware_bridge.events import CardIdentified, InputEvent
from firmware_bridge.link import LinkSettings, ScannerLink
from firmware_bridge.registry import Registry
from firmware_bridge.virtual import VirtualScanner
from voices.backends import DispatcherSpeaker, EspeakSpeaker, Pyttsx3Speaker
from voices.base import QueuedSpeaker, SpeechError


@dataclass(frozen=True, slots=True)
class ScanFigures:
    """Latency from a line written on the device side to the card event."""

    latency_ms_p50: float
    latency_ms_p99: float
    sent: int
    received: int
    lost: int
    doubled: int
    seconds: float


def bench_scan(*, seconds: float = 10.0, rate: float = 200.0) -> ScanFigures:
    """Scans at ``rate`` a second for ``seconds`` through a pseudo-terminal,
    the real link and its event handler."""
    sent_at: dict[str, float] = {}
    latencies: list[float] = []
    seen: dict[str, int] = {}
    found = threading.Event()
    lock = threading.Lock()

    def handler(event: InputEvent) -> None:
        now = time.perf_counter()
        if isinstance(event, CardIdentified) and event.uid is not None:
            with lock:
                seen[event.uid] = seen.get(event.uid, 0) + 1
                if seen[event.uid] == 1 and event.uid in sent_at:
                    latencies.append(now - sent_at[event.uid])
        elif not isinstance(event, CardIdentified):
            found.set()

    with tempfile.TemporaryDirectory() as folder:
        scanner = VirtualScanner(link=Path(folder) / "scanner")
        link = ScannerLink(str(scanner.link), handler, Registry(Path(folder) / "registry.json"),
                           LinkSettings(problem_every=1.0))
        with link:
            if not found.wait(10):
                raise RuntimeError("the virtual scanner did not answer")
            total = int(seconds * rate)
            start = time.perf_counter()
            for n in range(total):
                due = start + n / rate
                while (ahead := due - time.perf_counter()) > 0:
                    time.sleep(min(ahead, 0.002))
                uid = f"{n:08X}"
                with lock:
                    sent_at[uid] = time.perf_counter()
                scanner.scan(uid)
            deadline = time.perf_counter() + 2.0
            while time.perf_counter() < deadline and len(seen) < total:
                time.sleep(0.01)
            elapsed = time.perf_counter() - start
        scanner.close()
    with lock:
        received = sum(1 for uid in sent_at if uid in seen)
        doubled = sum(n - 1 for n in seen.values() if n > 1)
        values = list(latencies) or [float("nan")]
    return ScanFigures(
        latency_ms_p50=percentile(values, 0.50) * 1000,
        latency_ms_p99=percentile(values, 0.99) * 1000,
        sent=len(sent_at),
        received=received,
        lost=len(sent_at) - received,
        doubled=doubled,
        seconds=elapsed,
    )


@dataclass(frozen=True, slots=True)
class SpeechFigures:
    """From ``say`` to the speech process running, and from ``interrupt`` to
    the previous utterance's process gone, for one backend."""

    backend: str
    start_ms_p50: float
    start_ms_p95: float
    interrupt_ms_max: float
    runs: int


LONG_TEXT = "Tempura, two pairs, ten points. " * 400


def bench_speech_backend(speaker: QueuedSpeaker, *, runs: int = 20) -> SpeechFigures:
    """Measure one backend (its sound may go nowhere: only the processes count)."""
    starts: list[float] = []
    interrupts: list[float] = []
    for _ in range(runs):
        speaker.interrupt()
        speaker.idle(5)
        before = time.perf_counter()
        speaker.say(LONG_TEXT, "en")
        deadline = before + 10
        while speaker.timings.started < before and time.perf_counter() < deadline:
            time.sleep(0.0002)
        if speaker.timings.started < before:
            raise RuntimeError(f"{speaker.name} did not start speaking")
        starts.append(speaker.timings.started - before)
        time.sleep(0.02)
        stop = time.perf_counter()
        speaker.interrupt()
        interrupts.append(max(0.0, speaker.timings.silenced - stop))
    return SpeechFigures(
        backend=speaker.name,
        start_ms_p50=percentile(starts, 0.5) * 1000,
        start_ms_p95=percentile(starts, 0.95) * 1000,
        interrupt_ms_max=max(interrupts) * 1000,
        runs=runs,
    )


def bench_speech(*, runs: int = 20) -> list[SpeechFigures]:
    """Every backend present on this machine (espeak-ng synthesising without
    playing, so a machine with no sound card measures the same processes)."""
    figures = []
    makers: list[type[QueuedSpeaker]] = [DispatcherSpeaker, EspeakSpeaker, Pyttsx3Speaker]
    for maker in makers:
        try:
            speaker = EspeakSpeaker(sink="null") if maker is EspeakSpeaker else maker()
        except SpeechError:
            continue  # not on this machine
        try:
            figures.append(bench_speech_backend(speaker, runs=runs))
        finally:
            speaker.close()
    return figures
