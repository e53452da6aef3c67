"""Scoring a finished Sushi Go! game through the conversation: the players'
names, then each round's cards player by player, then every score explained."""

from __future__ import annotations

from companion.contract.events import (
    NAME_LONGEST,
    CardsQuestion,
    Conversation,
    Text,
    YesNo,
    result,
    warning,
)
from companion.games.sushigo.cards import MAX_PLAYERS, MIN_PLAYERS, ROUNDS
from companion.games.sushigo.gamefile import GameFileError, read_game
from companion.games.sushigo.narration import explain_game, game_file_error_text
from companion.games.sushigo.telling import READER, Teller


def score(conversation: Conversation) -> None:
    """Ask the names and every round's cards; say every score and the winner."""
    teller = Teller(conversation.language, conversation.verbosity)
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
    rounds: list[dict[str, list[str]]] = []
    while len(rounds) < ROUNDS:
        number = len(rounds) + 1
        cards = {
            name: [card.id for card in conversation.ask(CardsQuestion(teller.text(
                "Round %(round)d, %(player)s's cards, in the order played:",
                round=number, player=name), READER, allow_empty=True)).cards]
            for name in names
        }
        try:
            game = read_game({"players": names, "rounds": [*rounds, cards]})
        except GameFileError as error:
            conversation.say(warning(game_file_error_text(teller.catalog, error)))
            conversation.say(warning(teller.text("Round %(round)d again.", round=number)))
            continue
        rounds.append(cards)
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
