"""``fitted`` for Cutthroat: expert's card play with bids from a model fitted to ``pimc``'s simulated bids.

``pimc`` bids by simulation (pimc.py): expert's bid, the legal ordinary bids within 2 of expert's
count, 1F/2F/SM near it and Nil are each played out by ``expert`` in 16 sampled deals of the
unseen cards (then the best total was bid; since, expert's bid unless another's gain is more
than a standard error above 0). ``fitted`` predicts the candidates' values: expert's count
``c = min(max(int(expected_tricks + 0.5 - 0.7), 1), max_bid)`` (expert's ordinary bid at its
default margin) is the centre, and for each *slot* (Nil, 1F, 2F, SM, c-2, c-1, c+1, c+2) a
small network (``core/slotnet.py``) on the features of :func:`bid_features` predicts the slot's
value more than ``c``'s (pimc's value of a hand, in points: the seat's points times n - 1 minus
the others'). The legal slot with the largest prediction is bid, ``c`` when none is
positive. The weights are fitted offline by ``scripts/fit_bid_model.py --game cutthroat`` (the
same machinery as Spades') and written to ``bid_model_data.py``.

Every other decision (blind bids, card play, redeal) is ``expert``'s, at its parameters.
"""
from __future__ import annotations

import numba as nb
import numpy as np

from simcards.core.cards import bit, popcount
from simcards.core.jit import helper, inline, policy
from simcards.core.policy import Policy
from simcards.core.scratch import stack_float64, stack_int64
from simcards.core.slotnet import best_slot, check_shapes, side_shape, slot_values
from simcards.games.cutthroat import bid_model_data as data
from simcards.games.cutthroat.layout import (
    B_1F, B_2F, B_B6, B_BN, B_SM, M_HAND, M_LEGAL, NIL, V_BAG_LIMIT, V_BAG_MODE, V_BAGS, V_BID, V_DEALER,
    V_MAX_BID, V_N, V_SCORE, V_SEAT, V_SM_MIN, V_T, V_TARGET, BAG_MODE,
)
from simcards.games.cutthroat.policies import (
    BUILTINS, EXPERT_PARAMS, SIDE_ACES, SIG, SUITS, TRUMPS, calibrated, estimate_tricks, expected_tricks, nearest_legal,
    nil_safe,
)

MARGIN = 0.7  # expert's default margin: the centre is its ordinary bid
SPECIAL = (NIL, B_1F, B_2F, B_SM)  # slots 0..3; slots 4..7 are c-2, c-1, c+1, c+2
SLOT_OFFSETS = (-2, -1, 1, 2)
N_SLOTS = 8
FEATURE_NAMES = (
    "bias", "estimate", "frac", "frac^2", "centre", "raw_count", "nil_safe", "nil_safe_but_sure", "sure_winners",
    "trumps", "jokers", "spade_A", "spade_K", "spade_Q", "spade_J", "voids", "singletons", "doubletons",
    "longest_side", "side_aces", "side_kings_guarded", "side_kings_bare", "side_queens_guarded",
    "players", "tricks_per_player", "position", "is_dealer", "bids_before", "nils_before", "specials_before",
    "tricks_left_over", "score_lead", "to_target", "own_bags", "near_bag_out", "centre=1", "sm_tricks_over_est",
)
N_FEATURES = len(FEATURE_NAMES)
W1 = np.asarray(data.W1, np.float64)
B1 = np.asarray(data.B1, np.float64)
W2 = np.asarray(data.W2, np.float64)
B2 = np.asarray(data.B2, np.float64)
check_shapes(W1, B1, W2, B2, N_FEATURES, N_SLOTS)


@helper(nb.int64(nb.int64[:], nb.uint64[:]))
def centre_bid(view, masks):
    """expert's ordinary count at its default margin: min(max(int(estimate + 0.5 - 0.7), 1), max bid)."""
    est = expected_tricks(masks[M_HAND], view[V_N], view[V_T])
    return min(max(np.int64(est + 0.5 - MARGIN), 1), view[V_MAX_BID])


