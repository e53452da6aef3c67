"""The web face over plain HTTP, as a browser with JavaScript off sends it
(form posts, redirects followed), with the standard library only: for the
fast tests of the server (what it refuses, what it escapes, how it ends),
which need no browser. :class:`Shown` reads a page's parts back."""

from __future__ import annotations

import contextlib
import http.cookiejar
import os
import re
import select
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from tests.drivers import app_environment

#: Seconds a request waits, at most.
PATIENCE = 60.0


#: The app's process, told first to end with SIGTERM when the test's
#: process ends, however it ends (a run killed by its time limit): no
#: server outlives its test (Linux's prctl PR_SET_PDEATHSIG).
ENDS_WITH_ITS_TEST = (
    "import ctypes, runpy, signal, sys\n"
    "ctypes.CDLL(None).prctl(1, signal.SIGTERM)\n"
    "sys.argv[0] = 'companion'\n"
    "runpy.run_module('companion', run_name='__main__', alter_sys=True)\n")


class Served:
    """``companion web --no-open --port 0 ARGS`` in a process of its own, with
    its settings and saved games in ``home``; ``address`` is the one it
    printed. :meth:`stop` ends it (SIGINT, as Control C; SIGKILL if it
    does not end in time): its exit status. ``system``: run as on that
    system (devtools.elsewhere: ``win32`` or ``darwin``)."""

    def __init__(self, home: Path | None, *args: str, lang: str = "en_GB.UTF-8",
                 environment: dict[str, str] | None = None, system: str | None = None
                 ) -> None:
        env = app_environment(home, lang=lang, **(environment or {}))
        program = ([sys.executable, "-c", ENDS_WITH_ITS_TEST] if system is None else
                   [sys.executable, "-m", "devtools.elsewhere", system, "companion"])
        self.process = subprocess.Popen(
            [*program, "web", "--no-open", "--port", "0", *args],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=env, start_new_session=True)
        self.first_line = self._line()
        found = re.search(r"http://127\.0\.0\.1:\d+/", self.first_line)
        if found is None:
            self.stop()
            raise AssertionError(f"no address: {self.first_line!r} {self.errors()}")
        self.address = found.group(0)

    def _line(self) -> str:
        assert self.process.stdout is not None
        deadline = time.monotonic() + PATIENCE
        line = b""
        while not line.endswith(b"\n"):
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.process.stdout], [], [], max(left, 0))
            if not ready:
                return line.decode(errors="replace")
            chunk = os.read(self.process.stdout.fileno(), 1)
            if not chunk:
                break
            line += chunk
        return line.decode(errors="replace")

    def errors(self) -> str:
        if self.process.poll() is None or self.process.stderr is None:
            return ""
        return self.process.stderr.read().decode(errors="replace")

    def wait(self, timeout: float = PATIENCE) -> int:
        """Its exit status, once it has ended by itself."""
        return self.process.wait(timeout=timeout)

    def stop(self) -> int:
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=30)
        return self.process.returncode


@dataclass
class Shown:
    """A page, read: the question's label and id, the token of its forms,
    the options, the reply's and the log's sentences (with the language
    each carries), the title and the page's language."""

    html: str
    title: str = ""
    language: str = ""
    token: str = ""
    question_id: str = ""
    question: str = ""
    options: list[str] = field(default_factory=list)
    words: list[str] = field(default_factory=list)
    reply: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    languages: list[str] = field(default_factory=list)


