"""The app where most players are: Windows and macOS, as far as this Linux
machine can show it (:mod:`devtools.elsewhere`: ``sys.platform`` says the
system, and on Windows the POSIX-only modules and functions are gone, the
console's keys come through a small ``msvcrt`` stand-in).

- Every command runs, in a process pretending to be each system, its data
  where that system keeps a program's data (platformdirs' folders).
- Plain mode on a terminal: Windows' console keys (F2 is ``\\x00<``, Control
  Z ends the input) and macOS's terminal; the settings kept in the system's
  folder.
- The web face: served, a practice game begun through the page, Control
  C saving it, the next start offering it.
- The tests of the conversation, the games, the full screen (Textual's test
  mode, driven by keys), the journal and the store run in-process in a
  Python pretending to be each system (slow: scripts/test.sh runs them).

What no pretence shows (the system's console, its speech engines, its file
locks' exact rules, a real COM port) is docs/development.md's review list
for a tester on each system.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.drivers import Terminal
from tests.webclient import Client, Served

ROOT = Path(__file__).resolve().parents[1]
SYSTEMS = ("win32", "darwin")
#: The commands a player runs, each a list of arguments.
COMMANDS = {
    "help": ["--help"],
    "version": ["--version"],
    "codes": ["codes"],
    "mici-maki-codes": ["--game", "mici-maki", "codes"],
    "score": ["score", "GAME"],
    "risk": ["risk", "--draw", "3", "--overeating", "2", "--eat", "1"],
    "simulate-workers": ["simulate", "--games", "6", "--workers", "2"],
    "games": ["games"],
    "say-none": ["--speech", "none", "say", "Hello."],
    "web-help": ["web", "--help"],
    "bench-help": ["bench", "--help"],
    "doctor": ["doctor"],
    "kit": ["--game", "mici-maki", "kit", "--out", "OUT"],
}
#: A small game for ``score``.
GAME = {"players": ["Ana", "Ben"],
        "rounds": [{"Ana": ["wasabi", "squid", "maki2"], "Ben": ["pudding"]}]}


def environment(home: Path, system: str) -> dict[str, str]:
    """A player's environment on ``system``: a home of its own, and on
    Windows its folders; no folder of the app's given, so that the
    system's own are used."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("COMPANION_", "XDG_"))}
    env.update(HOME=str(home), PYTHONPATH=str(ROOT), LANG="en_GB.UTF-8",
               COMPANION_SEED="tests")
    if system == "win32":
        env.update(APPDATA=str(home / "AppData" / "Roaming"),
                   LOCALAPPDATA=str(home / "AppData" / "Local"))
    return env


def data_folders(home: Path, system: str) -> list[Path]:
    """Where the system keeps a program's data and settings (platformdirs')."""
    if system == "win32":
        return [home / "AppData" / "Local", home / "AppData" / "Roaming"]
    return [home / "Library" / "Application Support", home / "Library" / "Preferences"]


