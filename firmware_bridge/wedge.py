"""Typed codes and keyboard-wedge barcode scanners, on the same path as scans.

A wedge scanner types a card's code and Enter, 7 to 16 ms between keys; a
person types at 100 ms or more. :func:`classify` tells the two apart by the
gaps between keystrokes; both are accepted, and :func:`identify` turns the
text into the same event a serial scan gives, with its source. Every
installed game is asked what the text names; the card is the one game's
that names one.

>>> classify([0.000, 0.009, 0.018])
<Source.WEDGE: 'wedge'>
>>> classify([0.0, 0.21])
<Source.KEYBOARD: 'keyboard'>
>>> from firmware_bridge.vocabulary import SimpleVocabulary
>>> fruit = SimpleVocabulary("fruit", "Fruit Salad", 9, (("apple", 2), ("pear", 1)))
>>> veg = SimpleVocabulary("veg", "Vegetable Patch", 8, (("leek", 4), ("pear", 1)))
>>> typed = identify("Apple", [0.0, 0.15], {"fruit": fruit, "veg": veg})
>>> typed.game, typed.card, typed.source
('fruit', 'apple', <Source.KEYBOARD: 'keyboard'>)
>>> identify("pear", [], {"fruit": fruit, "veg": veg}).reason
"'pear' names a card in more than one game: Fruit Salad, Vegetable Patch"
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Mapping, Sequence

from firmware_bridge.events import CardIdentified, CardRefused, Source
from firmware_bridge.vocabulary import Vocabulary
from firmware_bridge.vocabulary import vocabularies as installed

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


def identify(
    text: str,
    key_times: Sequence[float] = (),
    vocabularies: Mapping[str, Vocabulary] | None = None,
) -> CardIdentified | CardRefused:
    """A typed line as an input event: the card, or why no card.

    ``vocabularies`` are the games asked (the installed games' unless given)."""
    source = classify(key_times)
    typed = text.strip()
    games = installed() if vocabularies is None else vocabularies
    named: dict[str, str] = {}
    reasons: list[str] = []
    for game, vocabulary in games.items():
        try:
            named[game] = vocabulary.identify(text)
        except ValueError as error:
            reasons.append(str(error))
    if len(named) == 1:
        [(game, card)] = named.items()
        return CardIdentified(game, card, source, None, typed)
    if not named:
        return CardRefused(typed, reasons[0] if reasons else "no game is installed", source)
    titles = ", ".join(games[game].title for game in named)
    return CardRefused(typed, f"{typed!r} names a card in more than one game: {titles}", source)
