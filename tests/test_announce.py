"""Announcements are written always, spoken as the settings say, and kept."""

from __future__ import annotations

from companion.announce import Announcer
from voices.base import Priority, VoiceSettings


class Ear:
    """A speaker that notes what it was asked to say (the real ones are tested
    with real engines in tests/voices)."""

    name = "ear"

    def __init__(self) -> None:
        self.settings = VoiceSettings()
        self.heard: list[tuple[str, Priority]] = []
        self.interrupts = 0

    def say(self, text: str, language: str, priority: Priority = Priority.ROUTINE) -> None:
        assert language == "fr"
        self.heard.append((text, priority))

    def interrupt(self) -> None:
        self.interrupts += 1

    def close(self) -> None:
        pass


def test_a_screen_reader_user_hears_no_echo_twice() -> None:
    written: list[str] = []
    ear = Ear()
    announcer = Announcer(written.append, ear, "fr", speak_echoes=False)
    announcer.say("Sushi au saumon.")
    announcer.say("Manche 1 : 12 points.", Priority.IMPORTANT)
    assert written == ["Sushi au saumon.", "Manche 1 : 12 points."]
    assert ear.heard == [("Manche 1 : 12 points.", Priority.IMPORTANT)]


def test_self_voicing_speaks_everything() -> None:
    ear = Ear()
    announcer = Announcer(lambda text: None, ear, "fr")
    announcer.say("Wasabi.")
    assert ear.heard == [("Wasabi.", Priority.ROUTINE)]


def test_repeat_and_history_walk_the_sentences() -> None:
    written: list[str] = []
    ear = Ear()
    announcer = Announcer(written.append, ear, "fr")
    assert announcer.repeat() is None and announcer.back() is None
    for text in ("one", "two", "three"):
        announcer.say(text)
    assert announcer.repeat() == "three"
    assert announcer.back() == "two"
    assert announcer.back() == "one"
    assert announcer.back() == "one"  # the oldest stays the oldest
    assert announcer.forward() == "two"
    assert announcer.repeat() == "two"
    assert announcer.forward() == "three"
    assert announcer.forward() == "three"
    assert ear.interrupts == 8  # each repeat cuts what was being said
    assert written[-1] == "three"
    announcer.say("four")
    assert announcer.back() == "three"
