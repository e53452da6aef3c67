"""Game sessions: a game plus its journal, so nothing a player did is lost.

Every accepted action is checked against the rules first, then written to
the journal (on disk when :meth:`PracticeSession.choose` returns), then
applied. Resuming replays the journal; undo removes its last event and
replays the rest. A practice game is seeded, so replaying its choices gives
back exactly the same game.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.journal import Event, Journal, JournalError, Loaded, journals
from companion.sushigo.bots import BOTS, Bot
from companion.sushigo.draft import Choice, Game, Variant
from companion.sushigo.draft import Event as GameEvent

PRACTICE = "practice"
FORMAT = 1


def _variant_json(variant: Variant) -> dict[str, Any]:
    return {
        "pass_both_ways": variant.pass_both_ways,
        "dummy": variant.dummy,
        "soy_sauce": variant.soy_sauce,
    }


def _variant_from(data: dict[str, Any]) -> Variant:
    return Variant(
        pass_both_ways=bool(data.get("pass_both_ways", False)),
        dummy=bool(data.get("dummy", False)),
        soy_sauce=int(data.get("soy_sauce", 0)),
    )


@dataclass
class PracticeSession:
    """A practice game against bots (or several people at one keyboard).

    ``names`` are the players in table order (the dummy excluded), ``bots``
    the bot playing each seat (``None`` for a person).
    """

    journal: Journal
    game: Game
    names: list[str]
    bots: list[str | None]

    @classmethod
    def start(
        cls,
        names: list[str],
        bots: list[str | None],
        *,
        variant: Variant = Variant(),  # noqa: B008 - frozen dataclass
        seed: int | None = None,
        directory: Path | None = None,
    ) -> PracticeSession:
        if len(bots) != len(names):
            raise ValueError("give a bot (or None for a person) for every player")
        for bot in bots:
            if bot is not None and bot not in BOTS:
                raise ValueError(f"no bot called {bot!r}")
        seed = random.SystemRandom().randrange(2**63) if seed is None else seed
        game = Game(len(names), rng=random.Random(seed), variant=variant)
        header = {
            "type": PRACTICE,
            "format": FORMAT,
            "names": list(names),
            "bots": list(bots),
            "variant": _variant_json(variant),
            "seed": seed,
        }
        journal = Journal.create(header, directory)
        return cls(journal, game, list(names), list(bots))

    @classmethod
    def resume(cls, path: Path) -> tuple[PracticeSession, Loaded]:
        """The game of a journal, exactly as it stood at its last whole event."""
        journal, loaded = Journal.open(path)
        header = journal.header
        if header.get("type") != PRACTICE:
            raise JournalError(f"{path.name} is not a practice game")
        session = cls(
            journal,
            cls._new_game(header),
            list(header["names"]),
            list(header["bots"]),
        )
        session._replay()
        return session, loaded

    @staticmethod
    def _new_game(header: Event) -> Game:
        variant = _variant_from(header["variant"])
        return Game(len(header["names"]), rng=random.Random(header["seed"]), variant=variant)

    def _replay(self) -> None:
        self.game = self._new_game(self.journal.header)
        for event in self.journal.events:
            if event["type"] == "choose":
                self.game.choose(event["seat"], event["choice"])

    def choose(self, seat: int, choice: Choice | str) -> tuple[GameEvent, ...]:
        """Check, journal, then take a seat's choice; the game's events."""
        checked = self.game.check(seat, choice)
        self.journal.append({"type": "choose", "seat": seat, "choice": str(checked)})
        events = self.game.choose(seat, checked)
        if self.game.over:
            self.journal.append({"type": "end", "totals": list(self.game.totals)})
        return events

    def play_bots(self, rng: random.Random) -> list[GameEvent]:
        """Let every bot that has to choose this turn choose."""
        events: list[GameEvent] = []
        for seat in self.game.waiting_for():
            name = self.bots[seat] if seat < len(self.bots) else None
            if name is None:
                continue
            bot: Bot = BOTS[name]()
            choice = bot.choose(self.game.view(seat), self.game.legal_choices(seat), rng)
            events.extend(self.choose(seat, choice))
        return events

    def undo(self) -> Event | None:
        """Take back the last choice (a finished game is reopened); ``None`` if none."""
        if self.journal.events and self.journal.events[-1]["type"] == "end":
            self.journal.undo()
        removed = self.journal.undo()
        self._replay()
        return removed

    def close(self) -> None:
        self.journal.close()


def unfinished(directory: Path | None = None) -> list[Path]:
    """Journals of games that have not ended, newest first (unreadable ones skipped)."""
    found = []
    for path in journals(directory):
        try:
            tail = path.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[-1]
            ended = json.loads(tail)["event"]["type"] == "end"
        except (OSError, ValueError, KeyError, TypeError):
            ended = False
        if not ended:
            found.append(path)
    return found
