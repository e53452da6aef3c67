"""A Sushi Go! table shared between devices (``companion web --table``),
over plain HTTP as browsers with JavaScript off send it, each seat a
device of its own (its cookies): the host sets the table up and its page
shows how to join; three seats join with the code; each seat's pages
carry its own hand and pick and nothing of another seat's until the
reveal; a visitor without the code gets nothing; a seat's device comes
back to where it was; a lost device's seat is freed by the host and taken
again elsewhere, where it was."""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.faces.web.server import LOST
from tests.drivers import GOOD_SETTINGS, app_environment
from tests.webclient import Client, Served, Shown, read

NAMES = ("Ann", "Ben", "Cy")
#: Each seat's hand of the first turn (nine cards for three players), and its pick.
HANDS = {
    "Ann": ("x x x q q t w1 w1 w1", "t"),  # Wasabi
    "Ben": ("s s s s f f f o1 o1", "f"),  # Pudding
    "Cy": ("w2 w2 w2 p p p o2 o2 o3", "p"),  # Chopsticks
}


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Served, Client, str]]:
    """The server, the host's client, and the table's join code."""
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.toml").write_text(GOOD_SETTINGS, encoding="utf-8")
    served = Served(tmp_path, "--table")
    try:
        host = Client(served.address)
        assert host.page().question.startswith("How many players at the table")
        host.answer("3")
        for name in NAMES:
            host.answer(name)
        shown = host.choose(1)  # no variant
        assert shown.question == "The shared table:", shown.question
        found = re.search(r'id="join-code"[^>]*>([A-Z0-9-]+)<', shown.html)
        assert found is not None, shown.html
        yield served, host, found.group(1)
    finally:
        served.stop()


def seated(served: Served, code: str) -> dict[str, Client]:
    seats = {}
    for name in NAMES:
        seats[name] = Client(served.address)
        first = seats[name].join(code, name)
        assert first.question.startswith("Your hand"), (name, first.question, first.reply)
        assert first.language == "en"
    return seats


def test_the_host_page_says_how_to_join_in_words_and_a_qr_code(
        table: tuple[Served, Client, str]) -> None:
    _served, host, code = table
    page = host.page().html
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{2}", code)
    assert f"/join?code={code.replace('-', '')}" in page
    assert 'id="join-qr" src="data:image/svg+xml;base64,' in page
    assert 'alt="QR code of the address, with the code in it"' in page
    assert "Ann: no device yet." in page
    assert "Only this computer reaches this address" in page  # (no --lan)
    said = " ".join(host.page().log + host.page().reply)
    assert code in said  # said too, for the host's screen reader or speech


def test_each_seat_sees_only_its_own_hand_and_pick_until_the_reveal(
        table: tuple[Served, Client, str]) -> None:
    served, host, code = table
    seats = seated(served, code)
    ann = seats["Ann"]
    shown = ann.answer(HANDS["Ann"][0])
    assert shown.reply[0].startswith("9 cards: Wasabi"), shown.reply
    hand_said = shown.reply[0]
    shown = ann.answer(HANDS["Ann"][1])
    assert shown.question == "Waiting for Ben, Cy to pick. A word, or Enter:", shown.question
    for other in (seats["Ben"], seats["Cy"], host):
        html = other.page().html
        assert hand_said not in html and "Wasabi" not in html, html
    seats["Ben"].answer(HANDS["Ben"][0])
    seats["Ben"].answer(HANDS["Ben"][1])
    assert "Pudding" not in seats["Cy"].page().html and "Pudding" not in ann.page().html
    seats["Cy"].answer(HANDS["Cy"][0])
    last = seats["Cy"].answer(HANDS["Cy"][1])
    assert last.question.startswith("Your hand, card by card"), last.question  # turn 2
    for name, client in (*seats.items(), ("host", host)):
        page = client.page()
        said = page.log + page.reply
        assert any("Ann: Wasabi" in line for line in said), (name, said)
        assert any("Ben: Pudding" in line for line in said), (name, said)
        assert any("Chopsticks" in line for line in said), (name, said)
    assert ann.page().question.startswith("Your hand, card by card")
    # Ann's own hand read back, never on another page, even after the reveal
    for other in (seats["Ben"], seats["Cy"], host):
        assert hand_said not in other.page().html


