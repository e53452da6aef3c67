"""The app put together: the one composition root.

``companion`` with no command comes here (:func:`companion.cli.run_app`
calls :func:`start`). This module, and only this one, builds the parts of
a run and wires them:

- the settings: the file's (or the defaults, at a first start, or when
  the file cannot be used), then the command line's language and game;
- the services of the conversation: speech
  (:class:`~companion.conversation.speech.SpeechService`), the scanner's link
  (:class:`~companion.conversation.scanning.Scanner`) and the settings kept
  (:class:`~companion.conversation.services.Kept`);
- the input queue: the full screen's inbox, or in plain line mode the
  keyboard read in the journeys' thread (copied into an inbox by a thread
  of its own once a scanner is listened to);
- the face, plain lines or the full screen, chosen by
  :func:`wants_plain`;
- the conversation (:class:`~companion.conversation.core.Talk`) over them,
  and the journeys run on it.

A face gets only what it needs of the conversation: the full screen a
:class:`~companion.faces.Running` (speech to stop, the settings' language,
the journeys to run in its worker), plain lines the keyboard and the words
of its page breaks. A run that ends on an error nothing handled ends with
one sentence on standard error and status 1 (:func:`stopped_on`).
"""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from companion import ending
from companion.contract.events import Face, SettingsView, SpeechControl
from companion.conversation.core import Talk
from companion.conversation.inbox import ItemSource, LineReader
from companion.conversation.journeys import run
from companion.conversation.scanning import Scanner
from companion.conversation.services import Kept
from companion.conversation.speech import SpeechService
from companion.faces.web import PORT
from companion.games import UnknownGameError, game
from companion.i18n import Catalog
from companion.settings import Settings, SettingsError, load_settings
from companion.shown import shown

if TYPE_CHECKING:
    import socket

    from companion.contract.game import SharedTable
    from companion.faces.plain import LineSink
    from companion.faces.screen import CompanionApp
    from companion.faces.web.page import Window

#: The exit statuses of a run, as the command line gives them.
EXIT_OK = 0
#: The app ended on an error (one sentence on standard error says which).
EXIT_ERROR = 1
EXIT_BAD_INPUT = 2


def start(language: str | None, *, plain: bool, scanner: str | None = None,
          game_name: str | None = None,
          default_language: Callable[[], str] = lambda: "en") -> int:
    """The app: the settings, then the full-screen interface or plain line
    mode; the exit status. ``language``, ``scanner`` (``none``: none) and
    ``game_name`` are the command line's; ``default_language`` is the
    language of a first start when none is given (the environment's)."""
    chosen = settings_for_run(language, game_name, default_language)
    if isinstance(chosen, int):
        return chosen
    settings, first = chosen
    if scanner == "none":
        scanner = ""
    try:
        if wants_plain(plain):
            return run_plain(sys.stdin, sys.stdout, settings, first_start=first, scanner=scanner)
        os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")
        from companion.faces import screen  # noqa: PLC0415, F401 - Textual when used

        # Until the screen is up and takes the signals itself, one is only noted
        # (raised inside Textual's start, it would leave the terminal in its
        # alternate screen): the screen ends as soon as it is up.
        with ending.held():
            app = FullScreen(settings, first_start=first, scanner=scanner).app
            try:
                code = app.run()
            finally:
                # Textual's loop gave the signals back to the defaults as it ended:
                # the app's again, so that what follows (speech ended, the game
                # closed) is not broken into
                ending.take_signals()
    except Exception as error:  # whatever it was: one sentence and the status, no traceback
        return stopped_on(error, settings.language)
    if app.error is not None:
        return stopped_on(app.error, settings.language)
    return app.return_code or code or EXIT_OK


def settings_for_run(language: str | None, game_name: str | None,
                     default_language: Callable[[], str]) -> tuple[Settings, bool] | int:
    """The settings of a run: the file's (or the defaults, at a first start,
    or when the file cannot be used) with the command line's language and
    game over them; whether it is a first start. An unknown game: said on
    standard error, and the exit status instead."""
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
        except UnknownGameError as error:  # in the language asked, else the environment's
            words = Catalog.for_language(language or default_language())
            print(f"companion: {error.text(words)}", file=sys.stderr)
            return EXIT_BAD_INPUT
    return chosen, first


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


