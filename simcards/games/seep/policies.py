"""Seep policies: the ``bid`` and ``move`` decisions and the built-ins random, basic, expert.

Decisions (every function of a decision has exactly this signature):

- ``bid(view, rng) -> value``: the bidder sees ``view[S_HAND]`` (his four cards only) and
  returns a value ``b`` in ``view[S_MIN_BID]``..13 such that he holds a card of value ``b``.
- ``move(view, moves, n, rng) -> index``: choose one of the ``n`` legal moves in
  ``moves[:n]`` (rows ``kind, card, target, loose, house``; ``moves`` is the kernel's
  whole buffer, rows from ``n`` on are stale) and return its index.

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

import numpy as np
from numba import types

from simcards.core.policy import Decision, Policy, PolicyParam, param_value
from simcards.core.rng import below
from simcards.core.jit import helper, policy
from simcards.games.seep.cards import ALL_CARDS, PTS, VAL, VALMASK, low_card, mask_points, mask_sum, ncards
from simcards.games.seep.layout import (
    ADD, BREAK, BUILD, CAPTURE, M_CARD, M_HOUSE, M_KIND, M_LOOSE, M_TARGET, S_EARLY_PLAYS,
    S_EARLY_VALUE, S_HAND, S_HOUSE, S_LAST_VALUE, S_LOOSE, S_MIN_BID, S_MIN_HOUSE, S_OWNERS,
    S_NCARDS, S_NPLAYERS, S_PARAMS, S_PILE, S_PLAY, S_SEAT, S_SWEEP_VALUE, THROW,
)

# built-ins never allocate: alloc=False compiles them without reference counting (see rules.py)
BID_SIG = types.int64(types.int64[:], types.uint64[:])
MOVE_SIG = types.int64(types.int64[:], types.int64[:, :], types.int64, types.uint64[:])

DECISIONS = (
    Decision("bid", BID_SIG, "bid(view, rng) -> house value 9..13 held in the bidder's four cards"),
    Decision("move", MOVE_SIG, "move(view, moves, n, rng) -> index of the chosen legal move"),
)


# ------------------------------------------------------------------ shared helpers

@helper(alloc=False)
def sweep_bonus(view, k):
    """The bonus a sweep would earn on play ``k`` (docs/games/seep.md, rule 4.3)."""
    if k == 48:
        return view[S_LAST_VALUE]
    if k <= view[S_EARLY_PLAYS]:
        return view[S_EARLY_VALUE]
    return view[S_SWEEP_VALUE]


@helper(alloc=False)
def houses_mask(view):
    """Bit v set for every house value on the floor."""
    m = np.int64(0)
    for v in range(view[S_MIN_HOUSE], 14):
        if view[S_HOUSE + v]:
            m |= np.int64(1) << v
    return m


@helper(alloc=False)
def captured_cards(view, moves, i):
    """Cards a CAPTURE move takes, the played card included."""
    c = (np.int64(1) << moves[i, M_CARD]) | moves[i, M_LOOSE]
    if moves[i, M_HOUSE]:
        c |= view[S_HOUSE + moves[i, M_TARGET]]
    return c


@helper(alloc=False)
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


@helper(alloc=False)
def unseen_cards(view):
    """Cards the decider has not seen: other hands (and the stock before it is dealt)."""
    seen = view[S_HAND] | view[S_LOOSE] | view[S_PILE] | view[S_PILE + 1]
    for v in range(14):
        seen |= view[S_HOUSE + v]
    return ALL_CARDS & ~seen


@helper(alloc=False)
def sweepable_value(loose, house_value):
    """A value whose card would take the whole floor in one capture (0 if none is obvious).

    Checks the common cases: one group (sum <= 13) or equal cards, with at most one house.
    """
    if loose == 0:
        return house_value
    total = mask_sum(loose)
    t = 0
    if total <= 13:
        t = total
    else:
        first = VAL[low_card(loose)]
        if loose & ~VALMASK[first] == 0:
            t = first
    if t == 0 or (house_value > 0 and house_value != t):
        return 0
    return t


@helper(alloc=False)
def better(s, best, ties, rng):
    """Running argmax with uniform tie-breaking: (take it?, new best, new tie count)."""
    if s > best + 1e-9:
        return True, s, 1
    if s > best - 1e-9:
        ties += 1
        return below(rng, ties) == 0, best, ties
    return False, best, ties


# ------------------------------------------------------------------ random

@policy(BID_SIG, alloc=False)
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


@policy(MOVE_SIG, alloc=False)
def random_move(view, moves, n, rng):
    """A uniformly random legal move."""
    return below(rng, n)


# ------------------------------------------------------------------ basic

# parameters (issue 16): the house-building appetite and the sweep guard; defaults = the old constants
B_BUILD, B_BUILD_POINTS, B_BREAK, B_SWEEP_GUARD = range(4)
BASIC_PARAMS = (
    PolicyParam("build_value", 5.0, -20.0, 30.0,
                "score of a build or addition before its points (a capture scores 10 + its points): "
                "the appetite for houses"),
    PolicyParam("build_points", 0.5, 0.0, 2.0, "score per card point put into the house"),
    PolicyParam("break_value", 4.0, -20.0, 30.0, "score of breaking a house"),
    PolicyParam("sweep_guard", 1000.0, 0.0, 1000.0,
                "penalty of a move that leaves a floor the next player can sweep with an unseen card (0: ignore)"),
)

@policy(BID_SIG, alloc=False)
def basic_bid(view, rng):
    """The highest value held."""
    hand = view[S_HAND]
    for v in range(13, view[S_MIN_BID] - 1, -1):
        if hand & VALMASK[v]:
            return v
    return 13


@helper(alloc=False)
def basic_score(view, moves, i, houses, bonus):
    """basic's score of move ``i`` (its parameters read from the view's params slots)."""
    kind = moves[i, M_KIND]
    card = moves[i, M_CARD]
    if kind == CAPTURE:
        taken = (np.int64(1) << card) | moves[i, M_LOOSE]
        left = houses
        if moves[i, M_HOUSE]:
            taken |= view[S_HOUSE + moves[i, M_TARGET]]
            left &= ~(np.int64(1) << moves[i, M_TARGET])
        s = 10.0 + mask_points(taken) + 0.1 * ncards(taken)
        if left == 0 and view[S_LOOSE] & ~moves[i, M_LOOSE] == 0:
            s += bonus
        return s
    if kind == BUILD or kind == ADD:
        return (param_value(view, S_PARAMS + B_BUILD)
                + param_value(view, S_PARAMS + B_BUILD_POINTS) * mask_points(moves[i, M_LOOSE] | (np.int64(1) << card)))
    if kind == BREAK:
        return param_value(view, S_PARAMS + B_BREAK)
    return -PTS[card] - 0.01 * VAL[card]


@helper(alloc=False)
def floor_after(view, moves, i, houses):
    """(loose cards, house values mask) on the floor after move ``i``; ``houses`` is the
    house values mask before it (``houses_mask``)."""
    kind = moves[i, M_KIND]
    target = moves[i, M_TARGET]
    loose = view[S_LOOSE]
    if kind == CAPTURE:
        loose &= ~moves[i, M_LOOSE]
        if moves[i, M_HOUSE]:
            houses &= ~(np.int64(1) << target)
    elif kind == THROW:
        loose |= np.int64(1) << moves[i, M_CARD]
    else:
        if kind == BREAK:
            houses &= ~(np.int64(1) << (target - VAL[moves[i, M_CARD]]))
        else:
            loose &= ~moves[i, M_LOOSE]
        loose &= ~VALMASK[target]  # loose cards of the house's value join it
        houses |= np.int64(1) << target
    return loose, houses


@helper(alloc=False)
def gives_lone_sweep(view, moves, i, unseen, houses):
    """Whether move ``i`` leaves a floor that one card of the next player can take whole
    (a lone card, a lone house, or one obvious group, as ``sweepable_value`` sees it)
    with a card of that value still unseen by the decider. ``unseen``: ``unseen_cards``;
    ``houses``: the house values mask before the move."""
    loose, houses = floor_after(view, moves, i, houses)
    nh = ncards(houses)
    if nh > 1 or (loose == 0 and nh == 0):
        return False
    nxt = (view[S_SEAT] + 1) % view[S_NPLAYERS]
    if view[S_PLAY] > 1 and view[S_NCARDS + nxt] == 0:
        return False  # the next player has nothing left to play
    v = sweepable_value(loose, low_card(houses) if nh else 0)
    return v > 0 and unseen & VALMASK[v] != 0


@policy(MOVE_SIG, alloc=False)
def basic_move(view, moves, n, rng):
    """Greedy: the capture worth most points (sweeps count), else a build, else the cheapest
    throw; but never a move that leaves a lone card or house the next player can sweep
    while another move avoids it."""
    houses = houses_mask(view)
    bonus = sweep_bonus(view, view[S_PLAY])
    unseen = unseen_cards(view)
    guard = param_value(view, S_PARAMS + B_SWEEP_GUARD)
    best = -1e300
    ties = 0
    pick = 0
    for i in range(n):
        s = basic_score(view, moves, i, houses, bonus)
        if guard != 0.0 and gives_lone_sweep(view, moves, i, unseen, houses):
            s -= guard
        take, best, ties = better(s, best, ties, rng)
        if take:
            pick = i
    return pick


# ------------------------------------------------------------------ expert

E_HOUSE, E_RISK, E_CEMENT, E_THROW, E_DENIAL = range(5)
EXPERT_PARAMS = (
    PolicyParam("house_bonus", 0.5, -20.0, 20.0,
                "score of owning a house beyond its expected card points: the appetite for houses"),
    PolicyParam("house_risk", 2.0, 0.0, 4.0,
                "a house's points count (1 - house_risk x P(an opponent holds its value)) (2: lost points count twice)"),
    PolicyParam("cement_bonus", 0.3, -5.0, 5.0, "extra score of a cemented house (it can no longer be broken)"),
    PolicyParam("throw_cost", 0.6, 0.0, 2.0, "cost per card point of a thrown card"),
    PolicyParam("sweep_denial", 1.0, 0.0, 3.0,
                "weight of the next opponent's expected sweep (bonus + floor points) left by a move"),
)

@helper(alloc=False)
def p_holds(u, h, U):
    """P(a hand of ``h`` cards drawn from ``U`` unseen cards holds one of ``u`` given ones)."""
    if u <= 0 or h <= 0 or U <= 0:
        return 0.0
    q = 1.0
    for i in range(min(h, U)):
        q *= max(U - u - i, 0) / (U - i)
    return 1.0 - q


@helper(alloc=False)
def expert_score(view, moves, i, unseen, n_unseen, house, risk, cement, throw, denial):
    p = view[S_SEAT]
    k = view[S_PLAY]
    kind = moves[i, M_KIND]
    card = moves[i, M_CARD]
    target = moves[i, M_TARGET]
    x = moves[i, M_LOOSE]
    cbit = np.int64(1) << card
    nplayers = view[S_NPLAYERS]
    nxt = (p + 1) % nplayers
    n_next = 12 if k == 1 else view[S_NCARDS + nxt]
    if nplayers == 2:
        n_opps = n_next
    else:
        n_opps = 24 if k == 1 else view[S_NCARDS + nxt] + view[S_NCARDS + (p + 3) % 4]
    loose_after = view[S_LOOSE]
    houses_after = houses_mask(view)
    s = 0.0
    if kind == CAPTURE:
        taken = captured_cards(view, moves, i)
        s = 3.0 + mask_points(taken) + 0.02 * ncards(taken)
        loose_after &= ~x
        if moves[i, M_HOUSE]:
            houses_after &= ~(np.int64(1) << target)
        if loose_after == 0 and houses_after == 0:
            s += sweep_bonus(view, k)
    elif kind == THROW:
        s = -throw * PTS[card] - 0.02 * VAL[card]
        loose_after |= cbit
    else:
        if kind == BREAK:
            w = target - VAL[card]
            cards = view[S_HOUSE + w] | view[S_HOUSE + target] | cbit
            houses_after &= ~(np.int64(1) << w)
            owners = view[S_OWNERS + w]
            if owners & ~((1 << p) | (1 << ((p + 2) % 4))):
                s += 0.5 * mask_points(view[S_HOUSE + w])  # taken from the opponents' keeping
        else:
            cards = view[S_HOUSE + target] | cbit | x
            loose_after &= ~x
        merged = loose_after & VALMASK[target]
        loose_after &= ~merged
        cards |= merged
        houses_after |= np.int64(1) << target
        # the house is ours unless an opponent captures it first
        q_opp = p_holds(ncards(unseen & VALMASK[target]), n_opps, n_unseen)
        s += house + mask_points(cards) * (1.0 - risk * q_opp)
        if mask_sum(cards) > target:
            s += cement  # cemented: can no longer be broken
    # deny the next opponent a sweep
    nh = ncards(houses_after)
    if nh <= 1 and (loose_after or nh):
        hv = 0
        if nh == 1:
            hv = low_card(houses_after)
        t = sweepable_value(loose_after, hv)
        if t > 0:
            bonus = sweep_bonus(view, k + 1)
            pts = mask_points(loose_after)
            if nh == 1:
                pts += mask_points(view[S_HOUSE + hv])
            s -= denial * (bonus + pts) * p_holds(ncards(unseen & VALMASK[t]), n_next, n_unseen)
    return s


@policy(MOVE_SIG, alloc=False)
def expert_move(view, moves, n, rng):
    """One-ply expected points: card points and sweeps taken, houses weighed by the chance
    the opponents capture them first, minus the chance the next opponent sweeps."""
    unseen = unseen_cards(view)
    n_unseen = ncards(unseen)
    house = param_value(view, S_PARAMS + E_HOUSE)
    risk = param_value(view, S_PARAMS + E_RISK)
    cement = param_value(view, S_PARAMS + E_CEMENT)
    throw = param_value(view, S_PARAMS + E_THROW)
    denial = param_value(view, S_PARAMS + E_DENIAL)
    best = -1e300
    ties = 0
    pick = 0
    for i in range(n):
        take, best, ties = better(expert_score(view, moves, i, unseen, n_unseen, house, risk, cement, throw, denial),
                                  best, ties, rng)
        if take:
            pick = i
    return pick


# Expected deal margin (bidder's team minus dealer's team) by bid value (rows 9..13) and
# the number of cards of that value among the bidder's four (columns 1, 2, 3+), measured
# over 300,000 deals of expert play with uniformly random bids (seed 99; se about 0.2 for
# one card, 0.6 for two; the 3+ column is the 2-card value plus 4, smoothed).
BID_TABLE = np.zeros((14, 5))
for _v, _one, _two in ((9, -9.0, -4.9), (10, -7.3, -0.9), (11, -7.5, -2.5), (12, -7.1, -0.3), (13, -6.0, 0.8)):
    BID_TABLE[_v, 1] = _one
    BID_TABLE[_v, 2] = _two
    BID_TABLE[_v, 3] = BID_TABLE[_v, 4] = _two + 4.0


@policy(BID_SIG, alloc=False)
def expert_bid(view, rng):
    """The bid with the best expected margin for the bidder's team (see docs: a calibrated table)."""
    hand = view[S_HAND]
    best = -1e300
    pick = 13
    for v in range(view[S_MIN_BID], 14):
        m = hand & VALMASK[v]
        if m == 0:
            continue
        s = BID_TABLE[v, min(ncards(m), 4)] + 0.01 * mask_points(m)
        if s > best:
            best = s
            pick = v
    return pick


RANDOM = Policy("random", bid=random_bid, move=random_move, help="a uniformly random legal bid and move")
BASIC = Policy("basic", bid=basic_bid, move=basic_move, params=BASIC_PARAMS,
               help="bid the highest value; greedy captures, then builds, then the cheapest throw; no lone sweeps")
EXPERT = Policy("expert", bid=expert_bid, move=expert_move, params=EXPERT_PARAMS,
                help="calibrated bids; one-ply expected points with card counting of unseen cards")
