"""Speech through the running screen reader (voices/screen_reader.py).

NVDA and JAWS run only on Windows, so the screen reader here is a small
stand-in with accessible_output2's interface (``speak(text, interrupt)``,
``silence()``, ``is_active()``) that notes what it is given. What is
checked is the app's side: what it hands over, with which interrupt, that
a slow screen reader never holds the app up, and that one that fails or
quits gives way to the next voice, which says the lost sentence again.
"""

from __future__ import annotations

import threading

import pytest

from tests.voices.test_failures import Recorder, wait_for
from voices.base import Cause, Priority, SpeechError, VoiceSettings
from voices.choose import FallbackSpeaker, Speech, Switched, automatic_order
from voices.screen_reader import ScreenReaderSpeaker, running_outputs


class Reader:
    """A screen reader as accessible_output2 gives it: what it was given,
    each with its interrupt flag (``None``: a silence)."""

    name = "NVDA"

    def __init__(self, *, quits_after: int = -1, raises: Exception | None = None,
                 hold: threading.Event | None = None) -> None:
        self.given: list[tuple[str, bool | None]] = []
        self.quits_after, self.raises, self.hold = quits_after, raises, hold

    def is_active(self) -> bool:
        return self.quits_after < 0 or len(self.given) < self.quits_after

    def speak(self, text: str, interrupt: bool = False) -> None:
        if self.hold is not None:
            assert self.hold.wait(30)
        if self.raises is not None:
            raise self.raises
        self.given.append((text, interrupt))

    def silence(self) -> None:
        self.given.append(("", None))


def speaker(reader: Reader, failures: list[Cause] | None = None) -> ScreenReaderSpeaker:
    return ScreenReaderSpeaker(None, (failures if failures is not None else []).append,
                               outputs=lambda: [reader])


def test_an_echo_is_cut_short_by_what_follows_and_an_important_sentence_is_not() -> None:
    reader = Reader()
    voice = speaker(reader)
    voice.say("Squid nigiri.", "en", Priority.IMPORTANT)
    voice.say("Egg.", "en")  # waits behind the important one
    voice.say("Salmon.", "en")  # cuts the echo before it short
    voice.say("Maki: 6 points.", "en", Priority.IMPORTANT)  # and so does this
    voice.say("Tempura.", "en")
    voice.interrupt()
    voice.say("Wasabi.", "en")
    assert voice.idle(30)
    voice.close()
    assert reader.given == [("Squid nigiri.", False), ("Egg.", False), ("Salmon.", True),
                            ("Maki: 6 points.", True), ("Tempura.", False), ("", None),
                            ("Wasabi.", False)]


def test_nothing_to_say_is_not_handed_over() -> None:
    reader = Reader()
    voice = speaker(reader)
    voice.say(" \x07 ", "en")
    assert voice.idle(30)
    voice.close()
    assert reader.given == []


def test_a_slow_screen_reader_never_holds_the_app_up() -> None:
    hold = threading.Event()
    reader = Reader(hold=hold)
    voice = speaker(reader)
    for word in ("One.", "Two.", "Three."):
        voice.say(word, "en", Priority.IMPORTANT)  # returns while the reader is held
    assert reader.given == [] and not voice.idle(0)
    hold.set()
    assert voice.idle(30)
    voice.close()
    assert [text for text, _ in reader.given] == ["One.", "Two.", "Three."]


def test_no_screen_reader_running_cannot_start() -> None:
    with pytest.raises(SpeechError) as refused:
        ScreenReaderSpeaker(outputs=lambda: [])
    assert refused.value.cause is Cause.NOT_INSTALLED


def test_elsewhere_than_windows_no_screen_reader_is_looked_for() -> None:
    assert running_outputs("linux") == running_outputs("darwin") == []
    assert "screen-reader" not in automatic_order("win32")
    assert "screen-reader" not in automatic_order("linux")


@pytest.mark.parametrize("reader, cause", [
    (Reader(raises=OSError(5, "RPC server unavailable")), Cause.FAILED),
    (Reader(quits_after=1), Cause.DIED),
], ids=["raises", "quits"])
def test_a_screen_reader_that_fails_gives_way_and_the_sentence_is_said_again(
        reader: Reader, cause: Cause) -> None:
    notices: list[Switched] = []
    made: list[Speech] = []

    def factory(name: str, settings: VoiceSettings | None, on_failure: object) -> Speech:
        made.append(ScreenReaderSpeaker(settings, on_failure,  # type: ignore[arg-type]
                                        outputs=lambda: [reader] if reader.is_active() else [])
                    if name == "screen-reader" else Recorder(settings, on_failure))
        return made[-1]

    voice = FallbackSpeaker(("screen-reader", "recorder"), on_notice=notices.append,
                            factory=factory)
    assert voice.ready(30)
    voice.say("Salmon nigiri.", "en", Priority.IMPORTANT)
    assert wait_for(lambda: voice.name == "recorder")
    assert voice.idle(30)
    voice.close()
    recorder = made[-1]
    assert isinstance(recorder, Recorder) and recorder.said == ["Salmon nigiri."]
    # quit: started again, found gone, and the next voice took over, said once
    assert notices == [Switched("screen-reader", cause, "recorder")]
