"""The bridge knows no game: nothing under firmware_bridge/ imports the app.

Games reach the bridge only through their vocabularies (entry points), so
one scanner serves every game, and the bridge runs without the app.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import firmware_bridge

PACKAGE = Path(firmware_bridge.__file__).parent
FORBIDDEN = "companion"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(source: str, module: str, *, is_package: bool = False) -> list[str]:
    """Every module an import of ``source`` (the module ``module``) names, absolute;
    a relative import that climbs out of every package is named ``..``."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    names: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level > len(package):
                names.append("..")
                continue
            base = package[: len(package) - node.level + 1] if node.level else []
            parent = ".".join([*base, *([node.module] if node.module else [])])
            names.append(parent)
            names += [f"{parent}.{alias.name}".lstrip(".") for alias in node.names]
        elif isinstance(node, ast.Call) and node.args:
            # importlib.import_module("companion...") and __import__("companion")
            callee = node.func
            called = callee.attr if isinstance(callee, ast.Attribute) else getattr(
                callee, "id", "")
            first = node.args[0]
            if called in {"import_module", "__import__"} and isinstance(first, ast.Constant):
                names.append(str(first.value))
    return names


def forbidden(names: list[str]) -> list[str]:
    return [name for name in names
            if name in {"..", FORBIDDEN} or name.startswith(FORBIDDEN + ".")]


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_the_whole_bridge_is_read() -> None:
    found = {module_name(path) for path in MODULES}
    assert {"firmware_bridge", "firmware_bridge.cli", "firmware_bridge.link",
            "firmware_bridge.registry", "firmware_bridge.events"} <= found


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(PACKAGE)))
def test_no_bridge_module_imports_the_app(path: Path) -> None:
    names = imported(path.read_text(encoding="utf-8"), module_name(path),
                     is_package=path.name == "__init__.py")
    assert not forbidden(names), f"{path} imports {forbidden(names)}: the bridge knows no game"


@pytest.mark.parametrize("source", [
    "import companion",
    "import companion.games.sushigo.cards as cards",
    "import os, companion.journal",
    "from companion.journal import data_dir",
    "from companion import journal",
    "from .. import companion",
    "from ..companion.games import sushigo",
    "from ... import anything",
    "import importlib\nimportlib.import_module('companion.journal')",
    "from importlib import import_module\nimport_module('companion')",
    "__import__('companion.games')",
    "def later():\n    from companion.games.sushigo.tactile import parse",
    "if False:\n    import companion",
])
def test_every_way_of_importing_the_app_is_caught(source: str) -> None:
    assert forbidden(imported(source, "firmware_bridge.cli"))


@pytest.mark.parametrize("source", [
    "import companions",
    "from firmware_bridge.files import data_dir",
    "from . import files",
    "from .vocabulary import Vocabulary",
    "GROUP = 'tactile_companion.games'",
    "from companion_tools import x",
])
def test_what_is_not_the_app_passes(source: str) -> None:
    assert not forbidden(imported(source, "firmware_bridge.cli"))
