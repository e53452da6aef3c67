"""The ``companion`` command.

Subcommands:

``companion codes [--game G] [--lang xx]``
    The tactile code reference of a game, a card a line.
``companion score [FILE|-] [--game G] [--explain] [--lang xx]``
    Score a game written as JSON (Sushi Go!'s format: docs/scoring-file.md).
``companion simulate [--game G] --players N --games K [--bots ...] [--variant ...]``
    Whole games between bots: wins, mean scores, throughput.
``companion risk --draw D --overeating K --eat N [--discard M] [--json]``
    Mici Maki: the chance of overeating when eating now, exact (a game's own
    command: a game with :class:`~companion.contract.game.Commands` adds them).
``companion say TEXT [--lang xx] [--backend NAME] [--to FILE.wav]``
    Speak a sentence, or write it to a WAV file.
``companion kit [--game G] [--paper a4|letter] [--lang xx] [--out DIR] [--json]``
    A game's tactile kit: sticker sheets, placement guide, braille labels.
``companion games [--export NAME FILE] [--lang xx]``
    The saved games, newest first, damaged ones marked with why; with
    ``--export``, one game copied to a new file (JSON lines, never over a file).
``companion doctor [--for SYSTEM|all] [--lang xx] [--json]``
    What the app can use here (speech and its voices, liblouis, a font,
    serial ports, a braille display, the web face), what is missing, and
    the command that installs each (:mod:`companion.doctor`).
``companion bench engine|advisor|scan|speech [--game G] [--json]``
    Speed figures on this machine.

With no subcommand it starts the app. Games are found through the registry
(:mod:`companion.games`); ``--game`` names one (default: sushigo). What a
command needs of a game is a capability (:func:`~companion.contract.game.
capability`); a game without it is said to have none, in the player's
language. The games give their figures as data; they are worded here, in
the player's language, and ``--json`` prints the game's own JSON.
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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, TextIO

from companion import __version__
from companion.contract.game import (
    AdvisorFigures,
    Benchmarks,
    Command,
    Commands,
    EngineFigures,
    GameInputError,
    Scoring,
    Simulated,
    Simulation,
    SimulationRequest,
    SomeGame,
    TactileKit,
    capability,
    lacking_text,
)
from companion.faces.web import PORT
from companion.games import DEFAULT_GAME, UnknownGameError, game, games
from companion.i18n import DEFAULT_LANGUAGE, LANGUAGES, N_, Catalog
from companion.parts import SYSTEMS
from companion.portable import NOFOLLOW
from companion.progress import (
    Progress,
    duration,
    games_done,
    runs_done,
    scans_done,
    sizes_done,
    steps_done,
)
from companion.settings import (
    SPEECH_CHOICES,
    SPEECH_VARIABLE,
)
from companion.shown import shown
from firmware_bridge import words as bridge_words
from firmware_bridge.files import FileProblem, FileRefused, read_limited
from voices.base import Cause, Priority, SpeechError
from voices.choose import BACKENDS, NO_VOICE, FallbackSpeaker, Switched, make_backend
from voices.screen_reader import ScreenReaderSpeaker

if TYPE_CHECKING:  # the benchmarks are imported when asked for
    from companion.bench import ScanFigures, SpeechFigures

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
    return bridge_words.default_language(environ)


def _parser(catalog: Catalog | None = None, *, game_commands: bool = True
            ) -> argparse.ArgumentParser:
    """The command line, its help in the catalog's language (English without
    one); with ``game_commands``, the games' own commands too (finding them
    loads every game's plugin: a command of the app's own, such as ``say``,
    goes without). argparse's own words are the bridge's
    (:func:`firmware_bridge.words.argparse_in`, around the reading)."""
    words = catalog or Catalog.for_language(DEFAULT_LANGUAGE)
    text = words.text
    whole = _whole(words.language)
    parser = argparse.ArgumentParser(
        prog="companion",
        description=text("Companion for tactile card games: codes, the table, practice, "
                        "exact scores."),
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}",
                        help=bridge_words.text("show the version and stop",
                                               language=words.language))
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=None,
        help=text("language of the output (default: from LANG, else en)"),
    )
    parser.add_argument(
        "--plain", action="store_true",
        help=text("plain line mode: numbered prompts, output that only grows"),
    )
    parser.add_argument(
        "--scanner", metavar=text("PORT"), default=None,
        help=text("the NFC scanner for this run: a port such as /dev/ttyACM0, auto to find it, "
                 "virtual for firmware-bridge simulate's, none for typed codes only "
                 "(default: as in the settings)"),
    )
    # Also accepted after the command; SUPPRESS keeps it from hiding the
    # value given before the command.
    language = argparse.ArgumentParser(add_help=False)
    language.add_argument(
        "--lang", choices=LANGUAGES, default=argparse.SUPPRESS, help=argparse.SUPPRESS
    )
    parser.add_argument(
        "--speech", choices=SPEECH_CHOICES, default=None,
        help=text("the speech of this run, over the settings: auto, none (a screen reader "
                 "speaks), speech-dispatcher, espeak-ng, pyttsx3, or screen-reader (through "
                 "NVDA or JAWS, on Windows) (COMPANION_SPEECH too)"),
    )
    named = _GamesHelp.of(games() if game_commands else {}, words)
    parser.add_argument(
        "--game", default=None, metavar=text("GAME"),
        help=text("the game: %(games)s; for the app, the game of this run (the settings' "
                 "Game keeps one)", games=named.games),
    )
    which = argparse.ArgumentParser(add_help=False)
    which.add_argument(
        "--game", default=argparse.SUPPRESS, metavar=text("GAME"),
        help=text("the game, as the registry names it (default %(game)s)", game=DEFAULT_GAME),
    )
    commands = parser.add_subparsers(dest="command", metavar=text("COMMAND"))
    commands.add_parser(
        "codes", parents=[language, which],
        help=text("print the tactile code reference, a card a line"),
    )
    score = commands.add_parser(
        "score", parents=[language, which], help=text("score a game written as JSON")
    )
    score.add_argument("file", nargs="?", default="-", metavar=text("FILE"),
                       help=text("JSON game file, or - for stdin"))
    score.add_argument(
        "--explain", action="store_true", help=text("explain every score in sentences")
    )
    spoken = commands.add_parser(
        "say", parents=[language], help=text("speak a sentence, or write it to a WAV file")
    )
    spoken.add_argument("text", metavar=text("TEXT"), help=text("what to say"))
    spoken.add_argument("--backend", choices=BACKENDS, default=None,
                        help=text("speech backend (default: the first that works here)"))
    spoken.add_argument("--to", type=Path, default=None, metavar=text("FILE"),
                        help=text("write a WAV file instead"))
    sim = commands.add_parser("simulate", parents=[language, which],
                              help=text("play whole games between bots"))
    sim.add_argument("--players", type=whole, default=4, metavar="N",
                     help=text("%(players)s (default 4)", players=named.players))
    sim.add_argument("--games", type=whole, default=100, metavar="N",
                     help=text("how many games (default 100)"))
    sim.add_argument(
        "--bots", default="", metavar=text("BOTS"),
        help=text("bot per player, comma separated: %(bots)s", bots=named.bots),
    )
    sim.add_argument("--seed", type=whole, default=0, metavar="N",
                     help=text("seed of the series (default 0)"))
    sim.add_argument("--variant", default="", metavar=text("VARIANT"),
                     help=text("%(variants)s, comma separated", variants=named.variants))
    sim.add_argument("--workers", type=whole, default=1, metavar="N",
                     help=text("processes to use (default 1)"))
    sim.add_argument("--json", action="store_true", help=text("print one JSON object"))
    for plugin, _, command in (_game_commands() if game_commands else {}).values():
        # a game's own, such as Mici Maki's risk, in the game's words
        own_words = plugin.catalog(words.language)
        own = commands.add_parser(command.name, parents=[language],
                                  help=own_words.text(command.help))
        for option in command.options:
            own.add_argument(option.flag, type=whole, required=option.required,
                             default=None, metavar="N", help=own_words.text(option.help))
        own.add_argument("--json", action="store_true", help=text("print one JSON object"))
    kit = commands.add_parser(
        "kit", parents=[which],
        help=text("write a game's tactile kit: sticker sheets, placement guide, braille labels"))
    _kit_parser(kit, words)
    _games_parser(commands.add_parser(
        "games", parents=[language],
        help=text("list the saved games, damaged ones marked; copy one to a file")), words)
    web = commands.add_parser(
        "web", parents=[language, which],
        help=text("the app as a web page, for a browser and its screen reader"))
    web.add_argument("--port", type=int, default=None, metavar="N",
                     help=text("the port to serve on (default %(port)d; 0: any free port)",
                               port=PORT))
    web.add_argument("--no-open", action="store_true",
                     help=text("do not open the page in the browser"))
    web.add_argument("--table", action="store_true",
                     help=text("a real game shared between devices, one per seat: each "
                               "player joins from their own phone or computer"))
    web.add_argument("--lan", nargs="?", const="", default=None, metavar=text("ADDRESS"),
                     help=text("serve on the local network too, for the players' phones "
                               "(the host's page stays on this computer); ADDRESS: this "
                               "computer's on the table's network, where it has several"))
    web.add_argument("--scanner", metavar=text("PORT"), default=argparse.SUPPRESS,
                     help=argparse.SUPPRESS)  # (the app's, also after the command)
    _doctor_parser(commands.add_parser(
        "doctor", parents=[language],
        help=text("say what the app can use here, what is missing, and how to install it")),
        words)
    bench = commands.add_parser("bench", parents=[language, which],
                                help=text("measure speed (figures for developers)"))
    _bench_parser(bench, words)
    return parser


def _doctor_parser(doctor: argparse.ArgumentParser, words: Catalog) -> None:
    """``companion doctor``'s options."""
    doctor.add_argument(
        "--for", dest="for_system", choices=(*SYSTEMS, "all"), default=None,
        metavar=words.text("SYSTEM"),
        help=words.text("the install commands of another system: %(systems)s, or all "
                        "(default: this one)", systems=", ".join(SYSTEMS)))
    doctor.add_argument("--json", action="store_true",
                        help=words.text("print one JSON object"))


