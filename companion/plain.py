"""Plain line mode: numbered prompts and append-only output.

For braille terminals that read line by line, screen readers that prefer a
plain console, and pipes (``companion --plain``; also when ``ACCESSIBLE=1``,
``TERM=dumb`` or standard input is not a terminal). Nothing moves, nothing
is redrawn: every sentence is a new line, written, kept in the history and,
when the settings say so, spoken.

At any prompt these words work (the same actions the full interface has on
keys): ``repeat``, ``back``, ``next`` (the history), ``stop`` (speech),
``help``, ``quit``; in a game also ``hand``, ``where``, ``tables``, ``hint``
and ``undo``.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol

from companion.announce import Announcer
from companion.commands import CommandWords, fold
from companion.games.sushigo.bots import Advisor
from companion.games.sushigo.cards import CARDS, Card
from companion.games.sushigo.draft import ChoiceError, GameEnded, Revealed, RoundScored, Variant
from companion.games.sushigo.gamefile import GameFileError, read_game
from companion.games.sushigo.narration import (
    advice_text,
    card_identified,
    card_list,
    card_name,
    cards,
    choice_error_text,
    codes_reference,
    explain_game,
    explain_line,
    game_file_error_text,
    hand_text,
    pick_text,
    points,
    race_text,
    refusal_text,
    typing_help,
)
from companion.games.sushigo.scoring import GameScore, SeatScore
from companion.games.sushigo.tactile import UnknownCodeError, parse, short_code
from companion.games.sushigo.vocabulary import VOCABULARY
from companion.i18n import LANGUAGES, Catalog
from companion.inbox import Inbox, Item
from companion.journal import JournalError
from companion.narration import (
    Verbosity,
    scanner_found_text,
    scanner_lost_text,
    scanner_problem_text,
    unknown_tag,
)
from companion.plain_table import TABLE_WORDS, new_table_game, table_game
from companion.session import PracticeSession, TableSession, resume, unfinished
from companion.settings import VOICE_RANGES, Settings, save_settings
from firmware_bridge.events import (
    CardIdentified,
    InputEvent,
    ScannerFound,
    ScannerLost,
    ScannerProblem,
)
from firmware_bridge.events import Problem as ScannerIssue
from voices.backends import NoSpeech
from voices.base import Priority, VoiceSettings
from voices.choose import FallbackSpeaker, Switched

if TYPE_CHECKING:
    from firmware_bridge.link import ScannerLink

def is_number(text: str) -> bool:
    """A few plain digits 0-9 (not ², nor other scripts' digits, nor more
    digits than any answer has, which int() may refuse)."""
    return text.isascii() and text.isdigit() and len(text) <= 9


LANGUAGE_NAMES = {"en": "English", "fr": "Français", "cs": "Čeština", "ru": "Русский"}
COMMON = ("repeat", "back", "next", "stop", "help", "menu", "quit")
PRACTICE_WORDS = ("where", "hand", "tables", "race", "hint", "undo")
GAME_ONLY = frozenset(PRACTICE_WORDS) | frozenset(TABLE_WORDS)
#: Scanner problems that are news every time they come (scans were lost).
REPORTED_EACH_TIME = frozenset({ScannerIssue.LOST_SCANS, ScannerIssue.DEVICE_ERROR})


class LineSource(Protocol):
    """Where answers come from: standard input, or the full-screen interface."""

    def readline(self) -> str: ...


class LineSink(Protocol):
    """Where sentences go: standard output, or the full-screen interface.

    A sink may also have ``show_choices(title, options)`` and
    ``hide_choices(chosen)`` (a menu is open, then closed, with the index
    chosen or ``None``) and
    ``show_facts(text)`` (the key facts of the game changed); the
    full-screen interface uses them to show a list and a status line.
    """

    def write(self, text: str, /) -> int: ...

    def flush(self) -> None: ...


class Quit(Exception):
    """The player asked to leave (or the input ended)."""


class ToMenu(Exception):
    """The player asked for the main menu: the journey ends where it is
    (a game stays saved, and the next start offers to resume it)."""


@dataclass
class Plain:
    """The line-mode app on a pair of text streams."""

    input: LineSource
    output: LineSink
    settings: Settings | None = None
    rng: random.Random | None = None
    #: The scanner for this run, over the settings' (``companion --scanner``).
    scanner: str | None = None

    def __post_init__(self) -> None:
        self.random = self.rng or random.Random()
        self.game_words: tuple[str, ...] = ()
        self.link: ScannerLink | None = None
        self._last_problem: str | None = None
        self.argument = ""  # what followed a command word that takes one
        self._setup(self.settings or Settings())

    # -- the voice ---------------------------------------------------------------------

    def _setup(self, settings: Settings) -> None:
        self.settings = settings
        self.catalog = Catalog.for_language(settings.language)
        self.words = CommandWords(self.catalog)
        self.verbosity = Verbosity(settings.verbosity)
        voice = VoiceSettings(None, settings.rate, settings.pitch, settings.volume)
        order = None if settings.speech == "auto" else (settings.speech,)
        previous = getattr(self, "announcer", None)
        if previous is not None:
            previous.speaker.close()
        speaker = NoSpeech() if settings.speech == "none" else FallbackSpeaker(
            order, voice, on_notice=self._notice
        )
        self.announcer = Announcer(self._write, speaker, settings.language,
                                   speak_echoes=settings.speak_echoes)

    def _notice(self, notice: Switched) -> None:
        """Speech failed and another voice (or none) took over: said once."""
        reason = notice.reason.rstrip(".")
        if notice.backend is None:
            self._write(self.text("Speech failed (%(reason)s); the app will only write.",
                                  reason=reason))
        else:
            self._write(self.text("Speech failed (%(reason)s); now speaking with %(voice)s.",
                                  reason=reason, voice=notice.backend))

    def _write(self, text: str) -> None:
        self.output.write(text + "\n")
        self.output.flush()

    def say(self, text: str, priority: Priority = Priority.ROUTINE) -> None:
        self.announcer.say(text, priority)

    def command(self, typed: str) -> str | None:
        """The command a typed line is (in English or the player's language)."""
        return self.words.command(typed)

    def say_help(self) -> None:
        """The words (and, on a screen with keys, the keys) that work here."""
        self.say(self.text("Words that work everywhere: %(words)s.",
                           words=self.words.listed(COMMON)))
        if self.game_words:
            self.say(self.text("In a game also: %(words)s.",
                               words=self.words.listed(self.game_words)))
        if getattr(self.output, "has_keys", False):
            self.say(self.text("Keys: F1 help, F2 repeat, F3 back, F4 next, F5 where, F6 hand, "
                               "F7 tables, F8 hint, F9 undo, Escape stop, Control Q quit."))

    def hook(self, name: str, *args: object) -> None:
        """Tell the sink something only a screen shows, if it listens."""
        method = getattr(self.output, name, None)
        if method is not None:
            method(*args)

    def show_facts(self, round_: int, turn: int, score: int, in_hand: int | None) -> None:
        """The key facts, for a status line: round, turn, score, cards in hand."""
        facts = self.text("R%(round)d T%(turn)d, %(points)s", round=round_, turn=turn,
                          points=points(self.catalog, score))
        if in_hand is not None:
            facts += ", " + cards(self.catalog, in_hand)
        self.hook("show_facts", facts)

    def text(self, message: str, **params: object) -> str:
        return self.catalog.text(message, **params)

    # -- asking ----------------------------------------------------------------------------

    def _next(self) -> Item:
        """The next thing the player gave: a line, a scanner event, or the end."""
        if isinstance(self.input, Inbox):
            return self.input.get()
        line = self.input.readline()
        return line.rstrip("\r\n") if line else None

    def _answer(self, prompt: str | None, extra: Callable[[str], bool] | None,
                *, scans: bool) -> str | Card:
        """A typed line, or (when ``scans``) a scanned card. The common words,
        ``extra``'s words and the scanner's news are dealt with here; a scan
        that does not fit the question is explained."""
        asked = time.monotonic()  # before the question: a card after it answers it
        if prompt is not None:
            self.say(prompt)
        while True:
            item = self._next()
            if item is None:
                raise Quit
            if not isinstance(item, str):
                card = self._scanned(item)
                if card is None:
                    continue
                self.announcer.interrupt()  # a card: speech stops at once
                if self._arrived() < asked and prompt is not None:
                    # a double read, or a card scanned while the last answer
                    # was being taken: explained, not taken as this answer
                    self.say(self.text("%(card)s was scanned before this question: scan it "
                                       "again if you meant it.",
                                       card=card_name(self.catalog, card)), Priority.IMPORTANT)
                    continue
                if scans:
                    return card
                self.say(self.text("%(card)s scanned, but no card is wanted here.",
                                   card=card_name(self.catalog, card)), Priority.IMPORTANT)
                if prompt is not None:
                    self.say(prompt)
                continue
            self.announcer.interrupt()  # a typed line: speech stops at once
            answer = item.strip()
            word = self.command(answer)
            self.argument = ""
            first, _, rest = answer.partition(" ")
            if word is None and rest and self.command(first) == "tables":
                word, self.argument = "tables", rest.strip()  # one player's table
            if word == "quit":
                raise Quit
            if word == "menu":
                raise ToMenu
            if word == "repeat":
                self.announcer.repeat()
            elif word == "back":
                self.announcer.back()
            elif word == "next":
                self.announcer.forward()
            elif word == "stop":
                pass
            elif word == "help":
                self.say_help()
            elif word is not None and extra is not None and extra(word):
                pass
            elif word in GAME_ONLY and not self.game_words:
                self.say(self.text("%(word)s works during a game.", word=answer),
                         Priority.IMPORTANT)
            else:
                return answer
            if prompt is not None and word not in {"stop", "repeat", "back", "next"}:
                self.say(prompt)

    def _arrived(self) -> float:
        """When the item just read arrived (now, for a source with no inbox)."""
        return self.input.arrived if isinstance(self.input, Inbox) else time.monotonic()

    def _news(self, text: str) -> None:
        """Something the scanner brought, said at once over what was being said."""
        self.announcer.interrupt()
        self.say(text, Priority.IMPORTANT)

    def _scanned(self, event: InputEvent) -> Card | None:
        """A scanner event told; the card, if it brought one."""
        if isinstance(event, CardIdentified):
            if event.game == VOCABULARY.game and event.card is not None:
                # an id this version has no card for is told as an unknown tag
                with contextlib.suppress(KeyError):
                    return Card.from_id(event.card)
            # for now a card of another game is no card here either
            self._news(unknown_tag(self.catalog, event.uid or "?"))
        elif isinstance(event, ScannerFound):
            self._last_problem = None
            self._news(scanner_found_text(self.catalog, again=event.again))
        elif isinstance(event, ScannerLost):
            self._news(scanner_lost_text(self.catalog))
        elif isinstance(event, ScannerProblem):
            # the link retries every few seconds: the same problem is said once
            said = scanner_problem_text(self.catalog, event)
            if said != self._last_problem or event.kind in REPORTED_EACH_TIME:
                self._news(said)
            self._last_problem = said
        return None

    def ask(self, prompt: str, extra: Callable[[str], bool] | None = None) -> str:
        """A line from the player; the common words are handled here, and
        ``extra`` may handle more (returning True when it did)."""
        answer = self._answer(prompt, extra, scans=False)
        assert isinstance(answer, str)
        return answer

    def choose(self, title: str, options: list[str]) -> int:
        """A numbered choice: the index chosen."""
        self.say(title)
        self.hook("show_choices", title, options)  # a screen shows them as a list
        for number, option in enumerate(options, start=1):
            self.say(f"{number}. {option}")
        chosen: int | None = None
        try:
            while True:
                answer = self.ask(self.text("Choose 1 to %(n)d:", n=len(options)))
                if is_number(answer) and 1 <= int(answer) <= len(options):
                    chosen = int(answer) - 1
                    return chosen
                if not answer:
                    self.say(self.text("Type a number from 1 to %(n)d.", n=len(options)),
                             Priority.IMPORTANT)
                    continue
                self.say(self.text("%(answer)s is not a choice: type a number from 1 to %(n)d.",
                                   answer=answer, n=len(options)), Priority.IMPORTANT)
        finally:
            self.hook("hide_choices", chosen)

    # -- the scanner -----------------------------------------------------------------------

    @property
    def scanner_choice(self) -> str:
        """The scanner of this run: ``--scanner``'s, else the settings'."""
        assert self.settings is not None
        return self.settings.scanner if self.scanner is None else self.scanner

    def use_scanner(self, choice: str) -> None:
        """Listen to the NFC scanner: ``auto`` finds it, ``virtual`` is the one
        ``firmware-bridge simulate`` starts, anything else is its port; an
        empty choice stops listening. Its cards and news join the typed lines
        in the order they come."""
        if self.link is not None:
            self.link.stop()
            self.link = None
        self._last_problem = None
        if not choice:
            return
        from firmware_bridge.link import ScannerLink  # noqa: PLC0415 - pyserial when used
        from firmware_bridge.virtual import default_link  # noqa: PLC0415

        if not isinstance(self.input, Inbox):
            inbox = Inbox()
            inbox.pump(self.input)
            self.input = inbox
        port = {"auto": None, "virtual": str(default_link())}.get(choice, choice)
        self.link = ScannerLink(port, self.input.post).start()

    def choose_scanner(self) -> None:
        """Where cards come from besides the keyboard; saved for next time."""
        assert self.settings is not None
        current = self.scanner_choice
        options = [
            (self.text("Typed codes only (a barcode scanner types too)."), ""),
            (self.text("The NFC scanner, found by itself."), "auto"),
            (self.text("The NFC scanner on a port I give."), None),
            (self.text("The virtual scanner of firmware-bridge simulate."), "virtual"),
        ]
        labels = [label for label, _ in options]
        for number, (_, value) in enumerate(options):
            if value == current or (value is None and current not in {"", "auto", "virtual"}):
                labels[number] = self.text("%(choice)s Chosen now.", choice=labels[number])
        chosen = options[self.choose(self.text("Cards come from:"), labels)][1]
        from firmware_bridge.link import port_exists  # noqa: PLC0415 - pyserial when used

        while chosen is None:
            port = self.ask(self.text("The scanner's port, such as /dev/ttyACM0 "
                                      "(an empty line: typed codes only):"))
            if not port:
                chosen = ""
            elif port_exists(port):
                chosen = port
            else:
                self.say(self.text("There is no port %(port)s. Is the scanner plugged in?",
                                   port=port), Priority.IMPORTANT)
        if chosen != self.settings.scanner:
            self._save(replace(self.settings, scanner=chosen))
        self.scanner = chosen
        self.use_scanner(chosen)

    # -- the app -------------------------------------------------------------------------

    def run(self, *, first_start: bool = False) -> int:
        try:
            if first_start:
                with contextlib.suppress(ToMenu):  # the rest left at the defaults
                    self.first_start()
            assert self.settings is not None
            self.use_scanner(self.scanner_choice)
            with contextlib.suppress(ToMenu):
                self.offer_resume()
            self.menu()
        except Quit:
            self.say(self.text("Goodbye."))
        finally:
            self.use_scanner("")
            self.announcer.speaker.close()
        return 0

    def first_start(self) -> None:
        assert self.settings is not None
        languages = list(LANGUAGES)
        index = self.choose("Language / Langue / Jazyk / Язык:",
                            [LANGUAGE_NAMES[code] for code in languages])
        self._setup(Settings(language=languages[index], speech=self.settings.speech))
        assert self.settings is not None
        speech = self.choose(self.text("Speech:"), [
            self.text("The app speaks for itself."),
            self.text("My screen reader speaks: the app only writes."),
        ])
        verbosity = self.choose(self.text("How much should it say?"), [
            self.text("Terse: key facts only."),
            self.text("Normal."),
            self.text("Verbose: with the rule that applied."),
        ])
        chosen = Settings(
            language=self.settings.language,
            speech="auto" if speech == 0 else "none",
            verbosity=("terse", "normal", "verbose")[verbosity],
            speak_echoes=speech == 0,
        )
        self._save(chosen)
        self.say(self.text("Settings saved. Change them any time from the menu."))
        for line in typing_help(self.catalog):
            self.say(line)
        self.say_help()  # the tour of the words (and keys) that work everywhere

    def offer_resume(self) -> None:
        """Offer the newest unfinished game, practice or table, if there is one."""
        for path in unfinished():
            try:
                session, loaded = resume(path)
            except (JournalError, KeyError, ValueError, TypeError):
                continue
            practice = session if isinstance(session, PracticeSession) else None
            table = session if isinstance(session, TableSession) else None
            if loaded.damaged:
                self.say(self.text("The end of the saved game was damaged; a copy was kept."),
                         Priority.IMPORTANT)
            found = (self.text("An unfinished practice game was found.") if practice
                     else self.text("An unfinished table game was found."))
            try:
                answer = self.choose(found, [self.text("Resume it."), self.text("Not now."),
                                             self.text("Throw it away.")])
            except BaseException:
                session.close()
                raise
            if answer == 0 and practice is not None:
                self.practice(practice)
            elif answer == 0 and table is not None:
                table_game(self, table)
            else:
                if answer == 2 and self.choose(self.text("Throw it away for good?"), [
                        self.text("No, keep it."), self.text("Yes, throw it away.")]) == 1:
                    session.journal.append({"type": "end", "discarded": True})
                    self.say(self.text("Thrown away."))
                session.close()
            return

    def menu(self) -> None:
        while True:
            journeys: list[tuple[str, Callable[[], None]]] = [
                (self.text("Table companion for a real game."), self.new_table),
                (self.text("Practice game against bots."), self.new_practice),
                (self.text("Score a finished game."), self.score_game),
                (self.text("Learn the codes."), self.learn),
                (self.text("Settings."), self.change_settings),
                (self.text("Quit."), self._quit),
            ]
            try:
                index = self.choose(self.text("Main menu."), [name for name, _ in journeys])
                journeys[index][1]()
            except ToMenu:
                self.say(self.text("Back to the main menu."))

    def _quit(self) -> None:
        raise Quit

    def new_table(self) -> None:
        new_table_game(self)

    # -- practice ----------------------------------------------------------------------------

    def new_practice(self) -> None:
        players = self.ask_number(self.text("How many players, you included? 2 to 5:"), 2, 5)
        assert players is not None
        level = self.choose(self.text("Opponents:"), [
            self.text("Greedy bots."),
            self.text("Random bots."),
            self.text("Advisor bots, the strongest."),
        ])
        bot = ("greedy", "random", "advisor")[level]
        variants = [self.text("No variant."), self.text("Pass both ways."), self.text("Soy sauce.")]
        if players == 2:
            variants.append(self.text("Two-player dummy."))
        pick = self.choose(self.text("Variant:"), variants)
        variant = Variant(pass_both_ways=pick == 1, soy_sauce=3 if pick == 2 else 0,
                          dummy=pick == 3)
        names = [self.text("You")] + [self.text("Bot %(n)d", n=n) for n in range(1, players)]
        session = PracticeSession.start(names, [None] + [bot] * (players - 1), variant=variant,
                                        seed=self.random.randrange(2**31))
        self.practice(session)

    def practice(self, session: PracticeSession) -> None:
        game = session.game
        names = session.names + ([self.text("Dummy")] if game.dummy is not None else [])
        self.say(self.text("Practice game: %(players)s.", players=", ".join(names)))

        def extra(word: str) -> bool:
            game = session.game  # undo rebuilds the game: always the one now
            if word == "hand":
                self.say(hand_text(self.catalog, game.hand(0), self.verbosity))
            elif word == "where":
                self.say_where(game.round, game.turn, session.names, game.totals)
            elif word == "tables":
                self.say_tables(names, [game.table(seat) for seat in range(len(names))])
            elif word == "race":
                tables = [game.table(seat) for seat in range(len(names))]
                before = game.view(0).puddings
                self.say_race(names, tables, [kept + table.count(Card.PUDDING)
                                              for kept, table in zip(before, tables, strict=True)])
            elif word == "hint":
                advice = Advisor(worlds=40).advise(game.view(0), game.legal_choices(0),
                                                  self.random)
                self.say(advice_text(self.catalog, advice, self.verbosity), Priority.IMPORTANT)
            elif word == "undo":
                if session.undo_last_of(0):
                    self.say(self.text("Your last pick is taken back."), Priority.IMPORTANT)
                    self.announce_turn(session)
                else:
                    self.say(self.text("Nothing to take back."))
            else:
                return False
            return True

        self.game_words = PRACTICE_WORDS
        try:
            while not game.over:
                game = session.game  # undo rebuilds the game
                self.announce_turn(session)
                given = self._answer(self.text("Your pick:"), extra, scans=True)
                answer = given if isinstance(given, str) else self._scanned_pick(
                    session, given, extra)
                game = session.game
                try:
                    events = list(session.choose(0, answer))
                except ChoiceError as error:
                    self.say(choice_error_text(self.catalog, error), Priority.IMPORTANT)
                    continue
                events += session.play_bots(self.random)
                self.tell(events, names)
        finally:
            self.game_words = ()
            self.hook("show_facts", "")
            session.close()  # a game left unfinished stays saved for resume

    def _scanned_pick(self, session: PracticeSession, first: Card,
                      extra: Callable[[str], bool]) -> str:
        """A pick from scans, as typed: one card; two with chopsticks on the
        table; and, controlling the dummy, then the dummy's card. More scans
        are gathered (an empty line ends early) up to what the turn takes."""
        game = session.game
        chopsticks = Card.CHOPSTICKS in game.table(0)
        controls = game.controller == 0
        full = 1 + chopsticks + controls
        scanned = [first]
        if full > 1:
            self.say(self.text("%(card)s: %(n)d so far.", card=card_name(self.catalog, first),
                               n=1))
            scanned = self.ask_cards(None, extra, allow_empty=True, most=full, full=full,
                                     start=scanned)
        own, dummy = (scanned[:-1], scanned[-1]) if controls and len(scanned) > 1 else (
            scanned, None)
        text = "+".join(short_code(card) for card in own)
        return text + ("/" + short_code(dummy) if dummy is not None else "")

    def announce_turn(self, session: PracticeSession) -> None:
        game = session.game
        self.show_facts(game.round, game.turn, game.totals[0], len(game.hand(0)))
        self.say(self.text("Round %(round)d, turn %(turn)d.", round=game.round, turn=game.turn))
        self.say(hand_text(self.catalog, game.hand(0), self.verbosity))
        if game.controller == 0:
            self.say(self.text("You control the dummy: give it a card too, as in w2/o3."))

    def say_where(self, round_: int, turn: int, names: Sequence[str],
                  totals: Sequence[int]) -> None:
        """Where am I: the round, the turn and everyone's score."""
        scores = ", ".join(f"{name} {totals[seat]}" for seat, name in enumerate(names))
        self.say(self.text("Round %(round)d, turn %(turn)d. Scores: %(scores)s.",
                           round=round_, turn=turn, scores=scores))

    def say_tables(self, names: Sequence[str], tables: Sequence[Sequence[Card]]) -> None:
        """Every player's table, a player a line; only one player's when the
        word came with (the start of) a name or a seat number: ``tables ben``."""
        chosen = list(zip(names, tables, strict=True))
        wanted = fold(self.argument)
        if wanted:
            chosen = [(name, table) for seat, (name, table) in enumerate(chosen)
                      if fold(name).startswith(wanted) or wanted == str(seat + 1)]
            if not chosen:
                self.say(self.text("No player called %(name)s. Players: %(players)s.",
                                   name=self.argument, players=", ".join(names)),
                         Priority.IMPORTANT)
                return
        for name, table in chosen:
            listed = card_list(self.catalog, table) or self.text("nothing yet")
            self.say(self.text("%(player)s: %(cards)s.", player=name, cards=listed))

    def say_race(self, names: Sequence[str], tables: Sequence[Sequence[Card]],
                 puddings: Sequence[int]) -> None:
        """The maki race of this round (from the tables) and the puddings kept."""
        maki = [sum(card.maki_icons for card in table) for table in tables]
        for line in race_text(self.catalog, names, maki, puddings):
            self.say(line)

    def say_round_scores(self, round_: int, scores: Sequence[SeatScore],
                         names: Sequence[str]) -> None:
        """A round's scores, each with its breakdown below the terse level."""
        self.say(self.text("Round %(round)d scores.", round=round_), Priority.IMPORTANT)
        for name, score in zip(names, scores, strict=True):
            self.say(self.text("%(player)s: %(points)s.", player=name,
                               points=points(self.catalog, score.points)), Priority.IMPORTANT)
            if self.verbosity is not Verbosity.TERSE:
                for line in score.lines:
                    self.say("  " + explain_line(self.catalog, line, self.verbosity))

    def say_final(self, score: GameScore, names: Sequence[str]) -> None:
        """The final scores and the winner."""
        final = explain_game(self.catalog, score, names, self.verbosity)
        for sentence in final[final.index(self.text("Final scores.")):]:
            self.say(sentence, Priority.IMPORTANT)

    def tell(self, events: Sequence[object], names: list[str]) -> None:
        for event in events:
            if isinstance(event, Revealed):
                for seat, cards in enumerate(event.cards):
                    if cards:
                        self.say(pick_text(self.catalog, names[seat], cards))
            elif isinstance(event, RoundScored):
                self.say_round_scores(event.round, event.scores, names)
            elif isinstance(event, GameEnded):
                self.say_final(event.score, names)

    # -- scoring a finished game -----------------------------------------------------------------

    def score_game(self) -> None:
        names: list[str] = []
        while len(names) < 5:
            prompt = self.text("Player %(n)d's name, or an empty line when all are in:",
                            n=len(names) + 1)
            name = self.ask(prompt)
            if not name:
                if len(names) >= 2:
                    break
                self.say(self.text("Sushi Go! needs 2 to 5 players."), Priority.IMPORTANT)
                continue
            names.append(name)
        rounds: list[dict[str, list[str]]] = []
        while len(rounds) < 3:
            number = len(rounds) + 1
            cards = {
                name: [card.id for card in self.ask_cards(self.text(
                    "Round %(round)d, %(player)s's cards, in the order played:",
                    round=number, player=name), allow_empty=True)]
                for name in names
            }
            try:
                game = read_game({"players": names, "rounds": [*rounds, cards]})
            except GameFileError as error:
                self.say(game_file_error_text(self.catalog, error), Priority.IMPORTANT)
                self.say(self.text("Round %(round)d again.", round=number))
                continue
            rounds.append(cards)
        for line in explain_game(self.catalog, game.score(), names, self.verbosity):
            self.say(line, Priority.IMPORTANT)

    def ask_cards(
        self,
        prompt: str | None,
        extra: Callable[[str], bool] | None = None,
        *,
        allow_empty: bool = False,
        most: int = 20,
        full: int | None = None,
        start: Sequence[Card] = (),
    ) -> list[Card]:
        """Cards typed (or scanned by a wedge scanner) on one line, by code or
        name; ``t+w2`` or ``t w2`` for two. Refused with the reason until right.

        Cards from the serial scanner gather one by one, each named with the
        count so far; an empty line ends the entry, ``undo`` takes off the
        last one, and the entry ends by itself at ``full`` cards (or ``most``).
        A typed line adds its cards to those scanned and ends the entry. With
        no ``prompt``, the gathering of ``start`` goes on, nothing asked."""
        scanned: list[Card] = list(start)  # scanned already, counted in
        full = min(full or most, most)

        def gathering(word: str) -> bool:
            if scanned and word == "undo":
                card = scanned.pop()
                self.say(self.text("%(card)s taken off: %(n)d so far.",
                                   card=card_name(self.catalog, card), n=len(scanned)))
                return True
            return extra is not None and extra(word)

        ask = prompt
        while True:
            answer = self._answer(ask, gathering, scans=True)
            ask = None
            if isinstance(answer, Card):
                scanned.append(answer)
                if len(scanned) >= full:
                    self.say(self.text("%(card)s: %(n)d, done.",
                                       card=card_name(self.catalog, answer), n=len(scanned)))
                    return scanned
                self.say(self.text("%(card)s: %(n)d so far.",
                                   card=card_name(self.catalog, answer), n=len(scanned)))
                continue
            words = answer.replace("+", " ").replace(",", " ").split()
            if not words:
                if scanned or allow_empty:
                    return scanned
                self.say(self.text("Type at least one card."), Priority.IMPORTANT)
                ask = prompt
                continue
            try:
                cards = [parse(answer)]  # one card by its name: "salmon nigiri"
            except UnknownCodeError:
                try:
                    cards = [parse(word) for word in words]
                except UnknownCodeError as error:
                    self.say(refusal_text(self.catalog, error), Priority.IMPORTANT)
                    ask = None if scanned else prompt
                    continue
            if len(scanned) + len(cards) > most:
                self.say(self.text("At most %(most)d cards here.", most=most),
                         Priority.IMPORTANT)
                ask = None if scanned else prompt
                continue
            return scanned + cards

    # -- learning the codes -----------------------------------------------------------------------

    def learn(self) -> None:
        index = self.choose(self.text("Learn the codes:"), [
            self.text("Type or scan a card to hear what it is."),
            self.text("Drill: the app names a card, you type its code."),
            self.text("Hear the whole reference."),
        ])
        if index == 2:
            for line in codes_reference(self.catalog):
                self.say(line)
            return
        if index == 0:
            while True:
                given = self._answer(self.text("A code or a scan, or an empty line to stop:"),
                                     None, scans=True)
                if not given:
                    return
                try:
                    card = given if isinstance(given, Card) else parse(given)
                except UnknownCodeError as error:
                    self.say(refusal_text(self.catalog, error), Priority.IMPORTANT)
                    continue
                self.say(card_identified(self.catalog, card, Verbosity.VERBOSE))
        right = asked = 0
        while True:
            card = self.random.choice([c for c in CARDS if c is not Card.SOY_SAUCE])
            given = self._answer(self.text("Code for %(card)s? An empty line stops.",
                                           card=card_name(self.catalog, card)), None, scans=True)
            if not given:
                self.say(self.text("%(right)d right out of %(asked)d.", right=right, asked=asked))
                return
            try:
                typed = given if isinstance(given, Card) else parse(given)
            except UnknownCodeError as error:
                self.say(refusal_text(self.catalog, error), Priority.IMPORTANT)
                continue
            asked += 1
            if typed is card:
                right += 1
                self.say(self.text("Right: %(code)s.", code=short_code(card)))
            else:
                self.say(self.text("No: %(code)s is %(typed)s; %(card)s is %(right)s.",
                                   code=short_code(typed), typed=card_name(self.catalog, typed),
                                   card=card_name(self.catalog, card), right=short_code(card)),
                         Priority.IMPORTANT)

    # -- settings ---------------------------------------------------------------------

    def _save(self, chosen: Settings) -> None:
        save_settings(chosen)
        self._setup(chosen)

    def change_settings(self) -> None:
        assert self.settings is not None
        current = self.settings
        index = self.choose(self.text("Settings:"), [
            self.text("Language."), self.text("Speech."), self.text("How much to say."),
            self.text("Voice speed, pitch and volume."), self.text("Card scanner."),
        ])
        if index == 4:
            self.choose_scanner()
            return
        if index == 0:
            languages = list(LANGUAGES)
            pick = self.choose(self.text("Language:"), [LANGUAGE_NAMES[c] for c in languages])
            chosen = replace(current, language=languages[pick])
        elif index == 1:
            pick = self.choose(self.text("Speech:"), [
                self.text("The app speaks for itself."),
                self.text("My screen reader speaks: the app only writes."),
            ])
            chosen = replace(current, speech=("auto", "none")[pick], speak_echoes=pick == 0)
        elif index == 2:
            pick = self.choose(self.text("How much should it say?"), [
                self.text("Terse: key facts only."), self.text("Normal."),
                self.text("Verbose: with the rule that applied."),
            ])
            chosen = Settings(**{**vars(current),
                                 "verbosity": ("terse", "normal", "verbose")[pick]})
        else:
            chosen = self.change_voice(current)
        self._save(chosen)
        self.say(self.text("Settings saved."))

    def change_voice(self, current: Settings) -> Settings:
        """Speed, pitch or volume, as a number in its range."""
        knobs = [
            ("rate", self.text("Speed, in words a minute")),
            ("pitch", self.text("Pitch")),
            ("volume", self.text("Volume")),
        ]
        name, label = knobs[self.choose(self.text("Which one?"), [
            self.text("%(setting)s (now %(value)d).", setting=label, value=getattr(current, name))
            for name, label in knobs])]
        low, high = VOICE_RANGES[name]
        value = self.ask_number(self.text("%(setting)s, %(low)d to %(high)d (now %(value)d):",
                                          setting=label, low=low, high=high,
                                          value=getattr(current, name)),
                                low, high, allow_empty=True)
        return current if value is None else Settings(**{**vars(current), name: value})

    def ask_number(self, prompt: str, low: int, high: int, *,
                   allow_empty: bool = False) -> int | None:
        """A whole number from ``low`` to ``high`` (``None`` for an empty
        line, where ``allow_empty``); refused with the range until right."""
        while True:
            answer = self.ask(prompt)
            if not answer and allow_empty:
                return None
            if not answer:
                self.say(self.text("Type a number from %(low)d to %(high)d.", low=low, high=high),
                         Priority.IMPORTANT)
                continue
            if is_number(answer) and low <= int(answer) <= high:
                return int(answer)
            self.say(self.text("%(answer)s is not a number from %(low)d to %(high)d.",
                               answer=answer or "''", low=low, high=high), Priority.IMPORTANT)
