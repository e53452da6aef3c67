"""The chance of overeating: exact, checked against every way the cards
can lie, and the same figure from ``companion risk`` in a subprocess."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest

from companion.games.micimaki.risk import RiskInputError, overeating_risk
from tests.companion.test_cli import MODULE, bad, run


def counted(draw: int, overeating: int, eat: int) -> Fraction:
    """Every set of ``eat`` cards of the draw pile, counted."""
    cards = [True] * overeating + [False] * (draw - overeating)
    if eat >= draw:
        return Fraction(int(any(cards)))
    ways = list(itertools.combinations(range(draw), eat))
    return Fraction(sum(any(cards[i] for i in way) for way in ways), len(ways))


@pytest.mark.parametrize("draw", [1, 2, 5, 9, 12])
def test_the_risk_is_exact(draw: int) -> None:
    for overeating in range(min(draw, 6) + 1):
        for eat in range(1, draw + 3):
            assert overeating_risk(draw=draw, overeating=overeating, eat=eat) == counted(
                draw, overeating, eat), (draw, overeating, eat)


def test_a_short_draw_pile_is_drawn_whole() -> None:
    assert overeating_risk(draw=4, overeating=1, eat=9, discard=20) == 1
    assert overeating_risk(draw=4, overeating=0, eat=9, discard=20) == 0


@pytest.mark.parametrize("figures,fragment", [
    ({"draw": -1, "overeating": 0, "eat": 3}, "The draw pile .* -1 is not"),
    ({"draw": 10, "overeating": 7, "eat": 3}, "0 to 6 overeating cards, not 7"),
    ({"draw": 2, "overeating": 3, "eat": 3}, r"more overeating cards \(3\) than cards \(2\)"),
    ({"draw": 10, "overeating": 1, "eat": 0}, "at least one card.* cannot be 0"),
    ({"draw": 10, "overeating": 1, "eat": 2, "discard": -4}, "The discard pile .* -4 is not"),
])
def test_figures_no_table_shows_are_refused(figures: dict[str, int], fragment: str) -> None:
    with pytest.raises(RiskInputError, match=fragment):
        overeating_risk(**figures)


def test_companion_risk_prints_the_same_figure() -> None:
    done = run(MODULE, "risk", "--draw", "40", "--overeating", "2", "--eat", "12", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"probability": float(Fraction(67, 130))}
    done = run(MODULE, "risk", "--draw", "40", "--overeating", "2", "--eat", "12",
               "--lang", "cs")
    assert done.stdout == "Riziko přežrání: 51,5 %.\n"  # the rulebook's word, as in the game
    bad(run(MODULE, "risk", "--draw", "3", "--overeating", "4", "--eat", "2", "--json"),
        "companion risk:", "cannot hold more overeating cards (4) than cards (3)")
    # in the player's language, as every refusal
    bad(run(MODULE, "risk", "--draw", "3", "--overeating", "4", "--eat", "2", "--lang", "cs"),
        "companion risk:", "Dobírací balíček nemůže mít víc karet přežrání (4) než karet (3).")
