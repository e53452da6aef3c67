"""The real ``companion`` command, run in a subprocess.

Both ways of starting it are exercised: ``python -m companion`` and the
installed console script next to the interpreter (``.venv/bin/companion``).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import stat
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import pytest

from companion.games.sushigo.draft import Game, Variant
from companion.i18n import Catalog

MODULE = [sys.executable, "-m", "companion"]


def _script() -> list[str]:
    beside = Path(sys.executable).parent / "companion"
    if beside.exists():
        return [str(beside)]
    found = shutil.which("companion")
    assert found is not None, "the companion console script is not installed"
    return [found]


SCRIPT = _script()
ENTRY_POINTS = pytest.mark.parametrize("command", [MODULE, SCRIPT], ids=["module", "script"])


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"}}
    env["LANG"] = "C.UTF-8"
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def run(command: Sequence[str], *args: str, stdin: str | bytes = b"",
        cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    done = subprocess.run(
        [*command, *args], input=data, capture_output=True, timeout=60,
        env=environment(), cwd=cwd, check=False,
    )
    return subprocess.CompletedProcess(
        done.args, done.returncode,
        done.stdout.decode("utf-8"), done.stderr.decode("utf-8"),
    )


EXAMPLE: dict[str, Any] = {
    "players": ["Ana", "Ben", "Cyril"],
    "rounds": [{"Ana": ["wasabi", "squid", "maki2"], "Ben": ["pudding"], "Cyril": []}],
    "variant": {"soy_sauce": False},
    "dummy": None,
}
EXAMPLE_OUTPUT: dict[str, Any] = {
    "rounds": [{"Ana": 15, "Ben": 0, "Cyril": 0}],
    "pudding": None,
    "total": {"Ana": 15, "Ben": 0, "Cyril": 0},
    "winners": ["Ana"],
}


def scored(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.count("\n") == 1  # one JSON line
    output = json.loads(done.stdout)
    assert isinstance(output, dict)
    return output


def core(output: dict[str, Any]) -> dict[str, Any]:
    return {key: output[key] for key in ("rounds", "pudding", "total", "winners")}


# -- companion score ------------------------------------------------------------


@ENTRY_POINTS
def test_score_the_example_from_a_file(command: list[str], tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(EXAMPLE), encoding="utf-8")
    output = scored(run(command, "score", str(path)))
    assert core(output) == EXAMPLE_OUTPUT


def test_score_a_relative_path(tmp_path: Path) -> None:
    (tmp_path / "game.json").write_text(json.dumps(EXAMPLE), encoding="utf-8")
    assert core(scored(run(MODULE, "score", "game.json", cwd=tmp_path))) == EXAMPLE_OUTPUT


@ENTRY_POINTS
def test_score_from_stdin_with_a_dash(command: list[str]) -> None:
    output = scored(run(command, "score", "-", stdin=json.dumps(EXAMPLE)))
    assert core(output) == EXAMPLE_OUTPUT


@ENTRY_POINTS
def test_score_from_stdin_without_an_argument(command: list[str]) -> None:
    output = scored(run(command, "score", stdin=json.dumps(EXAMPLE)))
    assert core(output) == EXAMPLE_OUTPUT


def test_score_output_keys() -> None:
    output = scored(run(MODULE, "score", stdin=json.dumps(EXAMPLE)))
    assert {"rounds", "pudding", "total", "winners"} <= set(output)
    assert output["puddings"] == {"Ana": 0, "Ben": 1, "Cyril": 0}
    assert output["dummy"] is None


def test_score_typed_codes_and_names() -> None:
    game = {
        "players": ["Ana", "Ben", "Cyril"],
        "rounds": [{"Ana": ["t", "w3", "o2"], "Ben": ["Dessert"], "Cyril": []}],
    }
    assert core(scored(run(MODULE, "score", stdin=json.dumps(game)))) == EXAMPLE_OUTPUT


def test_score_utf8_names_and_cards(tmp_path: Path) -> None:
    game = {
        "players": ["Štěpán", "Жанна"],
        "rounds": [{"Štěpán": ["Пельмени", "knedlíček"], "Жанна": ["fenêtre bas"]}],
    }
    path = tmp_path / "hra.json"
    path.write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    output = scored(run(MODULE, "score", str(path)))
    assert output["rounds"] == [{"Štěpán": 3, "Жанна": 3}]
    assert output["winners"] == ["Štěpán", "Жанна"]


def test_score_a_whole_game() -> None:
    game = {
        "players": ["Ana", "Ben", "Cyril", "Dana"],
        "rounds": [
            {
                "Ana": ["maki3", "maki2", "pudding", "tempura", "tempura", "tempura"],
                "Ben": ["maki3", "pudding", "sashimi", "sashimi", "sashimi"],
                "Cyril": ["maki2", "maki1", "wasabi", "egg", "salmon"],
                "Dana": ["maki2", "dumpling", "dumpling", "dumpling"],
            },
            {"Ana": ["f", "f"], "Ben": ["f", "p"], "Cyril": ["t"], "Dana": ["w3", "t"]},
            {"Ana": ["f"], "Ben": ["f"], "Cyril": [], "Dana": []},
        ],
    }
    output = scored(run(MODULE, "score", stdin=json.dumps(game)))
    assert core(output) == {
        "rounds": [
            {"Ana": 11, "Ben": 11, "Cyril": 6, "Dana": 6},
            {"Ana": 0, "Ben": 0, "Cyril": 0, "Dana": 3},
            {"Ana": 0, "Ben": 0, "Cyril": 0, "Dana": 0},
        ],
        # the rulebook example: 4, 3, 0, 0 puddings
        "pudding": {"Ana": 6, "Ben": 0, "Cyril": -3, "Dana": -3},
        "total": {"Ana": 17, "Ben": 11, "Cyril": 3, "Dana": 6},
        "winners": ["Ana"],
    }


def test_score_two_player_dummy_game() -> None:
    game = {
        "players": ["Ana", "Ben", "Dummy"],
        "rounds": [
            {"Ana": ["pudding", "squid"], "Ben": ["salmon"], "Dummy": ["w1", "x", "x"]},
            {"Ana": [], "Ben": ["pudding"], "Dummy": []},
            {"Ana": [], "Ben": [], "Dummy": []},
        ],
        "variant": {"soy_sauce": False, "pass_both_ways": True},
        "dummy": "Dummy",
    }
    output = scored(run(MODULE, "score", stdin=json.dumps(game)))
    # the dummy has the fewest puddings and loses 6: three seats are scored
    assert output["pudding"] == {"Ana": 3, "Ben": 3, "Dummy": -6}
    assert output["total"] == {"Ana": 6, "Ben": 5, "Dummy": 0}
    assert output["winners"] == ["Ana"]
    assert output["dummy"] == "Dummy"


def test_score_dummy_cannot_win() -> None:
    game = {
        "players": ["Ana", "Ben", "Dummy"],
        "rounds": [{"Ana": ["egg"], "Ben": ["egg"], "Dummy": ["t", "w3"]}],
        "dummy": "Dummy",
    }
    output = scored(run(MODULE, "score", stdin=json.dumps(game)))
    assert output["total"] == {"Ana": 1, "Ben": 1, "Dummy": 9}
    assert output["winners"] == ["Ana", "Ben"]


def test_score_soy_sauce_variant() -> None:
    game = {
        "players": ["Ana", "Ben"],
        "rounds": [{"Ana": ["d", "x", "q"], "Ben": ["x", "x"]}],
        "variant": {"soy_sauce": True},
    }
    output = scored(run(MODULE, "score", stdin=json.dumps(game)))
    assert output["rounds"] == [{"Ana": 4, "Ben": 5}]


@ENTRY_POINTS
def test_score_explain(command: list[str]) -> None:
    done = run(command, "score", "--explain", "--lang", "en", stdin=json.dumps(EXAMPLE))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.splitlines() == [
        "Round 1.",
        "Ana: 15 points.",
        "  Squid nigiri on wasabi: 1 card, 9 points.",
        "  Maki: 2 icons, most at the table, 6 points.",
        "Ben: 0 points.",
        "  Pudding: 1 card, kept for the end of the game.",
        "Cyril: 0 points.",
        "  No cards.",
        "Scores so far.",
        "  Ana: 15 points.",
        "  Ben: 0 points.",
        "  Cyril: 0 points.",
        "Leading: Ana.",
    ]


@pytest.mark.parametrize("lang", ["en", "fr", "cs", "ru"])
def test_score_explain_in_every_language(lang: str, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(EXAMPLE), encoding="utf-8")
    done = run(MODULE, "score", str(path), "--explain", "--lang", lang)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert len(lines) == 13
    # the names and the numbers are there whatever the language
    assert "Ana" in lines[1]
    assert "15" in lines[1]
    assert "9" in lines[2]
    assert "6" in lines[3]


def test_score_json_ignores_the_language() -> None:
    done = run(MODULE, "score", "--lang", "ru", stdin=json.dumps(EXAMPLE))
    assert core(scored(done)) == EXAMPLE_OUTPUT


# -- bad input: exit 2, one line on stderr, nothing on stdout -----------------------


def bad(done: subprocess.CompletedProcess[str], *fragments: str) -> str:
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == ""
    message = done.stderr
    assert message.endswith("\n")
    assert message.count("\n") == 1, message
    assert "Traceback" not in message
    for fragment in fragments:
        assert fragment in message, (fragment, message)
    return message


def two(round_: dict[str, Any], **extra: Any) -> str:
    return json.dumps({"players": ["Ana", "Ben"], "rounds": [round_], **extra})


BAD_GAMES: list[tuple[str, str, tuple[str, ...]]] = [
    ("malformed JSON", '{"players": ["Ana", "Ben"], "rounds": [', ("JSON",)),
    ("not JSON at all", "Ana, Ben", ("JSON",)),
    ("empty input", "", ("JSON",)),
    ("not an object", "[1, 2]", ("players",)),
    ("unknown card", two({"Ana": ["x", "zz"], "Ben": []}),
     ("round 1", "player Ana", "card zz")),
    ("unknown card suggests codes", two({"Ana": ["w4"], "Ben": []}),
     ("round 1", "player Ana", "card w4", "w1", "w2", "w3")),
    ("player missing from a round", two({"Ana": []}), ("round 1", "player Ben", "missing")),
    ("unknown player in a round", two({"Ana": [], "Ben": [], "Bob": ["x"]}),
     ("round 1", "player Bob")),
    ("more copies than the deck", two({"Ana": ["t"] * 4, "Ben": ["t"] * 3}),
     ("round 1", "player Ben", "card t", "6")),
    ("more than 3 rounds",
     json.dumps({"players": ["Ana", "Ben"], "rounds": [{"Ana": [], "Ben": []}] * 4}),
     ("3", "4")),
    ("no rounds", json.dumps({"players": ["Ana", "Ben"], "rounds": []}), ("rounds",)),
    ("one seat", json.dumps({"players": ["Ana"], "rounds": [{"Ana": []}]}), ("1",)),
    ("six seats",
     json.dumps({"players": list("ABCDEF"), "rounds": [{p: [] for p in "ABCDEF"}]}),
     ("6",)),
    ("duplicate names",
     json.dumps({"players": ["Ana", "Ana"], "rounds": [{"Ana": []}]}), ("player Ana",)),
    ("too many cards for a hand", two({"Ana": ["x"] * 11, "Ben": []}),
     ("round 1", "player Ana", "11", "10")),
    ("soy sauce without the variant", two({"Ana": ["d"], "Ben": []}),
     ("round 1", "player Ana", "card d", "soy")),
    ("bad dummy", two({"Ana": [], "Ben": []}, dummy="Zoe"), ("dummy", "Zoe")),
    ("dummy in a two-seat file", two({"Ana": [], "Ben": []}, dummy="Ben"), ("dummy",)),
    ("cards not a list", two({"Ana": "x", "Ben": []}), ("round 1", "player Ana")),
    ("bad variant", two({"Ana": [], "Ben": []}, variant={"soy_sauce": "yes"}), ("soy_sauce",)),
    ("unknown variant", two({"Ana": [], "Ben": []}, variant={"chaos": True}), ("chaos",)),
    ("a number of 5,000 digits",
     '{"players": ["Ana", "Ben"], "rounds": [{"Ana": [], "Ben": []}], "dummy": '
     + "9" * 5000 + "}", ("too many digits",)),
    ("an escape sequence in a name", json.dumps(
        {"players": ["A\x1b[2Jna", "Ben"], "rounds": [{"A\x1b[2Jna": [], "Ben": []}]}),
     ("player A\u241b[2Jna", "control characters")),
    ("a bidi control in a name", json.dumps(
        {"players": ["Ana\u202e", "Ben"], "rounds": [{"Ana\u202e": [], "Ben": []}]}),
     ("player Ana<U+202E>",)),
    ("a name of 41 characters", json.dumps(
        {"players": ["A" * 41, "Ben"], "rounds": [{"A" * 41: [], "Ben": []}]}),
     ("at most 40 characters",)),
    ("a card of 100,000 characters with an escape", two({"Ana": ["\x1b[2J" + "q" * 10**5],
                                                          "Ben": []}),
     ("card \u241b[2Jqqq", "…")),
]


@pytest.mark.parametrize(
    ("stdin", "fragments"),
    [(text, fragments) for _, text, fragments in BAD_GAMES],
    ids=[name for name, _, _ in BAD_GAMES],
)
def test_bad_input(stdin: str, fragments: tuple[str, ...]) -> None:
    message = bad(run(MODULE, "score", stdin=stdin), *fragments)
    assert "\x1b" not in message and "\u202e" not in message and len(message) < 400


def test_an_endless_file_is_not_read_to_its_end() -> None:
    bad(run(MODULE, "score", "/dev/zero"), "/dev/zero is not a file")
    bad(run(MODULE, "score", stdin=b"\0" * 2_000_000), "- is bigger than 1 MB")


@ENTRY_POINTS
def test_bad_input_from_a_file(command: list[str], tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    rounds = [{"Ana": ["f"] * 4, "Ben": ["f"] * 3}, {"Ana": ["f"] * 3, "Ben": ["w2", "f"]}]
    path.write_text(json.dumps({"players": ["Ana", "Ben"], "rounds": rounds}), encoding="utf-8")
    bad(run(command, "score", str(path)), "round 2", "player Ben", "card f", "10")


def test_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.json"
    bad(run(MODULE, "score", str(missing)), str(missing))


def test_a_directory_is_not_a_game(tmp_path: Path) -> None:
    bad(run(MODULE, "score", str(tmp_path)), str(tmp_path))


def test_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes('{"players": ["Zoë", "Ana"]}'.encode("latin-1"))
    bad(run(MODULE, "score", str(path)), "UTF-8")


def test_deeply_nested_json() -> None:
    # valid JSON, but not a game; must be refused like any other bad input,
    # not crash with a RecursionError traceback
    bad(run(MODULE, "score", stdin="[" * 100_000 + "]" * 100_000))


def test_player_listed_twice_in_a_round() -> None:
    # JSON objects with a repeated key silently keep the last value: Ana's
    # first list of cards would be lost without a word
    text = '{"players": ["Ana", "Ben"], "rounds": [{"Ana": ["x", "x"], "Ben": [], "Ana": []}]}'
    bad(run(MODULE, "score", stdin=text), "round 1", "player Ana")


# -- companion codes --------------------------------------------------------------

CODES_IN_ORDER = ["t", "s", "x", "q", "p", "f", "w1", "w2", "w3", "o1", "o2", "o3", "d"]
BOX_DRAWING = re.compile("[\u2500-\u259f\u25a0-\u25ff|]")


def check_reference(stdout: str) -> None:
    lines = stdout.splitlines()
    # a heading, then one line per card (the 12 base cards and soy sauce)
    assert len(lines) == 1 + len(CODES_IN_ORDER)
    for line in lines:
        assert line.strip() == line
        assert line
        assert not BOX_DRAWING.search(line), line
        assert "\x1b" not in line
        assert "\t" not in line
    for line, code in zip(lines[1:], CODES_IN_ORDER, strict=True):
        assert re.search(rf"(?<!\w){code}(?!\w)", line), (code, line)
    for code in ("w1", "w2", "w3", "o1", "o2", "o3"):
        assert sum(1 for line in lines if code in line) == 1


@pytest.mark.sampled
@ENTRY_POINTS
@pytest.mark.parametrize("lang", ["en", "fr", "cs", "ru"])
def test_codes(command: list[str], lang: str) -> None:
    done = run(command, "codes", "--lang", lang)
    assert done.returncode == 0
    assert done.stderr == ""
    check_reference(done.stdout)


def test_codes_default_language_is_english() -> None:
    done = run(MODULE, "codes")
    assert done.returncode == 0
    check_reference(done.stdout)
    lines = done.stdout.splitlines()
    assert lines[0] == "Tactile codes: shape key, then 1 top, 2 middle, 3 bottom."
    assert lines[1] == "Triangle: Wasabi, triples the next nigiri. Code t."
    assert lines[9] == "Window, bottom: Squid nigiri, 3 points, 9 on wasabi. Code w3."
    assert lines[11] == "Circle, middle: Maki 2, 2 maki icons. Code o2."


def test_unknown_language_is_refused() -> None:
    done = run(MODULE, "codes", "--lang", "de")
    assert done.returncode == 2
    assert done.stdout == ""
    assert "de" in done.stderr


@ENTRY_POINTS
def test_no_command_starts_the_app_and_an_empty_input_ends_it(
    command: list[str], tmp_path: Path
) -> None:
    env = {**environment(), "COMPANION_CONFIG_DIR": str(tmp_path),
           "COMPANION_DATA_DIR": str(tmp_path)}
    done = subprocess.run(command, input=b"", capture_output=True, timeout=60, env=env,
                          check=False)
    assert done.returncode == 0
    lines = done.stdout.decode().splitlines()
    assert lines[0] == "Language / Langue / Jazyk / Язык:"
    assert lines[-1] == "Goodbye."
    assert done.stderr == b""


def test_version() -> None:
    done = run(MODULE, "--version")
    assert done.returncode == 0
    assert done.stdout.strip() == "companion 0.1.0"


@pytest.mark.sampled
@pytest.mark.parametrize(("variable", "value", "lang"),
                         [("LANG", "cs_CZ.UTF-8", "cs"), ("LANGUAGE", "de:ru", "ru")])
def test_language_from_the_environment(variable: str, value: str, lang: str) -> None:
    env = environment()
    env[variable] = value
    done = subprocess.run([*MODULE, "codes"], capture_output=True, env=env, timeout=60,
                          check=False)
    assert done.returncode == 0
    assert done.stdout.decode("utf-8") == run(MODULE, "codes", "--lang", lang).stdout
    assert done.stdout.decode("utf-8") != run(MODULE, "codes", "--lang", "en").stdout


# -- robustness and languages --------------------------------------------------------


def test_a_byte_order_mark_is_accepted() -> None:
    done = run(MODULE, "score", stdin=b"\xef\xbb\xbf" + json.dumps(EXAMPLE).encode())
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["total"] == EXAMPLE_OUTPUT["total"]


def test_a_closed_pipe_ends_quietly() -> None:
    # `companion score --explain | head -c 10`: the reader goes away early.
    reader = subprocess.Popen(
        ["head", "-c", "10"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL
    )
    assert reader.stdin is not None
    writer = subprocess.run(
        [*MODULE, "codes"], stdout=reader.stdin, stderr=subprocess.PIPE,
        env=environment(), timeout=60, check=False,
    )
    reader.stdin.close()
    reader.wait(timeout=60)
    assert writer.returncode == 0
    assert writer.stderr == b""


def test_the_language_may_come_before_the_command() -> None:
    before = run(MODULE, "--lang", "fr", "codes")
    after = run(MODULE, "codes", "--lang", "fr")
    assert before.returncode == after.returncode == 0
    assert before.stdout == after.stdout
    assert "Fenêtre" in before.stdout


@pytest.mark.parametrize(
    ("language", "fragments"),
    [
        ("en", ("round 1", "player Ana", "card w4", "Egg nigiri")),
        ("fr", ("Ana", "w4", "Sushi à l'omelette")),
        ("cs", ("Ana", "w4", "Vaječné nigiri")),
        ("ru", ("Ana", "w4", "Нигири с яйцом")),
    ],
)
def test_errors_speak_the_chosen_language(language: str, fragments: tuple[str, ...]) -> None:
    message = bad(
        run(MODULE, "score", "--lang", language, stdin=two({"Ana": ["w4"], "Ben": []})),
        *fragments,
    )
    if language != "en":
        assert "round 1" not in message


def test_a_file_error_names_the_round_player_and_card_in_czech() -> None:
    rounds = {"Ana": ["w2"] * 10, "Ben": ["w2"]}
    message = bad(run(MODULE, "score", "--lang", "cs", stdin=two(rounds)), "Ben", "w2")
    assert "Lososové nigiri" in message


def test_engine_games_score_the_same_through_the_command() -> None:
    for seed, (players, variant) in enumerate(
        [(3, Variant()), (5, Variant(soy_sauce=3)), (2, Variant(dummy=True))]
    ):
        game = Game(players, rng=random.Random(seed), variant=variant)
        game.play_random(random.Random(seed + 1))
        names = ["P1", "P2", "P3", "P4", "P5"][: game.seats]
        data = {
            "players": names,
            "rounds": [
                {n: [c.id for c in t] for n, t in zip(names, r, strict=True)}
                for r in game.finished_rounds
            ],
            "variant": {"soy_sauce": variant.soy_sauce > 0, "soy_sauce_count": 3},
            "dummy": names[2] if variant.dummy else None,
        }
        done = run(MODULE, "score", stdin=json.dumps(data))
        assert done.returncode == 0, done.stderr
        scored = json.loads(done.stdout)
        result = game.result()
        assert list(scored["total"].values()) == list(result.totals)
        assert scored["winners"] == [names[s] for s in result.winners]


# -- files read and written with care ------------------------------------------------------------


def test_a_named_pipe_is_refused_at_once(tmp_path: Path) -> None:
    pipe = tmp_path / "game.json"
    os.mkfifo(pipe)  # nobody writes: a plain open would wait for ever (run's timeout)
    bad(run(MODULE, "score", str(pipe)),
        f"{pipe} is not a file (a folder, a named pipe or a device): give a game file, "
        "or - to read standard input.")


def test_a_link_to_an_endless_device_is_refused_unread(tmp_path: Path) -> None:
    link = tmp_path / "game.json"
    link.symlink_to("/dev/zero")
    bad(run(MODULE, "score", str(link)), f"{link} is not a file")


@pytest.mark.system
def test_say_never_writes_over_a_file_nor_through_a_link(tmp_path: Path) -> None:
    mine = tmp_path / "mine.wav"
    mine.write_bytes(b"RIFF my recording")
    outside = tmp_path / "outside.txt"
    outside.write_text("kept")
    link = tmp_path / "link.wav"
    link.symlink_to(outside)
    for target in (mine, link):
        done = run(MODULE, "say", "Wasabi.", "--backend", "espeak-ng", "--to", str(target))
        assert done.returncode == 2
        assert done.stderr == (f"companion say: {target} is there already and is left as it "
                               "is: give the name of a new file.\n")
    assert mine.read_bytes() == b"RIFF my recording" and outside.read_text() == "kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.wav", "mine.wav", "outside.txt"]
    new = tmp_path / "new.wav"
    done = subprocess.run([*MODULE, "say", "Wasabi.", "--backend", "espeak-ng", "--to", str(new)],
                          capture_output=True, text=True, timeout=60, env=environment(),
                          check=False, umask=0)
    assert done.returncode == 0, done.stderr
    assert new.read_bytes()[:4] == b"RIFF" and stat.S_IMODE(new.stat().st_mode) == 0o644
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "link.wav", "mine.wav", "new.wav", "outside.txt"]


@pytest.mark.system
def test_say_writes_its_file_on_a_disk_without_hard_links(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A FAT or exFAT stick takes no hard link: the sound is copied to the new
    file instead, and still never over one."""
    from companion import cli  # noqa: PLC0415

    def no_links(source: object, target: object) -> None:
        raise OSError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    new = tmp_path / "new.wav"
    assert cli.main(["say", "Wasabi.", "--backend", "espeak-ng", "--to", str(new)]) == 0
    assert new.read_bytes()[:4] == b"RIFF"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.wav"]
    assert cli.main(["say", "Wasabi.", "--backend", "espeak-ng", "--to", str(new)]) == 2
    assert "is there already and is left as it is" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.wav"]


