"""The full screen as a braille display and a console screen reader read
it: what was said is never cut off by what follows (a reply too tall for
the screen comes in pages, "More: Enter." ending each), a menu's title
reaches the display with its first option, an Enter given once the reply
to a digit was there to read is answered. Through Textual's Pilot (the
Player) and on a real pseudo-terminal read back with pyte (the Terminal),
checked with the rules the assistive-technology walks count by
(:mod:`devtools.atcheck.reach`)."""

from __future__ import annotations

import asyncio
import difflib
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pyte
import pytest

from companion.contract.events import Typed
from companion.faces import KEPT
from companion.faces.screen import Rows
from companion.games import game
from devtools.atcheck.reach import reach, stale, words
from devtools.atcheck.walk import changed_rows
from tests.drivers import GOOD_SETTINGS, Player, Terminal
from tests.drivers import run_screen as run


@pytest.fixture(autouse=True)
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    yield


# -- through the Pilot -----------------------------------------------------------------------


def test_a_menu_opened_with_nothing_said_has_the_cursor_on_its_title() -> None:
    async def body(player: Player) -> None:
        await player.menu(6)
        await player.press("2")  # practice game: how many players
        await player.said("2 to 5:")
        await player.type("2")
        await player.menu(4)  # the opponents: nothing new said with it
        app = player.app
        title = app.query_one("#title", Rows)
        assert not app.news
        await player.cursor("title")
        x, y = app.cursor_position
        assert (x, y) == title.region.offset and title.text == "Opponents:"
        first = app.choices.highlighted_child
        assert first is not None and first.region.y == y + 1  # its first option right after
        await player.move("down", 2)  # the first key: the cursor on the highlighted option
        await player.quit()

    run(body)


def test_an_enter_once_the_reply_to_a_digit_was_there_to_read_is_answered() -> None:
    async def body(player: Player) -> None:
        await player.menu(6)
        await player.press("2")  # a digit chooses at once
        await player.said("2 to 5:")
        await asyncio.sleep(1.1)  # the player reads the question, then gives an empty line
        given = len(player.given)
        await player.press("enter")
        await player.until(lambda: player.given[given:] == [Typed("")], "the Enter given")
        await player.said("2 to 5:")  # asked again: the Enter got its answer
        await player.quit()

    run(body)


# -- on a pseudo-terminal --------------------------------------------------------------------


def _screen(terminal: Terminal) -> tuple[list[str], int, int]:
    screen = terminal.screen
    return [row.rstrip() for row in screen.display], screen.cursor.x, screen.cursor.y


def _settled(terminal: Terminal, before: list[str], timeout: float = 20) -> None:
    """Read until the screen changed from ``before`` and then stayed still."""
    end = time.monotonic() + timeout
    while _screen(terminal)[0] == before and time.monotonic() < end:
        terminal.pump(0.05)
    while terminal.pump(0.4) and time.monotonic() < end:
        pass


def _first_card(rows: list[str]) -> str:
    hands = re.findall(r"\d+ cards: ([^,\n]+)", "\n".join(rows))
    assert hands, rows
    plugin = game("sushigo")
    return plugin.code(plugin.reader.read(re.sub(r"^\d+ ", "", hands[-1]).strip()))


@pytest.mark.parametrize("columns,rows", [(40, 15), pytest.param(80, 25, marks=pytest.mark.slow)])
def test_a_practice_games_final_scores_reach_the_braille_window(
        tmp_path: Path, columns: int, rows: int) -> None:
    """Every pick to the game's end: each page of the reply has the cursor
    on its first row and ends with "More: Enter." (all but the last); the
    last pick's final scores and winner are in the braille window or its
    forward pans on one of its pages, never cut off by the main menu."""
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.toml").write_text(GOOD_SETTINGS)
    terminal = Terminal(tmp_path, columns=columns, rows=rows)
    try:
        terminal.until("Choose 1 to 6:")
        for keys in ("2", "2\r", "1", "1"):
            before = _screen(terminal)[0]
            terminal.type(keys, 0)
            _settled(terminal, before)
        reached: dict[str, bool] = {}
        for _pick in range(40):
            lines, _x, _y = _screen(terminal)
            if any(line.startswith("Winner") for line in lines) or "Choose 1 to 6:" in lines:
                break
            terminal.type(_first_card(lines) + "\r", 0)
            _settled(terminal, lines)
            pages = [_screen(terminal)]
            while any(line.startswith("More: Enter.") for line in pages[-1][0]):
                lines, x, y = pages[-1]
                # the page over the screen, the cursor on its own first row
                assert x == 0 and y <= KEPT, lines
                written = len(terminal.written)
                terminal.type("\r", 0)
                _settled(terminal, lines)
                pages.append(_screen(terminal))
                # every row the next page wrote is read by a screen reader
                # comparing the screens: none is paired with an old one
                after = pages[-1][0]
                said = _read_as_fenrir(lines, terminal.written[written:], columns, rows,
                                       chunk=len(terminal.written))
                unsaid = [after[i] for i in changed_rows(lines, after, in_place=True)
                          if len(words(after[i]).split()) > 1 and words(after[i]) not in said]
                assert not unsaid, (unsaid, lines, after)
            for lines, x, y in pages:
                for found in reach(lines, x, y, ["Final scores", "Winner"], cols=columns):
                    reached[found.text] = reached.get(found.text, False) or found.at_cursor
        assert reached == {"Final scores": True, "Winner": True}, _screen(terminal)[0]
        lines = _screen(terminal)[0]
        assert "Choose 1 to 6:" in lines and any(line.startswith("Winner") for line in lines)
    finally:
        terminal.close()


