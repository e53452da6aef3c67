"""A practice game of Mici Maki against bots, played through the conversation.

You sit at seat 0. On your turn you hear the pile and, unless terse, the
chance of overeating if you eat and what you could play; you type or scan
a card (a food card to serve or start a pile, an action card), a pair to
skip the food, or the word eat. The bots then play at once, each move said
in a short sentence, until your turn comes again. Every move is journaled
before it is made: the game resumes at the very question.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from companion.contract.events import (
    Announcement,
    Cards,
    CardsQuestion,
    Conversation,
    Menu,
    Number,
    Verbosity,
    YesNo,
    info,
    reply,
    warning,
)
from companion.contract.game import PRACTICE, Step, WordReply, in_steps, set_up_menu
from companion.games.micimaki import narration
from companion.games.micimaki.risk import overeating_risk
from companion.games.micimaki.rules import (
    ADD,
    CHOOSE,
    EAT,
    EXTRA,
    OVEREATING,
    PILE,
    TURN,
    Event,
    Game,
    IllegalMove,
    Move,
    Setup,
    hand_cards,
)
from companion.games.micimaki.session import PracticeSession
from companion.games.micimaki.telling import (
    CHOOSING,
    READER,
    Ending,
    MoveError,
    Teller,
    hint,
    move_error_text,
    pile_after,
    read_move,
    word,
)
from companion.games.micimaki.vocabulary import Word

#: Bots to practise against, in the order the set-up offers them.
OPPONENTS = ("cautious", "random", "advisor")
#: The questions of a practice game.
MOVE, WHOM, EXTRA_CARD = "move", "whom", "extra"


def set_up(conversation: Conversation, rng: random.Random) -> Practice:
    """Ask how many players and which bots; start the game. Back in the
    menu asks how many players again."""
    teller = Teller(conversation.language, conversation.verbosity)
    players = level = 0

    def count() -> None:
        nonlocal players
        players = conversation.ask(Number(
            teller.text("How many players, you included? 3 to 7:"), 3, 7)) or 3

    def opponents() -> None:
        nonlocal level
        level = set_up_menu(conversation, teller.text("Opponents:"), (
            teller.text("Cautious bots."),
            teller.text("Random bots."),
            teller.text("Advisor bots, the strongest."),
        ), teller.text("Back."))

    in_steps((count, opponents))
    names = [teller.text("You")] + [teller.text("Bot %(n)d", n=n) for n in range(1, players)]
    session = PracticeSession.start(names, [None] + [OPPONENTS[level]] * (players - 1),
                                    setup=Setup(players=players), seed=rng.randrange(2**31))
    return Practice(session, rng, conversation.language, conversation.verbosity)


class Practice(Ending):
    """A practice game being played (a :class:`~companion.contract.game.Play`)."""

    kind = PRACTICE
    session: PracticeSession
    actions = ("where", "hand", Word.PILE, Word.RISK, Word.TOKENS, "hint", "undo", Word.EAT)

    def __init__(self, session: PracticeSession, rng: random.Random, language: str,
                 verbosity: Verbosity) -> None:
        self.session = session
        self.random = rng
        self.teller = Teller(language, verbosity)
        self.names = list(session.names)
        self._opened = False
        self._announced = -1

    @property
    def game(self) -> Game:
        return self.session.game  # undo rebuilds the game: always the one now

    def _standing(self) -> Game:
        return self.game

    def text(self, message: str, **params: object) -> str:
        return self.teller.text(message, **params)

    # -- what to ask ----------------------------------------------------------------------

    def advance(self) -> Step | None:
        if self.session.ended:
            return self._told_result()
        game = self.game
        before: list[Announcement] = []
        if not self._opened:
            self._opened = True
            before.append(info(self.text("Mici Maki practice: %(players)s. First: "
                                         "%(player)s.", players=", ".join(self.names),
                                         player=self.names[game.turn])))
        if game.over:
            return self._finished(before)
        if game.turn != 0:
            before += self._bots()
            return Step(None, tuple(before))
        if game.phase == ADD:
            return Step(YesNo(self.text("Add one more overeating card to the draw pile? "
                                        "%(n)d in the game now.", n=self._in_game()),
                              no=self.text("No."), yes=self.text("Yes, one more.")),
                        tuple(before), EXTRA_CARD)
        if self.session.pending():
            others = [seat for seat in range(len(self.names)) if seat != 0]
            return Step(Menu(self.text("Who plays next?"),
                             tuple(self.names[seat] for seat in others)), tuple(before), WHOM)
        if self._announced != game.turns:
            self._announced = game.turns
            before += self._your_turn()
        prompt = (self.text("Start a pile with a food card:") if game.phase == PILE
                  else self.text("Your move: a card, a pair, or %(eat)s:",
                                 eat=word(self.teller.catalog, Word.EAT)))
        return Step(CardsQuestion(prompt, READER, most=2), tuple(before), MOVE)

    def _in_game(self) -> int:
        return int(self.game.overeating)

    def _your_turn(self) -> list[Announcement]:
        """Your turn: your hand, and unless terse the pile, the risk and what you could do."""
        game = self.game
        view = game.view(0)
        said = [info(narration.hand_text(self.teller.catalog, hand_cards(view.hand)))]
        if self.teller.verbosity is Verbosity.TERSE:
            return said
        starter = self.names[view.turn]
        said.append(info(narration.pile_text(self.teller.catalog, view.pile, view.food,
                                             view.value, starter)))
        if view.phase == TURN:
            said.append(self.teller.risk(phase=view.phase, value=view.value, draw=view.draw,
                                         overeating=view.overeating, starter=starter))
            said.append(self.teller.playable(game.legal_moves(), self.names))
        return said

    # -- the answers ------------------------------------------------------------------------

    def take(self, step: Step, answer: object) -> Sequence[Announcement]:
        game = self.game
        if step.key == EXTRA_CARD:
            return self._move((EXTRA, int(bool(answer))))
        if step.key == WHOM:
            assert isinstance(answer, int)  # a menu's answer: the option's index
            others = [seat for seat in range(len(self.names)) if seat != 0]
            return self._move((CHOOSE, others[answer]))
        assert isinstance(answer, Cards)
        try:
            move = read_move(answer.cards, phase=game.phase)
        except MoveError as error:
            return [warning(move_error_text(self.teller.catalog, error))]
        if move == (CHOOSE, CHOOSING):
            refusal = game.refusal((CHOOSE, 1))
            if refusal is not None and refusal.code == "card":
                return [warning(self.teller.refusal(refusal, self.names))]
            self.session.choosing()
            return []
        return self._move(move)

    def _move(self, move: Move) -> list[Announcement]:
        """Your move, made: said back, then what it brought, then the bots."""
        game = self.game
        value_before = game.value
        try:
            events = self.session.move(move)
        except IllegalMove as error:
            return [warning(self.teller.refusal(error.refusal, self.names))]
        said = self._told(0, move, value_before, events)
        return said

    def _told(self, seat: int, move: Move, value_before: int,
              events: Sequence[Event]) -> list[Announcement]:
        """A move and what followed it, in sentences."""
        game = self.game
        name = self.names[seat]
        said: list[Announcement] = []
        if move[0] == EXTRA:
            if seat == 0 or self.teller.verbosity is not Verbosity.TERSE or move[1]:
                said.append(self.teller.move(name, move, value=game.overeating,
                                             direction=1, yours=seat == 0, own=seat == 0))
        elif move[0] != EAT:
            chosen = self.names[move[1]] if move[0] == CHOOSE else ""
            said.append(self.teller.move(name, move, value=pile_after(move, value_before),
                                         direction=game.direction, chosen=chosen,
                                         yours=seat == 0, own=seat == 0,
                                         to_you=move[0] == CHOOSE and move[1] == 0))
            said += self.teller.rules(move)
        for happened in events:
            player = self.names[happened.seat]
            mine = happened.seat == 0
            if happened.kind == "ate":
                overate = OVEREATING in happened.cards
                said += self.teller.ate(player, happened.cards, overate=overate,
                                        tokens=game.tokens[happened.seat], shown=mine,
                                        yours=mine and seat == 0, own=mine)
                said += self.teller.rules(move, overate=overate)
            elif happened.kind == "drew":
                drawn = happened.cards if mine else len(happened.cards)
                said.append(self.teller.drew(player, drawn, own=mine))
                if happened.cards and happened.cards[-1] == OVEREATING:
                    said.append(self.teller.overate(player, game.tokens[happened.seat]))
            elif happened.kind == "passed":
                said.append(self.teller.passed(player))
            elif happened.kind == "round":
                said.append(self.teller.new_round(game.round, player))
        return said

    def _bots(self) -> list[Announcement]:
        """Every bot plays, until your turn comes again (or the game ends)."""
        said: list[Announcement] = []
        game = self.game
        while not game.over and game.turn != 0:
            seat = game.turn
            bot = self.session.bot_of(seat)
            assert bot is not None, "only seat 0 is a person in practice"
            moves = game.legal_moves()
            move = bot.choose(game.view(seat), moves, self.random)
            value_before = game.value
            events = self.session.move(move)
            said += self._told(seat, move, value_before, events)
        return said

    # -- the words ---------------------------------------------------------------------------

    def command(self, name: str, argument: str) -> WordReply | None:
        game = self.game
        teller = self.teller
        view = game.view(0)
        starter = self.names[view.turn]
        if name == Word.EAT:
            if game.turn != 0 or game.phase != TURN:
                return WordReply((warning(self.text("You can eat on your turn, when there is a "
                                                "pile.")),))
            said = self._move((EAT, 0))
            return WordReply(tuple(said), changed=True)
        if name == "hand":
            said = [teller.hand(hand_cards(view.hand))]
        elif name == "where":
            said = [teller.where(round_=view.round, player=starter, direction=view.direction,
                                 phase=view.phase, value=view.value, draw=view.draw)]
        elif name == Word.PILE:
            said = [teller.pile(view.pile, view.food, view.value, starter)]
        elif name == Word.RISK:
            said = [teller.risk(phase=view.phase, value=view.value, draw=view.draw,
                                overeating=view.overeating, starter=starter)]
        elif name == Word.TOKENS:
            said = teller.tokens(self.names, view.tokens, view.hand_sizes)
        elif name == "hint":
            said = [self._hint()]
        elif name == "undo":
            if not self.session.undo_yours():
                return WordReply((reply(self.text("Nothing to take back.")),))
            self._announced = -1
            return WordReply((reply(self.text("Your last move is taken back."), important=True),),
                         changed=True)
        else:
            return None
        return WordReply(tuple(said))

    def _hint(self) -> Announcement:
        game = self.game
        if game.turn != 0 or game.over:
            return reply(self.text("The hint is for your turn."))
        return reply(hint(self.teller.catalog, game.view(0), game.legal_moves(), self.names),
                     important=True)

    def facts(self) -> str:
        view = self.game.view(0)
        risk = (overeating_risk(draw=view.draw, overeating=view.overeating,
                                eat=max(view.value, 1)) if view.phase == TURN else Fraction(0))
        return self.teller.facts(round_=view.round, player=self.names[view.turn],
                                 value=view.value, risk=risk, tokens=view.tokens[0],
                                 cards=view.hand_sizes[0])

    def discard(self) -> None:
        self.session.discard()

    def close(self) -> None:
        self.session.close()
