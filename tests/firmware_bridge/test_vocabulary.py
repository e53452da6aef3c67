"""Games found through their entry points; what is no vocabulary is left out."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import EntryPoint

import pytest

from firmware_bridge import vocabulary
from firmware_bridge.vocabulary import GROUP, SimpleVocabulary, Vocabulary, vocabularies

FRUIT = SimpleVocabulary("fruit", "Fruit Salad", 9, (("apple", 2), ("pear", 1)))
VEG = SimpleVocabulary("veg", "Vegetable Patch", 8, (("leek", 4),))
FRUIT_AGAIN = SimpleVocabulary("fruit", "Fruit Salad 2", 7, (("plum", 1),))
SAME_NUMBER = SimpleVocabulary("nuts", "Nuts", 9, (("hazel", 1),))
BAD_NUMBER = SimpleVocabulary("big", "Big", 256, (("one", 1),))
NO_NAME = SimpleVocabulary("", "Nameless", 3, (("one", 1),))
NOT_A_VOCABULARY = object()


def offered(*values: str) -> list[EntryPoint]:
    return [EntryPoint(f"game{n}", value, GROUP) for n, value in enumerate(values)]


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[EntryPoint]]:
    """The entry points the games offer, as a list the test fills."""
    points: list[EntryPoint] = []
    calls: list[str] = []

    def entry_points(*, group: str) -> list[EntryPoint]:
        calls.append(group)
        return points

    monkeypatch.setattr(vocabulary, "entry_points", entry_points)
    vocabulary.forget_installed()
    yield points
    vocabulary.forget_installed()


def test_each_game_offered_is_found_by_its_name(installed: list[EntryPoint]) -> None:
    installed += offered(f"{__name__}:VEG", f"{__name__}:FRUIT")
    found = vocabularies()
    assert found == {"veg": VEG, "fruit": FRUIT}
    assert all(isinstance(each, Vocabulary) for each in found.values())


def test_they_are_found_once_and_each_caller_has_its_own_copy(
    installed: list[EntryPoint],
) -> None:
    installed += offered(f"{__name__}:FRUIT")
    first = vocabularies()
    installed += offered(f"{__name__}:VEG")  # too late: games are not added while running
    first.clear()
    assert vocabularies() == {"fruit": FRUIT}


@pytest.mark.parametrize(("value", "why"), [
    (f"{__name__}:NOT_A_VOCABULARY", "it is not a vocabulary"),
    ("tests.firmware_bridge.no_such_module:GAME", "it cannot be loaded (ModuleNotFoundError"),
    (f"{__name__}:FRUIT_AGAIN", "another vocabulary already serves the game 'fruit'"),
    (f"{__name__}:SAME_NUMBER", "its demo number 9 is already 'fruit''s"),
    (f"{__name__}:BAD_NUMBER", "its demo number 256 is not 0 to 255"),
    (f"{__name__}:NO_NAME", "its game name '' is not 1 to 40 characters"),
])
def test_what_cannot_serve_is_left_out_with_a_warning(
    installed: list[EntryPoint], value: str, why: str
) -> None:
    installed += offered(f"{__name__}:FRUIT", value)
    with pytest.warns(RuntimeWarning, match=f"game {value} left out: ") as warned:
        found = vocabularies()
    assert found == {"fruit": FRUIT}
    assert why in str(warned[0].message)


def test_a_simple_vocabulary_reads_its_ids_whatever_the_case() -> None:
    assert FRUIT.identify("APPLE\n") == "apple"
    assert FRUIT.copies("pear") == 1
    with pytest.raises(ValueError, match="'plum' is not a card of Fruit Salad"):
        FRUIT.identify("plum")
    with pytest.raises(ValueError, match="'plum' is not a card of Fruit Salad"):
        FRUIT.copies("plum")


#: What listing the games must not load: the app's conversation, journals,
#: saved games (and SQLite under them).
HEAVY = ("companion.conversation", "companion.journal", "companion.store", "sqlite3")


#: What the games' vocabularies must not load either: their sentences' modules
#: (a refusal in the player's words comes from a light module of the game's).
GAME_HEAVY = ("narration", "telling", "plugin", "session")


def test_listing_the_installed_games_loads_no_conversation_journal_or_store() -> None:
    """The installed games' vocabularies, as ``firmware-bridge`` lists them
    and asks them why a text names no card, in a fresh interpreter: nothing
    of the app but the games' pure modules."""
    script = (
        "import sys, json\n"
        "from firmware_bridge.vocabulary import vocabularies\n"
        "found = vocabularies()\n"
        "refused = [v.refusal('zz', 'fr') for v in found.values()]\n"
        "heavy = [m for m in sys.modules if m.split('.')[0] == 'sqlite3' or any(\n"
        f"    m == h or m.startswith(h + '.') for h in {HEAVY!r}) or (\n"
        "    m.startswith('companion.games.') and m.rpartition('.')[2] in\n"
        f"    {GAME_HEAVY!r})]\n"
        "print(json.dumps({'games': sorted(found), 'heavy': heavy, 'refused': refused}))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, check=True)
    listed = json.loads(done.stdout)
    assert {"sushigo", "mici-maki"} <= set(listed["games"]), listed
    assert listed["heavy"] == [], listed
    assert all(listed["refused"]), listed  # every game has words for the refusal


def test_every_game_of_the_app_offers_the_same_vocabulary_to_the_bridge() -> None:
    from companion.games import games  # noqa: PLC0415 - the app's registry, for this check

    bridge = vocabularies()
    for name, plugin in games().items():
        offered = bridge.get(name)
        assert offered is not None, f"{name} offers the bridge no vocabulary"
        assert (offered.title, offered.demo_number, offered.card_ids()) == (
            plugin.title, plugin.demo_number, plugin.card_ids())
        for card_id in plugin.card_ids():
            assert offered.copies(card_id) == plugin.copies(card_id)
