"""The speech backends: speech-dispatcher, espeak-ng, pyttsx3, and none.

* ``speech-dispatcher``: the Linux convention; it shares its queue and voice
  settings with the Orca and Fenrir screen readers. One connection to the
  session's daemon for the whole run; when the session has none, a daemon
  of the app's own (:class:`OwnDaemon`), ended with the app.
* ``espeak-ng``: one process a sentence, killed to interrupt; the next
  one is started ahead and waits for its text, so sound comes within a few
  milliseconds of ``say``.
* ``pyttsx3``: the default on Windows and macOS; it runs in a worker
  process (voices/pyttsx3_worker.py) that can be stopped, because its own
  ``stop()`` does not interrupt and can hang.
* ``none``: the app only writes; the player's screen reader speaks.

Every process gets the null device for its input and output: speech never
writes over the screen. Every process a backend starts is its own to end:
at :meth:`close`, and at the latest when the app's interpreter exits.
Every wait on an engine is bounded; an engine that fails, in any way, is a
:class:`~voices.base.SpeechError` with its :class:`~voices.base.Cause`.
"""

from __future__ import annotations

import abc
import atexit
import contextlib
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Protocol

from voices import ssip
from voices.base import (
    Cause,
    Priority,
    QueuedSpeaker,
    SpeechError,
    Utterance,
    VoiceSettings,
    clean,
    render_path,
)
from voices.pyttsx3_worker import no_sound

#: espeak-ng's voices for the app's languages.
ESPEAK_VOICES = {"en": "en", "fr": "fr", "cs": "cs", "ru": "ru"}


class _Owned(Protocol):
    def stop(self) -> None: ...


#: The processes of the backends that are still running: each is ended when
#: the interpreter exits, if its backend was not closed before.
_OWNED: set[_Owned] = set()


@atexit.register
def _end_owned() -> None:
    for owned in list(_OWNED):
        with contextlib.suppress(Exception):  # the app is ending: end the rest anyway
            owned.stop()


#: The status of a process :func:`_kill_group` killed: SIGKILL's, or on
#: Windows the exit code ``Popen.kill`` gives it (TerminateProcess's 1).
KILLED = -signal.SIGKILL if hasattr(signal, "SIGKILL") else 1


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """Kill a process and the group it leads (its children), now (on
    Windows, which has no process groups, the process)."""
    if hasattr(os, "killpg"):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        process.kill()


def _spawn(command: list[str], environment: Mapping[str, str] | None = None, *,
           text_in: bool = False, errors: bool = False) -> subprocess.Popen[bytes]:
    """Start a speech process in its own session, nothing on the terminal;
    ``environment`` adds to this process's; ``text_in``: its input is a
    pipe, for the text; ``errors``: its standard error is a pipe, read
    once it has ended (what it says there is a few lines at most)."""
    return subprocess.Popen(
        command, stdin=subprocess.PIPE if text_in else subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE if errors else subprocess.DEVNULL, start_new_session=True,
        env={**os.environ, **environment} if environment else None,
    )


def _run(command: list[str], timeout: float) -> int:
    done = subprocess.run(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, timeout=timeout, check=False,
    )
    return done.returncode


def _end(process: subprocess.Popen[bytes]) -> None:
    """Kill a process no worker waits on (a spare), reap it, close its input."""
    _kill_group(process)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)
    for pipe in (process.stdin, process.stderr):
        if pipe is not None:
            with contextlib.suppress(OSError):
                pipe.close()


