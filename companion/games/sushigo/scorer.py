"""Scoring a finished Sushi Go! game through the conversation: the players'
names, then each round's cards player by player, then every score explained.

Each player's line of a round is read back in a sentence (the count, then
the cards grouped), or refused and asked again, that line only: a count
that cannot be right (every table holds a hand's worth of cards at the end
of a round), a card the deck has too few of, a soy sauce when soy sauce was
not said to be in play (asked: it is offered). The word undo takes back
the last line entered, and asks it again.
"""

from __future__ import annotations

from companion.contract.events import (
    NAME_LONGEST,
    CardsQuestion,
    Conversation,
    TakenBack,
    Text,
    YesNo,
    reply,
    result,
    warning,
)
from companion.games.sushigo.cards import (
    DEFAULT_SOY_SAUCE_COUNT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROUNDS,
    Card,
    hand_size,
)
from companion.games.sushigo.gamefile import GameFileError, read_game
from companion.games.sushigo.narration import card_list, explain_game, game_file_error_text
from companion.games.sushigo.telling import READER, Teller

#: A round as entered so far: each player's cards, by name, in the order played.
Round = dict[str, list[str]]


def score(conversation: Conversation) -> None:
    """Ask the names and every round's cards; say every score and the winner."""
    teller = Teller(conversation.language, conversation.verbosity)
    names = _names(conversation, teller)
    rounds, soy_sauce = _rounds(conversation, teller, names)
    game = read_game(_game(names, rounds, soy_sauce))
    # Key facts first: the final scores and the winner, short enough to be
    # read at once (on a braille display, at the cursor); then, if the
    # player asks, how every point came (the rounds, then the puddings).
    lines = explain_game(teller.catalog, game.score(), names, teller.verbosity)
    final = lines.index(teller.text("Final scores."))
    for line in lines[final:]:
        conversation.say(result(line))
    if conversation.ask(YesNo(teller.text("Hear how every point came, round by round?"),
                              no=teller.text("No, back to the main menu."),
                              yes=teller.text("Yes, round by round."))):
        for line in lines[:final]:
            conversation.say(result(line))


def _names(conversation: Conversation, teller: Teller) -> list[str]:
    names: list[str] = []
    while len(names) < MAX_PLAYERS:
        name = conversation.ask(Text(teller.text(
            "Player %(n)d's name, or an empty line when all are in:", n=len(names) + 1),
            allow_empty=True, longest=NAME_LONGEST))
        if not name:
            if len(names) >= MIN_PLAYERS:
                break
            conversation.say(warning(teller.text("Sushi Go! needs 2 to 5 players.")))
            continue
        names.append(name)
    return names


def _game(names: list[str], rounds: list[Round], soy_sauce: int) -> dict[str, object]:
    """The game as a game file has it (every player in every round: those
    not entered yet with no cards)."""
    full = [{name: list(entered.get(name, [])) for name in names} for entered in rounds]
    return {"players": names, "rounds": full,
            "variant": {"soy_sauce": bool(soy_sauce),
                        "soy_sauce_count": soy_sauce or DEFAULT_SOY_SAUCE_COUNT}}


def _rounds(conversation: Conversation, teller: Teller,
            names: list[str]) -> tuple[list[Round], int]:
    """Every round's cards, a player's line at a time, each checked and read
    back; the rounds, and the soy sauce cards in play (0: none)."""
    hand = hand_size(len(names))
    why = teller.catalog.plural(
        "each player has %(cards)d at the end of a round with %(n)d player",
        "each player has %(cards)d at the end of a round with %(n)d players",
        len(names), cards=hand)
    rounds: list[Round] = [{}]
    soy_sauce = 0
    while len(rounds) <= ROUNDS:
        entered = rounds[-1]
        if len(entered) == len(names):
            rounds.append({})
            continue
        number, name = len(rounds), names[len(entered)]
        try:
            given = conversation.ask(CardsQuestion(teller.text(
                "Round %(round)d, %(player)s's cards, in the order played:",
                round=number, player=name), READER, most=hand, exactly=hand, why=why,
                undo=True))
        except TakenBack:
            conversation.say(reply(_taken_back(teller, rounds, names), important=True))
            continue
        cards = list(given.cards)
        if Card.SOY_SAUCE in cards and not soy_sauce:
            if not conversation.ask(YesNo(
                    teller.text("Soy sauce is a card of the soy sauce variant. Were soy sauce "
                                "cards in this game?"),
                    no=teller.text("No: type %(player)s's cards again.", player=name),
                    yes=teller.text("Yes, soy sauce was in play."))):
                continue
            soy_sauce = DEFAULT_SOY_SAUCE_COUNT
        line = [card.id for card in cards]
        try:
            read_game(_game(names, [*rounds[:-1], {**entered, name: line}], soy_sauce))
        except GameFileError as error:
            conversation.say(warning(game_file_error_text(teller.catalog, error)))
            conversation.say(warning(teller.text("Type %(player)s's cards of round %(round)d "
                                                 "again.", player=name, round=number)))
            continue
        entered[name] = line
        conversation.say(reply(teller.catalog.plural(
            "%(player)s, round %(round)d, %(n)d card: %(cards)s.",
            "%(player)s, round %(round)d, %(n)d cards: %(cards)s.", len(cards),
            player=name, round=number, cards=card_list(teller.catalog, cards))))
    return rounds[:ROUNDS], soy_sauce


def _taken_back(teller: Teller, rounds: list[Round], names: list[str]) -> str:
    """The last line entered taken back (it is asked next), said."""
    if not rounds[-1] and len(rounds) > 1:
        rounds.pop()
    entered = rounds[-1]
    if not entered:
        return teller.text("Nothing to take back.")
    name = names[len(entered) - 1]
    del entered[name]
    return teller.text("Taken back: %(player)s's cards of round %(round)d.", player=name,
                       round=len(rounds))
