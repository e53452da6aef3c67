"""Typed command words in every language: found, unambiguous, never a card."""

from __future__ import annotations

import io
from collections import defaultdict
from pathlib import Path

import pytest

from companion.commands import COMMANDS, CommandWords, fold
from companion.games.sushigo.tactile import UnknownCodeError, parse
from companion.i18n import LANGUAGES, Catalog
from companion.plain import COMMON, PRACTICE_WORDS, Plain
from companion.plain_table import TABLE_WORDS
from companion.settings import Settings


@pytest.fixture(autouse=True)
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))


def test_every_command_the_app_names_has_words() -> None:
    assert set(COMMON) | set(PRACTICE_WORDS) | set(TABLE_WORDS) <= set(COMMANDS)


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_words_stands_for_one_command_across_all_languages(language: str) -> None:
    owners: dict[str, set[str]] = defaultdict(set)
    for other in LANGUAGES:
        words = CommandWords(Catalog.for_language(other))
        for command in COMMANDS:
            for word in [command, *words.words(command)]:
                owners[fold(word)].add(command)
    clashes = {word: commands for word, commands in owners.items() if len(commands) > 1}
    assert not clashes
    words = CommandWords(Catalog.for_language(language))
    for command in COMMANDS:
        assert words.words(command), command
        for word in [command, *words.words(command)]:
            assert words.command(word) == command
            assert words.command(word.upper()) == command


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_command_word_is_a_card(language: str) -> None:
    words = CommandWords(Catalog.for_language(language))
    for command in COMMANDS:
        for word in [command, *words.words(command)]:
            with pytest.raises(UnknownCodeError):
                parse(word)
            assert not word.isdigit()


def test_codes_and_other_text_are_not_commands() -> None:
    words = CommandWords(Catalog.for_language("fr"))
    for text in ("t", "w2", "o3", "1", "", "salmon nigiri", "Ana"):
        assert words.command(text) is None


def test_accents_and_case_do_not_matter() -> None:
    assert fold(" RÉPÉTER ") == "repeter"
    assert fold("Ещё") == "еще"


@pytest.mark.parametrize("language", ["fr", "cs", "ru"])
def test_a_localized_word_works_at_a_prompt(language: str) -> None:
    words = CommandWords(Catalog.for_language(language))
    typed = f"{words.word('help')}\n6\n"
    out = io.StringIO()
    Plain(io.StringIO(typed), out, Settings(language=language, speech="none")).run()
    catalog = Catalog.for_language(language)
    expected = catalog.text("Words that work everywhere: %(words)s.",
                            words=words.listed(COMMON))
    lines = out.getvalue().splitlines()
    assert expected in lines
    # the main word of each common command is named in the language's help
    for command in COMMON:
        assert words.word(command) in expected
