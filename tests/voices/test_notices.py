"""Speech notices in the real app, the way speech fails outside the lab: no
voice installed at all, the chosen one not installed, pyttsx3 missing, no
sound device, a voice that dies mid-session. Each is said once, when it
happens (a voice missing: before the first question; never after the
goodbye), in the player's language, with the cause in a player's words.

The app runs through pipes (tests/drivers.py PipedApp), its ``PATH``
limited to a folder of the test's own: what is not there is not
installed. pyttsx3 is made missing by a package of the same name earlier
on the path that cannot be imported (as when it is not installed)."""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.drivers import PipedApp

#: The checkout under test, on the app's path after the shadowing package.
ROOT = Path(__file__).resolve().parents[2]
GOODBYE = {"en": "Goodbye.", "fr": "Au revoir.", "cs": "Na shledanou.",
           "ru": "До свидания."}


def machine(tmp: Path, *, language: str, speech: str, programs: dict[str, str] | None = None,
            pyttsx3: bool = False, **extra: str) -> dict[str, str]:
    """The environment of a machine in ``tmp``: the settings ``language``
    and ``speech`` written (no first start; ``speech`` the run's too, over
    the tests' own choice), nothing on ``PATH`` but
    ``programs`` (name: shell script), no speech-dispatcher of the
    session, pyttsx3 missing unless ``pyttsx3``."""
    bin_folder, run, shadow = tmp / "bin", tmp / "run", tmp / "shadow"
    for folder in (bin_folder, run, tmp / "config"):
        folder.mkdir(parents=True, exist_ok=True)
    (tmp / "config" / "settings.toml").write_text(
        f'language = "{language}"\nspeech = "{speech}"\nverbosity = "normal"\n')
    for name, script in (programs or {}).items():
        program = bin_folder / name
        program.write_text("#!/bin/sh\n" + script)
        program.chmod(0o755)
    path = str(ROOT)
    if not pyttsx3:
        (shadow / "pyttsx3").mkdir(parents=True)
        (shadow / "pyttsx3" / "__init__.py").write_text(
            "raise ImportError('No module named pyttsx3')\n")
        path = f"{shadow}{os.pathsep}{ROOT}"
    return {"PATH": str(bin_folder), "HOME": str(tmp / "home"), "XDG_RUNTIME_DIR": str(run),
            "PYTHONPATH": path, "COMPANION_SPEECH": speech, **extra}


def run(tmp: Path, environment: dict[str, str]) -> PipedApp:
    return PipedApp(tmp, "--plain", environment=environment)


def first_question(app: PipedApp) -> int:
    """The index of the first question's prompt (the main menu's, in any
    language: a line that ends with a colon)."""
    prompt = app.until(":")
    return app.lines.index(prompt)


def said_once(app: PipedApp, notice: str) -> int:
    """``notice`` was said on exactly one line, before the goodbye: its index."""
    told = [index for index, line in enumerate(app.lines) if notice in line]
    assert len(told) == 1, app.lines
    goodbye = [index for index, line in enumerate(app.lines) if line in GOODBYE.values()]
    assert goodbye and told[0] < goodbye[0], app.lines
    assert goodbye[0] == len(app.lines) - 1, f"something came after the goodbye: {app.lines}"
    return told[0]


def ended(app: PipedApp) -> None:
    app.send("quit")
    code, errors = app.end()
    assert (code, errors) == (0, "")


@pytest.mark.parametrize("language", ["fr", "en"])
def test_no_voice_at_all_is_said_once_before_the_first_question(
        tmp_path: Path, language: str) -> None:
    """No speech-dispatcher, no espeak-ng, no pyttsx3: the player is told
    at the start, before the first question (not after the goodbye, even
    when they quit at once), and not again."""
    notice = {"fr": "Pas de voix : aucun moteur de synthèse vocale n'est installé. "
                    "Installez espeak-ng, ou indiquez dans les Réglages que votre "
                    "lecteur d'écran parle.",
              "en": "No speech: no speech engine is installed. Install espeak-ng, or "
                    "choose in Settings that your screen reader speaks."}[language]
    app = run(tmp_path, machine(tmp_path, language=language, speech="auto"))
    asked = first_question(app)
    ended(app)
    told = said_once(app, notice)
    assert told < asked, app.lines


