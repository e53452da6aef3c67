"""The chance of drawing a hazard card, exact: in Mici Maki the chance
of overeating, what the companion says before a player eats and what
``companion risk`` prints (a command of Mici Maki's own, through its
plugin's :class:`~companion.contract.game.Commands`).

Eating a pile of value ``N`` draws ``N`` cards from a draw pile of ``D``
cards holding ``K`` overeating cards. With ``N < D`` the chance that none of
them is an overeating card is C(D−K, N) / C(D, N) (drawing without
replacement). With ``N ≥ D`` every card of the draw pile is drawn, so the
risk is 1 whenever ``K > 0``; the discard pile shuffled in to draw the rest
never holds an overeating card (one turned up ends the round, and every
overeating card goes back into the draw pile), so it changes nothing.

>>> overeating_risk(draw=40, overeating=2, eat=12)
Fraction(67, 130)
>>> float(overeating_risk(draw=5, overeating=1, eat=8, discard=30))
1.0
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

#: The most overeating cards a Mici Maki game has.
MOST_OVEREATING = 6


def N_(message: str) -> str:
    """Mark a sentence for the game's catalog (the rules import nothing of the app)."""
    return message


class RiskInputError(ValueError):
    """Figures no table can show, said in one sentence: ``message`` (English,
    marked for the game's catalog) with its ``values``; ``str()`` is the
    English sentence."""

    def __init__(self, message: str, /, **values: int) -> None:
        super().__init__(message % values)
        self.message = message
        self.values = values


def overeating_risk(*, draw: int, overeating: int, eat: int,
                    discard: int | None = None) -> Fraction:
    """The chance of turning up an overeating card when eating ``eat``
    cards from a draw pile of ``draw`` cards with ``overeating`` overeating
    cards in it (``discard``: the discard pile's cards, only checked).

    >>> overeating_risk(draw=10, overeating=0, eat=4)
    Fraction(0, 1)
    >>> overeating_risk(draw=10, overeating=1, eat=4)
    Fraction(2, 5)
    >>> try:
    ...     overeating_risk(draw=3, overeating=4, eat=2)
    ... except RiskInputError as error:
    ...     print(error)
    The draw pile cannot hold more overeating cards (4) than cards (3).
    """
    if draw < 0:
        raise RiskInputError(N_("The draw pile cannot hold fewer than no cards: %(n)d is "
                                "not a number of cards."), n=draw)
    if not 0 <= overeating <= MOST_OVEREATING:
        raise RiskInputError(N_("A game has 0 to %(most)d overeating cards, not %(n)d."),
                             most=MOST_OVEREATING, n=overeating)
    if overeating > draw:
        raise RiskInputError(N_("The draw pile cannot hold more overeating cards (%(n)d) "
                                "than cards (%(draw)d)."), n=overeating, draw=draw)
    if eat < 1:
        raise RiskInputError(N_("Eating draws at least one card: the pile's value cannot "
                                "be %(n)d."), n=eat)
    if discard is not None and discard < 0:
        raise RiskInputError(N_("The discard pile cannot hold fewer than no cards: %(n)d is "
                                "not a number of cards."), n=discard)
    if overeating == 0:
        return Fraction(0)
    if eat >= draw:
        return Fraction(1)
    return 1 - Fraction(comb(draw - overeating, eat), comb(draw, eat))


def percent(value: float, language: str) -> str:
    """A share as a percentage, written as the language writes it.

    >>> percent(0.51538, "en"), percent(0.51538, "fr"), percent(1.0, "cs")
    ('51.5%', '51,5 %', '100 %')
    """
    figure = f"{value * 100:.1f}".removesuffix(".0")
    if language == "en":
        return figure + "%"
    return figure.replace(".", ",") + " %"