def _kit_parser(kit: argparse.ArgumentParser, words: Catalog) -> None:
    """``companion kit``'s options, their help in the catalog's language."""
    text = words.text
    figure = _figure(words.language)
    kit.add_argument("--lang", default=argparse.SUPPRESS, metavar=text("LANGUAGE"),
                     help=text("language of the kit: cs, en, fr or ru (default: from LANG, "
                              "else en)"))
    kit.add_argument("--paper", default="a4", metavar=text("PAPER"),
                     help=text("a4 (the default) or letter"))
    kit.add_argument("--out", type=Path, default=None, metavar=text("FOLDER"),
                     help=text("the folder to write (default: tactile-kit-GAME here)"))
    kit.add_argument("--card-width", type=figure, default=None, metavar="MM",
                     help=text("your cards' width in mm (default: the game's assumed size)"))
    kit.add_argument("--card-height", type=figure, default=None, metavar="MM",
                     help=text("your cards' height in mm (default: the game's assumed size)"))
    kit.add_argument("--sticker-size", type=figure, default=8.0, metavar="MM",
                     help=text("a sticker's width in mm (default 8)"))
    kit.add_argument("--json", action="store_true", help=text("print one JSON object"))


def _bench_parser(bench: argparse.ArgumentParser, words: Catalog) -> None:
    """``companion bench``'s options, their help in the catalog's language."""
    text = words.text
    whole, figure = _whole(words.language), _figure(words.language)
    bench.add_argument(
        "what", choices=["engine", "advisor", "scan", "speech", "web"],
        metavar=text("WHAT"),
        help=text("what to measure: engine, advisor, scan, speech or web")
    )
    bench.add_argument(
        "--runs", type=whole, default=200, metavar="N",
        help=text("web: answers posted (default 200)")
    )
    bench.add_argument(
        "--seats", type=whole, default=7, metavar="N",
        help=text("web: devices at the shared table timed, 3 to 7 (default 7)")
    )
    bench.add_argument(
        "--rate", type=figure, default=200.0, metavar="N",
        help=text("scan: scans a second (default 200)")
    )
    bench.add_argument(
        "--games", type=whole, default=200, metavar="N",
        help=text("advisor: games per table size (default 200)")
    )
    bench.add_argument("--json", action="store_true", help=text("print one JSON object"))
    bench.add_argument(
        "--seconds", type=figure, default=None, metavar=text("SECONDS"),
        help=text("engine: time per table size (default 2); scan: how long (default 10)"),
    )


