"""The one key map: every action the player can take besides answering, its
keys, and its typed words in every language.

The full screen's key bindings, the help sentences and the words typed at
any prompt all come from here, so they cannot disagree. Every action can be
typed as a word, for players whose screen reader takes the function keys.
The English word always works; each catalog adds the words of its language
(several, separated by spaces, may stand for one action; context "command
word"). Case and accents do not matter, so ``repeter`` works as well as
``répéter``. A game adds actions of its own (:attr:`Action.scope` is
:attr:`Scope.GAME`), with words in its own catalog.

>>> from companion.i18n import Catalog
>>> words = Words(Catalog.for_language("en"))
>>> words.action("Repeat").name, words.action("w2")
('repeat', None)
>>> keys_sentence(Catalog.for_language("en"), words)[:33]
'Keys: F1 help, F2 repeat, F3 back'
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from companion.i18n import N_, Catalog

#: The catalogs' context of the typed words.
CONTEXT = "command word"


def C_(context: str, message: str) -> str:
    """Mark a message with a context for extraction; looked up later."""
    del context
    return message


class Scope(enum.Enum):
    """Where an action works."""

    EVERYWHERE = "everywhere"
    #: During a game only (the game answers it).
    GAME = "game"


@dataclass(frozen=True, slots=True)
class Action:
    """An action: its name, its English word (marked for the catalogs), its
    keys (as Textual names them) and where it works. ``argument``: the word
    may be followed by more (``tables ben``)."""

    name: str
    word: str
    keys: tuple[str, ...] = ()
    scope: Scope = Scope.EVERYWHERE
    argument: bool = False


#: The app's actions, in the order help names them.
ACTIONS: tuple[Action, ...] = (
    # Translators: each "command word" is a word the player types; give one
    # or more words of your language separated by spaces, the first the main
    # one, lower case, none of them a card code or a card name.
    Action("repeat", C_("command word", "repeat"), ("f2",)),
    Action("back", C_("command word", "back"), ("f3",)),
    Action("next", C_("command word", "next"), ("f4",)),
    Action("stop", C_("command word", "stop"), ("escape",)),
    Action("help", C_("command word", "help"), ("f1",)),
    Action("menu", C_("command word", "menu")),
    Action("quit", C_("command word", "quit"), ("ctrl+q",)),
    Action("where", C_("command word", "where"), ("f5",), Scope.GAME),
    Action("hand", C_("command word", "hand"), ("f6",), Scope.GAME, argument=True),
    Action("tables", C_("command word", "tables"), ("f7",), Scope.GAME, argument=True),
    Action("hint", C_("command word", "hint"), ("f8",), Scope.GAME),
    Action("undo", C_("command word", "undo"), ("f9",), Scope.GAME),
)
BY_NAME = {action.name: action for action in ACTIONS}
#: The actions that work everywhere, as help lists them.
EVERYWHERE = tuple(a.name for a in ACTIONS if a.scope is Scope.EVERYWHERE)
#: Actions that act on the conversation itself, not on what is asked: the
#: question is not said again after them (repeat, back and next show it
#: again, silently; stop leaves everything as it is).
QUIET = frozenset({"repeat", "back", "next", "stop"})

#: Keys as help names them, in the order help names them.
KEY_NAMES: tuple[tuple[str, str], ...] = (
    *((f"f{n}", f"F{n}") for n in range(1, 13)),
    ("escape", N_("Escape")),
    ("ctrl+q", N_("Control Q")),
)


def fold(text: str) -> str:
    """Lower case without accents: how typed words are compared.

    >>> fold(" RÉPÉTER ")
    'repeter'
    """
    decomposed = unicodedata.normalize("NFD", text.strip().casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def words_of(catalog: Catalog, action: Action) -> list[str]:
    """The words that stand for ``action`` in the catalog's language."""
    return catalog.translations.pgettext(CONTEXT, action.word).split() or [action.word]


class Words:
    """The words of one language for the app's actions and the games' own
    (each game's with its catalog), English included."""

    def __init__(self, catalog: Catalog,
                 games: Iterable[tuple[Action, Catalog]] = ()) -> None:
        self.catalog = catalog
        self._actions: dict[str, tuple[Action, Catalog]] = {}
        self._words: dict[str, Action] = {}
        for action, source in [*((a, catalog) for a in ACTIONS), *games]:
            self._actions.setdefault(action.name, (action, source))
            for word in [action.word, *words_of(source, action)]:
                self._words.setdefault(fold(word), action)

    def words(self, name: str) -> list[str]:
        """The words of the action called ``name``."""
        action, source = self._actions[name]
        return words_of(source, action)

    def word(self, name: str) -> str:
        """The first (main) word for an action: the one help names."""
        return self.words(name)[0]

    def named(self, name: str) -> Action | None:
        """The action called ``name``, if there is one here."""
        found = self._actions.get(name)
        return found[0] if found is not None else None

    def action(self, typed: str) -> Action | None:
        """The action a typed line is, if it is one."""
        return self._words.get(fold(typed))

    def listed(self, names: Iterable[str]) -> str:
        """The main words of ``names``, comma separated, for help."""
        return ", ".join(self.word(name) for name in names)

    def __contains__(self, name: object) -> bool:
        return name in self._actions


def keys_sentence(catalog: Catalog, words: Words,
                  actions: Sequence[Action] = ACTIONS) -> str:
    """"Keys: F1 help, F2 repeat, ...": every key of ``actions``, with its word."""
    by_key = {key: action for action in actions for key in action.keys}
    named = [f"{catalog.text(label)} {words.word(by_key[key].name)}"
             for key, label in KEY_NAMES if key in by_key]
    return catalog.text("Keys: %(keys)s.", keys=", ".join(named))


def bindings() -> list[tuple[str, str]]:
    """(key, action name) for every key of the app's actions."""
    return [(key, action.name) for action in ACTIONS for key in action.keys]
