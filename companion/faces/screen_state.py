"""The full screen's conversation, as a plain model: what was said, the
reply, the open menu, what the player gave, where the cursor rests.

The full screen (:mod:`companion.faces.screen`) keeps no conversation
state of its own: the journeys' news and the player's keys update a
:class:`ScreenState`, whose answers say what the widgets must show; the
screen applies them. It knows nothing of Textual, so its rules are tested
without a terminal or an app.

>>> state = ScreenState()
>>> state.say("Main menu.")  # the player acted last (the start): a new reply
True
>>> state.reply, state.news, state.cursor_on_reply
(['Main menu.'], True, True)
>>> state.say("Choose.")  # said before the player acts: the same reply
False
>>> state.press()
>>> state.say("Chosen.")  # the player acted: the reply before goes to the transcript
True
>>> state.transcript, state.reply
(['Main menu.', 'Choose.'], ['Chosen.'])
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.contract.events import Answered, Menu
from companion.digits import menu_choice

#: Seconds after a digit chose in a list within which an Enter is the end
#: of that digit ("2" Enter typed in one go, as in line mode), not an answer.
DIGIT_ENTER = 1.0


@dataclass(frozen=True, slots=True)
class Facts:
    """The key facts of the game changed (empty: no game)."""

    text: str


@dataclass(slots=True)
class ScreenState:
    """What the full screen shows of the conversation, and what it is in the
    middle of (fields in the order a screen update reads them)."""

    #: Every line the journeys said or asked, in order (as plain mode writes them).
    lines: list[str] = field(default_factory=list)
    #: What was said since the player last acted: the reply, where the cursor rests.
    reply: list[str] = field(default_factory=list)
    #: What went into the transcript, in order: the history above the reply.
    transcript: list[str] = field(default_factory=list)
    #: The player acted since the reply began: what is said next begins a new one.
    acted: bool = True
    #: A line was given and is still shown on the answer line (until what comes next).
    submitted: bool = False
    #: The prompt that line was given to ("" for a menu's: its option is written instead).
    given_to: str = ""
    #: That prompt's rows as the screen showed them, the answer typed after
    #: the first (none: the prompt in one line).
    given_rows: list[str] = field(default_factory=list)
    #: A menu was answered and its list is still shown (until what comes next).
    menu_closed: bool = False
    #: A digit chose in a list, and no key came since: an Enter soon after
    #: it ends that digit, as in line mode (it does not answer the next
    #: question); one that comes later (the player read what came) answers.
    digit_chose: bool = False
    #: When that digit chose (``time.monotonic()``).
    digit_at: float = 0.0
    #: The cursor's resting place: the reply, or the focused item.
    cursor_on_reply: bool = False
    #: The open menu.
    menu: Menu | None = None
    #: The open menu was answered: further Enter or digits wait for the next one.
    list_answered: bool = False
    #: The key facts of the game now (empty: no game).
    facts: str = ""
    #: The open question's prompt, the answer line's label.
    prompt: str = ""
    #: A menu opened and no key came since: the cursor rests on its title,
    #: its first option right after it (a braille display shows both).
    menu_fresh: bool = False

    @property
    def news(self) -> bool:
        """Whether something was said since the player last acted (the
        cursor rests on it then)."""
        return bool(self.reply) and not self.acted

    def flush_reply(self) -> list[str]:
        """The reply the player has acted on goes into the transcript; its lines."""
        lines, self.reply = self.reply, []
        self.transcript.extend(lines)
        self.acted = False
        return lines

    # -- what the journeys tell -------------------------------------------------------------

    def say(self, text: str) -> bool:
        """Something said: in the reply, the cursor on it (rule 1 of the
        screen's docstring). Whether the reply before it went into the
        transcript first (a new reply begins)."""
        self.lines.append(text)
        flushed = self.acted
        if flushed:
            self.flush_reply()
        self.reply.append(text)
        self.cursor_on_reply = True
        return flushed

    def retire_menu(self) -> bool:
        """Whether an answered menu's list is still shown and goes now."""
        retired, self.menu_closed = self.menu_closed, False
        return retired

    def open_menu(self, menu: Menu) -> bool:
        """A new menu opens, right after what came before it: its title and
        options said. Whether the reply went into the transcript first.

        >>> state = ScreenState()
        >>> state.open_menu(Menu("Speech?", ("On", "Off")))
        True
        >>> state.lines, state.options
        (['Speech?', '1. On', '2. Off'], 2)
        """
        self.menu_closed = False  # the list is filled with the new menu's options
        flushed = self.acted
        if flushed:
            self.flush_reply()  # the title right after what came before it
        self.lines.append(menu.title)
        self.lines.extend(menu.numbered())
        self.menu = menu
        self.list_answered = False
        self.menu_fresh = True
        return flushed

    def ask(self, prompt: str | None) -> None:
        """A question's prompt (if it has one) on the answer line; the news
        of this turn, if any, keeps the cursor, else the question has it."""
        if prompt is not None:
            self.lines.append(prompt)
            self.prompt = prompt
        self.cursor_on_reply = self.news

    def closed(self, answered: Answered, rows: list[str] | None = None) -> bool:
        """A question was answered; whether it was a menu, whose title and
        option chosen went into the transcript (after the reply).

        >>> state = ScreenState(reply=["Main menu."])
        >>> state.closed(Answered(Menu("Main menu.", ("Play",)), "1. Play"))
        True
        >>> state.transcript, state.menu_closed, state.acted
        (['Main menu.', 'Main menu.', '1. Play'], True, True)

        With ``rows``, the menu's rows as the screen showed them (its title,
        its options, its prompt): those rows, then the choice in a sentence
        (:attr:`Answered.echo`). The rows stay as they were, and a screen
        reader comparing the screens takes none of the next menu's rows
        ("5. Back.", "Choose 1 to 5:") for old ones.

        >>> state = ScreenState()
        >>> _ = state.closed(Answered(Menu("Speech?", ("On", "Off")), "2. Off", "Chosen: 2. Off"),
        ...                  ["Speech?", "1. On", "2. Off", "Choose 1 to 2:"])
        >>> state.transcript
        ['Speech?', '1. On', '2. Off', 'Choose 1 to 2:', 'Chosen: 2. Off']
        """
        if not isinstance(answered.question, Menu):
            return False
        self.flush_reply()
        if rows:
            self.transcript.extend(rows)
            if answered.echo is not None:
                self.transcript.append(answered.echo)
        else:
            self.transcript.append(answered.question.title)
            if answered.shown is not None:
                self.transcript.append(answered.shown)
        self.acted = True
        self.menu = None
        self.menu_closed = True
        return True

    def progress(self, facts: Facts) -> None:
        self.facts = facts.text

    # -- what the player does ------------------------------------------------------------------

    def press(self) -> None:
        """A key (or a paste, a click): the player acted."""
        self.acted = True
        self.menu_fresh = False

    def point(self, *, reply: bool) -> None:
        """The cursor rests on the reply's first row, or on the focused item."""
        self.cursor_on_reply = reply

    def chose_by_digit(self, now: float) -> None:
        """A digit typed in the list chose at ``now``."""
        self.digit_chose, self.digit_at = True, now

    def digit_ended(self, now: float | None = None) -> bool:
        """Whether a digit chose right before this key (and no longer): no
        key came between, and (when ``now`` is given) it is less than
        :data:`DIGIT_ENTER` seconds after the digit, as "2" Enter is typed
        in one go. An Enter that comes later, once the reply to the digit
        was there to be read, answers the next question: it never goes
        unanswered.

        >>> state = ScreenState()
        >>> state.chose_by_digit(10.0)
        >>> state.digit_ended(10.3), state.digit_ended(10.4)
        (True, False)
        >>> state.chose_by_digit(20.0)
        >>> state.digit_ended(22.0)
        False
        """
        chose, self.digit_chose = self.digit_chose, False
        return chose and (now is None or now - self.digit_at < DIGIT_ENTER)

    @property
    def options(self) -> int:
        """How many options the open menu has (0: none open)."""
        return len(self.menu.options) if self.menu is not None else 0

    def choice(self, character: str, language: str) -> int | None:
        """The option of the open menu a key typed in its list chooses at
        once (its digit, on the digit row of the language's keyboard too),
        if it chooses one.

        >>> state = ScreenState(menu=Menu("Players?", ("2", "3", "4")))
        >>> [state.choice(key, "en") for key in ("1", "3", "4", "0", "x", "12")]
        [0, 2, None, None, None, None]
        >>> state.choice("ě", "cs")
        1
        """
        if len(character) != 1:
            return None
        return menu_choice(character, language, self.options)

    def choose(self) -> bool:
        """Whether an option chosen now answers the open menu (a second
        choice waits for the next menu)."""
        if self.list_answered:
            return False
        self.list_answered = True
        return True

    def submit(self, rows: list[str] | None = None) -> None:
        """A line typed was given: it stays on the answer line until what
        comes next (a menu's answer is written as the option chosen).
        ``rows``: the prompt's rows as shown, the answer after the first."""
        self.submitted = True
        self.given_to = self.prompt if self.menu is None else ""
        self.given_rows = list(rows or [])

    def clear_answer(self, given: str) -> bool:
        """The line given (``given``, still on the answer line) goes: into
        the transcript after what it answered ("Player 1's name: Ann"), so
        it stays in the history and a screen reader reads a new line rather
        than a changed character. Whether the reply went into the
        transcript first. Only once a line was given (:attr:`submitted`).

        >>> state = ScreenState(prompt="Player 1's name:", acted=False)
        >>> state.submit()
        >>> state.clear_answer("Ann")
        False
        >>> state.transcript, state.submitted
        (["Player 1's name: Ann"], False)

        A prompt the screen showed in rows goes in those rows, the answer
        where it was typed (beside the first): the rows stay as they were,
        and a screen reader comparing the screens finds them all old
        rather than taking the next question's same rows for old ones.

        >>> state = ScreenState(prompt="Code for Tofu? An empty line stops.", acted=False)
        >>> state.submit(["Code for Tofu?       ", "An empty line stops."])
        >>> _ = state.clear_answer("t1")
        >>> state.transcript
        ['Code for Tofu?       t1\\nAn empty line stops.']
        """
        self.submitted = False
        flushed = False
        if given.strip() and self.given_to:
            flushed = self.acted
            if flushed:
                self.flush_reply()
            rows = self.given_rows
            self.transcript.append("\n".join([rows[0] + given, *rows[1:]]) if rows
                                   else f"{self.given_to} {given}")
        return flushed
