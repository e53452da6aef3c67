"""What the tests of damaged files and disks share (test_damaged.py,
test_store_damage.py, test_records.py): the app through pipes, a fresh
store and notices for each test, a home with good settings, and the
sentence of a notice.

The fixtures (``fresh``, ``home``) are used by importing them into a test
module: ``fresh_fixture`` and ``home_fixture``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.conversation.journeys import NOTICES
from companion.notices import Notice, take_notices
from companion.store import Store
from tests.drivers import GOOD_SETTINGS, PipedApp


class App(PipedApp):
    """``companion --plain`` in a process of its own, through pipes
    (tests/drivers.py); the file size limit, code of the test's run before
    the app, and the umask as given."""

    def __init__(self, home: Path, *, limit_files: int | None = None, umask: int = -1,
                 prelude: str = "") -> None:
        super().__init__(home, "--plain", limit_files=limit_files, umask=umask,
                         prelude=prelude)


@pytest.fixture(autouse=True, name="fresh")
def fresh_fixture() -> Iterator[None]:
    """No store open and no notice waiting, before and after the test."""
    Store.forget()
    take_notices()
    yield
    Store.forget()
    take_notices()


@pytest.fixture(name="home")
def home_fixture(tmp_path: Path) -> Path:
    """A home whose settings are good (English, no speech)."""
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.toml").write_text(GOOD_SETTINGS)
    return tmp_path


def said(notice: Notice) -> str:
    """The sentence the app says for ``notice``, in English."""
    return NOTICES[notice]
