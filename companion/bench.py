"""Benchmarks of the app's own parts on the user's machine: ``companion bench
scan`` and ``bench speech`` (each game measures its engine: ``companion bench
engine --game NAME``). The developers' benchmarks, on test rigs, are in
devtools/ (``python -m devtools bench ...``).

Figures are measured, never asserted by the test suite: the tests check that
the benchmarks run and report sane numbers, the figures themselves are read
by a person (or CI's log) against the targets in the docs.
"""

from __future__ import annotations

import socket
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.contract.game import Progressed, no_progress
from companion.stats import percentile
from companion.tablebench import WEB_PATIENCE, bench_table
from firmware_bridge.events import CardIdentified, InputEvent
from firmware_bridge.link import LinkSettings, ScannerLink
from firmware_bridge.registry import Registry
from firmware_bridge.virtual import VirtualScanner
from voices.backends import DispatcherSpeaker, EspeakSpeaker, Pyttsx3Speaker
from voices.base import QueuedSpeaker, SpeechError


@dataclass(frozen=True, slots=True)
class ScanFigures:
    """Latency from a line written on the device side to the card event."""

    latency_ms_p50: float
    latency_ms_p99: float
    sent: int
    received: int
    lost: int
    doubled: int
    seconds: float


def bench_scan(*, seconds: float = 10.0, rate: float = 200.0,
               progress: Progressed = no_progress) -> ScanFigures:
    """Scans at ``rate`` a second for ``seconds`` through a pseudo-terminal,
    the real link and its event handler; ``progress`` is told the scans sent."""
    sent_at: dict[str, float] = {}
    latencies: list[float] = []
    seen: dict[str, int] = {}
    found = threading.Event()
    lock = threading.Lock()

    def handler(event: InputEvent) -> None:
        now = time.perf_counter()
        if isinstance(event, CardIdentified) and event.uid is not None:
            with lock:
                seen[event.uid] = seen.get(event.uid, 0) + 1
                if seen[event.uid] == 1 and event.uid in sent_at:
                    latencies.append(now - sent_at[event.uid])
        elif not isinstance(event, CardIdentified):
            found.set()

    with tempfile.TemporaryDirectory() as folder:
        scanner = VirtualScanner(link=Path(folder) / "scanner")
        link = ScannerLink(str(scanner.link), handler, Registry(Path(folder) / "registry.json"),
                           LinkSettings(problem_every=1.0))
        with link:
            if not found.wait(10):
                raise RuntimeError("the virtual scanner did not answer")
            total = int(seconds * rate)
            start = time.perf_counter()
            for n in range(total):
                due = start + n / rate
                while (ahead := due - time.perf_counter()) > 0:
                    time.sleep(min(ahead, 0.002))
                uid = f"{n:08X}"
                with lock:
                    sent_at[uid] = time.perf_counter()
                scanner.scan(uid)
                progress(n + 1, total)
            deadline = time.perf_counter() + 2.0
            while time.perf_counter() < deadline and len(seen) < total:
                time.sleep(0.01)
            elapsed = time.perf_counter() - start
        scanner.close()
    with lock:
        received = sum(1 for uid in sent_at if uid in seen)
        doubled = sum(n - 1 for n in seen.values() if n > 1)
        values = list(latencies) or [float("nan")]
    return ScanFigures(
        latency_ms_p50=percentile(values, 0.50) * 1000,
        latency_ms_p99=percentile(values, 0.99) * 1000,
        sent=len(sent_at),
        received=received,
        lost=len(sent_at) - received,
        doubled=doubled,
        seconds=elapsed,
    )


@dataclass(frozen=True, slots=True)
class SpeechFigures:
    """For one backend: from ``say`` to its speech process running (start)
    and from ``interrupt`` to the process gone (interrupt); and where a
    listener hears it, on the developers' test sound card (devtools/rig.py,
    ``python -m devtools bench speech``): from ``say`` to the first
    non-silent sample written to the card (first audio) and from
    ``interrupt`` to the last sample written (stop). ``None`` when not
    measured on that card (``companion bench speech``, on the user's
    machine, measures the processes only)."""

    backend: str
    start_ms_p50: float
    start_ms_p95: float
    interrupt_ms_max: float
    runs: int
    first_audio_ms_p50: float | None = None
    first_audio_ms_p95: float | None = None
    stop_ms_max: float | None = None

    def as_json(self) -> dict[str, float | int | None]:
        """The figures under the names ``companion bench speech --json`` prints."""
        def rounded(value: float | None) -> float | None:
            return None if value is None else round(value, 2)
        return {
            "start_ms_p50": rounded(self.start_ms_p50),
            "start_ms_p95": rounded(self.start_ms_p95),
            "interrupt_ms_max": rounded(self.interrupt_ms_max),
            "first_audio_ms_p50": rounded(self.first_audio_ms_p50),
            "first_audio_ms_p95": rounded(self.first_audio_ms_p95),
            "stop_ms_max": rounded(self.stop_ms_max),
            "runs": self.runs,
        }

    def describe(self) -> str:
        """The figures in a line for people."""
        line = (f"{self.backend}: start p50 {self.start_ms_p50:.1f} ms, "
                f"p95 {self.start_ms_p95:.1f} ms; interrupt at most "
                f"{self.interrupt_ms_max:.1f} ms")
        if self.first_audio_ms_p50 is not None and self.first_audio_ms_p95 is not None:
            line += (f"; first audio p50 {self.first_audio_ms_p50:.1f} ms, "
                     f"p95 {self.first_audio_ms_p95:.1f} ms")
        if self.stop_ms_max is not None:
            line += f"; stop at most {self.stop_ms_max:.1f} ms"
        return line + f" ({self.runs} runs)"