@helper(nb.void(nb.int64[:], nb.uint64[:], nb.float64[:]))
def bid_features(view, masks, x):
    """The model's features of the bid decision in ``view``/``masks`` into ``x`` (``FEATURE_NAMES``):
    the hand (expert's estimate and its rounding, the raw count, Nil safety, sure winners, spade
    length, jokers and top spades, shortness, side honours), the form (players, tricks each), the
    place in the bidding and the bids made so far, the scores and the seat's bag counter."""
    # called, not inlined: with this body inlined the bid took 8 s to compile, called 3.4 s
    # (numba's inlining types the body anew in its caller); the call costs a few ns a bid
    hand = masks[M_HAND]
    n = view[V_N]
    t = view[V_T]
    seat = view[V_SEAT]
    raw = estimate_tricks(hand, n, t)
    est = calibrated(raw, n, t)  # expected_tricks, the count computed once
    c = min(max(np.int64(est + 0.5 - MARGIN), 1), view[V_MAX_BID])
    frac = est + 0.5 - MARGIN - c
    sure = hand & (SIDE_ACES | (TRUMPS & ~(bit(50) - np.uint64(1))))  # side aces, AS, jokers
    trumps = hand & TRUMPS
    x[0] = 1.0
    x[1] = est
    x[2] = frac
    x[3] = frac * frac
    x[4] = c
    x[5] = raw
    x[6] = 1.0 if nil_safe(hand) else 0.0
    x[7] = 1.0 if nil_safe(hand & ~sure) else 0.0
    x[8] = popcount(sure)
    x[9] = popcount(trumps)
    x[10] = popcount(trumps & ~(bit(52) - np.uint64(1)))  # jokers
    for k in range(4):  # A, K, Q, J of spades
        x[11 + k] = 1.0 if trumps & bit(50 - k) else 0.0
    side_shape(x, 15, hand, SUITS[0], SUITS[1], SUITS[2])
    x[23] = n
    x[24] = t / n
    dealer = view[V_DEALER]
    position = seat - dealer - 1
    if position < 0:
        position += n
    x[25] = position  # bids made before this one
    x[26] = 1.0 if seat == dealer else 0.0
    before = 0
    nils = 0
    specials = 0
    for s in range(n):
        b = view[V_BID + s]
        if s == seat or b < 0:
            continue
        if b == NIL or b == B_BN:
            nils += 1
        elif 1 <= b <= 17:
            before += b
        else:
            specials += 1
            if b == B_1F:
                before += 1
            elif b == B_2F:
                before += 2
            elif b == B_B6:
                before += 6
            elif b == B_SM:
                before += view[V_SM_MIN]
    x[27] = before
    x[28] = nils
    x[29] = specials
    x[30] = (t - before - c) / max(n - 1 - position, 1)  # tricks left per later bidder
    best = -(1 << 62)
    for s in range(n):
        if s != seat and view[V_SCORE + s] > best:
            best = view[V_SCORE + s]
    own = view[V_SCORE + seat]
    x[31] = (own - best) / 100.0
    x[32] = (view[V_TARGET] - own) / 100.0
    x[33] = view[V_BAGS + seat] / 10.0
    x[34] = 1.0 if (view[V_BAG_MODE] == BAG_MODE.ACCUMULATE and view[V_BAGS + seat] >= view[V_BAG_LIMIT] - 3) else 0.0
    x[35] = 1.0 if c == 1 else 0.0
    x[36] = view[V_SM_MIN] - est


@inline
def slot_code(k, c):
    """The bid code of slot ``k`` around the centre ``c`` (-1 when it is no ordinary bid)."""
    if k < 4:
        return SPECIAL[k]
    b = c + SLOT_OFFSETS[k - 4]
    return b if b >= 1 else -1


@inline
def _choice(view, masks, pred):
    legal = masks[M_LEGAL]
    x = stack_float64(N_FEATURES)
    bid_features(view, masks, x)
    out = stack_float64(N_SLOTS)
    slot_values(x, W1, B1, W2, B2, out)
    c = np.int64(x[4])
    codes = stack_int64(N_SLOTS)
    for k in range(N_SLOTS):
        b = slot_code(k, c)
        codes[k] = b if (b >= 0 and (k < 4 or b <= view[V_MAX_BID]) and (legal & bit(b))) else -1
    best = best_slot(out, codes, pred, (legal & bit(c)) != 0, c)
    if best < 0:  # no candidate legal (the dealer's forbidden total): the nearest legal bid
        return nearest_legal(legal, c)
    return best


@helper(nb.int64(nb.int64[:], nb.uint64[:], nb.float64[:]))
def fitted_choice(view, masks, pred):
    """The bid ``fitted`` makes; ``pred[k]``: slot k's predicted value (points) more than the
    centre's, -inf where the slot's bid is not legal."""
    return _choice(view, masks, pred)


@policy(SIG)
def fitted_bid(view, masks, rng):
    pred = stack_float64(N_SLOTS)
    return _choice(view, masks, pred)


FITTED = Policy("fitted", base=BUILTINS["expert"], bid=fitted_bid, params=EXPERT_PARAMS,
                help="expert's play; bids from a model fitted to pimc's simulated bids (bid_model.py; its bid "
                     "reads none of expert's parameters, its blind bids and play read them all)")


def predictions(view, masks):
    """Test entry: (bid, {slot bid code: predicted value (points) more than expert's ordinary count's})."""
    v = np.asarray(view, np.int64)
    m = np.asarray(masks, np.uint64)
    pred = np.empty(N_SLOTS, np.float64)
    b = int(fitted_choice(v, m, pred))
    c = int(centre_bid(v, m))
    out = {}
    for k in range(N_SLOTS):
        if np.isfinite(pred[k]):
            out[int(SPECIAL[k]) if k < 4 else c + SLOT_OFFSETS[k - 4]] = float(pred[k])
    return b, out
