"""``python -m devtools bench speech``: every speech backend present, heard
on the test sound card (:mod:`devtools.rig`).

Besides the processes (start and interrupt, measured as ``companion bench
speech`` measures them: :func:`companion.bench.bench_speech_backend`), what
a listener hears: from ``say`` to the first non-silent sample written to the
card (first audio), and from ``interrupt`` to the last sample written
(stop). speech-dispatcher is a private daemon of its own playing there.
Where the card cannot be made (no gcc or ALSA headers) or the daemon is
missing, the process figures alone: espeak-ng synthesising without playing,
speech-dispatcher the user's own.
"""

from __future__ import annotations

import dataclasses
import tempfile
import time
from pathlib import Path

from companion.bench import SpeechFigures, bench_speech_backend
from companion.stats import percentile
from devtools.rig import DispatcherMissing, PrivateDispatcher, SoundCardMissing, SoundSink
from voices.backends import DispatcherSpeaker, EspeakSpeaker, Pyttsx3Speaker
from voices.base import QueuedSpeaker, SpeechError

#: What the first-audio runs say: a sentence as the app says them, long
#: enough (about 3 s) to be still sounding when it is stopped.
SENTENCE = "Salmon nigiri on wasabi: six points. Ann leads with twelve."


def bench_heard(speaker: QueuedSpeaker, *, runs: int = 20,
                sink: SoundSink | None = None) -> SpeechFigures:
    """Measure one backend: its processes over ``runs`` runs, and with
    ``sink`` (the card its sound goes to) the first sound and the last
    after a stop, over half as many sentences."""
    figures = bench_speech_backend(speaker, runs=runs)
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
    sound card and speech-dispatcher a private daemon of its own playing
    there (or, without the card, the process figures alone)."""
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
                figures.append(bench_heard(speaker, runs=runs, sink=heard_on))
            finally:
                speaker.close()
    finally:
        if daemon is not None:
            daemon.close()
    return figures
