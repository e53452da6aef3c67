"""The bridge's words in the player's language, and the command line's.

The bridge is below the app and knows none of it, so it has its own small
catalog (``firmware_bridge/locale/<lang>/LC_MESSAGES/firmware_bridge.po``,
made by ``scripts/update-catalogs.sh`` as the app's are). It holds what the
``firmware-bridge`` command says, and two things both commands share:

- argparse's own sentences ("usage:", "the following arguments are
  required", "invalid choice" ...), which the standard library marks for
  gettext: :func:`argparse_in` has argparse look them up here while a
  command line is read, in player words (:data:`ARGPARSE`);
- what the system said when a file could not be read or written, as a
  player would say it (:func:`os_reason`): never an errno number alone.

>>> text("Give a value after it.", language="fr")
'Donnez une valeur après lui.'
>>> os_reason(PermissionError(13, "Permission denied"), "en")
'the folder or the file does not let you do that'
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import gettext
import os
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import TypeVar

LANGUAGES: tuple[str, ...] = ("en", "fr", "cs", "ru")
DEFAULT_LANGUAGE = "en"
DOMAIN = "firmware_bridge"
LOCALE_DIR = Path(__file__).with_name("locale")
#: The kinds of number a command line takes.
_Number = TypeVar("_Number", int, float)


def N_(message: str) -> str:
    """Mark a message for extraction where it is looked up later."""
    return message


def default_language(environ: Mapping[str, str] = os.environ) -> str:
    """The first supported language named by LANGUAGE, LC_ALL, LC_MESSAGES or LANG.

    >>> default_language({"LANG": "cs_CZ.UTF-8"}), default_language({})
    ('cs', 'en')
    """
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for entry in environ.get(variable, "").split(":"):
            code = entry.split("_")[0].split(".")[0].lower()
            if code in LANGUAGES:
                return code
    return DEFAULT_LANGUAGE


def language_of(argv: list[str], environ: Mapping[str, str] = os.environ) -> str:
    """The language a command line asks for with ``--lang``, before it is
    read (its errors are said in it), else the environment's.

    >>> language_of(["simulate", "--lang", "ru"], {}), language_of(["--lang=cs"], {})
    ('ru', 'cs')
    >>> language_of(["--lang", "de"], {"LANG": "fr_FR.UTF-8"})
    'fr'
    """
    for index, word in enumerate(argv):
        if word == "--":
            break
        given = (word.partition("=")[2] if word.startswith("--lang=") else
                 argv[index + 1] if word == "--lang" and index + 1 < len(argv) else None)
        if given in LANGUAGES:
            return given
    return default_language(environ)


@cache
def catalog(language: str) -> gettext.NullTranslations:
    """The bridge's catalog of ``language`` (English: the ids themselves)."""
    return gettext.translation(DOMAIN, LOCALE_DIR,
                               languages=[language if language in LANGUAGES else "en"])


def text(message: str, /, *, language: str, **params: object) -> str:
    """The translated ``message`` with its ``%(name)s`` fields filled."""
    translated = catalog(language).gettext(message)
    return translated % params if params else translated


def plural(singular: str, plural_: str, n: int, /, *, language: str, **params: object) -> str:
    """The plural form for ``n``, its ``%(n)d`` and other fields filled.

    >>> plural("%(n)d tag", "%(n)d tags", 3, language="cs")
    '3 štítky'
    """
    translated = catalog(language).ngettext(singular, plural_, abs(n))
    return translated % {"n": n, **params}


def either(names: list[str], language: str) -> str:
    """Names in a sentence, the last after "or".

    >>> either(["a", "b", "c"], "fr"), either(["a"], "en")
    ('a, b ou c', 'a')
    """
    if len(names) < 2:
        return "".join(names)
    return text("%(some)s or %(last)s", language=language, some=", ".join(names[:-1]),
                last=names[-1])


