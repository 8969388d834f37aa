"""Measure Kierki simulation speed: ``python -m simcards.games.kierki.speed [policy] [threads]``.

Prints games/s (whole standard games) and deals/s per deal type, single thread and
with ``threads`` threads sharing the work (the kernel releases the GIL).
"""
from __future__ import annotations

import sys
import time
from concurrent.futures import ThreadPoolExecutor

from simcards.games.kierki import GAME


def rate(unit, variant, table, n, threads=1, chunk=5000, cpu=False):
    """Records per second of wall time (or, with ``cpu``, per second of this thread's CPU time)."""
    GAME.simulate(unit, variant, table, 0, 0, 10)  # warm
    starts = list(range(0, n, chunk))
    if cpu:
        t = time.thread_time()
        for s in starts:
            GAME.simulate(unit, variant, table, 1, s, min(chunk, n - s))
        return n / (time.thread_time() - t)
    t = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(lambda s: GAME.simulate(unit, variant, table, 1, s, min(chunk, n - s)), starts))
    return n / (time.perf_counter() - t)


def main(policy="basic", threads=2):
    t = time.perf_counter()
    table = GAME.policies.table([policy] * 4)
    print(f"policy {policy}: load/compile {time.perf_counter() - t:.1f} s")
    v = GAME.variant()
    print(f"standard games/s, 1 thread: {rate('game', v, table, 100_000):,.0f} "
          f"({rate('game', v, table, 100_000, cpu=True):,.0f} per CPU-second)")
    print(f"standard games/s, {threads} threads: {rate('game', v, table, 200_000, threads):,.0f}")
    print(f"early_stop games/s, 1 thread: {rate('game', v.replace(early_stop=True), table, 100_000):,.0f}")
    for dt in ("no_tricks", "robber", "trumps", "lottery"):
        r = rate('deal', v.replace(deal_type=dt), table, 500_000, chunk=50_000, cpu=True)
        print(f"{dt} deals per CPU-second: {r:,.0f}")


if __name__ == "__main__":
    main(*(sys.argv[1:2] or ["basic"]), *(int(x) for x in sys.argv[2:3]))
