"""The player's settings, kept as TOML in the user's config folder.

``COMPANION_CONFIG_DIR`` overrides the folder (for tests and portable set-ups).

A settings file that cannot be used whole never stops the app
(:func:`load_settings`): every setting that is right is kept, the others
take their defaults, the file is kept as ``settings.toml.damaged-<time>``
and the mended settings written in its place; the app says so once
(:data:`~companion.notices.Notice.SETTINGS_DAMAGED`).

>>> text = Settings(language="cs", speech="none").to_toml()
>>> Settings.from_toml(text).language
'cs'
"""

from __future__ import annotations

import contextlib
import os
import time
import tomllib
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

import platformdirs

from companion.i18n import LANGUAGES
from companion.notices import Notice, tell
from firmware_bridge.files import (
    APP_NAME,
    SMALL_FILE_LIMIT,
    make_private_folder,
    read_limited,
    sweep_temporaries,
    write_atomically,
)

SPEECH_CHOICES = ("auto", "none", "speech-dispatcher", "espeak-ng", "pyttsx3", "screen-reader")
VERBOSITY_CHOICES = ("terse", "normal", "verbose")
#: The voice's settings and their ranges.
VOICE_RANGES = {"rate": (80, 450), "pitch": (0, 100), "volume": (0, 100)}
#: The longest scanner port kept (a path).
SCANNER_LIMIT = 4096
#: The longest game name kept.
GAME_LIMIT = 40
#: The game of new settings, of commands given no ``--game``, and of journals
#: and tag files written before there was more than one game. It is defined
#: here, below the games' layer, and the registry (:mod:`companion.games`)
#: hands it on.
DEFAULT_GAME = "sushigo"
#: What is wrong with a settings file nested deeper than tomllib can read.
TOO_DEEP = "the settings file is nested too deeply to be settings"


#: The environment variable that chooses the speech of a run, over the settings
#: (``companion --speech`` sets it).
SPEECH_VARIABLE = "COMPANION_SPEECH"


def speech_for_run(environ: Mapping[str, str] = os.environ) -> str | None:
    """The speech chosen for this run (``COMPANION_SPEECH``), if one is.

    >>> speech_for_run({"COMPANION_SPEECH": "none"}), speech_for_run({})
    ('none', None)
    >>> speech_for_run({"COMPANION_SPEECH": "loud"}) is None  # not a choice: the settings'
    True
    """
    chosen = environ.get(SPEECH_VARIABLE, "").strip()
    return chosen if chosen in SPEECH_CHOICES else None


class SettingsError(ValueError):
    """A settings file that cannot be used, and why."""


