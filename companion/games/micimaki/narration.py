"""Mici Maki's sentences, in the player's language: its catalog (the
``micimaki`` domain, falling back to the app's) and the code reference.

>>> lines = reference(catalog("en"))
>>> lines[0]
'Mici Maki tactile codes: the sticker names the card.'
>>> lines[4]
'Food 5: braille 5 top left, 5 dots along the bottom edge. 12 cards. Code 5.'
>>> lines[7]
'+1 food: a plus sign. The pile is worth one more. 7 cards. Code p.'
>>> reference(catalog("cs"))[10]
'Přežrání: drsná zubatá ploška přes střed. Otočená při jídle ukončí kolo. 6 karet. Kód x.'
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from pathlib import Path

from companion.contract.events import Verbosity
from companion.games.micimaki.risk import percent
from companion.games.micimaki.rules import (
    CARDS,
    CHOOSE,
    EAT,
    EXTRA,
    FOODS,
    OVEREATING,
    PLAY,
    PLUS,
    REVERSE,
    SERVE,
    SKIP,
    START,
    Move,
    Refusal,
)
from companion.games.micimaki.tactile import CODES, KINDS, NAMES, PUNCHED_CORNER, STICKERS
from companion.games.micimaki.vocabulary import DOMAIN, copies
from companion.i18n import N_, Catalog

LOCALE_DIR = Path(__file__).with_name("locale")

#: What each action and the overeating card do, in a short sentence.
RULES = {
    PLUS: N_("The pile is worth one more."),
    REVERSE: N_("Play goes the other way."),
    CHOOSE: N_("You name the next player."),
    OVEREATING: N_("Turned up while eating, it ends the round."),
}


@cache
def catalog(language: str) -> Catalog:
    """Mici Maki's sentences in ``language`` (the app's as a fallback)."""
    return Catalog.for_language(language, DOMAIN, LOCALE_DIR)


def card_name(words: Catalog, card: int) -> str:
    """A card's name: "Food 5", "+1 food"."""
    return words.text(NAMES[card], value=card) if card in FOODS else words.text(NAMES[card])


def reference(words: Catalog) -> list[str]:
    """The code reference: a heading, a card a line, then how to hold a card."""
    lines = [words.text("Mici Maki tactile codes: the sticker names the card.")]
    for card in KINDS:
        sticker = words.text(STICKERS[card].words, value=card)
        count = words.plural("%(n)s card", "%(n)s cards", copies(card))
        name = card_name(words, card)
        if card in RULES:
            lines.append(words.text(
                "%(name)s: %(sticker)s. %(rule)s %(count)s. Code %(code)s.", name=name,
                sticker=sticker, rule=words.text(RULES[card]), count=count, code=CODES[card]))
        else:
            lines.append(words.text("%(name)s: %(sticker)s. %(count)s. Code %(code)s.",
                                    name=name, sticker=sticker, count=count, code=CODES[card]))
    lines.append(words.text(PUNCHED_CORNER))
    return lines


# -- reading a card back, and how to type one -------------------------------------------------


def describe(words: Catalog, card: int, verbosity: Verbosity) -> str:
    """A card read back, its name first: by verbosity its rule and its sticker.

    >>> describe(catalog("en"), PLUS, Verbosity.NORMAL)
    '+1 food: the pile is worth one more. Code p.'
    >>> describe(catalog("en"), 5, Verbosity.TERSE)
    'Food 5, code 5.'
    """
    name, code = card_name(words, card), CODES[card]
    if verbosity is Verbosity.TERSE:
        return words.text("%(name)s, code %(code)s.", name=name, code=code)
    sticker = words.text(STICKERS[card].words, value=card)
    rule = words.text(RULES[card]) if card in RULES else ""
    if verbosity is Verbosity.VERBOSE:
        if rule:
            return words.text("%(name)s: %(sticker)s. %(rule)s Code %(code)s.", name=name,
                              sticker=sticker, rule=rule, code=code)
        return words.text("%(name)s: %(sticker)s. Code %(code)s.", name=name,
                          sticker=sticker, code=code)
    if rule:
        return words.text("%(name)s: %(rule)s Code %(code)s.", name=name,
                          rule=rule[0].lower() + rule[1:], code=code)
    return words.text("%(name)s. Code %(code)s.", name=name, code=code)


