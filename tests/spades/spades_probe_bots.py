"""Probe policies for the tests: information (probe) and view tampering (vandal)."""
import numba

from simcards.core.policy import Policy
from simcards.core.rng import below
from simcards.games.spades.policies import BASIC, V_BID, V_BLIND, V_HAND, V_SCORE, V_TRICKS, basic_bid, basic_play


def blind(view, rng):
    return 1 if view[V_HAND] == 0 else 0


probe = Policy("probe", base=BASIC, blind=blind)


@numba.njit
def _scribble(view):
    for i in range(4):
        view[V_BID + i] = 7
        view[V_BLIND + i] = 1
        view[V_TRICKS + i] = 5
    view[V_SCORE] = -1000
    view[V_SCORE + 1] = 1000


def vandal_bid(view, rng):
    b = basic_bid(view, rng)
    _scribble(view)
    return b


def vandal_play(view, rng):
    c = basic_play(view, rng)
    _scribble(view)
    return c


# plays exactly like basic but writes junk into the view fields the kernel must not trust
vandal = Policy("vandal", base=BASIC, bid=vandal_bid, play=vandal_play)


def keep(view, rng):
    return 0


# probe that never calls the optional misdeal
probe_keep = Policy("probe_keep", base=probe, misdeal=keep)


def refuse_all(hands):
    """An accept function that keeps no deal (for the odds tests)."""
    return False


def count_spades_bid(view, rng):
    """Bids its number of spades (at least 1): a deterministic bidder for the odds tests."""
    n = 0
    hand = view[V_HAND]
    for c in range(39, 52):
        n += (hand >> c) & 1
    return max(1, n)


def never_blind(view, rng):
    return 0


# bids its spade count, never Blind Nil, plays like basic
spade_counter = Policy("spade_counter", base=BASIC, blind=never_blind, bid=count_spades_bid)


def coin_or_ace_bid(view, rng):
    """Bids 3 when holding the ace of spades or when a fair coin (its own stream) says so,
    else 2: a randomised bidder whose conditional odds are known exactly."""
    heads = below(rng, 2) == 1
    if (view[V_HAND] >> 51) & 1 or heads:
        return 3
    return 2


# randomised bid (coin or AS), never Blind Nil, plays like basic
coin_or_ace = Policy("coin_or_ace", base=BASIC, blind=never_blind, bid=coin_or_ace_bid)
