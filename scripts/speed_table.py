#!/usr/bin/env python
"""The README's Speed table: records per second per game and policy, and cold compile seconds.

    .venv/bin/python scripts/speed_table.py              # every game, both cores, ~3 s a line
    .venv/bin/python scripts/speed_table.py --seconds 1  # quicker, noisier

It runs ``scripts/bench.py`` (warm: the game's default policy, expert and basic; cold: the
default with an empty numba cache, one game at a time; ``--startup``: the describing
commands) and prints Markdown tables headed by the command, the date and the machine, to
paste into README.md as they are. Timings belong here, never in tests.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).with_name("bench.py")
GAMES = ("spades", "cutthroat", "seep", "contract-rummy", "kierki")


def bench(*args: str) -> list[dict]:
    out = subprocess.run([sys.executable, str(BENCH), "--json", *args], capture_output=True, text=True, check=True)
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def default_policy(game: str) -> str:
    """The policy a user gets without --policy (``simcards games`` lists it)."""
    from simcards.core.game import get_game

    return get_game(game).default_policy


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="minimum timed seconds per warm line")
    ap.add_argument("--game", action="append", help="game(s) (default: all five)")
    args = ap.parse_args()
    games = args.game or list(GAMES)
    rows = []
    for game in games:
        default = default_policy(game)
        cold = bench("--cold", "--game", game, "--policy", default, "--seconds", "0.2")[0]
        policies = ["basic", "expert"] + ([default] if default not in ("basic", "expert") else [])
        warm = {r["policy"]: r for r in bench("--game", game, "--seconds", str(args.seconds),
                                               *(a for p in policies for a in ("--policy", p)))}
        rows.append((game, default, warm["basic"], warm["expert"], warm[default], cold["first_call"]))
        print(f"measured {game}", file=sys.stderr, flush=True)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Made by `python scripts/speed_table.py --seconds {args.seconds:g}` on "
          f"{datetime.date.today().isoformat()}: {os.cpu_count()} cores ({cpu_name()}), both cores used, "
          f"load average {load:.1f} at the end; Python {platform.python_version()}.\n")
    print("| game | record | default policy | default (records/s) | expert (records/s) | basic (records/s) "
          "| cold compile, default (s) |")
    print("|---|---|---|---:|---:|---:|---:|")
    for game, default, basic, expert, chosen, compile_s in rows:
        print(f"| {game} | {basic['unit']} | {default} | {chosen['rate']:,.0f} | {expert['rate']:,.0f} | "
              f"{basic['rate']:,.0f} | {compile_s:.0f} |")
    print("\n| command | warm start | first call after an install or an edit |")
    print("|---|---:|---:|")
    for r in bench("--startup", "--runs", "5"):
        print(f"| `simcards {r['command'].removeprefix('simcards ')}` | {r['median_s'] * 1000:.0f} ms | "
              f"{r['first_call_s']:.1f} s |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
