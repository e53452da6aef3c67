#!/usr/bin/env bash
# Set up everything the tests need, then run the whole suite: lint (ruff),
# types (mypy --strict), then the tests (pytest). Arguments go to pytest.
SYSTEM_PACKAGES="make gcc libc6-dev gcc-avr avr-libc simavr libsimavr-dev libsimavrparts1 espeak-ng brltty fenrir liblouis-bin liblouis-data poppler-utils fonts-dejavu-core speech-dispatcher speech-dispatcher-espeak-ng alsa-utils libasound2-dev"
EXTRAS="test"
source "$(dirname "$0")/setup.sh"
set -x
"$VENV/bin/ruff" check .
"$VENV/bin/mypy"
"$VENV/bin/pytest" "$@"
