"""The ``companion`` command.

Subcommands:

``companion codes [--lang xx]``
    The tactile code reference, a card a line.
``companion score [FILE|-] [--explain] [--lang xx]``
    Score a game written as JSON (see :mod:`companion.games.sushigo.gamefile`).
``companion simulate --players N --games K [--bots ...] [--variant ...]``
    Whole games between bots: wins, mean scores, throughput.
``companion say TEXT [--lang xx] [--backend NAME] [--to FILE.wav]``
    Speak a sentence, or write it to a WAV file.
``companion bench engine|advisor|scan|speech [--json]``
    Speed figures for developers.

With no subcommand it greets the player and prints the code reference.
Output is plain lines, read in order by a screen reader or braille display:
no tables, no colour, nothing that moves.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO, TextIO

from companion import __version__
from companion.games.sushigo.gamefile import GameFileError, load_game_bytes
from companion.games.sushigo.narration import codes_reference, explain_game, game_file_error_text
from companion.i18n import DEFAULT_LANGUAGE, LANGUAGES, Catalog
from companion.plain import Plain
from companion.settings import Settings, SettingsError, load_settings
from voices.base import Priority, SpeechError
from voices.choose import BACKENDS, FallbackSpeaker, Switched, make_backend

EXIT_OK = 0
EXIT_BAD_INPUT = 2


def default_language(environ: os._Environ[str] | dict[str, str] = os.environ) -> str:
    """The first supported language named by LANGUAGE, LC_ALL, LC_MESSAGES or LANG.

    >>> default_language({"LANG": "cs_CZ.UTF-8"})
    'cs'
    >>> default_language({"LANGUAGE": "de:fr", "LANG": "de_DE.UTF-8"})
    'fr'
    >>> default_language({})
    'en'
    """
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for entry in environ.get(variable, "").split(":"):
            code = entry.split("_")[0].split(".")[0].lower()
            if code in LANGUAGES:
                return code
    return DEFAULT_LANGUAGE


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Companion for tactile Sushi Go! cards: codes and exact scores.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=None,
        help="language of the output (default: from LANG, else en)",
    )
    parser.add_argument(
        "--plain", action="store_true",
        help="plain line mode: numbered prompts, output that only grows",
    )
    parser.add_argument(
        "--scanner", metavar="PORT", default=None,
        help="the NFC scanner for this run: a port such as /dev/ttyACM0, auto to find it, "
             "virtual for firmware-bridge simulate's, none for typed codes only "
             "(default: as in the settings)",
    )
    # Also accepted after the command; SUPPRESS keeps it from hiding the
    # value given before the command.
    language = argparse.ArgumentParser(add_help=False)
    language.add_argument(
        "--lang", choices=LANGUAGES, default=argparse.SUPPRESS, help=argparse.SUPPRESS
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.add_parser(
        "codes", parents=[language], help="print the tactile code reference, a card a line"
    )
    score = commands.add_parser(
        "score", parents=[language], help="score a game written as JSON"
    )
    score.add_argument("file", nargs="?", default="-", help="JSON game file, or - for stdin")
    score.add_argument(
        "--explain", action="store_true", help="explain every score in sentences"
    )
    say = commands.add_parser(
        "say", parents=[language], help="speak a sentence, or write it to a WAV file"
    )
    say.add_argument("text", help="what to say")
    say.add_argument("--backend", choices=BACKENDS, default=None,
                     help="speech backend (default: the first that works here)")
    say.add_argument("--to", type=Path, default=None, help="write a WAV file instead")
    sim = commands.add_parser("simulate", help="play whole games between bots")
    sim.add_argument("--players", type=int, default=4, help="2 to 5 (default 4)")
    sim.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    sim.add_argument(
        "--bots", default="greedy",
        help="bot per player, comma separated: random, greedy, advisor (default greedy)",
    )
    sim.add_argument("--seed", type=int, default=0, help="seed of the series (default 0)")
    sim.add_argument(
        "--variant", default="", help="pass-both-ways, dummy, soy-sauce[=N], comma separated"
    )
    sim.add_argument("--workers", type=int, default=1, help="processes to use (default 1)")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    bench = commands.add_parser("bench", help="measure speed (figures for developers)")
    bench.add_argument(
        "what", choices=["engine", "advisor", "scan", "speech", "ui"], help="what to measure"
    )
    bench.add_argument(
        "--rate", type=float, default=200.0, help="scan: scans a second (default 200)"
    )
    bench.add_argument(
        "--games", type=int, default=200, help="advisor: games per table size (default 200)"
    )
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.add_argument(
        "--seconds", type=float, default=None,
        help="engine: time per table size (default 2); scan: how long (default 10)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        status = _main(argv)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as other tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    return status


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    catalog = Catalog.for_language(args.lang or default_language())
    if args.command == "score":
        return score(args.file, explain=args.explain, catalog=catalog)
    if args.command == "bench" and args.what == "advisor":
        return bench_advisor_command(games=args.games, as_json=args.json)
    if args.command == "bench" and args.what == "ui":
        return bench_ui_command(as_json=args.json)
    if args.command == "bench" and args.what == "speech":
        return bench_speech_command(as_json=args.json)
    if args.command == "say":
        return say_command(args.text, language=args.lang or default_language(),
                           backend=args.backend, to=args.to)
    if args.command == "bench" and args.what == "scan":
        return bench_scan_command(seconds=args.seconds or 10.0, rate=args.rate, as_json=args.json)
    if args.command == "bench":
        return bench_engine_command(seconds=args.seconds or 2.0, as_json=args.json)
    if args.command == "simulate":
        return simulate_command(args)
    if args.command is None:
        return run_app(args.lang, plain=args.plain, scanner=args.scanner)
    for line in codes_reference(catalog):
        print(line)
    return EXIT_OK


def wants_plain(plain: bool, environ: dict[str, str] | os._Environ[str] = os.environ) -> bool:
    """Plain line mode when asked, for ACCESSIBLE=1 or TERM=dumb, or when
    standard input or output is not a terminal (a pipe, a braille terminal
    reading linearly).

    >>> wants_plain(False, {"ACCESSIBLE": "1"}), wants_plain(False, {"TERM": "dumb"})
    (True, True)
    """
    if plain or environ.get("ACCESSIBLE") == "1" or environ.get("TERM") == "dumb":
        return True
    return not (sys.stdin.isatty() and sys.stdout.isatty())


def run_app(language: str | None, *, plain: bool, scanner: str | None = None) -> int:
    """The app: the full-screen interface, or plain line mode."""
    try:
        settings = load_settings()
    except SettingsError as error:
        print(f"companion: {error}; using the defaults", file=sys.stderr)
        settings = None
    first = settings is None
    chosen = settings or Settings(language=language or default_language())
    if language:
        chosen.language = language
    if scanner == "none":
        scanner = ""
    if wants_plain(plain):
        return Plain(sys.stdin, sys.stdout, chosen, scanner=scanner).run(first_start=first)
    os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")
    from companion.tui import CompanionApp  # noqa: PLC0415 - Textual only when it is used

    return CompanionApp(chosen, first_start=first, scanner=scanner).run() or 0


def _fail(command: str, message: str) -> int:
    print(f"companion {command}: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def simulate_command(args: argparse.Namespace) -> int:
    """``companion simulate``: wins and mean scores per bot, and throughput."""
    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    if len(names) == 1:
        names *= args.players
    if len(names) != args.players:
        return _fail("simulate", f"give one bot, or one per player ({args.players})")
    if args.games < 1:
        return _fail("simulate", "play at least 1 game")
    # Imported when asked for, so that starting the app stays quick.
    from companion.simulate import parse_variant, simulate  # noqa: PLC0415

    try:
        variant = parse_variant(args.variant)
        results = simulate(
            names, args.games, seed=args.seed, variant=variant, workers=max(1, args.workers)
        )
    except ValueError as error:
        return _fail("simulate", str(error))
    if args.json:
        print(json.dumps({
            "games": results.games,
            "games_per_second": round(results.games_per_second, 2),
            "bots": [
                {
                    "bot": e.label,
                    "win_rate": round(e.win_rate, 4),
                    "win_rate_95": [round(x, 4) for x in e.interval()],
                    "mean_score": round(e.mean_points, 2),
                }
                for e in results.entrants
            ],
        }))
        return EXIT_OK
    for e in results.entrants:
        low, high = e.interval()
        print(
            f"{e.label}: wins {e.win_rate:.1%} (95% {low:.1%} to {high:.1%}),"
            f" mean score {e.mean_points:.1f}"
        )
    print(f"{results.games} games in {results.seconds:.1f} s,"
          f" {results.games_per_second:.1f} games per second")
    return EXIT_OK


def bench_advisor_command(*, games: int, as_json: bool) -> int:
    """``companion bench advisor``: decision time and win rates against greedy bots."""
    if games < 1:
        return _fail("bench", "play at least 1 game")
    # Imported when asked for, so that starting the app stays quick.
    from companion.simulate import bench_advisor  # noqa: PLC0415

    f = bench_advisor(games=games)
    if as_json:
        print(json.dumps({
            "decision_ms": {"p50": round(f.decision_ms_p50, 2), "p95": round(f.decision_ms_p95, 2)},
            "win_rate_4p_vs_greedy": round(f.win_rate_4p, 4),
            "win_rate_4p_95": [round(x, 4) for x in f.interval_4p],
            "win_rate_2p_vs_greedy": round(f.win_rate_2p, 4),
            "win_rate_2p_95": [round(x, 4) for x in f.interval_2p],
            "games": f.games,
            "seconds": round(f.seconds, 1),
        }))
        return EXIT_OK
    print(f"advisor decision: p50 {f.decision_ms_p50:.1f} ms, p95 {f.decision_ms_p95:.1f} ms")
    for players, rate, (low, high) in (
        (4, f.win_rate_4p, f.interval_4p), (2, f.win_rate_2p, f.interval_2p)
    ):
        print(f"{players} players against greedy: wins {rate:.1%}"
              f" (95% {low:.1%} to {high:.1%}), {f.games} games")
    print(f"took {f.seconds:.0f} s")
    return EXIT_OK


def say_command(text: str, *, language: str, backend: str | None, to: Path | None) -> int:
    """``companion say``: check a speech set-up by ear, or into a file."""
    if to is not None:
        name = backend or ("espeak-ng" if shutil.which("espeak-ng") else "pyttsx3")
        try:
            speaker = make_backend(name)
            render = getattr(speaker, "render", None)
            if render is None:
                return _fail("say", f"{name} cannot write files; use espeak-ng or pyttsx3")
            try:
                render(text, language, to)
            finally:
                speaker.close()
        except SpeechError as error:
            return _fail("say", str(error))
        print(f"{to}")
        return EXIT_OK
    notices: list[Switched] = []
    order = (backend,) if backend else None
    voice = FallbackSpeaker(order, on_notice=notices.append)
    try:
        voice.say(text, language, Priority.IMPORTANT)
        wait = getattr(voice.backend, "idle", None)
        if wait is not None:
            wait(120)
    finally:
        voice.close()
    for notice in notices:
        print(notice, file=sys.stderr)
    print(f"{voice.name}: {text}")
    return EXIT_OK


def bench_ui_command(*, as_json: bool) -> int:
    """``companion bench ui``: start times, announcement latency, memory."""
    # Imported when asked for, so that starting the app stays quick.
    from companion.bench_ui import bench_ui  # noqa: PLC0415

    f = bench_ui()
    if as_json:
        print(json.dumps({
            "plain_start_ms": round(f.plain_start_ms, 1),
            "tui_start_ms": round(f.tui_start_ms, 1),
            "bare_textual_start_ms": round(f.bare_textual_start_ms, 1),
            "announce_ms_p95": round(f.announce_ms_p95, 3),
            "announce_ms_p50": round(f.announce_ms_p50, 3),
            "scan_announce_ms_p95": round(f.scan_announce_ms_p95, 3),
            "rss_mb": round(f.rss_mb, 1),
        }))
        return EXIT_OK
    print(f"start to first prompt: plain {f.plain_start_ms:.0f} ms,"
          f" full screen {f.tui_start_ms:.0f} ms (a bare Textual app: "
          f"{f.bare_textual_start_ms:.0f} ms)")
    print(f"input to announcement: p50 {f.announce_ms_p50:.2f} ms,"
          f" p95 {f.announce_ms_p95:.2f} ms")
    print(f"scan to announcement: p95 {f.scan_announce_ms_p95:.2f} ms")
    print(f"memory after a whole game, full screen: {f.rss_mb:.0f} MB")
    return EXIT_OK


def bench_speech_command(*, as_json: bool) -> int:
    """``companion bench speech``: start and interrupt times per backend present."""
    # Imported when asked for, so that starting the app stays quick.
    from companion.bench import bench_speech  # noqa: PLC0415

    figures = bench_speech()
    if as_json:
        print(json.dumps({
            f.backend: {
                "start_ms_p50": round(f.start_ms_p50, 2),
                "start_ms_p95": round(f.start_ms_p95, 2),
                "interrupt_ms_max": round(f.interrupt_ms_max, 2),
            }
            for f in figures
        }))
        return EXIT_OK
    for f in figures:
        print(f"{f.backend}: start p50 {f.start_ms_p50:.1f} ms, p95 {f.start_ms_p95:.1f} ms;"
              f" interrupt at most {f.interrupt_ms_max:.1f} ms ({f.runs} runs)")
    return EXIT_OK


def bench_scan_command(*, seconds: float, rate: float, as_json: bool) -> int:
    """``companion bench scan``: device line to card event, through a pseudo-terminal."""
    if seconds <= 0 or rate <= 0:
        return _fail("bench", "give a positive time and rate")
    # Imported when asked for, so that starting the app stays quick.
    from companion.bench import bench_scan  # noqa: PLC0415

    f = bench_scan(seconds=seconds, rate=rate)
    if as_json:
        print(json.dumps({
            "latency_ms": {"p50": round(f.latency_ms_p50, 3), "p99": round(f.latency_ms_p99, 3)},
            "sent": f.sent, "received": f.received, "lost": f.lost, "doubled": f.doubled,
        }))
        return EXIT_OK
    print(f"scan latency: p50 {f.latency_ms_p50:.2f} ms, p99 {f.latency_ms_p99:.2f} ms")
    print(f"{f.sent} sent at {rate:.0f} a second, {f.received} received,"
          f" {f.lost} lost, {f.doubled} doubled")
    return EXIT_OK


def bench_engine_command(*, seconds: float, as_json: bool) -> int:
    """``companion bench engine``: random full-rules games per second, 2 to 5 seats."""
    # Imported when asked for, so that starting the app stays quick.
    from companion.bench import bench_engine_all  # noqa: PLC0415

    figures = bench_engine_all(seconds=seconds)
    if as_json:
        print(json.dumps({
            "games_per_second": {str(f.seats): round(f.games_per_second, 1) for f in figures},
            "game_us": {
                str(f.seats): {
                    "p50": round(f.game_us_p50, 1),
                    "p95": round(f.game_us_p95, 1),
                    "p99": round(f.game_us_p99, 1),
                }
                for f in figures
            },
        }))
        return EXIT_OK
    for f in figures:
        print(
            f"{f.seats} seats: {f.games_per_second:.0f} games per second;"
            f" one game p50 {f.game_us_p50:.0f} us, p95 {f.game_us_p95:.0f} us,"
            f" p99 {f.game_us_p99:.0f} us ({f.games} games)"
        )
    return EXIT_OK


def score(
    path: str,
    *,
    explain: bool,
    catalog: Catalog,
    stdin: BinaryIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """``companion score``: JSON scores, or sentences with ``explain``."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    try:
        raw = (stdin or sys.stdin.buffer).read() if path == "-" else Path(path).read_bytes()
    except OSError as error:
        reason = error.strerror or str(error)
        message = catalog.text("cannot read %(path)s: %(reason)s.", path=path, reason=reason)
        print(f"companion score: {message}", file=stderr)
        return EXIT_BAD_INPUT
    try:
        game = load_game_bytes(raw)
    except GameFileError as error:
        print(f"companion score: {game_file_error_text(catalog, error)}", file=stderr)
        return EXIT_BAD_INPUT
    result = game.score()
    if explain:
        for line in explain_game(catalog, result, game.players):
            print(line, file=stdout)
        return EXIT_OK
    names = game.players

    def by_name(values: Sequence[int]) -> dict[str, int]:
        return dict(zip(names, values, strict=True))

    output = {
        "rounds": [by_name([s.points for s in r]) for r in result.rounds],
        "pudding": by_name([s.points for s in result.pudding]) if result.pudding else None,
        "total": by_name(result.totals),
        "winners": [names[s] for s in result.winners],
        "puddings": by_name(result.puddings),
        "dummy": names[result.dummy] if result.dummy is not None else None,
    }
    print(json.dumps(output, ensure_ascii=False), file=stdout)
    return EXIT_OK
