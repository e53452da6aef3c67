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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

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
from companion.faces.web.face import Entry, View
from companion.i18n import N_, Catalog

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
              for name in ("page.html", "parts.html")}
    return jinja2.Environment(loader=jinja2.DictLoader(source), autoescape=True,
                              undefined=jinja2.StrictUndefined, trim_blocks=True,
                              lstrip_blocks=True)


class Pages:
    """The pages and updates of one web face. ``token`` goes in every form
    (a post without it is refused); ``actions`` gives the words that work
    now, each with its label in the player's language ((name, label))."""

    def __init__(self, token: str,
                 actions: Callable[[], Sequence[tuple[str, str]]] = tuple) -> None:
        self.token = token
        self.actions = actions
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
        }
        context["c"] = context  # what the macros are given
        return context

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
            "ended": view.ended,
        }


__all__ = ["Drawn", "Entry", "Pages", "drawn"]
