"""The full-screen face (Textual), built for screen readers and braille.

The journeys run in a thread worker; what they say and ask (the
conversation's values: announcements, questions asked and answered, the
key facts) is gathered in that thread until the journeys wait for the
player, posted together in one Textual message (:class:`Told`) and drawn
on the UI's in one screen update, the cursor in place in that same update.
The conversation's state is a plain model (:mod:`companion.faces.screen_state`)
those values and the player's keys update; this module shows it. What
the player does goes back as values through the inbox: a line typed, an
option chosen, a key pressed. No borders, no animations, no blinking
cursor, no timers: an idle screen writes nothing. Colours are the
terminal's own 16 ANSI colours (the ``ansi-dark`` theme, so the player's
high-contrast palette applies) and ``NO_COLOR`` is honoured; nothing is
shown by colour alone. Styles are in ``screen.tcss``. What it needs of
Textual's private API (placing the terminal cursor, the caret, the
answer line's scrolling) is in :mod:`companion.faces.textual_adapter`,
and only there.

Layout, top to bottom (it fits 40x15):

- the transcript: what was said before, and each menu's title and the
  option chosen;
- the reply (``#reply``): everything said since the player last acted,
  in order, wrapped at word boundaries, whole: when it does not fit with
  the question after it, it comes in pages as in plain mode, each ended by
  "More: Enter." over the whole screen (Enter for the next; any other key
  shows the rest and is what it is), the question after the last page, so
  nothing said is cut off by what follows (a game's final scores);
- while a menu is open, its title (``#title``), then its numbered options
  (``#choices``), at most 40% of the screen, scrolling with the highlight;
- the answer line: the question's prompt as its label (``#prompt``), then
  what the player types (``#answer``);
- the key facts (``#facts``) during a game, on the last row, first:
  "R1 T3, 12 points, 7 cards" (round, turn, your score, cards in hand).
  (Below the answer line: when a line is given, it goes into the
  transcript right after what was on screen above it, and a screen reader
  sees no row moved past it, so it does not read the line again.)

Keys come from the one key map (:mod:`companion.keymap`): F1 help, F2
repeat, F3 back, F4 next, F5 where am I, F6 my hand, F7 tables, F8 hint,
F9 undo, Escape stop speech, Ctrl+Q quit; each is also a word typed in the
answer line. Every key stops speech at once. In the list: Up, Down, Home,
End (and Page Up, Page Down) move the highlight, Enter chooses it, a digit
1-9 chooses that option at once (and the Enter typed right after it, as in
line mode, is taken as the end of that digit, not as the next answer: when
no key came between and it comes within a second; a later Enter, once the
reply was there to read, answers the next question); any other letter
goes to the answer line with that letter typed (a paste too); a number
typed in the answer line and Enter chooses as well. Tab moves between the list and the answer line.

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
   when it closes, the focus goes back to the answer line. A list that
   opens with nothing new said puts the cursor on its title, its first
   option on the row after it (a braille display shows the question with
   its first answer); the first key takes it to the highlighted option.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import ClassVar, assert_never

from rich.cells import cell_len
from rich.segment import Segment
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.css.query import NoMatches
from textual.geometry import Offset, Size
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Input, Label, ListItem, ListView, Static

from companion import ending
from companion.contract.events import (
    Announcement,
    Answered,
    Asked,
    Chosen,
    Menu,
    Pressed,
)
from companion.conversation.inbox import Inbox, Item
from companion.faces import FAR_RIGHT, KEPT, WINDOW, Begin, Running, break_question
from companion.faces.screen_state import Facts, ScreenState
from companion.faces.textual_adapter import CursorApp, HalfScrollInput
from companion.keymap import ACTIONS
from companion.portable import signals

#: How long the last words stay on screen, drawn, before the app ends (seconds).
LAST_WORDS = 0.5

# -- what the journeys' thread tells the screen --------------------------------------------


#: What the journeys tell the screen: something said, a question asked (or
#: asked again), the open question answered, the key facts changed.
News = Announcement | Asked | Answered | Facts


@dataclass
class Told(Message):
    """What the journeys said and did up to their next question (or, while
    they wait, a warning said), in order, drawn in one screen update.

    One message carries them all, not one message each, for a measured
    reason: a reply that grew over several screen updates would move the
    cursor's row under a braille display and its speech, which would say
    that row again. No message replaces another (``can_replace`` is
    Textual's default, False): every sentence is drawn."""

    news: tuple[News, ...]


@dataclass
class Ended(Message):
    """The journeys ended, or the app was told to end: the app ends too,
    with ``code``."""

    code: int


class ScreenFace:
    """The :class:`~companion.contract.events.Face` the journeys talk to.

    What is said, answered and the key facts are held while the journeys
    work, and posted together in one :class:`Told` when they wait for the
    player (their question asked), drawn in one screen update: a reply
    that grew over several updates would move the cursor's row under a
    braille display and its speech, which would say that row again. While
    the journeys wait, what is said (a warning from another thread) goes
    out at once. Nothing waits for the UI (the journeys' thread may hold
    the speech lock the UI thread needs to stop speech on a key, so it must
    never block on it)."""

    def __init__(self, app: CompanionApp) -> None:
        self.app = app
        self._held: list[News] = []
        self._lock = threading.Lock()
        #: The journeys wait for the player (or no :class:`ScreenInbox` tells
        #: when they do): nothing is held.
        self._idle = not isinstance(app.inbox, ScreenInbox)

    @property
    def has_keys(self) -> bool:
        return True

    def _hold(self, news: News) -> None:
        with self._lock:
            self._held.append(news)
            if self._idle:
                self._post()

    def _post(self) -> None:
        news, self._held = self._held, []
        if news:
            self.app.post_message(Told(tuple(news)))

    def waiting(self, idle: bool) -> None:
        """The journeys wait for the player (``idle``), or go on."""
        with self._lock:
            self._idle = idle
            if idle:
                self._post()

    def show(self, announcement: Announcement) -> None:
        self._hold(announcement)

    def asked(self, asked: Asked) -> None:
        self._hold(asked)

    def answered(self, answered: Answered) -> None:
        self._hold(answered)

    def progress(self, facts: str) -> None:
        self._hold(Facts(facts))

    def taken(self, item: Item) -> None:
        pass  # nothing waits for a key here: every reply is drawn whole


class ScreenInbox(Inbox):
    """The full screen's inbox: it tells its face when the journeys wait for
    the player and when they go on."""

    def __init__(self) -> None:
        super().__init__()
        self.face: ScreenFace | None = None

    def get(self) -> Item:
        face = self.face
        if face is not None:
            face.waiting(True)
        try:
            return super().get()
        finally:
            if face is not None:
                face.waiting(False)


# -- widgets -------------------------------------------------------------------------------




def wrapped(text: str, width: int) -> list[str]:
    """``text``'s rows at ``width`` cells, broken at word boundaries (a
    word longer than a row is cut), each line's indentation kept: the
    transcript and the reply wrap alike, so a sentence moved from one to
    the other keeps its rows (a screen reader sees no new text).

    >>> wrapped("Round 1, Ben's cards, in the order played: s s", 20)
    ["Round 1, Ben's", 'cards, in the order', 'played: s s']
    >>> wrapped("  Sashimi: 1 set of 3, 10 points.", 18)
    ['  Sashimi: 1 set', 'of 3, 10 points.']
    >>> wrapped("", 10)
    ['']
    """
    rows: list[str] = []
    for line in text.split("\n"):
        rows.extend(textwrap.wrap(line.rstrip(), max(width, 1), break_on_hyphens=False,
                                  replace_whitespace=False) or [""])
    return rows


class Rows(Widget):
    """Plain text rows, wrapped by :func:`wrapped`; no markup, no style of
    its own."""

    DEFAULT_CSS = "Rows { height: auto; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.text = ""

    def update(self, text: str) -> None:
        self.text = text
        self.refresh(layout=True)

    def rows(self, width: int) -> list[str]:
        return wrapped(self.text, width) if self.text else []

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.rows(width))

    def render_line(self, y: int) -> Strip:
        rows = self.rows(self.size.width)
        text = rows[y] if y < len(rows) else ""
        return Strip([Segment(text, self.rich_style)]).adjust_cell_length(
            self.size.width, self.rich_style)