#: What the process runs say: long enough never to end before its stop.
LONG_TEXT = "Tempura, two pairs, ten points. " * 400


def bench_speech_backend(speaker: QueuedSpeaker, *, runs: int = 20,
                         ran: Callable[[int], None] = lambda run: None) -> SpeechFigures:
    """Measure one backend's processes over ``runs`` runs: from ``say`` to
    its speech process running, and from ``interrupt`` to the process gone;
    ``ran`` is told the runs done after each.
    (What a listener hears, first audio and stop, is measured on the
    developers' test sound card: ``python -m devtools bench speech``.)"""
    starts: list[float] = []
    interrupts: list[float] = []
    for _ in range(runs):
        speaker.interrupt()
        speaker.idle(5)
        before = time.perf_counter()
        speaker.say(LONG_TEXT, "en")
        deadline = before + 10
        while speaker.timings.started < before and time.perf_counter() < deadline:
            time.sleep(0.0002)
        if speaker.timings.started < before:
            raise RuntimeError(f"{speaker.name} did not start speaking")
        starts.append(speaker.timings.started - before)
        time.sleep(0.02)
        stop = time.perf_counter()
        speaker.interrupt()
        interrupts.append(max(0.0, speaker.timings.silenced - stop))
        ran(len(interrupts))
    return SpeechFigures(
        backend=speaker.name,
        start_ms_p50=percentile(starts, 0.5) * 1000,
        start_ms_p95=percentile(starts, 0.95) * 1000,
        interrupt_ms_max=max(interrupts) * 1000,
        runs=runs,
    )


def bench_speech(*, runs: int = 20, progress: Progressed = no_progress) -> list[SpeechFigures]:
    """Every backend present on this machine, as the app would use it:
    speech-dispatcher the user's own daemon, espeak-ng synthesising without
    playing (twenty long sentences cut short would be noise), pyttsx3 on
    the default sound device. A backend that is not installed here, or
    does not start speaking (speech-dispatcher with no sound output), is
    left out. ``progress`` is told the runs done of every backend's (a
    backend left out takes its runs out of the total)."""
    makers: list[Callable[[], QueuedSpeaker]] = [
        DispatcherSpeaker, lambda: EspeakSpeaker(sink="null"), Pyttsx3Speaker]
    figures = []
    total = runs * len(makers)
    done = 0

    def ran(run: int) -> None:
        progress(done + run, total)

    progress(done, total)
    for maker in makers:
        try:
            speaker = maker()
        except SpeechError:
            total -= runs
            progress(done, total)
            continue  # not on this machine
        try:
            figures.append(bench_speech_backend(speaker, runs=runs, ran=ran))
            done += runs
        except RuntimeError:
            total -= runs
            progress(done, total)
            continue  # it does not speak on this machine: nothing to time
        finally:
            speaker.close()
    progress(done, total)
    return figures


@dataclass(frozen=True, slots=True)
class WebFigures:
    """The web face on this machine: an answer posted until its reply is
    back (as the page's script gets it), and a public event's fan-out at a
    shared table of ``seats`` devices (until every other seat's page and
    the host's have it), in milliseconds; the first page's bytes with its
    script and style."""

    answer_ms_p50: float
    answer_ms_p95: float
    fanout_ms_p50: float
    fanout_ms_p95: float
    runs: int
    seats: int
    lost: int
    first_page_bytes: int

    def as_json(self) -> dict[str, object]:
        return {
            "answer_ms": {"p50": round(self.answer_ms_p50, 3), "p95": round(self.answer_ms_p95, 3)},
            "fanout_ms": {"p50": round(self.fanout_ms_p50, 3), "p95": round(self.fanout_ms_p95, 3)},
            "runs": self.runs, "seats": self.seats, "lost": self.lost,
            "first_page_bytes": self.first_page_bytes,
        }




