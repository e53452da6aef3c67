"""``companion doctor``, the real command in a subprocess: what is missing
comes first, a line each, with the command that installs it on the system
asked, in the player's language; what this machine has (the suite installs
every part) is found, each speech engine with its voices' languages."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.doctor import Doctor, Machine, report
from companion.i18n import LANGUAGES, Catalog
from companion.parts import PARTS, SYSTEMS, how_to_get, system_of
from voices import backends

MODULE = [sys.executable, "-m", "companion"]
#: The parts found by a program on PATH.
PROGRAMS = ("speech-dispatcher", "espeak-ng", "liblouis", "brltty")


def doctor(*args: str, path: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items()
           if key not in {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"}}
    env.update(LANG="C.UTF-8", PYTHONIOENCODING="utf-8")
    if path is not None:
        env["PATH"] = path
    return subprocess.run([*MODULE, *args], capture_output=True, text=True, encoding="utf-8",
                          timeout=120, env=env, check=False)


def test_with_no_program_on_path_each_is_missing_first_with_its_command(tmp_path: Path) -> None:
    done = doctor("doctor", "--for", "fedora", path=str(tmp_path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    missing = [line for line in lines if line.startswith("Missing: ")]
    assert lines[1:1 + len(missing)] == missing  # missing first, after the summary
    assert lines[0].startswith(f"{len(missing)} missing, {len(lines) - 1 - len(missing)} "
                               "present, on Linux; install commands for Fedora.")
    for part in PROGRAMS:
        (line,) = [line for line in missing if line.startswith(f"Missing: {part}, ")
                   or (part == "brltty" and line.startswith("Missing: BRLTTY, "))]
        assert line.endswith(f"not installed. To install it: {PARTS[part].install['fedora']}")


def test_the_report_speaks_the_player_s_language_and_names_every_system(
        tmp_path: Path) -> None:
    done = doctor("--lang", "ru", "doctor", "--for", "all", path=str(tmp_path))
    assert done.returncode == 0, done.stderr
    russian = Catalog.for_language("ru")
    (liblouis,) = [line for line in done.stdout.splitlines() if "liblouis," in line]
    assert liblouis.startswith(russian.text(
        "Missing: %(name)s, for %(purpose)s: %(detail)s.", name="liblouis",
        purpose=russian.text(PARTS["liblouis"].purpose), detail=russian.text("not installed")))
    assert liblouis.startswith("Нет: liblouis, для ")
    for system in SYSTEMS:
        assert russian.text("%(system)s: %(command)s", system=russian.text(
            {"debian": "Debian and Ubuntu", "fedora": "Fedora", "arch": "Arch Linux",
             "macos": "macOS (Homebrew)", "windows": "Windows"}[system]),
            command=PARTS["liblouis"].install[system] if system != "windows"
            else russian.text(PARTS["liblouis"].install[system])) in liblouis
    assert "скачайте liblouis для Windows" in liblouis


def test_the_json_holds_every_finding(tmp_path: Path) -> None:
    done = doctor("doctor", "--json", "--for", "debian", path=str(tmp_path))
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["systems"] == ["debian"]
    parts = {finding["part"]: finding for finding in found["findings"]}
    assert set(parts) == {"speech-dispatcher", "espeak-ng", "pyttsx3", "liblouis", "font",
                          "brltty", "ports", "web", "guides"}
    assert parts["liblouis"]["present"] is False
    assert parts["liblouis"]["install"] == "To install it: sudo apt install liblouis-bin " \
                                           "liblouis-data"
    assert parts["web"]["present"] is True and "starlette" in parts["web"]["detail"]


def test_a_bad_system_is_refused_by_name() -> None:
    done = doctor("doctor", "--for", "beos")
    assert done.returncode == 2 and "beos" in done.stderr and "fedora" in done.stderr


def test_another_system_s_checks_are_its_own() -> None:
    """On Windows and macOS no speech-dispatcher, espeak-ng or BRLTTY is
    looked for: the screen reader drives the braille display."""
    words = Catalog.for_language("en")
    for platform, reader in (("win32", "through NVDA or JAWS"), ("darwin", "through VoiceOver")):
        checks = Doctor(words, machine=Machine(platform=platform, which=lambda name: None))
        findings = {finding.part: finding for finding in checks.findings()}
        assert "speech-dispatcher" not in findings and "espeak-ng" not in findings
        assert findings["brltty"].present and findings["brltty"].detail == reader
        assert not findings["liblouis"].present
        assert checks.systems == (system_of(platform),)
        assert ("screen-reader" in findings) == (platform == "win32")  # NVDA or JAWS
        lines = report(list(findings.values()), words, checks.systems, platform)
        (liblouis,) = [line for line in lines if line.startswith("Missing: liblouis, ")]
        assert liblouis.endswith(how_to_get("liblouis", words, checks.systems))


def test_a_linux_it_does_not_know_gets_every_linux_command() -> None:
    assert system_of("linux", 'ID="gentoo"\n') is None
    assert system_of("linux", "ID=fedora\n") == "fedora"
    assert system_of("linux", "ID=endeavouros\nID_LIKE=arch\n") == "arch"
    words = Catalog.for_language("en")
    unknown = Doctor(words, machine=Machine(platform="linux", os_release='ID="gentoo"\n',
                                            which=lambda name: None))
    assert unknown.systems == ("debian", "fedora", "arch")
    brltty = {finding.part: finding for finding in unknown.findings()}["brltty"]
    assert brltty.install == ("To install it: Debian and Ubuntu: sudo apt install brltty; "
                              "Fedora: sudo dnf install brltty; Arch Linux: sudo pacman -S "
                              "brltty")


def test_espeak_that_does_not_answer_counts_as_missing(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    stuck = tmp_path / "espeak-ng"
    stuck.write_text("#!/bin/sh\nexec sleep 30\n")
    stuck.chmod(0o755)
    monkeypatch.setattr(backends, "LISTING_WITHIN", 0.5)
    assert backends.espeak_languages(str(stuck)) is None
    failing = tmp_path / "failing"
    failing.write_text("#!/bin/sh\nexit 3\n")
    failing.chmod(0o755)
    assert backends.espeak_languages(str(failing)) is None


@pytest.mark.system
def test_this_machine_has_every_part_the_suite_installs() -> None:
    done = doctor("doctor", "--json")
    assert done.returncode == 0, done.stderr
    found = {finding["part"]: finding for finding in json.loads(done.stdout)["findings"]}
    every = ", ".join(sorted(LANGUAGES))
    assert found["espeak-ng"]["detail"] == f"voices for {every}"
    assert found["pyttsx3"]["detail"] == f"voices for {every}"
    assert found["liblouis"]["detail"] == f"tables for {every}"
    assert "espeak-ng" in found["speech-dispatcher"]["detail"]
    assert found["font"]["present"] and found["brltty"]["present"]
    for part in ("speech-dispatcher", "espeak-ng", "pyttsx3", "liblouis", "font", "web"):
        assert found[part]["present"] and found[part]["install"] == "", part
