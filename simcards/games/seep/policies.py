"""Seep policies: the ``bid`` and ``move`` decisions and the built-ins random, basic, expert.

Decisions (every function of a decision has exactly this signature):

- ``bid(view, rng) -> value``: the bidder sees ``view[S_HAND]`` (his four cards only) and
  returns a value ``b`` in ``view[S_MIN_BID]``..13 such that he holds a card of value ``b``.
- ``move(view, moves, n, rng) -> index``: choose one of the ``n`` legal moves in
  ``moves[:n]`` (rows ``kind, card, target, loose, house``) and return its index.

``view`` is the public state plus the decider's own hand (layout documented in
:mod:`simcards.games.seep.layout`; import the ``S_*``, kind and ``M_*`` names from
there). ``rng`` is the record's policy stream: draw with ``simcards.core.rng``.

A user policy is a file with plain Python functions, e.g.::

    from simcards import Policy
    from simcards.games.seep import policies as sp
    def greedy(view, moves, n, rng):  # first capture, else first move
        for i in range(n):
            if moves[i, 0] == 0:
                return i
        return 0
    mine = Policy("mine", move=greedy, base=sp.BASIC)

run as ``--policy my_bots.py:mine``.
"""
from __future__ import annotations

import numba as nb
import numpy as np
from numba import types

from simcards.core.policy import Decision, Policy, PolicyCatalog
from simcards.core.rng import below, uniform
from simcards.games.seep.cards import ALL_CARDS, PTS, VAL, VALMASK, low_card, mask_points, mask_sum, ncards
from simcards.games.seep.layout import (
    ADD, BREAK, BUILD, CAPTURE, M_CARD, M_HOUSE, M_KIND, M_LOOSE, M_TARGET, S_BID, S_EARLY_PLAYS,
    S_EARLY_VALUE, S_HAND, S_HOUSE, S_LAST_VALUE, S_LOOSE, S_MIN_BID, S_MIN_HOUSE, S_OWNERS,
    S_PILE, S_PLAY, S_SEAT, S_SWEEP_VALUE, THROW,
)

BID_SIG = types.int64(types.int64[:], types.uint64[:])
MOVE_SIG = types.int64(types.int64[:], types.int64[:, :], types.int64, types.uint64[:])

DECISIONS = (
    Decision("bid", BID_SIG, "bid(view, rng) -> house value 9..13 held in the bidder's four cards"),
    Decision("move", MOVE_SIG, "move(view, moves, n, rng) -> index of the chosen legal move"),
)


# ------------------------------------------------------------------ shared helpers

@nb.njit(cache=True, nogil=True)
def sweep_bonus(view, k):
    """The bonus a sweep would earn on play ``k`` (rules 4.3)."""
    if k == 48:
        return view[S_LAST_VALUE]
    if k <= view[S_EARLY_PLAYS]:
        return view[S_EARLY_VALUE]
    return view[S_SWEEP_VALUE]


@nb.njit(cache=True, nogil=True)
def houses_mask(view):
    """Bit v set for every house value on the floor."""
    m = np.int64(0)
    for v in range(view[S_MIN_HOUSE], 14):
        if view[S_HOUSE + v]:
            m |= np.int64(1) << v
    return m


@nb.njit(cache=True, nogil=True)
def captured_cards(view, moves, i):
    """Cards a CAPTURE move takes, the played card included."""
    c = (np.int64(1) << moves[i, M_CARD]) | moves[i, M_LOOSE]
    if moves[i, M_HOUSE]:
        c |= view[S_HOUSE + moves[i, M_TARGET]]
    return c


@nb.njit(cache=True, nogil=True)
def is_sweep(view, moves, i):
    """Whether a CAPTURE move leaves the floor empty."""
    if moves[i, M_KIND] != CAPTURE:
        return False
    if view[S_LOOSE] & ~moves[i, M_LOOSE]:
        return False
    hm = houses_mask(view)
    if moves[i, M_HOUSE]:
        hm &= ~(np.int64(1) << moves[i, M_TARGET])
    return hm == 0


@nb.njit(cache=True, nogil=True, inline="always")
def better(s, best, ties, rng):
    """Running argmax with uniform tie-breaking: (take it?, new best, new tie count)."""
    if s > best + 1e-9:
        return True, s, 1
    if s > best - 1e-9:
        ties += 1
        return below(rng, ties) == 0, best, ties
    return False, best, ties


# ------------------------------------------------------------------ random

@nb.njit(BID_SIG, cache=True, nogil=True)
def random_bid(view, rng):
    """A uniformly random legal bid value."""
    hand = view[S_HAND]
    n = 0
    for v in range(view[S_MIN_BID], 14):
        if hand & VALMASK[v]:
            n += 1
    k = below(rng, n)
    for v in range(view[S_MIN_BID], 14):
        if hand & VALMASK[v]:
            if k == 0:
                return v
            k -= 1
    return 13


@nb.njit(MOVE_SIG, cache=True, nogil=True)
def random_move(view, moves, n, rng):
    """A uniformly random legal move."""
    return below(rng, n)


# ------------------------------------------------------------------ basic

@nb.njit(BID_SIG, cache=True, nogil=True)
def basic_bid(view, rng):
    """The highest value held."""
    hand = view[S_HAND]
    for v in range(13, view[S_MIN_BID] - 1, -1):
        if hand & VALMASK[v]:
            return v
    return 13


@nb.njit(cache=True, nogil=True)
def basic_score(view, moves, i):
    kind = moves[i, M_KIND]
    card = moves[i, M_CARD]
    if kind == CAPTURE:
        taken = captured_cards(view, moves, i)
        s = 10.0 + mask_points(taken) + 0.1 * ncards(taken)
        if is_sweep(view, moves, i):
            s += sweep_bonus(view, view[S_PLAY])
        return s
    if kind == BUILD or kind == ADD:
        return 5.0 + 0.5 * mask_points(moves[i, M_LOOSE] | (np.int64(1) << card))
    if kind == BREAK:
        return 4.0
    return -PTS[card] - 0.01 * VAL[card]


@nb.njit(MOVE_SIG, cache=True, nogil=True)
def basic_move(view, moves, n, rng):
    """Greedy: the capture worth most points (sweeps count), else a build, else the cheapest throw."""
    best = -1e300
    ties = 0
    pick = 0
    for i in range(n):
        take, best, ties = better(basic_score(view, moves, i), best, ties, rng)
        if take:
            pick = i
    return pick


RANDOM = Policy("random", bid=random_bid, move=random_move)
BASIC = Policy("basic", bid=basic_bid, move=basic_move)
EXPERT = BASIC  # replaced below once defined
