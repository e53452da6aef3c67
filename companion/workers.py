"""Worker processes that never outlive the process that made them.

``companion simulate --workers N`` and ``companion bench advisor`` play
their games in a pool of processes (:func:`pool`). The app owns them: when
it ends, however it ends, they end too.

- Ended normally, or by an exception (Control C), the pool is left through
  its context manager, which terminates every worker at once: a chunk of
  games still being played is not waited for.
- Killed (``kill -9``, the out-of-memory killer), the app can do nothing.
  So each worker watches its parent from the start: on Linux the kernel
  kills it the moment its parent is gone (``PR_SET_PDEATHSIG``); elsewhere,
  and as a second guard, a thread of the worker sees its parent change
  (``os.getppid``) and ends it within :data:`WATCH_EVERY` seconds.
- Control C (and Control \\) at a terminal reaches every process of the
  foreground group, the workers too: they ignore it (no traceback from
  each of them), and the app, which takes it, ends them. SIGTERM and
  SIGHUP end a worker quietly. The keys' signals are held back while the
  workers are made (they would reach one between its birth and its first
  line, with the app's own handler): the app takes them once they are.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import multiprocessing.pool
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator

from companion.portable import signals

#: How often a worker looks whether its parent is still there, in seconds
#: (where the kernel does not tell it).
WATCH_EVERY = 0.5
#: prctl's option for the signal sent when the parent ends (linux/prctl.h).
PR_SET_PDEATHSIG = 1


#: Signals a worker leaves to the app (the keys'), and those that end it quietly.
LEFT = set(signals("SIGINT", "SIGQUIT"))
QUIET = set(signals("SIGTERM", "SIGHUP"))


@contextlib.contextmanager
def pool(workers: int) -> Iterator[multiprocessing.pool.Pool]:
    """A pool of ``workers`` processes bound to this one, for the block
    (``with pool(4) as p: p.map(...)``), whose end terminates them."""
    held = _mask(_BLOCK, LEFT | QUIET)
    try:
        made = multiprocessing.Pool(workers, initializer=bind_to_parent,
                                    initargs=(os.getpid(),))
    except BaseException:
        _mask(_SETMASK, held)
        raise
    with made:
        _mask(_SETMASK, held)  # one that came is taken now
        yield made


#: Whether this system holds signals back (Windows does not: there a worker
#: is started by a new Python, not forked, and Control C reaches it as a
#: console event, which it ignores once its initializer ran).
_MASKS = hasattr(signal, "pthread_sigmask")
_BLOCK, _UNBLOCK, _SETMASK = (getattr(signal, name, 0) for name in (
    "SIG_BLOCK", "SIG_UNBLOCK", "SIG_SETMASK"))


def _mask(how: int, numbers: set[int]) -> set[int]:
    """``signal.pthread_sigmask`` where there is one."""
    return set(signal.pthread_sigmask(how, numbers)) if _MASKS else set()


def bind_to_parent(parent: int) -> None:
    """In a worker: end when ``parent`` ends, and leave Control C to it."""
    for number in LEFT:
        signal.signal(number, signal.SIG_IGN)
    for number in QUIET:
        signal.signal(number, signal.SIG_DFL)
    _mask(_UNBLOCK, LEFT | QUIET)
    _die_with_parent()
    if os.getppid() != parent:  # it ended before the kernel was told to watch it
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), name="parent-watch", daemon=True).start()


def _die_with_parent() -> None:
    """On Linux, ask the kernel for SIGKILL when the parent ends."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)  # the C library, already loaded
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_EVERY)
    os._exit(1)
