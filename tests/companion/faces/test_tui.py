"""The full-screen face, driven by key presses through Textual's pilot, in
a 40x15 terminal: every journey start to finish, with the terminal cursor
checked at each focus change (on the highlighted option when the list has
the focus, on the answer line when it has, on the status line after
something is said unprompted)."""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import subprocess
from collections.abc import Iterator, Sequence
from functools import partial
from itertools import cycle
from pathlib import Path

import pytest
from rich.segment import Segment
from textual.app import App, ComposeResult
from textual.geometry import Offset, Region, Size
from textual.strip import Strip
from textual.widgets import Input, Static

from companion.contract.events import Chosen
from companion.faces import WINDOW
from companion.faces.screen import CompanionApp, Prompt, Rows, Transcript
from companion.faces.textual_adapter import Cells, ChopsUpdate, LayoutUpdate
from companion.games.sushigo.cards import CARDS, Card
from companion.games.sushigo.draft import Game, Revealed
from companion.games.sushigo.narration import card_name
from companion.games.sushigo.scoring import score_game
from companion.games.sushigo.tactile import short_code
from companion.games.sushigo.telling import catalog
from tests.drivers import WHOLE_GAME, Picks, PipedApp, Player, options
from tests.drivers import run_screen as run

CODES = ["t", "s", "x", "q", "p", "f", "w1", "w2", "w3", "o1", "o2", "o3"]
WRONG = [Card.TEMPURA, Card.SASHIMI]


@pytest.fixture(autouse=True)
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    yield


async def main_menu(player: Player) -> None:
    await player.menu(6)


# -- first start ---------------------------------------------------------------------------


def test_the_first_start_by_arrow_keys_and_enter() -> None:
    async def body(player: Player) -> None:
        choices = await player.menu(4)  # the language
        assert options(choices)[:2] == ["1. English", "2. Français"]
        assert player.prompt() == "Choose 1 to 4:"
        await player.move("end", 4)
        await player.move("home", 1)
        await player.pick(3)  # Čeština, by Down Down Enter
        choices = await player.menu(2)  # speech, now in Czech
        assert "Řeč:" in player.app.lines[-5:], player.app.lines[-5:]
        await player.pick(2)  # the screen reader speaks
        await player.menu(3)  # how much to say
        await player.move("end", 3)
        await player.move("up", 2)  # normal
        await player.press("enter")
        await main_menu(player)
        assert player.app.choices.has_focus
        await player.quit()

    app = run(body, first_start=True)
    saved = (Path(os.environ["COMPANION_CONFIG_DIR"]) / "settings.toml").read_text()
    assert 'language = "cs"' in saved
    assert 'speech = "none"' in saved
    assert 'verbosity = "normal"' in saved
    assert app.return_value == 0


@pytest.mark.slow
def test_letters_typed_in_a_list_go_to_the_answer_line_and_words_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def body(player: Player) -> None:
        choices = await player.menu(4)
        await player.move("down", 2)
        await player.press("h")  # not a number: to the answer line, typed there
        await player.cursor("answer")
        assert player.app.answer.value == "h"
        await player.type("elp", check=True)
        await player.said("Choose 1 to 4:")  # help said, the prompt again
        assert player.heard("Words that work everywhere")
        await player.rests()  # said unprompted: the cursor rests on it
        assert choices.display and choices.index == 1
        await player.press("tab")  # back to the list, still on option 2
        await player.cursor("list")
        assert choices.index == 1
        await player.press("x")
        await player.cursor("answer")
        await player.press("backspace")
        await player.until(lambda: player.app.answer.value == "", "the x deleted")
        await player.press("1", "enter")  # a number typed also chooses
        await player.menu(2)
        await player.press("9")  # not an option: typed, refused, asked again
        await player.cursor("answer")
        assert player.app.answer.value == "9"
        await player.press("enter")
        await player.said("Choose 1 to 2:")
        assert player.heard("9 is not a choice")
        await player.rests()
        await player.press("tab")
        await player.cursor("list")
        await player.press("2")  # a digit in the list chooses at once
        await player.menu(3)
        player.paste("repeat\nignored")  # a paste goes to the answer line too, its first line
        await player.cursor("answer")
        assert player.app.answer.value == "repeat"
        await player.press("enter")
        await player.said("Choose 1 to 3:")
        await player.rests()
        await player.press("tab")
        await player.cursor("list")
        await player.press("1")  # terse
        await main_menu(player)
        mark, given = len(player.app.lines), len(player.given)
        await player.press("enter")  # "1" Enter as in line mode: this Enter is dropped...
        await player.pilot.pause()
        assert player.app.lines[mark:] == [] and player.given[given:] == []
        await player.press("enter")  # ...the next one chooses
        await player.said("you included? 2 to 5:")
        assert player.given[given:] == [Chosen(0)]
        assert player.heard("How many players at the table")
        await player.quit()

    app = run(body, first_start=True)
    saved = (Path(os.environ["COMPANION_CONFIG_DIR"]) / "settings.toml").read_text()
    assert 'language = "en"' in saved and 'verbosity = "terse"' in saved
    assert app.return_value == 0


