"""``pimc`` for Kierki's trump deals: perfect-information Monte Carlo card play (core/pimc.py).

In a trump deal (odgrywka), once the seat holds at most ``dd_cards`` cards, each play
decision deals the unseen cards to the other three seats ``worlds`` times (exact hand sizes,
shown voids), solves every legal card in every world double dummy with the seat measured
alone against the other three (the paranoid bound; every trick is worth the same, so the
score is the tricks), and plays the card with the most tricks in total (ties: expert's card
if among the best, else the lowest card). Earlier, in the negative deals, and for the trump
choice and the lottery it is ``expert``, and it reads expert's parameters (its first five).

The trump obligation of the variant is not in the view: the solver assumes none unless this
seat, void in the suit led, was allowed only trumps (then ``must_trump``).
"""
from __future__ import annotations

import numpy as np

from simcards.core import dd
from simcards.core.cards import SUIT_MASKS, popcount
from simcards.core.jit import helper, policy
from simcards.core.pimc import MAX_WORLDS, sample_worlds, solve_worlds, solver_rules
from simcards.core.policy import Policy, PolicyParam, param_value
from simcards.games.kierki.policies import (
    EXPERT, I_LEADER, I_N_IN_TRICK, I_PARAMS, I_SEAT, I_TRICK_CARDS, I_TRUMP, I_DEAL_TYPE, M_HAND, M_LEGAL,
    M_PLAYED, M_VOIDS, SIG, TRUMPS_CODE, expert_play,
)

P_WORLDS, P_DD_CARDS, P_NODE_BUDGET = 5, 6, 7  # after expert's five
PIMC_PARAMS = EXPERT.params + (
    PolicyParam("worlds", 16, 1, MAX_WORLDS, "deals of the unseen cards sampled per play decision", integer=True),
    PolicyParam("dd_cards", 5, 1, 13, "trump deals: play double dummy once the seat holds at most this many "
                "cards (before: expert's card)", integer=True),
    PolicyParam("node_budget", 200_000, 0, 1_000_000_000, "solver nodes per decision: no further world once "
                "spent (after 4 worlds; 0 = no cap)", integer=True),
)
MIN_WORLDS = 4
HARD_TRIES = 200
_ALL = np.uint64((1 << 52) - 1)
_DECK = np.uint64((1 << 52) - 1)


@helper
def pimc_card(info, masks, rng, totals):
    """(card, worlds solved) of pimc at this play decision; ``totals[c]``: each card's tricks."""
    legal = masks[M_LEGAL]
    prefer = expert_play(info, masks, rng)
    for c in range(64):
        totals[c] = 0
    hand = masks[M_HAND]
    left = popcount(hand)
    if (info[I_DEAL_TYPE] != TRUMPS_CODE or left > int(param_value(info, I_PARAMS + P_DD_CARDS))
            or popcount(legal) < 2):
        return prefer, 0
    me = info[I_SEAT]
    leader = info[I_LEADER]
    npl = info[I_N_IN_TRICK]
    trump = info[I_TRUMP]
    played = masks[M_PLAYED]
    fixed = np.zeros(4, np.uint64)
    fixed[me] = hand
    unseen = _DECK & ~played & ~hand
    sizes = np.zeros(4, np.int64)
    allowed = np.zeros(4, np.uint64)
    for s in range(4):
        done = ((s - leader) & 3) < npl  # already played to this trick
        sizes[s] = left - 1 if (s != me and done) else left
        a = _ALL
        for suit in range(4):
            if (masks[M_VOIDS] >> np.uint64(4 * s + suit)) & np.uint64(1):
                a &= ~SUIT_MASKS[suit]
        allowed[s] = a if s != me else np.uint64(0)
    n_worlds = min(int(param_value(info, I_PARAMS + P_WORLDS)), MAX_WORLDS)
    worlds = np.zeros((n_worlds, 4), np.uint64)
    count = sample_worlds(unseen, fixed, sizes, allowed, rng, n_worlds, worlds, HARD_TRIES)
    if count == 0:
        return prefer, 0
    tc = np.zeros(8, np.int64)
    for i in range(npl):
        tc[i] = info[I_TRICK_CARDS + i]
    R = solver_rules(4, trump, 0, -1)
    if npl > 0 and trump >= 0:
        led = SUIT_MASKS[tc[0] // 13]
        trumps = SUIT_MASKS[trump]
        if not hand & led and hand & trumps and hand & ~trumps and not legal & ~trumps:
            R[dd.R_OBLIGATION] = dd.OBLIGE_TRUMP
    utility = np.arange(left + 1).astype(np.int64)
    return solve_worlds(worlds, count, R, np.int64(1 << me), SUIT_MASKS.copy(), tc, np.int64(npl),
                        np.int64(leader), np.int64(0), np.int64(0), legal, utility, prefer,
                        np.int64(param_value(info, I_PARAMS + P_NODE_BUDGET)), np.int64(MIN_WORLDS), left, totals)


@policy(SIG)
def pimc_play(info, masks, rng):
    totals = np.zeros(64, np.int64)
    card, _ = pimc_card(info, masks, rng, totals)
    return card


PIMC = Policy("pimc", searching=True, ladder="worlds=8", base=EXPERT, play=pimc_play, params=PIMC_PARAMS,
              help="trump deals: perfect-information Monte Carlo (paranoid) for the late cards; otherwise expert")
