#!/usr/bin/env python
"""Peak resident memory of a big summary-only run (memory must not grow with deals).

    python scripts/memory_check.py                       # 100 million Spades deals
    python scripts/memory_check.py --deals 2000000 --game seep

Runs `simcards run GAME --deals N --records summary` in a child process and reports
the child's peak resident set size (ru_maxrss) next to its wall time.
"""
import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="spades")
    ap.add_argument("--deals", type=int, default=100_000_000)
    ap.add_argument("--chunk-size", type=int, help="records per chunk (default: the unit's)")
    args = ap.parse_args()
    simcards = Path(sys.executable).with_name("simcards")
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.time()
        rc = subprocess.call([str(simcards), "run", args.game, "--deals", str(args.deals), "--records", "summary",
                              *(["--chunk-size", str(args.chunk_size)] if args.chunk_size else []), "--out", f"{tmp}/run", "--quiet"])
        wall = time.time() - t0
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"{args.game}: {args.deals:,} deals, --records summary: peak RSS {peak_mib:,.0f} MiB, "
          f"{wall:,.0f} s ({args.deals / wall:,.0f} deals/s), exit {rc}")
    sys.exit(rc)


if __name__ == "__main__":
    main()
