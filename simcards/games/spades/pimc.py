"""``pimc``: perfect-information Monte Carlo card play for Spades (core/pimc.py).

Once the deciding seat holds at most ``dd_cards`` cards, each play decision samples
``worlds`` deals of the unseen cards (exact hand sizes, shown voids, the cards this seat
passed to its partner in an exchange), shaped by the bids: a world is redrawn (up to
:data:`SHAPE_TRIES` times) while a seat's hand *as dealt* (its cards in the world plus those
it has played, ``V_PLAYED_BY``) would not give its bid under expert's bidding rules: a
number bid more than ``bid_tolerance`` away from int(expert estimate + 0.8), a Nil on a hand
whose Nil risk is 2.6 or more (Blind Nil and teams that exchanged cards are not checked).
Every legal card is solved double dummy in every world, the result scored, and the card
with the best total is played (ties: expert's card if it is among the best, else the lowest
card). Earlier in the hand, and for bids, exchange, Blind Nil and misdeal, it plays as
``expert`` at expert's default parameters.

Scoring of a world, where ``v`` is the tricks the partnership takes from here:
both teams' contracts (number bids only) scored as the rules do, made 10 per bid trick,
set minus that, each overtrick ``1 - bag_cost`` points; the value is our points minus the
opponents'. A Nil bidder that has taken no trick (and its partner, covering it) instead
measures the Nil seat alone and minimises its tricks (-nil value if it takes any, -1 per
trick). The search stops sampling after the world that takes the solver past
``node_budget`` nodes, once ``min_worlds`` are solved: the cost per decision is bounded,
deterministically.

Not modelled: the opponents' Nil (played for tricks, not attacked), failed-Nil trick
rules and 10-for-200; the solver assumes spades must be broken unless this seat, on lead,
was allowed to lead one, and allows trumping on trick 1.
"""
from __future__ import annotations

import numpy as np

from simcards.core import dd
from simcards.core.cards import popcount
from simcards.core.jit import helper, policy
from simcards.core.pimc import MAX_WORLDS, TABLE_BITS, decide, sample_world
from simcards.core.policy import Policy, PolicyParam, param_value
from simcards.games.spades.policies import (
    EXPERT_PARAMS, SIG, V_BID, V_BLIND, V_BROKEN, V_DECK, V_EXCHANGE, V_GIVEN, V_HAND, V_LEADER,
    V_LEGAL, V_NIL_VALUE, V_NPLAYED, V_PARAMS, V_PLAYED, V_PLAYED_BY, V_SEAT, V_SUITS, V_TABLE, V_TRICK, V_TRICKS,
    V_VOIDS, expert_bid, expert_blind, expert_estimate, expert_exchange, expert_misdeal, expert_play,
    nil_risk,
)

P_WORLDS, P_DD_CARDS, P_NODE_BUDGET, P_MIN_WORLDS, P_BAG_COST, P_BID_TOLERANCE = range(6)
PIMC_PARAMS = (
    PolicyParam("worlds", 16, 1, MAX_WORLDS, "deals of the unseen cards sampled per play decision", integer=True),
    PolicyParam("dd_cards", 5, 1, 13, "play double dummy once the seat holds at most this many cards "
                "(before: expert's card)", integer=True),
    PolicyParam("node_budget", 200_000, 0, 1_000_000_000, "solver nodes per decision: no further world once "
                "spent (0 = no cap)", integer=True),
    PolicyParam("min_worlds", 4, 1, MAX_WORLDS, "worlds solved before node_budget can stop the sampling",
                integer=True),
    PolicyParam("bag_cost", 1.0, 0.0, 20.0, "points an overtrick costs beyond its 1 (1: overtricks are neutral)"),
    PolicyParam("bid_tolerance", 2, 0, 13, "redraw a world where a seat's dealt hand is further than this from "
                "its bid by expert's rules (13: bids ignored)", integer=True),
)
SHAPE_TRIES = 40  # redraws of a world that contradicts the bids before it is kept anyway
HARD_TRIES = 200  # rejection draws before the constructive deal (core.pimc.sample_world)
NIL_RISK_LIMIT = 2.6  # expert's largest Nil risk (behind_nil_risk): a Nil hand is below it
_EXPERT_DEFAULTS = np.array([p.fixed(p.default) for p in EXPERT_PARAMS], np.int64)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@helper
def _expert_view(view):
    """A copy of ``view`` with expert's default parameters in the parameter slots."""
    v = view.copy()
    for k in range(_EXPERT_DEFAULTS.shape[0]):
        v[V_PARAMS + k] = _EXPERT_DEFAULTS[k]
    return v


