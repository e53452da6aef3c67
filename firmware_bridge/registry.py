"""Which tag is which card: the UID registry, kept in the user's data folder.

Each card carries an NFC sticker; the scanner reports the sticker's UID and
the registry says which card that is. Tags are enrolled once ("scan a tag,
then type the card's code"); a club can export its deck's registry to a
file and others import it. A UID nobody enrolled is reported as unknown,
never guessed.

The demo deck, used by the virtual scanner, is known without enrolment:
its UIDs are ``DEC0DE`` + the card's number + the copy's number + ``0000``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from companion.games.sushigo.cards import CARDS, Card, deck_counts
from companion.journal import data_dir, write_atomically

FORMAT = 1
_UID = re.compile(r"(?:[0-9A-F]{2}){4}|(?:[0-9A-F]{2}){7}|(?:[0-9A-F]{2}){10}")
DEMO_PREFIX = "DEC0DE"


class RegistryError(ValueError):
    """A UID or deck file that cannot be used, and why."""


def normalize_uid(text: str) -> str:
    """``04:a1:b2:c3`` or ``04 A1 B2 C3`` → ``04A1B2C3``; 4, 7 or 10 bytes.

    >>> normalize_uid("04:a1:b2:c3")
    '04A1B2C3'
    """
    uid = re.sub(r"[\s:.-]", "", text).upper()
    if not _UID.fullmatch(uid):
        raise RegistryError(f"{text!r} is not a tag UID (4, 7 or 10 bytes in hex)")
    return uid


def demo_uid(card: Card, copy: int = 0) -> str:
    """The demo deck's UID for a copy of a card.

    >>> demo_uid(Card.SALMON, 2)
    'DEC0DE07020000'
    """
    return f"{DEMO_PREFIX}{card.index:02X}{copy:02X}0000"


def demo_card(uid: str) -> Card | None:
    """The demo deck's card for a UID, if it is one of the demo deck's."""
    if len(uid) != 14 or not uid.startswith(DEMO_PREFIX) or not uid.endswith("0000"):
        return None
    index, copy = int(uid[6:8], 16), int(uid[8:10], 16)
    if index >= len(CARDS):
        return None
    card = CARDS[index]
    return card if copy < max(deck_counts(3).get(card, 0), 1) else None


def registry_path() -> Path:
    return data_dir() / "registry.json"


@dataclass
class Registry:
    """UID → card, saved at ``path`` on every change (atomically)."""

    path: Path = field(default_factory=registry_path)
    tags: dict[str, Card] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path | None = None) -> Registry:
        path = path or registry_path()
        registry = cls(path)
        if path.exists():
            registry.tags = _read_tags(path)
        return registry

    def lookup(self, uid: str) -> Card | None:
        """The card of a tag, or ``None`` if nobody enrolled it."""
        return self.tags.get(uid) or demo_card(uid)

    def enrol(self, uid: str, card: Card) -> Card | None:
        """Record a tag's card; the card it had before, if any."""
        uid = normalize_uid(uid)
        before = self.tags.get(uid)
        self.tags[uid] = card
        self.save()
        return before

    def remove(self, uid: str) -> Card | None:
        before = self.tags.pop(normalize_uid(uid), None)
        self.save()
        return before

    def __iter__(self) -> Iterator[tuple[str, Card]]:
        return iter(sorted(self.tags.items(), key=lambda item: (item[1].index, item[0])))

    def __len__(self) -> int:
        return len(self.tags)

    def save(self) -> None:
        _write(self.path, {"format": FORMAT, "tags": _as_json(self.tags)})

    def export(self, path: Path, deck: str = "") -> int:
        """Write a deck file others can import; how many tags it holds."""
        _write(path, {"format": FORMAT, "deck": deck, "tags": _as_json(self.tags)})
        return len(self.tags)

    def import_file(self, path: Path, *, replace: bool = False) -> tuple[int, list[str]]:
        """Add a deck file's tags; how many were added, and the UIDs whose card
        differed here (kept as they were unless ``replace``)."""
        incoming = _read_tags(path)
        conflicts = [u for u, c in incoming.items() if u in self.tags and self.tags[u] is not c]
        added = 0
        for uid, card in incoming.items():
            if uid in conflicts and not replace:
                continue
            added += self.tags.get(uid) is not card
            self.tags[uid] = card
        self.save()
        return added, conflicts


def _as_json(tags: Mapping[str, Card]) -> dict[str, str]:
    return {uid: card.id for uid, card in sorted(tags.items())}


def _read_tags(path: Path) -> dict[str, Card]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise RegistryError(f"cannot read {path}: {error}") from None
    if not isinstance(data, dict) or not isinstance(data.get("tags"), dict):
        raise RegistryError(f"{path} is not a tag registry")
    tags = {}
    for uid, card_id in data["tags"].items():
        try:
            tags[normalize_uid(uid)] = Card.from_id(str(card_id))
        except KeyError:
            raise RegistryError(f"{path}: {card_id!r} is not a card id") from None
    return tags


def _write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    payload = (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
    write_atomically(path, payload)
