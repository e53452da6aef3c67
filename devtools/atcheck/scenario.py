"""The walk a new player takes, in English, for each face: first start, a
menu, the code drill with a right, a wrong and an invalid answer, a
practice game with hand, where, hint, a pick and repeat, played to its
final scores (killed with SIGKILL after its first pick, started again and
resumed), a whole scored game's final result, Mici Maki chosen in the
settings and its practice game played to its end (piles started, eats, the
bots' moves, overeating, the winner), a Mici Maki table (a hand refused
and read back, a move refused, the risk, undo, another's eat, an
overeating), French chosen in the settings (a card identified, a code
refused, help) and English again, and a Sushi Go! table-companion turn
with a skipped hand and reveal.

Each step declares what must reach the player (``expect``), as the shared
walk in ``../shared/at-check`` does: a menu's title with its first option,
a round's and the game's scores before the next question, the reply's
news; each in the braille window at rest or its forward pans.

The full screen is driven with arrows, digits and function keys; plain
mode with digits, Enter and function keys. Card codes the walk must type
(the drill's card, a card of the hand) are read off the screen and looked
up through the game's own card reader.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from companion.games import game
from devtools.atcheck.walk import FACES, KILL, SIZES, Figures, Seen, Step, _paged, run_walk

PLAIN = "plain"
FULL = "full"
#: The hand list ("9 cards: Wasabi, ...").
HAND = "cards:|hand:"
#: A bot's score line ("Bot 1: 23 points."), not the key facts.
BOT_SCORE = r"re:\bBot 1\W{1,3}\d+ points?\b"
#: Picks in a practice game of two (ten cards, the last one played for you).
PICKS = 27


def _code(name: str) -> str:
    reader = game("sushigo").reader
    return game("sushigo").code(reader.read(name.strip()))


def _drill(right: bool) -> Callable[[list[str]], str]:
    def keys(screen: list[str]) -> str:
        asked = re.findall(r"Code for ([^?]+)\?", "\n".join(screen))
        code = _code(asked[-1]) if asked else "x"
        if not right:
            code = "x" if code != "x" else "q"
        return code + "\r"
    return keys


def _first_card(screen: list[str]) -> str:
    hands = re.findall(r"\d+ cards: ([^,\n]+)", "\n".join(screen))
    name = re.sub(r"^\d+ ", "", hands[-1]).strip() if hands else "Tempura"
    return _code(name) + "\r"


#: Mici Maki's practice questions: a move, a pile to start, an extra card.
MICI_ASKS = re.compile(r"Start a pile with a food card:|Your move: a card, a pair, or eat:"
                       r"|Choose 1 to 2:")
#: Moves of the Mici Maki practice game walked at most: to its end (16 to 30
#: moves in games tried; the walk fails when the main menu is not back by
#: then: the next step is chosen from it).
MICI_MOVES = 80
#: The end of a Mici Maki game, when a move brings it: its winner.
MICI_END = ("Game over", ("Game over", "Winner|Shared win"))


def _mici_move(screen: list[str]) -> str:
    """A Mici Maki move for the question on the screen: a pile started
    with the hand's highest food, else eat (and no extra card)."""
    text = " ".join(row.strip() for row in screen)
    asked = MICI_ASKS.findall(text)
    last = asked[-1] if asked else ""
    if last.startswith("Start"):
        values = re.findall(r"Food (\d)", text[text.rfind("Your hand"):])
        return (max(values) if values else "2") + "\r"
    return ("1" if last.startswith("Choose") else "eat") + "\r"


def _at_main_menu(screen: list[str]) -> bool:
    """Whether the main menu is the question on the screen (the full
    screen's blank rows below it left out).

    >>> _at_main_menu(["Main menu.", "1. Table companion for a real game.",
    ...                "2. Practice game against bots.", "Choose 1 to 6:", *[""] * 12])
    True
    >>> _at_main_menu(["Main menu.", "1. Table companion for a real game.",
    ...                "2. Practice game against bots.", "Choose 1 to 6: 2", "Round 1.",
    ...                "Your pick:"])
    False
    """
    shown = [row for row in screen if row.strip()]
    if not shown or not shown[-1].startswith("Choose 1 to 6:"):
        return False
    tail = "\n".join(shown[-10:]).lower()
    return "table companion" in tail and "practice game" in tail and "your pick" not in tail


