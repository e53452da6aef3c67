#!/usr/bin/env bash
# Extract every message from the code, merge it into the four catalogs and
# compile them. Run after changing or adding a sentence, then translate the
# new entries in companion/locale/*/LC_MESSAGES/companion.po and run again.
set -euo pipefail
cd "$(dirname "$0")/.."
py=${PYTHON:-.venv/bin/python}
locale=companion/locale
"$py" -m babel.messages.frontend extract --no-location --sort-output \
    -F babel.cfg -k text -k plural:1,2 -k N_ \
    --project=tactile-companion --copyright-holder="The tactile companion team" \
    -o "$locale/companion.pot" companion
for lang in en fr cs ru; do
    po=$locale/$lang/LC_MESSAGES/companion.po
    if [ -f "$po" ]; then
        "$py" -m babel.messages.frontend update --no-fuzzy-matching --ignore-obsolete \
            -D companion -i "$locale/companion.pot" -d "$locale" -l "$lang"
    else
        "$py" -m babel.messages.frontend init -D companion -i "$locale/companion.pot" -d "$locale" -l "$lang"
    fi
done
"$py" -m babel.messages.frontend compile --statistics -D companion -d "$locale"
