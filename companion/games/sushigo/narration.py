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

from companion.contract.events import Verbosity
from companion.games.sushigo.bots import Advice, Reason
from companion.games.sushigo.cards import Card
from companion.games.sushigo.draft import ChoiceError, ChoiceProblem
from companion.games.sushigo.gamefile import Flaw, GameFileError
from companion.games.sushigo.names import CARD_NAMES, SHAPE_NAMES, refused
from companion.games.sushigo.scoring import GameScore, Line, LineKind, Place
from companion.games.sushigo.tactile import (
    REFERENCE_ORDER,
    Position,
    sticker,
)
from companion.games.sushigo.tracker import Concern, Entry, EntryKind, HandInfo, Warning
from companion.i18n import N_, Catalog
from companion.keymap import Words
from companion.shown import shown

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
        Card.SOY_SAUCE: N_("4 points for the most kinds of card"),
    }
)


#: The rule behind each line of a score, said at the verbose level.
RULES: Mapping[LineKind, str] = MappingProxyType(
    {
        LineKind.TEMPURA: N_("A pair of tempura scores 5."),
        LineKind.SASHIMI: N_("A set of 3 sashimi scores 10."),
        LineKind.DUMPLING: N_("Dumplings score 1, 3, 6, 10, 15 for 1, 2, 3, 4, 5 or more."),
        LineKind.NIGIRI: N_("Nigiri score 1, 2 or 3, triple on a wasabi laid before them."),
        LineKind.WASABI: N_("A wasabi without nigiri scores nothing."),
        LineKind.MAKI: N_("Most maki icons score 6, the second most 3, ties split."),
        LineKind.CHOPSTICKS: N_("Chopsticks score nothing."),
        LineKind.SOY_SAUCE: N_("Soy sauce scores 4 for the most kinds of card at the table "
                               "(all nigiri are one kind, all maki rolls one kind)."),
        LineKind.PUDDING_KEPT: N_("Puddings count at the end of the game."),
        LineKind.PUDDING: N_("Most puddings score 6, the fewest lose 6, ties split."),
    }
)

