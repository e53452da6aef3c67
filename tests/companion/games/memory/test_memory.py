"""Memory, the third game: found through its entry points like any game,
offered only what it has, and played."""

from __future__ import annotations

import random
import subprocess
import sys

from companion.cli import simulated_lines
from companion.contract.game import (
    LEARN,
    PRACTICE,
    Scoring,
    Simulation,
    SimulationRequest,
    TableCompanion,
    capability,
    journeys_of,
)
from companion.games import game, games
from companion.i18n import Catalog
from firmware_bridge.vocabulary import vocabularies
from tests.companion.games.memory.install import INSTALLED
from tests.companion.games.memory.plugin import PLUGIN, Memory
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
