"""The web face's pages and updates, drawn from the face's state
(:class:`~companion.faces.web.face.View`).

A page begins with the key facts and the reply (what the app said to the
player's last act), then the question as a form, the words as buttons, and
the game's log. The question is focused when the page loads (its
accessible name is the question; its description the reply, so a screen
reader that lands on it hears that too). With JavaScript on, an update
(:meth:`Pages.update`) carries only what changed: the new sentences, and
the question when another is open; the page's script puts each sentence
where a screen reader says it once (the reply in a polite live region,
the game's events in a log) and focuses the question.

Every text is escaped (Jinja2 with autoescape on); every sentence carries
its language.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any, Protocol

import jinja2

from companion.contract.events import (
    Asked,
    CardsQuestion,
    Menu,
    Number,
    Question,
    Text,
    YesNo,
)
from companion.faces.web.face import Entry, View, WebFace
from companion.i18n import LANGUAGES, N_, Catalog

#: The page's own words, for the catalogs (each in the player's language).
WORDS = {
    "app": N_("Tactile companion"),
    "send": N_("Send"),
    "words": N_("Words"),
    "log": N_("Game log"),
    "reply": N_("Just said"),
    "question": N_("Question"),
    "facts": N_("Key facts"),
    "stopped": N_("The companion has stopped. You can close this page."),
    "reload": N_("Show the page again"),
    "busy": N_("Your last answer is still on its way: its reply comes first."),
    "gone": N_("The companion does not answer: is it still running? Reload the page to try "
               "again."),
}

#: Notices a page may begin with, by the key a redirect carries (never a
#: text from the address: nothing typed into an address is shown).
NOTICES = {
    "stale": N_("This page was out of date: nothing was sent. The question now is below."),
    "slow": N_("The companion is still working on your answer: the reply comes below "
               "when it is ready."),
    "refused": N_("That answer could not be sent: choose an option, or type an answer."),
    "freed": N_("The seat is free: its player takes it again from any device, with the "
                "table's code."),
}

#: How many of the game's log sentences a page shows (the newest).
LOG_SHOWN = 200


@dataclass(frozen=True, slots=True)
class Drawn:
    """A question as the form shows it: ``kind`` (menu, text, number,
    cards), its label, and for a menu the options."""

    kind: str
    label: str
    options: tuple[str, ...] = ()
    longest: int = 4096


def drawn(asked: Asked) -> Drawn:
    """How the form shows ``asked``.

    >>> drawn(Asked(Menu("Main menu.", ("Practice.", "Quit.")), "Choose 1 to 2:"))
    Drawn(kind='menu', label='Main menu.', options=('1. Practice.', '2. Quit.'), longest=4096)
    >>> drawn(Asked(Number("How many players?", 2, 5), "How many players?")).kind
    'number'
    """
    question: Question[object] = asked.question
    if isinstance(question, Menu):
        return Drawn("menu", question.title, question.numbered())
    if isinstance(question, YesNo):
        return Drawn("menu", question.prompt,
                     Menu(question.prompt, (question.no, question.yes)).numbered())
    if isinstance(question, Number):
        return Drawn("number", asked.prompt or question.prompt)
    if isinstance(question, Text):
        return Drawn("text", asked.prompt or question.prompt, longest=question.longest)
    if isinstance(question, CardsQuestion):
        return Drawn("cards", asked.prompt or question.prompt)
    return Drawn("text", asked.prompt or "")


def _environment() -> jinja2.Environment:
    templates = files("companion.faces.web") / "templates"
    source = {name: (templates / name).read_text(encoding="utf-8")
              for name in ("page.html", "parts.html", "join.html")}
    return jinja2.Environment(loader=jinja2.DictLoader(source), autoescape=True,
                              undefined=jinja2.StrictUndefined, trim_blocks=True,
                              lstrip_blocks=True)


@dataclass(frozen=True, slots=True)
class Joining:
    """How players join the shared table, for the host's page: the
    address (with the code in it, as the QR code has it), the code, and
    each seat's name and whether a device holds it."""

    address: str
    code: str
    seats: tuple[tuple[str, bool], ...]
    #: Only this computer can reach the address (no ``--lan``).
    local: bool


def qr_data(text: str) -> tuple[str, int]:
    """``text`` as a QR code: an SVG image in a ``data:`` address (the page
    loads nothing from elsewhere), and its size in CSS pixels."""
    import base64  # noqa: PLC0415 - the host's page only
    import io  # noqa: PLC0415

    import segno  # noqa: PLC0415

    code = segno.make(text, error="m")
    out = io.BytesIO()
    scale = 5
    code.save(out, kind="svg", scale=scale, border=4, xmldecl=False, dark="#000",
              light="#fff")
    size = int(code.symbol_size(scale=1, border=4)[0]) * scale
    return "data:image/svg+xml;base64," + base64.b64encode(out.getvalue()).decode(), size


