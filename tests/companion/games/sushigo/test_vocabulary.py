"""Sushi Go!'s vocabulary: what the scanner's bridge knows of the game (its
vocabulary module; the plugin is the same vocabulary, with the rest)."""

from __future__ import annotations

import pytest

from companion.games.sushigo.cards import CARDS, Card, deck_counts
from companion.games.sushigo.plugin import PLUGIN, SushiGo
from companion.games.sushigo.tactile import short_code
from companion.games.sushigo.vocabulary import VOCABULARY, SushiGoVocabulary
from firmware_bridge.vocabulary import Vocabulary, vocabularies


def test_it_is_a_vocabulary_found_as_the_game_sushigo() -> None:
    as_protocol: Vocabulary = VOCABULARY  # mypy checks it statically, isinstance at run time
    assert isinstance(as_protocol, Vocabulary)
    assert (VOCABULARY.game, VOCABULARY.title, VOCABULARY.demo_number) == (
        "sushigo", "Sushi Go!", 0)
    assert vocabularies()["sushigo"] is VOCABULARY
    assert isinstance(VOCABULARY, SushiGoVocabulary)
    assert repr(VOCABULARY) == "SushiGoVocabulary()"
    # the plugin is the same vocabulary
    assert repr(PLUGIN) == "SushiGo()" and isinstance(PLUGIN, SushiGoVocabulary)
    assert isinstance(PLUGIN, SushiGo) and PLUGIN.card_ids() == VOCABULARY.card_ids()


def test_cards_come_in_the_engine_order_with_a_full_deck_copies() -> None:
    assert VOCABULARY.card_ids() == tuple(card.id for card in CARDS)
    assert VOCABULARY.card_ids()[7] == "salmon"  # the demo deck's byte 07, since format 1
    assert {card_id: VOCABULARY.copies(card_id) for card_id in VOCABULARY.card_ids()} == {
        card.id: deck_counts(3)[card] for card in CARDS
    }
    assert VOCABULARY.copies("soy-sauce") == 3
    with pytest.raises(ValueError, match="caviar"):
        VOCABULARY.copies("caviar")


@pytest.mark.parametrize("card", list(Card), ids=lambda card: card.id)
def test_codes_and_names_identify_card_ids(card: Card) -> None:
    assert VOCABULARY.identify(short_code(card)) == card.id
    assert VOCABULARY.identify(f"  {card.id.upper()} ") == card.id


def test_what_names_no_card_is_a_value_error_saying_what_to_type() -> None:
    with pytest.raises(ValueError, match="try w1 egg, w2 salmon, w3 squid"):
        VOCABULARY.identify("w4")
    with pytest.raises(ValueError, match="nothing was typed"):
        VOCABULARY.identify("  ")
