"""Whatever the app calls a card, in any language, can be typed back."""

from __future__ import annotations

import pytest

from companion.games.sushigo.cards import Card
from companion.games.sushigo.narration import card_name, describe_sticker
from companion.games.sushigo.tactile import parse
from companion.games.sushigo.telling import catalog as sushigo_catalog
from companion.i18n import LANGUAGES


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("card", list(Card), ids=lambda c: c.id)
def test_displayed_name_parses_back(language: str, card: Card) -> None:
    catalog = sushigo_catalog(language)
    assert parse(card_name(catalog, card)) is card


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("card", list(Card), ids=lambda c: c.id)
def test_displayed_sticker_parses_back(language: str, card: Card) -> None:
    catalog = sushigo_catalog(language)
    assert parse(describe_sticker(catalog, card)) is card
