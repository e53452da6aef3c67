"""The drivers of the app the tests share: each way a test runs the app and
waits for what it says, written once.

* :class:`PipedApp`: ``python -m companion`` in a process of its own,
  through pipes (plain line mode, as a person or a braille terminal reading
  linearly gives it lines), its lines collected as they come;
* :class:`Terminal`: the same on a pseudo-terminal of its own, its screen
  read back with pyte as a braille display or console screen reader reads it;
* :class:`ThreadApp`: the plain face on an inbox, in a thread of the test's
  process (events posted from another thread, as the scanner's link does);
* :class:`Player` and :func:`run_screen`: a person at the keyboard of the
  full-screen app, through Textual's Pilot;
* :func:`first_start`, :func:`played`, :func:`resumed_at`: the answers a
  journey takes, for the tests that start there.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import select
import signal
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from itertools import cycle
from pathlib import Path
from typing import Literal

import pyte
from rich.cells import cell_len
from textual import events
from textual.errors import NoWidget
from textual.geometry import Offset
from textual.pilot import Pilot
from textual.widgets import Label, ListItem, Static

from companion.app import FullScreen
from companion.conversation import journeys
from companion.conversation.core import Talk
from companion.conversation.inbox import Inbox, Item
from companion.faces.plain import PlainFace
from companion.faces.screen import Choices, CompanionApp, Prompt, Rows, ScreenInbox
from companion.games.sushigo.cards import Card
from companion.settings import Settings
from companion.store import STORE_NAME
from firmware_bridge.events import CardIdentified, InputEvent, Source

#: Sushi Go!'s codes, given in turn at a pick: one of them is always in a hand.
CODES = ["t", "s", "x", "q", "p", "f", "w1", "w2", "w3", "o1", "o2", "o3", "d"]
#: A whole 2-player game as the scorer takes it, Ana's line then Ben's, each
#: player's 10 cards a round: Ana 73 points (the most puddings), Ben 66.
WHOLE_GAME = (("t w3 o2 f x x q q q p", "x x x s s s w1 w2 o1 f"),
              ("w2 o3 s s x q q t w1 p", "s s s s x x q q q p"),
              ("f x x x x s q t w3 o1", "q q q x x s o2 o2 w2 p"))
#: Settings that skip the first start: English, no speech, normal.
GOOD_SETTINGS = 'language = "en"\nspeech = "none"\nverbosity = "normal"\n'
#: The full screen's size in the Pilot tests: a 40-cell braille display's width.
SIZE = (40, 15)
Place = Literal["list", "answer", "reply", "title"]


def app_environment(home: Path | None, *, lang: str | None = "en_GB.UTF-8",
                    **extra: str) -> dict[str, str]:
    """The environment of an app run: its data and settings in ``home``
    (``None``: the test's own environment says where), the locale ``lang``
    (``None``: the test's own), then ``extra``. Python's output is
    buffered, as a player's is: a shell or a CI runner that sets
    PYTHONUNBUFFERED hid an app that failed as it ended on a terminal gone.
    The practice games are dealt from COMPANION_SEED ("tests" unless the
    test's environment says another): the same games every run, so that a
    failure comes back (a deal of its own made a test fail once in three).
    """
    env = dict(os.environ)
    env.pop("PYTHONUNBUFFERED", None)
    env.setdefault("COMPANION_SEED", "tests")
    if home is not None:
        env["COMPANION_DATA_DIR"] = str(home / "data")
        env["COMPANION_CONFIG_DIR"] = str(home / "config")
    if lang is not None:
        env["LANG"] = lang
    env.update(extra)
    return env


class PipedApp:
    """``python -m companion ARGS`` in a process of its own, through pipes,
    its lines collected as they come (plain line mode: its input is no
    terminal).

    ``limit_files`` sets the process's file size limit first (a full disk);
    ``prelude`` is code of the test's run in the app's process before the
    app; ``umask`` is the process's; ``environment`` is added to
    :func:`app_environment`'s.
    """

    def __init__(self, home: Path | None, *args: str, limit_files: int | None = None,
                 umask: int = -1, prelude: str = "", lang: str | None = "en_GB.UTF-8",
                 environment: Mapping[str, str] | None = None,
                 stderr: int = subprocess.PIPE) -> None:
        env = app_environment(home, lang=lang, **(environment or {}))
        command = [sys.executable, "-m", "companion", *args]
        if limit_files is not None:  # the same, with the file size limit set first
            prelude = ("import resource\n"
                       f"resource.setrlimit(resource.RLIMIT_FSIZE, ({limit_files}, -1))\n"
                       + prelude)
        if prelude:  # the same app, after some code of the test's in its process
            command[1:3] = ["-c", prelude + "\nimport runpy, sys\n"
                            "sys.argv[0] = 'companion'\n"
                            "runpy.run_module('companion', run_name='__main__', alter_sys=True)"]
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
            text=True, env=env, bufsize=1, umask=umask)
        self.lines: list[str] = []
        self.errors = ""
        self._new = threading.Condition()
        #: Its output has ended (the reader saw the end of the pipe).
        self._output_over = False
        self._seen = 0
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._codes = cycle(CODES)
        #: "Your pick:" was seen and not answered yet.
        self.pick_open = False

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self._new:
                self.lines.append(line.rstrip("\n"))
                self._new.notify_all()
        with self._new:
            self._output_over = True
            self._new.notify_all()

    def until(self, *endings: str, timeout: float = 60) -> str:
        """Wait for a line ending with one of ``endings`` (after those already
        seen); fails at once when the app has ended without it."""
        deadline = time.monotonic() + timeout
        with self._new:
            while True:
                for index in range(self._seen, len(self.lines)):
                    if self.lines[index].endswith(endings):
                        self._seen = index + 1
                        return self.lines[index]
                left = deadline - time.monotonic()
                if self._output_over:
                    # its output is over: it has ended, or is ending (its files
                    # close a moment before it is a process that ended)
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        self.process.wait(timeout=max(left, 0.0))
                    if self.process.poll() is not None:
                        raise AssertionError(f"the app ended: {self.lines[-12:]} "
                                             f"{self.stderr()}")
                if left <= 0:
                    raise AssertionError(f"no {endings}; last lines: {self.lines[-12:]}")
                self._new.wait(left)

    def index_of(self, text: str, timeout: float = 60) -> int:
        """Wait for a line holding ``text``, whenever it came: its index."""
        deadline = time.monotonic() + timeout
        with self._new:
            while True:
                for index, line in enumerate(self.lines):
                    if text in line:
                        return index
                left = deadline - time.monotonic()
                if left <= 0 or self._output_over:
                    raise AssertionError(f"{text!r} never came: {self.lines[-12:]}")
                self._new.wait(left)

    def heard(self, text: str, timeout: float = 30) -> None:
        """Wait for the line ``text`` to have come, whenever it came (order
        not checked)."""
        deadline = time.monotonic() + timeout
        with self._new:
            while text not in self.lines:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"never heard {text!r}; last lines: {self.lines[-10:]}")
                self._new.wait(left)

    def send(self, text: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()

    def answer(self, prompt: str, text: str) -> None:
        self.until(prompt)
        self.send(text)

    def turn(self) -> str:
        """Codes given at "Your pick:" until one is taken: the turn it moved to."""
        if not self.pick_open:
            self.until("Your pick:")
        start = self.last_turn()
        while True:
            self.send(next(self._codes))
            self.pick_open = self.until("Your pick:", "Final scores.") == "Your pick:"
            now = self.last_turn()
            if now != start:
                return now

    def last_turn(self) -> str:
        """The last "Round r, turn t." said so far."""
        with self._new:
            turns = [text for text in self.lines if text.startswith("Round ")
                     and ", turn " in text]
        return turns[-1] if turns else ""

    def practice(self) -> None:
        """A new practice game: two players, the greedy bot, no variant."""
        self.answer("Choose 1 to 6:", "2")
        self.answer("2 to 5:", "2")
        self.answer("Choose 1 to 4:", "1")
        self.answer("Choose 1 to 5:", "1")

    def stderr(self) -> str:
        return self.errors

    def close(self) -> int:
        """Close its input (the player is gone): its exit status."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        return self.process.wait(timeout=30)

    def end(self) -> tuple[int, str]:
        """Close its input: its exit status and standard error."""
        assert self.process.stdin is not None and self.process.stderr is not None
        self.process.stdin.close()
        code = self.process.wait(timeout=60)
        self._reader.join(timeout=10)
        self.errors = self.process.stderr.read()
        return code, self.errors

    def quit(self) -> int:
        """Quit from wherever it is; the exit status (stderr kept)."""
        self.send("quit")
        assert self.process.stdin is not None
        self.process.stdin.close()
        status = self.process.wait(timeout=60)
        self._reader.join(timeout=30)
        assert self.process.stderr is not None
        self.errors = self.process.stderr.read()
        return status

    def notices(self) -> list[str]:
        """The notices about files said, in order."""
        said = set(journeys.NOTICES.values()) | {
            "An unfinished game is open in another window: it stays there."}
        return [line for line in self.lines if line in said]

    def ended_well(self) -> None:
        status = self.quit()
        assert status == 0, (status, self.lines[-12:], self.errors)
        assert "Traceback" not in self.errors, self.errors
        # a goodbye (speech's own news may come after it, when the defaults
        # speak aloud and a speech backend gives up)
        assert "Goodbye." in self.lines, self.lines[-12:]


class Picks:
    """The table companion's pick question, as the player's own table this
    round makes it: chopsticks named only while chopsticks are on it."""

    def __init__(self) -> None:
        self.table: list[Card] = []

    def prompt(self, turn: int) -> str:
        """The question of this turn's pick (a round starts at turn 1, its table empty)."""
        if turn == 1:
            self.table.clear()
        if Card.CHOPSTICKS in self.table:
            return "Your pick (two with chopsticks):"
        return "Your pick:"

    def took(self, cards: Sequence[Card]) -> None:
        """The pick entered: on the table, chopsticks used back to the hand."""
        self.table += cards
        if len(cards) == 2:
            self.table.remove(Card.CHOPSTICKS)


def first_start(app: PipedApp, *, verbosity: str = "2") -> None:
    """The first start's answers: English, a screen reader speaks, ``verbosity``."""
    app.answer("Choose 1 to 4:", "1")  # English
    app.answer("Choose 1 to 2:", "2")  # a screen reader speaks
    app.answer("Choose 1 to 3:", verbosity)


def played(home: Path, turns: int = 2, *, killed: bool = False) -> str:
    """A practice game played a few turns and left (or the app killed with
    SIGKILL, its store's log left as it was): the turn it is at."""
    app = PipedApp(home, "--plain")
    app.practice()
    turn = ""
    for _ in range(turns):
        turn = app.turn()
    if killed:
        app.process.kill()
        app.process.wait(timeout=60)
    else:
        app.ended_well()
    return turn


def resumed_at(home: Path, *, notices: list[str]) -> str:
    """The turn the next start's resumed game is at (the notices said checked)."""
    app = PipedApp(home, "--plain")
    app.answer("An unfinished practice game was found.", "")
    app.answer("Choose 1 to 4:", "1")
    app.until("Your pick:")
    app.pick_open = True
    turn = app.last_turn()
    app.ended_well()
    assert app.notices() == notices, app.lines[:12]
    return turn


def store_of(home: Path) -> Path:
    """The game store of the app whose data is in ``home``."""
    return home / "data" / "journals" / STORE_NAME


def copies(folder: Path, name: str) -> list[Path]:
    """The copies of ``name`` kept aside as damaged, oldest first."""
    return sorted(folder.glob(f"{name}.damaged-*"))


class Terminal:
    """``python -m companion ARGS`` on a pseudo-terminal of its own,
    ``columns`` by ``rows``, its screen read back with pyte; ``environment``
    over :func:`app_environment`'s (NO_COLOR left out unless given).

    ``typed`` is how long :meth:`type` reads after the keys, ``shown`` how
    long :meth:`until` reads on once the text is there (the screen settles).
    ``program`` is what Python runs (``-m companion``; ``-m devtools.elsewhere
    win32 companion``: the app as on Windows).
    """

    def __init__(self, home: Path, *args: str, columns: int = 40, rows: int = 15,
                 lang: str = "en_GB.UTF-8", typed: float = 0.5, shown: float = 0.3,
                 environment: Mapping[str, str] | None = None,
                 program: Sequence[str] = ("-m", "companion")) -> None:
        env = app_environment(home, lang=lang, TERM="xterm-256color", COLUMNS=str(columns),
                              LINES=str(rows))
        env.pop("NO_COLOR", None)
        env.update(environment or {})
        import fcntl  # noqa: PLC0415 - POSIX: the rest runs where the app pretends to be Windows
        import pty  # noqa: PLC0415
        import termios  # noqa: PLC0415

        self.typed, self.shown = typed, shown
        self.master, slave = pty.openpty()
        os.set_blocking(self.master, False)
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self._env, self._slave, self._program = env, os.ttyname(slave), list(program)
        self.process = subprocess.Popen(
            [sys.executable, *self._program, *args], stdin=slave, stdout=slave,
            stderr=slave, env=env, start_new_session=True,
        )
        os.close(slave)
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.written = b""

    def start_again(self, *args: str) -> None:
        """Another run of the app on the same terminal, its screen as the
        last one left it (after :meth:`kill`, as a player starts it again)."""
        slave = os.open(self._slave, os.O_RDWR | os.O_NOCTTY)
        self.process = subprocess.Popen(
            [sys.executable, *self._program, *args], stdin=slave, stdout=slave,
            stderr=slave, env=self._env, start_new_session=True,
        )
        os.close(slave)

    def another_writes(self, text: bytes) -> None:
        """``text`` written on the terminal by another program (the shell
        the app was started from); then read what shows."""
        slave = os.open(self._slave, os.O_WRONLY | os.O_NOCTTY)
        try:
            os.write(slave, text)
        finally:
            os.close(slave)
        self.pump(0.2)

    def kill(self) -> None:
        """SIGKILL: the app ends where it is, the screen and the terminal's
        mode left as they were."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        self.pump(0.2)

    def pump(self, seconds: float) -> int:
        """Read what the app writes for a while; how many bytes it wrote."""
        end = time.monotonic() + seconds
        total = 0
        while time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], 0.02)
            if ready:
                try:
                    data = os.read(self.master, 65536)
                except OSError:
                    break
                total += len(data)
                self.written += data
                self.stream.feed(data)
        return total

    def until(self, text: str, row: int | None = None, timeout: float = 20) -> None:
        """Wait for ``text`` on the screen (on ``row``, if given), then settle."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.pump(0.05)
            rows = self.screen.display if row is None else [self.screen.display[row]]
            if any(text in line for line in rows):
                self.pump(self.shown)
                return
        raise AssertionError(f"{text!r} never shown: {self.screen.display}")

    def until_cursor(self, text: str, timeout: float = 20) -> str:
        """Wait until the cursor's line is ``text`` (and the cursor right after it)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.pump(0.05)
            line = self.cursor_line()
            if line.rstrip() == text.rstrip() and self.screen.cursor.x == len(text):
                return line
        raise AssertionError(f"the cursor is not after {text!r}: line "
                             f"{self.cursor_line()!r}, x {self.screen.cursor.x}; "
                             f"{self.screen.display}")

    def until_at(self, text: str, timeout: float = 20) -> None:
        """Wait until the cursor is at the start of a line that begins with ``text``."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.pump(0.05)
            if self.cursor_line().startswith(text) and self.screen.cursor.x == 0:
                return
        raise AssertionError(f"the cursor is not on {text!r}: line "
                             f"{self.cursor_line()!r}, x {self.screen.cursor.x}; "
                             f"{self.screen.display}")

    def read_pages(self, text: str, timeout: float = 30) -> None:
        """Enter at each "More: Enter." that ends a page, until ``text`` is
        on the screen with no page waiting."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.pump(0.05)
            rows = [line.rstrip() for line in self.screen.display if line.strip()]
            if rows and rows[-1].startswith("More: Enter."):
                self.type("\r", settle=0.2)
            elif any(text in row for row in rows):
                self.pump(self.shown)
                return
        raise AssertionError(f"{text!r} never shown: {self.screen.display}")

    def type(self, keys: str, settle: float | None = None) -> None:
        """Keys, as the terminal sends them; then read for ``settle`` seconds
        (by default the terminal's ``typed``)."""
        os.write(self.master, keys.encode())
        self.pump(self.typed if settle is None else settle)

    def cursor_line(self) -> str:
        return self.screen.display[self.screen.cursor.y]

    def close(self) -> None:
        with contextlib.suppress(ProcessLookupError):  # (killed already)
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        os.close(self.master)


class Lines(io.StringIO):
    """What the app writes, kept a line at a time, waited on."""

    def __init__(self) -> None:
        super().__init__()
        self.changed = threading.Condition()

    def write(self, text: str, /) -> int:
        with self.changed:
            written = super().write(text)
            self.changed.notify_all()
        return written

    @property
    def lines(self) -> list[str]:
        return self.getvalue().splitlines()

    def until(self, ending: str | tuple[str, ...], after: int = 0, timeout: float = 10) -> int:
        """The index of the first line from ``after`` that ends with ``ending``."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                lines = self.lines
                for index in range(after, len(lines)):
                    if lines[index].endswith(ending):
                        return index
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no {ending!r}; last lines: {lines[-8:]}")
                self.changed.wait(left)


class ThreadApp:
    """The line-mode app on an inbox, in a thread of the test's process."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.inbox = Inbox()
        self.out = Lines()
        self.talk = Talk(PlainFace(self.out), self.inbox, settings or Settings(speech="none"))
        self.code: int | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        self.seen = 0

    def _run(self) -> None:
        self.code = journeys.run(self.talk)

    def until(self, ending: str | tuple[str, ...]) -> str:
        index = self.out.until(ending, self.seen)
        self.seen = index + 1
        return self.out.lines[index]

    def type(self, line: str) -> None:
        self.inbox.put_line(line)

    def post(self, event: InputEvent) -> None:
        """From another thread, as the link does."""
        poster = threading.Thread(target=self.inbox.post, args=(event,))
        poster.start()
        poster.join()

    def scan(self, cards: Sequence[Card]) -> None:
        for card in cards:
            self.post(CardIdentified("sushigo", card.id, Source.SCANNER, "04A1B2C3", None, 1))

    def close(self) -> int | None:
        self.inbox.end()
        self.thread.join(timeout=10)
        return self.code

    def main_menu(self) -> list[str]:
        """Wait for the main menu: its six options as said."""
        self.until("Choose 1 to 6:")
        return self.out.lines[self.seen - 7:self.seen - 1]

    def goodbye(self, answer: str = "quit") -> int | None:
        """``answer`` (``quit``, or the main menu's last number) ends the
        app: its goodbye said, then its exit code."""
        self.type(answer)
        self.until("Goodbye.")
        return self.close()


#: The characters of the named keys the tests press.
KEY_CHARACTERS = {"enter": "\r", "tab": "\t", "backspace": "\x08", "escape": "\x1b"}


class Player:
    """A person at the keyboard of the full-screen app, as a test sees it.

    Keys go in as the terminal driver hands them over (an ``events.Key``
    posted to the app, as ``Pilot.press`` does through the driver, without
    its idle wait after each key: a fast typist or a keyboard-wedge scanner
    does not wait either); the tests wait for what the app says and for the
    cursor.
    """

    def __init__(self, app: CompanionApp, pilot: Pilot[int]) -> None:
        self.app = app
        self.pilot = pilot
        self.mark = 0  # transcript lines already seen
        assert isinstance(app.inbox, Given)
        self.given = app.inbox.given

    # -- waiting for the app -------------------------------------------------------------

    async def until(self, condition: Callable[[], object], what: str,
                    timeout: float = 20) -> None:
        """Wait until ``condition`` holds, the app running meanwhile."""
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            await self.pilot.pause(0.01)

    async def said(self, ending: str | tuple[str, ...], timeout: float = 20) -> str:
        """Wait until the transcript's last line, a new one, ends with ``ending``."""
        lines = self.app.lines
        deadline = time.monotonic() + timeout
        while not (len(lines) > self.mark and lines[-1].endswith(ending)):
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {ending!r}: {lines[-6:]}")
            await asyncio.sleep(0.005)
        self.mark = len(lines)
        return lines[-1]

    async def menu(self, count: int, timeout: float = 20) -> Choices:
        """Wait for a new menu of ``count`` options and its prompt; its first
        option is highlighted, the cursor on what was said with it, or on its
        title (its first option on the row after it)."""
        await self.said(f" {count}:", timeout)
        await self.pages()
        choices = self.app.choices
        assert choices.display and len(choices) == count, options(choices)
        assert choices.index == 0
        await self.rests()  # on the news said with it, or on its first option
        return choices

    async def pages(self) -> None:
        """While the reply comes in pages ("More: Enter." ends each), the
        cursor on each page's first row: Enter for the next, to the last."""
        await self.pilot.pause()
        for _page in range(20):
            if not self.app.paging:
                return
            await self.cursor("reply")
            shown = self.app.reply.rows(self.app.size.width)
            assert shown[-1] == self.app.more(self.app.page_number)
            self.send("enter")
            await self.pilot.pause()
        raise AssertionError("more than 20 pages")

    def heard(self, text: str) -> bool:
        """Whether a line starting with ``text`` was said."""
        return any(line.startswith(text) for line in self.app.lines)

    # -- acting ------------------------------------------------------------------------------

    def send(self, *keys: str) -> None:
        """Keys, in order, as the terminal driver hands them to the app, at once
        (``App.simulate_key`` does the same, but without the character)."""
        for pressed in keys:
            character = pressed if len(pressed) == 1 else KEY_CHARACTERS.get(pressed)
            key = "space" if pressed == " " else pressed
            event = events.Key(key, character)
            event.set_sender(self.app)
            posted = self.app.post_message(event)
            assert posted, f"{pressed!r} not taken: the app has ended"

    def paste(self, text: str) -> None:
        """Text pasted in the terminal."""
        event = events.Paste(text)
        event.set_sender(self.app)
        posted = self.app.post_message(event)
        assert posted, "the paste not taken: the app has ended"

    async def press(self, *keys: str) -> None:
        """Keys, in order; after a named key the app settles before the next
        (a widget's key bindings act when the key has bubbled up to the app,
        after the widget has taken the keys that follow it). Where the order
        matters to the story, a test waits for a named key's effect instead."""
        self.mark = len(self.app.lines)
        for index, key in enumerate(keys):
            self.send(key)
            if len(key) > 1 and index < len(keys) - 1:
                await self.pilot.pause()
        await asyncio.sleep(0)

    async def type(self, text: str, *, check: bool = False) -> None:
        """Type a line in the answer line (focused) and Enter; with ``check``,
        the cursor is seen on the answer line, at the end of the text."""
        self.mark = len(self.app.lines)
        self.send(*text)
        if check and text:
            answer = self.app.answer
            await self.until(lambda: answer.value.endswith(text), f"{text!r} typed")
            await self.cursor("answer")
        self.send("enter")
        await asyncio.sleep(0)

    async def move(self, key: str, option: int) -> None:
        """A key that moves the list's highlight to ``option`` (from 1): the
        highlight gets there and the cursor follows it."""
        choices = self.app.choices
        await self.press(key)
        await self.until(lambda: choices.index == option - 1,
                         f"{key} to highlight option {option}")
        await self.cursor("list")

    async def pick(self, option: int) -> None:
        """Choose a menu option with the arrow keys and Enter, checking the
        cursor follows the highlight."""
        choices = self.app.choices
        while choices.index != option - 1:
            assert choices.index is not None
            step = 1 if choices.index < option - 1 else -1
            await self.move("down" if step > 0 else "up", choices.index + 1 + step)
        await self.press("enter")

    # -- the cursor ----------------------------------------------------------------------------

    def where(self) -> str:
        """What is under the terminal cursor, for failure messages."""
        x, y = self.app.cursor_position
        try:
            widget, _ = self.app.get_widget_at(x, y)
        except NoWidget:
            return f"nothing at {x},{y}"
        return f"{widget!r} at {x},{y}; focused {self.app.focused!r}"

    def cursor_is(self, place: Place) -> bool:
        app = self.app
        x, y = app.cursor_position
        try:
            widget, _ = app.get_widget_at(x, y)
        except NoWidget:
            return False
        if place == "list":
            choices = app.choices
            item = choices.highlighted_child
            if app.focused is not choices or item is None:
                return False
            region = choices.content_region
            # the option's first row (the list's top row if it is scrolled past)
            first_row = max(item.region.y, region.y)
            return (item.highlighted
                    and item in (widget, *widget.ancestors)  # on the highlighted option
                    and (x, y) == (region.x, first_row) == (item.region.x, first_row)
                    and app.cursor_position == choices.cursor_offset())
        if place == "title":  # a menu just opened: its title, its first option after it
            title = app.screen.query_one("#title", Rows)
            return bool(title.display and widget is title and (x, y) == title.region.offset
                        and app.focused is app.choices and app.choices.index == 0)
        if place == "answer":
            answer = app.answer
            typed = cell_len(answer.value[:answer.cursor_position])
            return (app.focused is answer and widget is answer
                    and x == answer.content_region.x + typed - answer.scroll_offset.x)
        box = app.reply_box
        # at the start of the reply: its first sentence on the cursor's row
        # (a page's own first row: the page before's last rows above it)
        return bool(box.display and widget is app.reply
                    and (x, y) == box.region.offset + Offset(0, app.reply.lead)
                    and app.reply_lines and app.reply.text.startswith(
                        app.reply_lines[0][:20]))

    async def rests(self) -> None:
        """The cursor is where it rests after the app spoke: at the start of
        the reply if something was said since the player's last key, else on
        the focused item (the list's highlighted option, or the answer)."""
        app = self.app
        await self.pilot.pause()
        if app.news:
            await self.cursor("reply")
        elif app.focused is app.choices:
            await self.cursor("title" if app.state.menu_fresh else "list")
        else:
            await self.cursor("answer")

    async def cursor(self, place: Place, timeout: float = 20) -> None:
        """The cursor is on ``place`` once the screen has settled."""
        deadline = time.monotonic() + timeout
        await self.pilot.pause()
        while not self.cursor_is(place):
            if time.monotonic() > deadline:
                raise AssertionError(f"the cursor is not on the {place}: {self.where()}")
            await self.pilot.pause(0.01)

    def prompt(self) -> str:
        """The answer line's label: the open question."""
        return self.app.query_one("#prompt", Prompt).text.strip()

    def facts(self) -> str:
        facts = self.app.query_one("#facts", Static)
        return str(facts.render()) if facts.display else ""

    async def quit(self) -> None:
        """Ctrl+Q, and the app has ended with its code (the journeys end first)."""
        await self.pilot.press("ctrl+q")
        deadline = time.monotonic() + 20
        while self.app.return_value is None:
            if time.monotonic() > deadline:
                raise AssertionError(f"the app did not end: {self.app.lines[-4:]}")
            await asyncio.sleep(0.01)  # not the pilot's pause: the app is ending


class Given(ScreenInbox):
    """The app's inbox, keeping everything the player gave, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.given: list[Item] = []

    def put(self, item: Item) -> None:
        self.given.append(item)
        super().put(item)


def options(choices: Choices) -> list[str]:
    """The options of the list, as shown: "1. English", ..."""
    return [str(item.query_one(Label).render()) for item in choices.query(ListItem)]


def run_screen(body: Callable[[Player], Awaitable[None]], *,
               first_start: bool = False,
               kept: list[FullScreen] | None = None,
               size: tuple[int, int] = SIZE) -> CompanionApp:
    """Run the app in a terminal of ``size`` (40x15) and ``body`` at its
    keyboard; ``kept`` is given the full screen put together (its conversation)."""

    async def main() -> CompanionApp:
        full = FullScreen(Settings(speech="none"), first_start=first_start)
        if kept is not None:
            kept.append(full)
        app = full.app
        app.inbox = Given()
        async with app.run_test(size=size) as pilot:
            await body(Player(app, pilot))
        return app

    return asyncio.run(main())
