"""What the app says at the table, at each verbosity, in English (the
catalog test checks every language renders every message)."""

from __future__ import annotations

import random

import pytest

from companion.contract.events import Verbosity
from companion.conversation.scanner_news import scanner_found_text, scanner_lost_text, unknown_tag
from companion.games.sushigo.bots import Advisor
from companion.games.sushigo.cards import Card
from companion.games.sushigo.draft import Game
from companion.games.sushigo.narration import (
    advice_text,
    card_identified,
    card_list,
    coming_hand_text,
    concern_text,
    explain_game,
    explain_line,
    hand_text,
    pick_text,
    taken_text,
    typing_help,
)
from companion.games.sushigo.scoring import Line, LineKind
from companion.games.sushigo.telling import Teller
from companion.games.sushigo.telling import catalog as sushigo_catalog
from companion.games.sushigo.tracker import Concern, Entry, Tracker, Warning
from companion.i18n import LANGUAGES

EN = sushigo_catalog("en")
T, S, W, EGG, SALMON, SQUID = (Card.TEMPURA, Card.SASHIMI, Card.WASABI, Card.EGG,
                               Card.SALMON, Card.SQUID)


def test_a_card_read_back_at_each_verbosity() -> None:
    assert card_identified(EN, SALMON, Verbosity.TERSE) == "Salmon nigiri."
    assert card_identified(EN, SALMON) == "Salmon nigiri: Window, middle."
    assert card_identified(EN, SALMON, Verbosity.VERBOSE) == (
        "Salmon nigiri: Window, middle, 2 points, 6 on wasabi. Code w2."
    )


def test_a_hand_is_grouped_counted_and_always_in_the_same_order() -> None:
    hand = [SALMON, T, W, T, Card.MAKI2]
    assert hand_text(EN, hand) == "5 cards: Wasabi, 2 Tempura, Salmon nigiri, Maki 2."
    assert hand_text(EN, list(reversed(hand))) == hand_text(EN, hand)
    assert hand_text(EN, [SQUID]) == "1 card: Squid nigiri."
    assert hand_text(EN, []) == "Your hand is empty."
    assert "(w2)" in hand_text(EN, hand, Verbosity.VERBOSE)


def test_score_lines_at_each_verbosity() -> None:
    line = Line(LineKind.TEMPURA, 4, 10, sets=2)
    assert explain_line(EN, line, Verbosity.TERSE) == "Tempura: 10 points."
    assert explain_line(EN, line) == "Tempura: 2 pairs, 10 points."
    assert explain_line(EN, line, Verbosity.VERBOSE) == (
        "Tempura: 2 pairs, 10 points. A pair of tempura scores 5."
    )
    nigiri = Line(LineKind.NIGIRI, 1, 9, card=SQUID, on_wasabi=True)
    assert explain_line(EN, nigiri, Verbosity.TERSE) == "Squid nigiri on wasabi: 9 points."


def test_picks_what_was_taken_and_the_hand_coming() -> None:
    assert pick_text(EN, "Ana", [SQUID]) == "Ana: Squid nigiri."
    assert pick_text(EN, "Ben", [W, SQUID]) == "Ben, chopsticks: Wasabi, then Squid nigiri."
    assert taken_text(EN, [SQUID, T]) == "Taken since you held this hand: Tempura, Squid nigiri."
    assert taken_text(EN, []) == "Nothing was taken from this hand since you held it."
    tracker = Tracker(["Ana", "Ben", "Cyril"], 0)
    assert coming_hand_text(EN, "Cyril", tracker.coming_hand()) == (
        "Coming from Cyril: 9 cards, not seen yet."
    )
    tracker.add(Entry.hand([W, SQUID, *[S] * 7]))
    tracker.add(Entry.pick(0, [W]))
    tracker.add(Entry.next_turn())
    tracker.add(Entry.next_turn())  # turn 3: the hand passed on turn 1 comes back next
    assert coming_hand_text(EN, "Cyril", tracker.coming_hand()) == (
        "Coming from Cyril: 7 Sashimi, Squid nigiri; 1 pick not entered."
    )


def test_scanner_and_unknown_tags() -> None:
    assert scanner_found_text(EN, again=False) == "Scanner ready."
    assert scanner_found_text(EN, again=True) == "Scanner found again."
    assert "check its cable" in scanner_lost_text(EN)
    assert unknown_tag(EN, "04A1B2C3") == (
        "Unknown tag 04A1B2C3: enrol it with firmware-bridge enrol."
    )


def test_concerns_say_what_does_not_fit_and_that_the_entry_stays() -> None:
    names = ["Ana", "Ben"]
    too_many = Warning(Concern.TOO_MANY, 3, 1, SQUID, 6, 5)
    assert concern_text(EN, too_many, names) == (
        "Ben: a Squid nigiri too many: the deck has 5. Kept; check it."
    )
    size = Warning(Concern.HAND_SIZE, 0, 0, count=7, limit=8)
    assert concern_text(EN, size, names) == (
        "Your hand has 7 cards; 8 cards expected this turn. Kept; check it."
    )
    dummy = Warning(Concern.DUMMY_TWO, 4, 1)
    assert concern_text(EN, dummy, names).startswith("Ben took two cards: the dummy takes one")
    # every concern has its own sentence
    said = {concern_text(EN, Warning(concern, 0, 1, SQUID, 2, 1, (SQUID,)), names)
            for concern in Concern}
    assert len(said) == len(Concern)


def test_advice_says_the_card_and_why() -> None:
    game = Game(3, rng=random.Random(3))
    advice = Advisor(worlds=10).advise(game.view(0), game.legal_choices(0), random.Random(1))
    text = advice_text(EN, advice)
    assert text.startswith(f"{'Chopsticks' if advice.choice.uses_chopsticks else ''}") or text
    assert advice_text(EN, advice, Verbosity.VERBOSE).endswith("Looked ahead in 10 games.")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_table_sentence_renders_in_every_language(language: str) -> None:
    c = sushigo_catalog(language)
    hand = [T, T, SQUID, W, Card.MAKI2, Card.PUDDING, Card.CHOPSTICKS]
    for verbosity in Verbosity:
        assert card_identified(c, SQUID, verbosity)
        assert hand_text(c, hand, verbosity)
    assert card_list(c, hand)
    assert all(typing_help(c))
    assert pick_text(c, "Ana", [W, EGG])


def test_the_final_result_says_the_puddings_then_the_scores() -> None:
    rng = random.Random(3)
    game = Game(3, rng=rng)
    while not game.over:
        for seat in game.waiting_for():
            game.choose(seat, game.legal_choices(seat).sample(rng))
    said = [a.text for a in Teller("en", Verbosity.NORMAL).final(game.result(), ["A", "B", "C"])]
    assert said[0] == "Puddings at the end of the game."
    assert "Final scores." in said
    # as companion score --explain says them, from the puddings on
    whole = explain_game(EN, game.result(), ["A", "B", "C"])
    assert said == whole[whole.index("Puddings at the end of the game."):]
