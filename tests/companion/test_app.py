"""The composition root (companion/app.py): the parts of a run built once and
wired, and a face given only what it needs of the conversation."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app import FullScreen, conversation, run_plain
from companion.contract.events import Announcement, Answered, Asked, Item
from companion.conversation.inbox import Inbox
from companion.conversation.scanning import Scanner
from companion.conversation.services import Kept
from companion.conversation.speech import SpeechService
from companion.faces import Running
from companion.faces.screen import ScreenInbox
from companion.settings import Settings
from tests.test_layers import ROOT, imports


@pytest.fixture(autouse=True)
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    yield


class Written:
    """A face that keeps the sentences it shows."""

    def __init__(self) -> None:
        self.shown: list[str] = []
        self.took: list[Item] = []

    @property
    def has_keys(self) -> bool:
        return False

    def show(self, announcement: Announcement) -> None:
        self.shown.append(announcement.text)

    def asked(self, asked: Asked) -> None:
        pass

    def answered(self, answered: Answered) -> None:
        pass

    def progress(self, facts: str) -> None:
        pass

    def taken(self, item: Item) -> None:
        self.took.append(item)


def test_the_conversation_is_built_with_its_services() -> None:
    face = Written()
    talk = conversation(face, Inbox(), Settings(speech="none", scanner="auto"), scanner="")
    assert isinstance(talk.speech, SpeechService)
    assert isinstance(talk.listening, Scanner) and isinstance(talk.kept, Kept)
    assert talk.scanner_choice == ""  # the run's scanner, over the settings'
    talk.say(Announcement("Hello."))
    assert face.shown == ["Hello."]  # speech shows through the face
    talk.close()


def test_the_full_screen_gets_speech_the_settings_and_the_journeys_never_the_talk() -> None:
    screen = FullScreen(Settings(speech="none"))
    assert isinstance(screen.app.inbox, ScreenInbox) and screen.talk is None
    face = Written()
    begun: Running = screen.begin(face)
    assert screen.talk is not None and screen.talk.face is face
    assert screen.talk.source is screen.app.inbox  # the screen's inbox is read
    begun.speech.interrupt()  # safe from the UI thread
    assert begun.settings.language == "en"
    screen.talk.configure(Settings(language="fr", speech="none"))
    assert begun.settings.language == "fr"  # the settings as they are now
    screen.app.inbox.end()
    assert begun.run() == 0
    assert face.shown[-1] == "Au revoir."
    assert face.took == [None]  # the face was told what was taken


def test_plain_line_mode_runs_the_journeys_to_the_goodbye() -> None:
    out = io.StringIO()
    assert run_plain(io.StringIO("6\n"), out, Settings(speech="none")) == 0
    assert out.getvalue().splitlines()[-1] == "Goodbye."


def test_no_face_builds_or_holds_the_conversation() -> None:
    faces = sorted((ROOT / "companion" / "faces").glob("*.py"))
    assert faces
    for path in faces:
        held = [name for name in imports(path) if name.startswith((
            "companion.conversation.core", "companion.conversation.journeys",
            "companion.app"))]
        assert not held, f"{path.name} imports {held}: the composition root builds them"



NOTED = """
import sys
try:
    exec("raise KeyboardInterrupt")  # interrupted in code run from a string
except KeyboardInterrupt:
    pass
if sys.argv[1] == "forget":
    from companion.launch import _forget_interruption
    _forget_interruption()
sys.exit(143)
"""


@pytest.mark.parametrize(("forget", "status"), [("keep", -2), ("forget", 143)])
def test_the_status_is_the_apps_even_after_an_interruption_in_code_run_from_a_string(
        forget: str, status: int, tmp_path: Path) -> None:
    """Run as a module, as ``python -m companion`` is: Python would end by
    SIGINT whatever the status (a SIGTERM in an import ended the app as if
    by Control C), unless the note of the interruption is forgotten."""
    (tmp_path / "noted.py").write_text(NOTED, encoding="utf-8")
    environment = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"}
    done = subprocess.run([sys.executable, "-m", "noted", forget], check=False, timeout=60,
                          env=environment)
    assert done.returncode == status