def _play_on() -> list[Step]:
    """The practice game's picks after the first, to its final scores: the
    pick that ends a round brings its scores and the next round; the last
    one the final result."""
    walk = []
    for pick in range(2, PICKS + 1):
        number = (pick - 1) // 9 + 1
        if pick == PICKS:
            walk.append(Step("the last pick: the final scores and the winner", _first_card,
                             expect=("Final scores", "Winner|win", BOT_SCORE)))
        elif pick % 9 == 0:
            walk.append(Step(f"the last pick of round {number}: its scores, round "
                             f"{number + 1}", _first_card,
                             expect=(BOT_SCORE, f"Round {number + 1}", HAND)))
        else:
            walk.append(Step(f"round {number}: a pick", _first_card, expect=("Bot 1", HAND)))
    return walk


def steps(face: str, rows: int = 25) -> list[Step]:
    """The walk, for ``face`` on a console of ``rows`` rows (in plain mode a
    reply taller than the screen comes in pages, Enter for the next)."""
    full = face == FULL
    small = rows < 20

    def pages(count: int, last: Step) -> list[Step]:
        if full:
            return []
        return [Step("Enter: the next page", "Enter", shows=r"^\s*\w",
                     says=r"points|round", when=_paged)] * (count - 1) + [
                         replace(last, when=_paged)]

    def choose(digit: str) -> tuple[str, str]:
        return ("type", digit if full else digit + "\r")

    def line(text: str) -> tuple[str, str]:
        return ("type", text + "\r")

    def asks(count: int) -> str | None:
        """A menu of ``count`` options waits on the answer line (the full
        screen: digits typed before it would be text on the answer line)."""
        return rf"Choose 1 to {count}:" if full else None

    def menu(option: str, title: str) -> str:
        """What a new menu shows at the cursor: its title (its first
        option, ``option``, comes right after it: see each step's expect)."""
        del option
        return rf"^{title}"

    walk = [
        Step("app start: the first-start language menu", None,
             shows=r"^Language", says=r"language",
             expect=("Language", "English")),
    ]
    if full:
        walk += [
            Step("Down: the highlight on option 2", "Down", shows=r"2\. Français",
                 says=r"fran", expect=("Français",)),
            Step("Up: back on option 1", "Up", shows=r"1\. English", says=r"english",
                 expect=("English",)),
            Step("Enter: English; the speech menu", "Enter", shows=r"^Speech",
                 says=r"speech", expect=("Speech", "app speaks")),
        ]
    else:
        walk.append(Step("1 Enter: English; the speech menu", choose("1"), shows=r"^Speech",
                         says=r"speech", expect=("Speech", "app speaks")))
    walk += [
        Step("2: my screen reader speaks; how much to say", choose("2"),
             shows=menu("Terse", "How much"), says=r"how much", expect=("How much", "Terse")),
        Step("2: normal; settings saved, main menu", choose("2"), shows=r"^Settings saved",
             says=r"settings saved", ready=asks(6),
             expect=("Settings saved", "Main menu", "Table companion")),
        *(pages(1, Step("Enter: the next page, the main menu", "Enter", shows=r"^Main menu",
                        says=r"main menu")) if small else []),
        Step("4: learn the codes", choose("4"),
             shows=menu("Type or scan", "Learn the codes"), says=r"drill",
             expect=("Learn the codes", "hear what it is")),
        Step("2: the drill's first question", choose("2"), shows=r"Code for",
             says=r"code for", expect=("Code for",)),
        Step("the right code and Enter", _drill(True), shows=r"^Right", says=r"right",
             expect=("Right", "Code for")),
        Step("a wrong code and Enter", _drill(False), shows=r"^No: ", says=r"no \w+ is",
             expect=("No", "Code for")),
        Step("not a code and Enter: asked again", line("zz"), shows=r"^zz is not a card",
             says=r"zz is not a card", expect=("zz is not a card",)),
        Step("Enter on an empty line: the drill ends", "Enter", shows=r"right out of 2",
             says=r"right out of 2", ready=asks(6), expect=("out of", "Main menu")),
        Step("2: practice game; how many players", choose("2"), shows=r"How many players",
             says=r"how many players", expect=("players",)),
        Step("2 and Enter: opponents", line("2"),
             shows=menu("Greedy", "Opponents"), says=r"opponents",
             expect=("Opponents", "Greedy")),
        Step("1: greedy bots; variant", choose("1"),
             shows=menu("No variant", "Variant"), says=r"variant",
             expect=("Variant", "No variant")),
        Step("1: no variant; the game starts", choose("1"), shows=r"^Practice game",
             says=r"\d+ cards", expect=("Round 1", HAND)),
        Step("F6: the hand", "F6", shows=r"^\d+ cards:", says=r"\d+ cards", expect=(HAND,),
             repeats=True),
        Step("F5: where", "F5", shows=r"^Round 1, turn 1\. Scores", says=r"scores",
             expect=("Round 1", "Scores|score"), repeats=True),
        Step("F8: a hint", "F8", shows=r"^\w", says=r"\w", repeats=True),
        Step("the first card of the hand, and Enter: picked", _first_card,
             shows=r"^You: ", says=r"you", expect=("Bot 1", "turn 2", HAND)),
        Step("F2: repeat the last announcement, the new hand", "F2", shows=r"^\d+ cards:",
             says=r"\d+ cards", changes=False, repeats=True, expect=(HAND,)),
        # a crash (kill -9) mid-game, and the app started again: the game offered
        Step("kill -9, and the app again: the unfinished game offered", KILL,
             shows=r"^An unfinished practice game", says=r"unfinished practice game",
             ready=asks(4), expect=("An unfinished practice game", "Resume it")),
        Step("1: resume it", choose("1"), shows=r"^Practice game", says=r"\d+ cards",
             expect=("turn 2", HAND)),
        *_play_on(),
        Step("menu and Enter: back to the main menu (if the game did not end there)",
             line("menu"), shows=r"^(The game is saved|Back to the)", says=r"main menu",
             ready=asks(6), expect=("Main menu",),
             when=lambda screen: not _at_main_menu(screen)),
        Step("3: score a finished game; the first name", choose("3"), shows=r"Player 1",
             says=r"player 1", expect=("Player 1",)),
        Step("Ann", line("Ann"), shows=r"Player 2", says=r"player 2"),
        Step("Ben", line("Ben"), shows=r"Player 3", says=r"player 3"),
        Step("Enter: all are in", "Enter", shows=r"Round 1, Ann", says=r"round 1 ann"),
        # each line a whole hand's worth (10 cards for 2 players), as the
        # scorer takes only those; each is read back at the cursor, the
        # next question below it
        Step("Ann, round 1", line("t w3 o2 f x x q q q p"),
             shows=r"^Ann, round 1, 10 cards", says=r"ann round 1 10 cards"),
        Step("Ben, round 1", line("x x x s s s w1 w2 o1 f"),
             shows=r"^Ben, round 1, 10 cards", says=r"ben round 1 10 cards"),
        Step("Ann, round 2", line("w2 o3 s s x q q t w1 p"),
             shows=r"^Ann, round 2, 10 cards", says=r"ann round 2 10 cards"),
        Step("Ben, round 2", line("s s s s x x q q q p"),
             shows=r"^Ben, round 2, 10 cards", says=r"ben round 2 10 cards"),
        Step("Ann, round 3", line("f x x x x s q t w3 o1"),
             shows=r"^Ann, round 3, 10 cards", says=r"ann round 3 10 cards"),
        Step("Ben, round 3: read back, then the final result", line("q q q x x s o2 o2 w2 p"),
             shows=r"^Ben, round 3, 10 cards", says=r"final scores ann \d+ points",
             ready=asks(2), expect=("Final scores", "Winner|win")),
        Step("2: how every point came, round by round", choose("2"), shows=r"^Round 1\.",
             says=r"round 1", ready=asks(6)),
        *pages(4 if small else 2, Step("Enter: the last page, the main menu", "Enter",
                                       shows=r"^(Main menu|\s*\w[\w ]*: )",
                                       says=r"main menu")),
        # Mici Maki: chosen in the settings, a practice game's first moves
        # with three players, back to the main menu, and Sushi Go! again
        *_game_chosen(choose, asks, "2", "Mici Maki", was="Sushi Go",
                     menu="Main menu, Mici Maki"),
        Step("2: a Mici Maki practice game; how many players", choose("2"),
             shows=r"How many players", says=r"how many players", expect=("players",)),
        Step("3 and Enter: opponents", line("3"), shows=menu("Cautious", "Opponents"),
             says=r"opponents", expect=("Opponents", "Cautious")),
        Step("1: cautious bots; the game starts", choose("1"), shows=r"^Mici Maki practice",
             says=r"your hand", expect=("First: You", "Your hand")),
        *[Step("Mici Maki: my move", _mici_move, shows=r"^You: ", says=r"you \w+",
               expect=("You: ",), when=lambda screen: not _at_main_menu(screen),
               finale=MICI_END)
          for _move in range(MICI_MOVES)],
        *_mici_table(choose, line, asks),
        *_game_chosen(choose, asks, "1", "Sushi Go", was="Mici Maki", menu="Main menu"),
        *_in_french(choose, line, full),
        Step("1: table companion; how many players", choose("1"), shows=r"How many players",
             says=r"how many players"),
        Step("2 and Enter", line("2"), shows=r"Player 1's name", says=r"player 1"),
        Step("Ann", line("Ann"), shows=r"Player 2's name", says=r"player 2"),
        Step("Ben", line("Ben"), shows=menu("Ann", "Which one"),
             says=r"which one", expect=("Which one", "Ann")),
        Step("1: I am Ann; variant", choose("1"),
             shows=menu("No variant", "Variant"), says=r"variant",
             expect=("Variant", "No variant")),
        Step("1: no variant; where cards come from", choose("1"),
             shows=menu("Typed codes", "Cards come from"), says=r"cards come",
             expect=("come from", "Typed codes")),
        Step("1: typed codes; the game starts", choose("1"), shows=r"^Table game",
             says=r"your hand", expect=("Round 1", "hand")),
        Step("the hand and Enter", line("t t s s q q w1 w2 w3 p"), shows=r"^10 cards",
             says=r"your pick", expect=("pick",)),
        Step("my pick: t", line("t"), shows=r"^Ann: Wasabi", says=r"ann wasabi",
             expect=("Ann: Wasabi", "Ben")),
        Step("Enter: Ben's reveal skipped", "Enter", shows=r"^Ben's reveal skipped",
             says=r"skipped", expect=("skipped", "turn 2")),
        Step("Control Q: quit", "C-q", shows=None, says=None, changes=False),
    ]
    return walk


