"""The Spades ``fitted`` policy: bids from the model fitted to pimc's simulated bids (bid_model.py)."""
import importlib.util
from pathlib import Path

import numpy as np
import pytest

from simcards.core.cards import parse_cards
from simcards.games.spades import GAME, bid_model, bid_model_data
from simcards.games.spades import policies as P
from simcards.games.spades.rules import DEAL_COLUMNS

from spades_util import table, variant  # noqa: I001

ROOT = Path(__file__).resolve().parents[2]
BID_COLS = [i for i, (name, _) in enumerate(DEAL_COLUMNS) if name.startswith("bid")]


def m(text):
    return sum(1 << c for c in parse_cards(text))


def view(hand, seat=0, dealer=3, bids=(-1, -1, -1, -1), legal=(1 << 14) - 1, scores=(0, 0), bags=(0, 0)):
    v = np.zeros(P.VIEW_LEN, np.int64)
    v[P.V_SEAT], v[P.V_DEALER], v[P.V_HAND], v[P.V_LEGAL] = seat, dealer, m(hand), legal
    v[P.V_DECK] = (1 << 52) - 1
    for s in range(4):
        v[P.V_SUITS + s] = ((1 << 13) - 1) << (13 * s)
        v[P.V_TABLE + s] = -1
        v[P.V_BID + s] = bids[s]
    for t in range(2):
        v[P.V_SCORE + t], v[P.V_BAGS + t] = scores[t], bags[t]
    v[P.V_LED_SUIT], v[P.V_WIN_SEAT], v[P.V_WIN_CARD], v[P.V_LEADER] = -1, -1, -1, -1
    v[P.V_TARGET], v[P.V_BAG_LIMIT], v[P.V_NIL_VALUE], v[P.V_BN_VALUE] = 500, 10, 100, 200
    v[P.V_PARAMS:P.V_PARAMS + 8] = GAME.policies.param_row("fitted")
    return v


def features(v):
    x = np.zeros(bid_model.N_FEATURES)
    bid_model.bid_features(v, x)
    return dict(zip(bid_model.FEATURE_NAMES, x))


HAND = "AS KS 7S 3S  AH QH  KD 4D 3D 2D  5C 4C 3C"  # 4 spades, 2 hearts, 4 diamonds, 3 clubs


def test_features_of_a_hand_and_the_table():
    f = features(view(HAND, seat=2, dealer=3, bids=(3, 4, -1, -1), scores=(220, 410), bags=(2, 8)))
    assert f["bias"] == 1
    assert f["spades"] == 4 and f["spade_A"] == 1 and f["spade_K"] == 1 and f["spade_Q"] == 0
    assert f["spades>=5"] == 0
    assert (f["voids"], f["singletons"], f["doubletons"], f["longest_side"]) == (0, 0, 1, 4)
    assert (f["side_aces"], f["side_kings_guarded"], f["side_kings_bare"], f["side_queens_guarded"]) == (1, 1, 0, 0)
    assert f["position"] == 2  # seat 2 bids third after dealer 3: seats 0 and 1 have bid
    assert (f["partner_known"], f["partner_bid"], f["partner_nil"]) == (1, 3, 0)
    assert (f["opp_known"], f["opp_sum"], f["opp_nil"]) == (1, 4, 0)
    assert f["table_total_over_13"] == 0  # one opponent still to bid
    assert f["score_diff"] == pytest.approx(-1.9)
    assert f["own_bags"] == pytest.approx(0.2) and f["opp_bags"] == pytest.approx(0.8)
    assert f["behind_close"] == 1  # opponents within 120 of 500 and ahead
    est = P.expert_estimate(np.uint64(m(HAND)), view(HAND))
    assert f["estimate"] == pytest.approx(est)
    assert f["centre"] == max(int(est + 0.8), 1)
    assert f["frac"] == pytest.approx(est + 0.8 - f["centre"])
    assert f["nil_risk"] == pytest.approx(P.nil_risk(np.uint64(m(HAND)), view(HAND)))


def test_features_see_voids_and_a_partners_nil():
    f = features(view("AS KS QS JS 9S 8S 2S  AH KH QH JH 3H 2H", seat=1, dealer=3, bids=(2, -1, -1, 0)))
    assert (f["spades"], f["spade_Q"], f["spade_J"], f["spades>=5"]) == (7, 1, 1, 1)
    assert (f["voids"], f["longest_side"]) == (2, 6)
    assert (f["partner_known"], f["partner_nil"], f["partner_bid"]) == (1, 1, 0)
    assert (f["opp_known"], f["opp_sum"]) == (1, 2)


