"""The web face's server, as the real ``companion web`` serves it in a
process of its own, asked over plain HTTP (no browser: the fast tier):
where it listens, what it refuses (and that a refused post changes
nothing), what it escapes, the updates it streams, and how it ends (Quit
and Control C: the game saved, nothing left running)."""

from __future__ import annotations

import http.client
import json
import signal
import socket
import subprocess
import sys
import threading
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.drivers import GOOD_SETTINGS, app_environment
from tests.webclient import PATIENCE, Client, Served, read

OUT_OF_DATE = "This page was out of date: nothing was sent. The question now is below."


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A player's folders with their settings made: no first start."""
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.toml").write_text(GOOD_SETTINGS, encoding="utf-8")
    return tmp_path


@pytest.fixture
def served(home: Path) -> Iterator[Served]:
    server = Served(home)
    try:
        yield server
    finally:
        server.stop()


def test_it_serves_this_machine_only_and_answers_no_other_host_name(served: Served) -> None:
    assert served.address.startswith("http://127.0.0.1:")
    client = Client(served.address)
    assert client.page().question == "Main menu."
    # another name pointed at this machine (DNS rebinding) gets nothing
    refused = client.request("/", headers={"Host": "companion.example"})
    assert refused.status == 400
    assert "Main menu." not in refused.body


def test_every_response_has_a_strict_content_security_policy(served: Served) -> None:
    client = Client(served.address)
    for path in ("/", "/static/web.js", "/static/web.css", "/nothing", "/static/nothing.js"):
        answer = client.request(path)
        policy = answer.headers["content-security-policy"]
        assert "default-src 'none'" in policy and "script-src 'self'" in policy, path
        assert "frame-ancestors 'none'" in policy and "form-action 'self'" in policy, path
        assert answer.headers["x-content-type-options"] == "nosniff", path
        assert answer.headers["cache-control"] == "no-store", path


@pytest.mark.parametrize("path", ["/static/../face.py", "/static/%2e%2e/face.py",
                                  "/static/face.py", "/static/templates", "/static/",
                                  "/templates/page.html", "/static/web.js/.."])
def test_nothing_but_the_page_files_is_served(served: Served, path: str) -> None:
    answer = Client(served.address).request(path)
    assert answer.status in (404, 405) or answer.body.startswith("<!doctype html>"), (
        path, answer.status)
    assert "import" not in answer.body and "{%" not in answer.body, path


def test_a_post_without_the_token_or_from_another_origin_is_refused_and_changes_nothing(
        served: Served) -> None:
    client = Client(served.address)
    before = client.page()
    good = {"token": before.token, "question": before.question_id, "choice": "5"}
    refusals = [
        client.post({**good, "token": "guessed"}),
        client.post({key: value for key, value in good.items() if key != "token"}),
        client.post(good, headers={"Origin": "http://evil.example"}),
        client.post(good, headers={"Origin": "null"}),
        client.post(good, headers={"Content-Type": "application/json"}),
        client.request("/answer", data=b"answer=" + b"x" * 20_000 + b"&token=" +
                       before.token.encode(),
                       headers={"Content-Type": "application/x-www-form-urlencoded"}),
    ]
    assert [answer.status for answer in refusals] == [403, 403, 403, 403, 415, 413]
    after = client.page()
    assert (after.question, after.question_id, after.reply, after.log) == (
        before.question, before.question_id, before.reply, before.log)
    assert served.process.poll() is None  # (choice 6 is Quit: it was never taken)


def test_a_page_out_of_date_sends_nothing_and_says_so(served: Served) -> None:
    client = Client(served.address)
    old = client.page()
    client.choose(4)  # Learn the codes
    now = client.page()
    answer = client.post({"token": old.token, "question": old.question_id, "choice": "5"})
    shown = read(answer.body)
    assert shown.reply == [OUT_OF_DATE]
    assert shown.question == now.question == "Learn the codes:"
    assert served.process.poll() is None


def test_what_is_typed_is_shown_escaped(served: Served) -> None:
    client = Client(served.address)
    client.choose(4)
    client.choose(1)  # identify cards
    typed = '<script>alert("x")</script><b>'
    shown = client.answer(typed)
    assert shown.reply == [f"{typed} is not a card. The codes: companion codes."]
    assert "<script>alert" not in shown.html and "<b>" not in shown.html
    assert "&lt;script&gt;" in shown.html


def test_an_option_or_a_word_that_is_not_there_is_refused(served: Served) -> None:
    client = Client(served.address)
    page = client.page()
    for given in ({"choice": "6"}, {"choice": "-1"}, {"choice": "one"},
                  {"action": "quit"}, {"action": "tables"}, {}):
        answer = client.post({"token": page.token, "question": page.question_id, **given})
        shown = read(answer.body)
        assert shown.reply == ["That answer could not be sent: choose an option, or type "
                               "an answer."], given
        assert shown.question == "Main menu.", given


