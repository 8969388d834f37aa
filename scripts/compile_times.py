#!/usr/bin/env python
"""Where a first run's compile time goes: seconds per compiled function, from an empty cache.

    .venv/bin/python scripts/compile_times.py spades                # `simcards run spades`, default policy
    .venv/bin/python scripts/compile_times.py kierki --top 30
    .venv/bin/python scripts/compile_times.py spades -- bid spades --hand "AS KS 7S 4S AH QH 9H 5D 4D 3D KC 8C 2C" --seat N --dealer W --deals 100

Runs the command in a child process with an empty numba cache (NUMBA_CACHE_DIR in a temporary
folder) and numba's compile events recorded. Prints the wall time, the compile time (CPU
seconds of the process, so a busy machine inflates it less than the wall time), the functions
numba compiled more than once (one specialization per argument types), and the functions with
the most *own* compile seconds (a function's time less the time of the functions
it made numba compile inside it), which is where a cut pays. Timings only; never used by tests.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

CHILD = r"""
import json, sys, time
from numba.core import event

stack, rows = [], []

class Timer(event.Listener):
    def on_start(self, ev):
        stack.append([time.process_time(), 0.0])
    def on_end(self, ev):
        t0, inner = stack.pop()
        total = time.process_time() - t0
        if stack:
            stack[-1][1] += total
        f = ev.data["dispatcher"].py_func
        rows.append({"function": f"{f.__module__}.{f.__qualname__}", "own": total - inner, "total": total,
                     "depth": len(stack)})

event.register("numba:compile", Timer())
from simcards.cli import main
t0 = time.perf_counter()
try:
    main(json.loads(sys.argv[1]))
except SystemExit:
    pass
print("@@" + json.dumps({"wall": time.perf_counter() - t0, "rows": rows}), file=sys.stderr)
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", help="game of `simcards run GAME` (ignored when a command follows --)")
    ap.add_argument("--top", type=int, default=20, help="functions to list")
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    args = ap.parse_args(argv[:cut])
    command = argv[cut + 1:] or ["run", args.game, "--deals", "100", "--quiet",
                                 "--out", tempfile.mkdtemp(prefix="compile-times-")]
    env = dict(os.environ, NUMBA_CACHE_DIR=tempfile.mkdtemp(prefix="simcards-cold-"))
    done = subprocess.run([sys.executable, "-c", CHILD, json.dumps(command)], env=env, capture_output=True, text=True)
    line = next((x for x in done.stderr.splitlines() if x.startswith("@@")), None)
    if line is None:
        print(done.stderr[-2000:], file=sys.stderr)
        return 1
    data = json.loads(line[2:])
    rows = data["rows"]
    compiled = sum(r["own"] for r in rows)
    print(f"simcards {' '.join(command)}")
    print(f"wall {data['wall']:.1f} s, compiling {compiled:.1f} s, {len(rows)} functions compiled\n")
    print(f"{'own s':>7} {'total s':>8}  function")
    for r in sorted(rows, key=lambda r: -r["own"])[:args.top]:
        print(f"{r['own']:7.2f} {r['total']:8.2f}  {r['function']}")
    counts: dict[str, list[float]] = {}
    for r in rows:
        counts.setdefault(r["function"], []).append(r["own"])
    repeated = {f: t for f, t in counts.items() if len(t) > 1 and not f.startswith("numba.")}
    if repeated:
        print("\ncompiled more than once (a specialization per argument types; each costs its own compile):")
        for f, t in sorted(repeated.items(), key=lambda kv: -sum(kv[1])):
            print(f"{sum(t):7.2f}  {f} x{len(t)}")
    by_module: dict[str, float] = {}
    for r in rows:
        module = r["function"].rsplit(".", 1)[0]
        by_module[module] = by_module.get(module, 0.0) + r["own"]
    print("\nby module:")
    for module, seconds in sorted(by_module.items(), key=lambda kv: -kv[1])[:10]:
        print(f"{seconds:7.2f}  {module}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
