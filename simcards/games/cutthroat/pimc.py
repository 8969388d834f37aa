"""``pimc`` for Cutthroat: perfect-information Monte Carlo card play (core/pimc.py), paranoid.

Once the seat holds at most ``dd_cards`` cards, each play decision deals the unseen cards
to the other players ``worlds`` times (exact hand sizes, shown voids; the dealer sitting out
trick 1 in the 5-player 2-joker form holds one card fewer), solves every legal card in every
world double dummy with the seat measured alone against all the others together (the
paranoid bound of docs/double-dummy.md), and plays the card with the best total score (ties:
expert's card if among the best, else the lowest card). Earlier, and for every other
decision, it is ``expert`` at expert's default parameters.

Score of a world where the seat takes ``v`` more tricks, from the tricks its bid still wants
(``tricks_wanted``): an at-least bid (ordinary, B6, SM) 100 when made plus 10 per trick up to
the bid, ``1 - bag_cost`` x 10 per overtrick; an exact bid (1F, 2F) 100 when exactly made,
minus 10 per trick off; a Nil or Blind Nil not yet failed -100 if it takes any trick, and every
trick -1. Not modelled: setting the leader or a Nil bidder (expert's heuristics do that
before ``dd_cards``), prize jacks; the solver assumes spades must be broken unless this seat,
on lead, could lead one, and allows trumping on trick 1. World shaping by bids: not done.
"""
from __future__ import annotations

import numpy as np

from simcards.core import dd
from simcards.core.cards import popcount
from simcards.core.jit import helper, policy
from simcards.core.pimc import MAX_WORLDS, TABLE_BITS, decide, sample_world
from simcards.core.policy import Policy, PolicyParam, param_value
from simcards.core.tricks import SUIT_MASKS_JOKERS_AS_SPADES
from simcards.games.cutthroat.layout import (
    B_1F, B_2F, B_BN, M_DECK, M_HAND, M_LEGAL, M_PLAYED, M_VOID, NIL, V_B6_TRICKS, V_BID, V_BROKEN, V_LEADER, V_N,
    V_NPLAYED, V_PARAMS, V_SEAT, V_SITOUT, V_SM_MIN, V_TRICK, V_TRICK_CARD, V_TRICK_SEAT, V_TRICKS,
)
from simcards.games.cutthroat.policies import EXPERT_PARAMS, SIG, expert_blind, expert_bid, expert_play, \
    expert_redeal, tricks_wanted

P_WORLDS, P_DD_CARDS, P_NODE_BUDGET, P_MIN_WORLDS, P_BAG_COST = range(5)
PIMC_PARAMS = (
    PolicyParam("worlds", 16, 1, MAX_WORLDS, "deals of the unseen cards sampled per play decision", integer=True),
    PolicyParam("dd_cards", 5, 1, 17, "play double dummy once the seat holds at most this many cards "
                "(before: expert's card)", integer=True),
    PolicyParam("node_budget", 200_000, 0, 1_000_000_000, "solver nodes per decision: no further world once "
                "spent (0 = no cap)", integer=True),
    PolicyParam("min_worlds", 4, 1, MAX_WORLDS, "worlds solved before node_budget can stop the sampling",
                integer=True),
    PolicyParam("bag_cost", 1.0, 0.0, 20.0, "points an overtrick costs beyond its 1 (1: overtricks are neutral)"),
)
HARD_TRIES = 200
_EXPERT_DEFAULTS = np.array([p.fixed(p.default) for p in EXPERT_PARAMS], np.int64)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_SUITS = SUIT_MASKS_JOKERS_AS_SPADES


@helper
def _expert_view(view):
    """A copy of ``view`` with expert's default parameters in the parameter slots."""
    v = view.copy()
    for k in range(_EXPERT_DEFAULTS.shape[0]):
        v[V_PARAMS + k] = _EXPERT_DEFAULTS[k]
    return v


@helper
def _utility(view, left, bag_cost, out):
    """``out[v]``: the points of a world where the seat takes ``v`` of ``left`` tricks (module doc)."""
    me = view[V_SEAT]
    code = view[V_BID + me]
    won = view[V_TRICKS + me]
    if code == NIL or code == B_BN:
        for v in range(left + 1):
            out[v] = -v - (100 if (v > 0 and won == 0) else 0)
        return
    if code == B_1F or code == B_2F:
        target = 1 if code == B_1F else 2
        for v in range(left + 1):
            off = abs(won + v - target)
            out[v] = (100 if off == 0 else 0) - 10 * off
        return
    w = tricks_wanted(code, won, view[V_B6_TRICKS], view[V_SM_MIN])
    over = int(round(10 * (1.0 - bag_cost)))
    for v in range(left + 1):
        out[v] = (100 if v >= w else 0) + 10 * min(v, w) + over * max(0, v - w)


