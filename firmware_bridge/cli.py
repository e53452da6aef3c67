"""The ``firmware-bridge`` command: try, check and set up the card scanner.

``firmware-bridge simulate [--link PATH] [--game NAME]``
    A virtual scanner on a pseudo-terminal. Prints ``PORT /dev/pts/N``
    first, then reads lines: a card code of the game (it sends that card's
    tag from the demo deck), ``uid:<hex>`` (any tag), ``reset``, ``unplug``,
    ``plug``, ``quit``.
``firmware-bridge listen [--port P] [--json] [--seconds S]``
    Prints every event from the scanner, a line each.
``firmware-bridge enrol [--port P] [--game NAME]``
    Scan a tag, then type the card's code in the game; again until an empty line.
``firmware-bridge registry list|remove UID|export FILE|import FILE``
    The tags known to this computer.

A game is one of those installed (:func:`firmware_bridge.vocabulary.vocabularies`);
without ``--game``, Sushi Go! if it is installed, else the first.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import queue
import sys
import threading
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from firmware_bridge import words
from firmware_bridge.events import (
    CardIdentified,
    CardRefused,
    InputEvent,
    ScannerFound,
    ScannerLost,
    ScannerProblem,
)
from firmware_bridge.files import make_private_folder
from firmware_bridge.link import ScannerLink
from firmware_bridge.registry import Registry, RegistryError, demo_uid, normalize_uid
from firmware_bridge.shown import PATH_LIMIT, shown
from firmware_bridge.virtual import LinkTaken, VirtualScanner, check_link, default_link
from firmware_bridge.vocabulary import Vocabulary, vocabularies
from firmware_bridge.words import LANGUAGES, argparse_in, language_of, number, plural, text

EXIT_OK = 0
EXIT_BAD = 2
#: The longest message written back whole (it may hold a path or two).
MESSAGE_LIMIT = 2 * PATH_LIMIT + 400
#: The game of ``--game``'s default, when it is installed: the first game there was.
PREFERRED_GAME = "sushigo"


class UsageError(Exception):
    """A command that cannot run as it was given, and why."""


def _parser(language: str) -> argparse.ArgumentParser:
    """The command line, its help in ``language``."""
    def text(message: str, **params: object) -> str:
        return words.text(message, language=language, **params)

    parser = argparse.ArgumentParser(
        prog="firmware-bridge", description=text("Try, check and set up the card scanner."),
    )
    parser.add_argument("--lang", choices=LANGUAGES, default=None,
                        help=text("language of the output (default: from LANG, else en)"))
    commands = parser.add_subparsers(dest="command", required=True, metavar=text("COMMAND"))
    simulate = commands.add_parser("simulate",
                                   help=text("a virtual scanner on a pseudo-terminal"))
    simulate.add_argument(
        "--link", type=Path, default=None, metavar=text("PATH"),
        help=text("a stable link to the terminal (default: virtual-scanner in the data folder)"),
    )
    simulate.add_argument("--game", metavar=text("GAME"), help=text(
        "the game of the cards typed (default: %(game)s)", game=PREFERRED_GAME))
    listen = commands.add_parser("listen", help=text("print every event from the scanner"))
    listen.add_argument("--port", metavar=text("PORT"),
                        help=text("port path or pyserial URL (default: find the board)"))
    listen.add_argument("--json", action="store_true", help=text("one JSON object a line"))
    listen.add_argument("--seconds", type=number(float, language), default=None,
                        metavar=text("SECONDS"), help=text("stop after this long"))
    enrol = commands.add_parser("enrol", help=text("scan tags and say which card each is"))
    enrol.add_argument("--port", metavar=text("PORT"),
                       help=text("port path or pyserial URL (default: find the board)"))
    enrol.add_argument("--game", metavar=text("GAME"), help=text(
        "the game of the tags' cards (default: %(game)s)", game=PREFERRED_GAME))
    registry = commands.add_parser("registry", help=text("the tags known to this computer"))
    actions = registry.add_subparsers(dest="action", required=True, metavar=text("ACTION"))
    actions.add_parser("list", help=text("every tag and its card"))
    remove = actions.add_parser("remove", help=text("forget a tag"))
    remove.add_argument("uid", metavar=text("UID"), help=text("the tag, in hex"))
    export = actions.add_parser("export", help=text("write a deck file to share"))
    export.add_argument("file", type=Path, metavar=text("FILE"), help=text("the deck file"))
    export.add_argument("--deck", default="", metavar=text("NAME"),
                        help=text("a name for the deck"))
    load = actions.add_parser("import", help=text("add the tags of a deck file"))
    load.add_argument("file", type=Path, metavar=text("FILE"), help=text("the deck file"))
    load.add_argument("--replace", action="store_true", help=text("its cards win over ours"))
    for sub in (commands, actions):
        for each in sub.choices.values():
            each.add_argument("--lang", choices=LANGUAGES, default=argparse.SUPPRESS,
                              help=argparse.SUPPRESS)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    language = language_of(given)
    with argparse_in(language):
        args = _parser(language).parse_args(given)
    language = args.lang or language
    try:
        if args.command == "simulate":
            return simulate(args.link or default_link(), game(args.game, language), language)
        if args.command == "listen":
            return listen(args.port, as_json=args.json, seconds=args.seconds, language=language)
        if args.command == "enrol":
            vocabulary = game(args.game, language)
            if vocabulary is None:
                raise UsageError(text(
                    "No game is installed, so there is no card to enrol a tag as.",
                    language=language))
            return enrol(args.port, vocabulary, language)
        return registry_command(args, language)
    except (RegistryError, UsageError) as error:
        said = error.text(language) if isinstance(error, RegistryError) else str(error)
        print(f"firmware-bridge: {shown(said, MESSAGE_LIMIT)}", file=sys.stderr)
        return EXIT_BAD
    except KeyboardInterrupt:
        return EXIT_OK


def game(name: str | None, language: str = "en") -> Vocabulary | None:
    """The vocabulary of the game called ``name``; without a name, the preferred
    game's, else the first installed (``None`` if there is none)."""
    games = vocabularies()
    if name is None:
        return games.get(PREFERRED_GAME) or next(iter(games.values()), None)
    if name not in games:
        if not games:
            raise UsageError(text("There is no game called %(name)s: no game is installed.",
                                  language=language, name=shown(repr(name))))
        raise UsageError(text("There is no game called %(name)s: --game takes %(games)s.",
                              language=language, name=shown(repr(name)),
                              games=words.either(list(games), language)))
    return games[name]