def test_the_script_gets_only_what_changed_and_the_stream_brings_it_too(
        served: Served) -> None:
    client = Client(served.address)
    page = client.page()
    since = max([int(n) for n in page.html.split('data-since="')[1].split('"')[:1]] or [0])
    stream = urllib.request.urlopen(served.address + f"events?since={since}&version=0",
                                    timeout=PATIENCE)
    try:
        answer = client.request("/answer", data=(
            f"token={page.token}&question={page.question_id}&choice=3&since={since}").encode(),
            headers={"Content-Type": "application/x-www-form-urlencoded",
                     "Accept": "application/json", "Origin": client.origin})
        update = json.loads(answer.body)
        assert update["question_id"] > int(page.question_id)
        assert 'id="question-label">Learn the codes:' in update["question"]
        assert "aria-describedby" not in update["question"]  # said by the live region
        assert all(entry["number"] > since for entry in update["entries"])
        # the stream: what changed since that version, as it came
        data = []
        for raw in stream:
            line = raw.decode().rstrip("\n")
            if line.startswith("data: "):
                data.append(json.loads(line[len("data: "):]))
                if data[-1]["question_id"] == update["question_id"]:
                    break
        assert data[-1]["title"].startswith("Learn the codes:")
    finally:
        stream.close()


def _stream(served: Served) -> http.client.HTTPResponse:
    view = Client(served.address).page()
    since = view.html.split('data-since="')[1].split('"')[0]
    version = view.html.split('data-version="')[1].split('"')[0]
    stream: http.client.HTTPResponse = urllib.request.urlopen(
        served.address + f"events?since={since}&version={version}", timeout=PATIENCE)
    return stream


def test_another_window_hears_the_goodbye_when_one_quits(served: Served) -> None:
    stream = _stream(served)
    try:
        Client(served.address).choose(6)  # Quit, in the other window
        updates = [json.loads(raw.decode()[len("data: "):]) for raw in stream
                   if raw.startswith(b"data: ")]
    finally:
        stream.close()
    assert updates and updates[-1]["ended"] is True
    said = " ".join(entry["html"] for update in updates for entry in update["entries"])
    assert "Goodbye." in said
    assert "The companion has stopped." in updates[-1]["question"]
    assert served.wait() == 0


def test_control_c_with_a_window_listening_ends_without_a_traceback(served: Served) -> None:
    stream = _stream(served)
    try:
        served.process.send_signal(signal.SIGINT)
        assert served.wait() == 128 + signal.SIGINT
    finally:
        stream.close()
    errors = served.errors()
    assert "Traceback" not in errors and "Exception" not in errors, errors


def test_two_posts_at_once_for_one_question_take_one_answer(served: Served) -> None:
    client = Client(served.address)
    page = client.page()
    fields = {"token": page.token, "question": page.question_id, "choice": "3"}
    answers: list[int] = []
    posts = [threading.Thread(target=lambda: answers.append(client.post(fields).status))
             for _ in range(2)]
    for post in posts:
        post.start()
    for post in posts:
        post.join(PATIENCE)
    assert answers == [200, 200]
    # the second, had it been taken, would have chosen in Learn the codes
    assert client.page().question == "Learn the codes:"


@pytest.mark.parametrize("given", ["²", "1" * 5000, "٣"])
def test_a_number_that_is_no_plain_number_is_refused_not_an_error(
        served: Served, given: str) -> None:
    client = Client(served.address)
    page = client.page()
    shown = read(client.post({"token": page.token, "question": page.question_id,
                              "choice": given}).body)
    assert shown.question == "Main menu." and shown.reply[0].startswith(
        "That answer could not be sent")
    opened = urllib.request.urlopen(
        served.address + f"events?since={urllib.parse.quote(given)}", timeout=PATIENCE)
    try:
        assert opened.status == 200
    finally:
        opened.close()


def test_a_port_out_of_range_is_said(home: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion", "web", "--no-open", "--port", "70000"],
        env=app_environment(home), capture_output=True, text=True, timeout=PATIENCE,
        check=False, stdin=subprocess.DEVNULL)
    assert (done.returncode, done.stderr) == (
        2, "companion web: Give a port from 0 to 65535.\n")


def test_quit_gives_a_last_page_and_ends_the_server(served: Served) -> None:
    client = Client(served.address)
    shown = client.choose(6)  # Quit
    assert "The companion has stopped. You can close this page." in shown.html
    assert shown.reply == ["Goodbye."]
    assert served.wait() == 0
    assert "Traceback" not in served.errors()


def test_control_c_in_a_game_saves_it_and_the_next_start_offers_it(home: Path) -> None:
    served = Served(home)
    try:
        client = Client(served.address)
        client.choose(2)  # a practice game
        client.answer("2")
        client.choose(1)
        shown = client.choose(1)
        assert shown.question == "Your pick:"
        for code in ("t", "s", "x", "q", "p", "f", "w1", "w2", "w3", "o1", "o2", "o3", "d"):
            shown = client.answer(code)
            if shown.log and shown.log[-1] == "Round 1, turn 2.":
                break
        assert shown.log[-1] == "Round 1, turn 2."
        served.process.send_signal(signal.SIGINT)
        assert served.wait() == 128 + signal.SIGINT
        assert "Traceback" not in served.errors()
    finally:
        served.stop()
    again = Served(home)
    try:
        shown = Client(again.address).page()
        assert shown.question == "An unfinished practice game was found."
        assert shown.options[0] == "1. Resume it."
    finally:
        again.stop()


def test_a_port_taken_is_said_with_what_to_do(home: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "companion", "web", "--no-open", "--port", str(port)],
            env=app_environment(home), capture_output=True, text=True, timeout=PATIENCE,
            check=False, stdin=subprocess.DEVNULL)
    assert done.returncode == 1
    assert done.stderr.startswith(f"companion: The web page cannot be served on port {port}:")
    assert "Choose another port with --port." in done.stderr
    assert "Traceback" not in done.stderr
