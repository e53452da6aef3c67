"""``companion doctor``: what the app can use on this machine, what is
missing, and the command that installs each missing part.

Each check is a :class:`Finding`: the part, what it is for, whether it is
here, what was found (the voices' languages, the font, the ports), and how
to get it (:mod:`companion.parts`: the command for this system, or for the
one asked). The report puts what is missing first, a line each, key facts
first: a braille display shows the start of a line. Every check is bounded
(a program asked answers within seconds or counts as missing) and starts
nothing that outlives it.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path

from companion.i18n import LANGUAGES, Catalog
from companion.parts import PARTS, SYSTEM_NAMES, SYSTEMS, how_to_get, systems_here

#: The web face's packages: dependencies of the app, missing only from a
#: broken install.
WEB_PACKAGES = ("starlette", "uvicorn", "jinja2", "segno")
#: How a damaged install is mended.
REINSTALL = "pip install --force-reinstall tactile-companion"
#: Where the wheel puts the guides, under the environment's data folder.
GUIDES = Path("share", "doc", "tactile-companion")
#: The guides of a source checkout (an editable install installs none).
SOURCE_GUIDES = Path(__file__).resolve().parents[1] / "docs"
#: Ports listed at most.
PORTS_SHOWN = 5


@dataclass(frozen=True, slots=True)
class Finding:
    """One check: ``name`` and ``purpose`` as a player reads them, whether
    the part is ``present``, what was found (``detail``, a sentence), and
    what installs it (``install``: a sentence, ``""`` when nothing does)."""

    part: str
    name: str
    purpose: str
    present: bool
    detail: str
    install: str = ""


@dataclass(frozen=True, slots=True)
class Machine:
    """What the checks ask of this machine, so a test can ask another."""

    platform: str = sys.platform
    #: The text of /etc/os-release (read when ``None``).
    os_release: str | None = None
    which: Callable[[str], str | None] = shutil.which


def _languages(words: Catalog, found: Sequence[str]) -> str:
    lacking = [language for language in sorted(LANGUAGES) if language not in found]
    if not found:
        return words.text("no voice for %(languages)s", languages=", ".join(lacking))
    if not lacking:
        return words.text("voices for %(languages)s", languages=", ".join(found))
    return words.text("voices for %(found)s; none for %(lacking)s",
                      found=", ".join(found), lacking=", ".join(lacking))


class Doctor:
    """The checks, in the player's language, with the install commands of
    ``for_system`` (one of :data:`~companion.parts.SYSTEMS`, ``"all"``, or
    ``None``: this machine's)."""

    def __init__(self, words: Catalog, for_system: str | None = None,
                 machine: Machine | None = None) -> None:
        self.words = words
        self.machine = machine or Machine()
        self.systems: tuple[str, ...] = (
            SYSTEMS if for_system == "all" else (for_system,) if for_system
            else systems_here(self.machine.platform, self.machine.os_release))

    def install(self, part: str) -> str:
        """The sentence that says how to install ``part`` on the systems asked."""
        return how_to_get(part, self.words, self.systems)

    def _found(self, part: str, present: bool, detail: str, name: str = "") -> Finding:
        """A finding of one of :data:`~companion.parts.PARTS`: its purpose,
        and what installs it when it is missing."""
        return Finding(part, name or part, self.words.text(PARTS[part].purpose), present, detail,
                       "" if present else self.install(part))

    def _reinstall(self) -> str:
        """What mends a part the app's own install should have brought."""
        return self.words.text("To install it: %(command)s", command=REINSTALL)

    def findings(self) -> list[Finding]:
        """Every check, speech first."""
        linux = self.machine.platform.startswith("linux")
        return [*self.speech(linux), self.liblouis(), self.font(), self.braille_display(linux),
                self.ports(), self.web(), self.guides()]

    # -- speech ----------------------------------------------------------------------------

    def speech(self, linux: bool) -> list[Finding]:
        from voices.backends import (  # noqa: PLC0415 - only when asked
            dispatcher_modules,
            espeak_languages,
            pyttsx3_languages,
        )

        words, mine = self.words, self.words.language
        checks: list[Finding] = []
        if linux:
            modules = dispatcher_modules() if self.machine.which("speech-dispatcher") else None
            checks.append(self._found(
                "speech-dispatcher", bool(modules),
                words.text("not installed") if modules is None else
                words.text("no speaking module") if not modules else
                words.text("modules: %(modules)s", modules=", ".join(modules))))
            program = self.machine.which("espeak-ng")
            languages = espeak_languages(program) if program else None
            checks.append(self._found(
                "espeak-ng", languages is not None and mine in languages,
                words.text("not installed") if languages is None
                else _languages(words, languages)))
        if self.machine.platform == "win32":
            checks.append(self.screen_reader())
        languages = pyttsx3_languages()
        checks.append(self._found(
            "pyttsx3", languages is not None and mine in languages,
            words.text("does not start here") if languages is None
            else _languages(words, languages)))
        return checks

    def screen_reader(self) -> Finding:
        from voices import screen_reader  # noqa: PLC0415 - only when asked

        words = self.words
        purpose = words.text("speech through NVDA or JAWS")
        if not screen_reader.installed():
            return Finding("screen-reader", "accessible_output2", purpose, False,
                           words.text("not installed"), self._reinstall())
        running = [str(output.name) for output in screen_reader.running_outputs()]
        return Finding("screen-reader", "accessible_output2", purpose, True,
                       words.text("%(readers)s running", readers=", ".join(running)) if running
                       else words.text("no screen reader running now"))

    # -- the kit ---------------------------------------------------------------------------

    def liblouis(self) -> Finding:
        from companion.kit import braille  # noqa: PLC0415 - only when asked

        words = self.words
        if self.machine.which("lou_translate") is None:
            return self._found("liblouis", False, words.text("not installed"))
        tables = []
        for language in sorted(braille.TABLES):
            try:
                braille.translate(["a"], language)
            except braille.BrailleError:
                continue
            tables.append(language)
        lacking = sorted(set(braille.TABLES) - set(tables))
        detail = (words.text("tables for %(languages)s", languages=", ".join(tables))
                  if not lacking else
                  words.text("no table for %(languages)s", languages=", ".join(lacking)))
        return self._found("liblouis", self.words.language in tables, detail)

    def font(self) -> Finding:
        from companion.kit import pdf  # noqa: PLC0415 - only when asked

        try:
            name = pdf.find_font().name
        except pdf.FontError:
            return self._found("font", False,
                               self.words.text("no TrueType font such as DejaVu Sans"),
                               self.words.text("Font"))
        return self._found("font", True, name, self.words.text("Font"))

    # -- braille display, scanner, web -----------------------------------------------------

    def braille_display(self, linux: bool) -> Finding:
        words = self.words
        if not linux:  # NVDA, JAWS and VoiceOver drive braille displays themselves
            reader = (words.text("through NVDA or JAWS") if self.machine.platform == "win32"
                      else words.text("through VoiceOver"))
            return Finding("brltty", words.text("Braille display"),
                           words.text("reading in braille"), True, reader)
        if self.machine.which("brltty") is None:
            return self._found("brltty", False, words.text("not installed"), "BRLTTY")
        return self._found("brltty", True, words.text("running") if _running("brltty")
                           else words.text("installed, not running now"), "BRLTTY")

    def ports(self) -> Finding:
        from serial.tools import list_ports  # noqa: PLC0415 - only when asked

        words = self.words
        try:
            devices = sorted(str(port.device) for port in list_ports.comports())
        except OSError:
            devices = []
        name, purpose = words.text("Serial ports"), words.text("the NFC scanner")
        if not devices:
            return Finding("ports", name, purpose, False,
                           words.text("none: plug the scanner in, or type the codes"))
        closed = [device for device in devices if not _usable(device)]
        detail = ", ".join(devices[:PORTS_SHOWN]) + (", …" if len(devices) > PORTS_SHOWN else "")
        if closed:
            return Finding("ports", name, purpose, False,
                           words.text("%(ports)s; not allowed to open %(closed)s",
                                      ports=detail, closed=", ".join(closed[:PORTS_SHOWN])),
                           words.text("Add yourself to the port's group: sudo usermod -aG "
                                      "%(group)s $USER, then log in again.",
                                      group=_group(closed[0])))
        return Finding("ports", name, purpose, True, detail)

    def web(self) -> Finding:
        words = self.words
        versions, lacking = [], []
        for package in WEB_PACKAGES:
            try:
                versions.append(f"{package} {metadata.version(package)}")
            except metadata.PackageNotFoundError:
                lacking.append(package)
        purpose = words.text("phones and browsers")
        if lacking:
            return Finding("web", words.text("Web face"), purpose, False,
                           words.text("%(packages)s missing", packages=", ".join(lacking)),
                           self._reinstall())
        return Finding("web", words.text("Web face"), purpose, True, ", ".join(versions))

    def guides(self) -> Finding:
        words = self.words
        purpose = words.text("reading how to use the app")
        for folder in (Path(sysconfig.get_path("data")) / GUIDES, SOURCE_GUIDES):
            if (folder / "user-guide.md").is_file():
                return Finding("guides", words.text("Guides"), purpose, True, str(folder))
        return Finding("guides", words.text("Guides"), purpose, False,
                       words.text("not installed"), self._reinstall())


def _running(program: str) -> bool:
    """Whether a process of ``program`` runs (Linux's /proc)."""
    for comm in Path("/proc").glob("[0-9]*/comm"):
        try:
            if comm.read_text(encoding="utf-8", errors="replace").strip() == program:
                return True
        except OSError:
            continue
    return False


def _usable(device: str) -> bool:
    return os.access(device, os.R_OK | os.W_OK) if Path(device).exists() else True


def _group(device: str) -> str:
    """The group that owns ``device`` (dialout on Debian and Fedora, uucp on Arch)."""
    try:
        import grp  # noqa: PLC0415 - POSIX only

        return grp.getgrgid(Path(device).stat().st_gid).gr_name
    except (ImportError, OSError, KeyError):
        return "dialout"


def report(findings: Sequence[Finding], words: Catalog, systems: Sequence[str],
           platform: str = sys.platform) -> list[str]:
    """The lines ``companion doctor`` prints: a summary, then what is
    missing with how to get it, then what is present."""
    missing = [finding for finding in findings if not finding.present]
    present = [finding for finding in findings if finding.present]
    where = {"win32": "Windows", "darwin": "macOS"}.get(platform, "Linux")
    named = ", ".join(words.text(SYSTEM_NAMES[system]) for system in systems)
    lines = [words.text(  # counts as figures beside a word: no plural to choose
        "%(missing)d missing, %(present)d present, on %(system)s; install commands for "
        "%(named)s.", missing=len(missing), present=len(present), system=where, named=named)]
    for finding in missing:
        line = words.text("Missing: %(name)s, for %(purpose)s: %(detail)s.",
                          name=finding.name, purpose=finding.purpose, detail=finding.detail)
        lines.append(f"{line} {finding.install}".rstrip())
    lines.extend(words.text("Present: %(name)s, for %(purpose)s: %(detail)s.",
                            name=finding.name, purpose=finding.purpose, detail=finding.detail)
                 for finding in present)
    return lines


def to_json(findings: Sequence[Finding]) -> list[dict[str, object]]:
    return [asdict(finding) for finding in findings]
