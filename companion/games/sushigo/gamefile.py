"""A game written down as data: the input of ``companion score``.

The format is plain JSON (already decoded when it reaches this module)::

    {"players": ["Ana", "Ben", "Cyril"],
     "rounds": [{"Ana": ["wasabi", "squid", "maki2"], "Ben": ["pudding"], "Cyril": []}],
     "variant": {"soy_sauce": false},
     "dummy": null}

``rounds`` holds one to three rounds, each mapping every player to the cards
on their table at the end of the round, in the order they were played. Cards
are canonical ids or anything :func:`~companion.games.sushigo.tactile.parse` reads.
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

import enum
import json
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.games.sushigo.cards import (
    DEFAULT_SOY_SAUCE_COUNT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROUNDS,
    Card,
    deck_counts,
    hand_size,
)
from companion.games.sushigo.scoring import GameScore, score_game
from companion.games.sushigo.tactile import UnknownCodeError, parse
from companion.shown import shown

_VARIANT_KEYS = frozenset({"soy_sauce", "soy_sauce_count", "pass_both_ways"})


class Flaw(enum.Enum):
    """What is wrong with a game file (the app words each in every language)."""

    NOT_TEXT = "not-text"
    BAD_JSON = "bad-json"
    TOO_DEEP = "too-deep"
    DUPLICATE_KEY = "duplicate-key"
    NOT_AN_OBJECT = "not-an-object"
    PLAYERS_NOT_LIST = "players-not-list"
    SEAT_COUNT = "seat-count"
    EMPTY_NAME = "empty-name"
    DUPLICATE_PLAYER = "duplicate-player"
    BAD_NAME = "bad-name"
    LONG_NUMBER = "long-number"
    VARIANT_NOT_OBJECT = "variant-not-object"
    UNKNOWN_VARIANT = "unknown-variant"
    VARIANT_NOT_BOOL = "variant-not-bool"
    BAD_SOY_COUNT = "bad-soy-count"
    BAD_DUMMY = "bad-dummy"
    DUMMY_SEATS = "dummy-seats"
    ROUNDS_NOT_LIST = "rounds-not-list"
    TOO_MANY_ROUNDS = "too-many-rounds"
    ROUND_NOT_OBJECT = "round-not-object"
    PLAYER_TWICE_IN_ROUND = "player-twice-in-round"
    UNKNOWN_PLAYER = "unknown-player"
    MISSING_PLAYER = "missing-player"
    CARDS_NOT_LIST = "cards-not-list"
    TOO_MANY_CARDS = "too-many-cards"
    UNKNOWN_CARD = "unknown-card"
    TOO_MANY_COPIES = "too-many-copies"
    SOY_WITHOUT_VARIANT = "soy-without-variant"
    OTHER = "other"


_ENGLISH: dict[Flaw, str] = {
    Flaw.NOT_TEXT: "the file is not UTF-8 text",
    Flaw.BAD_JSON: "not valid JSON at line {line}, column {column}: {message}",
    Flaw.TOO_DEEP: "the JSON is nested too deeply to be a game",
    Flaw.DUPLICATE_KEY: "{key!r} is written twice in one object",
    Flaw.NOT_AN_OBJECT: "the game must be a JSON object with players and rounds",
    Flaw.PLAYERS_NOT_LIST: "'players' must be a list of player names",
    Flaw.SEAT_COUNT: "Sushi Go! is for 2 to 5 seats, this file has {count}",
    Flaw.EMPTY_NAME: "a player's name is empty",
    Flaw.DUPLICATE_PLAYER: "two players have the same name",
    Flaw.BAD_NAME: "a player's name has at most {most} characters and no control characters",
    Flaw.LONG_NUMBER: "a number in the file has too many digits to be part of a game",
    Flaw.VARIANT_NOT_OBJECT: "'variant' must be an object such as {{\"soy_sauce\": true}}",
    Flaw.UNKNOWN_VARIANT: "unknown variant {key!r}; known: {known}",
    Flaw.VARIANT_NOT_BOOL: "variant.{key} must be true or false",
    Flaw.BAD_SOY_COUNT: "variant.soy_sauce_count must be a whole number, 1 or more",
    Flaw.BAD_DUMMY: "'dummy' must name one of the players, not {value}",
    Flaw.DUMMY_SEATS: "the two-player dummy variant has 3 seats: the 2 players and the dummy",
    Flaw.ROUNDS_NOT_LIST: "'rounds' must be a list of 1 to 3 rounds",
    Flaw.TOO_MANY_ROUNDS: "a game has 3 rounds, this file has {count}",
    Flaw.ROUND_NOT_OBJECT: "a round must map every player to a list of cards",
    Flaw.PLAYER_TWICE_IN_ROUND: "this player is listed twice in the round",
    Flaw.UNKNOWN_PLAYER: "this player is not in 'players'",
    Flaw.MISSING_PLAYER: "this player is missing from the round",
    Flaw.CARDS_NOT_LIST: "cards must be a list of card codes or names",
    Flaw.TOO_MANY_CARDS: "{count} cards, but with {seats} seats a hand is {hand} cards",
    Flaw.UNKNOWN_CARD: "unknown card: {detail}",
    Flaw.TOO_MANY_COPIES: "{card_id} number {count} in this game, but the deck has only {limit}",
    Flaw.SOY_WITHOUT_VARIANT: (
        "soy sauce is only in the soy sauce variant: set variant.soy_sauce to true"
    ),
}


class GameFileError(ValueError):
    """A game file that cannot be scored, and where the fault is.

    ``round`` is 1-based; ``player`` and ``card`` are as written in the file.
    ``problem`` and ``params`` say what is wrong, for the app to put in the
    player's language; ``refusal`` is the card reader's answer for an
    unknown card. ``reason`` and ``str()`` say it in English.
    """

    def __init__(
        self,
        reason: str,
        *,
        round: int | None = None,
        player: str | None = None,
        card: str | None = None,
        problem: Flaw = Flaw.OTHER,
        params: Mapping[str, object] | None = None,
        refusal: UnknownCodeError | None = None,
    ) -> None:
        self.reason = reason
        self.round = round
        self.player = player
        self.card = card
        self.problem = problem
        self.params: Mapping[str, object] = dict(params or {})
        self.refusal = refusal
        where = []
        if round is not None:
            where.append(f"round {round}")
        if player is not None:
            where.append(f"player {player!r}")
        if card is not None:
            where.append(f"card {card!r}")
        super().__init__(f"{', '.join(where)}: {reason}" if where else reason)


#: The longest player's name, in characters.
NAME_LIMIT = 40


def _fail(
    problem: Flaw,
    *,
    round: int | None = None,
    player: str | None = None,
    card: str | None = None,
    refusal: UnknownCodeError | None = None,
    **params: object,
) -> GameFileError:
    reason = _ENGLISH[problem].format(**params)
    return GameFileError(
        reason, round=round, player=player, card=card,
        problem=problem, params=params, refusal=refusal,
    )


class _Object(dict[str, object]):
    """A decoded JSON object that remembers keys written more than once."""

    def __init__(self, pairs: list[tuple[str, object]]) -> None:
        super().__init__(pairs)
        counts = Counter(key for key, _ in pairs)
        self.repeated = [key for key, n in counts.items() if n > 1]


def _no_repeats(data: object) -> None:
    if isinstance(data, _Object) and data.repeated:
        raise _fail(Flaw.DUPLICATE_KEY, key=data.repeated[0])


def load_game(text: str) -> Game:
    """Read a game from JSON text (a leading byte order mark is allowed)."""
    try:
        data = json.loads(text.removeprefix("\ufeff"), object_pairs_hook=_Object)
    except json.JSONDecodeError as error:
        raise _fail(
            Flaw.BAD_JSON, line=error.lineno, column=error.colno, message=error.msg
        ) from None
    except RecursionError:
        raise _fail(Flaw.TOO_DEEP) from None
    except ValueError:  # an integer of thousands of digits
        raise _fail(Flaw.LONG_NUMBER) from None
    return read_game(data)


def load_game_bytes(raw: bytes) -> Game:
    """Read a game from the bytes of a JSON file."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _fail(Flaw.NOT_TEXT) from None
    return load_game(text)


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
        raise _fail(Flaw.NOT_AN_OBJECT)
    _no_repeats(data)
    players = _players(data.get("players"))
    soy_sauce = _variant(data.get("variant"))
    dummy = _dummy(data.get("dummy"), players)
    raw_rounds = data.get("rounds")
    if not isinstance(raw_rounds, list) or not raw_rounds:
        raise _fail(Flaw.ROUNDS_NOT_LIST)
    if len(raw_rounds) > ROUNDS:
        raise _fail(Flaw.TOO_MANY_ROUNDS, count=len(raw_rounds))
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
                    if card is Card.SOY_SAUCE and not soy_sauce:
                        raise _fail(
                            Flaw.SOY_WITHOUT_VARIANT, round=number, player=player, card=written
                        )
                    raise _fail(
                        Flaw.TOO_MANY_COPIES, round=number, player=player, card=written,
                        card_id=card.id, count=used[card], limit=limits[card],
                    )
        rounds.append(tuple(tuple(card for _, card in t) for t in tableaux))
    return Game(tuple(players), tuple(rounds), soy_sauce, dummy)


