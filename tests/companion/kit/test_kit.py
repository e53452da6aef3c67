"""The tactile kit (``companion kit``), made by the real command in a
subprocess and read back: the SVG sheets counted shape by shape against the
deck, the PDF rendered by poppler (pdfinfo, pdftoppm, pdftotext) and read
as a screen reader gets it (tagged, in reading order), the BRF checked
against an embosser's page, liblouis's braille checked against known words
in every language, and bad options refused whole.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from companion.contract.game import (
    CORNERS,
    MARK_PLACES,
    MARK_SHAPES,
    Stickers,
    TactileKit,
    capability,
)
from companion.games import games
from companion.i18n import LANGUAGES, Catalog
from companion.kit.braille import CELLS, LINES, to_brf, translate
from companion.kit.layout import HOLE, HOLE_AT, place
from companion.kit.make import MANIFEST, Options, make
from tests.companion.kit.pdfread import read, tagged, text

MODULE = [sys.executable, "-m", "companion"]
#: What ``companion kit`` may say on standard error when it runs long (a
#: loaded machine): its progress, and nothing else.
PROGRESS = re.compile(r"Making the tactile kit…|\d of 5 steps(, \d+ s left|, done in \d+ s)?")
SVG = "{http://www.w3.org/2000/svg}"
#: The games with a tactile kit.
GAMES = sorted(name for name, plugin in games().items()
               if capability(plugin, TactileKit) is not None)


def stickers(name: str, language: str) -> Stickers:
    kit = capability(games()[name], TactileKit)
    assert kit is not None
    return kit.stickers(language)
#: Page sizes in points, as pdfinfo prints them.
PAGE_POINTS = {"a4": "595.276 x 841.89 pts", "letter": "612 x 792 pts"}


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"}}
    env.update(LANG="C.UTF-8", PYTHONIOENCODING="utf-8")
    return subprocess.run([*MODULE, *args], capture_output=True, text=True, encoding="utf-8",
                          timeout=120, env=env, cwd=cwd, check=False)


def made(tmp_path: Path, game: str, *options: str) -> tuple[Path, dict[str, Any]]:
    out = tmp_path / f"kit-{game}"
    done = run("kit", "--game", game, "--out", str(out), "--json", *options)
    assert done.returncode == 0, done.stderr
    assert all(PROGRESS.fullmatch(line) for line in done.stderr.splitlines()), done.stderr
    return out, json.loads(done.stdout)


def stickers_in(folder: Path) -> Counter[tuple[str, str]]:
    """Stickers drawn on every sheet, by card and shape; each must hold its
    cut line and at least one drawn shape."""
    found: Counter[tuple[str, str]] = Counter()
    for sheet in sorted(folder.glob("stickers-*.svg")):
        root = ET.parse(sheet).getroot()
        for group in root.iter(f"{SVG}g"):
            if group.get("class") != "sticker":
                continue
            drawn = [child for child in group if child.get("fill") == "#000"
                     or child.tag in (f"{SVG}line", f"{SVG}polyline")]
            assert drawn, f"a sticker of {group.get('data-card')} has no shape"
            found[(group.get("data-card") or "", group.get("data-shape") or "")] += 1
    return found


@pytest.mark.parametrize("name", GAMES)
def test_the_plugin_gives_every_kind_in_enrolment_order(name: str) -> None:
    plugin = games()[name]
    for language in LANGUAGES:
        deck = stickers(name, language)
        assert [k.card_id for k in deck.kinds] == list(plugin.card_ids())
        assert [k.count for k in deck.kinds] == [plugin.copies(i) for i in plugin.card_ids()]
        assert deck.punched_corner in CORNERS
        for kind in deck.kinds:
            assert kind.name and kind.sticker and kind.marks
            assert plugin.identify(kind.code) == kind.card_id
            for mark in kind.marks:
                assert mark.shape in MARK_SHAPES and mark.place in MARK_PLACES
    english = [k.name for k in stickers(name, "en").kinds]
    for language in ("cs", "fr", "ru"):
        assert [k.name for k in stickers(name, language).kinds] != english


@pytest.mark.system
@pytest.mark.parametrize("name", GAMES)
def test_the_sheets_hold_a_sticker_for_every_card_of_the_deck(tmp_path: Path, name: str) -> None:
    out, report = made(tmp_path, name)
    plugin = games()[name]
    deck = {card: plugin.copies(card) for card in plugin.card_ids()}
    assert report["stickers"] == deck
    expected = Counter({(kind.card_id, mark.shape): kind.count
                        for kind in stickers(name, "en").kinds for mark in kind.marks})
    assert stickers_in(out) == expected
    assert report["pages"] == len(list(out.glob("stickers-*.svg")))
    # every file but the list of them the kit keeps there (MANIFEST)
    assert sorted(report["files"]) == sorted(str(path) for path in out.iterdir()
                                             if path.name != MANIFEST)
    assert (out / MANIFEST).is_file()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".kit-")]


@pytest.mark.system
@pytest.mark.parametrize(("name", "paper"), [("sushigo", "a4"), ("mici-maki", "letter")])
def test_the_pdf_pages_are_the_paper_asked_and_show_the_shapes(tmp_path: Path, name: str,
                                                              paper: str) -> None:
    out, report = made(tmp_path, name, "--paper", paper)
    for pdf, pages in (("stickers.pdf", report["pages"]), ("guide.pdf", report["guide_pages"])):
        info = subprocess.run(["pdfinfo", "-l", "-1", str(out / pdf)], capture_output=True,
                              text=True, check=True, timeout=60).stdout
        assert f"Pages:           {pages}\n" in info
        assert f"Title:           {'Sushi Go!' if name == 'sushigo' else 'Mici Maki'}: " in info
        sizes = [line for line in info.splitlines()
                 if line.startswith("Page ") and " size:" in line]
        assert len(sizes) == pages
        assert all(PAGE_POINTS[paper] in line for line in sizes), sizes
        svg = ET.parse(out / pdf.replace(".pdf", "-1.svg")).getroot()
        assert svg.get("width", "").endswith("mm")
    # The first sheet, as an image: ink, but mostly paper.
    subprocess.run(["pdftoppm", "-gray", "-r", "40", "-f", "1", "-l", "1",
                    str(out / "stickers.pdf"), str(tmp_path / "page")], check=True, timeout=60)
    (image,) = tmp_path.glob("page*.pgm")
    data = image.read_bytes()
    header = data.split(maxsplit=4)
    assert header[0] == b"P5"
    width, height = int(header[1]), int(header[2])
    pixels = header[4][-width * height:]
    dark = sum(1 for value in pixels if value < 128) / len(pixels)
    assert 0.02 < dark < 0.5, dark
    # The whole sheet is there: a page's width and height at 40 dpi.
    expected = {"a4": (331, 468), "letter": (340, 440)}[paper]
    assert abs(width - expected[0]) <= 1 and abs(height - expected[1]) <= 1


def poppler(*command: str) -> str:
    """What a poppler tool prints; it must be installed (a test fails without it)."""
    return subprocess.run(list(command), capture_output=True, text=True, encoding="utf-8",
                          check=True, timeout=60).stdout


def svg_reading(path: Path) -> list[tuple[str, str]]:
    """What an SVG page says, in its order: each text's role (H1, H2, P) and
    words, and each figure (a group of role img) with its title."""
    found = []
    for element in ET.parse(path).getroot().iter():
        if element.tag == f"{SVG}text":
            level = element.get("aria-level")
            found.append((f"H{level}" if level else "P", element.text or ""))
        elif element.tag == f"{SVG}g" and element.get("role") == "img":
            title = element.find(f"{SVG}title")
            found.append(("Figure", "" if title is None else title.text or ""))
    return found


def struct_text(path: Path) -> list[tuple[str, str]]:
    """The structure poppler reads (``pdfinfo -struct-text``): each element
    under the document, its type and its text."""
    found: list[tuple[str, str]] = []
    lines = poppler("pdfinfo", "-struct-text", str(path)).splitlines()
    assert lines[0] == "Document", lines[:3]
    for line in lines[1:]:
        role = re.fullmatch(r"  (\w+)(?: \(\w+\)|:)", line)
        shown = re.fullmatch(r' +"(.*)"', line)
        if role:
            found.append((role.group(1), ""))
        elif shown:
            found[-1] = (found[-1][0], found[-1][1] + shown.group(1))
    return found


#: The biggest a kit's PDF may be, a page (bytes): the sheets, the guide.
#: With the whole font embedded, a two-page sheet was 390 kB.
PDF_BUDGET = {"stickers": 50_000, "guide": 25_000}


@pytest.mark.system
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", GAMES)
def test_the_pdfs_are_small_tagged_and_read_in_order(tmp_path: Path, name: str,
                                                     language: str) -> None:
    """What a screen reader gets of the PDFs: the text of each page in
    reading order, its heading first, each drawing said in words, in the
    kit's language, as the SVG pages say it."""
    out, report = made(tmp_path, name, "--lang", language)
    for stem, pages in (("stickers", report["pages"]), ("guide", report["guide_pages"])):
        path = out / f"{stem}.pdf"
        assert path.stat().st_size < PDF_BUDGET[stem] * pages, path.stat().st_size
        info = poppler("pdfinfo", str(path))
        assert "Tagged:          yes\n" in info
        assert f"Pages:           {pages}\n" in info
        fonts = poppler("pdffonts", str(path)).splitlines()[2:]
        assert len(fonts) == 1 and fonts[0].split()[-5:-2] == ["yes", "yes", "yes"], fonts
        said = [svg_reading(out / f"{stem}-{page}.svg") for page in range(1, pages + 1)]
        # pdftotext, a page at a time: the heading first, then every line. In
        # the order of the content (-raw), every line in reading order; by
        # default it reads the guide's grid of cards column by column.
        for page, expected in enumerate(said, 1):
            texts = [words for role, words in expected if role != "Figure"]
            assert expected[0][0] == "H1"
            pages_asked = ("-f", str(page), "-l", str(page), str(path), "-")
            raw = poppler("pdftotext", "-raw", *pages_asked).splitlines()
            assert [line for line in raw if line.strip()] == texts
            laid_out = poppler("pdftotext", *pages_asked).splitlines()
            lines = [line for line in laid_out if line.strip()]
            assert lines[0] == texts[0] and sorted(lines) == sorted(texts)
        # The structure as poppler reads it: every line of text, and every figure.
        everything = [entry for page in said for entry in page]
        assert struct_text(path) == [(role, "" if role == "Figure" else words)
                                     for role, words in everything]
        # The figures' words, and every MCID of each page in the parent tree.
        document = read(path.read_bytes())
        assert text(document.catalog["Lang"]) == language
        elements = tagged(document)
        assert [(e.role, e.alt or e.text) for e in elements] == everything
        assert all(e.alt.strip() for e in elements if e.role == "Figure")
        assert sum(role == "Figure" for role, _ in everything) > 0


