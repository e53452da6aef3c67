"""The words that work at every question, answered: repeat, back, next,
stop, help, menu and quit, and a game's own words handed to the game being
played.

The key map (:mod:`companion.keymap`) says which words and keys there are;
:class:`Dispatcher` does what they ask, over a small :class:`Host` (the
history, what is said, the game on, if any). Leaving (quit), the main
menu and a game changed under the question (an undo) are exceptions the
journeys catch: :class:`Quit`, :class:`ToMenu`, :class:`Changed`.

>>> from companion.i18n import Catalog
>>> words = Words(Catalog.for_language("fr"))
>>> typed_action(words, "Répéter")[0].name, typed_action(words, "tables ben")[1]
('repeat', 'ben')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from companion.contract.events import Announcement, reply, warning
from companion.i18n import Catalog
from companion.keymap import EVERYWHERE, Action, Scope, Words, keys_sentence

if TYPE_CHECKING:
    from companion.contract.game import Play


class Quit(Exception):
    """The player asked to leave (or the input ended)."""


class ToMenu(Exception):
    """The player asked for the main menu: the journey ends where it is
    (a game stays saved, and the next start offers to resume it)."""


class Changed(Exception):
    """The game changed under the open question (an undo): the question is
    dropped, and the game asked what comes now."""


class History(Protocol):
    """What was said, stepped through (the announcer's), and speech stopped."""

    def repeat(self) -> str | None: ...

    def back(self) -> str | None: ...

    def forward(self) -> str | None: ...

    def interrupt(self) -> None: ...


class Host(Protocol):
    """What the words act on: the conversation, as far as they need it."""

    @property
    def catalog(self) -> Catalog: ...

    @property
    def words(self) -> Words: ...

    @property
    def history(self) -> History: ...

    @property
    def play(self) -> Play | None:
        """The game being played, if one is."""
        ...

    @property
    def has_keys(self) -> bool:
        """Whether the face has the function keys (help names them then)."""
        ...

    @property
    def seated(self) -> bool:
        """A seat of a table shared between devices: the game is all there
        is (the words menu and quit do not leave it)."""
        ...

    @property
    def hosting(self) -> bool:
        """The host of a shared table, while it is on (the word menu does
        not leave it: the seats' games are open, and the menu would offer
        them)."""
        ...

    def say(self, announcement: Announcement) -> None: ...

    def question_help(self) -> list[str]:
        """How to answer the question open now (empty when none is)."""
        ...


def typed_action(words: Words, typed: str) -> tuple[Action | None, str]:
    """The action a typed line is, and what followed its word (``tables ben``)."""
    action = words.action(typed)
    if action is not None:
        return action, ""
    first, _, rest = typed.partition(" ")
    action = words.action(first)
    if action is not None and action.argument and rest.strip():
        return action, rest.strip()
    return None, ""


def help_sentences(catalog: Catalog, words: Words, play: Play | None, *,
                   has_keys: bool, asked: Sequence[str] = ()) -> list[str]:
    """How to answer the question open (``asked``), then the words (and, on
    a screen with keys, the keys) that work here.

    >>> from companion.i18n import Catalog
    >>> en = Catalog.for_language("en")
    >>> help_sentences(en, Words(en), None, has_keys=False)
    ['Words that work everywhere: repeat, back, next, stop, help, menu, quit.']
    """
    said = [*asked, catalog.text("Words that work everywhere: %(words)s.",
                                 words=words.listed(EVERYWHERE))]
    if play is not None:
        said.append(catalog.text("In a game also: %(words)s.",
                                 words=words.listed(play.actions)))
    if has_keys:
        said.append(keys_sentence(catalog, words))
    return said


class Dispatcher:
    """Does what a word (or a key) asks, at any question."""

    def __init__(self, host: Host) -> None:
        self.host = host

    def help(self) -> None:
        """Say how to answer the question open, then the words (and keys)
        that work here."""
        host = self.host
        for sentence in help_sentences(host.catalog, host.words, host.play,
                                       has_keys=host.has_keys, asked=host.question_help()):
            host.say(reply(sentence))

    def act(self, action: Action, argument: str, said: str,
            extra: Callable[[str], bool] | None = None) -> bool:
        """Do what ``action`` asks (``said``: the word as the player gave it;
        ``extra``: the open question's own words first); False if it is not
        for here (then the typed text is the answer)."""
        name = action.name
        history = self.host.history
        if name in ("quit", "menu") and self.host.seated:
            self.host.say(reply(self.host.catalog.text(
                "At a shared table your game goes on here: to leave, close the page (the "
                "game is saved).")))
            return True
        if name == "menu" and self.host.hosting:
            self.host.say(reply(self.host.catalog.text(
                "The shared table is on: to leave it, choose End the table.")))
            return True
        if name == "quit":
            raise Quit
        if name == "menu":
            raise ToMenu
        if name == "repeat":
            history.repeat()
        elif name == "back":
            history.back()
        elif name == "next":
            history.forward()
        elif name == "stop":
            history.interrupt()
        elif name == "help":
            self.help()
        elif extra is not None and extra(name):
            pass
        elif action.scope is Scope.GAME:
            self.game_word(action, argument, said)
        else:
            return False
        return True

    def game_word(self, action: Action, argument: str, said: str) -> None:
        """A game's word: the game answers it, if one is on and it has that word."""
        host = self.host
        play = host.play
        answered = play.command(action.name, argument) if play is not None else None
        if answered is None:
            if play is None:
                host.say(warning(host.catalog.text("%(word)s works during a game.", word=said)))
            else:
                host.say(warning(host.catalog.text("%(word)s does not work here.", word=said)))
            return
        for announcement in answered.said:
            host.say(announcement)
        if answered.changed:
            raise Changed
