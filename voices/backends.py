"""The speech backends: speech-dispatcher, espeak-ng, pyttsx3, and none.

* ``speech-dispatcher``: the Linux convention; it shares its queue and voice
  settings with the Orca and Fenrir screen readers. One connection to the
  daemon for the whole run (``spd-say`` a sentence when it cannot be had).
* ``espeak-ng``: one process a sentence, killed to interrupt; the next
  one is started ahead and waits for its text, so sound comes within a few
  milliseconds of ``say``.
* ``pyttsx3``: the default on Windows and macOS; on Linux it runs in a
  worker process that can be stopped, because its own ``stop()`` does not
  interrupt and can hang.
* ``none``: the app only writes; the player's screen reader speaks.

Every process gets the null device for its input and output: speech never
writes over the screen.
"""

from __future__ import annotations

import abc
import contextlib
import multiprocessing
import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping
from multiprocessing.connection import Connection
from pathlib import Path

from voices import ssip
from voices.base import (
    Priority,
    QueuedSpeaker,
    SpeechError,
    Utterance,
    VoiceSettings,
    clean,
    render_path,
)

#: espeak-ng's voices for the app's languages.
ESPEAK_VOICES = {"en": "en", "fr": "fr", "cs": "cs", "ru": "ru"}


def _spawn(command: list[str], environment: Mapping[str, str] | None = None, *,
           text_in: bool = False) -> subprocess.Popen[bytes]:
    """Start a speech process in its own session, nothing on the terminal;
    ``environment`` adds to this process's; ``text_in``: its input is a
    pipe, for the text."""
    return subprocess.Popen(
        command, stdin=subprocess.PIPE if text_in else subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, start_new_session=True,
        env={**os.environ, **environment} if environment else None,
    )


def _run(command: list[str], timeout: float) -> int:
    done = subprocess.run(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, timeout=timeout, check=False,
    )
    return done.returncode


class _Running:
    """A speech process, and an event set once it has ended."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self.ended = threading.Event()

    def wait(self) -> bool:
        code = self.process.wait()
        self.ended.set()
        return code in (0, -signal.SIGKILL)

    def kill(self) -> None:
        """Kill it and its children; back once the worker has seen it end."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.ended.wait(1)


class ProcessSpeaker(QueuedSpeaker):
    """A backend that runs one process per sentence, killed to interrupt."""

    #: Added to the environment of its processes (a sound device, a server).
    environment: Mapping[str, str] | None = None

    @abc.abstractmethod
    def _command(self, utterance: Utterance) -> list[str]:
        """The program and arguments that speak this utterance."""

    def _start(self, utterance: Utterance) -> object:
        running = _Running(_spawn(self._command(utterance), self.environment))
        self.timings.started = time.perf_counter()
        return running

    def _wait(self, handle: object) -> bool:
        assert isinstance(handle, _Running)
        return handle.wait()

    def _stop(self, handle: object) -> None:
        assert isinstance(handle, _Running)
        handle.kill()
        self.timings.silenced = time.perf_counter()


class NoSpeech:
    """Screen-reader mode: nothing is spoken, the text is on the screen."""

    name = "none"

    def __init__(self, settings: VoiceSettings | None = None) -> None:
        self.settings = settings or VoiceSettings()

    def say(self, text: str, language: str, priority: Priority = Priority.ROUTINE) -> None:
        del text, language, priority

    def interrupt(self) -> None:
        pass

    def close(self) -> None:
        pass


