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

from companion.games.sushigo.bots import table_advice
from companion.games.sushigo.cards import ROUNDS, Card
from companion.games.sushigo.draft import Variant
from companion.games.sushigo.narration import (
    advice_text,
    coming_hand_text,
    concern_text,
    hand_text,
    taken_back_text,
    taken_text,
)
from companion.games.sushigo.tracker import Entry, EntryKind, Tracker, Warning
from companion.session import TableSession
from voices.base import Priority

if TYPE_CHECKING:
    from companion.plain import Plain

TABLE_WORDS = ("where", "hand", "coming", "tables", "race", "hint", "undo")


def new_table_game(app: Plain) -> None:
    """Set up the seats, the player's own seat and the variant, then play."""
    count = app.ask_number(app.text("How many players at the table, you included? 2 to 5:"),
                           2, 5)
    assert count is not None
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
    app.choose_scanner()
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
        elif word == "race":
            app.say_race(names, [tracker.table(seat) for seat in range(len(names))],
                         tracker.puddings())
        elif word == "hint":
            hint(app, session)
        elif word == "undo":
            taken_back = undo(session)
            if taken_back is None:
                app.say(app.text("Nothing to take back."))
                return True
            app.say(taken_back_text(app.catalog, taken_back, names, tracker.you),
                    Priority.IMPORTANT)
            raise Undone
        else:
            return False
        return True

    return extra


def hint(app: Plain, session: TableSession) -> None:
    """Advice from the hand entered this turn and the tables as entered."""
    tracker = session.tracker
    hand = tracker.hand()
    if not hand:
        app.say(app.text("Enter your hand first: the hint needs it."))
        return
    tables = [tracker.table(seat) for seat in range(tracker.seats)]
    before = [total - table.count(Card.PUDDING)
              for total, table in zip(tracker.puddings(), tables, strict=True)]
    advice = table_advice(hand, tables, before, tracker.round, tracker.you)
    app.say(advice_text(app.catalog, advice, app.verbosity), Priority.IMPORTANT)


def table_game(app: Plain, session: TableSession) -> None:
    tracker = session.tracker
    names = list(tracker.names)
    you = tracker.you
    app.say(app.text("Table game: %(players)s. You are %(player)s.",
                     players=", ".join(names), player=names[you]))
    app.game_words = TABLE_WORDS
    try:
        _play(app, session)
    finally:
        app.game_words = ()
        app.hook("show_facts", "")
        session.close()  # a game left unfinished stays saved for resume


class Undone(Exception):
    """An entry was taken back: ask again from where the game now stands."""


#: The questions of a turn, in order: the hand, the pick, then each other
#: seat's reveal (a seat number); after the last, the turn (or round) ends.
Step = str | int
HAND, PICK, DONE = "hand", "pick", "done"
#: A skipped question of a round's end: a seat's whole table kept ("table-2").
TABLE = "table-"


def steps(tracker: Tracker) -> list[Step]:
    return [HAND, PICK, *(seat for seat in range(tracker.seats) if seat != tracker.you)]


def _step_of(entry: Entry, you: int) -> Step:
    if entry.kind is EntryKind.HAND:
        return HAND
    if entry.kind is EntryKind.PICK and entry.seat == you:
        return PICK
    if entry.kind is EntryKind.PICK and entry.seat is not None:
        return entry.seat
    return DONE  # a whole table: the round's end has begun


def this_turn(tracker: Tracker) -> tuple[Entry, ...]:
    """The entries since play last moved on to a new turn."""
    entries = tracker.entries
    since = max((i for i, e in enumerate(entries) if e.kind is EntryKind.NEXT), default=-1)
    return entries[since + 1:]


def next_step(tracker: Tracker, skipped: set[Step]) -> Step:
    """The question to ask now: the one after the last answered this turn
    (entered, or skipped with an empty line), so that a resumed game and an
    undone entry both go on at exactly the right question."""
    order = steps(tracker)
    answered = [_step_of(entry, tracker.you) for entry in this_turn(tracker)]
    # a whole table kept at the round's end: the round's end has begun
    answered += [DONE if isinstance(step, str) and step.startswith(TABLE) else step
                 for step in skipped]
    if DONE in answered:
        return DONE
    last = max((order.index(step) for step in answered), default=-1)
    return order[last + 1] if last + 1 < len(order) else DONE


