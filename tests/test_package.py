"""The package as the index shows it and pip installs it: its page
(docs/install.md) says how to install on every system, in the commands
``companion doctor`` gives, with no link that only works in a clone;
its classifiers are real ones; and the wheel, installed in an environment
of its own, brings the guides, where ``companion doctor`` finds them."""

from __future__ import annotations

import email
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
import trove_classifiers

from companion.parts import PARTS

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
PAGE = ROOT / PROJECT["readme"]
#: A Markdown link or image to anything but an absolute address.
RELATIVE_LINK = re.compile(r"\]\((?!https?://)[^)]*\)")


def test_the_index_page_is_the_install_guide_with_no_link_into_a_clone() -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert PAGE == ROOT / "docs" / "install.md"
    assert RELATIVE_LINK.findall(text) == []
    assert "scripts/" not in text and "pip install tactile-companion" in text
    assert "companion doctor" in text


@pytest.mark.parametrize("part", ["liblouis", "font", "brltty"])
def test_the_index_page_gives_doctor_s_command_for_each_system(part: str) -> None:
    text = PAGE.read_text(encoding="utf-8")
    for system, command in PARTS[part].install.items():
        if system != "windows":  # Windows' steps are words, said in the page's own
            assert f"`{command}`" in text, (part, system)


def test_every_classifier_is_a_real_one_and_names_each_system_and_language() -> None:
    classifiers = PROJECT["classifiers"]
    assert [name for name in classifiers if name not in trove_classifiers.classifiers] == []
    for wanted in ("Operating System :: Microsoft :: Windows", "Operating System :: MacOS",
                   "Operating System :: POSIX :: Linux", "Natural Language :: Czech",
                   "Natural Language :: French", "Natural Language :: Russian",
                   "Natural Language :: English", "Topic :: Adaptive Technologies"):
        assert wanted in classifiers
    assert any(name.startswith("Development Status :: ") for name in classifiers)
    assert any(name.startswith("Intended Audience :: ") for name in classifiers)
    assert any(name.startswith("Environment :: ") for name in classifiers)


@pytest.mark.system  # pip fetches the build backend from the package index
def test_the_wheel_stands_alone_with_its_guides(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--wheel-dir", str(tmp_path / "wheel"), str(ROOT)],
                   check=True, capture_output=True, timeout=600)
    (wheel,) = (tmp_path / "wheel").glob("tactile_companion-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (metadata,) = [name for name in names if name.endswith(".dist-info/METADATA")]
        message = email.message_from_bytes(archive.read(metadata))
    assert message["Description-Content-Type"] == "text/markdown"
    body = message.get_payload()
    assert isinstance(body, str) and body.strip() == PAGE.read_text(encoding="utf-8").strip()
    assert sorted(message.get_all("Classifier") or []) == sorted(PROJECT["classifiers"])
    guides = [name.rsplit("/", 1)[1] for name in names
              if "/data/share/doc/tactile-companion/" in name]
    assert {"install.md", "user-guide.md", "speech.md", "tactile-kit.md", "LICENSE"} <= set(
        guides)
    assert not [name for name in names if name.startswith(("tests/", "devtools/", "scripts/"))]
    # installed in an environment of its own, away from the project's folder
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", str(wheel)], check=True,
                   capture_output=True, timeout=900)
    done = subprocess.run([str(venv / "bin" / "companion"), "doctor"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300, check=False,
                          env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
                               "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    folder = venv / "share" / "doc" / "tactile-companion"
    assert f"Present: Guides, for reading how to use the app: {folder}." in done.stdout
    assert (folder / "user-guide.md").read_bytes() == (ROOT / "docs" / "user-guide.md"
                                                       ).read_bytes()
