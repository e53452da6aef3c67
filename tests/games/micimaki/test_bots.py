"""Mici Maki's bots: legal moves only, from their seat's view; the
cautious bot eats only when it must; the advisor's reasons are its
figures; whole simulations and their refusals."""

from __future__ import annotations

import random

import pytest

from companion.games.base import GameInputError
from companion.games.micimaki.bots import NAMES, Advisor, bot, eating_risk, play
from companion.games.micimaki.rules import EAT, OVER, TURN, Game, Setup
from companion.games.micimaki.simulate import bench_advisor, simulate


@pytest.mark.parametrize("name", NAMES)
def test_a_bot_plays_legal_moves_from_its_view(name: str) -> None:
    for seed in range(30):
        rng = random.Random(seed)
        game = Game(Setup(players=3 + seed % 5), rng)
        player = bot(name)
        while game.phase != OVER:
            moves = game.legal_moves()
            view = game.view(game.turn)
            move = player.choose(view, moves, rng)
            assert move in moves
            if name == "cautious" and view.phase == TURN and move == (EAT, 0):
                assert moves == [(EAT, 0)] or eating_risk(view) == 0
            game.play(move)


def test_the_advisor_says_its_figures() -> None:
    rng = random.Random(5)
    game = Game(Setup(players=4), rng)
    advisor = Advisor()
    seen = 0
    while game.phase != OVER:
        moves = game.legal_moves()
        view = game.view(game.turn)
        advice = advisor.advise(view, moves)
        assert advice.move in moves
        if view.phase == TURN and len(moves) > 1:
            seen += 1
            assert advice.risk_now == eating_risk(view)
            if advice.move == (EAT, 0):
                assert advice.risk_now <= advisor.threshold
            else:
                assert advice.risk_now > advisor.threshold
                assert advice.leaves >= 2 and 0 <= advice.next_seat < 4
        game.play(advice.move)
    assert seen > 10


def test_the_advisor_beats_cautious_bots() -> None:
    """Seeded: the same games every run."""
    report = bench_advisor(games=200, seed=11)
    rate = report.data["win_rate_vs_cautious"]
    assert isinstance(rate, float) and rate > 0.35, report.data
    assert report.data["games"] == 200


def test_a_simulation_reports_its_figures() -> None:
    report = simulate(players=5, games=30, bots=["advisor", "random", "cautious",
                                                 "cautious", "random"], seed=2)
    data = report.data
    assert set(data) == {"games", "players", "wins", "mean_tokens", "mean_rounds",
                         "mean_turns"}
    wins = data["wins"]
    assert isinstance(wins, dict) and set(wins) == {"advisor", "random", "cautious"}
    assert abs(sum(wins.values()) - 1) < 1e-3
    assert simulate(players=5, games=30, bots=["advisor", "random", "cautious", "cautious",
                                               "random"], seed=2).data == data  # seeded
    assert len(report.lines) == 5


@pytest.mark.parametrize("players,games,bots,fragment", [
    (2, 10, ["random"], "3 to 7 players"),
    (8, 10, ["random"], "3 to 7 players"),
    (4, 0, ["random"], "at least 1 game"),
    (4, 10, ["random", "greedy"], "no bot called 'greedy'"),
    (4, 10, ["random", "cautious"], "give 1 bot or 4 bots"),
])
def test_a_simulation_that_cannot_be_is_refused(players: int, games: int, bots: list[str],
                                                fragment: str) -> None:
    with pytest.raises(GameInputError, match=fragment):
        simulate(players=players, games=games, bots=bots, seed=0)


def test_play_runs_a_game_to_its_end() -> None:
    rng = random.Random(1)
    game = play(Game(Setup(players=7), rng), [bot("random")] * 7, rng)
    assert game.over and game.winners
