"""What a Mici Maki game says while it is played, practice or at the table,
and how it reads what the player gives: the card reader of card questions,
the game's words, a move read from the cards given, and the sayings both
ways of playing share (where, the pile, the risk, the tokens, the key
facts), each an announcement with its role.

The sentences themselves are in :mod:`companion.games.micimaki.narration`.

>>> READER.read("5"), READER.name("fr", 8), READER.card_id(10)
(5, '+1 plat', 'choose')
>>> read_move((5,), phase=TURN), read_move((3, 3), phase=TURN), read_move((7,), phase=PILE)
((1, 5), (4, 3), (0, 7))
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from fractions import Fraction
from typing import Protocol

from companion.contract.events import (
    Announcement,
    CardReader,
    CodeReader,
    Verbosity,
    event,
    info,
    reply,
    result,
)
from companion.contract.game import Step
from companion.games.micimaki import narration
from companion.games.micimaki.bots import Advisor
from companion.games.micimaki.narration import card_name, catalog
from companion.games.micimaki.risk import overeating_risk
from companion.games.micimaki.rules import (
    CHOOSE,
    EAT,
    FOODS,
    OVEREATING,
    PILE,
    PLAY,
    PLUS,
    SERVE,
    SKIP,
    START,
    TURN,
    Move,
    Refusal,
    View,
)
from companion.games.micimaki.tactile import card_id as id_of
from companion.games.micimaki.tactile import from_id, parse
from companion.games.micimaki.vocabulary import GAME, Word, refusal_text
from companion.games.saved import Saved
from companion.i18n import Catalog
from companion.keymap import C_, Action, Scope, Words

#: Its own words, besides the app's game words.
ACTIONS: tuple[Action, ...] = (
    Action(Word.EAT, C_("command word", "eat"), scope=Scope.GAME, argument=True),
    Action(Word.PILE, C_("command word", "pile"), scope=Scope.GAME),
    Action(Word.RISK, C_("command word", "risk"), scope=Scope.GAME),
    Action(Word.TOKENS, C_("command word", "tokens"), scope=Scope.GAME),
    Action(Word.DREW, C_("command word", "drew"), scope=Scope.GAME, argument=True),
)
#: The key of the move "choose the next player" not yet told whom.
CHOOSING = -1


def _refusal(language: str, error: ValueError) -> str:
    """Why a typed code names no Mici Maki card, and what to type instead."""
    return refusal_text(language, error)


def _name(language: str, card: int) -> str:
    return card_name(catalog(language), card)


#: How card questions read Mici Maki cards.
READER: CardReader[int] = CodeReader(GAME, read=parse, refusal=_refusal, from_id=from_id,
                                     card_id=id_of, name=_name)


class MoveError(ValueError):
    """Cards given for a move that make no move: the sentence says why."""


def read_move(cards: Sequence[int], *, phase: int) -> Move:
    """The move the cards given make: a food card starts a pile (or is
    served), an action card is played, a pair skips the food. "Choose the
    next player" comes back as ``(CHOOSE, CHOOSING)``: whom is asked next.
    Raises :class:`MoveError` with a refusal's code for what makes no move."""
    if OVEREATING in cards:
        raise MoveError("overeating")
    if phase == PILE:
        if len(cards) != 1 or cards[0] not in FOODS:
            raise MoveError("start")
        return (START, cards[0])
    if len(cards) == 2:
        if cards[0] != cards[1] or cards[0] not in FOODS:
            raise MoveError("pair")
        return (SKIP, cards[0])
    if len(cards) != 1:
        raise MoveError("one")
    card = cards[0]
    if card in FOODS:
        return (SERVE, card)
    if card == CHOOSE:
        return (CHOOSE, CHOOSING)
    return (PLAY, card)


def move_error_text(words: Catalog, error: MoveError) -> str:
    why = str(error)
    if why == "overeating":
        return words.text("x, an overeating card, is only entered for cards turned up.")
    if why == "start":
        return words.text("Start the pile with one food card, 2 to 7.")
    if why == "pair":
        return words.text("Skipping the food takes two of the same food card, as in 5 5.")
    return words.text("One card, or a pair to skip the food. To eat, type %(eat)s.",
                      eat=word(words, Word.EAT))


