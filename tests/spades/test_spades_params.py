"""Policy parameters in Spades (issue 16): defaults reproduce the built-ins, values change
play, each seat's values reach its own policy, the named bidding styles and quick_count."""
import os

import numpy as np
import pytest
from spades_util import table, variant

from simcards.core.cards import parse_card
from simcards.games.spades import GAME, rules
from simcards.games.spades.policies import V_BID, V_DECK, V_HAND, V_LEGAL, V_PARAMS, V_SEAT, V_SUITS, VIEW_LEN

D = {name: i for i, (name, _) in enumerate(rules.DEAL_COLUMNS)}
BIDS = [D[f"bid{s}"] for s in range(4)]
BOTS = os.path.join(os.path.dirname(__file__), "spades_param_bots.py")


def deals(*specs, count=200, seed=3):
    return GAME.simulate("deal", variant(), table(*specs), seed, 0, count)


def test_explicit_defaults_give_the_records_of_no_parameters():
    spec = ("expert:nil_estimate=3:nil_risk=2:behind_nil_estimate=3.5:behind_nil_risk=2.6:round_up=0.8"
            ":near_limit_round_up=0.95:bn_deficit=200:bn_opp_within=150")
    assert GAME.policies.canonical(spec) == spec  # the values were given, so the spec keeps them
    np.testing.assert_array_equal(deals(spec), deals("expert"))
    np.testing.assert_array_equal(deals("basic:round_up=0.5"), deals("basic"))


@pytest.mark.parametrize("policy", ["basic", "expert", "quick_count"])
def test_round_up_moves_every_bid_the_same_way(policy):
    low, high = deals(f"{policy}:round_up=-1"), deals(f"{policy}:round_up=2")
    lo, hi = low[:, BIDS], high[:, BIDS]
    number = (lo > 0) & (hi > 0)  # Nil bids aside
    assert (hi[number] >= lo[number]).all() and (hi[number] - lo[number]).mean() > 2


def test_nil_thresholds_change_how_often_expert_bids_nil():
    never = deals("expert:nil_estimate=0:behind_nil_estimate=0")
    eager = deals("expert:nil_estimate=6:nil_risk=13:behind_nil_estimate=6:behind_nil_risk=13")
    assert (never[:, BIDS] == 0).sum() == 0
    assert (eager[:, BIDS] == 0).sum() > 2 * (deals("expert")[:, BIDS] == 0).sum() > 0


def test_each_seat_reads_its_own_parameter_values():
    """A user policy bids its parameter: per seat, different values, every bid as asked."""
    specs = [f"{BOTS}:fixed:bid={b}" for b in (2, 5, 9, 4)]
    out = GAME.simulate("deal", variant(), GAME.policies.table(specs), 5, 0, 100)
    assert (out[:, BIDS] == [2, 5, 9, 4]).all()


def test_bidding_styles_order_the_bids():
    """aggressive bids more tricks and more Nils than expert, conservative fewer (same deals)."""
    styles = {name: deals(name, count=400)[:, BIDS] for name in ("conservative", "expert", "aggressive")}
    number = np.logical_and.reduce([bids > 0 for bids in styles.values()])  # seats that bid a number in all three
    total = {name: bids[number].sum() for name, bids in styles.items()}
    nils = {name: (bids == 0).sum() for name, bids in styles.items()}
    assert total["conservative"] < total["expert"] < total["aggressive"]
    assert nils["conservative"] < nils["expert"] < nils["aggressive"]


def _quick_count_bid(spec, cards, partner_bid=-1):
    """quick_count's bid for a hand, asked directly with a view like the kernel's."""
    v = variant()
    tab = rules.Table(v.to_params(), *rules.deck_setup(v.to_params()), np.zeros(4, np.uint64))
    view = np.zeros(VIEW_LEN, np.int64)
    hand = 0
    for c in cards.split():
        hand |= 1 << parse_card(c)
    view[V_SEAT] = 0
    view[V_HAND] = hand
    view[V_LEGAL] = (1 << 14) - 1  # Nil and 1..13
    view[V_DECK] = int(tab.suit_masks.sum())
    view[V_SUITS:V_SUITS + 4] = tab.suit_masks.astype(np.int64)
    view[V_BID:V_BID + 4] = -1
    view[V_BID + 2] = partner_bid
    view[V_PARAMS:V_PARAMS + 8] = GAME.policies.param_row(spec)
    bid = GAME.policies.compiled(spec.split(":")[0])[1]
    return bid(view, np.zeros(1, np.uint64))


HAND = "AS KS 7S 4S 3S AH QH 9H 5D 4D KC 8C 2C"  # aces 2, guarded kings 2, spades beyond three 2


@pytest.mark.parametrize("spec, bid", [
    ("quick_count", 6),                        # 2 + 2 + 2, + 0.5 rounded down
    ("quick_count:queen=1", 7),                # QH with two more hearts
    ("quick_count:long_spades=5", 4),
    ("quick_count:ace=0.5:king=0.5", 4),       # 1 + 1 + 2 + 0.5
    ("quick_count:round_up=-1", 5),
    ("quick_count:nil_below=7", 0),            # Nil when the count is below 7
])
def test_quick_count_counts_as_documented(spec, bid):
    assert _quick_count_bid(spec, HAND) == bid


def test_quick_count_does_not_nil_beside_a_partner_nil():
    assert _quick_count_bid("quick_count:nil_below=7", HAND, partner_bid=0) == 6
