"""The app's journeys, written once for every face and every game.

First start (language, speech, how much to say), the offer to resume an
unfinished game, the main menu, the table companion and practice games (a
game's :class:`~companion.contract.game.Play` driven question by question),
scoring a finished game, learning the codes, and the settings (the voice
and the card scanner among them). Each asks typed questions of a
:class:`~companion.conversation.core.Talk` and says announcements; none
knows which face shows it, and none knows a game's rules.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from companion import ending
from companion.contract.events import (
    CardsQuestion,
    Menu,
    Number,
    Text,
    Verbosity,
    YesNo,
    info,
    reply,
    result,
    warning,
)
from companion.contract.game import (
    LEARN,
    PRACTICE,
    SCORE,
    TABLE,
    Back,
    Play,
    Scoring,
    Seating,
    SharedTableCompanion,
    TableCompanion,
    capability,
    journeys_of,
)
from companion.conversation.core import Changed, Quit, Talk, ToMenu
from companion.games import DEFAULT_GAME, games
from companion.i18n import LANGUAGES, N_
from companion.journal import (
    GameInUse,
    GameRef,
    Journal,
    JournalError,
    Loaded,
    journal_dir,
    transaction,
    unfinished,
)
from companion.notices import Notice, counts, take_notices, tell
from companion.records import Damaged, OneOf, Problem, mismatch, set_aside_text
from companion.settings import VOICE_RANGES, Settings
from companion.shown import PATH_LIMIT, shown
from companion.store import SAVING, SaveError, Store, notices_said

if TYPE_CHECKING:
    from companion.contract.game import Play, SomeGame

LANGUAGE_NAMES = {"en": "English", "fr": "Français", "cs": "Čeština", "ru": "Русский"}
VERBOSITIES = ("terse", "normal", "verbose")


def run(talk: Talk, *, first_start: bool = False, shared: bool = False) -> int:
    """The whole app: first start if it is one, the resume offer (with
    ``shared``, a table shared between devices instead, where the face
    seats one), the menu, until the player quits or the input ends."""
    try:
        check_files(talk)
        if first_start:
            with contextlib.suppress(ToMenu):  # the rest left at the defaults
                first(talk)
        use_scanner(talk, talk.scanner_choice)
        with contextlib.suppress(ToMenu):
            if shared and talk.seating is not None:
                shared_table(talk, talk.seating)
            else:
                offer_resume(talk)
        main_menu(talk)
    except (Quit, KeyboardInterrupt):  # quit, Control C, or the app told to end
        ending.calm()  # a signal now ends nothing more: it does not cut the goodbye
        with contextlib.suppress(OSError):  # a terminal that closed takes no goodbye
            talk.say_last(info(talk.text("Goodbye.")))
    finally:
        ending.calm()
        talk.close()
    return 0


def first(talk: Talk) -> None:
    """The first start: language, speech and how much to say, saved."""
    languages = list(LANGUAGES)
    index = talk.ask(Menu("Language / Langue / Jazyk / Язык:",
                          tuple(LANGUAGE_NAMES[code] for code in languages)))
    talk.configure(Settings(language=languages[index], speech=talk.settings.speech,
                            game=talk.settings.game))
    speech = talk.ask(speech_menu(talk))
    verbosity = talk.ask(verbosity_menu(talk))
    if keep(talk, Settings(
        language=talk.language,
        speech="auto" if speech == 0 else "none",
        verbosity=VERBOSITIES[verbosity],
        speak_echoes=speech == 0,
        game=talk.settings.game,
    )):
        talk.say(reply(talk.text("Settings saved. Change them any time from the menu.")))
    plugin = (games().get(talk.settings.game) or games().get(DEFAULT_GAME)
              or next(iter(games().values()), None))
    if plugin is not None:  # how to type a card, for the game played
        for line in plugin.typing_help(talk.language):
            talk.say(info(line))
    talk.help()  # the tour of the words (and keys) that work everywhere


NOTICES = {
    Notice.SETTINGS_DAMAGED: N_("The settings file could not be read: a copy was kept, and the "
                                "defaults are used."),
    Notice.REGISTRY_DAMAGED: N_("The card scanner's list of tags could not be read: a copy was "
                                "kept, and the list starts empty."),
    Notice.REGISTRY_MENDED: N_("The card scanner's list of tags was damaged: a copy was kept."),
    Notice.STORE_DAMAGED: N_("The saved games could not be read: a copy was kept, and new games "
                             "are saved afresh."),
    Notice.STORE_NEWER: N_("The saved games are from a newer version of the app: they are read, "
                           "never written, so nothing is saved."),
    Notice.STORE_RECOVERED: N_("The saved games were damaged: the damaged file was kept, and "
                               "saving goes on in a new one."),
    Notice.STORE_LINK: N_("The saved games were a link to a place outside the app's folder: the "
                          "link was set aside, nothing was written through it, and new games "
                          "are saved afresh."),
    Notice.LOG_FOREIGN: N_("A log of changes that did not belong to the saved games was found: "
                           "it was kept aside, and the games are as they were last saved."),
    Notice.GAME_NEWER: N_("A saved game is from a newer version of the app: it was not "
                          "imported, and its file was kept. Open it with the newer version."),
    Notice.GAME_UNREADABLE: N_("A saved game could not be read: its file was kept."),
    Notice.GAME_DAMAGED: N_("The end of the saved game was damaged; a copy was kept."),
    Notice.NOT_SAVING: N_("The disk takes nothing now: playing without saving. Saving resumes "
                          "when it can."),
    Notice.SAVING_AGAIN: N_("Saving again: everything answered is saved."),
}


def say_notices(talk: Talk) -> None:
    """What the app must tell about its files (a damaged file, a disk that
    refuses, saving back), each once, as it happens; the store then forgets
    those it keeps until they are said (a recovery's)."""
    taken = take_notices()
    for notice in taken:
        talk.say(warning(notice_text(talk, notice)))
    if taken:
        notices_said(taken)


def notice_text(talk: Talk, notice: Notice) -> str:
    """A notice's sentence, with its numbers (how many games a damaged store
    gave back, and how many it could not)."""
    said = talk.text(NOTICES[notice])
    if notice is Notice.REGISTRY_MENDED:
        numbers = counts(notice)
        return " ".join((said, talk.catalog.plural(
            "%(n)d tag could not be read and was left out.",
            "%(n)d tags could not be read and were left out.", numbers.get("left_out", 0)),
            talk.catalog.plural("%(n)d tag is kept.", "%(n)d tags are kept.",
                                numbers.get("kept", 0))))
    if notice is not Notice.STORE_RECOVERED:
        return said
    numbers = counts(notice)
    recovered, lost = numbers.get("recovered", 0), numbers.get("lost", 0)
    said += " " + talk.catalog.plural("%(n)d game was recovered.",
                                      "%(n)d games were recovered.", recovered)
    if lost:
        said += " " + talk.catalog.plural(
            "%(n)d game could not be recovered: it stays in the damaged file.",
            "%(n)d games could not be recovered: they stay in the damaged file.", lost)
    return said


def check_files(talk: Talk) -> None:
    """At start: the scanner's tags read (a damaged list set aside), the
    game store opened (old journals imported), and what went wrong said."""
    from firmware_bridge.registry import set_aside as registry_aside  # noqa: PLC0415 - at start

    aside = registry_aside()
    if aside is not None and aside.kept:
        tell(Notice.REGISTRY_MENDED, kept=aside.kept, left_out=aside.left_out)
    elif aside is not None:
        tell(Notice.REGISTRY_DAMAGED)
    unfinished()  # opens the store: its problems are noticed now, not mid-game
    say_notices(talk)


def keep(talk: Talk, chosen: Settings) -> bool:
    """Take these settings and save them; False if the disk refused (they
    hold for this time, and the player is told once)."""
    try:
        talk.save(chosen)
    except OSError:
        talk.configure(chosen)
        SAVING.failed()
        say_notices(talk)
        return False
    return True


def use_scanner(talk: Talk, choice: str) -> None:
    """Listen to the scanner chosen; a list of tags that cannot be read
    leaves typed codes only, said."""
    from firmware_bridge.registry import RegistryError  # noqa: PLC0415

    try:
        talk.use_scanner(choice)
    except (RegistryError, OSError):
        talk.use_scanner("")
        talk.say(warning(talk.text(NOTICES[Notice.REGISTRY_DAMAGED])))


def speech_options(talk: Talk) -> tuple[str, tuple[str, ...]]:
    return talk.text("Speech:"), (
        talk.text("The app speaks for itself."),
        talk.text("My screen reader speaks: the app only writes."),
    )


def verbosity_options(talk: Talk) -> tuple[str, tuple[str, ...]]:
    return talk.text("How much should it say?"), (
        talk.text("Terse: key facts only."),
        talk.text("Normal."),
        talk.text("Verbose: with the rule that applied."),
    )


def speech_menu(talk: Talk) -> Menu:
    return Menu(*speech_options(talk))


def verbosity_menu(talk: Talk) -> Menu:
    return Menu(*verbosity_options(talk))


def main_menu(talk: Talk) -> None:
    """The main menu, again after every journey, until the player quits."""
    while True:
        journeys: list[tuple[str, Callable[[Talk], None]]] = [
            (journey_label(talk, TABLE, talk.text("Table companion for a real game.")), table),
            (talk.text("Practice game against bots."), practice),
            (journey_label(talk, SCORE, talk.text("Score a finished game.")), score),
            (talk.text("Learn the codes."), learn),
            (talk.text("Settings."), settings),
            (talk.text("Quit."), leave),
        ]
        try:
            index = talk.ask(Menu(main_title(talk), tuple(name for name, _ in journeys)))
            journeys[index][1](talk)
        except ToMenu:
            talk.say(reply(talk.text("Back to the main menu.")))


def leave(talk: Talk) -> None:
    raise Quit


def journey_label(talk: Talk, journey: str, label: str) -> str:
    """A journey's item in the main menu: as it is when the game chosen
    offers it; else saying which game it belongs to (Mici Maki has no
    scoring: the item scores Sushi Go!), so no item starts another game's
    journey unsaid."""
    chosen = games().get(talk.settings.game)
    if chosen is None or journey in journeys_of(chosen):
        return label
    offering = [plugin.title for plugin in games().values() if journey in journeys_of(plugin)]
    if not offering:
        return label
    return talk.text("%(journey)s Only for %(games)s", journey=label,
                     games=", ".join(offering))


def submenu(talk: Talk, title: str, options: Sequence[str]) -> int | None:
    """A menu below the main menu, with Back as its last item (the word
    back chooses it too): the index chosen, or ``None`` for Back."""
    index = talk.ask(Menu(title, (*options, talk.text("Back.")), back=True))
    return None if index == len(options) else index


def which_game(talk: Talk, journey: str) -> SomeGame | None:
    """The game to play: the one chosen in the settings (or with ``--game``)
    if it offers the journey; else the one game that does, or asked."""
    offering = [plugin for plugin in games().values() if journey in journeys_of(plugin)]
    if not offering:
        talk.say(warning(talk.text("No game installed offers this.")))
        return None
    chosen = games().get(talk.settings.game)
    if chosen in offering:
        return chosen
    if len(offering) == 1:
        return offering[0]
    index = submenu(talk, talk.text("Which game?"), tuple(plugin.title for plugin in offering))
    if index is None:
        raise ToMenu
    return offering[index]


def main_title(talk: Talk) -> str:
    """The main menu's title, naming the game played when it is not the usual one."""
    plugin = games().get(talk.settings.game)
    if plugin is None or plugin.game == DEFAULT_GAME:
        return talk.text("Main menu.")
    return talk.text("Main menu, %(game)s.", game=plugin.title)


def choose_game(talk: Talk, current: Settings) -> Settings | None:
    """Which game the journeys play (``None``: back)."""
    installed = sorted(games().values(), key=lambda p: (p.game != DEFAULT_GAME, p.title))
    labels = tuple(talk.text("%(choice)s Chosen now.", choice=plugin.title)
                   if plugin.game == current.game else plugin.title for plugin in installed)
    index = submenu(talk, talk.text("Game:"), labels)
    return None if index is None else replace(current, game=installed[index].game)


# -- games --------------------------------------------------------------------------------


def practice(talk: Talk) -> None:
    plugin = which_game(talk, PRACTICE)
    if plugin is not None:
        if offer_resume(talk, kind=PRACTICE, game_name=plugin.game):
            return
        try:
            game = plugin.practice(talk, talk.random)
        except Back:  # Back in the set-up's first menu
            raise ToMenu from None
        play(talk, game)


def table(talk: Talk) -> None:
    plugin = which_game(talk, TABLE)
    companion = capability(plugin, TableCompanion)
    if plugin is None or companion is None:
        return
    if offer_resume(talk, kind=TABLE, game_name=plugin.game):
        return
    seating = talk.seating
    if seating is not None and capability(plugin, SharedTableCompanion) is not None:
        where = submenu(talk, talk.text("Who enters the cards?"), (
            talk.text("I do, on this device."),
            talk.text("Each player, on their own device: a shared table.")))
        if where is None:
            raise ToMenu
        if where == 1:
            shared_table(talk, seating)
            return

    def cards_from() -> None:
        """The set-up's last question: where cards come from (Back: the one before)."""
        if not choose_scanner(talk, back=True):
            raise Back

    try:
        start = companion.table(talk, cards_from)
    except Back:  # Back in the set-up's first menu
        raise ToMenu from None
    play(talk, start())


def shared_table(talk: Talk, seating: Seating) -> None:
    """The host's side of a table shared between devices: its set-up, then
    how players join, then what is public as it comes, until the game ends
    or the host ends the table (each seat's game is saved as it goes)."""
    plugin = which_game(talk, TABLE)
    if plugin is None:
        return
    sharing = capability(plugin, SharedTableCompanion)
    if sharing is None:
        talk.say(warning(talk.text(
            "%(game)s has no table shared between devices yet: its table companion, in "
            "the menu, follows the game on this device.", game=plugin.title)))
        return
    try:
        table = sharing.shared(talk, seating.news)
    except Back:  # Back in the set-up's first menu
        return
    address, code = seating.opened(table)
    talk.say(info(talk.text(
        "The table is open. Each player opens %(address)s on their own device and gives "
        "the code %(code)s (or scans the QR code on this page), then chooses their name.",
        address=address, code=code)))
    talk.hosting = True
    try:
        play(talk, table.host(talk.language, talk.verbosity))
    finally:
        talk.hosting = False


def seat(talk: Talk, game: Play) -> None:
    """One seat's game at a table shared between devices, until the game
    ends or the input does (the game saved all along)."""
    talk.seated = True
    try:
        play(talk, game)
    except (Quit, ToMenu, KeyboardInterrupt):
        pass  # the server stops: the game is saved
    else:
        talk.say(info(talk.text("Your game is over: you can close this page.")))
    finally:
        talk.close()


def score(talk: Talk) -> None:
    scoring = capability(which_game(talk, SCORE), Scoring)
    if scoring is not None:
        scoring.score(talk)


def play(talk: Talk, game: Play) -> None:
    """A game, question by question, until it ends or the player leaves it
    (an unfinished game stays saved, and the next start offers to resume it)."""
    try:
        with talk.playing(game):
            while True:
                with transaction():  # the moves it makes by itself, saved together
                    step = game.advance()
                if step is None:
                    break
                talk.progress(game.facts())
                talk.say_all(step.before)
                say_notices(talk)
                if step.question is None:
                    continue
                try:
                    answer = talk.ask(step.question)
                except Changed:
                    continue  # undone: ask what the game asks now
                except Quit:
                    kept(talk)
                    raise
                except ToMenu:  # the game kept: the same journey offers it again
                    if not SAVING.paused:
                        talk.say(reply(talk.text(
                            "The game is saved: the same choice in the menu resumes it.")))
                    raise
                with transaction():  # an answer and all it makes happen: saved at once
                    said = game.take(step, answer)
                talk.say_all(said)
                say_notices(talk)
    finally:
        game.close()


def kept(talk: Talk) -> None:
    """A game left unfinished by quitting: where it is kept, said (unless the
    disk takes nothing now, which was said when it began)."""
    if not SAVING.paused:
        with contextlib.suppress(OSError):  # a terminal that closed takes no more
            talk.say(reply(talk.text("The game is saved: choose Resume at the next start.")))


def offer_resume(talk: Talk, *, kind: str | None = None, game_name: str | None = None) -> bool:
    """Offer the newest unfinished game, practice or table, if there is one; a
    game that ended before its result was said says it now. A game that
    cannot be trusted is set aside (:func:`resumed`), and the next one offered.

    With ``kind`` and ``game_name`` (a journey chosen from the main menu: a
    game left with "menu" comes back there), only a game of that kind and
    game is offered, and "Start a new game." stands for "Not now."; whether
    a game was played (the journey then ends)."""
    aside = set(Store.at(journal_dir()).aside())
    for saved in unfinished():
        if saved.name in aside:
            continue
        opened = resumed(talk, saved)
        if opened is None:
            continue
        journal, loaded, game = opened
        if kind is not None and (game.kind != kind or journal.header.get(
                "game", DEFAULT_GAME) != game_name):
            game.close()  # another journey's or game's: offered there
            continue
        if journal.discarded:
            game.close()  # thrown away, the window closed before it was said
            continue
        if loaded.damaged:
            talk.say(warning(talk.text(NOTICES[Notice.GAME_DAMAGED])))
        if journal.ended:  # played to its end, its result never said
            play(talk, game)
            continue
        offer = (talk.text("An unfinished practice game was found.") if game.kind == PRACTICE
                 else talk.text("An unfinished table game was found."))
        later = talk.text("Not now.") if kind is None else talk.text("Start a new game.")
        try:  # Back, like Not now, keeps it for the next start
            answer = talk.ask(Menu(offer, (talk.text("Resume it."), later,
                                           talk.text("Throw it away."), talk.text("Back.")),
                                   back=True))
        except BaseException:
            game.close()
            raise
        if answer == 3 and kind is not None:  # Back, from the journey: the main menu
            game.close()
            raise ToMenu
        if answer == 0:
            play(talk, game)
            return True
        elif answer == 2 and talk.ask(YesNo(talk.text("Throw it away for good?"),
                                            no=talk.text("No, keep it."),
                                            yes=talk.text("Yes, throw it away."))):
            game.discard()
            talk.say(reply(talk.text("Thrown away.")))
        else:
            game.close()
        return False
    return False


def resumed(talk: Talk, saved: GameRef) -> tuple[Journal, Loaded, Play] | None:
    """A saved game opened and resumed, as it stood; ``None`` if it cannot be
    played here. A game that cannot be trusted (a field of a wrong type or out
    of range, an event the rules refuse, anything at all that fails as it is
    resumed) is set aside: kept, said once, never offered again."""
    try:
        journal, loaded = Journal.open(saved)
    except GameInUse:
        talk.say(warning(talk.text(
            "An unfinished game is open in another window: it stays there.")))
        return None
    except JournalError as error:  # not even a header the store can read
        set_aside(talk, saved, {}, Problem.failed(saved.name, error), None)
        return None
    except OSError:
        return None
    name = journal.header.get("game", DEFAULT_GAME)
    plugin = games().get(name) if isinstance(name, str) else None
    if plugin is None and isinstance(name, str):
        journal.close()  # a game not installed here: kept for when it is
        return None
    try:
        if plugin is None:  # a game's name that is no name
            raise Damaged(mismatch(saved.name, "game", OneOf(tuple(games())), name))
        game = plugin.resume(journal, talk.random, talk.language, talk.verbosity)
    except Damaged as error:
        problem = error.problem
    except Exception as error:
        problem = Problem.failed(saved.name, error)
    else:
        return journal, loaded, game
    journal.close()
    set_aside(talk, saved, journal.header, problem, plugin)
    return None


def set_aside(talk: Talk, saved: GameRef, header: Mapping[str, object], problem: Problem,
              plugin: SomeGame | None) -> None:
    """Keep a damaged game out of the way (in the store as it is, never
    offered again), and say which, why and how to copy it, once."""
    with contextlib.suppress(SaveError):  # a disk that refuses: said again next time
        saved.store.set_aside(saved.name, problem.json())
    kind = header.get("type")
    title = plugin.title if plugin is not None else shown(str(header.get("game", "")))
    for line in set_aside_text(talk.catalog, problem, title,
                               kind if isinstance(kind, str) else ""):
        talk.say(warning(line))


# -- learning the codes ---------------------------------------------------------------------


def learn(talk: Talk) -> None:
    plugin = which_game(talk, LEARN)
    if plugin is None:
        return
    index = submenu(talk, talk.text("Learn the codes:"), (
        talk.text("Type or scan a card to hear what it is."),
        talk.text("Drill: the app names a card, you type its code."),
        talk.text("Hear the whole reference."),
    ))
    if index is None:
        raise ToMenu
    if index == 2:
        for line in plugin.reference(talk.language):
            talk.say(info(line))
    elif index == 0:
        identify(talk, plugin)
    else:
        drill(talk, plugin)


def identify(talk: Talk, plugin: SomeGame) -> None:
    """Cards typed or scanned, each read back in full, until an empty line."""
    while True:
        given = talk.ask(CardsQuestion(talk.text("A code or a scan, or an empty line to stop:"),
                                       plugin.reader, most=1, allow_empty=True))
        if not given.cards:
            return
        talk.say(reply(plugin.describe(talk.language, given.cards[0], Verbosity.VERBOSE)))


def drill(talk: Talk, plugin: SomeGame) -> None:
    """The app names a card, the player types (or scans) its code; the tally
    at the end."""
    right = asked = 0
    cards = list(plugin.drill_cards())
    card: object = None
    while True:
        if card is None:
            card = talk.random.choice(cards)
        name = plugin.reader.name(talk.language, card)
        guide = talk.text("Type the code of %(card)s, the one on its sticker, or scan the "
                          "card. A wrong code is answered with the right one; an empty line "
                          "stops.", card=name)
        # how to stop, with the first question only: a line said again at
        # every card is noise, and a screen reader comparing lines leaves it
        # unsaid; help (the guide) says it at any question
        asking = (talk.text("Code for %(card)s? An empty line stops.", card=name)
                  if asked == 0 else talk.text("Code for %(card)s?", card=name))
        given = talk.ask(CardsQuestion(asking,
                                       plugin.reader, most=1, allow_empty=True,
                                       guide=(guide,)))
        if not given.cards:
            talk.say(result(talk.text("%(right)d right out of %(asked)d.", right=right,
                                      asked=asked), important=False))
            return
        typed = given.cards[0]
        asked += 1
        if typed == card:
            right += 1
            talk.say(reply(talk.text("Right: %(code)s.", code=plugin.code(card))))
        else:
            talk.say(reply(talk.text(
                "No: %(code)s is %(typed)s; %(card)s is %(right)s.", code=plugin.code(typed),
                typed=plugin.reader.name(talk.language, typed), card=name,
                right=plugin.code(card)), important=True))
        card = None


# -- settings ----------------------------------------------------------------------------------


def settings(talk: Talk) -> None:
    """The settings menu: one setting changed and saved, then the main menu;
    Back in a setting's own menu comes back here, Back here to the main menu."""
    while True:
        chosen = setting(talk)
        if chosen is True:  # kept already (the card scanner)
            return
        if isinstance(chosen, Settings):
            break
    if keep(talk, chosen):
        talk.say(reply(talk.text("Settings saved.")))


def setting(talk: Talk) -> Settings | bool | None:
    """One setting chosen and changed: the settings to keep, True when they
    are kept already, or ``None`` for Back in its own menu."""
    current = talk.settings
    index = submenu(talk, talk.text("Settings:"), (
        talk.text("Language."), talk.text("Speech."), talk.text("How much to say."),
        talk.text("Voice speed, pitch and volume."), talk.text("Card scanner."),
        talk.text("Game."),
    ))
    if index is None:
        raise ToMenu
    if index == 4:
        return True if choose_scanner(talk, back=True) else None
    if index == 0:
        languages = list(LANGUAGES)
        pick = submenu(talk, talk.text("Language:"),
                       tuple(LANGUAGE_NAMES[code] for code in languages))
        return None if pick is None else replace(current, language=languages[pick])
    if index == 1:
        pick = submenu(talk, *speech_options(talk))
        return None if pick is None else replace(current, speech=("auto", "none")[pick],
                                                 speak_echoes=pick == 0)
    if index == 2:
        pick = submenu(talk, *verbosity_options(talk))
        return None if pick is None else replace(current, verbosity=VERBOSITIES[pick])
    if index == 5:
        return choose_game(talk, current)
    return voice(talk, current)


def voice(talk: Talk, current: Settings) -> Settings | None:
    """Speed, pitch or volume, as a number in its range (``None``: back)."""
    knobs = [
        ("rate", talk.text("Speed, in words a minute")),
        ("pitch", talk.text("Pitch")),
        ("volume", talk.text("Volume")),
    ]
    index = submenu(talk, talk.text("Which one?"), tuple(
        talk.text("%(setting)s (now %(value)d).", setting=label, value=getattr(current, name))
        for name, label in knobs))
    if index is None:
        return None
    name, label = knobs[index]
    low, high = VOICE_RANGES[name]
    value = talk.ask(Number(talk.text("%(setting)s, %(low)d to %(high)d (now %(value)d):",
                                      setting=label, low=low, high=high,
                                      value=getattr(current, name)),
                            low, high, allow_empty=True))
    return current if value is None else current.with_value(name, value)


def choose_scanner(talk: Talk, *, back: bool = False) -> bool:
    """Where cards come from besides the keyboard; saved for next time.
    ``back``: asked from the settings, with a Back item; False for Back
    (nothing changed)."""
    current = talk.scanner_choice
    options: list[tuple[str, str | None]] = [
        (talk.text("Typed codes only (a barcode scanner types too)."), ""),
        (talk.text("The NFC scanner, found by itself."), "auto"),
        (talk.text("The NFC scanner on a port I give."), None),
        (talk.text("The virtual scanner of firmware-bridge simulate."), "virtual"),
    ]
    labels = [label for label, _ in options]
    for number, (_, value) in enumerate(options):
        if value == current or (value is None and current not in {"", "auto", "virtual"}):
            labels[number] = talk.text("%(choice)s Chosen now.", choice=labels[number])
    title = talk.text("Cards come from:")
    index = submenu(talk, title, labels) if back else talk.ask(Menu(title, tuple(labels)))
    if index is None:
        return False
    chosen = options[index][1]
    from firmware_bridge.link import port_exists  # noqa: PLC0415 - pyserial when used

    while chosen is None:
        port = talk.ask(Text(talk.text("The scanner's port, such as /dev/ttyACM0 "
                                       "(an empty line: typed codes only):"), allow_empty=True))
        if not port:
            chosen = ""
        elif port_exists(port):
            chosen = port
        else:
            talk.say(warning(talk.text("There is no port %(port)s. Is the scanner plugged in?",
                                       port=shown(port, PATH_LIMIT))))
    if chosen != talk.settings.scanner:
        keep(talk, replace(talk.settings, scanner=chosen))
    talk.scanner = chosen
    use_scanner(talk, chosen)
    return True
