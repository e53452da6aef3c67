"""The questions' state machines (companion/conversation/questions.py), fed
plain values: no thread, no face, no inbox, no registry."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from companion.contract.events import (
    Announcement,
    Cards,
    CardsQuestion,
    Chosen,
    Menu,
    Number,
    Question,
    Role,
    TakenBack,
    Text,
    YesNo,
)
from companion.conversation.questions import (
    Answer,
    CardsAsking,
    MenuAsking,
    NotAnswered,
    NumberAsking,
    TextAsking,
    YesNoAsking,
    asking,
)
from companion.i18n import Catalog

EN = Catalog.for_language("en")


def texts(outcome: Answer[Any] | NotAnswered) -> list[tuple[str, Role]]:
    return [(said.text, said.role) for said in outcome.said]


class Letters:
    """A card reader of plain values: the cards are the letters a, b and c.
    It names any value, as the conversation's readers do (a reader of
    ``object``: any game's cards)."""

    game = "letters"

    def read(self, text: str) -> str:
        word = text.strip().lower()
        if word not in {"a", "b", "c"}:
            raise ValueError(word)
        return word

    def refusal(self, language: str, error: ValueError) -> str:
        return f"{error} is no letter ({language})."

    def from_id(self, card_id: str) -> str:
        return self.read(card_id)

    def card_id(self, card: object) -> str:
        return str(card)

    def name(self, language: str, card: object) -> str:
        return str(card).upper()


LETTERS = Letters()


# -- menus ------------------------------------------------------------------------------------


def test_a_menu_is_answered_by_an_option_chosen_or_its_number() -> None:
    menu = MenuAsking(Menu("Main menu.", ("Practice.", "Settings.", "Quit.")), EN)
    assert (menu.prompt, menu.choices, menu.reader) == ("Choose 1 to 3:", True, None)
    assert menu.take(Chosen(2)) == Answer(2, "3. Quit.")
    assert menu.take("1") == Answer(0, "1. Practice.")


def test_a_menu_refuses_with_the_reason_and_an_option_out_of_the_list_silently() -> None:
    menu = MenuAsking(Menu("Main menu.", ("Practice.", "Quit.")), EN)
    assert menu.take(Chosen(2)) == NotAnswered()
    assert menu.take(Chosen(-1)) == NotAnswered()
    assert texts(menu.take("")) == [("Type a number from 1 to 2.", Role.WARNING)]
    assert texts(menu.take("0")) == [("0 is not a choice: type a number from 1 to 2.",
                                      Role.WARNING)]
    assert texts(menu.take("x\x1b")) == [("x␛ is not a choice: type a number from 1 to 2.",
                                          Role.WARNING)]
    assert menu.prompt == "Choose 1 to 2:"  # asked again as it was


@pytest.mark.parametrize(("language", "typed", "index"), [
    ("cs", "ě", 1), ("cs", "+", 0), ("fr", "&", 0), ("fr", "é", 1), ("en", "2", 1),
])
def test_a_menu_reads_the_digit_row_of_the_players_keyboard(language: str, typed: str,
                                                             index: int) -> None:
    menu = MenuAsking(Menu("?", ("a", "b", "c")), Catalog.for_language(language))
    taken = menu.take(typed)
    assert isinstance(taken, Answer) and taken.value == index


def test_a_refused_digit_row_key_is_named_as_the_digit_it_stands_for() -> None:
    menu = MenuAsking(Menu("?", ("a", "b")), Catalog.for_language("cs"))
    refused = menu.take("č")  # the 4 of a Czech keyboard
    assert isinstance(refused, NotAnswered) and refused.said[0].text.startswith("4 ")


def test_yes_or_no_is_asked_as_a_menu_of_two_no_first() -> None:
    sure = YesNoAsking(YesNo("Throw it away?", "No.", "Yes."), EN)
    assert sure.question == Menu("Throw it away?", ("No.", "Yes."))
    assert (sure.prompt, sure.choices) == ("Choose 1 to 2:", True)
    assert sure.take("1") == Answer(False, "1. No.")
    assert sure.take(Chosen(1)) == Answer(True, "2. Yes.")
    assert texts(sure.take("3")) == [("3 is not a choice: type a number from 1 to 2.",
                                      Role.WARNING)]