# -- what a game has, or has not ------------------------------------------------


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "companion score: Mici Maki has no points to score: the fewest tokens win.\n"),
    ("cs", "companion score: Mici Maki nemá body k sečtení: vyhrává nejméně žetonů.\n"),
])
def test_a_game_without_scoring_says_why_in_its_own_words(lang: str, said: str) -> None:
    done = run(MODULE, "score", "--game", "mici-maki", "--lang", lang, stdin="{}")
    assert bad(done) == said


def test_a_game_without_variants_refuses_one() -> None:
    done = run(MODULE, "simulate", "--game", "mici-maki", "--players", "3", "--games", "2",
               "--variant", "dummy")
    assert bad(done) == "companion simulate: Mici Maki has no variants of its rules.\n"
    plain = run(MODULE, "simulate", "--game", "mici-maki", "--players", "3", "--games", "2",
                "--variant", "none", "--json")
    assert plain.returncode == 0 and json.loads(plain.stdout)["games"] == 2


def test_a_simulation_is_worded_in_the_language_asked_and_its_json_is_the_games() -> None:
    args = ("simulate", "--players", "2", "--games", "3", "--bots", "greedy,random")
    french = run(MODULE, "--lang", "fr", *args)
    assert french.returncode == 0, french.stderr
    lines = french.stdout.splitlines()
    assert lines[0].startswith("greedy : ") and "de victoires (95 % : de " in lines[0]
    assert lines[-1].startswith("3 parties en ") and lines[-1].endswith(" parties par seconde")
    english = run(MODULE, *args).stdout.splitlines()
    assert re.fullmatch(r"greedy: wins \d+\.\d% \(95% \d+\.\d% to \d+\.\d%\), mean score "
                        r"\d+\.\d", english[0]), english
    data = json.loads(run(MODULE, "--lang", "ru", *args, "--json").stdout)
    assert set(data) == {"games", "games_per_second", "bots"}


