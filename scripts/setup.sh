# Shared set-up for scripts/start.sh and scripts/test.sh: sourced, not run.
# Installs the Debian packages given in SYSTEM_PACKAGES (when missing), makes
# .venv with Python 3.11 or newer and installs the project into it with the
# extras given in EXTRAS, under the pip constraints file CONSTRAINTS if
# one is given (the lowest tier's: scripts/test.sh). Each step that takes a
# while is said, on a line of its own on standard error, before it runs (the
# first set-up takes minutes).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
VENV=${COMPANION_VENV:-$ROOT/.venv}

say() { printf '%s\n' "$*" >&2; }

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"
    elif command -v sudo >/dev/null 2>&1; then sudo "$@"
    else say "Needs root to run: $*"; exit 1
    fi
}

install_system_packages() {
    local missing=() pkg
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' \
            || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    command -v apt-get >/dev/null 2>&1 || { say "Please install: ${missing[*]}"; exit 1; }
    say "Installing the system packages ${missing[*]} with apt-get; this takes a minute or two."
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null
}

find_python() {
    local candidate
    for candidate in ${PYTHON:-} python3.13 python3.12 python3.11 python3; do
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            echo "$candidate"; return 0
        fi
    done
    say "Python 3.11 or newer is needed."; exit 1
}

install_system_packages ${SYSTEM_PACKAGES:-}

first=""
if [ ! -x "$VENV/bin/python" ]; then
    first=yes
    python=$(find_python)
    say "Making the Python environment in $VENV; this takes a few seconds."
    if ! "$python" -m venv "$VENV" 2>/dev/null; then
        install_system_packages python3-venv
        rm -rf "$VENV"
        "$python" -m venv "$VENV"
    fi
    "$VENV/bin/python" -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
fi
# pip's and the build backend's chatter goes to a log, shown only on failure.
log="$VENV/install.log"
# What the last install was made from: the project's list of packages, the
# extras, the constraints and the interpreter. The same again, and the
# project still installed: nothing to do, and nothing said.
stamp="$VENV/installed-from.${EXTRAS:-plain}"
wanted=$( { cat pyproject.toml; echo "extras=${EXTRAS:-}"; echo "venv=$VENV";
             if [ -n "${CONSTRAINTS:-}" ]; then cat "$CONSTRAINTS"; fi; } |
    "$VENV/bin/python" -c 'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')
installed() {
    [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ] &&
        "$VENV/bin/python" -c 'import importlib.metadata as m; m.distribution("tactile-companion")' \
            >/dev/null 2>&1
}
if ! installed; then
    if [ -n "$first" ]; then
        say "Installing the Python packages; this takes a minute or two."
    else
        say "Updating the Python packages; this takes a minute."
    fi
    rm -f "$stamp"
    if ! "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
            ${CONSTRAINTS:+--constraint "$CONSTRAINTS"} \
            --editable ".${EXTRAS:+[$EXTRAS]}" >"$log" 2>&1; then
        cat "$log" >&2
        say "Installing the Python packages failed (log above)."
        exit 1
    fi
    printf '%s\n' "$wanted" >"$stamp"
fi
# Compiled once here, so the app starts quickly even where the environment
# asks Python not to write its bytecode cache (PYTHONDONTWRITEBYTECODE).
if [ -n "$first" ]; then say "Compiling the app; this takes a few seconds."; fi
"$VENV/bin/python" -m compileall -q companion voices firmware_bridge >/dev/null
if [ -n "$first" ]; then say "The set-up is done."; fi
