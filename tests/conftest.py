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
a voice that cannot start. Speech plays into ALSA's null device
(``ALSA_CONFIG_PATH``, tests/null-sound-card.conf) unless a test gives
another: a test machine's missing sound card is not news on every screen.
Nothing is skipped for it: the tests that need espeak-ng are marked
``system`` and fail where it is missing, and scripts/test.sh installs it.

A test marked ``sampled`` is a family of cases (seeds, signals, damages,
moments) where one case shows the code works and the rest show it holds:
the fast loop runs its first case, and every other case is marked
``slow`` here, so scripts/test.sh runs them all.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

os.environ.setdefault("COMPANION_SPEECH", "espeak-ng" if shutil.which("espeak-ng") else "none")
#: A sound output for the tests that choose none (a test machine often has
#: no sound card: espeak-ng would say so, and the app would tell it on
#: every screen): ALSA's null device. The speech tests choose their own (a
#: test sound card, a missing one).
NULL_SOUND_CARD = Path(__file__).with_name("null-sound-card.conf")
os.environ.setdefault("ALSA_CONFIG_PATH", str(NULL_SOUND_CARD))


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
