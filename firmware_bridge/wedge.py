"""Typed codes and keyboard-wedge barcode scanners, on the same path as scans.

A wedge scanner types a card's code and Enter, 7 to 16 ms between keys; a
person types at 100 ms or more. :func:`classify` tells the two apart by the
gaps between keystrokes; both are accepted, and :func:`identify` turns the
text into the same event a serial scan gives, with its source.

>>> classify([0.000, 0.009, 0.018])
<Source.WEDGE: 'wedge'>
>>> classify([0.0, 0.21])
<Source.KEYBOARD: 'keyboard'>
>>> identify("w2", [0.0, 0.15]).card
Card.SALMON
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Sequence

from companion.games.sushigo.tactile import UnknownCodeError, parse
from firmware_bridge.events import CardIdentified, CardRefused, Source

#: Median gap between keys below which a line was typed by a scanner.
WEDGE_MEDIAN_GAP = 0.030
#: No gap in a scanner's burst is longer than this.
WEDGE_MAX_GAP = 0.060


def classify(key_times: Sequence[float]) -> Source:
    """Who typed a line, from the times (in seconds) of its keys, Enter included."""
    if len(key_times) < 2:
        return Source.KEYBOARD
    gaps = [b - a for a, b in itertools.pairwise(key_times)]
    if statistics.median(gaps) <= WEDGE_MEDIAN_GAP and max(gaps) <= WEDGE_MAX_GAP:
        return Source.WEDGE
    return Source.KEYBOARD


def identify(text: str, key_times: Sequence[float] = ()) -> CardIdentified | CardRefused:
    """A typed line as an input event: the card, or why no card."""
    source = classify(key_times)
    try:
        card = parse(text)
    except UnknownCodeError as error:
        return CardRefused(error, source)
    return CardIdentified(card, source, None, text.strip())
