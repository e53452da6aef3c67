"""Every word a command says, in the player's language: no English left.

The help of every command and subcommand of ``companion`` and
``firmware-bridge`` (argparse's own headings, usage lines and refusals
included), and the output of the commands run for real in a subprocess
(``simulate``, ``bench``, ``score``, ``risk``, ``kit`` and its files,
``games``, ``firmware-bridge``'s), with their refusals and a system's error,
are gathered in English and in French, Czech and Russian. A translated
text fails when English is left in it:

- a line with words that is the same as a line of the English text (the
  words a player types, such as option names, commands, codes and the
  games' names, set aside), or
- any three words in a row of the English text (none of them typed words)
  found in it.

So one untranslated sentence, an English error inside a translated one or
an English heading fails the test: :func:`test_a_missing_translation_is_found`
shows it with a translation taken away.
"""

from __future__ import annotations

import argparse
import gettext
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from companion import cli
from companion.i18n import DOMAIN, LOCALE_DIR, Catalog
from firmware_bridge import cli as bridge_cli
from firmware_bridge import words as bridge_words
from tests.companion.test_cli import EXAMPLE

TRANSLATED = ("fr", "cs", "ru")
WORD = re.compile(r"[^\W\d_]+")
#: Words a player types or reads as names, the same in every language.
NAMES = frozenset(" ".join((
    "companion firmware bridge sushigo mici maki sushi go json wav lang nfc pyserial uid",
    "greedy random advisor cautious engine scan speech codes score say simulate risk kit",
    "games bench listen enrol registry list remove export import espeak ng pyttsx",
    "dispatcher auto none virtual pass both ways dummy soy sauce letter dev tty ttyacm",
    "stdin us ms mm p tactile tmp pts hex companion_speech n ana ben",
)).split())


def typed_words(parser: argparse.ArgumentParser) -> set[str]:
    """The words of every option, choice and command of ``parser`` and its
    subparsers (what a player types)."""
    found: set[str] = set()
    for action in parser._actions:
        for option in action.option_strings:
            found.update(WORD.findall(option.lower()))
        for choice in action.choices or ():
            found.update(WORD.findall(str(choice).lower()))
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found |= typed_words(sub)
    return found


def parsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
            ) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """``parser`` and every subparser under it, with the words that lead there."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from parsers(sub, (*path, name))


def refusal(parser: argparse.ArgumentParser, argv: Sequence[str]) -> str:
    """What argparse says when it refuses ``argv`` (its usage and error)."""
    import contextlib  # noqa: PLC0415
    import io  # noqa: PLC0415

    said = io.StringIO()
    with contextlib.redirect_stderr(said), pytest.raises(SystemExit):
        parser.parse_args(list(argv))
    return said.getvalue()


#: Command lines argparse refuses, one of each of its refusals.
COMPANION_REFUSED = (["frob"], ["simulate", "--players"], ["simulate", "--players", "x"],
                     ["bench"], ["simulate", "--bogus"], ["kit", "--card-width", "wide"],
                     ["--speech", "loud"])
BRIDGE_REFUSED: tuple[list[str], ...] = (
    ["frob"], [], ["registry"], ["listen", "--seconds", "soon"], ["registry", "remove"])


def helps(language: str) -> tuple[str, set[str]]:
    """Every help and argparse refusal of both commands in ``language``, and
    the words typed in them."""
    texts: list[str] = []
    with bridge_words.argparse_in(language):
        parser = cli._parser(Catalog.for_language(language))
        bridge = bridge_cli._parser(language)
        texts += [sub.format_help() for _path, sub in parsers(parser)]
        texts += [sub.format_help() for _path, sub in parsers(bridge)]
        texts += [refusal(parser, argv) for argv in COMPANION_REFUSED]
        texts += [refusal(bridge, argv) for argv in BRIDGE_REFUSED]
    return "\n".join(texts), typed_words(parser) | typed_words(bridge)


@dataclass
class Outputs:
    """The texts of the commands run in one language, and the words typed."""

    text: list[str] = field(default_factory=list)
    typed: set[str] = field(default_factory=set)


def _run(tmp: Path, command: str, *args: str, stdin: str = "") -> str:
    env = {k: v for k, v in os.environ.items()
           if k not in {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"}}
    env |= {"LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8", "COMPANION_DATA_DIR": str(tmp),
            "XDG_DATA_HOME": str(tmp), "XDG_CONFIG_HOME": str(tmp), "HOME": str(tmp)}
    done = subprocess.run([sys.executable, "-m", command, *args], input=stdin,
                          capture_output=True, text=True, env=env, timeout=120, check=False,
                          cwd=tmp)
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout + done.stderr


def outputs(language: str, tmp: Path) -> Outputs:
    """The commands' outputs in ``language``, run for real."""
    tmp.mkdir(parents=True, exist_ok=True)
    game = tmp / "game.json"
    game.write_text(json.dumps(EXAMPLE), encoding="utf-8")
    said = Outputs()
    lang = ("--lang", language)
    runs: list[tuple[str, ...]] = [
        ("simulate", "--games", "2", *lang),
        ("simulate", "--game", "mici-maki", "--games", "2", *lang),
        ("simulate", "--games", "2", "--variant", "soy-sauce=x", *lang),
        ("simulate", "--games", "2", "--variant", "bogus", *lang),
        ("simulate", "--games", "0", *lang),
        ("simulate", "--players", "9", "--games", "1", *lang),
        ("bench", "engine", "--seconds", "0.05", *lang),
        ("bench", "scan", "--seconds", "0.3", *lang),
        ("score", str(game), "--explain", *lang),
        ("score", str(tmp / "no such game.json"), *lang),
        ("score", str(tmp), *lang),
        ("risk", "--draw", "40", "--overeating", "2", "--eat", "12", *lang),
        ("risk", "--draw", "3", "--overeating", "4", "--eat", "2", *lang),
        ("risk", "--draw", "3", "--overeating", "9", "--eat", "2", *lang),
        ("kit", "--out", str(tmp / "kit"), *lang),
        ("kit", "--out", str(tmp / "no such folder" / "kit"), *lang),
        ("games", *lang),
        ("say", "x", "--to", str(game), *lang),
    ]
    for args in runs:
        said.text.append(_run(tmp, "companion", *args))
        said.typed.update(WORD.findall(" ".join(args).lower()))
    kit = sorted((tmp / "kit").iterdir())
    said.text += [path.read_text(encoding="utf-8") for path in kit if path.suffix == ".txt"]
    # the paths written back are the player's: their words are no English to translate
    said.typed.update(WORD.findall(" ".join(map(str, [tmp, *kit])).lower()))
    bridge = [("registry", "list", *lang), ("registry", "remove", "zz", *lang),
              ("registry", "import", str(tmp / "no such deck.json"), *lang),
              ("simulate", "--game", "nosuchgame", *lang)]
    for args in bridge:
        said.text.append(_run(tmp, "firmware_bridge", *args))
        said.typed.update(WORD.findall(" ".join(args).lower()))
    link = str(tmp / "scanner")
    said.text.append(_run(tmp, "firmware_bridge", "simulate", "--link", link, *lang,
                          stdin="zz\nquit\n").split("\n", 2)[-1])  # after PORT and LINK
    return said