@pytest.mark.system
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_kit_text_is_in_the_language_asked(tmp_path: Path, language: str) -> None:
    out, _ = made(tmp_path, "mici-maki", "--lang", language)
    words = Catalog.for_language(language)
    names = [kind.name for kind in stickers("mici-maki", language).kinds]
    text = subprocess.run(["pdftotext", "-layout", str(out / "stickers.pdf"), "-"],
                          capture_output=True, text=True, check=True, timeout=60).stdout
    guide = (out / "guide.md").read_text(encoding="utf-8")
    cards = (out / "cards.txt").read_text(encoding="utf-8")
    for name in names:
        assert name in text and f"## {name}" in guide and name in cards
    heading = words.text("%(game)s: placement guide", game="Mici Maki")
    assert guide.startswith(f"# {heading}\n")
    svg = (out / "guide-1.svg").read_text(encoding="utf-8")
    assert heading in svg and f'xml:lang="{language}"' in svg
    if language != "en":
        assert heading != "Mici Maki: placement guide"
    brf = (out / "labels.brf").read_text(encoding="ascii")
    for name, cells in zip(names, translate(names, language), strict=True):
        assert to_brf(cells) in brf, name


@pytest.mark.system
def test_the_guide_reads_as_text_with_a_heading_a_card(tmp_path: Path) -> None:
    out, _ = made(tmp_path, "sushigo")
    guide = (out / "guide.md").read_text(encoding="utf-8")
    assert guide.count("\n## ") == len(games()["sushigo"].card_ids())
    assert "## Salmon nigiri\n\n- 10 cards, code w2.\n- Sticker: Window, middle.\n" in guide
    assert "Window on the left edge, in the middle: 8 mm from the left, 33.5 mm from the top." \
        in guide
    assert "|" not in guide and max(len(line) for line in guide.splitlines()) < 200
    cards = (out / "cards.txt").read_text(encoding="utf-8").splitlines()
    listed = [line for line in cards if line[:1].isdigit()]
    assert len(listed) == 111
    assert listed[0] == "1. Tempura, 1 of 14, code x."
    assert listed[-1] == "111. Soy sauce, 3 of 3, code d."