class Prompt(Rows):
    """The open question's prompt, left of the answer: as wide as its
    longest line and a cell between it and the answer, at most 60% of the
    answer's row (:data:`~companion.faces.WINDOW` cells at most:
    :meth:`CompanionApp._question_rows` counts its rows with :meth:`wrap`
    too), so the answer is typed beside its first row."""

    DEFAULT_CSS = "Prompt { height: auto; width: auto; max-width: 60%; }"

    @staticmethod
    def wrap(prompt: str, width: int) -> list[str]:
        """``prompt``'s rows in a prompt ``width`` cells wide (the last cell
        the one between it and the answer).

        >>> Prompt.wrap("Player 1's name, going round the table to the left:", 24)
        ["Player 1's name, going", 'round the table to the', 'left:']
        """
        return wrapped("\n".join(break_question([prompt])), width - 1) if prompt else []

    prompt = ""

    def update(self, text: str) -> None:
        self.prompt = text
        super().update("\n".join(break_question([text])) if text else "")

    def rows(self, width: int) -> list[str]:
        return self.wrap(self.prompt, width)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return max((len(line) for line in self.text.split("\n")), default=0) + 1 if self.text else 0

    def shown(self) -> list[str]:
        """Its rows as drawn, the first as wide as the prompt (the answer after it)."""
        width = self.size.width
        rows = self.rows(width)
        return [rows[0].ljust(width), *rows[1:]] if rows else []


