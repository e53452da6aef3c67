"""The contract of companion/faces/textual_adapter.py with Textual: every
private thing of Textual it relies on still exists, takes what it is
given and does what the adapter expects of it. When a Textual release
moves one, a test here fails and its message names what moved (then
mend the adapter, and pyproject.toml's range for Textual).

Most run headless (``App.run_test``); one runs a small app in a real
pseudo-terminal, read back with pyte, to see the terminal cursor where the
adapter puts it."""

from __future__ import annotations

import asyncio
import fcntl
import inspect
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import textwrap
import time
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any, ClassVar

import pyte
import pytest
from rich.console import Console
from rich.segment import Segment
from textual.app import App, ComposeResult
from textual.driver import Driver
from textual.drivers.linux_driver import LinuxDriver
from textual.geometry import Offset, Region, Size
from textual.strip import Strip
from textual.widgets import Input, Static
from textual.worker import WorkerFailed

try:  # before the adapter, which imports it: the failure names what moved
    from textual import _compositor
except ImportError as error:
    raise ImportError(f"Textual {version('textual')} moved textual._compositor, which "
                      "companion/faces/textual_adapter.py relies on") from error

from companion.faces.textual_adapter import (
    Cells,
    ChopsUpdate,
    CursorApp,
    HalfScrollInput,
    LayoutUpdate,
    caret_driver,
    painted,
)

ROOT = Path(__file__).resolve().parents[3]
#: The Textual release under test, named in every failure.
TEXTUAL = version("textual")


def parameters(function: Callable[..., object]) -> list[str]:
    return list(inspect.signature(function).parameters)


def moved(what: str, expected: object, found: object) -> str:
    return (f"Textual {TEXTUAL} moved {what}: the adapter expects {expected!r}, "
            f"found {found!r} (companion/faces/textual_adapter.py relies on it)")


# -- the names and their signatures ------------------------------------------------------------


@pytest.mark.parametrize(("owner", "name", "expected"), [
    (App, "_display", ["self", "screen", "renderable"]),
    (App, "_handle_exception", ["self", "error"]),
    (Input, "_watch_value", ["self", "value"]),
    (Input, "_watch_selection", ["self", "selection"]),
    (App, "get_driver_class", ["self"]),
    (LinuxDriver, "start_application_mode", ["self"]),
    (LinuxDriver, "stop_application_mode", ["self"]),
    (Driver, "__init__", ["self", "app", "debug", "mouse", "size"]),
])
def test_each_method_the_adapter_overrides_or_calls_is_there(
        owner: type, name: str, expected: list[str]) -> None:
    method = getattr(owner, name, None)
    assert callable(method), moved(f"{owner.__name__}.{name}", "a method", method)
    assert parameters(method) == expected, moved(
        f"{owner.__name__}.{name}'s parameters", expected, parameters(method))


def test_the_compositors_updates_are_there_with_their_fields() -> None:
    assert _compositor.LayoutUpdate is LayoutUpdate and _compositor.ChopsUpdate is ChopsUpdate
    assert parameters(LayoutUpdate.__init__) == ["self", "strips", "region"], moved(
        "LayoutUpdate's parameters", ["strips", "region"], parameters(LayoutUpdate.__init__))
    assert parameters(ChopsUpdate.__init__) == ["self", "chops", "spans", "chop_ends"], moved(
        "ChopsUpdate's parameters", ["chops", "spans", "chop_ends"],
        parameters(ChopsUpdate.__init__))
    layout = LayoutUpdate([[Strip([Segment("ab")])]], Region(1, 2, 2, 1))
    assert (layout.region, len(layout.strips)) == (Region(1, 2, 2, 1), 1), moved(
        "LayoutUpdate's fields", "strips, region", vars(layout))
    chops = ChopsUpdate([{0: Strip([Segment("ab")])}], [(0, 0, 2)], [[2]])
    assert (chops.spans, chops.chop_ends, list(chops.chops[0])) == ([(0, 0, 2)], [[2]], [0]), (
        moved("ChopsUpdate's fields", "chops, spans, chop_ends", vars(chops)))


def screen_after(update: object, size: Size) -> list[str]:
    """What a terminal shows after Textual writes ``update`` on a blank one."""
    console = Console(width=size.width, height=size.height, force_terminal=True,
                      color_system=None, legacy_windows=False)
    render = getattr(update, "render_segments", None)
    assert callable(render), moved("CompositorUpdate.render_segments", "a method", render)
    screen = pyte.Screen(size.width, size.height)
    pyte.Stream(screen).feed(render(console))
    return [row.rstrip() for row in screen.display]


