#!/usr/bin/env bash
# Set up everything the tests need, then run the whole suite: lint (ruff),
# types (mypy --strict), then the tests (pytest), every tier: the fast loop's
# tests, the system tests (root, the console, assistive technology, the test
# sound card, speech, the AVR toolchain, the browser the web face is tested
# in: what SYSTEM_PACKAGES installs; one
# that finds a tool missing fails, it is never skipped), the fuzz tests whole
# (COMPANION_FUZZ=full; the fast loop runs a tenth of them) and the storm of
# plain mode at a short length (COMPANION_STORM_SECONDS, one minute here; ten
# minutes before a release: docs/development.md). Then the lowest tier:
# a second environment (.venv/lowest) with every dependency at the lowest
# release pyproject.toml allows (devtools/lowest.py), and the fast tests in
# it. Arguments go to pytest, and with arguments the lowest tier is left out
# (a chosen few tests are not the whole suite).
SYSTEM_PACKAGES="make gcc libc6-dev gcc-avr avr-libc simavr libsimavr-dev libsimavrparts1 espeak-ng brltty fenrir liblouis-bin liblouis-data poppler-utils fonts-dejavu-core speech-dispatcher speech-dispatcher-espeak-ng alsa-utils libasound2-dev chromium"
EXTRAS="test"
source "$(dirname "$0")/setup.sh"
export COMPANION_STORM_SECONDS=${COMPANION_STORM_SECONDS:-60} COMPANION_FUZZ=${COMPANION_FUZZ:-full}
set -x
"$VENV/bin/ruff" check .
"$VENV/bin/mypy"
# -m "": every test, whatever its marks (pyproject's addopts leave out slow).
"$VENV/bin/pytest" -m "" "$@"
if [ $# -eq 0 ]; then
    "$VENV/bin/python" -m devtools.lowest >"$VENV/lowest.txt"
    COMPANION_VENV="$VENV/lowest" CONSTRAINTS="$VENV/lowest.txt" SYSTEM_PACKAGES="" EXTRAS="$EXTRAS" \
        bash -c 'source scripts/setup.sh'
    COMPANION_LOWEST=1 COMPANION_FUZZ= "$VENV/lowest/bin/pytest" -m "not slow and not system" -n 2
fi
