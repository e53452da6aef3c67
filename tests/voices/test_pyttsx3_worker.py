"""The pyttsx3 worker's side of its pipes, with an engine of the test's in
place of pyttsx3's (the real one, with its espeak library, is in
test_speech.py, a system test): each request is set up as asked, answered
"started" then "done", or "failed" when the engine reports an error; the end
of the requests, or a null one, ends the worker; no engine at all is
"unavailable"."""

from __future__ import annotations

import io
import json
import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from voices import pyttsx3_worker


class Voice:
    def __init__(self, id: str, languages: list[bytes]) -> None:
        self.id = id
        self.languages = languages


class Engine:
    """What the worker uses of a pyttsx3 engine, keeping what it was told."""

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.properties: list[tuple[str, object]] = []
        self.said: list[str] = []
        self.callbacks: dict[str, Callable[..., None]] = {}
        self.pending: list[tuple[str, str]] = []

    def getProperty(self, name: str) -> list[Voice]:  # pyttsx3's names, camel case
        assert name == "voices"
        return [Voice("english", [b"\x05en"]), Voice("czech", [b"\x05cs"])]

    def setProperty(self, name: str, value: object) -> None:
        self.properties.append((name, value))

    def connect(self, topic: str, callback: Callable[..., None]) -> None:
        self.callbacks[topic] = callback

    def say(self, text: str) -> None:
        self.pending.append(("say", text))

    def save_to_file(self, text: str, wav: str) -> None:
        self.pending.append((wav, text))

    def runAndWait(self) -> None:
        for where, text in self.pending:
            self.said.append(text)
            if where != "say":
                Path(where).write_bytes(b"RIFF" + bytes(100))
            if self.fail:
                self.callbacks["error"]()
            else:
                self.callbacks["finished-utterance"]("utterance", True)
        self.pending.clear()


@pytest.fixture
def engine(monkeypatch: pytest.MonkeyPatch) -> Iterator[Engine]:
    made = Engine()
    module: Any = types.ModuleType("pyttsx3")
    module.init = lambda: made
    monkeypatch.setitem(sys.modules, "pyttsx3", module)
    yield made


def request(text: str, language: str, kind: str = "say", wav: str = "") -> str:
    return json.dumps({"kind": kind, "text": text, "language": language, "rate": 170,
                       "volume": 80, "wav": wav}) + "\n"


def served(*requests: str) -> list[str]:
    answers = io.StringIO()
    pyttsx3_worker.serve(io.StringIO("".join(requests)), answers)
    return answers.getvalue().splitlines()


def test_each_sentence_is_started_and_done_in_its_language(engine: Engine) -> None:
    assert served(request("Wasabi.", "cs"), request("Tempura.", "de")) == [
        "started", "done", "started", "done"]
    assert engine.said == ["Wasabi.", "Tempura."]
    assert ("voice", "czech") in engine.properties
    assert ("rate", 170) in engine.properties and ("volume", 0.8) in engine.properties
    # a language with no voice keeps the voice it had
    assert [value for name, value in engine.properties if name == "voice"] == ["czech"]


def test_a_rendering_waits_for_its_file(engine: Engine, tmp_path: Path) -> None:
    wav = tmp_path / "out.wav"
    assert served(request("Squid nigiri.", "en", "render", str(wav))) == ["started", "done"]
    assert wav.stat().st_size > 44


def test_an_engine_error_is_a_failure_and_a_null_request_ends(engine: Engine) -> None:
    engine.fail = True
    assert served(request("Maki.", "en"), "null\n", request("Never.", "en")) == [
        "started", "failed"]
    assert engine.said == ["Maki."]


def test_no_engine_here_is_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    module: Any = types.ModuleType("pyttsx3")

    def init() -> None:
        raise OSError("libespeak.so.1: cannot open shared object file")

    module.init = init
    monkeypatch.setitem(sys.modules, "pyttsx3", module)
    assert served(request("Wasabi.", "en")) == ["unavailable"]


def test_a_player_that_finds_no_sound_output_is_no_sound(engine: Engine) -> None:
    """What the player (aplay, on Linux) writes on the worker's standard
    error while a sentence is said: aplay's "audio open error" is
    ``no-sound``, other chatter is not, and each sentence is judged on its
    own."""
    errors = io.BytesIO()
    said = iter([b"aplay: main:831: audio open error: No such file or directory\n",
                 b"ALSA lib pcm.c:8526:(snd_pcm_recover) underrun occurred\n", b""])
    finished = engine.runAndWait

    def playing() -> None:
        errors.write(next(said))
        finished()

    engine.runAndWait = playing  # type: ignore[method-assign]
    answers = io.StringIO()
    pyttsx3_worker.serve(io.StringIO(request("Maki.", "en") * 3), answers, errors)
    assert answers.getvalue().splitlines() == [
        "started", "no-sound", "started", "done", "started", "done"]
