"""Textual's private API is used in one module only,
companion/faces/textual_adapter.py (its contract, tests/companion/faces/test_textual_adapter.py,
checks each private thing it uses): every other module of the app and
its tests (and devtools/, whose ui_runs.py drives Textual) is read (with ``ast``) for

- an import of a private module of Textual (``textual._compositor``,
  ``from textual import _wait``, ``textual.widgets._input``);
- in a class built on a Textual class: a method or attribute whose name
  is one of that Textual class's private names (an override of
  ``App._display``, or an attribute of its own that shadows one), and any
  use of such a name (``self._app``, ``super()._watch_value``);
- anywhere: the use of a private name of a Textual class the module
  imports, when the module does not define that name itself
  (``app._exit_renderables``).

A Textual class's private names are the ones with a leading underscore
(not dunder) that it or a Textual class it is built on defines: its
methods and class attributes, and what its methods assign to ``self``.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import textwrap
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[3]
ADAPTER = ROOT / "companion" / "faces" / "textual_adapter.py"
#: The adapter, and its contract: the two places Textual's private API may be named.
ALLOWED = {ADAPTER, ROOT / "tests" / "companion" / "faces" / "test_textual_adapter.py"}


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def checked() -> list[Path]:
    """Every module of the app, of the developers' tools (devtools/ui_runs.py
    drives Textual too) and of the tests, but the adapter's own."""
    packages = ("companion", "firmware_bridge", "voices", "devtools", "tests")
    return sorted(path for package in packages
                  for path in (ROOT / package).rglob("*.py") if path not in ALLOWED)


def is_textual(cls: type) -> bool:
    return cls.__module__ == "textual" or cls.__module__.startswith("textual.")


@functools.cache
def own_private_names(cls: type) -> frozenset[str]:
    """The private names one Textual class defines itself."""
    names = {name for name in vars(cls) if private(name)}
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError, SyntaxError):  # no source: its attributes only
        return frozenset(names)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id == "self" and isinstance(node.ctx, ast.Store)
                and private(node.attr)):
            names.add(node.attr)
    return frozenset(names)


def textual_private_names(cls: type) -> dict[str, str]:
    """Every private name of the Textual classes ``cls`` is built on, with
    the class that defines it ("App._display")."""
    found: dict[str, str] = {}
    for base in reversed(cls.__mro__):
        if is_textual(base):
            found.update((name, f"{base.__name__}.{name}") for name in own_private_names(base))
    return found


def private_module(name: str) -> bool:
    parts = name.split(".")
    return parts[0] == "textual" and any(private(part) for part in parts[1:])


def resolve(node: ast.expr, namespace: dict[str, object]) -> object:
    """What a base class expression names in ``namespace`` (``App[int]``: App)."""
    if isinstance(node, ast.Subscript):
        return resolve(node.value, namespace)
    if isinstance(node, ast.Name):
        return namespace.get(node.id)
    if isinstance(node, ast.Attribute):
        return getattr(resolve(node.value, namespace), node.attr, None)
    return None