@pytest.mark.system
@pytest.mark.parametrize("name", GAMES)
def test_the_brf_fits_an_embossers_page(tmp_path: Path, name: str) -> None:
    out, _ = made(tmp_path, name, "--lang", "cs")
    raw = (out / "labels.brf").read_bytes()
    assert raw.endswith(b"\f")
    pages = raw.decode("ascii").split("\f")[:-1]
    assert pages
    for page in pages:
        assert page.endswith("\r\n")
        lines = page.split("\r\n")[:-1]
        assert 0 < len(lines) <= LINES
        for line in lines:
            assert len(line) <= CELLS
            assert all(0x20 <= ord(ch) <= 0x5F for ch in line), line


KNOWN = {
    "en": [("Tempura", "⠠⠞⠑⠍⠏⠥⠗⠁"), ("5", "⠼⠑"), ("Pudding", "⠠⠏⠥⠙⠙⠊⠝⠛")],
    # Czech: ř dots 2456, í 34, ž 2346, á 16, ý 12346, ě 126.
    "cs": [("Přežrání", "⠠⠏⠺⠑⠮⠗⠡⠝⠌"), ("Výběr", "⠠⠧⠯⠃⠣⠗"), ("5", "⠼⠑")],
    # French: capital dots 46, à 12346, a digit after dot 6 (5 is dots 156).
    "fr": [("Baguettes", "⠨⠃⠁⠛⠥⠑⠞⠞⠑⠎"), ("à", "⠷"), ("5", "⠠⠱")],
    # Russian: п л ь м н, no capital sign.
    "ru": [("Пельмени", "⠏⠑⠇⠾⠍⠑⠝⠊"), ("еда", "⠑⠙⠁"), ("5", "⠼⠑")],
}


