"""Kierki records, tally, figures, replay, variants and user policies."""
import textwrap

import numpy as np
import pytest

from kierki_helpers import TABLES, traced_game, variant
from simcards.core.errors import SimcardsError
from simcards.core.game import get_game
from simcards.core import stats
from simcards.games.kierki import GAME
from simcards.games.kierki import referee as REF
from simcards.games.kierki import rules as R
from simcards.games.kierki.records import POSITIONS, records_frame
from simcards.games.kierki.variant import DEAL_TYPES


def test_registry_and_units():
    g = get_game("kierki")
    assert g is GAME
    assert [u.name for u in g.units] == ["game", "deal"]
    assert g.shortcuts == {"deal-type": "deal_type"}
    assert len(g.unit("game").columns) == R.GAME_LEN and len(g.unit("deal").columns) == R.RES_LEN
    assert g.variant(pairs=["deal_type=robber"]).deal_type == "robber"


def test_presets_and_explicit_override():
    v = GAME.variant("lottery_x4")
    assert v.lotteries_per_cycle == 4 and v.lottery_awards == (200, 125) and v.preset == "lottery_x4"
    v = GAME.variant("long_blocked", pairs=["deal_type_repetitions=2"])
    assert v.deal_type_repetitions == 2
    v = GAME.variant(pairs=["preset=trump_left_full_hand"])
    assert (v.trump_chooser, v.trump_leader, v.trump_choice_cards) == ("left_of_dealer", "left_of_dealer", 13)
    assert "robber" not in GAME.variant("no_robber_trumps").negative_contracts
    for name in GAME.presets:
        GAME.variant(name)


@pytest.mark.parametrize("pairs, words", [
    (["bogus=1"], "unknown kierki parameter"),
    (["preset=huge"], "preset"),
    (["lottery_awards=900,500"], "nominal game total"),
    (["lottery_opening_card=8D"], "base rank"),
    (["lottery_opening_card=7D", "lottery_base_rank=first_card"], "base rank"),
    (["trump_suits_distinct=true", "allow_no_trump=true"], "allow_no_trump"),
    (["negative_contracts=no_tricks,no_tricks"], "twice"),
    (["negative_contracts=", "trump_deals_per_cycle=0", "lotteries_per_cycle=0"], "no deals"),
    (["penalty_per_trick=5"], "penalty_per_trick"),
    (["deal_type=poker"], "deal_type"),
])
def test_bad_variants_give_one_line(pairs, words):
    with pytest.raises(SimcardsError) as e:
        GAME.variant(pairs=pairs)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_unbalanced_allowed_when_asked():
    v = GAME.variant(pairs=["lottery_awards=900,500", "require_balanced=false", "lottery_opening_card=null"])
    rec = GAME.simulate("game", v, TABLES["basic"], 1, 0, 5)
    assert (rec[:, R.G_TOTAL:R.G_TOTAL + 4].sum(axis=1) == 100).all()


def _summary(unit, v, n, policy="basic"):
    recs = GAME.simulate(unit, v, TABLES[policy], 7, 0, n)
    df = records_frame(unit, recs)
    return df, GAME.tally(unit, df, v)


def test_game_tally_is_additive_and_complete():
    v = variant()
    df, whole = _summary("game", v, 300)
    halves = stats.merge(GAME.tally("game", df.iloc[:120], v), GAME.tally("game", df.iloc[120:], v))
    key = ["metric", "group", "kind"]
    a = whole.set_index(key).sort_index()
    b = halves.set_index(key).sort_index()
    assert a.index.equals(b.index)
    assert np.allclose(a["sum"], b["sum"]) and (a["n"] == b["n"]).all()
    groups = set(whole[whole.metric == "points_per_deal"].group)
    assert groups == {f"{t}:{p}" for t in DEAL_TYPES for p in POSITIONS}
    shares = whole[(whole.metric == "win_share") & whole.group.str.startswith("seat")]
    assert shares["sum"].sum() == pytest.approx(300)
    pts = whole[whole.metric == "points_per_deal"].copy()
    pts["type"] = pts.group.str.split(":").str[0]
    per_type = pts.groupby("type")["sum"].sum() / 300
    assert per_type["robber"] == pytest.approx(-1300) and per_type["trumps"] == pytest.approx(325)
    assert per_type["lottery"] == pytest.approx(1300)


