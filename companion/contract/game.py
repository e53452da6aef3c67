"""What a game plugin gives the app, and what the app gives back: the
interfaces every game package implements (see :mod:`companion.games`).

:class:`GamePlugin` is the small core every game has; everything else is a
capability (:data:`CAPABILITIES`), a protocol a game declares by having its
methods, asked for with :func:`capability`. What the command line prints
comes back as plain data (:class:`Simulated`, :class:`EngineFigures`,
:class:`AdvisorFigures`, :class:`ScoredFile`, :class:`CommandOutput`), each
with the game's own JSON; the command line words the rest in the player's
language."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar, cast, runtime_checkable

from companion.contract.events import (
    NAME_LONGEST,
    Announcement,
    CardReader,
    Conversation,
    Menu,
    Question,
    Text,
    Verbosity,
    warning,
)
from companion.i18n import Catalog
from companion.journal import Journal
from companion.keymap import Action
from firmware_bridge.vocabulary import Vocabulary

C = TypeVar("C")

#: Journeys a game may offer.
TABLE, PRACTICE, SCORE, LEARN = "table", "practice", "score", "learn"


@dataclass(frozen=True, slots=True)
class Step:
    """What a game asks next, and what to say before asking it. A step with
    no ``question`` is a move the game made by itself (a round ended): say
    ``before``, then ask the game again."""

    question: Question[object] | None
    before: tuple[Announcement, ...] = ()
    #: Which of its questions this is, for the game's own use in :meth:`Play.take`.
    key: object = None


@dataclass(frozen=True, slots=True)
class WordReply:
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

    def take(self, step: Step, answer: object) -> Sequence[Announcement]:
        """The answer to ``step``'s question (of the type the question says:
        an index for a menu, :class:`~companion.contract.events.Cards` for a
        card question...): checked, journaled, then applied; what to say. A
        refusal changes nothing: :meth:`advance` asks again."""
        ...

    def command(self, name: str, argument: str) -> WordReply | None:
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
    in one sentence in the player's language.

    A game raises it with its sentence untranslated, as marked for its
    catalog (``N_("play at least 1 game")``), and the sentence's ``values``;
    the command line words it with :meth:`text` in the player's language,
    from the game's catalog. A sentence the game has worded already (a game
    file's problem, in the language asked) is no entry of a catalog: it
    comes back as it is. ``str()`` is the sentence in English.

    >>> error = GameInputError("play at least %(n)d game", n=1)
    >>> str(error), error.text(Catalog.for_language("en"))
    ('play at least 1 game', 'play at least 1 game')
    """

    def __init__(self, message: str, /, **values: object) -> None:
        super().__init__(message % values if values else message)
        self.message = message
        self.values = values

    def text(self, catalog: Catalog) -> str:
        """The sentence in ``catalog``'s language."""
        return catalog.text(self.message, **self.values)


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
class GamePlugin(Vocabulary, Protocol[C]):
    """What every game gives the app: the small core that each journey and
    each face can count on, for a game whose cards are ``C``.

    Its name, title, demo number, card ids, copies and typed codes are the
    scanner bridge's :class:`~firmware_bridge.vocabulary.Vocabulary` (the one
    object serves both; the bridge itself reads a game's pure vocabulary
    module, not this). Besides them, every game has:

    - its cards as card questions read them (:attr:`reader`), its sentences
      (:meth:`catalog`) and its own words (:attr:`actions`);
    - how many play it (:attr:`players`), and whole random games
      (:meth:`playout`), which the contract tests play;
    - learning the codes (:meth:`drill_cards`, :meth:`code`,
      :meth:`describe`, :meth:`reference`, :meth:`typing_help`): the app is
      a companion for *tactile* cards, so every game has codes to learn, and
      the first start tells how to type a card of whichever game is played;
    - a practice game against bots (:meth:`practice`), and the saved games
      it wrote resumed (:meth:`resume`): a game's rules are what the
      companion plays, so every game can be played against them, and what
      is played is saved.

    Everything else a game may or may not have is a capability, declared by
    having it: a table companion (:class:`TableCompanion`), scoring a
    finished game (:class:`Scoring`), simulations (:class:`Simulation`),
    benchmarks (:class:`Benchmarks`), a tactile kit (:class:`TactileKit`),
    commands of its own (:class:`Commands`). Ask with :func:`capability`;
    which journeys a game offers follows (:func:`journeys_of`).
    """

    @property
    def reader(self) -> CardReader[C]:
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

    def drill_cards(self) -> Sequence[C]:
        """The cards a drill asks for."""
        ...

    def code(self, card: C) -> str:
        """The short code of a card: ``w2``."""
        ...

    def describe(self, language: str, card: C, verbosity: Verbosity) -> str:
        """A card read back: its name, and by verbosity its sticker, value and code."""
        ...

    def reference(self, language: str) -> list[str]:
        """The code reference, heading first, a card a line."""
        ...

    def typing_help(self, language: str) -> list[str]:
        """How to type a card, a line each."""
        ...

    # -- practice, and saved games ------------------------------------------------------------

    def practice(self, conversation: Conversation, rng: random.Random) -> Play:
        """Ask how to set up a practice game, and start it; Back in the
        set-up's first menu raises :class:`Back` (see :func:`in_steps`)."""
        ...

    def resume(self, journal: Journal, rng: random.Random, language: str,
               verbosity: Verbosity) -> Play:
        """The game of a journal this game wrote, as it stood; raises
        :class:`ValueError` (or :class:`KeyError`) for one it cannot read."""
        ...


