"""Sushi Go!, the companion's first game.

The rules, pure and deterministic (no I/O, no clock, no threads, no global
random generator; randomness comes in as a ``random.Random``): ``cards``,
``tactile`` (the tactile codes), ``draft`` (whole games with every card
known), ``scoring``, ``tracker`` (a real game followed from what is
entered), ``knowledge``, ``bots`` and ``gamefile``.

Around them, the game's part of the app: ``narration`` (its sentences),
``telling`` (which sentences are said together, with their roles),
``session`` (games journaled), ``practice`` and ``table`` (the two ways of
playing, as :class:`~companion.contract.game.Play`), ``scorer`` (scoring a
finished game), ``simulate`` and ``bench`` (figures), and ``plugin``, the
one object the registry finds.
"""

from __future__ import annotations
