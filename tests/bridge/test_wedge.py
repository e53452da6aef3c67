"""Typed codes and wedge scanners join the scanner's stream of events."""

from __future__ import annotations

from companion.games.sushigo.plugin import PLUGIN as VOCABULARY
from firmware_bridge.events import CardIdentified, CardRefused, Source
from firmware_bridge.stream import InputStream
from firmware_bridge.vocabulary import SimpleVocabulary, Vocabulary
from firmware_bridge.wedge import classify, identify

#: A second game whose ids clash with Sushi Go!'s typed codes and names.
CLASH = SimpleVocabulary("clash", "Clash", 5, (("w2", 1), ("salmon", 3), ("pear", 2)))
BOTH: dict[str, Vocabulary] = {"sushigo": VOCABULARY, "clash": CLASH}


def test_a_burst_is_a_scanner_and_a_person_is_a_person() -> None:
    assert classify([0.000, 0.008, 0.015, 0.024]) is Source.WEDGE
    assert classify([0.0, 0.12, 0.31]) is Source.KEYBOARD
    assert classify([0.0, 0.01, 0.25]) is Source.KEYBOARD  # a pause: a person
    assert classify([0.0]) is Source.KEYBOARD
    assert classify([]) is Source.KEYBOARD


def test_both_are_accepted_and_say_where_they_came_from() -> None:
    typed = identify("w2", [0.0, 0.2, 0.4])
    scanned = identify("w2 ", [0.0, 0.01, 0.02])
    assert isinstance(typed, CardIdentified) and isinstance(scanned, CardIdentified)
    assert typed == CardIdentified("sushigo", "salmon", Source.KEYBOARD, None, "w2")
    assert scanned == CardIdentified("sushigo", "salmon", Source.WEDGE, None, "w2")


def test_a_bad_code_is_refused_with_suggestions() -> None:
    refused = identify("w4", [], {"sushigo": VOCABULARY})
    assert isinstance(refused, CardRefused)
    assert refused.text == "w4" and refused.source is Source.KEYBOARD
    assert refused.reason.endswith("try w1 egg, w2 salmon, w3 squid")


def test_the_one_game_that_names_the_card_is_its_game() -> None:
    assert identify("pear", [], BOTH) == CardIdentified("clash", "pear", Source.KEYBOARD, None,
                                                         "pear")
    assert identify("t", [], BOTH) == CardIdentified("sushigo", "wasabi", Source.KEYBOARD,
                                                      None, "t")


def test_a_line_two_games_could_mean_is_refused_naming_both() -> None:
    refused = identify("w2", [], BOTH)
    assert refused == CardRefused(
        "w2", "'w2' names a card in more than one game: Sushi Go!, Clash", Source.KEYBOARD
    )


def test_a_line_no_game_names_gives_the_first_game_reason() -> None:
    refused = identify("plum", [], dict(reversed(BOTH.items())))  # Clash asked first
    assert isinstance(refused, CardRefused)
    assert refused.reason == "'plum' is not a card of Clash: type one of w2, salmon, pear"
    nothing = identify("w2", [], {})
    assert nothing == CardRefused("w2", "no game is installed", Source.KEYBOARD)


def test_typed_and_scanned_cards_arrive_in_one_stream() -> None:
    stream = InputStream()
    stream.post(CardIdentified("sushigo", "squid", Source.SCANNER, "DEADBEEF", None, 0))
    stream.typed("t", [0.0, 0.15])
    first, second = stream.get(timeout=0.1), stream.get(timeout=0.1)
    assert isinstance(first, CardIdentified) and first.source is Source.SCANNER
    assert isinstance(second, CardIdentified)
    assert (second.game, second.card, second.source, second.text) == (
        "sushigo", "wasabi", Source.KEYBOARD, "t")
    assert stream.get(timeout=0.01) is None
    only_clash = InputStream({"clash": CLASH})
    refused = only_clash.typed("t")  # a Sushi Go! code, but Sushi Go! is not asked
    assert isinstance(refused, CardRefused) and refused.reason.startswith("'t' is not a card")