class Transcript(Widget):
    """What was said and chosen before, from the top of the screen down, as
    tall as its rows: what comes next (the reply, the question) is drawn
    right below it, and a row once drawn stays where it is. When the next
    reply and its question do not fit below it, the screen starts again
    from the top (:meth:`forget`), its last :data:`KEPT` rows first, rather
    than scrolling: a console screen reader compares the screen before and
    after an update, and rows that moved (or were caught half-redrawn) are
    read again as new.

    A row that has gone out of view never comes back: a screen reader reads
    a row that comes into view as new text, and would say it again."""

    DEFAULT_CSS = "Transcript { height: auto; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        #: Every line written, in order.
        self.entries: list[str] = []
        #: The first row that may still be shown: (line, row of that line).
        self._horizon = (0, 0)
        self._view: tuple[tuple[int, int], list[str]] | None = None

    def write(self, line: str) -> None:
        self.entries.append(line)
        self._view = None
        self.refresh(layout=True)  # as tall as its rows

    def _rows(self, width: int) -> list[tuple[int, int, str]]:
        """The rows of the lines from the horizon's on (those before it are
        never shown again), with the line and the row of it each is."""
        start = self._horizon[0]
        return [(number, index, row)
                for number, line in enumerate(self.entries[start:], start=start)
                for index, row in enumerate(wrapped(line, width))]

    def content_rows(self, width: int) -> int:
        """The rows it takes at ``width``: those from the horizon on."""
        return sum(1 for number, index, _row in self._rows(width)
                   if (number, index) >= self._horizon)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.content_rows(width)

    def view(self) -> list[str]:
        """The rows shown now, top to bottom (blank above the oldest one
        still allowed, when it is given more rows than it has)."""
        width, height = self.size
        if self._view is not None and self._view[0] == (width, height):
            return self._view[1]
        rows = self._rows(width)
        first = next((at for at, (number, index, _row) in enumerate(rows)
                      if (number, index) >= self._horizon), len(rows))
        shown = rows[max(first, len(rows) - height):]
        if shown:
            self._horizon = (shown[0][0], shown[0][1])
        else:
            self._horizon = (len(self.entries), 0)
        view = [""] * (height - len(shown)) + [row for _n, _i, row in shown]
        self._view = ((width, height), view)
        return view

    def forget(self, keep: int = 0, width: int = 0) -> None:
        """No row shown so far is shown again but its last ``keep`` rows, now
        at the top (a page of the reply covered the others): when the
        transcript comes back, those and what is written next (rows as
        wrapped at ``width``, else at its own)."""
        width = width or self.size.width
        rows = [(number, index) for number, index, _row in self._rows(width)
                if (number, index) >= self._horizon] if keep > 0 and width > 0 else []
        self._horizon = rows[-min(keep, len(rows))] if rows else (len(self.entries), 0)
        self._view = None
        self.refresh(layout=True)

    @property
    def lines(self) -> list[str]:
        """The rows shown now, blank ones above left out."""
        view = self.view()
        while view and not view[0]:
            view = view[1:]
        return view

    def render_line(self, y: int) -> Strip:
        view = self.view()
        text = view[y] if y < len(view) else ""
        return Strip([Segment(text, self.rich_style)]).adjust_cell_length(
            self.size.width, self.rich_style)


