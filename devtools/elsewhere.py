"""The app as it runs on Windows or macOS, as far as this Linux machine can show it.

``python -m devtools.elsewhere SYSTEM companion ARGS...`` runs the app's
command, and ``python -m devtools.elsewhere SYSTEM pytest ARGS...`` runs tests,
in a Python made to look like that system (``win32`` or ``darwin``) from the
app's side (:func:`pretend`):

- ``sys.platform`` says it, and ``platform.system()`` too. The standard
  library's modules that choose their own platform's parts when they are
  imported (:data:`FIRST`) are imported before, as Linux's: they cannot run
  Windows' parts here.
- On Windows: the POSIX-only modules cannot be imported
  (:data:`WINDOWS_LACKS_MODULES`); ``os``, ``signal`` and ``select`` lose
  what Windows' Python does not have; ``select.select`` and
  ``signal.set_wakeup_fd`` take sockets only, as there; asyncio's loops
  refuse signal handlers, as Windows' do; ``msvcrt`` is a small stand-in
  (:func:`_msvcrt`): the console's keys (``getwch``, ``kbhit``: the
  standard input, the terminal in character mode with its signals kept,
  which is what Windows' console gives ``getwch``) and ``locking`` (byte
  ranges, over the real locks). There is no ``winreg``, and ``ctypes`` has
  no ``windll``, so libraries fall back as they do on a Windows without
  them: platformdirs reads ``APPDATA`` and ``LOCALAPPDATA``, as it does
  where it cannot ask Windows itself (through ``ctypes``, which it is not
  let use here). Textual's Windows driver, which needs Windows' console,
  is a stand-in that says so when started (:func:`_textual_stand_in`):
  the full screen runs here in Textual's test mode, driven by keys.
- pyserial picks its backend by ``os.name`` (Windows': ctypes and the
  system's own calls), so its POSIX one stands in: the app's own scanner
  code runs, not Windows' serial ports. click (uvicorn's) is imported
  as Linux's too: its Windows console code needs ``ctypes.windll``.
  Windows' default event loop (``asyncio.ProactorEventLoop``, which
  uvicorn picks there) is Linux's selector loop.
- Worker processes start as on both systems: a new Python each (spawn),
  never a fork. (Those Pythons are this machine's, not pretending.)
- On macOS: Linux's own parts are gone (``epoll``, ``sched_getaffinity``,
  ``pipe2`` ...), and ``select.poll`` reports a terminal as invalid, as
  macOS's poll does.

What it cannot show: anything of the system itself (its console, its
speech, its file locks' exact rules). docs/development.md lists what a
tester checks by hand on each.
"""

from __future__ import annotations

import contextlib
import importlib
import multiprocessing
import os
import platform
import select
import signal
import stat
import sys
import sysconfig
import types
from collections.abc import Callable, Sequence
from typing import Any

#: The systems this can pretend to be.
SYSTEMS = {"win32": "Windows", "darwin": "Darwin"}

#: Standard modules that pick their platform's parts when imported: imported
#: first, as Linux's.
FIRST = ("asyncio", "subprocess", "multiprocessing", "multiprocessing.pool",
         "multiprocessing.connection", "multiprocessing.spawn", "multiprocessing.popen_fork",
         "multiprocessing.popen_spawn_posix", "multiprocessing.resource_tracker",
         "multiprocessing.synchronize", "multiprocessing.queues", "concurrent.futures",
         "selectors", "shutil", "tempfile", "socket", "ssl", "uuid", "mimetypes", "getpass",
         "ctypes", "ctypes.util",
         "locale", "sqlite3", "pathlib", "http.server", "urllib.request", "webbrowser",
         "logging.handlers", "socketserver", "wave", "zipfile", "importlib.metadata",
         "sysconfig", "serial", "serial.tools.list_ports", "click")

#: The packages of :data:`FIRST` that go on as Linux's (not the import system).
_TOPS = {first.split(".")[0] for first in FIRST} - {"importlib"}
#: The test runner's packages: Linux's, as the standard library is.
RUNNER = ("pytest", "_pytest", "pluggy", "iniconfig", "py", "hypothesis",
          "_hypothesis_pytestplugin", "sortedcontainers", "attr")
#: Modules Windows' Python does not have.
WINDOWS_LACKS_MODULES = ("fcntl", "termios", "tty", "pty", "resource", "grp", "pwd",
                         "curses", "_curses", "readline", "syslog", "crypt", "spwd", "nis",
                         "posix")
