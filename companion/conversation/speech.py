"""The app's speech for a run: the voice the settings choose, started once,
and the announcer that shows, keeps and speaks what is said.

:class:`SpeechService` is the service the conversation talks through. It builds
the speaker from the settings (``auto``: the first backend that works,
a backend by name, ``none``: the screen reader speaks), retunes it when
only the voice's speed, pitch or volume change, and tells the player, once
and as it happens, that a voice stopped and which took over
(:func:`switched_text`), never after the goodbye. A face holds it only as
a :class:`~companion.contract.events.SpeechControl`: it may stop speech at
once when the player acts, from its own thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from companion.contract.events import Announcement, warning
from companion.conversation.announce import Announcer
from companion.i18n import N_, Catalog
from companion.settings import Settings, speech_for_run
from voices.backends import NoSpeech
from voices.base import Cause, Priority, VoiceSettings
from voices.choose import NO_VOICE, FallbackSpeaker, Switched

#: Why a voice stopped, as the player is told (``%(voice)s``: the one that stopped).
SPEECH_CAUSES = {
    Cause.NOT_INSTALLED: N_("Speech through %(voice)s cannot start: it is not installed."),
    Cause.NO_SOUND_OUTPUT: N_("Speech through %(voice)s stopped: there is no sound output."),
    Cause.NO_ANSWER: N_("Speech through %(voice)s stopped: it did not answer in time."),
    Cause.DIED: N_("Speech through %(voice)s stopped: it quit."),
    Cause.FAILED: N_("Speech through %(voice)s stopped: it failed."),
}


def switched_text(catalog: Catalog, notice: Switched) -> str:
    """A change of voice as the player is told it, in their language.

    >>> switched_text(Catalog.for_language("en"),
    ...               Switched("espeak-ng", Cause.NO_SOUND_OUTPUT, "pyttsx3"))
    'Speech through espeak-ng stopped: there is no sound output. Now speaking with pyttsx3.'
    >>> switched_text(Catalog.for_language("en"), Switched("pyttsx3", Cause.FAILED, None))
    'Speech through pyttsx3 stopped: it failed. The app will only write.'
    >>> switched_text(Catalog.for_language("en"),
    ...               Switched(NO_VOICE, Cause.NOT_INSTALLED, None))[:50]
    'No speech engine is installed here: the app only w'
    """
    if notice.failed == NO_VOICE:
        return catalog.text("No speech engine is installed here: the app only writes. "
                            "Install espeak-ng to hear it, or choose in the settings that your "
                            "screen reader speaks.")
    why = catalog.text(SPEECH_CAUSES[notice.cause], voice=notice.failed)
    if notice.backend is None:
        then = catalog.text("The app will only write.")
    else:
        then = catalog.text("Now speaking with %(voice)s.", voice=notice.backend)
    return f"{why} {then}"


class SpeechService:
    """The voice and the announcer of a run, over what shows a sentence
    (the face's ``show``)."""

    def __init__(self, show: Callable[[Announcement], None]) -> None:
        self.show = show
        self.announcer: Announcer | None = None
        self.catalog: Catalog | None = None
        #: The speech chosen for the voice now (``auto``, a backend, ``none``).
        self._speech: str | None = None
        #: The voices that failed in this run: the automatic order leaves them out.
        self._failed: set[str] = set()
        #: Held while a speech notice or the last sentence is told: no notice
        #: comes after the goodbye.
        self._telling = threading.Lock()
        self._said_last = False

    @property
    def voice(self) -> Announcer:
        """The announcer (once :meth:`configure` has made it)."""
        assert self.announcer is not None, "speech is not configured yet"
        return self.announcer

    def configure(self, settings: Settings) -> None:
        """Take these settings: the voice, its language, and what is spoken.
        The same voice is retuned, never started twice (nor told twice)."""
        self.catalog = Catalog.for_language(settings.language)
        voice = VoiceSettings(None, settings.rate, settings.pitch, settings.volume)
        speech = speech_for_run() or settings.speech
        order = None if speech == "auto" else (speech,)
        speaker = self.announcer.speaker if self.announcer is not None else None
        if isinstance(speaker, FallbackSpeaker) and speech == self._speech:
            speaker.retune(voice)  # the same voice, started once a run (and told once)
        else:
            if speaker is not None:
                speaker.close()
            speaker = NoSpeech() if speech == "none" else FallbackSpeaker(
                order, voice, on_notice=self._notice, skip=self._failed, start=False)
        self._speech = speech
        self.announcer = Announcer(self.show, speaker, settings.language,
                                   speak_echoes=settings.speak_echoes)
        if isinstance(speaker, FallbackSpeaker):
            speaker.start()  # a failure is told through this announcer's voice

    def interrupt(self) -> None:
        """Stop speaking now (from any thread); nothing to stop before the
        voice is made."""
        announcer = self.announcer
        if announcer is not None:
            announcer.interrupt()

    def say(self, announcement: Announcement) -> None:
        self.voice.say(announcement)

    def say_last(self, announcement: Announcement) -> None:
        """The run's last sentence (its goodbye): nothing is told after it."""
        with self._telling:
            self._said_last = True
            self.say(announcement)

    def _notice(self, notice: Switched) -> None:
        """Speech failed and another voice (or none) took over: shown once,
        as it happens (from the speech's thread), and spoken by the voice
        that took over (the history keeps it not: it is no news of the
        game); never after the goodbye."""
        with self._telling:
            self._failed.add(notice.failed)
            if self._said_last or self.catalog is None:
                return
            said = switched_text(self.catalog, notice)
            self.show(warning(said))
            if notice.backend is not None:
                self.voice.speaker.say(said, self.catalog.language, Priority.IMPORTANT)

    def close(self) -> None:
        """Stop the voice (its processes end)."""
        if self.announcer is not None:
            self.announcer.speaker.close()
