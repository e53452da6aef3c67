"""The tactile kit: what a sighted helper needs to make a tactile deck of a
game in one evening (``companion kit``).

For the game asked, in the language asked, it writes:

- sticker sheets (``stickers-N.svg`` and ``stickers.pdf``), at true size on
  A4 or Letter: every sticker a full deck needs, each in its dashed cut
  line, grouped by kind of card, each group labelled in print;
- a placement guide: card outlines at true size with the punched hole and
  every sticker in place (``guide-N.svg``, ``guide.pdf``), and the same as
  text for reading with a screen reader (``guide.md``: a heading a kind of
  card, short lines, the distances in mm);
- braille labels and the deck list in grade 1 braille (``labels.brf``,
  through liblouis: :mod:`companion.kit.braille`);
- the cards one a line in deck order (``cards.txt``), the order in which
  ``firmware-bridge enrol`` users go through the deck.

The kit knows no game by name: everything about a game comes from its
plugin's :meth:`~companion.contract.game.TactileKit.stickers`. Drawing is
:mod:`companion.kit.drawing`, placing :mod:`companion.kit.layout`, the files
:mod:`companion.kit.svg` and :mod:`companion.kit.pdf`, the whole
:mod:`companion.kit.make`. docs/tactile-kit.md says how to use it.
"""

from __future__ import annotations