class EspeakSpeaker(ProcessSpeaker):
    """espeak-ng, a process per sentence. ``sink`` ``"null"`` synthesises
    without playing (a machine with no sound, tests and benchmarks)."""

    name = "espeak-ng"

    def __init__(
        self,
        settings: VoiceSettings | None = None,
        on_failure: Callable[[str], None] | None = None,
        *,
        sink: str = "audio",
        program: str | None = None,
        environment: Mapping[str, str] | None = None,
    ) -> None:
        found = program or shutil.which("espeak-ng")
        if found is None:
            raise SpeechError("espeak-ng is not installed")
        self.program = found
        self.sink = sink
        self.environment = environment
        #: A process started ahead for the next sentence, with its command.
        self._spare: tuple[list[str], subprocess.Popen[bytes]] | None = None
        super().__init__(settings, on_failure)

    def command(self, text: str, language: str, wav: Path | None = None) -> list[str]:
        s = self.settings.clamped()
        command = [
            self.program, "-v", s.voice or ESPEAK_VOICES.get(language, language),
            "-s", str(s.rate), "-p", str(s.pitch), "-a", str(s.volume * 2),
        ]
        if wav is not None:
            command += ["-w", str(wav)]
        elif self.sink == "null":
            command.append("--stdout")
        return [*command, "--", text]

    def _command(self, utterance: Utterance) -> list[str]:
        return self.command(utterance.text, utterance.language)

    def _start(self, utterance: Utterance) -> object:
        """Hand the text to the spare process if it has the same voice (it
        has started, read its voice and is waiting for text: sound comes
        in a few milliseconds), else to a new one; then make the next spare."""
        command = self._command(utterance)
        waiting = [*command[:-2], "--stdin"]  # the same, the text on its input
        spare, self._spare = self._spare, None
        if spare is None or spare[0] != waiting or spare[1].poll() is not None:
            if spare is not None:
                _Running(spare[1]).kill()
            spare = (waiting, _spawn(waiting, self.environment, text_in=True))
        process = spare[1]
        assert process.stdin is not None
        try:
            process.stdin.write(utterance.text.encode() + b"\n")
            process.stdin.close()  # the end of its text: it speaks, then ends
        except OSError:
            pass  # it died waiting: its end is the failure the worker reports
        self.timings.started = time.perf_counter()
        self._spare = (waiting, _spawn(waiting, self.environment, text_in=True))
        return _Running(process)

    def close(self) -> None:
        super().close()
        if self._spare is not None:
            _Running(self._spare[1]).kill()
            self._spare[1].wait()
            self._spare = None

    def render(self, text: str, language: str, wav: Path) -> None:
        """Speak into a WAV file instead of the speakers."""
        command = self.command(clean(text), language, render_path(wav))
        if _run(command, 60) != 0 or not wav.exists():
            raise SpeechError(f"espeak-ng could not write {wav}")


