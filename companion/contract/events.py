"""The values that cross between journeys and faces: questions, answers,
announcements, and what the player gives.

A journey asks a question and gets a typed answer back (an option's index,
cards, a number, yes or no, a line of text); it says announcements, each
with its role, so a face knows which line answers the player's last input
and which is news. A face never reads text back to learn what was meant.

>>> menu = Menu("Main menu.", ("Practice.", "Quit."))
>>> menu.options[1]
'Quit.'
>>> warning("No such card.").important, reply("Salmon nigiri.").important
(True, False)
>>> Cards(((1, 2), (3,))).cards
(1, 2, 3)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from firmware_bridge.events import InputEvent


class Verbosity(enum.Enum):
    """How much is said. Terse: key facts only. Normal. Verbose: the rule too."""

    TERSE = "terse"
    NORMAL = "normal"
    VERBOSE = "verbose"


#: A card of some game (each game has its own card type).
C = TypeVar("C")
#: What a question's answer is.
T = TypeVar("T")
#: The same, for :class:`Question` itself: a question whose answer is an
#: ``int`` is a question whose answer is an ``object`` (a game's step may ask
#: any of its questions).
T_co = TypeVar("T_co", covariant=True)


class Role(enum.Enum):
    """What an announcement is to the player."""

    #: The answer to what the player just did: a card read back, a choice
    #: confirmed, a word's answer (hand, where, hint), a repeat.
    REPLY = "reply"
    #: Something that happened in the game: picks revealed, a new turn.
    EVENT = "event"
    #: Something wrong: a refusal, a concern, a scanner problem.
    WARNING = "warning"
    #: Scores, winners, a drill's tally.
    RESULT = "result"
    #: Help, references and greetings.
    INFO = "info"
    #: A question's prompt, as spoken and kept in the history (faces show
    #: the question itself, not this).
    PROMPT = "prompt"


@dataclass(frozen=True, slots=True)
class Announcement:
    """A sentence for the player, with its role. ``important`` ones are
    spoken even when a screen reader already reads the screen, and are not
    cut short by routine ones."""

    text: str
    role: Role = Role.INFO
    important: bool = False


def reply(text: str, *, important: bool = False) -> Announcement:
    return Announcement(text, Role.REPLY, important)


def event(text: str, *, important: bool = False) -> Announcement:
    return Announcement(text, Role.EVENT, important)


def warning(text: str) -> Announcement:
    return Announcement(text, Role.WARNING, True)


def result(text: str, *, important: bool = True) -> Announcement:
    return Announcement(text, Role.RESULT, important)


def info(text: str) -> Announcement:
    return Announcement(text, Role.INFO)


# -- questions ---------------------------------------------------------------------------


class Question(Generic[T_co]):
    """A question; ``T_co`` is the type of its answer."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Menu(Question[int]):
    """Choose one of ``options``: the answer is its index (from 0).
    ``back``: the last option goes back to the menu before, and the word
    back typed here chooses it."""

    title: str
    options: tuple[str, ...]
    back: bool = False

    def numbered(self) -> tuple[str, ...]:
        """The options as both faces show them and speech says them: each
        with its number, the one typed to choose it.

        >>> Menu("Main menu.", ("Practice.", "Quit.")).numbered()
        ('1. Practice.', '2. Quit.')
        """
        return tuple(f"{number}. {option}"
                     for number, option in enumerate(self.options, start=1))


@dataclass(frozen=True, slots=True)
class YesNo(Question[bool]):
    """A yes-or-no question, asked as a menu of two: ``no`` first."""

    prompt: str
    no: str
    yes: str


#: The longest player's name kept: what a typed name is cut to (a name is
#: said in many sentences and read on a 40-cell braille display).
NAME_LONGEST = 40


@dataclass(frozen=True, slots=True)
class Number(Question[int | None]):
    """A whole number from ``low`` to ``high``; ``None`` for an empty line
    where ``allow_empty``."""

    prompt: str
    low: int
    high: int
    allow_empty: bool = False


@dataclass(frozen=True, slots=True)
class Text(Question[str]):
    """A line of text (a name, a port), stripped; empty only where ``allow_empty``;
    cut at ``longest`` characters (a name at :data:`NAME_LONGEST`)."""

    prompt: str
    allow_empty: bool = False
    longest: int = 4096