@pytest.mark.system
@pytest.mark.parametrize("language", LANGUAGES)
def test_liblouis_gives_known_braille(language: str) -> None:
    words, cells = zip(*KNOWN[language], strict=True)
    assert translate(list(words), language) == list(cells)


@pytest.mark.system
def test_the_brf_code_is_liblouiss() -> None:
    text = "Tempura, 14 stickers: the diagonal cross (x)!"
    (cells,) = translate([text], "en")
    done = subprocess.run(["lou_translate", "--forward", "en-us-brf.dis,en-ueb-g1.ctb"],
                          input=text + "\n", capture_output=True, text=True, check=True,
                          timeout=60)
    assert to_brf(cells) == done.stdout.strip("\n").upper()


def test_mici_maki_marks_keep_clear_of_the_punched_hole() -> None:
    deck = stickers("mici-maki", "en")
    keep = HOLE / 2
    for kind in deck.kinds:
        for mark in kind.marks:
            spot = place(mark, deck.card_size, 8.0, deck.punched_corner, 2)
            left, top, _, _ = spot.box
            assert left > HOLE_AT + keep or top > HOLE_AT + keep, kind.card_id


@pytest.mark.system
def test_a_measured_card_moves_the_stickers(tmp_path: Path) -> None:
    told: list[tuple[int, int]] = []
    kit = make(games()["sushigo"], Options(card_width=63.0, card_height=88.0),
               lambda done, total: told.append((done, total)))
    assert told == [(step, 5) for step in range(1, 6)]  # its progress, step by step
    guide = kit.files["guide.md"].decode()
    assert "Cards of 63 by 88 mm, as measured." in guide
    assert "Window on the left edge, at the bottom: 8 mm from the left, 80 mm from the top." \
        in guide