class DispatcherSpeaker(ProcessSpeaker):
    """speech-dispatcher: important sentences go at its ``important``
    priority, echoes at ``text``; interrupting cancels.

    It speaks over one connection kept open on the daemon's socket (SSIP,
    voices/ssip.py): a sentence is one message, a stop one ``CANCEL``.
    When there is no socket to reach, even after asking the daemon to start,
    or when ``program`` is given, it runs ``spd-say`` for each sentence."""

    name = "speech-dispatcher"

    def __init__(
        self,
        settings: VoiceSettings | None = None,
        on_failure: Callable[[str], None] | None = None,
        *,
        program: str | None = None,
        environment: Mapping[str, str] | None = None,
    ) -> None:
        found = program or shutil.which("spd-say")
        if found is None:
            raise SpeechError("speech-dispatcher (spd-say) is not installed")
        self.program = found
        self.environment = environment
        self._connection = None if program else self._connect()
        self._sent: dict[str, str] = {}  # the settings the connection has now
        super().__init__(settings, on_failure)

    @property
    def connected(self) -> bool:
        """Speaking over its own connection to the daemon (not ``spd-say``)."""
        return self._connection is not None and self._connection.alive

    def _connect(self) -> ssip.Connection | None:
        environment = {**os.environ, **(self.environment or {})}
        path = ssip.socket_path(environment)
        if path is None:
            return None
        for attempt in range(2):
            try:
                return ssip.Connection(path)
            except (OSError, SpeechError):
                daemon = shutil.which("speech-dispatcher")
                if attempt or daemon is None or "SPEECHD_ADDRESS" in environment:
                    return None
                # as its own clients do: start it, unless autospawn is off
                with contextlib.suppress(OSError, subprocess.SubprocessError):
                    subprocess.run([daemon, "--spawn"], env=environment, timeout=10,
                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, check=False)
        return None

    def command(self, text: str, language: str, priority: Priority) -> list[str]:
        s = self.settings.clamped()
        command = [
            self.program, "--wait", "-l", language,
            "-r", str(round((s.rate - 175) / 2.75)),  # words a minute to -100..100
            "-p", str(s.pitch * 2 - 100), "-i", str(s.volume * 2 - 100),
            "-P", "important" if priority is Priority.IMPORTANT else "text",
        ]
        if s.voice:
            command += ["-y", s.voice]
        return [*command, "--", text]

    def _command(self, utterance: Utterance) -> list[str]:
        return self.command(utterance.text, utterance.language, utterance.priority)

    def _start(self, utterance: Utterance) -> object:
        connection = self._connection
        if connection is None:
            return super()._start(utterance)
        if not connection.alive:
            raise SpeechError("speech-dispatcher closed the connection")
        s = self.settings.clamped()
        wanted = {
            "PRIORITY": "important" if utterance.priority is Priority.IMPORTANT else "text",
            "LANGUAGE": utterance.language,
            "RATE": str(round((s.rate - 175) / 2.75)),
            "PITCH": str(s.pitch * 2 - 100),
            "VOLUME": str(s.volume * 2 - 100),
        }
        if s.voice:
            wanted["SYNTHESIS_VOICE"] = s.voice
        for key, value in wanted.items():
            if self._sent.get(key) != value:
                connection.command(f"SET self {key} {value}")
                self._sent[key] = value
        message = connection.speak(utterance.text)
        self.timings.started = time.perf_counter()
        return message

    def _wait(self, handle: object) -> bool:
        if isinstance(handle, int) and self._connection is not None:
            return self._connection.wait(handle, 3600)
        return super()._wait(handle)

    def _stop(self, handle: object) -> None:
        if isinstance(handle, int) and self._connection is not None:
            with contextlib.suppress(SpeechError, OSError):
                self._connection.command("CANCEL self")
            self.timings.silenced = time.perf_counter()
            return
        super()._stop(handle)
        _spawn([self.program, "--cancel"], self.environment)  # and what the server has

    def close(self) -> None:
        super().close()
        if self._connection is not None:
            self._connection.close()


# -- pyttsx3 in a worker process ------------------------------------------------------------


def _pyttsx3_worker(connection: Connection, environment: Mapping[str, str] | None = None,
                   ) -> None:
    """Runs pyttsx3 in its own process, with nothing on the terminal, in a
    process group of its own: on Linux pyttsx3 plays through a child
    (``aplay``), and stopping kills the group, the child with it."""
    os.setsid()
    os.environ.update(environment or {})
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    import pyttsx3  # noqa: PLC0415 - only in the worker process

    engine = pyttsx3.init()
    voices = {_language_of(v): v.id for v in engine.getProperty("voices")}
    finished: list[bool] = []
    engine.connect("finished-utterance", lambda name, completed: finished.append(True))
    # a failed utterance never finishes: it must not hold the queue
    engine.connect("error", lambda *args, **kwargs: finished.append(False))
    while True:
        request = connection.recv()
        if request is None:
            return
        kind, text, language, rate, volume, wav = request
        if language in voices:
            engine.setProperty("voice", voices[language])
        engine.setProperty("rate", rate)
        engine.setProperty("volume", volume / 100)
        finished.clear()
        connection.send("started")
        if kind == "render":
            engine.save_to_file(text, wav)
        else:
            engine.say(text)
        engine.runAndWait()
        # On Linux runAndWait can return before the file is written (more so
        # on a loaded machine): the driver finishes it in its own thread, so
        # wait for the finished-utterance callback and the file. (Driving the
        # engine meanwhile, with iterate(), is not allowed outside a loop of
        # its own: it raised, and the worker died mid-render.)
        deadline = time.monotonic() + 30
        while kind == "render" and time.monotonic() < deadline and not (
            finished and Path(wav).exists() and Path(wav).stat().st_size > 44
        ):
            time.sleep(0.01)
        # Spoken aloud, it plays through aplay after runAndWait has returned:
        # done is when it has played (else a stop could not cut it short).
        deadline = time.monotonic() + 600
        while kind == "say" and not finished and time.monotonic() < deadline:
            time.sleep(0.005)
        connection.send("done")


