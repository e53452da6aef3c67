"""Message catalogs: the app speaks Czech, English, French and Russian.

Every sentence a player reads or hears is an English message id looked up in
a gettext catalog (``companion/locale/<lang>/LC_MESSAGES/companion.po``,
compiled to ``.mo``). Czech and Russian have three plural forms; the catalog
headers carry the formulas, so :meth:`Catalog.plural` picks the right one.

>>> Catalog.for_language("en").plural("%(n)d point", "%(n)d points", 2)
'2 points'
"""

from __future__ import annotations

import gettext
from dataclasses import dataclass
from functools import cache
from pathlib import Path

LANGUAGES: tuple[str, ...] = ("en", "fr", "cs", "ru")
DEFAULT_LANGUAGE = "en"
DOMAIN = "companion"
LOCALE_DIR = Path(__file__).with_name("locale")


class UnknownLanguageError(ValueError):
    """A language the app has no catalog for."""

    def __init__(self, language: str) -> None:
        self.language = language
        super().__init__(
            f"no catalog for language {language!r}; choose one of {', '.join(LANGUAGES)}"
        )


@dataclass(frozen=True)
class Catalog:
    """The messages of one language (English ids; an empty entry means the id).

    A game's catalog (its own domain, in its own package) falls back to the
    app's, so it may use the app's sentences too.
    """

    language: str
    translations: gettext.NullTranslations

    @classmethod
    def for_language(cls, language: str, domain: str = DOMAIN,
                     directory: Path = LOCALE_DIR) -> Catalog:
        return _load(language, domain, directory)

    def text(self, message: str, /, **params: object) -> str:
        """The translated ``message`` with its ``%(name)s`` fields filled."""
        translated = self.translations.gettext(message)
        return translated % params if params else translated

    def plural(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        """The plural form for ``n`` (chosen on its size: -3 reads like 3)."""
        translated = self.translations.ngettext(singular, plural, abs(n))
        return translated % {"n": n, **params}


def N_(message: str) -> str:
    """Mark a message for extraction where it is looked up later."""
    return message


@cache
def _load(language: str, domain: str, directory: Path) -> Catalog:
    if language not in LANGUAGES:
        raise UnknownLanguageError(language)
    translations = gettext.translation(domain, directory, languages=[language])
    if (domain, directory) != (DOMAIN, LOCALE_DIR):
        translations.add_fallback(_load(language, DOMAIN, LOCALE_DIR).translations)
    return Catalog(language, translations)
