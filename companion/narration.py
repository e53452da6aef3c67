"""The one source of the sentences players read and hear.

Everything said about cards, codes and scores is built here from a
:class:`~companion.i18n.Catalog`, so the screen, a braille line and speech
say the same words. Sentences put the key fact first: a braille display
shows about 40 cells.

>>> en = Catalog.for_language("en")
>>> card_name(en, Card.SQUID)
'Squid nigiri'
>>> explain_line(en, Line(LineKind.TEMPURA, 4, 10, sets=2))
'Tempura: 2 pairs, 10 points.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from companion.i18n import N_, Catalog
from companion.sushigo.cards import Card
from companion.sushigo.gamefile import GameFileError, Problem
from companion.sushigo.scoring import GameScore, Line, LineKind, Place
from companion.sushigo.tactile import (
    REFERENCE_ORDER,
    Position,
    Refusal,
    Shape,
    UnknownCodeError,
    parse,
    sticker,
)

CARD_NAMES: Mapping[Card, str] = MappingProxyType(
    {
        Card.TEMPURA: N_("Tempura"),
        Card.SASHIMI: N_("Sashimi"),
        Card.DUMPLING: N_("Dumpling"),
        Card.MAKI1: N_("Maki 1"),
        Card.MAKI2: N_("Maki 2"),
        Card.MAKI3: N_("Maki 3"),
        Card.EGG: N_("Egg nigiri"),
        Card.SALMON: N_("Salmon nigiri"),
        Card.SQUID: N_("Squid nigiri"),
        Card.PUDDING: N_("Pudding"),
        Card.WASABI: N_("Wasabi"),
        Card.CHOPSTICKS: N_("Chopsticks"),
        Card.SOY_SAUCE: N_("Soy sauce"),
    }
)

SHAPE_NAMES: Mapping[Shape, str] = MappingProxyType(
    {
        Shape.TRIANGLE: N_("Triangle"),
        Shape.STAR: N_("Star"),
        Shape.DIAGONAL_CROSS: N_("Diagonal cross"),
        Shape.SQUARE: N_("Square"),
        Shape.PLUS: N_("Plus"),
        Shape.FLOWER: N_("Flower"),
        Shape.WINDOW: N_("Window"),
        Shape.CIRCLE: N_("Circle"),
        Shape.DROP: N_("Drop"),
    }
)

POSITION_NAMES: Mapping[Position, str] = MappingProxyType(
    {
        Position.TOP: N_("top"),
        Position.MIDDLE: N_("middle"),
        Position.BOTTOM: N_("bottom"),
    }
)

CARD_VALUES: Mapping[Card, str] = MappingProxyType(
    {
        Card.TEMPURA: N_("5 points a pair"),
        Card.SASHIMI: N_("10 points a set of 3"),
        Card.DUMPLING: N_("1, 3, 6, 10, 15 points for 1, 2, 3, 4, 5 or more"),
        Card.MAKI1: N_("1 maki icon"),
        Card.MAKI2: N_("2 maki icons"),
        Card.MAKI3: N_("3 maki icons"),
        Card.EGG: N_("1 point, 3 on wasabi"),
        Card.SALMON: N_("2 points, 6 on wasabi"),
        Card.SQUID: N_("3 points, 9 on wasabi"),
        Card.PUDDING: N_("end of game: most 6, fewest minus 6"),
        Card.WASABI: N_("triples the next nigiri"),
        Card.CHOPSTICKS: N_("take 2 cards on a later turn"),
        Card.SOY_SAUCE: N_("4 points for the most colours"),
    }
)


def card_name(catalog: Catalog, card: Card) -> str:
    return catalog.text(CARD_NAMES[card])


def points(catalog: Catalog, n: int) -> str:
    """'1 point', '5 points', '-3 points' in the catalog's language."""
    return catalog.plural("%(n)d point", "%(n)d points", n)


def cards(catalog: Catalog, n: int) -> str:
    return catalog.plural("%(n)d card", "%(n)d cards", n)


def describe_sticker(catalog: Catalog, card: Card) -> str:
    """'Window, top' or 'Triangle': what the fingers find."""
    found = sticker(card)
    shape = catalog.text(SHAPE_NAMES[found.shape])
    if found.position is None:
        return shape
    position = catalog.text(POSITION_NAMES[found.position])
    return catalog.text("%(shape)s, %(position)s", shape=shape, position=position)


