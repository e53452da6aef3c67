"""The NFC scanner of a run: its link started and stopped, and its news
worded once.

:class:`Scanner` is the service the conversation listens to the scanner
through. The link (:class:`firmware_bridge.link.ScannerLink`, in a thread
of its own) posts its cards and news into the inbox, in the order they
come, beside the lines typed. The link retries every few seconds: the same
problem is said once (lost scans and device errors every time: scans were
lost).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from companion.conversation.scanner_news import (
    scanner_found_text,
    scanner_lost_text,
    scanner_problem_text,
)
from companion.i18n import Catalog
from firmware_bridge.events import (
    CardRefused,
    InputEvent,
    ScannerFound,
    ScannerIssue,
    ScannerLost,
    ScannerProblem,
)

if TYPE_CHECKING:
    from firmware_bridge.link import ScannerLink

#: Scanner problems that are news every time they come (scans were lost).
REPORTED_EACH_TIME = frozenset({ScannerIssue.LOST_SCANS, ScannerIssue.DEVICE_ERROR})


class Scanner:
    """The scanner's link and news. ``override``: the scanner for this run,
    over the settings' (``companion --scanner``; ``None``: the settings')."""

    def __init__(self, override: str | None = None) -> None:
        self.override = override
        self.link: ScannerLink | None = None
        self._last_problem: str | None = None

    def choice(self, saved: str) -> str:
        """The scanner of this run: ``--scanner``'s, else ``saved`` (the settings').

        >>> Scanner().choice("auto"), Scanner("").choice("auto")
        ('auto', '')
        """
        return saved if self.override is None else self.override

    def use(self, choice: str, post: Callable[[InputEvent], None]) -> None:
        """Listen to the NFC scanner, its events given to ``post``: ``auto``
        finds it, ``virtual`` is the one ``firmware-bridge simulate`` starts,
        anything else is its port; an empty choice stops listening."""
        self.stop()
        if not choice:
            return
        from firmware_bridge.link import ScannerLink  # noqa: PLC0415 - pyserial when used
        from firmware_bridge.virtual import default_link  # noqa: PLC0415

        port = {"auto": None, "virtual": str(default_link())}.get(choice, choice)
        self.link = ScannerLink(port, post).start()

    def stop(self) -> None:
        """Stop listening (nothing happens if it was not)."""
        if self.link is not None:
            self.link.stop()
            self.link = None
        self._last_problem = None

    def news(self, event: InputEvent, catalog: Catalog) -> str | None:
        """What the scanner's ``event`` (not a card) tells the player, if
        it is news."""
        if isinstance(event, ScannerFound):
            self._last_problem = None
            return scanner_found_text(catalog, again=event.again)
        if isinstance(event, ScannerLost):
            return scanner_lost_text(catalog)
        if isinstance(event, ScannerProblem):
            said = scanner_problem_text(catalog, event)
            news = said != self._last_problem or event.kind in REPORTED_EACH_TIME
            self._last_problem = said
            return said if news else None
        if isinstance(event, CardRefused):
            return catalog.text("%(text)s is not a card: %(reason)s.", text=event.text,
                                reason=event.reason.rstrip("."))
        return None
