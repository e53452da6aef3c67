"""Every dependency in pyproject.toml (the app's and the test extra's) has
a lower bound, the release it was tested from, and an upper bound; the
release installed here (the newest tested) is in that range, and the
upper bound is at most its next major release (its next minor for a 0.x
release, and for Textual, whose private parts the full screen relies
on): the suite checks the range pyproject.toml states. What builds the
package (``build-system``) has a lower bound and a next major release as
its upper bound. In the lowest tier (scripts/test.sh sets
``COMPANION_LOWEST=1`` there), every dependency is installed at its lower
bound. Every module the project imports is the standard library's, the
project's own or a declared dependency's."""

from __future__ import annotations

import ast
import os
import sys
import tomllib
from importlib.metadata import PackageNotFoundError, packages_distributions, version
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]
#: What builds the package: pip installs it in a build environment of its
#: own, not here, so no release of it installed here says what was tested.
BUILD = [Requirement(line) for line in PYPROJECT["build-system"]["requires"]]
APP = [Requirement(line) for line in PROJECT["dependencies"]]
REQUIREMENTS = [*APP, *(Requirement(line) for line in PROJECT["optional-dependencies"]["test"])]
#: The app's packages (in the wheel) and the developers' (tests and tools).
PACKAGES = ("companion", "firmware_bridge", "voices")
DEVELOPERS = ("devtools", "tests")
#: Whether this run is the lowest tier: every dependency at its lower bound.
LOWEST = os.environ.get("COMPANION_LOWEST") == "1"
#: Dependencies bound tighter than their next major: at their next minor.
BY_MINOR = {"textual"}


def bounds(requirement: Requirement) -> tuple[Version, Version]:
    """The lower (>=) and upper (<) bound of ``requirement``."""
    lower = [Version(spec.version) for spec in requirement.specifier if spec.operator == ">="]
    upper = [Version(spec.version) for spec in requirement.specifier if spec.operator == "<"]
    assert len(lower) == 1 and len(upper) == 1, (
        f"{requirement}: give one tested lower bound (>=) and one upper bound (<)")
    return lower[0], upper[0]


def cap(tested: Version, *, by_minor: bool) -> Version:
    """The highest upper bound allowed when ``tested`` is the newest release tested.

    >>> str(cap(Version("3.5"), by_minor=False)), str(cap(Version("0.8"), by_minor=False))
    ('4', '0.9')
    >>> str(cap(Version("8.2.5"), by_minor=True))
    '8.3'
    """
    if by_minor or tested.major == 0:
        return Version(f"{tested.major}.{tested.minor + 1}")
    return Version(f"{tested.major + 1}")


@pytest.mark.parametrize("requirement", REQUIREMENTS, ids=lambda requirement: requirement.name)
def test_each_dependency_has_a_tested_range_capped_at_its_next_major(
        requirement: Requirement) -> None:
    lower, upper = bounds(requirement)
    if requirement.marker is not None and not requirement.marker.evaluate():
        # another system's (accessible_output2: Windows): not installed here, so
        # only its lower bound says what was tested
        highest = cap(lower, by_minor=requirement.name in BY_MINOR)
        assert lower < upper <= highest, (
            f"{requirement}: the upper bound should be at most {highest}")
        return
    try:
        installed = version(requirement.name)
    except PackageNotFoundError:
        pytest.fail(f"{requirement.name} is not installed: run the set-up")
    assert requirement.specifier.contains(installed, prereleases=True), (
        f"{requirement.name} {installed} is installed, outside {requirement.specifier}: "
        "the suite would check another range than pyproject.toml states")
    if LOWEST:
        assert Version(installed) == lower, (
            f"{requirement.name} {installed} is installed in the lowest tier, "
            f"not its lower bound {lower}")
        return
    highest = cap(Version(installed), by_minor=requirement.name in BY_MINOR)
    assert lower < upper <= highest, (
        f"{requirement}: the upper bound should be at most {highest}, the next "
        f"{'minor' if highest.major == Version(installed).major else 'major'} release "
        f"after the {installed} tested")


@pytest.mark.parametrize("requirement", BUILD, ids=lambda requirement: requirement.name)
def test_each_build_requirement_has_a_range_up_to_a_next_major(requirement: Requirement) -> None:
    lower, upper = bounds(requirement)
    assert lower < upper, f"{requirement}: the upper bound is not above the lower one"
    assert upper == Version(str(upper.major)) and upper.major > lower.major, (
        f"{requirement}: the upper bound should be a next major release (such as "
        f"{lower.major + 1}), excluded")


def test_the_build_requirements_are_read_for_real() -> None:
    assert [requirement.name for requirement in BUILD] == ["setuptools"]


def imported(folder: Path) -> set[str]:
    """The top-level modules the Python files under ``folder`` import,
    wherever the import stands (at the top, in a function, under a guard)."""
    names: set[str] = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name.partition(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.partition(".")[0])
    return names


def undeclared(folders: tuple[str, ...], declared: list[Requirement]) -> dict[str, list[str]]:
    """Each module imported under ``folders`` that no declared requirement
    gives, with the distributions that give it here (none: not installed)."""
    given = {canonicalize_name(requirement.name) for requirement in declared}
    distributions = packages_distributions()
    found: dict[str, list[str]] = {}
    for folder in folders:
        for name in imported(ROOT / folder):
            if name in sys.stdlib_module_names or name in (*PACKAGES, *DEVELOPERS):
                continue
            owners = distributions.get(name, [])
            if not owners and canonicalize_name(name) in given:
                continue  # another system's dependency, not installed here
            if not {canonicalize_name(owner) for owner in owners} & given:
                found[name] = owners
    return found


def test_the_app_imports_only_what_it_declares() -> None:
    assert undeclared(PACKAGES, APP) == {}, (
        "modules the app imports that pyproject.toml's dependencies do not give "
        "(with the distributions that give them here)")


def test_the_tests_and_tools_import_only_what_is_declared() -> None:
    assert undeclared(DEVELOPERS, REQUIREMENTS) == {}, (
        "modules the tests or devtools import that neither the dependencies "
        "nor the test extra give")


def test_an_undeclared_import_is_found() -> None:
    assert "rich" in imported(ROOT / "companion")
    without_rich = [requirement for requirement in APP if requirement.name != "rich"]
    assert undeclared(PACKAGES, without_rich) == {"rich": ["rich"]}
