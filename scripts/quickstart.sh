#!/usr/bin/env bash
# Set up, then run the main job: does a 5-bag limit change partnership Spades?
# 20,000 games under the standard rules, the summary printed, results/quickstart/ written
# with records, summary.csv and figures.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/simcards run spades --unit game --games 20000 --seed 7 --policy expert --out results/quickstart "$@"
