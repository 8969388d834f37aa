#!/usr/bin/env bash
# Set up (scripts/setup.sh) and run the whole test suite, the slow statistical tests included.
# Kernels are compiled first, one game per core (scripts/warm.py); the tests then run in one
# worker per core (pytest-xdist), each test file on one worker so its fixtures are shared.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/python scripts/warm.py
exec .venv/bin/python -m pytest -q -n "${SIMCARDS_TEST_WORKERS:-auto}" --dist loadfile --durations=15 "$@"