def _language_of(voice: object) -> str:
    for attribute in ("languages", "id", "name"):
        value = getattr(voice, attribute, None)
        texts = value if isinstance(value, list) else [value]
        for item in texts:
            text = item.decode("ascii", "ignore") if isinstance(item, bytes) else item
            if not isinstance(text, str):
                continue
            code = text.lower().lstrip("\x05").replace("_", "-").split("/")[-1].split("-")[0]
            if code in ESPEAK_VOICES:
                return code
    return ""


class Pyttsx3Speaker(QueuedSpeaker):
    """pyttsx3 in a worker process: stopping it is killing the worker, and a
    new one starts for the next sentence."""

    name = "pyttsx3"

    def __init__(
        self,
        settings: VoiceSettings | None = None,
        on_failure: Callable[[str], None] | None = None,
        *,
        environment: Mapping[str, str] | None = None,
    ) -> None:
        try:
            import pyttsx3  # noqa: F401, PLC0415 - installed, or this backend is absent
        except ImportError as error:
            raise SpeechError(f"pyttsx3 cannot be loaded: {error}") from None
        self.environment = dict(environment or {})
        self._context = multiprocessing.get_context("spawn")
        self._worker: tuple[multiprocessing.process.BaseProcess, Connection] | None = None
        # A second worker, already loaded, takes over at once after an interrupt.
        self._spare = self._spawn_worker()
        super().__init__(settings, on_failure)

    def _spawn_worker(self) -> tuple[multiprocessing.process.BaseProcess, Connection]:
        ours, theirs = self._context.Pipe()
        process = self._context.Process(target=_pyttsx3_worker,
                                        args=(theirs, self.environment), daemon=True)
        process.start()
        return process, ours

    def _ensure_worker(self) -> Connection:
        if self._worker is None or not self._worker[0].is_alive():
            self._worker, self._spare = self._spare, self._spawn_worker()
        return self._worker[1]

    def _request(self, kind: str, text: str, language: str, wav: str = "") -> Connection:
        s = self.settings.clamped()
        connection = self._ensure_worker()
        connection.send((kind, text, language, s.rate, s.volume, wav))
        if not connection.poll(30) or connection.recv() != "started":
            raise SpeechError("pyttsx3 did not start speaking")
        self.timings.started = time.perf_counter()
        return connection

    def _start(self, utterance: Utterance) -> object:
        try:
            return self._request("say", utterance.text, utterance.language)
        except (EOFError, OSError) as error:
            raise SpeechError(f"pyttsx3 stopped: {error}") from None

    def _wait(self, handle: object) -> bool:
        assert isinstance(handle, Connection)
        try:
            return bool(handle.poll(600)) and handle.recv() == "done"
        except (EOFError, OSError):
            return False

    def _stop(self, handle: object) -> None:
        del handle
        if self._worker is not None:
            process = self._worker[0]
            if process.pid is not None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, signal.SIGKILL)  # and its aplay
            process.kill()
            process.join(timeout=2)
        self._worker = None
        self.timings.silenced = time.perf_counter()

    def render(self, text: str, language: str, wav: Path) -> None:
        """Speak into a WAV file (waits for the file, as pyttsx3 on Linux needs)."""
        path = render_path(wav)
        try:
            connection = self._request("render", clean(text), language, str(path))
            if not connection.poll(60) or connection.recv() != "done":
                raise SpeechError("pyttsx3 did not finish the file")
        except (EOFError, OSError) as error:
            raise SpeechError(f"pyttsx3 stopped: {error}") from None
        if not path.exists():
            raise SpeechError(f"pyttsx3 did not write {path}")

    def close(self) -> None:
        super().close()
        for worker in (self._worker, self._spare):
            if worker is None:
                continue
            process, connection = worker
            with contextlib.suppress(OSError):
                connection.send(None)
            process.join(timeout=2)
            if process.is_alive():
                process.kill()