# -- numbers and text -------------------------------------------------------------------------


def test_a_number_is_a_value_in_its_range() -> None:
    players = NumberAsking(Number("Players?", 2, 5), EN)
    assert (players.prompt, players.choices) == ("Players?", False)
    assert players.take("4") == Answer(4)
    assert texts(players.take("9")) == [("9 is not a number from 2 to 5.", Role.WARNING)]
    assert texts(players.take("four")) == [("four is not a number from 2 to 5.", Role.WARNING)]
    assert texts(players.take("")) == [("Type a number from 2 to 5.", Role.WARNING)]
    assert isinstance(players.take("²"), NotAnswered)
    assert isinstance(players.take("0" * 9 + "4"), NotAnswered)  # more digits than any answer


def test_an_empty_number_is_none_only_where_allowed_and_the_digit_row_counts() -> None:
    assert NumberAsking(Number("Pitch?", 0, 100, allow_empty=True), EN).take("") == Answer(None)
    czech = NumberAsking(Number("?", 1, 999), Catalog.for_language("cs"))
    assert czech.take("ščř") == Answer(345)


def test_text_is_cut_at_its_longest_and_empty_only_where_allowed() -> None:
    name = TextAsking(Text("Name:", longest=4), EN)
    assert name.take("Annabel") == Answer("Anna")
    assert name.take("Al   x") == Answer("Al")  # cut, then stripped
    assert texts(name.take("")) == [("Type something, please.", Role.WARNING)]
    assert TextAsking(Text("Port:", allow_empty=True), EN).take("") == Answer("")


# -- cards ------------------------------------------------------------------------------------


def cards(question: CardsQuestion[object], other: str | None = None) -> CardsAsking:
    return CardsAsking(question, EN, lambda typed, reader: other)


def test_typed_cards_come_back_in_groups() -> None:
    pick = cards(CardsQuestion("Your pick:", LETTERS, most=3, groups=2))
    assert (pick.prompt, pick.reader, pick.choices) == ("Your pick:", LETTERS, False)
    assert pick.take("a+b/c") == Answer(Cards((("a", "b"), ("c",))))
    assert texts(pick.take("a/")) == [("Type a card on each side of the /.", Role.WARNING)]
    assert texts(pick.take("a b c a")) == [("At most 3 cards here.", Role.WARNING)]
    assert texts(pick.take("z")) == [("z is no letter (en).", Role.WARNING)]
    assert texts(pick.take("")) == [("Type at least one card.", Role.WARNING)]
    assert pick.prompt == "Your pick:"  # nothing scanned: the question is asked again


def test_a_code_of_another_game_is_named_by_the_game_it_is_of() -> None:
    pick = cards(CardsQuestion("Your pick:", LETTERS), other="z is of another game.")
    assert texts(pick.take("z")) == [("z is of another game.", Role.WARNING)]


def test_scans_gather_undo_takes_the_last_off_and_a_full_hand_ends_the_entry() -> None:
    hand = cards(CardsQuestion("Your hand:", LETTERS, full=3))
    assert texts(hand.take(Cards.of(["a"]))) == [("A: 1 so far.", Role.REPLY)]
    assert hand.prompt is None  # gathering: the question stays as it is
    assert texts(hand.take(Cards.of(["b"]))) == [("B: 2 so far.", Role.REPLY)]
    undone = hand.word("undo")
    assert undone is not None and [a.text for a in undone] == ["B taken off: 1 so far."]
    assert hand.word("where") is None
    hand.take(Cards.of(["c"]))
    done = hand.take(Cards.of(["c"]))
    assert done == Answer(Cards.of(["a", "c", "c"]),
                          said=(Announcement("C: 3, done.", Role.REPLY),))


def test_undo_with_nothing_scanned_is_not_the_questions_word() -> None:
    assert cards(CardsQuestion("Your hand:", LETTERS)).word("undo") is None


