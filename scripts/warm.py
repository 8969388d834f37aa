"""Compile (or load from numba's cache) every game's kernels, one process per core.

The test command runs this first: a cold numba compile of all five games takes minutes on
one core, and the test workers would otherwise compile the same kernels side by side. Each
game's kernels are cached in its own files, so games compile in parallel without clashing.

    .venv/bin/python scripts/warm.py            # all built-in games, os.cpu_count() processes
    .venv/bin/python scripts/warm.py --jobs 1   # one process
"""
from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor

# Cold compiles first: the slowest games start first so the processes finish together.
ORDER = ("contract-rummy", "seep", "cutthroat", "spades", "kierki")


def warm(game: str) -> tuple[str, float]:
    """Run every unit and built-in policy of ``game`` once, and its replay (its traced kernel)."""
    from simcards.experiment import golden

    t0 = time.perf_counter()
    seen = set()
    for name, unit, policy, _preset in golden.configurations((game,)):
        if (unit, policy) not in seen:
            seen.add((unit, policy))
            golden.records_digest(name, unit, policy, None)
    golden.replay_text(game)
    return game, time.perf_counter() - t0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: one per core)")
    args = parser.parse_args()
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for game, seconds in pool.map(warm, ORDER):
            print(f"warm: {game} ready in {seconds:.1f} s", flush=True)
    print(f"warm: all kernels ready in {time.perf_counter() - t0:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
