"""Which tag is which card of which game: enrolment, export and import, files of
both formats, and the demo deck."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from companion.games.sushigo.cards import Card, deck_counts
from companion.games.sushigo.plugin import PLUGIN as VOCABULARY
from firmware_bridge.registry import (
    LEGACY_GAME,
    Registry,
    RegistryError,
    TagCard,
    demo_card,
    demo_uid,
    normalize_uid,
)
from firmware_bridge.vocabulary import SimpleVocabulary, Vocabulary

SALMON = TagCard("sushigo", "salmon")
FRUIT = SimpleVocabulary("fruit", "Fruit Salad", 9, (("apple", 2), ("pear", 1)))
GAMES: dict[str, Vocabulary] = {"sushigo": VOCABULARY, "fruit": FRUIT}


def test_enrolled_tags_are_kept_on_disk_privately(tmp_path: Path) -> None:
    path = tmp_path / "registry.json"
    registry = Registry(path)
    assert registry.lookup("04A1B2C3D4E5F6") is None  # unknown: never guessed
    assert registry.enrol("04:a1:b2:c3:d4:e5:f6", "sushigo", "squid") is None
    assert registry.enrol("04A1B2C3D4E5F6", "sushigo", "salmon") == TagCard("sushigo", "squid")
    again = Registry.load(path)
    assert again.lookup("04A1B2C3D4E5F6") == SALMON
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert json.loads(path.read_text()) == {
        "format": 2, "tags": {"04A1B2C3D4E5F6": {"game": "sushigo", "card": "salmon"}},
    }
    assert again.remove("04A1B2C3D4E5F6") == SALMON
    assert Registry.load(path).lookup("04A1B2C3D4E5F6") is None


def test_a_tag_card_reads_aloud_and_pastes_back() -> None:
    assert repr(SALMON) == "TagCard(game='sushigo', card='salmon')"
    assert eval(repr(SALMON)) == SALMON  # pastes back
    assert str(SALMON) == "sushigo salmon"


def test_a_club_shares_its_deck(tmp_path: Path) -> None:
    club = Registry(tmp_path / "club.json")
    club.enrol("DEADBEEF", "sushigo", "tempura")
    club.enrol("CAFEBABE", "sushigo", "wasabi")
    deck = tmp_path / "deck.json"
    assert club.export(deck, "Thursday deck") == 2
    mine = Registry(tmp_path / "mine.json")
    mine.enrol("CAFEBABE", "sushigo", "egg")
    added, conflicts = mine.import_file(deck)
    assert (added, conflicts) == (1, ["CAFEBABE"])
    assert mine.lookup("CAFEBABE") == TagCard("sushigo", "egg")  # ours kept
    added, _ = mine.import_file(deck, replace=True)
    assert added == 1 and mine.lookup("CAFEBABE") == TagCard("sushigo", "wasabi")
    written = json.loads(deck.read_text())
    assert written["deck"] == "Thursday deck" and written["format"] == 2
    assert written["tags"]["DEADBEEF"] == {"game": "sushigo", "card": "tempura"}


def test_a_format_1_file_is_sushi_go_and_is_rewritten_as_format_2(tmp_path: Path) -> None:
    path = tmp_path / "registry.json"
    path.write_text(json.dumps({"format": 1, "tags": {"deadbeef": "tempura",
                                                      "04A1B2C3D4E5F6": "squid"}}))
    registry = Registry.load(path)
    assert LEGACY_GAME == "sushigo"
    assert registry.lookup("DEADBEEF") == TagCard("sushigo", "tempura")
    assert json.loads(path.read_text())["format"] == 1  # reading writes nothing
    registry.enrol("CAFEBABE", "sushigo", "egg")
    assert json.loads(path.read_text()) == {"format": 2, "tags": {
        "04A1B2C3D4E5F6": {"game": "sushigo", "card": "squid"},
        "CAFEBABE": {"game": "sushigo", "card": "egg"},
        "DEADBEEF": {"game": "sushigo", "card": "tempura"},
    }}


def test_a_format_1_deck_file_imports_as_sushi_go(tmp_path: Path) -> None:
    deck = tmp_path / "deck.json"
    deck.write_text(json.dumps({"format": 1, "deck": "old", "tags": {"DEADBEEF": "pudding"}}))
    registry = Registry(tmp_path / "mine.json")
    assert registry.import_file(deck) == (1, [])
    assert registry.lookup("DEADBEEF") == TagCard("sushigo", "pudding")


def test_a_game_not_installed_keeps_its_tags(tmp_path: Path) -> None:
    path = tmp_path / "registry.json"
    path.write_text(json.dumps({"format": 2, "tags": {
        "DEADBEEF": {"game": "micimaki", "card": "anything-it-calls-a-card"},
        "CAFEBABE": {"game": "sushigo", "card": "egg"},
    }}))
    registry = Registry.load(path, {"sushigo": VOCABULARY})
    assert registry.lookup("DEADBEEF") == TagCard("micimaki", "anything-it-calls-a-card")
    registry.enrol("0A0B0C0D", "micimaki", "other")  # nothing to check it against
    assert [str(tag) for _, tag in registry] == [
        "micimaki anything-it-calls-a-card", "micimaki other", "sushigo egg",
    ]
    assert Registry.load(path).lookup("DEADBEEF") == TagCard("micimaki",
                                                             "anything-it-calls-a-card")


def test_tags_are_listed_by_game_then_in_the_game_order_of_cards(tmp_path: Path) -> None:
    registry = Registry(tmp_path / "registry.json", vocabularies=GAMES)
    for uid, game, card in [("0000000A", "sushigo", "pudding"), ("0000000B", "fruit", "pear"),
                            ("0000000C", "sushigo", "tempura"), ("0000000D", "fruit", "apple")]:
        registry.enrol(uid, game, card)
    assert [(str(tag), uid) for uid, tag in registry] == [
        ("fruit apple", "0000000D"), ("fruit pear", "0000000B"),
        ("sushigo tempura", "0000000C"), ("sushigo pudding", "0000000A"),
    ]


@pytest.mark.parametrize("text", ["", "04A1B2", "XYZ12345", "04A1B2C3D4"])
def test_bad_uids_are_refused(text: str) -> None:
    with pytest.raises(RegistryError):
        normalize_uid(text)


def test_a_card_its_installed_game_does_not_have_is_refused_naming_the_file(
    tmp_path: Path,
) -> None:
    registry = Registry(tmp_path / "mine.json")
    registry.enrol("DEADBEEF", "sushigo", "tempura")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": 2, "tags": {"CAFEBABE": {"game": "sushigo", "card": "caviar"}}}')
    with pytest.raises(RegistryError, match="caviar") as refused:
        registry.import_file(bad)
    assert str(bad) in str(refused.value) and "CAFEBABE" in str(refused.value)
    assert registry.lookup("DEADBEEF") == TagCard("sushigo", "tempura")  # nothing changed
    old = tmp_path / "old.json"
    old.write_text('{"tags": {"DEADBEEF": "caviar"}}')  # format 1: Sushi Go!'s too
    with pytest.raises(RegistryError, match=f"{old}.*Sushi Go! has no card called 'caviar'"):
        registry.import_file(old)
    with pytest.raises(RegistryError, match="caviar"):
        registry.enrol("DEADBEEF", "sushigo", "caviar")


@pytest.mark.parametrize("tags", [
    {"DEADBEEF": {"game": "", "card": "egg"}},
    {"DEADBEEF": {"game": "sushigo", "card": ""}},
    {"DEADBEEF": {"game": "x" * 41, "card": "egg"}},
    {"DEADBEEF": {"game": "micimaki", "card": "y" * 41}},
    {"DEADBEEF": {"game": 7, "card": "egg"}},
    {"DEADBEEF": {"game": "sushigo"}},
    {"DEADBEEF": "egg"},
    {"NOT-A-UID": {"game": "sushigo", "card": "egg"}},
])
def test_a_bad_format_2_file_is_refused_naming_it(tmp_path: Path, tags: object) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": 2, "tags": tags}))
    with pytest.raises(RegistryError) as refused:
        Registry.load(bad)
    assert str(refused.value).startswith(str(bad))


def test_a_newer_format_asks_for_a_newer_app(tmp_path: Path) -> None:
    newer = tmp_path / "newer.json"
    newer.write_text('{"format": 3, "tags": {}}')
    with pytest.raises(RegistryError, match="update the app"):
        Registry.load(newer)


def test_sushi_go_demo_uids_are_as_they_always_were() -> None:
    assert demo_uid(VOCABULARY, "salmon", 2) == "DEC0DE07020000"  # the third salmon
    assert demo_uid(VOCABULARY, "tempura") == "DEC0DE00000000"
    assert demo_uid(VOCABULARY, "soy-sauce", 2) == "DEC0DE0C020000"
    for card in Card:
        last = max(deck_counts(3).get(card, 0), 1) - 1
        assert demo_uid(VOCABULARY, card.id, last) == f"DEC0DE{card.index:02X}{last:02X}0000"


def test_the_demo_deck_is_known_without_enrolment() -> None:
    for card in Card:
        assert demo_card(demo_uid(VOCABULARY, card.id, 1), GAMES) == TagCard("sushigo", card.id)
    assert demo_card(demo_uid(FRUIT, "apple", 1), GAMES) == TagCard("fruit", "apple")
    assert demo_card("DEC0DEFF000000", GAMES) is None  # no such card
    assert demo_card("DEC0DE070A0000", GAMES) is None  # ten salmon: copies 0 to 9
    assert demo_card("DEC0DE07000100", GAMES) is None  # no game 1
    assert demo_card("DEC0DE07000001", GAMES) is None  # not a demo UID
    assert demo_card("DEC0DE07000000", {}) is None  # no game installed
    empty = Registry(Path("/nonexistent/registry.json"))
    assert empty.lookup(demo_uid(VOCABULARY, "pudding")) == TagCard("sushigo", "pudding")
    with pytest.raises(RegistryError, match="caviar"):
        demo_uid(VOCABULARY, "caviar")
    with pytest.raises(RegistryError, match="no copy 10 of salmon"):
        demo_uid(VOCABULARY, "salmon", 10)
