"""A companion for playing tactile card games with real cards.

Game rules live in one subpackage per game (``companion.games.sushigo``); the
shell around them (command line, narration, journal, interface) sits beside
them and is shared by every game.
"""

from __future__ import annotations

__version__ = "0.1.0"