def _either(names: Sequence[str], catalog: Catalog) -> str:
    """Names in a sentence, the last after "or".

    >>> en = Catalog.for_language("en")
    >>> _either(["a"], en), _either(["a", "b"], en), _either(["a", "b", "c"], en)
    ('a', 'a or b', 'a, b or c')
    """
    if len(names) < 2:
        return "".join(names)
    return catalog.text("%(some)s or %(last)s", some=", ".join(names[:-1]), last=names[-1])


@dataclass(frozen=True, slots=True)
class _GamesHelp:
    """What the help says of the installed games, in the catalog's
    language: their names, and of the games with simulations their table
    sizes, bots and variants; the default game first, then the others by
    name."""

    games: str
    players: str
    bots: str
    variants: str

    @classmethod
    def of(cls, installed: Mapping[str, SomeGame], catalog: Catalog) -> _GamesHelp:
        """The help of ``installed`` (none: the help is not shown, the
        games are not loaded).

        >>> from companion.games import games
        >>> named = _GamesHelp.of(games(), Catalog.for_language("en"))
        >>> named.games, named.players
        ('sushigo (the default) or mici-maki', 'Sushi Go! 2 to 5, Mici Maki 3 to 7')
        >>> for bots in named.bots.split("; "):
        ...     print(bots)
        Sushi Go! random, greedy, advisor (default greedy)
        Mici Maki random, cautious, advisor (default cautious)
        >>> named.variants
        'pass-both-ways, dummy, soy-sauce[=N]'
        """
        text = catalog.text
        ordered = sorted(installed.values(), key=lambda p: (p.game != DEFAULT_GAME, p.game))
        names = [text("%(game)s (the default)", game=p.game) if p.game == DEFAULT_GAME
                 else p.game for p in ordered]
        simulated = [(p, s) for p in ordered
                     if (s := capability(p, Simulation)) is not None]
        varied = [(p, s.variants) for p, s in simulated if s.variants]
        return cls(
            games=_either(names, catalog) or DEFAULT_GAME,
            players=", ".join(text("%(game)s %(least)d to %(most)d", game=p.title,
                                  least=p.players[0], most=p.players[1])
                              for p, _ in simulated) or text("how many play"),
            bots="; ".join(text("%(game)s %(bots)s (default %(bot)s)", game=p.title,
                               bots=", ".join(s.bots), bot=s.usual_bot)
                           for p, s in simulated) or text("the game's bots"),
            variants=(varied[0][1] if len(varied) == 1 else
                      "; ".join(f"{p.title} {words}" for p, words in varied) or text("none")))


def _whole(language: str) -> Callable[[str], int]:
    """argparse's type for a whole number, refused in ``language``."""
    return bridge_words.number(int, language)


def _figure(language: str) -> Callable[[str], float]:
    """argparse's type for a number with a point, refused in ``language``."""
    return bridge_words.number(float, language)


#: The app's own commands: a game's command of the same name is left out.
APP_COMMANDS = frozenset({"codes", "score", "say", "simulate", "kit", "games", "bench",
                          "doctor"})
#: The options before a command that take a value (that value is no command).
VALUED = frozenset({"--lang", "--scanner", "--speech", "--game"})


def _wants_game_commands(argv: Sequence[str]) -> bool:
    """Whether the command line may name a game's own command (its first
    word that is neither an option nor an option's value is not one of the
    app's commands), or asks for a help (which lists them, and names the
    games: only then are they loaded for it).

    >>> _wants_game_commands(["--lang", "fr", "risk", "--draw", "3"])
    True
    >>> _wants_game_commands(["--lang", "fr", "say", "hello"]), _wants_game_commands(["--plain"])
    (False, False)
    >>> _wants_game_commands(["--help"]), _wants_game_commands(["--game=mici-maki", "codes"])
    (True, False)
    >>> _wants_game_commands(["simulate", "--help"])
    True
    """
    if "-h" in argv or "--help" in argv:  # a help, which names the games
        return True
    value = False
    for token in argv:
        if value:
            value = False
        elif token in VALUED:
            value = True
        elif not token.startswith("-"):
            return token not in APP_COMMANDS
    return False


def _game_commands() -> dict[str, tuple[SomeGame, Commands, Command]]:
    """The games' own commands by name, with the game that runs each (the
    first game by name, if two have one of the same name)."""
    found: dict[str, tuple[SomeGame, Commands, Command]] = {}
    for plugin in games().values():
        offered = capability(plugin, Commands)
        if offered is None:
            continue
        for command in offered.commands:
            if command.name not in APP_COMMANDS:
                found.setdefault(command.name, (plugin, offered, command))
    return found


