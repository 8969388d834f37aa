#!/usr/bin/env python
"""The double-dummy solver against DDS (endplay) in bridge mode, on full random deals.

    python scripts/dd_check.py --deals 1000            # every strain, every seat on lead
    python scripts/dd_check.py --deals 50 --strains N  # no trump only
    python scripts/dd_check.py --deals 2000 --cards 8  # 8-card endings (fast)
    python scripts/dd_check.py --deals 30 --strains NS --seed 7 --start 10   # deals 10..39 of seed 7
    python scripts/dd_check.py --deals 200 --cards 8 --table-bits 6          # a pool that fills often

Bridge mode: 4 seats, 52 cards, no spades-broken rule, no trick-1 rules. For each deal,
strain and seat on lead it compares the tricks of the side on lead; prints one line per
disagreement, a running count with both solvers' mean time a solve, and exits 1 if any deal
disagrees. Needs the test extra
(``pip install -e ".[test]"``, which brings endplay).
"""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--strains", default="CDHSN", help="strains to check, from C D H S N")
    ap.add_argument("--cards", type=int, default=13, help="cards per hand (13: full deals; fewer: endings)")
    ap.add_argument("--start", type=int, default=0, help="skip this many deals of the seed first (to split a run)")
    ap.add_argument("--table-bits", type=int, default=None,
                    help="transposition table size (dd.Table(bits)); small ones exercise a full pool")
    args = ap.parse_args()
    from endplay.types import Denom

    from simcards.core import dd
    from simcards.core.cards import SUIT_MASKS
    sys.path.insert(0, "tests/dd")
    from test_against_dds import dds_leader_tricks, pbn, random_hands

    strains = {"C": (Denom.clubs, 0), "D": (Denom.diamonds, 1), "H": (Denom.hearts, 2), "S": (Denom.spades, 3),
               "N": (Denom.nt, -1)}
    rng = np.random.default_rng(args.seed)
    table = dd.Table() if args.table_bits is None else dd.Table(args.table_bits)
    bad = checked = 0
    t0 = time.perf_counter()
    ours_s = dds_s = 0.0
    for i in range(args.start + args.deals):
        hands = random_hands(rng, args.cards)
        if i < args.start:
            continue
        for letter in args.strains:
            denom, trump = strains[letter]
            rules = dd.rules_row(4, trump)
            table.fresh()
            for leader in range(4):
                t = time.perf_counter()
                got = dd.solve(hands, rules, [leader, (leader + 2) % 4], SUIT_MASKS, leader=leader, table=table)
                t2 = time.perf_counter()
                want = dds_leader_tricks(hands, denom, leader)
                ours_s += t2 - t
                dds_s += time.perf_counter() - t2
                checked += 1
                if got != want:
                    bad += 1
                    print(f"DISAGREE deal {i} {pbn(hands)} strain {letter} leader {leader}: ours {got}, DDS {want}")
        print(f"deal {i + 1}: {checked} solves checked, {bad} disagreements, {time.perf_counter() - t0:.0f} s "
              f"(ours {ours_s / checked * 1000:.1f} ms a solve, DDS {dds_s / checked * 1000:.1f} ms)", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
