"""Policy parameters in Cutthroat (issue 16): defaults reproduce the built-ins, values change
play, each seat's values reach its own policy, the named bidding styles."""
import functools
import os

import numpy as np
import pytest

from simcards.games.cutthroat import rules
from simcards.games.cutthroat.layout import B_BN, B_B6, B_SM, NIL
from simcards.games.cutthroat.policies import CATALOG
from simcards.games.cutthroat.variant import CutthroatVariant

BOTS = os.path.join(os.path.dirname(__file__), "cutthroat_param_bots.py")
V4 = CutthroatVariant(num_players=4)
BIDS = [rules.DEAL_COLUMNS.index(f"bid_{s}") for s in range(4)]


@functools.lru_cache(maxsize=None)
def table(*specs):
    return CATALOG.table(list(specs))


def deals(spec, count=300, seed=4, variant=V4):
    return rules.simulate("deal", variant, table(*[spec] * variant.num_players), seed, 0, count)[:, BIDS[:variant.num_players]]


def ordinary(bids):
    return (bids >= 1) & (bids <= 17)


def test_explicit_defaults_give_the_records_of_no_parameters():
    spec = ("expert:nil_limit=1.6:nil_limit_long=1:margin=0.7:bagout_margin=0.3:moon_margin=1:b6_deficit=100"
            ":late_within=150:bn_deficit=250")
    assert CATALOG.canonical(spec) == spec
    games = {s: rules.simulate("game", V4, table(s, s, s, s), 2, 0, 20) for s in (spec, "expert")}
    np.testing.assert_array_equal(games[spec], games["expert"])
    np.testing.assert_array_equal(deals("basic:nil_below=0.6:margin=0.5"), deals("basic"))


@pytest.mark.parametrize("policy", ["basic", "expert"])
def test_margin_moves_every_ordinary_bid_the_same_way(policy):
    low, high = deals(f"{policy}:margin=2"), deals(f"{policy}:margin=-2")
    both = ordinary(low) & ordinary(high)
    assert (high[both] >= low[both]).all() and (high[both] - low[both]).mean() > 2


def test_nil_limits_change_how_often_expert_bids_nil():
    never = deals("expert:nil_limit=0:nil_limit_long=0")
    eager = deals("expert:nil_limit=17:nil_limit_long=17")
    assert (never == NIL).sum() == 0
    assert (eager == NIL).sum() > (deals("expert") == NIL).sum() > 0


def test_blind_thresholds_reach_the_blind_decision():
    """Three players, from 0-0: B6 is offered (its minimum deficit is 0 here); expert takes it
    only when behind by b6_deficit (0 at 0-0 qualifies) or late."""
    v = CutthroatVariant(blind_six_min_deficit=0)
    assert (deals("expert:b6_deficit=0", variant=v) == B_B6).any()
    assert not (deals("expert:b6_deficit=1", variant=v) == B_B6).any()


def test_each_seat_reads_its_own_parameter_values():
    """A user policy bids its parameter: per seat, different values, every bid as asked."""
    values = (2, 5, 1, 4)
    out = rules.simulate("deal", V4, CATALOG.table([f"{BOTS}:fixed:bid={b}" for b in values]), 5, 0, 100)
    assert (out[:, BIDS] == values).all()


def test_bidding_styles_order_the_bids():
    """aggressive bids more tricks and more Nils and moons than expert, conservative fewer (same deals)."""
    styles = {name: deals(name, count=600) for name in ("conservative", "expert", "aggressive")}
    number = np.logical_and.reduce([ordinary(bids) for bids in styles.values()])
    total = {name: bids[number].sum() for name, bids in styles.items()}
    special = {name: np.isin(bids, (NIL, B_SM, B_BN)).sum() for name, bids in styles.items()}
    assert total["conservative"] < total["expert"] < total["aggressive"]
    assert special["conservative"] < special["expert"] < special["aggressive"]