@pytest.mark.system
def test_a_kit_is_written_into_an_existing_folder_whole(tmp_path: Path) -> None:
    out = tmp_path / "kit"
    out.mkdir()
    (out / "mine.txt").write_text("kept")
    done = run("kit", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert (out / "mine.txt").read_text() == "kept"
    assert (out / "labels.brf").exists() and (out / "stickers.pdf").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kit"]
    assert "sushigo" not in done.stdout and "Sushi Go!: 9 files written to" in done.stdout


@pytest.mark.system
def test_a_shorter_kit_leaves_no_page_of_the_longer_one(tmp_path: Path) -> None:
    out, first = made(tmp_path, "sushigo")
    assert first["pages"] == 2
    (out / "stickers-7.txt").write_text("mine")
    _, second = made(tmp_path, "sushigo", "--sticker-size", "4")
    assert second["pages"] == 1
    assert sorted(p.name for p in out.glob("stickers-*")) == ["stickers-1.svg", "stickers-7.txt"]


@pytest.mark.parametrize(("args", "says"), [
    (("--game", "chess"), "There is no game called chess: give mici-maki, sushigo."),
    (("--paper", "a3"), "There is no paper called a3: give a4 or letter."),
    (("--lang", "de"), "There is no language called de: give cs, en, fr or ru."),
    (("--card-width", "5"), "A card side of 5 mm cannot be right: give 20 to 200 mm."),
    (("--sticker-size", "30"), "A sticker of 30 mm cannot be right: give 4 to 20 mm."),
    # refused once the kit is laid out, after the tools are found: system tests
    pytest.param(("--card-height", "30", "--sticker-size", "12"),
                 "Stickers of 12 mm touch one another on a card 30 mm high:"
                 " give a smaller --sticker-size.", marks=pytest.mark.system),
    pytest.param(("--card-width", "200", "--card-height", "200"),
                 "A card of 200 by 200 mm does not fit on A4 paper.", marks=pytest.mark.system),
])
def test_bad_options_are_refused_in_one_sentence_writing_nothing(
        tmp_path: Path, args: tuple[str, ...], says: str) -> None:
    out = tmp_path / "kit"
    done = run("kit", "--out", str(out), *args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == f"companion kit: {says}\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.system
def test_a_folder_that_cannot_be_written_is_refused_writing_nothing(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    for out in (blocker, blocker / "kit", tmp_path / "missing" / "kit"):
        done = run("kit", "--out", str(out))
        assert done.returncode == 2, out
        assert done.stderr.startswith(f"companion kit: Cannot write the kit to {out}: ")
        assert done.stderr.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]
    assert blocker.read_text() == "not a folder"


def test_the_refusal_speaks_the_language_asked(tmp_path: Path) -> None:
    done = run("kit", "--lang", "fr", "--paper", "a3", "--out", str(tmp_path / "kit"))
    assert done.returncode == 2
    expected = Catalog.for_language("fr").text(
        "There is no paper called %(paper)s: give a4 or letter.", paper="a3")
    assert done.stderr == f"companion kit: {expected}\n"
    assert "a3" in expected and expected != "There is no paper called a3: give a4 or letter."


@pytest.mark.system
def test_the_tools_are_installed() -> None:
    # The suite installs them (scripts/test.sh): a kit without them is refused.
    for tool in ("lou_translate", "pdffonts", "pdfinfo", "pdftoppm", "pdftotext"):
        assert shutil.which(tool), tool


# -- the folder is the user's --------------------------------------------------------------------

KIT_FILES = ["cards.txt", "guide-1.svg", "guide.md", "guide.pdf", "labels.brf",
             "stickers-1.svg", "stickers-2.svg", "stickers.pdf"]


def everything(folder: Path) -> dict[str, bytes | str]:
    """Every entry under ``folder``: a file's bytes, a link's target."""
    return {str(p.relative_to(folder)): str(p.readlink()) if p.is_symlink() else p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_symlink() or p.is_file()}


@pytest.mark.system
def test_a_folder_of_the_user_s_own_files_is_never_touched(tmp_path: Path) -> None:
    """The issue's case: ``--out ~/Documents`` removed guide-2024.svg and
    stickers-7.svg and replaced guide.pdf. Now a file of a kit's name that
    the kit did not write is refused, naming it, and nothing is written."""
    documents = tmp_path / "Documents"
    documents.mkdir()
    (documents / "guide-2024.svg").write_text("<svg>my drawing</svg>")
    (documents / "stickers-7.svg").write_text("<svg>my stickers</svg>")
    (documents / "guide.pdf").write_bytes(b"%PDF my guide")
    (tmp_path / "letter.txt").write_text("private")
    (documents / "cards.txt").symlink_to(tmp_path / "letter.txt")
    before = everything(tmp_path)
    done = run("kit", "--out", str(documents))
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        f"companion kit: {documents} already holds 2 files of the kit's names that this app"
        " did not write there: cards.txt, guide.pdf. Nothing was written: move them away, or"
        " give another --out folder.\n")
    assert everything(tmp_path) == before
    (documents / "guide.pdf").unlink()
    (documents / "cards.txt").unlink()
    _, kit = made_in(documents)
    assert everything(tmp_path)["Documents/guide-2024.svg"] == b"<svg>my drawing</svg>"
    assert everything(tmp_path)["Documents/stickers-7.svg"] == b"<svg>my stickers</svg>"
    assert (tmp_path / "letter.txt").read_text() == "private"
    assert set(KIT_FILES) <= {Path(f).name for f in kit["files"]}


def made_in(folder: Path, *options: str) -> tuple[Path, dict[str, Any]]:
    done = run("kit", "--out", str(folder), "--json", *options)
    assert done.returncode == 0, done.stderr
    return folder, json.loads(done.stdout)


@pytest.mark.system
def test_a_rerun_replaces_its_own_files_and_nothing_the_user_changed(tmp_path: Path) -> None:
    out, first = made_in(tmp_path / "kit")
    manifest = json.loads((out / ".companion-kit.json").read_text())
    assert sorted(manifest["files"]) == sorted(Path(f).name for f in first["files"])
    assert "earlier" not in manifest
    english = (out / "guide.md").read_text()
    _, again = made_in(out, "--lang", "fr")  # every file its own: replaced, in French
    assert (out / "guide.md").read_text().startswith("# Sushi Go!")
    assert (out / "guide.md").read_text() != english
    (out / "guide.md").write_text("my notes on the guide")
    done = run("kit", "--out", str(out))
    assert done.returncode == 2
    assert "1 file of the kit's names" in done.stderr and "guide.md." in done.stderr
    assert (out / "guide.md").read_text() == "my notes on the guide"
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [".companion-kit.json", *(Path(f).name for f in again["files"])])


