"""The full-screen interface (Textual), built for screen readers and braille.

It runs the very same journeys as plain line mode, in a worker thread: what
they write goes into a transcript that only grows, their menus become a
list, what they ask is answered in one input line. No borders, no
animations, no blinking cursor, no timers: an idle screen writes nothing.
Colours are the terminal's own 16 ANSI colours (the ``ansi-dark`` theme, so
the player's high-contrast palette applies) and ``NO_COLOR`` is honoured;
nothing is shown by colour alone (the highlighted option is also bold and
underlined, and the terminal cursor is on it).

Layout, top to bottom (it fits 40x15):

- the transcript, every sentence said, growing at the bottom;
- a numbered list (``#choices``) while a menu is open: "1. option", ...,
  at most half the screen high, scrolling with the highlight;
- the key facts (``#facts``) during a game, first: "R1 T3, 12 points,
  7 cards" (round, turn, your score, cards in hand);
- the status line (``#status``): the last thing said;
- the answer line (``#answer``).

Keys, the same on every screen (each also a word typed in the answer line,
for screen readers that capture function keys): F1 help, F2 repeat, F3
back, F4 next, F5 where am I, F6 my hand, F7 tables, F8 hint, F9 undo,
Escape stop speech, Ctrl+Q quit. Every key stops speech at once. In the
list: Up, Down, Home, End (and Page Up, Page Down) move the highlight,
Enter chooses it, a digit 1-9 chooses that option at once, and any other
letter goes to the answer line with that letter typed (so ``help``,
``repeat`` or ``quit`` can be typed there too; so does a paste); a number
typed in the answer line and Enter chooses as well. An Enter within half a
second of a digit that chose is dropped (it ends the number, typed as in
line mode). Tab moves between the list and the answer line.

Where the terminal cursor is (a braille display and a console screen
reader follow it):

1. After any key the player presses, any focus change and any highlight
   change, it is on the focused item: in the answer line at its text
   cursor, in the list at the start of the highlighted option's text.
2. After something new is said (a transcript line) it rests at the start
   of the status line, which holds that sentence; except that when a list
   has opened since the player's last key, it stays on the list's
   highlighted option (opening the list is the focus change the player
   needs; its prompt is already on the status line).
3. When a list opens, it takes the focus with its first option
   highlighted, unless the player is already typing in the answer line;
   when it closes, the focus goes back to the answer line.
"""

from __future__ import annotations

import select
import sys
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import ClassVar

from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.geometry import Offset
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, OptionList, RichLog, Static

from companion.inbox import Inbox
from companion.plain import Plain
from companion.settings import Settings

#: Function keys and the words they stand for.
KEY_WORDS = {
    "f1": "help", "f2": "repeat", "f3": "back", "f4": "next", "f5": "where",
    "f6": "hand", "f7": "tables", "f8": "hint", "f9": "undo", "escape": "stop",
}

#: Seconds during which an Enter right after a digit that chose is taken as
#: the end of that typed number (as in line mode) and ignored.
DIGIT_ENTER = 0.5


class _Lines:
    """A text stream the journey writes to, a line at a time, into the UI;
    its hooks show and hide the menus and the key facts. Everything here
    runs in the journeys' thread and is handed to the UI thread."""

    #: The journeys' help names the function keys too.
    has_keys = True

    def __init__(self, app: CompanionApp) -> None:
        self.app = app
        self._partial = ""

    def write(self, text: str) -> int:
        self._partial += text
        *lines, self._partial = self._partial.split("\n")
        for line in lines:
            self._deliver(self.app.show, line)
        return len(text)

    def flush(self) -> None:
        pass

    def show_choices(self, title: str, options: list[str]) -> None:
        self._deliver(self.app.show_choices, title, list(options))

    def hide_choices(self, chosen: int | None = None) -> None:
        self._deliver(self.app.hide_choices, chosen)

    def show_facts(self, text: str) -> None:
        self._deliver(self.app.show_facts, text)

    def _deliver(self, action: Callable[..., object], *args: object) -> None:
        """Hand ``action`` to the UI thread, in order, without waiting for it:
        the journeys' thread may hold the speech lock that the UI thread
        needs to stop speech on a key, so it must never block on the UI."""
        self.app.post_message(Deliver(partial(action, *args)))


class Deliver(Message):
    """Something the journeys' thread gives the UI thread to do."""

    def __init__(self, action: Callable[[], object]) -> None:
        super().__init__()
        self.action = action


class Answer(Input):
    """The answer line; the terminal cursor on the cell its text cursor is
    drawn in (Textual's own is one cell to the right at the end of the text)."""

    @property
    def cursor_screen_offset(self) -> Offset:
        x, y, _width, _height = self.content_region
        column = self._position_to_cell(self.cursor_position) - self.scroll_offset.x
        return Offset(x + column, y)


