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

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from companion.announce import Announcer
from companion.i18n import LANGUAGES, Catalog
from companion.journal import JournalError
from companion.narration import (
    Verbosity,
    advice_text,
    card_identified,
    card_list,
    card_name,
    choice_error_text,
    codes_reference,
    explain_game,
    explain_line,
    game_file_error_text,
    hand_text,
    pick_text,
    points,
    refusal_text,
    typing_help,
)
from companion.plain_table import new_table_game, table_game
from companion.session import PracticeSession, TableSession, unfinished
from companion.settings import Settings, save_settings
from companion.sushigo.bots import Advisor
from companion.sushigo.cards import CARDS, Card
from companion.sushigo.draft import ChoiceError, GameEnded, Revealed, RoundScored, Variant
from companion.sushigo.gamefile import GameFileError, read_game
from companion.sushigo.scoring import GameScore, SeatScore
from companion.sushigo.tactile import UnknownCodeError, parse, short_code
from voices.backends import NoSpeech
from voices.base import Priority, VoiceSettings
from voices.choose import FallbackSpeaker

LANGUAGE_NAMES = {"en": "English", "fr": "Français", "cs": "Čeština", "ru": "Русский"}
COMMON = ("repeat", "back", "next", "stop", "help", "quit")


class LineSource(Protocol):
    """Where answers come from: standard input, or the full-screen interface."""

    def readline(self) -> str: ...


class LineSink(Protocol):
    """Where sentences go: standard output, or the full-screen interface."""

    def write(self, text: str, /) -> int: ...

    def flush(self) -> None: ...


class Quit(Exception):
    """The player asked to leave (or the input ended)."""


