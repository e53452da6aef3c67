"""The ``companion`` command.

Subcommands:

``companion codes [--game G] [--lang xx]``
    The tactile code reference of a game, a card a line.
``companion score [FILE|-] [--game G] [--explain] [--lang xx]``
    Score a game written as JSON (Sushi Go!'s format: docs/scoring-file.md).
``companion simulate [--game G] --players N --games K [--bots ...] [--variant ...]``
    Whole games between bots: wins, mean scores, throughput.
``companion risk --draw D --overeating K --eat N [--discard M] [--json]``
    Mici Maki: the chance of overeating when eating now, exact.
``companion say TEXT [--lang xx] [--backend NAME] [--to FILE.wav]``
    Speak a sentence, or write it to a WAV file.
``companion kit [--game G] [--paper a4|letter] [--lang xx] [--out DIR] [--json]``
    A game's tactile kit: sticker sheets, placement guide, braille labels.
``companion games [--export NAME FILE] [--lang xx]``
    The saved games, newest first, damaged ones marked with why; with
    ``--export``, one game copied to a new file (JSON lines, never over a file).
``companion bench engine|advisor|scan|speech [--game G] [--json]``
    Speed figures on this machine.

With no subcommand it starts the app. Games are found through the registry
(:mod:`companion.games`); ``--game`` names one (default: sushigo).
Output is plain lines, read in order by a screen reader or braille display:
no tables, no colour, nothing that moves.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO, TextIO

from companion import __version__, ending
from companion.contract.game import GameInputError, GamePlugin, Report
from companion.games import DEFAULT_GAME, UnknownGameError, game
from companion.i18n import DEFAULT_LANGUAGE, LANGUAGES, Catalog
from companion.settings import (
    SPEECH_CHOICES,
    SPEECH_VARIABLE,
    Settings,
    SettingsError,
    load_settings,
)
from companion.shown import shown
from firmware_bridge.files import FileProblem, FileRefused, read_limited
from voices.base import Priority, SpeechError
from voices.choose import BACKENDS, FallbackSpeaker, Switched, make_backend

EXIT_OK = 0
#: The app ended on an error (one sentence on standard error says which).
EXIT_ERROR = 1
EXIT_BAD_INPUT = 2
#: The biggest game file read (a game of 5 players is a few kilobytes).
GAME_FILE_LIMIT = 1_000_000
#: The longest path written back whole (a system's own limit is 4,096).
PATH_LIMIT = 4096


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
        description="Companion for tactile card games: codes, the table, practice, exact scores.",
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
    parser.add_argument(
        "--speech", choices=SPEECH_CHOICES, default=None,
        help="the speech of this run, over the settings: auto, none (a screen reader "
             "speaks), speech-dispatcher, espeak-ng or pyttsx3 (COMPANION_SPEECH too)",
    )
    parser.add_argument(
        "--game", default=None,
        help=f"the game: {DEFAULT_GAME} (the default) or mici-maki; for the app, the game "
             "of this run (the settings' Game keeps one)",
    )
    which = argparse.ArgumentParser(add_help=False)
    which.add_argument(
        "--game", default=argparse.SUPPRESS,
        help=f"the game, as the registry names it (default {DEFAULT_GAME})",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.add_parser(
        "codes", parents=[language, which],
        help="print the tactile code reference, a card a line",
    )
    score = commands.add_parser(
        "score", parents=[language, which], help="score a game written as JSON"
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
    sim = commands.add_parser("simulate", parents=[which],
                              help="play whole games between bots")
    sim.add_argument("--players", type=int, default=4,
                     help="Sushi Go! 2 to 5, Mici Maki 3 to 7 (default 4)")
    sim.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    sim.add_argument(
        "--bots", default="",
        help="bot per player, comma separated: Sushi Go! random, greedy, advisor (default"
             " greedy); Mici Maki random, cautious, advisor (default cautious)",
    )
    sim.add_argument("--seed", type=int, default=0, help="seed of the series (default 0)")
    sim.add_argument(
        "--variant", default="", help="pass-both-ways, dummy, soy-sauce[=N], comma separated"
    )
    sim.add_argument("--workers", type=int, default=1, help="processes to use (default 1)")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    risk = commands.add_parser(
        "risk", parents=[language],
        help="Mici Maki: the chance of overeating if one eats now, exact")
    risk.add_argument("--draw", type=int, required=True, help="cards in the draw pile")
    risk.add_argument("--overeating", type=int, required=True,
                      help="overeating cards in the draw pile")
    risk.add_argument("--eat", type=int, required=True,
                      help="the serving pile's value: cards eating draws")
    risk.add_argument("--discard", type=int, default=None, help="cards in the discard pile")
    risk.add_argument("--json", action="store_true", help="print one JSON object")
    kit = commands.add_parser(
        "kit", parents=[which],
        help="write a game's tactile kit: sticker sheets, placement guide, braille labels")
    kit.add_argument("--lang", default=argparse.SUPPRESS,
                     help="language of the kit: cs, en, fr or ru (default: from LANG, else en)")
    kit.add_argument("--paper", default="a4", help="a4 (the default) or letter")
    kit.add_argument("--out", type=Path, default=None,
                     help="the folder to write (default: tactile-kit-GAME here)")
    kit.add_argument("--card-width", type=float, default=None,
                     help="your cards' width in mm (default: the game's assumed size)")
    kit.add_argument("--card-height", type=float, default=None,
                     help="your cards' height in mm (default: the game's assumed size)")
    kit.add_argument("--sticker-size", type=float, default=8.0,
                     help="a sticker's width in mm (default 8)")
    kit.add_argument("--json", action="store_true", help="print one JSON object")
    _games_parser(commands.add_parser(
        "games", parents=[language],
        help="list the saved games, damaged ones marked; copy one to a file"))
    bench = commands.add_parser("bench", parents=[which],
                                help="measure speed (figures for developers)")
    bench.add_argument(
        "what", choices=["engine", "advisor", "scan", "speech"], help="what to measure"
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


def _games_parser(saved: argparse.ArgumentParser) -> None:
    saved.add_argument("--export", nargs=2, metavar=("NAME", "FILE"), default=None,
                       help="copy the game NAME to FILE, a new file (JSON lines)")


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
    if args.command == "kit":
        return kit_command(args)
    catalog = Catalog.for_language(args.lang or default_language())
    if args.command is None:
        if args.speech is not None:  # for this run and what it starts, over the settings
            os.environ[SPEECH_VARIABLE] = args.speech
        return run_app(args.lang, plain=args.plain, scanner=args.scanner, game_name=args.game)
    if args.command == "say":
        return say_command(args.text, language=args.lang or default_language(),
                           backend=args.backend, to=args.to)
    if args.command == "risk":
        return risk_command(args, catalog)
    if args.command == "games":
        if args.export is not None:
            return export_command(*args.export, catalog=catalog)
        return games_command(catalog)
    if args.command == "bench" and args.what == "speech":
        return bench_speech_command(as_json=args.json)
    if args.command == "bench" and args.what == "scan":
        return bench_scan_command(seconds=args.seconds or 10.0, rate=args.rate, as_json=args.json)
    try:
        plugin = game(args.game or DEFAULT_GAME)
    except UnknownGameError as error:
        return _fail(args.command, str(error))
    if args.command == "score":
        return score(args.file, explain=args.explain, catalog=catalog, plugin=plugin)
    if args.command == "simulate":
        return simulate_command(args, plugin)
    if args.command == "bench" and args.what == "advisor":
        if args.games < 1:
            return _fail("bench", "play at least 1 game")
        return _report(plugin.bench_advisor(args.games), as_json=args.json)
    if args.command == "bench":
        return _report(plugin.bench_engine(args.seconds or 2.0), as_json=args.json)
    for line in plugin.reference(catalog.language):
        print(line)
    return EXIT_OK


def _report(report: Report, *, as_json: bool) -> int:
    """A command's figures: one JSON object, or lines for people."""
    if as_json:
        print(json.dumps(report.data, ensure_ascii=False))
    else:
        for line in report.lines:
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


