"""A plain simulator of Mici Maki's full rules, written as anyone would at
first (hands as lists of card names, the legal moves listed afresh each
turn, no care for speed), uniform over the legal moves: the yardstick of
``companion bench engine --game mici-maki``. The engine
(:mod:`companion.games.micimaki.rules`) must play random games at least as
fast as this does.

Same rulings as the engine: one token per eat; an empty hand draws three
first; a player who must start a pile with no food draws until one comes;
drawing stops when both piles are empty; the overeater adds one more
overeating card half the time (a uniform choice), up to six; three tokens
end the game.

>>> import random
>>> result = plain_game(4, random.Random(2))
>>> max(result["tokens"]), result["turns"] > 0
(3, True)
"""

from __future__ import annotations

import random


def _deck() -> list[str]:
    deck = []
    for value in range(2, 8):
        deck += [str(value)] * 12
    return deck + ["plus"] * 7 + ["reverse"] * 5 + ["choose"] * 5


def plain_game(players: int, rng: random.Random) -> dict[str, object]:  # noqa: PLR0915
    """One random game; its tokens, rounds and turns. (One long function on
    purpose: the yardstick is the plain way to write it.)"""
    deck = _deck()
    rng.shuffle(deck)
    hands: list[list[str]] = [[deck.pop() for _ in range(5)] for _ in range(players)]
    draw = deck
    draw.insert(rng.randint(0, len(draw)), "overeating")
    overeating_cards = 1
    discard: list[str] = []
    pile: list[str] = []
    turned: list[str] = []
    tokens = [0] * players
    turn, direction, rounds, turns = 0, 1, 1, 0
    starting = True

    def take() -> str | None:
        nonlocal draw, discard
        if not draw:
            if not discard:
                return None
            draw, discard = discard, []
            rng.shuffle(draw)
        return draw.pop()

    def food_in_play() -> int:
        for card in reversed(pile):
            if card.isdigit():
                return int(card)
        return 0

    def value_of_pile() -> int:
        return sum(int(c) for c in pile if c.isdigit()) + pile.count("plus")

    while True:
        hand = hands[turn]
        overate = False
        if not hand:
            for _ in range(3):
                card = take()
                if card is None:
                    break
                if card == "overeating":
                    turned.append(card)
                    overate = True
                    break
                hand.append(card)
        if not overate and starting and not any(c.isdigit() for c in hand):
            while True:
                card = take()
                if card is None:
                    break
                if card == "overeating":
                    turned.append(card)
                    overate = True
                    break
                hand.append(card)
                if card.isdigit():
                    break
            if not overate and not any(c.isdigit() for c in hand):
                turn = (turn + direction) % players
                continue
        if not overate:
            turns += 1
            if starting:
                moves = [("start", c) for c in hand if c.isdigit()]
            else:
                food = food_in_play()
                moves = [("eat", "")]
                moves += [("serve", c) for c in hand if c == str(food)]
                moves += [("action", c) for c in hand if c in ("plus", "reverse")]
                moves += [("choose", str(s)) for c in hand if c == "choose"
                          for s in range(players) if s != turn]
                moves += [("skip", c) for c in set(hand) if c.isdigit() and hand.count(c) >= 2]
            kind, card = moves[rng.randrange(len(moves))]
            if kind == "start":
                hand.remove(card)
                pile.append(card)
                starting = False
                turn = (turn + direction) % players
            elif kind in ("serve", "action"):
                hand.remove(card)
                pile.append(card)
                if card == "reverse":
                    direction = -direction
                turn = (turn + direction) % players
            elif kind == "choose":
                hand.remove("choose")
                pile.append("choose")
                turn = int(card)
            elif kind == "skip":
                hand.remove(card)
                hand.remove(card)
                discard += [*pile, card]
                pile = [card]
                turn = (turn + direction) % players
            else:
                for _ in range(value_of_pile()):
                    drawn = take()
                    if drawn is None:
                        break
                    if drawn == "overeating":
                        turned.append(drawn)
                        overate = True
                    else:
                        hand.append(drawn)
                if not overate:
                    discard += pile
                    pile = []
                    starting = True
        if overate:
            tokens[turn] += 1
            if tokens[turn] == 3:
                return {"tokens": tokens, "rounds": rounds, "turns": turns,
                        "hands": [len(h) for h in hands]}
            draw += discard + pile + turned
            discard, pile, turned = [], [], []
            if overeating_cards < 6 and rng.random() < 0.5:
                draw.append("overeating")
                overeating_cards += 1
            rng.shuffle(draw)
            direction, starting = 1, True
            rounds += 1
