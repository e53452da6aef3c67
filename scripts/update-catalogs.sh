#!/usr/bin/env bash
# Extract every message from the code, merge it into the four catalogs and
# compile them. Run after changing or adding a sentence, then translate the
# new entries in companion/locale/*/LC_MESSAGES/companion.po and run again.
set -euo pipefail
cd "$(dirname "$0")/.."
py=${PYTHON:-.venv/bin/python}
locale=companion/locale
pot=$locale/companion.pot
new=$(mktemp)
trap 'rm -f "$new"' EXIT
"$py" -m babel.messages.frontend extract --no-location --sort-output \
    -F babel.cfg -k text -k plural:1,2 -k N_ -k C_:1c,2 --add-comments=Translators: \
    --project=tactile-companion --copyright-holder="The tactile companion team" \
    -o "$new" companion
# Keep the template (and its date) when no message changed.
undated() { grep -v '^"POT-Creation-Date' "$1"; }
if [ ! -f "$pot" ] || ! cmp -s <(undated "$new") <(undated "$pot"); then
    cp "$new" "$pot"
fi
for lang in en fr cs ru; do
    po=$locale/$lang/LC_MESSAGES/companion.po
    if [ -f "$po" ]; then
        "$py" -m babel.messages.frontend update --no-fuzzy-matching --ignore-obsolete \
            -D companion -i "$pot" -d "$locale" -l "$lang"
    else
        "$py" -m babel.messages.frontend init -D companion -i "$pot" -d "$locale" -l "$lang"
    fi
done
"$py" -m babel.messages.frontend compile --statistics -D companion -d "$locale"
