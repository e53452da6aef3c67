"""The web face's state and pages, with no server and no browser: what the
conversation shows is kept with its role, language and step; the server's
wait for the conversation is bounded; every page and update escapes what
it draws and gives every sentence its language."""

from __future__ import annotations

import threading

from companion.contract.events import (
    Answered,
    Asked,
    CardsQuestion,
    Chosen,
    Menu,
    Moved,
    Number,
    Typed,
    YesNo,
    event,
    reply,
    warning,
)
from companion.faces.web.face import WebFace
from companion.faces.web.page import Pages, drawn
from companion.games import game
from tests.webclient import read


def _face(language: list[str] | None = None) -> WebFace:
    languages = language or ["en"]
    return WebFace(lambda: languages[-1])


def test_a_step_begins_when_the_player_gives_something_and_keeps_each_sentences_language(
) -> None:
    languages = ["en"]
    face = _face(languages)
    face.show(reply("Salmon nigiri."))
    face.taken(Typed("w2"))
    languages.append("fr")
    face.show(event("Bot 1 : Maki 3."))
    face.show(warning("zz n'est pas une carte."))
    view = face.view()
    assert [(e.step, e.language, e.is_reply) for e in view.entries] == [
        (0, "en", True), (1, "fr", False), (1, "fr", True)]
    assert [e.text for e in view.of_step()] == ["Bot 1 : Maki 3.", "zz n'est pas une carte."]
    face.taken(None)  # the input's end is nobody's act
    assert face.view().step == 1


def test_the_wait_for_the_conversation_is_bounded_and_ends_when_it_waits_again() -> None:
    face = _face()
    assert face.settled(0.05) is False  # nothing reads the inbox: not settled, not stuck
    got: list[object] = []

    def conversation() -> None:
        got.append(face.inbox.get())  # the answer
        face.asked(Asked(Number("How many?", 2, 5), "How many?"))
        got.append(face.inbox.get())  # waits again: the next answer

    thread = threading.Thread(target=conversation, daemon=True)
    thread.start()
    face.give(Chosen(1))
    assert face.settled(10.0) is True
    assert got == [Chosen(1)] and face.view().question is not None
    face.give(None)
    thread.join(10.0)
    face.ended()
    assert face.settled(0.0) is True and face.view().ended


def test_a_question_asked_again_after_a_word_keeps_its_id_a_new_one_gets_another() -> None:
    face = _face()
    menu = Menu("Main menu.", ("Practice.", "Quit."))
    face.asked(Asked(menu, "Choose 1 to 2:"))
    first = face.view().question_id
    face.asked(Asked(menu, "Choose 1 to 2:", again=True))
    assert face.view().question_id == first
    face.asked(Asked(Menu("Learn the codes:", ("Back.",)), "Choose 1 to 1:"))
    assert face.view().question_id == first + 1


def test_a_page_escapes_what_it_draws_and_gives_every_sentence_its_language() -> None:
    face = _face(["ru"])
    face.show(reply('<script>alert("x")</script> Лосось.'))
    face.show(event("<b>Ana</b>: Maki 3."))
    face.asked(Asked(Menu("<i>Menu</i>", ("<u>one</u>",)), "Choose 1 to 1:"))
    html = Pages("token").page(face.view())
    assert "<script>alert" not in html and "<b>Ana" not in html and "<i>Menu" not in html
    shown = read(html)
    assert shown.language == "ru"
    assert shown.reply == ['<script>alert("x")</script> Лосось.']
    assert shown.log == ["<b>Ana</b>: Maki 3."]
    assert shown.options == ["1. <u>one</u>"]
    assert shown.languages == ["ru", "ru"]
    assert 'aria-describedby="s1 s2"' in html  # the question, described by what was said


