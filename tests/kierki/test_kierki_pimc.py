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


def _rollout_tricks(world, trump, first):
    """Seat 0 leads trick 1 of a trump deal with ``first``; the tricks each seat takes in pimc's play-out."""
    from simcards.games.kierki import pimc as K
    from simcards.games.kierki import policies as P
    info = np.zeros(P.INFO_LEN, np.int64)
    info[P.I_DEAL_TYPE] = P.TRUMPS_CODE
    info[P.I_TRUMP] = trump
    info[P.I_TRICK] = 1
    info[P.I_WIN_CARD] = info[P.I_WIN_SEAT] = -1
    info[P.I_PARAMS:P.I_PARAMS + len(K.PIMC_PARAMS)] = [p.fixed(p.default) for p in K.PIMC_PARAMS]
    masks = np.zeros(P.MASKS_LEN, np.uint64)
    masks[P.M_HAND] = masks[P.M_LEGAL] = world[0]
    tricks = np.zeros(4, np.int64)
    K.rollout(info, masks, world, first, info.copy(), masks.copy(), np.zeros(4, np.uint64), tricks)
    return tricks


def test_playout_plays_the_deal_out_by_the_trick_rules():
    suit = [np.uint64(((1 << 13) - 1) << (13 * s)) for s in range(4)]
    # seat 0 holds every card of the trump suit (suit 0): it wins all 13 tricks
    world = np.array([suit[0], suit[1], suit[2], suit[3]], np.uint64)
    assert list(_rollout_tricks(world, 0, 12)) == [13, 0, 0, 0]
    # seat 1 holds every trump and is void in seat 0's suit: it ruffs, then wins every trick it leads
    world = np.array([suit[1], suit[0], suit[2], suit[3]], np.uint64)
    assert list(_rollout_tricks(world, 0, 13)) == [0, 13, 0, 0]
    # a shuffled deal: 13 tricks in all, whatever the play
    deck = np.random.default_rng(5).permutation(52)
    world = np.array([sum(np.uint64(1) << np.uint64(c) for c in deck[13 * s:13 * s + 13]) for s in range(4)], np.uint64)
    first = int(min(deck[:13]))
    assert _rollout_tricks(world, 2, first).sum() == 13


def test_pimc_searches_the_early_trump_tricks_by_playouts():
    # dd_cards=1: no double dummy (one card left is no choice), every decision is played out
    one = records("pimc:worlds=4:dd_cards=1", "trumps")
    assert np.array_equal(one, records("pimc:worlds=4:dd_cards=1", "trumps"))
    assert not np.array_equal(one, records("expert", "trumps"))
