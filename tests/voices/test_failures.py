"""Speech never stops the app: a backend that fails, in any way, at its start
or later, gives way to the next with one notice (its cause a value the app
translates); a start never waits for speech; speech-dispatcher's daemon is
used when the session has one, and one the backend had to start ends with
it. The real daemon runs here with no sound output (an ALSA device that
does not exist), as on a machine with no sound card."""

from __future__ import annotations

import io
import os
import signal
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.contract.events import info
from companion.conversation.core import Talk
from companion.conversation.inbox import Lines
from companion.conversation.speech import NOTICE_BEFORE_QUESTION, SpeechService, switched_text
from companion.faces.plain import PlainFace
from companion.i18n import Catalog
from companion.settings import Settings
from devtools.rig import PrivateDispatcher, SoundSink
from voices import ssip
from voices.backends import DispatcherSpeaker, EspeakSpeaker, NoSpeech
from voices.base import Cause, Priority, QueuedSpeaker, SpeechError, Utterance, VoiceSettings
from voices.choose import NO_VOICE, FallbackSpeaker, Speech, Switched

#: About four minutes of speech (cut at 4,000 characters before any engine).
LONG = "Tempura, two pairs, ten points. " * 200


class Recorder(QueuedSpeaker):
    """The real queue with an engine that notes what it is given; a
    sentence lasts until it is stopped, or ``lasts`` seconds."""

    name = "recorder"

    def __init__(self, settings: VoiceSettings | None = None,
                 on_failure: object = None, *, lasts: float = 0.0) -> None:
        self.said: list[str] = []
        self.lasts = lasts
        super().__init__(settings, on_failure)  # type: ignore[arg-type]

    def _start(self, utterance: Utterance) -> object:
        self.said.append(utterance.text)
        return threading.Event()

    def _wait(self, handle: object) -> bool:
        assert isinstance(handle, threading.Event)
        handle.wait(self.lasts)
        return True

    def _stop(self, handle: object) -> None:
        assert isinstance(handle, threading.Event)
        handle.set()


class Faulty(Recorder):
    """A backend whose engine raises ``error`` at ``stage``: ``start`` (its
    constructor), ``speak`` (beginning a sentence), ``wait`` (while one is
    said) or ``stop`` (cutting one short)."""

    name = "faulty"

    def __init__(self, stage: str, error: Exception, on_failure: object) -> None:
        if stage == "start":
            raise error
        self.stage, self.error = stage, error
        super().__init__(on_failure=on_failure, lasts=30.0 if stage == "stop" else 0.0)

    def _start(self, utterance: Utterance) -> object:
        if self.stage == "speak":
            raise self.error
        return super()._start(utterance)

    def _wait(self, handle: object) -> bool:
        if self.stage == "wait":
            raise self.error
        return super()._wait(handle)

    def _stop(self, handle: object) -> None:
        super()._stop(handle)
        if self.stage == "stop":
            raise self.error


def wait_for(condition: object, timeout: float = 30.0) -> bool:
    """Until ``condition()`` is true (checked every 10 ms); False at ``timeout``."""
    assert callable(condition)
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@pytest.mark.parametrize("stage", ["start", "speak", "wait", "stop"])
@pytest.mark.parametrize("error", [OSError(5, "Input/output error"),
                                   RuntimeError("engine crashed"), ValueError("bad value")],
                         ids=["OSError", "RuntimeError", "ValueError"])
def test_an_error_of_any_kind_anywhere_gives_way_to_the_next_voice_once(
        stage: str, error: Exception) -> None:
    notices: list[Switched] = []
    made: list[Recorder] = []

    def factory(name: str, settings: VoiceSettings | None, on_failure: object) -> Speech:
        speaker = Faulty(stage, error, on_failure) if name == "faulty" else Recorder(
            settings, on_failure)
        made.append(speaker)
        return speaker

    voice = FallbackSpeaker(("faulty", "recorder"), on_notice=notices.append,
                            factory=factory)
    assert voice.ready(30)
    voice.say("Salmon nigiri.", "en", Priority.IMPORTANT)
    if stage == "stop":
        assert wait_for(lambda: made[0].said == ["Salmon nigiri."])
        voice.interrupt()  # the engine raises in the caller's thread: the caller never sees it
        voice.say("Squid nigiri.", "en", Priority.IMPORTANT)
    assert wait_for(lambda: notices)
    assert voice.idle(30)
    voice.say("Egg nigiri.", "en")
    assert voice.idle(30)
    voice.close()
    assert notices == [Switched("faulty", Cause.FAILED, "recorder")]
    assert voice.name == "recorder"
    recorder = made[-1]
    assert recorder.said[-1] == "Egg nigiri."
    if stage in ("speak", "wait"):  # the sentence that failed is said again by the next voice
        assert recorder.said[0] == "Salmon nigiri."


