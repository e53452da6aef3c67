"""The walk's keeper (devtools/atcheck/keeper.py), with no console: a walk
killed with SIGKILL leaves nothing running behind it, neither the
processes it started (each a session's leader) nor what those started,
in their session or in one of their own; a walk that ended cleanly says
``end``, and the keeper stops nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

KEEPER = Path(__file__).resolve().parents[2] / "devtools" / "atcheck" / "keeper.py"

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="the keeper reads Linux's /proc")

#: A program a walk started: a session's leader, which starts one process
#: in its session and one in a session of its own, and prints their ids.
STARTED = r"""
import subprocess, sys, time
sleep = [sys.executable, "-c", "import time; time.sleep(120)"]
same = subprocess.Popen(sleep)
own = subprocess.Popen(sleep, start_new_session=True)
print(same.pid, own.pid, flush=True)
time.sleep(120)
"""

#: A walk: the keeper, then the program, its id given to the keeper; then
#: ``end`` if told, else a long wait (to be killed).
WALK = r"""
import subprocess, sys, time
keeper = subprocess.Popen([sys.executable, sys.argv[1]], stdin=subprocess.PIPE,
                          start_new_session=True)
started = subprocess.Popen([sys.executable, "-c", sys.argv[2]], start_new_session=True,
                           stdout=subprocess.PIPE, text=True)
below = started.stdout.readline().split()
keeper.stdin.write(b"%d\n" % started.pid)
if sys.argv[3] == "end":
    keeper.stdin.write(b"end\n")
keeper.stdin.flush()
print(keeper.pid, started.pid, *below, flush=True)
if sys.argv[3] == "end":
    keeper.stdin.close()
    keeper.wait(30)
    print("ended", flush=True)
time.sleep(120)
"""


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def walk(how: str) -> tuple[subprocess.Popen[str], list[int]]:
    process = subprocess.Popen([sys.executable, "-c", WALK, str(KEEPER), STARTED, how],
                               stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    return process, [int(pid) for pid in process.stdout.readline().split()]


def gone(pids: list[int], within: float = 30) -> list[int]:
    """Those of ``pids`` still running after ``within`` seconds at most."""
    deadline = time.monotonic() + within
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return [pid for pid in pids if alive(pid)]


def test_a_walk_killed_leaves_nothing_behind() -> None:
    process, (keeper, started, same, own) = walk("kill")
    try:
        assert all(alive(pid) for pid in (keeper, started, same, own)), "nothing ran: no test"
        process.kill()  # SIGKILL: no clean-up of its own
        process.wait(30)
        assert gone([started, same, own, keeper]) == []
    finally:
        for pid in (started, same, own, keeper):
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_a_walk_that_ended_says_so_and_nothing_is_stopped() -> None:
    process, (keeper, started, same, own) = walk("end")
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "ended"  # the keeper left at once
        assert not alive(keeper)
        assert all(alive(pid) for pid in (started, same, own))  # (the walk stops its own)
    finally:
        process.kill()
        process.wait(30)
        for pid in (started, same, own):
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
