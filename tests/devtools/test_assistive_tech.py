"""The app under real assistive technology: BRLTTY 6.5 (its ``tt`` braille
driver, a 40-cell window, and its speech) and the Fenrir screen reader (its
debug speech driver), both reading a Linux virtual console, as a blind
player runs them.

The walk (:mod:`devtools.atcheck.scenario`) goes through first start, a
menu, the code drill with a right, a wrong and an invalid answer, a practice
game with hand, where, hint, a pick and repeat played to its final scores
(killed with SIGKILL after its first pick, started again and resumed), a
whole scored game's final result, Mici Maki chosen in the settings and its
practice game's first eight moves, and a table-companion turn with a skipped
reveal, in both faces at 80x25 and 40x15. For every step it checks what the
braille window at the cursor shows and what Fenrir says, and where each of
the step's declared announcements is (a menu's title with its first option,
a round's and the game's final scores before the next question): the figures
must all be 0 (announcements not in the braille window at rest nor its
forward pans, line-ups a braille user needs to read each reply,
announcements Fenrir did not say, rows a reply wrote that Fenrir did not
say, old rows Fenrir said again, utterances said twice, blank braille
windows, replies neither at the cursor nor spoken) but at the steps of
:data:`KNOWN`, whose problems are not mended yet.

It needs root, virtual consoles and Debian's ``brltty`` and ``fenrir``
(the README's test command installs them): where one is missing, the test
fails and says what is missing.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from devtools.atcheck.devices import missing
from devtools.atcheck.scenario import steps
from devtools.atcheck.walk import FACES, SIZES, failures, run_walk
from devtools.atcheck.walk import figures as figures_of
from devtools.atcheck.walk import transcript as walk_transcript

#: Root, a Linux console, BRLTTY and Fenrir.
pytestmark = pytest.mark.system

APP = [sys.executable, "-m", "companion"]

#: Steps where a problem is known and not mended yet, by face: a problem
#: there is reported in the figures but does not fail the test; a problem at
#: any other step does. (None now: keep it so, and name a step here only
#: with an issue that says why.)
KNOWN: dict[str, frozenset[str]] = {
    "plain": frozenset(),
    "full": frozenset(),
}

#: The faces whose speech is checked: Fenrir's must say each reply, once.
#: (BRLTTY's autospeak, a second voice most braille users turn off, says a
#: line again when the screen under its window scrolls: it is reported in
#: the figures, not checked.)
SPOKEN = frozenset({"plain", "full"})


@pytest.mark.parametrize("cols,rows", SIZES, ids=[f"{c}x{r}" for c, r in SIZES])
@pytest.mark.parametrize("face", FACES)
def test_every_reply_is_at_the_cursor_and_said_once(face: str, cols: int, rows: int,
                                                     tmp_path: Path) -> None:
    gaps = missing()
    assert not gaps, "the walk under real assistive technology needs " + ", ".join(gaps)
    transcript = tmp_path / f"{face}-{cols}x{rows}.txt"
    figures, seen = run_walk(face, cols, rows, steps(face, rows), app=APP,
                             out=transcript)
    speech = face in SPOKEN
    wrong = {number: failures(s, speech=speech, autospeak=False)
             for number, s in enumerate(seen, 1) if s.step.label not in KNOWN[face]}
    problems = [f"step {number} ({seen[number - 1].step.label}): {problem}"
                for number, found in wrong.items() for problem in found]
    # the steps that failed, each with the one before it (the screen it began on)
    shown = {n for number, found in wrong.items() if found for n in (number - 1, number)}
    assert not problems, (f"{figures.as_dict()}\n" + "\n".join(problems)
                          + f"\n(whole transcript: {transcript})\n"
                          + walk_transcript(figures, seen, shown))
    mended = figures_of(face, f"{cols}x{rows}",
                        [s for s in seen if s.step.label not in KNOWN[face]])
    assert (mended.line_ups_needed, mended.blank_flickers, mended.announcements_missed,
            mended.stale_utterances) == (0, 0, 0, 0)
    if speech:
        # every announcement said, and every row a reply wrote
        assert (mended.fenrir_missed, mended.rows_unheard) == (0, 0), mended.as_dict()
    if speech:
        assert not [s.step.label for s in seen
                    if s.step.label not in KNOWN[face] and s.duplicates(brltty=False)]
    assert len(seen) - len([s for s in seen if s.step.label in KNOWN[face]]) >= 30