#: ``os`` names Windows' Python 3.11 does not have.
WINDOWS_LACKS_OS = (
    "getuid", "geteuid", "getgid", "getegid", "getgroups", "setuid", "setgid", "fork",
    "forkpty", "openpty", "ttyname", "ctermid", "killpg", "setsid", "getsid", "getpgrp",
    "getpgid", "setpgid", "tcgetpgrp", "tcsetpgrp", "mkfifo", "mknod", "chown", "lchown",
    "fchown", "fchmod", "lchmod", "sync", "statvfs", "fstatvfs", "getloadavg",
    "sched_getaffinity", "uname", "set_blocking", "get_blocking", "pipe2", "lockf", "nice",
    "pread", "pwrite", "sendfile",
    "O_NOFOLLOW", "O_DIRECTORY", "O_NONBLOCK", "O_NOCTTY", "O_CLOEXEC", "O_SYNC", "O_DSYNC",
    "memfd_create", "eventfd", "posix_fadvise", "posix_fallocate", "getpriority",
    "setpriority", "major", "minor", "makedev")
#: The signals Windows has.
WINDOWS_SIGNALS = {"SIGABRT", "SIGFPE", "SIGILL", "SIGINT", "SIGSEGV", "SIGTERM"}
#: ``signal`` functions Windows does not have.
WINDOWS_LACKS_SIGNAL = ("alarm", "pause", "setitimer", "getitimer", "siginterrupt",
                        "pthread_sigmask", "pthread_kill", "sigpending", "sigwait",
                        "sigwaitinfo", "sigtimedwait", "SIG_BLOCK", "SIG_UNBLOCK",
                        "SIG_SETMASK", "ITIMER_REAL", "ITIMER_VIRTUAL", "ITIMER_PROF")
#: ``os`` and ``select`` names macOS does not have (Linux's own).
DARWIN_LACKS_OS = ("sched_getaffinity", "sched_setaffinity", "pipe2", "memfd_create",
                   "eventfd", "posix_fadvise", "posix_fallocate", "O_DIRECT", "O_PATH",
                   "O_TMPFILE", "O_NOATIME", "getresuid", "getresgid", "splice")
DARWIN_LACKS_SELECT = ("epoll", "EPOLLIN", "EPOLLOUT")


def pretend(system: str, keep: Sequence[str] = ()) -> None:
    """Make this Python look like ``system`` (a key of :data:`SYSTEMS`) to
    what is imported from now on; the packages of ``keep`` (imported
    already: the test runner) go on as Linux's."""
    for name in FIRST:
        importlib.import_module(name)
    sysconfig.get_config_vars()  # read once, as Linux's
    # Worker processes are started as Windows and macOS start them: a new
    # Python each, given what it runs by pickle (never forked).
    multiprocessing.set_start_method("spawn", force=True)
    kept = {name: module for name, module in sys.modules.items()
            if module is not None and name.split(".")[0] in _TOPS | set(keep)}
    real_os = dict(vars(os))
    real_signal = dict(vars(signal))
    real_select = dict(vars(select))
    sys.platform = system
    platform.system = lambda: SYSTEMS[system]
    if system == "win32":
        _windows()
    else:
        _darwin()
    # The standard library's modules imported before stand for the system's
    # own, which need nothing of what is taken away: they go on as Linux's.
    linux = _Linux(sys, {"platform": "linux"})
    whole_os, whole_signal = _Linux(os, real_os), _Linux(signal, real_signal)
    whole_select = _Linux(select, real_select)
    for module in kept.values():
        for name, whole in (("sys", linux), ("os", whole_os), ("_os", whole_os),
                            ("signal", whole_signal), ("select", whole_select)):
            if vars(module).get(name) in (sys, os, signal, select):
                setattr(module, name, whole)


class _Linux:
    """A module as Linux's: its names, with those of ``kept`` as they were."""

    def __init__(self, module: types.ModuleType, kept: dict[str, Any]) -> None:
        self._module, self._kept = module, kept

    def __getattr__(self, name: str) -> Any:
        if name in self._kept:
            return self._kept[name]
        return getattr(self._module, name)


def _remove(module: types.ModuleType, names: Sequence[str]) -> None:
    for name in names:
        with contextlib.suppress(AttributeError):
            delattr(module, name)