def test_the_start_never_waits_for_a_voice_and_what_was_said_meanwhile_comes() -> None:
    began, release, finished = threading.Event(), threading.Event(), threading.Event()
    recorder: list[Recorder] = []

    def factory(name: str, settings: VoiceSettings | None, on_failure: object) -> Speech:
        began.set()
        release.wait(60)  # a daemon slow to start
        recorder.append(Recorder(settings, on_failure))
        finished.set()
        return recorder[0]

    voice = FallbackSpeaker(("slow",), factory=factory)
    assert began.wait(30)
    assert not finished.is_set(), "the start waited for the voice"
    assert voice.name == "none" and not voice.ready(0)
    voice.say("an echo", "en")
    voice.say("Round 1: 12 points.", "en", Priority.IMPORTANT)
    voice.say("the newest echo", "en")  # replaces the older echo, as a voice's queue does
    release.set()
    assert voice.ready(30) and voice.idle(30)
    assert recorder[0].said == ["Round 1: 12 points.", "the newest echo"]
    voice.close()


def test_a_voice_not_installed_is_skipped_quietly_unless_it_was_chosen() -> None:
    def factory(name: str, settings: VoiceSettings | None, on_failure: object) -> Speech:
        if name == "speech-dispatcher":
            raise SpeechError("speech-dispatcher is not installed", Cause.NOT_INSTALLED)
        return NoSpeech(settings)

    automatic: list[Switched] = []
    voice = FallbackSpeaker(None, on_notice=automatic.append, factory=factory)
    assert voice.ready(30)
    voice.close()
    assert automatic == []
    chosen: list[Switched] = []
    voice = FallbackSpeaker(("speech-dispatcher",), on_notice=chosen.append, factory=factory)
    assert voice.ready(30)
    voice.close()
    assert chosen == [Switched("speech-dispatcher", Cause.NOT_INSTALLED, None)]


def test_no_voice_installed_at_all_is_said_once() -> None:
    """Nothing of the automatic order is here (a Mac without pyttsx3's
    engine, a Linux desktop without espeak-ng): the player is told once that
    the app only writes, instead of waiting for speech in vain."""
    def factory(name: str, settings: VoiceSettings | None, on_failure: object) -> Speech:
        if name != "none":
            raise SpeechError(f"{name} is not installed", Cause.NOT_INSTALLED)
        return NoSpeech(settings)

    notices: list[Switched] = []
    voice = FallbackSpeaker(None, on_notice=notices.append, factory=factory)
    assert voice.ready(30)
    voice.say("Wasabi.", "en")
    voice.close()
    assert notices == [Switched(NO_VOICE, Cause.NOT_INSTALLED, None)]
    text = switched_text(Catalog.for_language("fr"), notices[0])
    assert "espeak-ng" in text and "No speech" not in text, "said in the player's language"


def test_speech_dispatcher_not_installed_is_said_so(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    (tmp_path / "run").mkdir()
    with pytest.raises(SpeechError) as raised:
        DispatcherSpeaker(environment={"PATH": str(tmp_path / "bin"), "HOME": str(tmp_path),
                                       "XDG_RUNTIME_DIR": str(tmp_path / "run")})
    assert raised.value.cause is Cause.NOT_INSTALLED


def test_a_socket_nobody_answers_on_is_no_answer_at_once(tmp_path: Path) -> None:
    """A socket file left by a daemon that is gone: refused, and, since the
    address was given, no daemon of its own is started."""
    left = tmp_path / "speechd.sock"
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(left))
    listener.close()  # the file stays, nobody listens
    began = time.monotonic()
    with pytest.raises(SpeechError) as raised:
        DispatcherSpeaker(environment={"SPEECHD_ADDRESS": f"unix_socket:{left}"})
    assert raised.value.cause is Cause.NO_ANSWER
    assert time.monotonic() - began < 20


@pytest.fixture(scope="module")
def mute_daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PrivateDispatcher]:
    """The real daemon, with no sound output."""
    daemon = PrivateDispatcher(tmp_path_factory.mktemp("mute"), None)
    yield daemon
    daemon.close()