def elsewhere(system: str, *args: str, home: Path,
              timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "devtools.elsewhere", system, "companion", *args],
        cwd=home, env=environment(home, system), stdin=subprocess.DEVNULL,
        capture_output=True, text=True, timeout=timeout, check=False)


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_runs_on_windows_and_macos(system: str, name: str,
                                                  tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    game.write_text(json.dumps(GAME), encoding="utf-8")
    places = {"GAME": str(game), "OUT": str(tmp_path / "kit")}
    args = [places.get(arg, arg) for arg in COMMANDS[name]]
    done = elsewhere(system, *args, home=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.stdout.strip(), done.stderr
    if name == "score":
        assert "Ana" in done.stdout and "Ben" in done.stdout
    if name == "doctor":  # this system's install commands, its own braille display
        first = done.stdout.splitlines()[0]
        assert first.endswith("on Windows; install commands for Windows." if system == "win32"
                              else "on macOS; install commands for macOS (Homebrew).")
        assert ("through NVDA or JAWS" if system == "win32" else "through VoiceOver") in (
            done.stdout)
        assert "BRLTTY" not in done.stdout and "speech-dispatcher" not in done.stdout
        # NVDA or JAWS through accessible_output2, a dependency on Windows only
        assert ("accessible_output2, for speech through NVDA or JAWS" in done.stdout) == (
            system == "win32")
    if name == "kit":
        assert {path.name for path in (tmp_path / "kit").glob("*.pdf")} == {
            "stickers.pdf", "guide.pdf"}


def test_a_windows_console_has_no_virtual_scanner_and_takes_a_com_port(
        tmp_path: Path) -> None:
    """The virtual scanner needs a pseudo-terminal: refused in words. A
    port's name (COM3) is taken for a port, not looked for as a file."""
    check = subprocess.run(
        [sys.executable, "-c",
         "import devtools.elsewhere as e; e.pretend('win32')\n"
         "from firmware_bridge.ports import check\n"
         "from firmware_bridge.link import port_exists\n"
         "from firmware_bridge.virtual import VirtualScanner\n"
         "print(check('COM3'), check('C:/Users/x.txt').kind.name, port_exists('COM3'))\n"
         "try:\n    VirtualScanner()\nexcept OSError as error:\n    print(error)\n"],
        cwd=tmp_path, env=environment(tmp_path, "win32"), capture_output=True, text=True,
        timeout=60, check=False)
    lines = check.stdout.splitlines()
    assert lines[0].split() == ["Allowed(path='COM3')", "NOT_SERIAL", "True"], check.stderr
    assert "which Windows lacks" in lines[1], check.stderr


#: The keys of each system's terminal: F2 (say it again) and the end of the input.
KEYS = {"win32": ("\x00<", "\x1a"), "darwin": ("\x1bOQ", "\x04")}
REFUSED = "9 is not a choice: type a number from 1 to 3."


def wait_for(terminal: Terminal, shown: Callable[[list[str]], bool], what: str,
             timeout: float = 30) -> None:
    """Read the terminal until ``shown`` holds of its rows (at most ``timeout``)."""
    deadline = time.monotonic() + timeout
    while not shown([line.rstrip() for line in terminal.screen.display]):
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} never shown: {terminal.screen.display}")
        terminal.pump(0.1)


@pytest.mark.parametrize("system", SYSTEMS)
def test_plain_mode_at_a_windows_console_and_a_mac_terminal(system: str,
                                                            tmp_path: Path) -> None:
    """The first start by keys; F2 says the question again; the end of the
    input (Control Z in Windows' console, Control D on a Mac) says goodbye;
    the settings are kept in the system's folder; Control C ends a second run."""
    repeat, end = KEYS[system]
    # (empty: the app's folders are the system's, not the rig's)
    env = {**environment(tmp_path, system), "COMPANION_DATA_DIR": "", "COMPANION_CONFIG_DIR": ""}
    terminal = Terminal(tmp_path, "--plain", columns=80, rows=25, environment=env,
                        program=("-m", "devtools.elsewhere", system, "companion"))
    try:
        terminal.until("Choose 1 to 4:")
        terminal.type("1\r")
        terminal.until("Choose 1 to 2:")
        terminal.type("2\r")  # the screen reader speaks
        terminal.until("Choose 1 to ")
        terminal.type("9\r")
        terminal.until("9 is not a choice:")
        terminal.type(repeat)  # the reply again, at once, with no Enter
        wait_for(terminal, lambda said: said.count(REFUSED) == 2, "the reply said again")
        terminal.type(end)
        terminal.until("Goodbye.")
        assert terminal.process.wait(timeout=30) == 0
        folders = data_folders(tmp_path, system)
        files = [path for path in tmp_path.rglob("*") if path.is_file()
                 and "pulse" not in path.parts]  # (the sound server's, not the app's)
        assert files, "nothing kept"
        assert all(any(folder in path.parents for folder in folders) for path in files), files
        before = len(terminal.written)
        terminal.start_again("--plain")
        wait_for(terminal, lambda said: b"Choose 1 to " in terminal.written[before:],
                 "the second run's first question")
        os.kill(terminal.process.pid, signal.SIGINT)  # Control C (Windows' console event too)
        assert terminal.process.wait(timeout=30) == 128 + signal.SIGINT
    finally:
        terminal.close()


#: The app's own tests run in-process in a Python pretending to be each system:
#: the conversation, the games, the full screen in Textual's test mode, the journal.
@pytest.mark.parametrize("system", SYSTEMS)
def test_the_web_face_serves_a_game_and_control_c_keeps_it(system: str, tmp_path: Path) -> None:
    # the data in the system's own folders, as a player's
    env = {**environment(tmp_path, system), "COMPANION_DATA_DIR": "", "COMPANION_CONFIG_DIR": ""}
    served = Served(None, environment=env, system=system)
    try:
        client = Client(served.address)
        client.choose(1)  # the first start: English,
        client.choose(2)  # a screen reader speaks,
        client.choose(2)  # normal verbosity
        client.choose(2)  # a practice game
        client.answer("2")
        client.choose(1)
        shown = client.choose(1)
        assert shown.question == "Your pick:"
        shown = client.answer("t")
        assert shown.question and "Traceback" not in served.errors()
        served.process.send_signal(signal.SIGINT)
        assert served.wait() == 128 + signal.SIGINT, served.errors()
        assert "Traceback" not in served.errors()
    finally:
        served.stop()
    saved = [path for folder in data_folders(tmp_path, system) for path in folder.rglob("*")
             if path.is_file()]
    assert saved, "nothing kept in the system's folders"
    again = Served(None, environment=env, system=system)
    try:
        shown = Client(again.address).page()
        assert shown.question == "An unfinished practice game was found.", again.errors()
    finally:
        again.stop()


IN_PROCESS = ["tests/companion/games", "tests/companion/conversation",
              "tests/companion/faces/test_tui.py", "tests/companion/test_journal.py",
              "tests/companion/test_records.py", "tests/companion/test_app.py"]
#: Of those, the tests whose own rig is POSIX (a named pipe, SIGKILL, a
#: second window run as Linux's), and those of the scanner on a Linux
#: pseudo-terminal: not the app's code on the system.
RIG_IS_POSIX = [
    "tests/companion/test_journal.py::test_kill_9_at_any_moment_loses_nothing_doubles_nothing_halves_no_undo",
    "tests/companion/test_journal.py::test_a_second_window_is_refused_the_game_it_has_open",
    "tests/companion/test_journal.py::test_a_game_killed_before_its_result_was_said_says_it_next_start",
    "tests/companion/faces/test_tui.py::test_a_killed_game_resumes_in_the_full_screen_app",
    "tests/companion/conversation/test_scans_in_app.py",
]


@pytest.mark.slow
@pytest.mark.parametrize("system", SYSTEMS)
def test_the_apps_own_tests_pass_on_windows_and_macos(system: str, tmp_path: Path) -> None:
    deselect = [arg for test in RIG_IS_POSIX
                for arg in (("--ignore", test) if "::" not in test else ("--deselect", test))]
    done = subprocess.run(
        [sys.executable, "-m", "devtools.elsewhere", system, "pytest", "-q",
         "-p", "no:cacheprovider", "-m", "not slow and not system", "-W",
         "ignore::pytest.PytestAssertRewriteWarning", *deselect, *IN_PROCESS],
        cwd=ROOT, env=environment(tmp_path, system), stdin=subprocess.DEVNULL,
        capture_output=True, text=True, timeout=1800, check=False)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