def code_line(catalog: Catalog, card: Card) -> str:
    """One line of the code reference: sticker, card, value, short code."""
    return catalog.text(
        "%(sticker)s: %(card)s, %(value)s. Code %(code)s.",
        sticker=describe_sticker(catalog, card),
        card=card_name(catalog, card),
        value=catalog.text(CARD_VALUES[card]),
        code=sticker(card).code,
    )


def codes_reference(catalog: Catalog, *, soy_sauce: bool = True) -> list[str]:
    """The whole code reference, a line per card, heading first."""
    lines = [
        catalog.text("Tactile codes: shape key, then 1 top, 2 middle, 3 bottom."),
    ]
    lines.extend(
        code_line(catalog, card)
        for card in REFERENCE_ORDER
        if soy_sauce or card is not Card.SOY_SAUCE
    )
    return lines


def _tied(catalog: Catalog, tied: int) -> str:
    return catalog.plural("shared by %(n)d player", "shared by %(n)d players", tied)


def _maki_place(catalog: Catalog, line: Line) -> str:
    if line.place is Place.FIRST and line.tied == 1:
        return catalog.text("most at the table")
    if line.place is Place.FIRST:
        return catalog.text("tied for most, %(shared)s", shared=_tied(catalog, line.tied))
    if line.place is Place.SECOND and line.tied == 1:
        return catalog.text("second most")
    if line.place is Place.SECOND:
        return catalog.text("tied for second, %(shared)s", shared=_tied(catalog, line.tied))
    return catalog.text("no place")


def _pudding_place(catalog: Catalog, line: Line) -> str:
    if line.place is Place.EVEN:
        return catalog.text("everyone has the same")
    if line.place is Place.FIRST and line.tied == 1:
        return catalog.text("the most")
    if line.place is Place.FIRST:
        return catalog.text("tied for most, %(shared)s", shared=_tied(catalog, line.tied))
    if line.place is Place.LAST and line.tied == 1:
        return catalog.text("the fewest")
    if line.place is Place.LAST:
        return catalog.text("tied for fewest, %(shared)s", shared=_tied(catalog, line.tied))
    if line.place is Place.LAST_SPARED:
        return catalog.text("the fewest, no penalty with 2 players")
    return catalog.text("neither most nor fewest")


def explain_line(catalog: Catalog, line: Line) -> str:
    """One sentence: what the cards are, then how many points they made."""
    c = catalog
    pts = points(c, line.points)
    count = cards(c, line.cards)
    kind = line.kind
    if kind is LineKind.TEMPURA:
        sets = c.plural("%(n)d pair", "%(n)d pairs", line.sets)
        if line.cards % 2:
            return c.text("Tempura: %(cards)s, %(sets)s, %(points)s.",
                          cards=count, sets=sets, points=pts)
        return c.text("Tempura: %(sets)s, %(points)s.", sets=sets, points=pts)
    if kind is LineKind.SASHIMI:
        sets = c.plural("%(n)d set of 3", "%(n)d sets of 3", line.sets)
        if line.cards % 3:
            return c.text("Sashimi: %(cards)s, %(sets)s, %(points)s.",
                          cards=count, sets=sets, points=pts)
        return c.text("Sashimi: %(sets)s, %(points)s.", sets=sets, points=pts)
    if kind is LineKind.DUMPLING:
        return c.text("Dumplings: %(cards)s, %(points)s.", cards=count, points=pts)
    if kind is LineKind.NIGIRI:
        assert line.card is not None
        name = card_name(c, line.card)
        if line.on_wasabi:
            return c.text("%(nigiri)s on wasabi: %(cards)s, %(points)s.",
                          nigiri=name, cards=count, points=pts)
        return c.text("%(nigiri)s: %(cards)s, %(points)s.", nigiri=name, cards=count, points=pts)
    if kind is LineKind.WASABI:
        return c.text("Wasabi without nigiri: %(cards)s, %(points)s.", cards=count, points=pts)
    if kind is LineKind.MAKI:
        icons = c.plural("%(n)d icon", "%(n)d icons", line.icons)
        return c.text("Maki: %(icons)s, %(place)s, %(points)s.",
                      icons=icons, place=_maki_place(c, line), points=pts)
    if kind is LineKind.CHOPSTICKS:
        return c.text("Chopsticks: %(cards)s, %(points)s.", cards=count, points=pts)
    if kind is LineKind.SOY_SAUCE:
        colours = c.plural("%(n)d colour", "%(n)d colours", line.colours)
        if line.place is Place.FIRST and line.tied > 1:
            place = c.text("tied for most colours, %(shared)s", shared=_tied(c, line.tied))
        elif line.place is Place.FIRST:
            place = c.text("most colours at the table")
        else:
            place = c.text("someone has more colours")
        return c.text("Soy sauce: %(colours)s, %(place)s, %(points)s.",
                      colours=colours, place=place, points=pts)
    if kind is LineKind.PUDDING_KEPT:
        return c.text("Pudding: %(cards)s, kept for the end of the game.", cards=count)
    return c.text("Pudding: %(cards)s, %(place)s, %(points)s.",
                  cards=count, place=_pudding_place(c, line), points=pts)