def typing_help(words: Catalog, eat: str) -> list[str]:
    """How to type a Mici Maki card and a move, a line each (``eat``: the
    word that eats, in the player's language)."""
    return [
        words.text("Type a Mici Maki card: its food value, 2 to 7; p for +1 food, "
                   "r for reverse direction, c for choose the next player."),
        words.text("x is an overeating card: typed only for cards turned up."),
        words.text("Skip the food with a pair: 5 5. To eat, type %(eat)s.", eat=eat),
        words.text("Every code, a line each: companion codes --game mici-maki."),
    ]


def card_list(words: Catalog, cards: Sequence[int]) -> str:
    """Cards named, comma separated: "Food 5, +1 food"."""
    return ", ".join(card_name(words, card) for card in cards)


def chance(words: Catalog, risk: Fraction) -> str:
    """A chance as a percentage in the catalog's language; never "0%" for
    a chance that is not nil."""
    if 0 < risk < Fraction(1, 2000):
        return words.text("under %(percent)s", percent=percent(0.001, words.language))
    return percent(float(risk), words.language)


def cards_count(words: Catalog, n: int) -> str:
    return words.plural("%(n)d card", "%(n)d cards", n)


# -- moves and what happened --------------------------------------------------------------------


def move_text(words: Catalog, player: str, move: Move, *, value: int, chosen: str = "",
              direction: int = 1, own: bool = False, to_you: bool = False) -> str:
    """A move made, said back: the player, then the move, then the pile's
    value after it (``chosen``: the player named by "choose the next
    player", ``to_you`` when that is the player told; ``direction``: the
    way play goes after it; ``own``: the player's own move, said to them,
    "You: start ...", in the second person).

    >>> en = catalog("en")
    >>> move_text(en, "Ben", (SERVE, 5), value=15)
    'Ben: serves Food 5, pile worth 15.'
    >>> move_text(en, "Ben", (CHOOSE, 2), value=15, chosen="Ana")
    'Ben: Choose the next player, Ana plays next.'
    >>> move_text(en, "Bot 1", (CHOOSE, 0), value=15, chosen="You", to_you=True)
    'Bot 1: Choose the next player, you play next.'
    >>> move_text(catalog("cs"), "Vy", (START, 5), value=5, own=True)
    'Vy: zakládáte balíček kartou Jídlo 5.'
    """
    kind, argument = move
    if own and kind == START:
        return words.text("You: start a pile with %(card)s.", card=card_name(words, argument))
    if own and kind == SERVE:
        return words.text("You: serve %(card)s, pile worth %(value)d.",
                          card=card_name(words, argument), value=value)
    if own and kind == SKIP:
        return words.text("You: skip with two %(card)s, new pile worth %(value)d.",
                          card=card_name(words, argument), value=value)
    if own and kind == EXTRA and argument:
        return words.plural("You: add an overeating card, %(n)d overeating card in the draw "
                            "pile.", "You: add an overeating card, %(n)d overeating cards in "
                            "the draw pile.", value)
    if own and kind == EXTRA:
        return words.text("You: add no overeating card.")
    if kind == START:
        return words.text("%(player)s: starts a pile with %(card)s.", player=player,
                          card=card_name(words, argument))
    if kind == SERVE:
        return words.text("%(player)s: serves %(card)s, pile worth %(value)d.", player=player,
                          card=card_name(words, argument), value=value)
    if kind == PLAY and argument == REVERSE:
        if direction > 0:
            return words.text("%(player)s: %(card)s, play goes clockwise now.", player=player,
                              card=card_name(words, REVERSE))
        return words.text("%(player)s: %(card)s, play goes anticlockwise now.", player=player,
                          card=card_name(words, REVERSE))
    if kind == PLAY:
        return words.text("%(player)s: %(card)s, pile worth %(value)d.", player=player,
                          card=card_name(words, argument), value=value)
    if kind == CHOOSE and to_you:
        return words.text("%(player)s: %(card)s, you play next.", player=player,
                          card=card_name(words, CHOOSE))
    if kind == CHOOSE:
        return words.text("%(player)s: %(card)s, %(next)s plays next.", player=player,
                          card=card_name(words, CHOOSE), next=chosen)
    if kind == SKIP:
        return words.text("%(player)s: skips with two %(card)s, new pile worth %(value)d.",
                          player=player, card=card_name(words, argument), value=value)
    if kind == EXTRA and argument:
        return words.plural("%(player)s: adds an overeating card, %(n)d overeating card in "
                            "the draw pile.", "%(player)s: adds an overeating card, %(n)d "
                            "overeating cards in the draw pile.",
                            value, player=player)
    if kind == EXTRA:
        return words.text("%(player)s: adds no overeating card.", player=player)
    raise ValueError(f"no sentence for the move {move!r}")


