"""pimc's worlds: dd.card_values exact (dd.EXACT) against values resolved only as far as the
utility tells them apart (the utility of Spades' pimc: both contracts, an overtrick neutral).

    python scripts/pimc_utility_values.py CARDS_LEFT DEALS WORLDS

The trick start of deal d's (seed 5, expert's play) trick 14 - CARDS_LEFT, its leader's
decision, WORLDS sampled worlds: nodes, CPU seconds, and the worlds where a card's utility differs.
"""
import sys, time
import numpy as np
from simcards.core import dd
from simcards.core.pimc import sample_world_py, TABLE_BITS
from simcards.experiment.spec import make_spec
from simcards.experiment.runner import _context
from simcards.games.spades.dd import played_deal, solver_rules

left = int(sys.argv[1]); n_deals = int(sys.argv[2]); n_worlds = int(sys.argv[3]) if len(sys.argv) > 3 else 8
spec = make_spec("spades", unit="deal", count=1, seed=5, policy="expert")
game, variant, table = _context(spec)
tot = {"exact": [0, 0.0], "coarse": [0, 0.0]}
bad = 0; n = 0
for d in range(n_deals):
    deal = played_deal(variant, table, 5, d)
    r = deal["record"]
    H = [int(h) for h in deal["hands"]]
    cards = deal["cards"]; winners = deal["winners"]
    leader = deal["leader"]; broken = False; taken = [0] * 4
    for k in range(4 * (13 - left)):
        c = cards[k]
        for s in range(4):
            H[s] &= ~(1 << c)
        broken |= c >= 39
        if k % 4 == 3:
            leader = winners[k // 4]; taken[leader] += 1
    row, masks = solver_rules(variant, deal["hands"])
    me = leader; us = me & 1
    bids = [0, 0]; tk = [0, 0]
    for s in range(4):
        b = r[f"bid{s}"]
        if b > 0 and not r[f"blind{s}"]:
            bids[s & 1] += b; tk[s & 1] += taken[s]
    pts = lambda bid, tkn, v: 0 if bid == 0 else (10 * bid if tkn + v >= bid else -10 * bid)
    util = np.array([pts(bids[us], tk[us], v) - pts(bids[1 - us], tk[1 - us], left - v) for v in range(left + 1)], np.int64)
    unseen = 0
    for s in range(4):
        if s != me: unseen |= H[s]
    sizes = [bin(h).count("1") for h in H]
    fixed = [0] * 4; fixed[me] = H[me]
    allowed = [0xFFFFFFFFFFFFFFFF] * 4; allowed[me] = 0
    side = np.int64((1 << me) | (1 << ((me + 2) % 4)))
    z = np.int64(0)
    for w in range(n_worlds):
        Hw = np.array(sample_world_py(unseen, fixed, sizes, allowed, seed=1000 * d + w + 1), np.uint64)
        res = {}
        for mode, u in (("exact", dd.EXACT), ("coarse", util)):
            t = dd.Table(TABLE_BITS[left]); t.fresh()
            oc = np.zeros(dd.MAX_MOVES, np.int64); ov = np.zeros(dd.MAX_MOVES, np.int64)
            t0 = time.process_time()
            k = dd.card_values(Hw, row, side, masks, np.zeros(8, np.int64), z, np.int64(me), np.int64(broken), z,
                               t.keys, t.bounds, t.links, t.heads, t.meta, t.counters, oc, ov, u)
            tot[mode][1] += time.process_time() - t0
            tot[mode][0] += int(t.counters[dd.C_NODES])
            res[mode] = {int(oc[i]): int(util[min(int(ov[i]), left)]) for i in range(k)}
        n += 1
        bad += res["exact"] != res["coarse"]
e, c = tot["exact"], tot["coarse"]
print(f"left={left} worlds={n} exact nodes={e[0]:,} cpu={e[1]:.2f}s coarse nodes={c[0]:,} cpu={c[1]:.2f}s "
      f"node ratio={c[0]/max(1,e[0]):.3f} cpu ratio={c[1]/max(1e-9,e[1]):.3f} utility mismatches={bad}")
