"""Everything of Textual's private API the full screen relies on, in one place.

Textual hides the terminal cursor and places it for no screen reader
(Textual issue 2348 is open), so the full screen places the real cursor
itself, in every screen update; that needs a few of Textual's private
members. They are all here, behind a small public surface, and nowhere
else (tests/companion/faces/test_textual_private.py reads every other module to check);
tests/companion/faces/test_textual_adapter.py fails, naming what moved, when a Textual
release changes one of them, and pyproject.toml pins Textual to the
releases that test passes on.

What the rest of the app uses:

- :class:`CursorApp`, an ``App`` whose every screen update carries the
  terminal cursor to :meth:`CursorApp.frame_cursor` in that very update,
  which writes nothing when the update draws what the terminal shows
  already (:class:`Cells`), whose terminal shows its own caret, steady
  (:func:`caret_driver`), and which ends on an error nothing handled
  without Textual's traceback (:meth:`CursorApp.unhandled` is told it);
- :class:`HalfScrollInput`, an ``Input`` whose text scrolls by half its
  width, in the update that draws the key;
- :class:`Cells`, what the terminal shows cell by cell, and
  :func:`painted`, the pieces a screen update paints.

The private members relied on (each checked by the contract test):

- ``App._display(screen, renderable)``: writes one screen update and then
  moves the terminal cursor to ``App.cursor_position``; and
  ``App._batch_count``: above 0 in ``App.batch_update``, where it writes
  nothing;
- ``App._handle_exception(error)`` and ``App._exit_renderables``: the
  traceback Textual prints when the app has ended;
- ``textual._compositor.LayoutUpdate`` (``strips``, ``region``) and
  ``ChopsUpdate`` (``chops``, ``spans``, ``chop_ends``): what an update
  paints;
- ``Driver._app``: the app a driver serves;
- ``Input._watch_value(value)``, ``Input._watch_selection(selection)``,
  ``Input._initial_value`` and ``Input._cursor_offset``: how the answer
  line scrolls.
"""

from __future__ import annotations

import functools
import sys
from typing import TypeVar

from rich.cells import cell_len
from rich.console import RenderableType
from rich.style import Style
from textual._compositor import ChopsUpdate, LayoutUpdate
from textual.app import App
from textual.driver import Driver
from textual.geometry import Offset, Size
from textual.screen import Screen
from textual.strip import Strip
from textual.widgets import Input
from textual.widgets.input import Selection
from textual.worker import WorkerFailed

__all__ = [
    "Cells",
    "ChopsUpdate",
    "CursorApp",
    "HalfScrollInput",
    "LayoutUpdate",
    "caret_driver",
    "painted",
]

ReturnType = TypeVar("ReturnType")


def painted(update: object) -> list[tuple[int, int, Strip]] | None:
    """The pieces a screen update of Textual paints, in the order it paints
    them: (column, row, strip); ``None`` for an update of a kind not known
    here (what it paints is then unknown).

    >>> from rich.segment import Segment
    >>> from textual.geometry import Region
    >>> whole = LayoutUpdate([[Strip([Segment("Ann")])]], Region(2, 1, 3, 1))
    >>> [(x, y, strip.text) for x, y, strip in painted(whole)]
    [(2, 1, 'Ann')]
    >>> chops = ChopsUpdate([{0: Strip([Segment("Ben: 3")])}], [(0, 0, 3)], [[6]])
    >>> [(x, y, strip.text) for x, y, strip in painted(chops)]
    [(0, 0, 'Ben')]
    >>> painted("something else") is None
    True
    """
    pieces: list[tuple[int, int, Strip]] = []
    if isinstance(update, LayoutUpdate):
        for y, line in enumerate(update.strips, update.region.y):
            x = update.region.x
            for strip in line:
                pieces.append((x, y, strip))
                x += strip.cell_length
        return pieces
    if isinstance(update, ChopsUpdate):
        for y, x1, x2 in update.spans:
            for end, (x, chop) in zip(update.chop_ends[y], update.chops[y].items(),
                                      strict=False):
                if chop is None or x > x2 or end <= x1:
                    continue
                if not (x2 > x >= x1 and end <= x2):
                    chop = chop.crop(0, min(end, x2) - x)  # noqa: PLW2901 - as Textual draws it
                pieces.append((x, y, chop))
        return pieces
    return None