def seat_label(catalog: Catalog, names: Sequence[str], seat: int, dummy: int | None) -> str:
    if seat == dummy:
        return catalog.text("%(player)s (dummy)", player=names[seat])
    return names[seat]


def _names(catalog: Catalog, names: Sequence[str]) -> str:
    if len(names) == 1:
        return names[0]
    return catalog.text("%(first)s and %(last)s", first=", ".join(names[:-1]), last=names[-1])


def explain_game(catalog: Catalog, game: GameScore, names: Sequence[str]) -> list[str]:
    """The whole breakdown as plain sentences, a sentence a line."""
    c = catalog
    out: list[str] = []

    def seat_block(seat: int, total: int, lines: Sequence[Line]) -> None:
        label = seat_label(c, names, seat, game.dummy)
        out.append(c.text("%(player)s: %(points)s.", player=label, points=points(c, total)))
        if not lines:
            out.append("  " + c.text("No cards."))
        out.extend("  " + explain_line(c, line) for line in lines)

    for number, scores in enumerate(game.rounds, start=1):
        out.append(c.text("Round %(round)d.", round=number))
        for seat, score in enumerate(scores):
            seat_block(seat, score.points, score.lines)
    if game.pudding is not None:
        out.append(c.text("Puddings at the end of the game."))
        for seat, score in enumerate(game.pudding):
            seat_block(seat, score.points, score.lines)
    out.append(c.text("Final scores.") if game.complete else c.text("Scores so far."))
    order = sorted(range(len(names)), key=lambda s: -game.totals[s])
    out.extend(
        "  " + c.text("%(player)s: %(points)s.",
                      player=seat_label(c, names, s, game.dummy),
                      points=points(c, game.totals[s]))
        for s in order
    )
    out.append(_winner_sentence(c, game, names))
    return out


def _winner_sentence(c: Catalog, game: GameScore, names: Sequence[str]) -> str:
    won = [names[s] for s in game.winners]
    if not game.complete:
        if len(won) > 1:
            return c.text("Leading together: %(players)s.", players=_names(c, won))
        return c.text("Leading: %(player)s.", player=won[0])
    if len(won) > 1:
        return c.text("Shared win: %(players)s.", players=_names(c, won))
    best = game.totals[game.winners[0]]
    level = [s for s in range(len(names)) if s != game.dummy and game.totals[s] == best]
    if len(level) > 1:
        return c.text("Winner on puddings: %(player)s.", player=won[0])
    return c.text("Winner: %(player)s.", player=won[0])


# -- refusals and errors ----------------------------------------------------------


def _suggested(catalog: Catalog, codes: Sequence[str]) -> str:
    """'w1 Egg nigiri, w2 Salmon nigiri': codes with the card each names."""
    return ", ".join(f"{code} {card_name(catalog, parse(code))}" for code in codes)


def refusal_text(catalog: Catalog, error: UnknownCodeError) -> str:
    """Why a typed text names no card, and what to type instead."""
    c = catalog
    codes = _suggested(c, error.suggestions)
    if error.refusal is Refusal.EMPTY:
        return c.text("Nothing was typed: type a card code, such as w2.")
    if error.refusal is Refusal.AMBIGUOUS:
        return c.text("%(text)s names several cards: type %(codes)s.",
                      text=error.text, codes=codes)
    if error.shape is not None:
        shape = c.text(SHAPE_NAMES[error.shape])
        if error.refusal is Refusal.NEEDS_POSITION:
            return c.text("%(text)s is not a card: %(shape)s needs a height, 1 to 3: %(codes)s.",
                          text=error.text, shape=shape, codes=codes)
        return c.text("%(text)s is not a card: %(shape)s has no height: %(codes)s.",
                      text=error.text, shape=shape, codes=codes)
    if codes:
        return c.text("%(text)s is not a card. Closest: %(codes)s.", text=error.text, codes=codes)
    return c.text("%(text)s is not a card. The codes: companion codes.", text=error.text)


