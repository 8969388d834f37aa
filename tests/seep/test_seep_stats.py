"""Determinism, units, tally and the exact numbers of docs/games/seep.md, rule 10.6."""
import math

import numpy as np
import pandas as pd
import pytest

from seep_util import variant
from simcards.core.errors import SimcardsError
from simcards.core import stats
from simcards.games.seep import GAME

BASIC = GAME.policies.table(["basic"])


def frame(unit, arr):
    return pd.DataFrame(arr, columns=GAME.unit(unit).column_names())


def test_determinism_whatever_the_chunking():
    v = variant()
    whole = GAME.simulate("deal", v, BASIC, 42, 100, 60)
    parts = np.vstack([GAME.simulate("deal", v, BASIC, 42, 100 + s, n) for s, n in ((0, 7), (7, 40), (47, 13))])
    assert (whole == parts).all()
    b1 = GAME.simulate("baazi", v, BASIC, 42, 3, 6)
    b2 = np.vstack([GAME.simulate("baazi", v, BASIC, 42, 3 + i, 1) for i in range(6)])
    assert (b1 == b2).all()


def test_policies_replay_the_same_shuffles():
    """Common random numbers: the deal (dealer, redeals, bidder's options) does not depend on the policy."""
    v = variant()
    a = frame("deal", GAME.simulate("deal", v, BASIC, 3, 0, 300))
    b = frame("deal", GAME.simulate("deal", v, GAME.policies.table(["random"]), 3, 0, 300))
    for col in ("dealer", "redeals", "bid_options"):
        assert (a[col] == b[col]).all()


def test_redeal_rate_and_bid_value_probability():
    """Invariants 24, 25 and 10.6: redeal 35960/270725; P(holds value v | no redeal) = 0.32435."""
    v = variant()
    df = frame("deal", GAME.simulate("deal", v, GAME.policies.table(["random"]), 2024, 0, 20_000))
    t = stats.finalize(GAME.tally("deal", df, v))
    p = 35960 / 270725
    row = t[t.metric == "redeal_rate"].iloc[0]
    se = math.sqrt(p * (1 - p) / row.n)
    assert abs(row.estimate - p) < 4 * se
    q = 0.32435
    se_q = math.sqrt(q * (1 - q) / len(df))
    for val in range(9, 14):
        held = ((df["bid_options"].to_numpy() >> val) & 1).mean()
        assert abs(held - q) < 4 * se_q, val
    # distribution of the bidder's highest card given no redeal (10.6)
    opts = df["bid_options"].to_numpy()
    highest = np.array([max(val for val in range(9, 14) if o >> val & 1) for o in opts])
    for val, prob in ((9, 0.0977), (10, 0.1384), (11, 0.1890), (12, 0.2506), (13, 0.3243)):
        se_h = math.sqrt(prob * (1 - prob) / len(df))
        assert abs((highest == val).mean() - prob) < 4 * se_h + 5e-5, val


def test_points_sum_and_tally_shape():
    v = variant()
    df = frame("deal", GAME.simulate("deal", v, BASIC, 1, 0, 2000))
    assert ((df.points_a + df.points_b) == 100).all()
    assert ((df.score_a + df.score_b) == 100 + df.sweep_points_a + df.sweep_points_b).all()
    t = GAME.tally("deal", df, v)
    assert list(t.columns) == stats.TALLY_COLUMNS
    half = stats.merge(GAME.tally("deal", df.iloc[:1000], v), GAME.tally("deal", df.iloc[1000:], v))
    merged = half.set_index(["metric", "group", "kind"]).sort_index()
    whole = t.set_index(["metric", "group", "kind"]).sort_index()
    assert np.allclose(merged[["n", "sum", "sumsq"]].to_numpy(), whole[["n", "sum", "sumsq"]].to_numpy())
    s = stats.finalize(t)
    groups = set(s[s.metric == "bid_card_captured_by_bidder_team"].group)
    assert {"9", "10", "11", "12", "13"} <= groups
    assert set(s[s.metric == "sweeps_per_deal"].group) == {"early", "normal", "last_play", "all"}
    figs = GAME.figures("deal", s, v)
    assert "bid_house_capture_by_bid" in figs and "bid_card_capture_by_bid" in figs


def test_baazi_and_match_units():
    v = variant()
    b = frame("baazi", GAME.simulate("baazi", v, BASIC, 4, 0, 100))
    assert (b.deals >= 1).all() and set(b.winner) <= {0, 1} and (b.capped == 0).all()
    assert (b.next_dealer % 2 == 1 - b.winner).all()  # the losing team deals next
    s = stats.finalize(GAME.tally("baazi", b, v))
    assert "deals_per_baazi" in set(s.metric)
    capped = frame("baazi", GAME.simulate("baazi", variant(max_deals_per_baazi=1, min_points_rule=False), BASIC, 4, 0, 50))
    assert (capped.deals == 1).all() and ((capped.capped == 1) | (capped.winner >= 0)).all()
    m = frame("match", GAME.simulate("match", variant(match_baazis=2), BASIC, 4, 0, 20))
    assert ((m.baazis_a + m.baazis_b) == 2).all()
    assert (m.winner == np.where(m.baazis_a > m.baazis_b, 0, np.where(m.baazis_b > m.baazis_a, 1, -1))).all()


def test_variant_errors_are_one_line():
    for pairs in (["num_players=2", "first_dealer=3"], ["num_players=3"], ["min_house_value=10"], ["absorption_mode=maybe"],
                  ["sweep_value=-1"], ["first_dealer=5"], ["nonsense=1"]):
        with pytest.raises(SimcardsError) as e:
            GAME.variant(pairs=pairs)
        assert "\n" not in str(e.value)
    assert GAME.variant(pairs=["min_house_value=7", "min_bid_value=10"]).min_house_value == 7
    for preset in GAME.presets:
        GAME.variant(preset)


def test_min_bid_value_raises_redeals():
    """6.1: with min_bid_value = 10 the redeal probability is 58905/270725."""
    v = variant(min_bid_value=10)
    df = frame("deal", GAME.simulate("deal", v, BASIC, 77, 0, 8000))
    p = 58905 / 270725
    attempts = (df.redeals + 1).sum()
    assert abs(df.redeals.sum() / attempts - p) < 4 * math.sqrt(p * (1 - p) / attempts)
    assert (df.bid >= 10).all()
