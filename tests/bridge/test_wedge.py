"""Typed codes and wedge scanners join the scanner's stream of events."""

from __future__ import annotations

from companion.games.sushigo.cards import Card
from firmware_bridge.events import CardIdentified, CardRefused, Source
from firmware_bridge.stream import InputStream
from firmware_bridge.wedge import classify, identify


def test_a_burst_is_a_scanner_and_a_person_is_a_person() -> None:
    assert classify([0.000, 0.008, 0.015, 0.024]) is Source.WEDGE
    assert classify([0.0, 0.12, 0.31]) is Source.KEYBOARD
    assert classify([0.0, 0.01, 0.25]) is Source.KEYBOARD  # a pause: a person
    assert classify([0.0]) is Source.KEYBOARD
    assert classify([]) is Source.KEYBOARD


def test_both_are_accepted_and_say_where_they_came_from() -> None:
    typed = identify("w2", [0.0, 0.2, 0.4])
    scanned = identify("w2", [0.0, 0.01, 0.02])
    assert isinstance(typed, CardIdentified) and isinstance(scanned, CardIdentified)
    assert (typed.card, typed.source) == (Card.SALMON, Source.KEYBOARD)
    assert (scanned.card, scanned.source) == (Card.SALMON, Source.WEDGE)


def test_a_bad_code_is_refused_with_suggestions() -> None:
    refused = identify("w4")
    assert isinstance(refused, CardRefused)
    assert refused.error.suggestions == ("w1", "w2", "w3")


def test_typed_and_scanned_cards_arrive_in_one_stream() -> None:
    stream = InputStream()
    stream.post(CardIdentified(Card.SQUID, Source.SCANNER, "DEADBEEF", None, 0))
    stream.typed("t", [0.0, 0.15])
    first, second = stream.get(timeout=0.1), stream.get(timeout=0.1)
    assert isinstance(first, CardIdentified) and first.source is Source.SCANNER
    assert isinstance(second, CardIdentified)
    assert (second.card, second.source, second.text) == (Card.WASABI, Source.KEYBOARD, "t")
    assert stream.get(timeout=0.01) is None
