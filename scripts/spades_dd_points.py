"""Where Spades policies lose points against double dummy, trick by trick.

For deals ``0..N-1`` of a seed, ``expert`` bids (and calls Blind Nil, exchanges) at every seat
and each named policy plays every card (the same deals and contracts for every policy, as
``simcards ladder --dd-deals`` with ``--dd-bids expert``). Every decision (a card chosen from
two or more legal cards, no Nil alive, either team's) is valued double dummy:
the points its side loses against the best card (``simcards.games.spades.dd.points_lost``'s
measure: both contracts, an overtrick neutral). Printed per trick (1-13) and in all, with
each policy's ratio to the first's and its paired 95 % interval (percentile bootstrap over
the deals, 2,000 resamples)::

    python scripts/spades_dd_points.py --policies expert,pimc --deals 1000 --seed 9

``--csv FILE`` also writes every scored decision (policy, deal, trick, position, seat, card,
tricks best and after, points lost x10).
"""
from __future__ import annotations

import argparse
import csv
import sys
import time

import numpy as np

from simcards.core import dd, dd_report
from simcards.core.game import get_game
from simcards.games.spades import dd as sdd


def decisions(game, variant, policy: str, deals: int, seed: int) -> list[dict]:
    """The scored decisions of ``policy`` at every seat (bids by ``expert``) on deals 0..deals-1."""
    table = game.policies.table([policy], bidding="expert")
    solver = dd.Table()
    out = []
    chunk = 50  # deals played in one kernel run (a run per deal costs 4 ms of typing the policy table)
    played = (deal for start in range(0, deals, chunk)
              for deal in sdd.played_deals(variant, table, seed, start, min(chunk, deals - start)))
    for i, deal in enumerate(played):
        rules, masks = sdd.solver_rules(variant, deal["hands"])
        steps = dd_report.costs(deal, rules, masks, sdd.SIDES, solver=solver)
        for step, position, cost in sdd.decision_points(deal, steps, rules, masks):
            if cost is None:
                continue  # the measure cannot value keeping a Nil bidder off tricks
            out.append({"policy": policy, "deal": i, "trick": step["trick"] + 1, "position": position,
                        "seat": step["seat"], "card": step["card"], "best": step["best"], "after": step["after"],
                        "points_x10": cost})
    return out


def per_deal(rows: list[dict], deals: int, tricks: range) -> tuple[np.ndarray, np.ndarray]:
    """(points lost, decisions) per deal over ``tricks``."""
    pts, dec = np.zeros(deals), np.zeros(deals)
    for r in rows:
        if r["trick"] in tricks:
            pts[r["deal"]] += r["points_x10"] / 10.0
            dec[r["deal"]] += 1
    return pts, dec


def ratio_interval(a, b, draws) -> tuple[float, float, float]:
    """(ratio of b's points a decision to a's, paired 95 % bootstrap interval; nan where a's is 0)."""
    def ratio(k=slice(None)):
        (pa, da), (pb, db) = a, b
        ref = pa[k].sum() / max(da[k].sum(), 1)
        return np.nan if ref == 0 else (pb[k].sum() / max(db[k].sum(), 1)) / ref

    boot = np.array([ratio(k) for k in draws])
    boot = boot[~np.isnan(boot)]
    if len(boot) < len(draws) // 2:
        return np.nan, np.nan, np.nan
    low, high = np.percentile(boot, [2.5, 97.5])
    return ratio(), float(low), float(high)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--policies", default="expert,pimc", help="comma-separated; the first is the reference")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--csv", help="write every scored decision here")
    args = parser.parse_args(argv)
    game = get_game("spades")
    variant = game.variant_type.from_mapping({})
    names = [p.strip() for p in args.policies.split(",") if p.strip()]
    rows = {}
    for p in names:
        t0 = time.perf_counter()
        rows[p] = decisions(game, variant, p, args.deals, args.seed)
        print(f"{p}: {args.deals} deals in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    draws = np.random.default_rng(0).integers(0, args.deals, size=(2000, args.deals))
    spans = [(f"trick {t}", range(t, t + 1)) for t in range(1, 14)]
    spans += [("tricks 1-8", range(1, 9)), ("tricks 9-13", range(9, 14)), ("all", range(1, 14))]
    head = ["tricks"] + [f"{p} pts/decision" for p in names] + [f"{p} / {names[0]}" for p in names[1:]]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for label, tricks in spans:
        sums = {p: per_deal(rows[p], args.deals, tricks) for p in names}
        cells = [label] + [f"{sums[p][0].sum() / max(sums[p][1].sum(), 1):.2f}" for p in names]
        for p in names[1:]:
            r, low, high = ratio_interval(sums[names[0]], sums[p], draws)
            cells.append("n/a" if np.isnan(r) else f"{r:.2f} [{low:.2f}, {high:.2f}]")
        print("| " + " | ".join(cells) + " |")
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(next(iter(rows.values()))[0]))
            writer.writeheader()
            for p in names:
                writer.writerows(rows[p])
    return 0


if __name__ == "__main__":
    sys.exit(main())
