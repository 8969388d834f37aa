#!/usr/bin/env bash
# The strength ladder of every game's built-in policies, for the game pages
# (docs/games/<game>.md, "How strong are the bots"): runs `simcards ladder` with its default
# policies (every built-in, pimc at its ladder budget), copies its report, tables and figure
# into docs/examples/<game>-ladder/, and writes the tables into the game page's
# "<!-- ladder: begin -->" block (scripts/ladder_table.py) with the command, the date, the
# machine and the commit. No figure of those tables is copied by hand.
#   bash scripts/make_ladders.sh              # all five games
#   bash scripts/make_ladders.sh kierki       # one
# One thread (NUMBA_NUM_THREADS=1, --threads 1): the development machine is shared.
set -euo pipefail
cd "$(dirname "$0")/.."
export NUMBA_NUM_THREADS=1
# sized for the shared 2-core machine, under 25 minutes a game on one thread under load: with the
# play-outs from the first card (playout_worlds=16 at the ladder's budget too) a Spades pimc pair
# of 500 games each way took 1-3 min against a heuristic and 10 min against random (random's bids
# contradict almost every sampled world, so pimc redraws each up to its tries), 23 min in all at a
# load of about 5 (26 min in all at a load of about 2, 2026-12-07); Cutthroat at 600 games 5.6 min in
# all (a pimc pair about a minute); Spades' 300 double-dummy deals a policy about 3 minutes for all
# eight (20 gave intervals five times wide). Each game starts from an empty folder (the script's figures are of today's
# code); an interrupted `simcards ladder` command resumes if run again by hand.
declare -A count=([spades]="--games 500 --dd-deals 300" [cutthroat]="--games 600" [seep]="--baazis 1000"
                  [kierki]="--games 300" [contract-rummy]="--games 300")
games=("$@")
if [ ${#games[@]} -eq 0 ]; then games=(spades cutthroat seep kierki contract-rummy); fi
for game in "${games[@]}"; do
  out="results/examples/$game-ladder"
  command="simcards ladder $game ${count[$game]} --seed 2026 --threads 1"
  # a fresh folder: a ladder folder of the same command resumes its finished pairs (even with
  # --force), and those were played by the code of their day
  rm -rf "$out"
  # shellcheck disable=SC2086
  .venv/bin/simcards ladder "$game" ${count[$game]} --seed 2026 --threads 1 --out "$out" --quiet --force
  .venv/bin/simcards report "$out"
  rm -rf "docs/examples/$game-ladder"
  mkdir -p "docs/examples/$game-ladder"
  cp -r "$out/report.md" "$out/report.html" "$out/figures" "$out/ladder.csv" "$out/ranking.csv" \
    "docs/examples/$game-ladder/"
  if [ -f "$out/dd.csv" ]; then cp "$out/dd.csv" "docs/examples/$game-ladder/"; fi
  .venv/bin/python scripts/ladder_table.py "$out" "docs/games/$game.md" "$command"
done
