"""What a game plugin gives the app, and what the app gives back: the
interfaces every game package implements (see :mod:`companion.games`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from companion.contract.events import (
    NAME_LONGEST,
    Announcement,
    CardReader,
    Conversation,
    Question,
    Text,
    Verbosity,
    warning,
)
from companion.i18n import Catalog
from companion.journal import Journal
from companion.keymap import Action
from firmware_bridge.vocabulary import Vocabulary

#: Journeys a game may offer.
TABLE, PRACTICE, SCORE, LEARN = "table", "practice", "score", "learn"


@dataclass(frozen=True, slots=True)
class Step:
    """What a game asks next, and what to say before asking it. A step with
    no ``question`` is a move the game made by itself (a round ended): say
    ``before``, then ask the game again."""

    question: Question[Any] | None
    before: tuple[Announcement, ...] = ()
    #: Which of its questions this is, for the game's own use in :meth:`Play.take`.
    key: Any = None


@dataclass(frozen=True, slots=True)
class Reply:
    """A game's answer to one of its words. ``changed``: the game changed
    under the open question (undo), so the question is dropped and the game
    asked what comes now."""

    said: tuple[Announcement, ...]
    changed: bool = False


class Play(Protocol):
    """A game being played through the conversation: a practice game, or a
    real game followed at the table. Everything it does is journaled before
    it is said, so a game stopped anywhere resumes at the very question."""

    @property
    def kind(self) -> str:
        """:data:`PRACTICE` or :data:`TABLE`."""
        ...

    @property
    def actions(self) -> tuple[str, ...]:
        """The names of the words it answers, in the order help names them."""
        ...

    def advance(self) -> Step | None:
        """Move on to the next question (saying what happened on the way);
        ``None`` once the game is over."""
        ...

    def take(self, step: Step, answer: Any) -> Sequence[Announcement]:
        """The answer to ``step``'s question: checked, journaled, then applied;
        what to say. A refusal changes nothing: :meth:`advance` asks again."""
        ...

    def command(self, name: str, argument: str) -> Reply | None:
        """One of its words (``hand``, ``undo``...); ``None`` if it has none by that name."""
        ...

    def facts(self) -> str:
        """The key facts now, for a status line."""
        ...

    def discard(self) -> None:
        """Throw the saved game away for good (it is closed too)."""
        ...

    def close(self) -> None:
        """Stop playing; an unfinished game stays saved, to be resumed."""
        ...


class GameInputError(ValueError):
    """Input a game cannot use (a game file, a simulation's options), said
    in one sentence in the player's language."""


@dataclass(frozen=True, slots=True)
class Report:
    """What a command prints: ``data`` as one JSON object, or ``lines`` for people."""

    data: Mapping[str, object]
    lines: tuple[str, ...]


#: The shapes a tactile kit can draw (:mod:`companion.kit`): a game's marks use these names.
MARK_SHAPES = frozenset({
    "triangle", "star", "diagonal-cross", "square", "plus", "flower", "window", "circle",
    "drop", "braille", "dots", "double-arrow", "arrowhead", "jagged",
})
#: Where on a card a mark sits, the card held face up with its punched corner
#: where the game says: the top left corner, the left edge's middle or bottom,
#: the middle of the bottom edge, the centre.
MARK_PLACES = frozenset({"top-left", "left-middle", "left-bottom", "bottom-edge", "centre"})
#: Which corner of a game's cards is punched.
CORNERS = frozenset({"top-left", "top-right"})


@dataclass(frozen=True, slots=True)
class Mark:
    """One relief mark on a card, as a tactile kit draws and places it.

    ``shape`` is one of :data:`MARK_SHAPES`, ``place`` one of
    :data:`MARK_PLACES`; ``text`` is what a ``braille`` mark writes (in the
    kit's language), ``count`` how many dots a ``dots`` mark has, ``scale``
    its size against the kit's sticker size.
    """

    shape: str
    place: str
    text: str = ""
    count: int = 1
    scale: float = 1.0


@dataclass(frozen=True, slots=True)
class StickerKind:
    """The stickers of one kind of card: its id, printed name, copies in a
    full deck, typed code, the sticker in the game's words, and its marks."""

    card_id: str
    name: str
    count: int
    code: str
    sticker: str
    marks: tuple[Mark, ...]


@dataclass(frozen=True, slots=True)
class Stickers:
    """What a tactile kit of a game needs: every kind of card in the order of
    :meth:`~firmware_bridge.vocabulary.Vocabulary.card_ids` (the order tags
    are enrolled in), which corner is punched, and the card size assumed (mm)."""

    kinds: tuple[StickerKind, ...]
    punched_corner: str
    card_size: tuple[float, float]


@runtime_checkable
class GamePlugin(Vocabulary, Protocol):
    """Everything the app needs of a game (the scanner bridge's vocabulary
    of it included)."""

    # Its name, title, demo number, card ids, copies and typed codes are the
    # scanner bridge's Vocabulary: the one object serves both.

    @property
    def reader(self) -> CardReader[Any]:
        """How card questions read its cards."""
        ...

    def catalog(self, language: str) -> Catalog:
        """Its sentences in ``language`` (the app's own as a fallback)."""
        ...

    @property
    def actions(self) -> tuple[Action, ...]:
        """Its own words, besides the app's game words (where, hand, tables, hint, undo)."""
        ...

    @property
    def journeys(self) -> frozenset[str]:
        """Which of :data:`TABLE`, :data:`PRACTICE`, :data:`SCORE`, :data:`LEARN` it offers."""
        ...

    @property
    def players(self) -> tuple[int, int]:
        """The fewest and the most players a game has."""
        ...

    def playout(self, rng: random.Random, players: int) -> Iterator[Mapping[str, int]]:
        """One whole game of random legal moves: after each move, how many of
        every card (by id) the game holds wherever they lie. It ends when the
        game does. (The contract tests check that every game ends and keeps
        its cards.)"""
        ...

    # -- learning the codes -------------------------------------------------------------------

    def drill_cards(self) -> Sequence[Any]:
        """The cards a drill asks for."""
        ...

    def code(self, card: Any) -> str:
        """The short code of a card: ``w2``."""
        ...

    def describe(self, language: str, card: Any, verbosity: Verbosity) -> str:
        """A card read back: its name, and by verbosity its sticker, value and code."""
        ...

    def reference(self, language: str) -> list[str]:
        """The code reference, heading first, a card a line."""
        ...

    def typing_help(self, language: str) -> list[str]:
        """How to type a card, a line each."""
        ...

    # -- journeys ------------------------------------------------------------------------------

    def practice(self, conversation: Conversation, rng: random.Random) -> Play:
        """Ask how to set up a practice game, and start it."""
        ...

    def table(self, conversation: Conversation) -> Callable[[], Play]:
        """Ask how the real table is set up; what starts the game (the app
        asks where cards come from in between)."""
        ...

    def score(self, conversation: Conversation) -> None:
        """Score a finished game entered card by card."""
        ...

    def resume(self, journal: Journal, rng: random.Random, language: str,
               verbosity: Verbosity) -> Play:
        """The game of a journal this game wrote, as it stood; raises
        :class:`ValueError` (or :class:`KeyError`) for one it cannot read."""
        ...

    # -- the command line ----------------------------------------------------------------------

    def score_file(self, raw: bytes, language: str, *, explain: bool) -> Report:
        """Scores of a game file; raises :class:`GameInputError`."""
        ...

    def simulate(self, *, players: int, games: int, bots: Sequence[str], seed: int,
                 variant: str, workers: int) -> Report:
        """Whole games between bots; raises :class:`GameInputError`."""
        ...

    def bench_engine(self, seconds: float) -> Report:
        ...

    def bench_advisor(self, games: int) -> Report:
        ...

    # -- the tactile kit -----------------------------------------------------------------------

    def stickers(self, language: str) -> Stickers:
        """Every kind of card's stickers, names in ``language`` (``companion kit``)."""
        ...


def ask_names(conversation: Conversation, count: int, asked: Callable[[int], str],
              different: str) -> list[str]:
    """The ``count`` players' names, in turn round the table: ``asked(n)``
    is the question for player n (from 1); an empty name, or one given
    already, is refused with ``different`` and asked again."""
    names: list[str] = []
    for number in range(1, count + 1):
        while True:
            name = conversation.ask(Text(asked(number), allow_empty=True, longest=NAME_LONGEST))
            if name and name not in names:
                names.append(name)
                break
            conversation.say(warning(different))
    return names
