"""The programs ``python -m devtools bench ui`` starts and times, each in a
process of its own (run as a script: ``python devtools/ui_runs.py bare``):

* ``bare``: a bare Textual app showing a prompt, to set the full screen's
  start beside Textual's own;
* ``game``: the full-screen app driven through Textual's Pilot through a
  whole 4-player practice game, then its peak resident set in kilobytes
  printed on the last line.
"""

from __future__ import annotations

import asyncio
import resource
import sys
from itertools import cycle

from textual.app import App, ComposeResult
from textual.widgets import Static

#: Codes typed at each pick, in turn: one of them is always in the hand.
CODES = ["t", "s", "x", "q", "p", "f", "w1", "w2", "w3", "o1", "o2", "o3"]


class Bare(App[None]):
    """A Textual app with nothing but the prompt the benchmark waits for."""

    def compose(self) -> ComposeResult:
        yield Static("Choose 1 to 4:")


async def whole_game() -> None:
    """A whole practice game in the full screen, at 80x24, speech off."""
    from companion.app import FullScreen  # noqa: PLC0415 - the timed part
    from companion.settings import Settings  # noqa: PLC0415

    app = FullScreen(Settings(speech="none")).app
    async with app.run_test(size=(80, 24)) as pilot:
        while not (app.lines and app.lines[-1].endswith("Choose 1 to 6:")):
            await asyncio.sleep(0.01)
        codes = cycle(CODES)
        for answer in ["2", "4", "1", "1"]:  # practice, 4 players, greedy, no variant
            await pilot.press(answer, "enter")
            await asyncio.sleep(0.05)
        for _ in range(2000):
            await asyncio.sleep(0.005)
            if app.lines and app.lines[-1].endswith("Choose 1 to 6:"):
                break
            if app.lines and app.lines[-1].endswith("Your pick:"):
                await pilot.press(*next(codes), "enter")
        if "Final scores." not in app.lines:
            raise RuntimeError("the game did not reach its end")
        await pilot.press("ctrl+q")


def main(argv: list[str]) -> int:
    """Run the program ``argv[0]`` names (``bare`` or ``game``)."""
    if argv == ["bare"]:
        Bare().run()
        return 0
    if argv == ["game"]:
        asyncio.run(whole_game())
        print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
        return 0
    print("give bare or game", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