def cells_text(cells: Cells) -> list[str]:
    """The rows the cells hold (a blank cell as a space; no wide characters here)."""
    return ["".join(character or " " for character, _style in row).rstrip() for row in cells.rows]


@pytest.mark.parametrize("update", [
    LayoutUpdate([[Strip([Segment("Ann"), Segment(": 3")])], [Strip([Segment("Ben")])]],
                 Region(1, 0, 6, 2)),
    # a chop cut at both ends of its span, one inside it, one outside it
    ChopsUpdate([{0: Strip([Segment("Salmon"), Segment(" nigiri")])},
                 {0: Strip([Segment("Tea")]), 4: Strip([Segment("Wasabi")])}],
                [(0, 2, 9), (1, 4, 10)], [[13], [3, 10]]),
], ids=["layout", "chops"])
def test_what_the_adapter_reads_of_an_update_is_what_textual_paints(update: object) -> None:
    size = Size(16, 2)
    cells = Cells()
    assert cells.draw(update, size, Offset(0, 0))
    assert cells_text(cells) == screen_after(update, size), moved(
        f"what a {type(update).__name__} paints", cells_text(cells), screen_after(update, size))
    pieces = painted(update)
    assert pieces, moved(f"{type(update).__name__}", "an update the adapter reads", update)


# -- in a running app -----------------------------------------------------------------------


class Placed(CursorApp[None]):
    """A small app whose cursor belongs at :attr:`target`."""

    target = Offset(3, 2)
    kinds: ClassVar[list[str]] = []

    def compose(self) -> ComposeResult:
        yield Static("Round 1, turn 2.", id="said")
        yield HalfScrollInput(id="line", select_on_focus=False)

    def frame_cursor(self) -> Offset | None:
        return self.target

    def _display(self, screen: Any, renderable: Any) -> None:
        self.kinds.append(type(renderable).__name__)
        super()._display(screen, renderable)


def test_every_update_carries_the_cursor_the_adapter_computes() -> None:
    async def main() -> None:
        app = Placed()
        Placed.kinds.clear()
        async with app.run_test(size=(30, 6)) as pilot:
            await pilot.pause()
            assert app.cursor_position == Placed.target, moved(
                "App._display (no longer called with each update?)", Placed.target,
                app.cursor_position)
            assert app.cells.cursor == Placed.target
            app.target = Offset(5, 1)
            app.query_one("#said", Static).update("Round 1, turn 3.")
            await pilot.pause()
            assert (app.cursor_position, app.cells.cursor) == (Offset(5, 1), Offset(5, 1))
            assert "Round 1, turn 3." in cells_text(app.cells)[0]
        known = {"LayoutUpdate", "ChopsUpdate", "NoneType"}
        assert set(Placed.kinds) <= known and "LayoutUpdate" in Placed.kinds, moved(
            "the updates App._display is given", known, set(Placed.kinds))

    asyncio.run(main())


def test_the_driver_knows_its_app_and_the_caret_driver_is_chosen() -> None:
    async def main() -> None:
        app = Placed()
        async with app.run_test(size=(30, 6)):
            driver = app._driver
            assert driver is not None and getattr(driver, "_app", None) is app, moved(
                "Driver._app", app, getattr(driver, "_app", None))

    asyncio.run(main())
    if "TEXTUAL_DRIVER" not in os.environ and sys.platform != "win32":
        assert App().get_driver_class() is LinuxDriver, moved(
            "App.get_driver_class on POSIX", LinuxDriver, App().get_driver_class())
        assert Placed().get_driver_class() is caret_driver()


def test_in_a_batch_of_updates_textual_writes_nothing_and_counts_it() -> None:
    """The adapter takes an update as drawn only when Textual writes it:
    not inside ``App.batch_update`` (``App._batch_count`` above 0)."""
    app: App[None] = App()
    assert app._batch_count == 0, moved("App._batch_count", 0, getattr(app, "_batch_count", None))
    with app.batch_update():
        assert app._batch_count == 1, moved("App._batch_count in a batch", 1, app._batch_count)
    source = inspect.getsource(App._display)
    assert "if self._batch_count:" in source, moved(
        "App._display's return in a batch", "if self._batch_count: return", source[:300])


