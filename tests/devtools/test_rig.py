"""The test sound card itself: a player that comes after its test is over
ends at once (an espeak-ng left waiting to open a card nobody reads again
outlived the tests), and one started while it is there is heard."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from devtools.rig import SoundSink

#: The test sound card (gcc, ALSA's headers) and espeak-ng.
pytestmark = pytest.mark.system


def espeak(sink: SoundSink, text: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["espeak-ng", "-v", "en", text], env={**os.environ, **sink.environment},
                          capture_output=True, text=True, timeout=60, check=False)


def test_a_player_after_the_card_is_gone_ends_at_once(tmp_path: Path) -> None:
    sink = SoundSink(tmp_path / "card")
    try:
        espeak(sink, "Wasabi.")
        assert sink.loud_bytes() > 0, "heard while the card is there"
    finally:
        sink.close()
    # before, this waited for ever to open the card (no reader): the timeout raised
    espeak(sink, "Salmon nigiri.")
    assert not (tmp_path / "card" / "sound-card").exists()