def test_mici_makis_risk_is_a_command_of_its_own_in_every_language() -> None:
    args = ("risk", "--draw", "40", "--overeating", "2", "--eat", "12")
    assert run(MODULE, *args).stdout == "Risk of overeating: 51.5%.\n"
    assert run(MODULE, *args, "--lang", "ru").stdout == "Риск переедания: 51,5 %.\n"
    assert json.loads(run(MODULE, *args, "--json").stdout) == {
        "probability": 0.5153846153846153}
    assert "risk" in run(MODULE, "--help").stdout


@pytest.mark.sampled
@pytest.mark.parametrize(("args", "english", "french"), [
    (("--players", "9"), "companion simulate: Sushi Go! is for 2 to 5 players.\n",
     "companion simulate: Sushi Go! se joue de 2 à 5 joueurs.\n"),
    (("--bots", "wizard"),
     "companion simulate: There is no bot called 'wizard': choose from advisor, greedy, "
     "random.\n",
     "companion simulate: Aucun bot ne s'appelle 'wizard' : choisissez parmi advisor, "
     "greedy, random.\n"),
    (("--game", "mici-maki", "--players", "2"),
     "companion simulate: Mici Maki is for 3 to 7 players, not 2.\n",
     "companion simulate: Mici Maki se joue de 3 à 7 joueurs, pas 2.\n"),
])
def test_a_games_refusal_is_said_in_the_language_asked(
        args: tuple[str, ...], english: str, french: str) -> None:
    asked = ("simulate", "--games", "2", *args)
    assert bad(run(MODULE, *asked)) == english
    assert bad(run(MODULE, "--lang", "fr", *asked)) == french


