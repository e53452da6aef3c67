"""The words that work everywhere (companion/conversation/words.py), over a
host of plain values: no face, no inbox, no speech."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from companion.contract.events import Announcement, Role
from companion.contract.game import WordReply
from companion.conversation.words import (
    Changed,
    Dispatcher,
    Quit,
    ToMenu,
    help_sentences,
    typed_action,
)
from companion.i18n import Catalog
from companion.keymap import BY_NAME, Action, Words

EN = Catalog.for_language("en")


@dataclass
class Steps:
    """A history that notes what it was asked."""

    done: list[str] = field(default_factory=list)

    def repeat(self) -> str | None:
        self.done.append("repeat")
        return None

    def back(self) -> str | None:
        self.done.append("back")
        return None

    def forward(self) -> str | None:
        self.done.append("forward")
        return None

    def interrupt(self) -> None:
        self.done.append("interrupt")


class Game:
    """Enough of a Play for its words: ``where`` answers, ``undo`` changes it."""

    actions = ("where", "undo")

    def command(self, name: str, argument: str) -> WordReply | None:
        if name == "where":
            return WordReply((Announcement(f"Round 1{argument}.", Role.REPLY),))
        if name == "undo":
            return WordReply((Announcement("Taken back.", Role.REPLY),), changed=True)
        return None


@dataclass
class Host:
    catalog: Catalog = EN
    words: Words = field(default_factory=lambda: Words(EN))
    history: Steps = field(default_factory=Steps)
    play: Game | None = None
    has_keys: bool = False
    seated: bool = False
    hosting: bool = False
    said: list[str] = field(default_factory=list)

    asked: list[str] = field(default_factory=list)

    def say(self, announcement: Announcement) -> None:
        self.said.append(announcement.text)

    def question_help(self) -> list[str]:
        return self.asked


def dispatcher(**given: object) -> tuple[Dispatcher, Host]:
    host = Host(**given)  # type: ignore[arg-type]
    return Dispatcher(host), host  # type: ignore[arg-type]  # a Game is enough of a Play


def test_a_typed_line_is_a_word_in_any_language_with_what_follows_it() -> None:
    french = Words(Catalog.for_language("fr"))
    action, argument = typed_action(french, "Répéter")
    assert (action, argument) == (BY_NAME["repeat"], "")
    assert typed_action(french, "tables ben") == (BY_NAME["tables"], "ben")
    assert typed_action(french, "repeat now") == (None, "")  # repeat takes no argument
    assert typed_action(french, "w2") == (None, "")


def test_the_history_words_step_through_what_was_said() -> None:
    words, host = dispatcher()
    for name in ("repeat", "back", "next", "stop"):
        assert words.act(BY_NAME[name], "", name)
    assert host.history.done == ["repeat", "back", "forward", "interrupt"]
    assert host.said == []


def test_quit_and_menu_leave_where_they_are() -> None:
    words, _host = dispatcher()
    with pytest.raises(Quit):
        words.act(BY_NAME["quit"], "", "quit")
    with pytest.raises(ToMenu):
        words.act(BY_NAME["menu"], "", "menu")


def test_at_a_shared_table_menu_and_quit_are_answered_without_leaving() -> None:
    words, host = dispatcher()
    host.seated = True  # a seat: neither leaves its game
    assert words.act(BY_NAME["quit"], "", "quit") and words.act(BY_NAME["menu"], "", "menu")
    assert all("your game goes on" in line for line in host.said)
    words, host = dispatcher()
    host.hosting = True  # the host: the menu does not leave the table; quit still stops
    assert words.act(BY_NAME["menu"], "", "menu")
    assert host.said == ["The shared table is on: to leave it, choose End the table."]
    with pytest.raises(Quit):
        words.act(BY_NAME["quit"], "", "quit")


def test_help_names_the_words_a_games_words_during_one_and_the_keys_on_a_screen() -> None:
    assert help_sentences(EN, Words(EN), None, has_keys=False) == [
        "Words that work everywhere: repeat, back, next, stop, help, menu, quit."]
    said = help_sentences(EN, Words(EN), Game(), has_keys=True)  # type: ignore[arg-type]
    assert said[1] == "In a game also: where, undo."
    assert said[2].startswith("Keys: F1 help, F2 repeat")
    words, host = dispatcher(has_keys=True)
    assert words.act(BY_NAME["help"], "", "help")
    assert len(host.said) == 2 and host.said[1].startswith("Keys:")


def test_a_games_word_goes_to_the_game_and_an_undo_changes_the_question() -> None:
    words, host = dispatcher(play=Game())
    assert words.act(BY_NAME["where"], " now", "where")
    assert words.act(BY_NAME["hint"], "", "indice")
    with pytest.raises(Changed):
        words.act(BY_NAME["undo"], "", "undo")
    assert host.said == ["Round 1 now.", "indice does not work here.", "Taken back."]


def test_a_games_word_outside_a_game_is_explained() -> None:
    words, host = dispatcher()
    assert words.act(BY_NAME["hand"], "", "main")
    assert host.said == ["main works during a game."]


def test_the_open_questions_own_word_comes_before_the_games() -> None:
    words, host = dispatcher(play=Game())
    assert words.act(BY_NAME["undo"], "", "undo", extra=lambda name: name == "undo")
    assert host.said == []  # taken by the question (a scan taken off), not the game


def test_a_word_that_is_not_for_here_is_the_answer() -> None:
    words, _host = dispatcher()
    assert not words.act(Action("other", "other"), "", "other")