def ate_text(words: Catalog, player: str, turned: Sequence[int], *, shown: bool,
             own: bool = False) -> str:
    """An eat that did not overeat: how many cards first (and which, where
    ``shown``: the player's own, grouped and counted; ``own``: said to the
    player, of their eat).

    >>> ate_text(catalog("en"), "Ana", [5, 3, 5, 2, 5], shown=True)
    'Ana: eats 5 cards, no overeating: Food 2, Food 3, 3 Food 5.'
    """
    n = len(turned)
    if own and shown and turned:
        return words.plural("You: eat %(n)d card, no overeating: %(cards)s.",
                            "You: eat %(n)d cards, no overeating: %(cards)s.", n,
                            cards=grouped(words, turned))
    if own:
        return words.plural("You: eat %(n)d card, no overeating.",
                            "You: eat %(n)d cards, no overeating.", n)
    if shown and turned:
        return words.plural("%(player)s: eats %(n)d card, no overeating: %(cards)s.",
                            "%(player)s: eats %(n)d cards, no overeating: %(cards)s.", n,
                            player=player, cards=grouped(words, turned))
    return words.plural("%(player)s: eats %(n)d card, no overeating.",
                        "%(player)s: eats %(n)d cards, no overeating.", n, player=player)


def overate_text(words: Catalog, player: str, tokens: int, *, own: bool = False) -> str:
    """A player overate: their tokens now (``own``: said to the player, of
    their own eat).

    >>> overate_text(catalog("en"), "You", 3, own=True)
    'You: overeat, 3 tokens now.'
    """
    if own:
        return words.plural("You: overeat, %(n)d token now.", "You: overeat, %(n)d tokens now.",
                            tokens)
    return words.plural("%(player)s: overeats, %(n)d token now.",
                        "%(player)s: overeats, %(n)d tokens now.", tokens, player=player)


