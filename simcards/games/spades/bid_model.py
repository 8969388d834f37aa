"""``fitted``: bids from a model fitted to ``pimc``'s simulated bids, expert's play sharpened.

``pimc`` bids by simulation: each candidate bid (expert's number bid ``c = max(int(estimate +
0.8), 1)`` and the legal bids within 2 of it, and Nil) is played out by ``expert`` in sampled
deals of the unseen cards and the bid with the best total points is made (pimc.py). That costs
about a hundred hand play-outs per bid. ``fitted`` makes the same choice from a model: for each
candidate *slot* (Nil, c-2, c-1, c+1, c+2) a small network (one hidden layer of ReLU units) on
the features of :func:`bid_features` predicts the slot's simulated points minus those of ``c``
(x10 points a hand, pimc's scoring), and the legal slot with the largest prediction is bid
(``c`` predicts 0). The weights are data, fitted offline by ``scripts/fit_bid_model.py`` from a
seed and written to ``bid_model_data.py`` (docs/bidding.md, "The fitted bid model"); compiled
code reads them as constant arrays (``core/slotnet.py``), so a bid costs a few thousand
floating-point operations and allocates nothing (features, hidden layer and slot values live on
the stack).

Card play is expert's with six spots sharpened, each measured by a ladder (attacking an
opposing Nil, setting the opponents, covering the partner's Nil: ``policies.card_play`` with
``sharp``). Every other decision (blind, exchange, misdeal) is ``expert``'s, at its parameters.
"""
from __future__ import annotations

import numba as nb
import numpy as np

from simcards.core.cards import bit, popcount
from simcards.core.jit import helper, inline, policy
from simcards.core.policy import Policy
from simcards.core.scratch import stack_float64, stack_int64
from simcards.core.slotnet import best_slot, check_shapes, side_shape, slot_values
from simcards.games.spades import bid_model_data as data
from simcards.games.spades.policies import (
    EXPERT, EXPERT_PARAMS, SIG, V_BAG_LIMIT, V_BAGS, V_BID, V_DEALER, V_HAND, V_LEGAL, V_SCORE, V_SEAT, V_SUITS,
    V_TARGET, expert_estimate, fitted_play, nil_risk, sure_tricks,
)

SLOT_OFFSETS = (-2, -1, 1, 2)  # number-bid slots beside the centre c (slot 0 is Nil)
N_SLOTS = 5  # Nil, c-2, c-1, c+1, c+2
FEATURE_NAMES = (
    "bias", "estimate", "frac", "frac^2", "centre", "nil_risk", "nil_risk^2", "nil_risk<1", "nil_risk<2",
    "sure_tricks", "spades", "spade_A", "spade_K", "spade_Q", "spade_J", "spades>=5",
    "voids", "singletons", "doubletons", "longest_side", "side_aces", "side_kings_guarded", "side_kings_bare",
    "side_queens_guarded", "position", "partner_known", "partner_bid", "partner_nil", "team_total",
    "opp_known", "opp_sum", "opp_nil", "table_total_over_13", "score_diff", "own_bags", "opp_bags",
    "near_bag_limit", "behind_close", "centre=1", "centre>=5",
)
N_FEATURES = len(FEATURE_NAMES)
W1 = np.asarray(data.W1, np.float64)  # (N_FEATURES, hidden): on the raw features
B1 = np.asarray(data.B1, np.float64)
W2 = np.asarray(data.W2, np.float64)  # (hidden, N_SLOTS): x10 points relative to the centre
B2 = np.asarray(data.B2, np.float64)
HIDDEN = B1.shape[0]
check_shapes(W1, B1, W2, B2, N_FEATURES, N_SLOTS)


@helper(nb.int64(nb.int64[:]))
def centre_bid(view):
    """expert's number bid for the seat's hand at its default rounding: max(int(estimate + 0.8), 1)."""
    return max(int(expert_estimate(np.uint64(view[V_HAND]), view) + 0.8), 1)


