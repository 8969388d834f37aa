"""Probe policies for the tests: information (probe) and view tampering (vandal)."""
import numba

from simcards.core.policy import Policy
from simcards.core.rng import below
from simcards.games.spades.policies import (
    BASIC, V_BID, V_BLIND, V_HAND, V_LEADER, V_NPLAYED, V_PLAYED, V_PLAYED_BY, V_SCORE, V_TABLE, V_TRICK, V_TRICKS,
    basic_bid, basic_play, history_card,
)


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


def history_play(view, rng):
    """basic's card, or an illegal 99 when the logged history (V_HISTORY) disagrees with the
    rest of the view: every played card once, in seat order within each trick, the current
    trick's cards last and each on its seat's table slot."""
    played = view[V_PLAYED]
    n = 0
    for c in range(64):
        n += (played >> c) & 1
    seen = 0
    for i in range(n):
        c = history_card(view, i)
        if (seen >> c) & 1 or not (played >> c) & 1:
            return 99
        seen |= 1 << c
    npl = view[V_NPLAYED]
    if n != 4 * view[V_TRICK] + npl:
        return 99
    for j in range(npl):  # the current trick: the last npl plays, from the leader on
        s = (view[V_LEADER] + j) & 3
        c = history_card(view, n - npl + j)
        if view[V_TABLE + s] != c or not (view[V_PLAYED_BY + s] >> c) & 1:
            return 99
    for i in range(n):  # within a trick the seats follow each other clockwise
        c = history_card(view, i)
        s = 0
        while not (view[V_PLAYED_BY + s] >> c) & 1:
            s += 1
        if i % 4 == 0:
            lead = s
        elif s != (lead + i % 4) & 3:
            return 99
    for i in range(n, 60):  # nothing logged beyond the plays made
        if history_card(view, i) != 0:
            return 99
    return basic_play(view, rng)


# plays exactly like basic, and plays an illegal card when the view's history is wrong
historian = Policy("historian", base=BASIC, play=history_play)