def test_a_visitor_without_the_code_gets_nothing(table: tuple[Served, Client, str]) -> None:
    served, _host, code = table
    seats = seated(served, code)
    seats["Ann"].answer(HANDS["Ann"][0])
    visitor = Client(served.address)
    page = visitor.request("/join")
    assert page.status == 200 and "Ann" not in page.body
    assert read(page.body).question == "The table's code (the host's page shows it):"
    wrong = visitor.post({"code": "AAAA-AAAA-AA"}, path="/join")
    assert wrong.status == 403 and "not this table&#39;s code" in wrong.body
    assert "Ann" not in wrong.body
    taken = visitor.post({"code": "AAAA-AAAA-AA", "seat": "0"}, path="/join")
    assert taken.status == 403 and not list(visitor.cookies)
    for path in ("/seat/", "/seat/events"):
        answer = visitor.request(path)
        assert "Your hand" not in answer.body and "Tempura" not in answer.body, answer
    sent = visitor.post({"answer": "t"}, path="/seat/answer")  # a form: to the join page
    assert read(sent.body).question == "The table's code (the host's page shows it):"
    script = visitor.post({"answer": "t"}, path="/seat/answer",
                          headers={"Accept": "application/json"})
    assert script.status == 403 and json.loads(script.body) == {"lost": LOST}
    assert visitor.request("/seat/events").body == f"data: {json.dumps({'lost': LOST})}\n\n"
    # the right code, every seat held: still nothing of anyone's game
    full = visitor.post({"code": code}, path="/join")
    assert "Every seat has a device" in full.body and "Tempura" not in full.body
    # another seat's session is no key to this one (a forged cookie)
    forged = Client(served.address).request("/seat/", headers={"Cookie": "seat=forged"})
    assert read(forged.body).question == "The table's code (the host's page shows it):"


def test_a_seat_comes_back_where_it_was_and_a_lost_device_is_freed_by_the_host(
        table: tuple[Served, Client, str]) -> None:
    served, host, code = table
    seats = seated(served, code)
    ben = seats["Ben"]
    ben.answer(HANDS["Ben"][0])
    # the same device, the page opened again (connection lost, browser reopened)
    again = Client(served.address, base="/seat")
    for cookie in ben.cookies:
        again.cookies.set_cookie(cookie)
    assert again.page().question == "Your pick:"
    # a lost phone: the host frees Ben's seat, and Ben takes it on another device
    page = host.page()
    freed = host.post({"token": page.token, "free": "1"}, path="/free")
    assert freed.status == 200 and "The seat is free" in freed.body
    assert ben.request("/seat/").body.count("Your pick") == 0  # the lost device: no more
    assert json.loads(ben.request("/seat/events").body[len("data: "):]) == {"lost": LOST}
    waiting = host.choose(1)  # who is still to pick: Ben has no device now
    assert "No device yet: Ben." in waiting.reply, waiting.reply
    other = Client(served.address)
    back = other.join(code, "Ben")
    assert back.question == "Your pick:", back.question
    assert read(host.page().html).question == "The shared table:"
    assert not any("No device yet" in line for line in host.choose(1).reply)


def test_a_seat_never_leaves_its_game_by_a_word(table: tuple[Served, Client, str]) -> None:
    served, _host, code = table
    seats = seated(served, code)
    for word in ("menu", "quit"):
        shown: Shown = seats["Cy"].answer(word)
        assert shown.question.startswith("Your hand"), (word, shown.question)
        assert any("your game goes on" in line for line in shown.reply), shown.reply
    assert "menu" not in seats["Cy"].page().words


def test_the_table_companion_in_the_page_offers_the_shared_table(tmp_path: Path) -> None:
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.toml").write_text(GOOD_SETTINGS, encoding="utf-8")
    served = Served(tmp_path)
    try:
        host = Client(served.address)
        assert Client(served.address).request("/join").status == 200  # not open yet
        assert "not open yet" in Client(served.address).request("/join").body
        shown = host.choose(1)  # the table companion
        assert shown.question == "Who enters the cards?", shown.question
        assert host.choose(2).question.startswith("How many players at the table, each with")
    finally:
        served.stop()


def test_on_the_local_network_the_hosts_page_answers_this_computer_only(
        tmp_path: Path) -> None:
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.toml").write_text(GOOD_SETTINGS, encoding="utf-8")
    served = Served(tmp_path, "--table", "--lan")
    try:
        line = served._line()
        found = re.search(r"http://([0-9.]+):(\d+)/join", line)
        # (CI's machines are on a network: they fetch the packages)
        assert found is not None, (line, served.errors())
        there = Client(f"http://{found.group(1)}:{found.group(2)}")
        assert found.group(1) != "127.0.0.1"
        refused = there.request("/")
        assert refused.status == 403 and "host's" in refused.body
        assert there.request("/events").status == 403
        assert there.post({"answer": "3"}).status == 403
        assert there.request("/join").status == 200  # the seats' door is open
        assert Client(served.address).page().question.startswith("How many players")
    finally:
        served.stop()