#: What a line is about, for the terse level.
LINE_LABELS: Mapping[LineKind, str] = MappingProxyType(
    {
        LineKind.TEMPURA: N_("Tempura"),
        LineKind.SASHIMI: N_("Sashimi"),
        LineKind.DUMPLING: N_("Dumplings"),
        LineKind.WASABI: N_("Wasabi"),
        LineKind.MAKI: N_("Maki"),
        LineKind.CHOPSTICKS: N_("Chopsticks"),
        LineKind.SOY_SAUCE: N_("Soy sauce"),
        LineKind.PUDDING_KEPT: N_("Pudding"),
        LineKind.PUDDING: N_("Pudding"),
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


def explain_line(
    catalog: Catalog, line: Line, verbosity: Verbosity = Verbosity.NORMAL
) -> str:
    """One sentence: what the cards are, then how many points they made
    (terse: what and points; verbose: the rule too)."""
    if verbosity is Verbosity.TERSE:
        return _terse_line(catalog, line)
    sentence = _line_sentence(catalog, line)
    if verbosity is Verbosity.VERBOSE:
        sentence += " " + catalog.text(RULES[line.kind])
    return sentence


def _terse_line(c: Catalog, line: Line) -> str:
    if line.kind is LineKind.NIGIRI:
        assert line.card is not None
        name = card_name(c, line.card)
        if line.on_wasabi:
            name = c.text("%(nigiri)s on wasabi", nigiri=name)
    else:
        name = c.text(LINE_LABELS[line.kind])
    if line.kind is LineKind.PUDDING_KEPT:
        return c.text("%(what)s: %(cards)s kept.", what=name, cards=cards(c, line.cards))
    return c.text("%(what)s: %(points)s.", what=name, points=points(c, line.points))


def _line_sentence(catalog: Catalog, line: Line) -> str:
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
        colours = c.plural("%(n)d kind of card", "%(n)d kinds of card", line.colours)
        if line.place is Place.FIRST and line.tied > 1:
            place = c.text("tied for most kinds of card, %(shared)s", shared=_tied(c, line.tied))
        elif line.place is Place.FIRST:
            place = c.text("most kinds of card at the table")
        else:
            place = c.text("someone has more kinds of card")
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


def explain_game(
    catalog: Catalog,
    game: GameScore,
    names: Sequence[str],
    verbosity: Verbosity = Verbosity.NORMAL,
) -> list[str]:
    """The whole breakdown as plain sentences, a sentence a line."""
    c = catalog
    out: list[str] = []

    def seat_block(seat: int, total: int, lines: Sequence[Line]) -> None:
        label = seat_label(c, names, seat, game.dummy)
        out.append(c.text("%(player)s: %(points)s.", player=label, points=points(c, total)))
        if not lines:
            out.append("  " + c.text("No cards."))
        out.extend("  " + explain_line(c, line, verbosity) for line in lines)

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




_PROBLEMS: Mapping[Flaw, str] = MappingProxyType(
    {
        Flaw.NOT_TEXT: N_("the file is not UTF-8 text."),
        Flaw.BAD_JSON: N_("not valid JSON at line %(line)s, column %(column)s."),
        Flaw.TOO_DEEP: N_("the JSON is nested too deeply to be a game."),
        Flaw.DUPLICATE_KEY: N_('key "%(key)s" is written twice in one object.'),
        Flaw.NOT_AN_OBJECT: N_('the game must be a JSON object with "players" and "rounds".'),
        Flaw.PLAYERS_NOT_LIST: N_('"players" must be a list of names.'),
        Flaw.SEAT_COUNT: N_("Sushi Go! is for 2 to 5 seats; this file has %(count)s."),
        Flaw.EMPTY_NAME: N_("a player's name is empty."),
        Flaw.DUPLICATE_PLAYER: N_("two players have this name."),
        Flaw.BAD_NAME: N_(
            "a player's name has at most %(most)s characters and no control characters."),
        Flaw.LONG_NUMBER: N_("a number in the file has too many digits to be part of a game."),
        Flaw.VARIANT_NOT_OBJECT: N_('"variant" must be an object, such as {"soy_sauce": true}.'),
        Flaw.UNKNOWN_VARIANT: N_('unknown variant "%(key)s"; known: %(known)s.'),
        Flaw.VARIANT_NOT_BOOL: N_("the value of variant.%(key)s must be true or false."),
        Flaw.BAD_SOY_COUNT: N_(
            "the value of variant.soy_sauce_count must be a whole number, 1 or more."
        ),
        Flaw.BAD_DUMMY: N_('"dummy" must name one of the players, not %(value)s.'),
        Flaw.DUMMY_SEATS: N_("the dummy variant has 3 seats: 2 players and the dummy."),
        Flaw.ROUNDS_NOT_LIST: N_('"rounds" must be a list of 1 to 3 rounds.'),
        Flaw.TOO_MANY_ROUNDS: N_("a game has 3 rounds; this file has %(count)s."),
        Flaw.ROUND_NOT_OBJECT: N_("a round must map every player to a list of cards."),
        Flaw.PLAYER_TWICE_IN_ROUND: N_("this player is listed twice in the round."),
        Flaw.UNKNOWN_PLAYER: N_('this player is not in "players".'),
        Flaw.MISSING_PLAYER: N_("this player is missing from the round."),
        Flaw.CARDS_NOT_LIST: N_("the cards must be a list of codes or names."),
        Flaw.TOO_MANY_CARDS: N_("%(cards)s, but with %(seats)s seats a hand is %(hand)s."),
        Flaw.TOO_MANY_COPIES: N_(
            "%(card)s number %(count)s in this game, but the deck has only %(limit)s."
        ),
        Flaw.SOY_WITHOUT_VARIANT: N_(
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
        where.append(c.text("player %(player)s", player=shown(error.player)))
    if error.card is not None and error.card.strip():
        where.append(c.text("card %(card)s", card=shown(error.card)))
    if error.problem is Flaw.UNKNOWN_CARD and error.refusal is not None:
        what = refused(c, error.refusal)
    elif error.problem in _PROBLEMS:
        params = dict(error.params)
        if error.problem is Flaw.TOO_MANY_CARDS:
            params["cards"] = cards(c, int(str(params["count"])))
            params["hand"] = cards(c, int(str(params["hand"])))
        if error.problem is Flaw.TOO_MANY_COPIES:
            params["card"] = card_name(c, Card.from_id(str(params["card_id"])))
        what = c.text(_PROBLEMS[error.problem], **params)
    else:
        what = error.reason
    if not where:
        return what[:1].upper() + what[1:]
    return c.text("%(where)s: %(what)s", where=", ".join(where), what=what)


# -- at the table -------------------------------------------------------------------


def card_identified(catalog: Catalog, card: Card, verbosity: Verbosity = Verbosity.NORMAL) -> str:
    """A card just scanned or typed, read back."""
    c = catalog
    name = card_name(c, card)
    if verbosity is Verbosity.TERSE:
        return c.text("%(card)s.", card=name)
    where = describe_sticker(c, card)
    if verbosity is Verbosity.NORMAL:
        return c.text("%(card)s: %(sticker)s.", card=name, sticker=where)
    return c.text(
        "%(card)s: %(sticker)s, %(value)s. Code %(code)s.",
        card=name, sticker=where, value=c.text(CARD_VALUES[card]), code=sticker(card).code,
    )


def card_list(catalog: Catalog, hand: Sequence[Card], *, codes: bool = False) -> str:
    """Cards grouped and counted, always in the same order: '2 Tempura, Wasabi'."""
    c = catalog
    parts = []
    for card in REFERENCE_ORDER:
        n = hand.count(card)
        if not n:
            continue
        name = card_name(c, card)
        if codes:
            name = c.text("%(card)s (%(code)s)", card=name, code=sticker(card).code)
        parts.append(name if n == 1 else c.text("%(count)s %(card)s", count=n, card=name))
    return ", ".join(parts)


def hand_text(
    catalog: Catalog, hand: Sequence[Card], verbosity: Verbosity = Verbosity.NORMAL
) -> str:
    """A hand read back: how many cards, then each kind with its count."""
    c = catalog
    if not hand:
        return c.text("Your hand is empty.")
    listed = card_list(c, hand, codes=verbosity is Verbosity.VERBOSE)
    return c.plural("%(n)d card: %(cards)s.", "%(n)d cards: %(cards)s.", len(hand), cards=listed)


def pick_text(catalog: Catalog, player: str, taken: Sequence[Card]) -> str:
    """What a player revealed: one card, or two with chopsticks, in order."""
    c = catalog
    if len(taken) == 2:
        return c.text(
            "%(player)s, chopsticks: %(first)s, then %(second)s.",
            player=player, first=card_name(c, taken[0]), second=card_name(c, taken[1]),
        )
    return c.text("%(player)s: %(card)s.", player=player, card=card_name(c, taken[0]))


def taken_text(catalog: Catalog, taken: Sequence[Card]) -> str:
    """What was taken from the hand the player holds since they last held it."""
    if not taken:
        return catalog.text("Nothing was taken from this hand since you held it.")
    return catalog.text(
        "Taken since you held this hand: %(cards)s.", cards=card_list(catalog, taken)
    )


def taken_back_text(catalog: Catalog, entry: Entry, names: Sequence[str], you: int) -> str:
    """What undo took back in a table game."""
    c = catalog
    if entry.kind is EntryKind.HAND:
        return c.text("Taken back: your hand, %(cards)s.", cards=card_list(c, entry.cards))
    if entry.kind is EntryKind.PICK and entry.seat == you:
        return c.text("Taken back: your pick, %(cards)s.", cards=card_list(c, entry.cards))
    player = names[entry.seat] if entry.seat is not None else ""
    if entry.kind is EntryKind.TABLEAU:
        return c.text("Taken back: %(player)s's whole table.", player=player)
    return c.text("Taken back: %(player)s's pick, %(cards)s.", player=player,
                  cards=card_list(c, entry.cards))


def coming_hand_text(catalog: Catalog, player: str, info: HandInfo) -> str:
    """What is known of the hand coming to the player, and from whom."""
    c = catalog
    if info.held_turn == 0:
        return c.plural(
            "Coming from %(player)s: %(n)d card, not seen yet.",
            "Coming from %(player)s: %(n)d cards, not seen yet.",
            info.size, player=player,
        )
    listed = card_list(c, info.known) or c.text("nothing known")
    if info.missing:
        return c.plural(
            "Coming from %(player)s: %(cards)s; %(n)d pick not entered.",
            "Coming from %(player)s: %(cards)s; %(n)d picks not entered.",
            info.missing, player=player, cards=listed,
        )
    return c.text("Coming from %(player)s: %(cards)s.", player=player, cards=listed)


_ADVICE: Mapping[Reason, str] = MappingProxyType(
    {
        Reason.COMPLETES_TEMPURA: N_("%(card)s: completes a tempura pair, %(points)s now."),
        Reason.COMPLETES_SASHIMI: N_("%(card)s: completes a sashimi set, %(points)s now."),
        Reason.NIGIRI_ON_WASABI: N_("%(card)s on your wasabi: %(points)s now."),
        Reason.NIGIRI: N_("%(card)s: %(points)s now."),
        Reason.DUMPLINGS: N_("%(card)s: %(points)s now, more with each dumpling."),
        Reason.MAKI_LEAD: N_("%(card)s: for the maki lead."),
        Reason.PUDDING: N_("%(card)s: for the pudding count at the end."),
        Reason.WASABI_FOR_LATER: N_("%(card)s: triples a nigiri you take later."),
        Reason.CHOPSTICKS_FOR_LATER: N_("%(card)s: take 2 cards on a later turn."),
        Reason.STARTS_SET: N_("%(card)s: starts a set you can finish this round."),
        Reason.SOY_SAUCE: N_("%(card)s: for the most kinds of card."),
    }
)


def advice_text(catalog: Catalog, advice: Advice, verbosity: Verbosity = Verbosity.NORMAL) -> str:
    """The advisor's pick and its reason; the full choice first if it is more
    than one card."""
    c = catalog
    reason = c.text(
        _ADVICE[advice.reason], card=card_name(c, advice.card), points=points(c, advice.points)
    )
    choice = advice.choice
    if choice.uses_chopsticks:
        first, second = (card_name(c, card) for card in choice.cards)
        reason = c.text("Chopsticks: %(first)s, then %(second)s.", first=first,
                        second=second) + " " + reason
    if choice.dummy is not None:
        reason += " " + c.text("Give the dummy %(card)s.", card=card_name(c, choice.dummy))
    if verbosity is Verbosity.VERBOSE and advice.worlds:
        reason += " " + c.plural(
            "Looked ahead in %(n)d game.", "Looked ahead in %(n)d games.", advice.worlds
        )
    return reason


def race_text(
    catalog: Catalog, names: Sequence[str], maki: Sequence[int], puddings: Sequence[int]
) -> list[str]:
    """The maki race this round and the pudding race, each leader first."""
    c = catalog

    def ranked(counts: Sequence[int]) -> str:
        order = sorted(range(len(names)), key=lambda seat: -counts[seat])
        return ", ".join(f"{names[seat]} {counts[seat]}" for seat in order)

    return [
        c.text("Maki rolls this round: %(counts)s.", counts=ranked(maki)),
        c.text("Puddings: %(counts)s.", counts=ranked(puddings)),
    ]


def concern_text(catalog: Catalog, warning: Warning, names: Sequence[str]) -> str:
    """Something entered that does not fit: said, and the entry kept."""
    c = catalog
    player = names[warning.seat] if warning.seat is not None else ""
    card = card_name(c, warning.card) if warning.card is not None else ""
    concern = warning.concern
    if concern is Concern.TOO_MANY:
        return c.text(
            "%(player)s: a %(card)s too many: the deck has %(limit)s. Kept; check it.",
            player=player, card=card, limit=warning.limit,
        )
    if concern is Concern.NOT_IN_HAND:
        return c.text(
            "%(player)s took %(card)s, but the hand they held had none. Kept; check it.",
            player=player, card=card,
        )
    if concern is Concern.NO_CHOPSTICKS:
        return c.text(
            "%(player)s took two cards with no chopsticks on the table. Kept; check it.",
            player=player,
        )
    if concern is Concern.DUMMY_TWO:
        return c.text("%(player)s took two cards: the dummy takes one a turn, never with "
                      "chopsticks. Kept; check it.", player=player)
    if concern is Concern.HAND_SIZE:
        return c.text(
            "Your hand has %(count)s; %(limit)s expected this turn. Kept; check it.",
            count=cards(c, warning.count), limit=cards(c, warning.limit),
        )
    if concern is Concern.HAND_DIFFERS:
        return c.text(
            "This hand should hold %(cards)s. Kept; check it.",
            cards=card_list(c, warning.expected),
        )
    return c.text(
        "%(player)s: %(count)s on the table, at most %(limit)s a round. Kept; check it.",
        player=player, count=cards(c, warning.count), limit=cards(c, warning.limit),
    )


def impossible_text(catalog: Catalog, warning: Warning, names: Sequence[str]) -> str:
    """An entry against what the rules force: why it is refused, and what to enter.

    >>> en = Catalog.for_language("en")
    >>> impossible_text(en, Warning(Concern.HAND_SIZE, 0, 0, count=9, limit=8), ["Ana"])
    'Your hand holds 8 cards this turn, not 9 cards: enter every card of it.'
    """
    c = catalog
    player = names[warning.seat] if warning.seat is not None else ""
    concern = warning.concern
    if concern is Concern.NO_CHOPSTICKS:
        return c.text("%(player)s has no chopsticks on the table: one card this turn. Enter "
                      "the card taken.", player=player)
    if concern is Concern.DUMMY_TWO:
        return c.text("%(player)s takes one card a turn, never with chopsticks: enter the one "
                      "card.", player=player)
    if concern is Concern.HAND_SIZE:
        return c.text("Your hand holds %(limit)s this turn, not %(count)s: enter every card "
                      "of it.", limit=cards(c, warning.limit), count=cards(c, warning.count))
    return c.text("%(player)s's table holds at most %(limit)s a round, not %(count)s: enter it "
                  "again.", player=player, limit=cards(c, warning.limit),
                  count=cards(c, warning.count))


def typing_help(catalog: Catalog) -> list[str]:
    """How to type a card, a line each."""
    c = catalog
    return [
        c.text("Type a card: its shape key, then 1 top, 2 middle, 3 bottom."),
        c.text("Shapes: t triangle, s star, x cross, q square, p plus, f flower."),
        c.text("With a height: w window, o circle. Soy sauce: d, a drop."),
        c.text("Two cards with chopsticks: t+w2. Names work too."),
        c.text("Every code, a line each: companion codes."),
    ]


def choice_error_text(catalog: Catalog, error: ChoiceError) -> str:
    """Why a pick cannot be taken, and what to do instead."""
    c = catalog
    problem = error.problem
    if problem is ChoiceProblem.UNKNOWN_CARD and error.refusal is not None:
        return refused(c, error.refusal)
    if problem is ChoiceProblem.NOT_IN_HAND and error.card is not None:
        if error.have:
            return c.text("%(card)s: your hand has only %(count)s; take fewer.",
                          card=card_name(c, error.card), count=error.have)
        return c.text("Your hand has no %(card)s: type %(word)s to hear your hand.",
                      card=card_name(c, error.card), word=Words(c).word("hand"))
    if problem is ChoiceProblem.NO_CHOPSTICKS:
        return c.text("You have no chopsticks on your table: take one card.")
    if problem is ChoiceProblem.TOO_FEW_FOR_CHOPSTICKS:
        return c.plural(
            "Chopsticks need %(n)d card in your hand: take one card.",
            "Chopsticks need %(n)d cards in your hand: take one card.",
            error.need,
        )
    if problem is ChoiceProblem.GIVE_THE_DUMMY:
        return c.text("You control the dummy: also give it a card, as in w2/o3.")
    if problem is ChoiceProblem.NOT_CONTROLLER:
        return c.text("You do not control the dummy this turn: take your own card only.")
    if problem is ChoiceProblem.DUMMY_DOES_NOT_CHOOSE:
        return c.text("The dummy does not choose: its controller picks for it.")
    return c.text("Take one card, or two with chopsticks: for example w2 or t+w2.")