def defined_here(tree: ast.Module) -> set[str]:
    """The private names a module defines itself: functions, class
    attributes, and attributes it assigns."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return {name for name in names if private(name)}


def class_members(node: ast.ClassDef) -> Iterator[tuple[str, int]]:
    """The names a class body defines, with their lines."""
    for item in node.body:
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
            yield item.name, item.lineno
        elif isinstance(item, ast.Assign):
            for target in item.targets:
                if isinstance(target, ast.Name):
                    yield target.id, item.lineno
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            yield item.target.id, item.lineno


def violations(source: str, namespace: dict[str, object], where: str) -> list[str]:
    """Each use of Textual's private API in ``source`` (its names bound as in
    ``namespace``), one sentence each."""
    tree = ast.parse(source)
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [f"{where}:{node.lineno} imports Textual's private module {alias.name}"
                      for alias in node.names if private_module(alias.name)]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names = [node.module] if private_module(node.module) else [
                f"{node.module}.{alias.name}" for alias in node.names]
            found += [f"{where}:{node.lineno} imports Textual's private module {name}"
                      for name in names if private_module(name)]
    imported: dict[str, str] = {}
    for value in namespace.values():
        if isinstance(value, type) and any(is_textual(base) for base in value.__mro__):
            imported.update(textual_private_names(value))
    inside: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        theirs: dict[str, str] = {}
        for base in node.bases:
            cls = resolve(base, namespace)
            if isinstance(cls, type):
                theirs.update(textual_private_names(cls))
        if not theirs:
            continue
        for name, line in class_members(node):
            if name in theirs:
                found.append(f"{where}:{line} {node.name} overrides Textual's private "
                             f"{theirs[name]}")
        for child in ast.walk(node):
            if isinstance(child, ast.Attribute) and child.attr in theirs:
                inside.add(id(child))
                found.append(f"{where}:{child.lineno} {node.name} uses Textual's private "
                             f"{theirs[child.attr]}")
    own = defined_here(tree)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and id(node) not in inside
                and node.attr in imported and node.attr not in own):
            found.append(f"{where}:{node.lineno} uses Textual's private {imported[node.attr]}")
    return found


def namespace_of(path: Path, source: str) -> dict[str, object]:
    """The module's names, imported, when it uses Textual at all (other
    modules are read only for their imports)."""
    if "textual" not in source:
        return {}
    module: ModuleType = importlib.import_module(module_name(path))
    return vars(module)


@pytest.mark.parametrize("path", checked(), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_module_but_the_adapter_uses_textuals_private_api(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    found = violations(source, namespace_of(path, source), str(path.relative_to(ROOT)))
    assert not found, ("Textual's private API belongs in companion/faces/textual_adapter.py "
                       "(with a check in tests/companion/faces/test_textual_adapter.py):\n"
                       + "\n".join(found))


def test_the_check_finds_each_kind_of_use() -> None:
    source = textwrap.dedent('''
        from textual._compositor import LayoutUpdate
        from textual import _wait
        import textual.widgets._input
        from textual.app import App
        from textual.widgets import Input

        class Mine(App[int]):
            def _display(self, screen, renderable):
                super()._display(screen, renderable)

        class Typed(Input):
            def _watch_value(self, value):
                return self._initial_value

        def elsewhere(app: App[int]) -> None:
            app._exit_renderables.clear()

        class Plain:
            def __init__(self) -> None:
                self._lock = None  # its own, not Textual's
            def use(self) -> None:
                print(self._lock)
    ''')
    namespace: dict[str, object] = {}
    exec(compile(source, "snippet", "exec"), namespace)  # the test's own snippet
    found = violations(source, namespace, "snippet")
    expected = [
        "imports Textual's private module textual._compositor",
        "imports Textual's private module textual._wait",
        "imports Textual's private module textual.widgets._input",
        "Mine overrides Textual's private App._display",
        "Mine uses Textual's private App._display",
        "Typed overrides Textual's private Input._watch_value",
        "Typed uses Textual's private Input._initial_value",
        "uses Textual's private App._exit_renderables",
    ]
    for sentence in expected:
        assert any(line.endswith(sentence) or f" {sentence}" in line for line in found), (
            sentence, found)
    assert not any("_lock" in line for line in found), found


def test_the_adapter_is_where_the_private_api_is() -> None:
    """Read the same way, the adapter uses exactly the private things its
    docstring lists (and its contract test checks)."""
    source = ADAPTER.read_text(encoding="utf-8")
    module = importlib.import_module("companion.faces.textual_adapter")
    found = violations(source, vars(module), "adapter")
    used = {line.rsplit(" ", 1)[-1] for line in found}
    assert used == {"textual._compositor", "App._display", "App._handle_exception",
                    "App._exit_renderables", "App._batch_count", "Driver._app",
                    "Input._watch_value",
                    "Input._watch_selection", "Input._initial_value", "Input._cursor_offset"}


def test_the_developers_tools_are_read_too() -> None:
    """devtools/ui_runs.py drives Textual: it is among the modules read."""
    assert ROOT / "devtools" / "ui_runs.py" in checked()
    assert "textual" in (ROOT / "devtools" / "ui_runs.py").read_text(encoding="utf-8")