@helper
def _fits_bids(view, world, tol):
    """Whether every other seat's dealt hand in ``world`` agrees with its bid (module doc)."""
    me = view[V_SEAT]
    for s in range(4):
        b = view[V_BID + s]
        if s == me or b < 0 or view[V_BLIND + s] == 1 or view[V_EXCHANGE + (s & 1)] != 0:
            continue
        dealt = world[s] | np.uint64(view[V_PLAYED_BY + s])
        if b == 0:
            if nil_risk(dealt, view) >= NIL_RISK_LIMIT:
                return False
        elif tol < 13:
            want = max(int(expert_estimate(dealt, view) + 0.8), 1)
            if abs(want - b) > tol:
                return False
    return True


@helper
def _contract_points(bid, taken, extra, bag_cost):
    """A team's contract points (x10) with ``taken`` tricks so far and ``extra`` to come."""
    if bid <= 0:
        return -int(round(10 * bag_cost * (taken + extra))) + 10 * (taken + extra)
    total = taken + extra
    if total < bid:
        return -100 * bid
    return 100 * bid + int(round(10 * (1.0 - bag_cost) * (total - bid)))


@helper
def _utility(view, left, nil_seat, bag_cost, out):
    """``out[v]``: the points of a world where the measured side takes ``v`` of ``left`` tricks."""
    me = view[V_SEAT]
    if nil_seat >= 0:
        lose = view[V_NIL_VALUE] * 10
        for v in range(left + 1):
            out[v] = -(lose if v > 0 else 0) - v
        return
    bids = np.zeros(2, np.int64)
    taken = np.zeros(2, np.int64)
    for s in range(4):
        b = view[V_BID + s]
        if b > 0:
            bids[s & 1] += b
            taken[s & 1] += view[V_TRICKS + s]
    us = me & 1
    for v in range(left + 1):
        out[v] = (_contract_points(bids[us], taken[us], v, bag_cost)
                  - _contract_points(bids[1 - us], taken[1 - us], left - v, bag_cost))