def word(words: Catalog, name: str) -> str:
    """The main word of one of the game's actions, in the catalog's language."""
    return Words(words, [(action, words) for action in ACTIONS]).word(name)


class Teller:
    """The sayings both ways of playing share, in one language."""

    def __init__(self, language: str, verbosity: Verbosity) -> None:
        self.language = language
        self.catalog = catalog(language)
        self.verbosity = verbosity

    def text(self, message: str, **params: object) -> str:
        return self.catalog.text(message, **params)

    def refusal(self, refusal: Refusal, names: Sequence[str]) -> str:
        return narration.refusal_text(self.catalog, refusal, names,
                                      eat=word(self.catalog, Word.EAT),
                                      drew=word(self.catalog, Word.DREW))

    def facts(self, *, round_: int, player: str, value: int, risk: Fraction | None,
              tokens: int, cards: int) -> str:
        """The key facts for a status line: "R2, turn: Ana, pile 12, risk 8%, ..."
        (``risk`` ``None``: it cannot be worked out)."""
        chance = (narration.chance(self.catalog, risk) if risk is not None
                  else self.text("unknown"))
        return self.catalog.plural(
            "R%(round)d, turn: %(player)s, pile %(value)d, risk %(risk)s, you %(n)d token, "
            "%(cards)s", "R%(round)d, turn: %(player)s, pile %(value)d, risk %(risk)s, "
            "you %(n)d tokens, %(cards)s", tokens, round=round_, player=player, value=value,
            risk=chance,
            cards=narration.cards_count(self.catalog, cards))

    def where(self, *, round_: int, player: str, direction: int, phase: int, value: int,
              draw: int) -> Announcement:
        return reply(narration.where_text(self.catalog, round_, player, direction,
                                          starting=phase == PILE, value=value, draw=draw))

    def pile(self, pile: Sequence[int], food: int, value: int, starter: str) -> Announcement:
        return reply(narration.pile_text(self.catalog, pile, food, value, starter))

    def risk(self, *, phase: int, value: int, draw: int, overeating: int,
             starter: str) -> Announcement:
        if phase != TURN:
            return reply(self.text("No pile to eat yet: %(player)s to start one.", player=starter))
        chance = overeating_risk(draw=draw, overeating=overeating, eat=max(value, 1))
        return reply(narration.risk_text(self.catalog, chance, value=value, draw=draw,
                                         overeating=overeating, verbosity=self.verbosity),
                     important=True)

    def tokens(self, names: Sequence[str], tokens: Sequence[int],
               sizes: Sequence[int]) -> list[Announcement]:
        return [reply(line) for line in narration.tokens_text(self.catalog, names, tokens,
                                                              sizes)]

    def hand(self, cards: Sequence[int]) -> Announcement:
        return reply(narration.hand_text(self.catalog, cards))

    def move(self, player: str, move: Move, *, value: int, direction: int,
             chosen: str = "", yours: bool = False, own: bool = False,
             to_you: bool = False) -> Announcement:
        """A move made: a reply when it is what the player just entered, else
        a game event (``own``: the player's own, said in the second person;
        ``to_you``: the next player chosen is the one told)."""
        said = narration.move_text(self.catalog, player, move, value=value, chosen=chosen,
                                   direction=direction, own=own, to_you=to_you)
        return reply(said) if yours else event(said)

    def rules(self, move: Move, *, overate: bool = False) -> list[Announcement]:
        """At the verbose level, the rule a move applied, in a sentence."""
        if self.verbosity is not Verbosity.VERBOSE:
            return []
        kind = move[0]
        if kind == EAT and overate:
            said = self.text("The round ends: the piles and the overeating cards turned up "
                             "are shuffled into a new draw pile; the eater starts.")
        elif kind == EAT:
            said = self.text("The pile goes to the discard pile; the eater starts a new one.")
        elif kind == SKIP:
            said = self.text("The old pile goes to the discard pile with one card of the pair; "
                             "the other starts a new pile.")
        elif kind == CHOOSE:
            said = self.text("The direction of play stays as it was.")
        else:
            return []
        return [info(said)]

    def ate(self, player: str, turned: Sequence[int] | int, *, overate: bool, tokens: int,
            shown: bool, yours: bool = False, own: bool = False) -> list[Announcement]:
        """An eat: the cards (shown where they are the player's own), and
        the token it cost."""
        count = turned if isinstance(turned, int) else len(turned)
        cards = () if isinstance(turned, int) else tuple(turned)
        if overate:
            said = [narration.overeating_turned_text(self.catalog, player, count, own=own),
                    narration.overate_text(self.catalog, player, tokens, own=own)]
            return [reply(said[0]) if yours else event(said[0]), event(said[1], important=True)]
        line = narration.ate_text(self.catalog, player, cards or [0] * count,
                                  shown=shown and bool(cards), own=own)
        return [reply(line) if yours else event(line)]

    def drew(self, player: str, drawn: Sequence[int] | int, *,
             yours: bool = False, own: bool = False) -> Announcement:
        said = narration.drew_text(self.catalog, player, drawn, own=own)
        return reply(said) if yours else event(said)

    def overate(self, player: str, tokens: int) -> Announcement:
        return event(narration.overate_text(self.catalog, player, tokens), important=True)

    def passed(self, player: str) -> Announcement:
        return event(narration.passed_text(self.catalog, player))

    def new_round(self, round_: int, player: str) -> Announcement:
        return event(narration.round_text(self.catalog, round_, player), important=True)

    def final(self, names: Sequence[str], tokens: Sequence[int], sizes: Sequence[int],
              won: Sequence[int]) -> list[Announcement]:
        return [result(line) for line in narration.final_text(self.catalog, names, tokens,
                                                             sizes, won)]

    def opening(self, text: str) -> Announcement:
        return info(text)

    def playable(self, moves: Sequence[Move], names: Sequence[str]) -> Announcement:
        return info(narration.playable_text(self.catalog, moves, names))