class _Running:
    """A speech process, and an event set once it has ended."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self.ended = threading.Event()
        #: What it wrote on its standard error, if that was a pipe (once it ended).
        self.errors = ""

    def wait(self) -> bool:
        code = self.process.wait()
        if self.process.stderr is not None:
            with contextlib.suppress(OSError, ValueError):
                self.errors = self.process.stderr.read().decode("utf-8", "replace")
                self.process.stderr.close()
        self.ended.set()
        return code in (0, KILLED)

    def kill(self) -> None:
        """Kill it and its children; back once the worker has seen it end."""
        _kill_group(self.process)
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
        on_failure: Callable[[Cause], None] | None = None,
        *,
        sink: str = "audio",
        program: str | None = None,
        environment: Mapping[str, str] | None = None,
    ) -> None:
        found = program or shutil.which("espeak-ng")
        if found is None:
            raise SpeechError("espeak-ng is not installed", Cause.NOT_INSTALLED)
        self.program = found
        self.sink = sink
        self.environment = environment
        if sink == "audio":
            self._check_sound()
        #: A process started ahead for the next sentence, with its command.
        self._spare: tuple[list[str], subprocess.Popen[bytes]] | None = None
        super().__init__(settings, on_failure)

    def _check_sound(self) -> None:
        """espeak-ng opens the sound output as it starts, even with nothing
        to say: when it cannot (no sound card, no sound server) it says so
        on its standard error and ends as if all were well. Asked once here
        (a few milliseconds), so that the player is told before the first
        question; a sound output lost later is found at the next sentence."""
        try:
            done = subprocess.run(
                [self.program, "--", ""], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE, timeout=10, check=False, start_new_session=True,
                env={**os.environ, **self.environment} if self.environment else None)
        except (OSError, subprocess.TimeoutExpired):
            return  # it cannot even start: its first sentence fails with that cause
        if no_sound(done.stderr.decode("utf-8", "replace")):
            raise SpeechError("espeak-ng found no sound output", Cause.NO_SOUND_OUTPUT)

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
        audio = self.sink == "audio"
        if spare is None or spare[0] != waiting or spare[1].poll() is not None:
            if spare is not None:
                _end(spare[1])
            spare = (waiting, _spawn(waiting, self.environment, text_in=True, errors=audio))
        process = spare[1]
        assert process.stdin is not None
        try:
            process.stdin.write(utterance.text.encode() + b"\n")
            process.stdin.close()  # the end of its text: it speaks, then ends
        except OSError:
            pass  # it died waiting: its end is the failure the worker reports
        self.timings.started = time.perf_counter()
        self._spare = (waiting, _spawn(waiting, self.environment, text_in=True, errors=audio))
        return _Running(process)

    def _wait(self, handle: object) -> bool:
        ended = super()._wait(handle)
        assert isinstance(handle, _Running)
        if no_sound(handle.errors):  # it said it could not play, and ended "well"
            raise SpeechError("espeak-ng found no sound output", Cause.NO_SOUND_OUTPUT)
        return ended

    def close(self) -> None:
        super().close()
        if self._spare is not None:
            _end(self._spare[1])
            self._spare = None

    def render(self, text: str, language: str, wav: Path) -> None:
        """Speak into a WAV file instead of the speakers."""
        command = self.command(clean(text), language, render_path(wav))
        if _run(command, 60) != 0 or not wav.exists():
            raise SpeechError(f"espeak-ng could not write {wav}")


# -- speech-dispatcher -------------------------------------------------------------------

#: Seconds a daemon the app starts may take to open its socket.
DAEMON_STARTS_WITHIN = 10.0
#: Seconds with no client after which a daemon the app started ends by
#: itself (when the app was killed and could not end it).
DAEMON_IDLE_TIMEOUT = 10
#: Seconds speech-dispatcher may take to begin a sentence (it waits while a
#: screen reader's speech goes first), and to confirm a stop.
BEGIN_WITHIN = 60.0
STOPPED_WITHIN = 3.0
#: A sentence must end within ``OVERTIME`` times its speaking time at the
#: voice's rate, plus ``MARGIN`` seconds: a daemon that cannot open its
#: sound output begins every sentence and never ends one.
OVERTIME, MARGIN = 2.0, 4.0
#: Seconds a stop waits for the worker to have sent the daemon its cancel.
CANCEL_SENT_WITHIN = 0.2


def speaking_time(text: str, rate: int) -> float:
    """Seconds ``text`` takes to say at ``rate`` words a minute (a word
    being six characters, its space included).

    >>> speaking_time("x" * 6 * 175, 175)
    60.0
    """
    return len(text) / (max(rate, 1) * 6 / 60)


#: Runs a daemon (its arguments) and ends the whole process group (itself,
#: the daemon, the daemon's modules) once its input ends, that is once the
#: app that started it is gone, even killed with SIGKILL (a daemon stuck on
#: its sound output ends neither by its idle timeout nor on SIGTERM). It
#: ends with the daemon's status when the daemon ends by itself.
#: (Its first argument is the daemon's folder, removed then too.)
WATCHED = ('folder=$1; shift; exec 3<&0 0</dev/null; "$@" & daemon=$!; '
           '(read -r _ <&3; rm -rf "$folder"; kill -KILL 0) & watcher=$!; '
           'wait "$daemon"; code=$?; kill -KILL "$watcher"; exit "$code"')


class OwnDaemon:
    """A speech-dispatcher the app had to start, the session having none: on
    a socket of its own in a private folder, in a process group of its own
    (:data:`WATCHED`: the daemon and its modules), ended by :meth:`stop`
    (its backend's close, or the interpreter's exit) with SIGKILL if SIGTERM
    is not enough, and by its watch if the app is killed."""

    def __init__(self, program: str, environment: Mapping[str, str], *,
                 within: float = DAEMON_STARTS_WITHIN) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="companion-speechd-"))
        self.socket = self.folder / "speechd.sock"
        try:
            self.process = subprocess.Popen(
                ["sh", "-c", WATCHED, "speech-dispatcher", str(self.folder),
                 program, "--run-single", "--timeout", str(DAEMON_IDLE_TIMEOUT),
                 "--communication-method", "unix_socket", "--socket-path", str(self.socket),
                 "--pid-file", str(self.folder / "speechd.pid"),
                 "--log-dir", str(self.folder)],
                env=dict(environment), stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, start_new_session=True)
        except OSError as error:
            shutil.rmtree(self.folder, ignore_errors=True)
            raise SpeechError(f"speech-dispatcher could not be started: {error}") from None
        _OWNED.add(self)
        deadline = time.monotonic() + within
        while not self.socket.exists():  # the daemon tells nothing else: look for it
            if self.process.poll() is not None:
                self.stop()
                raise SpeechError("speech-dispatcher ended as it started", Cause.DIED)
            if time.monotonic() > deadline:
                self.stop()
                raise SpeechError(f"speech-dispatcher did not open its socket in {within:.0f} s",
                                  Cause.NO_ANSWER)
            time.sleep(0.02)

    def stop(self) -> None:
        """End it (whoever else is ending it too: the one who is, at the
        interpreter's exit, may be stopped halfway)."""
        if hasattr(os, "killpg"):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGTERM)
        else:
            self.process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=1)
        _kill_group(self.process)  # the daemon if it is stuck, and a module left behind
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        _OWNED.discard(self)
        shutil.rmtree(self.folder, ignore_errors=True)


