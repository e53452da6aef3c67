"""A sound card with no hardware, and a private speech-dispatcher, to hear
what the backends really play (for the tests and ``companion bench speech``).

:class:`SoundSink` is the sound card. For every program started with
:attr:`SoundSink.environment` (``HOME`` pointing at an ``.asoundrc`` of its
own), ALSA's ``default`` device converts whatever is played to 16-bit mono
at 22,050 Hz (ALSA's ``plug``) and hands it to a small ALSA plugin
(devtools/soundcard/companion_card.c, built here with gcc) that behaves as a
card does: a buffer of at most 186 ms that the program fills, played at
the pace of real sound (a program that writes ahead waits for room), and
thrown away on a stop (``snd_pcm_drop``). What it plays goes into a FIFO,
a few milliseconds at a time, as it is played; the sink reads it at once
and keeps every piece with its time. So the first non-silent sample after
``say()`` and the last sample after ``stop()`` are timed as a listener
would hear them. (ALSA's own ``file`` plugin over its ``null`` device was
tried first: it plays nothing at the pace of sound and holds back a whole
buffer, seconds for speech-dispatcher's, before writing anything.)

:class:`PrivateDispatcher` runs the real speech-dispatcher daemon with its
espeak-ng module and its ALSA output into the sink, on a socket of its own:
clients given :attr:`PrivateDispatcher.environment` (``SPEECHD_ADDRESS``)
talk to it and to no other. Without a sink, its ALSA output is a device that
does not exist: a daemon with no sound output, as on a machine with no sound
card and no sound server (it takes every sentence, begins it, and never
ends it).
"""

from __future__ import annotations

import array
import contextlib
import os
import select
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

#: The sink's format: what ALSA converts every stream to before the file.
RATE = 22050
BYTES_PER_SECOND = RATE * 2
#: A sample this far from zero is sound (about -42 dB below full scale).
LOUD = 256

ASOUNDRC = """\
pcm_type.companion {{
    lib "{plugin}"
}}
pcm.!default {{
    type plug
    slave.pcm "companion_card"
}}
pcm.companion_card {{
    type companion
    file "{fifo}"
}}
"""
CARD_SOURCE = Path(__file__).with_name("soundcard") / "companion_card.c"


class SoundCardMissing(RuntimeError):
    """The test sound card cannot be built (gcc or ALSA's headers missing)."""


def build_card(folder: Path) -> Path:
    """The ALSA plugin of the test sound card, compiled into ``folder``."""
    plugin = folder / "libasound_module_pcm_companion.so"
    compiler = shutil.which("gcc")
    if compiler is None:
        raise SoundCardMissing("gcc is needed to build the test sound card")
    done = subprocess.run(
        [compiler, "-shared", "-fPIC", "-DPIC", "-O2", "-o", str(plugin), str(CARD_SOURCE),
         "-lasound", "-lpthread"], capture_output=True, text=True, check=False, timeout=120)
    if done.returncode != 0:
        raise SoundCardMissing(f"the test sound card did not build: {done.stderr.strip()}")
    return plugin


@dataclass(frozen=True, slots=True)
class Piece:
    """Samples read from the sink: when, how many bytes, and whether any is loud."""

    time: float
    size: int
    loud: bool


