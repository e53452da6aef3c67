"""The web face in a real browser (Debian's Chromium, headless, through
Playwright), driven by the keyboard alone (Tab, Enter, typing) with
JavaScript on and off, every journey of both games; after every answer the
page is read as a screen reader reads it (:func:`heard`): the question
focused with its name, the reply said once (in the live region with the
script on, as the question's description with it off), axe-core's WCAG
2.2 AA rules with no violation. And the page at 320 CSS pixels (400% zoom
of a 1280-pixel window) without horizontal scrolling, its targets 44
pixels at least."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from companion.games.sushigo.cards import Card
from companion.games.sushigo.plugin import PLUGIN as VOCABULARY
from firmware_bridge.registry import demo_uid
from firmware_bridge.virtual import VirtualScanner
from tests.browser import Focused, Player, Served, chromium
from tests.drivers import GOOD_SETTINGS, WHOLE_GAME

pytestmark = pytest.mark.system

#: Moves of a Mici Maki practice game, at most (16 to 30 in games tried).
MICI_MOVES = 120
SCRIPT = pytest.mark.parametrize("script", [True, False], ids=["script on", "script off"])


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as running:
        yield running


def _home(tmp_path: Path, *, settings: str | None = GOOD_SETTINGS) -> Path:
    if settings is not None:
        (tmp_path / "config").mkdir()
        (tmp_path / "config" / "settings.toml").write_text(settings, encoding="utf-8")
    return tmp_path


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    server = Served(_home(tmp_path))
    try:
        yield server
    finally:
        server.stop()


def heard(player: Player, *, loaded: bool = False) -> None:
    """The page as a screen reader meets it now: focus on the question,
    named by it; each sentence exposed once, the reply where it is said
    once; no WCAG 2.2 AA violation. ``loaded``: a page just loaded (with
    the script on too, its question is described by the reply)."""
    focused = player.focused()
    question = player.question()
    assert question, player.page.url
    assert focused.name == question, (focused, question)
    assert focused.role in ("group", "textbox"), focused
    page = player.page
    ids = page.eval_on_selector_all("p.said", "ps => ps.map(p => p.id)")
    assert len(ids) == len(set(ids)), ids  # no sentence twice
    assert all(page.eval_on_selector_all("p.said", "ps => ps.map(p => !!p.lang)")), (
        "a sentence without its language")
    reply = player.reply()
    if player.script:
        assert page.get_attribute("#reply", "aria-live") == "polite"
    if player.script and not loaded:
        assert focused.description == "", focused  # the live region says the reply
    elif reply:
        assert focused.description.startswith(reply[0]), (focused, reply)
    assert page.get_attribute("#log", "role") == "log"
    assert player.violations() == []


def first_start(player: Player) -> None:
    heard(player)
    assert player.question() == "Language / Langue / Jazyk / Язык:"
    player.choose(1)  # English
    heard(player)
    player.choose(2)  # the screen reader speaks
    heard(player)
    player.choose(2)  # normal
    heard(player)
    assert player.question() == "Main menu."
    assert player.reply()[0] == "Settings saved. Change them any time from the menu."


def practice_to_the_end(player: Player) -> None:
    player.choose(2)  # practice
    heard(player)
    player.type("2")
    heard(player)
    player.choose(1)  # greedy bots
    heard(player)
    player.choose(1)  # no variant
    heard(player)
    assert player.reply()[0] == "Practice game: You, Bot 1."
    while player.question().startswith("Your pick"):
        player.pick()
        heard(player)
    said = player.said()
    assert "Final scores." in said, said[-12:]
    assert player.question() == "Main menu."


@SCRIPT
def test_sushi_go_first_start_codes_practice_and_quit_by_keyboard(
        browser: Browser, tmp_path: Path, script: bool) -> None:
    served = Served(_home(tmp_path, settings=None))
    player = Player(browser, served.address, script=script)
    try:
        first_start(player)
        player.choose(4)  # learn the codes
        heard(player)
        player.choose(1)  # identify cards
        heard(player)
        player.type("w2")
        heard(player)
        assert player.reply() == ["Salmon nigiri: Window, middle, 2 points, 6 on wasabi. "
                                  "Code w2."]
        player.type("zz")
        heard(player)
        assert player.refused()
        player.word("Help")
        heard(player)
        assert player.reply()[0].startswith("Type a card:")
        player.word("Repeat")
        heard(player)
        player.type("")  # an empty line stops
        heard(player)
        assert player.question() == "Main menu."
        player.choose(4)
        heard(player)
        player.word("Menu")
        heard(player)
        assert player.question() == "Main menu."
        practice_to_the_end(player)
        player.choose(6)  # quit
        assert player.page.locator("#stopped").inner_text().startswith(
            "The companion has stopped.")
        assert player.focused().name.startswith("The companion has stopped.")
        assert "Goodbye." in player.reply()
        assert served.wait() == 0
        if script:  # the same page all along: nothing reloaded
            assert player.page.evaluate("window.stillHere") is True
    finally:
        player.close()
        served.stop()


@SCRIPT
def test_the_table_companion_and_a_name_with_markup(
        browser: Browser, served: Served, script: bool) -> None:
    player = Player(browser, served.address, script=script)
    try:
        player.choose(1)  # the table companion
        heard(player)
        assert player.question() == "Who enters the cards?"
        player.choose(1)  # I do, on this device
        heard(player)
        player.type("2")
        heard(player)
        player.type("<b>Ana</b>")
        heard(player)
        player.type("Ben")
        heard(player)
        assert "<b>" not in player.page.content().replace("&lt;b&gt;", "")
        player.choose(1)  # I am Ana
        heard(player)
        player.choose(1)  # no variant
        heard(player)
        player.choose(1)  # typed codes
        heard(player)
        assert player.question() == "Your hand, card by card (an empty line skips):"
        player.type("p t s x q o1 w1 f s x")
        heard(player)
        assert player.reply()[0].startswith("10 cards: Wasabi, 2 Dumpling")
        assert player.question() == "Your pick:"
        player.type("p")
        heard(player)
        assert player.question() == "Ben's reveal (an empty line skips):"
        player.word("Where")
        heard(player)
        player.word("Undo")
        heard(player)
        player.word("Menu")
        heard(player)
        assert "The game is saved: the same choice in the menu resumes it." in player.reply()
    finally:
        player.close()


@SCRIPT
def test_scoring_a_finished_game_every_point_explained(
        browser: Browser, served: Served, script: bool) -> None:
    player = Player(browser, served.address, script=script)
    try:
        player.choose(3)  # score a finished game
        heard(player)
        for name in ("Ana", "Ben", ""):
            player.type(name)
            heard(player)
        player.type("t w3 o2 f")  # 4 cards: refused, asked again
        heard(player)
        assert player.refused()
        for lines in WHOLE_GAME:
            for line in lines:
                assert player.question().endswith("cards, in the order played:")
                player.type(line)
                heard(player)
        said = player.said()
        assert "Final scores." in said, said[-10:]
        assert any(line.startswith("Ana: 73 points") for line in said), said
    finally:
        player.close()


@SCRIPT
def test_settings_in_french_put_the_language_on_the_page_and_every_sentence(
        browser: Browser, served: Served, script: bool) -> None:
    player = Player(browser, served.address, script=script)
    try:
        player.choose(5)  # settings
        heard(player)
        options = player.options()
        player.choose(next(i for i, o in enumerate(options, 1) if "Language" in o))
        heard(player)
        player.choose(2)  # Français
        heard(player)
        page = player.page
        assert page.get_attribute("html", "lang") == "fr"
        langs = page.eval_on_selector_all("#reply p.said", "ps => ps.map(p => p.lang)")
        assert langs and set(langs) == {"fr"}, langs
        player.word("Menu")
        heard(player)
        assert player.question() == "Menu principal."
        assert page.title().startswith("Menu principal.")
    finally:
        player.close()


@SCRIPT
def test_mici_maki_practice_to_its_end(browser: Browser, tmp_path: Path, script: bool) -> None:
    served = Served(_home(tmp_path, settings=GOOD_SETTINGS + 'game = "mici-maki"\n'))
    player = Player(browser, served.address, script=script)
    try:
        heard(player)
        player.choose(2)  # practice
        heard(player)
        for _ in range(MICI_MOVES):
            if player.question().startswith("Main menu"):
                break
            question = player.question()
            if player.focused().role == "group":
                player.choose(1)
            elif question.endswith("3 to 7:"):
                player.type("3")
            else:
                player.type(mici_move(player))
            heard(player)
        assert player.question() == "Main menu, Mici Maki.", player.said()[-8:]
        assert any(line.startswith("Game over") for line in player.said()), player.said()[-8:]
    finally:
        player.close()
        served.stop()


@SCRIPT
def test_a_mici_maki_table_of_three(browser: Browser, tmp_path: Path, script: bool) -> None:
    served = Served(_home(tmp_path, settings=GOOD_SETTINGS + 'game = "mici-maki"\n'))
    player = Player(browser, served.address, script=script)
    try:
        player.choose(1)  # the table companion
        heard(player)
        assert player.question() == "Who enters the cards?"
        player.choose(1)  # I do, on this device
        heard(player)
        for typed in ("3", "Ann", "Ben", "Cy"):
            player.type(typed)
            heard(player)
        for _ in range(4):  # I am Ann, Ann starts, the usual action cards, typed codes
            player.choose(1)
            heard(player)
        assert player.question().startswith("Your 5 cards")
        player.type("5 5 3 9 c")
        heard(player)
        assert player.refused() and player.reply()[0].startswith("9: food cards are")
        player.type("5 5 3 p c")
        heard(player)
        assert player.reply()[0].startswith("Your hand, 5 cards")
        player.type("5")  # a pile started
        heard(player)
        assert player.question() == "Ben's move: a card, a pair, or eat:"
        player.type("6")  # refused: the food in play is 5
        heard(player)
        assert player.refused()
        player.word("Risk")
        heard(player)
        player.word("Undo")
        heard(player)
        assert player.reply()[0].startswith("Taken back")
        for typed in ("5", "5", "eat", "4"):  # the pile again, Ben serves, Cy eats, a pile
            player.type(typed)
            heard(player)
        assert player.question().startswith("Your move")
        player.type("eat 2 3 x 5")  # an overeating card among them
        heard(player)
        assert player.question() == "Add one more?" or player.focused().role == "group"
        player.choose(1)  # no more
        heard(player)
        player.word("Menu")
        heard(player)
        assert player.question() == "Main menu, Mici Maki."
    finally:
        player.close()
        served.stop()


def mici_move(player: Player) -> str:
    """A Mici Maki move for the question open: a pile started with the
    hand's highest food, else eat."""
    if not player.question().startswith("Start"):
        return "eat"
    said = " ".join(player.said())
    values = re.findall(r"Food (\d)", said[said.rfind("Your hand"):])
    return max(values) if values else "2"


