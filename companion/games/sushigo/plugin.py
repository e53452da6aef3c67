"""Sushi Go! as a game of the companion: the one object the registry finds
(``PLUGIN``, registered in ``pyproject.toml``), giving the app the game's
cards and codes, words, sentences, journeys and command-line figures.

>>> PLUGIN.identify("w2"), PLUGIN.code(PLUGIN.reader.from_id("salmon"))
('salmon', 'w2')
>>> PLUGIN
SushiGo()
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from companion.contract.events import CardReader, Conversation, Verbosity
from companion.contract.game import (
    AdvisorFigures,
    AdvisorTable,
    Benchmarks,
    BotResult,
    EngineFigures,
    GameInputError,
    GamePlugin,
    Mark,
    Play,
    Progressed,
    ScoredFile,
    Scoring,
    SharedTable,
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
from companion.games.saved import resumed
from companion.games.sushigo import practice as practice_game
from companion.games.sushigo import scorer
from companion.games.sushigo import shared as shared_game
from companion.games.sushigo import table as table_game
from companion.games.sushigo.cards import CARDS, MAX_PLAYERS, MIN_PLAYERS, Card
from companion.games.sushigo.draft import Game, Variant
from companion.games.sushigo.gamefile import GameFileError, load_game_bytes
from companion.games.sushigo.narration import (
    card_identified,
    codes_reference,
    explain_game,
    game_file_error_text,
    typing_help,
)
from companion.games.sushigo.session import RECORDS, PracticeSession, TableSession
from companion.games.sushigo.tactile import short_code
from companion.games.sushigo.telling import READER, catalog
from companion.games.sushigo.vocabulary import SushiGoVocabulary
from companion.i18n import N_, Catalog
from companion.journal import Journal
from companion.keymap import C_, Action, Scope


@dataclass(frozen=True, slots=True)
class SushiGo(SushiGoVocabulary):
    """The Sushi Go! plugin (a :class:`~companion.contract.game.GamePlugin`): its
    vocabulary, which the scanner's bridge uses too, and the rest. It has
    every capability but commands of its own: the table companion, scoring,
    simulations, benchmarks and a tactile kit."""

    @property
    def reader(self) -> CardReader[Card]:
        return READER

    def catalog(self, language: str) -> Catalog:
        return catalog(language)

    @property
    def actions(self) -> tuple[Action, ...]:
        return (
            Action("coming", C_("command word", "coming"), scope=Scope.GAME),
            Action("race", C_("command word", "race"), scope=Scope.GAME),
        )

    @property
    def players(self) -> tuple[int, int]:
        return (MIN_PLAYERS, MAX_PLAYERS)

    def playout(self, rng: random.Random, players: int) -> Iterator[Mapping[str, int]]:
        variant = Variant(dummy=players == 2 and rng.random() < 0.5,
                          pass_both_ways=rng.random() < 0.5,
                          soy_sauce=3 if rng.random() < 0.5 else 0)
        game = Game(players, rng=rng, variant=variant)
        yield {card.id: n for card, n in game.all_cards().items()}
        while not game.over:
            for seat in game.waiting_for():
                game.choose(seat, game.legal_choices(seat).sample(rng))
                yield {card.id: n for card, n in game.all_cards().items()}

    # -- learning the codes ------------------------------------------------------------------

    def drill_cards(self) -> Sequence[Card]:
        return [card for card in CARDS if card is not Card.SOY_SAUCE]

    def code(self, card: Card) -> str:
        return short_code(card)

    def describe(self, language: str, card: Card, verbosity: Verbosity) -> str:
        return card_identified(catalog(language), card, verbosity)

    def reference(self, language: str) -> list[str]:
        return codes_reference(catalog(language))

    def typing_help(self, language: str) -> list[str]:
        return typing_help(catalog(language))

    # -- journeys -----------------------------------------------------------------------------

    def practice(self, conversation: Conversation, rng: random.Random) -> Play:
        return practice_game.set_up(conversation, rng)

    def table(self, conversation: Conversation, cards_from: Callable[[], object]) -> Callable[
            [], Play]:
        names, you, pick = table_game.set_up(conversation, cards_from)
        language, verbosity = conversation.language, conversation.verbosity

        def start() -> Play:
            session = TableSession.start(names, you, variant=practice_game.variant_of(pick))
            return table_game.TableGame(session, language, verbosity)

        return start

    def shared(self, conversation: Conversation, news: TableNews) -> SharedTable:
        return shared_game.set_up(conversation, news)

    def score(self, conversation: Conversation) -> None:
        scorer.score(conversation)

    def resume(self, journal: Journal, rng: random.Random, language: str,
               verbosity: Verbosity) -> Play:
        # by its kind; raises for a game it cannot trust
        session = resumed(journal, RECORDS, self.title, PracticeSession, TableSession)
        if isinstance(session, PracticeSession):
            return practice_game.Practice(session, rng, language, verbosity)
        return table_game.TableGame(session, language, verbosity)

    # -- the command line -------------------------------------------------------------------------

    def score_file(self, raw: bytes, language: str, *, explain: bool) -> ScoredFile:
        try:
            game = load_game_bytes(raw)
        except GameFileError as error:
            raise GameInputError(game_file_error_text(catalog(language), error)) from None
        scored = game.score()
        names = game.players

        def by_name(values: Sequence[int]) -> dict[str, int]:
            return dict(zip(names, values, strict=True))

        data = {
            "rounds": [by_name([s.points for s in r]) for r in scored.rounds],
            "pudding": by_name([s.points for s in scored.pudding]) if scored.pudding else None,
            "total": by_name(scored.totals),
            "winners": [names[s] for s in scored.winners],
            "puddings": by_name(scored.puddings),
            "dummy": names[scored.dummy] if scored.dummy is not None else None,
        }
        lines = explain_game(catalog(language), scored, names) if explain else []
        return ScoredFile(data, tuple(lines))

    @property
    def bots(self) -> tuple[str, ...]:
        return ("random", "greedy", "advisor")

    @property
    def usual_bot(self) -> str:
        return "greedy"

    @property
    def variants(self) -> str:
        return "pass-both-ways, dummy, soy-sauce[=N]"

    def simulate(self, request: SimulationRequest) -> Simulated:
        # Imported when asked for, so that starting the app stays quick.
        from companion.games.sushigo.simulate import (  # noqa: PLC0415
            parse_variant,
            simulate,
        )

        players = request.players
        bots = list(request.bots) or [self.usual_bot]
        names = list(bots) * players if len(bots) == 1 else list(bots)
        if len(names) != players:
            raise GameInputError(N_("Give one bot, or one for each of the %(players)d players."),
                                 players=players)
        try:
            results = simulate(names, request.games, seed=request.seed,
                               variant=parse_variant(request.variant),
                               workers=max(1, request.workers), progress=request.progress)
        except GameInputError:
            raise
        except ValueError as error:
            raise GameInputError(str(error)) from None
        data = {
            "games": results.games,
            "games_per_second": round(results.games_per_second, 2),
            "bots": [
                {
                    "bot": e.label,
                    "win_rate": round(e.win_rate, 4),
                    "win_rate_95": [round(x, 4) for x in e.interval()],
                    "mean_score": round(e.mean_points, 2),
                }
                for e in results.entrants
            ],
        }
        bots_figures = tuple(BotResult(e.label, e.win_rate, e.mean_points, e.interval())
                             for e in results.entrants)
        return Simulated(data, results.games, players, results.seconds, bots_figures)

    def bench_engine(self, seconds: float, progress: Progressed = no_progress) -> EngineFigures:
        from companion.games.sushigo.bench import engine_report  # noqa: PLC0415

        return engine_report(seconds, progress=progress)

    def bench_advisor(self, games: int, progress: Progressed = no_progress) -> AdvisorFigures:
        from companion.games.sushigo.simulate import bench_advisor  # noqa: PLC0415

        f = bench_advisor(games=games, progress=progress)
        data = {
            "decision_ms": {"p50": round(f.decision_ms_p50, 2),
                            "p95": round(f.decision_ms_p95, 2)},
            "win_rate_4p_vs_greedy": round(f.win_rate_4p, 4),
            "win_rate_4p_95": [round(x, 4) for x in f.interval_4p],
            "win_rate_2p_vs_greedy": round(f.win_rate_2p, 4),
            "win_rate_2p_95": [round(x, 4) for x in f.interval_2p],
            "games": f.games,
            "seconds": round(f.seconds, 1),
        }
        tables = (AdvisorTable(4, "greedy", f.win_rate_4p, f.interval_4p, f.games),
                  AdvisorTable(2, "greedy", f.win_rate_2p, f.interval_2p, f.games))
        return AdvisorFigures(data, (f.decision_ms_p50, f.decision_ms_p95), tables, f.seconds)

    # -- the tactile kit ----------------------------------------------------------------------

    def stickers(self, language: str) -> Stickers:
        """The French adaptation's stickers (seed 001): the shape in the top left
        corner, window and circle at the top, middle or bottom of the left edge;
        cards punched top right. Cards assumed 44 x 67 mm."""
        from companion.games.sushigo.narration import card_name, describe_sticker  # noqa: PLC0415
        from companion.games.sushigo.tactile import Position, sticker  # noqa: PLC0415

        places = {None: "top-left", Position.TOP: "top-left",
                  Position.MIDDLE: "left-middle", Position.BOTTOM: "left-bottom"}
        words = catalog(language)
        kinds = []
        for card_id in self.card_ids():
            card = Card.from_id(card_id)
            found = sticker(card)
            kinds.append(StickerKind(
                card_id, card_name(words, card), self.copies(card_id), found.code,
                describe_sticker(words, card), (Mark(found.shape.value, places[found.position]),)))
        return Stickers(tuple(kinds), "top-right", (44.0, 67.0))


PLUGIN = SushiGo()
#: What mypy checks it keeps: the core, and each capability it declares.
CONTRACT: tuple[GamePlugin[Card], TableCompanion, Scoring, Simulation, Benchmarks,
                TactileKit] = (PLUGIN, PLUGIN, PLUGIN, PLUGIN, PLUGIN, PLUGIN)