class CardReader(Protocol[C]):
    """How a game reads its cards: what a card question needs of it."""

    @property
    def game(self) -> str:
        """The game's name, as scanned tags name it."""
        ...

    def read(self, text: str) -> C:
        """A typed code or name; raises :class:`ValueError` (the game's own)."""
        ...

    def refusal(self, language: str, error: ValueError) -> str:
        """Why ``read`` refused, and what to type instead."""
        ...

    def from_id(self, card_id: str) -> C:
        """A card from its identifier (a scanned tag's); raises :class:`KeyError`."""
        ...

    def card_id(self, card: C) -> str:
        """The identifier of a card: what :meth:`from_id` reads."""
        ...

    def name(self, language: str, card: C) -> str:
        """The card's name, for the player."""
        ...


@dataclass(frozen=True, slots=True)
class CodeReader(Generic[C]):
    """A :class:`CardReader` made of a game's own functions: what every
    game's reader is, so no game writes the same class again.

    ``read`` reads a typed code or name and raises the game's
    :class:`ValueError`; ``refusal`` words that error in a language;
    ``from_id`` reads a scanned tag's identifier (raising :class:`KeyError`)
    and ``card_id`` gives it back; ``name`` names a card in a language.

    >>> def letter(text: str) -> str:
    ...     if text not in ("a", "b"):
    ...         raise ValueError(text)
    ...     return text.upper()
    >>> letters = CodeReader("letters", read=letter, refusal=lambda language, error: "No.",
    ...                      from_id=str.upper, card_id=str.lower,
    ...                      name=lambda language, card: f"{card} ({language})")
    >>> letters.game, letters.read("a"), letters.card_id("A"), letters.name("fr", "A")
    ('letters', 'A', 'a', 'A (fr)')
    >>> Cards.read("a b", letters).cards
    ('A', 'B')
    """

    game: str
    read: Callable[[str], C]
    refusal: Callable[[str, ValueError], str]
    from_id: Callable[[str], C]
    card_id: Callable[[C], str]
    name: Callable[[str, C], str]


@dataclass(frozen=True, slots=True)
class Cards(Generic[C]):
    """Cards given for a card question, in the order given; typed with a
    ``/`` they come in groups (``w2/o3``: one card, then another's)."""

    groups: tuple[tuple[C, ...], ...]

    @property
    def cards(self) -> tuple[C, ...]:
        return tuple(card for group in self.groups for card in group)

    @classmethod
    def of(cls, cards: Sequence[C]) -> Cards[C]:
        return cls((tuple(cards),) if cards else ())

    @classmethod
    def read(cls, typed: str, reader: CardReader[C], groups: int = 1) -> Cards[C]:
        """The cards of a typed line: one card by its name (``salmon nigiri``),
        or codes apart (``t+w2``, ``t w2``, ``t,w2``); where ``groups`` > 1, a
        ``/`` starts the next group. Raises the reader's :class:`ValueError`
        for what names no card, :class:`EmptyGroupError` for a lone ``/``.
        An empty line is no cards.
        """
        parts = typed.split("/") if groups > 1 else [typed]
        if len(parts) > groups:
            parts = [*parts[:groups - 1], "/".join(parts[groups - 1:])]
        read: list[tuple[C, ...]] = []
        for part in parts:
            words = part.replace("+", " ").replace(",", " ").split()
            if not words:
                if len(parts) > 1:
                    raise EmptyGroupError(typed)
                continue
            try:
                read.append((reader.read(part),))  # one card by its name
            except ValueError:
                read.append(tuple(reader.read(word) for word in words))
        return cls(tuple(read))


    def __len__(self) -> int:
        return sum(len(group) for group in self.groups)


class EmptyGroupError(ValueError):
    """A ``/`` with no card on one side of it."""