@dataclass
class Plain:
    """The line-mode app on a pair of text streams."""

    input: LineSource
    output: LineSink
    settings: Settings | None = None
    rng: random.Random | None = None

    def __post_init__(self) -> None:
        self.random = self.rng or random.Random()
        self._setup(self.settings or Settings())

    # -- the voice ---------------------------------------------------------------------

    def _setup(self, settings: Settings) -> None:
        self.settings = settings
        self.catalog = Catalog.for_language(settings.language)
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

    def _notice(self, text: str) -> None:
        self._write(text)

    def _write(self, text: str) -> None:
        self.output.write(text + "\n")
        self.output.flush()

    def say(self, text: str, priority: Priority = Priority.ROUTINE) -> None:
        self.announcer.say(text, priority)

    def text(self, message: str, **params: object) -> str:
        return self.catalog.text(message, **params)

    # -- asking ----------------------------------------------------------------------------

    def ask(self, prompt: str, extra: Callable[[str], bool] | None = None) -> str:
        """A line from the player; the common words are handled here, and
        ``extra`` may handle more (returning True when it did)."""
        while True:
            self.say(prompt)
            line = self.input.readline()
            if not line:
                raise Quit
            self.announcer.interrupt()  # new input: speech stops at once
            answer = line.strip()
            word = answer.casefold()
            if word == "quit":
                raise Quit
            if word == "repeat":
                self.announcer.repeat()
            elif word == "back":
                self.announcer.back()
            elif word == "next":
                self.announcer.forward()
            elif word == "stop":
                pass
            elif word == "help":
                self.say(self.text("Words that work everywhere: repeat, back, next, stop, help, "
                                "quit."))
            elif extra is not None and extra(word):
                continue
            else:
                return answer

    def choose(self, title: str, options: list[str]) -> int:
        """A numbered choice: the index chosen."""
        self.say(title)
        for number, option in enumerate(options, start=1):
            self.say(f"{number}. {option}")
        while True:
            answer = self.ask(self.text("Choose 1 to %(n)d:", n=len(options)))
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return int(answer) - 1
            self.say(self.text("%(answer)s is not a choice: type a number from 1 to %(n)d.",
                            answer=answer or "''", n=len(options)), Priority.IMPORTANT)

    # -- the app -------------------------------------------------------------------------

    def run(self, *, first_start: bool = False) -> int:
        try:
            if first_start:
                self.first_start()
            self.offer_resume()
            self.menu()
        except Quit:
            self.say(self.text("Goodbye."))
        finally:
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
        save_settings(chosen)
        self._setup(chosen)
        self.say(self.text("Settings saved. Change them any time from the menu."))
        for line in typing_help(self.catalog):
            self.say(line)

    def offer_resume(self) -> None:
        """Offer the newest unfinished game, practice or table, if there is one."""
        for path in unfinished():
            try:
                practice, loaded = PracticeSession.resume(path)
                table = None
            except JournalError:
                try:
                    table, loaded = TableSession.resume(path)
                    practice = None
                except (JournalError, KeyError, ValueError):
                    continue
            except (KeyError, ValueError):
                continue
            if loaded.damaged:
                self.say(self.text("The end of the saved game was damaged; a copy was kept."),
                         Priority.IMPORTANT)
            found = (self.text("An unfinished practice game was found.") if practice
                     else self.text("An unfinished table game was found."))
            answer = self.choose(found, [self.text("Resume it."), self.text("Not now.")])
            if answer == 0 and practice is not None:
                self.practice(practice)
            elif answer == 0 and table is not None:
                table_game(self, table)
            elif practice is not None:
                practice.close()
            elif table is not None:
                table.close()
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
            index = self.choose(self.text("Main menu."), [name for name, _ in journeys])
            journeys[index][1]()

    def _quit(self) -> None:
        raise Quit

    def new_table(self) -> None:
        new_table_game(self)

    # -- practice ----------------------------------------------------------------------------

    def new_practice(self) -> None:
        players = self.choose(self.text("How many players, you included?"),
                              ["2", "3", "4", "5"]) + 2
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
            if word == "hand":
                self.say(hand_text(self.catalog, game.hand(0), self.verbosity))
            elif word == "where":
                self.say_where(game.round, game.turn, session.names, game.totals)
            elif word == "tables":
                self.say_tables(names, [game.table(seat) for seat in range(len(names))])
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

        while not game.over:
            game = session.game  # undo rebuilds the game
            self.announce_turn(session)
            answer = self.ask(self.text("Your pick:"), extra)
            game = session.game
            try:
                events = list(session.choose(0, answer))
            except ChoiceError as error:
                self.say(choice_error_text(self.catalog, error), Priority.IMPORTANT)
                continue
            events += session.play_bots(self.random)
            self.tell(events, names)
        session.close()

    def announce_turn(self, session: PracticeSession) -> None:
        game = session.game
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
        """Every player's table, a player a line."""
        for name, table in zip(names, tables, strict=True):
            listed = card_list(self.catalog, table) or self.text("nothing yet")
            self.say(self.text("%(player)s: %(cards)s.", player=name, cards=listed))

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
        prompt: str,
        extra: Callable[[str], bool] | None = None,
        *,
        allow_empty: bool = False,
        most: int = 20,
    ) -> list[Card]:
        """Cards typed (or scanned by a wedge scanner) on one line, by code or
        name; ``t+w2`` or ``t w2`` for two. Refused with the reason until right."""
        while True:
            answer = self.ask(prompt, extra)
            words = answer.replace("+", " ").replace(",", " ").split()
            if not words:
                if allow_empty:
                    return []
                self.say(self.text("Type at least one card."), Priority.IMPORTANT)
                continue
            try:
                cards = [parse(answer)]  # one card by its name: "salmon nigiri"
            except UnknownCodeError:
                try:
                    cards = [parse(word) for word in words]
                except UnknownCodeError as error:
                    self.say(refusal_text(self.catalog, error), Priority.IMPORTANT)
                    continue
            if len(cards) > most:
                self.say(self.text("At most %(most)d cards here.", most=most),
                         Priority.IMPORTANT)
                continue
            return cards

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
                answer = self.ask(self.text("A code, or an empty line to stop:"))
                if not answer:
                    return
                try:
                    self.say(card_identified(self.catalog, parse(answer), Verbosity.VERBOSE))
                except UnknownCodeError as error:
                    self.say(refusal_text(self.catalog, error), Priority.IMPORTANT)
        right = asked = 0
        while True:
            card = self.random.choice([c for c in CARDS if c is not Card.SOY_SAUCE])
            answer = self.ask(self.text("Code for %(card)s? An empty line stops.",
                                     card=card_name(self.catalog, card)))
            if not answer:
                self.say(self.text("%(right)d right out of %(asked)d.", right=right, asked=asked))
                return
            try:
                typed = parse(answer)
            except UnknownCodeError as error:
                self.say(refusal_text(self.catalog, error), Priority.IMPORTANT)
                continue
            asked += 1
            if typed is card:
                right += 1
                self.say(self.text("Right: %(code)s.", code=short_code(card)))
            else:
                self.say(self.text("No: %(code)s is %(typed)s; %(card)s is %(right)s.",
                                code=answer, typed=card_name(self.catalog, typed),
                                card=card_name(self.catalog, card), right=short_code(card)),
                         Priority.IMPORTANT)

    # -- settings ---------------------------------------------------------------------

    def change_settings(self) -> None:
        assert self.settings is not None
        current = self.settings
        index = self.choose(self.text("Settings:"), [
            self.text("Language."), self.text("Speech."), self.text("How much to say."),
        ])
        if index == 0:
            languages = list(LANGUAGES)
            pick = self.choose(self.text("Language:"), [LANGUAGE_NAMES[c] for c in languages])
            chosen = Settings(**{**vars(current), "language": languages[pick]})
        elif index == 1:
            pick = self.choose(self.text("Speech:"), [
                self.text("The app speaks for itself."),
                self.text("My screen reader speaks: the app only writes."),
            ])
            chosen = Settings(**{**vars(current), "speech": ("auto", "none")[pick],
                                 "speak_echoes": pick == 0})
        else:
            pick = self.choose(self.text("How much should it say?"), [
                self.text("Terse: key facts only."), self.text("Normal."),
                self.text("Verbose: with the rule that applied."),
            ])
            chosen = Settings(**{**vars(current),
                                 "verbosity": ("terse", "normal", "verbose")[pick]})
        save_settings(chosen)
        self._setup(chosen)
        self.say(self.text("Settings saved."))

