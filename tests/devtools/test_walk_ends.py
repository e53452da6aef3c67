"""The walk ends whole: told to end (SIGTERM, as a time limit sends) or
killed (SIGKILL, which no clean-up sees), the process that walks leaves
nothing running behind it: not BRLTTY, not Fenrir (nor the processes
Fenrir starts), not the app. (Told to end, it stops them itself; killed,
its keeper does: devtools/atcheck/keeper.py, tested alone in
test_keeper.py.)"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from devtools.atcheck.devices import missing

#: Root, a Linux console, BRLTTY and Fenrir.
pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parents[2]

WALK = """
import sys, time
from pathlib import Path
from devtools.atcheck.walk import Walker
with Walker([sys.executable, "-m", "companion", "--plain"], cols=80, rows=25,
            workdir=Path(sys.argv[1])) as walker:
    walker._start_app()
    assert walker.app is not None
    print(walker.app.pid, flush=True)
    time.sleep(300)
"""


def running(workdir: Path, pids: set[int]) -> list[str]:
    """The processes that name ``workdir`` on their command line, or are
    one of ``pids``: their command lines."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = (entry / "stat").read_text().split(")")[-1].split()[0]
        except OSError:
            continue
        if state != "Z" and (str(workdir) in command or int(entry.name) in pids):
            found.append(f"{entry.name}: {command}")
    return found


@pytest.mark.parametrize("sent", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
def test_a_walk_ended_from_outside_leaves_nothing_running(tmp_path: Path,
                                                          sent: signal.Signals) -> None:
    gaps = missing()
    assert not gaps, "the walk under real assistive technology needs " + ", ".join(gaps)
    walk = subprocess.Popen([sys.executable, "-c", WALK, str(tmp_path)], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert walk.stdout is not None
        app = int(walk.stdout.readline())  # BRLTTY, Fenrir and the app are running
        assert running(tmp_path, {app}), "nothing was started: no test"
        walk.send_signal(sent)
        walk.wait(60)
        deadline = time.monotonic() + 30
        while running(tmp_path, {app}) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not running(tmp_path, {app})
    finally:
        if walk.poll() is None:
            walk.kill()
            walk.wait()