class Standing(Protocol):
    """Where a game stands at its end: the engine's game or the table's tracker."""

    @property
    def tokens(self) -> Sequence[int]: ...

    @property
    def sizes(self) -> Sequence[int]: ...

    @property
    def winners(self) -> Sequence[int]: ...


class Ending(ABC):
    """What both Plays do at a game's end: the result said once, the game
    saved as finished; said again at the next start if the app was stopped
    before it was said."""

    session: Saved
    teller: Teller
    names: Sequence[str]
    #: The result is said (or the game was thrown away): nothing more to say.
    _ended: bool = False

    @abstractmethod
    def _standing(self) -> Standing:
        """Where the game stands: the engine's game, or the table's tracker."""

    def _result(self) -> list[Announcement]:
        standing = self._standing()
        return self.teller.final(self.names, standing.tokens, standing.sizes, standing.winners)

    def _finished(self, before: list[Announcement]) -> Step:
        """The game is over: what came before, then its result; saved as finished."""
        before += self._result()
        self.session.finish()
        self._ended = True
        return Step(None, tuple(before))

    def _told_result(self) -> Step | None:
        """A game whose end is saved: its result said once more if it was never
        said (the app was stopped just then), else nothing more to ask."""
        if self._ended or self.session.discarded:
            return None
        self._ended = True
        return Step(None, tuple(self._result()))


def pile_after(move: Move, value: int) -> int:
    """The pile's value after a move (eating: none left)."""
    kind, argument = move
    if kind == SERVE:
        return value + argument
    if kind == PLAY and argument == PLUS:
        return value + 1
    if kind in (START, SKIP):
        return argument
    return 0 if kind == EAT else value


def hint(words: Catalog, view: View, moves: Sequence[Move], names: Sequence[str]) -> str:
    """The advisor's move for ``view`` and its reason in a sentence; when it
    eats, what not eating would pass on (the biggest pile another move
    leaves, and to whom)."""
    advice = Advisor().advise(view, moves)
    leaves, target = advice.leaves, advice.next_seat
    others = [move for move in moves if move[0] != EAT]
    if advice.move[0] == EAT and others and view.phase == TURN:
        passed = max(others, key=lambda move: pile_after(move, view.value))
        leaves = pile_after(passed, view.value)
        target = (passed[1] if passed[0] == CHOOSE
                  else (view.seat + view.direction) % len(view.tokens))
    return narration.hint_text(words, advice.move, names, risk=advice.risk_now,
                               leaves=leaves, target=names[target])
