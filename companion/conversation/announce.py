"""Announcements: every sentence shown, kept in a history, and spoken unless
the player's screen reader already reads it.

The face (and a braille display following it) always gets the sentence.
Speech gets it too, except routine echoes when ``speak_echoes`` is off: a
screen reader already reads what the player types and what appears on the
screen, and hearing it twice is noise. Important sentences (scores,
errors, the scanner lost) are always spoken by a self-voicing app. Prompts
are spoken, but neither shown here (the face shows the question) nor kept:
repeat, back and next step through information.

>>> shown = []
>>> announcer = Announcer(shown.append, NoSpeech(), "en")
>>> announcer.say(reply("Salmon nigiri."))
>>> announcer.say(Announcement("Round 1: 12 points.", Role.RESULT, important=True))
>>> announcer.back(), announcer.repeat()
('Salmon nigiri.', 'Salmon nigiri.')
>>> [a.role.value for a in shown]
['reply', 'result', 'reply', 'reply']
"""

from __future__ import annotations

from collections.abc import Callable

from companion.contract.events import Announcement, Role, reply
from voices.backends import NoSpeech
from voices.base import Priority, Speaker

HISTORY = 200


class Announcer:
    """Shows, remembers and speaks the app's sentences."""

    def __init__(
        self,
        show: Callable[[Announcement], None],
        speaker: Speaker | NoSpeech,
        language: str,
        *,
        speak_echoes: bool = True,
    ) -> None:
        self.show = show
        self.speaker = speaker
        self.language = language
        self.speak_echoes = speak_echoes
        self.history: list[Announcement] = []
        self._position = 0  # where back and forward stand; len(history) = the newest

    def say(self, announcement: Announcement) -> None:
        """Show a sentence, keep it, and speak it if it should be spoken."""
        self.show(announcement)
        self.history.append(announcement)
        del self.history[:-HISTORY]
        self._position = len(self.history)
        self._speak(announcement)

    def _speak(self, announcement: Announcement) -> None:
        if announcement.important or self.speak_echoes:
            priority = Priority.IMPORTANT if announcement.important else Priority.ROUTINE
            self.speaker.say(announcement.text, self.language, priority)

    def prompt(self, text: str) -> None:
        """A question's prompt (or a menu's title and options): spoken, not
        shown here (the face shows the question) and not kept: repeat and
        the history step through information, not questions."""
        self._speak(Announcement(text, Role.PROMPT))

    def interrupt(self) -> None:
        """Stop speaking (new input came)."""
        self.speaker.interrupt()

    def _again(self, text: str) -> str:
        self.show(reply(text))
        self.speaker.interrupt()
        self.speaker.say(text, self.language, Priority.IMPORTANT)
        return text

    def repeat(self) -> str | None:
        """Say again the sentence the history stands on (the last one at first)."""
        if not self.history:
            return None
        index = min(max(self._position, 1), len(self.history)) - 1
        return self._again(self.history[index].text)

    def back(self) -> str | None:
        """Step back through the history and say that sentence."""
        if not self.history:
            return None
        self._position = max(1, self._position - 1)
        return self._again(self.history[self._position - 1].text)

    def forward(self) -> str | None:
        """Step forward through the history and say that sentence."""
        if not self.history:
            return None
        self._position = min(len(self.history), self._position + 1)
        return self._again(self.history[self._position - 1].text)