class Answer(HalfScrollInput):
    """The answer line; the terminal cursor on the cell its text cursor is
    drawn in (Textual's own is one cell to the right at the end of the
    text); while it is empty and its prompt pushes it past
    :data:`FAR_RIGHT`, on the prompt's first cell. Its text scrolls by
    half its width (:class:`~companion.faces.textual_adapter.HalfScrollInput`)."""

    @property
    def cursor_screen_offset(self) -> Offset:
        x, y, _width, _height = self.content_region
        if not self.value and x >= FAR_RIGHT and isinstance(self.parent, Widget):
            row = self.parent.content_region
            return Offset(row.x, row.y)
        column = cell_len(self.value[: self.cursor_position]) - self.scroll_offset.x
        return Offset(x + column, y)


class ReplyRows(Rows):
    """What was said since the player's last key; when it does not fit with
    the question after it, a page of it (:attr:`page`: its first row and
    how many), "More: Enter." ending every page but the last."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        #: The rows shown: (first, count); None: all of them.
        self.page: tuple[int, int] | None = None
        #: The row that ends a page that is not the last.
        self.more = "More: Enter."
        #: The rows of the page before shown again above the page's own.
        self.lead = 0

    def show_page(self, page: tuple[int, int] | None, lead: int = 0) -> None:
        self.page = page
        self.lead = lead if page is not None else 0
        self.refresh(layout=True)

    def rows(self, width: int) -> list[str]:
        every = super().rows(width)
        if self.page is None:
            return every
        first, count = self.page
        shown = every[max(0, first - self.lead):first + count]
        return [*shown, self.more] if first + count < len(every) else shown


class Option(ListItem):
    """An option of a menu."""

    def __init__(self, text: str) -> None:
        super().__init__(Label(text, markup=False))
        self.text = text


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

    def shown(self) -> list[str]:
        """The options' rows in view, as drawn (those the list scrolled past
        or has no room for left out)."""
        width = self.size.width
        rows = [row for item in self.query(Option) for row in wrapped(item.text, width)]
        top = round(self.scroll_offset.y)
        return rows[top:top + self.size.height]

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
        yield Transcript(id="transcript")
        with VerticalScroll(id="reply-box", can_focus=False) as box:
            box.display = False
            yield ReplyRows(id="reply")
        title = Rows(id="title")
        title.display = False
        yield title
        choices = Choices(id="choices")
        choices.display = False
        yield choices
        with Horizontal(id="answer-row"):
            yield Prompt(id="prompt")
            answer = Answer(id="answer", placeholder="", select_on_focus=False)
            answer.cursor_blink = False
            yield answer
        yield Static("", id="spacer", markup=False)  # the room left, above the key facts
        facts = Static("", id="facts", markup=False)
        facts.display = False
        yield facts


#: The keys of the key map.
BOUND_KEYS = frozenset(key for action in ACTIONS for key in action.keys)


class CompanionApp(CursorApp[int]):
    """The companion's full-screen face: it shows :attr:`state`, the
    conversation's model, and places the terminal cursor in every screen
    update (:meth:`frame_cursor`)."""

    CSS_PATH = "screen.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(key, f"press('{action.name}')", action.name.capitalize(), show=False,
                priority=key == "ctrl+q")
        for action in ACTIONS for key in action.keys
    ]
    ENABLE_COMMAND_PALETTE = False

    #: The key facts shown (:attr:`ScreenState.facts`).
    facts: reactive[str] = reactive("", init=False)
    #: The answer line's label (:attr:`ScreenState.prompt`).
    prompt: reactive[str] = reactive("", init=False)

    def __init__(self, begin: Begin, *, inbox: Inbox | None = None) -> None:
        """``begin`` puts the conversation together over the screen's face
        once the screen is up (:mod:`companion.app`); ``inbox``: where what
        the player gives goes (a :class:`ScreenInbox` by default)."""
        # The terminal's own ANSI colours (the theme's too: no RGB or 256-colour
        # backgrounds), so the player's high-contrast palette applies;
        # Textual itself honours NO_COLOR.
        super().__init__(ansi_color=True)
        self.theme = "ansi-dark"
        self.begin = begin
        self.inbox: Inbox = inbox if inbox is not None else ScreenInbox()
        #: The conversation as the screen shows it.
        self.state = ScreenState()
        #: The conversation once begun: its speech, its settings, its journeys.
        self.running: Running | None = None
        #: The error the app ended on, if it ended on one (told by the caller
        #: in one sentence, once the terminal is given back).
        self.error: BaseException | None = None
        self._journeys_done = threading.Event()
        #: The last words are on screen, the app about to end (:meth:`on_ended`).
        self._ending = False
        #: The hang-up watch's pipe (read end, write end), written to when the
        #: app ends another way; made only when there is a terminal to watch.
        self._unwatch: tuple[int, int] | None = None
        #: The first row of the reply's page shown, while the reply is in
        #: pages (it does not fit with the question after it); None: whole.
        self._paging: int | None = None
        #: What the paging hid of the question (shown again with the last page).
        self._hidden: list[Widget] = []
        #: The row that ends a page ("More: Enter. Page 1."), in the player's
        #: language: numbered, so that no page's last row is the same as the
        #: page's before it (a screen reader comparing lines would not say it).
        self.more: Callable[[int], str] = lambda page: f"More: Enter. Page {page}."
        #: The number of the reply's page shown (1: the first).
        self._page = 1

    @property
    def page_number(self) -> int:
        """The number of the reply's page shown (1: the first)."""
        return self._page

    @property
    def lines(self) -> list[str]:
        """Every line the journeys said or asked, in order (as plain mode writes them)."""
        return self.state.lines

    @property
    def reply_lines(self) -> list[str]:
        """What was said since the player last acted: the reply, where the cursor rests."""
        return self.state.reply

    def get_default_screen(self) -> Screen[int]:
        return ConversationScreen()

    def on_ready(self) -> None:
        """The screen is up: the journeys start."""
        self.answer.focus()
        self.watch(self.screen, "focused", self._focus_moved, init=False)
        face = ScreenFace(self)
        if isinstance(self.inbox, ScreenInbox):
            self.inbox.face = face
        self.running = self.begin(face)
        # Told to end (SIGTERM, the terminal closed, kill -INT): the app ends
        # as when the player quits, the terminal given back as it was; every
        # entry is already on disk. (Before the first question is asked.) The
        # status names the signal, as the shell names a command it killed.
        loop = asyncio.get_running_loop()
        for number in signals("SIGTERM", "SIGHUP", "SIGINT"):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(number, self.post_message, Ended(128 + number))
        told = ending.told()
        if told is not None:  # told while the screen was starting
            self.post_message(Ended(128 + told))
        self.journeys(self.running)
        if sys.stdin.isatty() and sys.platform.startswith("linux"):
            # (macOS's poll() takes no terminal; Windows' console has none:
            # there the closed window's signal, or the system, ends the app)
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
    def transcript(self) -> Transcript:
        return self.screen.query_one("#transcript", Transcript)

    def watch_facts(self, facts: str) -> None:
        widget = self.screen.query_one("#facts", Static)
        widget.update(facts)
        widget.display = bool(facts)

    def watch_prompt(self, prompt: str) -> None:
        # a long prompt in two rows, the answer beside the first (a 40-cell
        # display shows the question and the answer together)
        self.screen.query_one("#prompt", Prompt).update(prompt)

    @property
    def reply(self) -> ReplyRows:
        return self.screen.query_one("#reply", ReplyRows)

    # -- the threads --------------------------------------------------------------------------

    @work(thread=True, exclusive=True, name="journeys")
    def journeys(self, running: Running) -> None:
        """Every journey, in this worker's thread, until the player quits or
        the input ends; the app ends with them."""
        code = 1
        try:
            code = running.run()
        except Exception as error:  # said in one sentence once the terminal is given back
            self.error = error
        finally:
            face = self.inbox.face if isinstance(self.inbox, ScreenInbox) else None
            if face is not None:
                face.waiting(True)  # the last words ("Goodbye.") drawn before the end
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
        """The app ends. When the journeys ended (the player quit), their
        last words ("The game is saved.", "Goodbye.") were drawn in the
        update before this message: once that update is on the terminal,
        they stay on screen, the cursor on them, for :data:`LAST_WORDS`
        seconds (a braille display and a screen reader read them, as plain
        mode leaves them), then the app ends. Told to end another way (a
        signal, the terminal gone), or again while they show: at once."""
        if self._ending or not self._journeys_done.is_set():
            self.exit(message.code)
            return
        self._ending = True
        self.call_after_refresh(self.set_timer, LAST_WORDS, partial(self.exit, message.code))

    def unhandled(self, error: BaseException) -> None:
        """An error nothing handled (in the journeys' thread or here): the
        app ends as Textual ends it, with a non-zero status, but without
        Textual's traceback: :func:`companion.app.start` says it in one
        sentence."""
        self.error = error

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
        return self.state.news

    @property
    def reply_box(self) -> VerticalScroll:
        return self.screen.query_one("#reply-box", VerticalScroll)

    def _write_transcript(self) -> None:
        """The transcript shows every line the model put in it."""
        transcript = self.transcript
        for line in self.state.transcript[len(transcript.entries):]:
            transcript.write(line)

    def _reply_flushed(self) -> None:
        """The reply the player acted on went into the transcript: it goes."""
        self._write_transcript()
        self._paging = None
        self.reply.page = None
        self.reply.lead = 0
        self.reply.update("")
        self.reply_box.display = False

    async def on_told(self, told: Told) -> None:
        """What the journeys said up to their question, in one screen update
        (a list emptied then filled would show a blank row under the cursor
        in between; a reply drawn in pieces would be read again)."""
        with self.batch_update():
            for news in told.news:
                match news:
                    case Announcement():
                        await self._shown(news)
                    case Asked():
                        await self._opened(news)
                    case Answered():
                        self._menu_answered(news)
                    case Facts():
                        self.state.progress(news)
                        self.facts = self.state.facts
                    case _:
                        assert_never(news)
            self._fit()

    # -- a reply taller than its room: pages ----------------------------------------------

    @property
    def paging(self) -> bool:
        """Whether a page of the reply is shown, the rest waiting for Enter."""
        return self._paging is not None

    def _question_rows(self, width: int, height: int) -> int:
        """The rows the open question takes under the reply: a menu's title
        and options (at most 40% of the screen), the answer line, the key facts."""
        rows = 0
        menu = self.state.menu
        if menu is not None:
            rows += len(wrapped(menu.title, width))
            options = sum(len(wrapped(option, width)) for option in menu.numbered())
            rows += min(options, max(1, height * 4 // 10))
        return rows + max(1, len(Prompt.wrap(self.prompt, max(2, min(width, WINDOW) * 6 // 10))))

    def _fit(self) -> None:
        """The reply, then the question, on one screen; when they do not fit,
        the reply in pages, "More: Enter." ending each (Enter for the next),
        the question after the last: what was said is never cut off by what
        follows, and the cursor rests on each page's first row."""
        width, height = self.size
        if width <= 0 or height <= 0:
            return
        reply = self.reply
        start = self._paging or 0
        if not start:
            self._page = 1
        reply.more = self.more(self._page)
        every = Rows.rows(reply, width)
        facts = len(wrapped(self.facts, width)) if self.facts else 0
        # (with the key facts, one row for the room above them, which
        # Textual's layout gives a row even when none is left: else the key
        # facts' last row goes off the bottom of the screen)
        spacer = 1 if facts else 0
        room = max(1, height - facts - spacer - self._question_rows(width, height))
        box = self.reply_box
        transcript = self.transcript
        # a page after the first begins with the last rows of the one before
        # (what a screen reader comparing lines finds in common: below them,
        # every row is new to it, "Chopsticks: 1 card" of a second player too)
        lead = min(KEPT, start)
        left = len(every) - start
        # the last page, with what room is left of the lead, two rows of it
        # at least, else one page more: a single row is too little in common
        # with the page before (another row of that page equal to a row of
        # this one, a second player's "Tempura: 1 card, 0 pairs", was
        # paired with it, and went unsaid)
        if left <= room and (left + min(lead, 2) <= room or left <= 1):
            lead = max(0, min(lead, room - (len(every) - start)))
            self._paging = None
            moved = lead != reply.lead
            reply.show_page((start, len(every) - start) if start else None, lead)
            if moved:  # the page's own first row moved: the cursor with it
                self._resettle()
            box.styles.max_height = room
            self._question_shown(True)
            shown = len(every) - start + lead if box.display else 0
            if start:
                transcript.forget()
            # no room above: from the top, its last rows kept
            elif transcript.content_rows(width) > (above := room - shown):
                transcript.forget(max(0, min(KEPT, above)), width)
            return
        if start:  # the transcript's rows kept on the first page go with it
            transcript.forget()
        elif not self._hidden:  # the first page: the transcript's last rows above it
            transcript.forget(min(KEPT, max(0, height - facts - 2) // 2), width)
        size = max(1, height - facts - spacer - 1 - lead - transcript.content_rows(width))
        ends, total = [], 0
        said = self.state.reply
        for number, sentence in enumerate(said):  # a page ends at a sentence's end
            total += len(wrapped(sentence, width))  # (not between a heading and its details)
            if number + 1 == len(said) or not said[number + 1][:1].isspace():
                ends.append(total)
        # at a sentence's end, one where the page is then at least half full
        # if there is one, else full
        # (and before the reply's end: the question comes with the last page)
        fits = [end for end in ends if start < end <= start + size and end < len(every)]
        full = [end for end in fits if end >= start + size // 2]
        count = max(1, ((full or fits)[-1] if fits else min(start + size, len(every) - 1))
                    - start)
        self._paging = start
        reply.show_page((start, count), lead)
        box.styles.max_height = lead + count + 1
        self._question_shown(False)

    def _question_shown(self, shown: bool) -> None:
        """The question (title, options, answer line) hidden while a page of
        the reply fills the screen, and shown again with the last page."""
        if not shown:
            if not self._hidden:  # (the transcript's rows above the first page kept)
                self._hidden = [w for w in (self.screen.query_one("#title", Rows),
                                            self.choices,
                                            self.screen.query_one("#answer-row", Horizontal))
                                if w.display]
                for widget in self._hidden:
                    widget.display = False
            return
        hidden, self._hidden = self._hidden, []
        for widget in hidden:
            widget.display = True
        if hidden:
            if self.choices.display and not self.answer.value:
                self.screen.set_focus(self.choices)
            else:
                self.screen.set_focus(self.answer)

    def _focus_moved(self, focused: Widget | None) -> None:
        """Focus lost with the question shown (the question hidden under a
        page and shown again before Textual told its widgets they were
        hidden: the late news takes their focus away) goes back to it, so
        the keys typed next are not lost."""
        if focused is None and self._paging is None and self.answer.display and (
                self.screen.query_one("#answer-row", Horizontal).display):
            self.call_later(self._refocus)

    def _refocus(self) -> None:
        if self.focused is None and self._paging is None:
            if self.choices.display and not self.answer.value:
                self.screen.set_focus(self.choices)
            else:
                self.screen.set_focus(self.answer)

    def _next_page(self) -> None:
        """Enter on a page: the next one, the cursor on its first row."""
        page = self.reply.page
        if self._paging is None or page is None:
            return
        self._paging = page[0] + page[1]
        self._page += 1
        with self.batch_update():
            self._fit()
            self.reply_box.scroll_home(animate=False)
        self._cursor_to(reply=True)

    def _end_paging(self) -> None:
        """Any other key on a page: the rest of the reply shown (scrolled to in
        its box), the question after it, and the key is what it is."""
        if self._paging is None:
            return
        page = self.reply.page
        start = page[0] if page is not None else 0
        self._paging = None
        self.reply.show_page((start, len(Rows.rows(self.reply, self.size.width)) - start)
                             if start else None)
        self.transcript.forget()  # the reply's box takes the screen the question leaves
        self._fit_box()
        self._question_shown(True)

    def _fit_box(self) -> None:
        width, height = self.size
        facts = len(wrapped(self.facts, width)) if self.facts else 0
        self.reply_box.styles.max_height = max(1, height - facts
                                               - self._question_rows(width, height))

    async def _shown(self, announcement: Announcement) -> None:
        """Something said: in the reply, where the cursor rests (rule 1 of the
        module's docstring)."""
        self._clear_answer()
        await self._retire_menu()
        if self.state.say(announcement.text):
            self._reply_flushed()
        self.reply.update("\n".join(self.state.reply))
        box = self.reply_box
        box.display = True
        box.scroll_home(animate=False)  # its first sentence in view, the cursor on it
        self._resettle()

    async def _opened(self, asked: Asked) -> None:
        self._clear_answer()
        menu = asked.question if isinstance(asked.question, Menu) and not asked.again else None
        if menu is None:  # a question of another kind, or the same menu asked again
            await self._retire_menu()
        else:
            if self.state.open_menu(menu):
                self._reply_flushed()
            title = self.screen.query_one("#title", Rows)
            title.update(menu.title)
            title.display = True
            await self._open_list(menu)
        self.state.ask(asked.prompt)
        self.prompt = self.state.prompt
        self._resettle()

    async def _open_list(self, menu: Menu) -> None:
        """A menu opens: its options in the list, right under its title."""
        choices = self.choices
        await choices.clear()
        await choices.extend(Option(option) for option in menu.numbered())
        choices.index = 0
        choices.display = True
        if not self.answer.value:  # not while the player types
            self.screen.set_focus(choices)

    def _menu_answered(self, answered: Answered) -> None:
        """A menu was answered: its rows as shown (title, options, prompt)
        and the option chosen in a sentence go into the transcript (what was
        chosen stays in the history, the rows where they were). The list
        stays on screen, answered, until what comes next replaces it in the
        same update: a row under the cursor is never blank in between."""
        menu = answered.question
        rows = None
        if isinstance(menu, Menu):
            title = self.screen.query_one("#title", Rows)
            rows = [*title.rows(title.size.width or self.size.width), *self.choices.shown(),
                    *self.screen.query_one("#prompt", Prompt).shown()]
        if self.state.closed(answered, rows):
            self._reply_flushed()

    async def _retire_menu(self) -> None:
        """The answered menu goes: the focus back on the answer line."""
        if not self.state.retire_menu():
            return
        self.screen.query_one("#title", Rows).display = False
        choices = self.choices
        choices.display = False
        await choices.clear()
        self.screen.set_focus(self.answer)

    # -- the terminal cursor ---------------------------------------------------------------

    def _cursor_to(self, *, reply: bool) -> None:
        """Rest the cursor on the reply's first row or on the focused item."""
        self.state.point(reply=reply)
        self._resettle()

    def cursor_target(self) -> Offset:
        """Where the cursor belongs now, in the screen's present layout."""
        if self.state.cursor_on_reply and self.reply_box.display and self.reply_box.region:
            return self.reply_box.region.offset + Offset(0, self.reply.lead)  # the page's own
        focused = self.focused
        title = self.screen.query_one("#title", Rows)
        if isinstance(focused, Choices) and self.state.menu_fresh and title.display and (
                title.region):
            return title.region.offset  # a menu just opened: its title, then its options
        if isinstance(focused, Choices):
            offset = focused.cursor_offset()
            if offset is not None:
                return offset
        return self.answer.cursor_screen_offset

    def frame_cursor(self) -> Offset | None:
        """Every screen update carries the cursor to where it belongs in that
        very update (see :class:`~companion.faces.textual_adapter.CursorApp`)."""
        with contextlib.suppress(NoMatches):
            return self.cursor_target()
        return None

    def _resettle(self) -> None:
        """The cursor's place may have changed with nothing redrawn (a focus
        change): once the screen is updated, an update is asked for if so."""
        self.call_after_refresh(self._settle_cursor)

    def _settle_cursor(self) -> None:
        with contextlib.suppress(NoMatches):
            if self.cursor_target() != self.cursor_position:
                self.answer.refresh()

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
            if self.running is not None:
                self.running.speech.interrupt()  # new input: speech stops at once
            if self._paging is not None:  # a page of the reply waits
                if isinstance(event, events.Key) and event.key == "enter":
                    self._next_page()
                    return
                self._end_paging()
            self.state.press()
            self._clear_answer()  # a line given and still shown: the next key starts anew
            on_list = isinstance(self.focused, Choices)
            if not self._answers(event, on_list=on_list):
                # typing or moving: the cursor goes to the item; a key that
                # answers leaves it on what was said until the reply comes
                # (it is not moved twice, nor through rows about to change)
                self._cursor_to(reply=False)
            digit_chose = self.state.digit_ended(time.monotonic())
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
        return on_list and self._digit(event.character or "") is not None

    def _digit(self, character: str) -> int | None:
        """The option a key typed in the list chooses by its number (on the
        digit row of the player's keyboard too), if it chooses one."""
        language = self.running.settings.language if self.running is not None else ""
        return self.state.choice(character, language)

    def _list_key(self, character: str) -> None:
        """A printable key typed in the list."""
        index = self._digit(character)  # the digit row of a Czech or French keyboard too
        if index is not None:
            # chosen at once: the highlight is not moved first (a braille
            # display would show that option for a moment before the reply)
            self.choose(index)
            # the Enter typed right after it ends it, as in line mode
            self.state.chose_by_digit(time.monotonic())
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
        if self.state.choose():  # else already answered; the next list is on its way
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
        # the prompt's rows as shown go into the transcript with it (a menu's
        # answer is written as the option chosen, _menu_answered)
        self.state.submit(self.screen.query_one("#prompt", Prompt).shown())

    def _clear_answer(self) -> None:
        """A line given goes: into the transcript after what it answered
        (:meth:`ScreenState.clear_answer`)."""
        if self.state.submitted:
            if self.state.clear_answer(self.answer.value):
                self._reply_flushed()
            self._write_transcript()
            self.answer.value = ""

    @on(Input.Changed, "#answer")
    def typed(self) -> None:
        self._resettle()

    def action_press(self, name: str) -> None:
        """A key of the key map: the same as typing its word (stop acts at once)."""
        if name == "stop":
            if self.running is not None:
                self.running.speech.interrupt()
            return
        self.inbox.put(Pressed(name))