def run_app(language: str | None, *, plain: bool, scanner: str | None = None,
            game_name: str | None = None) -> int:
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
    if game_name is not None:
        try:
            chosen.game = game(game_name).game
        except UnknownGameError as error:
            print(f"companion: {error}", file=sys.stderr)
            return EXIT_BAD_INPUT
    if scanner == "none":
        scanner = ""
    try:
        if wants_plain(plain):
            from companion.faces.plain import run_plain  # noqa: PLC0415

            return run_plain(sys.stdin, sys.stdout, chosen, first_start=first, scanner=scanner)
        os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")
        from companion.faces.screen import CompanionApp  # noqa: PLC0415 - Textual when used

        # Until the screen is up and takes the signals itself, one is only noted
        # (raised inside Textual's start, it would leave the terminal in its
        # alternate screen): the screen ends as soon as it is up.
        with ending.held():
            app = CompanionApp(chosen, first_start=first, scanner=scanner)
            try:
                code = app.run()
            finally:
                # Textual's loop gave the signals back to the defaults as it ended:
                # the app's again, so that what follows (speech ended, the game
                # closed) is not broken into
                ending.take_signals()
    except Exception as error:  # whatever it was: one sentence and the status, no traceback
        return stopped_on(error, chosen.language)
    if app.error is not None:
        return stopped_on(app.error, chosen.language)
    return app.return_code or code or EXIT_OK