@pytest.mark.parametrize("dt", DEAL_TYPES)
def test_deal_unit_tally_and_figures(dt):
    v = variant(deal_type=dt)
    df, tally = _summary("deal", v, 200)
    assert (df.deal_type == DEAL_TYPES.index(dt)).all()
    summary = stats.finalize(tally)
    figs = GAME.figures("deal", summary, v)
    assert "points_by_position" in figs
    if dt == "trumps":
        assert "trump_choice" in figs
    if dt == "lottery":
        assert "lottery_first_out" in figs


def test_game_figures():
    v = variant()
    _, tally = _summary("game", v, 100)
    figs = GAME.figures("game", stats.finalize(tally), v)
    assert {"points_by_position", "trump_choice", "lottery_first_out"} <= set(figs)


def test_replay_prints_every_deal():
    v = variant()
    text = GAME.replay("game", v, TABLES["basic"], 3, 17)
    assert "Kierki game 17 (seed 3)" in text
    for k, t in enumerate(("no_tricks", "no_hearts", "no_queens", "no_jacks_kings", "no_king_of_hearts",
                           "no_seventh_and_last", "robber", "trumps", "trumps", "trumps", "trumps", "lottery")):
        assert f"Deal {k + 1}: {t}," in text
    assert text.count("trick 13:") == 11 and text.count("announces trumps") == 4
    assert text.count("is out, place") == 2 and "Final:" in text
    rec = GAME.simulate("game", v, TABLES["basic"], 3, 17, 1)[0]
    final = text.strip().splitlines()[-1]
    for s, name in enumerate("NESW"):
        assert f"{name} {rec[R.G_TOTAL + s]:+d}" in final


def test_user_policy_file(tmp_path):
    path = tmp_path / "my_kierki_bots.py"
    path.write_text(textwrap.dedent('''
        from simcards.core.policy import Policy
        from simcards.games.kierki.policies import BASIC

        def lowest(info, masks, rng):
            legal = masks[1]
            c = 0
            while not (legal >> c) & 1:
                c += 1
            return c

        bot = Policy("lowest", play=lowest, base=BASIC)
    '''))
    table = GAME.policies.table([f"{path}:bot", "basic", "basic", "basic"])
    v = variant(first_dealer=0)
    rec, events = traced_game(v, table, 5, 3)
    REF.check_trace(events, v, first_dealer=0)
    plays = [e for e in events if e[0] == R.EV_PLAY and e[1] == 0]
    # N always plays its lowest-numbered legal card in trick deals
    lottery_start = max(i for i, e in enumerate(events) if e[0] == R.EV_DEAL)
    for e in events[:lottery_start]:
        if e[0] == R.EV_PLAY and e[1] == 0:
            legal = int(e[4])
            assert e[2] == (legal & -legal).bit_length() - 1
    assert plays


def test_expert_beats_random_in_whole_games():
    """Seat N expert against three random seats: N's mean total exceeds 0 by a margin of 4 SE."""
    table = GAME.policies.table(["expert", "random", "random", "random"])
    v = variant()
    recs = GAME.simulate("game", v, table, 99, 0, 3000)
    n_totals = recs[:, R.G_TOTAL]
    se = n_totals.std(ddof=1) / np.sqrt(len(n_totals))
    assert n_totals.mean() > 4 * se


def test_basic_beats_random_in_the_robber():
    table = GAME.policies.table(["basic", "random", "random", "random"])
    v = variant(deal_type="robber")
    recs = GAME.simulate("deal", v, table, 5, 0, 4000)
    diff = recs[:, R.R_SCORE] - recs[:, R.R_SCORE + 1:R.R_SCORE + 4].mean(axis=1)
    se = diff.std(ddof=1) / np.sqrt(len(diff))
    assert diff.mean() > 4 * se


def test_illegal_user_policy_is_one_clear_error(tmp_path):
    path = tmp_path / "my_bad_kierki_bot.py"
    path.write_text(textwrap.dedent('''
        from simcards.core.policy import Policy
        from simcards.games.kierki.policies import BASIC

        def always_2c(info, masks, rng):
            return 0

        bad = Policy("bad", play=always_2c, base=BASIC)
    '''))
    table = GAME.policies.table([f"{path}:bad"] * 4)
    with pytest.raises(SimcardsError) as e:
        GAME.simulate("game", variant(), table, 1, 0, 5)
    assert "play returned 2C (0), which is not legal" in str(e.value) and "\n" not in str(e.value)
