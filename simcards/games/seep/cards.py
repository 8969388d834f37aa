"""Seep card values on top of the core card numbers (suit*13 + rank, rank 0 = deuce, 12 = ace).

``VAL[c]`` is the capture value (A=1, 2..9, T=10, J=11, Q=12, K=13), ``PTS[c]`` the
point value (spades their capture value, the other aces 1, TD 6: 100 in all) and
``VALMASK[v]`` the mask of the four cards of capture value ``v``. Masks in this game
are ``int64`` (card numbers stay below 52, so the sign bit is never used).
"""
import numba as nb
import numpy as np

from simcards.core.cards import DIAMONDS, SPADES, card, popcount
from simcards.core.jit import helper, inline

VAL = np.array([1 if r == 12 else r + 2 for s in range(4) for r in range(13)], dtype=np.int64)
PTS = np.zeros(52, dtype=np.int64)
for _c in range(52):
    if _c // 13 == SPADES:
        PTS[_c] = VAL[_c]
    elif _c % 13 == 12:
        PTS[_c] = 1
PTS[card(8, DIAMONDS)] = 6
VALMASK = np.zeros(14, dtype=np.int64)
for _c in range(52):
    VALMASK[VAL[_c]] |= 1 << _c
ALL_CARDS = (1 << 52) - 1
assert PTS.sum() == 100


@inline(nb.int64(nb.int64))
def ncards(m):
    """Number of cards in an int64 mask."""
    return popcount(np.uint64(m))


@inline(nb.int64(nb.int64))
def low_card(m):
    """The lowest card of a non-empty int64 mask."""
    return popcount(np.uint64((m & -m) - 1))


SPADE_SHIFT = 13 * SPADES
OTHER_ACES = sum(1 << card(12, s) for s in range(4) if s != SPADES)
TEN_OF_DIAMONDS = card(8, DIAMONDS)


@inline(nb.int64(nb.int64))
def mask_points(m):
    """Card points in a mask: spades by value, the other aces 1, TD 6."""
    t = ncards(m & OTHER_ACES) + 6 * ((m >> TEN_OF_DIAMONDS) & 1)
    sp = (m >> SPADE_SHIFT) & 0x1FFF
    while sp:
        t += VAL[low_card(sp)]  # VAL of rank r in the first suit = value of rank r
        sp &= sp - 1
    return t


@helper(nb.int64(nb.int64))
def mask_sum(m):
    """Sum of capture values in a mask."""
    t = 0
    while m:
        t += VAL[low_card(m)]
        m &= m - 1
    return t


@helper(nb.int64(nb.int64))
def value_set(m):
    """Bit ``v`` set for every capture value ``v`` present in the mask."""
    s = 0
    for v in range(1, 14):
        if m & VALMASK[v]:
            s |= 1 << v
    return s
