"""Mici Maki in the full-screen face, driven by key presses through
Textual's pilot in a 40x15 terminal: a whole practice game by keyboard
alone, the key facts on the status line, the game's words typed and the
function keys (hand, where) answered, the result at the cursor."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import Static

from companion.app import FullScreen
from companion.faces.screen import CompanionApp, wrapped
from companion.settings import Settings
from tests.drivers import SIZE, Given, Player

MOVES = ("Start a pile with a food card:", "Your move: a card, a pair, or eat:",
         "Choose 1 to 6:", "Choose 1 to 2:")


@pytest.fixture(autouse=True)
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    yield


def test_a_whole_mici_maki_practice_game_by_keyboard_alone() -> None:
    async def facts_whole(player: Player) -> None:
        """The key facts (two rows at 40 columns) whole at the screen's foot,
        on every page of the reply (the room above them takes a row in
        Textual's layout even when none is left: their last row went off
        the screen under a reply's last page)."""
        await player.rests()
        for _page in range(20):
            facts = player.app.screen.query_one("#facts", Static)
            rows = len(wrapped(player.facts(), SIZE[0]))
            assert (facts.region.height, facts.region.bottom) == (rows, SIZE[1]), (
                facts.region, player.facts())
            if not player.app.paging:
                return
            await player.press("enter")
            await player.rests()

    async def body(player: Player) -> None:
        await player.menu(6)
        assert "Main menu, Mici Maki." in player.app.lines
        await player.pick(2)  # practice
        await player.said("you included? 3 to 7:")
        await player.type("3", check=True)
        await player.menu(4)  # opponents, and Back
        await player.press("enter")  # cautious
        line = await player.said(MOVES)
        assert re.match(r"R1, turn: You, pile 0, risk 0%, you 0 tokens, 5 cards",
                        player.facts()), player.facts()
        await player.press("f5")  # where
        await player.said(MOVES)
        assert player.heard("Round 1, You to start a pile, clockwise.")
        moves = 0
        while not line.endswith("Choose 1 to 6:"):
            moves += 1
            assert moves < 500, "the game does not end"
            if line.endswith("Choose 1 to 2:"):
                await player.press("1")  # no extra overeating card
            elif line.startswith("Start a pile"):
                await player.press("f6")  # my hand
                await player.said(MOVES)
                held = next(text for text in reversed(player.app.lines)
                            if text.startswith("Your hand, "))
                await player.type(max(re.findall(r"Food (\d)", held)), check=moves < 3)
            else:
                await player.type("eat", check=moves < 3)
            line = await player.said(MOVES, timeout=30)
            if not line.endswith("Choose 1 to 6:"):
                await facts_whole(player)
        assert any(text.startswith("Game over. ") for text in player.app.lines)
        await player.cursor("reply")  # the result at the cursor, the main menu below it
        await player.quit()

    async def main() -> CompanionApp:
        app = FullScreen(Settings(speech="none", game="mici-maki")).app
        app.inbox = Given()
        async with app.run_test(size=SIZE) as pilot:
            await body(Player(app, pilot))
        return app

    assert asyncio.run(main()).return_value == 0