@pytest.mark.parametrize("width", [320])
def test_at_320_pixels_nothing_scrolls_sideways_and_every_target_is_44_pixels(
        browser: Browser, served: Served, width: int) -> None:
    player = Player(browser, served.address, width=width, height=640)
    try:
        steps: list[Callable[[], None]] = [
            lambda: None, lambda: player.choose(4), lambda: player.choose(1),
            lambda: player.type("a very long code that is not a card at all " * 3)]
        for step in steps:
            step()
            assert player.horizontal_scroll() <= 0
            sizes = player.page.eval_on_selector_all(
                "button, input[type=text]",
                "es => es.map(e => [e.getBoundingClientRect().width,"
                " e.getBoundingClientRect().height])")
            assert sizes and all(w >= 44 and h >= 44 for w, h in sizes), sizes
    finally:
        player.close()


@pytest.mark.parametrize("media", [{"color_scheme": "dark"}, {"forced_colors": "active"},
                                   {"reduced_motion": "reduce"}],
                         ids=["dark", "forced colours", "reduced motion"])
def test_dark_mode_forced_colours_and_reduced_motion_keep_every_rule(
        browser: Browser, served: Served, media: dict[str, str]) -> None:
    player = Player(browser, served.address)
    try:
        player.page.emulate_media(**media)  # type: ignore[arg-type]
        assert player.violations() == []
        player.choose(4)
        player.choose(1)
        player.type("zz")  # a warning, in its colour
        assert player.refused()
        assert player.violations() == []
        animated = player.page.eval_on_selector_all(
            "*", "es => es.filter(e => getComputedStyle(e).animationName !== 'none'"
                 " || parseFloat(getComputedStyle(e).transitionDuration) > 0).length")
        assert animated == 0
    finally:
        player.close()