class Pages:
    """The pages and updates of one web face. ``token`` goes in every form
    (a post without it is refused); ``actions`` gives the words that work
    now, each with its label in the player's language ((name, label));
    ``base``: where its pages are (a seat's, ``/seat``); ``joining``: how
    players join a shared table, for the host's page."""

    def __init__(self, token: str,
                 actions: Callable[[], Sequence[tuple[str, str]]] = tuple, *,
                 base: str = "", joining: Callable[[], Joining | None] = lambda: None) -> None:
        self.token = token
        self.actions = actions
        self.base = base
        self.joining = joining
        self._qr: tuple[str, str, int] | None = None
        self._template = _environment().get_template("page.html")
        self._macros: Any = self._template.environment.get_template("parts.html").module

    def _context(self, view: View, notice: str | None, *, describe: bool,
                 since: int | None = None) -> dict[str, Any]:
        catalog = Catalog.for_language(view.language)
        words = {key: catalog.text(text) for key, text in WORDS.items()}
        # what was said since the page's answer (it may span steps: an answer
        # and a card scanned on the host meanwhile), else the step now
        after = [entry for entry in view.entries if since is not None and entry.number > since]
        step = after or view.of_step()
        said = [entry for entry in step if entry.is_reply]
        news = [entry for entry in step if not entry.is_reply]
        described = " ".join(
            [*(["notice"] if notice else []), *(f"s{entry.number}" for entry in [*said, *news])])
        context: dict[str, Any] = {
            "view": view,
            "words": words,
            "title": self.title(view, words["app"]),
            "notice": catalog.text(NOTICES[notice]) if notice in NOTICES else None,
            "reply": said,
            "log": [entry for entry in view.entries if not entry.is_reply][-LOG_SHOWN:],
            "question": drawn(view.question) if view.question is not None else None,
            "described": described if describe else "",
            "token": self.token,
            "actions": list(self.actions()) if view.question is not None else [],
            "base": self.base,
            "join": self._join(catalog) if not view.ended else None,
        }
        context["c"] = context  # what the macros are given
        joined = str(self._macros.joining(context)) if context["join"] else ""
        context["join_html"] = joined
        # what the page's script compares, to draw the section again only when it changed
        context["join_key"] = hashlib.sha256(joined.encode()).hexdigest()[:16]
        return context

    def _join(self, catalog: Catalog) -> dict[str, object] | None:
        joining = self.joining()
        if joining is None:
            return None
        if self._qr is None or self._qr[0] != joining.address:
            self._qr = (joining.address, *qr_data(joining.address))
        _, qr, size = self._qr
        return {
            "heading": catalog.text("Join the table"),
            "how": catalog.text("Each player opens this address on their own device, or scans "
                                "the QR code, and chooses their name:"),
            "address": joining.address,
            "shown": joining.address.split("?")[0],
            "code_label": catalog.text("The table's code:"),
            "code": joining.code,
            # said a character at a time, the groups apart
            "code_spelled": ", ".join(" ".join(group) for group in joining.code.split("-")),
            "qr": qr,
            "qr_size": size,
            "qr_alt": catalog.text("QR code of the address, with the code in it"),
            "local": catalog.text("Only this computer reaches this address: for phones at the "
                                  "table, start the companion with --lan.")
            if joining.local else "",
            "seats_heading": catalog.text("Seats"),
            "seats": [(catalog.text("%(player)s: on a device.", player=name), number,
                       catalog.text("Free %(player)s's seat (a lost device)", player=name))
                      if taken else (catalog.text("%(player)s: no device yet.", player=name),
                                     None, "")
                      for number, (name, taken) in enumerate(joining.seats)],
        }

    @staticmethod
    def title(view: View, app: str) -> str:
        """The page's title: where the player is (the question open, the key
        facts), then the app's name.

        >>> from companion.faces.web.face import View
        >>> Pages.title(View(1, 0, (), Asked(Menu("Main menu.", ("Quit.",)), "Choose 1 to 1:"),
        ...                  1, "R1 T3", False, "en"), "Tactile companion")
        'Main menu. – R1 T3 – Tactile companion'
        """
        where = [drawn(view.question).label] if view.question is not None else []
        return " – ".join([*where, *([view.facts] if view.facts else []), app])

    def page(self, view: View, notice: str | None = None, *, since: int | None = None) -> str:
        """The whole page, as a form post or a first visit gets it: the reply
        is what was said after the sentence numbered ``since`` (the one
        before the answer), or the step now."""
        return self._template.render(self._context(view, notice, describe=True, since=since))

    def update(self, view: View, since: int, notice: str | None = None) -> dict[str, object]:
        """What changed since the sentence numbered ``since``, for the page's
        script: the new sentences (each drawn, with where it goes), the
        question open (drawn, with no description: the reply is said by
        its live region), the key facts and the title."""
        context = self._context(view, notice, describe=False)
        macros = self._macros
        entries = [{"number": entry.number, "step": entry.step,
                    "kind": "reply" if entry.is_reply else "log",
                    "html": str(macros.sentence(entry))}
                   for entry in view.entries if entry.number > since]
        return {
            "version": view.version,
            "step": view.step,
            "title": context["title"],
            "language": view.language,
            "facts": view.facts,
            "entries": entries,
            "notice": context["notice"],
            "question_id": view.question_id,
            "question": str(macros.question_section(context)),
            "join": context["join_html"],
            "join_key": context["join_key"],
            "ended": view.ended,
        }


