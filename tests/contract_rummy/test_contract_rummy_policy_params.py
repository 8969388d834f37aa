"""Policy parameters (issue 16): the 9.4 families and expert's thresholds take parameters that
reach the compiled policies through ``PolicyTable.params`` and the view's ``params`` slots."""
import numpy as np
import pytest

from simcards.core.errors import SimcardsError
from simcards.core.game import get_game
from simcards.games.contract_rummy.records import DEAL_COLUMNS
from simcards.games.contract_rummy.variant import ContractRummyVariant as V

GAME = get_game("contract-rummy")
COLS = [c.name for c in DEAL_COLUMNS]
DEALS = 40


def deals(specs, contract=3, seed=7, **variant):
    """Records of DEALS deals of ``contract`` with ``specs`` (one policy spec, or one per seat)."""
    specs = [specs] * 4 if isinstance(specs, str) else specs
    return GAME.simulate("deal", V(contract=contract, **variant), GAME.policies.table(specs), seed, 0, DEALS)


def col(out, name):
    return out[:, COLS.index(name)]


@pytest.mark.parametrize("explicit", ["expert:theta=10:look=4:k=3:x=3:from_turn=3", "greedy_deep:theta=10",
                                      "defensive:k=3", "hold_back:x=3"])
def test_default_values_given_explicitly_play_the_records_of_no_values(explicit):
    plain = explicit.split(":")[0]
    assert np.array_equal(deals(explicit), deals(plain))


@pytest.mark.parametrize("family,low,high,contract", [
    ("greedy_deep", "theta=0", "theta=500", 3),  # cheap deep takes only / every listed deep take
    ("defensive", "k=0", "k=30", 1),             # dump mode never / as soon as anyone is down
    ("hold_back", "x=0", "x=30", 2),             # holds back / goes down at once
    ("expert", "from_turn=1", "from_turn=0", 2),
])
def test_a_parameter_changes_play(family, low, high, contract):
    assert not np.array_equal(deals(f"{family}:{low}", contract), deals(f"{family}:{high}", contract))


def test_families_reduce_to_greedy_at_their_extremes():
    basic = deals("basic", 2)
    assert np.array_equal(deals("greedy", 2), basic)
    assert np.array_equal(deals("hold_back:x=30", 2), basic)  # at most 30 cards left: always down at once


def test_greedy_deep_takes_deep_and_basic_never_does():
    assert col(deals("basic"), "deep_takes").sum() == 0
    assert col(deals("greedy_deep:theta=500:look=50"), "deep_takes").sum() > col(deals("greedy_deep:theta=0"),
                                                                                   "deep_takes").sum()


def test_parameters_are_per_seat():
    mixed = deals(["hold_back:x=0", "basic", "basic", "basic"], 2)
    assert not np.array_equal(mixed, deals("basic", 2))
    assert np.array_equal(deals(["hold_back:x=30", "basic", "basic", "basic"], 2), deals("basic", 2))


@pytest.mark.parametrize("spec,words", [("greedy_deep:theta=-1", "theta"), ("hold_back:x=2.5", "whole number"),
                                        ("defensive:kk=1", "kk"), ("basic:theta=3", "theta")])
def test_bad_parameters_give_one_line(spec, words):
    with pytest.raises(SimcardsError) as e:
        GAME.policies.table([spec] * 4)
    assert words in str(e.value) and "\n" not in str(e.value)


USER_BOTS = '''
from simcards import Policy
from simcards.core.policy import PolicyParam, param_value
from simcards.games.contract_rummy.policies import BUILTINS
from simcards.games.contract_rummy.view import P_PARAMS


def go_down(hand, pub, melds, opts, cfg, rng):
    """Go down only when the parameter ``eager`` is at least 0.5."""
    return 1 if param_value(pub, P_PARAMS + 0) >= 0.5 else 0


shy = Policy("shy", base=BUILTINS["basic"], go_down=go_down,
             params=(PolicyParam("eager", 1.0, 0.0, 1.0, "go down when >= 0.5"),))
'''


def test_a_user_policy_reads_its_parameter_from_the_view(tmp_path):
    path = tmp_path / "rummy_bots.py"
    path.write_text(USER_BOTS)
    eager = deals([f"{path}:shy", "basic", "basic", "basic"], 2)
    assert np.array_equal(eager, deals("basic", 2))  # eager = 1: goes down like basic
    shy = deals([f"{path}:shy:eager=0.25", "basic", "basic", "basic"], 2)
    assert (col(shy, "down_turn_0") == -1).all()  # never goes down (nothing forces it: no deep takes)
    assert (col(shy, "down_turn_1") >= 1).any()