class Cells:
    """What the terminal shows, cell by cell (character and style), as the
    app last drew it, and where the cursor was left.

    An update that would draw exactly what is shown already is not
    written: Textual often redraws the whole screen once more, the same,
    after a change, and while the terminal draws it the cursor runs through
    every row; a braille display's screen reader that looks then sees the
    cursor leave its row and come back, and says the row again."""

    def __init__(self) -> None:
        self.rows: list[list[tuple[str, Style | None]]] = []
        self.cursor: Offset | None = None

    def reset(self) -> None:
        """The terminal's screen is unknown (the app started or resumed)."""
        self.rows = []
        self.cursor = None

    def _put(self, x: int, y: int, strip: Strip) -> bool:
        if not 0 <= y < len(self.rows):
            return True
        row = self.rows[y]
        changed = False
        for segment in strip:
            if segment.control:
                continue
            for character in segment.text:
                width = cell_len(character)
                for cell in ((character, segment.style), ("", segment.style))[:max(width, 1)]:
                    if 0 <= x < len(row):
                        changed = changed or row[x] != cell
                        row[x] = cell
                    x += 1
        return changed

    def draw(self, update: object, size: Size, cursor: Offset) -> bool:
        """Take ``update`` as drawn; whether it changes what is shown."""
        if len(self.rows) != size.height or any(len(row) != size.width for row in self.rows):
            self.rows = [[("", None)] * size.width for _ in range(size.height)]
            self.cursor = None
        changed = self.cursor != cursor
        self.cursor = cursor
        pieces = painted(update)
        if pieces is None:  # another kind of update: drawn, and the screen no longer known
            self.reset()
            return True
        for x, y, strip in pieces:
            changed = self._put(x, y, strip) or changed
        return changed


class CursorApp(App[ReturnType]):
    """A Textual app that places the terminal cursor itself.

    Every screen update carries the cursor to :meth:`frame_cursor` in that
    very update (the layout is the one drawn): it never moves in an update
    of its own after a change, where a screen reader would read the row it
    reaches a second time, nor rests for a moment on a row being redrawn.
    An update that draws what the terminal shows already, the cursor where
    it is, is not written (:class:`Cells`)."""

    def __init__(self, *, ansi_color: bool = False) -> None:
        super().__init__(ansi_color=ansi_color)
        #: What the terminal shows, as last drawn.
        self.cells = Cells()

    def frame_cursor(self) -> Offset | None:
        """Where the cursor belongs in the screen update being written, in
        the layout it draws; ``None`` leaves ``cursor_position`` as it is."""
        return None

    def unhandled(self, error: BaseException) -> None:
        """An error nothing handled (a thread worker's, unwrapped): the app
        ends with status 1, and Textual prints no traceback."""

    def get_driver_class(self) -> type[Driver]:
        """On a POSIX terminal, the driver that shows the caret; elsewhere
        (Windows' console) Textual's own."""
        driver = super().get_driver_class()
        if sys.platform == "win32":
            return driver
        from textual.drivers.linux_driver import LinuxDriver  # noqa: PLC0415 - POSIX only

        return caret_driver() if driver is LinuxDriver else driver

    def _display(self, screen: Screen[object], renderable: RenderableType | None) -> None:
        # (in a batch of updates Textual writes nothing: taken as drawn, the
        # rows it changed, the key facts' row among them, would be left out
        # of every later update as shown already)
        if (renderable is not None and self.is_running and self.screen.is_mounted
                and not self._batch_count):
            target = self.frame_cursor()
            if target is not None:
                self.cursor_position = target
            if not self.cells.draw(renderable, self.size,
                                   self.size.clamp_offset(self.cursor_position)):
                return  # the terminal shows it already (see Cells)
        super()._display(screen, renderable)

    def _handle_exception(self, error: Exception) -> None:
        self.unhandled(error.error if isinstance(error, WorkerFailed) else error)
        super()._handle_exception(error)
        self._exit_renderables.clear()  # the traceback Textual would write at the end


@functools.cache
def caret_driver() -> type[Driver]:
    """Textual's POSIX terminal driver, with the terminal's own caret shown
    (made when first asked for: Windows has no ``termios`` it needs)."""
    from textual.drivers.linux_driver import LinuxDriver  # noqa: PLC0415 - POSIX only

    class CaretDriver(LinuxDriver):
        """Textual's terminal driver, with the terminal's own caret shown, steady:
        a low-vision player (and a screen magnifier) follows it where the app
        places it."""

        def start_application_mode(self) -> None:
            app = self._app
            if isinstance(app, CursorApp):
                app.cells.reset()  # a new screen (or one the shell wrote on)
            super().start_application_mode()  # type: ignore[no-untyped-call]  # Textual's, untyped
            self.write("\x1b[?25h\x1b[2 q")  # show the cursor, a steady block
            self.flush()

        def stop_application_mode(self) -> None:
            self.write("\x1b[0 q")  # the terminal's own cursor shape again
            super().stop_application_mode()

    return CaretDriver


class HalfScrollInput(Input):
    """An input line whose text scrolls by half its width when its cursor
    would leave it, in the update that draws the key (Textual's own
    scrolls a cell a key, a frame later: a screen reader would read the
    shifted row at every key, the same words twice); room is kept after
    the text to scroll into. It leaves ``App.cursor_position`` alone (the
    app places the cursor in every update)."""

    def _watch_value(self, value: str) -> None:
        super()._watch_value(value)
        # room after the text, to scroll by half the width
        self.virtual_size = Size(self.content_width + self.scrollable_content_region.width, 1)

    def _watch_selection(self, selection: Selection) -> None:
        self.app.clear_selection()
        if self._initial_value:
            return
        width = max(self.scrollable_content_region.width, 1)
        offset = self._cursor_offset
        scrolled = self.scroll_offset.x
        if offset >= scrolled + width or offset < scrolled:
            scrolled = max(0, offset - width // 2)
            self.scroll_to(x=scrolled, animate=False, force=True, immediate=True)
