"""What every registered game must do, checked for each one.

- Random games end, and keep every card (none lost, none made).
- Every card has a code, and a name in each language, that reads back as itself.
- Its words are words in every language, none of them a card, none an app word.
- The table companion's questions reach the end of a game entered with
  random cards, skipped questions and the game's words typed now and then
  (a real table enters anything: the game raises concerns or refuses an
  impossible entry with its reason, and never stops).
- A game saved part way resumes exactly where it stood (its key facts and its
  next question), then plays on to its end; practice and table alike.
- Its code reference has a heading, then a line per card.
- Each capability it declares, it declares whole (a capability half
  written would be taken for one it lacks), and what it lacks is said.

Set-up questions and card questions are answered at random by a scripted
conversation; the games run through the same interface the faces use.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar, cast

import pytest

from companion.contract.events import (
    Announcement,
    Cards,
    CardsQuestion,
    Menu,
    Number,
    Question,
    Text,
    Verbosity,
    YesNo,
)
from companion.contract.game import (
    CAPABILITIES,
    LEARN,
    PRACTICE,
    SCORE,
    TABLE,
    GamePlugin,
    Play,
    SomeGame,
    Step,
    TableCompanion,
    capability,
    journeys_of,
)
from companion.games import game_of, games
from companion.i18n import LANGUAGES
from companion.journal import Journal, journals
from companion.keymap import ACTIONS, Words, fold, words_of

T = TypeVar("T")
GAMES = sorted(games())
#: The games that offer each way of playing.
OFFERING = {journey: [name for name in GAMES if journey in journeys_of(games()[name])]
            for journey in (TABLE, PRACTICE)}
#: Enough steps for any game; a game that needs more does not end.
MOST_STEPS = 20_000


@pytest.fixture(autouse=True)
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    yield


def plugin_of(name: str) -> SomeGame:
    return games()[name]


class Scripted:
    """A conversation that answers every question at random (a plausible
    answer of the right type), and keeps what is said."""

    def __init__(self, plugin: GamePlugin[Any], rng: random.Random, *, skips: float = 0.3) -> None:
        self.plugin = plugin
        self.random = rng
        self.skips = skips
        self.said: list[Announcement] = []
        self.names = 0

    @property
    def language(self) -> str:
        return "en"

    @property
    def verbosity(self) -> Verbosity:
        return Verbosity.NORMAL

    def say(self, announcement: Announcement) -> None:
        assert announcement.text.strip(), "nothing is said empty"
        self.said.append(announcement)

    def progress(self, facts: str) -> None:
        assert facts.strip()

    def ask(self, question: Question[T]) -> T:
        rng = self.random
        if isinstance(question, Menu):
            assert question.options and question.title
            return cast(T, rng.randrange(len(question.options)))
        if isinstance(question, YesNo):
            return cast(T, rng.random() < 0.5)
        if isinstance(question, Number):
            return cast(T, rng.randint(question.low, question.high))
        if isinstance(question, Text):
            self.names += 1
            return cast(T, f"Player{self.names}")
        if isinstance(question, CardsQuestion):
            return cast(T, self.cards(question))
        raise AssertionError(f"an unknown kind of question: {question!r}")

    def cards(self, question: CardsQuestion[object]) -> Cards[object]:
        rng = self.random
        if question.allow_empty and rng.random() < self.skips:
            return Cards(())
        ids = self.plugin.card_ids()
        count = rng.randint(1, min(question.full or question.most, question.most))
        cards = [question.reader.from_id(rng.choice(ids)) for _ in range(count)]
        if question.groups > 1 and len(cards) > 1 and rng.random() < 0.5:
            return Cards((tuple(cards[:-1]), (cards[-1],)))
        return Cards.of(cards)


#: How often the scripted player types one of the game's words instead of
#: answering (as players do: where, hand, undo... and a game's own, such as
#: Mici Maki's eat, which a game may need to reach its end).
WORDS = 0.15


def play(game: Play, conversation: Scripted, steps: int = MOST_STEPS) -> int:
    """Answer ``game``'s questions until it ends (or ``steps`` answers were
    given), now and then typing one of its words instead (alone, or with a
    card's code after it); the answers given."""
    given = 0
    rng = conversation.random
    plugin = conversation.plugin
    while given < steps:
        step = game.advance()
        if step is None:
            return given
        if step.question is None:
            continue
        given += 1
        if rng.random() < WORDS:
            card = plugin.reader.from_id(rng.choice(plugin.card_ids()))
            argument = rng.choice(("", plugin.code(card)))
            answered = game.command(rng.choice(game.actions), argument)
            assert answered is not None, "a game answers each of its words"
            for said in answered.said:
                conversation.say(said)
            continue  # the question is asked again (or what comes now, after a change)
        for said in game.take(step, conversation.ask(step.question)):
            conversation.say(said)
    return given


# -- the rules ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_random_games_end_and_keep_every_card(name: str) -> None:
    plugin = plugin_of(name)
    low, high = plugin.players
    rng = random.Random(20261201)
    for players in range(low, high + 1):
        for _ in range(10):
            counts = iter(plugin.playout(rng, players))
            deck = dict(next(counts))
            assert sum(deck.values()) > 0
            for moves, now in enumerate(counts, start=1):
                assert dict(now) == deck, f"cards lost or made after move {moves}"
                assert moves < MOST_STEPS, "the game does not end"


# -- the cards and the words ------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_every_card_reads_back_from_its_code_and_its_name_in_every_language(name: str) -> None:
    plugin = plugin_of(name)
    reader = plugin.reader
    assert reader.game == plugin.game
    assert plugin.card_ids()
    for card_id in plugin.card_ids():
        card = reader.from_id(card_id)
        assert reader.card_id(card) == card_id
        assert plugin.copies(card_id) >= 1
        code = plugin.code(card)
        assert reader.read(code) == card
        assert plugin.identify(code) == card_id
        for language in LANGUAGES:
            card_name = reader.name(language, card)
            assert card_name.strip()
            assert reader.read(card_name) == card, (language, card_name)
            assert plugin.describe(language, card, Verbosity.VERBOSE).startswith(card_name)


@pytest.mark.parametrize("name", GAMES)
def test_a_code_that_names_no_card_is_refused_with_a_sentence(name: str) -> None:
    plugin = plugin_of(name)
    for language in LANGUAGES:
        with pytest.raises(ValueError) as refused:
            plugin.reader.read("zz9")
        said = plugin.reader.refusal(language, refused.value)
        assert "zz9" in said


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_its_words_are_words_in_every_language_and_never_a_card(name: str,
                                                                 language: str) -> None:
    plugin = plugin_of(name)
    catalog = plugin.catalog(language)
    words = Words(catalog, [(action, catalog) for action in plugin.actions])
    app_words = {fold(w) for action in ACTIONS for w in [action.word, *words_of(catalog, action)]}
    for action in plugin.actions:
        said = words.words(action.name)
        assert said, action
        for word in [action.word, *said]:
            assert words.action(word) == action
            assert fold(word) not in app_words, f"{word} is an app word too"
            with pytest.raises(ValueError):
                plugin.reader.read(word)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_its_reference_has_a_line_per_card(name: str, language: str) -> None:
    plugin = plugin_of(name)
    lines = plugin.reference(language)
    cards = [plugin.reader.from_id(card_id) for card_id in plugin.card_ids()]
    # a heading, then a card a line (then, maybe, how to hold a card)
    assert len(lines) >= len(cards) + 1
    for card in cards:
        name = plugin.reader.name(language, card)
        assert len([line for line in lines[1:] if name in line]) >= 1, name
    assert all(line.strip() for line in lines)
    assert all(line.strip() for line in plugin.typing_help(language))
    assert {PRACTICE, LEARN} <= journeys_of(plugin) <= {TABLE, PRACTICE, SCORE, LEARN}


# -- what it has --------------------------------------------------------------------------


def members(kind: type) -> set[str]:
    """The names a capability protocol asks for."""
    return {name for name in vars(kind) if not name.startswith("_")}


@pytest.mark.parametrize("name", GAMES)
def test_each_capability_is_declared_whole_or_not_at_all(name: str) -> None:
    plugin = plugin_of(name)
    for kind in CAPABILITIES:
        asked = members(kind)
        assert asked, kind
        had = {member for member in asked if hasattr(plugin, member)}
        assert had in (set(), asked), f"{name} has {sorted(had)} of {kind.__name__}"
        assert (capability(plugin, kind) is not None) == (had == asked)


# -- playing ----------------------------------------------------------------------------------


@pytest.mark.sampled
@pytest.mark.parametrize("name", OFFERING[TABLE])
@pytest.mark.parametrize("seed", range(6))
def test_a_table_game_entered_with_skips_reaches_its_end(name: str, seed: int) -> None:
    plugin = plugin_of(name)
    conversation = Scripted(plugin, random.Random(seed), skips=0.3)
    game = _table(plugin, conversation)
    try:
        given = play(game, conversation)
        assert given < MOST_STEPS, "the table game does not end"
        assert game.advance() is None, "an ended game asks nothing more"
    finally:
        game.close()
    kinds = {announcement.role for announcement in conversation.said}
    assert kinds, "a whole game says something"


def _table(plugin: SomeGame, conversation: Scripted) -> Play:
    """A table game set up through ``conversation`` (the game has a table companion)."""
    companion = capability(plugin, TableCompanion)
    assert companion is not None, f"{plugin.game} offers the table journey"
    return companion.table(conversation, lambda: None)()


def _question(game: Play) -> Step | None:
    """The game's next question (the moves it makes by itself made first)."""
    while (step := game.advance()) is not None and step.question is None:
        pass
    return step


def _resume(plugin: SomeGame, rng: random.Random) -> Play:
    """The one journal written so far, resumed."""
    (path,) = journals()
    journal, loaded = Journal.open(path)
    assert not loaded.damaged
    assert game_of(journal.header) == plugin.game
    return plugin.resume(journal, rng, "en", Verbosity.NORMAL)


@pytest.mark.sampled
@pytest.mark.parametrize(("name", "journey", "stop"), [
    (name, journey, stop) for journey, stops in ((TABLE, (7, 40)), (PRACTICE, (5, 30)))
    for name in OFFERING[journey] for stop in stops])
def test_a_game_resumes_exactly_where_it_stood(name: str, journey: str, stop: int) -> None:
    plugin = plugin_of(name)
    rng = random.Random(stop)
    conversation = Scripted(plugin, rng, skips=0.2)
    game = (_table(plugin, conversation) if journey == TABLE
            else plugin.practice(conversation, rng))
    assert game.kind == journey
    play(game, conversation, steps=stop)
    step = _question(game)
    facts = game.facts()
    game.close()
    again = _resume(plugin, rng)
    try:
        assert again.kind == journey
        resumed = _question(again)
        assert again.facts() == facts
        assert (resumed is None) == (step is None)
        if step is not None and resumed is not None:
            assert resumed.question == step.question
        given = play(again, conversation)
        assert given < MOST_STEPS, "the resumed game does not end"
    finally:
        again.close()