def test_a_games_own_command_refuses_in_the_language_asked() -> None:
    from companion.contract.game import Commands, GameInputError, capability  # noqa: PLC0415
    from companion.games import game  # noqa: PLC0415

    plugin = game("mici-maki")
    commands = capability(plugin, Commands)
    assert commands is not None
    with pytest.raises(GameInputError) as refused:
        commands.run_command("risk", {"draw": 40}, "cs")
    assert str(refused.value) == "Give --draw, --overeating and --eat."
    assert refused.value.text(plugin.catalog("cs")) == "Zadejte --draw, --overeating a --eat."


def test_the_help_names_the_games_of_the_registry_a_third_one_too() -> None:
    from companion.cli import _GamesHelp  # noqa: PLC0415
    from companion.contract.game import SomeGame  # noqa: PLC0415
    from companion.games import games  # noqa: PLC0415
    from tests.companion.games.memory.plugin import PLUGIN  # noqa: PLC0415

    english = Catalog.for_language("en")
    two = _GamesHelp.of(games(), english)
    three = _GamesHelp.of({**games(), PLUGIN.game: cast("SomeGame", PLUGIN)}, english)
    low, high = PLUGIN.players
    assert three.games == two.games.replace(" or ", f", {PLUGIN.game} or ")
    # the default game first, then the others by name: memory before mici-maki
    assert three.players == two.players.replace(", ", f", {PLUGIN.title} {low} to {high}, ")
    assert three.bots == two.bots.replace("; ", f"; {PLUGIN.title} random (default random); ")
    assert three.variants == two.variants  # it has none
    helped = run(MODULE, "simulate", "--help").stdout
    assert " ".join(helped.split()).count(" ".join(two.bots.split())) == 1