def stopped_on(error: BaseException, language: str) -> int:
    """Say, in one sentence, the error the app stopped on; the exit status."""
    catalog = Catalog.for_language(language)
    what = shown(f"{type(error).__name__}: {error}", limit=300)
    said = catalog.text("The app stopped on an error: %(error)s.", error=what)
    print(f"companion: {said}", file=sys.stderr)
    return EXIT_ERROR


def conversation(face: Face, source: ItemSource | LineReader, settings: Settings, *,
                 scanner: str | None = None) -> Talk:
    """The conversation over ``face``, reading ``source``, with its services:
    speech (started now, in a thread of its own: nothing waits for it), the
    scanner of this run (``scanner``, over the settings') and the settings.
    The deals and the bots' choices come from ``COMPANION_SEED`` when it is
    set (any text: the same text, the same games), to replay a game exactly."""
    return Talk(face, source, settings, rng=dealer(), speech=SpeechService(face.show),
                listening=Scanner(scanner), kept=Kept(settings))


#: Where a replayable series of deals comes from (a walk's, a bug report's).
SEED_VARIABLE = "COMPANION_SEED"


def dealer(environ: Mapping[str, str] = os.environ) -> random.Random:
    """The random source of the practice games: seeded by ``COMPANION_SEED``
    when it is set, else by the system.

    >>> same = {"COMPANION_SEED": "table 4"}
    >>> dealer(same).random() == dealer(same).random()
    True
    """
    seed = environ.get(SEED_VARIABLE)
    return random.Random(seed) if seed is not None else random.Random()


def run_plain(source: ItemSource | LineReader, output: LineSink, settings: Settings, *,
              first_start: bool = False, scanner: str | None = None) -> int:
    """The app in plain line mode, reading ``source`` (typed lines or keys,
    those of the key map understood) until the player quits or it ends."""
    from companion.faces.plain import PlainRun  # noqa: PLC0415 - the face chosen

    lines = PlainRun(source, output)
    talk: Talk | None = None
    try:
        # the terminal's mode, the speech and the scanner are set up whole:
        # told to end meanwhile, the app ends once they are, and undoes them
        with ending.held():
            keyboard = lines.keyboard()
            talk = made = conversation(lines.face, keyboard, settings, scanner=scanner)
            lines.face.more = lambda page: made.text("More: Enter. Page %(page)d.", page=page)
        with lines.signals():
            return run(made, first_start=first_start)
    except KeyboardInterrupt:  # told to end before the journeys began: nothing to save
        if talk is not None:
            talk.close()  # (closing it again, if they had, does nothing more)
        return 0
    finally:
        lines.finish()


#: The words the web face has buttons for, besides the game's own: the
#: history's other words (back, next, stop) are the page itself there.
WEB_WORDS = ("help", "repeat", "menu")
#: Seconds the end of the web face waits, at most, for the conversation to
#: end (the game saved, the goodbye said) once the server has stopped.
WEB_END_WAIT = 10.0