def stopped_on(error: BaseException, language: str) -> int:
    """Say, in one sentence, the error the app stopped on; the exit status."""
    catalog = Catalog.for_language(language)
    what = shown(f"{type(error).__name__}: {error}", limit=300)
    said = catalog.text("The app stopped on an error: %(error)s.", error=what)
    print(f"companion: {said}", file=sys.stderr)
    return EXIT_ERROR


def risk_command(args: argparse.Namespace, catalog: Catalog) -> int:
    """``companion risk``: the chance of overeating when eating now, the
    same computation the Mici Maki companion says."""
    from companion.games.risk import (  # noqa: PLC0415 - when asked
        RiskInputError,
        overeating_risk,
        percent,
    )

    try:
        chance = overeating_risk(draw=args.draw, overeating=args.overeating, eat=args.eat,
                                 discard=args.discard)
    except RiskInputError as error:
        return _fail("risk", str(error))
    if args.json:
        print(json.dumps({"probability": float(chance)}))
    else:
        print(catalog.text("Risk of overeating: %(percent)s.",
                           percent=percent(float(chance), catalog.language)))
    return EXIT_OK


def games_command(catalog: Catalog) -> int:
    """``companion games``: every saved game, the one written to last first,
    each said unfinished, finished, or damaged and set aside (and why)."""
    from companion.games import games  # noqa: PLC0415 - when asked
    from companion.journal import journal_dir  # noqa: PLC0415
    from companion.records import Problem, why_text  # noqa: PLC0415
    from companion.store import JournalError, Store  # noqa: PLC0415

    store = Store.at(journal_dir())
    aside = store.aside()
    names = store.names()
    for name in names:
        try:
            found = store.read_record(name)
        except JournalError:
            found = None
        if found is None:
            print(catalog.text("%(name)s: it cannot be read.", name=shown(name)))
            continue
        record, events, _ = found
        header = record.header
        game_name = header.get("game", DEFAULT_GAME)
        plugin = games().get(game_name) if isinstance(game_name, str) else None
        kind = header.get("type")
        values = {
            "name": shown(name),
            "game": plugin.title if plugin is not None else shown(str(game_name)),
            "kind": (catalog.text("practice game") if kind == "practice" else
                     catalog.text("table game") if kind == "table" else shown(str(kind))),
        }
        if name in aside:
            print(catalog.text("%(name)s (%(game)s, %(kind)s): damaged and set aside.", **values),
                  why_text(catalog, Problem.of(aside[name], name)))
        elif events and events[-1].get("type") == "end":
            print(catalog.plural("%(name)s (%(game)s, %(kind)s): finished, %(n)d step saved.",
                                 "%(name)s (%(game)s, %(kind)s): finished, %(n)d steps saved.",
                                 len(events), **values))
        else:
            print(catalog.plural("%(name)s (%(game)s, %(kind)s): unfinished, %(n)d step saved.",
                                 "%(name)s (%(game)s, %(kind)s): unfinished, %(n)d steps "
                                 "saved.", len(events), **values))
    if not names:
        print(catalog.text("No saved games."))
    else:
        print(catalog.text("To copy a game to a file: companion games --export NAME FILE"))
    return EXIT_OK


