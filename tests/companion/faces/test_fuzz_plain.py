"""Plain line mode under a seeded storm of input: the real app
(``python -m companion --plain``), through a pipe and on a real
pseudo-terminal, in both games, is given over 20,000 inputs: right answers
(menu digits, card codes and game words of Sushi Go! and Mici Maki), random
bytes and random lines, every control character, escape sequences (arrows,
function keys, broken ones), invalid UTF-8, bidi and zero-width characters,
numbers of thousands of digits and lines of 1 MB.

After every batch a known input must get its known reply (the word
``menu``, then a marker line that the main menu refuses by name), so an
app that hangs is found; the app ends with status 0 when its input ends
(the pipe closed; on the terminal Control D), and with the status that
names the signal for Control C, Control \\ or the terminal closed; no
traceback is ever written; nothing written holds a
control or format character besides the few the face itself uses on a
terminal (its cursor moves, see companion/faces/plain.py), and no echo of a
typed line is longer than a sane bound.

On the terminal, Control C and Control \\ end the app as a goodbye;
Control D ends it on an empty line and is dropped inside one; Control Z
reaches an app no shell watches (its process group is orphaned, so the
kernel does not stop it) and the app goes on; Control S and Control Q are
no flow control: they are dropped like any control character, so output
never freezes.

Last, the app speaks with espeak-ng into the test sound card
(devtools/rig.py): after its own storm (every control character, NUL bytes,
a 1 MB line) a known sentence must still reach the card as sound.

The inputs come from one seed: a failure names the run and batch, and the
inputs of the batch are in the message.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import random
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from rich.cells import cell_len

from companion.conversation.core import is_number, layout_digits
from companion.faces.keyboard import keys_in
from companion.i18n import LANGUAGES, Catalog
from companion.keymap import Words, fold
from devtools.rig import SoundSink

#: Seeded storms of input; the ones that speak into the test sound card are system tests too.
pytestmark = pytest.mark.fuzz

SEED = 20261202
#: Inputs between two checks that the app still answers.
BATCH = 250
#: How long the app may take to answer the known input after a batch.
PATIENCE = 240.0
#: The longest line the app may write (a 1 MB line is refused by a short
#: echo, not written back whole); on a terminal, the row of a typed line
#: echoed as it is typed, which is kept to 4,096 characters.
LONGEST_LINE = 2000
LONGEST_TYPED = 4096 + 200

SUSHI_CODES = ["t", "s", "x", "q", "p", "f", "w1", "w2", "w3", "o1", "o2", "o3", "d",
               "t+w2", "p w3", "salmon nigiri", "wasabi", "maki 3", "o2/o3", "x+x"]
MICI_CODES = ["2", "3", "4", "5", "6", "7", "p", "r", "c", "x", "7 p", "eat", "eat 2",
              "pile", "risk", "tokens", "drew", "drew 3", "food 5"]
WORDS = ["repeat", "back", "next", "stop", "help", "menu", "where", "hand", "hand 2",
         "tables", "tables ben", "hint", "undo", "coming", "race", "yes", "no", "",
         "répéter", "aide", "zpět", "nápověda", "повтор", "помощь", "где", "Ann", "Ben"]
KEYS = ["\x1bOP", "\x1bOQ", "\x1bOR", "\x1bOS", "\x1b[15~", "\x1b[17~", "\x1b[18~",
        "\x1b[19~", "\x1b[20~", "\x1b[21~", "\x1b[23~", "\x1b[24~", "\x1b[[A", "\x1b[[E",
        "\x1b[A", "\x1b[B", "\x1b[C", "\x1b[D", "\x1b[H", "\x1b[F", "\x1b[2~", "\x1b[3~",
        "\x1b[5~", "\x1b[6~", "\x1b[1;5C", "\x1bOA", "\x1ba", "\x1b"]
BROKEN = ["\x1b[", "\x1b[1;", "\x1bO", "\x1b[[", "\x1b[999999999999~", "\x1b]0;title\x07",
          "\x1b]8;;http://x\x1b\\", "\x1bP1$r\x1b\\", "\x1b[?1049h", "\x1b[2J\x1b[H",
          "\x1b[38;5;196m", "\x1b\x1b\x1b", "\x1b[1;2;3;4;5;6;7;8;9;10m", "\x9b2J", "\x1bc"]
INVALID_UTF8 = [b"\xff", b"\xfe\xff", b"\xc3", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf0\x9f\x98",
                b"\xe2\x82", b"\x80\x80\x80", b"\xf8\x88\x80\x80\x80", b"\xc3\x28"]
ODD = ["\u202e", "\u202d", "\u2066", "\u2067", "\u2068", "\u2069", "\u200b", "\u200c",
       "\u200d", "\u200e", "\u200f", "\ufeff", "\u2028", "\u2029", "\u00ad", "\u0301",
       "\u0085", "\u009b", "\ue000", "\U0001f363", "\u0663", "²", "ěš", "&é", "ﷺ", "\u3000"]
#: Every C0 control character, and delete.
CONTROLS = [chr(code) for code in range(0x20)] + ["\x7f"]


def _quitting(text: str, *, also: frozenset[int] = frozenset()) -> bool:
    """A line that would end the app (a quit word, or 6 at the main menu,
    in any language and keyboard layout) or, with ``also``, choose one of
    those main menu options: the storm goes on in one app run."""
    _, kept = keys_in(text)
    kept = kept.strip()
    if fold(kept) in QUIT_WORDS:
        return True
    for language in LANGUAGES:
        digits = layout_digits(kept, language)
        if is_number(digits) and int(digits) in {6, *also}:
            return True
    return False


QUIT_WORDS = frozenset(fold(word) for language in LANGUAGES
                       for word in ["quit", *Words(Catalog.for_language(language)).words("quit")])
#: The prompt of the first start's menu, and of the main menu, in every language.
PROMPTS = [Catalog.for_language(language).text("Choose 1 to %(n)d:", n=count).encode()
           for language in LANGUAGES for count in (4, 6)]
GOODBYES = [Catalog.for_language(language).text("Goodbye.").encode() for language in LANGUAGES]


class Storm:
    """Seeded inputs, each one line (the pipe) or one key group (the terminal)."""

    def __init__(self, seed: int, *, terminal: bool, avoid: frozenset[int] = frozenset()) -> None:
        self.random = random.Random(seed)
        self.terminal = terminal
        self.avoid = avoid

    def _text(self) -> str:
        r = self.random
        kind = r.randrange(100)
        if kind < 22:
            return str(r.choice([1, 1, 2, 2, 3, 4, 5, 7, 8, 9, 0, 10, 12]))
        if kind < 36:
            return r.choice(SUSHI_CODES + MICI_CODES)
        if kind < 48:
            return r.choice(WORDS)
        if kind < 56:
            return "".join(r.choice(SUSHI_CODES + WORDS + KEYS + ODD + CONTROLS + [" "])
                           for _ in range(r.randrange(1, 6)))
        if kind < 64:
            return r.choice(KEYS + BROKEN) + r.choice(["", "2", "w2", "help", r.choice(KEYS)])
        if kind < 72:  # a control character, alone or in a word
            return r.choice(["", "w", "2", "help"]) + r.choice(CONTROLS) + r.choice(["", "1"])
        if kind < 80:  # random code points of the whole range (no surrogates: not encodable)
            return "".join(chr(r.choice([r.randrange(0x20, 0x250), r.randrange(0x250, 0xd800),
                                         r.randrange(0xe000, 0x110000)]))
                           for _ in range(r.randrange(1, 30)))
        if kind < 86:
            return " " * r.randrange(0, 50) + r.choice(ODD) + r.choice(["Ann", "2", "t"])
        if kind < 90:
            return r.choice(["9" * r.randrange(10, 5000), "-" + "1" * 40, "1e9999", "0x10",
                             "+1", "01", "1.5", "½"])
        if kind < 93:
            return r.choice(["x", "w2 ", "é", "Ж"]) * r.randrange(100, 20000)
        return ""  # random bytes, made by the caller

    def one(self) -> bytes:
        """One input, as bytes: for the pipe a line, for the terminal keys
        (mostly ending with Enter)."""
        r = self.random
        while True:
            text = self._text()
            if not text and r.random() < 0.6:
                data = bytes(r.randrange(256) for _ in range(r.randrange(1, 40)))
            elif r.random() < 0.05:
                data = text.encode() + r.choice(INVALID_UTF8) + text[:3].encode()
            else:
                data = text.encode()
            data = data.replace(b"\n", b" ").replace(b"\r", b" ")
            if self.terminal:  # the keys that end the app (or freeze a terminal) are sent apart
                data = data.translate(None, b"\x03\x1c\x1a\x04\x11\x13\x0f\x16")
            if _quitting(data.decode("utf-8", "replace"), also=self.avoid):
                continue
            if self.terminal and r.random() < 0.1:
                return data  # keys with no Enter: the next ones join the line
            return data + (b"\r" if self.terminal else b"\n")


def long_line() -> bytes:
    """A line of 1 MB that is no answer anywhere."""
    return ("zw" * (1 << 19)).encode()


# -- what the app may write ---------------------------------------------------------------

#: The face's own cursor moves on a terminal (save, restore, up, erase the line; at
#: its start, the rest of the screen).
FACE_SEQUENCES = re.compile(rb"\x1b7|\x1b8|\x1b\[\d*A|\x1b\[K|\x1b\[J")
BANNED = frozenset({"Cc", "Cf", "Cs"})


def check_written(written: bytes, *, terminal: bool) -> None:
    """No traceback; no control or format character but newlines (and, on a
    terminal, the face's cursor moves, carriage returns and backspaces);
    no line longer than :data:`LONGEST_LINE` (on a terminal, where lines are
    wrapped, the typed line's row is the longest)."""
    assert b"Traceback" not in written, written[-3000:]
    if terminal:
        written = FACE_SEQUENCES.sub(b"", written)
    text = written.decode("utf-8", "replace")
    allowed = {"\n", "\r", "\b"} if terminal else {"\n"}
    bad = {char for char in set(text) if unicodedata.category(char) in BANNED} - allowed
    if bad:
        where = min(text.index(char) for char in bad)
        raise AssertionError(f"written: {sorted(bad)!r} near {text[where - 200:where + 50]!r}")
    rows = re.split(r"[\r\n]", text) if terminal else text.split("\n")
    longest = max(rows, key=width)
    most = LONGEST_TYPED if terminal else LONGEST_LINE
    if width(longest) > most:
        where = text.index(longest)
        raise AssertionError(f"a line of {width(longest)}: {text[where - 300:where + 200]!r}…"
                             f"{longest[-300:]!r}")


def width(row: str) -> int:
    """The columns a row reaches, each character in the cells it takes,
    backspaces taken as the terminal takes them.

    >>> width("w2 w2\b\b  \b\b"), width("abc"), width("\u3000e\u0301")
    (5, 3, 3)
    """
    column = reached = 0
    for char in row:
        column = max(column - 1, 0) if char == "\b" else column + cell_len(char)
        reached = max(reached, column)
    return reached


# -- the app, in a pipe or on a terminal -------------------------------------------------------


#: Take the terminal on standard input as the controlling terminal of the
#: new session, then become the app.
CONTROLLING = ("import fcntl, os, sys, termios; fcntl.ioctl(0, termios.TIOCSCTTY, 0); "
               "os.execv(sys.argv[1], sys.argv[1:])")


class App:
    """``python -m companion --plain`` with its output collected as it comes."""

    def __init__(self, home: Path, game: str, sink: SoundSink, *, terminal: bool) -> None:
        self.terminal = terminal
        env = {**os.environ, **sink.environment, "COMPANION_DATA_DIR": str(home / "data"),
               "COMPANION_CONFIG_DIR": str(home / "config"), "TERM": "xterm-256color",
               "LANG": "C.UTF-8", "PYTHONFAULTHANDLER": "1",
               # no speech-dispatcher started for the user if the storm turns speech on
               "SPEECHD_ADDRESS": f"unix_socket:{home / 'no-speechd.sock'}"}
        env.pop("PYTHONIOENCODING", None)
        command = [sys.executable, "-m", "companion", "--plain", "--game", game]
        self.written = bytearray()
        self.errors = bytearray()
        self._changed = threading.Condition()
        self._ended = False
        self.master = -1
        self.hanging_up = threading.Event()
        if terminal:
            self.master, slave = pty.openpty()
            fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 25, 80, 0, 0))
            # the terminal is the app's controlling terminal: its keys signal it
            command = [sys.executable, "-c", CONTROLLING, *command]
            self.process = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave,
                                            env=env, start_new_session=True)
            os.close(slave)
            self._readers = [threading.Thread(target=self._read_terminal, daemon=True)]
        else:
            env["PYTHONIOENCODING"] = "utf-8:strict"  # as a UTF-8 locale reads a pipe
            self.process = subprocess.Popen(command, stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                            env=env, start_new_session=True)
            assert self.process.stdout is not None and self.process.stderr is not None
            self._readers = [
                threading.Thread(target=self._read_pipe, args=(self.process.stdout.fileno(),
                                                                self.written), daemon=True),
                threading.Thread(target=self._read_pipe, args=(self.process.stderr.fileno(),
                                                               self.errors), daemon=True)]
        for reader in self._readers:
            reader.start()
        self._sending: threading.Thread | None = None
        self.sent = 0

    def _read_pipe(self, fd: int, into: bytearray) -> None:
        while chunk := os.read(fd, 1 << 16):
            with self._changed:
                into.extend(chunk)
                self._changed.notify_all()
        with self._changed:
            self._ended = True
            self._changed.notify_all()

    def _read_terminal(self) -> None:
        while not self.hanging_up.is_set():
            # a read waiting on the terminal would keep it open (no hang-up)
            if not select.select([self.master], [], [], 0.1)[0]:
                continue
            try:
                chunk = os.read(self.master, 1 << 16)
            except OSError:  # EIO: every end of the terminal's other side is closed
                chunk = b""
            if not chunk:
                break
            with self._changed:
                self.written.extend(chunk)
                self._changed.notify_all()
        with self._changed:
            self._ended = True
            self._changed.notify_all()

    def send(self, data: bytes) -> None:
        """Write ``data`` from a thread of its own (a 1 MB line may wait
        for the app to read it; a hung app must not hang the test)."""
        self.wait_sent()

        def write() -> None:
            with_errors = (BrokenPipeError, OSError)
            try:
                if self.terminal:
                    view = memoryview(data)
                    while view:
                        done = os.write(self.master, view[:4096])
                        view = view[done:]
                else:
                    assert self.process.stdin is not None
                    self.process.stdin.write(data)
                    self.process.stdin.flush()
            except with_errors:
                pass  # the app ended: the checks after say why

        self._sending = threading.Thread(target=write, daemon=True)
        self._sending.start()

    def wait_sent(self, timeout: float = PATIENCE) -> None:
        if self._sending is not None:
            self._sending.join(timeout)
            assert not self._sending.is_alive(), "the app reads no more input"
            self._sending = None

    def until(self, wanted: Callable[[bytes], bool], start: int, what: str,
              timeout: float = PATIENCE) -> int:
        """Wait until ``wanted`` holds for what was written from ``start``; the
        length written then."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not wanted(bytes(self.written[start:])):
                left = deadline - time.monotonic()
                if self._ended or left <= 0:
                    break
                self._changed.wait(min(left, 1.0))
            else:
                return len(self.written)
        ended = self._ended
        if not ended:  # hung: where each of its threads is (faulthandler, on SIGABRT)
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signal.SIGABRT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(30)
            time.sleep(1)  # (a failure's report only: what the reader still gets)
        raise AssertionError(
            f"{what}: {'the app ended' if ended else 'no answer'}; "
            f"last written {bytes(self.written[-4000:])!r}; "
            f"errors {bytes(self.errors[-4000:])!r}")

    def answers(self, marker: str) -> None:
        """The known input (``menu``, then a marker line) and its known reply:
        the main menu refuses the marker by name, in any language."""
        start = len(self.written)
        enter = "\r" if self.terminal else "\n"
        self.send(f"menu{enter}{marker}{enter}".encode())
        reply = f"{marker} ".encode()
        self.until(lambda written: reply in written, start, f"no reply to {marker}")
        self.wait_sent()

    def first_prompt(self) -> None:
        self.until(lambda written: any(prompt in written for prompt in PROMPTS), 0,
                   "no first question")

    def ended_reading(self) -> None:
        for reader in self._readers:
            reader.join(30)
            assert not reader.is_alive()

    def ended(self, timeout: float = PATIENCE) -> int:
        """Its status once it has ended (and everything it wrote is read)."""
        status = self.process.wait(timeout)
        for reader in self._readers:
            reader.join(30)
        return status

    def close(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(30)
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        if self.master >= 0:
            # its reader stops first: a descriptor closed under a select() is
            # an error in that thread, and one opened again meanwhile another file
            self.hanging_up.set()
            for reader in self._readers:
                reader.join(30)
            os.close(self.master)
            self.master = -1


def settings(home: Path, **values: str) -> None:
    """A settings file (no first start)."""
    (home / "config").mkdir(parents=True, exist_ok=True)
    text = "".join(f'{key} = "{value}"\n' for key, value in values.items())
    (home / "config" / "settings.toml").write_text(text)


@pytest.fixture(scope="module")
def sink(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SoundSink]:
    """The test sound card: every run plays into it, if the storm turns speech on."""
    card = SoundSink(tmp_path_factory.mktemp("card"))
    yield card
    card.close()


def storm(app: App, inputs: Storm, count: int, name: str, *,
          extra: Callable[[int], bytes | None] = lambda number: None) -> int:
    """``count`` inputs in batches, each followed by the known input; the
    inputs sent."""
    sent = 0
    batch: list[bytes] = []
    for number in range(count):
        data = extra(number) or inputs.one()
        batch.append(data)
        app.send(data)
        sent += 1
        if len(batch) == BATCH or number == count - 1:
            try:
                app.answers(f"zq{name}{number}zq")
            except AssertionError as error:
                shown = [line[:80] for line in batch[-40:]]
                raise AssertionError(f"{name}, inputs up to {number}: {error}; "
                                     f"the last inputs: {shown!r}") from None
            batch = []
    return sent


# -- the runs -------------------------------------------------------------------------------------

SENT: list[int] = []

PIPE_RUNS = [("sushigo", None, 4500), ("mici-maki", None, 4500), ("sushigo", "first", 3000),
             ("mici-maki", "fr", 2000)]


@pytest.mark.system
@pytest.mark.parametrize(("number", "run"), list(enumerate(PIPE_RUNS)),
                         ids=[f"pipe-{n}-{game}" for n, (game, _, _) in enumerate(PIPE_RUNS)])
def test_the_storm_through_a_pipe(number: int, run: tuple[str, str | None, int],
                                  tmp_path: Path, sink: SoundSink) -> None:
    """Through a pipe; a UTF-8 locale's strict reading of it (invalid bytes
    must not end the input); the input's end ends the app, status 0."""
    game, start, count = run
    if start != "first":  # "first": the first start's questions are in the storm
        settings(tmp_path, speech="none", language=start or "en")
    app = App(tmp_path, game, sink, terminal=False)
    try:
        app.first_prompt()
        sent = storm(app, Storm(SEED + number, terminal=False), count, f"p{number}_",
                     extra=lambda n: long_line() if n % 1500 == 700 else None)
        assert app.process.stdin is not None
        app.process.stdin.close()
        assert app.ended() == 0
        assert any(goodbye in app.written[-300:] for goodbye in GOODBYES), app.written[-300:]
        assert not app.errors, bytes(app.errors[-3000:])
        check_written(bytes(app.written), terminal=False)
        SENT.append(sent)
    finally:
        app.close()


