"""Memory (tests/companion/games/memory/), the tests' third game, installed for the
tests of this folder as any game is: through entry points, read by
``importlib.metadata`` from a ``*.dist-info`` folder on ``sys.path``
(tests/companion/games/memory/installed/). Nothing of the app knows it otherwise.

It is on ``sys.path`` while this folder's tests are collected (so the
contract tests are made for it too) and while each of them runs; the
registry's and the bridge's caches are emptied each time, so the rest of
the suite sees only the games really installed.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.games import games
from firmware_bridge import vocabulary

#: Where Memory's distribution metadata lies, as an installer would leave it.
INSTALLED = str(Path(__file__).with_name("memory") / "installed")


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
    vocabulary._installed.cache_clear()


install()  # for the collection of this folder's tests


def pytest_collection_finish(session: pytest.Session) -> None:
    uninstall()  # the other folders' tests run with the games really installed


@pytest.fixture(autouse=True)
def memory_installed() -> Iterator[None]:
    install()
    yield
    uninstall()
