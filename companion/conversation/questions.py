"""The questions as state machines: what the player gave in, an answer or a
refusal out.

There is one class for each kind of question of the contract (Menu,
YesNo, Number, Text, CardsQuestion). Each is a plain object: no thread,
no face, no input of its own, no registry. The conversation
(:class:`~companion.conversation.core.Talk`) reads what the player gives,
answers the words that work everywhere, opens the question on the face,
and hands each line typed, option chosen or card scanned to the question's
:meth:`Asking.take`. That gives back an :class:`Answer` (the value the
journey gets, and what to say first) or a :class:`NotAnswered` (what to say,
and the question goes on). ``prompt`` says what the face is asked to show
before the next input; ``None``: the question stays as it is on screen
(cards being scanned one by one).

>>> from companion.i18n import Catalog
>>> menu = asking(Menu("Main menu.", ("Practice.", "Quit.")), Catalog.for_language("en"))
>>> menu.prompt
'Choose 1 to 2:'
>>> menu.take("3").said[0].text
'3 is not a choice: type a number from 1 to 2.'
>>> menu.take("2")
Answer(value=1, shown='2. Quit.', said=())
"""

from __future__ import annotations

import abc
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar, cast

from companion.contract.events import (
    Announcement,
    CardReader,
    Cards,
    CardsQuestion,
    Chosen,
    EmptyGroupError,
    Menu,
    Number,
    Question,
    TakenBack,
    Text,
    YesNo,
    reply,
    warning,
)
from companion.conversation.cards import wrong_count
from companion.digits import is_number, layout_digits, menu_choice
from companion.i18n import Catalog
from companion.shown import shown

T = TypeVar("T")

#: What the player gives a question: a line typed (stripped), an option
#: chosen in a face's list, or one card scanned.
Given = str | Chosen | Cards[object]
#: What names a code of another game typed at a card question (the
#: conversation asks every installed game): a sentence, or ``None``.
OtherGame = Callable[[str, CardReader[object]], str | None]


@dataclass(frozen=True, slots=True)
class Answer(Generic[T]):
    """The question is answered: ``value`` goes back to the journey,
    ``shown`` is the answer as the player reads it back ("2. Français",
    for a menu), ``said`` is said before it goes."""

    value: T
    shown: str | None = None
    said: tuple[Announcement, ...] = ()


@dataclass(frozen=True, slots=True)
class NotAnswered:
    """Not an answer (yet): ``said`` says why, or what was taken so far;
    the question goes on."""

    said: tuple[Announcement, ...] = ()


class Asking(abc.ABC, Generic[T]):
    """One question being asked, as a state machine."""

    #: The question as the face is asked it (a YesNo is asked as its menu).
    question: Question[object]
    #: What to show on the answer line and say; ``None``: nothing to open
    #: before the next input.
    prompt: str | None
    #: Options chosen in a face's list answer it.
    choices: bool = False
    #: The reader of the cards scanned, where a scan may answer it.
    reader: CardReader[object] | None = None

    @abc.abstractmethod
    def take(self, given: Given) -> Answer[T] | NotAnswered:
        """What ``given`` is for this question."""

    def word(self, name: str) -> tuple[Announcement, ...] | None:
        """The question's answer to a word of its own (``undo`` while cards
        are scanned), said; ``None``: the word is not the question's."""
        del name
        return None


class MenuAsking(Asking[int]):
    """A numbered choice: an option chosen, or its number typed (on the
    digit row of the player's keyboard too); the index.

    >>> from companion.i18n import Catalog
    >>> menu = MenuAsking(Menu("Speech:", ("On.", "Off.")), Catalog.for_language("en"))
    >>> menu.take(Chosen(5)), menu.take(Chosen(0)).value, menu.take("").said[0].text
    (NotAnswered(said=()), 0, 'Type a number from 1 to 2.')
    """

    def __init__(self, menu: Menu, catalog: Catalog) -> None:
        self.question = self.menu = menu
        self.catalog = catalog
        self.choices = True
        self.prompt = catalog.text("Choose 1 to %(n)d:", n=len(menu.options))

    def take(self, given: Given) -> Answer[int] | NotAnswered:
        count = len(self.menu.options)
        if isinstance(given, Chosen):
            return self._chosen(given.index) if 0 <= given.index < count else NotAnswered()
        assert isinstance(given, str)
        index = menu_choice(given, self.catalog.language, count)
        if index is not None:
            return self._chosen(index)
        typed = layout_digits(given, self.catalog.language)
        if not typed:
            return NotAnswered((warning(self.catalog.text("Type a number from 1 to %(n)d.",
                                                      n=count)),))
        return NotAnswered((warning(self.catalog.text(
            "%(answer)s is not a choice: type a number from 1 to %(n)d.",
            answer=shown(typed), n=count)),))

    def _chosen(self, index: int) -> Answer[int]:
        return Answer(index, self.menu.numbered()[index])


