"""What the app uses beyond Python, and how each system installs it.

Speech engines, liblouis for braille, a font for the kit's PDFs, BRLTTY
for a braille display: each is a :class:`Part`, with the command (or, where
a system has no package manager for it, the steps) that installs it on
Debian and Ubuntu, Fedora, Arch, macOS (Homebrew) and Windows. ``companion
doctor`` lists them; a feature that lacks one says which command gets it
(:func:`how_to_get`).

>>> system_of("linux", "ID=ubuntu\\nID_LIKE=debian\\n"), system_of("win32", "")
('debian', 'windows')
>>> PARTS["liblouis"].install["fedora"]
'sudo dnf install liblouis-utils'
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from companion.i18n import N_, Catalog
from firmware_bridge.files import read_limited

#: The systems the install commands are for, in the order they are listed.
SYSTEMS = ("debian", "fedora", "arch", "macos", "windows")
#: Each system's name, as a player reads it.
SYSTEM_NAMES = {
    "debian": N_("Debian and Ubuntu"),
    "fedora": N_("Fedora"),
    "arch": N_("Arch Linux"),
    "macos": N_("macOS (Homebrew)"),
    "windows": N_("Windows"),
}
#: Where a Linux system says what it is.
OS_RELEASE = Path("/etc/os-release")
#: The most of it read (it is a few hundred bytes).
OS_RELEASE_LIMIT = 64 << 10


@dataclass(frozen=True, slots=True)
class Part:
    """Something the app uses that Python's packages do not bring."""

    name: str
    #: What it is for, as a player reads it (a catalog message).
    purpose: str
    #: The command (or steps, a catalog message) that installs it, by system;
    #: a system that needs nothing of it (its own voices, its own braille)
    #: is left out.
    install: dict[str, str] = field(default_factory=dict)


#: Steps that are words, not a command: translated when shown.
ESPEAK_FOR_WINDOWS = N_(
    "download the installer from https://github.com/espeak-ng/espeak-ng/releases")
LIBLOUIS_FOR_WINDOWS = N_(
    "download liblouis for Windows from https://github.com/liblouis/liblouis/releases, "
    "unpack it and add its bin folder to PATH")
WINDOWS_VOICES = N_("add voices in Settings, Time and language, Speech")
MACOS_VOICES = N_("add voices in System Settings, Accessibility, Spoken Content, System voice")
STEPS = frozenset({ESPEAK_FOR_WINDOWS, LIBLOUIS_FOR_WINDOWS, WINDOWS_VOICES, MACOS_VOICES})

PARTS: dict[str, Part] = {part.name: part for part in (
    Part("speech-dispatcher", N_("speech, shared with Orca and Fenrir"), {
        "debian": "sudo apt install speech-dispatcher speech-dispatcher-espeak-ng",
        "fedora": "sudo dnf install speech-dispatcher speech-dispatcher-espeak-ng",
        "arch": "sudo pacman -S speech-dispatcher espeak-ng",
    }),
    Part("espeak-ng", N_("speech"), {
        "debian": "sudo apt install espeak-ng",
        "fedora": "sudo dnf install espeak-ng",
        "arch": "sudo pacman -S espeak-ng",
        "macos": "brew install espeak-ng",
        "windows": ESPEAK_FOR_WINDOWS,
    }),
    Part("pyttsx3", N_("speech through the system's voices"), {
        "debian": "sudo apt install libespeak-ng1 alsa-utils",
        "fedora": "sudo dnf install espeak-ng alsa-utils",
        "arch": "sudo pacman -S espeak-ng alsa-utils",
        "macos": MACOS_VOICES,
        "windows": WINDOWS_VOICES,
    }),
    Part("liblouis", N_("the kit's braille labels"), {
        "debian": "sudo apt install liblouis-bin liblouis-data",
        "fedora": "sudo dnf install liblouis-utils",
        "arch": "sudo pacman -S liblouis",
        "macos": "brew install liblouis",
        "windows": LIBLOUIS_FOR_WINDOWS,
    }),
    Part("font", N_("the text of the kit's PDFs"), {
        "debian": "sudo apt install fonts-dejavu-core",
        "fedora": "sudo dnf install dejavu-sans-fonts",
        "arch": "sudo pacman -S ttf-dejavu",
        "macos": "brew install --cask font-dejavu",
    }),
    Part("brltty", N_("a braille display"), {
        "debian": "sudo apt install brltty",
        "fedora": "sudo dnf install brltty",
        "arch": "sudo pacman -S brltty",
    }),
)}


def system_of(platform: str = sys.platform, os_release: str | None = None) -> str | None:
    """The system the install commands are for: one of :data:`SYSTEMS`, or
    ``None`` for a Linux this does not know (all three Linux ones apply).
    ``os_release``: the text of /etc/os-release (read when not given)."""
    if platform == "win32":
        return "windows"
    if platform == "darwin":
        return "macos"
    if os_release is None:
        try:
            # a file, not a pipe; a few lines, not megabytes
            os_release = read_limited(OS_RELEASE, OS_RELEASE_LIMIT).decode("utf-8", "replace")
        except OSError:
            os_release = ""
    names: set[str] = set()
    for value in re.findall(r"^(?:ID|ID_LIKE)=(.*)$", os_release, re.MULTILINE):
        names.update(value.strip().strip("\"'").split())
    for system, known in (("debian", {"debian", "ubuntu"}),
                          ("fedora", {"fedora", "rhel", "centos"}),
                          ("arch", {"arch", "archlinux", "manjaro"})):
        if names & known:
            return system
    return None


#: The Linux systems, all of whose commands a Linux this does not know is given.
LINUXES = ("debian", "fedora", "arch")


def systems_here(platform: str = sys.platform, os_release: str | None = None) -> tuple[str, ...]:
    """The systems whose install commands apply here: this one, or every
    Linux's on a Linux :func:`system_of` does not know."""
    system = system_of(platform, os_release)
    return (system,) if system else LINUXES


def install_command(part: Part, system: str, words: Catalog) -> str:
    """What installs ``part`` on ``system``, in ``words``' language; ``""``
    when that system needs nothing of it."""
    command = part.install.get(system, "")
    return words.text(command) if command in STEPS else command


def how_to_get(name: str, words: Catalog, systems: tuple[str, ...] | None = None) -> str:
    """A sentence: how to install the part ``name`` on ``systems`` (default:
    :func:`systems_here`), for a message that says it is missing; ``""``
    when none of them needs it. Each system is named when there are several.

    >>> words = Catalog.for_language("en")
    >>> how_to_get("liblouis", words, ("arch",))
    'To install it: sudo pacman -S liblouis'
    >>> how_to_get("brltty", words, ("fedora", "macos"))
    'To install it: Fedora: sudo dnf install brltty'
    >>> how_to_get("brltty", words, ("windows",))
    ''
    """
    part = PARTS[name]
    chosen = systems_here() if systems is None else systems
    commands = [(system, install_command(part, system, words)) for system in chosen]
    commands = [(system, command) for system, command in commands if command]
    if not commands:
        return ""
    if len(chosen) == 1:
        return words.text("To install it: %(command)s", command=commands[0][1])
    return words.text("To install it: %(command)s", command="; ".join(
        words.text("%(system)s: %(command)s", system=words.text(SYSTEM_NAMES[system]),
                   command=command) for system, command in commands))
