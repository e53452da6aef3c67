"""The web face driven as a player drives it: ``companion web`` in a process
of its own (:class:`Served`), a real browser (Debian's Chromium, headless,
through Playwright) on its page, and a :class:`Player` at its keyboard:
Tab, Enter and typing only, with JavaScript on or off.

After each answer the player's page is read as a screen reader reads it:
the accessibility tree (Chrome's, through the DevTools protocol: the node
focused, its name and description, the live regions) and axe-core's
WCAG 2.2 AA rules (axe.min.js as axe-playwright-python ships it from the
npm package, served to the page from its own origin, so the page's
Content-Security-Policy holds).
"""

from __future__ import annotations

import contextlib
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib.resources import files
from itertools import cycle
from typing import Any

from playwright.sync_api import Browser, Page, Playwright, Route, sync_playwright

from tests.drivers import CODES
from tests.webclient import PATIENCE, Served

__all__ = ["Focused", "Player", "Served", "chromium"]

#: Debian's Chromium (Playwright's own browser download cannot run here).
CHROMIUM = "/usr/bin/chromium"
#: The rules axe checks: WCAG 2.0, 2.1 and 2.2, levels A and AA.
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
#: Where the test serves axe-core from, on the page's own origin.
AXE_PATH = "/__axe__/axe.min.js"


@contextlib.contextmanager
def chromium() -> Iterator[Browser]:
    """Debian's Chromium, headless, ended with the block."""
    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            yield browser
        finally:
            browser.close()


def launch(playwright: Playwright) -> Browser:
    return playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"],
                                      timeout=PATIENCE * 1000)


