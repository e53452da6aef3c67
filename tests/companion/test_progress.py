"""Progress lines of long work (companion/progress.py): on a clock the test
moves, into a stream it reads; then the real commands, whose lines are
checked for their shape (never their timing)."""

from __future__ import annotations

import io
import itertools
import json
import os
import pty
import re
import subprocess
import sys

import pytest

from companion.games.micimaki.simulate import simulate as mici_maki_simulate
from companion.games.sushigo.simulate import simulate as sushigo_simulate
from companion.i18n import Catalog
from companion.progress import (
    EVERY,
    QUIET_FOR,
    QUIET_VARIABLE,
    Progress,
    duration,
    games_done,
    steps_done,
)


class Clock:
    """A clock that moves only when the test says."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def progress(language: str = "en", total: int = 400, **options: object
             ) -> tuple[Progress, Clock, io.StringIO]:
    clock, stream = Clock(), io.StringIO()
    made = Progress(Catalog.for_language(language), games_done, total, clock=clock,
                    stream=stream, **options)  # type: ignore[arg-type]
    return made, clock, stream


def lines(stream: io.StringIO) -> list[str]:
    text = stream.getvalue()
    assert "\r" not in text and "\x1b" not in text, repr(text)  # never a bar redrawn
    assert text == "" or text.endswith("\n"), repr(text)
    return text.splitlines()


def test_short_work_says_nothing() -> None:
    told, clock, stream = progress(title="Simulating 400 games…")
    for done in range(1, 401):
        clock.now += (QUIET_FOR - 0.1) / 400
        told(done, 400)
    told.finish()
    assert lines(stream) == []


def test_work_known_to_be_long_says_so_at_once_then_a_line_every_few_seconds() -> None:
    told, clock, stream = progress(title="Simulating 400 games…", long=True)
    assert lines(stream) == ["Simulating 400 games…"]
    for done in range(1, 401):  # 1/8 s a game: 50 s in all
        clock.now += 0.125
        told(done, 400)
    told.finish()
    said = lines(stream)
    assert said[0] == "Simulating 400 games…"
    assert said[1] == "40 of 400 games, 45 s left"  # at 5 s: 40 done, 360 to go
    assert said[-1] == "400 of 400 games, done in 50 s"
    middle = said[1:-1]
    assert len(middle) == 9  # at 5, 10, ... 45 s: at most one line in EVERY seconds
    assert all(re.fullmatch(r"\d+ of 400 games, \d+ s left", line) for line in middle), middle


def test_lines_come_at_most_every_few_seconds_however_often_it_is_told() -> None:
    told, clock, stream = progress(long=True)
    for done in range(1, 10_001):
        clock.now += 0.003
        told(done, 10_000)
    # 30 s: the title, then a line at 5, 10, 15, 20 and 25 s (the end is finish's)
    assert len(lines(stream)) == 1 + int(30 / EVERY) - 1


def test_the_quiet_limit_of_a_run_may_be_set_in_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With the limit 0 s (as the real runs below have it), even work that
    ends at once opens with its title and ends with its last line."""
    monkeypatch.setenv(QUIET_VARIABLE, "0")
    told, clock, stream = progress(title="Simulating 400 games…")
    clock.now += 0.001
    told(1, 400)
    assert lines(stream) == ["Simulating 400 games…"]
    told(400, 400)
    told.finish()
    assert lines(stream) == ["Simulating 400 games…", "400 of 400 games, done in 1 s"]
    monkeypatch.setenv(QUIET_VARIABLE, "soon")  # not a number: the usual limit
    told, clock, stream = progress(title="Simulating 400 games…")
    clock.now += QUIET_FOR - 0.1
    told(400, 400)
    told.finish()
    assert lines(stream) == []


def test_work_whose_pace_shows_it_long_says_so_early() -> None:
    told, clock, stream = progress(title="Simulating 400 games…")
    clock.now += 0.4
    told(10, 400)  # too soon to trust the pace
    assert lines(stream) == []
    clock.now += 0.2
    told(15, 400)  # 0.6 s for 15 games: 16 s for 400
    assert lines(stream) == ["Simulating 400 games…"]


