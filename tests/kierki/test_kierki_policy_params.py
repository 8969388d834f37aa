"""Kierki policy parameters (issue 16): defaults reproduce today's play, values change it,
each seat's row reaches its view, and the named heuristics of rules 10.3 are built-ins."""
import textwrap

import numpy as np
import pytest

from simcards.core.errors import SimcardsError
from simcards.games.kierki import GAME
from simcards.games.kierki import rules as R

TRUMP_DEALS = GAME.variant(pairs=["deal_type=trumps"])


def records(specs, v=TRUMP_DEALS, n=200, seed=3):
    return R.run_records("deal", v, GAME.policies.table(list(specs)), seed, 0, n)


def test_default_parameters_give_the_records_of_no_parameters():
    for name in ("basic", "expert", "strongest"):
        policy = GAME.policies.builtins[name]
        spelled = name + "".join(f":{p.name}={p.format(p.default)}" for p in policy.params)
        for v in (TRUMP_DEALS, GAME.variant(pairs=["deal_type=robber"])):
            assert np.array_equal(records([name] * 4, v), records([spelled] * 4, v)), name


def test_length_weight_changes_the_trump_choice():
    longest = records(["basic:length_weight=100"] * 4)
    honours = records(["basic:length_weight=0"] * 4)
    changed = (longest[:, R.R_TRUMP] != honours[:, R.R_TRUMP]).mean()
    assert 0.05 < changed < 0.9
    # with more weight on length the chooser's trump suit is longer on average
    assert longest[:, R.R_TRUMP_SEEN].mean() > honours[:, R.R_TRUMP_SEEN].mean()


def test_ah_danger_and_trump_share_change_play():
    robber = GAME.variant(pairs=["deal_type=robber"])
    assert not np.array_equal(records(["basic"] * 4, robber), records(["basic:ah_danger=150"] * 4, robber))
    assert not np.array_equal(records(["basic"] * 4), records(["basic:trump_share=1"] * 4))


def test_strongest_is_basic_with_the_rules_weight():
    assert np.array_equal(records(["strongest"] * 4), records(["basic:length_weight=2"] * 4))


def test_each_seats_parameters_reach_its_own_view(tmp_path):
    """A user trump policy announces the suit its parameter names; the chooser (the dealer)
    is every seat in turn, and every trump deal has the chooser's own value. It is no oracle:
    the whole-hand mask stays empty for it."""
    bots = tmp_path / "bots.py"
    bots.write_text(textwrap.dedent("""
        from simcards import Policy
        from simcards.core.policy import PolicyParam, param_value
        from simcards.games.kierki import policies as kp

        def fixed_suit(info, masks, rng):
            if masks[kp.TM_ORACLE] != 0:
                return -1  # illegal: a non-oracle must not see the hand
            return int(param_value(info, kp.T_PARAMS + 0))

        FIXED = Policy("fixed", base=kp.BASIC, trump=fixed_suit,
                       params=(PolicyParam("suit", 3, 0, 3, "the suit announced", integer=True),))
    """))
    specs = [f"{bots}:FIXED:suit={s}" for s in (0, 1, 2, 3)]
    out = records(specs, n=120)
    assert set(out[:, R.R_CHOOSER]) == {0, 1, 2, 3}
    assert (out[:, R.R_TRUMP] == out[:, R.R_CHOOSER]).all()


def test_oracle_13_sees_the_whole_hand_and_no_more():
    """With all 13 cards seen, oracle_13 is exactly strongest; with none seen, strongest
    cannot tell the suits apart (always spades) while the oracle still chooses by the hand."""
    full = GAME.variant(pairs=["deal_type=trumps", "trump_choice_cards=13"])
    assert np.array_equal(records(["oracle_13"] * 4, full), records(["strongest"] * 4, full))
    blind = GAME.variant(pairs=["deal_type=trumps", "trump_choice_cards=0"])
    s, o = records(["strongest"] * 4, blind), records(["oracle_13"] * 4, blind)
    assert (s[:, R.R_TRUMP] == 3).all()
    assert len(set(o[:, R.R_TRUMP])) == 4
    assert o[:, R.R_TRUMP_FULL].mean() > s[:, R.R_TRUMP_FULL].mean() + 1  # the oracle picks long suits


@pytest.mark.parametrize("name, deal, base", [("eager", "lottery", "basic"), ("blocker", "lottery", "basic"),
                                              ("lowest_card", "no_hearts", "basic"),
                                              ("random_suit", "trumps", "basic")])
def test_named_heuristics_are_built_ins_that_change_their_decision(name, deal, base):
    v = GAME.variant(pairs=[f"deal_type={deal}"])
    assert not np.array_equal(records([name] * 4, v), records([base] * 4, v))


def test_blocker_lottery_is_experts():
    v = GAME.variant(pairs=["deal_type=lottery"])
    e = records(["expert"] * 4, v)
    b = records(["blocker"] * 4, v)
    assert np.array_equal(e[:, R.R_PLACE:R.R_PLACE + 4], b[:, R.R_PLACE:R.R_PLACE + 4])


def test_a_parameter_out_of_range_is_one_line():
    with pytest.raises(SimcardsError, match="length_weight"):
        GAME.policies.table(["basic:length_weight=101"] * 4)