@pytest.mark.system
def test_a_page_of_a_longer_kit_is_removed_only_if_it_is_still_the_kit_s(tmp_path: Path) -> None:
    out, first = made_in(tmp_path / "kit")
    assert first["pages"] == 2
    (out / "stickers-2.svg").write_text("<svg>I drew on this one</svg>")
    _, second = made_in(out, "--sticker-size", "4")
    assert second["pages"] == 1
    assert (out / "stickers-2.svg").read_text() == "<svg>I drew on this one</svg>"
    assert "stickers-2.svg" not in json.loads((out / ".companion-kit.json").read_text())["files"]


@pytest.mark.system
def test_a_link_in_the_folder_is_never_followed_nor_replaced(tmp_path: Path) -> None:
    out, _ = made_in(tmp_path / "kit")
    outside = tmp_path / "outside.pdf"
    outside.write_bytes(b"%PDF someone else's")
    (out / "guide.pdf").unlink()
    (out / "guide.pdf").symlink_to(outside)
    done = run("kit", "--out", str(out))
    assert done.returncode == 2 and "guide.pdf." in done.stderr
    assert (out / "guide.pdf").is_symlink() and outside.read_bytes() == b"%PDF someone else's"
    (out / "guide.pdf").unlink()
    (out / ".companion-kit.json").unlink()
    (out / ".companion-kit.json").symlink_to(outside)
    done = run("kit", "--out", str(out))
    assert done.returncode == 2
    assert done.stderr.startswith("companion kit: .companion-kit.json in ")
    assert outside.read_bytes() == b"%PDF someone else's"


