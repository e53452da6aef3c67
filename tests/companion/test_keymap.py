"""The one key map: typed words in every language, found, unambiguous, never
a card; and the full screen's bindings and the help sentences made from it."""

from __future__ import annotations

import io
from collections import defaultdict
from pathlib import Path

import pytest

from companion.app import run_plain
from companion.faces.screen import CompanionApp
from companion.games import games
from companion.i18n import LANGUAGES, Catalog
from companion.keymap import (
    ACTIONS,
    EVERYWHERE,
    KEY_NAMES,
    Action,
    Scope,
    Words,
    fold,
    keys_sentence,
)
from companion.settings import Settings


@pytest.fixture(autouse=True)
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))


def words_in(language: str) -> Words:
    """The words of a language: the app's and every game's, as the app has them."""
    return Words(Catalog.for_language(language), [
        (action, plugin.catalog(language))
        for plugin in games().values() for action in plugin.actions])


def every_action() -> list[Action]:
    return [*ACTIONS, *(a for plugin in games().values() for a in plugin.actions)]


def test_every_game_word_a_game_answers_is_in_the_key_map() -> None:
    # Each game's own words are game words, and none takes an app action's name.
    names = [action.name for action in every_action()]
    assert len(names) == len(set(names))
    for plugin in games().values():
        assert all(action.scope is Scope.GAME for action in plugin.actions)


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_word_stands_for_one_action_across_all_languages(language: str) -> None:
    owners: dict[str, set[str]] = defaultdict(set)
    for other in LANGUAGES:
        words = words_in(other)
        for action in every_action():
            for word in [action.word, *words.words(action.name)]:
                owners[fold(word)].add(action.name)
    clashes = {word: actions for word, actions in owners.items() if len(actions) > 1}
    assert not clashes
    words = words_in(language)
    for action in every_action():
        assert words.words(action.name), action
        for word in [action.word, *words.words(action.name)]:
            assert words.action(word) == action
            assert words.action(word.upper()) == action


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_word_is_a_card_of_any_game(language: str) -> None:
    words = words_in(language)
    for action in every_action():
        for word in [action.word, *words.words(action.name)]:
            assert not word.isdigit()
            for plugin in games().values():
                with pytest.raises(ValueError):
                    plugin.reader.read(word)


def test_codes_and_other_text_are_not_words() -> None:
    words = words_in("fr")
    for text in ("t", "w2", "o3", "1", "", "salmon nigiri", "Ana"):
        assert words.action(text) is None


def test_accents_and_case_do_not_matter() -> None:
    assert fold(" RÉPÉTER ") == "repeter"
    assert fold("Ещё") == "еще"


def test_the_full_screen_binds_exactly_the_keys_of_the_key_map() -> None:
    bound = {(binding.key, binding.action) for binding in CompanionApp.BINDINGS
             if not isinstance(binding, tuple | str)}
    expected = {(key, f"press('{action.name}')") for action in ACTIONS for key in action.keys}
    assert bound == expected
    named = {key for key, _label in KEY_NAMES}
    assert all(key in named for action in ACTIONS for key in action.keys)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_keys_sentence_names_every_key_with_its_word(language: str) -> None:
    catalog = Catalog.for_language(language)
    words = words_in(language)
    sentence = keys_sentence(catalog, words)
    for action in ACTIONS:
        for key in action.keys:
            label = catalog.text(dict(KEY_NAMES)[key])
            assert f"{label} {words.word(action.name)}" in sentence


@pytest.mark.parametrize("language", ["fr", "cs", "ru"])
def test_a_localized_word_works_at_a_prompt(language: str) -> None:
    words = words_in(language)
    out = io.StringIO()
    run_plain(io.StringIO(f"{words.word('help')}\n6\n"), out,
              Settings(language=language, speech="none"))
    catalog = Catalog.for_language(language)
    expected = catalog.text("Words that work everywhere: %(words)s.",
                            words=words.listed(EVERYWHERE))
    lines = out.getvalue().splitlines()
    assert expected in lines
    # the main word of each everywhere action is named in the language's help
    for name in EVERYWHERE:
        assert words.word(name) in expected
