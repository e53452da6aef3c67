"""Saved games checked before anything trusts them: one checker, a schema per record kind.

A saved game is a header and its events, each a JSON object (a ``dict``)
whose ``type`` says its kind. Each game's package declares, in one place,
what every kind of its records holds: :class:`Records`, a :class:`Kind`
per header ``type`` and per event ``type``, each field a check of type and
range (:class:`Whole`, :class:`Words`, :class:`Flag`, :class:`OneOf`,
:class:`ListOf`, :class:`Fields`, :class:`Maybe`). A bound may depend on
the header (seats within the table): it is then a function of the
header's values, given once it has been checked.

:meth:`Records.check` raises :class:`Damaged`, carrying the first
:class:`Problem` found: which game, which record (the header, or event
*n*, numbered from 1 as the store numbers them), which field, what was
expected and what was found. A game whose events the rules refuse on
replay is damaged too (:func:`replay`). A problem is said to the player in
their language (:func:`set_aside_text`), and kept with the game as JSON
(:meth:`Problem.json`), so a later listing says it again in any language.

Fields a kind does not name are let be (a newer version may add some);
every field it names is checked, present or not.

>>> kinds = Records("test", {"practice": Kind({"seed": Whole(0, 9)})}, {"practice": {}})
>>> kinds.check("g1", {"type": "practice", "seed": "7"}, [])
Traceback (most recent call last):
...
companion.records.Damaged: game g1, header, field seed: expected a whole number from 0 to 9, \
found text
>>> str(kinds.problem("g1", {"type": "practice", "seed": 3}, [{"type": "move"}]))
'game g1, event 1, field type: expected one of: none, found "move"'
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.i18n import N_, Catalog
from companion.shown import shown
from companion.store import JournalError

#: What a bound may be: a number, or a number worked out from the header's checked values.
Bound = int | Callable[[Mapping[str, Any]], int]
#: The longest text any version of the app saved in a name (a typed line's limit).
TEXT_LONGEST = 4096


@dataclass(frozen=True, slots=True)
class Phrase:
    """Words said later in the player's language: an English message id (with
    its plural when it counts ``n``), and its values. ``literal`` is said as
    it is (a value found in the file)."""

    message: str
    plural: str = ""
    n: int = 0
    params: tuple[tuple[str, str | int], ...] = ()
    literal: bool = False

    def said(self, catalog: Catalog) -> str:
        """The phrase in ``catalog``'s language."""
        if self.literal:
            return self.message
        values = dict(self.params)
        if self.plural:
            return catalog.plural(self.message, self.plural, self.n, **values)
        return catalog.text(self.message, **values) if values else catalog.text(self.message)

    def json(self) -> dict[str, Any]:
        return {"message": self.message, "plural": self.plural, "n": self.n,
                "params": dict(self.params), "literal": self.literal}

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Phrase:
        params = data.get("params") or {}
        return cls(str(data.get("message", "")), str(data.get("plural", "")),
                   int(data.get("n", 0)),
                   tuple((str(k), v if isinstance(v, int) else str(v)) for k, v in params.items()),
                   bool(data.get("literal", False)))


def plural(message: str, many: str, n: int, /, **params: str | int) -> Phrase:
    """A phrase that counts ``n`` (extracted as a plural message, like
    :meth:`Catalog.plural`)."""
    return Phrase(message, many, n, tuple(params.items()))


ENGLISH = Catalog.for_language("en")


def _value(value: object) -> Phrase:
    """A value found, written back as it is (cut, and made visible)."""
    return Phrase(shown(json.dumps(value, ensure_ascii=False), limit=40), literal=True)


def found(value: object) -> Phrase:
    """What a value is, in words: text, a whole number, a list...

    >>> [found(v).message for v in ("a", 1, 1.5, True)]
    ['text', 'a whole number', 'a number with a fraction', 'yes or no']
    >>> [found(v).message for v in ([], {}, None)]
    ['a list', 'a group of fields', 'nothing (null)']
    """
    if isinstance(value, bool):
        return Phrase(N_("yes or no"))
    if isinstance(value, int):
        return Phrase(N_("a whole number"))
    if isinstance(value, float):
        return Phrase(N_("a number with a fraction"))
    if isinstance(value, str):
        return Phrase(N_("text"))
    if isinstance(value, list):
        return Phrase(N_("a list"))
    if isinstance(value, dict):
        return Phrase(N_("a group of fields"))
    return Phrase(N_("nothing (null)"))


