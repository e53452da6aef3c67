"""Announcements: every sentence written, kept in a history, and spoken
unless the player's screen reader already reads it.

The screen (and a braille display following it) always gets the sentence.
Speech gets it too, except routine echoes when ``speak_echoes`` is off: a
screen reader already reads what the player types and what appears on the
status line, and hearing it twice is noise. Important sentences (scores,
errors, the scanner lost) are always spoken by a self-voicing app.

>>> written = []
>>> announcer = Announcer(written.append, NoSpeech(), "en")
>>> announcer.say("Salmon nigiri.")
>>> announcer.say("Round 1: 12 points.", Priority.IMPORTANT)
>>> announcer.back(), announcer.repeat()
('Salmon nigiri.', 'Salmon nigiri.')
"""

from __future__ import annotations

from collections.abc import Callable

from voices.backends import NoSpeech
from voices.base import Priority, Speaker

HISTORY = 200


class Announcer:
    """Writes, remembers and speaks the app's sentences."""

    def __init__(
        self,
        write: Callable[[str], None],
        speaker: Speaker | NoSpeech,
        language: str,
        *,
        speak_echoes: bool = True,
    ) -> None:
        self.write = write
        self.speaker = speaker
        self.language = language
        self.speak_echoes = speak_echoes
        self.history: list[str] = []
        self._position = 0  # where back and forward stand; len(history) = the newest

    def say(self, text: str, priority: Priority = Priority.ROUTINE) -> None:
        """Write a sentence, keep it, and speak it if it should be spoken."""
        self.write(text)
        self.history.append(text)
        del self.history[:-HISTORY]
        self._position = len(self.history)
        if priority is Priority.IMPORTANT or self.speak_echoes:
            self.speaker.say(text, self.language, priority)

    def interrupt(self) -> None:
        """Stop speaking (new input came)."""
        self.speaker.interrupt()

    def _again(self, text: str) -> str:
        self.write(text)
        self.speaker.interrupt()
        self.speaker.say(text, self.language, Priority.IMPORTANT)
        return text

    def repeat(self) -> str | None:
        """Say again the sentence the history stands on (the last one at first)."""
        if not self.history:
            return None
        index = min(max(self._position, 1), len(self.history)) - 1
        return self._again(self.history[index])

    def back(self) -> str | None:
        """Step back through the history and say that sentence."""
        if not self.history:
            return None
        self._position = max(1, self._position - 1)
        return self._again(self.history[self._position - 1])

    def forward(self) -> str | None:
        """Step forward through the history and say that sentence."""
        if not self.history:
            return None
        self._position = min(len(self.history), self._position + 1)
        return self._again(self.history[self._position - 1])