def _windows() -> None:
    import asyncio.unix_events  # noqa: PLC0415 - imported before the pretence
    import fcntl  # noqa: PLC0415 - kept for the stand-in's locks, then blocked
    import termios  # noqa: PLC0415

    real_select = select.select
    real_wakeup = signal.set_wakeup_fd
    for name in WINDOWS_LACKS_MODULES:
        sys.modules[name] = None  # type: ignore[assignment]  # import raises ImportError
    sys.modules["msvcrt"] = _msvcrt(fcntl, termios, real_select)
    sys.modules["winreg"] = None  # type: ignore[assignment]
    # platformdirs asks Windows for its folders through ctypes where it can
    # be imported, else reads APPDATA and LOCALAPPDATA: so here. Its older
    # releases (4.0) import ctypes first and then look for ctypes.windll,
    # which this one lacks: the same end.
    real_ctypes = sys.modules.pop("ctypes")
    sys.modules["ctypes"] = None  # type: ignore[assignment]
    try:
        importlib.import_module("platformdirs.windows")
    except ImportError:
        sys.modules["ctypes"] = real_ctypes
        importlib.import_module("platformdirs.windows")
    sys.modules["ctypes"] = real_ctypes
    _remove(os, WINDOWS_LACKS_OS)
    _remove(signal, [name for name in dir(signal)
                     if name.startswith("SIG") and not name.startswith("SIG_")
                     and name not in WINDOWS_SIGNALS])
    _remove(signal, WINDOWS_LACKS_SIGNAL)
    signal.SIGBREAK = 21  # type: ignore[attr-defined]
    _remove(select, ("poll", "epoll", "devpoll", "kqueue", "POLLIN", "POLLHUP", "POLLERR",
                     "POLLNVAL", "POLLOUT", "POLLPRI"))

    def sockets_only(*lists: Any, **kwargs: Any) -> Any:
        for watched in lists[:3]:
            for item in watched:
                if not _is_socket(item):
                    raise OSError(10038, "An operation was attempted on something that "
                                         "is not a socket")
        return real_select(*lists, **kwargs)

    def wakeup_sockets_only(fd: int, **kwargs: Any) -> int:
        if fd != -1 and not _is_socket(fd):
            raise ValueError(f"the fd {fd} must be a socket")
        return real_wakeup(fd, **kwargs)

    select.select = sockets_only
    signal.set_wakeup_fd = wakeup_sockets_only

    def no_signal_handlers(*args: object, **kwargs: object) -> None:
        raise NotImplementedError

    asyncio.unix_events._UnixSelectorEventLoop.add_signal_handler = (  # type: ignore[method-assign]
        no_signal_handlers)
    # Windows' default loop, which uvicorn asks for by name there
    asyncio.ProactorEventLoop = asyncio.SelectorEventLoop  # type: ignore[attr-defined]
    _textual_stand_in()


def _textual_stand_in() -> None:
    """Textual's Windows driver needs Windows' console (through ctypes): in
    its place a driver that says so when started. Textual's test mode
    (``App.run_test``) drives the app without a driver of the system."""
    from textual.driver import Driver  # noqa: PLC0415 - after sys.platform is set

    class WindowsDriver(Driver):
        """Stands for Textual's Windows driver, which cannot run here."""

        def start_application_mode(self) -> None:
            raise RuntimeError("Windows' console cannot be reached here (devtools.elsewhere)")

        def disable_input(self) -> None:
            pass

        def stop_application_mode(self) -> None:
            pass

    module = types.ModuleType("textual.drivers.windows_driver", WindowsDriver.__doc__)
    module.WindowsDriver = WindowsDriver  # type: ignore[attr-defined]
    sys.modules[module.__name__] = module


def _is_socket(item: Any) -> bool:
    fd = item if isinstance(item, int) else item.fileno()
    try:
        return stat.S_ISSOCK(os.fstat(fd).st_mode)
    except OSError:
        return False