def test_an_update_carries_only_the_new_sentences_and_a_question_said_by_its_region() -> None:
    face = _face()
    face.show(reply("One."))
    face.show(event("Two."))
    face.asked(Asked(CardsQuestion("Your pick:", game("sushigo").reader), "Your pick:"))
    update = Pages("token").update(face.view(), since=1)
    entries = update["entries"]
    assert isinstance(entries, list)
    assert [(e["number"], e["kind"]) for e in entries] == [(2, "log")]
    question = str(update["question"])
    assert 'id="question-label">Your pick:</label>' in question
    assert "aria-describedby" not in question and 'name="token" value="token"' in question
    assert update["title"] == "Your pick: – Tactile companion"


def test_each_kind_of_question_is_drawn_as_its_form() -> None:
    reader = game("sushigo").reader
    assert drawn(Asked(Number("Players? 2 to 5:", 2, 5), None)).kind == "number"
    assert drawn(Asked(CardsQuestion("Your pick:", reader), None)).label == "Your pick:"
    yes_no = drawn(Asked(YesNo("Add one more?", "No.", "Yes."), "Choose 1 to 2:"))
    assert (yes_no.kind, yes_no.options) == ("menu", ("1. No.", "2. Yes."))


def test_the_page_after_an_answer_shows_every_reply_since_it_over_several_steps() -> None:
    """An answer, and a card scanned on the host while it was taken: two
    steps by the time the page is drawn; neither reply is lost."""
    face = _face()
    face.show(reply("Main menu help."))
    face.taken(Typed("w2"))
    face.show(reply("Salmon nigiri."))
    face.taken(Chosen(0))  # the scan, taken next
    face.show(reply("Tempura."))
    face.asked(Asked(Menu("Main menu.", ("Quit.",)), "Choose 1 to 1:"))
    shown = read(Pages("token").page(face.view(), since=1))
    assert shown.reply == ["Salmon nigiri.", "Tempura."]
    assert read(Pages("token").page(face.view())).reply == ["Tempura."]  # a visit: the step now


def test_two_answers_at_once_for_one_question_give_one() -> None:
    face = _face()
    face.asked(Asked(Menu("Main menu.", ("Practice.", "Quit.")), "Choose 1 to 2:"))
    question = face.view().question_id
    assert face.give_for(question, Chosen(0)) is True
    assert face.give_for(question, Chosen(1)) is False  # the first is still on its way
    assert face.give_for(question + 1, Chosen(1)) is False  # no such question open
    assert face.inbox.get() == Chosen(0)


def test_a_move_elsewhere_closes_the_question_and_the_same_question_after_it_stays_the_same(
) -> None:
    face = _face()
    table = Menu("The shared table:", ("Who is still to pick", "End the table"))
    face.asked(Asked(table, None))
    first = face.view().question_id
    face.moved()  # a reveal: the question closed at once, the conversation told
    assert face.view().question is None
    given: list[bool] = []

    def posted(question: int, item: Chosen) -> None:  # as the server takes a post
        face.steady(60)  # (the test's own bound: a busy machine may pause it)
        given.append(face.give_for(question, item))
    post = threading.Thread(target=posted, args=(first, Chosen(1)))
    post.start()  # a post meanwhile waits for the question to be asked again
    assert isinstance(face.inbox.get(), Moved)
    face.answered(Answered(table))  # (the conversation drops the question)
    face.asked(Asked(table, None))  # and asks it again: the page keeps it
    post.join(timeout=30)
    assert given == [True] and face.inbox.get() == Chosen(1)  # the same: it answers it
    assert face.view().question_id == first
    face.answered(Answered(table, "1. Who is still to pick"))  # the player answers it
    face.asked(Asked(table, None))
    assert face.view().question_id == first + 1  # (asked anew after an answer)
    face.moved()
    post = threading.Thread(target=posted, args=(first + 1, Chosen(0)))
    post.start()
    face.asked(Asked(Menu("Your pick:", ("x",)), None))  # another question after a move
    post.join(timeout=30)
    assert given == [True, False]  # (a post for the question closed: out of date)
    assert face.view().question_id == first + 2