@pytest.mark.sampled
@pytest.mark.parametrize(("args", "english", "russian"), [
    (("bench", "scan", "--rate", "0"), "companion bench: Give a time and a rate above 0.\n",
     "companion bench: Укажите время и частоту больше 0.\n"),
    (("bench", "advisor", "--games", "0"),
     "companion bench: Play at least one game: give 1 or more.\n",
     "companion bench: Сыграйте хотя бы одну партию: укажите 1 или больше.\n"),
    (("simulate", "--games", "0"), "companion simulate: Play at least one game: give 1 or more.\n",
     "companion simulate: Сыграйте хотя бы одну партию: укажите 1 или больше.\n"),
])
def test_the_apps_own_refusals_are_said_in_the_language_asked(
        args: tuple[str, ...], english: str, russian: str) -> None:
    assert bad(run(MODULE, *args)) == english
    assert bad(run(MODULE, "--lang", "ru", *args)) == russian


def test_the_benchmarks_figures_are_worded_in_the_language_asked() -> None:
    from companion.bench import ScanFigures, SpeechFigures  # noqa: PLC0415
    from companion.cli import scan_lines, speech_line  # noqa: PLC0415

    english, french = Catalog.for_language("en"), Catalog.for_language("fr")
    heard = SpeechFigures("pyttsx3", 40.0, 55.5, 2.0, 20, 60.0, 70.0, 5.0)
    assert speech_line(heard, english) == heard.describe()
    assert speech_line(heard, french) == (
        "pyttsx3 : démarrage p50 40,0 ms, p95 55,5 ms ; interruption en 2,0 ms au plus ; "
        "premier son p50 60,0 ms, p95 70,0 ms ; arrêt en 5,0 ms au plus (20 essais)")
    scanned = ScanFigures(0.25, 1.5, 100, 99, 1, 0, 1.0)
    assert scan_lines(scanned, 100.0, french) == [
        "latence du scan : p50 0,25 ms, p99 1,50 ms",
        "100 envoyés à 100 par seconde, 99 reçus, 1 perdus, 0 en double"]


