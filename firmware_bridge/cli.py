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

EXIT_OK = 0
EXIT_BAD = 2
#: The longest message written back whole (it may hold a path or two).
MESSAGE_LIMIT = 2 * PATH_LIMIT + 400
#: The game of ``--game``'s default, when it is installed: the first game there was.
PREFERRED_GAME = "sushigo"


class UsageError(Exception):
    """A command that cannot run as it was given, and why."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="firmware-bridge", description="Try, check and set up the card scanner."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    simulate = commands.add_parser("simulate", help="a virtual scanner on a pseudo-terminal")
    simulate.add_argument(
        "--link", type=Path, default=None,
        help="a stable link to the terminal (default: virtual-scanner in the data folder)",
    )
    simulate.add_argument("--game", help=f"the game of the cards typed (default: {PREFERRED_GAME})")
    listen = commands.add_parser("listen", help="print every event from the scanner")
    listen.add_argument("--port", help="port path or pyserial URL (default: find the board)")
    listen.add_argument("--json", action="store_true", help="one JSON object a line")
    listen.add_argument("--seconds", type=float, default=None, help="stop after this long")
    enrol = commands.add_parser("enrol", help="scan tags and say which card each is")
    enrol.add_argument("--port", help="port path or pyserial URL (default: find the board)")
    enrol.add_argument("--game", help=f"the game of the tags' cards (default: {PREFERRED_GAME})")
    registry = commands.add_parser("registry", help="the tags known to this computer")
    actions = registry.add_subparsers(dest="action", required=True, metavar="ACTION")
    actions.add_parser("list", help="every tag and its card")
    remove = actions.add_parser("remove", help="forget a tag")
    remove.add_argument("uid")
    export = actions.add_parser("export", help="write a deck file to share")
    export.add_argument("file", type=Path)
    export.add_argument("--deck", default="", help="a name for the deck")
    load = actions.add_parser("import", help="add the tags of a deck file")
    load.add_argument("file", type=Path)
    load.add_argument("--replace", action="store_true", help="its cards win over ours")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "simulate":
            return simulate(args.link or default_link(), game(args.game))
        if args.command == "listen":
            return listen(args.port, as_json=args.json, seconds=args.seconds)
        if args.command == "enrol":
            vocabulary = game(args.game)
            if vocabulary is None:
                raise UsageError("no game is installed, so there is no card to enrol a tag as")
            return enrol(args.port, vocabulary)
        return registry_command(args)
    except (RegistryError, UsageError) as error:
        print(f"firmware-bridge: {shown(str(error), MESSAGE_LIMIT)}", file=sys.stderr)
        return EXIT_BAD
    except KeyboardInterrupt:
        return EXIT_OK


def game(name: str | None) -> Vocabulary | None:
    """The vocabulary of the game called ``name``; without a name, the preferred
    game's, else the first installed (``None`` if there is none)."""
    games = vocabularies()
    if name is None:
        return games.get(PREFERRED_GAME) or next(iter(games.values()), None)
    if name not in games:
        choices = f"--game takes {' or '.join(games)}" if games else "no game is installed"
        raise UsageError(f"there is no game called {shown(repr(name))}: {choices}")
    return games[name]


def simulate(link: Path, vocabulary: Vocabulary | None) -> int:
    make_private_folder(link.parent)
    try:
        check_link(link)
    except LinkTaken as error:
        raise UsageError(f"{error}: it is left as it is; give --link a new name") from None
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
                    print(f"ERR {shown(str(error), MESSAGE_LIMIT)}", flush=True)
                    continue
                print(f"SENT {uid} {scanner.scan(uid)}", flush=True)
            elif vocabulary is None:
                print("ERR no game is installed: send a tag as uid:<hex>", flush=True)
            else:
                try:
                    card = vocabulary.identify(line)
                except ValueError as error:
                    print(f"ERR {shown(repr(line))} is no card of {vocabulary.title}: "
                          f"{shown(str(error), MESSAGE_LIMIT)}", flush=True)
                    continue
                # each copy of the demo deck in turn, as a real deck's tags would come
                uid = demo_uid(vocabulary, card, copies[card] % max(vocabulary.copies(card), 1))
                copies[card] += 1
                print(f"SENT {uid} {scanner.scan(uid)} {card}", flush=True)
    finally:
        scanner.close()
    return EXIT_OK


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


