"""scripts/setup.sh and scripts/start.sh as a player runs them: a set-up
done already says nothing and installs nothing; one that must install
says so first, a line on standard error.

The environment is one of the test's own (``COMPANION_VENV``): its
``python`` is this interpreter, except that ``python -m pip`` only notes
that it ran (the project is installed in this interpreter already), and
its ``companion`` only says that it started."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PYTHON = f"""#!/bin/sh
if [ "$1 $2" = "-m pip" ]; then echo "$@" >> "${{0%/*}}/../pip-runs"; exit 0; fi
exec {sys.executable} "$@"
"""
COMPANION = '#!/bin/sh\necho "the app started with $*"\n'


def venv(tmp: Path) -> Path:
    folder = tmp / "venv"
    (folder / "bin").mkdir(parents=True)
    for name, script in (("python", PYTHON), ("companion", COMPANION)):
        program = folder / "bin" / name
        program.write_text(script)
        program.chmod(0o755)
    return folder


def run(folder: Path, script: str, *args: str, extras: str = "",
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COMPANION_VENV": str(folder), "SYSTEM_PACKAGES": "", "EXTRAS": extras,
           **(env or {})}
    command = ["bash", "-c", 'source scripts/setup.sh'] if script == "setup" else [
        "bash", f"scripts/{script}.sh", *args]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300, check=False)


def pip_runs(folder: Path) -> int:
    runs = folder / "pip-runs"
    return len(runs.read_text().splitlines()) if runs.exists() else 0


def test_a_set_up_done_already_says_nothing_and_installs_nothing(tmp_path: Path) -> None:
    folder = venv(tmp_path)
    first = run(folder, "setup")
    assert first.returncode == 0, first.stderr
    assert first.stderr == "Updating the Python packages; this takes a minute.\n"
    assert pip_runs(folder) == 1
    again = run(folder, "setup")
    assert (again.returncode, again.stderr, pip_runs(folder)) == (0, "", 1)
    with_tests = run(folder, "setup", extras="test")  # other extras: installed, and said
    assert with_tests.stderr == "Updating the Python packages; this takes a minute.\n"
    assert pip_runs(folder) == 2
    assert run(folder, "setup").stderr == "" and pip_runs(folder) == 2


def test_constraints_are_given_to_pip_and_a_change_in_them_installs_again(
        tmp_path: Path) -> None:
    folder = venv(tmp_path)
    pins = tmp_path / "lowest.txt"
    pins.write_text("textual==8.2.5\n")
    env = {"CONSTRAINTS": str(pins)}
    assert run(folder, "setup", extras="test", env=env).returncode == 0
    assert f"--constraint {pins} --editable .[test]" in (folder / "pip-runs").read_text()
    assert run(folder, "setup", extras="test", env=env).stderr == ""
    pins.write_text("textual==8.2.6\n")
    assert "Updating" in run(folder, "setup", extras="test", env=env).stderr
    assert pip_runs(folder) == 2


def test_a_failed_install_is_tried_again_at_the_next_start(tmp_path: Path) -> None:
    folder = venv(tmp_path)
    failing = folder / "bin" / "python"
    failing.write_text(PYTHON.replace("exit 0", "echo 'no network' >&2; exit 1"))
    done = run(folder, "setup")
    assert done.returncode == 1
    assert done.stderr.splitlines()[-2:] == [
        "no network", "Installing the Python packages failed (log above)."]
    failing.write_text(PYTHON)
    done = run(folder, "setup")
    assert done.returncode == 0 and "Updating the Python packages" in done.stderr


@pytest.mark.system  # start.sh finds its Debian packages there, and installs none
def test_start_sets_up_then_starts_the_app_and_next_time_only_starts_it(tmp_path: Path) -> None:
    missing = [p for p in ("espeak-ng", "lou_translate") if shutil.which(p) is None]
    assert not missing, f"start.sh would install {missing}: scripts/test.sh installs them"
    folder = venv(tmp_path)
    first = run(folder, "start", "codes", "--lang", "fr")
    assert first.returncode == 0, first.stderr
    assert first.stdout == "the app started with codes --lang fr\n"
    assert "Python packages" in first.stderr
    again = run(folder, "start", "--plain")
    assert (again.returncode, again.stdout, again.stderr) == (
        0, "the app started with --plain\n", "")