@helper(nb.void(nb.int64[:], nb.float64[:]))
def bid_features(view, x):
    """The model's features of the bid decision in ``view`` into ``x`` (``FEATURE_NAMES``):
    the hand (expert's estimate and its rounding, Nil risk, sure tricks, spade length and top
    spades, voids, singletons, doubletons, side honours), the position in the bidding, the
    bids made so far, the scores and bag counters."""
    # called, not inlined into the bid: numba's inlining types the body anew in its caller,
    # which made the bid slower to compile (the call costs a few ns a bid)
    hand = np.uint64(view[V_HAND])
    seat = view[V_SEAT]
    team = seat & 1
    est = expert_estimate(hand, view)
    c = max(int(est + 0.8), 1)
    frac = est + 0.8 - c
    risk = nil_risk(hand, view)
    spades_m = hand & np.uint64(view[V_SUITS + 3])
    n_s = popcount(spades_m)
    x[0] = 1.0
    x[1] = est
    x[2] = frac
    x[3] = frac * frac
    x[4] = c
    x[5] = risk
    x[6] = risk * risk
    x[7] = 1.0 if risk < 1.0 else 0.0
    x[8] = 1.0 if risk < 2.0 else 0.0
    x[9] = sure_tricks(hand, view)
    x[10] = n_s
    for k in range(4):  # A, K, Q, J of spades
        x[11 + k] = 1.0 if spades_m & bit(3 * 13 + 12 - k) else 0.0
    x[15] = 1.0 if n_s >= 5 else 0.0
    side_shape(x, 16, hand, np.uint64(view[V_SUITS]), np.uint64(view[V_SUITS + 1]), np.uint64(view[V_SUITS + 2]))
    x[24] = (seat - view[V_DEALER] - 1) & 3  # bids made before this one
    pb = view[V_BID + (seat ^ 2)]
    x[25] = 1.0 if pb >= 0 else 0.0
    x[26] = pb if pb > 0 else 0.0
    x[27] = 1.0 if pb == 0 else 0.0
    x[28] = c + (pb if pb > 0 else 0)
    opp_known = 0
    opp_sum = 0
    opp_nil = 0
    for o in (seat ^ 1, seat ^ 3):
        b = view[V_BID + o]
        if b >= 0:
            opp_known += 1
            opp_sum += b
            opp_nil += b == 0
    x[29] = opp_known
    x[30] = opp_sum
    x[31] = opp_nil
    x[32] = max(c + (pb if pb > 0 else 0) + opp_sum - 13, 0) if (pb >= 0 and opp_known == 2) else 0.0
    own = view[V_SCORE + team]
    opp = view[V_SCORE + 1 - team]
    x[33] = (own - opp) / 100.0
    x[34] = view[V_BAGS + team] / 10.0
    x[35] = view[V_BAGS + 1 - team] / 10.0
    x[36] = 1.0 if view[V_BAGS + team] >= view[V_BAG_LIMIT] - 3 else 0.0
    x[37] = 1.0 if (opp >= view[V_TARGET] - 120 and own < opp) else 0.0
    x[38] = 1.0 if c == 1 else 0.0
    x[39] = 1.0 if c >= 5 else 0.0


@inline
def _choice(view, pred):
    """The bid ``fitted`` makes; ``pred[k]``: slot k's predicted points (x10) relative to the
    centre, -inf where the slot's bid is not legal."""
    legal = np.uint64(view[V_LEGAL])
    x = stack_float64(N_FEATURES)
    bid_features(view, x)
    out = stack_float64(N_SLOTS)
    slot_values(x, W1, B1, W2, B2, out)
    c = max(int(x[4]), 1)
    codes = stack_int64(N_SLOTS)
    for k in range(N_SLOTS):
        b = 0 if k == 0 else c + SLOT_OFFSETS[k - 1]
        legal_b = 0 <= b <= 13 and (legal >> np.uint64(b)) & np.uint64(1) and (k == 0 or b > 0)
        codes[k] = b if legal_b else -1
    best = best_slot(out, codes, pred, (legal >> np.uint64(c)) & np.uint64(1), c)
    if best < 0:  # no candidate legal (a forced minimum team bid): the nearest legal number bid
        for d in range(14):
            for b in (c + d, c - d):
                if 1 <= b <= 13 and (legal >> np.uint64(b)) & np.uint64(1):
                    return b
        return 0
    return best


@helper(nb.int64(nb.int64[:], nb.float64[:]))
def fitted_choice(view, pred):
    """The bid ``fitted`` makes; ``pred[k]``: slot k's predicted points (x10) relative to the
    centre, -inf where the slot's bid is not legal."""
    return _choice(view, pred)


@policy(SIG)
def fitted_bid(view, rng):
    pred = stack_float64(N_SLOTS)
    return _choice(view, pred)


FITTED = Policy("fitted", base=EXPERT, bid=fitted_bid, play=fitted_play, params=EXPERT_PARAMS,
                help="bids from a model fitted to pimc's simulated bids (bid_model.py), expert's play "
                     "sharpened against Nil and for sets (policies.card_play); of expert's parameters "
                     "only Blind Nil's bn_deficit and bn_opp_within are read")


def predictions(view):
    """Test entry: (bid, {slot bid: predicted points x10 relative to expert's number bid})."""
    v = np.asarray(view, np.int64)
    pred = np.empty(N_SLOTS, np.float64)
    b = int(fitted_choice(v, pred))
    c = int(centre_bid(v))
    out = {}
    for k in range(N_SLOTS):
        if np.isfinite(pred[k]):
            out[0 if k == 0 else c + SLOT_OFFSETS[k - 1]] = float(pred[k])
    return b, out