def test_on_the_local_network_the_host_may_name_the_address_players_reach(
        tmp_path: Path) -> None:
    """A computer on two networks (the Wi-Fi and a VPN): ``--lan ADDRESS``
    names the one the table's phones reach; one that is not this
    computer's is refused with the reason, and nothing is served."""
    from companion.app import lan_address  # noqa: PLC0415

    here = lan_address()
    assert here is not None, "this machine is on no local network"
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.toml").write_text(GOOD_SETTINGS, encoding="utf-8")
    served = Served(tmp_path, "--table", "--lan", here)
    try:
        line = served._line()
        assert re.search(rf"http://{re.escape(here)}:\d+/join", line), line
    finally:
        served.stop()
    refused = subprocess.run(
        [sys.executable, "-m", "companion", "web", "--no-open", "--port", "0", "--lan",
         "192.0.2.7"], capture_output=True, text=True, timeout=60, check=False,
        env=app_environment(tmp_path), stdin=subprocess.DEVNULL)
    assert refused.returncode == 1, refused
    assert "192.0.2.7 is not an address of this computer on a network" in refused.stderr
    assert refused.stdout == ""


def test_without_lan_nothing_is_served_on_the_network(tmp_path: Path) -> None:
    from companion.app import lan_address  # noqa: PLC0415

    here = lan_address()
    assert here is not None, "this machine is on no local network"
    served = Served(tmp_path, "--table")
    try:
        port = served.address.rsplit(":", 1)[1].strip("/")
        with pytest.raises(OSError):
            socket.create_connection((here, int(port)), timeout=5).close()
    finally:
        served.stop()


def test_control_c_ends_every_seat_and_each_seats_game_is_saved(tmp_path: Path) -> None:
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.toml").write_text(GOOD_SETTINGS, encoding="utf-8")
    served = Served(tmp_path, "--table")
    try:
        host = Client(served.address)
        for typed in ("3", *NAMES):
            shown = host.answer(typed)
        shown = host.choose(1)
        code = re.search(r'id="join-code"[^>]*>([A-Z0-9-]+)<', shown.html)
        assert code is not None
        seats = seated(served, code.group(1))
        seats["Ann"].answer(HANDS["Ann"][0])
        served.process.send_signal(signal.SIGINT)
        assert served.wait() == 128 + signal.SIGINT
        errors = served.errors()
        assert "Traceback" not in errors and "Exception" not in errors, errors
    finally:
        served.stop()
    again = Served(tmp_path)
    try:
        client = Client(again.address)
        # Ann's game, where she was (the seats with nothing entered keep nothing)
        assert client.page().question == "An unfinished table game was found."
        shown = client.choose(1)  # resume it, on this face: a table game like any other
        assert "Table game: Ann, Ben, Cy. You are Ann." in shown.reply + shown.log, shown
        assert shown.question == "Your pick:", shown.question
    finally:
        again.stop()


def test_the_host_stays_at_the_table_until_it_ends_and_then_no_seat_is_taken(
        table: tuple[Served, Client, str]) -> None:
    served, host, code = table
    seated(served, code)
    assert "Menu" not in host.page().words
    shown = host.word("menu")  # a button the page does not have: refused, nothing sent
    assert shown.question == "The shared table:", shown.question
    assert shown.reply[0].startswith("That answer could not be sent"), shown.reply
    # no seat's open game reachable from the host's menu meanwhile
    assert "You are" not in host.page().html
    host.choose(2)  # end the table
    shown = host.choose(2)  # yes
    assert shown.question == "Main menu.", shown.question
    late = Client(served.address)
    page = late.request(f"/join?code={code}")
    assert "This table is over" in page.body and "Ann" not in page.body
    taken = late.post({"code": code, "seat": "0"}, path="/join")
    assert "This table is over" in taken.body and not list(late.cookies)


def test_the_code_is_spelled_for_a_screen_reader(table: tuple[Served, Client, str]) -> None:
    _served, host, code = table
    spelled = ", ".join(" ".join(group) for group in code.split("-"))
    assert f'<span class="hidden">{spelled}</span>' in host.page().html


#: Each Mici Maki seat's dealt hand, and the cards it holds as said back.
DEALT = {
    "Ann": ("2 2 3 p r", "Your hand, 5 cards: 2 Food 2, Food 3, +1 food, Reverse direction."),
    "Ben": ("4 4 5 c 7", "Your hand, 5 cards: 2 Food 4, Food 5, Food 7, Choose the next player."),
    "Cy": ("6 6 6 3 5", "Your hand, 5 cards: Food 3, Food 5, 3 Food 6."),
}