#: espeak-ng as it behaves on a machine with no sound card (it writes why on
#: its standard error and ends well), and one that cannot write a file.
SOUNDLESS_ESPEAK = ('#!/bin/sh\n/bin/cat > /dev/null\n'
                    'echo "error: No such file or directory" >&2\nexit 0\n')
BROKEN_ESPEAK = "#!/bin/sh\nexit 1\n"
#: What ``companion say`` says when its voice cannot speak, in each language.
SAY_REFUSALS = {
    "en": ("espeak-ng is not installed here: install it, or give another voice with "
           "--backend.",
           "espeak-ng found no sound output: connect speakers or headphones, or write the "
           "sound to a file with --to.",
           "espeak-ng could not write the sound file: give another voice with --backend."),
    "fr": ("espeak-ng n'est pas installé ici : installez-le, ou indiquez une autre voix avec "
           "--backend.",
           "espeak-ng n'a trouvé aucune sortie son : branchez des haut-parleurs ou un casque, "
           "ou écrivez le son dans un fichier avec --to.",
           "espeak-ng n'a pas pu écrire le fichier son : indiquez une autre voix avec "
           "--backend."),
    "cs": ("espeak-ng tu není nainstalován: nainstalujte ho, nebo zadejte jiný hlas pomocí "
           "--backend.",
           "espeak-ng nenašel žádný zvukový výstup: připojte reproduktory nebo sluchátka, "
           "nebo zapište zvuk do souboru pomocí --to.",
           "espeak-ng nedokázal zapsat zvukový soubor: zadejte jiný hlas pomocí --backend."),
    "ru": ("espeak-ng здесь не установлен: установите его или укажите другой голос с "
           "--backend.",
           "espeak-ng не нашёл звукового выхода: подключите колонки или наушники или "
           "запишите звук в файл с --to.",
           "espeak-ng не смог записать звуковой файл: укажите другой голос с --backend."),
}


