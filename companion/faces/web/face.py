"""The web face: what the conversation shows, kept as a state that every
page and every update is drawn from, and the inbox the pages' answers go to.

The conversation runs in a thread of its own and calls the face
(:class:`WebFace`, a :class:`~companion.contract.events.Face`); the server's
handlers read the state (:meth:`WebFace.view`) from theirs, and wait until
the conversation has taken an answer and asks the next question
(:meth:`WebFace.settled`), never longer than they are told.

A *step* is what the app said since the player last gave something (an
answer, a word, a card scanned): its first sentences are the reply to it.

>>> from companion.contract.events import Chosen, Menu
>>> face = WebFace(lambda: "en")
>>> face.show(reply("Salmon nigiri."))
>>> face.asked(Asked(Menu("Main menu.", ("Practice.", "Quit.")), "Choose 1 to 2:"))
>>> view = face.view()
>>> [entry.text for entry in view.entries], view.question.question.title
(['Salmon nigiri.'], 'Main menu.')
>>> face.taken(Chosen(0)); face.view().step
1
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from companion.contract.events import (
    Announcement,
    Answered,
    Asked,
    Item,
    Moved,
    Role,
    reply,
)
from companion.conversation.inbox import Inbox

#: The sentences a page keeps (the oldest go first): the page stays small
#: (the first page well under 100 kB), and the history words reach further.
KEPT_ENTRIES = 400

#: The longest a post waits, in seconds, for the question the game's moving
#: on elsewhere closed to be asked again (it takes a moment: a post sent
#: just then answers it if it is the same question).
MOVED_WAIT = 5.0

#: The roles whose sentences answer what the player did, shown first (the
#: reply); the others (the game's events, results) go to the game's log.
REPLY_ROLES = frozenset({Role.REPLY, Role.WARNING, Role.INFO})


@dataclass(frozen=True, slots=True)
class Entry:
    """A sentence said: its number (in the run, from 1), its text and role,
    the language it was said in, and the step it belongs to."""

    number: int
    text: str
    role: Role
    language: str
    step: int

    @property
    def is_reply(self) -> bool:
        return self.role in REPLY_ROLES


@dataclass(frozen=True, slots=True)
class View:
    """The face's state at one moment, for a page or an update.

    ``version`` grows with every change; ``question_id`` names the
    question open (a post that answers another is out of date); ``ended``:
    the conversation is over (the app has stopped)."""

    version: int
    step: int
    entries: tuple[Entry, ...]
    question: Asked | None
    question_id: int
    facts: str
    ended: bool
    language: str

    def of_step(self) -> tuple[Entry, ...]:
        """The sentences of the step now: the reply to the player's last act,
        and what happened since."""
        return tuple(entry for entry in self.entries if entry.step == self.step)


@dataclass
class _State:
    version: int = 0
    step: int = 0
    entries: list[Entry] = field(default_factory=list)
    said: int = 0
    question: Asked | None = None
    question_id: int = 0
    #: The question an answer was given for, on its way to the conversation.
    pending: int | None = None
    facts: str = ""
    ended: bool = False
    #: The question the game's moving on elsewhere closed (:meth:`WebFace.moved`).
    moved_from: Asked | None = None


class WebInbox(Inbox):
    """The conversation's inbox, which also knows whether the conversation
    waits on it with nothing left to take: then it has taken every answer
    given and asks the next question (or waits for a page's next post)."""

    def __init__(self, changed: Callable[[], None]) -> None:
        super().__init__()
        self._changed = changed
        self._count = threading.Lock()
        self._given = 0
        self._taken = 0
        self._waiting = False

    def put(self, item: Item) -> None:
        with self._count:
            self._given += 1
        super().put(item)

    def get(self) -> Item:
        with self._count:
            self._waiting = True
        self._changed()
        try:
            return super().get()
        finally:
            with self._count:
                self._waiting = False
                self._taken += 1

    @property
    def idle(self) -> bool:
        """The conversation waits here, and everything given was taken."""
        with self._count:
            return self._waiting and self._taken >= self._given


class WebFace:
    """The conversation as the web pages show it (thread-safe: the
    conversation writes from its thread, the server reads from its own).

    ``language`` gives the player's language now (the settings'); every
    sentence is kept with the language it was said in."""

    def __init__(self, language: Callable[[], str]) -> None:
        self._language = language
        self._state = _State()
        self._lock = threading.Condition()
        #: Told (from whatever thread changed the state) after every change.
        self._listeners: list[Callable[[], None]] = []
        self.inbox = WebInbox(self._touch)

    # -- what the conversation calls ------------------------------------------------------

    @property
    def has_keys(self) -> bool:
        return False  # the pages' buttons and typed words, no function keys

    def show(self, announcement: Announcement) -> None:
        if announcement.role is Role.PROMPT:
            return  # the question itself is the form
        with self._lock:
            state = self._state
            state.said += 1
            state.entries.append(Entry(state.said, announcement.text, announcement.role,
                                       self._language(), state.step))
            del state.entries[:-KEPT_ENTRIES]
        self._touch()

    def asked(self, asked: Asked) -> None:
        with self._lock:
            state = self._state
            again = asked.again and state.question is not None and (
                state.question.question == asked.question)
            # the same question asked again after the game moved on elsewhere
            # (a reveal, a seat taken): the same one, so the page keeps it
            # (and the player's place in it) and only the news is added
            same = (state.question is None and state.moved_from is not None
                    and state.moved_from.question == asked.question
                    and state.moved_from.prompt == asked.prompt)
            if not (again or same):
                state.question_id += 1
            state.question = asked
            state.moved_from = None
        self._touch()

    def answered(self, answered: Answered) -> None:
        del answered
        with self._lock:
            if self._state.question is not None:  # (answered, not closed by a move)
                self._state.moved_from = None
            self._state.question = None
        self._touch()

    def progress(self, facts: str) -> None:
        with self._lock:
            if self._state.facts == facts:
                return
            self._state.facts = facts
        self._touch()

    def taken(self, item: Item) -> None:
        """Whatever the player gave (an answer, a word, a card scanned)
        begins a new step: what is said next is the reply to it."""
        if item is None or isinstance(item, Moved):
            return  # (the game moved on elsewhere: not the player's act)
        with self._lock:
            self._state.step += 1
        self._touch()

    # -- what the server calls ------------------------------------------------------------

    def ended(self, goodbye: str | None = None) -> None:
        """The conversation is over (the journeys returned, or failed)."""
        if goodbye:
            self.show(reply(goodbye))
        with self._lock:
            self._state.ended = True
            self._state.question = None
        self._touch()

    def moved(self) -> None:
        """The game moved on elsewhere (another seat of a shared table): the
        question open is closed at once (a post for it is out of date, so
        no answer meant for it lands on the next) and the conversation asks
        what comes now."""
        with self._lock:
            if self._state.question is not None:
                self._state.moved_from = self._state.question
            self._state.question = None
            self.inbox.put(Moved())
        self._touch()

    def wake(self) -> None:
        """Wake whatever listens to this face (an update stream that must
        look again whether it may go on)."""
        self._touch()

    def view(self) -> View:
        """The state now."""
        with self._lock:
            state = self._state
            return View(state.version, state.step, tuple(state.entries), state.question,
                        state.question_id, state.facts, state.ended, self._language())

    def listen(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener`` after every change (from the changing thread);
        what is given back stops it."""
        with self._lock:
            self._listeners.append(listener)

        def stop() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)
        return stop

    def give(self, item: Item) -> None:
        """What the player gave on a page, for the conversation."""
        self.inbox.put(item)

    def give_for(self, question_id: int, item: Item) -> bool:
        """``item`` for the question ``question_id``, if it is the one open
        and no answer to it is still on its way (two posts at once, from two
        windows or a double submit: the second would answer the question
        after); whether it was given."""
        with self._lock:
            state = self._state
            if state.ended or state.question is None or state.question_id != question_id:
                return False
            if state.pending == question_id and not self.inbox.idle:
                return False
            state.pending = question_id
            self.inbox.put(item)
            return True

    def steady(self, timeout: float = MOVED_WAIT) -> None:
        """Wait, at most ``timeout`` seconds, while the question open was
        just closed by the game's moving on elsewhere and is not asked
        again yet: a post sent in that moment answers it if it comes back
        the same (it keeps its id)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while (self._state.question is None and self._state.moved_from is not None
                   and not self._state.ended):
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                self._lock.wait(left)

    def settled(self, timeout: float) -> bool:
        """Wait, at most ``timeout`` seconds, until the conversation has
        taken everything given and waits for more (or has ended); whether
        it has."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while not (self._state.ended or self.inbox.idle):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._lock.wait(left)
            return True

    def _touch(self) -> None:
        with self._lock:
            self._state.version += 1
            listeners = list(self._listeners)
            self._lock.notify_all()
        for listener in listeners:
            listener()