@pytest.mark.parametrize(("language", "speech", "notice"), [
    ("cs", "espeak-ng", "Bez hlasu: program espeak-ng není nainstalován. Nainstalujte ho, "
                        "nebo v Nastavení vyberte jiný hlas."),
    ("ru", "pyttsx3", "Нет голоса: pyttsx3 не установлен. Установите его или выберите "
                      "другой голос в Настройках."),
    ("en", "speech-dispatcher", "No speech: speech-dispatcher is not installed. Install it, "
                                "or choose another voice in Settings."),
])
def test_the_chosen_voice_not_installed_is_said_once_before_the_first_question(
        tmp_path: Path, language: str, speech: str, notice: str) -> None:
    app = run(tmp_path, machine(tmp_path, language=language, speech=speech))
    asked = first_question(app)
    app.send("4")  # the codes' drill: more said, nothing told again
    app.send("back")
    ended(app)
    assert said_once(app, notice) < asked
    assert not any("Speech" in line or "speech-dispatcher" in line
                   for line in app.lines if language != "en"), "English in a translated run"


class MuteDispatcher:
    """A speech-dispatcher of the session, at its usual socket under
    ``run``, that behaves as the real one does with no sound card and no
    sound server: it takes the connection, every setting and every
    sentence, says each sentence began, and never says one ended (nor a
    cancel). It speaks SSIP, the daemon's own protocol, in a thread."""

    def __init__(self, run: Path) -> None:
        folder = run / "speech-dispatcher"
        folder.mkdir(parents=True)
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(str(folder / "speechd.sock"))
        self.listener.listen()
        self.spoken: list[str] = []
        self._messages = itertools.count(1)
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        with contextlib.suppress(OSError):
            while True:
                connection, _ = self.listener.accept()
                threading.Thread(target=self._talk, args=(connection,), daemon=True).start()

    def _talk(self, connection: socket.socket) -> None:
        with connection, contextlib.suppress(OSError), connection.makefile("rb") as lines:
            receiving: list[str] | None = None
            for raw in lines:
                line = raw.decode().rstrip("\r\n")
                if receiving is not None:
                    if line != ".":
                        receiving.append(line)
                        continue
                    self.spoken.append(" ".join(receiving))
                    receiving, message = None, next(self._messages)
                    connection.sendall(f"225-{message}\r\n225 OK MESSAGE QUEUED\r\n"
                                       f"701-{message}\r\n701-1\r\n701 BEGIN\r\n".encode())
                elif line == "SPEAK":
                    receiving = []
                    connection.sendall(b"230 OK RECEIVING DATA\r\n")
                elif line == "QUIT":
                    connection.sendall(b"231 HAPPY HACKING\r\n")
                    return
                else:  # SET, CANCEL: taken
                    connection.sendall(b"208 OK\r\n")

    def close(self) -> None:
        self.listener.close()


@pytest.fixture
def mute_dispatcher(tmp_path: Path) -> Iterator[MuteDispatcher]:
    daemon = MuteDispatcher(tmp_path / "run")
    yield daemon
    daemon.close()


#: espeak-ng that speaks into nothing: it takes its text and ends well.
QUIET_ESPEAK = "/bin/cat > /dev/null\nexit 0\n"


@pytest.mark.parametrize("espeak", [False, True], ids=["alone", "espeak-ng-next"])
def test_speech_dispatcher_with_no_sound_is_said_once_when_it_is_found(
        tmp_path: Path, mute_dispatcher: MuteDispatcher, espeak: bool) -> None:
    """The session's speech-dispatcher cannot play: found once its first
    sentence has had the time to end (the first question is not held for
    it), said once in the player's language with that cause, never again
    in the session; espeak-ng, when it is there, takes over quietly (the
    notice does not promise a voice that plays on the same missing
    device)."""
    app = run(tmp_path, machine(tmp_path, language="cs", speech="auto",
                                programs={"espeak-ng": QUIET_ESPEAK} if espeak else {}))
    asked = first_question(app)
    notice = "Hlas přestal mluvit: zvukové zařízení není dostupné."
    told = app.index_of(notice)
    assert asked < told, "the first question waited for speech"
    assert mute_dispatcher.spoken, "the app did not speak through the session's daemon"
    line = app.lines[told]
    assert line == notice if espeak else line == f"{notice} Aplikace bude už jen psát."
    for answer in ("4", "2", "t1", "", "back"):  # the drill: more said, nothing told again
        app.send(answer)
    ended(app)
    said_once(app, notice)
    assert not any("speech-dispatcher" in line for line in app.lines), app.lines


#: espeak-ng that speaks (into nothing) until the file ``broken`` is beside
#: it, and from then on ends with an error at every sentence, as a voice
#: whose library broke mid-session.
BREAKING_ESPEAK = ('/bin/cat > /dev/null\n'
                   'if [ -e "${0%/*}/broken" ]; then exit 3; fi\n'
                   'exit 0\n')