def test_bids_only_legal_candidates():
    rng = np.random.default_rng(3)
    for _ in range(300):
        cards = rng.choice(52, 13, replace=False)
        v = view(" ".join(P_name(c) for c in cards))
        legal = int(rng.integers(1, 1 << 14))
        v[P.V_LEGAL] = legal
        b, pred = bid_model.predictions(v)
        assert legal >> b & 1, (b, legal)
        assert all(legal >> k & 1 for k in pred)
        c = bid_model.centre_bid(v)
        assert all(k == 0 or abs(k - c) <= 2 for k in pred)
        if pred and (legal >> c & 1):
            best = max(pred.values())
            assert b == (c if best <= 0 else max(pred, key=pred.get))


def P_name(c):
    return "23456789TJQKA"[c % 13] + "CDHS"[c // 13]


def test_plays_records_deterministically_with_legal_bids_under_bid_rules():
    for preset_settings in ({}, {"min_team_bid": 4}, {"forbid_total_bids_13": 1}):
        v = variant(None, **preset_settings)
        a = GAME.simulate("deal", v, table("fitted"), 11, 0, 300)  # an illegal bid would stop the kernel
        b = GAME.simulate("deal", v, table("fitted"), 11, 0, 300)
        assert np.array_equal(a, b)
    games = GAME.simulate("game", variant(), table("fitted", "expert"), 4, 0, 20)
    assert np.array_equal(games, GAME.simulate("game", variant(), table("fitted", "expert"), 4, 0, 20))


def test_bids_and_play_differ_from_experts():
    fitted = GAME.simulate("deal", variant(), table("fitted"), 7, 0, 400)
    expert = GAME.simulate("deal", variant(), table("expert"), 7, 0, 400)
    assert not np.array_equal(fitted[:, BID_COLS], expert[:, BID_COLS])
    same_bids = (fitted[:, BID_COLS] == expert[:, BID_COLS]).all(axis=1)
    assert same_bids.sum() >= 10  # all four bids the same (about 6 %)
    # the same deal and bids, yet other records: the card play is expert's sharpened (policies.card_play,
    # its spots checked one by one in test_spades_sharp_play.py)
    assert not np.array_equal(fitted[same_bids], expert[same_bids])


def _script():
    spec = importlib.util.spec_from_file_location("fit_bid_model", ROOT / "scripts" / "fit_bid_model.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_script_is_deterministic_and_writes_a_loadable_module(tmp_path):
    script = _script()
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    assert script.main(["--situations", "200", "--worlds", "2", "--seed", "5", "--out", str(a), "--quiet"]) == 0
    assert script.main(["--situations", "200", "--worlds", "2", "--seed", "5", "--out", str(b), "--quiet"]) == 0
    assert a.read_bytes() == b.read_bytes()
    ns = {}
    exec(a.read_text(), ns)
    assert np.asarray(ns["W1"]).shape == (bid_model.N_FEATURES, len(ns["B1"]))
    assert np.asarray(ns["W2"]).shape == (len(ns["B1"]), bid_model.N_SLOTS) and len(ns["B2"]) == bid_model.N_SLOTS
    assert (ns["SEED"], ns["SITUATIONS"], ns["WORLDS"]) == (5, 200, 2)
    other = tmp_path / "c.py"
    script.main(["--situations", "200", "--worlds", "2", "--seed", "6", "--out", str(other), "--quiet"])
    assert other.read_text() != a.read_text()


def test_the_committed_model_says_how_it_was_made():
    assert bid_model_data.SITUATIONS >= 100_000
    assert f"--seed {bid_model_data.SEED} --situations {bid_model_data.SITUATIONS}" in bid_model_data.__doc__
    assert "held out" in bid_model_data.__doc__
    assert np.any(bid_model.W1 != 0) and np.any(bid_model.W2 != 0)


def test_the_kernel_evaluates_the_network_the_script_fitted():
    script = _script()
    model = (bid_model.W1, bid_model.B1, bid_model.W2, bid_model.B2)
    rng = np.random.default_rng(8)
    for _ in range(50):
        cards = rng.choice(52, 13, replace=False)
        v = view(" ".join(P_name(c) for c in cards), seat=int(rng.integers(4)), bids=(-1, 4, -1, 2),
                 scores=(int(rng.integers(-100, 480)), 300), bags=(int(rng.integers(10)), 4))
        x = np.zeros(bid_model.N_FEATURES)
        bid_model.bid_features(v, x)
        want = script.predict(x[None, :], model)[0]
        _, pred = bid_model.predictions(v)
        c = bid_model.centre_bid(v)
        for k, b in enumerate((0, c - 2, c - 1, c + 1, c + 2)):
            if b in pred and (k == 0 or b > 0):
                assert pred[b] == pytest.approx(want[k], rel=1e-9, abs=1e-9)


def test_script_refuses_bad_input(capsys):
    assert _script().main(["--situations", "3"]) == 2
    assert "error:" in capsys.readouterr().err
