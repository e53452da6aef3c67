"""The fan-out of a shared table, measured (``companion bench web``): the
real ``companion web --table`` in a process of its own, its settings and
saved games in a temporary folder (removed after: nothing of the user's is
touched), a Mici Maki table of up to 7 seats, each a device of its own (its
cookie, its update stream) as the page's script is.

The first player starts a pile, then takes it back, over and over: each
is a public event (a move, a move taken back) that every other seat's game
takes from the table and says, and the host's page too. Timed from the
post until the last of those pages has the news.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from companion.contract.game import Progressed, no_progress
from companion.stats import percentile

#: Seconds a benchmark's request or update waits, at most.
WEB_PATIENCE = 10.0
#: A table's seats: Mici Maki's.
FEWEST, MOST = 3, 7
#: Every seat's dealt hand (each seat's own: the same cards at every seat).
DEALT = "2 3 4 5 6"


@dataclass(frozen=True, slots=True)
class TableFigures:
    """A public event at a shared table until every other device has it, in
    milliseconds; ``lost``: events some device never had in time."""

    ms_p50: float
    ms_p95: float
    events: int
    seats: int
    lost: int


class Listener:
    """A seat's update stream (``GET /events``, or ``path``), read in a
    thread of its own: every update, with when it came."""

    def __init__(self, host: str, port: int, since: int, version: int, *,
                 path: str = "/events", headers: dict[str, str] | None = None) -> None:
        # (longer than the stream's keep-alive: an idle seat is no lost seat)
        self.connection = http.client.HTTPConnection(host, port, timeout=3 * WEB_PATIENCE)
        self.connection.request("GET", f"{path}?since={since}&version={version}",
                                headers=headers or {})
        self.response = self.connection.getresponse()
        #: Every update's text, and when it came.
        self.updates: list[tuple[float, str]] = []
        self.news = threading.Condition()
        self.thread = threading.Thread(target=self._read, name="seat", daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for raw in self.response:
                line = raw.decode("utf-8", "replace")
                if line.startswith("data: "):
                    with self.news:
                        self.updates.append((time.perf_counter(), line[len("data: "):]))
                        self.news.notify_all()
        except (OSError, ValueError, AttributeError):
            pass  # closed: the benchmark is over (http.client drops its file as it closes)

    def heard(self, said: str, after: float, timeout: float) -> float | None:
        """When an update that came after ``after`` carried ``said`` (words
        with no character that markup escapes); ``None`` if none did in time."""
        deadline = time.monotonic() + timeout
        with self.news:
            while True:
                came = next((when for when, data in self.updates
                             if when >= after and said in data), None)
                left = deadline - time.monotonic()
                if came is not None or left <= 0:
                    return came
                self.news.wait(left)

    def close(self) -> None:
        self.connection.close()


class _Device:
    """A browser at the table's server: its cookie, the token of its pages
    and the question open, as the page's script keeps them."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.origin = f"http://127.0.0.1:{port}"
        self.cookie = ""
        self.base = ""
        self.token = ""
        self.question = 0
        self.since = 0
        self.version = 0

    def request(self, path: str, fields: dict[str, str] | None = None, *,
                as_json: bool = False) -> str:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=WEB_PATIENCE)
        headers = {"Origin": self.origin}
        if self.cookie:
            headers["Cookie"] = self.cookie
        body = None
        if fields is not None:
            body = urllib.parse.urlencode(fields)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if as_json:
            headers["Accept"] = "application/json"
        try:
            connection.request("POST" if fields is not None else "GET", path, body, headers)
            response = connection.getresponse()
            text = response.read().decode("utf-8", "replace")
            taken = response.getheader("Set-Cookie")
            if taken:
                self.cookie = taken.split(";", 1)[0]
            if response.status == 303:  # (a seat taken: its page is under /seat)
                return self.request(urllib.parse.urlsplit(
                    response.getheader("Location") or "/").path)
            if response.status != 200:
                raise RuntimeError(f"{path}: {response.status} {text[:200]}")
            return text
        finally:
            connection.close()

    def page(self, html: str) -> str:
        """A page read: its token, question, version and last sentence."""
        for name, pattern in (("token", r'name="token" value="([^"]+)"'),
                              ("question", r'data-question="(\d+)"'),
                              ("version", r'data-version="(\d+)"'),
                              ("since", r'data-since="(\d+)"')):
            found = re.search(pattern, html)
            if found is None:
                raise RuntimeError(f"no {name} on the page: {html[:200]}")
            setattr(self, name, found.group(1) if name == "token" else int(found.group(1)))
        return html

    def open(self) -> str:
        return self.page(self.request(f"{self.base}/"))

    def give(self, **given: str) -> dict[str, object]:
        """An answer posted as the page's script posts it: the update."""
        update = json.loads(self.request(f"{self.base}/answer", {
            "token": self.token, "question": str(self.question), "since": str(self.since),
            **given}, as_json=True))
        self.question = int(update["question_id"])
        entries = update["entries"]
        assert isinstance(entries, list)
        self.since = max([self.since, *(int(e["number"]) for e in entries)])
        return dict(update)

    def listen(self) -> Listener:
        return Listener("127.0.0.1", self.port, self.since, self.version,
                         path=f"{self.base}/events", headers={"Cookie": self.cookie})