class YesNoAsking(Asking[bool]):
    """Yes or no, asked as a menu of two, ``no`` first.

    >>> from companion.i18n import Catalog
    >>> sure = YesNoAsking(YesNo("Sure?", "No.", "Yes."), Catalog.for_language("en"))
    >>> sure.question
    Menu(title='Sure?', options=('No.', 'Yes.'), back=False)
    >>> sure.take("2")
    Answer(value=True, shown='2. Yes.', said=())
    """

    def __init__(self, question: YesNo, catalog: Catalog) -> None:
        self.menu = MenuAsking(Menu(question.prompt, (question.no, question.yes)), catalog)
        self.question = self.menu.question
        self.choices = True
        self.prompt = self.menu.prompt

    def take(self, given: Given) -> Answer[bool] | NotAnswered:
        taken = self.menu.take(given)
        if isinstance(taken, NotAnswered):
            return taken
        return Answer(taken.value == 1, taken.shown)


class NumberAsking(Asking[int | None]):
    """A whole number in its range; ``None`` for an empty line where allowed.

    >>> from companion.i18n import Catalog
    >>> rate = NumberAsking(Number("Speed:", 80, 450), Catalog.for_language("fr"))
    >>> rate.take("999").said[0].text, rate.take("220").value
    ("999 n'est pas un nombre de 80 à 450.", 220)
    """

    def __init__(self, question: Number, catalog: Catalog) -> None:
        self.question = self.number = question
        self.catalog = catalog
        self.prompt = question.prompt

    def take(self, given: Given) -> Answer[int | None] | NotAnswered:
        assert isinstance(given, str)
        question = self.number
        low, high = question.low, question.high
        typed = layout_digits(given, self.catalog.language)
        if not typed and question.allow_empty:
            return Answer(None)
        if not typed:
            return NotAnswered((warning(self.catalog.text(
                "Type a number from %(low)d to %(high)d.", low=low, high=high)),))
        if is_number(typed) and low <= int(typed) <= high:
            return Answer(int(typed))
        return NotAnswered((warning(self.catalog.text(
            "%(answer)s is not a number from %(low)d to %(high)d.",
            answer=shown(typed), low=low, high=high)),))


class TextAsking(Asking[str]):
    """A line of text, cut at the question's longest; empty only where allowed.

    >>> from companion.i18n import Catalog
    >>> name = TextAsking(Text("Name:", longest=3), Catalog.for_language("en"))
    >>> name.take("Annabel").value, name.take("").said[0].text
    ('Ann', 'Type something, please.')
    """

    def __init__(self, question: Text, catalog: Catalog) -> None:
        self.question = self.text = question
        self.catalog = catalog
        self.prompt = question.prompt

    def take(self, given: Given) -> Answer[str] | NotAnswered:
        assert isinstance(given, str)
        typed = given[:self.text.longest].rstrip()  # a pasted megabyte is no name
        if typed or self.text.allow_empty:
            return Answer(typed)
        return NotAnswered((warning(self.catalog.text("Type something, please.")),))


def _no_other_game(typed: str, reader: CardReader[object]) -> str | None:
    del typed, reader
    return None