@dataclass
class Settings:
    """``speech``: ``auto`` picks the first backend that works, ``none`` leaves
    speaking to the screen reader. ``speak_echoes``: speak routine echoes too
    (off when a screen reader already reads them). ``scanner``: the NFC
    scanner to listen to: empty for none, ``auto`` to find it, ``virtual``
    for ``firmware-bridge simulate``'s, or a port such as ``/dev/ttyACM0``.
    ``game``: the game played (another installed game is asked for only
    where this one does not offer the journey)."""

    language: str = "en"
    speech: str = "auto"
    verbosity: str = "normal"
    speak_echoes: bool = True
    rate: int = 175
    pitch: int = 50
    volume: int = 100
    scanner: str = ""
    #: The game the journeys play, as the registry names it.
    game: str = DEFAULT_GAME

    def check(self) -> Settings:
        if self.language not in LANGUAGES:
            raise SettingsError(f"language must be one of {', '.join(LANGUAGES)}")
        if self.speech not in SPEECH_CHOICES:
            raise SettingsError(f"speech must be one of {', '.join(SPEECH_CHOICES)}")
        if self.verbosity not in VERBOSITY_CHOICES:
            raise SettingsError(f"verbosity must be one of {', '.join(VERBOSITY_CHOICES)}")
        if not isinstance(self.speak_echoes, bool):
            raise SettingsError("speak_echoes must be true or false")
        if not isinstance(self.scanner, str) or len(self.scanner) > SCANNER_LIMIT:
            raise SettingsError("scanner must be text: auto, virtual, or a port")
        if not isinstance(self.game, str) or not 0 < len(self.game) <= GAME_LIMIT:
            raise SettingsError("game must be a game's name, such as sushigo or mici-maki")
        for name, (low, high) in VOICE_RANGES.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise SettingsError(f"{name} must be a whole number from {low} to {high}")
        return self

    def with_value(self, name: str, value: int) -> Settings:
        """A copy with one of the voice's numbers changed (``rate``, ``pitch``,
        ``volume``), checked.

        >>> Settings().with_value("pitch", 60).pitch
        60
        """
        if name == "rate":
            return replace(self, rate=value).check()
        if name == "pitch":
            return replace(self, pitch=value).check()
        if name == "volume":
            return replace(self, volume=value).check()
        raise SettingsError(f"{name} is not a number of the voice")

    def to_toml(self) -> str:
        lines = ["# Tactile companion settings", ""]
        for key, value in asdict(self).items():
            if isinstance(value, bool):
                shown = "true" if value else "false"
            elif isinstance(value, int):
                shown = str(value)
            else:
                shown = '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'
            lines.append(f"{key} = {shown}")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_toml(cls, text: str) -> Settings:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise SettingsError(f"the settings file is not valid TOML: {error}") from None
        except RecursionError:
            raise SettingsError(TOO_DEEP) from None
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise SettingsError(f"unknown setting {unknown[0]!r}")
        return cls(**data).check()

    @classmethod
    def salvage(cls, raw: bytes | None, base: Settings | None = None) -> tuple[Settings, list[str]]:
        """Settings from a file's bytes (``None``: unreadable), whatever they
        hold: each setting that is right is kept, every other one is
        ``base``'s (the defaults'); and what was wrong.

        >>> settings, wrong = Settings.salvage(b'language = "fr"\\nrate = "fast"\\nfoo = 1\\n')
        >>> settings.language, settings.rate, wrong
        ('fr', 175, ['rate must be a whole number from 80 to 450', "unknown setting 'foo'"])
        >>> Settings.salvage(b"\\xff")[1]
        ['the settings file is not UTF-8']
        """
        settings = base or cls()
        if raw is None:
            return settings, ["the settings file cannot be read"]
        try:
            data: dict[str, Any] = tomllib.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:
            return settings, ["the settings file is not UTF-8"]
        except tomllib.TOMLDecodeError as error:
            return settings, [f"the settings file is not valid TOML: {error}"]
        except RecursionError:  # tomllib recurses once a level: [[[[...]]]]
            return settings, [TOO_DEEP]
        wrong = []
        known = {f.name for f in fields(cls)}
        for key, value in data.items():
            if key not in known:
                wrong.append(f"unknown setting {key!r}")
                continue
            try:
                settings = replace(settings, **{key: value}).check()
            except SettingsError as error:
                wrong.append(str(error))
        return settings, wrong


def config_dir() -> Path:
    override = os.environ.get("COMPANION_CONFIG_DIR")
    return Path(override) if override else Path(platformdirs.user_config_dir(APP_NAME))


def settings_path() -> Path:
    return config_dir() / "settings.toml"


def load_settings() -> Settings | None:
    """The saved settings, or ``None`` on a first start. Never fails: a file
    that cannot be used whole is mended (see the module's docstring)."""
    path = settings_path()
    with contextlib.suppress(OSError):
        sweep_temporaries(path.parent)
    try:
        if not (path.exists() or path.is_symlink()):
            return None
    except OSError:
        pass  # a folder that cannot be looked into: as unreadable
    settings, wrong = Settings.salvage(_read(path))
    if wrong:
        tell(Notice.SETTINGS_DAMAGED)
        with contextlib.suppress(OSError):  # a disk that refuses: mended next time
            save_settings(settings)
    return settings


def _read(path: Path) -> bytes | None:
    """The settings file's bytes; ``None`` for a file that cannot or must not
    be read: a folder, a named pipe, a device, a link out of the config
    folder, bigger than :data:`~firmware_bridge.files.SMALL_FILE_LIMIT`,
    unreadable, gone."""
    try:
        return read_limited(path, SMALL_FILE_LIMIT, within=path.parent)
    except OSError:
        return None


def keep_damaged(path: Path) -> Path | None:
    """Move a settings file that cannot be used whole out of the way, kept as
    ``<name>.damaged-<time>``, before anything is written in its place;
    where it went (``None`` if it was fine, or absent). Raises :class:`OSError`
    if it cannot be moved."""
    if not (path.exists() or path.is_symlink()):
        return None
    if not Settings.salvage(_read(path))[1]:
        return None
    kept = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
    path.rename(kept)
    return kept


def save_settings(settings: Settings) -> Path:
    """Write the settings (a damaged file there kept aside first); raises
    :class:`OSError` if the disk refuses."""
    path = settings_path()
    make_private_folder(path.parent)
    keep_damaged(path)
    write_atomically(path, settings.check().to_toml().encode("utf-8"))
    return path
