"""devtools/lowest.py: the lowest tier's constraints, one for each
dependency pyproject.toml declares, at its lower bound."""

from __future__ import annotations

import subprocess
import sys

import pytest
from packaging.requirements import Requirement

from devtools.lowest import ROOT, lowest, requirements


def test_each_dependency_gets_its_lower_bound_as_a_pin() -> None:
    printed = subprocess.run([sys.executable, "-m", "devtools.lowest"], cwd=ROOT,
                             capture_output=True, text=True, timeout=60, check=True).stdout
    pins = [Requirement(line) for line in printed.splitlines()]
    names = [Requirement(line).name for line in requirements()]
    assert [pin.name for pin in pins] == names and "textual" in names and "pytest" in names
    for pin, line in zip(pins, requirements(), strict=True):
        (spec,) = pin.specifier
        assert spec.operator == "==" and Requirement(line).specifier.contains(spec.version)


def test_a_dependency_without_a_lower_bound_is_refused() -> None:
    with pytest.raises(ValueError, match="no single lower bound"):
        lowest(["textual<9"])
