"""What every test of the suite shares.

The app's own speech is espeak-ng in the tests (``COMPANION_SPEECH``, as
``companion --speech`` sets it), unless a test chooses another: with
"auto", a machine whose speech-dispatcher cannot reach a sound server
(no PulseAudio, as on a test machine) says that speech-dispatcher has no
sound output and moves to espeak-ng, a sentence the screens under test
would show. The speech
tests (tests/voices/) drive each backend themselves, on a test sound
card, and the real daemon with its own configuration.
"""

from __future__ import annotations

import os

os.environ.setdefault("COMPANION_SPEECH", "espeak-ng")
