#!/usr/bin/env bash
# Create .venv (if missing) and install simcards with its test tools from the package registries.
#   bash scripts/setup.sh             # simcards and the test tools (the test command uses this)
#   bash scripts/setup.sh --runtime   # simcards alone (the quick start: fewer packages to fetch)
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
TARGET=".[test]"
if [ "${1:-}" = "--runtime" ]; then
  TARGET="."
fi
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e "$TARGET"
# the texts of `simcards games`, `rules`, `policies` and --help, built once (a few seconds, no compiling)
.venv/bin/python -c "from simcards.cli import warm_texts; warm_texts()"
