"""The typed command words, in every language.

Every action on a key can also be typed as a word, for players whose
screen reader takes the function keys. The English word always works; each
catalog adds the words of its language (several, separated by spaces, may
stand for one command). Case and accents do not matter, so ``repeter``
works as well as ``répéter``.

>>> from companion.i18n import Catalog
>>> words = CommandWords(Catalog.for_language("en"))
>>> words.command("Repeat"), words.command("w2")
('repeat', None)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from companion.i18n import Catalog


def C_(context: str, message: str) -> str:
    """Mark a message with a context for extraction; looked up later."""
    del context
    return message


#: Each command, in the order help names it, with its words marked for the catalogs.
COMMANDS: dict[str, str] = {
    # Translators: each "command word" is a word the player types; give one
    # or more words of your language separated by spaces, the first the main
    # one, lower case, none of them a card code or a card name.
    "repeat": C_("command word", "repeat"),
    "back": C_("command word", "back"),
    "next": C_("command word", "next"),
    "stop": C_("command word", "stop"),
    "help": C_("command word", "help"),
    "menu": C_("command word", "menu"),
    "quit": C_("command word", "quit"),
    "where": C_("command word", "where"),
    "hand": C_("command word", "hand"),
    "tables": C_("command word", "tables"),
    "coming": C_("command word", "coming"),
    "race": C_("command word", "race"),
    "hint": C_("command word", "hint"),
    "undo": C_("command word", "undo"),
}
CONTEXT = "command word"


def fold(text: str) -> str:
    """Lower case without accents: how typed words are compared."""
    decomposed = unicodedata.normalize("NFD", text.strip().casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


class CommandWords:
    """The words of one language, English included."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._words: dict[str, str] = {}
        for command, english in COMMANDS.items():
            for word in [english, *self.words(command)]:
                self._words.setdefault(fold(word), command)

    def words(self, command: str) -> list[str]:
        """The words that stand for ``command`` in the catalog's language."""
        return self.catalog.translations.pgettext(CONTEXT, COMMANDS[command]).split()

    def word(self, command: str) -> str:
        """The first (main) word for ``command``: the one help names."""
        return self.words(command)[0]

    def command(self, typed: str) -> str | None:
        """The command a typed line is, if it is one."""
        return self._words.get(fold(typed))

    def listed(self, commands: Iterable[str]) -> str:
        """The main words of ``commands``, comma separated, for help."""
        return ", ".join(self.word(command) for command in commands)