def _axe(route: Route) -> None:
    body = (files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")
    route.fulfill(status=200, content_type="text/javascript", body=body)


@dataclass(frozen=True)
class Focused:
    """The node the screen reader is on: its role, name and description."""

    role: str
    name: str
    description: str


class Player:
    """A player at a page of the web face, with the keyboard only.

    ``script``: JavaScript on (answers without a reload) or off (every
    answer a form post and a new page). Every wait is bounded."""

    def __init__(self, browser: Browser, address: str, *, script: bool = True,
                 width: int = 1024, height: int = 768) -> None:
        self.address = address
        parts = urllib.parse.urlsplit(address)
        self.origin = f"{parts.scheme}://{parts.netloc}"
        self.script = script
        self.context = browser.new_context(java_script_enabled=script,
                                           viewport={"width": width, "height": height})
        self.context.set_default_timeout(PATIENCE * 1000)
        self._codes = cycle(CODES)
        self.page: Page = self.context.new_page()
        self.reopen(address)

    def reopen(self, address: str) -> None:
        """Close the page, and open ``address`` in a new one (the same
        browser: its cookies kept), as a player whose page was lost."""
        if not self.page.is_closed():
            self.page.close()
        self.page = self.context.new_page()
        self.page.route(f"{self.origin}{AXE_PATH}", _axe)
        self.page.goto(address)
        self._focus_landed()
        if self.script:  # a page that is never reloaded keeps this
            self.page.evaluate("window.stillHere = true")

    def close(self) -> None:
        self.context.close()

    # -- reading the page as a screen reader does ------------------------------------------

    def tree(self) -> list[dict[str, Any]]:
        cdp = self.context.new_cdp_session(self.page)
        try:
            nodes: list[dict[str, Any]] = cdp.send("Accessibility.getFullAXTree")["nodes"]
            return nodes
        finally:
            cdp.detach()

    def focused(self) -> Focused:
        """The node focused now (not the document itself)."""
        for node in self.tree():
            props = {p["name"]: p["value"].get("value") for p in node.get("properties", [])}
            role = node.get("role", {}).get("value", "")
            if props.get("focused") and role != "RootWebArea":
                return Focused(role, node.get("name", {}).get("value", ""),
                               node.get("description", {}).get("value", ""))
        raise AssertionError(f"nothing is focused on {self.page.url}")

    def question(self) -> str:
        """The question's label, as shown."""
        label = self.page.locator("#question-label")
        if label.count() == 0:
            return ""
        return label.inner_text().strip()

    def reply(self) -> list[str]:
        """The sentences of the reply, as shown."""
        return [p.strip() for p in self.page.locator("#reply p").all_inner_texts()]

    def log(self) -> list[str]:
        return [p.strip() for p in self.page.locator("#log p").all_inner_texts()]

    def said(self) -> list[str]:
        """The reply, then the log's sentences."""
        return [*self.reply(), *self.log()]

    def options(self) -> list[str]:
        return [b.strip() for b in self.page.locator("ul.options button").all_inner_texts()]

    def violations(self) -> list[str]:
        """What axe-core finds against WCAG 2.2 AA on the page as it is now
        (with JavaScript off, the same page read in a context that runs
        axe and not the page's own script)."""
        page = self.page
        if not self.script:
            # (the same cookies: a seat's page is its device's)
            page = self.context.browser.new_context(  # type: ignore[union-attr]
                storage_state=self.context.storage_state()).new_page()
            page.route(f"{self.origin}{AXE_PATH}", _axe)
            page.route("**/static/web.js", lambda route: route.abort())
            page.goto(self.page.url if "/answer" not in self.page.url else self.address)
        try:
            page.add_script_tag(url=AXE_PATH)
            found = page.evaluate(
                "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})", WCAG_AA)
        finally:
            if page is not self.page:
                page.context.close()
        return [f"{v['id']}: {v['help']} ({[n['target'] for n in v['nodes']]})"
                for v in found["violations"]]

    def horizontal_scroll(self) -> int:
        """How many CSS pixels the page is wider than its window."""
        return int(self.page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"))

    # -- acting ----------------------------------------------------------------------------

    def _after(self, act: Callable[[], None]) -> None:
        """Do ``act`` (keys) and wait for the reply: a new page (script off)
        or the page's update (script on)."""
        if not self.script:
            with self.page.expect_navigation(wait_until="load"):
                act()
            self._focus_landed()
            return
        answered = int(self.page.evaluate("Number(document.querySelector('main')"
                                          ".dataset.answered || 0)"))
        act()
        self.page.wait_for_function(
            "n => Number(document.querySelector('main').dataset.answered || 0) > n", arg=answered,
            timeout=PATIENCE * 1000)

    def _focus_landed(self) -> None:
        """Wait until the page's focus is where the page puts it: the
        browser applies autofocus as it renders a loaded page, which can
        come after "load" on a busy machine."""
        self.page.wait_for_function(
            "() => { const t = document.querySelector('[data-focus]');"
            " return !t || document.activeElement === t; }", timeout=PATIENCE * 1000)

    def type(self, text: str) -> None:
        """Type ``text`` in the question's field (focused) and press Enter."""
        focused = self.focused()
        assert focused.role == "textbox", focused

        def keys() -> None:
            self.page.keyboard.type(text)
            self.page.keyboard.press("Enter")
        self._after(keys)

    def _tab_to(self, name: str, *, prefix: bool = False) -> None:
        """Tab until the button named ``name`` (or beginning with it) is
        focused; fails past 40 keys."""
        for _ in range(40):
            self.page.keyboard.press("Tab")
            focused = self.focused()
            if focused.role == "button" and (
                    focused.name.startswith(name) if prefix else focused.name == name):
                return
        raise AssertionError(f"no button {name!r} by Tab on {self.page.url}")

    def choose(self, number: int) -> None:
        """Choose the menu's option ``number`` (from 1): Tab to it, Enter."""
        focused = self.focused()
        assert focused.role == "group", focused
        self._tab_to(f"{number}. ", prefix=True)
        self._after(lambda: self.page.keyboard.press("Enter"))

    def word(self, label: str) -> None:
        """Press the button of a word (Help, Repeat...): Tab to it, Enter."""
        self._tab_to(label)
        self._after(lambda: self.page.keyboard.press("Enter"))

    def refused(self) -> bool:
        """Whether the reply is a warning (a code refused)."""
        return self.page.locator("#reply p.warning").count() > 0

    def navigate(self, act: Callable[[], None]) -> None:
        """Do ``act`` (keys) on a page that posts as a plain form (the join
        page): wait for the next page and its focus."""
        with self.page.expect_navigation(wait_until="load"):
            act()
        self._focus_landed()
        if self.script:
            self.page.evaluate("window.stillHere = true")

    def press(self, name: str) -> None:
        """A button that posts as a plain form (the host's Free): Tab to
        it, Enter, and the next page."""
        self._tab_to(name)
        self.navigate(lambda: self.page.keyboard.press("Enter"))

    def join(self, name: str) -> None:
        """At the join page's seats, take ``name``'s: Tab to it, Enter."""
        focused = self.focused()
        assert focused.role == "group", focused
        self._tab_to(name)
        self.navigate(lambda: self.page.keyboard.press("Enter"))

    def pick(self) -> None:
        """Codes typed at "Your pick" until one is taken."""
        for _ in range(len(CODES) + 1):
            self.type(next(self._codes))
            if not self.refused():
                return
        raise AssertionError(f"no code taken: {self.reply()}")