def drew_text(words: Catalog, player: str, drawn: Sequence[int] | int, *,
              own: bool = False) -> str:
    """A draw at the start of a turn (an empty hand draws three; a player
    with no food to start a pile draws until one comes): how many first,
    then the cards where known (your own), grouped and counted.

    >>> drew_text(catalog("en"), "Ben", 3), drew_text(catalog("en"), "You", [5, 9], own=True)
    ('Ben: draws 3 cards.', 'You: draw 2 cards: Food 5, Reverse direction.')
    >>> drew_text(catalog("en"), "Ana", [9, 2, 2, 9, 4])
    'Ana: draws 5 cards: 2 Food 2, Food 4, 2 Reverse direction.'
    >>> drew_text(catalog("cs"), "Vy", [5, 9], own=True)
    'Vy: dobíráte 2 karty: Jídlo 5, Změna směru hry.'
    """
    if own and isinstance(drawn, int):
        return words.plural("You: draw %(n)d card.", "You: draw %(n)d cards.", drawn)
    if own and not isinstance(drawn, int):
        return words.plural("You: draw %(n)d card: %(cards)s.",
                            "You: draw %(n)d cards: %(cards)s.", len(drawn),
                            cards=grouped(words, drawn))
    if isinstance(drawn, int):
        return words.plural("%(player)s: draws %(n)d card.", "%(player)s: draws %(n)d cards.",
                            drawn, player=player)
    return words.plural("%(player)s: draws %(n)d card: %(cards)s.",
                        "%(player)s: draws %(n)d cards: %(cards)s.", len(drawn),
                        player=player, cards=grouped(words, drawn))


def overeating_turned_text(words: Catalog, player: str, turned: int, *,
                           own: bool = False) -> str:
    """An eat that turned up an overeating card (``turned``: cards drawn)."""
    if own:
        return words.plural("You: eat %(n)d card, an overeating card.",
                            "You: eat %(n)d cards, an overeating card among them.", turned)
    return words.plural("%(player)s: eats %(n)d card, an overeating card.",
                        "%(player)s: eats %(n)d cards, an overeating card among them.",
                        turned, player=player)


def passed_text(words: Catalog, player: str) -> str:
    return words.text("%(player)s: no food and nothing left to draw; the next player starts.",
                      player=player)


def round_text(words: Catalog, round_: int, player: str) -> str:
    return words.text("Round %(round)d: %(player)s to start a pile, play goes clockwise.",
                      round=round_, player=player)


def final_text(words: Catalog, names: Sequence[str], tokens: Sequence[int],
               sizes: Sequence[int], won: Sequence[int]) -> list[str]:
    """The game's end: the winner first, then every player's tokens and
    cards in hand (the tie-break).

    >>> final_text(catalog("en"), ["Ana", "Ben", "Eva"], [1, 3, 1], [4, 2, 6], [2])
    ['Game over. Winner: Eva, fewest tokens, then most cards.', 'Ana: 1 token, 4 cards.', \
'Ben: 3 tokens, 2 cards.', 'Eva: 1 token, 6 cards.']
    """
    winners = ", ".join(names[seat] for seat in won)
    fewest = min(tokens)
    tied = sum(held == fewest for held in tokens) > 1
    if len(won) > 1:
        head = words.text("Game over. Shared win: %(players)s, fewest tokens and most cards.",
                          players=winners)
    elif tied:
        head = words.text("Game over. Winner: %(player)s, fewest tokens, then most cards.",
                          player=winners)
    else:
        head = words.text("Game over. Winner: %(player)s, fewest tokens.", player=winners)
    lines = [head]
    for name, held, size in zip(names, tokens, sizes, strict=True):
        lines.append(words.plural("%(player)s: %(n)d token, %(cards)s.",
                                  "%(player)s: %(n)d tokens, %(cards)s.", held, player=name,
                                  cards=cards_count(words, size)))
    return lines


# -- what the player asks for ------------------------------------------------------------------


def pile_text(words: Catalog, pile: Sequence[int], food: int, value: int,
              starter: str) -> str:
    """The serving pile: its value and food in play first, then its cards."""
    if not pile:
        return words.text("No pile yet: %(player)s to start one.", player=starter)
    return words.text("Pile worth %(value)d, food in play %(food)d: %(cards)s.", value=value,
                      food=food, cards=card_list(words, pile))