class _Reader(HTMLParser):
    def __init__(self, shown: Shown) -> None:
        super().__init__(convert_charrefs=True)
        self.shown = shown
        self.where: list[str] = []  # the ids of the regions the parser is in
        self.text: list[str] | None = None
        self.into: str = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        at = {k: v or "" for k, v in attrs}
        if tag == "html":
            self.shown.language = at.get("lang", "")
        if tag == "input" and at.get("name") == "token":
            self.shown.token = at.get("value", "")
        if tag == "input" and at.get("name") == "question":
            self.shown.question_id = at.get("value", "")
        if at.get("id") in ("reply", "log"):
            self.where.append(at["id"])
        if tag == "title" or at.get("id") == "question-label":
            self.text, self.into = [], tag if tag == "title" else "question"
        elif tag == "p" and self.where and "said" in at.get("class", ""):
            self.text, self.into = [], self.where[-1]
            self.shown.languages.append(at.get("lang", ""))
        elif tag == "button" and at.get("name") in ("choice", "action", "seat"):
            self.text, self.into = [], "words" if at["name"] == "action" else "options"

    def handle_data(self, data: str) -> None:
        if self.text is not None:
            self.text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if self.text is None or tag not in ("title", "legend", "label", "p", "button"):
            if tag == "div" and self.where:
                self.where.pop()
            return
        text = "".join(self.text).strip()
        self.text = None
        shown = self.shown
        if self.into == "title":
            shown.title = text
        elif self.into == "question":
            shown.question = text
        else:
            {"reply": shown.reply, "log": shown.log, "options": shown.options,
             "words": shown.words}[self.into].append(text)


def read(html: str) -> Shown:
    shown = Shown(html)
    _Reader(shown).feed(html)
    return shown


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: str


class Client:
    """Requests to the web face at ``address``, with the page's origin, as
    one device: the cookies it is given kept (a seat's session). ``base``:
    where its pages are (a seat's: ``/seat``)."""

    def __init__(self, address: str, *, base: str = "") -> None:
        self.address = address.rstrip("/")
        self.origin = self.address
        self.base = base
        self.cookies = http.cookiejar.CookieJar()
        self._opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies))

    def request(self, path: str = "/", *, data: bytes | None = None,
                headers: dict[str, str] | None = None) -> Response:
        request = urllib.request.Request(self.address + path, data=data, headers=headers or {},
                                         method="POST" if data is not None else "GET")
        try:
            with self._opener.open(request, timeout=PATIENCE) as answer:
                return Response(answer.status, {k.lower(): v for k, v in answer.headers.items()},
                                answer.read().decode("utf-8"))
        except urllib.error.HTTPError as error:
            return Response(error.code, {k.lower(): v for k, v in error.headers.items()},
                            error.read().decode("utf-8", "replace"))

    def page(self) -> Shown:
        answer = self.request(f"{self.base}/")
        assert answer.status == 200, answer
        return read(answer.body)

    def post(self, fields: dict[str, str], *, headers: dict[str, str] | None = None,
             path: str | None = None) -> Response:
        sent = {"Content-Type": "application/x-www-form-urlencoded", "Origin": self.origin,
                **(headers or {})}
        return self.request(path or f"{self.base}/answer",
                            data=urllib.parse.urlencode(fields).encode(), headers=sent)

    def join(self, code: str, name: str) -> Shown:
        """Join the shared table with ``code`` and take ``name``'s seat: the
        seat's first page (its pages then under ``/seat``)."""
        seats = self.post({"code": code}, path="/join")
        assert seats.status == 200, seats
        found = re.search(r'name="seat" value="(\d+)">' + re.escape(name) + "<", seats.body)
        assert found is not None, seats.body
        taken = self.post({"code": code, "seat": found.group(1)}, path="/join")
        assert taken.status == 200, taken
        self.base = "/seat"
        return read(taken.body)

    def _give(self, **given: str) -> Shown:
        shown = self.page()
        answer = self.post({"token": shown.token, "question": shown.question_id, **given})
        assert answer.status == 200, answer
        return read(answer.body)

    def answer(self, text: str) -> Shown:
        """Type ``text`` at the question open, and send it: the next page."""
        return self._give(answer=text)

    def choose(self, number: int) -> Shown:
        """Choose the option ``number`` (from 1) of the menu open."""
        return self._give(choice=str(number - 1))

    def word(self, name: str) -> Shown:
        """Press a word's button (``help``, ``repeat``...)."""
        return self._give(action=name)