#: A registered game, whatever its cards: what the registry hands out. Its
#: cards are only ever handed back to the game that gave them (read by its
#: reader, then given to its own methods), so the app needs no more than
#: ``object`` of them.
SomeGame = GamePlugin[object]


# -- capabilities: what a game has or has not -----------------------------------------------


@runtime_checkable
class TableCompanion(Protocol):
    """Following a real game at the table (the :data:`TABLE` journey): the
    facts entered or scanned, the hidden cards traced round the table."""

    def table(self, conversation: Conversation, cards_from: Callable[[], object]) -> Callable[
            [], Play]:
        """Ask how the real table is set up, ``cards_from`` (the app's
        question of where cards come from) as the set-up's last step; what
        starts the game. Back in a set-up menu asks the question before
        (:func:`in_steps`); from the first it raises :class:`Back`."""
        ...


#: Tells a seat of a shared table (``None``: the host) that the game moved on.
TableNews = Callable[[int | None], None]


class SharedTable(Protocol):
    """A real game at a table shared between devices, one per seat: each
    seat's game its own (its hand and pick on that seat only), the picks
    revealed to all at once; the host follows what is public."""

    @property
    def names(self) -> tuple[str, ...]:
        """The seats' players, in turn round the table."""
        ...

    @property
    def over(self) -> bool:
        """Whether the table is over (its game finished, or the host ended
        it): no seat is taken any more."""
        ...

    def joined(self, seat: int) -> None:
        """A device took ``seat`` (or took it again)."""
        ...

    def freed(self, seat: int) -> None:
        """The host freed ``seat``: its device was lost."""
        ...

    def seat(self, seat: int, language: str, verbosity: Verbosity) -> Play:
        """Seat ``seat``'s game, saved as a game of its own."""
        ...

    def host(self, language: str, verbosity: Verbosity) -> Play:
        """The host's game: what is public, as it comes."""
        ...


class Seating(Protocol):
    """Where the seats of a shared table are taken (the web face's)."""

    def news(self, seat: int | None) -> None:
        """Tell seat ``seat``'s game (``None``: the host's) that the table
        moved on (from any thread)."""
        ...

    def opened(self, table: SharedTable) -> tuple[str, str]:
        """Seats may be taken now: the address players open, and the
        table's join code."""
        ...


@runtime_checkable
class SharedTableCompanion(Protocol):
    """A real game followed on one device per seat (``companion web --table``)."""

    def shared(self, conversation: Conversation, news: TableNews) -> SharedTable:
        """Ask the host how the table is set up (seats, names, variant);
        the table, no seat taken yet. ``news`` is called (from any thread)
        for the seat, or the host, whose game moved on."""
        ...


@runtime_checkable
class Scoring(Protocol):
    """Scoring a finished game: entered card by card (the :data:`SCORE`
    journey), or read from a game file (``companion score``)."""

    def score(self, conversation: Conversation) -> None:
        """Score a finished game entered card by card."""
        ...

    def score_file(self, raw: bytes, language: str, *, explain: bool) -> ScoredFile:
        """The scores of a game file; raises :class:`GameInputError`."""
        ...


@dataclass(frozen=True, slots=True)
class ScoredFile:
    """A game file scored: ``data`` is the game's JSON scores as
    ``companion score`` prints them; ``explanation`` (asked for, else empty)
    every score explained in sentences of the game's own, in the language
    asked (a game's scoring rules are its own to word)."""

    data: Mapping[str, object]
    explanation: tuple[str, ...] = ()


#: What a long piece of work calls as it goes: ``progress(done, total)``,
#: ``done`` units of ``total`` (games, or table sizes: each method says
#: which), as often as it likes (a call costs a clock reading; the app
#: words the lines, on standard error: :mod:`companion.progress`). The
#: last call says ``total`` of ``total``.
Progressed = Callable[[int, int], None]


def no_progress(done: int, total: int) -> None:
    """A :data:`Progressed` that tells no one."""