class CardsAsking(Asking[Cards[object]]):
    """Cards typed on one line (or by a wedge scanner), by code or name;
    ``t+w2`` or ``t w2`` for two. Not answered (with the reason) until right.

    Cards from the serial scanner gather one by one, each named with the
    count so far; an empty line ends the entry, ``undo`` takes off the last
    one, and the entry ends by itself at ``full`` cards (or ``most``). A
    typed line adds its cards to those scanned and ends the entry. The
    prompt is shown at first and after a refusal while nothing is scanned;
    while cards gather, the question stays as it is. Where only ``exactly``
    cards can be right, scans end by themselves there, and any other count
    is refused with the game's reason (the cards scanned so far stay);
    where the asker takes back its last entry (``undo``), the word undo
    with nothing scanned raises :class:`~companion.contract.events.TakenBack`.
    """

    def __init__(self, question: CardsQuestion[object], catalog: Catalog,
                 other: OtherGame = _no_other_game) -> None:
        self.question = self.cards = question
        self.catalog = catalog
        self.reader = question.reader
        self.other = other
        self.prompt = question.prompt
        #: The cards scanned so far, in order.
        self.scanned: list[object] = []

    @property
    def full(self) -> int:
        """How many scanned cards end the entry by themselves."""
        return min(self.cards.exactly or self.cards.full or self.cards.most, self.cards.most)

    def _name(self, card: object) -> str:
        return self.cards.reader.name(self.catalog.language, card)

    def word(self, name: str) -> tuple[Announcement, ...] | None:
        if self.scanned and name == "undo":
            card = self.scanned.pop()
            return (reply(self.catalog.text("%(card)s taken off: %(n)d so far.",
                                            card=self._name(card), n=len(self.scanned))),)
        if name == "undo" and self.cards.undo:
            raise TakenBack
        return None

    def _counted(self, cards: Cards[object]) -> Answer[Cards[object]] | NotAnswered:
        """The cards as the answer, or refused (and asked again) when their
        count cannot be right here; cards scanned so far stay."""
        question = self.cards
        wrong = wrong_count(self.catalog, len(cards), question.exactly, question.why)
        if wrong is None or (not cards and question.allow_empty):
            return Answer(cards)
        self.prompt = None if self.scanned else question.prompt
        return NotAnswered((warning(wrong),))

    def take(self, given: Given) -> Answer[Cards[object]] | NotAnswered:
        question, scanned = self.cards, self.scanned
        self.prompt = None
        if isinstance(given, Cards):
            if question.most == 1:
                return Answer(given)  # one card asked: the scan is the answer
            card = given.cards[0]
            scanned.append(card)
            if len(scanned) >= self.full:
                return Answer(Cards.of(scanned), said=(reply(self.catalog.text(
                    "%(card)s: %(n)d, done.", card=self._name(card), n=len(scanned))),))
            return NotAnswered((reply(self.catalog.text(
                "%(card)s: %(n)d so far.", card=self._name(card), n=len(scanned))),))
        assert isinstance(given, str)
        read = self.read(given)
        if isinstance(read, str):
            self.prompt = None if scanned else question.prompt
            return NotAnswered((warning(read),))
        if not read.groups:
            if scanned or question.allow_empty:
                return self._counted(Cards.of(scanned))
            self.prompt = question.prompt
            return NotAnswered((warning(self.catalog.text("Type at least one card.")),))
        if question.exactly is not None and len(scanned) + len(read) != question.exactly:
            return self._counted(Cards.of([*scanned, *read.cards]))
        if len(scanned) + len(read) > question.most:
            self.prompt = None if scanned else question.prompt
            return NotAnswered((warning(self.catalog.plural(
                "At most %(n)d card here.", "At most %(n)d cards here.", question.most)),))
        if scanned:
            first, *rest = read.groups
            return Answer(Cards((tuple(scanned) + first, *rest)))
        return Answer(read)

    def read(self, typed: str) -> Cards[object] | str:
        """The cards of a typed line, or why not (a sentence)."""
        reader = self.cards.reader
        try:
            return Cards.read(typed, reader, self.cards.groups)
        except EmptyGroupError:
            return self.catalog.text("Type a card on each side of the /.")
        except ValueError as error:
            return self.other(typed, reader) or reader.refusal(self.catalog.language, error)


def asking(question: Question[T], catalog: Catalog,
           other: OtherGame = _no_other_game) -> Asking[T]:
    """The state machine of ``question``, in the catalog's language; ``other``
    names a code of another game typed at a card question."""
    if isinstance(question, Menu):
        return cast(Asking[T], MenuAsking(question, catalog))
    if isinstance(question, YesNo):
        return cast(Asking[T], YesNoAsking(question, catalog))
    if isinstance(question, Number):
        return cast(Asking[T], NumberAsking(question, catalog))
    if isinstance(question, Text):
        return cast(Asking[T], TextAsking(question, catalog))
    if isinstance(question, CardsQuestion):
        return cast(Asking[T], CardsAsking(question, catalog, other))
    raise TypeError(f"no way to ask {question!r}")


def question_help(question: Question[object] | None, catalog: Catalog, *, has_keys: bool,
                  back_word: str = "back",
                  typing: Callable[[CardReader[object]], list[str]] | None = None) -> list[str]:
    """What help says first at ``question``: how to answer it (a menu: how
    to choose; a card question: its own guide, then how to type a card of
    its game, from ``typing``). Nothing when no question is open.

    >>> from companion.i18n import Catalog
    >>> en = Catalog.for_language("en")
    >>> question_help(Menu("Settings:", ("Speech.", "Back."), back=True), en, has_keys=False)
    ['Type the number of your choice, 1 to 2, then Enter. The word back chooses Back.']
    >>> question_help(Number("Players:", 2, 5), en, has_keys=False)
    ['Type a number from 2 to 5, then Enter.']
    """
    if isinstance(question, YesNo):
        question = Menu(question.prompt, (question.no, question.yes))
    if isinstance(question, Menu):
        count = len(question.options)
        said = (catalog.text("Type the number of your choice, 1 to %(n)d, then Enter, or "
                             "move to it with the arrow keys and press Enter.", n=count)
                if has_keys else
                catalog.text("Type the number of your choice, 1 to %(n)d, then Enter.", n=count))
        if question.back:
            said += " " + catalog.text("The word %(word)s chooses Back.", word=back_word)
        return [said]
    if isinstance(question, Number):
        return [catalog.text("Type a number from %(low)d to %(high)d, then Enter.",
                             low=question.low, high=question.high)]
    if isinstance(question, Text):
        return [catalog.text("Type the answer, then Enter.")]
    if isinstance(question, CardsQuestion):
        guided = list(question.guide)
        if typing is not None:
            guided += typing(question.reader)
        return guided
    return []
