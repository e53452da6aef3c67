"""Memory as a game of the companion: the one object its entry point names.

Its core, as every game's, and one capability: simulations. It declares no
table companion, no scoring, no tactile kit and no commands, so the app
offers practice and learning the codes only, and the command line says it
has none of the rest.

>>> from companion.contract.game import Scoring, Simulation, capability, journeys_of
>>> sorted(journeys_of(PLUGIN)), capability(PLUGIN, Scoring), capability(PLUGIN, Simulation)
(['learn', 'practice'], None, Memory())
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from companion.contract.events import CardReader, CodeReader, Conversation, Verbosity
from companion.contract.game import (
    PRACTICE,
    BotResult,
    GameInputError,
    GamePlugin,
    Play,
    Simulated,
    Simulation,
    SimulationRequest,
)
from companion.games.saved import session_of
from companion.i18n import N_, Catalog
from companion.journal import Journal
from companion.keymap import Action
from companion.shown import shown
from tests.companion.games.memory import practice as practice_game
from tests.companion.games.memory.rules import (
    CODES,
    PICTURES,
    PLAYERS,
    Game,
    NotACard,
    Picture,
    read,
)
from tests.companion.games.memory.vocabulary import GAME, MemoryVocabulary
from tests.companion.games.memory.words import memory_words


def _refusal(language: str, error: ValueError) -> str:
    if isinstance(error, NotACard):
        return memory_words(language).text("%(text)s is not a Memory card: type q1 to q5, or a "
                                    "picture.", text=shown(repr(error.text)))
    return memory_words(language).text("That is not a Memory card: type q1 to q5, or a picture.")


def _from_id(card_id: str) -> Picture:
    try:
        return Picture(card_id)
    except ValueError:
        raise KeyError(card_id) from None


def _card_id(card: Picture) -> str:
    return card.value


def _name(language: str, card: Picture) -> str:
    del language
    return card.value


#: How card questions read Memory's cards: a code (``q1``) or a picture.
READER: CardReader[Picture] = CodeReader(GAME, read=read, refusal=_refusal, from_id=_from_id,
                                         card_id=_card_id, name=_name)


@dataclass(frozen=True, slots=True)
class Memory(MemoryVocabulary):
    """The Memory plugin."""

    @property
    def reader(self) -> CardReader[Picture]:
        return READER

    def catalog(self, language: str) -> Catalog:
        return memory_words(language)

    @property
    def actions(self) -> tuple[Action, ...]:
        return ()

    @property
    def players(self) -> tuple[int, int]:
        return PLAYERS

    def playout(self, rng: random.Random, players: int) -> Iterator[Mapping[str, int]]:
        game = Game(players, rng)
        yield game.counts()
        while not game.over:
            game.turn_card(rng.choice(game.legal()))
            yield game.counts()

    def drill_cards(self) -> Sequence[Picture]:
        return PICTURES

    def code(self, card: Picture) -> str:
        return CODES[card]

    def describe(self, language: str, card: Picture, verbosity: Verbosity) -> str:
        if verbosity is Verbosity.TERSE:
            return card.value
        return memory_words(language).text("%(card)s, code %(code)s.", card=card.value,
                                    code=CODES[card])

    def reference(self, language: str) -> list[str]:
        said = memory_words(language)
        return [said.text("Memory codes:"), *(said.text(
            "%(code)s: %(card)s.", code=CODES[p], card=p.value) for p in PICTURES)]

    def typing_help(self, language: str) -> list[str]:
        return [memory_words(language).text("Type a card's code, q1 to q5, or its picture.")]

    def practice(self, conversation: Conversation, rng: random.Random) -> Play:
        return practice_game.set_up(conversation, rng)

    def resume(self, journal: Journal, rng: random.Random, language: str,
               verbosity: Verbosity) -> Play:
        return session_of(journal, practice_game.RECORDS, "memory",
                          {PRACTICE: lambda saved: practice_game.Practice(saved, rng, language)})

    # -- its one capability ------------------------------------------------------------------

    bots = ("random",)
    usual_bot = "random"

    @property
    def variants(self) -> str:
        return ""

    def simulate(self, request: SimulationRequest) -> Simulated:
        """Random turners against each other."""
        low, high = PLAYERS
        if not low <= request.players <= high:
            raise GameInputError(N_("Memory is for %(low)d to %(high)d players: give a number "
                                    "from %(low)d to %(high)d."), low=low, high=high)
        if request.bots not in ((), ("random",)):
            raise GameInputError(N_("Memory has one bot, random: give that one, or none."))
        wins = [0.0] * request.players
        pairs = [0] * request.players
        began = time.perf_counter()
        for number in range(request.games):
            rng = random.Random(request.seed * 1_000_003 + number)
            game = Game(request.players, rng)
            while not game.over:
                game.turn_card(rng.choice(game.legal()))
            for seat in game.winners:
                wins[seat] += 1 / len(game.winners)
            for seat, taken in enumerate(game.pairs):
                pairs[seat] += len(taken)
        seconds = time.perf_counter() - began
        bots = tuple(BotResult(f"random {seat + 1}", wins[seat] / request.games,
                               pairs[seat] / request.games) for seat in range(request.players))
        data = {"games": request.games, "wins": [round(bot.win_rate, 4) for bot in bots]}
        return Simulated(data, request.games, request.players, seconds, bots)


PLUGIN = Memory()
#: What mypy checks it keeps: the core, and its one capability.
CONTRACT: tuple[GamePlugin[Picture], Simulation] = (PLUGIN, PLUGIN)
