"""Sushi Go!: cards, tactile codes and scoring, pure and deterministic.

Nothing in this package does I/O, reads a clock, starts a thread or uses a
global random generator; everything else asks it what the rules say.
"""

from __future__ import annotations
