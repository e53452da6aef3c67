"""The English sentences that explain a score (companion.games.sushigo.narration)."""

from __future__ import annotations

import pytest

from companion.games.sushigo.cards import Card
from companion.games.sushigo.narration import (
    card_name,
    codes_reference,
    describe_sticker,
    explain_game,
    explain_line,
)
from companion.games.sushigo.scoring import Line, LineKind, Place, score_game, score_round
from companion.games.sushigo.telling import catalog as sushigo_catalog

EN = sushigo_catalog("en")


def t(text: str = "") -> list[Card]:
    return [Card.from_id(word) for word in text.split()]


@pytest.mark.parametrize(
    ("line", "sentence"),
    [
        # the two sentences the issue quotes
        (Line(LineKind.TEMPURA, 4, 10, sets=2), "Tempura: 2 pairs, 10 points."),
        (
            Line(LineKind.MAKI, 2, 6, icons=5, place=Place.FIRST, tied=1),
            "Maki: 5 icons, most at the table, 6 points.",
        ),
        # singular forms
        (Line(LineKind.TEMPURA, 2, 5, sets=1), "Tempura: 1 pair, 5 points."),
        (Line(LineKind.DUMPLING, 1, 1), "Dumplings: 1 card, 1 point."),
        (Line(LineKind.DUMPLING, 6, 15), "Dumplings: 6 cards, 15 points."),
        (Line(LineKind.SASHIMI, 6, 20, sets=2), "Sashimi: 2 sets of 3, 20 points."),
        (Line(LineKind.TEMPURA, 5, 10, sets=2), "Tempura: 5 cards, 2 pairs, 10 points."),
        (Line(LineKind.SASHIMI, 2, 0), "Sashimi: 2 cards, 0 sets of 3, 0 points."),
        (
            Line(LineKind.NIGIRI, 2, 18, card=Card.SQUID, on_wasabi=True),
            "Squid nigiri on wasabi: 2 cards, 18 points.",
        ),
        (Line(LineKind.NIGIRI, 1, 2, card=Card.SALMON), "Salmon nigiri: 1 card, 2 points."),
        (Line(LineKind.WASABI, 2, 0), "Wasabi without nigiri: 2 cards, 0 points."),
        (Line(LineKind.CHOPSTICKS, 1, 0), "Chopsticks: 1 card, 0 points."),
        (
            Line(LineKind.MAKI, 1, 3, icons=1, place=Place.SECOND, tied=1),
            "Maki: 1 icon, second most, 3 points.",
        ),
        (
            Line(LineKind.MAKI, 2, 3, icons=4, place=Place.FIRST, tied=2),
            "Maki: 4 icons, tied for most, shared by 2 players, 3 points.",
        ),
        (
            Line(LineKind.MAKI, 1, 1, icons=3, place=Place.SECOND, tied=2),
            "Maki: 3 icons, tied for second, shared by 2 players, 1 point.",
        ),
        (Line(LineKind.MAKI, 2, 0, icons=2), "Maki: 2 icons, no place, 0 points."),
        (
            Line(LineKind.SOY_SAUCE, 1, 4, colours=3, place=Place.FIRST, tied=1),
            "Soy sauce: 3 kinds of card, most kinds of card at the table, 4 points.",
        ),
        (
            Line(LineKind.SOY_SAUCE, 1, 2, colours=3, place=Place.FIRST, tied=2),
            "Soy sauce: 3 kinds of card, tied for most kinds of card, shared by 2 players, "
            "2 points.",
        ),
        (
            Line(LineKind.SOY_SAUCE, 1, 0, colours=1),
            "Soy sauce: 1 kind of card, someone has more kinds of card, 0 points.",
        ),
        (Line(LineKind.PUDDING_KEPT, 2, 0), "Pudding: 2 cards, kept for the end of the game."),
        (
            Line(LineKind.PUDDING, 4, 6, place=Place.FIRST, tied=1),
            "Pudding: 4 cards, the most, 6 points.",
        ),
        (
            Line(LineKind.PUDDING, 0, -3, place=Place.LAST, tied=2),
            "Pudding: 0 cards, tied for fewest, shared by 2 players, -3 points.",
        ),
        (
            Line(LineKind.PUDDING, 1, -6, place=Place.LAST, tied=1),
            "Pudding: 1 card, the fewest, -6 points.",
        ),
        (
            Line(LineKind.PUDDING, 0, 0, place=Place.LAST_SPARED, tied=1),
            "Pudding: 0 cards, the fewest, no penalty with 2 players, 0 points.",
        ),
        (
            Line(LineKind.PUDDING, 2, 0, place=Place.EVEN, tied=3),
            "Pudding: 2 cards, everyone has the same, 0 points.",
        ),
        (Line(LineKind.PUDDING, 3, 0), "Pudding: 3 cards, neither most nor fewest, 0 points."),
    ],
)
def test_explain_line(line: Line, sentence: str) -> None:
    assert explain_line(EN, line) == sentence


