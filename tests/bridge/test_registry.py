"""Which tag is which card: enrolment, export and import, the demo deck."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from companion.games.sushigo.cards import Card
from firmware_bridge.registry import (
    Registry,
    RegistryError,
    demo_card,
    demo_uid,
    normalize_uid,
)


def test_enrolled_tags_are_kept_on_disk_privately(tmp_path: Path) -> None:
    path = tmp_path / "registry.json"
    registry = Registry(path)
    assert registry.lookup("04A1B2C3D4E5F6") is None  # unknown: never guessed
    assert registry.enrol("04:a1:b2:c3:d4:e5:f6", Card.SQUID) is None
    assert registry.enrol("04A1B2C3D4E5F6", Card.SALMON) is Card.SQUID
    again = Registry.load(path)
    assert again.lookup("04A1B2C3D4E5F6") is Card.SALMON
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert again.remove("04A1B2C3D4E5F6") is Card.SALMON
    assert Registry.load(path).lookup("04A1B2C3D4E5F6") is None


def test_a_club_shares_its_deck(tmp_path: Path) -> None:
    club = Registry(tmp_path / "club.json")
    club.enrol("DEADBEEF", Card.TEMPURA)
    club.enrol("CAFEBABE", Card.WASABI)
    deck = tmp_path / "deck.json"
    assert club.export(deck, "Thursday deck") == 2
    mine = Registry(tmp_path / "mine.json")
    mine.enrol("CAFEBABE", Card.EGG)
    added, conflicts = mine.import_file(deck)
    assert (added, conflicts) == (1, ["CAFEBABE"])
    assert mine.lookup("CAFEBABE") is Card.EGG  # ours kept
    added, _ = mine.import_file(deck, replace=True)
    assert added == 1 and mine.lookup("CAFEBABE") is Card.WASABI
    assert json.loads(deck.read_text())["deck"] == "Thursday deck"


@pytest.mark.parametrize("text", ["", "04A1B2", "XYZ12345", "04A1B2C3D4"])
def test_bad_uids_are_refused(text: str) -> None:
    with pytest.raises(RegistryError):
        normalize_uid(text)


def test_a_bad_deck_file_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    registry = Registry(tmp_path / "mine.json")
    registry.enrol("DEADBEEF", Card.TEMPURA)
    bad = tmp_path / "bad.json"
    bad.write_text('{"tags": {"DEADBEEF": "caviar"}}')
    with pytest.raises(RegistryError, match="caviar"):
        registry.import_file(bad)
    assert registry.lookup("DEADBEEF") is Card.TEMPURA


def test_the_demo_deck_is_known_without_enrolment() -> None:
    for card in Card:
        assert demo_card(demo_uid(card, 1)) is card
    assert demo_card("DEC0DEFF000000") is None
    empty = Registry(Path("/nonexistent/registry.json"))
    assert empty.lookup(demo_uid(Card.PUDDING)) is Card.PUDDING