_PROBLEMS: Mapping[Problem, str] = MappingProxyType(
    {
        Problem.NOT_TEXT: N_("the file is not UTF-8 text."),
        Problem.BAD_JSON: N_("not valid JSON at line %(line)s, column %(column)s."),
        Problem.TOO_DEEP: N_("the JSON is nested too deeply to be a game."),
        Problem.DUPLICATE_KEY: N_('key "%(key)s" is written twice in one object.'),
        Problem.NOT_AN_OBJECT: N_('the game must be a JSON object with "players" and "rounds".'),
        Problem.PLAYERS_NOT_LIST: N_('"players" must be a list of names.'),
        Problem.SEAT_COUNT: N_("Sushi Go! is for 2 to 5 seats; this file has %(count)s."),
        Problem.EMPTY_NAME: N_("a player's name is empty."),
        Problem.DUPLICATE_PLAYER: N_("two players have this name."),
        Problem.VARIANT_NOT_OBJECT: N_('"variant" must be an object, such as {"soy_sauce": true}.'),
        Problem.UNKNOWN_VARIANT: N_('unknown variant "%(key)s"; known: %(known)s.'),
        Problem.VARIANT_NOT_BOOL: N_("the value of variant.%(key)s must be true or false."),
        Problem.BAD_SOY_COUNT: N_(
            "the value of variant.soy_sauce_count must be a whole number, 1 or more."
        ),
        Problem.BAD_DUMMY: N_('"dummy" must name one of the players, not %(value)s.'),
        Problem.DUMMY_SEATS: N_("the dummy variant has 3 seats: 2 players and the dummy."),
        Problem.ROUNDS_NOT_LIST: N_('"rounds" must be a list of 1 to 3 rounds.'),
        Problem.TOO_MANY_ROUNDS: N_("a game has 3 rounds; this file has %(count)s."),
        Problem.ROUND_NOT_OBJECT: N_("a round must map every player to a list of cards."),
        Problem.PLAYER_TWICE_IN_ROUND: N_("this player is listed twice in the round."),
        Problem.UNKNOWN_PLAYER: N_('this player is not in "players".'),
        Problem.MISSING_PLAYER: N_("this player is missing from the round."),
        Problem.CARDS_NOT_LIST: N_("the cards must be a list of codes or names."),
        Problem.TOO_MANY_CARDS: N_("%(cards)s, but with %(seats)s seats a hand is %(hand)s."),
        Problem.TOO_MANY_COPIES: N_(
            "%(card)s number %(count)s in this game, but the deck has only %(limit)s."
        ),
        Problem.SOY_WITHOUT_VARIANT: N_(
            "soy sauce is only in the soy sauce variant: set variant.soy_sauce to true."
        ),
    }
)


def game_file_error_text(catalog: Catalog, error: GameFileError) -> str:
    """Where a game file is wrong and what is wrong, in one line."""
    c = catalog
    where = []
    if error.round is not None:
        where.append(c.text("round %(round)s", round=error.round))
    if error.player is not None:
        where.append(c.text("player %(player)s", player=error.player))
    if error.card is not None and error.card.strip():
        where.append(c.text("card %(card)s", card=error.card))
    if error.problem is Problem.UNKNOWN_CARD and error.refusal is not None:
        what = refusal_text(c, error.refusal)
    elif error.problem in _PROBLEMS:
        params = dict(error.params)
        if error.problem is Problem.TOO_MANY_CARDS:
            params["cards"] = cards(c, int(str(params["count"])))
            params["hand"] = cards(c, int(str(params["hand"])))
        if error.problem is Problem.TOO_MANY_COPIES:
            params["card"] = card_name(c, Card.from_id(str(params["card_id"])))
        what = c.text(_PROBLEMS[error.problem], **params)
    else:
        what = error.reason
    if not where:
        return what[:1].upper() + what[1:]
    return c.text("%(where)s: %(what)s", where=", ".join(where), what=what)