@helper
def pimc_card(view, masks, rng, totals):
    """(card, worlds solved) of pimc at this play decision; ``totals[c]``: each card's total."""
    legal = masks[M_LEGAL]
    prefer = expert_play(view, masks, rng)
    for c in range(64):
        totals[c] = 0
    me = view[V_SEAT]
    n = view[V_N]
    hand = masks[M_HAND]
    left = popcount(hand)
    if left > int(param_value(view, V_PARAMS + P_DD_CARDS)) or popcount(legal) < 2:
        return prefer, 0
    n_worlds = min(int(param_value(view, V_PARAMS + P_WORLDS)), MAX_WORLDS)
    played = masks[M_PLAYED]
    npl = view[V_NPLAYED]
    trick = view[V_TRICK]
    sitout = view[V_SITOUT]
    fixed = np.zeros(n, np.uint64)
    fixed[me] = hand
    unseen = masks[M_DECK] & ~played & ~hand
    sizes = np.zeros(n, np.int64)
    allowed = np.zeros(n, np.uint64)
    for s in range(n):
        size = left
        for i in range(npl):
            if view[V_TRICK_SEAT + i] == s:
                size -= 1
        if trick == 0 and s == sitout:
            size -= 1  # plays no card to trick 1 and holds one card fewer
        sizes[s] = size if s != me else left
        allowed[s] = (_ALL & ~masks[M_VOID + s]) if s != me else np.uint64(0)
    worlds = np.zeros((n_worlds, n), np.uint64)
    hands = np.zeros(n, np.uint64)
    cards = np.zeros(64, np.int64)
    buf = np.zeros(64, np.int64)
    count = 0
    for w in range(n_worlds):
        if sample_world(unseen, fixed, sizes, allowed, rng, hands, cards, buf, HARD_TRIES) < 0:
            break
        for s in range(n):
            worlds[count, s] = hands[s]
        count += 1
    if count == 0:
        return prefer, 0
    trumps = _SUITS[3]
    R = np.zeros(dd.R_LEN, np.int64)
    R[dd.R_SEATS] = n
    R[dd.R_TRUMP] = 3
    restrict = 1
    if npl == 0 and view[V_BROKEN] == 0 and hand & trumps and hand & ~trumps and legal & trumps:
        restrict = 0
    R[dd.R_LEAD_RESTRICT] = restrict
    R[dd.R_FORCED_LEAD] = -1
    R[dd.R_SITOUT_T1] = sitout if trick == 0 else -1
    R[dd.R_FEATURES] = dd.F_ALL
    suit_masks = _SUITS.copy()
    tc = np.zeros(8, np.int64)
    for i in range(npl):
        tc[i] = view[V_TRICK_CARD + i]
    utility = np.zeros(left + 1, np.int64)
    _utility(view, left, param_value(view, V_PARAMS + P_BAG_COST), utility)
    card, solved = decide(worlds, count, R, np.int64(1 << me), suit_masks, tc, np.int64(npl),
                          np.int64(view[V_LEADER]), np.int64(view[V_BROKEN]), np.int64(1 if trick == 0 else 0),
                          legal, utility, prefer, np.int64(param_value(view, V_PARAMS + P_NODE_BUDGET)),
                          np.int64(param_value(view, V_PARAMS + P_MIN_WORLDS)),
                          np.int64(TABLE_BITS[min(left, 13)]), totals)
    if card < 0:
        return prefer, solved
    return card, solved


@policy(SIG)
def pimc_play(view, masks, rng):
    totals = np.zeros(64, np.int64)
    card, _ = pimc_card(view, masks, rng, totals)
    return card


@policy(SIG)
def pimc_bid(view, masks, rng):
    return expert_bid(_expert_view(view), masks, rng)


@policy(SIG)
def pimc_blind(view, masks, rng):
    return expert_blind(_expert_view(view), masks, rng)


@policy(SIG)
def pimc_redeal(view, masks, rng):
    return expert_redeal(_expert_view(view), masks, rng)


PIMC = Policy("pimc", searching=True, blind=pimc_blind, bid=pimc_bid, play=pimc_play, redeal=pimc_redeal, params=PIMC_PARAMS,
              help="perfect-information Monte Carlo (paranoid): late cards solved double dummy over sampled "
                   "deals; expert's bidding")