class SoundSink:
    """A sound card in ``folder`` that keeps what it is given, and when."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        home = folder / "home"
        home.mkdir(parents=True, exist_ok=True)
        self.fifo = folder / "sound-card"
        os.mkfifo(self.fifo)
        card = ASOUNDRC.format(plugin=build_card(folder), fifo=self.fifo)
        (home / ".asoundrc").write_text(card)
        (folder / "asound.conf").write_text(card)
        #: For every program that should play into this sink. A PulseAudio
        #: or PipeWire server that cannot be reached sends programs that try
        #: it first (espeak-ng's audio library) to ALSA, that is, here (its
        #: whole configuration, whatever ALSA_CONFIG_PATH said before).
        self.environment = {"HOME": str(home), "PULSE_SERVER": f"unix:{folder / 'no-pulse'}",
                            "ALSA_CONFIG_PATH": str(folder / "asound.conf")}
        self.pieces: list[Piece] = []
        self._changed = threading.Condition()
        self._closed = False
        # Read and write: the FIFO stays open between players (no end of file
        # when one closes the card), and a player never waits to open it.
        self._fd = os.open(self.fifo, os.O_RDWR | os.O_NONBLOCK)
        self._thread = threading.Thread(target=self._play, daemon=True, name="sound-sink")
        self._thread.start()

    def _play(self) -> None:
        while not self._closed:
            ready, _, _ = select.select([self._fd], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(self._fd, 65536)
            except BlockingIOError:
                continue
            at = time.perf_counter()
            samples = array.array("h", data[: len(data) & ~1])
            loud = any(abs(sample) >= LOUD for sample in samples)
            with self._changed:
                self.pieces.append(Piece(at, len(data), loud))
                self._changed.notify_all()

    # -- what was played -------------------------------------------------------------------

    def first_loud(self, after: float) -> float | None:
        """When the first non-silent sample came after ``after``."""
        with self._changed:
            return next((p.time for p in self.pieces if p.time > after and p.loud), None)

    def last(self, *, loud: bool = False) -> float:
        """When the last sample (the last non-silent one) came; 0 if none."""
        with self._changed:
            return next((p.time for p in reversed(self.pieces) if p.loud or not loud), 0.0)

    def loud_bytes(self, after: float = 0.0) -> int:
        with self._changed:
            return sum(p.size for p in self.pieces if p.time > after and p.loud)

    def wait_loud(self, after: float, timeout: float) -> float | None:
        """Wait for a non-silent sample after ``after``; when it came."""
        with self._changed:
            self._changed.wait_for(lambda: self.first_loud(after) is not None, timeout)
        return self.first_loud(after)

    def wait_quiet(self, quiet: float, timeout: float) -> bool:
        """Wait until nothing has come for ``quiet`` seconds; False if sound
        still came at ``timeout``."""
        deadline = time.perf_counter() + timeout
        with self._changed:
            while True:
                now = time.perf_counter()
                silent_since = self.pieces[-1].time if self.pieces else 0.0
                if now - silent_since >= quiet:
                    return True
                if now >= deadline:
                    return False
                self._changed.wait(min(deadline - now, silent_since + quiet - now))

    def close(self) -> None:
        """The card gone: a player that opens it now fails at once (no
        reader), one that plays on gets an error, and ends."""
        self._closed = True
        self._thread.join(timeout=2)
        os.close(self._fd)
        with contextlib.suppress(FileNotFoundError):
            self.fifo.unlink()


#: An ALSA device no machine has: the daemon's sound output cannot open.
NO_SUCH_DEVICE = "companion_no_such_card"

SPEECHD_CONF = """\
LogLevel 3
LogDir "{logs}"
AudioOutputMethod "alsa"
AudioALSADevice "{device}"
AddModule "espeak-ng" "sd_espeak-ng" "espeak-ng.conf"
DefaultModule espeak-ng
DefaultLanguage "en"
"""


class DispatcherMissing(RuntimeError):
    """speech-dispatcher or its espeak-ng module is not installed."""


class PrivateDispatcher:
    """The real speech-dispatcher daemon, in ``folder``, playing into ``sink``
    (``None``: into no sound output at all), listening at ``socket`` (by
    default in ``folder``; a session's own path makes it the session's
    daemon)."""

    MODULES = Path("/usr/lib/speech-dispatcher-modules")
    MODULE_CONF = Path("/etc/speech-dispatcher/modules/espeak-ng.conf")

    def __init__(self, folder: Path, sink: SoundSink | None, *,
                 socket: Path | None = None, timeout: float = 30.0) -> None:
        program = shutil.which("speech-dispatcher")
        if program is None or not (self.MODULES / "sd_espeak-ng").exists():
            raise DispatcherMissing("speech-dispatcher and its espeak-ng module are needed")
        config, logs = folder / "speechd", folder / "speechd-logs"
        self.configure(config, logs, sound=sink is not None)
        self.socket = socket or folder / "speechd.sock"
        self.socket.parent.mkdir(parents=True, exist_ok=True)
        #: For every client that should speak through this daemon.
        self.environment = {"SPEECHD_ADDRESS": f"unix_socket:{self.socket}"}
        self.logs = logs
        self.process = subprocess.Popen(
            [program, "--run-single", "--timeout", "0", "--config-dir", str(config),
             "--communication-method", "unix_socket", "--socket-path", str(self.socket),
             "--pid-file", str(folder / "speechd.pid"), "--log-dir", str(logs),
             "--module-dir", str(self.MODULES)],
            env={**os.environ, **(sink.environment if sink is not None else {})},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while not self.socket.exists():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise DispatcherMissing(f"speech-dispatcher did not start (see {logs})")
            time.sleep(0.01)  # polling for the socket: the daemon tells nothing else

    @classmethod
    def configure(cls, config: Path, logs: Path, *, sound: bool) -> None:
        """A configuration folder for the daemon: its espeak-ng module, its
        logs in ``logs``, and its ALSA output the ``default`` device, or
        without ``sound`` one that does not exist. (As a user's
        ``~/.config/speech-dispatcher`` it is what a daemon started for that
        user reads.)"""
        (config / "modules").mkdir(parents=True, exist_ok=True)
        logs.mkdir(parents=True, exist_ok=True)
        device = "default" if sound else NO_SUCH_DEVICE
        (config / "speechd.conf").write_text(SPEECHD_CONF.format(logs=logs, device=device))
        if cls.MODULE_CONF.exists():
            shutil.copy(cls.MODULE_CONF, config / "modules" / "espeak-ng.conf")

    def close(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, 15)  # the daemon and its modules
        try:
            self.process.wait(timeout=3)
        except subprocess.TimeoutExpired:  # it can hang closing its modules
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, 9)
            self.process.wait(timeout=10)