@helper
def pimc_card(view, rng, totals):
    """The card pimc plays (``totals[c]``: each card's total points; all 0 when expert decided).
    Returns (card, worlds solved)."""
    legal = np.uint64(view[V_LEGAL])
    prefer = expert_play(view, rng)
    for c in range(64):
        totals[c] = 0
    me = view[V_SEAT]
    hand = np.uint64(view[V_HAND])
    left = popcount(hand)
    if left > int(param_value(view, V_PARAMS + P_DD_CARDS)) or popcount(legal) < 2:
        return prefer, 0
    n_worlds = min(int(param_value(view, V_PARAMS + P_WORLDS)), MAX_WORLDS)
    tol = int(param_value(view, V_PARAMS + P_BID_TOLERANCE))
    played = np.uint64(view[V_PLAYED])
    spades = np.uint64(view[V_SUITS + 3])
    fixed = np.zeros(4, np.uint64)
    fixed[me] = hand
    partner = me ^ 2
    fixed[partner] = np.uint64(view[V_GIVEN]) & ~played  # cards passed to the partner, not yet played
    unseen = np.uint64(view[V_DECK]) & ~played & ~hand & ~fixed[partner]
    sizes = np.zeros(4, np.int64)
    allowed = np.zeros(4, np.uint64)
    for s in range(4):
        sizes[s] = left - 1 if (s != me and view[V_TABLE + s] >= 0) else left
        a = _ALL
        for suit in range(4):
            if (view[V_VOIDS + s] >> suit) & 1:
                a &= ~np.uint64(view[V_SUITS + suit])
        allowed[s] = a if s != me else np.uint64(0)
    worlds = np.zeros((n_worlds, 4), np.uint64)
    hands = np.zeros(4, np.uint64)
    cards = np.zeros(64, np.int64)
    buf = np.zeros(64, np.int64)
    count = 0
    for w in range(n_worlds):
        got = False
        for t in range(SHAPE_TRIES):
            if sample_world(unseen, fixed, sizes, allowed, rng, hands, cards, buf, HARD_TRIES) < 0:
                break
            got = True
            if _fits_bids(view, hands, tol):
                break
        if not got:
            break
        for s in range(4):
            worlds[count, s] = hands[s]
        count += 1
    if count == 0:
        return prefer, 0
    # the solver's rules: spades trump; must be broken unless this seat, on lead, could lead one
    R = np.zeros(dd.R_LEN, np.int64)
    R[dd.R_SEATS] = 4
    R[dd.R_TRUMP] = 3
    restrict = 1
    npl = view[V_NPLAYED]
    if npl == 0 and view[V_BROKEN] == 0 and hand & spades and hand & ~spades and legal & spades:
        restrict = 0
    R[dd.R_LEAD_RESTRICT] = restrict
    R[dd.R_FORCED_LEAD] = -1
    R[dd.R_SITOUT_T1] = -1
    R[dd.R_FEATURES] = dd.F_ALL
    suit_masks = np.zeros(4, np.uint64)
    for s in range(4):
        suit_masks[s] = np.uint64(view[V_SUITS + s])
    leader = view[V_LEADER]
    tc = np.zeros(8, np.int64)
    for i in range(npl):
        tc[i] = view[V_TABLE + ((leader + i) & 3)]
    nil_seat = -1
    if view[V_BID + me] == 0 and view[V_TRICKS + me] == 0:
        nil_seat = me
    elif view[V_BID + partner] == 0 and view[V_TRICKS + partner] == 0:
        nil_seat = partner
    side = np.int64((1 << me) | (1 << partner)) if nil_seat < 0 else np.int64(1 << nil_seat)
    utility = np.zeros(left + 1, np.int64)
    _utility(view, left, nil_seat, param_value(view, V_PARAMS + P_BAG_COST), utility)
    t1 = 1 if view[V_TRICK] == 0 else 0
    card, solved = decide(worlds, count, R, side, suit_masks, tc, np.int64(npl), np.int64(leader),
                          np.int64(view[V_BROKEN]), np.int64(t1), legal, utility, prefer,
                          np.int64(param_value(view, V_PARAMS + P_NODE_BUDGET)),
                          np.int64(param_value(view, V_PARAMS + P_MIN_WORLDS)), np.int64(TABLE_BITS[left]), totals)
    if card < 0:
        return prefer, solved
    return card, solved


@policy(SIG)
def pimc_play(view, rng):
    totals = np.zeros(64, np.int64)
    card, _ = pimc_card(view, rng, totals)
    return card


@policy(SIG)
def pimc_bid(view, rng):
    return expert_bid(_expert_view(view), rng)


@policy(SIG)
def pimc_blind(view, rng):
    return expert_blind(_expert_view(view), rng)


PIMC = Policy("pimc", searching=True, blind=pimc_blind, bid=pimc_bid, exchange=expert_exchange, play=pimc_play,
              misdeal=expert_misdeal, params=PIMC_PARAMS,
              help="perfect-information Monte Carlo: late cards solved double dummy over sampled deals "
                   "shaped by the bids; expert's bidding")


def card_totals(view, seed: int = 1):
    """Test entry: (card, worlds solved, {card: total points}) of pimc at a filled view."""
    rng = np.array([seed], np.uint64)
    totals = np.zeros(64, np.int64)
    card, solved = pimc_card(np.asarray(view, np.int64), rng, totals)
    return int(card), int(solved), {c: int(totals[c]) for c in range(64) if totals[c] != 0}
