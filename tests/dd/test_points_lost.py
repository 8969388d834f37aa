"""The ladder's double-dummy measure in points (Spades): what a decision cost against the best
card, scored by the contracts, recomputed here from the played deals by a separate scorer."""
import numpy as np
import pandas as pd
import pytest

from simcards.core import dd, dd_report, stats
from simcards.core.game import get_game
from simcards.games.spades import dd as sdd


def _contract(bid: int, total: int) -> int:
    """A number contract's points, an overtrick neutral (its point less one for its bag)."""
    if bid <= 0:
        return 0
    return 10 * bid if total >= bid else -10 * bid


def _expected(deal, step, taken, left, bids):
    """Points (x10) of the team to play with ``v`` of the ``left`` tricks, ours minus theirs."""
    us = step["seat"] & 1

    def points(v):
        mine = [_contract(sum(b for s, b in enumerate(bids) if s & 1 == t and b > 0),
                          sum(taken[s] for s in range(4) if s & 1 == t and bids[s] > 0) + extra)
                for t, extra in ((us, v), (1 - us, left - v))]
        return 10 * (mine[0] - mine[1])

    return points(step["best"]) - points(step["after"])


def test_points_lost_scores_contracts_not_tricks():
    g = get_game("spades")
    variant = g.variant(None, [])
    table = g.policies.table(["expert"])
    kinds = dd_report.DECISION_KINDS
    solver = dd.Table()
    free_tricks = 0  # decisions that lost a trick double dummy at no cost in points
    for index in range(3):
        deal = sdd.played_deal(variant, table, 7, index)
        rules, masks = sdd.solver_rules(variant, deal["hands"])
        steps = dd_report.costs(deal, rules, masks, sdd.SIDES, solver=solver)
        pts, dec, nil = sdd.points_lost(deal, steps, rules, masks)
        r = deal["record"]
        bids = [r[f"bid{s}"] for s in range(4)]
        want_pts, want_dec, want_nil = [0] * 6, [0] * 6, 0
        for step, pos, taken, left in dd_report.decisions(deal, steps, rules, masks):
            if any(bids[s] == 0 and taken[s] == 0 for s in range(4)):  # a Nil alive, either team's
                want_nil += 1
                continue
            cost = _expected(deal, step, taken, left, bids)
            assert cost >= 0
            free_tricks += step["cost"] > 0 and cost == 0
            for k in (pos, 4 if step["trick"] < 8 else 5):
                want_pts[k] += cost
                want_dec[k] += 1
        assert (pts, dec, nil) == (want_pts, want_dec, want_nil)
        assert sum(dec[:4]) == sum(dec[4:])  # every decision is early or late
        assert 0 < sum(dec[:4]) + nil < 52
    assert free_tricks > 0  # the trick measure would have counted these


def test_decisions_are_the_cards_chosen_from_two_or_more():
    g = get_game("spades")
    variant = g.variant(None, [])
    deal = sdd.played_deal(variant, g.policies.table(["expert"]), 7, 0)
    rules, masks = sdd.solver_rules(variant, deal["hands"])
    steps = [{"seat": -1, "card": c, "trick": k // 4} for k, c in enumerate(deal["cards"])]
    for k, step in enumerate(steps):  # the seat of each card, from the hands
        step["seat"] = next(s for s in range(4) if deal["hands"][s] >> step["card"] & 1)
    found = dd_report.decisions(deal, steps, rules, masks)
    positions = [pos for _, pos, _, _ in found]
    assert set(positions) <= {0, 1, 2, 3}
    last = [d for d in found if d[0]["trick"] == 12]
    assert not last  # one card left: no choice
    assert all(left == 13 - d["trick"] for d, _, _, left in found)


def test_points_tally_by_kind():
    from simcards.games.spades.dd import COLUMNS, dd_tally

    df = pd.DataFrame({c.name: np.zeros(2, np.int64) for c in COLUMNS})
    for c in ("contract0", "contract1", "made0", "made1"):
        df[c] = 0
    df["dd_pts_lead"] = [100, 0]
    df["dd_dec_lead"] = [10, 10]
    df["dd_dec_second"] = [10, 10]
    df["dd_pts_early"] = [100, 0]
    df["dd_dec_early"] = [20, 20]
    df["dd_dec_nil"] = [5, 0]
    s = stats.finalize(dd_tally("deal", df, None)).set_index(["metric", "group"])["estimate"]
    assert s[("dd_points_per_decision", "all")] == pytest.approx(10 / 40)
    assert s[("dd_points_per_decision", "lead")] == pytest.approx(10 / 20)
    assert s[("dd_points_per_decision", "second")] == 0
    assert s[("dd_points_unscored_nil", "all")] == pytest.approx(5 / 45)
