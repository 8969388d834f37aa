#!/usr/bin/env python
"""Records per second for each game, unit and policy set; one line each, plus compile time.

    python scripts/bench.py                         # every game, default unit, basic and expert
    python scripts/bench.py --game spades --unit game --threads 1
    python scripts/bench.py --cold                  # compile from scratch (empty numba cache)
    python scripts/bench.py --startup               # start-up of simcards --help, games, rules X

Each line runs the real runner in memory (records="summary": kernels plus the
streaming summary, no disk I/O) for at least --seconds.
"First call" is the time to import the game and load (or, with --cold, compile) its
kernels and policies and run a tiny batch; the first line's figure includes the
shared imports (numba, pandas). Never used by tests: timings belong here, not in assertions.

--startup times whole processes (``python -m simcards.cli ...``, the median of --runs
runs after one warm-up) of the commands that must start at once, and the first call
with an empty description cache (simcards.describe) for comparison.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def measure(game: str, unit: str | None, policy: str, threads: int, seconds: float, settings: list[str],
            records: str = "summary") -> dict:
    from simcards.core.game import get_game
    from simcards.experiment.runner import execute
    from simcards.experiment.spec import make_spec

    t0 = time.perf_counter()  # import (eager compile of signature-typed policies) counts too
    g = get_game(game)
    u = g.unit(unit)
    spec = make_spec(g, unit=u.name, count=min(64, u.chunk_size), policy=policy, settings=settings, records="none")
    execute(spec, threads=1)
    first = time.perf_counter() - t0
    count = max(u.chunk_size // 4, 1)
    while True:
        spec = make_spec(g, unit=u.name, count=count, seed=1, policy=policy, settings=settings, records=records,
                         chunk_size=max(count // (4 * threads), 1))
        t = time.perf_counter()
        execute(spec, threads=threads)
        elapsed = time.perf_counter() - t
        if elapsed >= seconds or count > 10**9:
            break
        count = int(count * min(max(seconds / max(elapsed, 1e-3) * 1.2, 2), 50))
    return {"game": g.name, "unit": u.name, "policy": policy, "threads": threads, "records": count,
            "seconds": elapsed, "rate": count / elapsed, "first_call": first}


STARTUP_COMMANDS = (["--help"], ["games"], ["rules", "spades"], ["rules", "contract-rummy"])


def startup(runs: int) -> list[dict]:
    """Median wall time of each start-up command, warm, and its first call (empty cache)."""
    import statistics

    cache = tempfile.mkdtemp(prefix="simcards-startup-")
    env = dict(os.environ, SIMCARDS_CACHE_DIR=cache)
    env.pop("SIMCARDS_GAMES", None)

    def once(argv: list[str]) -> float:
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "simcards.cli", *argv], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        return time.perf_counter() - t

    rows = []
    for argv in STARTUP_COMMANDS:
        first = once(argv)  # fills the cache (games and rules)
        warm = [once(argv) for _ in range(runs)]
        rows.append({"command": "simcards " + " ".join(argv), "median_s": statistics.median(warm),
                     "max_s": max(warm), "first_call_s": first, "runs": runs})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", help="game(s) to measure (default: all)")
    ap.add_argument("--unit", help="unit (default: each game's first unit)")
    ap.add_argument("--policy", action="append", help="policies (default: basic and expert)")
    ap.add_argument("--threads", type=int, default=os.cpu_count(), help="threads (default: all cores)")
    ap.add_argument("--seconds", type=float, default=3.0, help="minimum timed seconds per line")
    ap.add_argument("--set", dest="settings", action="append", default=[], help="variant setting name=value")
    ap.add_argument("--records", choices=["summary", "none"], default="summary",
                    help="summary: kernels plus the streaming summary (default); none: kernels alone")
    ap.add_argument("--cold", action="store_true", help="measure compile time with an empty numba cache")
    ap.add_argument("--json", action="store_true", help="one JSON object per line")
    ap.add_argument("--startup", action="store_true", help="time the start of --help, games and rules X")
    ap.add_argument("--runs", type=int, default=7, help="runs per command with --startup (median)")
    ap.add_argument("--_child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.startup:
        for r in startup(args.runs):
            print(json.dumps(r) if args.json else
                  f"{r['command']:<32} median {r['median_s'] * 1000:6.0f} ms (max {r['max_s'] * 1000:.0f} ms, "
                  f"{r['runs']} runs)   first call, empty cache {r['first_call_s'] * 1000:6.0f} ms", flush=True)
        return

    if args.cold and not args._child:
        env = dict(os.environ, NUMBA_CACHE_DIR=tempfile.mkdtemp(prefix="simcards-cold-"))
        argv = [a for a in sys.argv[1:] if a != "--cold"] + ["--_child"]
        sys.exit(subprocess.call([sys.executable, __file__, *argv], env=env))

    from simcards.core.game import game_names

    games = args.game or game_names()
    for game in games:
        for policy in args.policy or ["basic", "expert"]:
            r = measure(game, args.unit, policy, args.threads, args.seconds, args.settings, args.records)
            if args.json:
                print(json.dumps(r), flush=True)
            else:
                print(f"{r['game']:<15} {r['unit']:<10} {r['policy']:<7} threads={r['threads']}  "
                      f"{r['rate']:>12,.0f} {r['unit']}s/s   first call {r['first_call']:.1f} s"
                      f"{'  (cold compile)' if args._child else ''}", flush=True)


if __name__ == "__main__":
    main()
