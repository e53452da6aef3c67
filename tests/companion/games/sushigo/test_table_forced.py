"""The Sushi Go! table companion refuses, through its own questions and
words, what the rules force otherwise (no more cards in your hand than the
turn's, and no fewer, one card a pick with no chopsticks, the dummy's
one card, a tableau's size): said with why and what to enter, never journaled; a game
saved with such an entry by an older version resumes just before it and
says so once."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.contract.events import Announcement, Cards, CardsQuestion, Role, Verbosity
from companion.contract.game import Step
from companion.games import games
from companion.games.sushigo.cards import Card
from companion.games.sushigo.draft import Variant
from companion.games.sushigo.session import TableSession, _entry_json
from companion.games.sushigo.table import HAND, PICK, TableGame
from companion.games.sushigo.tracker import Entry
from companion.journal import GameRef, Journal

HAND_10 = (Card.SQUID, Card.EGG, Card.EGG, Card.MAKI1, Card.MAKI1, Card.TEMPURA,
           Card.PUDDING, Card.DUMPLING, Card.SASHIMI, Card.MAKI2)


@pytest.fixture(autouse=True)
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    yield


def texts(said: object) -> list[str]:
    return [a.text for a in said]  # type: ignore[attr-defined]


def question(play: TableGame, said: list[Announcement]) -> Step:
    while True:
        step = play.advance()
        assert step is not None, "the game ended early"
        said += step.before
        if step.question is not None:
            return step


def table(names: list[str], variant: Variant = Variant()) -> TableGame:  # noqa: B008
    return TableGame(TableSession.start(names, 0, variant=variant), "en", Verbosity.NORMAL)


def refused(play: TableGame, step: Step, cards: list[Card]) -> list[str]:
    """An answer refused: what was said; nothing journaled, the same question next."""
    events = len(play.session.journal.events)
    said = texts(play.take(step, Cards.of(cards)))
    assert len(play.session.journal.events) == events
    assert all(line for line in said)
    again = question(play, [])
    assert (again.key, again.question) == (step.key, step.question)
    return said


def test_a_hand_of_more_cards_than_the_turn_deals_is_refused() -> None:
    play = table(["Ana", "Ben"])
    said: list[Announcement] = []
    step = question(play, said)
    assert step.key == HAND
    assert refused(play, step, [*HAND_10, Card.SALMON]) == [
        "Your hand holds 10 cards this turn, not 11 cards: enter every card of it."]
    answered = play.command("hand", "t " * 11)
    assert answered is not None
    assert texts(answered.said) == [
        "Your hand holds 10 cards this turn, not 11 cards: enter every card of it."]
    # fewer is no hand either: the question takes exactly the turn's, and the word too
    assert isinstance(step.question, CardsQuestion)
    assert (step.question.exactly, step.question.why) == (10, "your hand holds 10 this turn")
    answered = play.command("hand", "t " * 9)
    assert answered is not None and not answered.changed
    assert texts(answered.said) == [
        "Your hand holds 10 cards this turn, not 9 cards: enter every card of it."]
    assert texts(play.take(step, Cards.of(list(HAND_10))))[0].startswith("10 cards: ")
    play.close()


def test_two_cards_with_no_chopsticks_on_the_table_are_refused() -> None:
    play = table(["Ana", "Ben"])
    said: list[Announcement] = []
    play.take(question(play, said), Cards.of(list(HAND_10)))
    step = question(play, said)
    assert step.key == PICK
    assert refused(play, step, [Card.SQUID, Card.EGG]) == [
        "Ana has no chopsticks on the table: one card this turn. Enter the card taken."]
    assert texts(play.take(step, Cards.of([Card.SQUID]))) == ["Ana: Squid nigiri."]
    step = question(play, said)
    assert step.key == 1  # Ben's reveal
    assert refused(play, step, [Card.SALMON, Card.EGG]) == [
        "Ben has no chopsticks on the table: one card this turn. Enter the card taken."]
    play.close()


def test_the_dummy_takes_one_card_never_two() -> None:
    play = table(["Ana", "Ben", "Dummy"], Variant(dummy=True))
    said: list[Announcement] = []
    step = question(play, said)
    assert step.key == HAND
    assert isinstance(step.question, CardsQuestion)
    play.take(step, Cards.of([*HAND_10[:9], Card.CHOPSTICKS][:step.question.full or 10]))
    play.take(question(play, said), Cards.of([Card.SQUID]))  # your pick
    step = question(play, said)
    assert step.key == 1
    play.take(step, Cards.of([Card.SQUID]))  # Ben
    step = question(play, said)
    assert step.key == 2  # the dummy's reveal
    assert refused(play, step, [Card.EGG, Card.SALMON]) == [
        "Dummy takes one card a turn, never with chopsticks: enter the one card."]
    play.close()


def test_a_tableau_larger_than_a_round_is_refused_at_the_round_s_end() -> None:
    play = table(["Ana", "Ben"])
    said: list[Announcement] = []
    for turn in range(10):
        step = question(play, said)
        assert step.key == HAND
        play.take(step, Cards.of([Card.TEMPURA] * (10 - turn)))
        play.take(question(play, said), Cards.of([Card.TEMPURA]))
        play.take(question(play, said), Cards.of([]))  # Ben's reveal skipped
    step = question(play, said)
    assert step.key == "table-1"
    assert isinstance(step.question, CardsQuestion)  # no fewer than a round's either
    assert (step.question.exactly, step.question.why) == (
        10, "every table holds 10 at the end of a round")
    assert refused(play, step, [Card.SALMON] * 11) == [
        "Ben's table holds at most 10 cards a round, not 11 cards: enter it again."]
    assert texts(play.take(step, Cards.of([Card.SALMON] * 10)))[0].startswith("Ben's table: ")
    play.close()


def stored_with(old: Entry) -> GameRef:
    """A game saved by an older version: Ana and Ben, Ana's hand and pick,
    then ``old``, a fact it kept, and Ben's reveal after it."""
    session = TableSession.start(["Ana", "Ben"], 0)
    session.add(Entry.hand(HAND_10))
    session.add(Entry.pick(0, [Card.SQUID]))
    for entry in (old, Entry.pick(1, [Card.SALMON])):
        session.journal.append(_entry_json(session.tracker.place(entry)))
    path = session.journal.ref
    session.close()
    return path