def risk_text(words: Catalog, risk: Fraction, *, value: int, draw: int, overeating: int,
              verbosity: Verbosity) -> str:
    """The chance of overeating when eating now, with the figures it comes from.

    >>> risk_text(catalog("en"), Fraction(67, 130), value=12, draw=40, overeating=2,
    ...           verbosity=Verbosity.NORMAL)
    'Eating now: 51.5% risk of overeating. It draws 12 of 40 cards, 2 of them overeating.'
    """
    said = words.text("Eating now: %(percent)s risk of overeating.",
                      percent=chance(words, risk))
    if verbosity is Verbosity.TERSE:
        return said
    figures = words.plural("It draws %(value)d of %(n)d card, %(overeating)d of them "
                           "overeating.", "It draws %(value)d of %(n)d cards, "
                           "%(overeating)d of them overeating.", draw, value=value,
                           overeating=overeating)
    return f"{said} {figures}"


def tokens_text(words: Catalog, names: Sequence[str], tokens: Sequence[int],
                sizes: Sequence[int]) -> list[str]:
    """Every player's tokens and cards in hand, a player a line; the one
    closest to losing first.

    >>> tokens_text(catalog("en"), ["Ana", "Ben"], [0, 2], [5, 3])
    ['Closest to losing: Ben, 2 tokens.', 'Ana: 0 tokens, 5 cards.', 'Ben: 2 tokens, 3 cards.']
    """
    most = max(tokens)
    lines = []
    if most:
        closest = ", ".join(name for name, held in zip(names, tokens, strict=True)
                            if held == most)
        lines.append(words.plural("Closest to losing: %(players)s, %(n)d token.",
                                  "Closest to losing: %(players)s, %(n)d tokens.", most,
                                  players=closest))
    for name, held, size in zip(names, tokens, sizes, strict=True):
        lines.append(words.plural("%(player)s: %(n)d token, %(cards)s.",
                                  "%(player)s: %(n)d tokens, %(cards)s.", held, player=name,
                                  cards=cards_count(words, size)))
    return lines


def where_text(words: Catalog, round_: int, player: str, direction: int, *, starting: bool,
               value: int, draw: int) -> str:
    """Where the game stands: the round, who plays, which way, the pile."""
    way = (words.text("clockwise") if direction > 0 else words.text("anticlockwise"))
    if starting:
        return words.plural("Round %(round)d, %(player)s to start a pile, %(way)s. Draw pile: "
                            "%(n)d card.", "Round %(round)d, %(player)s to start a pile, %(way)s. "
                            "Draw pile: %(n)d cards.", draw, round=round_, player=player, way=way)
    return words.plural("Round %(round)d, %(player)s to play, %(way)s, pile worth %(value)d. "
                        "Draw pile: %(n)d card.", "Round %(round)d, %(player)s to play, "
                        "%(way)s, pile worth %(value)d. Draw pile: %(n)d cards.", draw,
                        round=round_, player=player, way=way, value=value)


def grouped(words: Catalog, cards: Sequence[int]) -> str:
    """Cards grouped and counted, in the reference order: "2 Food 5, +1 food".

    >>> grouped(catalog("en"), [5, 3, 5, 8])
    'Food 3, 2 Food 5, +1 food'
    """
    parts = []
    for card in KINDS:
        count = list(cards).count(card)
        if count == 1:
            parts.append(card_name(words, card))
        elif count:
            parts.append(words.text("%(count)d %(card)s", count=count,
                                    card=card_name(words, card)))
    return ", ".join(parts)


def hand_text(words: Catalog, cards: Sequence[int]) -> str:
    """Your hand read back: how many cards, then each kind with its count."""
    if not cards:
        return words.text("Your hand is empty.")
    return words.plural("Your hand, %(n)d card: %(cards)s.",
                        "Your hand, %(n)d cards: %(cards)s.", len(cards),
                        cards=grouped(words, cards))


