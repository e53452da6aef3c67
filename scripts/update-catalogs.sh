#!/usr/bin/env bash
# Extract every message from the code, merge it into the catalogs of every
# language and compile them. There is one set of catalogs (a domain) for the
# app, in companion/locale, and one for each game, in its own package
# (companion/games/<game>/locale, domain <game>), and one for the scanner's
# bridge, below the app (firmware_bridge/locale: its command's words and
# argparse's, which the app's command line uses too). Run after changing or
# adding a sentence, then translate the new entries in the .po files it
# names, and run it again.
set -euo pipefail
cd "$(dirname "$0")/.."
# One run at a time: two runs at once lose catalogs (babel's files in between).
exec 9>"${TMPDIR:-/tmp}/tactile-companion-catalogs.lock"
flock 9
py=${PYTHON:-.venv/bin/python}
new=$(mktemp)
trap 'rm -f "$new"' EXIT

# Keep a template (and its date) when no message changed.
undated() { grep -v '^"POT-Creation-Date' "$1"; }

update() {
    local domain=$1 source=$2 locale=$3
    local pot=$locale/$domain.pot
    mkdir -p "$locale"
    "$py" -m babel.messages.frontend extract --no-location --sort-output \
        -F babel.cfg -k text -k plural:1,2 -k N_ -k C_:1c,2 --add-comments=Translators: \
        --project=tactile-companion --copyright-holder="The tactile companion team" \
        -o "$new" "$source"
    if [ ! -f "$pot" ] || ! cmp -s <(undated "$new") <(undated "$pot"); then
        cp "$new" "$pot"
    fi
    for lang in en fr cs ru; do
        local po=$locale/$lang/LC_MESSAGES/$domain.po app=$APP/$lang/LC_MESSAGES/companion.po
        if [ ! -f "$po" ] && [ -f "$app" ]; then
            # A new game's catalog starts as a copy of the app's: its header
            # (the standard plural rule) and the sentences they share.
            mkdir -p "$(dirname "$po")"
            cp "$app" "$po"
        fi
        if [ -f "$po" ]; then
            "$py" -m babel.messages.frontend update --no-fuzzy-matching --ignore-obsolete \
                -D "$domain" -i "$pot" -d "$locale" -l "$lang"
        else
            "$py" -m babel.messages.frontend init -D "$domain" -i "$pot" -d "$locale" -l "$lang"
        fi
    done
    "$py" -m babel.messages.frontend compile --statistics -D "$domain" -d "$locale"
}

APP=companion/locale
update companion companion "$APP"
update firmware_bridge firmware_bridge firmware_bridge/locale
for game in companion/games/*/; do
    game=${game%/}
    [ -f "$game/__init__.py" ] || continue
    update "$(basename "$game")" "$game" "$game/locale"
done
# Memory, the tests' third game, has its catalogs in its own folder, as a game
# installed from elsewhere would.
update memory tests/companion/games/memory tests/companion/games/memory/locale