class CompanionApp(App[int]):
    """The companion's full-screen interface."""

    CSS = """
    Screen { layout: vertical; }
    #transcript { height: 1fr; border: none; scrollbar-size: 0 0; }
    #choices {
        height: auto; max-height: 50%; border: none; padding: 0;
        scrollbar-size: 0 0;
    }
    #choices > .option-list--option { padding: 0; }
    #choices > .option-list--option-highlighted { text-style: bold underline; }
    #facts { height: 1; }
    #status { height: 1; }
    #answer { border: none; height: 1; padding: 0; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(key, f"word('{word}')", word.capitalize(), show=False)
          for key, word in KEY_WORDS.items()),
        Binding("ctrl+q", "word('quit')", "Quit", show=False, priority=True),
    ]
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, settings: Settings, *, first_start: bool = False,
                 scanner: str | None = None) -> None:
        # The terminal's own ANSI colours (the theme's too: no RGB or 256-colour
        # backgrounds), so the player's high-contrast palette applies;
        # Textual itself honours NO_COLOR.
        super().__init__(ansi_color=True)
        self.theme = "ansi-dark"
        self.settings = settings
        self.first_start = first_start
        #: The scanner for this run, over the settings' (``companion --scanner``).
        self.scanner = scanner
        self.answers = Inbox()
        self.lines: list[str] = []
        self.worker: threading.Thread | None = None
        #: The cursor's resting place: the status line, or the focused item.
        self.cursor_on_status = False
        #: A list opened since the player's last key: what is said stays off the cursor.
        self._list_just_opened = False
        #: The open list was answered: further Enter or digits wait for the next list.
        self._list_answered = False
        self._listed: list[str] = []  # the open list's options, "1. ..."
        #: When a digit last chose in a list (for the Enter typed after it).
        self._digit_chose_at = float("-inf")

    def compose(self) -> ComposeResult:
        # Long sentences wrap: nothing is cut off in a narrow terminal.
        transcript = RichLog(id="transcript", wrap=True, min_width=1, markup=False,
                             highlight=False, auto_scroll=True)
        transcript.can_focus = False  # the focus is the list or the answer line, never here
        yield transcript
        choices = OptionList(id="choices")
        choices.display = False
        yield choices
        facts = Static("", id="facts")
        facts.display = False
        yield facts
        yield Static("", id="status")
        answer = Answer(id="answer", placeholder="", select_on_focus=False)
        answer.cursor_blink = False
        yield answer

    def on_mount(self) -> None:
        self.query_one("#answer", Input).focus()
        self.plain = Plain(self.answers, _Lines(self), self.settings, scanner=self.scanner)
        self.worker = threading.Thread(target=self._journeys, daemon=True, name="journeys")
        self.worker.start()
        if sys.stdin.isatty():
            threading.Thread(target=self._watch_terminal, args=(sys.stdin.fileno(),),
                             daemon=True, name="hang-up").start()

    def _watch_terminal(self, fd: int) -> None:
        """End the app when its terminal goes away with no signal (a closed
        remote session, a killed emulator): without it the input thread
        would read nothing forever at full speed. It sleeps in poll() and
        wakes only on a hang-up: nothing runs while the app is idle. Every
        entry is already on disk, and the next start offers to resume."""
        watch = select.poll()
        watch.register(fd, 0)  # no events asked: only hang-up and error are reported
        try:
            while True:
                for _fd, event in watch.poll():
                    if event & (select.POLLHUP | select.POLLERR | select.POLLNVAL):
                        self.post_message(Deliver(partial(self.exit, 0)))
                        return
        except (OSError, RuntimeError):
            return  # the app is already gone

    def _journeys(self) -> None:
        code = 1
        try:
            code = self.plain.run(first_start=self.first_start)
        finally:  # whatever happened, the app ends with its journeys
            self.post_message(Deliver(partial(self.exit, code)))

    def on_deliver(self, message: Deliver) -> None:
        message.action()

    def on_unmount(self) -> None:
        """However the app ends, the journeys end too: their scanner link,
        their voice and their game's journal are closed."""
        self.answers.end()
        if self.worker is not None and self.worker is not threading.current_thread():
            self.worker.join(timeout=2)

    # -- what the journeys say ---------------------------------------------------------

    def show(self, line: str) -> None:
        """A new line in the transcript; the last one also on the status line,
        where the cursor rests (rule 2 of the module's docstring)."""
        self.lines.append(line)
        if line in self._listed:
            return  # an option of the open list: shown (and followed) there once
        self.query_one("#transcript", RichLog).write(line)
        self.query_one("#status", Static).update(line[:80])
        if not self._list_just_opened:
            self._cursor_to(status=True)

    def show_choices(self, title: str, options: list[str]) -> None:
        """A menu opens (its title is in the transcript; its options, said
        next, are shown in the list only, so a screen reader reads them once)."""
        del title  # said already; the status line shows the prompt that follows
        choices = self.query_one("#choices", OptionList)
        self._listed = [f"{number}. {option}" for number, option in enumerate(options, start=1)]
        choices.set_options(self._listed)
        choices.highlighted = 0
        choices.display = True
        self._list_answered = False
        if not self.query_one("#answer", Input).value:  # not while the player types
            self.screen.set_focus(choices)
            self._list_just_opened = True
        self._cursor_to(status=False)

    def hide_choices(self, chosen: int | None = None) -> None:
        """The menu was answered: the option chosen goes into the transcript
        (what was chosen stays in the history), the focus back on the answer line."""
        if chosen is not None and 0 <= chosen < len(self._listed):
            self.query_one("#transcript", RichLog).write(self._listed[chosen])
        self._listed = []
        choices = self.query_one("#choices", OptionList)
        choices.display = False
        choices.clear_options()
        self._list_just_opened = False
        self.screen.set_focus(self.query_one("#answer", Input))
        self._cursor_to(status=False)

    def show_facts(self, text: str) -> None:
        """The key facts of the game, on their own line above the status line."""
        facts = self.query_one("#facts", Static)
        facts.update(text)
        facts.display = bool(text)

    # -- the terminal cursor ---------------------------------------------------------------

    def _cursor_to(self, *, status: bool) -> None:
        """Rest the cursor on the status line or on the focused item, once the
        screen has its new layout."""
        self.cursor_on_status = status
        self.call_after_refresh(self._settle_cursor)

    def cursor_target(self) -> Offset:
        """Where the cursor belongs now."""
        if self.cursor_on_status:
            return self.query_one("#status", Static).region.offset
        focused = self.focused
        if isinstance(focused, OptionList) and focused.highlighted is not None:
            region = focused.content_region
            line = focused._index_to_line.get(focused.highlighted, 0)
            row = region.y + line - focused.scroll_offset.y
            return Offset(region.x, min(max(row, region.y), region.bottom - 1))
        answer = self.query_one("#answer", Input)
        return answer.cursor_screen_offset

    def _settle_cursor(self) -> None:
        target = self.cursor_target()
        if target != self.cursor_position:
            self.cursor_position = target
            # The cursor goes out with the next screen update: ask for one.
            widget: Widget = (self.query_one("#status", Static) if self.cursor_on_status
                              else self.focused or self.query_one("#answer", Input))
            widget.refresh()

    def _resettle(self) -> None:
        """The focused item moved (a highlight, a focus, a letter typed): the
        cursor follows it if it is resting there, once the screen is updated."""
        self.call_after_refresh(self._settle_cursor)

    async def on_event(self, event: events.Event) -> None:
        """Every key stops speech and brings the cursor to the focused item.

        Keys meant for the list are sorted out here, in the order they came
        (before any goes to a widget, so a fast typist or a keyboard-wedge
        scanner loses none to a focus change): a digit chooses, any other
        printable key goes to the answer line; an Enter straight after a
        digit that chose is dropped."""
        if isinstance(event, events.Key | events.Paste | events.MouseDown) and (
                not event.is_forwarded):
            plain = getattr(self, "plain", None)
            if plain is not None:
                plain.announcer.interrupt()  # new input: speech stops at once
            self._list_just_opened = False
            self._cursor_to(status=False)
            digit_chose_at, self._digit_chose_at = self._digit_chose_at, float("-inf")
            choices = self.query_one("#choices", OptionList)
            if isinstance(event, events.Key):
                if event.key == "enter" and time.monotonic() - digit_chose_at < DIGIT_ENTER:
                    return  # "2" Enter, typed as in line mode: the 2 chose already
                if self.focused is choices and event.is_printable and event.character:
                    self._list_key(choices, event.character)
                    return
            elif isinstance(event, events.Paste) and self.focused is choices:
                self._to_answer(event.text.splitlines()[0] if event.text else "")
                return
        await super().on_event(event)

    def _list_key(self, choices: OptionList, character: str) -> None:
        """A printable key typed in the list."""
        if len(character) == 1 and character in "123456789" and (
                int(character) <= choices.option_count):
            choices.highlighted = int(character) - 1
            self.choose(int(character), by_digit=True)
        else:  # a word (help, repeat, quit) or an answer begins: to the answer line
            self._to_answer(character)

    def _to_answer(self, text: str) -> None:
        """Text typed (or pasted) in the list goes to the answer line, focused."""
        answer = self.query_one("#answer", Input)
        answer.insert_text_at_cursor(text)
        self.screen.set_focus(answer)

    def on_descendant_focus(self) -> None:
        self._resettle()

    @on(OptionList.OptionHighlighted, "#choices")
    def highlighted(self) -> None:
        self._resettle()

    # -- what the player gives -----------------------------------------------------------

    def choose(self, number: int, *, by_digit: bool = False) -> None:
        """An option of the open list chosen (Enter, or its digit)."""
        if self._list_answered:
            return  # already answered; the next list is on its way
        self._list_answered = True
        if by_digit:
            self._digit_chose_at = time.monotonic()
        self.answers.put_line(str(number))

    @on(OptionList.OptionSelected, "#choices")
    def selected(self, event: OptionList.OptionSelected) -> None:
        self.choose(event.option_index + 1)

    @on(Input.Submitted, "#answer")
    def answered(self, event: Input.Submitted) -> None:
        self.answers.put_line(event.value)
        event.input.value = ""

    @on(Input.Changed, "#answer")
    def typed(self) -> None:
        self._resettle()

    def action_word(self, word: str) -> None:
        """A function key: the same as typing its word (stop acts at once)."""
        if word == "stop":
            self.plain.announcer.interrupt()
            return
        self.answers.put_line(word)
