#!/usr/bin/env bash
# The strength ladder of every game's built-in policies, for the game pages
# (docs/games/<game>.md, "How strong are the bots"): runs `simcards ladder` and copies
# its report, tables and figure into docs/examples/<game>-ladder/.
#   bash scripts/make_ladders.sh              # all five games
#   bash scripts/make_ladders.sh kierki       # one
set -euo pipefail
cd "$(dirname "$0")/.."
declare -A count=([spades]="--games 2000" [cutthroat]="--games 2000" [seep]="--baazis 1000"
                  [kierki]="--games 1000" [contract-rummy]="--games 500")
games=("$@")
if [ ${#games[@]} -eq 0 ]; then games=(spades cutthroat seep kierki contract-rummy); fi
for game in "${games[@]}"; do
  out="results/examples/$game-ladder"
  # shellcheck disable=SC2086
  .venv/bin/simcards ladder "$game" ${count[$game]} --seed 2026 --out "$out" --quiet --force
  .venv/bin/simcards report "$out"
  rm -rf "docs/examples/$game-ladder"
  mkdir -p "docs/examples/$game-ladder"
  cp -r "$out/report.md" "$out/report.html" "$out/figures" "$out/ladder.csv" "$out/ranking.csv" \
    "docs/examples/$game-ladder/"
done
