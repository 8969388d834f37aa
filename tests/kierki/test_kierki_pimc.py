"""Kierki pimc: searches the trump deals only; reproducible; plays expert elsewhere."""
import numpy as np
import pytest

from simcards.core.errors import SimcardsError
from simcards.games.kierki import GAME


def records(policy, deal_type):
    v = GAME.variant(None, pairs=[f"deal_type={deal_type}"])
    return GAME.simulate("deal", v, GAME.policies.table([policy] * 4), 3, 0, 6)


def test_pimc_searches_trump_deals_reproducibly():
    one = records("pimc:worlds=4:dd_cards=5", "trumps")
    assert np.array_equal(one, records("pimc:worlds=4:dd_cards=5", "trumps"))
    assert not np.array_equal(one, records("expert", "trumps"))


def test_pimc_is_expert_in_the_negative_deals():
    assert np.array_equal(records("pimc", "no_tricks"), records("expert", "no_tricks"))


def test_pimc_parameters_are_validated_in_one_line():
    with pytest.raises(SimcardsError) as err:
        GAME.policies.resolve("pimc:worlds=300")
    assert "worlds must be in 1..256" in str(err.value) and "\n" not in str(err.value)
