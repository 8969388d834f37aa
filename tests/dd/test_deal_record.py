"""The per-deal numbers of `run --records dd` (core.dd_report.deal_record), shared by every
game: on Spades deals they are the partnership's table entry and the sum of its cards' costs."""
from simcards.core import dd, dd_report
from simcards.core.game import get_game
from simcards.core.policy import seat_policies
from simcards.games.spades import dd as sdd


def test_spades_records_are_the_costs_and_the_table():
    g = get_game("spades")
    v = g.variant(None, None, [])
    table = g.policies.table(seat_policies("expert", None, 4))
    out = sdd.dd_records("deal", v, table, 1, 0, 2)  # two deals of seed 1 that solve in about a second
    for i in range(2):
        deal = sdd.played_deal(v, table, 1, i)
        row, masks = sdd.solver_rules(v, deal["hands"])
        ns = dd.solve(deal["hands"], row, (0, 2), masks, leader=deal["leader"], trick1=True)
        ew = dd.solve(deal["hands"], row, (1, 3), masks, leader=deal["leader"], trick1=True)
        assert list(out[i, :2]) == [ns, ew] and ns + ew == 13
        costs = dd_report.costs(deal, row, masks, sdd.SIDES)
        per_seat = [sum(c["cost"] for c in costs if c["seat"] == s) for s in range(4)]
        pts, dec, nil = sdd.points_lost(deal, costs, row, masks)
        assert list(out[i, 8:]) == pts + dec + [nil]
        assert list(out[i, 4:8]) == per_seat and list(out[i, 2:4]) == [per_seat[0] + per_seat[2],
                                                                      per_seat[1] + per_seat[3]]
        # zero-sum: the other side's cards only raise a team's value, so it wins exactly its
        # double-dummy tricks, less its own losses, plus the other side's
        won = sum(1 for w in deal["winners"] if w % 2 == 0)
        assert won == ns - out[i, 2] + out[i, 3]
