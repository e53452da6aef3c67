"""``companion kit`` where a part is missing: without liblouis it writes
everything but the braille labels (the stickers' braille numbers it
writes itself, the same cells liblouis gives), without a font everything
but the PDFs; each time it says what was not made and the command that
installs the part."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.i18n import Catalog
from companion.kit import braille, make, pdf
from companion.kit.braille import TABLES, BrailleError, numbers, translate
from companion.parts import how_to_get

MODULE = [sys.executable, "-m", "companion"]


def kit_without_liblouis(tmp_path: Path, game: str, *options: str,
                         louis: bool = False) -> subprocess.CompletedProcess[str]:
    """The real command, with a PATH that holds no lou_translate (or, with
    ``louis``, the system's PATH)."""
    empty = tmp_path / "bin"
    empty.mkdir(exist_ok=True)
    env = {key: value for key, value in os.environ.items()
           if key not in {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"}}
    env.update(LANG="C.UTF-8", PYTHONIOENCODING="utf-8")
    if not louis:
        env["PATH"] = str(empty)
    return subprocess.run([*MODULE, "kit", "--game", game, *options], capture_output=True,
                          text=True, encoding="utf-8", timeout=120, env=env, check=False)


@pytest.mark.parametrize("game", ["sushigo", "mici-maki"])
def test_without_liblouis_everything_but_the_labels_is_written_and_said(
        tmp_path: Path, game: str) -> None:
    out = tmp_path / "kit"
    done = kit_without_liblouis(tmp_path, game, "--out", str(out))
    assert done.returncode == 0, done.stderr
    written = sorted(path.name for path in out.iterdir() if not path.name.startswith("."))
    assert "labels.brf" not in written
    assert {"cards.txt", "guide.md", "stickers-1.svg", "guide-1.svg"} <= set(written)
    words = Catalog.for_language("en")
    said = done.stdout.splitlines()
    # the summary first, then what was not made and how to get it, then the files
    assert said[0].endswith(f"{len(written)} files written to {out}.")
    assert said[1].startswith("The braille labels (labels.brf) were not made: they need "
                              "liblouis. To install it: ")
    assert said[1].endswith(how_to_get("liblouis", words)) and how_to_get("liblouis", words)
    assert sorted(said[2:]) == [str(out / name) for name in written]


def test_without_liblouis_the_json_lists_what_is_missing(tmp_path: Path) -> None:
    done = kit_without_liblouis(tmp_path, "mici-maki", "--lang", "fr", "--json",
                                "--out", str(tmp_path / "kit"))
    assert done.returncode == 0, done.stderr
    missing = json.loads(done.stdout)["missing"]
    french = Catalog.for_language("fr")
    assert missing == [" ".join((french.text(
        "The braille labels (labels.brf) were not made: they need liblouis."),
        how_to_get("liblouis", french)))]
    assert "labels.brf" in missing[0] and "liblouis" in missing[0]
    assert missing[0] != " ".join(("The braille labels (labels.brf) were not made: they need "
                                   "liblouis.", how_to_get("liblouis", Catalog.for_language("en"))))


@pytest.mark.system
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_stickers_without_liblouis_are_the_ones_made_with_it(
        tmp_path: Path, language: str) -> None:
    """Mici Maki's braille numbers: the sheets and the guide drawn the same,
    byte for byte, with liblouis and without it."""
    kits = {}
    for louis in (True, False):
        out = tmp_path / f"kit-{louis}"
        done = kit_without_liblouis(tmp_path, "mici-maki", "--lang", language,
                                    "--out", str(out), louis=louis)
        assert done.returncode == 0, done.stderr
        kits[louis] = {path.name: path.read_bytes() for path in out.glob("*.svg")}
    assert kits[True] == kits[False] and len(kits[True]) >= 2
    assert b'data-shape="braille"' in kits[False]["stickers-1.svg"]


@pytest.mark.system
@pytest.mark.parametrize("language", sorted(TABLES))
def test_the_kit_s_own_braille_numbers_are_liblouis_s(language: str) -> None:
    texts = [str(number) for number in range(131)]
    assert numbers(texts, language) == translate(texts, language)


def test_braille_other_than_numbers_needs_liblouis() -> None:
    with pytest.raises(BrailleError, match="needs liblouis"):
        numbers(["5", "five"], "en")
    with pytest.raises(BrailleError):
        numbers(["٣"], "en")  # a digit, but not one braille writes so


def test_without_a_font_everything_but_the_pdfs_is_made(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_font() -> pdf.Font:
        raise pdf.FontError("none here")

    monkeypatch.setattr(pdf, "find_font", no_font)
    monkeypatch.setattr(braille, "available", lambda: False)
    from companion.games import games  # noqa: PLC0415

    kit = make.make(games()["sushigo"], make.Options(language="cs"))
    assert not [name for name in kit.files if name.endswith((".pdf", ".brf"))]
    assert {"stickers-1.svg", "guide-1.svg", "guide.md", "cards.txt"} <= set(kit.files)
    czech = Catalog.for_language("cs")
    assert kit.missing[1] == " ".join((czech.text(
        "The PDF files were not made: they need a TrueType font, such as DejaVu Sans; the SVG "
        "files hold the same pages."), how_to_get("font", czech)))
    assert len(kit.missing) == 2 and "labels.brf" in kit.missing[0]