@pytest.mark.parametrize("language", sorted(SAY_REFUSALS))
def test_say_tells_why_its_voice_did_not_speak_and_what_to_do(
        tmp_path: Path, language: str) -> None:
    """Its voice missing, finding no sound output, or failing to write the
    file: one sentence in the player's language, from the voice's cause,
    with what to do; a text that nobody said aloud is a failure."""
    missing, soundless, unwritten = SAY_REFUSALS[language]
    programs = tmp_path / "bin"
    programs.mkdir()

    def say(*args: str) -> subprocess.CompletedProcess[str]:
        env = environment() | {"PATH": str(programs), "XDG_RUNTIME_DIR": str(tmp_path)}
        return subprocess.run([*MODULE, "say", "Wasabi.", "--backend", "espeak-ng",
                               "--lang", language, *args], capture_output=True, text=True,
                              timeout=60, env=env, check=False)

    done = say()
    assert (done.returncode, done.stdout, done.stderr) == (
        1, "none: Wasabi.\n", f"companion say: {missing}\n")
    espeak = programs / "espeak-ng"
    espeak.write_text(SOUNDLESS_ESPEAK)
    espeak.chmod(0o755)
    done = say()
    assert (done.returncode, done.stdout, done.stderr) == (
        1, "none: Wasabi.\n", f"companion say: {soundless}\n")
    espeak.write_text(BROKEN_ESPEAK)
    done = say("--to", str(tmp_path / "said.wav"))
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"companion say: {unwritten}\n")
    assert not (tmp_path / "said.wav").exists()
