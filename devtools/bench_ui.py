"""``python -m devtools bench ui``: how quickly the app answers, and what it weighs.

* plain start: from starting the process to the first usable prompt;
* full-screen start: the same in a real pseudo-terminal, beside a bare
  Textual app started the same way, so the ratio shows;
* announcement: from an input line, or a card from the scanner's thread,
  to the sentence handed to speech;
* memory: resident set of the full-screen app after a whole practice game.
"""

from __future__ import annotations

import os
import pty
import select
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from companion.stats import percentile

PROMPT = b"Choose 1 to"
#: The programs timed beside the app (a bare Textual app, a whole game).
RUNS = Path(__file__).with_name("ui_runs.py")


def _environment(folder: Path) -> dict[str, str]:
    return {**os.environ, "COMPANION_DATA_DIR": str(folder / "data"),
            "COMPANION_CONFIG_DIR": str(folder / "config"), "TERM": "xterm-256color",
            "TEXTUAL_ANIMATIONS": "none"}


def time_to_prompt(command: list[str], *, terminal: bool, timeout: float = 30.0) -> float:
    """Seconds from starting ``command`` to the first prompt on its output."""
    with tempfile.TemporaryDirectory() as folder:
        env = _environment(Path(folder))
        start = time.perf_counter()
        if terminal:
            master, slave = pty.openpty()
            os.set_blocking(master, False)
            process = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave,
                                       env=env, start_new_session=True)
            os.close(slave)
            seen = b""
            try:
                while PROMPT not in seen:
                    if time.perf_counter() - start > timeout:
                        raise RuntimeError(f"no prompt from {command}")
                    ready, _, _ = select.select([master], [], [], 0.05)
                    if ready:
                        try:
                            seen = (seen + os.read(master, 65536))[-4096:]
                        except OSError:
                            break
                return time.perf_counter() - start
            finally:
                process.kill()
                process.wait(timeout=10)
                os.close(master)
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, env=env)
        assert process.stdout is not None
        try:
            for line in process.stdout:
                if PROMPT in line:
                    return time.perf_counter() - start
            raise RuntimeError(f"no prompt from {command}")
        finally:
            process.kill()
            process.wait(timeout=10)


def announce_latencies(runs: int = 200, *, scans: bool = False) -> list[float]:
    """Seconds from an input to the sentence handed to speech, in the learning
    journey of the default game: typed codes, or (``scans``) cards posted by
    another thread into the inbox, as the scanner's link posts them."""
    from companion.conversation.core import Talk  # noqa: PLC0415 - the shell's own
    from companion.conversation.inbox import Inbox  # noqa: PLC0415
    from companion.conversation.journeys import run  # noqa: PLC0415
    from companion.faces.plain import PlainFace  # noqa: PLC0415
    from companion.games import DEFAULT_GAME, game  # noqa: PLC0415
    from companion.settings import Settings  # noqa: PLC0415
    from firmware_bridge.events import CardIdentified, Source  # noqa: PLC0415

    plugin = game(DEFAULT_GAME)
    card = plugin.drill_cards()[0]
    name = plugin.reader.name("en", card)
    fed = threading.Event()
    asked = threading.Event()
    heard: list[float] = []
    sent: list[float] = []

    class Ear:
        name = "ear"

        def say(self, text: str, language: str, priority: object = None) -> None:
            if text.startswith(name):
                heard.append(time.perf_counter())
                fed.set()
            elif text.startswith("A code or a scan"):
                asked.set()

        def interrupt(self) -> None:
            pass

        def close(self) -> None:
            pass

    class Sink:
        def write(self, text: str) -> int:
            return len(text)

        def flush(self) -> None:
            pass

    def feed(inbox: Inbox) -> None:
        inbox.put_line("4")
        inbox.put_line("1")
        scanned = CardIdentified(plugin.game, plugin.reader.card_id(card), Source.SCANNER,
                                 "DEC0DE07000000", None, 0)
        asked.wait(10)  # a card scanned before its question is not its answer
        for _ in range(runs):
            fed.clear()
            sent.append(time.perf_counter())
            if scans:
                inbox.post(scanned)
            else:
                inbox.put_line(plugin.code(card))
            if not fed.wait(5):
                break
        inbox.put_line("")
        inbox.put_line("6")

    with tempfile.TemporaryDirectory() as folder:
        old = {k: os.environ.get(k) for k in ("COMPANION_DATA_DIR", "COMPANION_CONFIG_DIR")}
        os.environ["COMPANION_DATA_DIR"] = folder
        os.environ["COMPANION_CONFIG_DIR"] = folder
        try:
            inbox = Inbox()
            talk = Talk(PlainFace(Sink()), inbox, Settings(speech="none"))
            talk.voice.speaker = Ear()
            feeder = threading.Thread(target=feed, args=(inbox,), daemon=True)
            feeder.start()
            run(talk)
            feeder.join(timeout=10)
        finally:
            for key, value in old.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
    return [h - s for s, h in zip(sent, heard, strict=False)]


def rss_after_a_game() -> float:
    """Megabytes resident in the full-screen app after a whole 4-player game."""
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run([sys.executable, str(RUNS), "game"], capture_output=True,
                              text=True, env=_environment(Path(folder)), timeout=600,
                              check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the game did not finish: {done.stderr[-500:]}")
    return int(done.stdout.split()[-1]) / 1024


@dataclass(frozen=True, slots=True)
class UiFigures:
    plain_start_ms: float
    tui_start_ms: float
    bare_textual_start_ms: float
    announce_ms_p50: float
    announce_ms_p95: float
    scan_announce_ms_p95: float
    rss_mb: float


def bench_ui(*, starts: int = 5) -> UiFigures:
    app = [sys.executable, "-m", "companion"]
    plain = [time_to_prompt([*app, "--plain"], terminal=False) for _ in range(starts)]
    tui = [time_to_prompt(app, terminal=True) for _ in range(starts)]
    bare_app = [sys.executable, str(RUNS), "bare"]
    bare = [time_to_prompt(bare_app, terminal=True) for _ in range(starts)]
    latencies = announce_latencies()
    scanned = announce_latencies(scans=True)
    return UiFigures(
        plain_start_ms=statistics.median(plain) * 1000,
        tui_start_ms=statistics.median(tui) * 1000,
        bare_textual_start_ms=statistics.median(bare) * 1000,
        announce_ms_p50=percentile(latencies, 0.5) * 1000,
        announce_ms_p95=percentile(latencies, 0.95) * 1000,
        scan_announce_ms_p95=percentile(scanned, 0.95) * 1000,
        rss_mb=rss_after_a_game(),
    )