TERMINAL_RUNS = [("sushigo", b"\x03", 1200), ("mici-maki", b"\x1c", 1200),
                 ("sushigo", b"\x04", 1200), ("mici-maki", None, 1200)]
#: The status each ending of a terminal run ends the app with: 128 + the
#: signal's number (Control C: SIGINT, Control \\: SIGQUIT), as the shell
#: says it, or killed by SIGINT (which the shell says as 130 too: see
#: tests/companion/test_ended.py); Control D ends the input; the terminal closed is
#: a SIGHUP, or the end of the input if that is read first.
ENDED: dict[bytes | None, set[int]] = {
    b"\x03": {130, -signal.SIGINT}, b"\x1c": {131}, b"\x04": {0}, None: {0, 129}}


@pytest.mark.system
@pytest.mark.parametrize(("number", "run"), list(enumerate(TERMINAL_RUNS)),
                         ids=[f"terminal-{n}-{game}"
                              for n, (game, _, _) in enumerate(TERMINAL_RUNS)])
def test_the_storm_on_a_terminal(number: int, run: tuple[str, bytes | None, int],
                                 tmp_path: Path, sink: SoundSink) -> None:
    """On a pseudo-terminal that is the app's own (its keys signal it): the
    storm, Control Z, Control S and Control Q and Control D inside a line
    along the way; the run ends with Control C, Control \\, Control D or
    the terminal closed, each a goodbye with its status (:data:`ENDED`)."""
    game, ending, count = run
    settings(tmp_path, speech="none")
    app = App(tmp_path, game, sink, terminal=True)
    inputs = Storm(SEED + 100 + number, terminal=True)

    def extra(n: int) -> bytes | None:
        if n % 600 == 300:
            return long_line()[: 1 << 16] + b"\r"  # a long paste: each key is echoed
        if n % 50 == 25:
            return inputs.random.choice([b"\x1a", b"\x13", b"\x11", b"w\x04\x042\r",
                                         b"\x13w2\x11\r", b"\x0f\x16\r"])
        return None

    try:
        app.first_prompt()
        sent = storm(app, inputs, count, f"t{number}_", extra=extra)
        if ending is None:  # the terminal closed: a hang-up
            app.wait_sent()
            app.hanging_up.set()
            app.ended_reading()
            os.close(app.master)
            app.master = -1
        else:
            if ending == b"\x04":
                app.send(b"\r")  # Control D ends the input on an empty line
            app.send(ending)
        assert app.ended() in ENDED[ending]
        written = bytes(app.written)
        if ending is not None:
            assert any(goodbye in written[-300:] for goodbye in GOODBYES), written[-300:]
        check_written(written, terminal=True)
        SENT.append(sent)
    finally:
        app.close()


