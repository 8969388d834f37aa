#!/usr/bin/env bash
# A newcomer's first ten minutes, timed: on a fresh clone of this repository (no numba cache,
# no description cache), the quick start (set-up included), `simcards games`, and the first
# `run` and `bid`/`trump`/`odds` of each game, one after another as a person would type them.
#
#   bash scripts/first_run.sh              # clone HEAD into a temporary folder and time it
#   bash scripts/first_run.sh /tmp/fresh   # clone into this (new) folder and keep it
#
# Prints one line per step, "seconds  command". The figures depend on the machine and its
# load; the closing line says both. Nothing here is a test: timings are never asserted.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DEST="${1:-$(mktemp -d)/simcards}"
git clone --quiet "$ROOT" "$DEST"
cd "$DEST"
export SIMCARDS_CACHE_DIR="$DEST/.describe-cache"   # an empty description cache, like a new user's
unset NUMBA_CACHE_DIR                               # numba caches in the clone's own tree: empty

step() {  # step "label" command...
  local t0 t1
  t0=$(date +%s%N)
  "$@" > "$DEST/step.log" 2>&1 || { echo "FAILED: $*"; tail -5 "$DEST/step.log"; exit 1; }
  t1=$(date +%s%N)
  local ds=$(( (t1 - t0) / 100000000 ))  # tenths of a second
  printf '%5d.%d s  %s\n' $((ds / 10)) $((ds % 10)) "$*"
}

SC=.venv/bin/simcards
step bash scripts/quickstart.sh
step $SC games
step $SC games
step $SC rules contract-rummy
step $SC run spades --deals 1000 --out results/first-spades --quiet
step $SC bid spades --hand "AS KS 7S 4S AH QH 9H 5D 4D 3D KC 8C 2C" --seat N --dealer W --deals 500
step $SC run cutthroat --players 3 --deals 1000 --out results/first-cutthroat --quiet
step $SC bid cutthroat --players 3 --hand "AS KS 7S 4S 3S AH QH 9H 5H 5D 4D 3D KC 8C 7C 4C 3C" --deals 500
step $SC run seep --deals 1000 --out results/first-seep --quiet
step $SC bid seep --hand "KS 9H 3D 5C" --deals 500
step $SC run kierki --games 100 --out results/first-kierki --quiet
step $SC trump kierki --cards "AS KS 5H 2D 9C" --deals 500
step $SC run contract-rummy --players 4 --games 50 --out results/first-rummy --quiet
step $SC odds contract-rummy --deal 1 --hand "7S 7H 7D QS QH 2C 5D 9H KC 4S" --deals 200
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); clone: $DEST"
