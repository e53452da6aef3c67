"""What a Sushi Go! game says while it is played, practice or at the table:
sentences as announcements with their roles, in the player's language.

The sentences themselves come from :mod:`companion.games.sushigo.narration`;
this module only decides which are said together and what each is to the
player (a reply, a game event, a result, a warning).
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.contract.events import (
    Announcement,
    CardReader,
    CodeReader,
    Verbosity,
    event,
    reply,
    result,
    warning,
)
from companion.games.sushigo.cards import Card
from companion.games.sushigo.draft import Direction, Variant
from companion.games.sushigo.names import GAME, refusal_text
from companion.games.sushigo.names import catalog as catalog  # noqa: PLC0414
from companion.games.sushigo.narration import (
    card_list,
    card_name,
    cards,
    explain_game,
    explain_line,
    points,
    race_text,
)
from companion.games.sushigo.scoring import GameScore, Race, SeatScore
from companion.games.sushigo.tactile import parse
from companion.keymap import fold


def _card_id(card: Card) -> str:
    return card.id


def _name(language: str, card: Card) -> str:
    return card_name(catalog(language), card)


#: How card questions read Sushi Go! cards.
READER: CardReader[Card] = CodeReader(GAME, read=parse, refusal=refusal_text,
                                      from_id=Card.from_id, card_id=_card_id, name=_name)


class Teller:
    """The sayings a game shares, practice or at the table, in one language."""

    def __init__(self, language: str, verbosity: Verbosity) -> None:
        self.language = language
        self.catalog = catalog(language)
        self.verbosity = verbosity

    def text(self, message: str, **params: object) -> str:
        return self.catalog.text(message, **params)

    def facts(self, round_: int, turn: int, score: int, in_hand: int | None) -> str:
        """The key facts, for a status line: round, turn, score, cards in hand."""
        facts = self.text("R%(round)d T%(turn)d, %(points)s", round=round_, turn=turn,
                          points=points(self.catalog, score))
        if in_hand is not None:
            facts += ", " + cards(self.catalog, in_hand)
        return facts

    def turn(self, round_: int, turn: int, variant: Variant | None = None) -> Announcement:
        """A turn begins; a round's first, where hands pass both ways, says
        which way they go this round."""
        said = self.text("Round %(round)d, turn %(turn)d.", round=round_, turn=turn)
        if turn == 1 and variant is not None and variant.pass_both_ways:
            said += " " + (self.text("Hands pass to the right this round.")
                           if variant.direction(round_) is Direction.RIGHT
                           else self.text("Hands pass to the left this round."))
        return event(said)

    def where(self, round_: int, turn: int, names: Sequence[str],
              totals: Sequence[int]) -> Announcement:
        """Where am I: the round, the turn and everyone's score."""
        scores = ", ".join(f"{name} {totals[seat]}" for seat, name in enumerate(names))
        return reply(self.text("Round %(round)d, turn %(turn)d. Scores: %(scores)s.",
                               round=round_, turn=turn, scores=scores))

    def tables(self, names: Sequence[str], tables: Sequence[Sequence[Card]],
               wanted: str = "") -> list[Announcement]:
        """Every player's table, a player a line; only one player's when the
        word came with (the start of) a name or a seat number: ``tables ben``."""
        chosen = list(zip(names, tables, strict=True))
        folded = fold(wanted)
        if folded:
            chosen = [(name, table) for seat, (name, table) in enumerate(chosen)
                      if fold(name).startswith(folded) or folded == str(seat + 1)]
            if not chosen:
                return [warning(self.text("No player called %(name)s. Players: %(players)s.",
                                          name=wanted, players=", ".join(names)))]
        return [reply(self.text("%(player)s: %(cards)s.", player=name,
                                cards=card_list(self.catalog, table) or self.text("nothing yet")))
                for name, table in chosen]

    def race(self, names: Sequence[str], race: Race) -> list[Announcement]:
        """The maki race of this round and the puddings kept."""
        return [reply(line) for line in race_text(self.catalog, names, race.maki, race.puddings)]

    def round_scores(self, round_: int, scores: Sequence[SeatScore],
                     names: Sequence[str]) -> list[Announcement]:
        """A round's scores, each with its breakdown below the terse level."""
        said = [result(self.text("Round %(round)d scores.", round=round_))]
        for name, score in zip(names, scores, strict=True):
            said.append(result(self.text("%(player)s: %(points)s.", player=name,
                                         points=points(self.catalog, score.points))))
            if self.verbosity is not Verbosity.TERSE:
                said.extend(result("  " + explain_line(self.catalog, line, self.verbosity),
                                   important=False) for line in score.lines)
        return said

    def final(self, score: GameScore, names: Sequence[str]) -> list[Announcement]:
        """The puddings' points, then the final scores and the winner (the
        rounds' scores were said as each ended), as ``companion score
        --explain`` says them."""
        lines = explain_game(self.catalog, score, names, self.verbosity)
        puddings = self.text("Puddings at the end of the game.")
        start = lines.index(puddings if puddings in lines else self.text("Final scores."))
        return [result(line) for line in lines[start:]]
