"""Cutthroat pimc: plays every form through the kernel, reproducibly, and not as expert does."""
import numpy as np
import pytest

from simcards.core.errors import SimcardsError
from simcards.games.cutthroat import GAME


@pytest.mark.parametrize("players", [3, 5])
def test_pimc_plays_reproducibly_and_differs_from_expert(players):
    v = GAME.variant(None, pairs=[f"num_players={players}"])
    spec = ["pimc:worlds=4:dd_cards=7"] * players
    one = GAME.simulate("deal", v, GAME.policies.table(spec), 5, 0, 12)
    two = GAME.simulate("deal", v, GAME.policies.table(spec), 5, 0, 12)
    expert = GAME.simulate("deal", v, GAME.policies.table(["expert"] * players), 5, 0, 12)
    assert np.array_equal(one, two)
    assert not np.array_equal(one, expert)


def test_pimc_parameters_are_validated_in_one_line():
    with pytest.raises(SimcardsError) as err:
        GAME.policies.resolve("pimc:dd_cards=18")
    assert "dd_cards must be in 1..17" in str(err.value) and "\n" not in str(err.value)