@pytest.fixture
def mici(tmp_path: Path) -> Iterator[tuple[Served, Client, dict[str, Client]]]:
    """A Mici Maki table of three: the server, the host's client, and each
    seat's client, its dealt hand entered."""
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.toml").write_text(GOOD_SETTINGS, encoding="utf-8")
    served = Served(tmp_path, "--table", "--game", "mici-maki")
    try:
        host = Client(served.address)
        shown = host.page()
        assert shown.question == "How many players at the table, each with a device? 3 to 7:"
        for typed in ("3", *NAMES):
            shown = host.answer(typed)
        assert shown.question == "Who starts the first pile?", shown.question
        host.choose(1)  # Ann
        shown = host.choose(1)  # the usual action cards
        assert shown.question == "The shared table:", shown.question
        code = re.search(r'id="join-code"[^>]*>([A-Z0-9-]+)<', shown.html)
        assert code is not None, shown.html
        seats = {}
        for name in NAMES:
            seats[name] = Client(served.address)
            first = seats[name].join(code.group(1), name)
            assert first.question == "Your 5 cards as dealt, card by card:", first.question
        for name, (hand, said) in DEALT.items():
            shown = seats[name].answer(hand)
            assert shown.reply[0] == said, shown.reply
        yield served, host, seats
    finally:
        served.stop()


def test_at_a_mici_maki_table_each_seat_enters_only_its_own_moves(
        mici: tuple[Served, Client, dict[str, Client]]) -> None:
    _served, host, seats = mici
    ann, ben, cy = (seats[name] for name in NAMES)
    # no page shows another seat's hand
    for name, client in (*seats.items(), ("host", host)):
        html = client.page().html
        for other, (_hand, said) in DEALT.items():
            assert (said in html) == (other == name), (name, other)
    assert ann.page().question == "Start a pile with a food card:"
    assert ben.page().question == "Waiting for Ann to play. A word, or Enter:"
    shown = ben.answer("3")  # not Ben's to enter: a card typed while he waits
    assert shown.question == "Waiting for Ann to play. A word, or Enter:"
    assert shown.reply == ["Still waiting for Ann."]
    shown = ann.answer("2")
    assert shown.reply[0] == "You: start a pile with Food 2."
    assert shown.question == "Waiting for Ben to play. A word, or Enter:"
    for client in (ben, cy, host):
        assert "Ann: starts a pile with Food 2." in client.page().log
    assert ben.page().question == "Your move: a card, a pair, or eat:"
    assert cy.page().question == "Waiting for Ben to play. A word, or Enter:"
    # Ben eats: the cards he turns up are shown to all, as at the table
    shown = ben.answer("eat 6 7")
    assert shown.reply[0] == "You: eat 2 cards, no overeating: Food 6, Food 7.", shown.reply
    assert shown.question == "Start a pile with a food card:"
    for client in (ann, cy, host):
        assert "Ben: eats 2 cards, no overeating: Food 6, Food 7." in client.page().log
    # his hand now, to him alone
    shown = ben.word("hand")
    assert shown.reply[0].startswith("Your hand, 7 cards:"), shown.reply
    assert "Your hand, 7 cards" not in ann.page().html + cy.page().html + host.page().html
    # taken back by Ben, before Cy moves: taken back at every seat
    shown = ben.word("undo")
    assert shown.reply[0] == "Taken back: Ben's last entry.", shown.reply
    assert shown.question == "Your move: a card, a pair, or eat:"
    for client in (ann, cy, host):
        assert "Taken back: Ben's last entry." in client.page().log
    assert cy.page().question == "Waiting for Ben to play. A word, or Enter:"
    shown = ben.answer("eat 6 7")
    shown = ben.answer("4")
    assert shown.reply[0] == "You: start a pile with Food 4.", shown.reply
    shown = cy.word("undo")  # nothing of Cy's to take back
    assert shown.reply[0].startswith("Nothing to take back"), shown.reply
    shown = ann.word("undo")  # Ann's move is long answered
    assert shown.reply[0].startswith("Nothing to take back"), shown.reply
    assert "Ben: starts a pile with Food 4." in cy.page().log
    assert cy.page().question == "Your move: a card, a pair, or eat:"


def test_the_host_of_a_mici_maki_table_follows_whose_turn_it_is_and_ends_it(
        mici: tuple[Served, Client, dict[str, Client]]) -> None:
    served, host, seats = mici
    shown = host.choose(1)  # whose turn it is
    assert shown.reply[0].startswith("Round 1"), shown.reply
    assert "Ann" in shown.reply[0]
    seats["Ann"].answer("3")
    page = host.page()
    assert "Ann: starts a pile with Food 3." in page.log
    assert page.question == "The shared table:"
    host.choose(2)  # end the table
    shown = host.choose(2)  # yes
    assert shown.question == "Main menu, Mici Maki.", shown.question
    ben = seats["Ben"].page()
    assert any(line.startswith("The host ended the table.") for line in ben.log + ben.reply)
    late = Client(served.address).request("/join")
    assert "This table is over" in late.body