@dataclass
class _Message:
    """A sentence given to the daemon, as its worker follows it."""

    id: int
    length: float  # its speaking time, in seconds
    sent: float = field(default_factory=time.monotonic)
    #: When a stop was asked (the worker sends the cancel).
    stop: float | None = None
    #: The cancel is sent, or the worker is done with this message.
    settled: threading.Event = field(default_factory=threading.Event)


class DispatcherSpeaker(ProcessSpeaker):
    """speech-dispatcher: important sentences go at its ``important``
    priority, echoes at ``text``; interrupting cancels.

    It speaks over one connection kept open on the daemon's socket (SSIP,
    voices/ssip.py): a sentence is one message, a stop one ``CANCEL``. The
    session's daemon when one listens; else, unless ``SPEECHD_ADDRESS``
    names one, a daemon of its own (:class:`OwnDaemon`), ended at
    :meth:`close`. Every wait is bounded: a daemon that does not take the
    connection, does not answer, begins a sentence and never ends it (no
    sound output) or does not confirm a stop fails with its cause.

    Given ``program`` (``spd-say``), it runs that for each sentence instead."""

    name = "speech-dispatcher"

    def __init__(
        self,
        settings: VoiceSettings | None = None,
        on_failure: Callable[[Cause], None] | None = None,
        *,
        program: str | None = None,
        environment: Mapping[str, str] | None = None,
    ) -> None:
        self.program = program or "spd-say"
        self.environment = environment
        self._daemon: OwnDaemon | None = None
        self._cancels: list[subprocess.Popen[bytes]] = []  # spd-say --cancel, when used
        self._connection = None if program else self._connect(
            {**os.environ, **(environment or {})})
        self._sent: dict[str, str] = {}  # the settings the connection has now
        super().__init__(settings, on_failure)

    @property
    def connected(self) -> bool:
        """Speaking over its own connection to the daemon (not ``spd-say``)."""
        return self._connection is not None and self._connection.alive

    @property
    def own_daemon(self) -> OwnDaemon | None:
        """The daemon it started, if the session had none."""
        return self._daemon

    def _connect(self, environment: Mapping[str, str]) -> ssip.Connection:
        path = ssip.socket_path(environment)
        if path is None:
            raise SpeechError("speech-dispatcher's address is not a Unix socket "
                              f"({environment.get('SPEECHD_ADDRESS')}): only those are used")
        try:
            return ssip.Connection(path)
        except OSError:
            pass  # no daemon listens there
        if "SPEECHD_ADDRESS" in environment:
            raise SpeechError(f"no speech-dispatcher listens at {path}", Cause.NO_ANSWER)
        program = shutil.which("speech-dispatcher", path=environment.get("PATH"))
        if program is None:
            raise SpeechError("speech-dispatcher is not installed", Cause.NOT_INSTALLED)
        try:
            daemon = OwnDaemon(program, environment)
        except SpeechError as error:
            if error.cause is not Cause.DIED:
                raise
            # it ends at once when it cannot set the locale (LANG names one
            # this machine lacks); the language it speaks comes with each sentence
            daemon = OwnDaemon(program, {**environment, "LC_ALL": "C.UTF-8"})
        try:
            connection = ssip.Connection(daemon.socket)
        except OSError as error:
            daemon.stop()
            raise SpeechError(f"speech-dispatcher's socket refused the connection: {error}",
                              Cause.NO_ANSWER) from None
        except SpeechError:
            daemon.stop()
            raise
        self._daemon = daemon
        return connection

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
            raise SpeechError("speech-dispatcher closed the connection", Cause.DIED)
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
        message = _Message(connection.speak(utterance.text),
                           speaking_time(utterance.text, s.rate))
        self.timings.started = time.perf_counter()
        return message

    def _wait(self, handle: object) -> bool:
        if not isinstance(handle, _Message):
            return super()._wait(handle)
        assert self._connection is not None
        try:
            return self._follow(self._connection, handle)
        finally:
            handle.settled.set()

    def _follow(self, connection: ssip.Connection, message: _Message) -> bool:
        """Until the daemon says ``message`` is over; the cancel sent when a
        stop is asked; a :class:`SpeechError` when it takes too long."""
        begun: float | None = None  # when it began: from then on it must end in time
        while True:
            state = connection.state(message.id)
            if state in ssip.DONE:
                connection.forget(message.id)
                return True
            if not connection.alive:
                raise SpeechError("speech-dispatcher closed the connection", Cause.DIED)
            if message.stop is not None and not message.settled.is_set():
                connection.command("CANCEL self")
                self.timings.silenced = time.perf_counter()
                message.settled.set()
            now = time.monotonic()
            if state == ssip.BEGIN and begun is None:
                begun = now
            if message.stop is not None:
                deadline = message.stop + STOPPED_WITHIN
            elif begun is None:
                deadline = message.sent + BEGIN_WITHIN
            else:
                deadline = begun + MARGIN + OVERTIME * message.length
            if now >= deadline:
                connection.forget(message.id)
                if ssip.BEGIN in connection.seen and not connection.seen & ssip.DONE:
                    # it begins sentences and never ends one, not even when told
                    raise SpeechError("speech-dispatcher began a sentence and never ended it",
                                      Cause.NO_SOUND_OUTPUT)
                raise SpeechError("speech-dispatcher did not say when its sentence ended",
                                  Cause.NO_ANSWER)
            # a stop asked meanwhile, its cancel not sent yet, is seen at once
            connection.wait_change(deadline - now, until=lambda: (
                message.stop is not None and not message.settled.is_set()))

    def _stop(self, handle: object) -> None:
        if isinstance(handle, _Message) and self._connection is not None:
            # the worker sends the cancel: its commands and the stop's keep
            # their order, and a key never waits on a daemon that hangs
            handle.stop = time.monotonic()
            self._connection.nudge()
            handle.settled.wait(CANCEL_SENT_WITHIN)
            return
        super()._stop(handle)
        # and what the server has: each cancel is ended at the latest at close
        self._cancels = [c for c in self._cancels if c.poll() is None]
        self._cancels.append(_spawn([self.program, "--cancel"], self.environment))

    def close(self) -> None:
        super().close()
        if self._connection is not None:
            self._connection.close()
        for cancel in self._cancels:
            try:
                cancel.wait(timeout=2)
            except subprocess.TimeoutExpired:
                _kill_group(cancel)
                cancel.wait(timeout=5)
        self._cancels = []
        if self._daemon is not None:
            self._daemon.stop()


