"""Kierki pimc: searches every deal's card play by play-outs (trump deals: double dummy late); reproducible."""
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


@pytest.mark.parametrize("deal_type", ["no_tricks", "no_king_of_hearts"])
def test_pimc_searches_the_negative_deals_reproducibly(deal_type):
    one = records("pimc:worlds=4", deal_type)
    assert np.array_equal(one, records("pimc:worlds=4", deal_type))
    assert not np.array_equal(one, records("expert", deal_type))


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
    K.rollout(info, masks, world, first, info.copy(), masks.copy(), np.zeros(4, np.uint64), tricks, np.zeros(4, np.int64))
    return tricks


def _negative_rollout(deal_type, trick, world, first, pairs=()):
    """Seat 0 leads trick ``trick`` of a negative deal with ``first``, every seat holding
    ``world[s]``; (tricks, points) each seat takes in pimc's play-out."""
    from simcards.games.kierki import pimc as K
    from simcards.games.kierki import policies as P
    from simcards.games.kierki.rules import kernel_tables
    tab = kernel_tables(GAME.variant(None, pairs=list(pairs)))
    info = np.zeros(P.INFO_LEN, np.int64)
    info[P.I_DEAL_TYPE] = deal_type
    info[P.I_TRUMP] = -1
    info[P.I_TRICK] = trick
    info[P.I_WIN_CARD] = info[P.I_WIN_SEAT] = -1
    info[P.I_PEN:P.I_PEN + 52] = tab.card_pen[deal_type]
    info[P.I_TRICK_PEN:P.I_TRICK_PEN + 14] = tab.trick_pen[deal_type]
    info[P.I_PARAMS:P.I_PARAMS + len(K.PIMC_PARAMS)] = [p.fixed(p.default) for p in K.PIMC_PARAMS]
    masks = np.zeros(P.MASKS_LEN, np.uint64)
    masks[P.M_HAND] = masks[P.M_LEGAL] = world[0]
    masks[P.M_PLAYED] = np.uint64((1 << 52) - 1) & ~np.bitwise_or.reduce(world)
    tricks, points = np.zeros(4, np.int64), np.zeros(4, np.int64)
    K.rollout(info, masks, world, first, info.copy(), masks.copy(), np.zeros(4, np.uint64), tricks, points)
    return list(tricks), list(points)


def _cards(*names):
    from simcards.core.cards import parse_card
    return np.uint64(sum(1 << parse_card(n) for n in names))


def test_negative_playout_scores_the_deals_penalties():
    from simcards.games.kierki.rules import NO_HEARTS, NO_SEVENTH_LAST, NO_TRICKS
    suit = [np.uint64(((1 << 13) - 1) << (13 * s)) for s in range(4)]
    # seat 0 holds every club and leads them all: it wins every trick, the others discard
    world = np.array([suit[0], suit[2], suit[1], suit[3]], np.uint64)
    assert _negative_rollout(NO_TRICKS, 1, world, 0) == ([13, 0, 0, 0], [-260, 0, 0, 0])
    # seat 1 discards a heart on each club: 13 hearts at -20
    assert _negative_rollout(NO_HEARTS, 1, world, 0) == ([13, 0, 0, 0], [-260, 0, 0, 0])
    # the seventh and the last trick cost -75 each
    assert _negative_rollout(NO_SEVENTH_LAST, 1, world, 0) == ([13, 0, 0, 0], [-150, 0, 0, 0])


def test_negative_playout_keeps_the_heart_lead_rule():
    from simcards.games.kierki.rules import NO_KING_OF_HEARTS, NO_QUEENS
    world = np.array([_cards("2S", "3D", "4D"), _cards("3S", "KH", "4H"), _cards("4S", "5D", "6D"),
                      _cards("5S", "2H", "AC")], np.uint64)
    from simcards.core.cards import parse_card
    first = parse_card("2S")
    # seat 3 wins the spade; it may not lead its heart while it holds the club ace, leads it,
    # and seat 1, void in clubs, discards the king of hearts on it (then wins the last trick)
    assert _negative_rollout(NO_KING_OF_HEARTS, 11, world, first) == ([0, 1, 0, 2], [0, 0, 0, -150])
    # where hearts are free to lead (no queens) seat 3 leads the two of hearts and seat 1, sure
    # to win the trick, sheds the king on it, then wins the last (no queen falls: nothing to pay)
    assert _negative_rollout(NO_QUEENS, 11, world, first) == ([0, 2, 0, 1], [0, 0, 0, 0])


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