def _play(app: Plain, session: TableSession) -> None:
    you = session.tracker.you
    extra = _commands(app, session)
    announced: tuple[int, int] | None = None
    while True:
        tracker = session.tracker
        round_, turn = tracker.round, tracker.turn
        if announced != (round_, turn):
            app.say(app.text("Round %(round)d, turn %(turn)d.", round=round_, turn=turn))
            announced = (round_, turn)
        hand = tracker.hand()
        app.show_facts(round_, turn, tracker.score().totals[you],
                       len(hand) if hand is not None else tracker.expected_hand_size())
        # the question follows from the journal alone: after undo, after a
        # resume, and in the normal run of a turn alike
        step = next_step(tracker, set(session.skips()))
        try:
            if step == DONE:
                if _turn_ends(app, session, extra):
                    return
            elif not _ask(app, session, step, extra):
                session.skip(step)
        except Undone:
            pass


def _ask(app: Plain, session: TableSession, step: Step, extra: Callable[[str], bool]) -> bool:
    """Ask one question of the turn; False if it was skipped."""
    tracker = session.tracker
    if step == HAND:
        cards = app.ask_cards(app.text("Your hand, card by card (an empty line skips):"),
                              extra, allow_empty=True, full=tracker.expected_hand_size())
        if not cards:
            return False
        concerns(app, session, session.add(Entry.hand(cards)))
        app.say(hand_text(app.catalog, cards, app.verbosity))
        taken = session.tracker.taken_since_held()
        if taken is not None:
            app.say(taken_text(app.catalog, taken))
        return True
    if step == PICK:
        pick = app.ask_cards(app.text("Your pick (two with chopsticks):"), extra,
                             most=2, full=_picks(session, tracker.you))
        concerns(app, session, session.add(Entry.pick(tracker.you, pick)))
        return True
    assert isinstance(step, int)
    revealed = app.ask_cards(
        app.text("%(player)s's reveal (an empty line skips):", player=tracker.names[step]),
        extra, allow_empty=True, most=2, full=_picks(session, step))
    if not revealed:
        return False
    concerns(app, session, session.add(Entry.pick(step, revealed)))
    return True


def _turn_ends(app: Plain, session: TableSession, extra: Callable[[str], bool]) -> bool:
    """The turn (and at its last turn the round) ends; True when the game is over."""
    tracker = session.tracker
    if tracker.turn == tracker.hand_size:
        end_of_round(app, session, tracker.round, extra)
        if tracker.round == ROUNDS:
            app.say_final(session.tracker.score(), list(tracker.names))
            session.journal.append({"type": "end"})
            session.close()
            return True
    session.add(Entry.next_turn())
    return False


def _picks(session: TableSession, seat: int) -> int:
    """Cards a seat may take this turn: one, or two when chopsticks are (or,
    with picks not entered, may be) on its table. Scans end an entry by
    themselves at this many; fewer end with an empty line."""
    tracker = session.tracker
    table = tracker.table(seat)
    if Card.CHOPSTICKS in table or len(table) < tracker.turn - 1:
        return 2
    return 1


def undo(session: TableSession) -> Entry | None:
    """Take back the last fact entered, with the skips and the move to a new
    turn that came after it (those questions are asked again): the entry
    taken back, if any."""
    while (last := session.last_event()) is not None and (
            last["type"] == "skip" or last.get("kind") == EntryKind.NEXT.value):
        session.undo()
    entries = session.tracker.entries
    if not entries:
        return None
    taken = entries[-1]
    session.undo()
    return taken


def end_of_round(app: Plain, session: TableSession, round_: int,
                 extra: Callable[[str], bool] | None = None) -> None:
    """Offer to complete short tableaux, then say the round's scores."""
    tracker = session.tracker
    names = list(tracker.names)
    for seat, name in enumerate(names):
        if len(tracker.table(seat, round_)) >= tracker.hand_size or _table_answered(
                session, seat):
            continue
        cards = app.ask_cards(app.text(
            "%(player)s's whole table this round, in order (an empty line keeps it):",
            player=name), extra, allow_empty=True, most=tracker.hand_size)
        if cards:
            concerns(app, session, session.add(Entry.tableau(seat, cards, round=round_)))
        else:
            session.skip(f"{TABLE}{seat}")  # kept: not asked again after a resume
    app.say_round_scores(round_, session.tracker.round_score(round_), names)


def _table_answered(session: TableSession, seat: int) -> bool:
    """Whether this round's end already has this seat's whole table, entered
    or kept as it was (both journaled)."""
    entered = any(e.kind is EntryKind.TABLEAU and e.seat == seat
                  for e in this_turn(session.tracker))
    return entered or f"{TABLE}{seat}" in session.skips()


def where(app: Plain, session: TableSession) -> None:
    tracker = session.tracker
    app.say_where(tracker.round, tracker.turn, tracker.names, tracker.score().totals)


def concerns(app: Plain, session: TableSession, warnings: list[Warning]) -> None:
    for warning in warnings:
        app.say(concern_text(app.catalog, warning, session.tracker.names), Priority.IMPORTANT)
