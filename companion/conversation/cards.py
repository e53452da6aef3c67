"""Cards read for the open question, whatever game they are of: a scanned
tag found in the registry of games, and a typed code tried in every other
installed game when the game asked for refuses it.

The games are found through the registry (:func:`companion.games.games`)
only: a card of another game is named with its game, so the player knows
what they scanned or typed and that the question still waits.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.contract.events import CardReader, Cards
from companion.conversation.scanner_news import unknown_tag
from companion.games import games
from companion.i18n import Catalog
from companion.shown import shown
from firmware_bridge.events import CardIdentified


@dataclass(frozen=True, slots=True)
class Scan:
    """What a scanned tag is for the open question: the ``card`` it takes
    (when ``said`` is ``None``), or what is said instead. ``unfit``: a card
    that does not fit the question (the question is shown again after it);
    otherwise news (an unknown tag)."""

    card: object = None
    said: str | None = None
    unfit: bool = False


def scanned(event: CardIdentified, reader: CardReader[object] | None, catalog: Catalog) -> Scan:
    """The card of a scanned tag, if it is one of the game ``reader`` reads
    (``None``: no card is wanted here); otherwise what it is."""
    plugin = games().get(event.game) if event.game is not None else None
    if plugin is None or event.card is None:
        if event.game is not None and event.card is not None:
            return Scan(said=catalog.text("That tag is a card of %(game)s, a game this app "
                                          "does not have.", game=event.game))
        return Scan(said=unknown_tag(catalog, event.uid or "?"))
    try:
        card = plugin.reader.from_id(event.card)
    except KeyError:
        return Scan(said=unknown_tag(catalog, event.uid or "?"))
    name = plugin.reader.name(catalog.language, card)
    if reader is None:
        return Scan(said=catalog.text("%(card)s scanned, but no card is wanted here.",
                                      card=name), unfit=True)
    if reader.game != plugin.game:
        wanted = games()[reader.game].title if reader.game in games() else reader.game
        return Scan(said=catalog.text("%(card)s is a card of %(game)s: this question wants "
                                      "a card of %(wanted)s.", card=name, game=plugin.title,
                                      wanted=wanted), unfit=True)
    return Scan(card)


def other_game(catalog: Catalog, typed: str, reader: CardReader[object]) -> str | None:
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
        names = shown(", ".join(plugin.reader.name(catalog.language, card) for card in cards),
                      limit=200)
        return catalog.text("%(text)s is %(cards)s, of %(game)s: this game is %(wanted)s. "
                            "Type a card of %(wanted)s.", text=shown(typed), cards=names,
                            game=plugin.title,
                            wanted=wanted.title if wanted is not None else reader.game)
    return None


def wrong_count(catalog: Catalog, given: int, exactly: int | None, why: str) -> str | None:
    """Why ``given`` cards cannot be right where only ``exactly`` can be (the
    game's ``why`` said after the count), or ``None`` when the count is right.

    >>> en = Catalog.for_language("en")
    >>> wrong_count(en, 9, 10, "each player has 10 at the end of a round with 2 players")
    'That is 9 cards; each player has 10 at the end of a round with 2 players. Type it again.'
    >>> wrong_count(en, 10, 10, "")
    """
    if exactly is None or given == exactly:
        return None
    if not why:
        return catalog.plural("That is %(n)d card; %(exactly)d are asked here. Type it again.",
                              "That is %(n)d cards; %(exactly)d are asked here. Type it again.",
                              given, exactly=exactly)
    return catalog.plural("That is %(n)d card; %(why)s. Type it again.",
                          "That is %(n)d cards; %(why)s. Type it again.", given, why=why)