def export_command(name: str, path: str, *, catalog: Catalog) -> int:
    """``companion games --export NAME FILE``: one game as JSON lines, written
    to a new file only (never over one that exists)."""
    from companion.journal import journal_dir  # noqa: PLC0415 - when asked
    from companion.store import JournalError, Store  # noqa: PLC0415

    store = Store.at(journal_dir())
    if name not in store.names():
        return _fail("games", catalog.text(
            "There is no saved game called %(name)s: companion games lists them.",
            name=shown(name)))
    try:
        data = store.export(name)
    except JournalError:
        return _fail("games", catalog.text("%(name)s: it cannot be read.", name=shown(name)))
    target = Path(path)
    try:
        descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _fail("games", catalog.text(
            "%(path)s exists already: give the name of a new file.",
            path=shown(path, limit=PATH_LIMIT)))
    except OSError as error:
        return _fail("games", catalog.text(
            "cannot write %(path)s: %(reason)s.", path=shown(path, limit=PATH_LIMIT),
            reason=error.strerror or str(error)))
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
    except OSError as error:
        with contextlib.suppress(OSError):
            target.unlink()  # half a copy is no copy
        return _fail("games", catalog.text(
            "cannot write %(path)s: %(reason)s.", path=shown(path, limit=PATH_LIMIT),
            reason=error.strerror or str(error)))
    print(catalog.text("%(name)s copied to %(path)s.", name=shown(name),
                       path=shown(path, limit=PATH_LIMIT)))
    return EXIT_OK


def kit_command(args: argparse.Namespace) -> int:
    """``companion kit``: a game's tactile kit, written all at once or not at all."""
    # Imported when asked for, so that starting the app stays quick.
    from companion.games import games  # noqa: PLC0415
    from companion.kit.make import (  # noqa: PLC0415
        KitError,
        Options,
        language_problem,
        make,
        write,
    )

    language = args.lang or default_language()
    words = Catalog.for_language(default_language())
    refusal = language_problem(language, words)
    if refusal is not None:
        return _fail("kit", refusal)
    words = Catalog.for_language(language)
    name = args.game or DEFAULT_GAME
    if name not in games():
        return _fail("kit", words.text("There is no game called %(game)s: give %(games)s.",
                                       game=shown(name), games=", ".join(games())))
    plugin = games()[name]
    options = Options(paper=args.paper.casefold(), language=language,
                      card_width=args.card_width, card_height=args.card_height,
                      sticker=args.sticker_size)
    folder = args.out or Path(f"tactile-kit-{plugin.game}")
    try:
        made = make(plugin, options)
        paths = write(made, folder, words)
    except KitError as error:
        print(f"companion kit: {error}", file=sys.stderr)
        return error.status
    if args.json:
        print(json.dumps({"stickers": made.stickers, "pages": made.pages,
                          "guide_pages": made.guide_pages,
                          "files": [str(path) for path in paths]}, ensure_ascii=False))
        return EXIT_OK
    print(words.plural("%(game)s: %(n)d file written to %(folder)s.",
                       "%(game)s: %(n)d files written to %(folder)s.", len(paths),
                       game=plugin.title, folder=shown(str(folder), limit=PATH_LIMIT)))
    for path in paths:
        print(shown(str(path), limit=PATH_LIMIT))
    return EXIT_OK


