"""Cutthroat's ``fitted`` policy: bids from the model fitted to pimc's simulated bids (bid_model.py)."""
import importlib.util
from pathlib import Path

import numpy as np

from simcards.games.cutthroat import GAME, bid_model, bid_model_data
from simcards.games.cutthroat.layout import B_1F, B_2F, B_SM, NIL
from simcards.games.cutthroat.rules import DEAL_COLUMNS

from test_cutthroat_pimc import bid_position  # noqa: I001

ROOT = Path(__file__).resolve().parents[2]
BIDS = [i for i, name in enumerate(DEAL_COLUMNS) if name.startswith("bid_")]


def features(view, masks):
    x = np.zeros(bid_model.N_FEATURES)
    bid_model.bid_features(view, masks, x)
    return dict(zip(bid_model.FEATURE_NAMES, x))


def test_features_and_candidates_at_real_bid_decisions():
    v = GAME.variant(None, pairs=["num_players=3"])
    for index in range(8):
        view, masks, record, hands, opened, dealer = bid_position(v, "expert", 5, index, 2)  # the dealer bids last
        f = features(view, masks)
        assert f["bias"] == 1 and f["players"] == 3 and f["tricks_per_player"] == 17 / 3
        assert f["position"] == 2 and f["is_dealer"] == 1
        earlier = [record[f"bid_{s}"] for s in range(3) if s != dealer]
        assert f["nils_before"] == sum(b == NIL for b in earlier)
        assert f["trumps"] == bin(int(hands[dealer]) & (((1 << 13) - 1) << 39)).count("1")
        c = bid_model.centre_bid(view, masks)
        assert f["centre"] == c
        b, pred = bid_model.predictions(view, masks)
        assert (opened >> b) & 1
        assert all((opened >> k) & 1 for k in pred)
        assert all(k in (NIL, B_1F, B_2F, B_SM) or abs(k - c) <= 2 for k in pred)
        if (opened >> c) & 1:
            best = max(pred.values(), default=0.0)
            assert b == (c if best <= 0 else max(pred, key=pred.get))


def test_plays_every_form_deterministically_with_legal_bids():
    for pairs in (["num_players=3"], ["num_players=4"], ["num_players=5", "jokers=2"]):
        v = GAME.variant(None, pairs=pairs)
        n = v.num_players
        table = GAME.policies.table(["fitted"] * n)
        a = GAME.simulate("deal", v, table, 11, 0, 200)  # an illegal bid would stop the kernel
        assert np.array_equal(a, GAME.simulate("deal", v, table, 11, 0, 200))
    games = GAME.simulate("game", GAME.variant(None), GAME.policies.table(["fitted", "expert", "expert"]), 4, 0, 10)
    assert np.array_equal(games, GAME.simulate("game", GAME.variant(None),
                                               GAME.policies.table(["fitted", "expert", "expert"]), 4, 0, 10))


def test_bids_differ_from_experts_and_play_is_experts():
    v = GAME.variant(None)
    fitted = GAME.simulate("deal", v, GAME.policies.table(["fitted"] * 3), 7, 0, 300)
    expert = GAME.simulate("deal", v, GAME.policies.table(["expert"] * 3), 7, 0, 300)
    assert not np.array_equal(fitted[:, BIDS], expert[:, BIDS])
    same = (fitted[:, BIDS] == expert[:, BIDS]).all(axis=1)
    assert same.sum() >= 10
    assert np.array_equal(fitted[same], expert[same])  # the same bids: expert's play, the same records


def test_the_committed_model_says_how_it_was_made():
    assert bid_model_data.SITUATIONS >= 100_000
    assert (f"--game cutthroat --seed {bid_model_data.SEED} --situations {bid_model_data.SITUATIONS}"
            in bid_model_data.__doc__)
    assert "held out" in bid_model_data.__doc__
    assert np.any(bid_model.W1 != 0) and np.any(bid_model.W2 != 0)


def test_the_script_fits_cutthroat_reproducibly(tmp_path):
    spec = importlib.util.spec_from_file_location("fit_bid_model", ROOT / "scripts" / "fit_bid_model.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    args = ["--game", "cutthroat", "--situations", "60", "--worlds", "1", "--seed", "5", "--quiet"]
    assert script.main(args + ["--out", str(a)]) == 0
    assert script.main(args + ["--out", str(b)]) == 0
    assert a.read_bytes() == b.read_bytes()
    ns = {}
    exec(a.read_text(), ns)
    assert np.asarray(ns["W1"]).shape == (bid_model.N_FEATURES, len(ns["B1"]))
    assert np.asarray(ns["W2"]).shape == (len(ns["B1"]), bid_model.N_SLOTS)
    assert "--game cutthroat --seed 5 --situations 60 --worlds 1" in ns["__doc__"]
