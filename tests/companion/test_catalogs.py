"""The message catalogs: complete, compiled, and safe to format.

Every sentence the app says is an English message id looked up in a
catalog: the app's own, ``companion/locale/<lang>/LC_MESSAGES/companion.po``,
and each game's, ``companion/games/<game>/locale/<lang>/LC_MESSAGES/<game>.po``
(a domain of its own, falling back to the app's). These tests extract the
ids afresh from the code of each domain (as ``scripts/update-catalogs.sh``
does) and check that each language has them all, translated, with the same
placeholders, and that the compiled ``.mo`` files say the same as the
``.po`` files. When a test fails here, run ``bash scripts/update-catalogs.sh``,
translate what it lists, and run it again.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog as PoCatalog
from babel.messages.catalog import Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from companion.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, Catalog

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "companion"
TRANSLATED = ("fr", "cs", "ru")


@dataclass(frozen=True)
class Domain:
    """A set of catalogs: its name, the code it is extracted from, its folder."""

    name: str
    source: Path
    locale: Path

    def catalog(self, language: str) -> Catalog:
        return Catalog.for_language(language, self.name, self.locale)

    def __str__(self) -> str:
        return self.name


#: Memory, the tests' third game (tests/companion/games/memory): its own
#: catalogs, in its folder, as a game installed from elsewhere has them.
MEMORY = ROOT / "tests" / "companion" / "games" / "memory"
#: The app's domain, then each game's (a package with a locale folder),
#: then the scanner's bridge's (below the app; argparse's words too).
DOMAINS = (Domain(DOMAIN, PACKAGE, LOCALE_DIR), *(
    Domain(game.name, game, game / "locale")
    for game in sorted((PACKAGE / "games").iterdir()) if (game / "locale").is_dir()
), Domain("memory", MEMORY, MEMORY / "locale"),
    Domain("firmware_bridge", ROOT / "firmware_bridge", ROOT / "firmware_bridge" / "locale"))
EVERY = [(domain, language) for domain in DOMAINS for language in LANGUAGES]
EVERY_IDS = [f"{domain}-{language}" for domain, language in EVERY]
EACH_TRANSLATED = [(domain, language) for domain in DOMAINS for language in TRANSLATED]
EACH_TRANSLATED_IDS = [f"{domain}-{language}" for domain, language in EACH_TRANSLATED]

# The keywords of scripts/update-catalogs.sh: Babel's defaults plus these.
KEYWORDS = {**DEFAULT_KEYWORDS, "text": None, "plural": (1, 2), "N_": None, "C_": ((1, "c"), 2)}


def _cs(n: int) -> int:
    return 0 if n == 1 else 1 if 2 <= n <= 4 else 2


def _ru(n: int) -> int:
    if n % 10 == 1 and n % 100 != 11:
        return 0
    if 2 <= n % 10 <= 4 and not 10 <= n % 100 < 20:
        return 1
    return 2


#: The standard gettext plural rules, written out independently of the
#: catalogs' headers so a wrong header is caught.
PLURAL_RULES: Mapping[str, tuple[int, Callable[[int], int]]] = {
    "en": (2, lambda n: int(n != 1)),
    "fr": (2, lambda n: int(n > 1)),
    "cs": (3, _cs),
    "ru": (3, _ru),
}

#: Numbers that reach every plural form of the four languages, and negative
#: scores, whose form is chosen on their size.
SAMPLES = (0, 1, 2, 3, 4, 5, 11, 12, 14, 20, 21, 22, 25, 101, 111, 112, 1000, -1, -2, -3, -5, -21)

#: Plural forms that are rightly the same word, by (language, singular id):
#: Czech "trojice" is both "1 trojice" and "2 trojice" (5 trojic).
SAME_FORMS: Mapping[tuple[str, str], frozenset[tuple[int, int]]] = {
    ("cs", "%(n)d set of 3"): frozenset({(0, 1)}),
    # Progress, "120 z 400 her", "120 из 400 партий": after "z", "из" the
    # count takes the genitive, one plural for 2 to 4 and for 5 on ("načtení"
    # is the same in every form).
    **{(language, singular): frozenset({(1, 2)}) for language in ("cs", "ru")
       for singular in ("%(done)d of %(n)d game", "%(done)d of %(n)d run",
                        "%(done)d of %(n)d scan", "%(done)d of %(n)d step",
                        "%(done)d of %(n)d table size")},
    ("cs", "%(done)d of %(n)d scan"): frozenset({(0, 1), (0, 2), (1, 2)}),
}

PLACEHOLDER = re.compile(r"%\((\w+)\)([sd])")
ANY_PERCENT = re.compile(r"%(?:\([^)]*\))?.?")


@dataclass(frozen=True)
class Entry:
    """One message: its id (singular, and plural if any) and translations."""

    singular: str
    plural: str | None
    strings: tuple[str, ...]
    context: str | None = None

    @property
    def key(self) -> str | tuple[str, str]:
        return self.singular if self.plural is None else (self.singular, self.plural)

    @property
    def ids(self) -> tuple[str, ...]:
        return (self.singular,) if self.plural is None else (self.singular, self.plural)


def _entry(message: Message) -> Entry:
    if isinstance(message.id, str):
        assert isinstance(message.string, str)
        return Entry(message.id, None, (message.string,), message.context)
    singular, plural, *_ = message.id
    strings = message.string
    assert isinstance(strings, tuple)
    return Entry(str(singular), str(plural), tuple(str(s) for s in strings))


@cache
def extracted(domain: Domain) -> frozenset[str | tuple[str, str]]:
    """Every message id the domain's code uses, freshly extracted with Babel
    (the app's code is all but the games')."""
    found: set[str | tuple[str, str]] = set()
    method_map = [("games/**", "ignore"), ("**.py", "python")] if domain.name == DOMAIN else [
        ("**.py", "python")]
    for _filename, _lineno, message, _comments, _context in extract_from_dir(
        domain.source, method_map=method_map, keywords=KEYWORDS
    ):
        if isinstance(message, str):
            found.add(message)
        else:
            singular, plural, *_ = message
            assert singular is not None and plural is not None
            found.add((singular, plural))
    return frozenset(found)


def po_path(domain: Domain, language: str) -> Path:
    return domain.locale / language / "LC_MESSAGES" / f"{domain.name}.po"


@cache
def po_catalog(domain: Domain, language: str) -> PoCatalog:
    with po_path(domain, language).open("rb") as file:
        return read_po(file, locale=language)


def entries(domain: Domain, language: str) -> list[Entry]:
    return [_entry(m) for m in po_catalog(domain, language) if m.id]


def placeholders(text: str) -> frozenset[tuple[str, str]]:
    return frozenset(PLACEHOLDER.findall(text))


def stray_percent(text: str) -> list[str]:
    """``%`` signs that are not a ``%(name)s``/``%(name)d`` placeholder or ``%%``."""
    return [
        m.group()
        for m in ANY_PERCENT.finditer(text)
        if m.group() != "%%" and not PLACEHOLDER.fullmatch(m.group())
    ]


def sample_params(ids: tuple[str, ...], *, plural: bool = False) -> dict[str, object]:
    """A value for every placeholder: a marked word for %s, a number for %d.
    In a plural message ``n`` is the count, given by Catalog.plural itself."""
    params: dict[str, object] = {}
    for text in ids:
        for name, kind in placeholders(text):
            if name != "n" or not plural:
                params[name] = 7 if kind == "d" else f"<{name}>"
    return params


def forms(entry: Entry) -> tuple[str, ...]:
    """The plural forms the app says: an empty form falls back to the id."""
    assert entry.plural is not None
    ids = (entry.singular, entry.plural)
    return tuple(s or ids[min(i, 1)] for i, s in enumerate(entry.strings))


def form_samples(language: str) -> Iterator[tuple[int, int]]:
    """(form index, n) for sample numbers reaching every form."""
    _count, rule = PLURAL_RULES[language]
    for n in SAMPLES:
        yield rule(abs(n)), n


# -- 1. the catalogs hold exactly the messages the code uses -----------------


def test_extraction_finds_the_messages_the_code_uses() -> None:
    # Guards the other tests: an extraction that found nothing would pass them.
    app, *games = DOMAINS
    assert "Main menu." in extracted(app)
    assert "Winner: %(player)s." not in extracted(app)  # a game's: not the app's
    sushigo = next(domain for domain in games if domain.name == "sushigo")
    found = extracted(sushigo)
    assert "Winner: %(player)s." in found
    assert "Squid nigiri" in found  # marked with N_ and looked up later
    assert ("%(n)d point", "%(n)d points") in found


@pytest.mark.parametrize(("domain", "language"), EVERY, ids=EVERY_IDS)
def test_catalog_has_every_message_and_nothing_else(domain: Domain, language: str) -> None:
    catalog = po_catalog(domain, language)
    in_po = {e.key for e in entries(domain, language)}
    missing = extracted(domain) - in_po
    unused = in_po - extracted(domain)
    assert not missing, f"{language}: not in the catalog, run update-catalogs.sh: {missing}"
    assert not unused, f"{language}: in the catalog but no longer in the code: {unused}"
    assert not catalog.obsolete, f"{language}: obsolete entries: {list(catalog.obsolete)}"
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    assert not fuzzy, f"{language}: fuzzy entries to review: {fuzzy}"


@pytest.mark.parametrize(("domain", "language"), EACH_TRANSLATED, ids=EACH_TRANSLATED_IDS)
def test_every_message_is_translated(domain: Domain, language: str) -> None:
    nplurals, _rule = PLURAL_RULES[language]
    untranslated = []
    for entry in entries(domain, language):
        count = 1 if entry.plural is None else nplurals
        if len(entry.strings) != count or not all(s.strip() for s in entry.strings):
            untranslated.append(entry.key)
    assert not untranslated, f"{language}: untranslated: {untranslated}"


@pytest.mark.parametrize("domain", DOMAINS, ids=str)
def test_english_uses_the_ids_as_text(domain: Domain) -> None:
    overridden = [e.key for e in entries(domain, "en") if any(e.strings)]
    assert not overridden, f"en: leave msgstr empty, the id is the text: {overridden}"


@pytest.mark.parametrize(("domain", "language"), EVERY, ids=EVERY_IDS)
def test_plural_forms_header_is_the_standard_rule(domain: Domain, language: str) -> None:
    nplurals, rule = PLURAL_RULES[language]
    catalog = po_catalog(domain, language)
    assert catalog.num_plurals == nplurals
    header_rule = gettext.c2py(catalog.plural_expr)
    wrong = [n for n in range(1200) if header_rule(n) != rule(n)]
    assert not wrong, f"{language}: Plural-Forms disagrees with the standard rule for {wrong[:10]}"


# -- 2. the compiled .mo files are up to date --------------------------------

MISSING = "\x00missing from the .mo\x00"


class _Missing(gettext.NullTranslations):
    """Answers for anything the .mo does not have, so a gap is seen."""

    def gettext(self, message: str) -> str:
        return MISSING

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return MISSING

    def pgettext(self, context: str, message: str) -> str:
        return MISSING


def load_mo(domain: Domain, language: str) -> gettext.GNUTranslations:
    path = po_path(domain, language).with_suffix(".mo")
    with path.open("rb") as file:
        translations = gettext.GNUTranslations(file)
    translations.add_fallback(_Missing())
    return translations


@pytest.mark.parametrize(("domain", "language"), EVERY, ids=EVERY_IDS)
def test_mo_matches_po(domain: Domain, language: str) -> None:
    mo = load_mo(domain, language)
    catalog = po_catalog(domain, language)
    assert mo.info().get("plural-forms") == catalog.plural_forms, (
        f"{language}: the .mo has another Plural-Forms; run update-catalogs.sh"
    )
    stale: list[str] = []
    for entry in entries(domain, language):
        if entry.plural is None:
            # Babel leaves untranslated messages out of the .mo.
            expected = entry.strings[0] or MISSING
            got = (mo.pgettext(entry.context, entry.singular) if entry.context
                   else mo.gettext(entry.singular))
            if got != expected:
                stale.append(f"{entry.singular!r}: .mo {got!r}, .po {expected!r}")
            continue
        want = forms(entry)
        for index, n in form_samples(language):
            got = mo.ngettext(entry.singular, entry.plural, abs(n))
            if got != want[index]:
                stale.append(f"{entry.singular!r} n={n}: .mo {got!r}, .po {want[index]!r}")
    assert not stale, f"{language}: stale .mo, run update-catalogs.sh:\n" + "\n".join(stale)


# -- 3. translations keep the placeholders -----------------------------------


@pytest.mark.parametrize(("domain", "language"), EVERY, ids=EVERY_IDS)
def test_translations_keep_the_placeholders(domain: Domain, language: str) -> None:
    wrong: list[str] = []
    for entry in entries(domain, language):
        expected = placeholders(entry.singular)
        if entry.plural is not None and placeholders(entry.plural) != expected:
            wrong.append(f"{entry.plural!r}: plural id differs from singular id")
        for text in (*entry.ids, *entry.strings):
            if stray_percent(text):
                wrong.append(f"{text!r}: stray % {stray_percent(text)}, write %% for a sign")
        for text in entry.strings:
            if text and placeholders(text) != expected:
                wrong.append(
                    f"{entry.singular!r} -> {text!r}: "
                    f"has {sorted(placeholders(text))}, needs {sorted(expected)}"
                )
    assert not wrong, f"{language}:\n" + "\n".join(wrong)


def test_placeholder_check_sees_a_change() -> None:
    # The helpers the test above relies on tell the types and names apart.
    assert placeholders("%(n)d point") != placeholders("%(n)s point")
    assert placeholders("%(cards)s, %(points)s") != placeholders("%(card)s, %(points)s")
    assert stray_percent("100 %, %(n)d") == ["%,"]
    assert stray_percent("%(n)i points") == ["%(n)i"]
    assert stray_percent("100 %%, %(n)d, %(name)s") == []


# -- 4. plural messages pick the right form ----------------------------------


@pytest.mark.parametrize(("domain", "language"), EVERY, ids=EVERY_IDS)
def test_plurals_render_with_the_right_form(domain: Domain, language: str) -> None:
    catalog = domain.catalog(language)
    wrong: list[str] = []
    for entry in entries(domain, language):
        if entry.plural is None:
            continue
        want = forms(entry)
        params = sample_params(entry.ids, plural=True)
        for index, n in form_samples(language):
            expected = want[index] % {"n": n, **params}
            got = catalog.plural(entry.singular, entry.plural, n, **params)
            if got != expected:
                wrong.append(f"{entry.singular!r} n={n}: {got!r}, expected {expected!r}")
            if str(n) not in got:
                wrong.append(f"{entry.singular!r} n={n}: the number is not said: {got!r}")
    assert not wrong, f"{language}:\n" + "\n".join(wrong)


@pytest.mark.parametrize(("domain", "language"), EVERY, ids=EVERY_IDS)
def test_plural_forms_are_distinct(domain: Domain, language: str) -> None:
    nplurals, _rule = PLURAL_RULES[language]
    same: list[str] = []
    for entry in entries(domain, language):
        if entry.plural is None:
            continue
        want = forms(entry)
        allowed = SAME_FORMS.get((language, entry.singular), frozenset())
        for i in range(nplurals):
            for j in range(i + 1, nplurals):
                if want[i] == want[j] and (i, j) not in allowed:
                    same.append(f"{entry.singular!r}: forms {i} and {j} are both {want[i]!r}")
    assert not same, f"{language}:\n" + "\n".join(same)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", {1: "1 point", 2: "2 points", 5: "5 points", -3: "-3 points"}),
        ("fr", {0: "0 point", 1: "1 point", 2: "2 points", -3: "-3 points"}),
        ("cs", {1: "1 bod", 2: "2 body", 5: "5 bodů", 0: "0 bodů", -3: "-3 body", 22: "22 bodů"}),
        ("ru", {1: "1 очко", 2: "2 очка", 5: "5 очков", 11: "11 очков", 21: "21 очко",
                22: "22 очка", -3: "-3 очка", -6: "-6 очков"}),
    ],
)
def test_points_are_said_as_a_speaker_would(language: str, said: Mapping[int, str]) -> None:
    sushigo = next(domain for domain in DOMAINS if domain.name == "sushigo")
    catalog = sushigo.catalog(language)
    for n, expected in said.items():
        assert catalog.plural("%(n)d point", "%(n)d points", n) == expected


# -- 5. every other message renders ------------------------------------------


@pytest.mark.parametrize(("domain", "language"), EVERY, ids=EVERY_IDS)
def test_messages_render_with_their_parameters(domain: Domain, language: str) -> None:
    catalog = domain.catalog(language)
    wrong: list[str] = []
    for entry in entries(domain, language):
        if entry.plural is not None:
            continue
        params = sample_params(entry.ids)
        template = entry.strings[0] or entry.singular
        expected = template % params if params else template
        try:
            got = (catalog.translations.pgettext(entry.context, entry.singular)
                   if entry.context else catalog.text(entry.singular, **params))
        except (KeyError, TypeError, ValueError) as error:
            wrong.append(f"{entry.singular!r}: {error!r}")
            continue
        if got != expected:
            wrong.append(f"{entry.singular!r}: {got!r}, expected {expected!r}")
        missing = [str(v) for v in params.values() if str(v) not in got]
        if missing:
            wrong.append(f"{entry.singular!r}: {missing} not said in {got!r}")
        if language in TRANSLATED and not entry.strings[0]:
            wrong.append(f"{entry.singular!r}: falls back to English")
    assert not wrong, f"{language}:\n" + "\n".join(wrong)