@pytest.mark.system
def test_a_folder_named_through_a_link_is_written_there_by_the_same_rules(
        tmp_path: Path) -> None:
    """``--out`` may be a link (a Documents folder on another disk): the
    user named it. The kit goes where it leads, with the same care."""
    real = tmp_path / "disk" / "Documents"
    real.mkdir(parents=True)
    (real / "guide.md").write_text("mine")
    link = tmp_path / "Documents"
    link.symlink_to(real)
    done = run("kit", "--out", str(link))
    assert done.returncode == 2 and (real / "guide.md").read_text() == "mine"
    (real / "guide.md").unlink()
    made_in(link)
    assert link.is_symlink() and (real / ".companion-kit.json").is_file()
    assert (real / "guide.md").read_text().startswith("# Sushi Go!")
    dangling = tmp_path / "nowhere"
    dangling.symlink_to(tmp_path / "gone")
    done = run("kit", "--out", str(dangling))
    assert done.returncode == 2 and "Cannot write the kit to" in done.stderr
    assert not (tmp_path / "gone").exists()


@pytest.mark.system
def test_a_manifest_that_is_not_one_is_refused_and_kept(tmp_path: Path) -> None:
    out, _ = made_in(tmp_path / "kit")
    for damage in (b"[" * 100_000 + b"]" * 100_000, b'{"format": 1, "files": {"../x": {}}}'):
        (out / ".companion-kit.json").write_bytes(damage)
        before = everything(out)
        done = run("kit", "--out", str(out))
        assert done.returncode == 2
        assert done.stderr == (
            f"companion kit: .companion-kit.json in {out} is not the list of a kit this app"
            " wrote there: nothing was written. Move it away, or give another --out folder.\n")
        assert everything(out) == before


@pytest.mark.system
def test_kit_files_are_never_writable_by_others_whatever_the_umask(tmp_path: Path) -> None:
    """Kit files are for printing and sharing: readable as the umask allows,
    but with umask 000 nobody else may change them."""
    env = {k: v for k, v in os.environ.items()
           if k not in {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"}}
    for folder in (tmp_path / "new", tmp_path / "existing"):
        if folder.name == "existing":
            folder.mkdir()
        done = subprocess.run([*MODULE, "kit", "--out", str(folder)], capture_output=True,
                              text=True, timeout=120, env={**env, "LANG": "C.UTF-8"},
                              check=False, umask=0)
        assert done.returncode == 0, done.stderr
        for path in folder.iterdir():
            assert stat.S_IMODE(path.stat().st_mode) == 0o644, path
    assert stat.S_IMODE((tmp_path / "new").stat().st_mode) == 0o755
