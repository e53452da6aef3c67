"""The scanner's news, in the player's language, whatever the game. Each
game says its own sentences (its cards, scores and advice) from its
package.

>>> en = Catalog.for_language("en")
>>> scanner_found_text(en, again=True)
'Scanner found again.'
"""

from __future__ import annotations

from companion.i18n import Catalog
from companion.shown import PATH_LIMIT, shown
from firmware_bridge.events import ScannerIssue, ScannerProblem


def unknown_tag(catalog: Catalog, uid: str) -> str:
    return catalog.text(
        "Unknown tag %(uid)s: enrol it with firmware-bridge enrol.", uid=uid
    )


def scanner_found_text(catalog: Catalog, *, again: bool) -> str:
    if again:
        return catalog.text("Scanner found again.")
    return catalog.text("Scanner ready.")


def scanner_lost_text(catalog: Catalog) -> str:
    return catalog.text("Scanner lost: check its cable. Typed codes still work.")


def scanner_problem_text(catalog: Catalog, problem: ScannerProblem) -> str:
    """A scanner problem in the catalog's language, with what to do."""
    c = catalog
    port = shown(problem.port or "", PATH_LIMIT)  # as typed in the settings: anything
    kind = problem.kind
    if kind is ScannerIssue.NOT_FOUND:
        return c.text("No scanner found: plug it in, or give its port in the settings. "
                      "Typed codes still work.")
    if kind is ScannerIssue.NO_PORT:
        return c.text("There is no port %(port)s. Is the scanner plugged in?", port=port)
    if kind is ScannerIssue.NO_ANSWER:
        return c.text("No scanner answers on %(port)s: check the cable, or choose another "
                      "port.", port=port)
    if kind is ScannerIssue.FOREIGN_DEVICE:
        return c.text("The device on %(port)s is not the card scanner: choose another port.",
                      port=port)
    if kind is ScannerIssue.PROTOCOL:
        return c.text("The scanner speaks protocol %(version)d, this app another: update "
                      "the scanner's firmware or the app.", version=problem.count)
    if kind is ScannerIssue.CANNOT_OPEN:
        return c.text("Cannot use %(port)s: %(reason)s. Is another program using it?",
                      port=port, reason=problem.detail)
    if kind is ScannerIssue.LOST_SCANS:
        return c.plural("%(n)d scan was lost on the way: scan that card again.",
                        "%(n)d scans were lost on the way: scan those cards again.",
                        problem.count)
    if kind is ScannerIssue.GARBLED:
        return c.plural("%(n)d garbled line from the scanner was ignored.",
                        "%(n)d garbled lines from the scanner were ignored.", problem.count)
    if kind is ScannerIssue.STALE_LINK:
        return c.text("The virtual scanner is not running: start firmware-bridge simulate. "
                      "Typed codes still work.")
    if kind is ScannerIssue.NOT_SERIAL:
        return c.text("Not opened: %(port)s is neither a serial port nor a running virtual "
                      "scanner. Choose the scanner's port. Typed codes still work.", port=port)
    if kind is ScannerIssue.OTHERS_TERMINAL:
        return c.text("Not opened: %(port)s is the terminal of another program, "
                      "%(program)s. Choose the scanner's port. Typed codes still work.",
                      port=port, program=problem.detail)
    if kind is ScannerIssue.DEVICE_ERROR:
        return c.text("The scanner reports: %(reason)s.", reason=problem.detail)
    return c.text("Scanner problem: %(reason)s.", reason=problem.reason.rstrip("."))
