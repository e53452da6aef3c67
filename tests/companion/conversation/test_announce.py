"""Announcements are shown always, spoken as the settings say, and kept."""

from __future__ import annotations

from companion.contract.events import Announcement, Role, reply, result
from companion.conversation.announce import Announcer
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
    shown: list[Announcement] = []
    ear = Ear()
    announcer = Announcer(shown.append, ear, "fr", speak_echoes=False)
    announcer.say(reply("Sushi au saumon."))
    announcer.say(result("Manche 1 : 12 points."))
    assert [a.text for a in shown] == ["Sushi au saumon.", "Manche 1 : 12 points."]
    assert [a.role for a in shown] == [Role.REPLY, Role.RESULT]
    assert ear.heard == [("Manche 1 : 12 points.", Priority.IMPORTANT)]


def test_a_prompt_is_spoken_but_neither_shown_nor_repeated() -> None:
    shown: list[Announcement] = []
    ear = Ear()
    announcer = Announcer(shown.append, ear, "fr")
    announcer.say(reply("Sushi au saumon."))
    announcer.prompt("Votre choix :")
    assert shown == [reply("Sushi au saumon.")]
    assert ear.heard == [("Sushi au saumon.", Priority.ROUTINE),
                         ("Votre choix :", Priority.ROUTINE)]
    assert announcer.repeat() == "Sushi au saumon."  # information, not the question


def test_self_voicing_speaks_everything() -> None:
    ear = Ear()
    announcer = Announcer(lambda announcement: None, ear, "fr")
    announcer.say(reply("Wasabi."))
    assert ear.heard == [("Wasabi.", Priority.ROUTINE)]


def test_repeat_and_history_walk_the_sentences() -> None:
    shown: list[Announcement] = []
    ear = Ear()
    announcer = Announcer(shown.append, ear, "fr")
    assert announcer.repeat() is None and announcer.back() is None
    for text in ("one", "two", "three"):
        announcer.say(reply(text))
    assert announcer.repeat() == "three"
    assert announcer.back() == "two"
    assert announcer.back() == "one"
    assert announcer.back() == "one"  # the oldest stays the oldest
    assert announcer.forward() == "two"
    assert announcer.repeat() == "two"
    assert announcer.forward() == "three"
    assert announcer.forward() == "three"
    assert ear.interrupts == 8  # each repeat cuts what was being said
    assert shown[-1] == reply("three")  # a repeat is the reply to the player's word
    announcer.say(reply("four"))
    assert announcer.back() == "three"