def _games_parser(saved: argparse.ArgumentParser, catalog: Catalog) -> None:
    name, file = catalog.text("NAME"), catalog.text("FILE")
    saved.add_argument("--export", nargs=2, metavar=(name, file), default=None,
                       help=catalog.text("copy the game %(name)s to %(file)s, a new file "
                                         "(JSON lines)", name=name, file=file))


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
    given = list(sys.argv[1:] if argv is None else argv)
    asked = bridge_words.language_of(given)
    with bridge_words.argparse_in(asked):
        args = _parser(Catalog.for_language(asked),
                       game_commands=_wants_game_commands(given)).parse_args(given)
    if args.command == "kit":
        return kit_command(args)
    catalog = Catalog.for_language(args.lang or default_language())
    if args.command is None:
        if args.speech is not None:  # for this run and what it starts, over the settings
            os.environ[SPEECH_VARIABLE] = args.speech
        return run_app(args.lang, plain=args.plain, scanner=args.scanner, game_name=args.game)
    if args.command == "web":
        return web_app(args)
    if args.command == "say":
        return say_command(args.text, language=args.lang or default_language(),
                           backend=args.backend, to=args.to)
    own = _game_commands().get(args.command)
    if own is not None:
        return game_command(args, catalog, *own)
    if args.command == "games":
        if args.export is not None:
            return export_command(*args.export, catalog=catalog)
        return games_command(catalog)
    if args.command == "doctor":
        return doctor_command(catalog, args.for_system, as_json=args.json)
    if args.command == "bench" and args.what == "speech":
        return bench_speech_command(as_json=args.json, catalog=catalog)
    if args.command == "bench" and args.what == "web":
        return bench_web_command(runs=args.runs, seats=args.seats, as_json=args.json,
                                 catalog=catalog)
    if args.command == "bench" and args.what == "scan":
        return bench_scan_command(seconds=args.seconds or 10.0, rate=args.rate, as_json=args.json,
                                  catalog=catalog)
    try:
        plugin = game(args.game or DEFAULT_GAME)
    except UnknownGameError as error:
        return _fail(args.command, error.text(catalog))
    if args.command == "score":
        return score(args.file, explain=args.explain, catalog=catalog, plugin=plugin)
    if args.command == "simulate":
        return simulate_command(args, plugin, catalog)
    if args.command == "bench":
        return bench_game_command(args, plugin, catalog)
    for line in plugin.reference(catalog.language):
        print(line)
    return EXIT_OK


#: What the app says of a game without a capability a command needs (when the
#: game says nothing of its own: :class:`~companion.contract.game.Lacking`).
LACKING: dict[type, str] = {
    Scoring: N_("%(game)s has no points to score."),
    Simulation: N_("%(game)s has no simulations."),
    Benchmarks: N_("%(game)s has no benchmarks."),
    TactileKit: N_("%(game)s has no tactile kit."),
}


def _lacking(plugin: SomeGame, kind: type, catalog: Catalog) -> str:
    """Why ``plugin`` cannot do what a command asks, in the player's language."""
    return lacking_text(plugin, kind, catalog.language,
                        catalog.text(LACKING[kind], game=plugin.title))


def decimal(value: float, digits: int, language: str) -> str:
    """A figure as the language writes it, ``digits`` after the point.

    >>> decimal(1234.56, 1, "en"), decimal(0.25, 2, "fr")
    ('1234.6', '0,25')
    """
    figure = f"{value:.{digits}f}"
    return figure if language == "en" else figure.replace(".", ",")


def share(value: float, language: str, digits: int = 1) -> str:
    """A share as a percentage, as the language writes it.

    >>> share(0.1234, "en"), share(0.1234, "cs"), share(0.5, "ru", digits=0)
    ('12.3%', '12,3 %', '50 %')
    """
    figure = f"{value * 100:.{digits}f}"
    return figure + "%" if language == "en" else figure.replace(".", ",") + " %"


def _milliseconds(value: float, language: str) -> str:
    """A short time in ms, with the digits that say something (an advisor
    deciding in 0.04 ms is not 0.0 ms).

    >>> _milliseconds(12.345, "en"), _milliseconds(0.04321, "en")
    ('12.3', '0.043')
    """
    return decimal(value, 1 if value >= 1 else 3, language)


def simulated_lines(figures: Simulated, catalog: Catalog) -> list[str]:
    """A simulation's figures for people, in the catalog's language.

    >>> from companion.contract.game import BotResult
    >>> figures = Simulated({}, 10, 2, 2.0, (BotResult("greedy", 0.6, 41.25, (0.3, 0.85)),
    ...                                     BotResult("random", 0.4, 30.0)))
    >>> for line in simulated_lines(figures, Catalog.for_language("en")):
    ...     print(line)
    greedy: wins 60.0% (95% 30.0% to 85.0%), mean score 41.2
    random: wins 40.0%, mean score 30.0
    10 games in 2.0 s, 5.0 games per second
    """
    language = catalog.language
    lines = []
    for bot in figures.bots:
        values = {"bot": bot.bot, "rate": share(bot.win_rate, language),
                  "mean": decimal(bot.mean_score, 1, language)}
        if bot.interval is not None:
            low, high = bot.interval
            lines.append(catalog.text(
                "%(bot)s: wins %(rate)s (95%% %(low)s to %(high)s), mean score %(mean)s",
                low=share(low, language), high=share(high, language), **values))
        else:
            lines.append(catalog.text("%(bot)s: wins %(rate)s, mean score %(mean)s", **values))
    if figures.rounds is not None and figures.turns is not None:
        lines.append(catalog.text("%(rounds)s rounds and %(turns)s turns a game on average.",
                                  rounds=decimal(figures.rounds, 1, language),
                                  turns=decimal(figures.turns, 0, language)))
    lines.append(catalog.plural(
        "%(n)d game in %(seconds)s s, %(rate)s games per second",
        "%(n)d games in %(seconds)s s, %(rate)s games per second", figures.games,
        seconds=decimal(figures.seconds, 1, language),
        rate=decimal(figures.games_per_second, 1, language)))
    return lines


