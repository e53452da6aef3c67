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
"""

from __future__ import annotations

import os
import shutil

os.environ.setdefault("COMPANION_SPEECH", "espeak-ng" if shutil.which("espeak-ng") else "none")