# -- pyttsx3 in a worker process ------------------------------------------------------------

#: The worker's program (run by the same Python as the app).
WORKER = Path(__file__).with_name("pyttsx3_worker.py")
#: Seconds the worker may take to begin a sentence (its first one loads pyttsx3).
PYTTSX3_STARTS_WITHIN = 30.0


class _Worker:
    """The pyttsx3 worker process, its requests' pipe, and its answers read
    by a thread of its own (a pipe cannot be waited on with a timeout on
    every system)."""

    def __init__(self, environment: Mapping[str, str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(WORKER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, start_new_session=True,
            env={**os.environ, **environment})
        _OWNED.add(self)
        self._answers: queue.Queue[str] = queue.Queue()
        assert self.process.stdout is not None
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True,
                         name="pyttsx3-answers").start()

    def _read(self, answers: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):
            for line in answers:
                self._answers.put(line.decode("utf-8", "replace").strip())
        self._answers.put("")  # the end: the worker is gone

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def send(self, request: dict[str, object] | None) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(json.dumps(request).encode() + b"\n")
            stdin.flush()
        except (OSError, ValueError):  # it died, or was stopped
            raise SpeechError("pyttsx3's worker ended", Cause.DIED) from None

    def answer(self, timeout: float) -> str | None:
        """The next answer; ``""`` if the worker ended, ``None`` if nothing
        came in time."""
        try:
            return self._answers.get(timeout=timeout)
        except queue.Empty:
            return None

    def kill(self) -> None:
        """End it now, with what it plays through (``aplay``)."""
        _kill_group(self.process)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        _OWNED.discard(self)
        for pipe in (self.process.stdin, self.process.stdout):
            with contextlib.suppress(OSError):
                if pipe is not None:
                    pipe.close()

    def stop(self) -> None:
        """End it: asked first, killed if it does not end in two seconds."""
        with contextlib.suppress(SpeechError):
            self.send(None)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=2)
        self.kill()


