"""A practice game of Sushi Go! against bots, played through the conversation.

Each turn the player hears the round, the turn and their hand, and picks
(typed or scanned: one card, two with chopsticks, and the dummy's card when
they control it); the bots pick at once, and what everyone revealed is
said. Every pick is journaled before it is taken.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from companion.contract.events import (
    Announcement,
    Cards,
    CardsQuestion,
    Conversation,
    Number,
    Verbosity,
    event,
    info,
    reply,
    warning,
)
from companion.contract.game import PRACTICE, Step, WordReply, in_steps, set_up_menu
from companion.games.sushigo.bots import Advisor
from companion.games.sushigo.draft import (
    ChoiceError,
    GameEnded,
    Revealed,
    RoundScored,
    Variant,
)
from companion.games.sushigo.draft import Event as GameEvent
from companion.games.sushigo.narration import advice_text, choice_error_text, hand_text, pick_text
from companion.games.sushigo.session import PracticeSession
from companion.games.sushigo.telling import READER, Teller

#: Bots a player can practise against, in the order the set-up offers them.
OPPONENTS = ("greedy", "random", "advisor")
#: The most cards a pick takes: two with chopsticks, and the dummy's.
MOST = 3


def variants(teller: Teller, players: int) -> tuple[str, ...]:
    """The variants offered for a table of ``players``, in order."""
    offered = [teller.text("No variant."), teller.text("Pass both ways."),
               teller.text("Soy sauce.")]
    if players == 2:
        offered.append(teller.text("Two-player dummy."))
    return tuple(offered)


def variant_of(pick: int) -> Variant:
    """The variant of an option of :func:`variants`."""
    return Variant(pass_both_ways=pick == 1, soy_sauce=3 if pick == 2 else 0, dummy=pick == 3)


def set_up(conversation: Conversation, rng: random.Random) -> Practice:
    """Ask how many players, which bots and which variant; start the game.
    Back in a menu asks the question before it again."""
    teller = Teller(conversation.language, conversation.verbosity)
    back = teller.text("Back.")
    players = level = pick = 0

    def count() -> None:
        nonlocal players
        players = conversation.ask(Number(
            teller.text("How many players, you included? 2 to 5:"), 2, 5)) or 2

    def opponents() -> None:
        nonlocal level
        level = set_up_menu(conversation, teller.text("Opponents:"), (
            teller.text("Greedy bots."),
            teller.text("Random bots."),
            teller.text("Advisor bots, the strongest."),
        ), back)

    def variant() -> None:
        nonlocal pick
        pick = set_up_menu(conversation, teller.text("Variant:"), variants(teller, players),
                           back)

    in_steps((count, opponents, variant))
    names = [teller.text("You")] + [teller.text("Bot %(n)d", n=n) for n in range(1, players)]
    session = PracticeSession.start(names, [None] + [OPPONENTS[level]] * (players - 1),
                                    variant=variant_of(pick), seed=rng.randrange(2**31))
    return Practice(session, rng, conversation.language, conversation.verbosity)


class Practice:
    """A practice game being played (a :class:`~companion.contract.game.Play`)."""

    kind = PRACTICE
    actions = ("where", "hand", "tables", "race", "hint", "undo")

    def __init__(self, session: PracticeSession, rng: random.Random, language: str,
                 verbosity: Verbosity) -> None:
        self.session = session
        self.random = rng
        self.teller = Teller(language, verbosity)
        dummy = [self.teller.text("Dummy")] if session.game.dummy is not None else []
        self.names = [*session.names, *dummy]
        self._opened = False
        self._ended = False

    def advance(self) -> Step | None:
        game = self.session.game  # undo rebuilds the game: always the one now
        before: list[Announcement] = []
        if not self._opened:
            self._opened = True
            before.append(info(self.teller.text("Practice game: %(players)s.",
                                                players=", ".join(self.names))))
        if game.over:
            if self._ended:
                return None
            self._ended = True  # resumed after its last pick: the result is said now
            return Step(None, (*before, *self.teller.final(game.result(), self.names)))
        before += self._turn()
        choices = game.legal_choices(0)
        question = CardsQuestion(self.teller.text("Your pick:"), READER, most=MOST,
                                 full=choices.most, groups=2 if choices.dummy else 1)
        return Step(question, tuple(before))

    def _turn(self) -> list[Announcement]:
        game = self.session.game
        said = [self.teller.turn(game.round, game.turn, game.variant),
                info(hand_text(self.teller.catalog, game.hand(0), self.teller.verbosity))]
        if game.controller == 0:
            said.append(info(self.teller.text(
                "You control the dummy: give it a card too, as in w2/o3.")))
        return said

    def take(self, step: Step, answer: object) -> Sequence[Announcement]:
        assert isinstance(answer, Cards)
        game = self.session.game
        try:
            choice = game.legal_choices(0).of(answer.groups)
            events = list(self.session.choose(0, choice))
        except ChoiceError as error:
            return [warning(choice_error_text(self.teller.catalog, error))]
        events += self.session.play_bots(self.random)
        return self._tell(events)

    def _tell(self, events: Sequence[GameEvent]) -> list[Announcement]:
        said: list[Announcement] = []
        for happened in events:
            if isinstance(happened, Revealed):
                if happened.automatic:  # said, or the same picks twice would puzzle
                    said.append(event(self.teller.catalog.text(
                        "The last cards play by themselves:")))
                said.extend(event(pick_text(self.teller.catalog, self.names[seat], cards))
                            for seat, cards in enumerate(happened.cards) if cards)
            elif isinstance(happened, RoundScored):
                said += self.teller.round_scores(happened.round, happened.scores, self.names)
            elif isinstance(happened, GameEnded):
                self._ended = True
                said += self.teller.final(happened.score, self.names)
        return said

    def command(self, name: str, argument: str) -> WordReply | None:
        game = self.session.game
        teller = self.teller
        if name == "hand":
            said = [reply(hand_text(teller.catalog, game.hand(0), teller.verbosity))]
        elif name == "where":
            said = [teller.where(game.round, game.turn, self.session.names,
                                 game.live_totals)]
        elif name == "tables":
            said = teller.tables(self.names, [game.table(s) for s in range(len(self.names))],
                                 argument)
        elif name == "race":
            said = teller.race(self.names, game.race())
        elif name == "hint":
            advice = Advisor(worlds=40).advise(game.view(0), game.legal_choices(0), self.random)
            said = [reply(advice_text(teller.catalog, advice, teller.verbosity), important=True)]
        elif name == "undo":
            if not self.session.undo_last_of(0):
                return WordReply((reply(teller.text("Nothing to take back.")),))
            return WordReply((reply(teller.text("Your last pick is taken back."), important=True),),
                         changed=True)
        else:
            return None
        return WordReply(tuple(said))

    def facts(self) -> str:
        game = self.session.game
        return self.teller.facts(game.round, game.turn, game.live_totals[0], len(game.hand(0)))

    def discard(self) -> None:
        self.session.discard()

    def close(self) -> None:
        self.session.close()
