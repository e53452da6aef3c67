"""Memory, the third game: found through its entry points like any game,
offered only what it has, and played."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from companion.cli import simulated_lines
from companion.contract.events import Role
from companion.contract.game import (
    LEARN,
    PRACTICE,
    GameInputError,
    Scoring,
    Simulation,
    SimulationRequest,
    TableCompanion,
    capability,
    journeys_of,
)
from companion.games import game, games
from companion.i18n import Catalog
from companion.journal import Journal
from firmware_bridge.vocabulary import vocabularies
from tests.companion.games.memory.install import INSTALLED
from tests.companion.games.memory.plugin import PLUGIN, READER, Memory
from tests.companion.games.memory.practice import Practice
from tests.companion.games.memory.rules import Game, IllegalTurn
from tests.companion.games.memory.vocabulary import VOCABULARY


def test_it_is_found_through_its_entry_points_beside_the_real_games() -> None:
    assert {"sushigo", "mici-maki", "memory"} <= set(games())
    found = game("memory")
    assert isinstance(found, Memory) and found.card_ids() == PLUGIN.card_ids()
    assert vocabularies()["memory"] is VOCABULARY


def test_it_offers_what_it_has_and_nothing_more() -> None:
    assert journeys_of(PLUGIN) == {PRACTICE, LEARN}
    assert capability(PLUGIN, TableCompanion) is None
    assert capability(PLUGIN, Scoring) is None
    assert capability(PLUGIN, Simulation) is PLUGIN


def test_the_command_line_says_it_has_no_points_to_score() -> None:
    """``companion score --game memory`` in an interpreter where it is installed."""
    script = (f"import sys; sys.path.append({INSTALLED!r}); from companion.cli import main; "
              "sys.exit(main(['score', '--game', 'memory', '--lang', 'fr']))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          input="{}", timeout=120, check=False)
    assert done.returncode == 2
    assert done.stderr == "companion score: Memory ne se compte pas en points.\n"


def test_a_card_taken_or_turned_already_is_refused() -> None:
    game = Game(2, random.Random(3))
    game.turn_card(4)
    try:
        game.turn_card(4)
    except IllegalTurn as error:
        assert "card 5" in str(error)
    else:
        raise AssertionError("a card turned this turn cannot be turned again")


def test_its_simulation_is_worded_by_the_command_line() -> None:
    figures = PLUGIN.simulate(SimulationRequest(players=3, games=40, seed=2))
    assert figures.games == 40 and len(figures.bots) == 3
    assert abs(sum(bot.win_rate for bot in figures.bots) - 1) < 1e-9
    lines = simulated_lines(figures, Catalog.for_language("en"))
    assert lines[0].startswith("random 1: wins ") and lines[-1].startswith("40 games in ")


#: Memory's refusals in each language: a simulation's players and bots, a
#: typed card it has not, a card that is no option now.
REFUSALS = {
    "en": ("Memory is for 2 to 4 players: give a number from 2 to 4.",
           "Memory has one bot, random: give that one, or none.",
           "'q9' is not a Memory card: type q1 to q5, or a picture.",
           "There is no such card now: choose another."),
    "fr": ("Memory se joue de 2 à 4 joueurs : donnez un nombre de 2 à 4.",
           "Memory n'a qu'un bot, random : donnez celui-là, ou aucun.",
           "'q9' n'est pas une carte de Memory : tapez q1 à q5, ou une image.",
           "Cette carte n'existe pas maintenant : choisissez-en une autre."),
    "cs": ("Memory je pro 2 až 4 hráče: zadejte číslo od 2 do 4.",
           "Memory má jediného bota, random: zadejte ho, nebo žádného.",
           "'q9' není karta hry Memory: napište q1 až q5, nebo obrázek.",
           "Taková karta teď není: vyberte jinou."),
    "ru": ("В Memory играют от 2 до 4 игроков: укажите число от 2 до 4.",
           "В Memory один бот, random: укажите его или никакого.",
           "'q9' — не карта игры Memory: наберите q1–q5 или картинку.",
           "Такой карты сейчас нет: выберите другую."),
}


@pytest.mark.parametrize("language", sorted(REFUSALS))
def test_its_refusals_are_in_the_players_language(language: str) -> None:
    players, bots, card, option = REFUSALS[language]
    words = PLUGIN.catalog(language)
    for request, said in ((SimulationRequest(players=9, games=1), players),
                          (SimulationRequest(players=2, games=1, bots=("greedy",)), bots)):
        with pytest.raises(GameInputError) as refused:
            PLUGIN.simulate(request)
        assert refused.value.text(words) == said
    with pytest.raises(ValueError) as error:
        READER.read("q9")
    assert READER.refusal(language, error.value) == card
    assert VOCABULARY.refusal("q9", language) == card  # the scanner's bridge says it so
    assert VOCABULARY.refusal("q2", language) == ""
    practice = Practice(Journal.create({"type": PRACTICE, "game": "memory", "seed": 1,
                                        "players": 2}), random.Random(1), language)
    step = practice.advance()
    assert step is not None and step.question is not None
    answered = practice.take(step, 99)
    assert [(a.role, a.text) for a in answered] == [(Role.WARNING, option)]


def test_the_command_line_words_a_simulations_refusal_in_the_players_language() -> None:
    script = (f"import sys; sys.path.append({INSTALLED!r}); from companion.cli import main; "
              "sys.exit(main(['simulate', '--game', 'memory', '--players', '9', '--games', '1', "
              "'--lang', 'cs']))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 2
    assert done.stderr == f"companion simulate: {REFUSALS['cs'][0]}\n"
