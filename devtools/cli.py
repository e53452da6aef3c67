"""``python -m devtools``: the developers' commands, run from the project
folder (the package is not installed with the app).

``python -m devtools bench a11y [--json] [--out DIR]``
    The walk under real BRLTTY and Fenrir on a Linux console, in both faces
    at 80x25 and 40x15, and its figures (root, /dev/tty0, Debian's brltty
    and fenrir: :mod:`devtools.atcheck`).
``python -m devtools bench ui [--json]``
    Start times, announcement latency and memory of the app
    (:mod:`devtools.bench_ui`).
``python -m devtools bench speech [--json]``
    Every speech backend present, heard on the test sound card: start,
    interrupt, first audio and stop (:mod:`devtools.bench_speech`).

Output is plain lines, like the app's commands.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from companion.shown import shown

EXIT_OK = 0
EXIT_BAD_INPUT = 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m devtools", description="The developers' benchmarks, on test rigs.")
    commands = parser.add_subparsers(dest="command", required=True)
    bench = commands.add_parser("bench", help="measure on a test rig")
    bench.add_argument(
        "what", choices=["a11y", "ui", "speech"],
        help="what to measure (a11y: the walk under real BRLTTY and Fenrir; root)")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.add_argument("--out", type=Path, default=None,
                       help="a11y: a folder for the walk's transcripts")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command ``argv`` names; its exit status."""
    args = _parser().parse_args(argv)
    if args.what == "ui":
        return bench_ui_command(as_json=args.json)
    if args.what == "speech":
        return bench_speech_command(as_json=args.json)
    return bench_a11y_command(out=args.out, as_json=args.json)


def _fail(message: str) -> int:
    print(f"devtools bench: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def bench_ui_command(*, as_json: bool) -> int:
    """``python -m devtools bench ui``: start times, announcement latency, memory."""
    from devtools.bench_ui import bench_ui  # noqa: PLC0415 - only when asked for

    f = bench_ui()
    if as_json:
        print(json.dumps({
            "plain_start_ms": round(f.plain_start_ms, 1),
            "tui_start_ms": round(f.tui_start_ms, 1),
            "bare_textual_start_ms": round(f.bare_textual_start_ms, 1),
            "announce_ms_p95": round(f.announce_ms_p95, 3),
            "announce_ms_p50": round(f.announce_ms_p50, 3),
            "scan_announce_ms_p95": round(f.scan_announce_ms_p95, 3),
            "rss_mb": round(f.rss_mb, 1),
        }))
        return EXIT_OK
    print(f"start to first prompt: plain {f.plain_start_ms:.0f} ms,"
          f" full screen {f.tui_start_ms:.0f} ms (a bare Textual app: "
          f"{f.bare_textual_start_ms:.0f} ms)")
    print(f"input to announcement: p50 {f.announce_ms_p50:.2f} ms,"
          f" p95 {f.announce_ms_p95:.2f} ms")
    print(f"scan to announcement: p95 {f.scan_announce_ms_p95:.2f} ms")
    print(f"memory after a whole game, full screen: {f.rss_mb:.0f} MB")
    return EXIT_OK


def bench_speech_command(*, as_json: bool) -> int:
    """``python -m devtools bench speech``: per backend present, its processes
    and what is heard of it on the test sound card."""
    from devtools.bench_speech import bench_speech  # noqa: PLC0415 - only when asked for

    figures = bench_speech()
    if as_json:
        print(json.dumps({f.backend: f.as_json() for f in figures}))
        return EXIT_OK
    for f in figures:
        print(f.describe())
    return EXIT_OK


def new_folder(parent: Path, name: str) -> Path:
    """A folder of its own in ``parent`` (made if missing), ``name`` or
    ``name-2``, ``name-3``...: what a command writes there never replaces a
    file of anyone else's.

    >>> import tempfile
    >>> parent = Path(tempfile.mkdtemp())
    >>> [new_folder(parent, "a11y").name for _ in range(3)]
    ['a11y', 'a11y-2', 'a11y-3']
    """
    parent.mkdir(parents=True, exist_ok=True)
    for number in range(1, 1000):
        folder = parent / (name if number == 1 else f"{name}-{number}")
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        return folder
    raise FileExistsError(17, "every name is taken", str(parent / name))


def bench_a11y_command(*, out: Path | None, as_json: bool) -> int:
    """``python -m devtools bench a11y``: the walk under real BRLTTY and
    Fenrir, in both faces at 80x25 and 40x15, and its figures."""
    # Imported when asked for: the other commands need none of it.
    from devtools.atcheck.devices import missing  # noqa: PLC0415
    from devtools.atcheck.scenario import walk_everything  # noqa: PLC0415
    from devtools.atcheck.walk import failures  # noqa: PLC0415

    gaps = missing()
    if gaps:
        return _fail("the walk needs " + ", ".join(gaps))
    if out is not None:
        try:
            out = new_folder(out, f"a11y-{time.strftime('%Y%m%d-%H%M%S')}")
        except OSError as error:
            return _fail(f"cannot write the transcripts to {shown(str(out))}: "
                         f"{error.strerror or error}")
        print(f"transcripts in {shown(str(out))}", file=sys.stderr)
    walks = walk_everything([sys.executable, "-m", "companion"], out)
    totals = {name: sum(getattr(figures, name) for figures, _ in walks)
              for name in ("announcements", "announcements_missed", "fenrir_missed",
                           "line_ups_needed", "stale_utterances", "duplicate_utterances",
                           "blank_flickers", "steps_failed")}
    if as_json:
        print(json.dumps({**totals, "walks": [figures.as_dict() for figures, _ in walks]}))
        return EXIT_OK
    for figures, seen in walks:
        print(f"{figures.face} face, {figures.size}: {figures.steps} steps,"
              f" {figures.announcements} announcements,"
              f" {figures.announcements_missed} missed,"
              f" {figures.fenrir_missed} not said by Fenrir,"
              f" {figures.line_ups_needed} line-ups needed,"
              f" {figures.stale_utterances} said again of the screen before,"
              f" {figures.duplicate_utterances} said twice,"
              f" {figures.blank_flickers} blank windows")
        for number, step in enumerate(seen, 1):
            for problem in failures(step):
                print(f"  step {number}, {step.step.label}: {problem}")
    print("in all: " + ", ".join(f"{name} {value}" for name, value in totals.items()))
    return EXIT_OK