def _players(raw: object) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw):
        raise _fail(Flaw.PLAYERS_NOT_LIST)
    names: list[str] = raw
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise _fail(Flaw.SEAT_COUNT, count=len(names))
    for name in names:
        if not name.strip():
            raise _fail(Flaw.EMPTY_NAME)
        if len(name) > NAME_LIMIT or any(
                unicodedata.category(char) in {"Cc", "Cf", "Cs", "Co"} for char in name):
            raise _fail(Flaw.BAD_NAME, player=shown(name), most=NAME_LIMIT)
        if names.count(name) > 1:
            raise _fail(Flaw.DUPLICATE_PLAYER, player=name)
    return names


def _variant(raw: object) -> int:
    """The number of soy sauce cards in the deck (0 without the variant)."""
    if raw is None:
        return 0
    if not isinstance(raw, Mapping):
        raise _fail(Flaw.VARIANT_NOT_OBJECT)
    _no_repeats(raw)
    unknown = sorted(set(raw) - _VARIANT_KEYS)
    if unknown:
        raise _fail(Flaw.UNKNOWN_VARIANT, key=unknown[0], known=", ".join(sorted(_VARIANT_KEYS)))
    for key in ("soy_sauce", "pass_both_ways"):
        if not isinstance(raw.get(key, False), bool):
            raise _fail(Flaw.VARIANT_NOT_BOOL, key=key)
    count = raw.get("soy_sauce_count", DEFAULT_SOY_SAUCE_COUNT)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise _fail(Flaw.BAD_SOY_COUNT)
    return count if raw.get("soy_sauce", False) else 0


