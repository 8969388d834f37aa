#!/usr/bin/env python
"""Memory of a run with an enormous count: it must stay flat from the first second.

    python scripts/huge_count_memory.py                        # 10^15 Spades deals, 20 s
    python scripts/huge_count_memory.py --game seep --seconds 60

Starts `simcards run GAME --deals N --records summary` in a child process, samples the
child's resident memory (VmRSS) every 0.25 s for --seconds, stops it with Ctrl-C
(SIGINT: the finished chunks are kept) and prints the first, median and largest
sample and the records computed.
"""
import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def rss_mib(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="spades")
    ap.add_argument("--deals", type=int, default=10**15)
    ap.add_argument("--seconds", type=float, default=20.0)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "huge"
        proc = subprocess.Popen([sys.executable, "-m", "simcards.cli", "run", args.game, "--deals", str(args.deals),
                                 "--records", "summary", "--out", str(out), "--quiet"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        samples = []
        t0 = time.time()
        while time.time() - t0 < args.seconds and proc.poll() is None:
            value = rss_mib(proc.pid)
            if value is not None:
                samples.append((time.time() - t0, value))
            time.sleep(0.25)
        stopped = time.time()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
        stop_seconds = time.time() - stopped
        done = 0
        if (out / "meta.json").exists():
            done = sum(e["count"] for e in json.loads((out / "meta.json").read_text())["manifest"]["done"])
    if not samples:
        sys.exit(f"the run ended at once: {err.strip()}")
    values = [v for _, v in samples]
    marks = [next((v for t, v in samples if t >= k * args.seconds / 4), values[-1]) for k in (1, 2, 3, 4)]
    last = err.strip().splitlines()[-1] if err.strip() else ""
    print(f"{args.game}: --deals {args.deals:,} --records summary: RSS at "
          f"{'/'.join(f'{k * args.seconds / 4:g}' for k in (1, 2, 3, 4))} s: "
          f"{', '.join(f'{m:,.0f}' for m in marks)} MiB (max {max(values):,.0f} MiB); {done:,} deals kept; "
          f"stopped {stop_seconds:.1f} s after Ctrl-C (exit {proc.returncode}): {last}")
    os._exit(0)


if __name__ == "__main__":
    main()
