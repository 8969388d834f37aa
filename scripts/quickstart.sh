#!/usr/bin/env bash
# Set up, then run the main job: does a 5-bag limit change partnership Spades?
# 20,000 games under each rule on the same deals (expert bots), the differences printed,
# then the strategy report: results/spades-bags/report.md and report.html.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --runtime   # the test tools come with scripts/test.sh
.venv/bin/simcards run --spec scripts/experiments/spades-bags.toml "$@"
.venv/bin/simcards report results/spades-bags