class Pyttsx3Speaker(QueuedSpeaker):
    """pyttsx3 in a worker process: stopping it is killing the worker, and a
    new one starts for the next sentence (one is started ahead, loaded and
    waiting, so the next sentence does not wait for pyttsx3 to load)."""

    name = "pyttsx3"

    def __init__(
        self,
        settings: VoiceSettings | None = None,
        on_failure: Callable[[Cause], None] | None = None,
        *,
        environment: Mapping[str, str] | None = None,
    ) -> None:
        try:
            import pyttsx3  # noqa: F401, PLC0415 - installed, or this backend is absent
        except ImportError as error:
            raise SpeechError(f"pyttsx3 cannot be loaded: {error}",
                              Cause.NOT_INSTALLED) from None
        self.environment = dict(environment or {})
        self._worker: _Worker | None = None
        self._spare = _Worker(self.environment)
        super().__init__(settings, on_failure)

    def _ensure_worker(self) -> _Worker:
        if self._worker is None or not self._worker.alive:
            if self._worker is not None:
                self._worker.kill()
            self._worker, self._spare = self._spare, _Worker(self.environment)
        return self._worker

    def _request(self, kind: str, text: str, language: str, wav: str = "") -> _Worker:
        s = self.settings.clamped()
        worker = self._ensure_worker()
        with contextlib.suppress(SpeechError):  # it ended: its last answer says why
            worker.send({"kind": kind, "text": text, "language": language, "rate": s.rate,
                         "volume": s.volume, "wav": wav})
        answer = worker.answer(PYTTSX3_STARTS_WITHIN)
        if answer is None:
            raise SpeechError("pyttsx3 did not start speaking", Cause.NO_ANSWER)
        if answer == "unavailable":
            raise SpeechError("pyttsx3 has no speech engine here", Cause.NOT_INSTALLED)
        if answer != "started":
            raise SpeechError("pyttsx3's worker ended", Cause.DIED)
        self.timings.started = time.perf_counter()
        return worker

    def _start(self, utterance: Utterance) -> object:
        return self._request("say", utterance.text, utterance.language)

    def _wait(self, handle: object) -> bool:
        assert isinstance(handle, _Worker)
        answer = handle.answer(600)
        if answer == "failed":
            raise SpeechError("pyttsx3 could not say a sentence")
        if answer == "no-sound":
            raise SpeechError("pyttsx3's player found no sound output", Cause.NO_SOUND_OUTPUT)
        return answer == "done"

    def _stop(self, handle: object) -> None:
        del handle
        if self._worker is not None:
            self._worker.kill()
        self._worker = None
        self.timings.silenced = time.perf_counter()

    def render(self, text: str, language: str, wav: Path) -> None:
        """Speak into a WAV file (waits for the file, as pyttsx3 on Linux needs)."""
        path = render_path(wav)
        worker = self._request("render", clean(text), language, str(path))
        if worker.answer(60) != "done":
            raise SpeechError("pyttsx3 did not finish the file")
        if not path.exists():
            raise SpeechError(f"pyttsx3 did not write {path}")

    def close(self) -> None:
        super().close()
        for worker in (self._worker, self._spare):
            if worker is not None:
                worker.stop()
        self._worker = None


