"""The games the companion knows, each a package of its own: a plugin.

A game registers one object, a :class:`~companion.contract.game.GamePlugin`,
under the entry points group ``tactile_companion.games``
(``pyproject.toml``); :func:`games` finds them all. Nothing in the app
imports a game by name: it asks the registry. The scanner's bridge reads
another group, ``tactile_companion.vocabularies``: each game's pure
vocabulary module (:class:`firmware_bridge.vocabulary.Vocabulary`), so that
it loads nothing else of the game or the app.

What every plugin gives the app (its core):

- its cards and their codes: a :class:`~companion.contract.events.
  CardReader` for card questions, and the bridge's vocabulary;
- its words (:attr:`GamePlugin.actions`) and its sentences, from its own
  catalog domain (:meth:`GamePlugin.catalog`);
- learning the codes, and a practice game, a
  :class:`~companion.contract.game.Play` (what to ask next, and what to do
  with the answer), saved and resumed.

What a plugin may give besides, each a capability it declares by having it
(:func:`~companion.contract.game.capability` asks): a table companion,
scoring a finished game, simulations, benchmarks, a tactile kit, commands
of its own on the command line.

The contract every plugin keeps is checked for every registered game by
``tests/companion/games/test_contract.py``; the interfaces are in
:mod:`companion.contract.game`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib.metadata import entry_points
from typing import TYPE_CHECKING

from companion.i18n import Catalog

#: The game of commands given no ``--game``, of new settings, and of journals
#: and tag files written before there was more than one game (the settings,
#: below the games, define it).
from companion.settings import DEFAULT_GAME as DEFAULT_GAME

if TYPE_CHECKING:
    from companion.contract.game import SomeGame

#: The entry points group games register under.
GROUP = "tactile_companion.games"


@cache
def games() -> Mapping[str, SomeGame]:
    """Every registered game, by name."""
    from companion.contract.game import GamePlugin  # noqa: PLC0415 - the interface, when asked

    found: dict[str, SomeGame] = {}
    for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
        plugin = point.load()
        if isinstance(plugin, GamePlugin):
            found[plugin.game] = plugin
    return found


def game_of(header: Mapping[str, object]) -> str:
    """The game a journal's header is of (journals written before there was
    more than one game are of the default game).

    >>> game_of({"type": "table"}), game_of({"game": "mici-maki"})
    ('sushigo', 'mici-maki')
    """
    return str(header.get("game", DEFAULT_GAME))


class UnknownGameError(LookupError):
    """A game name no plugin has."""

    def __init__(self, name: str) -> None:
        self.name = name
        known = ", ".join(games()) or "none"
        super().__init__(f"no game called {name!r}; installed: {known}")

    def text(self, catalog: Catalog) -> str:
        """The sentence in ``catalog``'s language (the app's own catalog has it:
        the kit says it too)."""
        return catalog.text("There is no game called %(game)s: give %(games)s.",
                            game=repr(self.name), games=", ".join(games()))


def game(name: str) -> SomeGame:
    """The registered game called ``name``."""
    try:
        return games()[name]
    except KeyError:
        raise UnknownGameError(name) from None
