"""The table tracker follows real games from what is entered, and no more."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.games.sushigo.cards import Card
from companion.games.sushigo.draft import Game, Revealed, RoundScored, Variant
from companion.games.sushigo.tracker import (
    Concern,
    Entry,
    ImpossibleEntry,
    Tracker,
    TrackerError,
    Warning,
)

NAMES = ["Ana", "Ben", "Cyril", "Dana", "Eve"]


def follow(
    players: int, seed: int, variant: Variant = Variant(), *, you: int = 0,  # noqa: B008
    skip: float = 0.0, late: float = 0.0,
) -> tuple[Game, Tracker]:
    """Play a random game and enter what a player at the table would.

    Every turn the player scans their hand and enters every reveal, except
    that ``skip`` of the other players' reveals are never entered and
    ``late`` of them are entered a turn late.
    """
    rng = random.Random(seed)
    game = Game(players, rng=random.Random(seed + 1), variant=variant)
    names = NAMES[:players] + (["Dummy"] if variant.dummy else [])
    tracker = Tracker(names, you, variant)
    pending: list[Entry] = []
    while not game.over:
        assert (tracker.round, tracker.turn) == (game.round, game.turn)
        tracker.add(Entry.hand(game.hand(you)))
        for entry in pending:
            tracker.add(entry)
        pending = []
        for seat in game.waiting_for():
            game_events = game.choose(seat, game.legal_choices(seat).sample(rng))
            reveals = [e for e in game_events if isinstance(e, Revealed)]
            for reveal in reveals:
                for s, cards in enumerate(reveal.cards):
                    entry = Entry.pick(s, cards, round=reveal.round, turn=reveal.turn)
                    if s != you and rng.random() < skip:
                        continue
                    if s != you and rng.random() < late and not reveal.automatic:
                        pending.append(entry)
                        continue
                    tracker.add(entry)
                if any(isinstance(e, RoundScored) for e in game_events) and reveal is reveals[-1]:
                    for entry in pending:
                        tracker.add(entry)
                    pending = []
                if reveal is not reveals[-1] or not game.over:
                    tracker.add(Entry.next_turn())
    return game, tracker


TABLES = [(2, Variant()), (3, Variant()), (4, Variant()), (5, Variant()),
          (4, Variant(pass_both_ways=True)), (3, Variant(soy_sauce=3)),
          (2, Variant(dummy=True))]


@pytest.mark.sampled
@pytest.mark.parametrize(("players", "variant"), TABLES)
def test_everything_entered_scores_exactly_as_the_engine(players: int, variant: Variant) -> None:
    for seed in range(8):
        game, tracker = follow(players, seed, variant)
        assert tracker.warnings == ()
        assert tracker.score().totals == game.result().totals
        assert tracker.score().winners == game.result().winners
        for r, tables in enumerate(game.finished_rounds, start=1):
            assert [tracker.table(s, r) for s in range(game.seats)] == list(tables)


@pytest.mark.sampled
@pytest.mark.parametrize(("players", "variant"), TABLES)
def test_what_is_known_of_every_hand_is_true(players: int, variant: Variant) -> None:
    rng = random.Random(players)
    for seed in range(6):
        game = Game(players, rng=random.Random(seed), variant=variant)
        names = NAMES[:players] + (["Dummy"] if variant.dummy else [])
        tracker = Tracker(names, 0, variant)
        while not game.over:
            tracker.add(Entry.hand(game.hand(0)))
            for seat in range(game.seats):
                if seat == game.dummy:
                    continue
                info = tracker.hand_info(seat)
                real = Counter(game.hand(seat))
                assert info.size == len(game.hand(seat))
                if info.missing == 0:
                    assert not Counter(info.known) - real
                if info.complete:
                    assert Counter(info.known) == real
                if variant.dummy is False and game.turn > players:
                    assert info.complete, "after a full circle every hand is known"
            coming = tracker.coming_hand()
            source = 1 if variant.dummy else (0 - int(game.direction)) % game.seats
            assert coming.seat == source
            for seat in game.waiting_for():
                for event in game.choose(seat, game.legal_choices(seat).sample(rng)):
                    if isinstance(event, Revealed):
                        for s, cards in enumerate(event.cards):
                            tracker.add(Entry.pick(s, cards, round=event.round, turn=event.turn))
                        if not game.over:
                            tracker.add(Entry.next_turn())
        assert tracker.warnings == ()


def test_late_and_missing_reveals_still_give_exact_scores_once_in() -> None:
    for seed in range(6):
        game, tracker = follow(4, seed, late=0.3)
        assert tracker.score().totals == game.result().totals


def test_missing_reveals_leave_hands_partly_known_without_complaint() -> None:
    game, tracker = follow(4, 3, skip=0.4)
    assert tracker.warnings == ()
    assert tracker.score().totals != () and game.over


def test_a_whole_tableau_at_round_end_replaces_the_picks() -> None:
    t = Tracker(NAMES[:3], 0)
    t.add(Entry.pick(1, [Card.TEMPURA]))
    t.add(Entry.tableau(1, [Card.SQUID, Card.WASABI, Card.SALMON], round=1))
    assert t.table(1) == (Card.SQUID, Card.WASABI, Card.SALMON)
    assert t.round_score()[1].points == 3 + 6


def test_a_corrected_scan_is_taken_and_everything_recomputed() -> None:
    t = Tracker(NAMES[:2], 0)
    wrong = t.add(Entry.pick(0, [Card.SALMON]))
    assert wrong == []
    assert t.round_score()[0].points == 2
    t.replace(0, Entry.pick(0, [Card.SQUID]))
    assert t.table(0) == (Card.SQUID,)
    assert t.round_score()[0].points == 3


def refused(t: Tracker, entry: Entry) -> Warning:
    """What an entry against the rules is refused for; nothing is kept."""
    before = (t.entries, t.warnings, t.round, t.turn)
    with pytest.raises(ImpossibleEntry) as error:
        t.add(entry)
    assert (t.entries, t.warnings, t.round, t.turn) == before
    return error.value.warning


def test_a_sixth_squid_is_questioned_but_kept() -> None:
    t = Tracker(NAMES[:5], 0)
    for seat in range(5):
        assert t.add(Entry.pick(seat, [Card.SQUID])) == []
    t.add(Entry.next_turn())
    warnings = t.add(Entry.pick(0, [Card.SQUID]))
    assert [(w.concern, w.card, w.count, w.limit) for w in warnings] == [
        (Concern.TOO_MANY, Card.SQUID, 6, 5)
    ]
    assert t.table(0) == (Card.SQUID, Card.SQUID)  # which entry is wrong is not known


def test_the_card_you_pick_from_your_hand_is_counted_once() -> None:
    t = Tracker(NAMES[:5], 0)
    for seat in range(1, 5):
        t.add(Entry.pick(seat, [Card.SQUID]))
    t.add(Entry.next_turn())
    assert t.add(Entry.hand([Card.SQUID, *[Card.TEMPURA] * 5])) == []
    assert t.add(Entry.pick(0, [Card.SQUID])) == []  # the fifth squid, from your hand
    assert t.warnings == ()


def test_a_pick_the_traced_hand_did_not_hold_is_questioned() -> None:
    t = Tracker(NAMES[:2], 0)
    hand = [Card.TEMPURA, Card.SQUID, *[Card.SASHIMI] * 8]
    t.add(Entry.hand(hand))
    t.add(Entry.pick(0, [Card.TEMPURA]))
    t.add(Entry.pick(1, [Card.EGG]))
    t.add(Entry.next_turn())
    # Ben now holds what Ana passed: no salmon in it
    warnings = t.add(Entry.pick(1, [Card.SALMON]))
    assert [w.concern for w in warnings] == [Concern.NOT_IN_HAND]
    assert warnings[0].card is Card.SALMON and Card.SQUID in warnings[0].expected


def test_two_cards_without_chopsticks_are_refused_when_the_table_is_known() -> None:
    t = Tracker(NAMES[:3], 0)
    # the first turn: no table holds chopsticks yet
    assert refused(t, Entry.pick(2, [Card.WASABI, Card.SQUID])).concern is Concern.NO_CHOPSTICKS
    t.add(Entry.pick(0, [Card.TEMPURA]))
    t.add(Entry.pick(1, [Card.CHOPSTICKS]))
    t.add(Entry.next_turn())
    assert t.add(Entry.pick(1, [Card.WASABI, Card.SQUID])) == []
    assert t.table(1) == (Card.WASABI, Card.SQUID)  # the chopsticks went back into a hand
    assert t.round_score()[1].points == 9
    # Cyril's first pick is not known: chopsticks may be on his table, questioned and kept
    warnings = t.add(Entry.pick(2, [Card.EGG, Card.SALMON]))
    assert [w.concern for w in warnings] == [Concern.NO_CHOPSTICKS]
    t.add(Entry.pick(0, [Card.TEMPURA]))
    t.add(Entry.next_turn())
    # Ana's table is known to the turn: two tempura, no chopsticks
    assert refused(t, Entry.pick(0, [Card.EGG, Card.SALMON])).seat == 0


def test_a_hand_larger_than_the_turn_s_is_refused_a_smaller_one_questioned() -> None:
    t = Tracker(NAMES[:4], 0)
    warning = refused(t, Entry.hand([Card.TEMPURA] * 9))
    assert (warning.concern, warning.count, warning.limit) == (Concern.HAND_SIZE, 9, 8)
    # entered in part (a scan lost): kept, and said
    warnings = t.add(Entry.hand([Card.TEMPURA] * 7))
    assert [(w.concern, w.count, w.limit) for w in warnings] == [(Concern.HAND_SIZE, 7, 8)]
    assert t.add(Entry.hand([Card.TEMPURA] * 8)) == []


def test_a_tableau_larger_than_a_round_is_refused() -> None:
    t = Tracker(NAMES[:2], 0)
    warning = refused(t, Entry.tableau(1, [Card.TEMPURA] * 11))
    assert (warning.concern, warning.count, warning.limit) == (Concern.TABLEAU_SIZE, 11, 10)


def test_what_was_taken_from_a_hand_since_it_was_last_held() -> None:
    t = Tracker(NAMES[:2], 0)
    hand = [Card.TEMPURA, Card.SQUID, Card.EGG, *[Card.SASHIMI] * 7]
    other = [Card.DUMPLING] * 9 + [Card.PUDDING]
    t.add(Entry.hand(hand))
    t.add(Entry.pick(0, [Card.TEMPURA]))
    t.add(Entry.pick(1, [Card.PUDDING]))
    t.add(Entry.next_turn())
    t.add(Entry.hand(other[:9]))
    t.add(Entry.pick(0, [Card.DUMPLING]))
    t.add(Entry.pick(1, [Card.SQUID]))
    t.add(Entry.next_turn())
    t.add(Entry.hand([Card.EGG, *[Card.SASHIMI] * 7]))
    assert t.taken_since_held() == (Card.SQUID,)
    assert t.warnings == ()


def test_the_hand_you_passed_is_known_at_once() -> None:
    t = Tracker(NAMES[:3], 1)
    hand = [Card.WASABI, Card.SQUID, *[Card.SASHIMI] * 7]
    t.add(Entry.hand(hand))
    t.add(Entry.pick(1, [Card.WASABI]))
    passed = t.passed_hand()
    assert passed.seat == 2 and Counter(passed.known) == Counter(hand) - Counter([Card.WASABI])


def test_nonsense_entries_are_refused() -> None:
    t = Tracker(NAMES[:3], 0)
    with pytest.raises(TrackerError):
        t.add(Entry.pick(5, [Card.SQUID]))
    with pytest.raises(TrackerError):
        t.add(Entry.pick(1, [Card.SQUID, Card.EGG, Card.SALMON]))
    with pytest.raises(TrackerError):
        t.add(Entry.pick(1, [Card.SQUID], round=4))
    with pytest.raises(TrackerError):
        Tracker(NAMES[:2], 0, Variant(dummy=True))
    assert t.entries == ()


def test_two_cards_for_the_dummy_are_refused_chopsticks_or_not() -> None:
    t = Tracker(["Ana", "Ben", "Dummy"], 0, variant=Variant(dummy=True))
    t.add(Entry.pick(2, [Card.CHOPSTICKS]))
    t.add(Entry.next_turn())
    warning = refused(t, Entry.pick(2, [Card.WASABI, Card.SQUID]))
    assert (warning.concern, warning.seat) == (Concern.DUMMY_TWO, 2)
    assert t.table(2) == (Card.CHOPSTICKS,)