# -- a practice game ------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [f"deal {n}" for n in range(8)])
def test_the_key_facts_are_on_the_screen_whatever_the_hand_takes(
        seed: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """At a practice game's start the transcript, the reply and the question
    may fill the screen to its last row but one: the key facts still have
    the last row (the room above them takes a row of its own in Textual's
    layout, even when none is left)."""
    monkeypatch.setenv("COMPANION_SEED", seed)  # a hand of two or three rows at 40

    async def body(player: Player) -> None:
        await main_menu(player)
        await player.pick(2)  # practice
        await player.said("you included? 2 to 5:")
        await player.type("2", check=True)
        await player.menu(4)
        await player.press("enter")  # greedy
        await player.menu(5)
        await player.press("1")  # none
        await player.said("Your pick:")
        await player.rests()
        facts = player.app.screen.query_one("#facts", Static)
        assert facts.region.height == 1 and facts.region.bottom == player.app.size.height, (
            facts.region, player.app.size)
        assert player.facts() == "R1 T1, 0 points, 10 cards"

    run(body)


@pytest.mark.slow
def test_a_whole_practice_game_by_keyboard_alone() -> None:
    async def body(player: Player) -> None:
        await main_menu(player)
        await player.pick(2)  # practice
        await player.said("you included? 2 to 5:")  # how many players: a number
        await player.rests()  # the question, under the braille display
        await player.type("2", check=True)
        await player.menu(4)  # opponents, and Back
        await player.press("enter")  # greedy
        await player.menu(5)  # variant, and Back
        await player.press("1")  # none
        await player.said("Your pick:")
        await player.rests()  # the game started: its news on the status line
        assert not player.app.choices.display
        assert player.facts() == "R1 T1, 0 points, 10 cards"
        await player.press("f6")  # my hand
        await player.said("Your pick:")
        assert any(line.startswith("10 cards: ") for line in player.app.lines[-3:])
        await player.rests()
        await player.press("f2")  # repeat
        await player.said("Your pick:")
        await player.press("f5")  # where am I
        await player.said("Your pick:")
        assert player.heard("Round 1, turn 1. Scores: You 0, Bot 1 0.")
        codes = cycle(CODES)
        turns = 0
        while not player.app.lines[-1].endswith("Choose 1 to 6:"):
            early = turns < 3
            await player.type(next(codes), check=early)
            line = await player.said(("Your pick:", "Choose 1 to 6:"))
            if line == "Your pick:":
                if early:
                    await player.rests()
                turns += 1
        assert turns >= 27
        assert "Final scores." in player.app.lines
        assert any(line.startswith(("Winner", "Shared win")) for line in player.app.lines)
        await player.cursor("reply")  # the result at the cursor, the main menu below it
        await player.quit()

    app = run(body)
    assert app.return_value == 0


# -- a table game --------------------------------------------------------------------------------


def codes(cards: Sequence[Card]) -> str:
    return " ".join(short_code(card) for card in cards)


@pytest.mark.slow
def test_a_whole_table_game_with_partial_reveals() -> None:
    """The engine deals a real game; the player types their hand and pick
    every turn and most reveals (the others skipped with an empty line); at
    each round's end some short tables are completed and some kept. The
    final scores are those of what was entered."""
    rng = random.Random(4)
    game = Game(3, rng=random.Random(9))
    names = ("Ana", "Ben", "Cyril")
    entered: list[list[list[Card]]] = []  # per round, per seat, as the app knows it
    doubled = [False, False, False]  # per seat: chopsticks used this round

    async def body(player: Player) -> None:
        await main_menu(player)
        await player.press("1")  # table companion
        await player.said("you included? 2 to 5:")
        await player.type("3", check=True)  # 3 players
        for name in names:
            await player.said("going round the table to the left:")
            await player.rests()
            await player.type(name, check=True)
        await player.menu(4)  # which one am I, and Back
        await player.press("enter")  # Ana
        await player.menu(4)  # variant, and Back
        await player.press("enter")  # none
        line = await player.said(("Choose 1 to 5:", "(an empty line skips):"))
        if line.endswith("5:"):  # where the cards come from
            await player.rests()  # on its title, its first option after it
            await player.press("1")  # typed codes only
        else:
            player.mark -= 1  # the first prompt is already here
        kept = completed = 0
        picks = Picks()
        while not game.over:
            hand_now = game.hand(0)
            events: list[object] = []
            for seat in game.waiting_for():
                events += game.choose(seat, game.legal_choices(seat).sample(rng))
            for number, revealed in enumerate(e for e in events if isinstance(e, Revealed)):
                if revealed.turn == 1:
                    entered.append([[], [], []])
                    doubled[:] = [False, False, False]
                tables = entered[-1]
                # the last turn of a round plays itself: its hand is its one card
                hand = hand_now if number == 0 else revealed.cards[0]
                await player.said("Your hand, card by card (an empty line skips):")
                assert player.facts().startswith(f"R{revealed.round} T{revealed.turn}, ")
                if revealed.turn == 1:
                    await player.rests()
                await player.type(codes(hand), check=revealed.turn == 1)
                await player.said(picks.prompt(revealed.turn))
                await player.type(codes(revealed.cards[0]))
                picks.took(revealed.cards[0])
                for seat in (1, 2):
                    await player.said(f"{names[seat]}'s reveal (an empty line skips):")
                    skip = rng.random() < 0.3
                    await player.type("" if skip else codes(revealed.cards[seat]))
                    if not skip:
                        tables[seat] += revealed.cards[seat]
                    doubled[seat] |= len(revealed.cards[seat]) == 2
                if revealed.turn < 9:
                    continue
                whole = game.finished_rounds[revealed.round - 1]
                short: set[int] = set()
                while True:
                    line = await player.said(("(an empty line keeps it):",
                                              "(an empty line skips):", "Choose 1 to 6:"))
                    if not line.endswith("(an empty line keeps it):"):
                        player.mark -= 1  # the next round's first prompt, or the menu
                        break
                    seat = names.index(line.split("'s whole")[0])
                    # kept only when no chopsticks were used: then the known
                    # cards are the table as the app knows it
                    if not doubled[seat] and kept < 2 and rng.random() < 0.5:
                        kept += 1
                        short.add(seat)
                        await player.type("")
                    else:
                        completed += 1
                        await player.type(codes(whole[seat]))
                for seat in range(3):
                    if seat not in short:
                        tables[seat] = list(whole[seat])
        await player.said("Choose 1 to 6:")
        assert kept and completed, "short tables were both kept and completed"
        expected = score_game(entered)
        text = player.app.lines
        final = text[len(text) - 1 - text[::-1].index("Final scores."):]
        for seat, name in enumerate(names):
            line = f"  {name}: {expected.totals[seat]} point"
            assert any(said.startswith(line) for said in final), (line, final)
        winner = names[expected.winners[0]]
        assert any(said.startswith(("Winner", "Shared win")) and winner in said
                   for said in final), final
        await player.cursor("reply")  # the result at the cursor, the main menu below it
        reply = player.app.reply.text
        assert "Round 3 scores." in reply and "Puddings at the end of the game." in reply
        await player.quit()

    app = run(body)
    assert app.return_value == 0


# -- scoring a finished game ------------------------------------------------------------


def test_scoring_a_finished_game_to_the_winner() -> None:
    async def body(player: Player) -> None:
        await main_menu(player)
        await player.pick(3)  # score a finished game
        for name in ("Ana", "Ben", ""):
            await player.said("when all are in:")
            await player.rests()
            await player.type(name, check=True)
        lines = ["t w3 o2 f", *(line for lines in WHOLE_GAME for line in lines)]
        lines.insert(len(lines) - 1, "banana")
        for cards in lines:  # a short line and a typo: each asked again, alone
            await player.said("in the order played:")
            await player.type(cards)
        await player.menu(2)  # how every point came? (the result is said first)
        final = player.app.lines[player.app.lines.index("Final scores."):]
        assert final[1:4] == ["  Ana: 73 points.", "  Ben: 66 points.", "Winner: Ana."]
        assert ("That is 4 cards; each player has 10 at the end of a round with 2 players. "
                "Type it again.") in player.app.lines
        assert "Ben, round 2, 10 cards: 4 Dumpling, 2 Tempura, 3 Sashimi, Chopsticks." in (
            player.app.lines)
        await player.pick(2)  # yes, round by round
        await main_menu(player)
        lines = player.app.lines
        assert "Puddings at the end of the game." in lines[lines.index("Winner: Ana."):]
        assert any("banana is not a card" in line for line in lines)
        final = lines[lines.index("Final scores."):]
        # Ana: 24 + most maki 6; 8 + most maki 6; 20 + second maki 3; the
        # most puddings +6 = 73. Ben: 14 + 3; 25; 18 + 6 = 66.
        assert final[1:4] == ["  Ana: 73 points.", "  Ben: 66 points.", "Winner: Ana."]
        await player.quit()

    assert run(body).return_value == 0


# -- learning the codes ----------------------------------------------------------------------------


@pytest.mark.slow
def test_learning_the_codes_and_the_drill() -> None:
    english = catalog("en")
    by_name = {card_name(english, card): card for card in CARDS}

    async def body(player: Player) -> None:
        await main_menu(player)
        await player.pick(4)  # learn the codes
        await player.menu(4)  # its three ways, and Back
        await player.press("enter")  # type a card to hear what it is
        await player.said("or an empty line to stop:")
        await player.rests()
        await player.type("w2", check=True)
        await player.said("or an empty line to stop:")
        assert any(line.startswith("Salmon nigiri: Window, middle") for line in
                   player.app.lines[-3:])
        await player.type("w4")
        await player.said("or an empty line to stop:")
        assert player.heard("w4 is not a card")
        await player.type("")
        await main_menu(player)
        await player.press("4")
        await player.menu(4)
        await player.pick(2)  # the drill
        for number, right in enumerate((True, False, True)):
            # how to stop is said with the first card only
            ending = "? An empty line stops." if number == 0 else "?"
            prompt = await player.said(ending)
            await player.rests()
            card = by_name[prompt.removeprefix("Code for ").removesuffix(ending)]
            typed = card if right else next(c for c in WRONG if c is not card)
            await player.type(short_code(typed), check=True)
        assert (await player.said("?")).startswith("Code for ")
        assert player.heard("Right: ") and player.heard("No: ")
        await player.type("")
        await main_menu(player)
        assert "2 right out of 3." in player.app.lines
        await player.quit()

    assert run(body).return_value == 0


# -- resuming a killed game ------------------------------------------------------------------------


def test_a_killed_game_resumes_in_the_full_screen_app() -> None:
    plain = PipedApp(None, "--plain", stderr=subprocess.DEVNULL)
    try:
        plain.answer("Choose 1 to 4:", "1")  # English
        plain.answer("Choose 1 to 2:", "2")  # a screen reader speaks
        plain.answer("Choose 1 to 3:", "2")
        plain.answer("Choose 1 to 6:", "2")  # practice
        plain.answer("2 to 5:", "3")  # 3 players
        plain.answer("Choose 1 to 4:", "2")  # random bots
        plain.answer("Choose 1 to 4:", "1")  # no variant
        codes = cycle(CODES)
        plain.until("Your pick:")
        while "Round 1, turn 3." not in plain.lines:  # all said before the prompt is in
            plain.send(next(codes))
            plain.until("Your pick:")
        plain.send("where")
        plain.until("Your pick:")
        where = next(line for line in reversed(plain.lines) if " Scores: You " in line)
        # the points as they stand, this round's so far included, as the
        # status line says them
        mine = int(re.search(r"Scores: You (-?\d+),", where).group(1))  # type: ignore[union-attr]
        said_points = f"{mine} point" if abs(mine) == 1 else f"{mine} points"
    finally:
        os.kill(plain.process.pid, signal.SIGKILL)
        plain.process.wait(timeout=10)
    assert plain.process.returncode == -signal.SIGKILL

    async def body(player: Player) -> None:
        await player.menu(4)  # an unfinished game: resume it, not now, throw it away, or Back?
        assert player.heard("An unfinished practice game was found.")
        await player.press("enter")
        await player.said("Your pick:")
        await player.rests()
        assert player.heard("Round 1, turn 3."), player.app.lines
        assert player.facts() == f"R1 T3, {said_points}, 7 cards"
        await player.press("f5")  # where am I: the same as before the kill
        await player.said("Your pick:")
        assert where in player.app.lines
        await player.rests()
        await player.press("f9")  # undo
        await player.said("Your pick:")
        assert player.heard("Your last pick is taken back.")
        assert player.app.lines[-3] == "Round 1, turn 2.", player.app.lines[-4:]
        assert re.fullmatch(r"R1 T2, -?\d+ points?, 8 cards", player.facts()), player.facts()
        await player.rests()
        for code in CODES:  # the game goes on from there
            await player.type(code, check=True)
            await player.said("Your pick:")
            if not player.facts().startswith("R1 T2, "):
                break
        assert re.fullmatch(r"R1 T3, -?\d+ points?, 7 cards", player.facts()), player.facts()
        await player.quit()

    assert run(body).return_value == 0


def transcript(app: CompanionApp) -> list[str]:
    return [row.rstrip() for row in app.transcript.lines]


def test_a_menus_options_are_shown_once_in_its_list_and_the_choice_kept() -> None:
    """A screen reader reads new text: the options are in the list, not a
    second time in the transcript; once chosen, the transcript keeps the
    menu's rows where they were, and the choice under them."""
    async def body(player: Player) -> None:
        await main_menu(player)
        shown = transcript(player.app)
        # the title right above its first option, not in the transcript yet
        title = player.app.screen.query_one("#title", Rows)
        assert title.text == "Main menu."
        assert title.region.bottom == player.app.choices.region.y
        assert "Main menu." not in shown
        assert not any(line.startswith(("1. Table", "2. Practice")) for line in shown)
        assert "2. Practice game against bots." in player.app.lines  # said all the same
        await player.pick(4)  # learn the codes
        await player.menu(4)  # its three ways, and Back
        # the menu as it was shown and the choice, kept (the screen may have
        # started again from the top)
        entries = player.app.transcript.entries
        assert entries[-9] == "Main menu." and entries[-8].startswith("1. Table"), entries
        assert [entry.rstrip() for entry in entries[-2:]] == [
            "Choose 1 to 6:", "Chosen: 4. Learn the codes."], entries
        shown = transcript(player.app)
        assert not any(line.startswith("1. Type or scan") for line in shown)
        await player.quit()

    app = run(body)
    assert app.return_value == 0


def screen_rows(app: CompanionApp) -> list[str]:
    """The screen's rows as the app last drew them."""
    return ["".join(character for character, _style in row).rstrip() for row in app.cells.rows]


def _typed(answer: Input, count: int) -> bool:
    return len(answer.value) == count


def test_at_80_columns_typing_keeps_to_a_braille_window_beside_the_prompt() -> None:
    """A long question at 80 columns (a player's name, going round the
    table): its prompt wraps within 60% of 40 cells and the answer is typed
    beside its first row; however long the answer, the cursor stays in the
    first 40 cells, the answer scrolling in its room. (The answer began at
    column 52: a braille display's window followed the cursor past column
    40, into empty cells, a blank display for that key, the prompt out of
    it until the answer was sent.)"""
    async def body(player: Player) -> None:
        await main_menu(player)
        await player.press("1")  # the table companion
        await player.said("you included? 2 to 5:")
        await player.rests()
        player.send("2", "enter")
        await player.said("to the left:")
        await player.rests()
        rows = screen_rows(player.app)
        first = next(at for at, row in enumerate(rows) if row.startswith("Player 1's name"))
        assert max(len(row) for row in rows[first:first + 3]) <= WINDOW * 6 // 10, rows
        answer = player.app.answer
        name = "Marguerite-Annabelle de la Tour du Pin"
        for count, key in enumerate(name, 1):
            player.send(key)
            await player.until(partial(_typed, answer, count), "typed")
            await player.pilot.pause()
            x, y = player.app.cursor_position
            assert x < WINDOW and y == first, (count, x, y, screen_rows(player.app))
        assert screen_rows(player.app)[first].startswith("Player 1's name")
        await player.quit()

    run(body, size=(80, 25))


def test_a_question_in_rows_stays_in_those_rows_once_answered() -> None:
    """A question shown in two rows, the answer typed beside the first, goes
    into the transcript in those very rows: a console screen reader,
    comparing the screen before and after, finds them old, and takes none
    of the next question's rows (the same "An empty line stops." at 40
    columns) for old ones. (Put in one line, the old rows were gone, and
    the next question's row equal to one of them went unsaid.)"""
    async def body(player: Player) -> None:
        await main_menu(player)
        await player.press("4")
        await player.menu(4)
        await player.pick(2)  # the drill
        await player.said("? An empty line stops.")
        await player.rests()
        player.send(*"zz")
        answer = player.app.answer
        await player.until(lambda: answer.value == "zz", "zz typed")
        await player.until(lambda: any(row.endswith("zz") for row in screen_rows(player.app)),
                           "zz shown")
        rows = screen_rows(player.app)
        first = next(at for at, row in enumerate(rows) if row.endswith("zz"))
        asked = rows[first:first + 2]
        assert asked[0].startswith("Code for ") and asked[1] == "An empty line stops.", rows
        await player.press("enter")
        await player.said("? An empty line stops.")  # refused, the same card asked again
        await player.rests()
        after = screen_rows(player.app)
        found = [at for at in range(len(after) - 1) if after[at:at + 2] == asked]
        assert found, (asked, after)
        assert after[found[0] + 2].startswith("zz is not a card"), after
        await player.quit()

    run(body)


def test_a_menu_answered_stays_in_the_rows_it_was_shown_in() -> None:
    """A menu taller than its room (the settings' seven options at 40x15,
    six rows for the list) goes into the transcript as it was shown: its
    title, the options in view, its prompt, then the choice in a sentence.
    The next menu's same rows (its prompt, "Back.") are then not taken for
    old ones by a screen reader comparing the screens, nor the options out
    of view said as new."""
    async def body(player: Player) -> None:
        await main_menu(player)
        await player.press("5")
        await player.menu(7)  # the settings
        await player.rests()
        rows = screen_rows(player.app)
        title = player.app.screen.query_one("#title", Rows).region.y
        prompt = player.app.screen.query_one("#prompt", Prompt).region.y
        shown = rows[title:prompt + 1]
        assert shown[0] == "Settings:" and shown[-1] == "Choose 1 to 7:", rows
        assert "7. Back." not in shown and len(shown) == 8, shown  # the list cut at six rows
        await player.press("2")  # speech: a menu of its own
        await player.said("Choose 1 to 3:")
        await player.rests()
        after = screen_rows(player.app)
        # above the choice, the rows as they were (the last of them, when the
        # screen started again from the top)
        chosen = after.index("Chosen: 2. Speech.")
        kept = min(chosen, len(shown))
        assert kept >= 2 and after[chosen - kept:chosen] == shown[-kept:], (shown, after)
        await player.quit()

    run(body)


def test_the_transcript_stays_in_place_and_starts_again_from_the_top() -> None:
    """A console screen reader reads rows that moved as new: the transcript
    is drawn from the top down, as tall as its rows, a row staying where it
    was drawn as lines are added below it; when there is no room, it starts
    again from the top (forget), and a row gone never comes back."""

    class Host(App[None]):
        CSS = "#below { height: 4; }"

        def compose(self) -> ComposeResult:
            yield Transcript(id="transcript")
            yield Static("below", id="below")

    async def main() -> None:
        app = Host()
        async with app.run_test(size=(30, 10)) as pilot:
            transcript = app.query_one(Transcript)
            below = app.query_one("#below")
            for number in range(1, 4):
                transcript.write(f"Line {number}.")
            await pilot.pause()
            assert transcript.view() == ["Line 1.", "Line 2.", "Line 3."]
            assert below.region.y == 3  # right below its rows
            transcript.write("A long line that wraps over two rows here.")
            await pilot.pause()
            assert transcript.view() == ["Line 1.", "Line 2.", "Line 3.",
                                         "A long line that wraps over", "two rows here."]
            transcript.forget()  # no room: from the top again
            await pilot.pause()
            assert transcript.content_rows(30) == 0 and below.region.y == 0
            transcript.write("Line 5.")
            await pilot.pause()
            assert transcript.view() == ["Line 5."]  # the rows before never come back
            assert transcript.entries[:2] == ["Line 1.", "Line 2."]  # kept all the same
            for number in range(6, 9):
                transcript.write(f"Line {number}.")
            transcript.write("A long line that wraps over two rows here.")
            await pilot.pause()
            transcript.forget(3)  # from the top, its last three rows first
            await pilot.pause()
            assert transcript.view() == ["Line 8.", "A long line that wraps over",
                                         "two rows here."]
            assert below.region.y == 3
            transcript.forget(9)  # more than it shows: all kept
            await pilot.pause()
            assert transcript.content_rows(30) == 3
            transcript.forget(0)
            await pilot.pause()
            assert transcript.content_rows(30) == 0

    asyncio.run(main())


def test_an_update_that_draws_what_is_shown_is_not_written() -> None:
    """The same screen drawn again (however Textual cuts it into segments)
    is not written: the cursor would run through every row meanwhile."""
    size = Size(6, 2)
    cells = Cells()
    whole = LayoutUpdate([[Strip([Segment("Ann: 3")])], [Strip([Segment("Ben   ")])]],
                         Region(0, 0, 6, 2))
    assert cells.draw(whole, size, Offset(0, 1))
    again = LayoutUpdate([[Strip([Segment("Ann"), Segment(": 3")])],
                          [Strip([Segment("Be"), Segment("n   ")])]], Region(0, 0, 6, 2))
    assert not cells.draw(again, size, Offset(0, 1))
    assert cells.draw(again, size, Offset(0, 0)), "the cursor moved"
    same_chop = ChopsUpdate([{0: Strip([Segment("Ann")])}, {}], [(0, 0, 3)], [[3], []])
    assert not cells.draw(same_chop, size, Offset(0, 0))
    new_chop = ChopsUpdate([{}, {0: Strip([Segment("Bea")])}], [(1, 0, 3)], [[], [3]])
    assert cells.draw(new_chop, size, Offset(0, 0))
    cells.reset()
    assert cells.draw(again, size, Offset(0, 0)), "after a reset, all is drawn"
