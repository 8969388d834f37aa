"""A small fitted network evaluated in compiled code: the bid models of the ``fitted`` policies.

The pieces the games' bid models (Spades, Cutthroat: ``games/<game>/bid_model.py``) share:
the network (:func:`slot_values`), the choice among the slots (:func:`best_slot`) and
the side-suit shape of a hand (:func:`side_shape`).

``slot_values(x, W1, B1, W2, B2, out)`` sets ``out = relu(x @ W1 + B1) @ W2 + B2`` for one
row of features ``x``: one hidden layer of ReLU units, one output per candidate (a bid
*slot*). The weights are module-level numpy arrays of the game's ``bid_model_data``, which
numba compiles in as constants; the hidden layer lives on the caller's stack
(``scratch.stack_float64``), so an evaluation allocates nothing. The sums run feature by
feature, then hidden unit by unit, always in that order: the same inputs give the same
floats bit for bit (a policy's records must not depend on how the sum is vectorized). Zero
features are skipped (adding ``0 * w`` leaves a sum as it is): a hand's bid has about a third
of its 40 inputs at zero.

The fitting side (numpy: training, held-out report, the weights written as a module) is
``scripts/fit_bid_model.py``, shared by the games.
"""
from __future__ import annotations

import numpy as np

from simcards.core.cards import bit, popcount
from simcards.core.jit import inline
from simcards.core.scratch import stack_float64, stack_int64

MAX_HIDDEN = 128  # hidden units a model may have (the stack buffer's size)
MAX_FEATURES = 128  # inputs a model may have


@inline
def slot_values(x, W1, B1, W2, B2, out):
    """``out[k] = B2[k] + sum_u relu(B1[u] + sum_j x[j] * W1[j, u]) * W2[u, k]`` (``W1``:
    features x hidden, ``W2``: hidden x slots; at most ``MAX_HIDDEN`` hidden units)."""
    h = stack_float64(MAX_HIDDEN)
    rows = stack_int64(MAX_FEATURES)
    n_rows = 0
    for j in range(x.shape[0]):  # the non-zero features, listed without a branch (a zero adds nothing)
        rows[n_rows] = j
        n_rows += x[j] != 0.0
    n_h = B1.shape[0]
    for u in range(n_h):
        h[u] = B1[u]
    for t in range(n_rows):  # row by row: contiguous and vectorised
        j = rows[t]
        xj = x[j]
        for u in range(n_h):
            h[u] += xj * W1[j, u]
    n_out = out.shape[0]
    for k in range(n_out):
        out[k] = B2[k]
    for u in range(n_h):
        hu = max(h[u], 0.0)  # ReLU without a branch (a mispredicted one costs more than the sums)
        for k in range(n_out):
            out[k] += hu * W2[u, k]


@inline
def side_shape(x, at, hand, clubs, diamonds, hearts):
    """The shape of ``hand``'s three side suits into ``x[at:at + 8]`` (each suit's cards in its 13
    natural bits, the ace highest; the masks are the suits' cards): voids, singletons,
    doubletons, the longest side suit's length, aces, kings with a guard, bare kings, queens
    with two guards."""
    voids = 0
    singles = 0
    doubles = 0
    longest = 0
    aces = 0
    kings_g = 0
    kings_b = 0
    queens_g = 0
    for s in range(3):
        m = hand & (clubs if s == 0 else (diamonds if s == 1 else hearts))
        n = popcount(m)
        voids += n == 0
        singles += n == 1
        doubles += n == 2
        longest = max(longest, n)
        if m & bit(13 * s + 12):
            aces += 1
        if m & bit(13 * s + 11):
            if n >= 2:
                kings_g += 1
            else:
                kings_b += 1
        if (m & bit(13 * s + 10)) and n >= 3:
            queens_g += 1
    x[at] = voids
    x[at + 1] = singles
    x[at + 2] = doubles
    x[at + 3] = longest
    x[at + 4] = aces
    x[at + 5] = kings_g
    x[at + 6] = kings_b
    x[at + 7] = queens_g


@inline
def best_slot(out, codes, pred, centre_legal, centre):
    """The bid of the slot of largest value ``out[k]`` among the legal ones (``codes[k]``: the
    slot's bid, -1 when it is not legal), the centre (value 0) when none is above it and it is
    legal; -1 when nothing is legal. ``pred[k]`` receives the slot's value, -inf when illegal."""
    best = centre if centre_legal else -1
    best_v = 0.0
    for k in range(out.shape[0]):
        b = codes[k]
        if b < 0:
            pred[k] = -np.inf
            continue
        v = out[k]
        pred[k] = v
        if best < 0 or v > best_v:
            best = b
            best_v = v
    return best


def check_shapes(W1, B1, W2, B2, n_features: int, n_slots: int) -> None:
    """Raise ImportError when the weights do not fit ``n_features`` inputs and ``n_slots`` outputs."""
    hidden = np.shape(B1)[0]
    if (np.shape(W1) != (n_features, hidden) or np.shape(W2) != (hidden, n_slots) or np.shape(B2) != (n_slots,)
            or hidden > MAX_HIDDEN or n_features > MAX_FEATURES):
        raise ImportError(f"the bid model's weights ({np.shape(W1)}, {np.shape(W2)}) do not fit {n_features} "
                          f"features and {n_slots} slots (at most {MAX_FEATURES} features, {MAX_HIDDEN} hidden units): regenerate them "
                          f"with scripts/fit_bid_model.py")
