"""The full-screen interface, driven by key presses through Textual's pilot."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from itertools import cycle
from pathlib import Path

import pytest
from textual.pilot import Pilot

from companion.settings import Settings
from companion.tui import CompanionApp

CODES = ["t", "s", "x", "q", "p", "f", "w1", "w2", "w3", "o1", "o2", "o3"]


@pytest.fixture(autouse=True)
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    yield


async def until(app: CompanionApp, pilot: Pilot[int], ending: str, timeout: float = 20) -> str:
    """Wait until the transcript's last line ends with ``ending``."""
    waited = 0.0
    while not (app.lines and app.lines[-1].endswith(ending)):
        await asyncio.sleep(0.02)
        waited += 0.02
        if waited > timeout:
            raise AssertionError(f"timed out waiting for {ending!r}: {app.lines[-5:]}")
    return app.lines[-1]


async def answer(app: CompanionApp, pilot: Pilot[int], text: str) -> None:
    before = len(app.lines)
    await pilot.press(*list(text), "enter")
    waited = 0.0
    while len(app.lines) == before and waited < 10:
        await asyncio.sleep(0.01)
        waited += 0.01


def cursor_on_answer(app: CompanionApp) -> bool:
    answer = app.query_one("#answer")
    return app.focused is answer and app.cursor_position.y == answer.region.y


def test_a_whole_practice_game_by_keyboard_alone() -> None:
    async def play() -> CompanionApp:
        app = CompanionApp(Settings(speech="none"))
        async with app.run_test(size=(40, 15)) as pilot:
            await until(app, pilot, "Choose 1 to 6:")
            assert cursor_on_answer(app)
            for choice in ("2", "1", "1", "1"):  # practice, 2 players, greedy, no variant
                await answer(app, pilot, choice)
            await until(app, pilot, "Your pick:")
            await pilot.press("f6")  # my hand
            await until(app, pilot, "Your pick:")
            assert app.lines[-2].startswith("10 cards: ")
            await pilot.press("f2")  # repeat
            await until(app, pilot, "Your pick:")
            codes = cycle(CODES)
            for _ in range(500):
                if app.lines[-1].endswith("Choose 1 to 6:"):
                    break
                await answer(app, pilot, next(codes))
                assert cursor_on_answer(app)
            assert any(line == "Final scores." for line in app.lines)
            await pilot.press("ctrl+q")
            await pilot.pause(0.2)
        return app

    app = asyncio.run(play())
    assert app.return_value == 0


def test_the_first_start_works_in_a_small_terminal() -> None:
    async def run() -> CompanionApp:
        app = CompanionApp(Settings(speech="none"), first_start=True)
        async with app.run_test(size=(40, 15)) as pilot:
            await until(app, pilot, "Choose 1 to 4:")
            await answer(app, pilot, "3")  # Čeština
            await until(app, pilot, ":")
            await answer(app, pilot, "2")  # the screen reader speaks
            await answer(app, pilot, "2")  # normal
            await until(app, pilot, ":")
            assert cursor_on_answer(app)
            status = str(app.query_one("#status").render())
            assert status.strip()
            await pilot.press("ctrl+q")
            await pilot.pause(0.2)
        return app

    app = asyncio.run(run())
    saved = Path(os.environ["COMPANION_CONFIG_DIR"]) / "settings.toml"
    assert 'language = "cs"' in saved.read_text()
    assert app.return_value == 0
