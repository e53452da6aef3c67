"""Mici Maki (the Czech edition of *Tem-purr-a*), the companion's second
game: a cat eating contest for 3 to 7 players.

The rules, pure and deterministic (no I/O, no clock, no threads, no global
random generator; randomness comes in as a ``random.Random``): ``rules``
(whole games with every card known, each seat's view of them), ``risk``
(the chance of overeating, exact) and ``yardstick`` (a plain simulator
of the same rules, the measure of the engine's speed).

Its rulings are in ``docs/mici-maki.md``; the rulebook (seed 004) is the
authority where they are silent.
"""

from __future__ import annotations