def test_a_line_typed_after_scans_ends_the_entry_with_them() -> None:
    hand = cards(CardsQuestion("Your hand:", LETTERS, most=4, groups=2))
    hand.take(Cards.of(["a"]))
    assert hand.take("b/c") == Answer(Cards((("a", "b"), ("c",))))
    hand = cards(CardsQuestion("Your hand:", LETTERS))
    hand.take(Cards.of(["a"]))
    assert hand.take("") == Answer(Cards.of(["a"]))  # an empty line ends the entry


def test_a_refusal_while_gathering_keeps_the_question_as_it_is() -> None:
    hand = cards(CardsQuestion("Your hand:", LETTERS, most=2))
    hand.take(Cards.of(["a"]))
    assert texts(hand.take("z")) == [("z is no letter (en).", Role.WARNING)]
    assert hand.prompt is None
    assert texts(hand.take("b c")) == [("At most 2 cards here.", Role.WARNING)]
    assert hand.prompt is None


def test_a_count_that_cannot_be_right_is_refused_with_the_games_reason() -> None:
    hand = cards(CardsQuestion("Your hand:", LETTERS, most=3, exactly=3,
                               why="your hand holds 3 this turn"))
    assert texts(hand.take("a b")) == [
        ("That is 2 cards; your hand holds 3 this turn. Type it again.", Role.WARNING)]
    assert hand.prompt == "Your hand:"  # that question alone, asked again
    assert texts(hand.take("a b c a")) == [
        ("That is 4 cards; your hand holds 3 this turn. Type it again.", Role.WARNING)]
    assert hand.take("a b c") == Answer(Cards.of(["a", "b", "c"]))
    # scans end the entry by themselves at the count; one ended short keeps its scans
    hand.take(Cards.of(["a"]))
    assert texts(hand.take("")) == [
        ("That is 1 card; your hand holds 3 this turn. Type it again.", Role.WARNING)]
    assert hand.prompt is None and hand.scanned == ["a"]
    hand.take(Cards.of(["b"]))
    done = hand.take(Cards.of(["c"]))
    assert isinstance(done, Answer) and done.value == Cards.of(["a", "b", "c"])
    # without the game's reason, the count asked; an empty line where allowed stays one
    table = cards(CardsQuestion("Table:", LETTERS, exactly=2, allow_empty=True))
    assert texts(table.take("a")) == [
        ("That is 1 card; 2 are asked here. Type it again.", Role.WARNING)]
    assert table.take("") == Answer(Cards.of([]))


def test_undo_where_the_asker_takes_it_back_raises_taken_back() -> None:
    line = cards(CardsQuestion("Round 1, Ana's cards:", LETTERS, undo=True))
    line.take(Cards.of(["a"]))
    undone = line.word("undo")  # a card scanned: that card comes off first
    assert undone is not None and [a.text for a in undone] == ["A taken off: 0 so far."]
    with pytest.raises(TakenBack):
        line.word("undo")


def test_one_card_asked_is_answered_by_one_scan_and_none_only_where_allowed() -> None:
    one = cards(CardsQuestion("Which card?", LETTERS, most=1))
    assert one.take(Cards.of(["b"])) == Answer(Cards.of(["b"]))
    assert cards(CardsQuestion("Code?", LETTERS, allow_empty=True)).take("") == Answer(
        Cards.of([]))


# -- every kind ------------------------------------------------------------------------------


def test_every_kind_of_question_has_its_machine_and_another_is_refused() -> None:
    kinds: list[tuple[Question[Any], type[object]]] = [
        (Menu("?", ("a",)), MenuAsking), (YesNo("?", "n", "y"), YesNoAsking),
        (Number("?", 1, 2), NumberAsking), (Text("?"), TextAsking),
        (CardsQuestion("?", LETTERS), CardsAsking)]
    for question, machine in kinds:
        assert type(asking(question, EN)) is machine

    @dataclass(frozen=True)
    class Riddle(Question[str]):
        pass

    with pytest.raises(TypeError, match="no way to ask"):
        asking(Riddle(), EN)