def _darwin() -> None:
    _remove(os, DARWIN_LACKS_OS)
    _remove(select, DARWIN_LACKS_SELECT)
    real_poll = select.poll

    class Poll:
        """macOS's poll(): a terminal is reported invalid at once."""

        def __init__(self) -> None:
            self._poll = real_poll()
            self._terminals: set[int] = set()

        def register(self, fd: Any, mask: int = 7) -> None:
            number = fd if isinstance(fd, int) else fd.fileno()
            if os.isatty(number):
                self._terminals.add(number)
            self._poll.register(number, mask)

        def unregister(self, fd: Any) -> None:
            number = fd if isinstance(fd, int) else fd.fileno()
            self._terminals.discard(number)
            self._poll.unregister(number)

        def modify(self, fd: Any, mask: int) -> None:
            self._poll.modify(fd, mask)

        def poll(self, timeout: float | None = None) -> list[tuple[int, int]]:
            if self._terminals:
                return [(fd, select.POLLNVAL) for fd in sorted(self._terminals)]
            return self._poll.poll(timeout)

    select.poll = Poll  # type: ignore[assignment,misc]


def _msvcrt(fcntl: Any, termios: Any, real_select: Callable[..., Any]) -> types.ModuleType:
    """A stand-in for Windows' ``msvcrt``: what the app uses of it."""
    module = types.ModuleType("msvcrt", "A stand-in for Windows' msvcrt (devtools.elsewhere).")
    state: dict[str, Any] = {"mode": None, "pending": b""}

    def character_mode() -> None:
        if state["mode"] is None and os.isatty(0):
            state["mode"] = termios.tcgetattr(0)
            mode = termios.tcgetattr(0)
            mode[3] &= ~(termios.ICANON | termios.ECHO)
            mode[6][termios.VMIN], mode[6][termios.VTIME] = 1, 0
            # Windows' console gives Control Z and Control \\ as characters;
            # Control C alone is a signal (its console event)
            mode[6][termios.VSUSP] = mode[6][termios.VQUIT] = b"\0"
            termios.tcsetattr(0, termios.TCSANOW, mode)
            import atexit  # noqa: PLC0415

            atexit.register(lambda: termios.tcsetattr(0, termios.TCSANOW, state["mode"]))

    def kbhit() -> bool:
        character_mode()
        return bool(state["pending"]) or bool(real_select([0], [], [], 0)[0])

    def getwch() -> str:
        character_mode()
        while True:
            for size in range(1, 5):
                if len(state["pending"]) >= size:
                    try:
                        char: str = state["pending"][:size].decode("utf-8")
                    except UnicodeDecodeError:
                        continue
                    state["pending"] = state["pending"][size:]
                    return char
            if len(state["pending"]) >= 4:  # not UTF-8: one byte, as a character
                char, state["pending"] = chr(state["pending"][0]), state["pending"][1:]
                return char
            data = os.read(0, 64)
            if not data:
                return "\x1a"  # the console closed: Control Z
            state["pending"] += data

    def locking(fd: int, mode: int, nbytes: int) -> None:
        at = os.lseek(fd, 0, os.SEEK_CUR)
        if mode == module.LK_UNLCK:
            fcntl.lockf(fd, fcntl.LOCK_UN, nbytes, at, os.SEEK_SET)
            return
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, nbytes, at, os.SEEK_SET)
        except OSError:
            raise PermissionError(13, "Permission denied") from None

    module.kbhit = kbhit  # type: ignore[attr-defined]
    module.getwch = getwch  # type: ignore[attr-defined]
    module.locking = locking  # type: ignore[attr-defined]
    module.LK_UNLCK, module.LK_LOCK, module.LK_NBLCK = 0, 1, 2  # type: ignore[attr-defined]
    module.LK_RLCK, module.LK_NBRLCK = 3, 4  # type: ignore[attr-defined]
    return module


def main(argv: Sequence[str] | None = None) -> int:
    """``SYSTEM companion ARGS...`` or ``SYSTEM pytest ARGS...``."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 2 or args[0] not in SYSTEMS or args[1] not in ("companion", "pytest"):
        print("usage: python -m devtools.elsewhere win32|darwin companion|pytest ARGS...",
              file=sys.stderr)
        return 2
    system, what, rest = args[0], args[1], args[2:]
    if what == "pytest":
        import hypothesis  # noqa: PLC0415, F401 - the test runner itself is Linux's
        import pytest  # noqa: PLC0415

        pretend(system, keep=RUNNER)
        return int(pytest.main(rest))
    pretend(system)
    from companion.launch import main as companion  # noqa: PLC0415 - after the pretence

    sys.argv[0] = "companion"
    return companion(rest)


if __name__ == "__main__":
    sys.exit(main())