def _served(home: Path) -> tuple[subprocess.Popen[bytes], int]:
    """``companion web --table --game mici-maki`` with its home in ``home``,
    and its port."""
    env = {**os.environ, "COMPANION_DATA_DIR": str(home / "data"),
           "COMPANION_CONFIG_DIR": str(home / "config")}
    (home / "config").mkdir()
    (home / "config" / "settings.toml").write_text(
        'language = "en"\nspeech = "none"\nverbosity = "normal"\n', encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "web", "--no-open", "--port", "0", "--table",
         "--game", "mici-maki"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, env=env)
    stdout = process.stdout
    assert stdout is not None
    lines: list[bytes] = []  # (its first line: the address; read in a thread, to bound the wait)
    reader = threading.Thread(target=lambda: lines.append(stdout.readline()), daemon=True)
    reader.start()
    reader.join(WEB_PATIENCE)
    line = lines[0].decode("utf-8", "replace") if lines else ""
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if found is None:
        _end(process)
        raise RuntimeError(f"companion web did not start: {line!r}")
    return process, int(found.group(1))


def _end(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(WEB_PATIENCE)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(WEB_PATIENCE)


def bench_table(*, runs: int = 200, seats: int = MOST,
                progress: Progressed = no_progress) -> TableFigures:
    """``runs`` public events at a table of ``seats`` (3 to 7) devices, each
    timed until every other seat's page and the host's have it."""
    if not FEWEST <= seats <= MOST:
        raise ValueError(f"a table has {FEWEST} to {MOST} seats")
    names = [f"P{n}" for n in range(1, seats + 1)]
    times: list[float] = []
    lost = 0
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as folder:
        process, port = _served(Path(folder))
        listeners: list[Listener] = []
        try:
            host = _Device(port)
            host.open()
            for typed in (str(seats), *names):
                host.give(answer=typed)
            host.give(choice="0")  # P1 starts
            update = host.give(choice="0")  # the usual action cards
            code = re.search(r'id="join-code"[^>]*>([A-Z0-9-]+)<', str(update["join"]))
            if code is None:
                raise RuntimeError("the host's page shows no join code")
            devices = []
            for seat in range(seats):
                device = _Device(port)
                device.request("/join", {"code": code.group(1)})
                device.page(device.request("/join", {"code": code.group(1), "seat": str(seat)}))
                device.base = "/seat"
                device.give(answer=DEALT)
                device.open()
                devices.append(device)
            host.open()
            mover, others = devices[0], devices[1:]
            listeners = [device.listen() for device in (*others, host)]
            for number in range(runs):
                said = "P1: starts a pile with" if number % 2 == 0 else "Taken back: P1"
                start = time.perf_counter()
                if number % 2 == 0:
                    mover.give(answer="2")
                else:
                    mover.give(action="undo")
                came = [listener.heard(said, start, WEB_PATIENCE) for listener in listeners]
                arrived = [when for when in came if when is not None]
                if len(arrived) < len(came):
                    lost += 1
                else:
                    times.append(max(arrived) - start)
                progress(number + 1, runs)
        finally:
            _end(process)  # (its streams end with it)
            for listener in listeners:
                listener.close()

    def ms(fraction: float) -> float:
        return percentile(times, fraction) * 1000 if times else float("nan")

    return TableFigures(ms(0.5), ms(0.95), runs, seats, lost)