@dataclass(frozen=True, slots=True)
class CardsQuestion(Generic[C], Question[Cards[C]]):
    """Cards, typed on one line (``t+w2``, ``t w2``, a name) or scanned.

    Scans gather one by one (``undo`` takes the last off, an empty line ends
    the entry) and end by themselves at ``full`` cards. At most ``most``;
    none only where ``allow_empty``. ``groups``: how many groups a ``/`` may
    make. ``C`` is the game's card type, as its ``reader`` reads them.

    ``exactly``: the only count of cards that can be right here (a hand, a
    round's table); any other is refused, said with ``why`` (the game's
    reason in player words, "each player has 10 at the end of a round with
    2 players"), and the question asked again. ``undo``: the word undo,
    with nothing scanned, takes back what the asker entered last: the
    question raises :class:`TakenBack`. ``guide``: what help says first at
    this question (how to find the card asked, say), before how to type a
    card of the game.
    """

    prompt: str
    reader: CardReader[C]
    most: int = 20
    full: int | None = None
    allow_empty: bool = False
    groups: int = 1
    exactly: int | None = None
    why: str = ""
    undo: bool = False
    guide: tuple[str, ...] = ()


class TakenBack(Exception):
    """The word undo at a card question that takes it (``CardsQuestion.undo``):
    the asker takes back its last entry and asks it again."""


# -- what the player gives -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Typed:
    """A line typed (or typed by a keyboard-wedge scanner), without its newline."""

    text: str


@dataclass(frozen=True, slots=True)
class Chosen:
    """An option chosen in a face's list: its index (from 0)."""

    index: int


@dataclass(frozen=True, slots=True)
class Pressed:
    """A key bound to an action (``repeat``, ``where``...) was pressed."""

    action: str


@dataclass(frozen=True, slots=True)
class Moved:
    """The game moved on elsewhere (another seat of a table shared between
    devices): the open question of a game is dropped and the game asked
    what comes now."""


#: What a face and the scanner give the conversation; ``None``: the input ended.
Item = Typed | Chosen | Pressed | Moved | InputEvent | None


# -- what a face shows --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Asked:
    """A question is open. ``prompt`` is what to show on the answer line and
    to say ("Choose 1 to 4:" for a menu); ``again`` when it is asked again
    after a word was answered (a face may show only the prompt then)."""

    question: Question[object]
    prompt: str | None
    again: bool = False


@dataclass(frozen=True, slots=True)
class Answered:
    """The open question was answered; ``shown`` is the answer as the player
    would read it back ("2. Français" for a menu), if the face wants it;
    ``echo``, the same in a sentence of the player's language ("Chosen:
    2. Français."), for a face that keeps the question's rows as they were
    and writes the answer under them."""

    question: Question[object]
    shown: str | None = None
    echo: str | None = None


class Face(Protocol):
    """What shows the conversation: plain lines, or a full screen."""

    @property
    def has_keys(self) -> bool:
        """Whether the player has the function keys (help names them)."""
        ...

    def show(self, announcement: Announcement) -> None:
        """Something said (never a prompt: questions come through ``asked``)."""
        ...

    def asked(self, asked: Asked) -> None:
        ...

    def answered(self, answered: Answered) -> None:
        ...

    def progress(self, facts: str) -> None:
        """The key facts of the game now ("R1 T3, 12 points, 7 cards"); empty
        when no game is on."""
        ...

    def taken(self, item: Item) -> None:
        """The conversation takes ``item`` now. Keys read ahead (while an
        earlier reply was being written) are taken later than they were
        typed: a face that shows what waits for a key shows it now."""
        ...


class SpeechControl(Protocol):
    """What a face may do to the app's speech, from its own thread: stop it
    at once when the player acts (a key, a click), before the conversation
    has even read what they did."""

    def interrupt(self) -> None:
        """Stop speaking now (nothing is said if no voice is up yet)."""
        ...


class SettingsView(Protocol):
    """The settings now, as a face reads them (they change in a run: the
    language chosen at the first start, or in the settings)."""

    @property
    def language(self) -> str:
        """The player's language now (a menu's digit is read on its keyboard's
        digit row)."""
        ...


class Conversation(Protocol):
    """The small interface journeys are written against: ask, say, and the
    key facts. Whatever face shows it, plain lines or a full screen."""

    @property
    def language(self) -> str:
        ...

    @property
    def verbosity(self) -> Verbosity:
        ...

    def ask(self, question: Question[T]) -> T:
        """Ask until answered; the answer, as a value."""
        ...

    def say(self, announcement: Announcement) -> None:
        ...

    def progress(self, facts: str) -> None:
        ...
