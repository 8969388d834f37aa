"""The all-at-once final deal (docs/games/contract-rummy.md, rule 3.6) under every run-suit rule and with custom contracts.

Regression for issue 16: with `contract_runs_suits` other than `distinct`, or a custom last
contract with sets, nobody could ever go out and every final deal ran into the turn cap.
"""
import numpy as np
import pytest

import simcards
from simcards.games.contract_rummy.replay import run_order

N = 60  # final deals: with the bug every one was exhausted, so a handful already tells


def _final_deals(**variant):
    return simcards.run("contract-rummy", unit="deal", count=N, seed=11, policy="basic",
                        variant={"contract": 7, **variant}, threads=1)


@pytest.fixture(scope="module")
def distinct():
    return _final_deals()


@pytest.mark.parametrize("rule", ["not_all_same", "non_contiguous", "any"])
def test_final_deal_is_the_same_under_every_run_suit_rule(distinct, rule):
    # 3.6: the final runs are in pairwise different suits, which every suit rule accepts,
    # and the final deal lays no other meld, so the records are exactly those of `distinct`
    other = _final_deals(contract_runs_suits=rule)
    assert distinct["exhausted"].sum() < N // 2  # players do go out
    assert np.array_equal(other.to_numpy(), distinct.to_numpy())


def test_custom_final_contract_with_sets_is_playable():
    df = simcards.run("contract-rummy", unit="game", count=N, seed=5, policy="basic", threads=1,
                      variant={"contracts": "1-1,3-0", "hand_sizes": (10, 10)})
    # an ordinary deal: players go down and out; before the fix every final deal hit the cap
    assert df["d2_exhausted"].mean() < 0.5


@pytest.mark.parametrize("positions,wrap,expected", [
    ([0, 1, 2, 3, 12], True, [12, 0, 1, 2, 3]),      # K A 2 3 4 under ace_mode=wrap
    ([11, 12, 0], True, [11, 12, 0]),                # Q K A
    ([12, 13, 14, 15, 16], True, [12, 13, 14, 15, 16]),  # unwrapped numbering keeps its order
    (list(range(5, 18)), True, list(range(5, 18))),   # a full 13-card run keeps its order
    ([1, 2, 3], False, [1, 2, 3]),
    ([14, 12, 13], False, [12, 13, 14]),
])
def test_run_order(positions, wrap, expected):
    assert run_order(positions, wrap) == expected