@pytest.mark.system
def test_speech_still_sounds_after_the_storm(tmp_path: Path, sink: SoundSink) -> None:
    """espeak-ng speaking into the test sound card: every control character,
    NUL bytes and a 1 MB line, among a storm that never reaches the
    settings; then a known line's reply must still be heard."""
    settings(tmp_path, speech="espeak-ng", language="en")
    app = App(tmp_path, "sushigo", sink, terminal=False)
    nasty = [("w2" + char + "x").encode() + b"\n" for char in CONTROLS if char not in "\n\r"]
    nasty += [b"\x00\n", b"\x00" * 1000 + b"\n", long_line() + b"\n",
              ("\u202e" * 50000).encode() + b"\n", b"\xff\xfe\xfd\n"]

    def extra(n: int) -> bytes | None:
        return nasty[n // 40] if n % 40 == 0 and n // 40 < len(nasty) else None

    try:
        app.first_prompt()
        # Settings (5) and Quit (6) of the main menu are left out: the voice stays as set
        sent = storm(app, Storm(SEED + 200, terminal=False, avoid=frozenset({5})),
                     40 * len(nasty) + 200, "s", extra=extra)
        assert sink.wait_quiet(1.0, PATIENCE), "the card never went quiet"
        before = time.perf_counter()
        app.answers("zqheardzq")
        assert sink.wait_loud(before, PATIENCE) is not None, "speech is mute after the storm"
        assert app.process.stdin is not None
        app.process.stdin.close()
        assert app.ended() == 0
        assert not app.errors, bytes(app.errors[-3000:])
        check_written(bytes(app.written), terminal=False)
        SENT.append(sent)
    finally:
        app.close()


#: How long the long storm lasts, in seconds (COMPANION_STORM_SECONDS; ten minutes).
LONG_STORM = float(os.environ.get("COMPANION_STORM_SECONDS", "600"))
#: Inputs in a run of the long storm (a run a game, a language and a way in).
LONG_RUN = 500


@pytest.mark.system
@pytest.mark.slow
def test_the_long_storm_in_both_games_every_language_pipe_and_terminal(
        tmp_path: Path, sink: SoundSink) -> None:
    """Runs of the storm, one after another for :data:`LONG_STORM` seconds
    (``pytest -m slow``, not on every commit): each game in each language,
    through a pipe and on a terminal, every combination at least once and
    then round again until the time is spent; each terminal run ended in
    turn by Control C, Control \\, Control D and the terminal closed. Not
    one traceback; every run answers after every batch and ends with its
    status. The figures are printed (``-s``)."""
    combinations = [(game, language, terminal) for terminal in (False, True)
                    for game in ("sushigo", "mici-maki") for language in LANGUAGES]
    endings = list(ENDED)
    began = time.monotonic()
    runs: dict[tuple[str, str, str], int] = {}
    inputs = 0
    number = 0
    while number < len(combinations) or time.monotonic() - began < LONG_STORM:
        game, language, terminal = combinations[number % len(combinations)]
        home = tmp_path / f"run-{number}"
        settings(home, speech="none", language=language)
        app = App(home, game, sink, terminal=terminal)
        inputs_of = Storm(SEED + 1000 + number, terminal=terminal)
        try:
            app.first_prompt()
            inputs += storm(app, inputs_of, LONG_RUN, f"l{number}_",
                            extra=lambda n: long_line() if n % 400 == 200 else None)
            ending = endings[number // len(combinations) % len(endings)] if terminal else None
            if not terminal:
                assert app.process.stdin is not None
                app.process.stdin.close()
                assert app.ended() == 0
                assert not app.errors, bytes(app.errors[-3000:])
            elif ending is None:  # the terminal closed
                app.wait_sent()
                app.hanging_up.set()
                app.ended_reading()
                os.close(app.master)
                app.master = -1
                assert app.ended() in ENDED[None]
            else:
                if ending == b"\x04":
                    app.send(b"\r")  # Control D ends the input on an empty line
                app.send(ending)
                assert app.ended() in ENDED[ending]
            check_written(bytes(app.written), terminal=terminal)
        finally:
            app.close()
        way = "terminal" if terminal else "pipe"
        runs[game, language, way] = runs.get((game, language, way), 0) + 1
        number += 1
    seconds = time.monotonic() - began
    assert {(game, language) for game, language, _ in runs} == {
        (game, language) for game, language, _ in combinations}
    print(f"\nthe long storm: {number} runs, {inputs} inputs in {seconds:.0f} s"
          f" ({inputs / seconds:.0f} a second), 0 tracebacks; runs of each: "
          + ", ".join(f"{game} {language} {way} {count}"
                      for (game, language, way), count in sorted(runs.items())))


@pytest.mark.system
def test_the_storm_was_at_least_20000_inputs() -> None:
    """(After the runs above, in this order.)"""
    assert len(SENT) == len(PIPE_RUNS) + len(TERMINAL_RUNS) + 1
    assert sum(SENT) >= 20000, SENT


# -- what the storm found, each kept mended ---------------------------------------------------


def started(tmp_path: Path, sink: SoundSink, *, terminal: bool, game: str = "sushigo",
            **values: str) -> App:
    settings(tmp_path, **{"speech": "none", **values})
    app = App(tmp_path, game, sink, terminal=terminal)
    app.first_prompt()
    return app


@pytest.mark.system
def test_invalid_utf8_through_a_pipe_is_read_as_replacement_characters(
        tmp_path: Path, sink: SoundSink) -> None:
    """In a UTF-8 locale Python reads a pipe strictly: a byte that is not
    UTF-8 ended the app in a ``UnicodeDecodeError`` traceback. It is read
    as U+FFFD, as the terminal's keyboard reads it."""
    app = started(tmp_path, sink, terminal=False)
    try:
        app.send(b"\xff2\xc3\n")
        app.answers("zqafterzq")
        assert "\ufffd2\ufffd is not a choice".encode() in app.written
    finally:
        app.close()


def test_a_locale_that_cannot_write_a_sentence_writes_question_marks(tmp_path: Path) -> None:
    """A Latin-1 locale cannot write the first start's "Русский": it was a
    ``UnicodeEncodeError`` traceback before the first question."""
    env = {**os.environ, "COMPANION_DATA_DIR": str(tmp_path / "data"),
           "COMPANION_CONFIG_DIR": str(tmp_path / "config"), "PYTHONIOENCODING": "latin-1"}
    done = subprocess.run([sys.executable, "-m", "companion", "--plain"], input=b"1\n",
                          capture_output=True, env=env, timeout=PATIENCE, check=False)
    assert done.returncode == 0 and not done.stderr, done.stderr[-2000:]
    assert b"4. ???????\n" in done.stdout


@pytest.mark.system
def test_long_answers_are_echoed_cut(tmp_path: Path, sink: SoundSink) -> None:
    """A line of thousands of characters refused at a menu, at a number, as
    a port or as a Mici Maki card was written back whole (once 1 MB), and a
    line of 1,300 Sushi Go! cards typed in Mici Maki named every one; a
    typed line is kept to 4,096 characters, a player's name to 40."""
    app = started(tmp_path, sink, terminal=False, game="mici-maki")
    try:
        for line in ["y" * 10000, "5", "5", "3", "/dev/" + "z" * 9000, "", "menu",
                     "1", "8" * 3000, "3", "Ann" * 2000, "Ben", "Cy", "1", "1", "1", "1",
                     "k" * 5000, "w2 " * 1300]:
            app.send(line.encode() + b"\n")
        app.answers("zqlongzq")
        written = bytes(app.written).decode()
        rows = written.split("\n")
        assert max(len(row) for row in rows) < 400, max(rows, key=len)[:300]
        assert "y" * 59 + "… is not a choice" in written
        assert "There is no port /dev/" + "z" * 194 + "…." in written
        assert "8" * 59 + "… is not a number from 3 to 7." in written  # players at the table
        assert "Which one are you?\n1. " + "Ann" * 13 + "A\n2. Ben\n3. Cy\n" in written
        assert "k" * 59 + "… is not a Mici Maki card" in written
        assert "w2 " * 19 + "w2… is Salmon nigiri, Salmon nigiri" in written
    finally:
        app.close()


@pytest.mark.system
def test_control_backslash_ends_the_app_with_a_goodbye(tmp_path: Path, sink: SoundSink) -> None:
    """Control \\ on the app's terminal (SIGQUIT) killed it with a core
    dump, the terminal left with no echo; it ends it as Control C does."""
    app = started(tmp_path, sink, terminal=True)
    try:
        app.send(b"\x1c")
        assert app.ended() in ENDED[b"\x1c"]
        assert b"Goodbye." in app.written and b"Traceback" not in app.written
    finally:
        app.close()


@pytest.mark.system
def test_control_s_does_not_freeze_the_output(tmp_path: Path, sink: SoundSink) -> None:
    """Control S stopped the terminal's output (flow control) with nothing
    said, until Control Q: now it is a dropped key."""
    app = started(tmp_path, sink, terminal=True)
    try:
        app.send(b"\x13")
        app.answers("zqflowzq")
    finally:
        app.close()


@pytest.mark.system
def test_lines_typed_ahead_are_answered_not_held_for_enter(tmp_path: Path,
                                                           sink: SoundSink) -> None:
    """With a scanner set, the keyboard is read on a thread of its own, ahead
    of the conversation. Lines typed ahead had their replies written as one
    block: taller than the screen, the reply to the last line was held
    behind "More: Enter." until another key. Each is now a block of its own."""
    app = started(tmp_path, sink, terminal=True, scanner="virtual")
    try:
        app.send(b"menu\r" * 5 + b"zqaheadzq\r")
        start = len(app.written)
        app.until(lambda written: b"zqaheadzq " in written, start, "the reply is held")
        assert b"More: Enter." not in app.written[start:]
    finally:
        app.close()