def _fail(command: str, message: str) -> int:
    print(f"companion {command}: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def simulate_command(args: argparse.Namespace, plugin: GamePlugin) -> int:
    """``companion simulate``: wins and mean scores per bot, and throughput."""
    bots = [n.strip() for n in args.bots.split(",") if n.strip()]
    if args.games < 1:
        return _fail("simulate", "play at least 1 game")
    try:
        report = plugin.simulate(players=args.players, games=args.games, bots=bots,
                                 seed=args.seed, variant=args.variant, workers=args.workers)
    except GameInputError as error:
        return _fail("simulate", str(error))
    return _report(report, as_json=args.json)


def say_command(text: str, *, language: str, backend: str | None, to: Path | None) -> int:
    """``companion say``: check a speech set-up by ear, or into a file."""
    if to is not None:
        where = shown(str(to), limit=PATH_LIMIT)
        if to.exists() or to.is_symlink():  # a WAV file does not say who wrote it
            return _fail("say", f"{where} is there already and is left as it is: "
                                "give the name of a new file")
        name = backend or ("espeak-ng" if shutil.which("espeak-ng") else "pyttsx3")
        # written beside under a name of its own, then linked in place: never
        # through a link, never over a file that came meanwhile
        temporary = to.with_name(f".{to.name}.{secrets.token_hex(4)}.tmp.wav")
        try:
            speaker = make_backend(name)
            render = getattr(speaker, "render", None)
            if render is None:
                return _fail("say", f"{name} cannot write files; use espeak-ng or pyttsx3")
            try:
                render(text, language, temporary)
            finally:
                speaker.close()
            temporary.chmod(0o644 & ~_umask())
            try:
                os.link(temporary, to)
            except FileExistsError:
                raise
            except OSError:  # a disk without hard links (FAT, exFAT, some shares)
                _copy_new(temporary, to)
        except FileExistsError:
            return _fail("say", f"{where} is there already and is left as it is: "
                                "give the name of a new file")
        except SpeechError as error:
            return _fail("say", shown(str(error), limit=2 * PATH_LIMIT))
        except OSError as error:
            return _fail("say", f"cannot write {where}: {error.strerror or error}")
        finally:
            temporary.unlink(missing_ok=True)
        print(where)
        return EXIT_OK
    from companion.conversation.core import switched_text  # noqa: PLC0415 - when asked

    notices: list[Switched] = []
    order = (backend,) if backend else None
    voice = FallbackSpeaker(order, on_notice=notices.append)
    try:
        voice.say(text, language, Priority.IMPORTANT)
        voice.idle(120)
        name = voice.name
    finally:
        voice.close()
    catalog = Catalog.for_language(language)
    for notice in notices:
        print(switched_text(catalog, notice), file=sys.stderr)
    print(f"{name}: {text}")
    return EXIT_OK


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _copy_new(source: Path, to: Path) -> None:
    """``source`` copied to ``to``, a new file (never over one, nor through a
    link): :class:`FileExistsError` if ``to`` is there."""
    fd = os.open(to, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644 & ~_umask())
    try:
        with source.open("rb") as read, os.fdopen(fd, "wb", closefd=False) as write:
            shutil.copyfileobj(read, write)
            write.flush()
            os.fsync(fd)
    except BaseException:
        os.close(fd)
        to.unlink(missing_ok=True)
        raise
    os.close(fd)


def bench_speech_command(*, as_json: bool) -> int:
    """``companion bench speech``: per backend present, start and interrupt
    times of its processes on this machine (companion/bench.py)."""
    # Imported when asked for, so that starting the app stays quick.
    from companion.bench import bench_speech  # noqa: PLC0415

    figures = bench_speech()
    if as_json:
        print(json.dumps({f.backend: f.as_json() for f in figures}))
        return EXIT_OK
    for f in figures:
        print(f.describe())
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


def score(
    path: str,
    *,
    explain: bool,
    catalog: Catalog,
    plugin: GamePlugin,
    stdin: BinaryIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """``companion score``: JSON scores, or sentences with ``explain``."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    too_big = False
    try:
        if path == "-":
            raw = (stdin or sys.stdin.buffer).read(GAME_FILE_LIMIT + 1)
        else:  # a regular file only: a named pipe would hang, /dev/zero never end
            raw = read_limited(Path(path), GAME_FILE_LIMIT)
    except FileRefused as error:
        if error.problem is not FileProblem.TOO_BIG:
            message = catalog.text(
                "%(path)s is not a file (a folder, a named pipe or a device): give a game "
                "file, or - to read standard input.", path=shown(path, limit=PATH_LIMIT))
            print(f"companion score: {message}", file=stderr)
            return EXIT_BAD_INPUT
        raw, too_big = b"", True
    except OSError as error:
        reason = error.strerror or str(error)
        message = catalog.text("cannot read %(path)s: %(reason)s.",
                               path=shown(path, limit=PATH_LIMIT), reason=reason)
        print(f"companion score: {message}", file=stderr)
        return EXIT_BAD_INPUT
    if too_big or len(raw) > GAME_FILE_LIMIT:  # a disk image: read no further
        message = catalog.text("%(path)s is bigger than 1 MB: it is not a game file.",
                               path=shown(path, limit=PATH_LIMIT))
        print(f"companion score: {message}", file=stderr)
        return EXIT_BAD_INPUT
    try:
        report = plugin.score_file(raw, catalog.language, explain=explain)
    except GameInputError as error:
        print(f"companion score: {error}", file=stderr)
        return EXIT_BAD_INPUT
    if explain:
        for line in report.lines:
            print(line, file=stdout)
    else:
        print(json.dumps(report.data, ensure_ascii=False), file=stdout)
    return EXIT_OK
