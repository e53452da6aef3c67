#!/usr/bin/env bash
# The fast loop, for while you work: set up the Python packages only (no
# Debian package, no root), then run every test that needs nothing more,
# two workers a core (the tests wait on the app in subprocesses more than they
# compute). Arguments go to pytest, for example
# `bash scripts/fast.sh -x tests/companion/conversation`.
# Before committing, the full command: bash scripts/test.sh.
SYSTEM_PACKAGES=""
EXTRAS="test"
source "$(dirname "$0")/setup.sh"
exec "$VENV/bin/python" -m pytest -m "not slow and not system" -n "${COMPANION_WORKERS:-4}" "$@"
