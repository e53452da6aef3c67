"""The lowest releases pyproject.toml allows, as pip constraints.

``python -m devtools.lowest`` prints one ``name==version`` line for each
dependency of the app and of the test extra: the version of its ``>=``
bound, the oldest release the project says it works with. scripts/test.sh
installs a second environment under these constraints and runs the fast
tests in it, so a lower bound that no longer holds fails the suite.

>>> lowest(["textual>=8.2.5,<8.3", "pywin32>=306,<400; sys_platform == 'win32'"])
['textual==8.2.5', 'pywin32==306; sys_platform == "win32"']
"""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Iterable
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]


def requirements(pyproject: Path = ROOT / "pyproject.toml") -> list[str]:
    """The app's dependencies, then the test extra's, as written."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    return [*project["dependencies"], *project["optional-dependencies"]["test"]]


def lowest(lines: Iterable[str]) -> list[str]:
    """A ``name==version`` constraint for the ``>=`` bound of each requirement."""
    pins = []
    for line in lines:
        requirement = Requirement(line)
        lower = [spec.version for spec in requirement.specifier if spec.operator == ">="]
        if len(lower) != 1:
            raise ValueError(f"{line}: no single lower bound (>=) to install")
        marker = f"; {requirement.marker}" if requirement.marker else ""
        pins.append(f"{requirement.name}=={lower[0]}{marker}")
    return pins


def main() -> int:
    sys.stdout.write("".join(f"{pin}\n" for pin in lowest(requirements())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