def simulate(link: Path, vocabulary: Vocabulary | None, language: str = "en") -> int:
    make_private_folder(link.parent)
    try:
        check_link(link)
    except LinkTaken as error:
        raise UsageError(text(
            "%(name)s is there already and is not a virtual scanner's lock: it is left as it "
            "is; give --link a new name.", language=language, name=shown(error.name))
            if error.lock else text(
            "%(name)s is there already and is not a virtual scanner's link: it is left as it "
            "is; give --link a new name.", language=language, name=shown(error.name))) from None
    scanner = VirtualScanner(link=link)
    print(f"PORT {scanner.path}", flush=True)
    print(f"LINK {shown(str(link), PATH_LIMIT)}", flush=True)
    copies: Counter[str] = Counter()
    try:
        for raw in sys.stdin:
            line = raw.strip()
            if not line:
                continue
            if line == "quit":
                break
            if line == "reset":
                scanner.reset(cut_line=True)
                print("RESET", flush=True)
            elif line == "unplug":
                scanner.unplug()
                print("UNPLUGGED", flush=True)
            elif line == "plug":
                print(f"PORT {scanner.plug()}", flush=True)
            elif line.startswith("uid:"):
                try:
                    uid = normalize_uid(line[4:])
                except RegistryError as error:
                    print(f"ERR {shown(error.text(language), MESSAGE_LIMIT)}", flush=True)
                    continue
                print(f"SENT {uid} {scanner.scan(uid)}", flush=True)
            elif vocabulary is None:
                print("ERR " + text("No game is installed: send a tag as uid:<hex>.",
                                    language=language), flush=True)
            else:
                try:
                    card = vocabulary.identify(line)
                except ValueError as error:
                    print("ERR " + _not_a_card(vocabulary, line, error, language), flush=True)
                    continue
                # each copy of the demo deck in turn, as a real deck's tags would come
                uid = demo_uid(vocabulary, card, copies[card] % max(vocabulary.copies(card), 1))
                copies[card] += 1
                print(f"SENT {uid} {scanner.scan(uid)} {card}", flush=True)
    finally:
        scanner.close()
    return EXIT_OK


def _not_a_card(vocabulary: Vocabulary, typed: str, error: ValueError, language: str) -> str:
    """Why ``typed`` is no card of the game: in the game's own words in
    ``language`` when it has them (a game's optional ``refusal``), else
    the game's sentence."""
    worded = getattr(vocabulary, "refusal", None)
    said = worded(typed, language) if callable(worded) else ""
    if isinstance(said, str) and said:
        return shown(said, MESSAGE_LIMIT)
    return text("%(code)s is no card of %(game)s: %(why)s", language=language,
                code=shown(repr(typed)), game=vocabulary.title,
                why=shown(str(error), MESSAGE_LIMIT))


def _event_json(event: InputEvent) -> dict[str, object]:
    if isinstance(event, CardIdentified):
        return {
            "event": "card",
            "game": event.game,
            "card": event.card,
            "uid": event.uid,
            "seq": event.seq,
        }
    if isinstance(event, ScannerFound):
        return {"event": "connect", "port": event.port, "device": event.device,
                "firmware": event.firmware, "again": event.again}
    if isinstance(event, ScannerLost):
        return {"event": "disconnect", "port": event.port, "reason": event.reason}
    if isinstance(event, ScannerProblem):
        return {"event": "error", "reason": event.reason, "port": event.port}
    assert isinstance(event, CardRefused)
    return {"event": "refused", "text": event.text, "reason": event.reason}