@pytest.mark.slow
def test_an_unhandled_error_is_told_and_textual_prints_no_traceback() -> None:
    told: list[BaseException] = []

    class Failing(CursorApp[None]):
        def on_mount(self) -> None:
            self.run_worker(self.fail, thread=True)

        def fail(self) -> None:
            raise RuntimeError("a fault for the test")

        def unhandled(self, error: BaseException) -> None:
            told.append(error)
            assert isinstance(self._exit_renderables, list), moved(
                "App._exit_renderables", "a list", self._exit_renderables)

    async def main() -> Failing:
        app = Failing()
        with pytest.raises((RuntimeError, WorkerFailed)):
            async with app.run_test(size=(30, 6)) as pilot:
                for _ in range(200):
                    await pilot.pause(0.01)
        return app

    app = asyncio.run(main())
    assert [str(error) for error in told] == ["a fault for the test"], moved(
        "App._handle_exception (not called with the worker's error?)", "one RuntimeError", told)
    assert isinstance(told[0], RuntimeError)
    assert app.return_code == 1
    assert app._exit_renderables == [], moved(
        "App._exit_renderables (the traceback printed at the end)", [], app._exit_renderables)


def test_the_answer_line_scrolls_by_half_its_width_in_the_update_of_the_key() -> None:
    async def main() -> None:
        app = Placed()
        async with app.run_test(size=(30, 6)) as pilot:
            line = app.query_one("#line", HalfScrollInput)
            line.focus()
            await pilot.pause()
            assert getattr(line, "_initial_value", None) is False or line.value == "", moved(
                "Input._initial_value", "a bool", getattr(line, "_initial_value", None))
            width = line.scrollable_content_region.width
            await pilot.press(*"a" * (width - 2))
            await pilot.pause()
            assert line._initial_value is False, moved(
                "Input._initial_value (cleared by the first value)", False,
                line._initial_value)
            # the cell after the text, where Textual draws its cursor at the end
            assert line._cursor_offset == width - 1, moved(
                "Input._cursor_offset", width - 1, line._cursor_offset)
            assert line.virtual_size.width == line.content_width + width, moved(
                "Input._watch_value (not called when the value changes?)",
                line.content_width + width, line.virtual_size.width)
            assert line.scroll_offset.x == 0
            await pilot.press("b")  # the cursor would leave the line: half a width at once
            assert line.scroll_offset.x == width - width // 2, moved(
                "Input._watch_selection (not called when the cursor moves?)",
                width - width // 2, line.scroll_offset.x)

    asyncio.run(main())


# -- in a real terminal ---------------------------------------------------------------------------

APP = textwrap.dedent("""
    from textual.geometry import Offset
    from textual.widgets import Static
    from companion.faces.textual_adapter import CursorApp

    class Placed(CursorApp[None]):
        def compose(self):
            yield Static("Your pick:")

        def frame_cursor(self):
            return Offset(5, 3)

    Placed().run()
""")


def test_the_terminal_cursor_is_where_the_adapter_puts_it(tmp_path: Path) -> None:
    columns, rows = 40, 15
    master, slave = pty.openpty()
    os.set_blocking(master, False)
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    environment = {**os.environ, "TERM": "xterm-256color", "TEXTUAL_ANIMATIONS": "none",
                   "PYTHONPATH": str(ROOT)}
    for inherited in ("TEXTUAL_DRIVER", "COLUMNS", "LINES"):  # the terminal's own size
        environment.pop(inherited, None)
    process = subprocess.Popen([sys.executable, "-c", APP], stdin=slave, stdout=slave,
                               stderr=slave, env=environment, start_new_session=True,
                               cwd=tmp_path)
    os.close(slave)
    screen = pyte.Screen(columns, rows)
    stream = pyte.ByteStream(screen)
    written = b""
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not (
                "Your pick:" in screen.display[0] and (screen.cursor.x, screen.cursor.y) == (5, 3)):
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                data = os.read(master, 65536)
                written += data
                stream.feed(data)
        assert "Your pick:" in screen.display[0], screen.display
        assert (screen.cursor.x, screen.cursor.y) == (5, 3), moved(
            "where App._display leaves the terminal cursor", (5, 3),
            (screen.cursor.x, screen.cursor.y))
        assert not screen.cursor.hidden, "the caret driver did not show the cursor"
        assert b"\x1b[2 q" in written, "the caret driver did not make the cursor steady"
    finally:
        process.kill()
        process.wait(timeout=10)
        os.close(master)
