"""What the conversation needs from the world, behind small protocols:
speech, the scanner and the settings.

The composition root (:mod:`companion.app`) builds each service once a
run and gives it to the conversation
(:class:`~companion.conversation.core.Talk`); a test gives its own. The
concrete services are :class:`~companion.conversation.speech.SpeechService`,
:class:`~companion.conversation.scanning.Scanner` and :class:`Kept`.

>>> kept = Kept(Settings(language="fr"), save=lambda settings: None)
>>> kept.language
'fr'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from companion.contract.events import Announcement, SpeechControl
from companion.conversation.announce import Announcer
from companion.i18n import Catalog
from companion.settings import Settings, save_settings
from firmware_bridge.events import InputEvent

if TYPE_CHECKING:
    from firmware_bridge.link import ScannerLink


class Voice(SpeechControl, Protocol):
    """The app's speech, as the conversation uses it."""

    @property
    def voice(self) -> Announcer:
        """What shows, keeps and speaks each sentence."""
        ...

    def configure(self, settings: Settings) -> None:
        """Take the voice, language and echoes of ``settings``."""
        ...

    def say(self, announcement: Announcement) -> None: ...

    def say_last(self, announcement: Announcement) -> None:
        """The run's last sentence: nothing is told after it."""
        ...

    def close(self) -> None: ...


class Listening(Protocol):
    """The NFC scanner, as the conversation uses it."""

    #: The scanner for this run, over the settings' (``None``: theirs).
    override: str | None

    @property
    def link(self) -> ScannerLink | None:
        """The link listening now, if one is."""
        ...

    def choice(self, saved: str) -> str:
        """The scanner of this run, given the settings' ``saved``."""
        ...

    def use(self, choice: str, post: Callable[[InputEvent], None]) -> None:
        """Listen to ``choice`` (empty: stop), its events to ``post``."""
        ...

    def stop(self) -> None: ...

    def news(self, event: InputEvent, catalog: Catalog) -> str | None:
        """What a scanner event (not a card) tells the player, if it is news."""
        ...


class Keeper(Protocol):
    """The settings of the run: those in use now, and keeping them."""

    @property
    def now(self) -> Settings: ...

    @now.setter
    def now(self, settings: Settings) -> None: ...

    @property
    def language(self) -> str: ...

    def save(self, settings: Settings) -> None:
        """Keep ``settings`` for next time; raises :class:`OSError` if the
        disk refuses."""
        ...


class Kept:
    """The settings in use now (a face reads its language as a
    :class:`~companion.contract.events.SettingsView`), kept with ``save``
    (the settings file, by default)."""

    def __init__(self, settings: Settings,
                 save: Callable[[Settings], object] = save_settings) -> None:
        self._now = settings
        self._save = save

    @property
    def now(self) -> Settings:
        return self._now

    @now.setter
    def now(self, settings: Settings) -> None:
        self._now = settings

    @property
    def language(self) -> str:
        return self._now.language

    def save(self, settings: Settings) -> None:
        self._save(settings)
