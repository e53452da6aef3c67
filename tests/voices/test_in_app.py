"""Speech in the real app (the CLI in a subprocess, plain mode through a
pipe and the full screen in a pseudo-terminal): the processes it starts end
with it, counted by a mark in their environment (never machine-wide: other
tests run beside these); a session's daemon is used and left running; a
voice that fails is told once, in the player's language; pyttsx3 speaks
under the full screen; a run that ends on an error says so in one sentence
and its exit status."""

from __future__ import annotations

import asyncio
import os
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app import FullScreen
from companion.settings import Settings
from devtools.rig import PrivateDispatcher, SoundSink
from tests.drivers import PipedApp, Terminal
from voices.choose import FallbackSpeaker

#: The checkout under test: a ``sitecustomize`` imports the app before the
#: folder ``python -m`` runs in is on the path.
ROOT = Path(__file__).resolve().parents[2]
#: The environment variable that marks the processes of one test's app runs.
MARK = "COMPANION_SPEECH_TEST_MARK"
FIRST = "Language / Langue / Jazyk / Язык:"


def marked(mark: str) -> list[str]:
    """The running processes whose environment holds ``mark``: their commands."""
    found = []
    wanted = f"{MARK}={mark}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if wanted not in (entry / "environ").read_bytes().split(b"\0"):
                continue  # (a zombie has no environment: it runs no more)
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue  # ended meanwhile, or not ours to read
        found.append(f"{entry.name}: {command.decode(errors='replace')}")
    return found