Keys = Callable[[str], tuple[str, str]]


def _mici_table(choose: Keys, line: Keys, asks: Callable[[int], str | None]) -> list[Step]:
    """A Mici Maki table of three from the main menu (the player is Ann):
    a dealt hand refused for a card that is not one, then read back; a
    pile started, a move refused, the risk asked, the pile's start undone
    and made again, a serve, another's eat, an eat of the player's that
    turns up an overeating card, and back to the main menu."""
    return [
        Step("1: the Mici Maki table companion; how many players", choose("1"),
             shows=r"How many players", says=r"how many players", expect=("players",)),
        Step("3 and Enter", line("3"), shows=r"Player 1's name", says=r"player 1"),
        Step("Ann", line("Ann"), shows=r"Player 2's name", says=r"player 2"),
        Step("Ben", line("Ben"), shows=r"Player 3's name", says=r"player 3"),
        Step("Cy", line("Cy"), shows=r"^Which one", says=r"which one",
             expect=("Which one", "Ann")),
        Step("1: I am Ann; who starts", choose("1"), shows=r"^Who starts",
             says=r"who starts", expect=("Who starts", "Ann")),
        Step("1: Ann starts; the action cards", choose("1"), shows=r"^Action cards",
             says=r"action cards", expect=("Action cards", "The usual")),
        Step("1: the usual; where cards come from", choose("1"), shows=r"^Cards come from",
             says=r"cards come", expect=("come from", "Typed codes")),
        Step("1: typed codes; the hand dealt", choose("1"), shows=r"Your 5 cards",
             says=r"your 5 cards", expect=("Your 5 cards",)),
        Step("a hand with a 9: refused", line("5 5 3 9 c"), shows=r"^9: food cards are",
             says=r"food cards are 2 to 7", expect=("9: food cards are 2 to 7",)),
        Step("the hand again: read back", line("5 5 3 p c"), shows=r"^Your hand, 5 cards",
             says=r"your hand 5 cards", expect=("Your hand, 5 cards", "Start a pile")),
        Step("5: a pile started; Ben's move", line("5"), shows=r"^Ann: starts a pile",
             says=r"ann starts a pile", expect=("Ann: starts a pile", "Ben's move")),
        Step("6 for Ben: refused", line("6"), shows=r"^The food in play is 5",
             says=r"food in play is 5", expect=("The food in play is 5",)),
        Step("risk", line("risk"), shows=r"^Eating now", says=r"risk of overeating",
             expect=("risk of overeating",)),
        Step("undo: the pile's start taken back", line("undo"), shows=r"^Taken back",
             says=r"taken back", expect=("Taken back", "Start a pile")),
        Step("5 again", line("5"), shows=r"^Ann: starts a pile", says=r"ann starts a pile",
             expect=("Ann: starts a pile", "Ben's move")),
        Step("5 for Ben: a serve", line("5"), shows=r"^Ben: serves", says=r"ben serves",
             expect=("Ben: serves", "Cy's move")),
        Step("eat for Cy", line("eat"), shows=r"^Cy: eats", says=r"cy eats",
             expect=("Cy: eats", "Cy starts")),
        Step("4 for Cy: a pile; my move", line("4"), shows=r"^Cy: starts a pile",
             says=r"cy starts a pile", expect=("Cy: starts", "Your move")),
        Step("eat x: refused, the count of cards asked", line("eat x"),
             shows=r"^That turns up 4 cards", says=r"turns up 4 cards",
             expect=("That turns up 4 cards",)),
        Step("eat 2 3 x 5: an overeating card; one more?", line("eat 2 3 x 5"),
             shows=r"^Ann: eats 4 cards", says=r"overeating card among them",
             expect=("overeating card among them", "Ann: overeats", "Add one more")),
        Step("1: no more; round 2", choose("1"), shows=r"^Ann: adds no",
             says=r"adds no overeating", expect=("adds no overeating", "Round 2")),
        Step("menu and Enter: the game kept, the main menu", line("menu"),
             shows=r"^The game is saved", says=r"main menu", ready=asks(6),
             expect=("The game is saved", "Main menu, Mici Maki")),
    ]