def engine_lines(figures: EngineFigures, catalog: Catalog) -> list[str]:
    """``companion bench engine``'s figures for people, a table size a line."""
    language = catalog.language
    lines = []
    for row in figures.rows:
        p50, p95, p99 = (decimal(us, 0, language) for us in row.game_us)
        values = {"rate": decimal(row.games_per_second, 0, language), "p50": p50, "p95": p95,
                  "p99": p99, "players": row.players,
                  "simulated": decimal(row.simulate_games_per_second, 0, language),
                  "part": share(row.simulate_ratio, language, digits=0)}
        if row.yardstick_games_per_second is None:
            lines.append(catalog.plural(
                "%(players)d seats: %(rate)s games per second; one game p50 %(p50)s us, p95 "
                "%(p95)s us, p99 %(p99)s us (%(n)d game); through the bots' API "
                "%(simulated)s games per second, %(part)s of the engine's",
                "%(players)d seats: %(rate)s games per second; one game p50 %(p50)s us, p95 "
                "%(p95)s us, p99 %(p99)s us (%(n)d games); through the bots' API "
                "%(simulated)s games per second, %(part)s of the engine's",
                row.games, **values))
        else:
            yardstick = row.yardstick_games_per_second
            lines.append(catalog.plural(
                "%(players)d seats: %(rate)s games per second; one game p50 %(p50)s us, p95 "
                "%(p95)s us, p99 %(p99)s us (%(n)d game); the plain simulator %(plain)s: the "
                "engine %(times)s times as fast; through the bots' API %(simulated)s games per "
                "second, %(part)s of the engine's",
                "%(players)d seats: %(rate)s games per second; one game p50 %(p50)s us, p95 "
                "%(p95)s us, p99 %(p99)s us (%(n)d games); the plain simulator %(plain)s: the "
                "engine %(times)s times as fast; through the bots' API %(simulated)s games per "
                "second, %(part)s of the engine's",
                row.games, plain=decimal(yardstick, 0, language),
                times=decimal(row.games_per_second / yardstick if yardstick else 0.0, 2,
                              language), **values))
    return lines


def advisor_lines(figures: AdvisorFigures, catalog: Catalog) -> list[str]:
    """``companion bench advisor``'s figures for people."""
    language = catalog.language
    p50, p95 = figures.decision_ms
    lines = [catalog.text("advisor decision: p50 %(p50)s ms, p95 %(p95)s ms",
                          p50=_milliseconds(p50, language), p95=_milliseconds(p95, language))]
    for table in figures.tables:
        low, high = table.interval
        lines.append(catalog.plural(
            "%(players)d players against %(bot)s: wins %(rate)s (95%% %(low)s to %(high)s), "
            "%(n)d game",
            "%(players)d players against %(bot)s: wins %(rate)s (95%% %(low)s to %(high)s), "
            "%(n)d games", table.games, players=table.players, bot=table.against,
            rate=share(table.win_rate, language), low=share(low, language),
            high=share(high, language)))
    lines.append(catalog.text("took %(seconds)s s", seconds=decimal(figures.seconds, 0, language)))
    return lines


def _print(data: object, lines: Sequence[str], *, as_json: bool) -> int:
    """A command's figures: one JSON object, or lines for people."""
    if as_json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        for line in lines:
            print(line)
    return EXIT_OK


def bench_game_command(args: argparse.Namespace, plugin: SomeGame, catalog: Catalog) -> int:
    """``companion bench engine|advisor``: a game's figures, if it has benchmarks."""
    bench = capability(plugin, Benchmarks)
    if bench is None:
        return _fail("bench", _lacking(plugin, Benchmarks, catalog))
    if args.what == "advisor":
        if args.games < 1:
            return _fail("bench", catalog.text("Play at least one game: give 1 or more."))
        with Progress(catalog, games_done, args.games,
                      title=catalog.text("Timing the advisor in whole games…")) as told:
            advisor = bench.bench_advisor(args.games, told)
        return _print(advisor.data, advisor_lines(advisor, catalog), as_json=args.json)
    seconds = args.seconds or 2.0
    with Progress(catalog, sizes_done, 0, long=seconds >= 1,
                  title=catalog.text("Timing the engine at every table size…")) as told:
        engine = bench.bench_engine(seconds, told)
    return _print(engine.data, engine_lines(engine, catalog), as_json=args.json)


def run_app(language: str | None, *, plain: bool, scanner: str | None = None,
            game_name: str | None = None) -> int:
    """The app: the full-screen interface, or plain line mode, put together
    by its composition root (:mod:`companion.app`)."""
    from companion.app import start  # noqa: PLC0415 - the app's modules when it runs

    return start(language, plain=plain, scanner=scanner, game_name=game_name,
                 default_language=default_language)


#: The highest port there is.
MAX_PORT = 65535


def web_app(args: argparse.Namespace) -> int:
    """``companion web``: the app as a web page, put together by its
    composition root (:func:`companion.app.run_web`). Its speech is the
    screen reader's unless ``--speech`` says otherwise."""
    from companion.app import run_web, settings_for_run  # noqa: PLC0415 - when it runs

    if args.port is not None and not 0 <= args.port <= MAX_PORT:
        catalog = Catalog.for_language(args.lang or default_language())
        return _fail("web", catalog.text("Give a port from 0 to 65535."))
    chosen = settings_for_run(args.lang, getattr(args, "game", None), default_language)
    if isinstance(chosen, int):
        return chosen
    settings, first = chosen
    if args.speech is not None:
        os.environ[SPEECH_VARIABLE] = args.speech
    return run_web(settings, first_start=first,
                   scanner="" if args.scanner == "none" else args.scanner,
                   port=PORT if args.port is None else args.port,
                   open_page=not args.no_open, speak=args.speech is not None,
                   table=args.table, lan=args.lan)