@dataclass(frozen=True, slots=True)
class SimulationRequest:
    """What ``companion simulate`` asks: ``bots`` names one bot for every
    seat or one a seat (empty: the game's usual bot); ``variant`` is the
    game's own words for its variants (empty: none; only asked of a game
    with :attr:`Simulation.variants`); ``workers`` the processes it may use;
    ``progress`` is told the games played (:data:`Progressed`)."""

    players: int
    games: int
    bots: tuple[str, ...] = ()
    seed: int = 0
    variant: str = ""
    workers: int = 1
    progress: Progressed = no_progress


@dataclass(frozen=True, slots=True)
class BotResult:
    """One bot's figures in a simulation: its share of the wins (a shared
    win counts its share), the 95% interval of that share if the game works
    it out, and its mean score (points, or whatever the game counts)."""

    bot: str
    win_rate: float
    mean_score: float
    interval: tuple[float, float] | None = None


@dataclass(frozen=True, slots=True)
class Simulated:
    """The figures of a simulation, for the command line to word: ``data``
    is the game's JSON (``--json``), the rest what a person reads."""

    data: Mapping[str, object]
    games: int
    players: int
    seconds: float
    bots: tuple[BotResult, ...]
    #: A game's mean rounds and turns, for a game that counts them.
    rounds: float | None = None
    turns: float | None = None

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


@runtime_checkable
class Simulation(Protocol):
    """Whole games between bots (``companion simulate``)."""

    @property
    def bots(self) -> tuple[str, ...]:
        """The names of its bots, in the order ``companion simulate --bots``'s
        help names them."""
        ...

    @property
    def usual_bot(self) -> str:
        """The bot of every seat when a simulation names none (one of :attr:`bots`)."""
        ...

    @property
    def variants(self) -> str:
        """The variants ``companion simulate --variant`` takes, as its help
        names them (``pass-both-ways, dummy, soy-sauce[=N]``); empty for a
        game without variants."""
        ...

    def simulate(self, request: SimulationRequest) -> Simulated:
        """The games asked; raises :class:`GameInputError`."""
        ...


@dataclass(frozen=True, slots=True)
class EngineRow:
    """The engine's random games for one table size: their rate, the time of
    one game (µs: median, p95, p99) and how many were timed; the same games
    played through the bots' API (rate, and share of the engine's); and, for a
    game measured against a plain simulator of its rules, that one's rate."""

    players: int
    games_per_second: float
    game_us: tuple[float, float, float]
    games: int
    simulate_games_per_second: float
    simulate_ratio: float
    yardstick_games_per_second: float | None = None


@dataclass(frozen=True, slots=True)
class EngineFigures:
    """``companion bench engine``: ``data`` the game's JSON, ``rows`` a table size each."""

    data: Mapping[str, object]
    rows: tuple[EngineRow, ...]


@dataclass(frozen=True, slots=True)
class AdvisorTable:
    """The advisor at one table size against a kind of bot: its share of the
    wins, that share's 95% interval, and the games played."""

    players: int
    against: str
    win_rate: float
    interval: tuple[float, float]
    games: int


@dataclass(frozen=True, slots=True)
class AdvisorFigures:
    """``companion bench advisor``: ``data`` the game's JSON; the advisor's
    time to decide (ms: median and p95), its results, the time it all took."""

    data: Mapping[str, object]
    decision_ms: tuple[float, float]
    tables: tuple[AdvisorTable, ...]
    seconds: float


@runtime_checkable
class Benchmarks(Protocol):
    """Speed figures for developers (``companion bench engine|advisor``)."""

    def bench_engine(self, seconds: float, progress: Progressed = no_progress) -> EngineFigures:
        """Random games timed for about ``seconds`` a table size;
        ``progress`` is told the table sizes measured."""
        ...

    def bench_advisor(self, games: int, progress: Progressed = no_progress) -> AdvisorFigures:
        """The advisor in ``games`` games a table size; ``progress`` is told
        the games played, of every table size together."""
        ...


@runtime_checkable
class TactileKit(Protocol):
    """A printable tactile kit of the game's cards (``companion kit``)."""

    def stickers(self, language: str) -> Stickers:
        """Every kind of card's stickers, names in ``language``."""
        ...


@dataclass(frozen=True, slots=True)
class Option:
    """A whole-number option of a game's command: ``--draw``; its help."""

    flag: str
    help: str
    required: bool = False


@dataclass(frozen=True, slots=True)
class Command:
    """A command a game adds to ``companion`` (``companion risk``): its name,
    its help and its options (the command line adds ``--lang`` and ``--json``)."""

    name: str
    help: str
    options: tuple[Option, ...] = ()


@dataclass(frozen=True, slots=True)
class CommandOutput:
    """What a game's command gives back: ``data`` for ``--json``, ``lines``
    for people, in the language asked (the game's own sentences: only the
    game knows what its figures mean)."""

    data: Mapping[str, object]
    lines: tuple[str, ...]


