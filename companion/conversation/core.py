"""The conversation itself: questions asked, answers read, words answered.

:class:`Talk` is what journeys and games talk to (it is a
:class:`~companion.contract.events.Conversation`). It turns what the
player gives (lines typed, options chosen in a list, keys pressed, cards
scanned) into the typed answer of the open question, refusing with the
reason until it has one; it answers the words that work everywhere
(repeat, back, next, stop, help, menu, quit) and hands a game's words to
the game being played. Everything said goes to the face, to the history
and, as the settings say, to speech.

It runs in the journeys' thread; the face and the scanner's link give it
input through an :class:`~companion.conversation.inbox.Inbox` from theirs.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar, cast

from companion.contract.events import (
    Announcement,
    Answered,
    Asked,
    CardReader,
    Cards,
    CardsQuestion,
    Chosen,
    EmptyGroupError,
    Face,
    Item,
    Menu,
    Number,
    Pressed,
    Question,
    Text,
    Typed,
    Verbosity,
    YesNo,
    reply,
    warning,
)
from companion.conversation.announce import Announcer
from companion.conversation.inbox import Inbox, LineReader, Lines, Source
from companion.conversation.scanner_news import (
    scanner_found_text,
    scanner_lost_text,
    scanner_problem_text,
    unknown_tag,
)
from companion.games import games
from companion.i18n import N_, Catalog
from companion.keymap import EVERYWHERE, QUIET, Action, Scope, Words, keys_sentence
from companion.settings import Settings, save_settings, speech_for_run
from companion.shown import shown
from firmware_bridge.events import (
    CardIdentified,
    CardRefused,
    InputEvent,
    Problem,
    ScannerFound,
    ScannerLost,
    ScannerProblem,
)
from voices.backends import NoSpeech
from voices.base import Cause, Priority, VoiceSettings
from voices.choose import NO_VOICE, FallbackSpeaker, Switched

if TYPE_CHECKING:
    from companion.contract.game import Play
    from firmware_bridge.link import ScannerLink

T = TypeVar("T")

#: Scanner problems that are news every time they come (scans were lost).
REPORTED_EACH_TIME = frozenset({Problem.LOST_SCANS, Problem.DEVICE_ERROR})
#: The longest number any answer has: longer is refused before int() sees it.
DIGITS = 9
#: A scanned card that does not fit the question (explained; asked again).
_UNFIT = object()

#: Why a voice stopped, as the player is told (``%(voice)s``: the one that stopped).
SPEECH_CAUSES = {
    Cause.NOT_INSTALLED: N_("Speech through %(voice)s cannot start: it is not installed."),
    Cause.NO_SOUND_OUTPUT: N_("Speech through %(voice)s stopped: there is no sound output."),
    Cause.NO_ANSWER: N_("Speech through %(voice)s stopped: it did not answer in time."),
    Cause.DIED: N_("Speech through %(voice)s stopped: it quit."),
    Cause.FAILED: N_("Speech through %(voice)s stopped: it failed."),
}


def switched_text(catalog: Catalog, notice: Switched) -> str:
    """A change of voice as the player is told it, in their language.

    >>> switched_text(Catalog.for_language("en"),
    ...               Switched("espeak-ng", Cause.NO_SOUND_OUTPUT, "pyttsx3"))
    'Speech through espeak-ng stopped: there is no sound output. Now speaking with pyttsx3.'
    >>> switched_text(Catalog.for_language("en"), Switched("pyttsx3", Cause.FAILED, None))
    'Speech through pyttsx3 stopped: it failed. The app will only write.'
    >>> switched_text(Catalog.for_language("en"),
    ...               Switched(NO_VOICE, Cause.NOT_INSTALLED, None))[:50]
    'No speech engine is installed here: the app only w'
    """
    if notice.failed == NO_VOICE:
        return catalog.text("No speech engine is installed here: the app only writes. "
                            "Install espeak-ng to hear it, or choose in the settings that your "
                            "screen reader speaks.")
    why = catalog.text(SPEECH_CAUSES[notice.cause], voice=notice.failed)
    if notice.backend is None:
        then = catalog.text("The app will only write.")
    else:
        then = catalog.text("Now speaking with %(voice)s.", voice=notice.backend)
    return f"{why} {then}"


class Quit(Exception):
    """The player asked to leave (or the input ended)."""


class ToMenu(Exception):
    """The player asked for the main menu: the journey ends where it is
    (a game stays saved, and the next start offers to resume it)."""


class Changed(Exception):
    """The game changed under the open question (an undo): the question is
    dropped, and the game asked what comes now."""


#: The digit row of a keyboard layout, unshifted, by language: a player who
#: types a number without Shift on a Czech or French keyboard gets these.
LAYOUT_DIGITS = {
    "cs": str.maketrans("+ěščřžýáíé", "1234567890"),
    "fr": str.maketrans("&é\"'(-è_çà", "1234567890"),
}


def layout_digits(text: str, language: str) -> str:
    """A number typed on the digit row of the language's keyboard, as digits;
    anything else as it was.

    >>> layout_digits("ěš", "cs"), layout_digits("&à", "fr"), layout_digits("é", "en")
    ('23', '10', 'é')
    """
    table = LAYOUT_DIGITS.get(language)
    if table is None:
        return text
    folded = text.translate(table)
    return folded if folded.isascii() and folded.isdigit() else text


def is_number(text: str) -> bool:
    """A few plain digits 0-9 (not ², nor other scripts' digits, nor more
    digits than any answer has, which int() may refuse).

    >>> is_number("12"), is_number("²"), is_number("1" * 10)
    (True, False, False)
    """
    return text.isascii() and text.isdigit() and len(text) <= DIGITS


def as_source(given: Source | LineReader) -> Source:
    """Something to read the player's input from: a source as it is, a stream
    (a pipe, standard input) as its lines."""
    if isinstance(given, Inbox | Lines) or hasattr(given, "get"):
        return cast(Source, given)
    return Lines(given)


class Talk:
    """The conversation, over a face and an input source."""

    def __init__(self, face: Face, source: Source | LineReader, settings: Settings, *,
                 rng: random.Random | None = None, scanner: str | None = None) -> None:
        self.face = face
        self.source = as_source(source)
        self.random = rng or random.Random()
        #: The scanner for this run, over the settings' (``companion --scanner``).
        self.scanner = scanner
        self.play: Play | None = None
        self.link: ScannerLink | None = None
        self._last_problem: str | None = None
        self.announcer: Announcer | None = None
        #: The speech chosen for the voice now (``auto``, a backend, ``none``).
        self._speech: str | None = None
        #: The voices that failed in this run: the automatic order leaves them out.
        self._speech_failed: set[str] = set()
        #: Held while a speech notice or the last sentence is told: no notice
        #: comes after the goodbye.
        self._telling = threading.Lock()
        self._said_last = False
        self.configure(settings)

    # -- the voice and the words --------------------------------------------------------

    def configure(self, settings: Settings) -> None:
        """Take these settings: language, words, verbosity and voice."""
        self.settings = settings
        self.catalog = Catalog.for_language(settings.language)
        self.words = Words(self.catalog, [
            (action, plugin.catalog(settings.language))
            for plugin in games().values() for action in plugin.actions])
        self._verbosity = Verbosity(settings.verbosity)
        voice = VoiceSettings(None, settings.rate, settings.pitch, settings.volume)
        speech = speech_for_run() or settings.speech
        order = None if speech == "auto" else (speech,)
        speaker = self.announcer.speaker if self.announcer is not None else None
        if isinstance(speaker, FallbackSpeaker) and speech == self._speech:
            speaker.retune(voice)  # the same voice, started once a run (and told once)
        else:
            if speaker is not None:
                speaker.close()
            speaker = NoSpeech() if speech == "none" else FallbackSpeaker(
                order, voice, on_notice=self._notice, skip=self._speech_failed, start=False)
        self._speech = speech
        self.announcer = Announcer(self.face.show, speaker, settings.language,
                                   speak_echoes=settings.speak_echoes)
        if isinstance(speaker, FallbackSpeaker):
            speaker.start()  # a failure is told through this announcer's voice

    def save(self, settings: Settings) -> None:
        """Keep these settings for next time, and take them now."""
        save_settings(settings)
        self.configure(settings)

    @property
    def language(self) -> str:
        return self.settings.language

    @property
    def verbosity(self) -> Verbosity:
        return self._verbosity

    def text(self, message: str, **params: object) -> str:
        """An app sentence in the player's language."""
        return self.catalog.text(message, **params)

    @property
    def voice(self) -> Announcer:
        assert self.announcer is not None
        return self.announcer

    def _notice(self, notice: Switched) -> None:
        """Speech failed and another voice (or none) took over: shown once,
        as it happens (from the speech's thread), and spoken by the voice
        that took over (the history keeps it not: it is no news of the
        game); never after the goodbye."""
        with self._telling:
            self._speech_failed.add(notice.failed)
            if self._said_last:
                return
            said = switched_text(self.catalog, notice)
            self.face.show(warning(said))
            if notice.backend is not None:
                self.voice.speaker.say(said, self.language, Priority.IMPORTANT)

    # -- saying --------------------------------------------------------------------------

    def say(self, announcement: Announcement) -> None:
        self.voice.say(announcement)

    def say_last(self, announcement: Announcement) -> None:
        """The run's last sentence (its goodbye): nothing is told after it."""
        with self._telling:
            self._said_last = True
            self.say(announcement)

    def say_all(self, announcements: Sequence[Announcement]) -> None:
        for announcement in announcements:
            self.say(announcement)

    def progress(self, facts: str) -> None:
        self.face.progress(facts)

    def help(self) -> None:
        """The words (and, on a screen with keys, the keys) that work here."""
        self.say(reply(self.text("Words that work everywhere: %(words)s.",
                                 words=self.words.listed(EVERYWHERE))))
        if self.play is not None:
            self.say(reply(self.text("In a game also: %(words)s.",
                                     words=self.words.listed(self.play.actions))))
        if self.face.has_keys:
            self.say(reply(keys_sentence(self.catalog, self.words)))

    @contextmanager
    def playing(self, play: Play) -> Iterator[Play]:
        """A game is on: its words work, and the key facts are shown."""
        self.play = play
        try:
            yield play
        finally:
            self.play = None
            self.progress("")

    # -- asking ----------------------------------------------------------------------------

    def ask(self, question: Question[T]) -> T:
        """Ask until answered; the answer, as a value."""
        if isinstance(question, Menu):
            return cast(T, self._menu(question))
        if isinstance(question, YesNo):
            return cast(T, self._menu(Menu(question.prompt, (question.no, question.yes))) == 1)
        if isinstance(question, Number):
            return cast(T, self._number(question))
        if isinstance(question, Text):
            return cast(T, self._text(question))
        if isinstance(question, CardsQuestion):
            return cast(T, self._cards(question))
        raise TypeError(f"no way to ask {question!r}")

    def _open(self, question: Question[Any], prompt: str | None, *, again: bool,
              spoken: bool = True) -> None:
        """Show the question and say it (a menu's title and options too, the
        first time); ``spoken`` false: only show it again."""
        self.face.asked(Asked(question, prompt, again))
        if not spoken:
            return
        if isinstance(question, Menu) and not again:
            self.voice.prompt(question.title)
            for number, option in enumerate(question.options, start=1):
                self.voice.prompt(f"{number}. {option}")
        if prompt is not None:
            self.voice.prompt(prompt)

    def _next(self) -> Item:
        """The next thing the player gave, or ``None`` at the end; a face that
        wants to know (``taken``) is told it is taken now (keys read ahead,
        while an earlier reply was being written, are taken later)."""
        item = self.source.get()
        taken = getattr(self.face, "taken", None)
        if taken is not None:
            taken(item)
        return item

    def _arrived(self) -> float:
        """When the item just read arrived."""
        return self.source.arrived

    def _answer(self, question: Question[Any], prompt: str | None, *, show: bool,
                again: bool = False, choices: bool = False,
                reader: CardReader[Any] | None = None,
                extra: Callable[[str], bool] | None = None) -> str | Chosen | Cards[Any]:
        """A typed line, an option chosen (where ``choices``), or (with a
        ``reader``) a card scanned, as one card. ``show``: open the question
        now (``again``: it was open before); ``prompt`` is asked again after
        a word. Words and the scanner's news are dealt with here; a scan that
        does not fit the question is explained."""
        asked = time.monotonic()  # before the question: a card after it answers it
        if show:
            self._open(question, prompt, again=again)
        while True:
            item = self._next()
            if item is None:
                raise Quit
            argument = ""
            if isinstance(item, Chosen):
                if choices:
                    return item
                continue
            if isinstance(item, Pressed):
                self.voice.interrupt()  # a key: speech stops at once
                action = self.words.named(item.action)
                if action is None:
                    continue  # a key no action has here: nothing to do
                typed = ""
            elif isinstance(item, Typed):
                self.voice.interrupt()  # a typed line: speech stops at once
                typed = item.text.strip()
                action, argument = self._typed_action(typed)
            else:
                card = self._scanned(item, reader)
                if card is _UNFIT:  # explained: the question is asked again
                    if prompt is not None:
                        self._open(question, prompt, again=True)
                    continue
                if card is None:
                    continue
                self.voice.interrupt()  # a card: speech stops at once
                assert reader is not None
                if show and self._arrived() < asked:
                    # a double read, or a card scanned while the last answer
                    # was being taken: explained, not taken as this answer
                    self.say(warning(self.text(
                        "%(card)s was scanned before this question: scan it again if you "
                        "meant it.", card=reader.name(self.language, card))))
                    continue
                return Cards.of([card])
            if action is None:
                return typed
            if not self._act(action, argument, typed or self.words.word(action.name), extra):
                return typed
            if prompt is not None and action.name != "stop":
                # shown again, so the question is where the player reads; said
                # again only after a word that was not about what was said
                self._open(question, prompt, again=True, spoken=action.name not in QUIET)

    def _typed_action(self, typed: str) -> tuple[Action | None, str]:
        """The action a typed line is, and what followed its word (``tables ben``)."""
        action = self.words.action(typed)
        if action is not None:
            return action, ""
        first, _, rest = typed.partition(" ")
        action = self.words.action(first)
        if action is not None and action.argument and rest.strip():
            return action, rest.strip()
        return None, ""

    def _act(self, action: Action, argument: str, said: str,
             extra: Callable[[str], bool] | None) -> bool:
        """Do what a word (or key) asks; False if it is not for here (then
        the typed text is the answer)."""
        name = action.name
        if name == "quit":
            raise Quit
        if name == "menu":
            raise ToMenu
        if name == "repeat":
            self.voice.repeat()
        elif name == "back":
            self.voice.back()
        elif name == "next":
            self.voice.forward()
        elif name == "stop":
            self.voice.interrupt()
        elif name == "help":
            self.help()
        elif extra is not None and extra(name):
            pass
        elif action.scope is Scope.GAME:
            self._game_word(action, argument, said)
        else:
            return False
        return True

    def _game_word(self, action: Action, argument: str, said: str) -> None:
        """A game's word: the game answers it, if one is on and it has that word."""
        answered = self.play.command(action.name, argument) if self.play is not None else None
        if answered is None:
            if self.play is None:
                self.say(warning(self.text("%(word)s works during a game.", word=said)))
            else:
                self.say(warning(self.text("%(word)s does not work here.", word=said)))
            return
        self.say_all(answered.said)
        if answered.changed:
            raise Changed

    # -- the scanner's news -------------------------------------------------------------------

    def _news(self, text: str) -> None:
        """Something the scanner brought, said at once over what was being said."""
        self.voice.interrupt()
        self.say(warning(text))

    def _scanned(self, event: InputEvent, reader: CardReader[Any] | None) -> Any:
        """A scanner event told; the card, if it brought one this question takes."""
        if isinstance(event, CardIdentified):
            return self._card(event, reader)
        if isinstance(event, ScannerFound):
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
        elif isinstance(event, CardRefused):
            self._news(self.text("%(text)s is not a card: %(reason)s.", text=event.text,
                                 reason=event.reason.rstrip(".")))
        return None

    def _card(self, event: CardIdentified, reader: CardReader[Any] | None) -> Any:
        """The card of a scanned tag, if it is one of the game asked for;
        otherwise what it is, said."""
        plugin = games().get(event.game) if event.game is not None else None
        if plugin is None or event.card is None:
            if event.game is not None and event.card is not None:
                self._news(self.text("That tag is a card of %(game)s, a game this app does "
                                     "not have.", game=event.game))
            else:
                self._news(unknown_tag(self.catalog, event.uid or "?"))
            return None
        try:
            card = plugin.reader.from_id(event.card)
        except KeyError:
            self._news(unknown_tag(self.catalog, event.uid or "?"))
            return None
        name = plugin.reader.name(self.language, card)
        if reader is None:
            self.voice.interrupt()
            self.say(warning(self.text("%(card)s scanned, but no card is wanted here.",
                                       card=name)))
            return _UNFIT
        if reader.game != plugin.game:
            wanted = games()[reader.game].title if reader.game in games() else reader.game
            self.voice.interrupt()
            self.say(warning(self.text("%(card)s is a card of %(game)s: this question wants "
                                       "a card of %(wanted)s.", card=name, game=plugin.title,
                                       wanted=wanted)))
            return _UNFIT
        return card

    @property
    def scanner_choice(self) -> str:
        """The scanner of this run: ``--scanner``'s, else the settings'."""
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

        if not isinstance(self.source, Inbox):
            inbox = Inbox()
            inbox.pump(self.source)
            self.source = inbox
        port = {"auto": None, "virtual": str(default_link())}.get(choice, choice)
        self.link = ScannerLink(port, self.source.post).start()

    def close(self) -> None:
        """Stop listening to the scanner, and stop the voice."""
        self.use_scanner("")
        self.voice.speaker.close()

    # -- the kinds of question -----------------------------------------------------------------

    def _menu(self, question: Menu) -> int:
        """A numbered choice: the index chosen."""
        count = len(question.options)
        prompt = self.text("Choose 1 to %(n)d:", n=count)
        chosen: int | None = None
        again = False
        try:
            while True:
                given = self._answer(question, prompt, show=True, again=again, choices=True)
                again = True
                if isinstance(given, Chosen):
                    if 0 <= given.index < count:
                        chosen = given.index
                        return chosen
                    continue
                assert isinstance(given, str)
                given = layout_digits(given, self.language)
                if is_number(given) and 1 <= int(given) <= count:
                    chosen = int(given) - 1
                    return chosen
                if not given:
                    self.say(warning(self.text("Type a number from 1 to %(n)d.", n=count)))
                    continue
                self.say(warning(self.text(
                    "%(answer)s is not a choice: type a number from 1 to %(n)d.",
                    answer=shown(given), n=count)))
        finally:
            picked = None if chosen is None else f"{chosen + 1}. {question.options[chosen]}"
            self.face.answered(Answered(question, picked))

    def _number(self, question: Number) -> int | None:
        """A whole number in its range (``None`` for an empty line, where allowed)."""
        low, high = question.low, question.high
        again = False
        try:
            while True:
                given = self._answer(question, question.prompt, show=True, again=again)
                again = True
                assert isinstance(given, str)
                given = layout_digits(given, self.language)
                if not given and question.allow_empty:
                    return None
                if not given:
                    self.say(warning(self.text("Type a number from %(low)d to %(high)d.",
                                               low=low, high=high)))
                    continue
                if is_number(given) and low <= int(given) <= high:
                    return int(given)
                self.say(warning(self.text(
                    "%(answer)s is not a number from %(low)d to %(high)d.",
                    answer=shown(given), low=low, high=high)))
        finally:
            self.face.answered(Answered(question))

    def _text(self, question: Text) -> str:
        """A line of text; an empty one only where allowed."""
        again = False
        try:
            while True:
                given = self._answer(question, question.prompt, show=True, again=again)
                again = True
                assert isinstance(given, str)
                given = given[:question.longest].rstrip()  # a pasted megabyte is no name
                if given or question.allow_empty:
                    return given
                self.say(warning(self.text("Type something, please.")))
        finally:
            self.face.answered(Answered(question))

    def _cards(self, question: CardsQuestion) -> Cards[Any]:
        """Cards typed on one line (or by a wedge scanner), by code or name;
        ``t+w2`` or ``t w2`` for two. Refused with the reason until right.

        Cards from the serial scanner gather one by one, each named with the
        count so far; an empty line ends the entry, ``undo`` takes off the
        last one, and the entry ends by itself at ``full`` cards (or
        ``most``). A typed line adds its cards to those scanned and ends
        the entry."""
        reader = question.reader
        scanned: list[Any] = []
        most = question.most
        full = min(question.full or most, most)

        def name(card: Any) -> str:
            return reader.name(self.language, card)

        def gathering(word: str) -> bool:
            if scanned and word == "undo":
                card = scanned.pop()
                self.say(reply(self.text("%(card)s taken off: %(n)d so far.", card=name(card),
                                         n=len(scanned))))
                return True
            return False

        ask: str | None = question.prompt
        again = False
        try:
            while True:
                given = self._answer(question, ask, show=ask is not None, again=again,
                                     reader=reader, extra=gathering)
                again, ask = True, None
                if isinstance(given, Cards):
                    if most == 1:
                        return given  # one card asked: the scan is the answer
                    card = given.cards[0]
                    scanned.append(card)
                    if len(scanned) >= full:
                        self.say(reply(self.text("%(card)s: %(n)d, done.", card=name(card),
                                                 n=len(scanned))))
                        return Cards.of(scanned)
                    self.say(reply(self.text("%(card)s: %(n)d so far.", card=name(card),
                                             n=len(scanned))))
                    continue
                assert isinstance(given, str)
                read = self._read_cards(given, reader, question.groups)
                if isinstance(read, str):
                    self.say(warning(read))
                    ask = None if scanned else question.prompt
                    continue
                if not read.groups:
                    if scanned or question.allow_empty:
                        return Cards.of(scanned)
                    self.say(warning(self.text("Type at least one card.")))
                    ask = question.prompt
                    continue
                if len(scanned) + len(read) > most:
                    self.say(warning(self.text("At most %(most)d cards here.", most=most)))
                    ask = None if scanned else question.prompt
                    continue
                if scanned:
                    first, *rest = read.groups
                    return Cards((tuple(scanned) + first, *rest))
                return read
        finally:
            self.face.answered(Answered(question))

    def _read_cards(self, typed: str, reader: CardReader[Any],
                    groups: int) -> Cards[Any] | str:
        """The cards of a typed line, or why not (a sentence)."""
        try:
            return Cards.read(typed, reader, groups)
        except EmptyGroupError:
            return self.text("Type a card on each side of the /.")
        except ValueError as error:
            return self._other_game(typed, reader) or reader.refusal(self.language, error)

    def _other_game(self, typed: str, reader: CardReader[Any]) -> str | None:
        """What a code that is not the game's names in another installed game
        (a Mici Maki 5 typed during Sushi Go!), said with the game asked for."""
        wanted = games().get(reader.game)
        for plugin in games().values():
            if plugin.game == reader.game:
                continue
            try:
                cards = Cards.read(typed, plugin.reader).cards
            except ValueError:
                continue
            if not cards:
                continue
            names = shown(", ".join(plugin.reader.name(self.language, card) for card in cards),
                          limit=200)
            return self.text("%(text)s is %(cards)s, of %(game)s: this game is %(wanted)s. "
                             "Type a card of %(wanted)s.", text=shown(typed), cards=names,
                             game=plugin.title,
                             wanted=wanted.title if wanted is not None else reader.game)
        return None
