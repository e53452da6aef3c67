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

import asyncio
import threading
from collections.abc import Callable

from companion.contract.events import Announcement, warning
from companion.conversation.announce import Announcer
from companion.i18n import N_, Catalog
from companion.settings import Settings, speech_for_run
from voices.backends import NoSpeech
from voices.base import Cause, Priority, VoiceSettings
from voices.choose import NO_VOICE, FallbackSpeaker, Switched
from voices.screen_reader import ScreenReaderSpeaker

#: Why a voice stopped, as the player is told, key facts first
#: (``%(voice)s``: the one that stopped). The sound device is the machine's,
#: not a voice's: its notice names no voice, and is told once a run.
SPEECH_CAUSES = {
    Cause.NOT_INSTALLED: N_("No speech: %(voice)s is not installed. "
                            "Install it, or choose another voice in Settings."),
    Cause.NO_SOUND_OUTPUT: N_("Speech stopped: the sound device is not available."),
    Cause.NO_ANSWER: N_("Speech stopped: %(voice)s does not answer."),
    Cause.DIED: N_("Speech stopped: %(voice)s quit unexpectedly."),
    Cause.FAILED: N_("Speech stopped: %(voice)s does not work here."),
}
#: Seconds the start waits for the voice, at most, so that a voice missing
#: (found in a few milliseconds) is told before the first question; a voice
#: slow to start (a daemon) does not hold the question longer.
NOTICE_BEFORE_QUESTION = 0.5


def switched_text(catalog: Catalog, notice: Switched) -> str:
    """A change of voice as the player is told it, in their language, the
    key facts first.

    >>> en = Catalog.for_language("en")
    >>> switched_text(en, Switched("espeak-ng", Cause.NOT_INSTALLED, None))
    'No speech: espeak-ng is not installed. Install it, or choose another voice in Settings.'
    >>> switched_text(en, Switched("speech-dispatcher", Cause.NO_SOUND_OUTPUT, "espeak-ng"))
    'Speech stopped: the sound device is not available.'
    >>> switched_text(en, Switched("pyttsx3", Cause.DIED, None))
    'Speech stopped: pyttsx3 quit unexpectedly. The app will only write.'
    >>> switched_text(en, Switched(NO_VOICE, Cause.NOT_INSTALLED, None))[:52]
    'No speech: no speech engine is installed. Install es'
    >>> switched_text(en, Switched("screen-reader", Cause.NOT_INSTALLED, None))[:56]
    'No speech through a screen reader: none is running. Star'
    """
    if notice.failed == NO_VOICE:
        return catalog.text("No speech: no speech engine is installed. Install espeak-ng, "
                            "or choose in Settings that your screen reader speaks.")
    if notice.failed == ScreenReaderSpeaker.name and notice.cause is Cause.NOT_INSTALLED:
        why = catalog.text("No speech through a screen reader: none is running. Start NVDA "
                           "or JAWS, or choose another voice in Settings.")
        return why if notice.backend is None else " ".join((why, catalog.text(
            "Now speaking with %(voice)s.", voice=notice.backend)))
    why = catalog.text(SPEECH_CAUSES[notice.cause], voice=notice.failed)
    if notice.cause is Cause.NOT_INSTALLED and notice.backend is None:
        return why  # what to do is said already
    if notice.cause is Cause.NO_SOUND_OUTPUT and notice.backend is not None:
        # the next voice plays on the same device: heard if it can be, not promised
        return why
    if notice.backend is None:
        then = catalog.text("The app will only write.")
    else:
        then = catalog.text("Now speaking with %(voice)s.", voice=notice.backend)
    return f"{why} {then}"


def _on_event_loop() -> bool:
    """Whether this thread runs an event loop now (the full screen's).

    >>> _on_event_loop()
    False
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class SpeechService:
    """The voice and the announcer of a run, over what shows a sentence
    (the face's ``show``)."""

    def __init__(self, show: Callable[[Announcement], None], *,
                 speech: str | None = None) -> None:
        self.show = show
        #: The speech of this run over the settings' (the web face's: ``none``,
        #: the player's screen reader speaks), under ``COMPANION_SPEECH``.
        self.run_speech = speech
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
        #: The notices told in this run: the same news is never told twice.
        self._told: set[str] = set()
        #: The sound device was told gone: the voices that fail on it after
        #: the first are not news (only that the app then only writes).
        self._no_sound = False

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
        speech = speech_for_run() or self.run_speech or settings.speech
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
            if not _on_event_loop():  # (the full screen's loop is never held)
                # a voice missing is found in milliseconds: told before the question
                speaker.ready(NOTICE_BEFORE_QUESTION)

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
        game); never after the goodbye, never twice the same news."""
        with self._telling:
            self._failed.add(notice.failed)
            if self._said_last or self.catalog is None:
                return
            said = self._news(notice)
            if said is None or said in self._told:
                return
            self._told.add(said)
            self.show(warning(said))
            if notice.backend is not None:
                self.voice.speaker.say(said, self.catalog.language, Priority.IMPORTANT)

    def _news(self, notice: Switched) -> str | None:
        """What the player is told of ``notice`` (``None``: nothing new)."""
        assert self.catalog is not None
        if notice.cause is not Cause.NO_SOUND_OUTPUT:
            return switched_text(self.catalog, notice)
        if not self._no_sound:
            self._no_sound = True
            return switched_text(self.catalog, notice)
        # the next voice found no sound either: news only when none is left
        return None if notice.backend is not None else self.catalog.text(
            "The app will only write.")

    def close(self) -> None:
        """Stop the voice (its processes end)."""
        if self.announcer is not None:
            self.announcer.speaker.close()
