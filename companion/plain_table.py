"""The table companion in plain line mode: a real game, followed from what
the player types.

Each turn: the player's hand (typed or scanned codes), their pick, then any
reveals they want to enter (an empty line skips a player). At the end of a
round the companion offers to complete missing tableaux, then says the
round's scores; after round 3, the final scores and the winner. Everything
is journaled: a crash loses nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from companion.narration import (
    coming_hand_text,
    concern_text,
    hand_text,
    taken_text,
)
from companion.session import TableSession
from companion.sushigo.cards import ROUNDS
from companion.sushigo.draft import Variant
from companion.sushigo.tracker import Entry, Warning
from voices.base import Priority

if TYPE_CHECKING:
    from companion.plain import Plain


def new_table_game(app: Plain) -> None:
    """Set up the seats, the player's own seat and the variant, then play."""
    count = app.choose(app.text("How many players at the table, you included?"),
                       ["2", "3", "4", "5"]) + 2
    names: list[str] = []
    for number in range(1, count + 1):
        while True:
            name = app.ask(app.text(
                "Player %(number)d's name, going round the table to the left:", number=number))
            if name and name not in names:
                names.append(name)
                break
            app.say(app.text("Give each player a different name."), Priority.IMPORTANT)
    you = app.choose(app.text("Which one are you?"), names)
    variants = [app.text("No variant."), app.text("Pass both ways."), app.text("Soy sauce.")]
    if count == 2:
        variants.append(app.text("Two-player dummy."))
    pick = app.choose(app.text("Variant:"), variants)
    variant = Variant(pass_both_ways=pick == 1, soy_sauce=3 if pick == 2 else 0,
                      dummy=pick == 3)
    if variant.dummy:
        names.append(app.text("Dummy"))
    session = TableSession.start(names, you, variant=variant)
    table_game(app, session)


def _commands(app: Plain, session: TableSession) -> Callable[[str], bool]:
    """The words that work during a table game, besides the common ones."""
    names = list(session.tracker.names)

    def extra(word: str) -> bool:
        tracker = session.tracker
        if word == "hand":
            hand = tracker.hand()
            app.say(hand_text(app.catalog, hand, app.verbosity) if hand is not None
                    else app.text("Your hand is not entered yet."))
        elif word == "coming":
            info = tracker.coming_hand()
            app.say(coming_hand_text(app.catalog, names[info.seat], info))
        elif word == "where":
            where(app, session)
        elif word == "tables":
            app.say_tables(names, [tracker.table(seat) for seat in range(len(names))])
        elif word == "undo":
            if session.undo() is not None:
                app.say(app.text("The last entry is taken back."), Priority.IMPORTANT)
                where(app, session)
            else:
                app.say(app.text("Nothing to take back."))
        else:
            return False
        return True

    return extra


def table_game(app: Plain, session: TableSession) -> None:
    tracker = session.tracker
    names = list(tracker.names)
    you = tracker.you
    app.say(app.text("Table game: %(players)s. You are %(player)s.",
                     players=", ".join(names), player=names[you]))
    extra = _commands(app, session)
    while True:
        tracker = session.tracker
        round_, turn = tracker.round, tracker.turn
        app.say(app.text("Round %(round)d, turn %(turn)d.", round=round_, turn=turn))
        cards = app.ask_cards(app.text("Your hand, card by card (an empty line skips):"),
                              extra, allow_empty=True)
        if cards:
            concerns(app, session, session.add(Entry.hand(cards)))
            app.say(hand_text(app.catalog, cards, app.verbosity))
            taken = session.tracker.taken_since_held()
            if taken is not None:
                app.say(taken_text(app.catalog, taken))
        pick = app.ask_cards(app.text("Your pick (two with chopsticks):"), extra, most=2)
        concerns(app, session, session.add(Entry.pick(you, pick)))
        for seat, name in enumerate(names):
            if seat == you:
                continue
            revealed = app.ask_cards(app.text("%(player)s's reveal (an empty line skips):",
                                              player=name), extra, allow_empty=True, most=2)
            if revealed:
                concerns(app, session, session.add(Entry.pick(seat, revealed)))
        if turn < tracker.hand_size:
            session.add(Entry.next_turn())
            continue
        end_of_round(app, session, round_)
        if round_ == ROUNDS:
            app.say_final(session.tracker.score(), names)
            session.journal.append({"type": "end"})
            session.close()
            return
        session.add(Entry.next_turn())


def end_of_round(app: Plain, session: TableSession, round_: int) -> None:
    """Offer to complete short tableaux, then say the round's scores."""
    tracker = session.tracker
    names = list(tracker.names)
    for seat, name in enumerate(names):
        if len(tracker.table(seat, round_)) >= tracker.hand_size:
            continue
        cards = app.ask_cards(app.text(
            "%(player)s's whole table this round, in order (an empty line keeps it):",
            player=name), allow_empty=True, most=tracker.hand_size)
        if cards:
            concerns(app, session, session.add(Entry.tableau(seat, cards, round=round_)))
    app.say_round_scores(round_, session.tracker.round_score(round_), names)


def where(app: Plain, session: TableSession) -> None:
    tracker = session.tracker
    app.say_where(tracker.round, tracker.turn, tracker.names, tracker.score().totals)


def concerns(app: Plain, session: TableSession, warnings: list[Warning]) -> None:
    for warning in warnings:
        app.say(concern_text(app.catalog, warning, session.tracker.names), Priority.IMPORTANT)
