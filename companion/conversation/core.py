"""The conversation itself: questions asked, answers read, words answered.

:class:`Talk` is what journeys and games talk to (it is a
:class:`~companion.contract.events.Conversation`). It composes the parts
of the conversation, each of its own module:

- the questions, as pure state machines (:mod:`.questions`): what a line
  typed, an option chosen or a card scanned is for the open question, an
  answer or a refusal with its reason;
- the words that work everywhere (:mod:`.words`): repeat, back, next,
  stop, help, menu, quit, and a game's words handed to the game played;
- the cards read whatever game they are of (:mod:`.cards`);
- the services, behind protocols (:mod:`.services`): speech
  (:mod:`.speech`), the scanner (:mod:`.scanning`) and the settings.

Talk reads what the player gives, one item at a time, hands it to the part
it is for, and says what is said to the face, the history and speech.

It runs in the journeys' thread; the face and the scanner's link give it
input through an :class:`~companion.conversation.inbox.Inbox` from theirs.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, TypeVar, cast

from companion.contract.events import (
    Announcement,
    Answered,
    Asked,
    CardReader,
    Cards,
    Chosen,
    Face,
    Item,
    Menu,
    Moved,
    Pressed,
    Question,
    Typed,
    Verbosity,
    warning,
)
from companion.conversation.announce import Announcer
from companion.conversation.cards import other_game, scanned
from companion.conversation.inbox import Inbox, ItemSource, LineReader, Lines
from companion.conversation.questions import Answer, asking, question_help
from companion.conversation.scanning import Scanner
from companion.conversation.services import Keeper, Kept, Listening, Voice
from companion.conversation.speech import SPEECH_CAUSES, SpeechService, switched_text
from companion.conversation.words import (
    Changed,
    Dispatcher,
    Quit,
    ToMenu,
    typed_action,
)
from companion.digits import is_number, layout_digits
from companion.games import games
from companion.i18n import Catalog
from companion.keymap import QUIET, Action, Words
from companion.settings import Settings
from firmware_bridge.events import CardIdentified, InputEvent

if TYPE_CHECKING:
    from companion.contract.game import Play, Seating
    from firmware_bridge.link import ScannerLink

#: (what the words raise, and the helpers of other modules named here
#: before they had modules of their own, are still found here)
__all__ = ["SPEECH_CAUSES", "Changed", "Quit", "Talk", "ToMenu", "as_source", "is_number",
           "layout_digits", "switched_text"]

T = TypeVar("T")
#: A scanned card that does not fit the question (explained; asked again).
_UNFIT = object()


def as_source(given: ItemSource | LineReader) -> ItemSource:
    """Something to read the player's input from: a source as it is, a stream
    (a pipe, standard input) as its lines."""
    if isinstance(given, Inbox | Lines) or hasattr(given, "get"):
        return cast(ItemSource, given)
    return Lines(given)


class Talk:
    """The conversation, over a face and an input source, with its services:
    ``speech``, ``listening`` (the scanner) and ``kept`` (the settings).
    The composition root (:mod:`companion.app`) gives them; each is made
    here when not given (a test's, a benchmark's), ``scanner`` then being
    the scanner of this run, over the settings'."""

    def __init__(self, face: Face, source: ItemSource | LineReader, settings: Settings, *,
                 rng: random.Random | None = None, scanner: str | None = None,
                 speech: Voice | None = None, listening: Listening | None = None,
                 kept: Keeper | None = None) -> None:
        self.face = face
        self.source = as_source(source)
        self.random = rng or random.Random()
        self.speech: Voice = speech if speech is not None else SpeechService(face.show)
        self.listening: Listening = listening if listening is not None else Scanner(scanner)
        self.kept: Keeper = kept if kept is not None else Kept(settings)
        self.play: Play | None = None
        #: A seat of a table shared between devices (the game is all there is).
        self.seated = False
        #: The host of a shared table, while it is on.
        self.hosting = False
        #: Where a shared table's seats are taken, when the face seats one (the web's).
        self.seating: Seating | None = None
        #: The question open now, for help (``None`` between questions).
        self.asking: Question[object] | None = None
        self.dispatcher = Dispatcher(self)
        self.configure(settings)

    # -- the settings, the voice and the words ---------------------------------------------

    def configure(self, settings: Settings) -> None:
        """Take these settings: language, words, verbosity and voice."""
        self.kept.now = settings
        self.catalog = Catalog.for_language(settings.language)
        self.words = Words(self.catalog, [
            (action, plugin.catalog(settings.language))
            for plugin in games().values() for action in plugin.actions])
        self._verbosity = Verbosity(settings.verbosity)
        self.speech.configure(settings)

    def save(self, settings: Settings) -> None:
        """Keep these settings for next time, and take them now."""
        self.kept.save(settings)
        self.configure(settings)

    @property
    def settings(self) -> Settings:
        """The settings in use now."""
        return self.kept.now

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
        """What shows, keeps and speaks each sentence (the speech's)."""
        return self.speech.voice

    @property
    def history(self) -> Announcer:
        """What was said, for repeat, back and next (the words' host)."""
        return self.voice

    @property
    def has_keys(self) -> bool:
        return self.face.has_keys

    # -- saying --------------------------------------------------------------------------

    def say(self, announcement: Announcement) -> None:
        self.speech.say(announcement)

    def say_last(self, announcement: Announcement) -> None:
        """The run's last sentence (its goodbye): nothing is told after it."""
        self.speech.say_last(announcement)

    def say_all(self, announcements: Sequence[Announcement]) -> None:
        for announcement in announcements:
            self.say(announcement)

    def progress(self, facts: str) -> None:
        self.face.progress(facts)

    def help(self) -> None:
        """How to answer the question open, then the words (and, on a screen
        with keys, the keys) that work here."""
        self.dispatcher.help()

    def question_help(self) -> list[str]:
        """How to answer the question open now: a menu's way to choose, a
        card question's guide and how to type a card of its game."""
        return question_help(self.asking, self.catalog, has_keys=self.has_keys,
                             back_word=self.words.word("back"), typing=self._typing_help)

    def _typing_help(self, reader: CardReader[object]) -> list[str]:
        """How to type a card of the game whose cards ``reader`` reads."""
        for plugin in games().values():
            if plugin.reader is reader or plugin.game == reader.game:
                return plugin.typing_help(self.language)
        return []

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
        """Ask until answered; the answer, as a value. The question's state
        machine says what each thing given means; the face is told when it
        is answered (and how the answer reads back)."""
        machine = asking(question, self.catalog, self._other_game)

        def own_word(name: str) -> bool:
            said = machine.word(name)
            if said is None:
                return False
            self.say_all(said)
            return True

        again = False
        shown: str | None = None
        self.asking = machine.question
        try:
            while True:
                given = self._answer(machine.question, machine.prompt,
                                     show=machine.prompt is not None, again=again,
                                     choices=machine.choices, reader=machine.reader,
                                     extra=own_word)
                again = True
                outcome = machine.take(given)
                self.say_all(outcome.said)
                if isinstance(outcome, Answer):
                    shown = outcome.shown
                    return outcome.value
        finally:
            self.asking = None
            self.face.answered(Answered(
                machine.question, shown,
                None if shown is None else self.text("Chosen: %(option)s", option=shown)))

    def _open(self, question: Question[object], prompt: str | None, *, again: bool,
              spoken: bool = True) -> None:
        """Show the question and say it (a menu's title and options too, the
        first time); ``spoken`` false: only show it again."""
        self.face.asked(Asked(question, prompt, again))
        if not spoken:
            return
        if isinstance(question, Menu) and not again:
            self.voice.prompt(question.title)
            for option in question.numbered():
                self.voice.prompt(option)
        if prompt is not None:
            self.voice.prompt(prompt)

    def _next(self) -> Item:
        """The next thing the player gave, or ``None`` at the end; the face
        is told it is taken now (keys read ahead, while an earlier reply was
        being written, are taken later)."""
        item = self.source.get()
        self.face.taken(item)
        return item

    def _arrived(self) -> float:
        """When the item just read arrived."""
        return self.source.arrived

    def _answer(self, question: Question[object], prompt: str | None, *, show: bool,
                again: bool = False, choices: bool = False,
                reader: CardReader[object] | None = None,
                extra: Callable[[str], bool] | None = None) -> str | Chosen | Cards[object]:
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
            action: Action | None
            if isinstance(item, Chosen):
                if choices:
                    return item
                continue
            if isinstance(item, Moved):
                if self.play is not None:
                    raise Changed  # the game asked again what comes now
                # (not in a game: the face may have closed the question: shown again)
                self._open(question, prompt, again=True, spoken=False)
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
                action, argument = typed_action(self.words, typed)
            else:
                scan = self._scanned(item, reader)
                if scan is _UNFIT:  # explained: the question is asked again
                    if prompt is not None:
                        self._open(question, prompt, again=True)
                    continue
                if scan is None:
                    continue
                card = scan
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
            if (action.name == "back" and isinstance(item, Typed)
                    and isinstance(question, Menu) and question.back):
                return Chosen(len(question.options) - 1)  # the word chooses the Back item
            if not self.dispatcher.act(action, argument,
                                       typed or self.words.word(action.name), extra):
                return typed
            if prompt is not None and action.name != "stop":
                # shown again, so the question is where the player reads; said
                # again only after a word that was not about what was said
                self._open(question, prompt, again=True, spoken=action.name not in QUIET)

    # -- the scanner and its news --------------------------------------------------------------

    def _news(self, text: str) -> None:
        """Something the scanner brought, said at once over what was being said."""
        self.voice.interrupt()
        self.say(warning(text))

    def _scanned(self, event: InputEvent, reader: CardReader[object] | None) -> object:
        """A scanner event told; the card, if it brought one this question
        takes (:data:`_UNFIT`: one it does not take, explained)."""
        if not isinstance(event, CardIdentified):
            news = self.listening.news(event, self.catalog)
            if news is not None:
                self._news(news)
            return None
        scan = scanned(event, reader, self.catalog)
        if scan.said is None:
            return scan.card
        self._news(scan.said)
        return _UNFIT if scan.unfit else None

    def _other_game(self, typed: str, reader: CardReader[object]) -> str | None:
        """What a code that is not the game's names in another installed game."""
        return other_game(self.catalog, typed, reader)

    @property
    def scanner_choice(self) -> str:
        """The scanner of this run: ``--scanner``'s, else the settings'."""
        return self.listening.choice(self.settings.scanner)

    @property
    def scanner(self) -> str | None:
        """The scanner for this run, over the settings' (``companion
        --scanner``, or the one chosen in the settings journey)."""
        return self.listening.override

    @scanner.setter
    def scanner(self, choice: str | None) -> None:
        self.listening.override = choice

    @property
    def link(self) -> ScannerLink | None:
        """The scanner's link listening now, if one is."""
        return self.listening.link

    def use_scanner(self, choice: str) -> None:
        """Listen to the NFC scanner: ``auto`` finds it, ``virtual`` is the one
        ``firmware-bridge simulate`` starts, anything else is its port; an
        empty choice stops listening. Its cards and news join the typed lines
        in the order they come (a source that is no inbox is copied into one)."""
        if not choice:
            self.listening.stop()
            return
        if not isinstance(self.source, Inbox):
            self.listening.stop()
            inbox = Inbox()
            inbox.pump(self.source)
            self.source = inbox
        self.listening.use(choice, self.source.post)

    def close(self) -> None:
        """Stop listening to the scanner, and stop the voice."""
        self.use_scanner("")
        self.speech.close()