def _event_text(event: InputEvent) -> str:
    if isinstance(event, CardIdentified):
        if event.card is None:
            return f"unknown tag {event.uid}: enrol it with firmware-bridge enrol"
        return f"card {event.game} {event.card} (tag {event.uid}, number {event.seq})"
    if isinstance(event, ScannerFound):
        found = "found again" if event.again else "found"
        return f"scanner {found} on {event.port} ({event.device} {event.firmware})"
    if isinstance(event, ScannerLost):
        return f"scanner lost on {event.port}: {event.reason}; trying again"
    if isinstance(event, ScannerProblem):
        return f"scanner problem: {event.reason}"
    return f"not a card: {event.reason}"


def listen(port: str | None, *, as_json: bool, seconds: float | None) -> int:
    events: queue.Queue[InputEvent] = queue.Queue()
    deadline = None if seconds is None else time.monotonic() + seconds
    with ScannerLink(port, events.put):
        while deadline is None or time.monotonic() < deadline:
            with contextlib.suppress(queue.Empty):
                event = events.get(timeout=0.1)
                # what the scanner sent is shown, never acted on by the terminal
                line = (json.dumps(_event_json(event)) if as_json
                        else shown(_event_text(event), MESSAGE_LIMIT))
                print(line, flush=True)
    return EXIT_OK


def enrol(port: str | None, vocabulary: Vocabulary) -> int:
    """Tags scanned one by one, each named by a typed code; an empty line
    (or the end of the input) stops, whenever it comes."""
    given: queue.Queue[InputEvent | str | None] = queue.Queue()
    registry = Registry.load()

    def typed() -> None:
        for line in sys.stdin:
            given.put(line.strip())
        given.put(None)

    print(f"Scan a tag of {vocabulary.title}, then type its card's code; an empty line stops.",
          flush=True)
    threading.Thread(target=typed, daemon=True, name="enrol-keyboard").start()
    waiting: str | None = None  # the tag whose card is asked for
    with ScannerLink(port, given.put, registry):
        while True:
            item = given.get()
            if item is None or item == "":
                return EXIT_OK
            if isinstance(item, str) and waiting is None:
                print("Scan a tag first, then type its card's code.", flush=True)
                continue
            if isinstance(item, str):
                assert waiting is not None
                try:
                    card = vocabulary.identify(item)
                except ValueError as error:
                    print(f"Not a card of {vocabulary.title}: {shown(str(error), MESSAGE_LIMIT)}."
                          " Type its card's code:", flush=True)
                    continue
                registry.enrol(waiting, vocabulary.game, card)
                print(f"Tag {waiting} is now {vocabulary.game} {card}. Scan the next tag.",
                      flush=True)
                waiting = None
                continue
            if not isinstance(item, CardIdentified) or item.uid is None:
                print(shown(_event_text(item), MESSAGE_LIMIT), flush=True)
                continue
            known = f"is {shown(str(item.game))} {shown(item.card)}" if item.card else "is unknown"
            print(f"Tag {item.uid} {known}. Type its card's code:", flush=True)
            waiting = item.uid


def registry_command(args: argparse.Namespace) -> int:
    registry = Registry.load()
    if args.action == "list":
        for uid, tag in registry:  # a game not installed here: its names as the file had them
            print(f"{shown(tag.game)} {shown(tag.card)} {uid}")
        print(f"{len(registry)} tag{'' if len(registry) == 1 else 's'}")
    elif args.action == "remove":
        uid = normalize_uid(args.uid)
        before = registry.remove(uid)
        print(f"forgot {uid} ({shown(str(before))})" if before else f"{uid} was not known")
    elif args.action == "export":
        count = registry.export(args.file, args.deck)
        print(f"{count} tag{'' if count == 1 else 's'} written to "
              f"{shown(str(args.file), PATH_LIMIT)}")
    else:
        added, conflicts = registry.import_file(args.file, replace=args.replace)
        print(f"{added} tag{'' if added == 1 else 's'} added from "
              f"{shown(str(args.file), PATH_LIMIT)}")
        for uid in conflicts:
            kept = "replaced" if args.replace else "kept ours"
            print(f"tag {uid} had another card here: {kept}")
    return EXIT_OK
