"""Mici Maki as a game of the companion: the one object the registry finds
(``PLUGIN``, registered in ``pyproject.toml``), giving the app the game's
cards and codes, words, sentences, journeys and command-line figures, and
the scanner's bridge its vocabulary.

>>> PLUGIN.game, PLUGIN.identify("5"), PLUGIN.identify("Reverse direction")
('mici-maki', 'food5', 'reverse')
>>> PLUGIN.copies("food5"), PLUGIN.copies("plus"), PLUGIN.card_ids()[6]
(12, 7, 'plus')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from companion.contract.events import CardReader, Conversation, Verbosity
from companion.contract.game import (
    AdvisorFigures,
    Benchmarks,
    Command,
    CommandOutput,
    Commands,
    EngineFigures,
    GameInputError,
    GamePlugin,
    Lacking,
    Mark,
    Option,
    Play,
    Progressed,
    Scoring,
    SharedTable,
    SharedTableCompanion,
    Simulated,
    Simulation,
    SimulationRequest,
    StickerKind,
    Stickers,
    TableCompanion,
    TableNews,
    TactileKit,
    no_progress,
)
from companion.games.micimaki import narration
from companion.games.micimaki import practice as practice_game
from companion.games.micimaki import shared as shared_game
from companion.games.micimaki import table as table_game
from companion.games.micimaki.risk import MOST_OVEREATING, RiskInputError, overeating_risk, percent
from companion.games.micimaki.rules import CARDS, OVEREATING, Game, Setup
from companion.games.micimaki.session import RECORDS, PracticeSession, TableSession
from companion.games.micimaki.tactile import card_id as id_of
from companion.games.micimaki.tactile import code
from companion.games.micimaki.telling import ACTIONS, READER, word
from companion.games.micimaki.vocabulary import MiciMakiVocabulary, Word, copies
from companion.games.saved import resumed
from companion.i18n import N_, Catalog
from companion.journal import Journal
from companion.keymap import Action

#: ``companion risk``: Mici Maki's own command.
RISK = Command("risk", N_("Mici Maki: the chance of overeating if one eats now, exact"), (
    Option("--draw", N_("cards in the draw pile"), required=True),
    Option("--overeating", N_("overeating cards in the draw pile"), required=True),
    Option("--eat", N_("the serving pile's value: cards eating draws"), required=True),
    Option("--discard", N_("cards in the discard pile")),
))


@dataclass(frozen=True, slots=True)
class MiciMaki(MiciMakiVocabulary):
    """The Mici Maki plugin (a :class:`~companion.contract.game.GamePlugin`),
    the scanner bridge's vocabulary of it included. Its capabilities: the
    table companion, simulations, benchmarks, a tactile kit, and the
    ``risk`` command; it has no points to score (:meth:`lacking` says why)."""

    # -- the app's --------------------------------------------------------------------------

    @property
    def reader(self) -> CardReader[int]:
        return READER

    def catalog(self, language: str) -> Catalog:
        return narration.catalog(language)

    @property
    def actions(self) -> tuple[Action, ...]:
        return ACTIONS

    @property
    def players(self) -> tuple[int, int]:
        return (3, 7)

    def playout(self, rng: random.Random, players: int) -> Iterator[Mapping[str, int]]:
        """Every card of the box counted: in the game, or (overeating cards
        not added yet) aside."""
        game = Game(Setup(players=players), rng)

        def counts() -> dict[str, int]:
            held = game.count()
            held[OVEREATING] += MOST_OVEREATING - game.overeating
            return {id_of(card): n for card, n in held.items()}

        yield counts()
        while not game.over:
            moves = game.legal_moves()
            game.play(moves[rng.randrange(len(moves))])
            yield counts()

    # -- learning the codes ------------------------------------------------------------------

    def drill_cards(self) -> Sequence[int]:
        return CARDS

    def code(self, card: int) -> str:
        return code(card)

    def describe(self, language: str, card: int, verbosity: Verbosity) -> str:
        return narration.describe(narration.catalog(language), card, verbosity)

    def reference(self, language: str) -> list[str]:
        return narration.reference(narration.catalog(language))

    def typing_help(self, language: str) -> list[str]:
        words = narration.catalog(language)
        return narration.typing_help(words, word(words, Word.EAT))

    # -- journeys -----------------------------------------------------------------------------

    def practice(self, conversation: Conversation, rng: random.Random) -> Play:
        return practice_game.set_up(conversation, rng)

    def table(self, conversation: Conversation, cards_from: Callable[[], object]) -> Callable[
            [], Play]:
        names, you, first, setup = table_game.set_up(conversation, cards_from)
        language, verbosity = conversation.language, conversation.verbosity

        def start() -> Play:
            # the dealt hand asked once the cards can be scanned, and read back
            hand = table_game.dealt(conversation, setup)
            session = TableSession.start(names, you, hand, setup=setup, first=first)
            return table_game.TableGame(session, language, verbosity)

        return start

    def shared(self, conversation: Conversation, news: TableNews) -> SharedTable:
        return shared_game.set_up(conversation, news)

    def resume(self, journal: Journal, rng: random.Random, language: str,
               verbosity: Verbosity) -> Play:
        # by its kind; raises for a game it cannot trust
        session = resumed(journal, RECORDS, self.title, PracticeSession, TableSession)
        if isinstance(session, PracticeSession):
            return practice_game.Practice(session, rng, language, verbosity)
        return table_game.TableGame(session, language, verbosity)

    # -- the command line -------------------------------------------------------------------------

    def lacking(self, kind: object, language: str) -> str | None:
        if kind is Scoring:
            return narration.catalog(language).text(
                "Mici Maki has no points to score: the fewest tokens win.")
        return None

    @property
    def bots(self) -> tuple[str, ...]:
        from companion.games.micimaki.bots import NAMES  # noqa: PLC0415 - when asked

        return NAMES

    @property
    def usual_bot(self) -> str:
        return "cautious"

    @property
    def variants(self) -> str:
        return ""

    def simulate(self, request: SimulationRequest) -> Simulated:
        """Whole games between bots (one process: a game takes a millisecond)."""
        from companion.games.micimaki.simulate import simulate  # noqa: PLC0415 - when asked

        return simulate(players=request.players, games=request.games,
                        bots=list(request.bots) or [self.usual_bot], seed=request.seed,
                        progress=request.progress)

    def bench_engine(self, seconds: float, progress: Progressed = no_progress) -> EngineFigures:
        from companion.games.micimaki.bench import engine_report  # noqa: PLC0415

        return engine_report(seconds=seconds, progress=progress)

    def bench_advisor(self, games: int, progress: Progressed = no_progress) -> AdvisorFigures:
        from companion.games.micimaki.simulate import bench_advisor  # noqa: PLC0415

        return bench_advisor(games=games, progress=progress)

    # -- its own command ---------------------------------------------------------------------

    @property
    def commands(self) -> tuple[Command, ...]:
        return (RISK,)

    def run_command(self, name: str, options: Mapping[str, int | None],
                    language: str) -> CommandOutput:
        """``companion risk``: the chance of overeating when eating now, the
        same computation the companion says at the table."""
        if name != RISK.name:
            raise GameInputError(N_("Mici Maki has no command %(name)s."), name=repr(name))
        figures = {flag: options.get(flag) for flag in ("draw", "overeating", "eat", "discard")}
        draw, overeating, eat = figures["draw"], figures["overeating"], figures["eat"]
        if draw is None or overeating is None or eat is None:
            raise GameInputError(N_("Give --draw, --overeating and --eat."))
        try:
            chance = overeating_risk(draw=draw, overeating=overeating, eat=eat,
                                     discard=figures["discard"])
        except RiskInputError as error:
            raise GameInputError(error.message, **error.values) from None
        words = narration.catalog(language)
        return CommandOutput({"probability": float(chance)}, (words.text(
            "Risk of overeating: %(percent)s.", percent=percent(float(chance), language)),))

    # -- the tactile kit ----------------------------------------------------------------------

    def stickers(self, language: str) -> Stickers:
        """This project's coding (:mod:`~companion.games.micimaki.tactile`): food
        in braille top left and as dots along the bottom edge, an action's shape
        top left, the overeating card's patch over the centre; cards punched top
        left. Cards assumed 44 x 67 mm, like Sushi Go!'s."""
        from companion.games.micimaki.tactile import CODES, STICKERS  # noqa: PLC0415

        words = narration.catalog(language)
        kinds = []
        for card in CARDS:
            sticker = STICKERS[card]
            marks: tuple[Mark, ...]
            if sticker.shape == "braille-digit":
                marks = (Mark("braille", "top-left", text=str(card)),
                         Mark("dots", "bottom-edge", count=card))
            elif sticker.shape == "jagged":
                marks = (Mark("jagged", "centre", scale=3.0),)
            else:
                marks = (Mark(sticker.shape, "top-left"),)
            kinds.append(StickerKind(
                id_of(card), narration.card_name(words, card), copies(card),
                CODES[card], words.text(sticker.words, value=card), marks))
        return Stickers(tuple(kinds), "top-left", (44.0, 67.0))


PLUGIN = MiciMaki()
#: What mypy checks it keeps: the core, and each capability it declares.
CONTRACT: tuple[GamePlugin[int], TableCompanion, SharedTableCompanion, Simulation, Benchmarks,
                TactileKit, Commands, Lacking] = (PLUGIN, PLUGIN, PLUGIN, PLUGIN, PLUGIN, PLUGIN,
                                                  PLUGIN, PLUGIN)
