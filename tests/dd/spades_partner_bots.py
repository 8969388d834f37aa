"""A partner policy for the `bid spades --dd` tests whose bid is known from the deal and the
bid before it: Nil when its partner has bid 5 or more, else its number of spades (at least 1)."""
from simcards.core.policy import Policy
from simcards.games.spades.policies import BASIC, V_BID, V_HAND, V_SEAT


def echo_bid(view, rng):
    if view[V_BID + (view[V_SEAT] ^ 2)] >= 5:
        return 0
    n = 0
    hand = view[V_HAND]
    for c in range(39, 52):
        n += (hand >> c) & 1
    return max(1, n)


def never_blind(view, rng):
    return 0


echo = Policy("echo", base=BASIC, blind=never_blind, bid=echo_bid)
