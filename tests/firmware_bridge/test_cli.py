"""``firmware-bridge`` as a user runs it: the virtual scanner and a listener."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware_bridge.cli import _event_json, _event_text
from firmware_bridge.events import CardIdentified, CardRefused, Source
from firmware_bridge.registry import Registry, TagCard
from firmware_bridge.virtual import VirtualScanner


def environment(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "COMPANION_DATA_DIR": str(tmp_path)}


@pytest.mark.slow
def test_simulate_and_listen_speak_to_each_other(tmp_path: Path) -> None:
    env = environment(tmp_path)
    simulator = subprocess.Popen(
        [sys.executable, "-m", "firmware_bridge", "simulate"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, bufsize=1,
    )
    assert simulator.stdin is not None and simulator.stdout is not None
    first = simulator.stdout.readline().split()
    assert first[0] == "PORT" and first[1].startswith("/dev/pts/")
    link = simulator.stdout.readline().split()[1]
    listener = subprocess.Popen(
        [sys.executable, "-m", "firmware_bridge", "listen", "--port", link, "--json",
         "--seconds", "4"],
        stdout=subprocess.PIPE, text=True, env=env,
    )
    time.sleep(1.5)
    for line in ("w2", "uid:04a1b2c3", "nonsense", "reset", "t"):
        simulator.stdin.write(line + "\n")
        simulator.stdin.flush()
        time.sleep(0.1)
    out, _ = listener.communicate(timeout=30)
    simulator.stdin.write("quit\n")
    simulator.stdin.flush()
    replies = simulator.communicate(timeout=10)[0].splitlines()
    events = [json.loads(line) for line in out.splitlines()]
    assert events[0]["event"] == "connect"
    cards = [(e["game"], e["card"], e["uid"], e["seq"]) for e in events if e["event"] == "card"]
    assert cards == [
        ("sushigo", "salmon", "DEC0DE07000000", 0),
        (None, None, "04A1B2C3", 1),
        ("sushigo", "wasabi", "DEC0DE0A000000", 0),  # after the reset, numbers start again
    ]
    assert "ERR nonsense is not a card. The codes: companion codes." in "\n".join(replies)


def test_simulate_sends_the_next_copy_each_time(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "firmware_bridge", "simulate", "--game", "sushigo",
         "--link", str(tmp_path / "scanner")],
        input="w2\nsalmon\nw2\nquit\n", capture_output=True, text=True,
        env=environment(tmp_path), timeout=30, check=False,
    )
    sent = [line.split() for line in done.stdout.splitlines() if line.startswith("SENT")]
    assert [(uid, card) for _, uid, _, card in sent] == [
        ("DEC0DE07000000", "salmon"), ("DEC0DE07010000", "salmon"), ("DEC0DE07020000", "salmon"),
    ]


def test_simulate_sends_cards_of_either_game(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "firmware_bridge", "simulate", "--game", "mici-maki",
         "--link", str(tmp_path / "scanner")],
        input="5\nreverse direction\nw2\nquit\n", capture_output=True, text=True,
        env=environment(tmp_path), timeout=30, check=False,
    )
    sent = [line.split() for line in done.stdout.splitlines() if line.startswith("SENT")]
    # Mici Maki's demo tags: the card's place in its deck, the copy, its game's byte (1)
    assert [(uid, card) for _, uid, _, card in sent] == [
        ("DEC0DE03000100", "food5"), ("DEC0DE07000100", "reverse"),
    ]
    # Sushi Go!'s: refused in the game's words, not sent
    assert "ERR w2 is not a Mici Maki card. Try 2, p, r, c." in done.stdout


@pytest.mark.sampled
@pytest.mark.parametrize("taken", ["scanner", "scanner.lock"])
def test_simulate_never_replaces_a_file_of_the_users(tmp_path: Path, taken: str) -> None:
    """--link names the user's own file (or its lock's name is one): refused
    in one sentence, the file as it was; a link left by an earlier virtual
    scanner is replaced as before."""
    mine = tmp_path / taken
    mine.write_text("my notes\n")
    done = subprocess.run(
        [sys.executable, "-m", "firmware_bridge", "simulate", "--link", str(tmp_path / "scanner")],
        input="quit\n", capture_output=True, text=True, env=environment(tmp_path), timeout=30,
        check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"firmware-bridge: {taken} is there already and is not a virtual "
                           "scanner's " + ("link" if taken == "scanner" else "lock")
                           + ": it is left as it is; give --link a new name.\n")
    assert mine.read_text() == "my notes\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [taken]
    mine.unlink()
    (tmp_path / "scanner").symlink_to("/dev/pts/999")  # an earlier scanner's, gone
    done = subprocess.run(
        [sys.executable, "-m", "firmware_bridge", "simulate", "--link", str(tmp_path / "scanner")],
        input="quit\n", capture_output=True, text=True, env=environment(tmp_path), timeout=30,
        check=False)
    assert done.returncode == 0, done.stderr
    assert "LINK " in done.stdout


@pytest.mark.parametrize("command", ["simulate", "enrol"])
def test_an_unknown_game_is_one_sentence_and_status_2(tmp_path: Path, command: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "firmware_bridge", command, "--game", "nosuchgame"],
        input="", capture_output=True, text=True, env=environment(tmp_path), timeout=30,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        "firmware-bridge: There is no game called 'nosuchgame': --game takes mici-maki or "
        "sushigo.\n"
    )


def test_registry_commands(tmp_path: Path) -> None:
    env = environment(tmp_path)
    deck = tmp_path / "deck.json"
    deck.write_text(json.dumps({"format": 1, "tags": {"DEADBEEF": "tempura"}}))  # Sushi Go!'s

    def run(*args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "firmware_bridge", "registry", *args],
                              capture_output=True, text=True, env=env, timeout=30, check=False)
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert "1 tag added" in run("import", str(deck))
    assert run("list") == "sushigo tempura DEADBEEF\n1 tag\n"
    assert "1 tag written" in run("export", str(tmp_path / "out.json"))
    assert json.loads((tmp_path / "out.json").read_text())["tags"] == {
        "DEADBEEF": {"game": "sushigo", "card": "tempura"},
    }
    assert "Forgot DEADBEEF (sushigo tempura)." in run("remove", "DEADBEEF")
    assert "0 tags" in run("list")


def test_enrol_a_tag_then_it_is_known(tmp_path: Path) -> None:
    scanner = VirtualScanner(link=tmp_path / "scanner")
    enrol = subprocess.Popen(
        [sys.executable, "-m", "firmware_bridge", "enrol", "--port", str(scanner.link)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=environment(tmp_path),
        bufsize=1,
    )
    assert enrol.stdin is not None and enrol.stdout is not None
    assert enrol.stdout.readline().startswith("Scan a tag")
    time.sleep(1.5)
    scanner.scan("04A1B2C3D4E5F6")
    lines: list[str] = []
    while not lines or "Type its card's code" not in lines[-1]:
        lines.append(enrol.stdout.readline())
    assert "04A1B2C3D4E5F6 is unknown" in lines[-1]
    enrol.stdin.write("w3\n")
    enrol.stdin.flush()
    assert enrol.stdout.readline() == (
        "Tag 04A1B2C3D4E5F6 is now sushigo squid. Scan the next tag.\n"
    )
    scanner.scan("04A1B2C3D4E5F6")
    assert "is sushigo squid" in enrol.stdout.readline()
    enrol.stdin.write("\n")
    enrol.stdin.flush()
    assert enrol.wait(timeout=10) == 0
    scanner.close()
    assert Registry.load(tmp_path / "registry.json").lookup("04A1B2C3D4E5F6") == TagCard(
        "sushigo", "squid"
    )


def test_listen_names_the_game_of_each_card() -> None:
    salmon = CardIdentified("sushigo", "salmon", Source.SCANNER, "DEC0DE07000000", None, 3)
    unknown = CardIdentified(None, None, Source.SCANNER, "04A1B2C3", None, 4)
    assert _event_text(salmon) == "Card sushigo salmon (tag DEC0DE07000000, number 3)."
    assert _event_text(unknown) == "Unknown tag 04A1B2C3: enrol it with firmware-bridge enrol."
    assert _event_json(salmon) == {"event": "card", "game": "sushigo", "card": "salmon",
                                   "uid": "DEC0DE07000000", "seq": 3}
    refused = CardRefused("w4", "no card has this code", Source.KEYBOARD)
    assert _event_text(refused) == "Not a card: no card has this code."
    assert _event_json(refused) == {"event": "refused", "text": "w4",
                                    "reason": "no card has this code"}


@pytest.mark.slow
def test_enrol_a_mici_maki_deck_names_its_cards(tmp_path: Path) -> None:
    scanner = VirtualScanner(link=tmp_path / "scanner")
    enrol = subprocess.Popen(
        [sys.executable, "-m", "firmware_bridge", "enrol", "--port", str(scanner.link),
         "--game", "mici-maki"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=environment(tmp_path),
        bufsize=1,
    )
    assert enrol.stdin is not None and enrol.stdout is not None
    assert "Mici Maki" in enrol.stdout.readline()
    time.sleep(1.5)
    scanner.scan("04A1B2C3D4E5F7")
    lines: list[str] = []
    while not lines or "Type its card's code" not in lines[-1]:
        lines.append(enrol.stdout.readline())
    enrol.stdin.write("w2\n")  # a Sushi Go! code: not a card of this deck
    enrol.stdin.flush()
    refused = enrol.stdout.readline()
    assert refused.startswith("w2 is not a Mici Maki card.")
    assert refused.endswith("Type its card's code:\n")  # the same tag, asked again
    enrol.stdin.write("změna směru\n")  # a card's name in Czech
    enrol.stdin.flush()
    assert enrol.stdout.readline() == (
        "Tag 04A1B2C3D4E5F7 is now mici-maki reverse. Scan the next tag.\n"
    )
    enrol.stdin.write("\n")  # an empty line stops, whenever it comes
    enrol.stdin.flush()
    assert enrol.wait(timeout=10) == 0
    scanner.close()
    assert Registry.load(tmp_path / "registry.json").lookup("04A1B2C3D4E5F7") == TagCard(
        "mici-maki", "reverse"
    )


# -- hostile files -------------------------------------------------------------------------------

DEEP = b'{"format": 2, "tags": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"


def bridge(tmp_path: Path, *args: str, umask: int = 0o022) -> subprocess.CompletedProcess[str]:
    """``firmware-bridge`` run once; a run that hangs fails the test (the
    timeout), and one that crashes shows a traceback."""
    return subprocess.run([sys.executable, "-m", "firmware_bridge", *args],
                          capture_output=True, text=True, env=environment(tmp_path),
                          timeout=60, check=False, umask=umask)


def refused(done: subprocess.CompletedProcess[str], *fragments: str) -> None:
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.startswith("firmware-bridge: ") and done.stderr.count("\n") == 1, (
        done.stderr)
    assert "Traceback" not in done.stderr and "\x1b" not in done.stderr
    for fragment in fragments:
        assert fragment in done.stderr


@pytest.mark.parametrize(("damage", "says"), [
    ("a named pipe", "is not a file (a folder, a named pipe or a device)."),
    ("a link to /dev/zero", "is a link out of its folder."),
    ("nested 100,000 deep", "is nested too deep to be a deck file."),
    ("2 MiB", "is too big for a deck file."),
])
def test_a_hostile_registry_is_refused_in_a_sentence(tmp_path: Path, damage: str,
                                                     says: str) -> None:
    path = tmp_path / "registry.json"
    if damage == "a named pipe":
        os.mkfifo(path)
    elif damage == "a link to /dev/zero":
        path.symlink_to("/dev/zero")
    elif damage == "2 MiB":  # right, but too big to be read
        path.write_bytes(b'{"format": 2, "tags": {}}' + b" " * (2 << 20))
    else:
        path.write_bytes(DEEP)
    refused(bridge(tmp_path, "registry", "list"), f"Cannot read {path}: it {says}")


@pytest.mark.parametrize(("damage", "says"), [
    ("a named pipe", "is not a file (a folder, a named pipe or a device)."),
    ("a link to /dev/zero", "is not a file (a folder, a named pipe or a device)."),
    ("nested 100,000 deep", "is nested too deep to be a deck file."),
])
def test_a_hostile_deck_file_is_refused_and_the_registry_kept(tmp_path: Path, damage: str,
                                                              says: str) -> None:
    (tmp_path / "data").mkdir()
    data = tmp_path / "data"
    deck = tmp_path / "deck.json"
    if damage == "a named pipe":
        os.mkfifo(deck)
    elif damage == "a link to /dev/zero":
        deck.symlink_to("/dev/zero")
    else:
        deck.write_bytes(DEEP)
    refused(bridge(data, "registry", "import", str(deck)), f"Cannot read {deck}: it {says}")
    assert list(data.iterdir()) == []


def test_names_from_a_shared_deck_file_are_shown_never_obeyed(tmp_path: Path) -> None:
    """A game not installed here keeps its names as its file had them: the
    listing shows their control characters, never sends them to the terminal."""
    deck = tmp_path / "deck.json"
    deck.write_text(json.dumps({"format": 2, "deck": "club\x1b]0;owned\x07", "tags": {
        "DEADBEEF": {"game": "chess\x1b]0;pwned\x07", "card": "\x1b[2Jking\u202e"}}}))
    data = tmp_path / "data"
    assert bridge(data, "registry", "import", str(deck)).returncode == 0
    done = bridge(data, "registry", "list")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "chess\u241b]0;pwned\u2407 \u241b[2Jking<U+202E> DEADBEEF\n1 tag\n"
    removed = bridge(data, "registry", "remove", "DEADBEEF")
    assert "\x1b" not in removed.stdout and "\u241b[2Jking" in removed.stdout


def test_a_refused_argument_is_shown_never_obeyed(tmp_path: Path) -> None:
    refused(bridge(tmp_path, "registry", "remove", "\x1b[2J"), "'\\x1b[2J' is not a tag UID")
    deck = tmp_path / "deck\x1b[2J.json"
    deck.write_text("[]")
    refused(bridge(tmp_path, "registry", "import", str(deck)), "deck\u241b[2J.json")


def test_export_never_replaces_a_file_it_did_not_write(tmp_path: Path) -> None:
    data = tmp_path / "data"
    mine = tmp_path / "notes.json"
    mine.write_text('{"my": "notes"}')
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("kept")
    link = tmp_path / "link.json"
    link.symlink_to(elsewhere)
    refused(bridge(data, "registry", "export", str(mine)),
            f"{mine} is there already and is not a deck file: it is left as it is")
    refused(bridge(data, "registry", "export", str(link)), f"{link} is a link")
    assert mine.read_text() == '{"my": "notes"}' and elsewhere.read_text() == "kept"
    assert link.is_symlink()
    deck = tmp_path / "deck.json"
    for _ in range(2):  # an earlier export is a deck file: it is replaced
        done = bridge(data, "registry", "export", str(deck), "--deck", "club")
        assert done.returncode == 0, done.stderr
    assert json.loads(deck.read_text())["deck"] == "club"


def test_with_umask_0_the_data_folder_and_registry_are_private(tmp_path: Path) -> None:
    deck = tmp_path / "deck.json"
    deck.write_text(json.dumps({"format": 1, "tags": {"DEADBEEF": "tempura"}}))
    data = tmp_path / "home" / "share" / "data"
    done = bridge(data, "registry", "import", str(deck), umask=0)
    assert done.returncode == 0, done.stderr
    for folder in (tmp_path / "home", tmp_path / "home" / "share", data):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    assert stat.S_IMODE((data / "registry.json").stat().st_mode) == 0o600


#: A deck file's tag that is wrong, and why, in each language: the file's
#: problem and the tag's, one sentence each, no English inside.
WRONG_TAGS = {
    "en": ("the tag CAFEBABE cannot be used. Sushi Go! has no card called 'caviar'.",
           "the tag CAFEBABE cannot be used. It does not say which game and which card it is.",
           "was written by a newer version of the app (format 3): update the app to read it."),
    "fr": ("l'étiquette CAFEBABE ne peut pas servir. Sushi Go! n'a pas de carte appelée "
           "'caviar'.",
           "l'étiquette CAFEBABE ne peut pas servir. Elle ne dit pas de quel jeu ni de quelle "
           "carte il s'agit.",
           "a été écrit par une version plus récente de l'application (format 3) : mettez "
           "l'application à jour pour le lire."),
    "cs": ("štítek CAFEBABE nejde použít. Sushi Go! nemá kartu jménem 'caviar'.",
           "štítek CAFEBABE nejde použít. Neříká, o kterou hru a kterou kartu jde.",
           "zapsala novější verze aplikace (formát 3): aktualizujte aplikaci, abyste ho mohli "
           "přečíst."),
    "ru": ("метку CAFEBABE нельзя использовать. В игре Sushi Go! нет карты 'caviar'.",
           "метку CAFEBABE нельзя использовать. В ней не сказано, какая это игра и какая "
           "карта.",
           "записан более новой версией приложения (формат 3): обновите приложение, чтобы его "
           "прочитать."),
}


@pytest.mark.parametrize("language", sorted(WRONG_TAGS))
def test_a_wrong_tag_of_a_deck_file_is_said_in_the_players_language(
        tmp_path: Path, language: str) -> None:
    card, shape, newer = WRONG_TAGS[language]
    deck = tmp_path / "deck.json"
    for tags, fragment in (({"CAFEBABE": {"game": "sushigo", "card": "caviar"}}, card),
                           ({"CAFEBABE": {"game": "sushigo"}}, shape)):
        deck.write_text(json.dumps({"format": 2, "tags": tags}))
        colon = " :" if language == "fr" else ":"  # French puts a space before it
        refused(bridge(tmp_path, "registry", "import", str(deck), "--lang", language),
                f"firmware-bridge: {deck}{colon} {fragment}\n")
    deck.write_text('{"format": 3, "tags": {}}')
    refused(bridge(tmp_path, "registry", "import", str(deck), "--lang", language),
            f"firmware-bridge: {deck} {newer}\n")
