"""The fast loop runs one case of each ``sampled`` family; the full run all.

Collected by the real pytest, in a process of its own, over a test file
whose families are sampled (tests/conftest.py marks the later cases slow).
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLED = "tests/companion/test_damaged.py"


def collected(*marks: str) -> Counter[str]:
    """How many cases of each test of SAMPLED the markers ``marks`` select."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         *marks, SAMPLED],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    ids = [line for line in done.stdout.splitlines() if line.startswith(SAMPLED + "::")]
    return Counter(nid.partition("[")[0] for nid in ids)


def test_the_fast_loop_runs_the_first_case_of_a_sampled_family_and_the_full_run_all() -> None:
    fast = collected("-m", "not slow and not system")
    every = collected("-m", "")
    family = f"{SAMPLED}::test_damaged_settings_are_said_kept_and_mended"
    assert every[family] > 5, every
    assert fast[family] == 1, fast
    # a test that is no family keeps its one case in both
    single = f"{SAMPLED}::test_a_data_folder_that_is_a_file_plays_without_saving"
    assert every[single] == fast[single] == 1, (every, fast)
