"""Example user policy for partnership Spades: ``cautious``.

Run it for seat 3 with::

    simcards run spades --deals 100000 --seat-policy 3=docs/examples/my_bots.py:cautious

Functions are plain Python; simcards compiles them with numba using the decision's
signature ``f(view, rng) -> int`` (see docs/policies.md for the state view). Only
numba-friendly code is allowed inside: numbers, numpy, and compiled helpers such as
those of ``simcards.core.cards`` and ``simcards.games.spades.policies``.
"""
import numpy as np

from simcards import Policy
from simcards.core.cards import lowest_card, popcount
from simcards.games.spades.policies import (
    BASIC, V_BID, V_HAND, V_LEGAL, V_NPLAYED, V_SEAT, V_TRICKS, V_WIN_CARD,
    highest_by_rank, lowest_by_rank, nearest_legal_bid, sure_tricks, winners_over,
)


def bid(view, rng):
    """One trick less than the sure tricks (at least 1): cautious bidders are rarely set."""
    want = int(sure_tricks(np.uint64(view[V_HAND]), view)) - 1
    return nearest_legal_bid(np.uint64(view[V_LEGAL]), max(want, 1))


def play(view, rng):
    """Win cheaply while the team still needs tricks, otherwise stay under the winning card."""
    legal = np.uint64(view[V_LEGAL])
    if popcount(legal) == 1:
        return lowest_card(legal)
    seat = view[V_SEAT]
    need = 0
    for s in (seat, seat ^ 2):
        need += view[V_BID + s] - view[V_TRICKS + s]
    if view[V_NPLAYED] == 0:
        return lowest_by_rank(legal, view, True)
    win = winners_over(legal, view[V_WIN_CARD], view)
    if need > 0 and win:
        return lowest_by_rank(win, view, True)
    losers = legal & ~win
    if losers:
        return highest_by_rank(losers, view, True)  # shed a high card that cannot win
    return lowest_by_rank(legal, view, True)


cautious = Policy("cautious", base=BASIC, bid=bid, play=play)
