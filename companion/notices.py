"""What the app must tell the player about its files, once: a queue of notices.

The store, the journal and the settings find things out (a damaged file
kept aside, a disk that refuses, saving back) where no player can be told:
in the middle of a save, before the journeys begin. They :func:`tell` a
:class:`Notice`; the journeys take the queue (:func:`take_notices`) when
they can say it, and word each notice in the player's language. A notice
may carry numbers (how many games a damaged store gave back), read with
:func:`counts`.

The queue is the process's (every window is a process of its own), safe
from any thread: a save in the journeys' thread and a settings file read
at start both tell it.

>>> _ = take_notices()
>>> tell(Notice.NOT_SAVING); tell(Notice.NOT_SAVING)
>>> tell(Notice.STORE_RECOVERED, recovered=6, lost=1)
>>> take_notices()
[<Notice.NOT_SAVING: 'not-saving'>, <Notice.STORE_RECOVERED: 'store-recovered'>]
>>> take_notices(), counts(Notice.STORE_RECOVERED)
([], {'recovered': 6, 'lost': 1})
"""

from __future__ import annotations

import enum
import threading


class Notice(enum.Enum):
    """What the app must tell the player about its files, once."""

    STORE_DAMAGED = "store-damaged"  # the store was unreadable: a copy kept, a new one begun
    STORE_NEWER = "store-newer"  # written by a newer version: read-only, nothing saved
    GAME_UNREADABLE = "game-unreadable"  # an old journal with no game in it: its file kept
    GAME_DAMAGED = "game-damaged"  # a game's end was damaged: the whole part kept, a copy kept
    STORE_RECOVERED = "store-recovered"  # damaged: a copy kept, what reads copied to a new one
    STORE_LINK = "store-link"  # a link out of the folder: set aside, never written through
    LOG_FOREIGN = "log-foreign"  # a -wal that is not the store's: kept aside, not applied
    GAME_NEWER = "game-newer"  # an old journal of a newer format: kept, not imported
    NOT_SAVING = "not-saving"  # the disk refuses: playing without saving
    SAVING_AGAIN = "saving-again"  # saved again, everything answered with it
    SETTINGS_DAMAGED = "settings-damaged"  # settings unreadable: a copy kept, defaults used
    REGISTRY_DAMAGED = "registry-damaged"  # the scanner's tags unreadable: a copy kept
    REGISTRY_MENDED = "registry-mended"  # some tags wrong: a copy kept, the others kept


_notices: list[Notice] = []
_counts: dict[Notice, dict[str, int]] = {}
_lock = threading.Lock()


def tell(notice: Notice, **counts: int) -> None:
    """Queue a notice for the app to say (each kind once until it is taken),
    with its numbers (the last told are said)."""
    with _lock:
        if notice not in _notices:
            _notices.append(notice)
        if counts:
            _counts[notice] = counts


def take_notices() -> list[Notice]:
    """The notices queued so far, oldest first; the queue is emptied (their
    numbers stay readable with :func:`counts`)."""
    with _lock:
        taken = list(_notices)
        _notices.clear()
    return taken


def counts(notice: Notice) -> dict[str, int]:
    """The numbers last told with a notice (``{}`` if none), such as
    ``recovered`` and ``lost`` for :attr:`Notice.STORE_RECOVERED`."""
    with _lock:
        return dict(_counts.get(notice, {}))
