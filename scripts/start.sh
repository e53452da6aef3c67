#!/usr/bin/env bash
# Set up everything the app needs, then start it. Arguments go to `companion`.
SYSTEM_PACKAGES="espeak-ng liblouis-bin liblouis-data fonts-dejavu-core"
EXTRAS=""
source "$(dirname "$0")/setup.sh"
exec "$VENV/bin/companion" "$@"
