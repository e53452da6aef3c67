"""Speech where the player hears it: the real speech-dispatcher daemon (its
espeak-ng module and its ALSA output), espeak-ng and pyttsx3, each driven
through the app's backend and playing into a sound card with no hardware
(devtools/rig.py). Sound must reach the card, and a stop must end it: the
text lasts minutes, so the card goes quiet only if the stop cut it."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator

import pytest

from devtools.rig import BYTES_PER_SECOND, PrivateDispatcher, SoundSink
from voices.backends import DispatcherSpeaker, EspeakSpeaker, Pyttsx3Speaker
from voices.base import Priority, QueuedSpeaker

#: The test sound card, speech-dispatcher, espeak-ng, pyttsx3 and aplay.
pytestmark = pytest.mark.system

#: About four minutes of speech (cut at 4,000 characters before any engine).
LONG = "Tempura, two pairs, ten points. " * 200


@pytest.fixture(scope="module")
def sink(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SoundSink]:
    card = SoundSink(tmp_path_factory.mktemp("card"))
    yield card
    card.close()


@pytest.fixture(scope="module")
def dispatcher(
    sink: SoundSink, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[PrivateDispatcher]:
    daemon = PrivateDispatcher(tmp_path_factory.mktemp("speechd"), sink)
    yield daemon
    daemon.close()


def sounds_then_stops(speaker: QueuedSpeaker, sink: SoundSink, language: str = "en",
                      priority: Priority = Priority.ROUTINE) -> None:
    """A long text reaches the card as sound; a stop ends it."""
    assert sink.wait_quiet(0.5, 60), "the card never went quiet before the test"
    before = time.perf_counter()
    speaker.say(LONG, language, priority)
    first = sink.wait_loud(before, 60)
    assert first is not None, f"no sound from {speaker.name} reached the card"
    assert sink.wait_loud(first + 1.0, 60) is not None, "the sound stopped by itself"
    assert sink.loud_bytes(before) >= BYTES_PER_SECOND // 2  # half a second of sound at least
    stop = time.perf_counter()
    speaker.interrupt()
    assert sink.wait_quiet(1.0, 30), f"{speaker.name} still sounds 30 s after the stop"
    assert sink.last() - stop < 5.0


def sounds_again(speaker: QueuedSpeaker, sink: SoundSink) -> None:
    before = time.perf_counter()
    speaker.say("Salmon nigiri on wasabi: six points.", "en")
    assert sink.wait_loud(before, 60) is not None, "silent after a stop"


def test_the_real_speech_dispatcher_sounds_and_a_stop_cuts_it(
    sink: SoundSink, dispatcher: PrivateDispatcher
) -> None:
    speaker = DispatcherSpeaker(environment={**sink.environment, **dispatcher.environment})
    try:
        assert speaker.connected  # one connection to the daemon, kept open
        sounds_then_stops(speaker, sink)
        sounds_then_stops(speaker, sink, "fr", Priority.IMPORTANT)
        sounds_then_stops(speaker, sink, "ru")
        sounds_again(speaker, sink)
        assert speaker.connected
    finally:
        speaker.close()


def test_speech_dispatcher_through_spd_say_sounds_and_a_stop_cuts_it(
    sink: SoundSink, dispatcher: PrivateDispatcher
) -> None:
    """The way it speaks when no connection can be had: spd-say a sentence."""
    spd_say = shutil.which("spd-say")
    assert spd_say is not None
    speaker = DispatcherSpeaker(program=spd_say,
                                environment={**sink.environment, **dispatcher.environment})
    try:
        assert not speaker.connected
        sounds_then_stops(speaker, sink)
        sounds_again(speaker, sink)
    finally:
        speaker.close()


def test_espeak_ng_sounds_on_the_card_and_a_stop_cuts_it(sink: SoundSink) -> None:
    speaker = EspeakSpeaker(environment=sink.environment)
    try:
        sounds_then_stops(speaker, sink)
        sounds_again(speaker, sink)
    finally:
        speaker.close()


def test_pyttsx3_sounds_on_the_card_and_a_stop_cuts_it(sink: SoundSink) -> None:
    """On Linux pyttsx3 plays through aplay after its runAndWait returned:
    the stop has to end that too (it played on to the end before)."""
    speaker = Pyttsx3Speaker(environment=sink.environment)
    try:
        sounds_then_stops(speaker, sink)
        sounds_again(speaker, sink)
    finally:
        speaker.close()