@runtime_checkable
class Commands(Protocol):
    """Commands of its own on the command line, beside the app's."""

    @property
    def commands(self) -> tuple[Command, ...]:
        """Its commands, in the order ``companion --help`` lists them."""
        ...

    def run_command(self, name: str, options: Mapping[str, int | None],
                    language: str) -> CommandOutput:
        """Run its command ``name`` with its options by name (``draw`` for
        ``--draw``: the flag without its leading dashes, ``-`` within it as
        ``_``; ``None`` for one not given), its lines in ``language``; raises
        :class:`GameInputError`."""
        ...


@runtime_checkable
class Lacking(Protocol):
    """A game that says, in its own words, why it lacks a capability (Mici
    Maki has no points to score: the fewest tokens win). Without it, or when
    it says nothing, the app says the game has none."""

    def lacking(self, kind: object, language: str) -> str | None:
        """Why it has no ``kind`` (one of the capability protocols), or ``None``."""
        ...


#: Every capability a game may declare.
CAPABILITIES: tuple[type, ...] = (TableCompanion, SharedTableCompanion, Scoring, Simulation,
                                  Benchmarks, TactileKit, Commands, Lacking)
K = TypeVar("K")


def capability(plugin: object, kind: Callable[..., K]) -> K | None:
    """``plugin`` as a ``kind`` (one of :data:`CAPABILITIES`) if it has it, else ``None``.

    >>> class Scored:
    ...     def score(self, conversation): ...
    ...     def score_file(self, raw, language, *, explain): ...
    >>> capability(Scored(), Scoring) is not None, capability(Scored(), Simulation)
    (True, None)
    """
    if kind not in CAPABILITIES:
        raise TypeError(f"{kind!r} is not a game capability; the capabilities are "
                        + ", ".join(c.__name__ for c in CAPABILITIES))
    protocol = CAPABILITIES[CAPABILITIES.index(kind)]
    return cast(K, plugin) if isinstance(plugin, protocol) else None


def lacking_text(plugin: SomeGame, kind: object, language: str, otherwise: str) -> str:
    """Why ``plugin`` lacks ``kind``, in its own words if it has some, else ``otherwise``."""
    explains = capability(plugin, Lacking)
    said = explains.lacking(kind, language) if explains is not None else None
    return said or otherwise


def journeys_of(plugin: object) -> frozenset[str]:
    """The journeys a game offers: practice and learning the codes always
    (its core), the table companion and scoring with their capability.

    >>> sorted(journeys_of(object()))
    ['learn', 'practice']
    """
    offered = {PRACTICE, LEARN}
    if capability(plugin, TableCompanion) is not None:
        offered.add(TABLE)
    if capability(plugin, Scoring) is not None:
        offered.add(SCORE)
    return frozenset(offered)


class Back(Exception):
    """Back chosen in a set-up question's menu: the question before it is
    asked again (from the first, the app goes back to its main menu)."""


def set_up_menu(conversation: Conversation, title: str, options: Sequence[str],
                back: str) -> int:
    """A set-up question's menu, with ``back`` (the word Back, in the
    player's language) as its last item, which the word back chooses too:
    the index of the option chosen; Back raises :class:`Back`."""
    index = conversation.ask(Menu(title, (*options, back), back=True))
    if index == len(options):
        raise Back
    return index


def in_steps(steps: Sequence[Callable[[], object]]) -> None:
    """A set-up's questions asked in order, each step keeping its own
    answer; Back in a step's menu asks the step before again, every
    answer before it kept (:class:`Back` raised again from the first).

    >>> asked = []
    >>> def menu() -> None:
    ...     asked.append("menu")
    ...     if asked.count("menu") == 1:
    ...         raise Back
    >>> in_steps([lambda: asked.append("count"), menu])
    >>> asked
    ['count', 'menu', 'count', 'menu']
    """
    index = 0
    while index < len(steps):
        try:
            steps[index]()
        except Back:
            if index == 0:
                raise
            index -= 1
            continue
        index += 1


def ask_names(conversation: Conversation, count: int, asked: Callable[[int], str],
              different: str, names: list[str] | None = None) -> list[str]:
    """The ``count`` players' names, in turn round the table: ``asked(n)``
    is the question for player n (from 1); an empty name, or one given
    already, is refused with ``different`` and asked again. ``names``: the
    ones given before (Back to this question from the next): all but the
    last kept, the last asked again."""
    names = list(names[:-1]) if names and len(names) == count else []
    for number in range(len(names) + 1, count + 1):
        while True:
            name = conversation.ask(Text(asked(number), allow_empty=True, longest=NAME_LONGEST))
            if name and name not in names:
                names.append(name)
                break
            conversation.say(warning(different))
    return names
