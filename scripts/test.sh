#!/usr/bin/env bash
# Set up (scripts/setup.sh) and run the whole test suite, the slow statistical tests included.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python -m pytest -q --durations=15 "$@"
