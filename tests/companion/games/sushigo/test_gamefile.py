"""Reading a game written as JSON (already decoded) and refusing bad ones."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.sushigo.cards import Card
from companion.games.sushigo.gamefile import Game, GameFileError, read_game

EXAMPLE: dict[str, Any] = {
    "players": ["Ana", "Ben", "Cyril"],
    "rounds": [{"Ana": ["wasabi", "squid", "maki2"], "Ben": ["pudding"], "Cyril": []}],
    "variant": {"soy_sauce": False},
    "dummy": None,
}


def game(rounds: list[Any], players: list[str] | None = None,
         **extra: Any) -> dict[str, Any]:
    return {"players": players or ["Ana", "Ben"], "rounds": rounds, **extra}


def refusal(data: object) -> GameFileError:
    with pytest.raises(GameFileError) as caught:
        read_game(data)
    return caught.value


# -- good files ---------------------------------------------------------------


def test_the_issue_example() -> None:
    read = read_game(EXAMPLE)
    assert read == Game(
        players=("Ana", "Ben", "Cyril"),
        rounds=(((Card.WASABI, Card.SQUID, Card.MAKI2), (Card.PUDDING,), ()),),
        soy_sauce=0,
        dummy=None,
    )
    score = read.score()
    assert score.totals == (15, 0, 0)
    assert score.winners == (0,)
    assert score.pudding is None


def test_cards_may_be_typed_codes_names_and_sticker_words() -> None:
    read = read_game(
        game([{"Ana": ["t", "W3", "o2", "Fenêtre bas", "ПЕЛЬМЕНИ", "ц2"], "Ben": ["knedlíček"]}])
    )
    assert read.rounds[0] == (
        (Card.WASABI, Card.SQUID, Card.MAKI2, Card.SQUID, Card.DUMPLING, Card.SALMON),
        (Card.DUMPLING,),
    )


def test_players_are_in_table_order_not_round_order() -> None:
    read = read_game(game([{"Ben": ["squid"], "Ana": ["egg"]}]))
    assert read.players == ("Ana", "Ben")
    assert read.rounds[0] == ((Card.EGG,), (Card.SQUID,))


def test_three_rounds() -> None:
    rounds = [{"Ana": ["pudding"], "Ben": []}] * 3
    read = read_game(game(rounds))
    assert len(read.rounds) == 3
    score = read.score()
    assert score.pudding is not None
    assert score.totals == (6, 0)


def test_soy_sauce_variant() -> None:
    read = read_game(game([{"Ana": ["soy-sauce", "d", "soy sauce"], "Ben": []}],
                          variant={"soy_sauce": True}))
    assert read.soy_sauce == 3
    assert read.rounds[0][0] == (Card.SOY_SAUCE,) * 3
    read = read_game(game([{"Ana": ["d"] * 5, "Ben": []}],
                          variant={"soy_sauce": True, "soy_sauce_count": 5}))
    assert read.soy_sauce == 5


def test_variant_without_soy_sauce() -> None:
    assert read_game(game([{"Ana": [], "Ben": []}], variant={"soy_sauce": False})).soy_sauce == 0
    assert read_game(game([{"Ana": [], "Ben": []}], variant={})).soy_sauce == 0
    assert read_game(game([{"Ana": [], "Ben": []}], variant=None)).soy_sauce == 0
    # the count alone does not switch the variant on
    assert read_game(
        game([{"Ana": [], "Ben": []}], variant={"soy_sauce_count": 4})
    ).soy_sauce == 0


def test_pass_both_ways_is_accepted() -> None:
    read = read_game(game([{"Ana": ["x", "x"], "Ben": []}], variant={"pass_both_ways": True}))
    assert read.score().totals == (5, 0)


def test_dummy() -> None:
    data = game([{"Ana": ["squid"], "Ben": ["egg"], "Dummy": ["wasabi", "squid"]}],
                players=["Ana", "Ben", "Dummy"], dummy="Dummy")
    read = read_game(data)
    assert read.dummy == 2
    score = read.score()
    assert score.totals == (3, 1, 9)
    assert score.winners == (0,)


def test_other_top_level_keys_are_ignored() -> None:
    read = read_game({**EXAMPLE, "title": "Friday", "notes": [1, 2]})
    assert read.players == ("Ana", "Ben", "Cyril")


def test_a_full_hand_is_accepted() -> None:
    # 2 players: 10 cards; 5 players: 7 cards
    read_game(game([{"Ana": ["x"] * 10, "Ben": []}]))
    five = ["A", "B", "C", "D", "E"]
    read_game(game([{name: ["q"] * 2 + ["s"] * 2 + ["o2"] * 2 + ["w2"] for name in five}],
                   players=five))


def test_every_copy_in_the_deck_may_be_used() -> None:
    # 6 wasabi, 4 chopsticks, 10 puddings over three rounds
    rounds = [
        {"Ana": ["t"] * 3 + ["p"] * 2 + ["f"] * 4, "Ben": ["t"] * 3 + ["p"] * 2},
        {"Ana": ["f"] * 3, "Ben": ["f"]},
        {"Ana": ["f"], "Ben": ["f"]},
    ]
    score = read_game(game(rounds)).score()
    assert score.puddings == (8, 2)


# -- refusals -------------------------------------------------------------------


@pytest.mark.parametrize("data", [[], "game", 3, None, [EXAMPLE]])
def test_not_an_object(data: object) -> None:
    error = refusal(data)
    assert (error.round, error.player, error.card) == (None, None, None)


@pytest.mark.parametrize(
    "players",
    [None, "Ana", ["Ana", 3], [], ["Ana"], ["A", "B", "C", "D", "E", "F"]],
)
def test_bad_players(players: object) -> None:
    refusal({"players": players, "rounds": [{}]})


def test_seat_count_is_in_the_message() -> None:
    assert "6" in str(refusal(game([{}], players=["A", "B", "C", "D", "E", "F"])))
    assert "1" in str(refusal(game([{"A": []}], players=["A"])))


def test_duplicate_player_names() -> None:
    error = refusal(game([{"Ana": []}], players=["Ana", "Ana"]))
    assert error.player == "Ana"
    assert "Ana" in str(error)


def test_empty_player_name() -> None:
    refusal(game([{"Ana": [], "": []}], players=["Ana", ""]))
    refusal(game([{"Ana": [], " ": []}], players=["Ana", " "]))


@pytest.mark.parametrize("rounds", [None, [], {}, "round 1"])
def test_bad_rounds(rounds: object) -> None:
    refusal({"players": ["Ana", "Ben"], "rounds": rounds})


def test_more_than_three_rounds() -> None:
    error = refusal(game([{"Ana": [], "Ben": []}] * 4))
    assert "4" in str(error)


def test_a_round_that_is_not_an_object() -> None:
    error = refusal(game([{"Ana": [], "Ben": []}, ["Ana"]]))
    assert error.round == 2


def test_player_missing_from_a_round() -> None:
    error = refusal(game([{"Ana": [], "Ben": []}, {"Ana": ["x"]}]))
    assert (error.round, error.player, error.card) == (2, "Ben", None)
    assert str(error).startswith("round 2, player 'Ben': ")


def test_unknown_player_in_a_round() -> None:
    error = refusal(game([{"Ana": [], "Ben": [], "Bob": ["x"]}]))
    assert (error.round, error.player) == (1, "Bob")
    assert "round 1" in str(error)
    assert "'Bob'" in str(error)


@pytest.mark.parametrize("cards", [None, "x", [1], ["x", None], {"x": 1}])
def test_cards_must_be_a_list_of_strings(cards: object) -> None:
    error = refusal(game([{"Ana": cards, "Ben": []}]))
    assert (error.round, error.player) == (1, "Ana")


def test_unknown_card() -> None:
    error = refusal(game([{"Ana": ["x"], "Ben": []}, {"Ana": [], "Ben": ["t", "w4"]}]))
    assert (error.round, error.player, error.card) == (2, "Ben", "w4")
    message = str(error)
    assert message.startswith("round 2, player 'Ben', card 'w4': ")
    # and the closest valid codes
    assert "w1" in message
    assert "w2" in message
    assert "w3" in message


@pytest.mark.parametrize(
    ("players", "count"),
    [(["A", "B"], 11), (["A", "B", "C"], 10), (["A", "B", "C", "D"], 9),
     (["A", "B", "C", "D", "E"], 8)],
)
def test_too_many_cards_for_a_hand(players: list[str], count: int) -> None:
    round_: dict[str, list[str]] = {name: [] for name in players}
    round_[players[-1]] = ["x"] * count
    error = refusal(game([round_], players=players))
    assert (error.round, error.player) == (1, players[-1])
    assert str(count) in str(error)


def test_the_dummy_game_deals_nine() -> None:
    players = ["Ana", "Ben", "Dummy"]
    read_game(game([{"Ana": ["x"] * 9, "Ben": [], "Dummy": ["q"] * 9}],
                   players=players, dummy="Dummy"))
    error = refusal(game([{"Ana": [], "Ben": [], "Dummy": ["q"] * 10}],
                         players=players, dummy="Dummy"))
    assert (error.round, error.player) == (1, "Dummy")


def test_more_copies_than_the_deck_in_one_round() -> None:
    error = refusal(game([{"Ana": ["t"] * 4, "Ben": ["wasabi"] * 3}]))
    assert (error.round, error.player, error.card) == (1, "Ben", "wasabi")
    assert "6" in str(error)


def test_more_copies_than_the_deck_over_the_game() -> None:
    rounds = [
        {"Ana": ["f"] * 4, "Ben": ["f"] * 3},
        {"Ana": ["f"] * 2, "Ben": []},
        {"Ana": ["pudding"], "Ben": ["Dessert"]},
    ]
    error = refusal(game(rounds))
    assert (error.round, error.player, error.card) == (3, "Ben", "Dessert")
    assert "10" in str(error)


@pytest.mark.parametrize(
    ("card", "limit"),
    [("tempura", 14), ("sashimi", 14), ("dumpling", 14), ("maki1", 6), ("maki2", 12),
     ("maki3", 8), ("egg", 5), ("salmon", 10), ("squid", 5), ("pudding", 10),
     ("wasabi", 6), ("chopsticks", 4)],
)
def test_deck_limit_per_card(card: str, limit: int) -> None:
    five = ["A", "B", "C", "D", "E"]
    cards = [card] * (limit + 1)
    rounds = []
    while cards:  # deal the copies 7 to a hand
        rounds.append({name: [cards.pop() for _ in range(min(7, len(cards)))]
                       for name in five})
    error = refusal(game(rounds, players=five))
    assert error.card == card
    assert str(limit) in str(error)


def test_soy_sauce_without_the_variant() -> None:
    error = refusal(game([{"Ana": ["x", "soy sauce"], "Ben": []}]))
    assert (error.round, error.player, error.card) == (1, "Ana", "soy sauce")
    assert "variant" in str(error)


def test_more_soy_sauce_than_the_variant_adds() -> None:
    error = refusal(game([{"Ana": ["d", "d"], "Ben": ["d", "d"]}], variant={"soy_sauce": True}))
    assert (error.round, error.player, error.card) == (1, "Ben", "d")
    error = refusal(game([{"Ana": ["d", "d"], "Ben": []}],
                         variant={"soy_sauce": True, "soy_sauce_count": 1}))
    assert (error.player, error.card) == ("Ana", "d")


@pytest.mark.parametrize(
    "variant",
    [
        [],
        "soy_sauce",
        True,
        {"soy": True},
        {"soy_sauce": "yes"},
        {"soy_sauce": 1},
        {"pass_both_ways": "no"},
        {"soy_sauce": True, "soy_sauce_count": 0},
        {"soy_sauce": True, "soy_sauce_count": -2},
        {"soy_sauce": True, "soy_sauce_count": 2.5},
        {"soy_sauce": True, "soy_sauce_count": "3"},
        {"soy_sauce": True, "soy_sauce_count": True},
    ],
)
def test_bad_variant(variant: object) -> None:
    refusal(game([{"Ana": [], "Ben": []}], variant=variant))


@pytest.mark.parametrize(
    ("players", "dummy"),
    [
        (["Ana", "Ben", "Cyril"], "Dan"),
        (["Ana", "Ben", "Cyril"], 2),
        (["Ana", "Ben", "Cyril"], True),
        (["Ana", "Ben", "Cyril"], ["Cyril"]),
        # the dummy is the third seat of a two-player game: exactly 3 seats
        (["Ana", "Ben"], "Ben"),
        (["Ana", "Ben", "Cyril", "Dummy"], "Dummy"),
    ],
)
def test_bad_dummy(players: list[str], dummy: object) -> None:
    error = refusal(game([{name: [] for name in players}], players=players, dummy=dummy))
    assert error.round is None


def test_error_message_without_a_place() -> None:
    error = GameFileError("something is wrong")
    assert str(error) == "something is wrong"
    error = GameFileError("no", round=3, player="Ana", card="w9")
    assert str(error) == "round 3, player 'Ana', card 'w9': no"
    assert isinstance(error, ValueError)
