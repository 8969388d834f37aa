"""core/slotnet.py: the fitted bid models' network, evaluated in compiled code without allocating."""
import numba as nb
import numpy as np
import pytest

from simcards.core.scratch import stack_float64
from simcards.core.slotnet import MAX_HIDDEN, best_slot, check_shapes, side_shape, slot_values

RNG = np.random.default_rng(12)
W1 = RNG.normal(0.0, 1.0, (7, 9))
B1 = RNG.normal(0.0, 0.5, 9)
W2 = RNG.normal(0.0, 1.0, (9, 3))
B2 = RNG.normal(0.0, 0.5, 3)


@nb.njit
def _values(x):
    out = stack_float64(3)
    slot_values(x, W1, B1, W2, B2, out)
    return out[0], out[1], out[2]


def _plain(x):
    """The same sums in the same order, in Python floats (feature by feature, then unit by unit)."""
    h = [float(b) for b in B1]
    for j in range(len(x)):
        for u in range(len(h)):
            h[u] += float(x[j]) * float(W1[j, u])
    out = [float(b) for b in B2]
    for u in range(len(h)):
        for k in range(len(out)):
            out[k] += max(h[u], 0.0) * float(W2[u, k])
    return tuple(out)


def test_matches_the_numpy_formula_and_the_plain_sums_bit_for_bit():
    for _ in range(200):
        x = RNG.normal(0.0, 1.0, 7)
        x[RNG.random(7) < 0.4] = 0.0  # zero features are skipped: the sums stay the same
        x[RNG.random(7) < 0.2] = 1.0
        got = _values(x)
        assert got == _plain(x)
        assert np.allclose(got, np.maximum(x @ W1 + B1, 0.0) @ W2 + B2, rtol=1e-12, atol=1e-12)


def test_all_zero_features_give_the_biases_path():
    want = np.maximum(B1, 0.0) @ W2 + B2
    assert np.allclose(_values(np.zeros(7)), want, rtol=1e-12, atol=1e-12)


def test_check_shapes_names_the_script():
    check_shapes(W1, B1, W2, B2, 7, 3)
    with pytest.raises(ImportError, match="fit_bid_model.py"):
        check_shapes(W1, B1, W2, B2, 8, 3)
    with pytest.raises(ImportError, match="hidden units"):
        big = np.zeros(MAX_HIDDEN + 1)
        check_shapes(np.zeros((7, MAX_HIDDEN + 1)), big, np.zeros((MAX_HIDDEN + 1, 3)), B2, 7, 3)


@nb.njit
def _shape(hand):
    x = stack_float64(10)
    x[0] = -1.0
    x[9] = -1.0
    side_shape(x, 1, hand, np.uint64(0x1FFF), np.uint64(0x1FFF << 13), np.uint64(0x1FFF << 26))
    return x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[9]  # a stack array must not be returned


def test_side_shape_counts_the_three_side_suits():
    from simcards.core.cards import parse_cards

    hand = sum(1 << c for c in parse_cards("AC KC 2C  KD  QH JH 9H 2H  AS KS"))
    x = _shape(np.uint64(hand))
    assert x[0] == -1.0 and x[9] == -1.0  # nothing written outside its eight places
    # voids, singletons, doubletons, longest, aces, guarded kings, bare kings, guarded queens
    assert list(x[1:9]) == [0, 1, 0, 4, 1, 1, 1, 1]


@nb.njit
def _best(out, codes, centre_legal, centre):
    pred = stack_float64(3)
    b = best_slot(out, codes, pred, centre_legal, centre)
    return b, pred[0], pred[1], pred[2]


def test_best_slot_takes_the_largest_legal_value_or_the_centre():
    out = np.array([5.0, -1.0, 9.0])
    assert _best(out, np.array([0, 3, 6]), True, 4)[0] == 6
    b, p0, p1, p2 = _best(out, np.array([0, 3, -1]), True, 4)
    assert b == 0 and p2 == -np.inf and (p0, p1) == (5.0, -1.0)
    assert _best(np.array([-5.0, -1.0, -9.0]), np.array([0, 3, 6]), True, 4)[0] == 4  # none above the centre's 0
    assert _best(np.array([-5.0, -1.0, -9.0]), np.array([0, 3, 6]), False, 4)[0] == 3  # the centre illegal
    assert _best(out, np.array([-1, -1, -1]), False, 4)[0] == -1
