"""Memory's practice game: you against a bot that turns cards at random,
every card turned journaled before it is said (the bot's too), so a game
stopped anywhere resumes at the very question. Its session is a
:class:`~companion.games.saved.Saved`, as every game's is: it ends, is
thrown away and is checked the way the real games' sessions are.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from companion.contract.events import (
    Announcement,
    Conversation,
    Menu,
    Number,
    event,
    info,
    reply,
    result,
    warning,
)
from companion.contract.game import PRACTICE, Play, Step, WordReply
from companion.games.saved import Saved
from companion.journal import Journal
from companion.records import Flag, Kind, Records, Whole, optional
from tests.companion.games.memory.rules import PLAYERS, Game, IllegalTurn, Turned
from tests.companion.games.memory.vocabulary import GAME
from tests.companion.games.memory.words import memory_words

#: What a practice game saves: its header, each card turned, its end.
RECORDS = Records(GAME, {PRACTICE: Kind({"seed": Whole(0, 2**32), "players": Whole(*PLAYERS)})},
                  {PRACTICE: {"turned": Kind({"position": Whole(0, 9)}),
                              "end": Kind({"discarded": optional(Flag())})}})


def set_up(conversation: Conversation, rng: random.Random) -> Practice:
    """How many play (you and bots), then the game."""
    words = memory_words(conversation.language)
    low, high = PLAYERS
    players = conversation.ask(Number(words.text("How many players, %(low)d to %(high)d?",
                                                 low=low, high=high), low, high))
    header = {"type": PRACTICE, "game": GAME, "seed": rng.randrange(2**32),
              "players": players if players is not None else low}
    return Practice(Journal.create(header), rng, conversation.language)


class Practice(Saved):
    """A practice game of Memory (a :class:`~companion.contract.game.Play`),
    and its saved game."""

    KIND = PRACTICE
    WHAT = "practice game"
    kind = PRACTICE
    #: The app's words it answers.
    actions = ("where", "hint")

    def __init__(self, journal: Journal, rng: random.Random, language: str) -> None:
        self.check(journal, RECORDS)
        self.journal = journal
        self.random = rng
        self.words = memory_words(language)
        header = journal.header
        self.game = Game(int(header["players"]), random.Random(int(header["seed"])))
        for saved in journal.events:
            if saved["type"] == "turned":
                self.game.turn_card(int(saved["position"]))

    def _seat(self, seat: int) -> str:
        return self.words.text("you") if seat == 0 else self.words.text(
            "bot %(n)d", n=seat)

    def _said(self, turned: Turned) -> Announcement:
        values = {"who": self._seat(turned.seat), "n": turned.position + 1,
                  "picture": turned.picture.value}
        if turned.pair:
            text = self.words.text("%(who)s turns card %(n)d: %(picture)s, a pair.", **values)
        elif turned.second:
            text = self.words.text("%(who)s turns card %(n)d: %(picture)s, no pair: both "
                                   "turned back.", **values)
        else:
            text = self.words.text("%(who)s turns card %(n)d: %(picture)s.", **values)
        return event(text) if turned.seat else reply(text)

    def _turn(self, position: int) -> Turned:
        self.journal.append({"type": "turned", "position": position})
        return self.game.turn_card(position)

    def advance(self) -> Step | None:
        game = self.game
        if self.ended:
            return None
        if game.over:
            self.finish()
            names = ", ".join(self._seat(seat) for seat in game.winners)
            return Step(None, (result(self.words.text("Game over: %(who)s won.", who=names)),))
        said = []
        while game.turn != 0 and not game.over:  # the bots' turns, said as they come
            said.append(self._said(self._turn(self.random.choice(game.legal()))))
        if said:
            return Step(None, tuple(said))
        options = tuple(self.words.text("Card %(n)d", n=n + 1) for n in game.legal())
        return Step(Menu(self.words.text("Which card do you turn?"), options), key="turn")

    def take(self, step: Step, answer: object) -> Sequence[Announcement]:
        assert isinstance(answer, int)  # the menu's option
        try:
            return [self._said(self._turn(self.game.legal()[answer]))]
        except IllegalTurn as error:
            return [warning(self.words.text("Card %(n)d cannot be turned now: choose another.",
                                            n=error.position + 1))]
        except IndexError:
            return [warning(self.words.text("There is no such card now: choose another."))]

    def command(self, name: str, argument: str) -> WordReply | None:
        if name == "where":
            return WordReply((info(self.facts()),))
        if name == "hint":
            return WordReply((info(self.words.text("Try card %(n)d.", n=self.game.legal()[0] + 1)
                               if not self.game.over else self.facts()),))
        return None

    def facts(self) -> str:
        game = self.game
        down = sum(card is not None for card in game.table)
        return self.words.text("Your pairs: %(yours)d of %(all)d taken; %(down)d cards face "
                               "down.", yours=len(game.pairs[0]),
                               all=sum(len(taken) for taken in game.pairs), down=down)


_: type[Play] = Practice  # mypy checks that it is a Play
