"""Mici Maki's tactile coding and typed codes: every card by its code, id
and name in four languages, keys found on any keyboard layout, refusals
that say what to type, and the reference in four languages."""

from __future__ import annotations

import pytest

from companion.games.micimaki.narration import card_name, catalog, reference
from companion.games.micimaki.rules import CHOOSE, FOODS, OVEREATING, PLUS, REVERSE, Setup
from companion.games.micimaki.tactile import (
    CODES,
    KINDS,
    UnknownCodeError,
    card_id,
    code,
    from_id,
    parse,
)
from companion.games.micimaki.vocabulary import copies
from companion.i18n import LANGUAGES


@pytest.mark.parametrize("card", KINDS)
def test_every_card_by_its_code_id_and_name(card: int) -> None:
    assert parse(code(card)) == card == parse(code(card).upper())
    assert from_id(card_id(card)) == card
    for language in LANGUAGES:
        name = card_name(catalog(language), card)
        assert parse(name) == card, (language, name)
        assert parse(f"  {name.upper()} ") == card


@pytest.mark.parametrize("typed,card", [
    ("ěščřžý", None), ("ě", 2), ("š", 3), ("č", 4), ("ř", 5), ("ž", 6), ("ý", 7),
    ("é", 2), ('"', 3), ("'", 4), ("(", 5), ("-", 6), ("è", 7),
    ("з", PLUS), ("к", REVERSE), ("с", CHOOSE), ("ч", OVEREATING),  # JCUKEN keys
    ("р", PLUS), ("х", OVEREATING),  # Cyrillic letters that look like the code
    ("+", PLUS),  # the plus sign alone
])
def test_keys_are_read_where_they_sit_on_any_layout(typed: str, card: int | None) -> None:
    if card is None:
        with pytest.raises(UnknownCodeError):
            parse(typed)
    else:
        assert parse(typed) == card


@pytest.mark.parametrize("typed,reason,first", [
    ("", "empty", None), ("   ", "empty", None), ("1", "food", "2"), ("9", "food", "2"),
    ("?", "unknown", "2"), ("w2", "unknown", "2"), ("tempura", "unknown", "2"),
    ("revers", "unknown", "r"),
])
def test_a_text_that_names_no_card_says_what_to_type(typed: str, reason: str,
                                                     first: str | None) -> None:
    with pytest.raises(UnknownCodeError) as refused:
        parse(typed)
    assert refused.value.reason == reason
    assert (refused.value.suggestions[0] if refused.value.suggestions else None) == first
    assert refused.value.detail


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_reference_has_a_line_per_card_and_how_to_hold_it(language: str) -> None:
    lines = reference(catalog(language))
    assert len(lines) == 1 + len(KINDS) + 1
    for line, card in zip(lines[1:], KINDS, strict=False):
        assert line.startswith(card_name(catalog(language), card))
        assert line.rstrip(".").endswith(" " + CODES[card])
        assert str(copies(card)) in line
    assert "Mici Maki" in lines[-1]
    if language != "en":
        assert lines != reference(catalog("en"))


def test_copies_follow_the_deck() -> None:
    assert sum(copies(card) for card in FOODS) == 72
    assert (copies(PLUS), copies(REVERSE), copies(CHOOSE), copies(OVEREATING)) == (7, 5, 5, 6)
    assert copies(PLUS, Setup(players=3, plus=4)) == 4
