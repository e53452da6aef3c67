"""What every test of the suite shares.

The app's own speech is espeak-ng in the tests (``COMPANION_SPEECH``, as
``companion --speech`` sets it), unless a test chooses another: with
"auto", a machine whose speech-dispatcher cannot reach a sound server
(no PulseAudio, as on a test machine) says that speech-dispatcher has no
sound output and moves to espeak-ng, a sentence the screens under test
would show. The speech
tests (tests/voices/) drive each backend themselves, on a test sound
card, and the real daemon with its own configuration.

Where espeak-ng is not installed (the fast loop, run by any user with the
Python packages alone: docs/development.md) the app's speech is "none"
instead: the screens under test are the same ones, with no sentence about
a voice that cannot start. Nothing is skipped for it: the tests that need
espeak-ng are marked ``system`` and fail where it is missing, and
scripts/test.sh installs it.

A test marked ``sampled`` is a family of cases (seeds, signals, damages,
moments) where one case shows the code works and the rest show it holds:
the fast loop runs its first case, and every other case is marked
``slow`` here, so scripts/test.sh runs them all.
"""

from __future__ import annotations

import os
import shutil

import pytest

os.environ.setdefault("COMPANION_SPEECH", "espeak-ng" if shutil.which("espeak-ng") else "none")


@pytest.hookimpl(tryfirst=True)  # before the markers choose what runs
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every case of a ``sampled`` test but its first is ``slow``."""
    first: set[str] = set()
    for item in items:
        if item.get_closest_marker("sampled") is None:
            continue
        family = item.nodeid.partition("[")[0]
        if family in first:
            item.add_marker(pytest.mark.slow)
        else:
            first.add(family)
