"""No worker outlives the command that started it: ``companion bench
advisor`` and ``companion simulate --workers``, real commands in real
processes, killed with SIGKILL (nothing of theirs can run) or interrupted
with Control C while their workers play."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

#: How long anything here may take on a loaded machine: far more than it needs.
PATIENCE = 120.0

#: Commands that play their games in worker processes, with the workers they make
#: (``bench advisor``: one a core, at most 8), each long enough to be busy when killed.
COMMANDS = {
    "bench-advisor": (["bench", "advisor", "--games", "100000"],
                      max(1, min(os.cpu_count() or 1, 8))),
    "simulate": (["simulate", "--players", "4", "--games", "10000000", "--workers", "3",
                  "--bots", "advisor,greedy,greedy,random"], 3),
}


def children(pid: int) -> dict[int, str]:
    """The processes whose parent is ``pid``, each with its start time (a
    pid used again later is another process)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            stat = (entry / "stat").read_text()
            fields = stat[stat.rindex(")") + 2:].split()
            if int(fields[1]) == pid:
                found[int(entry.name)] = fields[19]
    return found


def running(pid: int, started: str) -> bool:
    """The process is there and not a zombie (an ended process that its
    new parent has not reaped yet has ended all the same)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    fields = stat[stat.rindex(")") + 2:].split()
    return fields[19] == started and fields[0] not in "ZX"


def wait_for(condition: Callable[[], bool], what: str, timeout: float = PATIENCE) -> None:
    """Poll ``condition`` until it holds; fail with ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@contextlib.contextmanager
def command(args: list[str], tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    """The real command in a session of its own; whatever is left of its
    group at the end is killed (so a failing test leaves nothing behind)."""
    env = {**os.environ, "COMPANION_DATA_DIR": str(tmp_path / "data"),
           "COMPANION_CONFIG_DIR": str(tmp_path / "config")}
    process = subprocess.Popen([sys.executable, "-m", "companion", *args],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env, start_new_session=True)
    try:
        yield process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate(timeout=PATIENCE)


def busy_workers(process: subprocess.Popen[bytes], count: int) -> dict[int, str]:
    """Its workers, once all ``count`` of them are there."""
    found: dict[int, str] = {}

    def all_there() -> bool:
        found.clear()
        found.update(children(process.pid))
        return len(found) >= count or process.poll() is not None

    wait_for(all_there, f"{count} workers never started")
    assert process.poll() is None, process.communicate()
    assert len(found) == count, found
    return found


@pytest.mark.parametrize("name", COMMANDS)
def test_workers_end_when_their_command_is_killed(name: str, tmp_path: Path) -> None:
    args, count = COMMANDS[name]
    with command(args, tmp_path) as process:
        workers = busy_workers(process, count)
        os.kill(process.pid, signal.SIGKILL)
        assert process.wait(PATIENCE) == -signal.SIGKILL
        wait_for(lambda: not any(running(pid, started) for pid, started in workers.items()),
                 f"workers still running after their command was killed: {workers}")


@pytest.mark.parametrize("name", COMMANDS)
def test_control_c_ends_the_command_and_its_workers(name: str, tmp_path: Path) -> None:
    """Control C at a terminal reaches the whole foreground group: the
    command ends at once with status 130, its workers with it, and none of
    them writes a traceback."""
    args, count = COMMANDS[name]
    with command(args, tmp_path) as process:
        workers = busy_workers(process, count)
        os.killpg(process.pid, signal.SIGINT)
        out, errors = process.communicate(timeout=PATIENCE)
        assert process.returncode in (130, -signal.SIGINT), errors  # see test_ended.py
        assert b"Traceback" not in errors, errors.decode(errors="replace")
        assert not out
        wait_for(lambda: not any(running(pid, started) for pid, started in workers.items()),
                 f"workers still running after Control C: {workers}")


#: A command whose one worker is bound to it by the watch alone (as where the
#: kernel offers no PR_SET_PDEATHSIG): it prints the worker's pid, then waits.
WATCHED_ONLY = """
import os, sys, time
import companion.workers as workers
workers._die_with_parent = lambda: None
with workers.pool(1) as processes:
    print(processes.apply(os.getpid), flush=True)
    processes.apply_async(time.sleep, (3600,))
    time.sleep(3600)
"""


def test_a_worker_without_the_kernels_help_sees_its_parent_gone(tmp_path: Path) -> None:
    process = subprocess.Popen([sys.executable, "-c", WATCHED_ONLY], stdout=subprocess.PIPE,
                               start_new_session=True)
    try:
        assert process.stdout is not None
        worker = int(process.stdout.readline())
        started = children(process.pid)[worker]
        os.kill(process.pid, signal.SIGKILL)
        process.wait(PATIENCE)
        wait_for(lambda: not running(worker, started), "the worker outlived its parent")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate(timeout=PATIENCE)
