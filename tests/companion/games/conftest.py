"""Memory (tests/companion/games/memory/), the tests' third game, installed for the
tests of this folder as any game is: through entry points, read by
``importlib.metadata`` from a ``*.dist-info`` folder on ``sys.path``
(:mod:`tests.companion.games.memory.install`). Nothing of the app knows it otherwise.

It is installed while each collector of this folder collects (so the
contract tests are made for it too, when their module is imported) and
while each of this folder's tests runs, and taken away after each: the
other folders' tests are collected and run with only the games really
installed, in whatever order the folders come.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from pathlib import Path

import pytest

from tests.companion.games.memory.install import install, uninstall

#: This folder: its collectors, and only they, see Memory.
HERE = Path(__file__).parent


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(
        collector: pytest.Collector) -> Generator[None, pytest.CollectReport, pytest.CollectReport]:
    """Memory installed while a collector of this folder collects."""
    if not collector.path.is_relative_to(HERE):
        return (yield)
    install()
    try:
        return (yield)
    finally:
        uninstall()


@pytest.fixture(autouse=True)
def memory_installed() -> Iterator[None]:
    install()
    yield
    uninstall()