def none_left(mark: str, timeout: float = 10.0) -> list[str]:
    """The marked processes still running ``timeout`` seconds after the app
    ended (a killed process takes a moment to go)."""
    deadline = time.monotonic() + timeout
    while (left := marked(mark)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def plain(home: Path, environment: dict[str, str], *args: str) -> PipedApp:
    """``companion --plain ARGS``, its data in ``home``, ``environment`` over
    the test's own (tests/drivers.py)."""
    return PipedApp(home, "--plain", *args, lang=None, environment=environment)


@pytest.fixture
def mark() -> Iterator[str]:
    value = uuid.uuid4().hex
    yield value
    for line in marked(value):  # a failed test leaves nothing behind either
        os.kill(int(line.split(":")[0]), 9)


@pytest.mark.system
def test_app_runs_with_a_mute_speech_dispatcher_leave_nothing_and_say_so_once(
        tmp_path: Path, mark: str) -> None:
    """No daemon for the session, and the daemon the app starts (as the
    user's configuration says) has no sound output: the first question comes
    at once, the notice once, in Czech, with the true cause; after each run
    none of the daemon, its module, or any helper is left."""
    home, run = tmp_path / "home", tmp_path / "run"
    run.mkdir()
    PrivateDispatcher.configure(home / ".config" / "speech-dispatcher", tmp_path / "logs",
                                sound=False)
    environment = {"HOME": str(home), "XDG_RUNTIME_DIR": str(run), MARK: mark,
                   "LANG": "cs_CZ.UTF-8"}
    notice = "Hlas přestal mluvit: zvukové zařízení není dostupné. Aplikace bude už jen psát."
    for _ in range(3):
        app = plain(tmp_path, environment, "--lang", "cs", "--speech", "speech-dispatcher")
        asked = app.index_of(FIRST)
        assert any("speech-dispatcher" in line for line in marked(mark)), "no daemon started"
        told = app.index_of(notice)
        assert asked < told, "the first question waited for speech"
        app.send("3")  # Čeština: the voice is set again, and not tried again
        app.index_of("Vyberte 1 až 2:")
        code, errors = app.end()
        assert code == 0, errors
        assert errors == ""
        assert sum(notice in line for line in app.lines) == 1, app.lines
        assert not any("Speech" in line for line in app.lines)  # nothing in English
        assert none_left(mark) == []


@pytest.mark.system
def test_an_app_killed_leaves_no_daemon_behind(tmp_path: Path, mark: str) -> None:
    """SIGKILL: the app cannot end what it started, so the daemon it
    started (stuck: no sound output) is ended by its watch, which sees the
    app's end as the end of a pipe."""
    home, run = tmp_path / "home", tmp_path / "run"
    run.mkdir()
    PrivateDispatcher.configure(home / ".config" / "speech-dispatcher", tmp_path / "logs",
                                sound=False)
    app = plain(tmp_path, {"HOME": str(home), "XDG_RUNTIME_DIR": str(run), MARK: mark,
                         "TMPDIR": str(tmp_path)}, "--speech", "speech-dispatcher")
    app.index_of(FIRST)
    deadline = time.monotonic() + 60
    while not any("sd_espeak-ng" in line for line in marked(mark)):
        assert time.monotonic() < deadline, f"no daemon and module: {marked(mark)}"
        time.sleep(0.05)
    app.process.kill()
    app.process.wait(timeout=30)
    assert none_left(mark) == []
    assert not list(tmp_path.glob("companion-speechd-*")), "its folder was left"


@pytest.mark.system
def test_the_sessions_daemon_is_used_and_left_running(tmp_path: Path, mark: str) -> None:
    sink = SoundSink(tmp_path / "card")
    run = tmp_path / "run"
    daemon = PrivateDispatcher(tmp_path / "speechd", sink,
                               socket=run / "speech-dispatcher" / "speechd.sock")
    try:
        environment = {"HOME": str(tmp_path / "home"), "XDG_RUNTIME_DIR": str(run),
                       MARK: mark, "LANG": "en_GB.UTF-8"}
        for _ in range(2):
            started = time.perf_counter()
            app = plain(tmp_path, environment, "--speech", "speech-dispatcher")
            app.index_of(FIRST)
            assert sink.wait_loud(started, 60) is not None, "the app did not speak through it"
            code, errors = app.end()
            assert code == 0, errors
            assert not any(line.startswith(("Speech stopped", "No speech"))
                           for line in app.lines), app.lines
            assert none_left(mark) == []
            assert daemon.process.poll() is None, "the session's daemon was ended"
    finally:
        daemon.close()
        sink.close()


def test_a_chosen_voice_not_installed_is_said_once_in_french(tmp_path: Path, mark: str) -> None:
    (tmp_path / "bin").mkdir()
    (tmp_path / "run").mkdir()
    environment = {"PATH": str(tmp_path / "bin"), "HOME": str(tmp_path / "home"),
                   "XDG_RUNTIME_DIR": str(tmp_path / "run"), MARK: mark}
    app = plain(tmp_path, environment, "--lang", "fr", "--speech", "speech-dispatcher")
    notice = ("Pas de voix : speech-dispatcher n'est pas installé. Installez-le, ou choisissez "
              "une autre voix dans les Réglages.")
    app.index_of(notice)
    code, errors = app.end()
    assert (code, errors) == (0, "")
    assert sum(notice in line for line in app.lines) == 1
    assert none_left(mark) == []


def faulty_site(folder: Path, where: str = "journeys") -> Path:
    """A ``sitecustomize`` that makes the app raise an error it does not
    handle, as a bug would: in the journeys (their first step, the files'
    check) or, for the full screen, in its own start (building the talk)."""
    folder.mkdir()
    (folder / "sitecustomize.py").write_text(
        "def fault(*args, **kwargs):\n"
        "    raise RuntimeError('a fault for the test')\n"
        + ("import companion.conversation.journeys as journeys\n"
           "journeys.check_files = fault\n" if where == "journeys" else
           "import companion.app as app\n"
           "app.conversation = fault\n"))
    return folder


SENTENCE = "companion: The app stopped on an error: RuntimeError: a fault for the test.\n"


def test_a_run_that_ends_on_an_error_says_it_in_one_sentence_and_its_status(
        tmp_path: Path, mark: str) -> None:
    site = faulty_site(tmp_path / "site")
    app = plain(tmp_path, {"PYTHONPATH": f"{site}{os.pathsep}{ROOT}", MARK: mark,
                         "LANG": "en_GB.UTF-8",
                         "COMPANION_SPEECH": "espeak-ng"})
    code, errors = app.end()
    assert code == 1
    assert errors == SENTENCE
    assert not any("Traceback" in line for line in app.lines)
    assert none_left(mark) == []


def ended(terminal: Terminal, timeout: float = 60) -> int:
    """The full screen's exit status, once it has ended by itself."""
    deadline = time.monotonic() + timeout
    while terminal.process.poll() is None and time.monotonic() < deadline:
        terminal.pump(0.05)
    code = terminal.process.wait(timeout=10)
    terminal.pump(0.3)
    os.close(terminal.master)
    return code


@pytest.mark.sampled
@pytest.mark.parametrize("where", ["journeys", "screen"])
def test_the_full_screen_ends_on_an_error_with_one_sentence_and_its_status(
        tmp_path: Path, mark: str, where: str) -> None:
    site = faulty_site(tmp_path / "site", where)
    terminal = Terminal(tmp_path, environment={"PYTHONPATH": f"{site}{os.pathsep}{ROOT}",
                                               MARK: mark})
    code = ended(terminal)
    written = terminal.written.decode(errors="replace")
    assert code == 1
    assert "Traceback" not in written and "a fault for the test" in written
    assert SENTENCE.strip() in written.replace("\r", "")
    assert none_left(mark) == []


@pytest.mark.system
def test_pyttsx3_speaks_the_first_question_of_the_full_screen(tmp_path: Path, mark: str) -> None:
    """The real app in a pseudo-terminal with pyttsx3 (the backend of
    Windows and macOS): the first question is shown and heard on the test
    sound card, nothing is written over the screen, and its worker ends with
    the app."""
    sink = SoundSink(tmp_path / "card")
    try:
        started = time.perf_counter()
        terminal = Terminal(tmp_path, environment={"COMPANION_SPEECH": "pyttsx3",
                                                   **sink.environment, MARK: mark})
        terminal.until("Language / Langue")
        assert sink.wait_loud(started, 60) is not None, "pyttsx3 was not heard"
        terminal.type("\x11")  # Ctrl+Q
        code = ended(terminal)
        written = terminal.written.decode(errors="replace")
        assert code == 0
        assert "Traceback" not in written and "fds_to_keep" not in written
        assert none_left(mark) == []
    finally:
        sink.close()


@pytest.mark.system
def test_pyttsx3_under_the_full_screen_by_pilot(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    sink = SoundSink(tmp_path / "card")
    for name, value in {**sink.environment, "COMPANION_SPEECH": "pyttsx3",
                        "COMPANION_DATA_DIR": str(tmp_path / "data"),
                        "COMPANION_CONFIG_DIR": str(tmp_path / "config")}.items():
        monkeypatch.setenv(name, value)

    async def until(condition: object, what: str, timeout: float = 60) -> None:
        assert callable(condition)
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(what)
            await asyncio.sleep(0.02)

    async def main() -> None:
        screen = FullScreen(Settings(speech="pyttsx3"), first_start=True)
        app = screen.app
        async with app.run_test(size=(40, 15)) as pilot:
            await until(lambda: FIRST in app.lines, "the first question never came")
            assert screen.talk is not None
            speaker = screen.talk.voice.speaker
            assert isinstance(speaker, FallbackSpeaker)
            await until(lambda: speaker.ready(0) and speaker.name == "pyttsx3",
                        f"pyttsx3 did not start: {app.lines[-3:]}")
            assert sink.wait_loud(0.0, 60) is not None, "pyttsx3 was not heard"
            await pilot.press("ctrl+q")
            await until(lambda: app.return_value is not None, "the app did not end")
        assert app.error is None
        assert not any(line.startswith(("Speech stopped", "No speech")) for line in app.lines)

    try:
        asyncio.run(main())
    finally:
        sink.close()
