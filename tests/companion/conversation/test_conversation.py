"""The conversation speaks in typed values: a face is told of questions and
announcements (with their roles), and answers come back as values, never as
text read back. Driven here through a face that only records."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from companion.contract.events import (
    Announcement,
    Answered,
    Asked,
    Cards,
    CardsQuestion,
    Chosen,
    Item,
    Menu,
    Number,
    Pressed,
    Question,
    Role,
    Text,
    Typed,
    YesNo,
)
from companion.contract.game import WordReply
from companion.conversation.core import Changed, Quit, Talk, ToMenu
from companion.conversation.inbox import Inbox
from companion.games import game
from companion.settings import Settings
from firmware_bridge.events import CardIdentified, Source

T = TypeVar("T")
SUSHIGO = game("sushigo")


@pytest.fixture(autouse=True)
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    yield


class Recorder:
    """A face that keeps everything it is told, in order."""

    def __init__(self) -> None:
        self.told: list[Announcement | Asked | Answered | str] = []

    @property
    def has_keys(self) -> bool:
        return True

    def show(self, announcement: Announcement) -> None:
        self.told.append(announcement)

    def asked(self, asked: Asked) -> None:
        self.told.append(asked)

    def answered(self, answered: Answered) -> None:
        self.told.append(answered)

    def progress(self, facts: str) -> None:
        self.told.append(facts)

    def taken(self, item: Item) -> None:
        pass

    def said(self) -> list[Announcement]:
        return [item for item in self.told if isinstance(item, Announcement)]


def ask(question: Question[T], *given: Any) -> tuple[T, Recorder]:
    """``question`` asked, with ``given`` already in the inbox."""
    face = Recorder()
    inbox = Inbox()
    for item in given:
        inbox.put(item)
    inbox.end()
    answer = Talk(face, inbox, Settings(speech="none")).ask(question)
    return answer, face


def test_a_menu_is_answered_by_an_option_chosen_or_a_number_typed() -> None:
    menu = Menu("Main menu.", ("Practice.", "Quit."))
    assert ask(menu, Chosen(1))[0] == 1
    answer, face = ask(menu, Typed("3"), Typed(""), Typed("1"))
    assert answer == 0
    asked = [item for item in face.told if isinstance(item, Asked)]
    assert asked[0] == Asked(menu, "Choose 1 to 2:", again=False)
    assert all(a.again for a in asked[1:]) and len(asked) == 3
    warnings = [a for a in face.said() if a.role is Role.WARNING]
    assert [a.text for a in warnings] == ["3 is not a choice: type a number from 1 to 2.",
                                          "Type a number from 1 to 2."]
    assert face.told[-1] == Answered(menu, "1. Practice.", "Chosen: 1. Practice.")


def test_a_yes_or_no_is_a_bool() -> None:
    question = YesNo("Throw it away for good?", no="No, keep it.", yes="Yes, throw it away.")
    assert ask(question, Typed("2"))[0] is True
    assert ask(question, Chosen(0))[0] is False


def test_numbers_and_text_are_values_in_range() -> None:
    assert ask(Number("Players?", 2, 5), Typed("9"), Typed("x"), Typed("4"))[0] == 4
    assert ask(Number("Pitch?", 0, 100, allow_empty=True), Typed(""))[0] is None
    assert ask(Text("Name:"), Typed(""), Typed("  Ana "))[0] == "Ana"


def test_an_option_chosen_where_none_is_offered_is_not_an_answer() -> None:
    assert ask(Text("Name:"), Chosen(0), Typed("Ben"))[0] == "Ben"


def test_cards_come_back_as_the_games_cards_in_groups() -> None:
    question = CardsQuestion("Your pick:", SUSHIGO.reader, most=3, groups=2)
    answer, _ = ask(question, Typed("t+w2/o3"))
    salmon, wasabi, maki3 = (SUSHIGO.reader.from_id(i) for i in ("salmon", "wasabi", "maki3"))
    assert answer == Cards(((wasabi, salmon), (maki3,)))
    answer, _ = ask(question, Typed("salmon nigiri"))
    assert answer.cards == (salmon,)


def test_scanned_cards_gather_and_undo_takes_the_last_off() -> None:
    def scan(card: str) -> CardIdentified:
        return CardIdentified("sushigo", card, Source.SCANNER, "04A1B2C3", None, 1)

    question = CardsQuestion("Your hand:", SUSHIGO.reader, full=3, allow_empty=True)
    face = Recorder()
    inbox = Inbox()
    talk = Talk(face, inbox, Settings(speech="none"))
    got: list[Cards[Any]] = []
    asking = threading.Thread(target=lambda: got.append(talk.ask(question)))
    asking.start()
    # scans count only once the question is asked
    asked = threading.Event()
    while not any(isinstance(item, Asked) for item in face.told):
        asked.wait(0.01)
    for item in (scan("salmon"), scan("wasabi"), Typed("undo"), scan("tempura"), Typed("")):
        inbox.put(item)
    asking.join(timeout=10)
    assert [c.id for c in got[0].cards] == ["salmon", "tempura"]
    replies = [a.text for a in face.said() if a.role is Role.REPLY]
    assert replies == ["Salmon nigiri: 1 so far.", "Wasabi: 2 so far.",
                       "Wasabi taken off: 1 so far.", "Tempura: 2 so far."]


def test_quit_and_menu_are_raised_and_the_end_of_input_quits() -> None:
    with pytest.raises(Quit):
        ask(Text("Name:"), Pressed("quit"))
    with pytest.raises(ToMenu):
        ask(Text("Name:"), Typed("menu"))
    with pytest.raises(Quit):
        ask(Text("Name:"))


def test_help_is_a_reply_and_the_question_is_asked_again() -> None:
    answer, face = ask(Text("Name:"), Pressed("help"), Typed("Ana"))
    assert answer == "Ana"
    helped = [a for a in face.said() if a.role is Role.REPLY]
    assert helped[0].text == "Type the answer, then Enter."  # how to answer this question first
    assert helped[1].text.startswith("Words that work everywhere:")
    assert helped[-1].text.startswith("Keys: F1 help")  # a face with keys hears them
    assert [item.again for item in face.told if isinstance(item, Asked)] == [False, True]


class Game:
    """Enough of a Play for its words: ``where`` answers, ``undo`` changes it."""

    actions = ("where", "undo")

    def command(self, name: str, argument: str) -> WordReply | None:
        if name == "where":
            return WordReply((Announcement(f"Round 1{argument}.", Role.REPLY),))
        if name == "undo":
            return WordReply((Announcement("Taken back.", Role.REPLY, True),), changed=True)
        return None


def test_a_games_words_go_to_the_game_and_an_undo_drops_the_question() -> None:
    face = Recorder()
    inbox = Inbox()
    talk = Talk(face, inbox, Settings(speech="none"))
    talk.play = Game()  # type: ignore[assignment]
    for line in ("where", "hint", "undo"):
        inbox.put_line(line)
    with pytest.raises(Changed):
        talk.ask(Text("Name:"))
    said = [(a.text, a.role) for a in face.said()]
    assert said == [("Round 1.", Role.REPLY), ("hint does not work here.", Role.WARNING),
                    ("Taken back.", Role.REPLY)]


def test_game_words_outside_a_game_are_explained() -> None:
    answer, face = ask(Text("Name:"), Pressed("hand"), Typed("Ana"))
    assert answer == "Ana"
    assert [a.text for a in face.said() if a.role is Role.WARNING] == [
        "hand works during a game."]


@pytest.mark.parametrize(("language", "typed", "number"), [
    ("cs", "ě", 2), ("cs", "+", 1), ("fr", "&", 1), ("fr", "\"", 3), ("cs", "ščř", 345),
])
def test_the_digit_row_of_the_players_keyboard_gives_numbers(language: str, typed: str,
                                                              number: int) -> None:
    face = Recorder()
    inbox = Inbox()
    inbox.put_line(typed)
    inbox.put_line(typed)
    inbox.end()
    talk = Talk(face, inbox, Settings(language=language, speech="none"))
    assert talk.ask(Number("?", 1, 999)) == number
    if number <= 4:
        assert talk.ask(Menu("Menu.", ("a", "b", "c", "d"))) == number - 1
