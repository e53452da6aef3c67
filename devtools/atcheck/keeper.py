"""The walk's keeper: a process of its own, in a session of its own, that
outlives the walk's process and stops what the walk started once the walk
is gone, however it went (SIGKILL too, which no clean-up of the walk's
own sees).

It reads lines on its standard input: a process id the walk started (each
its own session's leader: :func:`devtools.atcheck.devices.outlived_never`),
or ``end`` once the walk stopped them all itself. While it waits it notes,
twice a second, every process of those sessions and every process they
started (a program may start one in a new session of its own); when its
input ends without ``end`` (the walk's process died: the kernel closed
the pipe), it stops every one it noted that is still the same process (its
start time unchanged: a process id used again is another's): SIGTERM,
then SIGKILL after five seconds.

Standard library only, run by its path: it imports nothing of the project.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import time
from pathlib import Path

#: How long the processes have, after SIGTERM, before SIGKILL.
GRACE = 5.0

#: How often the processes are noted while the walk runs.
LOOK = 0.5


def stat(pid: int) -> tuple[int, int, int] | None:
    """A process's parent, session and start time (None: gone, or a zombie)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    if fields[0] == "Z":
        return None
    return int(fields[1]), int(fields[3]), int(fields[19])


def processes() -> dict[int, tuple[int, int, int]]:
    """Every process of the machine: its parent, session and start time."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            info = stat(int(entry.name))
            if info is not None:
                found[int(entry.name)] = info
    return found


def note(sessions: set[int], noted: dict[int, int]) -> None:
    """Add to ``noted`` (process id: start time) every process of
    ``sessions`` and every process a noted one started."""
    every = processes()
    changed = True
    while changed:
        changed = False
        for pid, (parent, session, started) in every.items():
            if pid not in noted and (session in sessions or parent in noted):
                noted[pid] = started
                changed = True


def stop(noted: dict[int, int]) -> None:
    """SIGTERM to each noted process that is still the same, then SIGKILL
    to those left after :data:`GRACE` seconds."""
    for sent in (signal.SIGTERM, signal.SIGKILL):
        alive = [pid for pid, started in noted.items()
                 if (info := stat(pid)) is not None and info[2] == started]
        for pid in alive:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, sent)
        deadline = time.monotonic() + GRACE
        while sent == signal.SIGTERM and alive and time.monotonic() < deadline:
            time.sleep(0.1)
            alive = [pid for pid in alive
                     if (info := stat(pid)) is not None and info[2] == noted[pid]]
        if not alive:
            return


def main() -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # (a ^C to the walk is the walk's)
    sessions: set[int] = set()
    noted: dict[int, int] = {}
    pending = b""
    while True:
        ready, _, _ = select.select([0], [], [], LOOK)
        if ready:
            chunk = os.read(0, 4096)
            if not chunk:
                break  # the walk is gone
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                if line.strip() == b"end":
                    return 0
                pid = int(line) if line.strip().isdigit() else 0
                info = stat(pid) if pid > 1 else None
                if info is not None and info[1] == pid:  # a session's leader only
                    sessions.add(pid)
        if sessions:
            note(sessions, noted)
    note(sessions, noted)
    stop(noted)
    return 0


if __name__ == "__main__":
    sys.exit(main())