def _dummy(raw: object, players: Sequence[str]) -> int | None:
    if raw is None:
        return None
    if not isinstance(raw, str) or raw not in players:
        raise _fail(Flaw.BAD_DUMMY, value=json.dumps(raw, ensure_ascii=False))
    if len(players) != 3:
        raise _fail(Flaw.DUMMY_SEATS, player=raw)
    return players.index(raw)


def _round(
    number: int, raw: object, players: Sequence[str], per_hand: int
) -> list[list[tuple[str, Card]]]:
    if not isinstance(raw, Mapping):
        raise _fail(Flaw.ROUND_NOT_OBJECT, round=number)
    if isinstance(raw, _Object) and raw.repeated:
        raise _fail(Flaw.PLAYER_TWICE_IN_ROUND, round=number, player=raw.repeated[0])
    for name in raw:
        if name not in players:
            raise _fail(Flaw.UNKNOWN_PLAYER, round=number, player=name)
    tableaux = []
    for player in players:
        if player not in raw:
            raise _fail(Flaw.MISSING_PLAYER, round=number, player=player)
        written = raw[player]
        if not isinstance(written, list) or not all(isinstance(c, str) for c in written):
            raise _fail(Flaw.CARDS_NOT_LIST, round=number, player=player)
        if len(written) > per_hand:
            raise _fail(
                Flaw.TOO_MANY_CARDS, round=number, player=player,
                count=len(written), seats=len(players), hand=per_hand,
            )
        tableau = []
        for text in written:
            try:
                tableau.append((text, parse(text)))
            except UnknownCodeError as error:
                raise _fail(
                    Flaw.UNKNOWN_CARD, round=number, player=player, card=text,
                    refusal=error, detail=error.detail,
                ) from None
        tableaux.append(tableau)
    return tableaux