def test_a_pick_moves_no_row_so_a_screen_reader_reads_only_the_news(tmp_path: Path) -> None:
    """A console screen reader (Fenrir) reads what an update added: the
    lines of the screen after it that the screen before it lacks
    (difflib, line by line, as Fenrir compares), and it may look while an
    update is half written. Each pick's update, read in pieces, brings
    only new rows: none of the rows shown before the pick is read again."""
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.toml").write_text(GOOD_SETTINGS)
    terminal = Terminal(tmp_path, columns=80, rows=25)
    try:
        terminal.until("Choose 1 to 6:")
        for keys in ("2", "2\r", "1", "1"):
            before = _screen(terminal)[0]
            terminal.type(keys, 0)
            _settled(terminal, before)
        for _pick in range(4):
            before = _screen(terminal)[0]
            terminal.type(_first_card(before), 0)  # typed, read as typed, then Enter
            _settled(terminal, before)
            before = _screen(terminal)[0]
            written = len(terminal.written)
            terminal.type("\r", 0)
            _settled(terminal, before)
            after, _x, y = _screen(terminal)
            # from the top, the screen is read as it stands once drawn
            restart = after[0] != before[0]
            said = _read_as_fenrir(before, terminal.written[written:], 80, 25,
                                   chunk=len(terminal.written) if restart else 256)
            assert said, "the news is read"
            assert stale(before, after, said, news=after[y:]) == [], (before, after)
    finally:
        terminal.close()


@pytest.mark.slow
def test_a_screen_started_again_from_the_top_keeps_the_last_rows_so_the_news_is_read(
        tmp_path: Path) -> None:
    """At 40x15 the screen starts again from the top every few picks. A
    console screen reader compares lines: a line of the new screen equal to
    one of the old (the bot picks the same card as the turn before) would
    go unsaid. The old screen's last rows come first on the new one, what
    the comparison finds in common; every pick of the news is read."""
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.toml").write_text(GOOD_SETTINGS)
    terminal = Terminal(tmp_path, columns=40, rows=15)
    try:
        terminal.until("Choose 1 to 6:")
        for keys in ("2", "2\r", "1", "1"):
            before = _screen(terminal)[0]
            terminal.type(keys, 0)
            _settled(terminal, before)
        restarts = 0
        for _pick in range(18):
            before = _screen(terminal)[0]
            terminal.type(_first_card(before), 0)  # typed, read as typed, then Enter
            _settled(terminal, before)
            before, _x, answering = _screen(terminal)
            written = len(terminal.written)
            terminal.type("\r", 0)
            _settled(terminal, before)
            after, _x, y = _screen(terminal)
            said = _read_as_fenrir(before, terminal.written[written:], 40, 15,
                                   chunk=len(terminal.written))
            # the answered row may be read once more, as the walks allow
            assert stale(before, after, said, news=[*after[y:], before[answering]]) == [], (
                before, after, said)
            picks = [words(row) for row in after[y:] if re.match(r"(You|Bot 1): [A-Z]", row)]
            # (a pick next to a round's end, whose scores come in pages, is
            # not checked here: see the assistive-technology walk)
            if not picks or re.search(r"turn 1\.|scores|More: Enter", "\n".join(before + after)):
                continue
            assert not [pick for pick in picks if pick not in said], (after, said)
            if after[0] != before[0]:  # from the top: it begins with rows it had
                restarts += 1
                assert words(after[0]) in {words(row) for row in before}, (before, after)
        assert restarts, "the screen started again from the top"
    finally:
        terminal.close()


def _read_as_fenrir(before: list[str], written: bytes, columns: int, rows: int,
                    chunk: int = 256) -> list[str]:
    """What Fenrir would read of ``written`` drawn over ``before``, looking
    after every ``chunk`` bytes: the words of each line an update added.
    (Fenrir reads the screen once it stood still for 20 ms: a screen drawn
    again from the top, written in one go, it reads drawn; rows that stay
    in place must stand any look, however the update is cut.)"""
    screen = pyte.Screen(columns, rows)
    stream = pyte.ByteStream(screen)
    stream.feed("\r\n".join(before).encode())  # the screen as it was (the cursor moves first)
    previous = [re.sub(" +", " ", row.rstrip()) for row in screen.display]
    said = []
    for start in range(0, len(written), chunk):
        stream.feed(written[start:start + chunk])
        now = [re.sub(" +", " ", row.rstrip()) for row in screen.display]
        if now != previous:
            said += [words(line[2:]) for line in difflib.Differ().compare(previous, now)
                     if line.startswith("+ ") and line[2:].strip()]
            previous = now
    return said
