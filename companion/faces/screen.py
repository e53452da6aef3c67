"""The full-screen face (Textual), built for screen readers and braille.

The journeys run in a thread worker; what they say and ask reaches the
screen as typed messages (:class:`Shown`, :class:`Opened`, :class:`Closed`,
:class:`Progressed`), posted from that thread and handled on the UI's. What
the player does goes back as values through the inbox: a line typed, an
option chosen, a key pressed. No borders, no animations, no blinking
cursor, no timers: an idle screen writes nothing. Colours are the
terminal's own 16 ANSI colours (the ``ansi-dark`` theme, so the player's
high-contrast palette applies) and ``NO_COLOR`` is honoured; nothing is
shown by colour alone. Styles are in ``screen.tcss``.

Layout, top to bottom (it fits 40x15):

- the transcript: what was said before, and each menu's title and the
  option chosen;
- the reply (``#reply``): everything said since the player last acted,
  in order, wrapped at word boundaries (at most 40% of the screen; its
  first sentence always in view);
- while a menu is open, its title (``#title``), then its numbered options
  (``#choices``), at most 40% of the screen, scrolling with the highlight;
- the key facts (``#facts``) during a game, first: "R1 T3, 12 points,
  7 cards" (round, turn, your score, cards in hand);
- the answer line: the question's prompt as its label (``#prompt``), then
  what the player types (``#answer``).

Keys come from the one key map (:mod:`companion.keymap`): F1 help, F2
repeat, F3 back, F4 next, F5 where am I, F6 my hand, F7 tables, F8 hint,
F9 undo, Escape stop speech, Ctrl+Q quit; each is also a word typed in the
answer line. Every key stops speech at once. In the list: Up, Down, Home,
End (and Page Up, Page Down) move the highlight, Enter chooses it, a digit
1-9 chooses that option at once (and the Enter typed right after it, as in
line mode, is taken as the end of that digit, not as the next answer: by
order, never by time); any other letter goes to the answer line with that
letter typed (a paste too); a number typed in the answer line and Enter
chooses as well. Tab moves between the list and the answer line.

Where the terminal cursor is (a braille display and a console screen
reader follow it):

1. After something new is said, it is at the start of the reply: the
   first sentence said since the player's last action is on the cursor's
   row, the rest on the rows below, then the question (a menu's title
   right before its first option), so panning forward reads it all.
2. After any key the player presses, any focus change and any highlight
   change, it is on the focused item: in the answer line at its text
   cursor, in the list at the start of the highlighted option's text.
   A question asked with nothing new said puts it there too. While the
   answer line is empty and its prompt is long (the answer would begin
   past cell 32, out of a 40-cell display's first window), the cursor is
   at the start of the prompt instead, so the display shows the question;
   the first key typed takes it to the answer.
3. When a list opens, it takes the focus with its first option
   highlighted, unless the player is already typing in the answer line;
   when it closes, the focus goes back to the answer line.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import signal
import sys
import threading
from typing import ClassVar

from rich.cells import cell_len
from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.driver import Driver
from textual.drivers.linux_driver import LinuxDriver
from textual.geometry import Offset, Region
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Input, Label, ListItem, ListView, RichLog, Static

from companion.conversation.core import Talk, layout_digits
from companion.conversation.events import (
    Announcement,
    Answered,
    Asked,
    Chosen,
    Menu,
    Pressed,
)
from companion.conversation.journeys import run
from companion.faces import FAR_RIGHT, break_question
from companion.inbox import Inbox
from companion.keymap import ACTIONS
from companion.settings import Settings

# -- what the journeys' thread tells the screen --------------------------------------------


class Shown(Message):
    """Something was said."""

    def __init__(self, announcement: Announcement) -> None:
        super().__init__()
        self.announcement = announcement


class Opened(Message):
    """A question was asked (or asked again)."""

    def __init__(self, asked: Asked) -> None:
        super().__init__()
        self.asked = asked


class Closed(Message):
    """The open question was answered."""

    def __init__(self, answered: Answered) -> None:
        super().__init__()
        self.answered = answered


class Progressed(Message):
    """The key facts of the game changed."""

    def __init__(self, facts: str) -> None:
        super().__init__()
        self.facts = facts


class Ended(Message):
    """The journeys ended: the app ends too."""

    def __init__(self, code: int) -> None:
        super().__init__()
        self.code = code


class ScreenFace:
    """The :class:`~companion.conversation.events.Face` the journeys talk to:
    each call posts a message to the app, in order, without waiting for it
    (the journeys' thread may hold the speech lock the UI thread needs to
    stop speech on a key, so it must never block on the UI)."""

    def __init__(self, app: CompanionApp) -> None:
        self.app = app

    @property
    def has_keys(self) -> bool:
        return True

    def show(self, announcement: Announcement) -> None:
        self.app.post_message(Shown(announcement))

    def asked(self, asked: Asked) -> None:
        self.app.post_message(Opened(asked))

    def answered(self, answered: Answered) -> None:
        self.app.post_message(Closed(answered))

    def progress(self, facts: str) -> None:
        self.app.post_message(Progressed(facts))


# -- widgets -------------------------------------------------------------------------------




class Answer(Input):
    """The answer line; the terminal cursor on the cell its text cursor is
    drawn in (Textual's own is one cell to the right at the end of the text),
    placed as the line is drawn when the cursor belongs to it; while it is
    empty and its prompt pushes it past :data:`FAR_RIGHT`, on the prompt's
    first cell."""

    @property
    def cursor_screen_offset(self) -> Offset:
        x, y, _width, _height = self.content_region
        if not self.value and x >= FAR_RIGHT and isinstance(self.parent, Widget):
            row = self.parent.content_region
            return Offset(row.x, row.y)
        column = cell_len(self.value[: self.cursor_position]) - self.scroll_offset.x
        return Offset(x + column, y)

    def render_lines(self, crop: Region) -> list[Strip]:
        lines = super().render_lines(crop)
        app = self.app
        if isinstance(app, CompanionApp) and self.has_focus and not app.cursor_on_reply:
            app.cursor_position = self.cursor_screen_offset
        return lines


class Reply(Static):
    """What was said since the player's last key. When the cursor rests on
    it, it is placed there as the reply is drawn, in the same screen update
    (moved a refresh later, a braille display would show the row it left
    for a moment, and a screen reader would read it)."""

    def render_lines(self, crop: Region) -> list[Strip]:
        lines = super().render_lines(crop)
        app = self.app
        if isinstance(app, CompanionApp) and app.cursor_on_reply and self.region:
            app.cursor_position = self.region.offset
        return lines


class Option(ListItem):
    """An option of a menu. The highlighted one places the cursor on itself
    as it is drawn, when the cursor belongs to the list (in the same screen
    update as a new menu: no blank row under the cursor in between)."""

    def render_lines(self, crop: Region) -> list[Strip]:
        lines = super().render_lines(crop)
        app = self.app
        if (isinstance(app, CompanionApp) and self.highlighted and not app.cursor_on_reply
                and isinstance(self.parent, Choices) and app.focused is self.parent):
            offset = self.parent.cursor_offset()
            if offset is not None:
                app.cursor_position = offset
        return lines


class Choices(ListView):
    """A menu's options, a line (or more) each."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("home", "first", "First", show=False),
        Binding("end", "last", "Last", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
    ]

    def action_first(self) -> None:
        self.index = 0

    def action_last(self) -> None:
        self.index = len(self.children) - 1

    def action_page(self, direction: int) -> None:
        if self.index is not None:
            self.index = self.index + direction * max(1, self.size.height - 1)

    def cursor_offset(self) -> Offset | None:
        """The start of the highlighted option's text, if it is on screen."""
        child = self.highlighted_child
        if child is None or not child.region:
            return None
        region = self.content_region
        row = min(max(child.region.y, region.y), region.bottom - 1)
        return Offset(child.region.x, row)


class ConversationScreen(Screen[int]):
    """The one view of the conversation: transcript, reply, menu, facts, answer."""

    def compose(self) -> ComposeResult:
        # Long sentences wrap: nothing is cut off in a narrow terminal.
        transcript = RichLog(id="transcript", wrap=True, min_width=1, markup=False,
                             highlight=False, auto_scroll=True)
        transcript.can_focus = False  # the focus is the list or the answer line, never here
        yield transcript
        with VerticalScroll(id="reply-box", can_focus=False) as box:
            box.display = False
            yield Reply("", id="reply", markup=False)
        title = Static("", id="title", markup=False)
        title.display = False
        yield title
        choices = Choices(id="choices")
        choices.display = False
        yield choices
        facts = Static("", id="facts", markup=False)
        facts.display = False
        yield facts
        with Horizontal(id="answer-row"):
            yield Static("", id="prompt", markup=False)
            answer = Answer(id="answer", placeholder="", select_on_focus=False)
            answer.cursor_blink = False
            yield answer


#: The keys of the key map.
BOUND_KEYS = frozenset(key for action in ACTIONS for key in action.keys)


class CaretDriver(LinuxDriver):
    """Textual's terminal driver, with the terminal's own caret shown, steady:
    a low-vision player (and a screen magnifier) follows it where Textual
    places it, on the reply or the focused item."""

    def start_application_mode(self) -> None:
        super().start_application_mode()  # type: ignore[no-untyped-call]  # Textual's, untyped
        self.write("\x1b[?25h\x1b[2 q")  # show the cursor, a steady block
        self.flush()

    def stop_application_mode(self) -> None:
        self.write("\x1b[0 q")  # the terminal's own cursor shape again
        super().stop_application_mode()


class CompanionApp(App[int]):
    """The companion's full-screen face."""

    CSS_PATH = "screen.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(key, f"press('{action.name}')", action.name.capitalize(), show=False,
                priority=key == "ctrl+q")
        for action in ACTIONS for key in action.keys
    ]
    ENABLE_COMMAND_PALETTE = False

    #: The key facts of the game now (empty: no game).
    facts: reactive[str] = reactive("", init=False)
    #: The open question's prompt, the answer line's label.
    prompt: reactive[str] = reactive("", init=False)

    def __init__(self, settings: Settings, *, first_start: bool = False,
                 scanner: str | None = None) -> None:
        # The terminal's own ANSI colours (the theme's too: no RGB or 256-colour
        # backgrounds), so the player's high-contrast palette applies;
        # Textual itself honours NO_COLOR.
        super().__init__(ansi_color=True)
        self.theme = "ansi-dark"
        self.settings = settings
        self.first_start = first_start
        self.scanner = scanner
        self.inbox = Inbox()
        #: Every line the journeys said or asked, in order (as plain mode writes them).
        self.lines: list[str] = []
        self.talk: Talk | None = None
        self._journeys_done = threading.Event()
        #: The hang-up watch's pipe (read end, write end), written to when the
        #: app ends another way; made only when there is a terminal to watch.
        self._unwatch: tuple[int, int] | None = None
        #: What was said since the player last acted: the reply, where the cursor rests.
        self.reply_lines: list[str] = []
        #: The player acted since the reply began: what is said next begins a new one.
        self._acted = True
        #: A line was given and is still shown on the answer line (until what comes next).
        self._submitted = False
        self._given_to = ""  # the prompt a line was given to
        #: A menu was answered and its list is still shown (until what comes next).
        self._menu_closed = False
        #: A digit chose in a list, and no key came since: an Enter now ends
        #: that digit, as in line mode (it does not answer the next question).
        self._digit_chose = False
        #: The cursor's resting place: the reply, or the focused item.
        self.cursor_on_reply = False
        #: The open menu, and whether it was answered (further Enter or
        #: digits wait for the next one).
        self._menu: Menu | None = None
        self._list_answered = False

    def get_driver_class(self) -> type[Driver]:
        """On a POSIX terminal, the driver that shows the caret."""
        driver = super().get_driver_class()
        return CaretDriver if driver is LinuxDriver else driver

    def get_default_screen(self) -> Screen[int]:
        return ConversationScreen()

    def on_ready(self) -> None:
        """The screen is up: the journeys start."""
        self.answer.focus()
        self.talk = Talk(ScreenFace(self), self.inbox, self.settings, scanner=self.scanner)
        # Told to end (SIGTERM, the terminal closed, kill -INT): the app ends
        # as when the player quits, the terminal given back as it was; every
        # entry is already on disk. (Before the first question is asked.)
        loop = asyncio.get_running_loop()
        for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(number, self.post_message, Ended(0))
        self.journeys(self.talk)
        if sys.stdin.isatty():
            self._unwatch = os.pipe()
            self.watch_terminal(sys.stdin.fileno(), self._unwatch[0])

    # -- the widgets -------------------------------------------------------------------------

    @property
    def answer(self) -> Answer:
        return self.screen.query_one("#answer", Answer)

    @property
    def choices(self) -> Choices:
        return self.screen.query_one("#choices", Choices)

    @property
    def transcript(self) -> RichLog:
        return self.screen.query_one("#transcript", RichLog)

    def watch_facts(self, facts: str) -> None:
        widget = self.screen.query_one("#facts", Static)
        widget.update(facts)
        widget.display = bool(facts)

    def watch_prompt(self, prompt: str) -> None:
        # a long prompt in two rows, the answer beside the first (a 40-cell
        # display shows the question and the answer together)
        self.screen.query_one("#prompt", Static).update(
            "\n".join(break_question([prompt])) + " " if prompt else "")

    @property
    def reply(self) -> Static:
        return self.screen.query_one("#reply", Static)

    # -- the threads --------------------------------------------------------------------------

    @work(thread=True, exclusive=True, name="journeys")
    def journeys(self, talk: Talk) -> None:
        """Every journey, in this worker's thread, until the player quits or
        the input ends; the app ends with them."""
        code = 1
        try:
            code = run(talk, first_start=self.first_start)
        finally:
            self._journeys_done.set()
            self.post_message(Ended(code))

    @work(thread=True, name="hang-up")
    def watch_terminal(self, fd: int, stop: int) -> None:
        """End the app when its terminal goes away with no signal (a closed
        remote session, a killed emulator): without it the input thread
        would read nothing forever at full speed. It sleeps in poll() and
        wakes only on a hang-up: nothing runs while the app is idle. Every
        entry is already on disk, and the next start offers to resume.
        ``stop`` is readable when the app ends another way; it is closed here."""
        watch = select.poll()
        watch.register(fd, 0)  # no events asked: only hang-up and error are reported
        watch.register(stop, select.POLLIN)  # the app ends another way
        try:
            while True:
                for ready, event in watch.poll():
                    if ready == stop:
                        return
                    if event & (select.POLLHUP | select.POLLERR | select.POLLNVAL):
                        self.post_message(Ended(0))
                        return
        except (OSError, RuntimeError):
            return  # the app is already gone
        finally:
            os.close(stop)

    def on_ended(self, message: Ended) -> None:
        self.exit(message.code)

    def on_unmount(self) -> None:
        """However the app ends, the journeys end too: their scanner link,
        their voice and their game's journal are closed."""
        self.inbox.end()
        if self._unwatch is not None:
            with contextlib.suppress(OSError):  # the watch may have ended already
                os.write(self._unwatch[1], b"x")
            os.close(self._unwatch[1])
            self._unwatch = None
        self._journeys_done.wait(timeout=2)

    # -- what the journeys say and ask ---------------------------------------------------

    @property
    def news(self) -> bool:
        """Whether something was said since the player last acted (the
        cursor rests on it then)."""
        return bool(self.reply_lines) and not self._acted

    @property
    def reply_box(self) -> VerticalScroll:
        return self.screen.query_one("#reply-box", VerticalScroll)

    def _flush_reply(self) -> None:
        """The reply the player has acted on goes into the transcript."""
        for line in self.reply_lines:
            self.transcript.write(line)
        self.reply_lines = []
        self.reply.update("")
        self.reply_box.display = False
        self._acted = False

    async def on_shown(self, message: Shown) -> None:
        """Something said: in the reply, where the cursor rests (rule 1 of the
        module's docstring)."""
        with self.batch_update():
            await self._shown(message)

    async def _shown(self, message: Shown) -> None:
        self._clear_answer()
        await self._retire_menu()
        text = message.announcement.text
        self.lines.append(text)
        if self._acted:
            self._flush_reply()
        self.reply_lines.append(text)
        self.reply.update("\n".join(self.reply_lines))
        box = self.reply_box
        box.display = True
        box.scroll_home(animate=False)  # its first sentence in view, the cursor on it
        self._cursor_to(reply=True)

    async def on_opened(self, message: Opened) -> None:
        # one screen update for the whole change (a list emptied then filled
        # would show a blank row under the cursor in between)
        with self.batch_update():
            await self._opened(message)

    async def _opened(self, message: Opened) -> None:
        self._clear_answer()
        asked = message.asked
        question = asked.question
        if not (isinstance(question, Menu) and not asked.again):
            await self._retire_menu()
        if isinstance(question, Menu) and not asked.again:
            self._menu_closed = False  # the list is filled with the new menu's options
            if self._acted:
                self._flush_reply()  # the title right after what came before it
            self.lines.append(question.title)
            title = self.screen.query_one("#title", Static)
            title.update(question.title)
            title.display = True
            await self._open_list(question)
        if asked.prompt is not None:
            self.lines.append(asked.prompt)
            self.prompt = asked.prompt
        # the news of this turn, if any, keeps the cursor; else the question has it
        self._cursor_to(reply=self.news)

    async def _open_list(self, menu: Menu) -> None:
        """A menu opens: its options in the list, right under its title."""
        self.lines.extend(f"{number}. {option}" for number, option in
                          enumerate(menu.options, start=1))
        choices = self.choices
        await choices.clear()
        await choices.extend(Option(Label(f"{number}. {option}", markup=False))
                             for number, option in enumerate(menu.options, start=1))
        choices.index = 0
        choices.display = True
        self._menu = menu
        self._list_answered = False
        if not self.answer.value:  # not while the player types
            self.screen.set_focus(choices)

    async def on_closed(self, message: Closed) -> None:
        """A menu was answered: its title and the option chosen go into the
        transcript (what was chosen stays in the history). The list stays on
        screen, answered, until what comes next replaces it in the same
        update: a row under the cursor is never blank in between."""
        if not isinstance(message.answered.question, Menu):
            return
        self._flush_reply()
        self.transcript.write(message.answered.question.title)
        if message.answered.shown is not None:
            self.transcript.write(message.answered.shown)
        self._acted = True
        self._menu = None
        self._menu_closed = True

    async def _retire_menu(self) -> None:
        """The answered menu goes: the focus back on the answer line."""
        if not self._menu_closed:
            return
        self._menu_closed = False
        self.screen.query_one("#title", Static).display = False
        choices = self.choices
        choices.display = False
        await choices.clear()
        self.screen.set_focus(self.answer)

    def on_progressed(self, message: Progressed) -> None:
        self.facts = message.facts

    # -- the terminal cursor ---------------------------------------------------------------

    def _cursor_to(self, *, reply: bool) -> None:
        """Rest the cursor on the reply's first row or on the focused item,
        once the screen has its new layout."""
        self.cursor_on_reply = reply
        self.call_after_refresh(self._settle_cursor)

    def cursor_target(self) -> Offset:
        """Where the cursor belongs now."""
        if self.cursor_on_reply and self.reply_box.display and self.reply_box.region:
            return self.reply_box.region.offset
        focused = self.focused
        if isinstance(focused, Choices):
            offset = focused.cursor_offset()
            if offset is not None:
                return offset
        return self.answer.cursor_screen_offset

    def _settle_cursor(self) -> None:
        target = self.cursor_target()
        if target != self.cursor_position:
            self.cursor_position = target
            # The cursor goes out with the next screen update: ask for one,
            # and look again after it (a list just filled is laid out then).
            widget: Widget = (self.reply if self.cursor_on_reply
                              else self.focused or self.answer)
            widget.refresh()
            self.call_after_refresh(self._settle_cursor)

    def _resettle(self) -> None:
        """The focused item moved (a highlight, a focus, a letter typed): the
        cursor follows it if it is resting there, once the screen is updated."""
        self.call_after_refresh(self._settle_cursor)

    async def on_event(self, event: events.Event) -> None:
        """Every key stops speech; typing and moving bring the cursor to the
        focused item.

        Keys meant for the list are sorted out here, in the order they came
        (before any goes to a widget, so a fast typist or a keyboard-wedge
        scanner loses none to a focus change): a digit chooses, any other
        printable key goes to the answer line; an Enter straight after a
        digit that chose is dropped."""
        if isinstance(event, events.Key | events.Paste | events.MouseDown) and (
                not event.is_forwarded):
            if self.talk is not None and self.talk.announcer is not None:
                self.talk.voice.interrupt()  # new input: speech stops at once
            self._acted = True
            self._clear_answer()  # a line given and still shown: the next key starts anew
            on_list = isinstance(self.focused, Choices)
            if not self._answers(event, on_list=on_list):
                # typing or moving: the cursor goes to the item; a key that
                # answers leaves it on what was said until the reply comes
                # (it is not moved twice, nor through rows about to change)
                self._cursor_to(reply=False)
            digit_chose, self._digit_chose = self._digit_chose, False
            if isinstance(event, events.Key):
                if digit_chose and event.key == "enter" and not self.answer.value:
                    return  # "2" Enter, typed as in line mode: the 2 chose already
                if on_list and event.is_printable and event.character:
                    self._list_key(event.character)
                    return
            elif isinstance(event, events.Paste) and on_list:
                self._to_answer(event.text.splitlines()[0] if event.text else "")
                return
        await super().on_event(event)

    def _answers(self, event: events.Event, *, on_list: bool) -> bool:
        """Whether a key answers (or asks for something to be said): Enter, a
        key of the key map, a digit that chooses in the list."""
        if not isinstance(event, events.Key):
            return False
        if event.key == "enter" or event.key in BOUND_KEYS:
            return True
        character = event.character or ""
        if on_list and self.talk is not None:
            character = layout_digits(character, self.talk.language)
        count = len(self._menu.options) if self._menu is not None else 0
        return on_list and len(character) == 1 and character in "123456789" and (
            int(character) <= count)

    def _list_key(self, character: str) -> None:
        """A printable key typed in the list."""
        count = len(self._menu.options) if self._menu is not None else 0
        if self.talk is not None:  # the digit row of a Czech or French keyboard too
            character = layout_digits(character, self.talk.language)
        if len(character) == 1 and character in "123456789" and int(character) <= count:
            # chosen at once: the highlight is not moved first (a braille
            # display would show that option for a moment before the reply)
            self.choose(int(character) - 1)
            self._digit_chose = True  # the Enter typed after it ends it, as in line mode
        else:  # a word (help, repeat, quit) or an answer begins: to the answer line
            self._to_answer(character)

    def _to_answer(self, text: str) -> None:
        """Text typed (or pasted) in the list goes to the answer line, focused."""
        answer = self.answer
        answer.insert_text_at_cursor(text)
        self.screen.set_focus(answer)

    def on_descendant_focus(self) -> None:
        self._resettle()

    @on(ListView.Highlighted, "#choices")
    def highlighted(self) -> None:
        self._resettle()

    # -- what the player gives -----------------------------------------------------------

    def choose(self, index: int) -> None:
        """An option of the open list chosen (Enter on it)."""
        if self._list_answered:
            return  # already answered; the next list is on its way
        self._list_answered = True
        self.inbox.put(Chosen(index))

    @on(ListView.Selected, "#choices")
    def selected(self, event: ListView.Selected) -> None:
        if event.list_view.index is not None:
            self.choose(event.list_view.index)

    @on(Input.Submitted, "#answer")
    def answered(self, event: Input.Submitted) -> None:
        """A line typed: given; it stays on the answer line until the reply
        (or the next question) comes, and goes in the same screen update."""
        self.inbox.put_line(event.value)
        self._submitted = True
        # (a menu's answer is written as the option chosen, on_closed)
        self._given_to = self.prompt if self._menu is None else ""

    def _clear_answer(self) -> None:
        """A line given goes: into the transcript after what it answered
        ("Player 1's name: Ann"), so it stays in the history and a screen
        reader reads a new line rather than a changed character."""
        if self._submitted:
            self._submitted = False
            given = self.answer.value
            if given.strip() and self._given_to:
                if self._acted:
                    self._flush_reply()
                self.transcript.write(f"{self._given_to} {given}")
            self.answer.value = ""

    @on(Input.Changed, "#answer")
    def typed(self) -> None:
        self._resettle()

    def action_press(self, name: str) -> None:
        """A key of the key map: the same as typing its word (stop acts at once)."""
        if name == "stop":
            if self.talk is not None:
                self.talk.voice.interrupt()
            return
        self.inbox.put(Pressed(name))
