"""Real speech: sentences rendered to WAV in four languages, interrupted,
and a backend that dies mid-sentence replaced by the next."""

from __future__ import annotations

import array
import math
import os
import stat
import subprocess
import sys
import threading
import time
import wave
from pathlib import Path

import pytest

from voices.backends import DispatcherSpeaker, EspeakSpeaker, NoSpeech, Pyttsx3Speaker
from voices.base import Cause, Priority, QueuedSpeaker, Utterance, VoiceSettings
from voices.choose import FallbackSpeaker, Switched, automatic_order, make_backend

SENTENCES = {
    "en": "Salmon nigiri on wasabi: six points.",
    "fr": "Sushi au saumon sur wasabi : six points.",
    "cs": "Lososové nigiri na wasabi: šest bodů.",
    "ru": "Нигири из лосося на васаби: шесть очков.",
}


def loudness(path: Path) -> tuple[float, float]:
    """Length in seconds and RMS level (0 to 1) of a 16-bit mono WAV."""
    with wave.open(str(path)) as wav:
        assert wav.getsampwidth() == 2
        frames = wav.readframes(wav.getnframes())
        seconds = wav.getnframes() / wav.getframerate()
    samples = array.array("h", frames)
    rms = math.sqrt(sum(s * s for s in samples) / max(len(samples), 1)) / 32768
    return seconds, rms


@pytest.mark.system
@pytest.mark.parametrize("language", list(SENTENCES))
def test_espeak_ng_renders_each_language_aloud(language: str, tmp_path: Path) -> None:
    speaker = EspeakSpeaker(sink="null")
    wav = tmp_path / f"{language}.wav"
    speaker.render(SENTENCES[language], language, wav)
    speaker.close()
    seconds, rms = loudness(wav)
    assert 1.0 < seconds < 10.0
    assert rms > 0.02, "not silent"


@pytest.mark.system
@pytest.mark.parametrize("language", list(SENTENCES))
def test_pyttsx3_renders_each_language_aloud(language: str, tmp_path: Path) -> None:
    speaker = Pyttsx3Speaker()
    wav = tmp_path / f"{language}.wav"
    try:
        speaker.render(SENTENCES[language], language, wav)
    finally:
        speaker.close()
    seconds, rms = loudness(wav)
    assert 1.0 < seconds < 10.0
    assert rms > 0.02


@pytest.mark.system
def test_the_languages_really_differ(tmp_path: Path) -> None:
    speaker = EspeakSpeaker(sink="null")
    speaker.render("Sashimi", "en", tmp_path / "en.wav")
    speaker.render("Sashimi", "ru", tmp_path / "ru.wav")
    speaker.close()
    assert (tmp_path / "en.wav").read_bytes() != (tmp_path / "ru.wav").read_bytes()


@pytest.mark.system
def test_a_long_utterance_stops_when_told(tmp_path: Path) -> None:
    speaker = EspeakSpeaker(sink="null")
    speaker.say("Tempura, two pairs, ten points. " * 2000, "en")
    deadline = time.monotonic() + 5
    while speaker.timings.started == 0 and time.monotonic() < deadline:
        time.sleep(0.001)
    time.sleep(0.05)
    assert not speaker.idle(0.01), "still speaking"
    asked = time.perf_counter()
    speaker.interrupt()
    assert speaker.idle(1.0)
    assert speaker.timings.silenced - asked < 0.5
    speaker.close()


@pytest.mark.system
def test_pyttsx3_stops_when_told_and_speaks_again() -> None:
    speaker = Pyttsx3Speaker()
    speaker.say("Tempura, two pairs, ten points. " * 500, "en")
    deadline = time.monotonic() + 10
    while speaker.timings.started == 0 and time.monotonic() < deadline:
        time.sleep(0.005)
    speaker.interrupt()
    assert speaker.idle(2.0)
    speaker.say("Wasabi.", "en")
    assert speaker.idle(20.0)
    speaker.close()