def test_work_without_a_title_opens_with_its_progress_after_a_while() -> None:
    told, clock, stream = progress(total=1000)
    clock.now += QUIET_FOR
    told(800, 1000)  # the pace says it ends soon, but it has run long enough to say
    assert lines(stream) == ["800 of 1000 games, 1 s left"]


def test_the_work_may_tell_its_total_as_it_goes() -> None:
    told, clock, stream = progress(total=0, long=True, title="Timing…")
    clock.now += EVERY
    told(3, 6)
    clock.now += 5
    told(6, 6)
    told.finish()
    assert lines(stream) == ["Timing…", "3 of 6 games, 5 s left", "6 of 6 games, done in 10 s"]


def test_work_left_out_leaves_its_time_out_of_the_pace() -> None:
    """A speech engine that does not speak costs its wait, then its runs
    leave the total: the time left is the pace of the work still done."""
    told, clock, stream = progress(total=0, long=True, title="Timing…")
    told(0, 60)  # the total, once known
    clock.now += 10
    told(0, 40)  # 10 s lost on work left out
    clock.now += 2
    told(10, 40)
    clock.now += 3
    told(25, 40)  # 5 s for 25 runs since: 15 runs in 3 s
    assert lines(stream) == ["Timing…", "0 of 40 games", "25 of 40 games, 3 s left"]


def test_work_cut_short_says_nothing_more() -> None:
    told, clock, stream = progress(long=True, title="Timing…")
    with pytest.raises(KeyboardInterrupt), told:
        clock.now += 1
        told(1, 400)
        raise KeyboardInterrupt
    assert lines(stream) == ["Timing…"]


@pytest.mark.parametrize(("language", "want"), [
    ("fr", ["1 sur 1 partie, terminé en 3 s"]),
    ("cs", ["1 z 1 hry, hotovo za 3 s"]),
    ("ru", ["1 из 1 партии, готово за 3 с"]),
])
def test_the_lines_are_in_the_players_language_with_the_plural_of_the_count(
        language: str, want: list[str]) -> None:
    told, clock, stream = progress(language, total=1)
    clock.now += 3
    told(1, 1)  # long enough: said, and as the last line
    told.finish()
    assert lines(stream)[-1:] == want


@pytest.mark.parametrize(("language", "done", "total", "want"), [
    ("en", 120, 400, "120 of 400 games, 25 s left"),
    ("fr", 120, 400, "120 sur 400 parties, encore 25 s"),
    ("cs", 2, 3, "2 z 3 her, zbývá 1 s"),
    ("ru", 20, 21, "20 из 21 партии, осталось 1 с"),
    ("ru", 120, 400, "120 из 400 партий, осталось 25 с"),
])
def test_the_time_left_follows_the_pace(language: str, done: int, total: int,
                                        want: str) -> None:
    told, clock, _ = progress(language, total=total)
    clock.now += 10 * done / 120
    told(done, total)
    assert told.line(clock.now) == want