def game_command(args: argparse.Namespace, catalog: Catalog, plugin: SomeGame,
                 game_of: Commands, command: Command) -> int:
    """A game's own command (``companion risk``): its lines, or its JSON
    (a problem with its options in the game's words)."""
    options = {option.flag.lstrip("-").replace("-", "_"): getattr(
        args, option.flag.lstrip("-").replace("-", "_")) for option in command.options}
    try:
        said = game_of.run_command(command.name, options, catalog.language)
    except GameInputError as error:
        return _fail(command.name, error.text(plugin.catalog(catalog.language)))
    if args.json:
        print(json.dumps(said.data, ensure_ascii=False))
    else:
        for line in said.lines:
            print(line)
    return EXIT_OK


def games_command(catalog: Catalog) -> int:
    """``companion games``: every saved game, the one written to last first,
    each said unfinished, finished, or damaged and set aside (and why)."""
    from companion.journal import journal_dir  # noqa: PLC0415 - when asked
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
            "Cannot write %(path)s: %(reason)s.", path=shown(path, limit=PATH_LIMIT),
            reason=bridge_words.os_reason(error, catalog.language)))
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
    except OSError as error:
        with contextlib.suppress(OSError):
            target.unlink()  # half a copy is no copy
        return _fail("games", catalog.text(
            "Cannot write %(path)s: %(reason)s.", path=shown(path, limit=PATH_LIMIT),
            reason=bridge_words.os_reason(error, catalog.language)))
    print(catalog.text("%(name)s copied to %(path)s.", name=shown(name),
                       path=shown(path, limit=PATH_LIMIT)))
    return EXIT_OK


def kit_command(args: argparse.Namespace) -> int:
    """``companion kit``: a game's tactile kit, written all at once or not at all."""
    # Imported when asked for, so that starting the app stays quick.
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
        with Progress(words, steps_done, 0,
                      title=words.text("Making the tactile kit…")) as told:
            made = make(plugin, options, told)
        paths = write(made, folder, words)
    except KitError as error:
        print(f"companion kit: {error}", file=sys.stderr)
        return error.status
    if args.json:
        print(json.dumps({"stickers": made.stickers, "pages": made.pages,
                          "guide_pages": made.guide_pages,
                          "files": [str(path) for path in paths],
                          "missing": made.missing}, ensure_ascii=False))
        return EXIT_OK
    print(words.plural("%(game)s: %(n)d file written to %(folder)s.",
                       "%(game)s: %(n)d files written to %(folder)s.", len(paths),
                       game=plugin.title, folder=shown(str(folder), limit=PATH_LIMIT)))
    for sentence in made.missing:  # before the list, where it is read
        print(sentence)
    for path in paths:
        print(shown(str(path), limit=PATH_LIMIT))
    return EXIT_OK


def doctor_command(catalog: Catalog, for_system: str | None, *, as_json: bool) -> int:
    """``companion doctor``: what is here and what is missing, missing first."""
    from companion.doctor import Doctor, report, to_json  # noqa: PLC0415

    doctor = Doctor(catalog, for_system)
    findings = doctor.findings()
    if as_json:
        print(json.dumps({"systems": list(doctor.systems), "findings": to_json(findings)},
                         ensure_ascii=False))
        return EXIT_OK
    for line in report(findings, catalog, doctor.systems):
        print(line)
    return EXIT_OK


