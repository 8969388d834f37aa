#!/usr/bin/env bash
# Run every experiment file in scripts/experiments/ and copy its strategy report into
# docs/examples/<name>/ (report.md, self-contained report.html, figures/).
#   bash scripts/make_examples.sh                 # all of them
#   bash scripts/make_examples.sh seep-sweeps     # one
set -euo pipefail
cd "$(dirname "$0")/.."
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for f in scripts/experiments/*.toml; do names+=("$(basename "$f" .toml)"); done
fi
for name in "${names[@]}"; do
  out="results/examples/$name"
  .venv/bin/simcards run --spec "scripts/experiments/$name.toml" --out "$out" --quiet --force
  .venv/bin/simcards report "$out"
  rm -rf "docs/examples/$name"
  mkdir -p "docs/examples/$name"
  cp -r "$out/report.md" "$out/report.html" "$out/figures" "docs/examples/$name/"
  for f in summary.csv differences.csv sweep.csv; do
    if [ -f "$out/$f" ]; then cp "$out/$f" "docs/examples/$name/"; fi
  done
done