@pytest.mark.system
def test_a_daemon_with_no_sound_output_gives_way_to_the_next_voice(
        mute_daemon: PrivateDispatcher) -> None:
    notices: list[Switched] = []
    made: list[QueuedSpeaker] = []

    def factory(name: str, settings: VoiceSettings | None, on_failure: object) -> Speech:
        speaker: QueuedSpeaker
        if name == "speech-dispatcher":
            speaker = DispatcherSpeaker(settings, on_failure,  # type: ignore[arg-type]
                                        environment=mute_daemon.environment)
        else:
            speaker = EspeakSpeaker(settings, on_failure, sink="null")  # type: ignore[arg-type]
        made.append(speaker)
        return speaker

    voice = FallbackSpeaker(("speech-dispatcher", "espeak-ng"), on_notice=notices.append,
                            factory=factory)
    assert voice.ready(30) and voice.name == "speech-dispatcher"
    voice.say("Language / Langue / Jazyk / Язык:", "en")
    assert wait_for(lambda: notices, 60), "the daemon's silence was never noticed"
    assert voice.idle(60)
    assert notices == [Switched("speech-dispatcher", Cause.NO_SOUND_OUTPUT, "espeak-ng")]
    assert voice.name == "espeak-ng" and made[1].timings.started > 0  # it said it again
    voice.close()