def best_language(accepted: str, fallback: str) -> str:
    """The first of the app's languages that an ``Accept-Language`` header
    asks for (by its weights), else ``fallback``.

    >>> best_language("de-DE,fr;q=0.8,en;q=0.5", "cs"), best_language("", "cs")
    ('fr', 'cs')
    """
    weighted: list[tuple[float, int, str]] = []
    for index, part in enumerate(accepted.split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        primary = tag.strip().split("-")[0].lower()
        if primary in LANGUAGES and weight > 0:
            weighted.append((-weight, index, primary))
    return min(weighted)[2] if weighted else fallback


class JoinPages:
    """The join page of a shared table, in the player's language: the
    table not open yet, the code asked, or the seats to choose from."""

    def __init__(self) -> None:
        self._template = _environment().get_template("join.html")

    def _render(self, language: str, stage: str, label: str, **more: object) -> str:
        catalog = Catalog.for_language(language)
        app = catalog.text(WORDS["app"])
        return self._template.render(language=language, stage=stage, label=label,
                                     title=f"{label} – {app}", app=app,
                                     send=catalog.text(WORDS["send"]), **{
                                         "notice": None, "again": "", "code": "",
                                         "free": [], "taken": "", **more})

    def closed(self, language: str, code: str = "") -> str:
        """The table not open yet (``code``: the one the player came with,
        kept in the link that tries again)."""
        catalog = Catalog.for_language(language)
        return self._render(language, "closed", catalog.text(
            "The table is not open yet: the host is setting it up."),
            again=catalog.text("Try again"), code=code)

    def over(self, language: str) -> str:
        catalog = Catalog.for_language(language)
        return self._render(language, "closed", catalog.text(
            "This table is over: no seat is taken any more. Ask the host for the next "
            "table's code."), again=catalog.text("Try again"))

    def code(self, language: str, *, wrong: bool = False) -> str:
        catalog = Catalog.for_language(language)
        return self._render(language, "code", catalog.text(
            "The table's code (the host's page shows it):"),
            notice=catalog.text("That is not this table's code: ask the host for it, and "
                                "type it again.") if wrong else None)

    def seats(self, language: str, code: str, seats: Sequence[SeatLike], *,
              taken: bool) -> str:
        catalog = Catalog.for_language(language)
        free = [seat for seat in seats if not seat.taken]
        held = [seat.name for seat in seats if seat.taken]
        return self._render(
            language, "seats",
            catalog.text("Which one are you?") if free else catalog.text(
                "Every seat has a device: ask the host to free yours."),
            code=code, free=free,
            notice=catalog.text("That seat was just taken: choose yours.") if taken else None,
            taken=catalog.text("On a device already: %(players)s.", players=", ".join(held))
            if held else "")


class SeatLike(Protocol):
    """A seat as the join page shows it."""

    @property
    def number(self) -> int: ...

    @property
    def name(self) -> str: ...

    @property
    def taken(self) -> bool: ...


@dataclass
class Window:
    """One conversation's pages: its face, its words (``actions``, as
    (name, label)), where its pages are (``base``) and the token every
    one of its forms carries."""

    face: WebFace
    actions: Callable[[], Sequence[tuple[str, str]]] = tuple
    base: str = ""
    token: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    #: What ends it (its conversation told the input ended), and what
    #: waits for it to end (at most the seconds given).
    close: Callable[[], None] = lambda: None
    wait: Callable[[float], None] = lambda timeout: None
    #: How players join the shared table (the host's window).
    joining: Callable[[], Joining | None] = lambda: None
    pages: Pages = field(init=False)

    def __post_init__(self) -> None:
        self.pages = Pages(self.token, self.actions, base=self.base, joining=self.joining)


__all__ = ["Drawn", "Entry", "JoinPages", "Joining", "Pages", "Window", "best_language",
           "drawn"]
