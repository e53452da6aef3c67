"""The layers, read from the imports of every module (with ``ast``, so an
import inside a function counts, one under ``if TYPE_CHECKING:`` does not):

- every import goes down the layers of :data:`LAYERS` (or stays in its own
  layer), and docs/development.md draws the same layers;
- the app finds games through the registry only: outside a game's own
  package, nothing imports it;
- (the scanner's bridge imports nothing from the app: tests/firmware_bridge/test_imports.py);
- a face never gets the conversation's Talk: no module of ``companion.faces``
  imports ``companion.conversation.core``, not even for its types;
- the conversation finds games through the registry ``companion.games``
  only: no game's package, no other module of the games layer;
- ``companion`` has no import cycle;
- a game's rules are pure: they import the standard library and each other
  only (no I/O module, no clock, no thread);
- the developers' tools (devtools/: the test rigs and their benchmarks) sit
  above it all: nothing of the app imports them, and the wheel leaves them
  out.
"""

from __future__ import annotations

import ast
import fnmatch
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "companion" / "games"
#: The packages the wheel installs: the app and what it stands on.
PRODUCT = ("companion", "firmware_bridge", "voices")
#: The developers' package: the test rigs and the benchmarks on them.
DEVTOOLS = "devtools"
#: Sushi Go!'s rules modules: pure.
RULES = ("cards", "tactile", "draft", "scoring", "tracker", "knowledge", "bots", "gamefile")
#: Standard modules a pure rules module must not use.
IMPURE = {"os", "io", "sys", "time", "threading", "subprocess", "socket", "pathlib",
          "shutil", "tempfile", "select", "signal", "multiprocessing", "asyncio"}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports(path: Path, *, type_checking: bool = False) -> Iterator[str]:
    """Every module ``path`` imports (absolute names; relative ones resolved);
    with ``type_checking``, those under ``if TYPE_CHECKING:`` too."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module_name(path).rsplit(".", 1)[0] if path.name != "__init__.py" else (
        module_name(path))

    def walk(node: ast.AST) -> Iterator[str]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child) and not type_checking:
                yield from (name for other in child.orelse for name in walk_one(other))
                continue
            yield from walk_one(child)

    def walk_one(node: ast.AST) -> Iterator[str]:
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)
        else:
            yield from walk(node)

    yield from walk(tree)


def game_packages() -> list[str]:
    return sorted(p.name for p in GAMES.iterdir() if (p / "__init__.py").exists())


#: The app's layers, top first: each module may import its own layer's and
#: those below it, never one above. A module belongs to the layer of the
#: longest prefix that names it.
LAYERS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("entry", "the command line, the app put together",
     ("companion.__main__", "companion.launch", "companion.cli", "companion.app")),
    ("commands", "the kit and the benchmarks",
     ("companion.kit", "companion.bench", "companion.tablebench", "companion.doctor")),
    ("faces", "plain lines, the full screen, the web", ("companion.faces",)),
    ("conversation", "journeys, questions, history, inbox", ("companion.conversation",)),
    ("games", "the registry, then each game's package", ("companion.games",)),
    ("contract", "questions, answers, announcements, protocols", ("companion.contract",)),
    ("utilities", "store, journal, records, settings, i18n, keymap",
     ("companion",)),
    ("below the app", "the scanner's bridge, the voices (know no app)",
     ("firmware_bridge", "voices")),
)


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of the layer ``module`` is in."""
    best, found = -1, -1
    for index, (_name, _what, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, found = len(prefix), index
    assert found >= 0, f"{module} is in no layer: add it to LAYERS"
    return found


def drawing() -> str:
    """The layers as docs/development.md draws them."""
    width = max(len(name) for name, _what, _prefixes in LAYERS)
    return "\n".join(f"{name:<{width}}  {what}" for name, what, _prefixes in LAYERS)


def every_module() -> dict[str, Path]:
    return {module_name(path): path
            for package in PRODUCT
            for path in modules(package)}


def _targets(names: dict[str, Path], path: Path) -> set[str]:
    """The modules of the app's packages ``path`` imports."""
    found = set()
    for imported in imports(path):
        target = imported  # "from a.b import c" names a.b.c: the module if there is one
        while target and target not in names:
            target = target.rpartition(".")[0]
        if target:
            found.add(target)
    return found


def test_every_import_goes_down_the_layers() -> None:
    names = every_module()
    upward = []
    for name, path in sorted(names.items()):
        own = layer_of(name)
        for target in sorted(_targets(names, path) - {name}):
            if layer_of(target) < own:
                upward.append(f"{name} ({LAYERS[own][0]}) imports {target} "
                              f"({LAYERS[layer_of(target)][0]})")
    assert not upward, "\n".join(upward)


def test_the_order_is_checked_for_real() -> None:
    assert layer_of("companion.contract.events") > layer_of("companion.conversation.core")
    assert layer_of("companion.games.sushigo.rules") == layer_of("companion.games")
    assert layer_of("companion.store") > layer_of("companion.contract.game")
    assert layer_of("voices.base") == len(LAYERS) - 1
    with pytest.raises(AssertionError):
        layer_of("elsewhere.module")


def test_the_developers_guide_draws_these_layers() -> None:
    text = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    assert f"```\n{drawing()}\n```" in text, f"docs/development.md should draw:\n{drawing()}"


@pytest.mark.parametrize("path", [path for package in PRODUCT for path in modules(package)],
                         ids=module_name)
def test_the_app_imports_nothing_of_the_developers_tools(path: Path) -> None:
    wrong = [name for name in imports(path)
             if name == DEVTOOLS or name.startswith(DEVTOOLS + ".")]
    assert not wrong, f"{module_name(path)} imports {wrong}: devtools/ is not installed"


def test_the_developers_tools_are_read_for_real() -> None:
    """The check above reads devtools' own imports the same way: it would
    see one (devtools imports the app, never the other way round)."""
    seen = {name for path in modules(DEVTOOLS) for name in imports(path)}
    assert "devtools.rig" in seen and "companion.bench" in seen


def test_the_wheel_leaves_the_developers_tools_out() -> None:
    found = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    include = found["tool"]["setuptools"]["packages"]["find"]["include"]
    for package in PRODUCT:
        assert any(fnmatch.fnmatch(package, pattern) for pattern in include), package
    for name in (DEVTOOLS, f"{DEVTOOLS}.atcheck"):
        assert not any(fnmatch.fnmatch(name, pattern) for pattern in include), name


def test_there_is_a_game_to_check() -> None:
    assert "sushigo" in game_packages()


@pytest.mark.parametrize("path", modules("companion"), ids=module_name)
def test_no_game_is_imported_by_name_outside_its_package(path: Path) -> None:
    own = module_name(path)
    for game in game_packages():
        package = f"companion.games.{game}"
        if own == package or own.startswith(package + "."):
            continue
        wrong = [name for name in imports(path)
                 if name == package or name.startswith(package + ".")]
        assert not wrong, f"{own} imports {wrong}: find games through companion.games"


@pytest.mark.parametrize("path", modules("companion/faces"), ids=module_name)
def test_no_face_gets_the_conversations_talk(path: Path) -> None:
    """A face is handed what it shows (companion.contract.events' Face) and
    the inbox it feeds, never :class:`~companion.conversation.core.Talk`."""
    talk = "companion.conversation.core"
    wrong = [name for name in imports(path, type_checking=True)
             if name == talk or name.startswith(talk + ".")]
    assert not wrong, f"{module_name(path)} imports {wrong}: a face never gets Talk"


def test_the_conversation_takes_only_the_registry_of_the_games_layer() -> None:
    names = every_module()
    games_layer = layer_of("companion.games")
    taken = {}
    for name, path in sorted(names.items()):
        if name.startswith("companion.conversation"):
            targets = _targets(names, path)
            taken[name] = {target for target in targets if layer_of(target) == games_layer}
    wrong = {name: sorted(found - {"companion.games"}) for name, found in taken.items()
             if found - {"companion.games"}}
    assert not wrong, f"the conversation imports more than the registry of games: {wrong}"
    # read for real: the journeys and the card questions do take the registry
    assert taken["companion.conversation.journeys"] == {"companion.games"}
    assert taken["companion.conversation.cards"] == {"companion.games"}


def test_games_are_registered_in_one_place() -> None:
    """The pyproject's entry points name each game's plugin, and only there
    (a game package with no plugin module yet, being built, is not a game
    of the app yet: it is registered with its plugin)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '[project.entry-points."tactile_companion.games"]' in text
    assert "companion.games.sushigo.plugin:PLUGIN" in text
    for game in game_packages():
        registered = f"companion.games.{game}.plugin:PLUGIN" in text
        assert registered == (GAMES / game / "plugin.py").exists(), game
        # and its vocabulary for the scanner's bridge, a pure module of its own
        offered = f"companion.games.{game}.vocabulary:VOCABULARY" in text
        assert offered == registered, game


def test_companion_has_no_import_cycle() -> None:
    names = {module_name(path): path for path in modules("companion")}
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        targets = set()
        for imported in imports(path):
            # "from a.b import c" names a.b.c: the module if there is one, else a.b
            target = imported
            while target and target not in names:
                target = target.rpartition(".")[0]
            if target and target != name:
                targets.add(target)
        graph[name] = targets
    cycle = _find_cycle(graph)
    assert cycle is None, " -> ".join(cycle or [])


def _find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return [*path[path.index(target):], target]
            if target not in state and (found := visit(target)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)) is not None:
            return found
    return None


def test_a_cycle_is_found_when_there_is_one() -> None:
    assert _find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _find_cycle({"a": {"b"}, "b": set()}) is None


#: Pure modules every game may use.
SHARED = ("companion.games.typed", "companion.shown",
          "companion.digits", "firmware_bridge.shown")
#: Pure modules below every layer (the bridge's, so that it shows text the
#: same way without importing the app): shared, and checked pure, above.
BELOW = ("firmware_bridge.shown",)
#: Mici Maki's rules modules: pure.
MICI_MAKI_RULES = ("rules", "tracker", "bots", "yardstick", "risk")


def _pure(path: Path, allowed: tuple[str, ...]) -> None:
    for name in imports(path):
        top = name.split(".")[0]
        if any(name == below or name.startswith(f"{below}.") for below in BELOW):
            continue
        if top == "companion":
            assert any(name.startswith(module) for module in allowed) or (
                name == "companion.games"), name
        else:
            assert top in sys.stdlib_module_names and top not in IMPURE, name


@pytest.mark.parametrize("rules", RULES)
def test_sushi_go_rules_are_pure(rules: str) -> None:
    _pure(GAMES / "sushigo" / f"{rules}.py",
          (*(f"companion.games.sushigo.{r}" for r in RULES), *SHARED))


@pytest.mark.parametrize("rules", MICI_MAKI_RULES)
def test_mici_maki_rules_are_pure(rules: str) -> None:
    _pure(GAMES / "micimaki" / f"{rules}.py",
          (*(f"companion.games.micimaki.{r}" for r in MICI_MAKI_RULES), *SHARED,
           "companion.contract.game"))


@pytest.mark.parametrize("shared", SHARED)
def test_what_the_games_share_is_pure(shared: str) -> None:
    # (one may use another: each of them is checked pure here)
    _pure(ROOT / (shared.replace(".", "/") + ".py"), SHARED)
