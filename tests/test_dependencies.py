"""Every dependency in pyproject.toml (the app's and the test extra's) has
a lower bound, the release it was tested from, and an upper bound; the
release installed here (the newest tested) is in that range, and the
upper bound is at most its next major release (its next minor for a 0.x
release, and for Textual, whose private parts the full screen relies
on): the suite checks the range pyproject.toml states. What builds the
package (``build-system``) has a lower bound and a next major release as
its upper bound."""

from __future__ import annotations

import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]
#: What builds the package: pip installs it in a build environment of its
#: own, not here, so no release of it installed here says what was tested.
BUILD = [Requirement(line) for line in PYPROJECT["build-system"]["requires"]]
REQUIREMENTS = [Requirement(line) for line in
                [*PROJECT["dependencies"], *PROJECT["optional-dependencies"]["test"]]]
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
    try:
        installed = version(requirement.name)
    except PackageNotFoundError:
        pytest.fail(f"{requirement.name} is not installed: run the set-up")
    assert requirement.specifier.contains(installed, prereleases=True), (
        f"{requirement.name} {installed} is installed, outside {requirement.specifier}: "
        "the suite would check another range than pyproject.toml states")
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