def _fail(command: str, message: str) -> int:
    print(f"companion {command}: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def simulate_command(args: argparse.Namespace, plugin: SomeGame, catalog: Catalog) -> int:
    """``companion simulate``: wins and mean scores per bot, and throughput."""
    simulation = capability(plugin, Simulation)
    if simulation is None:
        return _fail("simulate", _lacking(plugin, Simulation, catalog))
    bots = tuple(n.strip() for n in args.bots.split(",") if n.strip())
    if args.games < 1:
        return _fail("simulate", catalog.text("Play at least one game: give 1 or more."))
    variant = args.variant
    if not simulation.variants:
        if variant.strip() not in ("", "none"):
            return _fail("simulate", catalog.text("%(game)s has no variants of its rules.",
                                                  game=plugin.title))
        variant = ""
    told = Progress(catalog, games_done, args.games, title=catalog.plural(
        "Simulating %(n)d game…", "Simulating %(n)d games…", args.games))
    try:
        with told:
            figures = simulation.simulate(SimulationRequest(
                players=args.players, games=args.games, bots=bots, seed=args.seed,
                variant=variant, workers=args.workers, progress=told))
    except GameInputError as error:
        return _fail("simulate", error.text(plugin.catalog(catalog.language)))
    return _print(figures.data, simulated_lines(figures, catalog), as_json=args.json)


#: Why ``companion say`` could not speak (or write its file) with a voice, and
#: what to do, from the voice's :class:`~voices.base.Cause` (``%(voice)s``: the
#: one that failed).
SAY_CAUSES = {
    Cause.NOT_INSTALLED: N_("%(voice)s is not installed here: install it, or give another "
                            "voice with --backend."),
    Cause.NO_SOUND_OUTPUT: N_("%(voice)s found no sound output: connect speakers or "
                              "headphones, or write the sound to a file with --to."),
    Cause.NO_ANSWER: N_("%(voice)s did not answer: try again, or give another voice with "
                        "--backend."),
    Cause.DIED: N_("%(voice)s quit unexpectedly: try again, or give another voice with "
                   "--backend."),
    Cause.FAILED: N_("%(voice)s does not work here: give another voice with --backend."),
}


def say_failed(catalog: Catalog, voice: str, cause: Cause, *, writing: bool = False) -> str:
    """Why ``companion say`` could not use ``voice``, and what to do.

    >>> en = Catalog.for_language("en")
    >>> say_failed(en, "espeak-ng", Cause.NO_SOUND_OUTPUT)[:36]
    'espeak-ng found no sound output: con'
    >>> say_failed(en, "pyttsx3", Cause.FAILED, writing=True)
    'pyttsx3 could not write the sound file: give another voice with --backend.'
    """
    if voice == NO_VOICE:
        return catalog.text("No speech engine is installed here: install espeak-ng.")
    if voice == ScreenReaderSpeaker.name and cause is Cause.NOT_INSTALLED:
        return catalog.text("No screen reader is running: start NVDA or JAWS, or give "
                            "another voice with --backend.")
    if writing and cause in (Cause.FAILED, Cause.DIED):
        return catalog.text("%(voice)s could not write the sound file: give another voice "
                            "with --backend.", voice=voice)
    return catalog.text(SAY_CAUSES[cause], voice=voice)


def say_command(text: str, *, language: str, backend: str | None, to: Path | None) -> int:
    """``companion say``: check a speech set-up by ear, or into a file."""
    catalog = Catalog.for_language(language)
    if to is not None:
        where = shown(str(to), limit=PATH_LIMIT)
        if to.exists() or to.is_symlink():  # a WAV file does not say who wrote it
            return _fail("say", catalog.text(
                "%(path)s is there already and is left as it is: give the name of a new file.",
                path=where))
        name = backend or ("espeak-ng" if shutil.which("espeak-ng") else "pyttsx3")
        # written beside under a name of its own, then linked in place: never
        # through a link, never over a file that came meanwhile
        temporary = to.with_name(f".{to.name}.{secrets.token_hex(4)}.tmp.wav")
        try:
            speaker = make_backend(name)
            render = getattr(speaker, "render", None)
            if render is None:
                return _fail("say", catalog.text(
                    "%(backend)s cannot write files: use espeak-ng or pyttsx3.", backend=name))
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
            return _fail("say", catalog.text(
                "%(path)s is there already and is left as it is: give the name of a new file.",
                path=where))
        except SpeechError as error:  # its cause in the player's words, not the backend's
            return _fail("say", say_failed(catalog, name, error.cause, writing=True))
        except OSError as error:
            return _fail("say", catalog.text(
                "Cannot write %(path)s: %(reason)s.", path=where,
                reason=bridge_words.os_reason(error, language)))
        finally:
            temporary.unlink(missing_ok=True)
        print(where)
        return EXIT_OK
    notices: list[Switched] = []
    order = (backend,) if backend else None
    voice = FallbackSpeaker(order, on_notice=notices.append)
    try:
        voice.say(text, language, Priority.IMPORTANT)
        voice.idle(120)
        told = [say_failed(catalog, notice.failed, notice.cause) for notice in notices]
        name = voice.name
        for sentence in told:  # said too, by the voice that took over, if one did
            voice.say(sentence, language, Priority.IMPORTANT)
        voice.idle(120)
    finally:
        voice.close()
    for sentence in told:
        print(f"companion say: {sentence}", file=sys.stderr)
    print(f"{name}: {text}")
    # nothing was heard (no voice of those asked for spoke): that is a failure
    return EXIT_ERROR if told and name == "none" and backend != "none" else EXIT_OK


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _copy_new(source: Path, to: Path) -> None:
    """``source`` copied to ``to``, a new file (never over one, nor through a
    link): :class:`FileExistsError` if ``to`` is there."""
    fd = os.open(to, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW, 0o644 & ~_umask())
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


def bench_web_command(*, runs: int, seats: int, as_json: bool, catalog: Catalog) -> int:
    """``companion bench web``: the web face's answer to reply, a shared
    table's fan-out to every device, and its first page (companion/bench.py)."""
    if runs <= 0:
        return _fail("bench", catalog.text("Give a number of runs above 0."))
    if not 3 <= seats <= 7:
        return _fail("bench", catalog.text("Give 3 to 7 seats: a Mici Maki table's."))
    from companion.bench import bench_web  # noqa: PLC0415 - when asked for

    with Progress(catalog, runs_done, runs, long=True,
                  title=catalog.text("Timing the web face…")) as told:
        f = bench_web(runs=runs, seats=seats, progress=told)
    if as_json:
        print(json.dumps(f.as_json()))
        return EXIT_OK
    print(catalog.text(
        "Web face, an answer to its reply: p50 %(p50)s ms, p95 %(p95)s ms (goal: p95 at most "
        "50 ms), %(runs)d answers.", p50=decimal(f.answer_ms_p50, 1, catalog.language),
        p95=decimal(f.answer_ms_p95, 1, catalog.language), runs=f.runs))
    print(catalog.text(
        "A move at a table of %(seats)d devices, until every other seat and the host have it: "
        "p50 %(p50)s ms, p95 %(p95)s ms (goal: p95 at most 100 ms), %(lost)d lost.",
        seats=f.seats,
        p50=decimal(f.fanout_ms_p50, 1, catalog.language),
        p95=decimal(f.fanout_ms_p95, 1, catalog.language), lost=f.lost))
    print(catalog.text(
        "The first page, with its script and style: %(size)s kB (goal: under 100 kB).",
        size=decimal(f.first_page_bytes / 1000, 1, catalog.language)))
    return EXIT_OK


def bench_speech_command(*, as_json: bool, catalog: Catalog) -> int:
    """``companion bench speech``: per backend present, start and interrupt
    times of its processes on this machine (companion/bench.py)."""
    # Imported when asked for, so that starting the app stays quick.
    from companion.bench import bench_speech  # noqa: PLC0415

    with Progress(catalog, runs_done, 0, long=True,
                  title=catalog.text("Timing every speech engine on this machine…")) as told:
        figures = bench_speech(progress=told)
    if as_json:
        print(json.dumps({f.backend: f.as_json() for f in figures}))
        return EXIT_OK
    for f in figures:
        print(speech_line(f, catalog))
    return EXIT_OK


def speech_line(f: SpeechFigures, catalog: Catalog) -> str:
    """A speech backend's figures for people, in the catalog's language.

    >>> from companion.bench import SpeechFigures
    >>> figures = SpeechFigures("espeak-ng", 12.34, 20.0, 3.25, 20)
    >>> speech_line(figures, Catalog.for_language("en")) == figures.describe()
    True
    >>> speech_line(figures, Catalog.for_language("en"))
    'espeak-ng: start p50 12.3 ms, p95 20.0 ms; interrupt at most 3.2 ms (20 runs)'
    """
    language = catalog.language

    def ms(value: float) -> str:
        return decimal(value, 1, language)

    parts = [catalog.text(
        "%(backend)s: start p50 %(p50)s ms, p95 %(p95)s ms; interrupt at most %(interrupt)s ms",
        backend=f.backend, p50=ms(f.start_ms_p50), p95=ms(f.start_ms_p95),
        interrupt=ms(f.interrupt_ms_max))]
    if f.first_audio_ms_p50 is not None and f.first_audio_ms_p95 is not None:
        parts.append(catalog.text("; first audio p50 %(p50)s ms, p95 %(p95)s ms",
                                  p50=ms(f.first_audio_ms_p50), p95=ms(f.first_audio_ms_p95)))
    if f.stop_ms_max is not None:
        parts.append(catalog.text("; stop at most %(stop)s ms", stop=ms(f.stop_ms_max)))
    parts.append(catalog.plural(" (%(n)d run)", " (%(n)d runs)", f.runs))
    return "".join(parts)


def bench_scan_command(*, seconds: float, rate: float, as_json: bool, catalog: Catalog) -> int:
    """``companion bench scan``: device line to card event, through a pseudo-terminal."""
    if seconds <= 0 or rate <= 0:
        return _fail("bench", catalog.text("Give a time and a rate above 0."))
    # Imported when asked for, so that starting the app stays quick.
    from companion.bench import bench_scan  # noqa: PLC0415

    with Progress(catalog, scans_done, int(seconds * rate), long=seconds >= 2,
                  title=catalog.text("Timing the scanner's link for %(time)s…",
                                     time=duration(catalog, seconds))) as told:
        f = bench_scan(seconds=seconds, rate=rate, progress=told)
    if as_json:
        print(json.dumps({
            "latency_ms": {"p50": round(f.latency_ms_p50, 3), "p99": round(f.latency_ms_p99, 3)},
            "sent": f.sent, "received": f.received, "lost": f.lost, "doubled": f.doubled,
        }))
        return EXIT_OK
    for line in scan_lines(f, rate, catalog):
        print(line)
    return EXIT_OK


def scan_lines(f: ScanFigures, rate: float, catalog: Catalog) -> list[str]:
    """``companion bench scan``'s figures for people, in the catalog's language.

    >>> from companion.bench import ScanFigures
    >>> figures = ScanFigures(0.125, 0.5, 2000, 1999, 1, 0, 10.0)
    >>> for line in scan_lines(figures, 200.0, Catalog.for_language("en")):
    ...     print(line)
    scan latency: p50 0.12 ms, p99 0.50 ms
    2000 sent at 200 a second, 1999 received, 1 lost, 0 doubled
    """
    language = catalog.language
    return [
        catalog.text("scan latency: p50 %(p50)s ms, p99 %(p99)s ms",
                     p50=decimal(f.latency_ms_p50, 2, language),
                     p99=decimal(f.latency_ms_p99, 2, language)),
        catalog.text("%(sent)d sent at %(rate)s a second, %(received)d received, %(lost)d lost, "
                     "%(doubled)d doubled", sent=f.sent, rate=decimal(rate, 0, language),
                     received=f.received, lost=f.lost, doubled=f.doubled),
    ]


def score(
    path: str,
    *,
    explain: bool,
    catalog: Catalog,
    plugin: SomeGame,
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
        reason = bridge_words.os_reason(error, catalog.language)
        message = catalog.text("Cannot read %(path)s: %(reason)s.",
                               path=shown(path, limit=PATH_LIMIT), reason=reason)
        print(f"companion score: {message}", file=stderr)
        return EXIT_BAD_INPUT
    if too_big or len(raw) > GAME_FILE_LIMIT:  # a disk image: read no further
        message = catalog.text("%(path)s is bigger than 1 MB: it is not a game file.",
                               path=shown(path, limit=PATH_LIMIT))
        print(f"companion score: {message}", file=stderr)
        return EXIT_BAD_INPUT
    scoring = capability(plugin, Scoring)
    if scoring is None:  # said once the file is read, as it always was
        print(f"companion score: {_lacking(plugin, Scoring, catalog)}", file=stderr)
        return EXIT_BAD_INPUT
    try:
        scored = scoring.score_file(raw, catalog.language, explain=explain)
    except GameInputError as error:
        print(f"companion score: {error.text(plugin.catalog(catalog.language))}", file=stderr)
        return EXIT_BAD_INPUT
    if explain:
        for line in scored.explanation:
            print(line, file=stdout)
    else:
        print(json.dumps(scored.data, ensure_ascii=False), file=stdout)
    return EXIT_OK