def test_a_second_window_follows_live_and_a_stale_one_sends_nothing(
        browser: Browser, served: Served) -> None:
    first = Player(browser, served.address)
    second = Player(browser, served.address)
    stale = Player(browser, served.address, script=False)
    try:
        first.choose(4)  # Learn the codes, in the first window
        # the second sees it without a reload, its focus on the new question
        second.page.wait_for_function(
            "() => (document.getElementById('question-label') || {}).textContent"
            " === 'Learn the codes:'")
        assert second.page.evaluate("window.stillHere") is True
        # the page without the script still shows the main menu: its answer is refused
        assert stale.question() == "Main menu."
        stale.choose(5)
        assert stale.reply() == ["This page was out of date: nothing was sent. "
                                 "The question now is below."]
        assert stale.question() == "Learn the codes:"
        heard(stale)
    finally:
        for player in (first, second, stale):
            player.close()


def test_a_card_scanned_on_the_host_reaches_the_page_without_a_reload(
        browser: Browser, tmp_path: Path) -> None:
    board = VirtualScanner()
    served = Served(_home(tmp_path), "--scanner", board.path)
    player = Player(browser, served.address)
    try:
        player.choose(4)
        player.choose(1)  # identify cards
        heard(player)
        board.scan(demo_uid(VOCABULARY, Card.SALMON.id, 0))
        player.page.wait_for_function(
            "() => [...document.querySelectorAll('#reply p')]"
            ".some(p => p.textContent.startsWith('Salmon nigiri:'))")
        assert player.reply() == ["Salmon nigiri: Window, middle, 2 points, 6 on wasabi. "
                                  "Code w2."]
        assert player.page.evaluate("window.stillHere") is True
        assert player.focused().name == "A code or a scan, or an empty line to stop:"
    finally:
        player.close()
        served.stop()
        board.close()


