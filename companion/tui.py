"""The full-screen interface (Textual), built for screen readers and braille.

It runs the very same journeys as plain line mode, in a worker thread: what
they write goes into a transcript that only grows, what they ask is
answered in one input line, which always has the focus and the terminal
cursor, so a braille display and a console screen reader follow it. The
status line's first 40 characters carry the key facts. No borders, no
animations, no blinking cursor: an idle screen writes nothing.

Keys (each also a word typed in the input line, for screen readers that
capture function keys): F1 help, F2 repeat, F3 back, F4 next, F5 where am
I, F6 my hand, F7 tables, F8 hint, F9 undo, Escape stop speech, Ctrl+Q quit.
"""

from __future__ import annotations

import queue
import threading
from typing import ClassVar

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.geometry import Offset
from textual.widgets import Input, Log, Static

from companion.plain import Plain
from companion.settings import Settings

#: Function keys and the words they stand for.
KEY_WORDS = {
    "f1": "help", "f2": "repeat", "f3": "back", "f4": "next", "f5": "where",
    "f6": "hand", "f7": "tables", "f8": "hint", "f9": "undo", "escape": "stop",
}


class _Lines:
    """A text stream the journey writes to, a line at a time, into the UI."""

    def __init__(self, app: CompanionApp) -> None:
        self.app = app
        self._partial = ""

    def write(self, text: str) -> int:
        self._partial += text
        *lines, self._partial = self._partial.split("\n")
        for line in lines:
            self.app.call_from_thread(self.app.show, line)
        return len(text)

    def flush(self) -> None:
        pass


class _Answers:
    """A text stream the journey reads its answers from (one line at a time)."""

    def __init__(self) -> None:
        self.queue: queue.Queue[str] = queue.Queue()

    def readline(self) -> str:
        return self.queue.get()


class CompanionApp(App[int]):
    """The companion's full-screen interface."""

    CSS = """
    Screen { layout: vertical; }
    #transcript { height: 1fr; border: none; scrollbar-size: 0 0; }
    #status { height: 1; }
    #answer { border: none; height: 1; padding: 0; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(key, f"word('{word}')", word.capitalize(), show=False)
          for key, word in KEY_WORDS.items()),
        Binding("ctrl+q", "word('quit')", "Quit", show=False, priority=True),
    ]
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, settings: Settings, *, first_start: bool = False) -> None:
        # The terminal's own ANSI colours, so the player's high-contrast
        # palette applies; Textual itself honours NO_COLOR.
        super().__init__(ansi_color=True)
        self.settings = settings
        self.first_start = first_start
        self.answers = _Answers()
        self.lines: list[str] = []
        self.worker: threading.Thread | None = None

    def compose(self) -> ComposeResult:
        yield Log(id="transcript", highlight=False, auto_scroll=True)
        yield Static("", id="status")
        answer = Input(id="answer", placeholder="")
        answer.cursor_blink = False
        yield answer

    def on_mount(self) -> None:
        self.query_one("#answer", Input).focus()
        self.plain = Plain(self.answers, _Lines(self), self.settings)
        self.worker = threading.Thread(target=self._journeys, daemon=True, name="journeys")
        self.worker.start()

    def _journeys(self) -> None:
        code = self.plain.run(first_start=self.first_start)
        self.call_from_thread(self.exit, code)

    # -- what the journeys say ---------------------------------------------------------

    def show(self, line: str) -> None:
        """A new line in the transcript; the last one also on the status line."""
        self.lines.append(line)
        self.query_one("#transcript", Log).write_line(line)
        self.query_one("#status", Static).update(line[:80])
        self._place_cursor()

    def _place_cursor(self) -> None:
        """The terminal cursor on the focused input, where braille follows it."""
        answer = self.query_one("#answer", Input)
        region = answer.region
        self.cursor_position = Offset(region.x + answer.cursor_position, region.y)

    # -- what the player types -----------------------------------------------------------

    @on(Input.Submitted, "#answer")
    def answered(self, event: Input.Submitted) -> None:
        self.answers.queue.put(event.value + "\n")
        event.input.value = ""
        self._place_cursor()

    @on(Input.Changed, "#answer")
    def typed(self) -> None:
        self.plain.announcer.interrupt()  # new input: speech stops at once
        self._place_cursor()

    def action_word(self, word: str) -> None:
        """A function key: the same as typing its word (stop acts at once)."""
        if word == "stop":
            self.plain.announcer.interrupt()
            return
        self.answers.queue.put(word + "\n")