def move_name(words: Catalog, move: Move, names: Sequence[str]) -> str:
    """A move as the player could make it: "serve Food 5", "eat"."""
    kind, argument = move
    if kind == EAT:
        return words.text("eat")
    if kind == START:
        return words.text("start with %(card)s", card=card_name(words, argument))
    if kind == SERVE:
        return words.text("serve %(card)s", card=card_name(words, argument))
    if kind == CHOOSE:
        return words.text("%(card)s naming %(player)s", card=card_name(words, CHOOSE),
                          player=names[argument])
    if kind == SKIP:
        return words.text("skip with two %(card)s", card=card_name(words, argument))
    return card_name(words, argument)


def playable_text(words: Catalog, moves: Sequence[Move], names: Sequence[str]) -> str:
    """What the player could do now ("choose the next player" once, not a
    move per player)."""
    said: list[str] = []
    for move in moves:
        name = (card_name(words, CHOOSE) if move[0] == CHOOSE
                else move_name(words, move, names))
        if name not in said:
            said.append(name)
    return words.text("You could: %(moves)s.", moves=", ".join(said))


def hint_text(words: Catalog, move: Move, names: Sequence[str], *, risk: Fraction,
              leaves: int, target: str) -> str:
    """The advisor's move and its reason, in a sentence: "eat now: 12%% risk;
    serving would pass a pile of 18 to Ana", or what it plays instead."""
    kind = move[0]
    if kind == EAT and leaves:
        return words.text("Eat now: %(percent)s risk; not eating would pass a pile of "
                          "%(value)d to %(player)s.", percent=chance(words, risk),
                          value=leaves, player=target)
    if kind == EAT:
        return words.text("Eat now: %(percent)s risk.", percent=chance(words, risk))
    if kind == START:
        return words.text("Start with %(card)s: the highest food makes the biggest pile for "
                          "%(player)s.", card=card_name(words, move[1]), player=target)
    if kind == EXTRA:
        if move[1]:
            return words.text("Add one: you have the fewest tokens.")
        return words.text("Add none: more overeating cards would hurt you most.")
    return words.text("%(move)s: eating now is %(percent)s risk; the pile would reach "
                      "%(value)d for %(player)s.",
                      move=_capital(move_name(words, move, names)),
                      percent=chance(words, risk), value=leaves, player=target)


def _capital(phrase: str) -> str:
    return phrase[:1].upper() + phrase[1:]