def _event_text(event: InputEvent, language: str = "en") -> str:
    def text(message: str, **params: object) -> str:
        return words.text(message, language=language, **params)

    if isinstance(event, CardIdentified):
        if event.card is None:
            return text("Unknown tag %(uid)s: enrol it with firmware-bridge enrol.", uid=event.uid)
        return text("Card %(game)s %(card)s (tag %(uid)s, number %(seq)s).", game=event.game,
                   card=event.card, uid=event.uid, seq=event.seq)
    if isinstance(event, ScannerFound):
        found = (text("Scanner found again on %(port)s (%(device)s %(firmware)s).", port=event.port,
                     device=event.device, firmware=event.firmware) if event.again else
                 text("Scanner found on %(port)s (%(device)s %(firmware)s).", port=event.port,
                     device=event.device, firmware=event.firmware))
        return found
    if isinstance(event, ScannerLost):
        return text("Scanner lost on %(port)s: %(reason)s; trying again.", port=event.port,
                   reason=event.reason)
    if isinstance(event, ScannerProblem):
        return text("Scanner problem: %(reason)s.", reason=event.reason)
    return text("Not a card: %(reason)s.", reason=event.reason)


def listen(port: str | None, *, as_json: bool, seconds: float | None,
           language: str = "en") -> int:
    events: queue.Queue[InputEvent] = queue.Queue()
    deadline = None if seconds is None else time.monotonic() + seconds
    with ScannerLink(port, events.put):
        while deadline is None or time.monotonic() < deadline:
            with contextlib.suppress(queue.Empty):
                event = events.get(timeout=0.1)
                # what the scanner sent is shown, never acted on by the terminal
                line = (json.dumps(_event_json(event)) if as_json
                        else shown(_event_text(event, language), MESSAGE_LIMIT))
                print(line, flush=True)
    return EXIT_OK


def enrol(port: str | None, vocabulary: Vocabulary, language: str = "en") -> int:
    """Tags scanned one by one, each named by a typed code; an empty line
    (or the end of the input) stops, whenever it comes."""
    given: queue.Queue[InputEvent | str | None] = queue.Queue()
    registry = Registry.load()

    def text(message: str, **params: object) -> str:
        return words.text(message, language=language, **params)

    def typed() -> None:
        for line in sys.stdin:
            given.put(line.strip())
        given.put(None)

    print(text("Scan a tag of %(game)s, then type its card's code; an empty line stops.",
              game=vocabulary.title), flush=True)
    threading.Thread(target=typed, daemon=True, name="enrol-keyboard").start()
    waiting: str | None = None  # the tag whose card is asked for
    with ScannerLink(port, given.put, registry):
        while True:
            item = given.get()
            if item is None or item == "":
                return EXIT_OK
            if isinstance(item, str) and waiting is None:
                print(text("Scan a tag first, then type its card's code."), flush=True)
                continue
            if isinstance(item, str):
                assert waiting is not None
                try:
                    card = vocabulary.identify(item)
                except ValueError as error:
                    print(_not_a_card(vocabulary, item, error, language) + " "
                          + text("Type its card's code:"), flush=True)
                    continue
                registry.enrol(waiting, vocabulary.game, card)
                print(text("Tag %(uid)s is now %(game)s %(card)s. Scan the next tag.",
                          uid=waiting, game=vocabulary.game, card=card), flush=True)
                waiting = None
                continue
            if not isinstance(item, CardIdentified) or item.uid is None:
                print(shown(_event_text(item, language), MESSAGE_LIMIT), flush=True)
                continue
            if item.card:
                print(text("Tag %(uid)s is %(game)s %(card)s. Type its card's code:",
                          uid=item.uid, game=shown(str(item.game)), card=shown(item.card)),
                      flush=True)
            else:
                print(text("Tag %(uid)s is unknown. Type its card's code:", uid=item.uid),
                      flush=True)
            waiting = item.uid


def registry_command(args: argparse.Namespace, language: str = "en") -> int:
    registry = Registry.load()
    where = shown(str(getattr(args, "file", "")), PATH_LIMIT)
    if args.action == "list":
        for uid, tag in registry:  # a game not installed here: its names as the file had them
            print(f"{shown(tag.game)} {shown(tag.card)} {uid}")
        print(plural("%(n)d tag", "%(n)d tags", len(registry), language=language))
    elif args.action == "remove":
        uid = normalize_uid(args.uid)
        before = registry.remove(uid)
        print(text("Forgot %(uid)s (%(card)s).", language=language, uid=uid,
                   card=shown(str(before))) if before else
              text("%(uid)s was not known.", language=language, uid=uid))
    elif args.action == "export":
        count = registry.export(args.file, args.deck)
        print(plural("%(n)d tag written to %(file)s.", "%(n)d tags written to %(file)s.", count,
                     language=language, file=where))
    else:
        added, conflicts = registry.import_file(args.file, replace=args.replace)
        print(plural("%(n)d tag added from %(file)s.", "%(n)d tags added from %(file)s.", added,
                     language=language, file=where))
        for uid in conflicts:
            print(text("Tag %(uid)s had another card here: replaced.", language=language, uid=uid)
                  if args.replace else
                  text("Tag %(uid)s had another card here: ours is kept.", language=language,
                       uid=uid))
    return EXIT_OK