def words(line: str, typed: set[str]) -> list[str]:
    return [w for w in WORD.findall(line.lower()) if w not in typed and w not in NAMES]


def english_left(translated: str, english: str, typed: set[str]) -> list[str]:
    """The lines of ``translated`` that still hold English of ``english``."""
    same_lines = {tuple(words(line, typed)) for line in english.splitlines()} - {()}

    def threes(line: str) -> set[tuple[str, ...]]:
        """Its three words in a row, two of them at least not typed words."""
        found = WORD.findall(line.lower())
        return {tuple(found[i:i + 3]) for i in range(len(found) - 2)
                if sum(w not in typed and w not in NAMES for w in found[i:i + 3]) >= 2}

    english_threes = set().union(*(threes(line) for line in english.splitlines()))
    return [line.strip() for line in translated.splitlines()
            if tuple(words(line, typed)) in same_lines or threes(line) & english_threes]


#: Words that are the same in English and a translation (checked by hand).
SAME: dict[str, frozenset[str]] = {
    "fr": frozenset({"options", "port", "action", "bots", "points"}),
    "cs": frozenset({"port", "text"}),
    "ru": frozenset(),
}


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_help_and_refusal_of_the_command_lines_is_translated(language: str) -> None:
    english, typed = helps("en")
    translated, _ = helps(language)
    left = english_left(translated, english, typed | SAME[language])
    assert not left, f"{language}: English left in the help:\n" + "\n".join(left)


@pytest.fixture(scope="module")
def english_outputs(tmp_path_factory: pytest.TempPathFactory) -> Outputs:
    return outputs("en", tmp_path_factory.mktemp("en"))


@pytest.mark.slow
@pytest.mark.parametrize("language", TRANSLATED)
def test_every_output_of_the_commands_is_translated(
        language: str, english_outputs: Outputs, tmp_path: Path) -> None:
    said = outputs(language, tmp_path)
    english = "\n".join(english_outputs.text)
    assert "Usage" not in english  # every command line above was accepted
    left = english_left("\n".join(said.text), english,
                        said.typed | english_outputs.typed | SAME[language])
    assert not left, f"{language}: English left in the output:\n" + "\n".join(left)


def _without(message: str, real: gettext.NullTranslations) -> gettext.NullTranslations:
    """``real`` with ``message`` left untranslated."""

    class Without(gettext.NullTranslations):
        def gettext(self, text: str, /) -> str:
            return text if text == message else real.gettext(text)

        def ngettext(self, singular: str, plural: str, n: int, /) -> str:
            return real.ngettext(singular, plural, n)

    return Without()


def test_a_missing_translation_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """One sentence taken out of the French catalogs (a help line of the
    app's, an argparse heading of the bridge's): the help check finds each."""
    english, typed = helps("en")
    message = "what to measure: engine, advisor, scan, speech or web"
    missing = _without(message, Catalog.for_language("fr").translations)
    app = Catalog.for_language

    def only_the_apps(_cls: type, language: str, domain: str = DOMAIN,
                      directory: Path = LOCALE_DIR) -> Catalog:
        if (domain, directory) == (DOMAIN, LOCALE_DIR):
            return Catalog(language, missing)
        return app(language, domain, directory)

    monkeypatch.setattr(Catalog, "for_language", classmethod(only_the_apps))
    translated, _ = helps("fr")
    monkeypatch.undo()
    left = english_left(translated, english, typed | SAME["fr"])
    assert left and all(message in line for line in left), left

    message = "What to give"
    missing = _without(message, bridge_words.catalog("fr"))
    monkeypatch.setattr(bridge_words, "catalog", lambda _language: missing)
    translated, _ = helps("fr")
    monkeypatch.undo()
    left = english_left(translated, english, typed | SAME["fr"])
    assert left and all(message in line for line in left), left
