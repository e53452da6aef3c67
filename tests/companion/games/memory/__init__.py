"""Memory, a tiny third game that lives under the tests: the contract's own
example of a game plugged in with nothing changed outside its folder.

Ten cards, five pairs of pictures, face down; a player turns two, keeps a
pair and turns again, or turns them back. It has the core every game has
(its cards and codes, learning them, a practice game saved and resumed)
and one capability, simulations; no table companion, no scoring, no kit.

It is registered for the tests in tests/companion/games only, through entry points
as an installed game would be (``installed/``, read by
``importlib.metadata``; :mod:`.install` puts it there and takes it away):
tests/companion/games/conftest.py, the one place outside this folder that
names it, installs it for that folder's collection and tests.
"""

from __future__ import annotations