MISSING = Phrase(N_("no such field"))


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One field that is not what its kind says: where (``names[2]``), what
    was expected and what was found."""

    where: str
    expected: Phrase
    found: Phrase


def _bound(bound: Bound, header: Mapping[str, Any]) -> int:
    return bound(header) if callable(bound) else bound


class Check(Protocol):
    """What a field must be: :meth:`mismatch` says how a value is not that
    (``where`` is the field's name, for the problem it gives)."""

    def mismatch(self, value: object, header: Mapping[str, Any],
                 where: str) -> Mismatch | None: ...


@dataclass(frozen=True, slots=True)
class Whole:
    """A whole number (never true or false) from ``low`` to ``high``."""

    low: Bound
    high: Bound

    def mismatch(self, value: object, header: Mapping[str, Any],
                 where: str) -> Mismatch | None:
        low, high = _bound(self.low, header), _bound(self.high, header)
        expected = Phrase(N_("a whole number from %(low)d to %(high)d"),
                          params=(("low", low), ("high", high)))
        if isinstance(value, bool) or not isinstance(value, int):
            return Mismatch(where, expected, found(value))
        return None if low <= value <= high else Mismatch(where, expected, _value(value))


@dataclass(frozen=True, slots=True)
class Flag:
    """True or false."""

    def mismatch(self, value: object, header: Mapping[str, Any],
                 where: str) -> Mismatch | None:
        if isinstance(value, bool):
            return None
        return Mismatch(where, Phrase(N_("yes or no")), found(value))


@dataclass(frozen=True, slots=True)
class Words:
    """Text of ``shortest`` to ``longest`` characters."""

    longest: int = TEXT_LONGEST
    shortest: int = 1

    def mismatch(self, value: object, header: Mapping[str, Any],
                 where: str) -> Mismatch | None:
        expected = plural("text of %(low)d to %(n)d character",
                          "text of %(low)d to %(n)d characters", self.longest,
                          low=self.shortest)
        if not isinstance(value, str):
            return Mismatch(where, expected, found(value))
        if self.shortest <= len(value) <= self.longest:
            return None
        return Mismatch(where, expected, plural("text of %(n)d character",
                                                "text of %(n)d characters", len(value)))


@dataclass(frozen=True, slots=True)
class OneOf:
    """One of a few values (text or whole numbers), of the same type exactly;
    ``choices`` may depend on the header."""

    choices: tuple[str | int, ...] | Callable[[Mapping[str, Any]], tuple[str | int, ...]]

    def mismatch(self, value: object, header: Mapping[str, Any],
                 where: str) -> Mismatch | None:
        choices = self.choices(header) if callable(self.choices) else self.choices
        if any(type(value) is type(choice) and value == choice for choice in choices):
            return None
        listed = ", ".join(str(choice) for choice in choices) or "none"
        return Mismatch(where, Phrase(N_("one of: %(choices)s"), params=(("choices", listed),)),
                        _value(value) if isinstance(value, (str, int)) else found(value))


@dataclass(frozen=True, slots=True)
class Maybe:
    """Nothing (``null``), or what ``check`` says."""

    check: Check

    def mismatch(self, value: object, header: Mapping[str, Any],
                 where: str) -> Mismatch | None:
        return None if value is None else self.check.mismatch(value, header, where)


@dataclass(frozen=True, slots=True)
class ListOf:
    """A list of ``shortest`` to ``longest`` items, each as ``item`` says."""

    item: Check
    shortest: Bound = 0
    longest: Bound = 100

    def mismatch(self, value: object, header: Mapping[str, Any],
                 where: str) -> Mismatch | None:
        low, high = _bound(self.shortest, header), _bound(self.longest, header)
        expected = (plural("a list of %(n)d item", "a list of %(n)d items", high)
                    if low == high else
                    plural("a list of %(low)d to %(n)d item", "a list of %(low)d to %(n)d items",
                           high, low=low))
        if not isinstance(value, list):
            return Mismatch(where, expected, found(value))
        if not low <= len(value) <= high:
            return Mismatch(where, expected, plural("a list of %(n)d item",
                                                    "a list of %(n)d items", len(value)))
        for index, item in enumerate(value):
            wrong = self.item.mismatch(item, header, f"{where}[{index}]")
            if wrong is not None:
                return wrong
        return None


@dataclass(frozen=True, slots=True)
class MapOf:
    """A group of at most ``longest`` fields of any names, each as ``value`` says."""

    value: Check
    longest: int = 20

    def mismatch(self, value: object, header: Mapping[str, Any],
                 where: str) -> Mismatch | None:
        if not isinstance(value, dict):
            return Mismatch(where, Phrase(N_("a group of fields")), found(value))
        if len(value) > self.longest:
            return Mismatch(where, Phrase(N_("a group of fields")),
                            plural("a group of %(n)d field", "a group of %(n)d fields",
                                   len(value)))
        for name, inner in value.items():
            wrong = self.value.mismatch(inner, header, f"{where}.{name}")
            if wrong is not None:
                return wrong
        return None


@dataclass(frozen=True, slots=True)
class Field:
    """A field of a kind: its check, and whether it may be missing."""

    check: Check
    required: bool = True


def optional(check: Check) -> Field:
    """A field that may be missing (an earlier version did not write it)."""
    return Field(check, required=False)


@dataclass(frozen=True, slots=True)
class Kind:
    """A record (or a group of fields inside one): each named field checked,
    in order. A field's bounds may read the header's fields checked before it."""

    fields: Mapping[str, Check | Field]

    def mismatch(self, value: object, header: Mapping[str, Any],
                 where: str) -> Mismatch | None:
        if not isinstance(value, dict):
            return Mismatch(where, Phrase(N_("a group of fields")), found(value))
        for name, declared in self.fields.items():
            spec = declared if isinstance(declared, Field) else Field(declared)
            path = f"{where}.{name}" if where else name
            if name not in value:
                if spec.required:
                    return Mismatch(path, _expected(spec.check, header), MISSING)
                continue
            wrong = spec.check.mismatch(value[name], header, path)
            if wrong is not None:
                return wrong
        return None


#: A group of fields inside a record (a game's variant, its set-up).
Fields = Kind


def _expected(check: Check, header: Mapping[str, Any]) -> Phrase:
    """What ``check`` expects, said on its own (for a missing field)."""
    wrong = check.mismatch(_Absent(), header, "")
    return wrong.expected if wrong is not None else MISSING


class _Absent:
    """A value no check accepts: what a missing field is checked as."""


@dataclass(frozen=True, slots=True)
class Problem:
    """Why a saved game cannot be trusted. ``event`` is 0 for its header,
    else the event's number (from 1); a field's problem has ``field``,
    ``expected`` and ``found``; ``refused`` says the rules refuse that event
    when the game is replayed; ``error`` is anything else that went wrong
    (in English, as the program said it)."""

    game: str
    event: int = 0
    field: str = ""
    expected: Phrase | None = None
    found: Phrase | None = None
    refused: bool = False
    error: str = ""

    def __str__(self) -> str:
        where = "header" if self.event == 0 else f"event {self.event}"
        if self.expected is not None and self.found is not None:
            return (f"game {self.game}, {where}, field {self.field}: expected "
                    f"{self.expected.said(ENGLISH)}, found {self.found.said(ENGLISH)}")
        if self.refused:
            where = "an event" if self.event == 0 else where
            return f"game {self.game}, {where}: the rules refuse it ({self.error})"
        return f"game {self.game}: it could not be resumed ({self.error})"

    def json(self) -> str:
        """The problem as one line of JSON (kept with the game set aside)."""
        return json.dumps({
            "game": self.game, "event": self.event, "field": self.field,
            "expected": None if self.expected is None else self.expected.json(),
            "found": None if self.found is None else self.found.json(),
            "refused": self.refused, "error": self.error}, ensure_ascii=False)

    @classmethod
    def of(cls, text: str, game: str) -> Problem:
        """A problem kept by :meth:`json`; one that cannot be read is said as its text."""
        try:
            data = json.loads(text)
            expected, seen = data.get("expected"), data.get("found")
            return cls(game, int(data.get("event", 0)), str(data.get("field", "")),
                       None if expected is None else Phrase.of(expected),
                       None if seen is None else Phrase.of(seen),
                       bool(data.get("refused", False)), str(data.get("error", "")))
        except (ValueError, TypeError, AttributeError):
            return cls(game, error=shown(text))

    @classmethod
    def failed(cls, game: str, error: BaseException) -> Problem:
        """Anything else that went wrong resuming a game."""
        return cls(game, error=shown(f"{type(error).__name__}: {error}", limit=200))


class Damaged(JournalError):
    """A saved game that cannot be trusted: :attr:`problem` says why."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


@dataclass(frozen=True)
class Records:
    """What a game saves: a :class:`Kind` for each kind of header (its
    ``type``), and for each, the kinds of its events (by ``type``)."""

    game: str
    headers: Mapping[str, Kind]
    events: Mapping[str, Mapping[str, Kind]]
    #: Fields every header has (``type`` and ``game`` are checked by :meth:`problem`).
    common: Mapping[str, Check | Field] = field(default_factory=dict)

    def problem(self, name: str, header: Mapping[str, Any],
                events: Sequence[Mapping[str, Any]]) -> Problem | None:
        """The first thing wrong in a saved game, if anything is."""
        kinds = tuple(self.headers)
        first = Kind({"type": OneOf(kinds), "game": optional(OneOf((self.game,))),
                      **self.common})
        wrong = first.mismatch(dict(header), header, "")
        if wrong is None:
            wrong = self.headers[header["type"]].mismatch(dict(header), header, "")
        if wrong is not None:
            return _problem(name, 0, wrong)
        allowed = self.events[header["type"]]
        typed = Kind({"type": OneOf(tuple(allowed))})
        for number, event in enumerate(events, 1):
            wrong = typed.mismatch(event, header, "")
            if wrong is None:
                wrong = allowed[event["type"]].mismatch(event, header, "")
            if wrong is not None:
                return _problem(name, number, wrong)
        return None

    def check(self, name: str, header: Mapping[str, Any],
              events: Sequence[Mapping[str, Any]]) -> None:
        """Raise :class:`Damaged` if anything in the saved game is wrong."""
        problem = self.problem(name, header, events)
        if problem is not None:
            raise Damaged(problem)


def _problem(name: str, number: int, wrong: Mismatch) -> Problem:
    return Problem(name, number, wrong.where, wrong.expected, wrong.found)


def mismatch(name: str, where: str, check: Check, value: object) -> Problem:
    """The problem of one header field found wrong outside a game's records
    (the ``game`` a header names, when no game can check it).

    >>> str(mismatch("g1", "game", OneOf(("sushigo",)), []))
    'game g1, header, field game: expected one of: sushigo, found a list'
    """
    wrong = check.mismatch(value, {}, where)
    return _problem(name, 0, wrong or Mismatch(where, MISSING, _value(value)))


@contextlib.contextmanager
def refusals(name: str) -> Iterator[None]:
    """A replay of the whole game inside: a :class:`ValueError` of the rules
    (or an :class:`IndexError`: a correction of an entry there is not) out
    of it makes the game :class:`Damaged` (the step not known)."""
    try:
        yield
    except (ValueError, IndexError) as error:
        if isinstance(error, Damaged):
            raise
        raise Damaged(Problem(name, refused=True, error=shown(str(error), limit=200))) from error


def replay(name: str, events: Iterable[Mapping[str, Any]],
           apply: Callable[[Mapping[str, Any]], None]) -> None:
    """Apply each event in turn; one the rules refuse (a :class:`ValueError`
    of the rules) makes the game :class:`Damaged` at that event."""
    for number, event in enumerate(events, 1):
        try:
            apply(event)
        except ValueError as error:
            raise Damaged(Problem(name, number, refused=True,
                                  error=shown(str(error), limit=200))) from error


# -- said to the player ----------------------------------------------------------------------

_NAME = re.compile(r"(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})\d{2}-")


def when(name: str) -> str:
    """When a game was begun, from its name; the name itself if it says no date.

    >>> when("20261203-101500-ab12cd"), when("old-game")
    ('2026-12-03 10:15', 'old-game')
    """
    matched = _NAME.match(name)
    if matched is None:
        return shown(name)
    year, month, day, hour, minute = matched.groups()
    return f"{year}-{month}-{day} {hour}:{minute}"


def why_text(catalog: Catalog, problem: Problem) -> str:
    """Why a game was set aside, in one sentence of ``catalog``'s language."""
    if problem.expected is not None and problem.found is not None:
        values = {"field": shown(problem.field), "expected": problem.expected.said(catalog),
                  "found": problem.found.said(catalog)}
        if problem.event == 0:
            return catalog.text("At its start, field %(field)s: expected %(expected)s, "
                                "found %(found)s.", **values)
        return catalog.text("At step %(n)d, field %(field)s: expected %(expected)s, "
                            "found %(found)s.", n=problem.event, **values)
    if problem.refused and problem.event:
        return catalog.text("At step %(n)d, the rules refuse what was saved.", n=problem.event)
    if problem.refused:
        return catalog.text("The rules refuse one of the steps saved.")
    return catalog.text("It could not be resumed: %(error)s.", error=problem.error)


def set_aside_text(catalog: Catalog, problem: Problem, title: str, kind: str) -> list[str]:
    """What is said of a game set aside: which game, why, and how to copy it.
    ``title`` is its game's (empty if not known); ``kind`` is the header's
    ``type`` (``practice``, ``table`` or anything)."""
    values = {"game": title, "when": when(problem.game)}
    if not title:
        which = catalog.text("A saved game of %(when)s is damaged: it is set aside, kept, and "
                             "no longer offered.", **values)
    elif kind == "practice":
        which = catalog.text("The %(game)s practice game of %(when)s is damaged: it is set "
                             "aside, kept, and no longer offered.", **values)
    elif kind == "table":
        which = catalog.text("The %(game)s table game of %(when)s is damaged: it is set "
                             "aside, kept, and no longer offered.", **values)
    else:
        which = catalog.text("The %(game)s game of %(when)s is damaged: it is set aside, "
                             "kept, and no longer offered.", **values)
    return [which, why_text(catalog, problem),
            catalog.text("To copy it to a file: companion games --export %(name)s FILE",
                         name=shown(problem.game))]
