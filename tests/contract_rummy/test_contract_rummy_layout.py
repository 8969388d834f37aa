"""The kernel's arrays are declared once (melds.CFG, view.VIEW, rules.ST): no slot is numbered by hand."""
from simcards.core.policy import PARAM_SLOTS
from simcards.games.contract_rummy import melds as M
from simcards.games.contract_rummy import rules as R
from simcards.games.contract_rummy import sim
from simcards.games.contract_rummy import view as V
from simcards.games.contract_rummy.policies import SIG
from simcards.games.contract_rummy.variant import ContractRummyVariant


def test_every_one_value_cfg_slot_is_filled_once_from_the_variant():
    single = {s for s, n in M.CFG.length.items() if n == 1}
    assert set(sim.CFG_FIELDS) | set(sim.CFG_DERIVED) == single
    assert not set(sim.CFG_FIELDS) & set(sim.CFG_DERIVED)
    assert set(sim.CFG_FIELDS.values()) <= set(ContractRummyVariant.param_specs())


def test_enums_pack_as_the_index_of_their_choice_and_none_as_no_limit():
    v = ContractRummyVariant(ace_mode="wrap", stock_exhaustion="end_deal", max_jokers_per_meld=None,
                             first_dealer=2, contract=3)
    cfg = sim.variant_config(v)
    assert cfg[M.C_ACE] == M.ACE_MODE.WRAP == ContractRummyVariant.param_specs()["ace_mode"].choices.index("wrap")
    assert cfg[M.C_EXHAUST] == 1 and cfg[M.C_MAX_JOK] == M.INF
    assert (cfg[M.C_FIRST_DEALER], cfg[M.C_UNIT_DEAL], cfg[M.C_NPL]) == (2, 2, 4)
    assert cfg[M.C_PEN + 12] == v.penalty_values[0]  # the ace, stored after the king


def test_the_view_holds_no_rules_and_ends_with_the_policy_parameters():
    # the house rules reach policies as their own argument (cfg), not inside the view
    assert "cfg" not in V.VIEW.offset and len(SIG.args) == 6 and SIG.args[4] == SIG.args[0]
    assert V.P_PARAMS == V.P_PILE + V.MAX_CARDS and V.VIEW.length["params"] == PARAM_SLOTS
    assert V.PUB_SIZE == V.P_PARAMS + PARAM_SLOTS
    assert R.NST == R.S_ERROR + 3