class _WebRig:
    """A web face on 127.0.0.1, any free port, over Learn the codes (each
    code typed is read back), its settings kept in memory: nothing on disk
    is touched. Ended (the conversation, the server, their threads) with
    the block."""

    def __init__(self) -> None:
        import random  # noqa: PLC0415 - the web benchmark's

        from companion.contract.events import Verbosity  # noqa: PLC0415
        from companion.conversation.core import Talk  # noqa: PLC0415
        from companion.conversation.scanning import Scanner  # noqa: PLC0415
        from companion.conversation.services import Kept  # noqa: PLC0415
        from companion.conversation.speech import SpeechService  # noqa: PLC0415
        from companion.faces.web.face import WebFace  # noqa: PLC0415
        from companion.faces.web.server import WebServer, bind  # noqa: PLC0415
        from companion.settings import Settings  # noqa: PLC0415

        settings = Settings(language="en", speech="none", verbosity=Verbosity.NORMAL.value)
        self.face = WebFace(lambda: settings.language)
        self.talk = Talk(self.face, self.face.inbox, settings, rng=random.Random(0),
                         speech=SpeechService(self.face.show, speech="none"),
                         listening=Scanner(""), kept=Kept(settings, save=lambda chosen: None))
        self.server = WebServer(self.face)
        self.sock = bind("127.0.0.1", 0)
        self.port: int = self.sock.getsockname()[1]
        self.threads = [
            threading.Thread(target=self._journey, name="journeys", daemon=True),
            threading.Thread(target=self.server.serve, args=(self.sock,), name="web",
                             daemon=True)]

    def _journey(self) -> None:
        from companion.conversation.core import Quit  # noqa: PLC0415
        from companion.conversation.journeys import identify  # noqa: PLC0415
        from companion.games import DEFAULT_GAME, game  # noqa: PLC0415

        try:
            identify(self.talk, game(DEFAULT_GAME))
        except Quit:
            pass
        finally:
            self.talk.close()
            self.face.ended()

    def __enter__(self) -> _WebRig:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.face.give(None)
        self.server.stop()
        for thread in self.threads:
            thread.join(WEB_PATIENCE)
        self.sock.close()

    def get(self, path: str) -> bytes:
        """``path``'s body (the server may still be starting)."""
        import http.client  # noqa: PLC0415 - the web benchmark's

        deadline = time.monotonic() + WEB_PATIENCE
        while True:
            connection = http.client.HTTPConnection("127.0.0.1", self.port,
                                                    timeout=WEB_PATIENCE)
            try:
                connection.request("GET", path)
                return connection.getresponse().read()
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.01)
            finally:
                connection.close()


def bench_web(*, runs: int = 200, seats: int = 7,
              progress: Progressed = no_progress) -> WebFigures:
    """``runs`` answers posted to a web face on 127.0.0.1 (:class:`_WebRig`),
    as the page's script posts them; then ``runs`` public events at a real
    shared table of ``seats`` devices (companion/tablebench.py);
    ``progress`` is told the answers and events sent."""
    import http.client  # noqa: PLC0415 - the web benchmark's
    import json  # noqa: PLC0415
    import urllib.parse  # noqa: PLC0415

    answers: list[float] = []
    codes = ("w2", "t", "s", "x", "q", "p", "f", "o1", "w1", "d")
    with _WebRig() as rig:
        size = sum(len(rig.get(path)) for path in ("/", "/static/web.css", "/static/web.js"))
        view = rig.face.view()
        since = view.entries[-1].number if view.entries else 0
        poster = http.client.HTTPConnection("127.0.0.1", rig.port, timeout=WEB_PATIENCE)
        poster.connect()
        # as a browser does: no small packet held back for an acknowledgement
        # (Nagle's algorithm and delayed acknowledgements: 40 ms a post)
        poster.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            for number in range(runs):
                body = urllib.parse.urlencode({
                    "token": rig.server.token, "question": rig.face.view().question_id,
                    "answer": codes[number % len(codes)], "since": since})
                start = time.perf_counter()
                poster.request("POST", "/answer", body=body, headers={
                    "Content-Type": "application/x-www-form-urlencoded",
                    "Accept": "application/json", "Origin": f"http://127.0.0.1:{rig.port}"})
                update = json.loads(poster.getresponse().read())
                answers.append(time.perf_counter() - start)
                since = max([since, *(int(e["number"]) for e in update["entries"])])
                progress(number + 1, 2 * runs)
        finally:
            poster.close()
    table = bench_table(runs=runs, seats=seats,
                        progress=lambda done, total: progress(runs + done, runs + total))

    def ms(values: list[float], fraction: float) -> float:
        return percentile(values, fraction) * 1000 if values else float("nan")

    return WebFigures(ms(answers, 0.5), ms(answers, 0.95), table.ms_p50, table.ms_p95,
                      runs, seats, table.lost, size)