def refusal_text(words: Catalog, refusal: Refusal, names: Sequence[str], *,
                 eat: str = "eat", drew: str = "drew") -> str:
    """Why a move or an entry cannot be: one sentence, with what to do
    (``eat`` and ``drew``: the game's words, in the catalog's language).

    >>> refusal_text(catalog("en"), Refusal("serve", {"food": 6}), [])
    'The food in play is 6: serve a 6, eat, play an action or skip with a pair.'
    >>> refusal_text(catalog("en"), Refusal("overeats", {"least": 1, "cards": 75, "free": 74,
    ...                                                  "shown": 0}), [])[-33:]
    'not overeating cards. Type eat x.'
    """
    p = refusal.params
    code = refusal.code
    if code == "overeats":
        why = words.plural(
            "At least %(n)d overeating card turns up: that eat draws %(cards)d cards, and only "
            "%(free)d in the draw pile are not overeating cards.",
            "At least %(n)d overeating cards turn up: that eat draws %(cards)d cards, and "
            "only %(free)d in the draw pile are not overeating cards.", p["least"],
            cards=p["cards"], free=p["free"])
        if p["shown"]:
            todo = words.text("Enter the cards again, with x for each overeating card.")
        else:
            todo = words.text("Type %(typed)s.", typed=" ".join([eat] + ["x"] * p["least"]))
        return f"{why} {todo}"
    if code == "draw-overeats":
        why = words.plural(
            "An overeating card turns up by card %(card)d drawn: only %(n)d card of the draw "
            "pile is not an overeating card.",
            "An overeating card turns up by card %(card)d drawn: only %(n)d cards of the draw "
            "pile are not overeating cards.", p["free"], card=p["card"])
        if p["shown"]:
            todo = words.text("Enter the cards again, up to the x.")
        elif p["empty"]:
            todo = words.text("Choose where the overeating card came, card %(card)d at the "
                              "latest.", card=p["card"])
        else:
            todo = words.text("Type %(drew)s %(card)d x, or a smaller number with x.",
                              drew=drew, card=p["card"])
        return f"{why} {todo}"
    if code == "until":
        return words.text("Draw until the first food card (or an overeating card): it is the "
                          "last card entered.")
    if code == "draw":
        return words.text("%(player)s draws only with an empty hand, or with no food to start a "
                          "pile: enter a move.", player=names[p["seat"]])
    if code == "empty":
        return words.text("%(player)s's hand is empty: three cards are drawn first, then the "
                          "move.", player=names[p["seat"]])
    if code == "discard":
        return words.text("From card %(card)d on, the cards drawn are the discard pile's, "
                          "shuffled, and it holds too few of %(name)s: enter the cards again.",
                          card=p["card"], name=card_name(words, p["name"]))
    if code == "supply":
        return words.plural(
            "%(card)s: the deck has only %(n)d, already in sight in your hand and on the "
            "piles: check the card.",
            "%(card)s: the deck has only %(n)d, all already in sight in your hand and on the "
            "piles: check the card.", p["most"], card=card_name(words, p["card"]))
    if code == "serve":
        return words.text("The food in play is %(food)d: serve a %(food)d, eat, play an action "
                          "or skip with a pair.", food=p["food"])
    if code == "card":
        card = p.get("card", 0)
        if card in CARDS:
            return words.text("Not in your hand: %(card)s. Type hand to hear it.",
                              card=card_name(words, card))
        return words.text("That is not a card of this game.")
    if code == "start":
        if "card" in p and p["card"] in CARDS:
            return words.text("A pile starts with a food card, 2 to 7, not %(card)s.",
                              card=card_name(words, p["card"]))
        return words.text("A pile is started first, with a food card, 2 to 7.")
    if code == "pair":
        return words.text("Skipping the food takes two of the same food card, not %(card)s.",
                          card=card_name(words, p["card"]) if p.get("card") in CARDS
                          else str(p.get("card")))
    if code == "choose":
        return words.text("Choose another player to play next.")
    if code == "full":
        return words.plural("The draw pile already has %(n)d overeating card: none more.",
                            "The draw pile already has %(n)d overeating cards: none more.",
                            p["most"])
    if code == "over":
        return words.text("The game is over.")
    if code == "players":
        return words.text("Mici Maki is for %(fewest)d to %(most)d players, not %(players)d.",
                          fewest=p["fewest"], most=p["most"], players=p["players"])
    if code == "deal":
        return words.plural("A deck of %(n)d card cannot deal that.",
                            "A deck of %(n)d cards cannot deal that.", p["cards"])
    if code == "deck":
        return words.text("That deck cannot be played: check the counts of action cards.")
    if code == "turn":
        return words.text("Not that player's turn: %(player)s plays now.", player=names[p["seat"]]
                          if 0 <= p["seat"] < len(names) else str(p["seat"]))
    if code == "cards":
        return words.plural("%(player)s: only %(n)d card in hand.",
                            "%(player)s: only %(n)d cards in hand.", p["cards"],
                            player=names[p["seat"]])
    if code == "count":
        return words.plural("That turns up %(n)d card: enter exactly that many.",
                            "That turns up %(n)d cards: enter exactly that many.", p["cards"])
    if code == "overeating":
        return words.plural("Only %(n)d overeating card can turn up there.",
                            "Only %(n)d overeating cards can turn up there.", p["overeating"])
    if code == "hand":
        return words.plural("Enter %(n)d card: as many as you hold.",
                            "Enter %(n)d cards: as many as you hold.", p["cards"])
    if code == "yours":
        return words.text("Enter the cards you drew, not how many.")
    return words.text("That move is not possible now.")