def _settings(choose: Keys) -> Step:
    return Step("5: settings", choose("5"), shows=r"^Settings", says=r"settings",
                expect=("Settings", "Language"))


def _game_chosen(choose: Keys, asks: Callable[[int], str | None], digit: str, title: str, *,
                 was: str, menu: str) -> list[Step]:
    """The game ``title`` chosen in the settings (its menu's first option,
    ``was``, the game chosen before): its main menu, titled ``menu``."""
    return [
        _settings(choose),
        Step("6: the game", choose("6"), shows=r"^Game", says=r"game", expect=("Game", was)),
        Step(f"{digit}: {title}; its main menu", choose(digit), shows=r"^Settings saved",
             says=r"main menu", ready=asks(6), expect=("Settings saved", menu)),
    ]


def _in_french(choose: Keys, line: Keys, full: bool) -> list[Step]:
    """French chosen in the settings: the main menu, a card identified, a
    code refused, help, in French; English chosen again."""
    ready = r"Choisissez de 1 à 6" if full else None
    return [
        _settings(choose),
        Step("1: the language", choose("1"), shows=r"^Language", says=r"language",
             expect=("Language", "English")),
        Step("2: Français; the main menu in French", choose("2"),
             shows=r"^Réglages enregistrés", says=r"réglages enregistrés", ready=ready,
             expect=("Réglages enregistrés", "Menu principal")),
        Step("4: apprendre les codes", choose("4"), shows=r"^Apprendre les codes",
             says=r"apprendre les codes", expect=("Apprendre les codes", "Tapez ou scannez")),
        Step("1: a card identified", choose("1"), shows=r"Un code ou un scan",
             says=r"un code ou un scan"),
        Step("t: Wasabi", line("t"), shows=r"^Wasabi\s:\sTriangle", says=r"wasabi",
             expect=("Wasabi : Triangle",)),
        Step("zz: not a card", line("zz"), shows=r"^zz n'est pas une carte",
             says=r"n est pas une carte", expect=("zz n'est pas une carte",)),
        Step("aide: how to type a card", line("aide"), shows=r"^Tapez une carte",
             says=r"tapez une carte", expect=("Tapez une carte",)),
        Step("Enter on an empty line: the main menu", "Enter", shows=r"^Menu principal",
             says=r"menu principal", ready=ready, expect=("Menu principal",)),
        Step("5: réglages", choose("5"), shows=r"^Réglages", says=r"réglages",
             expect=("Réglages", "Langue")),
        Step("1: la langue", choose("1"), shows=r"^Langue", says=r"langue",
             expect=("Langue", "English")),
        Step("1: English; the main menu", choose("1"), shows=r"^Settings saved",
             says=r"settings saved", ready=r"Choose 1 to 6:" if full else None,
             expect=("Settings saved", "Main menu")),
    ]


def walk_everything(app: Sequence[str], out: Path | None = None,
                    faces: Sequence[str] = FACES,
                    sizes: Sequence[tuple[int, int]] = SIZES) -> list[tuple[Figures, list[Seen]]]:
    """The walk in every face at every size, one after the other (one
    console at a time is in the foreground); transcripts in ``out``."""
    walks = []
    for face in faces:
        for cols, rows in sizes:
            path = None if out is None else out / f"{face}-{cols}x{rows}.txt"
            walks.append(run_walk(face, cols, rows, steps(face, rows), app=app, out=path))
    return walks