def run_web(settings: Settings, *, first_start: bool = False, scanner: str | None = None,
            port: int = PORT, open_page: bool = True, speak: bool = False,
            table: bool = False, lan: str | None = None, out: LineSink | None = None) -> int:
    """The app as a web page on this machine (``companion web``): the
    conversation over the web face, served on 127.0.0.1 at ``port`` (0:
    any free port), its address printed on ``out`` (and the page opened in
    the browser, where there is one to open, with ``open_page``), until the
    player quits or the server is stopped (Control C). ``speak``: the app's
    own speech as the settings say (by default the screen reader speaks).
    ``table``: a table shared between devices first (one per seat, each
    joining at ``/join``); ``lan``: served on the local network too (the
    host's own page still on this machine only), at this address of this
    machine's (``""``: the one its network route has)."""
    import threading  # noqa: PLC0415 - the web face's, when it runs

    from companion.faces.web.face import WebFace  # noqa: PLC0415
    from companion.faces.web.seats import Seats  # noqa: PLC0415
    from companion.faces.web.server import LOCAL_HOSTS, WebServer  # noqa: PLC0415

    output = out if out is not None else sys.stdout
    catalog = Catalog.for_language(settings.language)
    bound = web_socket(port, lan=lan, catalog=catalog)
    if isinstance(bound, int):
        return bound
    sock, here = bound
    made: list[Talk] = []
    face = WebFace(lambda: made[0].language if made else settings.language)
    talk = Talk(face, face.inbox, settings, rng=dealer(),
                speech=SpeechService(face.show, speech=None if speak else "none"),
                listening=Scanner(scanner), kept=Kept(settings))
    made.append(talk)
    actual = sock.getsockname()[1]
    seats = Seats(face, lambda shared, number, language: seat_window(
        shared, number, settings, language), f"http://{here}:{actual}/")
    talk.seating = seats
    networked = lan is not None
    server = WebServer(face, actions=lambda: web_actions(talk), seats=seats, lan=networked,
                       hosts=(*LOCAL_HOSTS, here) if networked else LOCAL_HOSTS)
    failed: list[BaseException] = []

    def journeys() -> None:
        try:
            run(talk, first_start=first_start, shared=table)
        except Exception as error:  # said once the server has stopped
            failed.append(error)
        finally:
            face.ended()
            server.stop()

    address = f"http://127.0.0.1:{actual}/"
    print(catalog.text("The companion is at %(address)s: open it in your browser. "
                       "Control C stops it.", address=address), file=output)
    if table or networked:
        print(catalog.text("Players join at %(address)s once the table is set up (the page "
                           "shows its code).", address=seats.address + "join"), file=output)
    output.flush()
    thread = threading.Thread(target=journeys, name="journeys", daemon=True)
    try:
        thread.start()
        if open_page:  # (a browser may take its time to start: the page is served meanwhile)
            threading.Thread(target=opened, args=(address,), name="browser", daemon=True).start()
        server.serve(sock)
    finally:
        face.give(None)  # the input ends: the conversation ends too (the game saved)
        seats.close()
        thread.join(WEB_END_WAIT)
        sock.close()
    if failed:
        return stopped_on(failed[0], talk.language)
    return EXIT_OK


def web_socket(port: int, *, lan: str | None, catalog: Catalog) -> tuple[
        socket.socket, str] | int:
    """The web face's listening socket, and the address others reach it at
    (this machine's, or with ``lan`` its address on the local network:
    that one, or with ``""`` the one its route has); a problem said on
    standard error, and the exit status instead."""
    from companion.faces.web.server import bind  # noqa: PLC0415 - the web face's

    here = "127.0.0.1"
    if lan == "":
        here = lan_address() or ""
        if not here:
            print("companion: " + catalog.text(
                "No local network was found: is this computer on the table's Wi-Fi? Without "
                "--lan the page is on this computer only."), file=sys.stderr)
            return EXIT_ERROR
    elif lan is not None:
        here = lan
        if not is_own_address(lan):
            print("companion: " + catalog.text(
                "%(address)s is not an address of this computer on a network: give the one "
                "the table's Wi-Fi reaches it at, or --lan alone to have it found.",
                address=lan), file=sys.stderr)
            return EXIT_ERROR
    try:
        return bind("0.0.0.0" if lan is not None else "127.0.0.1", port), here
    except OSError as error:
        print("companion: " + catalog.text(
            "The web page cannot be served on port %(port)d: %(error)s. Choose another "
            "port with --port.", port=port, error=error.strerror or error), file=sys.stderr)
        return EXIT_ERROR


def seat_window(table: SharedTable, seat: int, settings: Settings, language: str) -> Window:
    """Seat ``seat``'s own conversation at a shared table, in ``language``
    (the device's), over a page of its own: the seat's game in a thread of
    its own (no speech of the app's, no scanner: the device's screen
    reader speaks). Its window, whose ``close`` ends the conversation."""
    import threading  # noqa: PLC0415 - the web face's, when it runs

    from companion.conversation.journeys import seat as seat_journey  # noqa: PLC0415
    from companion.faces.web.face import WebFace  # noqa: PLC0415
    from companion.faces.web.page import Window  # noqa: PLC0415

    own = replace(settings, language=language, speech="none", scanner="")
    face = WebFace(lambda: language)
    talk = Talk(face, face.inbox, own, rng=dealer(), speech=SpeechService(face.show,
                                                                          speech="none"),
                listening=Scanner(""), kept=Kept(own))

    def journey() -> None:
        goodbye = None
        try:
            seat_journey(talk, table.seat(seat, language, talk.verbosity))
        except Exception as error:  # (a fault: said on the seat's page, the game saved)
            goodbye = Catalog.for_language(language).text(
                "This seat stopped on an error: %(error)s. Its game is saved as far as it "
                "went.", error=f"{type(error).__name__}: {error}")
            raise
        finally:
            face.ended(goodbye)

    thread = threading.Thread(target=journey, name=f"seat {seat + 1}", daemon=True)
    thread.start()
    return Window(face, lambda: web_actions(talk), base="/seat",
                  close=lambda: face.give(None), wait=thread.join)


