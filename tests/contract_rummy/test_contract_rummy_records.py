"""Records, tally, figures, user policies and a dealing statistic."""
import numpy as np
import pandas as pd
import pytest

from simcards.core.game import get_game
from simcards.games.contract_rummy.variant import ContractRummyVariant as V

GAME = get_game("contract-rummy")


@pytest.fixture(scope="module")
def basic():
    return GAME.policies.table(["basic"])


def frame(unit, out):
    return pd.DataFrame(out, columns=GAME.unit(unit).column_names())


@pytest.mark.parametrize("unit", ["deal", "game"])
def test_tally_is_additive_over_chunks(basic, unit):
    v = V(contract=2, max_turns_per_deal=300)
    a = GAME.simulate(unit, v, basic, 4, 0, 12)
    b = GAME.simulate(unit, v, basic, 4, 12, 9)
    whole = GAME.tally(unit, frame(unit, np.vstack([a, b])), v).set_index(["metric", "group"])
    parts = pd.concat([GAME.tally(unit, frame(unit, a), v), GAME.tally(unit, frame(unit, b), v)])
    summed = parts.groupby(["metric", "group"])[["n", "sum", "sumsq"]].sum()
    joined = whole[["n", "sum", "sumsq"]].merge(summed, left_index=True, right_index=True, suffixes=("", "_p"))
    assert np.allclose(joined["sum"], joined["sum_p"]) and (joined["n"] == joined["n_p"]).all()
    assert {"p_down_by_turn", "turns_to_down", "penalty", "exhausted"} <= set(whole.index.get_level_values(0))


def test_records_carry_context(basic):
    v = V(num_players=5, contract=4, max_turns_per_deal=300)
    df = frame("deal", GAME.simulate("deal", v, basic, 1, 0, 5))
    assert (df["num_players"] == 5).all() and (df["decks"] == 2).all() and (df["jokers"] == 2).all()
    assert (df["contract"] == 4).all() and (df[["sets", "runs"]].to_numpy() == [3, 0]).all()
    assert (df["score_5"] == -1).all()  # empty seats
    went_out = df["out_seat"] >= 0
    for q in range(5):
        assert (df.loc[df["out_seat"] == q, f"score_{q}"] == 0).all()
    assert (df.loc[went_out, "exhausted"] == 0).all()


def test_figures(basic):
    v = V(max_turns_per_deal=300)
    df = frame("game", GAME.simulate("game", v, basic, 9, 0, 20))
    t = GAME.tally("game", df, v)
    est = t["sum"] / t["n"]
    summary = t.assign(estimate=est, ci_low=est * 0.9, ci_high=est * 1.1)
    figs = GAME.figures("game", summary, v)
    assert set(figs) == {"p_down_by_turn", "penalty_by_contract"}


def test_jokers_dealt_rate(basic):
    """A seat gets the single joker with probability 10/53 (deal 1, 4 players, one deck)."""
    v = V(contract=1, max_turns_per_deal=4)
    n = 3000
    df = frame("deal", GAME.simulate("deal", v, basic, 12, 0, n))
    x = df[[f"jokers_dealt_{q}" for q in range(4)]].to_numpy()
    assert (x.sum(axis=1) <= 1).all()
    p = 10 / 53
    rate = x[:, 0].mean()
    assert abs(rate - p) < 4 * np.sqrt(p * (1 - p) / n)


USER_BOTS = '''
import simcards
from simcards.games.contract_rummy.policies import BUILTINS

def lowest_discard(hand, pub, melds, opts, cfg, rng):
    """Discard the legal card type with the lowest number (a deliberately odd bot)."""
    best = opts[1]
    for i in range(1, opts[0] + 1):
        if opts[i] < best:
            best = opts[i]
    return best

odd = simcards.Policy("odd", base=BUILTINS["basic"], discard=lowest_discard)
'''


def test_user_policy_file(tmp_path, basic):
    path = tmp_path / "my_bots.py"
    path.write_text(USER_BOTS)
    table = GAME.policies.table([f"{path}:odd", "basic", "basic", "basic"])
    v = V(contract=1, max_turns_per_deal=300)
    from simcards.games.contract_rummy.sim import run_chunk
    from simcards.games.contract_rummy.referee import check_trace

    out, tr = run_chunk("deal", v, table, 3, 0, 1, trace_rows=100_000)
    assert check_trace(tr, v) == []
    assert any(ev.kind == "discard" and ev.seat == 0 for ev in tr)
    assert not (GAME.simulate("deal", v, table, 3, 0, 20) == GAME.simulate("deal", v, basic, 3, 0, 20)).all()
