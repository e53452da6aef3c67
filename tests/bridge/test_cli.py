"""``firmware-bridge`` as a user runs it: the virtual scanner and a listener."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from companion.games.sushigo.cards import Card
from firmware_bridge.registry import Registry, demo_uid
from firmware_bridge.virtual import VirtualScanner


def environment(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "COMPANION_DATA_DIR": str(tmp_path)}


def test_simulate_and_listen_speak_to_each_other(tmp_path: Path) -> None:
    env = environment(tmp_path)
    simulator = subprocess.Popen(
        [sys.executable, "-m", "firmware_bridge", "simulate"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, bufsize=1,
    )
    assert simulator.stdin is not None and simulator.stdout is not None
    first = simulator.stdout.readline().split()
    assert first[0] == "PORT" and first[1].startswith("/dev/pts/")
    link = simulator.stdout.readline().split()[1]
    listener = subprocess.Popen(
        [sys.executable, "-m", "firmware_bridge", "listen", "--port", link, "--json",
         "--seconds", "4"],
        stdout=subprocess.PIPE, text=True, env=env,
    )
    time.sleep(1.5)
    for line in ("w2", "uid:04a1b2c3", "nonsense", "reset", "t"):
        simulator.stdin.write(line + "\n")
        simulator.stdin.flush()
        time.sleep(0.1)
    out, _ = listener.communicate(timeout=30)
    simulator.stdin.write("quit\n")
    simulator.stdin.flush()
    replies = simulator.communicate(timeout=10)[0].splitlines()
    events = [json.loads(line) for line in out.splitlines()]
    assert events[0]["event"] == "connect"
    cards = [(e["card"], e["uid"], e["seq"]) for e in events if e["event"] == "card"]
    assert cards == [
        ("salmon", demo_uid(Card.SALMON), 0),
        (None, "04A1B2C3", 1),
        ("wasabi", demo_uid(Card.WASABI), 0),  # after the reset, numbers start again
    ]
    assert any(reply.startswith("ERR") for reply in replies)  # "nonsense" was refused


def test_registry_commands(tmp_path: Path) -> None:
    env = environment(tmp_path)
    deck = tmp_path / "deck.json"
    deck.write_text(json.dumps({"format": 1, "tags": {"DEADBEEF": "tempura"}}))

    def run(*args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "firmware_bridge", "registry", *args],
                              capture_output=True, text=True, env=env, timeout=30, check=False)
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert "1 tag added" in run("import", str(deck))
    assert "tempura DEADBEEF" in run("list")
    assert "1 tag written" in run("export", str(tmp_path / "out.json"))
    assert "forgot DEADBEEF" in run("remove", "DEADBEEF")
    assert "0 tags" in run("list")


def test_enrol_a_tag_then_it_is_known(tmp_path: Path) -> None:
    scanner = VirtualScanner(link=tmp_path / "scanner")
    enrol = subprocess.Popen(
        [sys.executable, "-m", "firmware_bridge", "enrol", "--port", str(scanner.link)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=environment(tmp_path),
        bufsize=1,
    )
    assert enrol.stdin is not None and enrol.stdout is not None
    assert enrol.stdout.readline().startswith("Scan a tag")
    time.sleep(1.5)
    scanner.scan("04A1B2C3D4E5F6")
    lines: list[str] = []
    while not lines or "Type its card's code" not in lines[-1]:
        lines.append(enrol.stdout.readline())
    assert "04A1B2C3D4E5F6 is unknown" in lines[-1]
    enrol.stdin.write("w3\n")
    enrol.stdin.flush()
    assert "is now squid" in enrol.stdout.readline()
    scanner.scan("04A1B2C3D4E5F6")
    assert "is squid" in enrol.stdout.readline()
    enrol.stdin.write("\n")
    enrol.stdin.flush()
    assert enrol.wait(timeout=10) == 0
    scanner.close()
    assert Registry.load(tmp_path / "registry.json").lookup("04A1B2C3D4E5F6") is Card.SQUID