# -- what this machine has (companion doctor) -----------------------------------------------------

#: Where speech-dispatcher's output modules are (Debian, Fedora, Arch).
DISPATCHER_MODULES = ("/usr/lib/speech-dispatcher-modules",
                      "/usr/lib/*/speech-dispatcher-modules",
                      "/usr/libexec/speech-dispatcher-modules",
                      "/usr/lib64/speech-dispatcher-modules")
#: Seconds ``espeak-ng --voices`` may take.
LISTING_WITHIN = 10.0


def espeak_languages(program: str | None = None) -> tuple[str, ...] | None:
    """The app's languages espeak-ng has a voice for, or ``None`` when it is
    not installed or does not answer (:data:`LISTING_WITHIN`)."""
    found = program or shutil.which("espeak-ng")
    if found is None:
        return None
    try:
        done = subprocess.run([found, "--voices"], stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=LISTING_WITHIN, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    codes = {line.split()[1].split("-")[0] for line in
             done.stdout.decode("utf-8", "replace").splitlines()[1:] if len(line.split()) > 1}
    return tuple(sorted(codes & set(ESPEAK_VOICES)))


def dispatcher_modules() -> tuple[str, ...]:
    """speech-dispatcher's output modules that speak (espeak-ng, for
    example; not its dummy or generic ones), as its files say (no daemon
    is started to ask)."""
    names = {path.name.removeprefix("sd_") for pattern in DISPATCHER_MODULES
             for path in Path("/").glob(pattern.lstrip("/") + "/sd_*")}
    return tuple(sorted(names - {"dummy", "generic"}))


def pyttsx3_languages(environment: Mapping[str, str] | None = None,
                      timeout: float = PYTTSX3_STARTS_WITHIN) -> tuple[str, ...] | None:
    """The app's languages the system's voices speak through pyttsx3 (SAPI 5,
    NSSpeechSynthesizer, espeak-ng), asked of a worker; ``None`` when pyttsx3
    does not start here or does not answer within ``timeout``."""
    try:
        worker = _Worker(environment or {})
    except OSError:
        return None
    try:
        worker.send({"kind": "languages"})
        answer = worker.answer(timeout)
    except SpeechError:
        return None
    finally:
        worker.stop()
    if answer is None or not answer.startswith("languages"):
        return None
    return tuple(sorted(filter(None, answer.removeprefix("languages").strip().split(","))))
