"""Memory's sentences: its own catalogs (domain ``memory``), in its folder
as a game's are in its package (``locale/``, made by
scripts/update-catalogs.sh); they fall back to the app's."""

from __future__ import annotations

from pathlib import Path

from companion.i18n import Catalog
from tests.companion.games.memory.vocabulary import GAME

#: Where Memory's catalogs are.
LOCALE = Path(__file__).with_name("locale")


def memory_words(language: str) -> Catalog:
    """Memory's sentences in ``language``."""
    return Catalog.for_language(language, GAME, LOCALE)
