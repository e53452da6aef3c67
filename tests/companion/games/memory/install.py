"""Memory installed, and taken away again, as an installer would do it:
its ``*.dist-info`` folder (``installed/``, with its entry_points.txt) put
on ``sys.path``, where ``importlib.metadata`` finds it, and the caches of
the app's registry and of the bridge emptied, so both look again.

tests/companion/games/conftest.py calls these, for the tests of that folder
only.
"""

from __future__ import annotations

import sys
from pathlib import Path

from companion.games import games
from firmware_bridge import vocabulary

#: Where Memory's distribution metadata lies, as an installer would leave it.
INSTALLED = str(Path(__file__).with_name("installed"))


def install() -> None:
    """Memory's entry points found from now on."""
    if INSTALLED not in sys.path:
        sys.path.append(INSTALLED)
    _forget()


def uninstall() -> None:
    """Memory's entry points no longer found."""
    while INSTALLED in sys.path:
        sys.path.remove(INSTALLED)
    _forget()


def _forget() -> None:
    games.cache_clear()
    vocabulary.forget_installed()
