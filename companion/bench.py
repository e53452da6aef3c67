"""Benchmarks of the app's own parts: ``companion bench scan`` and ``bench speech``
(each game measures its engine: ``companion bench engine --game NAME``).

Figures are measured, never asserted by the test suite: the tests check that
the benchmarks run and report sane numbers, the figures themselves are read
by a person (or CI's log) against the targets in the docs.
"""

from __future__ import annotations

import dataclasses
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
from voices.rig import DispatcherMissing, PrivateDispatcher, SoundCardMissing, SoundSink


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
    """For one backend: from ``say`` to its speech process running (start)
    and from ``interrupt`` to the process gone (interrupt); and where the
    player hears it, on a sound card (voices/rig.py): from ``say`` to the
    first non-silent sample written to the card (first audio) and from
    ``interrupt`` to the last sample written (stop). ``None`` when that
    backend's sound could not be put on the test card."""

    backend: str
    start_ms_p50: float
    start_ms_p95: float
    interrupt_ms_max: float
    runs: int
    first_audio_ms_p50: float | None = None
    first_audio_ms_p95: float | None = None
    stop_ms_max: float | None = None

    def as_json(self) -> dict[str, float | int | None]:
        """The figures under the names ``companion bench speech --json`` prints."""
        def rounded(value: float | None) -> float | None:
            return None if value is None else round(value, 2)
        return {
            "start_ms_p50": rounded(self.start_ms_p50),
            "start_ms_p95": rounded(self.start_ms_p95),
            "interrupt_ms_max": rounded(self.interrupt_ms_max),
            "first_audio_ms_p50": rounded(self.first_audio_ms_p50),
            "first_audio_ms_p95": rounded(self.first_audio_ms_p95),
            "stop_ms_max": rounded(self.stop_ms_max),
            "runs": self.runs,
        }

    def describe(self) -> str:
        """The figures in a line for people."""
        line = (f"{self.backend}: start p50 {self.start_ms_p50:.1f} ms, "
                f"p95 {self.start_ms_p95:.1f} ms; interrupt at most "
                f"{self.interrupt_ms_max:.1f} ms")
        if self.first_audio_ms_p50 is not None and self.first_audio_ms_p95 is not None:
            line += (f"; first audio p50 {self.first_audio_ms_p50:.1f} ms, "
                     f"p95 {self.first_audio_ms_p95:.1f} ms")
        if self.stop_ms_max is not None:
            line += f"; stop at most {self.stop_ms_max:.1f} ms"
        return line + f" ({self.runs} runs)"


LONG_TEXT = "Tempura, two pairs, ten points. " * 400
#: What the first-audio runs say: a sentence as the app says them, long
#: enough (about 3 s) to be still sounding when it is stopped.
SENTENCE = "Salmon nigiri on wasabi: six points. Ann leads with twelve."


def bench_speech_backend(speaker: QueuedSpeaker, *, runs: int = 20,
                         sink: SoundSink | None = None) -> SpeechFigures:
    """Measure one backend: its processes over ``runs`` runs, and with
    ``sink`` (the card its sound goes to) the first sound and the last
    after a stop, over half as many sentences."""
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
    figures = SpeechFigures(
        backend=speaker.name,
        start_ms_p50=percentile(starts, 0.5) * 1000,
        start_ms_p95=percentile(starts, 0.95) * 1000,
        interrupt_ms_max=max(interrupts) * 1000,
        runs=runs,
    )
    if sink is None:
        return figures
    try:
        firsts, stops = heard(speaker, sink, runs=max(1, runs // 2))
    except RuntimeError:
        return figures  # its sound does not reach the test card here: not measured
    return dataclasses.replace(
        figures,
        first_audio_ms_p50=percentile(firsts, 0.5) * 1000,
        first_audio_ms_p95=percentile(firsts, 0.95) * 1000,
        stop_ms_max=max(stops) * 1000,
    )


def heard(speaker: QueuedSpeaker, sink: SoundSink, *, runs: int,
          timeout: float = 30.0) -> tuple[list[float], list[float]]:
    """Seconds from ``say`` to the first non-silent sample on ``sink``, and
    from ``interrupt`` to the last sample, for each of ``runs`` sentences."""
    firsts: list[float] = []
    stops: list[float] = []
    for _ in range(runs):
        speaker.interrupt()
        if not sink.wait_quiet(0.3, timeout):
            raise RuntimeError(f"{speaker.name} does not go quiet")
        before = time.perf_counter()
        speaker.say(SENTENCE, "en")
        first = sink.wait_loud(before, timeout)
        if first is None:
            raise RuntimeError(f"no sound from {speaker.name} within {timeout:.0f} s")
        firsts.append(first - before)
        # a fifth of a second of sound, then stop while it still speaks
        sink.wait_loud(first + 0.2, timeout)
        stop = time.perf_counter()
        speaker.interrupt()
        if not sink.wait_quiet(0.5, timeout):
            raise RuntimeError(f"{speaker.name} went on sounding after a stop")
        stops.append(max(0.0, sink.last() - stop))
    return firsts, stops


def bench_speech(*, runs: int = 20) -> list[SpeechFigures]:
    """Every backend present on this machine, with its sound on a test
    sound card (voices/rig.py) and speech-dispatcher a private daemon of
    its own playing there. Where the card cannot be made (no gcc or ALSA
    headers) or the daemon is missing, the process figures alone: espeak-ng
    synthesising without playing, speech-dispatcher the user's own."""
    with tempfile.TemporaryDirectory() as folder:
        try:
            sink: SoundSink | None = SoundSink(Path(folder))
        except (SoundCardMissing, OSError):
            sink = None
        try:
            return _bench_backends(Path(folder), sink, runs)
        finally:
            if sink is not None:
                sink.close()


def _bench_backends(folder: Path, sink: SoundSink | None, runs: int) -> list[SpeechFigures]:
    figures = []
    environment = dict(sink.environment) if sink is not None else None
    daemon: PrivateDispatcher | None = None
    try:
        for maker in (DispatcherSpeaker, EspeakSpeaker, Pyttsx3Speaker):
            heard_on = sink
            try:
                if maker is DispatcherSpeaker and sink is not None:
                    try:
                        daemon = PrivateDispatcher(folder, sink)
                        speaker: QueuedSpeaker = DispatcherSpeaker(
                            environment={**sink.environment, **daemon.environment})
                    except DispatcherMissing:
                        speaker, heard_on = DispatcherSpeaker(), None
                elif maker is EspeakSpeaker:
                    speaker = (EspeakSpeaker(environment=environment) if sink is not None
                               else EspeakSpeaker(sink="null"))
                elif maker is Pyttsx3Speaker:
                    speaker = Pyttsx3Speaker(environment=environment)
                else:
                    speaker = maker()
            except SpeechError:
                continue  # not on this machine
            try:
                figures.append(bench_speech_backend(speaker, runs=runs, sink=heard_on))
            finally:
                speaker.close()
    finally:
        if daemon is not None:
            daemon.close()
    return figures