#: A shared table's seats, and each one's hand of the first turn and pick.
SEATS = {
    "Ann": ("x x x q q t w1 w1 w1", "t"),  # her pick: Wasabi
    "Ben": ("s s s s f f f o1 o1", "f"),  # Pudding
    "Cy": ("w2 w2 w2 p p p o2 o2 o3", "p"),  # Chopsticks
}


@SCRIPT
def test_a_shared_table_of_three_devices_each_seat_its_own_hand(
        browser: Browser, tmp_path: Path, script: bool) -> None:
    """The host sets the table up; three browsers join from the QR code's
    address and take their seats; each enters its own hand and pick, and
    no other page shows them until the reveal, which reaches every seat
    (with the script on, without a reload); a fourth browser without the
    code gets nothing; a seat whose page is lost comes back where it was."""
    served = Served(_home(tmp_path), "--table")
    host = Player(browser, served.address)
    seats: dict[str, Player] = {}
    try:
        heard(host)
        for typed in ("3", *SEATS):
            host.type(typed)
            heard(host)
        host.choose(1)  # no variant
        heard(host)
        assert host.question() == "The shared table:"
        join = host.page.get_attribute("#join-address", "href")
        assert join is not None and "/join?code=" in join
        assert host.page.get_attribute("#join-qr", "alt") == (
            "QR code of the address, with the code in it")
        for name in SEATS:
            seat = Player(browser, join, script=script)  # the QR code opens the seats
            assert seat.focused() == Focused("group", "Which one are you?", "")
            assert seat.violations() == []
            seat.join(name)
            heard(seat, loaded=True)
            assert seat.question().startswith("Your hand"), seat.said()
            seats[name] = seat
        # the host's page (its script on) told of each seat where it is: the
        # seats drawn again, the news in the log, its question and focus kept
        host.page.wait_for_function(
            "() => document.getElementById('seats').textContent.includes('Cy: on a device.')")
        assert host.page.evaluate("window.stillHere")
        assert host.focused() == Focused("group", "The shared table:", "")
        assert [line for line in host.log() if "took a seat" in line] == [
            "Ann took a seat.", "Ben took a seat.", "Cy took a seat."]
        hand_said = ""
        for name, (hand, pick) in SEATS.items():
            seats[name].type(hand)
            heard(seats[name])
            hand_said = hand_said or seats["Ann"].reply()[0]
            seats[name].type(pick)
            heard(seats[name])
            if name != "Cy":  # before the reveal: this pick on no other page
                assert seats[name].question().startswith("Waiting for"), seats[name].question()
                picked = {"Ann": "Wasabi", "Ben": "Pudding"}[name]
                for other in (*seats.values(), host):
                    if other is not seats[name]:
                        assert picked not in other.page.inner_text("body"), name
        assert hand_said.startswith("9 cards: Wasabi")
        for name in ("Ann", "Ben"):  # the reveal: live with the script, or by Enter
            seat = seats[name]
            if script:
                seat.page.wait_for_function(
                    "() => document.getElementById('question-label').textContent"
                    ".startsWith('Your hand')")
                assert seat.page.evaluate("window.stillHere")  # not reloaded
            else:
                seat.type("")
            heard(seat)
        for name, seat in seats.items():
            said = seat.said()
            assert any(line.startswith("Ann: Wasabi") for line in said), (name, said)
            assert any(line.startswith("Cy: Chopsticks") for line in said), (name, said)
            assert seat.question().startswith("Your hand, card by card"), seat.question()
        for other in (seats["Ben"], seats["Cy"], host):
            assert hand_said not in other.page.inner_text("body")
        host.page.wait_for_function(
            "() => document.getElementById('log').textContent.includes('Cy: Chopsticks')")
        assert host.focused() == Focused("group", "The shared table:", "")
        heard(host)
        # a fourth browser, without the code: nothing of the game
        visitor = Player(browser, served.address + "seat/", script=script)
        assert visitor.focused().role == "textbox"
        assert visitor.question() == "The table's code (the host's page shows it):"

        def wrong_code() -> None:
            visitor.page.keyboard.type("AAAA-AAAA-AA")
            visitor.page.keyboard.press("Enter")
        visitor.navigate(wrong_code)
        text = visitor.page.inner_text("body")
        assert "not this table's code" in text and "Ann" not in text and "Wasabi" not in text
        assert visitor.violations() == []
        visitor.close()
        # Ben's page lost (the phone locked, the tab closed): opened again, where he was
        seats["Ben"].reopen(served.address + "seat/")
        heard(seats["Ben"], loaded=True)
        assert seats["Ben"].question().startswith("Your hand, card by card")
        # Cy's phone lost: the host frees her seat; the old page is told, and
        # Cy takes her seat again from another browser, where she was
        host.press("Free Cy's seat (a lost device)")
        heard(host, loaded=True)
        assert host.reply()[0].startswith("The seat is free"), host.reply()
        assert "Cy: no device yet." in host.page.inner_text("#seats")
        if script:
            seats["Cy"].page.wait_for_selector("#lost")
            assert seats["Cy"].focused().name.startswith("This device holds no seat")
        seats["Cy"].close()
        seats["Cy"] = Player(browser, join, script=script)
        seats["Cy"].join("Cy")
        heard(seats["Cy"], loaded=True)
        assert seats["Cy"].question().startswith("Your hand, card by card")
        host.choose(2)  # end the table
        heard(host)
        host.choose(2)  # yes
        heard(host)
        assert host.question() == "Main menu."
        assert any("The table is ended" in line for line in host.said())
    finally:
        for seat in seats.values():
            seat.close()
        host.close()
        served.stop()