#: argparse's own sentences, each with ours: player words, the same fields
#: named (argparse's ``%s`` is our ``%(words)s``, its ``%r`` too).
ARGPARSE: Mapping[str, str] = {
    "usage: ": N_("Usage: "),
    "positional arguments": N_("What to give"),
    "options": N_("Options"),
    "show this help message and exit": N_("show this help and stop"),
    "show program's version number and exit": N_("show the version and stop"),
    "argument %(argument_name)s: %(message)s": N_("%(argument_name)s: %(message)s"),
    "%(prog)s: error: %(message)s\n": N_("%(prog)s: %(message)s"),
    "unrecognized arguments: %s": N_(
        "This is not something the command takes: %(words)s. Its --help lists what it takes."),
    "the following arguments are required: %s": N_(
        "Something is missing: %(words)s. The command's --help says what to give."),
    "one of the arguments %s is required": N_("Give one of these: %(words)s."),
    "not allowed with argument %s": N_("It cannot go with %(words)s."),
    "ignored explicit argument %r": N_("It takes no value, and %(words)s was given."),
    "unexpected option string: %s": N_("%(words)s was not expected here."),
    "expected one argument": N_("Give a value after it."),
    "expected at most one argument": N_("Give at most one value after it."),
    "expected at least one argument": N_("Give at least one value after it."),
    "invalid choice: %(value)r (choose from %(choices)s)": N_(
        "%(value)s is not one of the choices: %(choices)s."),
    "invalid %(type)s value: %(value)r": N_("%(value)s is not a value it takes."),
    "ambiguous option: %(option)s could match %(matches)s": N_(
        "%(option)s could be %(matches)s: write it whole."),
}
#: argparse's plural sentence (ours is in :func:`argparse_in`).
ARGPARSE_PLURAL = ("expected %s argument", "expected %s arguments")


def _positional(translated: str) -> str:
    """Our named field back as argparse's ``%s`` (it fills it by position)."""
    return translated.replace("%(words)s", "%s").replace("%(n)d", "%s")


@contextlib.contextmanager
def argparse_in(language: str) -> Iterator[None]:
    """While inside, argparse says its own sentences in ``language``, in our
    words: its help headings, usage line and errors."""
    translations = catalog(language)

    def one(message: str) -> str:
        ours = ARGPARSE.get(message)
        if ours is None:
            return message
        said = translations.gettext(ours)
        if message.endswith("\n"):
            said += "\n"
        return _positional(said) if ("%s" in message or "%r" in message) else said

    def many(singular: str, plural_: str, n: int) -> str:
        if (singular, plural_) != ARGPARSE_PLURAL:
            return singular if n == 1 else plural_
        return _positional(translations.ngettext(
            "Give %(n)d value after it.", "Give %(n)d values after it.", n))

    saved = (getattr(argparse, "_"), getattr(argparse, "ngettext"))  # noqa: B009
    setattr(argparse, "_", one)  # noqa: B010 - argparse looks its words up there
    setattr(argparse, "ngettext", many)  # noqa: B010
    try:
        yield
    finally:
        setattr(argparse, "_", saved[0])  # noqa: B010
        setattr(argparse, "ngettext", saved[1])  # noqa: B010


#: What a number of each kind must look like, as the refusal of a text that is
#: not one says it (``%(value)s``: the text given).
_NOT_A_NUMBER: Mapping[type, str] = {
    int: N_("%(value)s is not a whole number: give one such as 4."),
    float: N_("%(value)s is not a number: give one such as 2.5."),
}


def number(kind: type[_Number], language: str) -> Callable[[str], _Number]:
    """argparse's ``type`` for a number of ``kind`` (``int``, a whole number;
    ``float``, one with a point): a text that is not one is refused in
    ``language``.

    >>> number(int, "en")("4"), number(float, "en")("2.5")
    (4, 2.5)
    >>> number(int, "en")("four")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: 'four' is not a whole number: give one such as 4.
    """
    refusal = _NOT_A_NUMBER[kind]

    def convert(given: str) -> _Number:
        try:
            return kind(given)
        except ValueError:
            raise argparse.ArgumentTypeError(text(
                refusal, language=language, value=repr(given))) from None
    return convert


#: What the system says went wrong with a file, as a player would say it.
_REASONS: Mapping[int, str] = {
    errno.EACCES: N_("the folder or the file does not let you do that"),
    errno.EPERM: N_("the folder or the file does not let you do that"),
    errno.ENOENT: N_("there is no such file or folder"),
    errno.ENOTDIR: N_("a part of that path is a file, not a folder"),
    errno.EISDIR: N_("it is a folder, not a file"),
    errno.ENOSPC: N_("the disk is full"),
    errno.EDQUOT: N_("the disk is full"),
    errno.EROFS: N_("the disk can only be read, not written"),
    errno.ENAMETOOLONG: N_("the name is too long"),
    errno.EEXIST: N_("there is a file of that name already"),
    errno.EIO: N_("the disk could not be read or written (it may be damaged or removed)"),
    errno.ELOOP: N_("it goes through too many links"),
    errno.EBUSY: N_("it is in use"),
}


def os_reason(error: OSError, language: str) -> str:
    """Why the system refused, in player words (a sentence's second half)."""
    said = _REASONS.get(error.errno or 0)
    if said is None:
        return text("the computer did not allow it", language=language)
    return text(said, language=language)
