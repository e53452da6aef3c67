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
from typing import Any

from companion.contract.events import CardReader, Conversation, Verbosity
from companion.contract.game import (
    LEARN,
    PRACTICE,
    TABLE,
    GameInputError,
    GamePlugin,
    Mark,
    Play,
    Report,
    StickerKind,
    Stickers,
)
from companion.games.micimaki import narration
from companion.games.micimaki import practice as practice_game
from companion.games.micimaki import table as table_game
from companion.games.micimaki.rules import OVEREATING, Game, Setup
from companion.games.micimaki.session import PracticeSession, TableSession, resumed
from companion.games.micimaki.tactile import KINDS, UnknownCodeError, code, from_id, parse
from companion.games.micimaki.tactile import card_id as id_of
from companion.games.micimaki.telling import ACTIONS, GAME, READER, word
from companion.games.risk import MOST_OVEREATING
from companion.i18n import Catalog
from companion.journal import Journal
from companion.keymap import Action


@dataclass(frozen=True, slots=True)
class MiciMaki:
    """The Mici Maki plugin (a :class:`~companion.contract.game.GamePlugin`),
    the scanner bridge's vocabulary of it included."""

    # -- the bridge's vocabulary --------------------------------------------------------------

    @property
    def game(self) -> str:
        return GAME

    @property
    def title(self) -> str:
        return "Mici Maki"

    @property
    def demo_number(self) -> int:
        return 1

    def card_ids(self) -> tuple[str, ...]:
        return tuple(id_of(card) for card in KINDS)

    def copies(self, card_id: str) -> int:
        """Copies in a deck (the usual split of action cards; all six
        overeating cards of the box)."""
        try:
            return narration.copies(from_id(card_id))
        except KeyError:
            raise ValueError(f"{card_id!r} is not a Mici Maki card id") from None

    def identify(self, text: str) -> str:
        try:
            return id_of(parse(text))
        except UnknownCodeError as error:
            raise ValueError(error.detail) from error

    # -- the app's --------------------------------------------------------------------------

    @property
    def reader(self) -> CardReader[Any]:
        return READER

    def catalog(self, language: str) -> Catalog:
        return narration.catalog(language)

    @property
    def actions(self) -> tuple[Action, ...]:
        return ACTIONS

    @property
    def journeys(self) -> frozenset[str]:
        return frozenset({TABLE, PRACTICE, LEARN})

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
        return KINDS

    def code(self, card: Any) -> str:
        return code(card)

    def describe(self, language: str, card: Any, verbosity: Verbosity) -> str:
        return narration.describe(narration.catalog(language), card, verbosity)

    def reference(self, language: str) -> list[str]:
        return narration.reference(narration.catalog(language))

    def typing_help(self, language: str) -> list[str]:
        words = narration.catalog(language)
        return narration.typing_help(words, word(words, "eat"))

    # -- journeys -----------------------------------------------------------------------------

    def practice(self, conversation: Conversation, rng: random.Random) -> Play:
        return practice_game.set_up(conversation, rng)

    def table(self, conversation: Conversation) -> Callable[[], Play]:
        names, you, first, setup, hand = table_game.set_up(conversation)
        language, verbosity = conversation.language, conversation.verbosity

        def start() -> Play:
            session = TableSession.start(names, you, hand, setup=setup, first=first)
            return table_game.TableGame(session, language, verbosity)

        return start

    def score(self, conversation: Conversation) -> None:
        raise NotImplementedError("Mici Maki has no points to score: the fewest tokens win")

    def resume(self, journal: Journal, rng: random.Random, language: str,
               verbosity: Verbosity) -> Play:
        session = resumed(journal)  # by its kind; raises for a game it cannot trust
        if isinstance(session, PracticeSession):
            return practice_game.Practice(session, rng, language, verbosity)
        return table_game.TableGame(session, language, verbosity)

    # -- the command line -------------------------------------------------------------------------

    def score_file(self, raw: bytes, language: str, *, explain: bool) -> Report:
        del raw, explain
        raise GameInputError(narration.catalog(language).text(
            "Mici Maki has no points to score: the fewest tokens win."))

    def simulate(self, *, players: int, games: int, bots: Sequence[str], seed: int,
                 variant: str, workers: int) -> Report:
        from companion.games.micimaki.simulate import simulate  # noqa: PLC0415 - when asked

        del workers
        if variant not in ("", "none"):
            raise GameInputError("Mici Maki has no variants")
        return simulate(players=players, games=games, bots=list(bots) or ["cautious"], seed=seed)

    def bench_engine(self, seconds: float) -> Report:
        from companion.games.micimaki.bench import engine_report  # noqa: PLC0415

        return engine_report(seconds=seconds)

    def bench_advisor(self, games: int) -> Report:
        from companion.games.micimaki.simulate import bench_advisor  # noqa: PLC0415

        return bench_advisor(games=games)

    # -- the tactile kit ----------------------------------------------------------------------

    def stickers(self, language: str) -> Stickers:
        """This project's coding (:mod:`~companion.games.micimaki.tactile`): food
        in braille top left and as dots along the bottom edge, an action's shape
        top left, the overeating card's patch over the centre; cards punched top
        left. Cards assumed 44 x 67 mm, like Sushi Go!'s."""
        from companion.games.micimaki.tactile import CODES, STICKERS  # noqa: PLC0415

        words = narration.catalog(language)
        kinds = []
        for card in KINDS:
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
                id_of(card), narration.card_name(words, card), narration.copies(card),
                CODES[card], words.text(sticker.words, value=card), marks))
        return Stickers(tuple(kinds), "top-left", (44.0, 67.0))


PLUGIN: GamePlugin = MiciMaki()