def test_explain_lines_of_a_scored_round() -> None:
    scores = score_round([t("tempura tempura tempura tempura maki3 maki2"), t("maki1")])
    assert [explain_line(EN, line) for line in scores[0].lines] == [
        "Tempura: 2 pairs, 10 points.",
        "Maki: 5 icons, most at the table, 6 points.",
    ]
    assert [explain_line(EN, line) for line in scores[1].lines] == [
        "Maki: 1 icon, second most, 3 points.",
    ]


def test_explain_game_of_the_issue_example() -> None:
    game = score_game([[t("wasabi squid maki2"), t("pudding"), t()]])
    assert explain_game(EN, game, ["Ana", "Ben", "Cyril"]) == [
        "Round 1.",
        "Ana: 15 points.",
        "  Squid nigiri on wasabi: 1 card, 9 points.",
        "  Maki: 2 icons, most at the table, 6 points.",
        "Ben: 0 points.",
        "  Pudding: 1 card, kept for the end of the game.",
        "Cyril: 0 points.",
        "  No cards.",
        "Scores so far.",
        "  Ana: 15 points.",
        "  Ben: 0 points.",
        "  Cyril: 0 points.",
        "Leading: Ana.",
    ]


def test_explain_a_whole_game() -> None:
    rounds = [
        [t("pudding pudding"), t("squid"), t("dumpling")],
        [t(), t(), t()],
        [t(), t("pudding"), t()],
    ]
    lines = explain_game(EN, score_game(rounds), ["Ana", "Ben", "Cyril"])
    assert "Puddings at the end of the game." in lines
    assert "  Pudding: 2 cards, the most, 6 points." in lines
    assert "  Pudding: 0 cards, the fewest, -6 points." in lines
    assert lines[-5:] == [
        "Final scores.",
        "  Ana: 6 points.",
        "  Ben: 3 points.",
        "  Cyril: -5 points.",
        "Winner: Ana.",
    ]


def test_explain_the_pudding_tie_break_and_a_shared_win() -> None:
    rounds = [[t("dumpling dumpling dumpling"), t("pudding")], [t(), t()], [t(), t()]]
    lines = explain_game(EN, score_game(rounds), ["Ana", "Ben"])
    assert lines[-1] == "Winner on puddings: Ben."
    rounds = [[t("squid"), t("squid")], [t(), t()], [t(), t()]]
    lines = explain_game(EN, score_game(rounds), ["Ana", "Ben"])
    assert lines[-1] == "Shared win: Ana and Ben."


def test_explain_names_the_dummy() -> None:
    rounds = [[t("egg"), t("salmon"), t("wasabi squid")]]
    lines = explain_game(EN, score_game(rounds, dummy=2), ["Ana", "Ben", "Cyril"])
    assert "Cyril (dummy): 9 points." in lines
    assert lines[-1] == "Leading: Ben."


@pytest.mark.parametrize(
    ("card", "name", "touch"),
    [
        (Card.SQUID, "Squid nigiri", "Window, bottom"),
        (Card.EGG, "Egg nigiri", "Window, top"),
        (Card.MAKI2, "Maki 2", "Circle, middle"),
        (Card.WASABI, "Wasabi", "Triangle"),
        (Card.TEMPURA, "Tempura", "Diagonal cross"),
        (Card.CHOPSTICKS, "Chopsticks", "Plus"),
    ],
)
def test_card_names_and_stickers(card: Card, name: str, touch: str) -> None:
    assert card_name(EN, card) == name
    assert describe_sticker(EN, card) == touch


def test_codes_reference() -> None:
    lines = codes_reference(EN)
    assert len(lines) == 1 + 13
    assert lines[7] == "Window, top: Egg nigiri, 1 point, 3 on wasabi. Code w1."
    assert len(codes_reference(EN, soy_sauce=False)) == 1 + 12
