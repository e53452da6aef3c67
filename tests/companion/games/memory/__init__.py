"""Memory, a tiny third game that lives under the tests: the contract's own
example of a game plugged in with nothing changed outside its folder.

Ten cards, five pairs of pictures, face down; a player turns two, keeps a
pair and turns again, or turns them back. It has the core every game has
(its cards and codes, learning them, a practice game saved and resumed)
and one capability, simulations; no table companion, no scoring, no kit.

It is registered for the tests in tests/companion/games only, through entry points
as an installed game would be (``installed/``, read by
``importlib.metadata``): see tests/companion/games/conftest.py.
"""

from __future__ import annotations
