"""Mici Maki's bots: legal moves only, from their seat's view; the
cautious bot eats only when it must; the advisor's reasons are its
figures; whole simulations and their refusals."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from companion.contract.game import GameInputError
from companion.games.micimaki.bots import NAMES, Advisor, bot, eating_risk, play
from companion.games.micimaki.rules import (
    EAT,
    OVER,
    SERVE,
    TURN,
    Game,
    IllegalMove,
    LiveView,
    Move,
    Setup,
    View,
)
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
    data = dict(report.data)
    assert set(data) == {"games", "players", "wins", "mean_tokens", "mean_rounds",
                         "mean_turns", "games_per_second"}
    speed = data.pop("games_per_second")
    assert isinstance(speed, float) and speed > 0
    wins = data["wins"]
    assert isinstance(wins, dict) and set(wins) == {"advisor", "random", "cautious"}
    assert abs(sum(wins.values()) - 1) < 1e-3
    again = dict(simulate(players=5, games=30, bots=["advisor", "random", "cautious",
                                                     "cautious", "random"], seed=2).data)
    del again["games_per_second"]
    assert again == data  # seeded: the same games
    assert [bot.bot for bot in report.bots] == ["advisor", "random", "cautious"]
    assert report.rounds is not None and report.turns is not None and report.rounds >= 1


@pytest.mark.parametrize("players,games,bots,fragment", [
    (2, 10, ["random"], "3 to 7 players"),
    (8, 10, ["random"], "3 to 7 players"),
    (4, 0, ["random"], "at least one game"),
    (4, 10, ["random", "greedy"], "There is no bot called 'greedy'"),
    (4, 10, ["random", "cautious"], "Give 1 bot or 4 bots"),
])
def test_a_simulation_that_cannot_be_is_refused(players: int, games: int, bots: list[str],
                                                fragment: str) -> None:
    with pytest.raises(GameInputError, match=fragment):
        simulate(players=players, games=games, bots=bots, seed=0)


class Recorder:
    """A bot that keeps what it was shown (the view as it was) and chooses
    as another bot does."""

    def __init__(self, name: str) -> None:
        self.bot = bot(name)
        self.name = name
        self.seen: list[tuple[View, list[Move]]] = []

    def choose(self, view: View, moves: Sequence[Move], rng: random.Random) -> Move:
        kept = view.snapshot() if isinstance(view, LiveView) else view
        self.seen.append((kept, list(moves)))
        return self.bot.choose(view, moves, rng)


def test_play_is_the_game_of_a_bot_asked_at_every_move_with_a_fresh_view() -> None:
    """play() makes each seat's (live) view once: the bots see the same
    views and moves, and the games are the same, as with a view made for
    every move."""
    names = ["advisor", "cautious", "random", "cautious", "random", "advisor", "random"]
    for seed in range(12):
        players = 3 + seed % 5
        quick = [Recorder(name) for name in names[:players]]
        rng = random.Random(seed)
        fast = play(Game(Setup(players=players), rng, first=seed % players), quick, rng)
        slow_bots = [Recorder(name) for name in names[:players]]
        rng = random.Random(seed)
        slow = Game(Setup(players=players), rng, first=seed % players)
        while slow.phase != OVER:
            moves = slow.legal_moves()
            if len(moves) == 1:
                slow.play(moves[0])
            else:
                slow.play(slow_bots[slow.turn].choose(slow.view(slow.turn), moves, rng))
        assert (fast.tokens, fast.turns, fast.round, fast.winners) == (
            slow.tokens, slow.turns, slow.round, slow.winners)
        assert [r.seen for r in quick] == [r.seen for r in slow_bots]
        assert all(not isinstance(view, LiveView) for r in quick for view, _ in r.seen)


class Cheat:
    name = "cheat"

    def choose(self, view: View, moves: Sequence[Move], rng: random.Random) -> Move:
        return (SERVE, 9) if view.phase == TURN else moves[0]


def test_play_refuses_a_move_the_rules_do_not_allow() -> None:
    rng = random.Random(4)
    game = Game(Setup(players=3), rng)
    with pytest.raises(IllegalMove) as refused:
        play(game, [Cheat(), Cheat(), Cheat()], rng)
    assert refused.value.refusal.code == "serve"
    assert game.phase == TURN  # the refused move changed nothing


def test_play_runs_a_game_to_its_end() -> None:
    rng = random.Random(1)
    game = play(Game(Setup(players=7), rng), [bot("random")] * 7, rng)
    assert game.over and game.winners
