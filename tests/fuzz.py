"""How long the fuzz tests run (the tests marked ``fuzz``: long seeded or
generated input).

The full command, scripts/test.sh, runs them whole (it sets
``COMPANION_FUZZ=full``); any other run, the fast loop first, runs a tenth
of their examples or seeds, so that the loop stays within minutes. The
inputs still come from the same seeds: a failure of the short run fails the
whole one too.
"""

from __future__ import annotations

import os

#: Whether this run is a whole one (``COMPANION_FUZZ=full``).
FULL = os.environ.get("COMPANION_FUZZ") == "full"


def examples(whole: int, *, full: bool = FULL) -> int:
    """How many examples or seeds to run of ``whole``: all of them in a full
    run, else a tenth (at least one).

    >>> examples(40_000, full=True), examples(40_000, full=False), examples(6, full=False)
    (40000, 4000, 1)
    """
    return whole if full else max(1, whole // 10)