def group_alive(pid: int) -> bool:
    try:
        os.killpg(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.system
def test_a_daemon_it_had_to_start_ends_with_it_even_stuck(tmp_path: Path) -> None:
    """No daemon for the session: the backend starts its own (reading the
    user's configuration: here, no sound output), and its close ends it and
    its module, stuck as they are."""
    home, run = tmp_path / "home", tmp_path / "run"
    run.mkdir()
    PrivateDispatcher.configure(home / ".config" / "speech-dispatcher", tmp_path / "logs",
                                sound=False)
    failures: list[Cause] = []
    speaker = DispatcherSpeaker(on_failure=failures.append,
                                environment={"HOME": str(home), "XDG_RUNTIME_DIR": str(run)})
    daemon = speaker.own_daemon
    assert daemon is not None and speaker.connected
    assert not (run / "speech-dispatcher" / "speechd.sock").exists()  # its own socket
    speaker.say("Wasabi.", "en")
    assert wait_for(lambda: failures, 60)
    assert failures[0] is Cause.NO_SOUND_OUTPUT
    speaker.close()
    assert daemon.process.poll() is not None
    assert wait_for(lambda: not group_alive(daemon.process.pid), 10), "its module outlived it"
    assert not daemon.folder.exists()


@pytest.mark.system
def test_a_daemon_that_dies_mid_sentence_gives_way_with_one_notice(
        tmp_path: Path) -> None:
    sink = SoundSink(tmp_path / "card")
    daemon = PrivateDispatcher(tmp_path / "speechd", sink)
    notices: list[Switched] = []

    def factory(name: str, settings: VoiceSettings | None, on_failure: object) -> Speech:
        if name == "speech-dispatcher":
            return DispatcherSpeaker(settings, on_failure,  # type: ignore[arg-type]
                                     environment={**sink.environment, **daemon.environment})
        return EspeakSpeaker(settings, on_failure,  # type: ignore[arg-type]
                             environment=sink.environment)

    voice = FallbackSpeaker(("speech-dispatcher", "espeak-ng"), on_notice=notices.append,
                            factory=factory)
    try:
        assert voice.ready(30) and voice.name == "speech-dispatcher"
        before = time.perf_counter()
        voice.say(LONG, "en", Priority.IMPORTANT)
        first = sink.wait_loud(before, 60)
        assert first is not None, "the daemon never sounded"
        os.killpg(daemon.process.pid, signal.SIGKILL)  # the daemon and its module, mid-sentence
        daemon.process.wait(timeout=10)
        assert wait_for(lambda: notices, 30)
        assert voice.ready(30)
        assert notices == [Switched("speech-dispatcher", Cause.DIED, "espeak-ng")]
        killed = time.perf_counter()
        assert sink.wait_loud(killed + 0.5, 60) is not None, "the lost sentence was not said again"
    finally:
        voice.close()
        daemon.close()
        sink.close()


def test_a_voice_held_back_starts_only_when_told() -> None:
    """The app builds its voice, then the announcer a failure is told
    through, then starts the voice: no notice can come before there is
    someone to tell it."""
    tried: list[str] = []
    notices: list[Switched] = []

    def factory(name: str, settings: VoiceSettings | None, on_failure: object) -> Speech:
        tried.append(name)
        raise SpeechError("no such engine here", Cause.NOT_INSTALLED)

    voice = FallbackSpeaker(("espeak-ng",), on_notice=notices.append, factory=factory,
                            start=False)
    voice.say("Wasabi.", "en")
    assert tried == [] and notices == [] and not voice.ready(0)
    voice.start()
    assert voice.ready(30)
    assert tried == ["espeak-ng"]
    assert notices == [Switched("espeak-ng", Cause.NOT_INSTALLED, None)]
    voice.close()


def test_no_speech_notice_comes_after_the_goodbye(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_SPEECH", "none")
    written = io.StringIO()
    face = PlainFace(written)
    speech = SpeechService(face.show)
    talk = Talk(face, Lines(io.StringIO("")), Settings(language="cs"), speech=speech)
    speech._notice(Switched("speech-dispatcher", Cause.NO_ANSWER, "espeak-ng"))
    talk.say_last(info(talk.text("Goodbye.")))
    speech._notice(Switched("espeak-ng", Cause.DIED, None))  # a voice failing as the app ends
    talk.close()
    assert written.getvalue().splitlines() == [
        "Hlas přestal mluvit: speech-dispatcher neodpovídá. Nyní mluví hlas espeak-ng.",
        "Na shledanou."]


@pytest.mark.parametrize(("chosen", "for_the_run", "waits"), [
    ("none", None, False),  # speech off in the settings
    ("auto", "none", False),  # speech off for this run (companion --speech none)
    ("espeak-ng", None, True),  # a voice: its start is waited for, briefly
])
def test_the_plain_face_waits_for_a_voice_only_when_there_is_one(
        monkeypatch: pytest.MonkeyPatch, chosen: str, for_the_run: str | None,
        waits: bool) -> None:
    """The plain face waits a moment at its start for a voice's notice, so
    that a voice missing is told before the first question; with speech
    off there is no voice and the wait is never entered."""
    monkeypatch.delenv("COMPANION_SPEECH", raising=False)
    if for_the_run is not None:
        monkeypatch.setenv("COMPANION_SPEECH", for_the_run)
    waited: list[float] = []
    ready = FallbackSpeaker.ready

    def noted(self: FallbackSpeaker, timeout: float = 30.0) -> bool:
        waited.append(timeout)
        return ready(self, timeout)

    monkeypatch.setattr(FallbackSpeaker, "ready", noted)
    face = PlainFace(io.StringIO())
    speech = SpeechService(face.show)
    talk = Talk(face, Lines(io.StringIO("")), Settings(language="en", speech=chosen),
                speech=speech)
    try:
        assert isinstance(speech.voice.speaker, FallbackSpeaker) is waits
        assert waited == ([NOTICE_BEFORE_QUESTION] if waits else [])
    finally:
        talk.close()


def test_a_stop_asked_just_before_the_wait_is_not_missed() -> None:
    """The worker checks for a stop, then waits for the daemon's news: a stop
    (and its nudge) that came between the two was lost, and the sentence
    played on to its end. The wait now checks under the nudge's lock."""
    connection = ssip.Connection.__new__(ssip.Connection)  # its waiting alone, no daemon
    connection._changed = threading.Condition()
    connection._alive = True
    stop = threading.Event()
    stop.set()  # asked (and nudged) before the wait began
    started = time.monotonic()
    connection.wait_change(30, until=stop.is_set)
    assert time.monotonic() - started < 5, "the wait saw the stop at once"
    stop.clear()

    def stopped() -> None:
        stop.set()
        connection.nudge()

    threading.Timer(0.2, stopped).start()
    connection.wait_change(30, until=stop.is_set)
    assert stop.is_set(), "a nudge during the wait still wakes it"


def test_espeak_ng_with_no_sound_output_fails_with_that_cause(tmp_path: Path) -> None:
    """espeak-ng ends well when it cannot open the sound output, and says
    why on its standard error: found when it is made (it is started once
    with nothing to say), or at the sentence where the output is lost."""
    never = tmp_path / "never"
    never.write_text("#!/bin/sh\necho 'error: No such file or directory' >&2\nexit 0\n")
    lost = tmp_path / "lost"  # the output goes once the first sentence is given
    lost.write_text('#!/bin/sh\ntext=$(cat)\n'
                    'if [ -n "$text" ]; then echo "error: Device or resource busy" >&2; fi\n'
                    'exit 0\n')
    for program in (never, lost):
        program.chmod(0o755)
    with pytest.raises(SpeechError) as refused:
        EspeakSpeaker(program=str(never))
    assert refused.value.cause is Cause.NO_SOUND_OUTPUT
    causes: list[Cause] = []
    speaker = EspeakSpeaker(on_failure=causes.append, program=str(lost))
    speaker.say("Wasabi.", "en")
    assert speaker.idle(10)
    speaker.close()
    assert causes == [Cause.NO_SOUND_OUTPUT]
    EspeakSpeaker(program=str(never), sink="null").close()  # no sound asked for: no check