def resumed(path: GameRef) -> TableGame:
    journal, loaded = Journal.open(path)
    assert not loaded.damaged
    play = games()["sushigo"].resume(journal, random.Random(1), "en", Verbosity.NORMAL)
    assert isinstance(play, TableGame)
    return play


def test_a_game_saved_with_an_impossible_entry_resumes_just_before_it() -> None:
    # the old version kept your hand entered again with 12 cards
    path = stored_with(Entry.hand([*HAND_10, Card.SALMON, Card.SALMON]))
    play = resumed(path)
    said: list[Announcement] = []
    step = question(play, said)
    notes = [a for a in said if a.text.startswith("This game was saved")]
    assert [a.text for a in notes] == [
        "This game was saved with an entry the rules do not allow: it and the 1 entry after "
        "it are taken out, and it is asked again. Your hand holds 10 cards this turn, not 12 "
        "cards: enter every card of it."]
    assert notes[0].role is Role.WARNING
    assert step.key == 1  # Ben's reveal, asked again
    assert len(play.tracker.entries) == 2
    (kept,) = path.folder.glob(f"{path.label}.damaged-*")
    assert len(kept.read_text().splitlines()) == 2
    play.take(step, Cards.of([Card.SALMON]))
    play.close()
    # said once: the next start goes on, and undo takes back Ben's reveal
    again = resumed(path)
    said = []
    question(again, said)
    assert not any(a.text.startswith("This game was saved") for a in said)
    answered = again.command("undo", "")
    assert answered is not None
    assert texts(answered.said)[0].startswith("Taken back: Ben's pick")
    again.close()