#: A Mici Maki shared table's seats: each one's dealt hand, as typed.
DEALT = {"Ann": "2 2 3 p r", "Ben": "4 4 5 c 7", "Cy": "6 6 6 3 5"}


def _live(player: Player, label: str) -> None:
    """A seat whose question another seat's move changed: with the script
    on, it changes by itself (the page not reloaded); without, the next
    Enter brings it."""
    if player.script:
        player.page.wait_for_function(
            "label => document.getElementById('question-label').textContent"
            ".trim().startsWith(label)", arg=label)
        assert player.page.evaluate("window.stillHere")
    else:
        player.type("")
    heard(player)
    assert player.question().startswith(label), player.question()


@SCRIPT
def test_a_mici_maki_table_shared_by_three_devices(
        browser: Browser, tmp_path: Path, script: bool) -> None:
    """Three browsers take the seats of a Mici Maki table; each enters its
    dealt hand (on no other page) and, on its turn, its own move; every
    other seat and the host hear it; the cards an eat turns up are shown
    to all; a move taken back is taken back on every page."""
    served = Served(_home(tmp_path, settings=GOOD_SETTINGS + 'game = "mici-maki"\n'),
                    "--table")
    host = Player(browser, served.address)
    seats: dict[str, Player] = {}
    try:
        heard(host)
        assert host.question() == "How many players at the table, each with a device? 3 to 7:"
        for typed in ("3", *DEALT):
            host.type(typed)
            heard(host)
        host.choose(1)  # Ann starts
        heard(host)
        host.choose(1)  # the usual action cards
        heard(host)
        assert host.question() == "The shared table:"
        join = host.page.get_attribute("#join-address", "href")
        assert join is not None
        hands: dict[str, str] = {}
        for name, hand in DEALT.items():
            seat = Player(browser, join, script=script)
            seat.join(name)
            heard(seat, loaded=True)
            assert seat.question() == "Your 5 cards as dealt, card by card:"
            seat.type(hand)
            heard(seat)
            hands[name] = seat.reply()[0]
            assert hands[name].startswith("Your hand, 5 cards")
            seats[name] = seat
        for name, said in hands.items():
            for other in (*seats.values(), host):
                assert (said in other.page.inner_text("body")) == (other is seats[name])
        ann, ben, cy = seats["Ann"], seats["Ben"], seats["Cy"]
        assert ann.question() == "Start a pile with a food card:"  # (hers to start)
        assert ben.question() == "Waiting for Ann to play. A word, or Enter:"
        ann.type("2")
        heard(ann)
        assert ann.reply()[0] == "You: start a pile with Food 2."
        _live(ben, "Your move: a card, a pair, or eat:")
        assert "Ann: starts a pile with Food 2." in ben.log()
        _live(cy, "Waiting for Ben to play")
        assert "Ann: starts a pile with Food 2." in cy.log()
        ben.type("eat 6 7")  # the cards turned up, for all to see
        heard(ben)
        assert ben.reply()[0] == "You: eat 2 cards, no overeating: Food 6, Food 7."
        eaten = "Ben: eats 2 cards, no overeating: Food 6, Food 7."
        host.page.wait_for_function(
            "said => document.getElementById('log').textContent.includes(said)", arg=eaten)
        assert host.focused() == Focused("group", "The shared table:", "")
        ben.word("Undo")  # taken back on every page, before Cy moves
        heard(ben)
        assert ben.reply()[0] == "Taken back: Ben's last entry."
        assert ben.question() == "Your move: a card, a pair, or eat:"
        if script:
            cy.page.wait_for_function(
                "() => document.getElementById('log').textContent"
                ".includes(\"Taken back: Ben's last entry.\")")
        else:
            cy.type("")
            heard(cy)
        assert "Taken back: Ben's last entry." in cy.log()
        ben.type("eat 6 7")
        heard(ben)
        ben.type("4")
        heard(ben)
        assert ben.reply()[0] == "You: start a pile with Food 4."
        _live(cy, "Your move: a card, a pair, or eat:")
        assert eaten in cy.log() and "Ben: starts a pile with Food 4." in cy.log()
        host.page.wait_for_function(
            "() => document.getElementById('log').textContent.includes('Ben: starts a pile')")
        assert host.focused() == Focused("group", "The shared table:", "")
        heard(host)
        host.choose(2)  # end the table
        heard(host)
        host.choose(2)  # yes
        heard(host)
        assert host.question() == "Main menu, Mici Maki."
    finally:
        for seat in seats.values():
            seat.close()
        host.close()
        served.stop()