def is_own_address(address: str) -> bool:
    """Whether ``address`` is an IPv4 address of this computer's on a
    network (not its loopback): one a socket can be bound to.

    >>> is_own_address("127.0.0.1"), is_own_address("not an address")
    (False, False)
    """
    import ipaddress  # noqa: PLC0415 - when served on the network
    import socket  # noqa: PLC0415

    try:
        parsed = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    if parsed.is_loopback or parsed.is_unspecified or parsed.is_multicast:
        return False
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.bind((address, 0))
        except OSError:  # (not this computer's)
            return False
    return True


def lan_address() -> str | None:
    """This computer's address on the local network (the one a phone on the
    same Wi-Fi reaches it at), or ``None`` when it is on none. (A UDP
    socket "connected" to an outside address only picks the route: no
    packet is sent.)"""
    import socket  # noqa: PLC0415 - when served on the network

    for probe in ("192.0.2.1", "10.255.255.255"):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            try:
                sock.connect((probe, 9))
                address = str(sock.getsockname()[0])
            except OSError:
                continue
            if not address.startswith("127.") and address != "0.0.0.0":
                return address
    return None


def web_actions(talk: Talk) -> list[tuple[str, str]]:
    """The words the web face has buttons for now, (name, label): help,
    repeat and menu, and in a game the game's own words."""
    play = talk.play
    bound = talk.hosting or talk.seated  # (a shared table: the menu does not leave it)
    names = [*(word for word in WEB_WORDS if not (word == "menu" and bound)),
             *(play.actions if play is not None else ())]
    return [(name, talk.words.word(name).capitalize()) for name in names if name in talk.words]


def opened(address: str, environ: Mapping[str, str] = os.environ) -> bool:
    """Open ``address`` in the browser, where there is a desktop to open it
    on (on Linux, a display): a browser in the terminal (lynx, w3m) would
    take the terminal the address was printed in. Whether it was asked to.

    >>> opened("http://127.0.0.1:1/", {}) if sys.platform.startswith("linux") else False
    False
    """
    if sys.platform.startswith("linux") and not (
            environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY")):
        return False
    import webbrowser  # noqa: PLC0415 - when a page is opened

    try:
        return webbrowser.open(address, new=2)
    except webbrowser.Error:
        return False


@dataclass(frozen=True, slots=True)
class Begun:
    """What the full screen gets of the conversation it began
    (a :class:`~companion.faces.Running`)."""

    speech: SpeechControl
    settings: SettingsView
    journeys: Callable[[], int]

    def run(self) -> int:
        return self.journeys()


class FullScreen:
    """The full screen put together: its App (``app``), and the
    conversation (``talk``), built over the screen's face once the screen
    is up (speech starts then, and the screen's start takes the signals)."""

    def __init__(self, settings: Settings, *, first_start: bool = False,
                 scanner: str | None = None) -> None:
        from companion.faces.screen import (  # noqa: PLC0415 - Textual when used
            CompanionApp,
            ScreenInbox,
        )

        self.settings = settings
        self.first_start = first_start
        self.scanner = scanner
        self.talk: Talk | None = None
        #: What the player gives, from the UI thread (and the scanner's link).
        self.inbox = ScreenInbox()
        self.app: CompanionApp = CompanionApp(self.begin, inbox=self.inbox)

    def begin(self, face: Face) -> Begun:
        """The conversation over the screen's ``face``, reading the screen's
        inbox (the one it has now: a test may give it its own)."""
        self.talk = talk = conversation(face, self.app.inbox, self.settings,
                                        scanner=self.scanner)
        self.app.more = lambda page: talk.text("More: Enter. Page %(page)d.", page=page)
        return Begun(talk.speech, talk.kept,
                     lambda: run(talk, first_start=self.first_start))