def test_a_voice_that_dies_mid_session_is_said_once_when_it_dies(tmp_path: Path) -> None:
    """It worked for a while, then every sentence fails: it is started
    again (with no notice: a voice killed once comes back), and when it
    fails again the player is told once, then, that the app only writes."""
    app = run(tmp_path, machine(tmp_path, language="en", speech="espeak-ng",
                                programs={"espeak-ng": BREAKING_ESPEAK}))
    first_question(app)
    app.send("4")
    app.send("2")  # the drill: sentences spoken by the working voice
    app.until("An empty line stops.")
    app.send("t1")
    app.until("?", "stops.")  # the next card's question (or the same, the code refused)
    assert not any("Speech" in line for line in app.lines), app.lines
    (tmp_path / "bin" / "broken").write_text("")
    broke = len(app.lines)
    app.send("s1")
    notice = "Speech stopped: espeak-ng quit unexpectedly. The app will only write."
    told = app.index_of(notice)
    for code in ("x1", "q1", ""):
        app.send(code)
    app.send("back")
    ended(app)
    assert said_once(app, notice) == told >= broke


#: espeak-ng as the real one behaves on a machine with no sound card (its
#: words recorded there): it opens the sound output as it starts, even with
#: nothing to say, writes why it cannot on its standard error, takes its
#: text and ends as if all were well.
SOUNDLESS_ESPEAK = ('/bin/cat > /dev/null\n'
                    'echo "ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default" >&2\n'
                    'echo "error: No such file or directory" >&2\n'
                    'exit 0\n')
NO_SOUND = {"en": "Speech stopped: the sound device is not available. The app will only write.",
            "fr": "La voix s'est arrêtée : le périphérique audio n'est pas disponible. "
                  "L'application ne fera plus qu'écrire.",
            "cs": "Hlas přestal mluvit: zvukové zařízení není dostupné. Aplikace bude už jen psát.",
            "ru": "Голос замолчал: звуковое устройство недоступно. Приложение будет только "
                  "писать."}


@pytest.mark.parametrize("language", ["ru", "en"])
def test_espeak_ng_with_no_sound_output_is_said_once_before_the_first_question(
        tmp_path: Path, language: str) -> None:
    app = run(tmp_path, machine(tmp_path, language=language, speech="espeak-ng",
                                programs={"espeak-ng": SOUNDLESS_ESPEAK}))
    asked = first_question(app)
    app.send("4")  # the codes' drill: more said, nothing told again
    app.send("back")
    ended(app)
    assert said_once(app, NO_SOUND[language]) < asked


def soundless(tmp: Path) -> dict[str, str]:
    """What makes a machine soundless for the app's processes: ALSA's only
    device a card that is not there, no PulseAudio or PipeWire server."""
    config = tmp / "no-card.conf"
    config.write_text("pcm.!default {\n    type hw\n    card 99\n}\n")
    return {"ALSA_CONFIG_PATH": str(config), "PULSE_SERVER": f"unix:{tmp / 'no-pulse'}"}


@pytest.mark.system
def test_the_real_espeak_ng_with_no_sound_card_is_said_once_before_the_first_question(
        tmp_path: Path) -> None:
    real = shutil.which("espeak-ng")
    assert real is not None, "espeak-ng is needed (scripts/test.sh installs it)"
    app = run(tmp_path, machine(tmp_path, language="fr", speech="espeak-ng",
                                programs={"espeak-ng": f'exec {real} "$@"\n'})
              | soundless(tmp_path))
    asked = first_question(app)
    ended(app)
    assert said_once(app, NO_SOUND["fr"]) < asked


@pytest.mark.system
def test_the_real_pyttsx3_with_no_sound_card_is_said_once_when_it_is_found(
        tmp_path: Path) -> None:
    """pyttsx3 plays each sentence with aplay once it is made: the first
    sentence finds the card missing (aplay says so), and the player is
    told once, in their language."""
    programs = {name: f'exec {found} "$@"\n' for name in ("aplay", "espeak-ng")
                if (found := shutil.which(name)) is not None}
    assert "aplay" in programs, "aplay is needed (alsa-utils)"
    app = run(tmp_path, machine(tmp_path, language="cs", speech="pyttsx3", pyttsx3=True,
                                programs=programs) | soundless(tmp_path))
    first_question(app)
    told = app.index_of(NO_SOUND["cs"])
    app.send("4")
    app.send("back")
    ended(app)
    assert said_once(app, NO_SOUND["cs"]) == told
