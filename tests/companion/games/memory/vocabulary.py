"""Memory's cards as the scanner sees them: its vocabulary for the bridge
(entry point ``memory`` of ``tactile_companion.vocabularies``).

>>> VOCABULARY.identify("q3"), VOCABULARY.copies("owl"), VOCABULARY.card_ids()[0]
('owl', 2, 'cat')
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.companion.games.memory.rules import COPIES, PICTURES, Picture, read

#: The game's name.
GAME = "memory"


@dataclass(frozen=True, slots=True)
class MemoryVocabulary:
    """Memory's vocabulary: the part of its plugin the bridge uses."""

    @property
    def game(self) -> str:
        return GAME

    @property
    def title(self) -> str:
        return "Memory"

    @property
    def demo_number(self) -> int:
        return 200

    def card_ids(self) -> tuple[str, ...]:
        return tuple(picture.value for picture in PICTURES)

    def copies(self, card_id: str) -> int:
        try:
            Picture(card_id)
        except ValueError:
            raise ValueError(f"{card_id!r} is not a memory card id") from None
        return COPIES

    def identify(self, text: str) -> str:
        return read(text).value

    def refusal(self, text: str, language: str) -> str:
        """Why ``text`` names no card, in ``language`` (the scanner's bridge
        says it so); ``""`` if it names one."""
        from tests.companion.games.memory.plugin import READER  # noqa: PLC0415 - when asked

        try:
            read(text)
        except ValueError as error:
            return READER.refusal(language, error)
        return ""


VOCABULARY = MemoryVocabulary()
