"""Seep policy parameters (issue 16): defaults reproduce today's play, values change it, and
each seat's row reaches its view."""
import textwrap

import numpy as np

from simcards.games.seep import GAME

V = GAME.variant()
COLS = GAME.unit("deal").column_names()


def records(specs, n=150, seed=4):
    return GAME.simulate("deal", V, GAME.policies.table(list(specs)), seed, 0, n)


def spelled(name):
    policy = GAME.policies.builtins[name]
    return name + "".join(f":{p.name}={p.format(p.default)}" for p in policy.params)


def test_default_parameters_give_the_records_of_no_parameters():
    for name in ("basic", "expert"):
        assert np.array_equal(records([name] * 4), records([spelled(name)] * 4)), name


def test_house_appetite_changes_how_often_houses_are_built():
    built = COLS.index("houses_built")
    for low, high in (("basic:build_value=-20", "basic:build_value=30"),
                      ("expert:house_bonus=-20", "expert:house_bonus=20")):
        few, many = records([low] * 4)[:, built], records([high] * 4)[:, built]
        assert many.mean() > few.mean() + 0.5, (low, high, few.mean(), many.mean())


def test_each_seats_parameters_reach_its_own_view(tmp_path):
    """A user bid policy returns the value its parameter names when it holds it: seat by
    seat (the bidder changes with the dealer), every bid follows the bidder's own value."""
    bots = tmp_path / "bots.py"
    bots.write_text(textwrap.dedent("""
        from simcards import Policy
        from simcards.core.policy import PolicyParam, param_value
        from simcards.games.seep import policies as sp
        from simcards.games.seep.cards import VALMASK
        from simcards.games.seep.layout import S_HAND, S_PARAMS

        def wish(view, rng):
            v = int(param_value(view, S_PARAMS + 0))
            if view[S_HAND] & VALMASK[v]:
                return v
            return sp.basic_bid(view, rng)

        WISH = Policy("wish", bid=wish, move=sp.random_move,
                      params=(PolicyParam("value", 13, 9, 13, "the bid wished for", integer=True),))
    """))
    wishes = (9, 10, 11, 12)
    out = records([f"{bots}:WISH:value={w}" for w in wishes], n=300)
    bidder, bid, held = COLS.index("bidder"), COLS.index("bid"), COLS.index("bid_options")
    holds = (out[:, held] >> np.array(wishes)[out[:, bidder]]) & 1 == 1
    assert holds.sum() > 30 and (~holds).sum() > 30
    assert (out[holds, bid] == np.array(wishes)[out[holds, bidder]]).all()
