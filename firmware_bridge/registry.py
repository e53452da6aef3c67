"""Which tag is which card: the UID registry, kept in the user's data folder.

Each card carries an NFC sticker; the scanner reports the sticker's UID and
the registry says which card of which game that is, as a :class:`TagCard`.
Tags are enrolled once ("scan a tag, then type the card's code"); a club
can export its deck's registry to a file and others import it. A UID nobody
enrolled is reported as unknown, never guessed. One scanner serves several
games: tags of every game live in one registry, and a game that is not
installed here keeps its tags all the same.

The file, format 2::

    {"format": 2, "tags": {"04A1B2C3": {"game": "sushigo", "card": "salmon"}}}

Files of format 1 (``{"format": 1, "tags": {"04A1B2C3": "salmon"}}``) were
written before the registry knew several games: their tags are
:data:`LEGACY_GAME`'s, and the next save writes them as format 2.

The demo deck, used by the virtual scanner, is known without enrolment. Its
UIDs are ``DEC0DE``, then a byte each for the card (its place in the game's
:meth:`~firmware_bridge.vocabulary.Vocabulary.card_ids`), the copy and the
game (its :attr:`~firmware_bridge.vocabulary.Vocabulary.demo_number`), and
``00``:

>>> from firmware_bridge.vocabulary import SimpleVocabulary
>>> fruit = SimpleVocabulary("fruit", "Fruit Salad", 9, (("apple", 2), ("pear", 1)))
>>> demo_uid(fruit, "pear")
'DEC0DE01000900'
>>> demo_card("DEC0DE01000900", {"fruit": fruit})
TagCard(game='fruit', card='pear')
>>> demo_card("DEC0DE01010900", {"fruit": fruit}) is None  # pears have one copy
True
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from firmware_bridge import words
from firmware_bridge.files import (
    SMALL_FILE_LIMIT,
    FileProblem,
    FileRefused,
    data_dir,
    make_private_folder,
    parse_json,
    read_limited,
    sweep_temporaries,
    write_atomically,
)
from firmware_bridge.shown import PATH_LIMIT, shown
from firmware_bridge.vocabulary import NAME_LIMIT, Vocabulary
from firmware_bridge.vocabulary import vocabularies as installed
from firmware_bridge.words import N_

FORMAT = 2
#: The game of every tag in a file of format 1: Sushi Go!, the only game then.
LEGACY_GAME = "sushigo"
_UID = re.compile(r"(?:[0-9A-F]{2}){4}|(?:[0-9A-F]{2}){7}|(?:[0-9A-F]{2}){10}")
DEMO_PREFIX = "DEC0DE"
#: The longest deck name a deck file may carry.
DECK_LIMIT = 200
_DEMO_UID = re.compile(DEMO_PREFIX + r"([0-9A-F]{2})([0-9A-F]{2})([0-9A-F]{2})00")


class RegistryError(ValueError):
    """A UID or deck file that cannot be used, and why: ``message`` (English,
    marked for the bridge's catalog, :mod:`firmware_bridge.words`) with its
    ``values``; ``str()`` is the English sentence. A value that is itself a
    :class:`RegistryError` (why one tag of a deck file is wrong) or an
    :class:`OSError` is said in the same language."""

    def __init__(self, message: str, /, **values: object) -> None:
        super().__init__(message % _said(values, "en") if values else message)
        self.message = message
        self.values = values

    def text(self, language: str) -> str:
        """The sentence in ``language`` (a system's error in player words)."""
        return words.text(self.message, language=language, **_said(self.values, language))


def _said(values: Mapping[str, object], language: str) -> dict[str, object]:
    return {name: words.os_reason(value, language) if isinstance(value, OSError) else
            value.text(language) if isinstance(value, RegistryError) else value
            for name, value in values.items()}


class NewerRegistryError(RegistryError):
    """A registry written by a newer version: left as it is, for that version."""


@dataclass(frozen=True, slots=True)
class TagCard:
    """What a tag is: a card id of a game, as the game's vocabulary names them."""

    game: str
    card: str

    def __str__(self) -> str:
        return f"{self.game} {self.card}"


def normalize_uid(text: str) -> str:
    """``04:a1:b2:c3`` or ``04 A1 B2 C3`` → ``04A1B2C3``; 4, 7 or 10 bytes.

    >>> normalize_uid("04:a1:b2:c3")
    '04A1B2C3'
    """
    uid = re.sub(r"[\s:.-]", "", text).upper()
    if not _UID.fullmatch(uid):
        raise RegistryError(N_("%(text)s is not a tag UID (4, 7 or 10 bytes in hex)."),
                            text=repr(text))
    return uid


def demo_uid(vocabulary: Vocabulary, card_id: str, copy: int = 0) -> str:
    """The demo deck's UID for a copy (from 0) of a game's card."""
    kinds = vocabulary.card_ids()
    if card_id not in kinds:
        raise RegistryError(N_("%(game)s has no card called %(card)s."),
                            game=vocabulary.title, card=shown(repr(card_id)))
    if not 0 <= copy < max(vocabulary.copies(card_id), 1):
        raise RegistryError(N_("The demo deck of %(game)s has no copy %(copy)d of %(card)s."),
                            game=vocabulary.title, copy=copy, card=card_id)
    return f"{DEMO_PREFIX}{kinds.index(card_id):02X}{copy:02X}{vocabulary.demo_number:02X}00"


def demo_card(uid: str, vocabularies: Mapping[str, Vocabulary]) -> TagCard | None:
    """The demo deck's card for a UID, if it is one of the demo deck's of a game here."""
    found = _DEMO_UID.fullmatch(uid)
    if found is None:
        return None
    index, copy, number = (int(byte, 16) for byte in found.groups())
    for vocabulary in vocabularies.values():
        if vocabulary.demo_number != number:
            continue
        kinds = vocabulary.card_ids()
        if index >= len(kinds):
            return None
        card_id = kinds[index]
        return TagCard(vocabulary.game, card_id) if copy < max(
            vocabulary.copies(card_id), 1) else None
    return None


def registry_path() -> Path:
    return data_dir() / "registry.json"


@dataclass
class Registry:
    """UID → card of a game, saved at ``path`` on every change (atomically).

    ``vocabularies`` (the installed games' unless given) name the demo deck's
    cards and check the cards of their games."""

    path: Path = field(default_factory=registry_path)
    tags: dict[str, TagCard] = field(default_factory=dict)
    vocabularies: Mapping[str, Vocabulary] = field(default_factory=installed, kw_only=True)

    @classmethod
    def load(
        cls, path: Path | None = None, vocabularies: Mapping[str, Vocabulary] | None = None
    ) -> Registry:
        path = path or registry_path()
        registry = cls(path, vocabularies=installed() if vocabularies is None else vocabularies)
        if path.exists() or path.is_symlink():
            registry.tags = registry._read(path, own=True)
        return registry

    def lookup(self, uid: str) -> TagCard | None:
        """The card of a tag, or ``None`` if nobody enrolled it."""
        return self.tags.get(uid) or demo_card(uid, self.vocabularies)

    def enrol(self, uid: str, game: str, card: str) -> TagCard | None:
        """Record a tag's card; the card it had before, if any."""
        uid = normalize_uid(uid)
        problem = self._refusal(game, card)
        if problem is not None:
            raise problem
        before = self.tags.get(uid)
        self.tags[uid] = TagCard(game, card)
        self.save()
        return before

    def remove(self, uid: str) -> TagCard | None:
        before = self.tags.pop(normalize_uid(uid), None)
        self.save()
        return before

    def __iter__(self) -> Iterator[tuple[str, TagCard]]:
        """Every tag: by game, then in the game's order of cards, then by UID."""
        return iter(sorted(self.tags.items(), key=lambda item: (*self._order(item[1]), item[0])))

    def __len__(self) -> int:
        return len(self.tags)

    def save(self) -> None:
        _write(self.path, {"format": FORMAT, "tags": _as_json(self.tags)})

    def export(self, path: Path, deck: str = "") -> int:
        """Write a deck file others can import; how many tags it holds. The
        file may replace only a deck file (an earlier export): anything else
        of that name, or a link, is left as it is and refused."""
        if len(deck) > DECK_LIMIT:
            raise RegistryError(N_("A deck name is at most %(most)d characters."),
                                most=DECK_LIMIT)
        where = shown(str(path), PATH_LIMIT)
        if path.is_symlink():
            raise RegistryError(N_("%(where)s is a link: it is left as it is; give the name "
                                   "of a new file, or of a deck file written before."),
                                where=where)
        if path.exists():
            try:
                self._document(parse_json(read_limited(path, SMALL_FILE_LIMIT)), where)
            except (OSError, ValueError):  # ValueError: RegistryError, not JSON, not UTF-8
                raise RegistryError(N_("%(where)s is there already and is not a deck file: "
                                       "it is left as it is; give the name of a new file."),
                                    where=where) from None
        _write(path, {"format": FORMAT, "deck": deck, "tags": _as_json(self.tags)})
        return len(self.tags)

    def import_file(self, path: Path, *, replace: bool = False) -> tuple[int, list[str]]:
        """Add a deck file's tags; how many were added, and the UIDs whose card
        differed here (kept as they were unless ``replace``)."""
        incoming = self._read(path)
        conflicts = [u for u, c in incoming.items() if u in self.tags and self.tags[u] != c]
        added = 0
        for uid, card in incoming.items():
            if uid in conflicts and not replace:
                continue
            added += self.tags.get(uid) != card
            self.tags[uid] = card
        self.save()
        return added, conflicts

    def _read(self, path: Path, *, own: bool = False) -> dict[str, TagCard]:
        """The tags of a registry or deck file, of format 1 or 2, each checked
        (:meth:`_document`, :meth:`_tag`). ``own``: the registry itself, read
        only if it is in its folder (no link out of it)."""
        where = shown(str(path), PATH_LIMIT)
        try:
            raw = read_limited(path, SMALL_FILE_LIMIT, within=path.parent if own else None)
            data = parse_json(raw)
        except FileRefused as error:
            if error.problem is FileProblem.TOO_BIG:
                raise RegistryError(N_("Cannot read %(where)s: it is too big for a deck file."),
                                    where=where) from None
            if error.problem is FileProblem.NOT_A_FILE:
                raise RegistryError(N_("Cannot read %(where)s: it is not a file (a folder, a "
                                       "named pipe or a device)."), where=where) from None
            if error.problem is FileProblem.LINK_OUT:
                raise RegistryError(N_("Cannot read %(where)s: it is a link out of its folder."),
                                    where=where) from None
            raise RegistryError(N_("Cannot read %(where)s: it is nested too deep to be a deck "
                                   "file."), where=where) from None
        except OSError as error:
            raise RegistryError(N_("Cannot read %(where)s: %(reason)s."), where=where,
                                reason=error) from None
        except UnicodeDecodeError:
            raise RegistryError(N_("Cannot read %(where)s: it is not UTF-8 text."),
                                where=where) from None
        except ValueError:
            raise RegistryError(N_("Cannot read %(where)s: it is not JSON."),
                                where=where) from None
        version, entries = self._document(data, where)
        tags, problems = self._tags(entries, version, where)
        if problems:
            raise problems[0]
        return tags

    def _tags(self, entries: Mapping[str, object], version: int,
              where: str) -> tuple[dict[str, TagCard], list[RegistryError]]:
        """Each tag checked (:meth:`_tag`): those that are right, and why each
        other one is not, by its UID and field."""
        tags = {}
        problems = []
        for uid, value in entries.items():
            try:
                tags[normalize_uid(uid)] = self._tag(value, version)
            except RegistryError as error:
                problems.append(RegistryError(N_("%(where)s: the tag %(uid)s cannot be used. "
                                                 "%(why)s"), where=where, uid=shown(uid),
                                              why=error))
        return tags, problems

    @classmethod
    def mended(cls, path: Path) -> tuple[Registry, list[RegistryError]] | None:
        """The registry at ``path`` with every tag that is right, and why each
        other one is not; ``None`` if the file cannot be read as a registry at
        all, or no tag of it is right."""
        registry = cls(path)
        where = shown(str(path), PATH_LIMIT)
        try:
            data = parse_json(read_limited(path, SMALL_FILE_LIMIT, within=path.parent))
            version, entries = cls._document(data, where)
        except (OSError, ValueError):  # ValueError: RegistryError, not JSON, not UTF-8
            return None
        registry.tags, problems = registry._tags(entries, version, where)
        return (registry, problems) if registry.tags else None

    @staticmethod
    def _document(data: object, where: str) -> tuple[int, dict[str, object]]:
        """The schema of a registry or deck file as a whole: an object with
        ``format`` (1 or 2, 1 if missing), ``tags`` (an object) and, in a
        deck file, ``deck`` (text); its format and tags."""
        if not isinstance(data, dict) or not isinstance(data.get("tags"), dict):
            raise RegistryError(N_('%(where)s is not a tag registry: it has no "tags" object.'),
                                where=where)
        version = data.get("format", 1)
        if isinstance(version, int) and not isinstance(version, bool) and version > FORMAT:
            raise NewerRegistryError(N_("%(where)s was written by a newer version of the app "
                                        "(format %(format)d): update the app to read it."),
                                     where=where, format=version)
        if version not in (1, FORMAT) or isinstance(version, bool):
            raise RegistryError(N_("%(where)s is of a format this app does not know "
                                   "(%(format)s): update the app, or give a file this app "
                                   "wrote."), where=where, format=shown(repr(version)))
        deck = data.get("deck", "")
        if not isinstance(deck, str) or len(deck) > DECK_LIMIT:
            raise RegistryError(N_("%(where)s: its deck name is not text of up to %(most)d "
                                   "characters."), where=where, most=DECK_LIMIT)
        return version, data["tags"]

    def _tag(self, value: object, version: int) -> TagCard:
        """The schema of one tag: in format 1 a card id of :data:`LEGACY_GAME`,
        in format 2 ``{"game": ..., "card": ...}``, each field text of 1 to
        :data:`~firmware_bridge.vocabulary.NAME_LIMIT` characters, and the
        card one of the game's if the game is installed here."""
        if version == 1:
            game, card = LEGACY_GAME, value
        elif isinstance(value, dict) and {"game", "card"} <= value.keys():
            game, card = value["game"], value["card"]
        else:
            raise RegistryError(N_("It does not say which game and which card it is."))
        problem = self._refusal(game, card)
        if problem is not None:
            raise problem
        assert isinstance(game, str) and isinstance(card, str)
        return TagCard(game, card)

    def _refusal(self, game: object, card: object) -> RegistryError | None:
        """Why a tag cannot be this card of this game; ``None`` if it can."""
        if not isinstance(game, str) or not 0 < len(game) <= NAME_LIMIT:
            return RegistryError(N_("Its game, %(name)s, is not a name of 1 to %(most)d "
                                    "characters."), name=shown(repr(game)), most=NAME_LIMIT)
        if not isinstance(card, str) or not 0 < len(card) <= NAME_LIMIT:
            return RegistryError(N_("Its card, %(name)s, is not a name of 1 to %(most)d "
                                    "characters."), name=shown(repr(card)), most=NAME_LIMIT)
        vocabulary = self.vocabularies.get(game)
        if vocabulary is not None and card not in vocabulary.card_ids():
            return RegistryError(N_("%(game)s has no card called %(card)s."),
                                 game=vocabulary.title, card=shown(repr(card)))
        return None

    def _order(self, tag: TagCard) -> tuple[str, int, str]:
        vocabulary = self.vocabularies.get(tag.game)
        kinds = vocabulary.card_ids() if vocabulary is not None else ()
        return tag.game, kinds.index(tag.card) if tag.card in kinds else len(kinds), tag.card


@dataclass(frozen=True, slots=True)
class SetAside:
    """What :func:`set_aside` did with a registry that could not be read whole:
    why, the tags kept (0: the list starts empty) and the tags left out."""

    reason: str
    kept: int = 0
    left_out: int = 0


def set_aside(path: Path | None = None) -> SetAside | None:
    """What was done with a registry that cannot be read whole, if it cannot
    (not UTF-8, not JSON, wrong types, a folder where the file should be, a
    tag that is wrong...). The damaged file is kept as
    ``registry.json.damaged-<time>``; if some of its tags are right, they
    are kept and the registry written again with them, else it is moved
    aside, so that the next enrolment starts a new one. ``None`` if it reads
    (or there is none). A registry of a newer version is left as it is.

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "registry.json"
    >>> _ = path.write_bytes(b"\\xff{")
    >>> set_aside(path).kept, path.exists(), len(list(path.parent.glob("*.damaged-*")))
    (0, False, 1)
    >>> set_aside(path) is None
    True
    """
    path = path or registry_path()
    with contextlib.suppress(OSError):
        sweep_temporaries(path.parent)
    if not (path.exists() or path.is_symlink()):
        return None
    try:
        Registry.load(path)
    except NewerRegistryError:
        return None
    except RegistryError as error:
        reason = str(error)
    else:
        return None
    kept = f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}"
    mended = Registry.mended(path)
    if mended is not None:
        registry, problems = mended
        with contextlib.suppress(OSError):  # the copy first: nothing is lost if the disk refuses
            write_atomically(path.with_name(kept), read_limited(path, SMALL_FILE_LIMIT))
            registry.save()
            return SetAside(reason, len(registry.tags), len(problems))
    with contextlib.suppress(OSError):  # a disk that refuses: the file stays, read next time
        path.rename(path.with_name(kept))
    return SetAside(reason)


def _as_json(tags: Mapping[str, TagCard]) -> dict[str, dict[str, str]]:
    return {uid: {"game": tag.game, "card": tag.card} for uid, tag in sorted(tags.items())}


def _write(path: Path, data: object) -> None:
    make_private_folder(path.parent)
    payload = (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
    write_atomically(path, payload)
