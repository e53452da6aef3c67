"""Card input from a serial NFC scanner: wire protocol, link and registry.

The bridge knows tags, links and ports, not games: a tag is a card id of a
game, both plain strings, and each installed game lends it a vocabulary
(:mod:`firmware_bridge.vocabulary`). It imports nothing from the app.
The scanner's own firmware lives in ``firmware/`` beside this package.
"""

from __future__ import annotations