def test_a_standard_error_gone_never_stops_the_work() -> None:
    class Gone(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    told = Progress(Catalog.for_language("en"), steps_done, 5, long=True, title="Making…",
                    stream=Gone(), clock=Clock())
    told(5, 5)
    told.finish()


def test_times_are_short_and_rounded() -> None:
    words = Catalog.for_language("en")
    assert [duration(words, s) for s in (0.01, 9.5, 12, 59, 61, 118, 121, 3600)] == [
        "1 s", "10 s", "10 s", "1 min", "1 min", "2 min", "2 min", "60 min"]
    assert duration(Catalog.for_language("ru"), 95) == "1 мин 35 с"


def test_the_games_tell_every_game_played_and_their_figures_are_the_same() -> None:
    """Sushi Go! with workers (their shares come back in order) and alone,
    Mici Maki in one process: told up to the last game, the same results."""
    told: list[tuple[int, int]] = []
    alone = sushigo_simulate(["greedy", "random"], 40, seed=3)
    shared = sushigo_simulate(["greedy", "random"], 40, seed=3, workers=2,
                              progress=lambda done, total: told.append((done, total)))
    assert [(e.wins, e.points) for e in shared.entrants] == [
        (e.wins, e.points) for e in alone.entrants]
    assert told[-1] == (40, 40) and len(told) > 2
    assert all(a[0] < b[0] for a, b in itertools.pairwise(told)), told
    counted: list[int] = []
    mici_maki_simulate(players=3, games=30, bots=["cautious"], seed=1,
                       progress=lambda done, _: counted.append(done))
    assert counted == list(range(1, 31))


#: A progress line of ``companion simulate --games 1500`` in English.
SIMULATE_LINE = re.compile(r"1500 of 1500 games, done in \d+ s|\d+ of 1500 games, \d+ (s|min) left")


def simulate_long(stderr: int | None, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """Mici Maki games (about 1 ms a game), told however fast the machine:
    the run's quiet limit is 0 s, so that it says its title at the first
    game and its last line at the end (and a line every few seconds
    between, if it lasts that long)."""
    env = {**env, QUIET_VARIABLE: "0"}
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "--lang", "en", "simulate", "--game", "mici-maki",
         "--players", "5", "--games", "1500", "--seed", "2", "--json"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr, env=env)


def check_lines(said: list[str]) -> None:
    """However long it took: the title, lines of progress, and the last."""
    assert len(said) >= 2, said
    assert said[0] == "Simulating 1500 games…", said
    assert said[-1].startswith("1500 of 1500 games, done in "), said
    assert all(SIMULATE_LINE.fullmatch(line) for line in said[1:]), said


def test_short_work_leaves_standard_error_and_output_as_they_were() -> None:
    """The quick loop's check of the commands' progress (the long runs below
    are slow): work that ends at once says nothing, its report is the same."""
    env = {k: v for k, v in os.environ.items() if k != QUIET_VARIABLE}
    done = subprocess.run(
        [sys.executable, "-m", "companion", "simulate", "--game", "mici-maki", "--games", "20",
         "--seed", "2", "--json"], capture_output=True, text=True, timeout=120, check=False,
        env=env)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    figures = mici_maki_simulate(players=4, games=20, bots=["cautious"], seed=2)
    report = json.loads(done.stdout)
    assert done.stdout == json.dumps(report, ensure_ascii=False) + "\n"
    assert {k: v for k, v in report.items() if k != "games_per_second"} == {
        k: v for k, v in figures.data.items() if k != "games_per_second"}


@pytest.mark.slow  # the quick loop has the short run above and the lines on a fake clock
def test_simulate_tells_its_progress_on_standard_error_and_only_there() -> None:
    env = {**os.environ, "ACCESSIBLE": "1"}
    process = simulate_long(subprocess.PIPE, env)
    out, errors = process.communicate(timeout=300)
    assert process.returncode == 0, errors
    text = errors.decode()
    assert "\r" not in text and "\x1b" not in text, repr(text)
    check_lines(text.splitlines())
    report = json.loads(out)  # standard output is the report alone, as without progress
    assert out.decode() == json.dumps(report, ensure_ascii=False) + "\n"
    figures = mici_maki_simulate(players=5, games=1500, bots=["cautious"], seed=2)
    assert {k: v for k, v in report.items() if k != "games_per_second"} == {
        k: v for k, v in figures.data.items() if k != "games_per_second"}


@pytest.mark.slow  # the same lines as through a pipe (the test above): no bar on a terminal
def test_simulate_tells_its_progress_in_whole_lines_on_a_terminal() -> None:
    env = {k: v for k, v in os.environ.items() if k != "ACCESSIBLE"}
    leader, follower = pty.openpty()
    try:
        process = simulate_long(follower, env)
        os.close(follower)
        follower = -1
        received = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal's other end is closed: all is read
                break
            if not chunk:
                break
            received += chunk
        process.communicate(timeout=300)
    finally:
        os.close(leader)
        if follower >= 0:
            os.close(follower)
    assert process.returncode == 0
    text = received.decode()
    assert "\x1b" not in text, repr(text)
    assert "\r" not in text.replace("\r\n", ""), repr(text)  # the terminal's own line ends only
    check_lines(text.replace("\r\n", "\n").splitlines())
