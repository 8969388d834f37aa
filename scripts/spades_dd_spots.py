"""Where Spades policies lose tricks against double dummy, by kind of decision.

For deals ``0..N-1`` of a seed, each named policy plays all four seats (the same deals for
every policy); every card of the play is then valued double dummy (``core.dd.play_costs``,
the Spades rules of docs/games/spades.md section 4) and its cost (tricks its partnership
loses against the best card) is tallied by kind: lead or follow, trick number, whether the
side still needed tricks for its number contract, Nil play. Decisions are cards chosen from
two or more legal cards. Paired per deal, the unit of every interval (the deal's total loss
over its 52 cards).

Results go to a JSON-lines file, one line per (policy, deal), so an interrupted run resumes::

    python scripts/spades_dd_spots.py --deals 300 --policies expert,pimc --out results/dd-spots.jsonl
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

from simcards.core import dd
from simcards.core.game import get_game
from simcards.games.spades import dd as sdd
from simcards.games.spades.kernel import prepared

SPADES = ((1 << 13) - 1) << 39


def legal_count(hand: int, trick: list[int], broken: bool, masks) -> int:
    """Legal cards of ``hand`` (default rules: spades broken before a spade lead)."""
    if trick:
        led = next(s for s in range(4) if int(masks[s]) >> trick[0] & 1)
        follow = hand & int(masks[led])
        return bin(follow or hand).count("1")
    if not broken and hand & ~SPADES:
        return bin(hand & ~SPADES).count("1")
    return bin(hand).count("1")


def analyse(variant, table, seed: int, index: int, solver) -> dict:
    deal = sdd.played_deal(variant, table, seed, index)
    row, masks = sdd.solver_rules(variant, deal["hands"])
    steps = dd.play_costs(deal["hands"], row, masks, [sdd.TEAMS[s % 2] for s in range(4)], deal["leader"],
                          deal["cards"], table=solver)
    rec = deal["record"]
    bids = [rec[f"bid{s}"] for s in range(4)]
    contract = [sum(b for s, b in enumerate(bids) if s % 2 == t and b > 0) for t in range(2)]
    hands = list(deal["hands"])
    taken = [0, 0]
    trick: list[int] = []
    broken = False
    out = []
    for step in steps:
        s, c = step["seat"], step["card"]
        team = s % 2
        n_legal = legal_count(hands[s], trick, broken, masks)
        kind = "lead" if not trick else ("second" if len(trick) == 1 else ("third" if len(trick) == 2 else "fourth"))
        nil = bids[s] == 0 or bids[s ^ 2] == 0
        out.append((step["trick"], kind, n_legal, step["cost"], taken[team] < contract[team], nil, team))
        hands[s] &= ~(1 << c)
        trick.append(c)
        if (1 << c) & SPADES:
            broken = True
        if len(trick) == 4:
            winner = deal["winners"][step["trick"]]
            taken[winner % 2] += 1
            trick = []
    return {"deal": index, "cards": out, "made": [rec["made0"], rec["made1"]], "contract": contract}


def summarise(lines: list[dict], policies: list[str]) -> None:
    by = {p: {d["deal"]: d for d in lines if d["policy"] == p} for p in policies}
    common = sorted(set.intersection(*(set(v) for v in by.values())))
    print(f"deals analysed by every policy: {len(common)}")
    rows = {}
    for p in policies:
        per_deal = []
        kinds: dict[str, list[float]] = {}
        dec = need = 0
        for i in common:
            cards = by[p][i]["cards"]
            per_deal.append(sum(c[3] for c in cards))
            for trick, kind, n_legal, cost, needs, nil, team in cards:
                if n_legal < 2:
                    continue
                dec += 1
                kinds.setdefault(kind, []).append(cost)
                kinds.setdefault("early (tricks 1-8)" if trick < 8 else "late (tricks 9-13)", []).append(cost)
                if needs and not nil:
                    kinds.setdefault("while the side needs tricks", []).append(cost)
                    need += 1
        x = np.array(per_deal, float)
        rows[p] = x
        print(f"\n{p}: {x.sum() / dec:.4f} tricks lost per decision ({dec} decisions), "
              f"{x.mean():.3f} per deal (both sides), {x.sum() / (52 * len(x)):.4f} per card")
        for k, v in sorted(kinds.items()):
            a = np.array(v, float)
            print(f"  {k:32s} {a.mean():.4f} per decision  ({len(a)} decisions, {a.sum():.0f} tricks, "
                  f"{a.sum() / x.sum():.0%} of the loss)")
    base = policies[0]
    for p in policies[1:]:
        d = rows[p] - rows[base]
        se = d.std(ddof=1) / math.sqrt(len(d))
        ratio = rows[p].sum() / rows[base].sum()
        # the ratio's interval by the delta method on the paired per-deal sums
        a, b = rows[p], rows[base]
        cov = np.cov(a, b)
        r_se = ratio * math.sqrt(cov[0, 0] / a.mean() ** 2 + cov[1, 1] / b.mean() ** 2
                                 - 2 * cov[0, 1] / (a.mean() * b.mean())) / math.sqrt(len(a))
        print(f"\n{p} - {base}: {d.mean():+.3f} tricks a deal, 95 % [{d.mean() - 1.96 * se:+.3f}, "
              f"{d.mean() + 1.96 * se:+.3f}]; loss ratio {ratio:.3f} [{ratio - 1.96 * r_se:.3f}, "
              f"{ratio + 1.96 * r_se:.3f}] (n = {len(d)} deals)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--policies", default="expert,pimc", help="comma-separated; the first is the baseline")
    ap.add_argument("--out", type=Path, default=Path("results/spades-dd-spots.jsonl"))
    ap.add_argument("--summary-only", action="store_true")
    args = ap.parse_args()
    policies = args.policies.split(",")
    game = get_game("spades")
    variant = game.variant(None, {})
    tables = {p: game.policies.table([p]) for p in policies}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.loads(t) for t in args.out.read_text().splitlines()] if args.out.exists() else []
    done = {(d["policy"], d["deal"]) for d in lines}
    solver = dd.Table()
    if not args.summary_only:
        with args.out.open("a") as f:
            for i in range(args.deals):
                for p in policies:
                    if (p, i) in done:
                        continue
                    t0 = time.time()
                    d = analyse(variant, tables[p], args.seed, i, solver)
                    d["policy"] = p
                    f.write(json.dumps(d) + "\n")
                    f.flush()
                    lines.append(d)
                    print(f"deal {i} {p}: lost {sum(c[3] for c in d['cards'])} ({time.time() - t0:.1f} s)",
                          file=sys.stderr)
    summarise(lines, policies)
    return 0


if __name__ == "__main__":
    sys.exit(main())
