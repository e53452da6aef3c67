"""A game written down as data: the input of ``companion score``.

The format is plain JSON (already decoded when it reaches this module)::

    {"players": ["Ana", "Ben", "Cyril"],
     "rounds": [{"Ana": ["wasabi", "squid", "maki2"], "Ben": ["pudding"], "Cyril": []}],
     "variant": {"soy_sauce": false},
     "dummy": null}

``rounds`` holds one to three rounds, each mapping every player to the cards
on their table at the end of the round, in the order they were played. Cards
are canonical ids or anything :func:`~companion.sushigo.tactile.parse` reads.
``variant`` may set ``soy_sauce`` (bool) and ``soy_sauce_count`` (cards added,
default 3); ``pass_both_ways`` is accepted and changes no score. ``dummy``
names the seat that is the two-player dummy. Other top-level keys are left
for other tools and ignored.

Anything wrong raises :class:`GameFileError`, which names the round, player
and card at fault.

>>> game = read_game({"players": ["Ana", "Ben"], "rounds": [{"Ana": ["w2"], "Ben": []}]})
>>> game.rounds[0][0]
(Card.SALMON,)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.sushigo.cards import (
    DEFAULT_SOY_SAUCE_COUNT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROUNDS,
    Card,
    deck_counts,
    hand_size,
)
from companion.sushigo.scoring import GameScore, score_game
from companion.sushigo.tactile import UnknownCodeError, parse

_VARIANT_KEYS = frozenset({"soy_sauce", "soy_sauce_count", "pass_both_ways"})


class GameFileError(ValueError):
    """A game file that cannot be scored, and where the fault is.

    ``round`` is 1-based; ``player`` and ``card`` are as written in the file.
    """

    def __init__(
        self,
        reason: str,
        *,
        round: int | None = None,
        player: str | None = None,
        card: str | None = None,
    ) -> None:
        self.reason = reason
        self.round = round
        self.player = player
        self.card = card
        where = []
        if round is not None:
            where.append(f"round {round}")
        if player is not None:
            where.append(f"player {player!r}")
        if card is not None:
            where.append(f"card {card!r}")
        super().__init__(f"{', '.join(where)}: {reason}" if where else reason)


@dataclass(frozen=True, slots=True)
class Game:
    """A validated game: seats in table order and their tableaux per round."""

    players: tuple[str, ...]
    rounds: tuple[tuple[tuple[Card, ...], ...], ...]
    soy_sauce: int = 0
    dummy: int | None = None

    def score(self) -> GameScore:
        return score_game(self.rounds, dummy=self.dummy)


def read_game(data: object) -> Game:
    """Validate decoded JSON and return the :class:`Game` it describes."""
    if not isinstance(data, Mapping):
        raise GameFileError("the game must be a JSON object with players and rounds")
    players = _players(data.get("players"))
    soy_sauce = _variant(data.get("variant"))
    dummy = _dummy(data.get("dummy"), players)
    raw_rounds = data.get("rounds")
    if not isinstance(raw_rounds, list) or not raw_rounds:
        raise GameFileError(f"'rounds' must be a list of 1 to {ROUNDS} rounds")
    if len(raw_rounds) > ROUNDS:
        raise GameFileError(f"a game has {ROUNDS} rounds, this file has {len(raw_rounds)}")
    limits = deck_counts(soy_sauce)
    per_hand = hand_size(len(players))
    used: Counter[Card] = Counter()
    rounds = []
    for number, raw in enumerate(raw_rounds, start=1):
        tableaux = _round(number, raw, players, per_hand)
        for player, tableau in zip(players, tableaux, strict=True):
            for written, card in tableau:
                used[card] += 1
                if used[card] > limits.get(card, 0):
                    raise GameFileError(
                        _too_many(card, used[card], limits.get(card, 0)),
                        round=number, player=player, card=written,
                    )
        rounds.append(tuple(tuple(card for _, card in t) for t in tableaux))
    return Game(tuple(players), tuple(rounds), soy_sauce, dummy)


def _too_many(card: Card, count: int, limit: int) -> str:
    if card is Card.SOY_SAUCE and limit == 0:
        return "soy sauce is only in the soy sauce variant: set variant.soy_sauce to true"
    return f"{card.id} number {count} in this game, but the deck has only {limit}"


def _players(raw: object) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw):
        raise GameFileError("'players' must be a list of player names")
    names: list[str] = raw
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise GameFileError(
            f"Sushi Go! is for {MIN_PLAYERS} to {MAX_PLAYERS} seats, this file has {len(names)}"
        )
    for name in names:
        if not name.strip():
            raise GameFileError("a player's name is empty")
        if names.count(name) > 1:
            raise GameFileError("two players have the same name", player=name)
    return names


def _variant(raw: object) -> int:
    """The number of soy sauce cards in the deck (0 without the variant)."""
    if raw is None:
        return 0
    if not isinstance(raw, Mapping):
        raise GameFileError("'variant' must be an object such as {\"soy_sauce\": true}")
    unknown = sorted(set(raw) - _VARIANT_KEYS)
    if unknown:
        raise GameFileError(
            f"unknown variant {unknown[0]!r}; known: {', '.join(sorted(_VARIANT_KEYS))}"
        )
    for key in ("soy_sauce", "pass_both_ways"):
        if not isinstance(raw.get(key, False), bool):
            raise GameFileError(f"variant.{key} must be true or false")
    count = raw.get("soy_sauce_count", DEFAULT_SOY_SAUCE_COUNT)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise GameFileError("variant.soy_sauce_count must be a whole number, 1 or more")
    return count if raw.get("soy_sauce", False) else 0


def _dummy(raw: object, players: Sequence[str]) -> int | None:
    if raw is None:
        return None
    if not isinstance(raw, str) or raw not in players:
        raise GameFileError(f"'dummy' must name one of the players, not {raw!r}")
    if len(players) != 3:
        raise GameFileError(
            "the two-player dummy variant has 3 seats: the 2 players and the dummy",
            player=raw,
        )
    return players.index(raw)


def _round(
    number: int, raw: object, players: Sequence[str], per_hand: int
) -> list[list[tuple[str, Card]]]:
    if not isinstance(raw, Mapping):
        raise GameFileError("a round must map every player to a list of cards", round=number)
    for name in raw:
        if name not in players:
            raise GameFileError("this player is not in 'players'", round=number, player=name)
    tableaux = []
    for player in players:
        if player not in raw:
            raise GameFileError("this player is missing from the round",
                                round=number, player=player)
        written = raw[player]
        if not isinstance(written, list) or not all(isinstance(c, str) for c in written):
            raise GameFileError("cards must be a list of card codes or names",
                                round=number, player=player)
        if len(written) > per_hand:
            raise GameFileError(
                f"{len(written)} cards, but a hand with {len(players)} seats is {per_hand}",
                round=number, player=player,
            )
        tableau = []
        for text in written:
            try:
                tableau.append((text, parse(text)))
            except UnknownCodeError as error:
                raise GameFileError(
                    f"unknown card: {error.detail}", round=number, player=player, card=text
                ) from None
        tableaux.append(tableau)
    return tableaux