def crashing_program(tmp_path: Path) -> str:
    """An engine that dies in the middle of a sentence."""
    script = tmp_path / "dying-engine"
    script.write_text("#!/bin/sh\nsleep 0.05\nkill -SEGV $$\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script)


@pytest.mark.system
def test_a_backend_that_crashes_mid_sentence_falls_back(tmp_path: Path) -> None:
    notices: list[Switched] = []
    made: list[EspeakSpeaker] = []

    def factory(name: str, settings: VoiceSettings | None, on_failure: object) -> object:
        speaker: EspeakSpeaker
        if name == "dying":
            speaker = EspeakSpeaker(settings, on_failure,  # type: ignore[arg-type]
                                    program=crashing_program(tmp_path))
        else:
            speaker = EspeakSpeaker(settings, on_failure, sink="null")  # type: ignore[arg-type]
        made.append(speaker)
        return speaker

    voice = FallbackSpeaker(("dying", "espeak-ng"), on_notice=notices.append,
                            factory=factory)  # type: ignore[arg-type]
    assert voice.ready(30)
    assert voice.name == "espeak-ng" and made[0].program.endswith("dying-engine")
    voice.say("Maki: five icons, most at the table, six points.", "en", Priority.IMPORTANT)
    deadline = time.monotonic() + 5
    while len(made) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert voice.ready(30)
    assert len(made) == 2 and voice.backend is made[1]
    assert len(notices) == 1 and "now speaking with espeak-ng" in str(notices[0])
    assert notices[0] == Switched("espeak-ng", Cause.DIED, "espeak-ng")
    assert made[1].idle(5) and made[1].timings.started > 0  # the sentence was said again
    voice.close()


def dies_once_program(tmp_path: Path) -> str:
    """An engine that speaks (it reads its text, and takes a moment), but dies
    the first time it is given a sentence with "Ouch" in it, as a process
    killed in the middle of a sentence does."""
    script = tmp_path / "dies-once"
    marker = tmp_path / "died"
    script.write_text(
        "#!/bin/sh\n"
        "text=$(cat)\n"
        f'case "$text" in *Ouch*) if [ ! -e "{marker}" ]; then : > "{marker}"; '
        "kill -SEGV $$; fi;; esac\n"
        "sleep 0.02\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script)


def test_a_backend_that_dies_after_speaking_is_started_again_without_a_notice(
        tmp_path: Path) -> None:
    notices: list[Switched] = []
    made: list[EspeakSpeaker] = []
    program = dies_once_program(tmp_path)

    def factory(name: str, settings: VoiceSettings | None, on_failure: object) -> object:
        speaker = EspeakSpeaker(settings, on_failure,  # type: ignore[arg-type]
                                program=program)
        made.append(speaker)
        return speaker

    voice = FallbackSpeaker(("espeak-ng", "none"), on_notice=notices.append,
                            factory=factory)  # type: ignore[arg-type]
    assert voice.ready(30)
    voice.say("Wasabi.", "en")
    assert made[0].idle(10)  # it spoke
    voice.say("Ouch: salmon nigiri on wasabi.", "en", Priority.IMPORTANT)
    deadline = time.monotonic() + 10
    while len(made) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert voice.ready(30)
    assert len(made) == 2 and voice.backend is made[1], "started again"
    assert made[1].idle(10) and made[1].timings.started > 0  # the lost sentence said again
    assert notices == []  # the player lost nothing: nothing to tell
    voice.say("Squid nigiri.", "en")
    assert made[1].idle(10) and voice.backend is made[1]
    voice.close()


def test_a_backend_that_dies_again_and_again_is_left_with_one_notice(tmp_path: Path) -> None:
    notices: list[Switched] = []
    made: list[object] = []
    first = tmp_path / "first"
    first.mkdir()

    def factory(name: str, settings: VoiceSettings | None, on_failure: object) -> object:
        if name == "none":
            made.append(NoSpeech(settings))
            return made[-1]
        # the first speaks, then dies at "Ouch"; the one started again dies
        # at its first sentence: it cannot speak here, so the next takes over
        speaker = EspeakSpeaker(settings, on_failure,  # type: ignore[arg-type]
                                program=crashing_program(tmp_path) if made else
                                dies_once_program(first))
        made.append(speaker)
        return speaker

    voice = FallbackSpeaker(("espeak-ng", "none"), on_notice=notices.append,
                            factory=factory)  # type: ignore[arg-type]
    assert voice.ready(30)
    voice.say("Wasabi.", "en")
    spoke = made[0]
    assert isinstance(spoke, EspeakSpeaker) and spoke.idle(10)
    voice.say("Ouch.", "en")
    deadline = time.monotonic() + 20
    while not notices and time.monotonic() < deadline:
        time.sleep(0.01)
    assert [n.backend for n in notices] == [None], notices  # told once
    assert voice.ready(30)
    assert len(made) == 3  # the first, the one started again, then none
    assert isinstance(voice.backend, NoSpeech)
    voice.close()


class Recorder(QueuedSpeaker):
    """The real queue with an engine that only notes what it was asked."""

    name = "recorder"

    def __init__(self) -> None:
        self.log: list[str] = []
        self.gate = threading.Event()
        super().__init__()

    def _start(self, utterance: Utterance) -> object:
        self.log.append(f"start {utterance.text}")
        return threading.Event()

    def _wait(self, handle: object) -> bool:
        assert isinstance(handle, threading.Event)
        handle.wait(5)
        return True

    def _stop(self, handle: object) -> None:
        assert isinstance(handle, threading.Event)
        self.log.append("stop")
        handle.set()


def test_echoes_replace_echoes_and_important_sentences_wait_their_turn() -> None:
    voice = Recorder()
    voice.say("salmon", "en")
    time.sleep(0.05)
    voice.say("squid", "en")  # the newer echo cuts the older one
    time.sleep(0.05)
    voice.say("score: 12", "en", Priority.IMPORTANT)  # cuts the echo
    time.sleep(0.05)
    voice.say("egg", "en")  # an echo waits behind an important sentence
    voice.say("error: not in hand", "en", Priority.IMPORTANT)
    time.sleep(0.05)
    assert voice.log == ["start salmon", "stop", "start squid", "stop", "start score: 12"]
    voice.interrupt()  # new input: everything stops, nothing waits
    assert voice.idle(2)
    assert voice.log[-1] == "stop"
    voice.close()


@pytest.mark.system
def test_speech_never_writes_to_the_terminal() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion", "say", "Wasabi.", "--backend", "espeak-ng"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0
    assert done.stdout == "espeak-ng: Wasabi.\n"
    assert done.stderr == ""  # the engine's own complaints (no sound card here) stay hidden


@pytest.mark.system
def test_say_writes_a_wav_file(tmp_path: Path) -> None:
    wav = tmp_path / "cs.wav"
    done = subprocess.run(
        [sys.executable, "-m", "companion", "say", SENTENCES["cs"], "--lang", "cs",
         "--to", str(wav)],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert loudness(wav)[1] > 0.02


def fake_spd_say(tmp_path: Path) -> str:
    """speech-dispatcher's client, noting its arguments (the daemon needs a sound card)."""
    script = tmp_path / "spd-say"
    script.write_text(f'#!/bin/sh\necho "$@" >> {tmp_path}/calls\nsleep 0.2\n')
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script)


def test_speech_dispatcher_gets_language_priority_and_cancel(tmp_path: Path) -> None:
    program = fake_spd_say(tmp_path)
    voice = DispatcherSpeaker(VoiceSettings(rate=175, pitch=50, volume=100), program=program)
    voice.say("Squid on wasabi: nine points.", "fr", Priority.IMPORTANT)
    time.sleep(0.05)
    voice.interrupt()
    voice.close()
    time.sleep(0.3)
    calls = (tmp_path / "calls").read_text().splitlines()
    assert calls[0].startswith("--wait -l fr -r 0 -p 0 -i 100 -P important")
    assert calls[0].endswith("-- Squid on wasabi: nine points.")
    assert "--cancel" in calls


def test_automatic_order_and_none() -> None:
    assert automatic_order("linux")[0] == "speech-dispatcher"
    assert automatic_order("darwin") == ("pyttsx3", "none")
    silent = make_backend("none")
    assert isinstance(silent, NoSpeech)
    silent.say("anything", "en")
    silent.interrupt()
    with pytest.raises(Exception, match="no speech backend"):
        make_backend("wizard")


@pytest.mark.system
def test_no_child_process_inherits_the_terminal(tmp_path: Path) -> None:
    def espeak_children() -> dict[str, set[str]]:
        """This process's espeak-ng children, by pid: where their input and outputs go."""
        found = {}
        for child in Path("/proc").iterdir():
            try:
                if not child.name.isdigit() or b"espeak-ng" not in (child / "cmdline").read_bytes():
                    continue
                if (child / "stat").read_text().split()[3] != str(os.getpid()):
                    continue
                found[child.name] = {str((child / "fd" / str(fd)).readlink()) for fd in (0, 1, 2)}
            except OSError:
                continue  # it ended meanwhile
        return found

    # those of other tests run in this process before (an app's voice that
    # keeps its next sentence's process ready) are not this speaker's
    earlier = set(espeak_children())
    speaker = EspeakSpeaker(sink="null")
    speaker.say("Tempura. " * 300, "en")

    def children() -> list[set[str]]:
        return [fds for pid, fds in espeak_children().items() if pid not in earlier]

    # the one speaking, and the next one started ahead, waiting for its text
    deadline = time.monotonic() + 10
    while len(found := children()) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    speaker.interrupt()
    speaker.close()
    assert len(found) == 2
    for targets in found:  # the null device, and the pipe its text comes through
        assert all(t == "/dev/null" or t.startswith("pipe:") for t in targets), targets
        assert "/dev/null" in targets


def test_the_last_backend_failing_leaves_writing_only_and_says_so(tmp_path: Path) -> None:
    notices: list[Switched] = []

    def factory(name: str, settings: VoiceSettings | None, on_failure: object) -> object:
        if name == "none":
            return NoSpeech(settings)
        return EspeakSpeaker(settings, on_failure,  # type: ignore[arg-type]
                             program=crashing_program(tmp_path))

    voice = FallbackSpeaker(("dying", "none"), on_notice=notices.append,
                            factory=factory)  # type: ignore[arg-type]
    voice.say("Wasabi.", "en", Priority.IMPORTANT)  # said before the voice is up: it waits
    deadline = time.monotonic() + 5
    while not notices and time.monotonic() < deadline:
        time.sleep(0.01)
    assert voice.ready(30)
    assert [n.backend for n in notices] == [None]
    assert str(notices[0]).endswith("the app will only write.")
    assert isinstance(voice.backend, NoSpeech)
    voice.close()


class RenderingEspeak(EspeakSpeaker):
    """The real espeak-ng through the real queue, each utterance written to
    a WAV file of its own instead of the speakers."""

    def __init__(self, folder: Path, failures: list[Cause]) -> None:
        self.folder = folder
        self.spoken: list[str] = []
        super().__init__(on_failure=failures.append)

    def _command(self, utterance: Utterance) -> list[str]:
        self.spoken.append(utterance.text)
        wav = self.folder / f"{len(self.spoken)}.wav"
        return self.command(utterance.text, utterance.language, wav)


@pytest.mark.system
def test_no_text_makes_the_voice_go_mute(tmp_path: Path) -> None:
    failures: list[Cause] = []
    voice = RenderingEspeak(tmp_path, failures)
    every_control = "".join(chr(c) for c in [*range(32), 127, *range(0x80, 0xA0)])
    voice.say(f"Ann{every_control}Ben", "en", Priority.IMPORTANT)  # a NUL among them
    voice.say("\u202eBidi\u200b and \ud800 a lone surrogate", "en", Priority.IMPORTANT)
    voice.say("\x00\x07 \x1b", "en", Priority.IMPORTANT)  # nothing left to say
    assert voice.idle(60)
    voice.say("x" * 1_000_000, "en")  # a 1 MB line, cut (it cannot start a process whole)
    voice.say(SENTENCES["en"], "en", Priority.IMPORTANT)  # cuts the long echo short
    assert voice.idle(60)
    voice.close()
    assert failures == []
    assert voice.spoken[:2] == ["Ann Ben", "Bidi and a lone surrogate"]
    assert len(voice.spoken) == 4 and len(voice.spoken[2]) == 4000
    assert voice.spoken[3] == SENTENCES["en"]
    assert loudness(tmp_path / "1.wav")[1] > 0.02
    seconds, rms = loudness(tmp_path / "4.wav")
    assert seconds > 1.0 and rms > 0.02, "the next sentence is still said aloud"
