"""Counter-based per-deal randomness.

Deal ``i`` of seed ``s`` draws every random number it needs (the shuffle, policy
choices) from a SplitMix64 stream started at ``stream_start(s, i, stream)``. The
stream depends on nothing else, so results do not depend on thread count, chunk
size or backend, and two house rules replay exactly the same deals.

A stream state is a one-element ``uint64`` array that the helpers advance in place;
kernels allocate it once per chunk.
"""
import numba as nb
import numpy as np

from simcards.core.cards import nth_card, popcount
from simcards.core.jit import lazily

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@lazily(nb.uint64(nb.uint64), cache=True, inline="always")
def mix64(z):
    """SplitMix64 finaliser: a bijective 64-bit hash."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@lazily(nb.uint64(nb.uint64, nb.uint64, nb.uint64), cache=True)
def stream_start(seed, index, stream):
    """Initial state of random stream ``stream`` of deal ``index`` under ``seed``."""
    h = mix64(seed ^ _GOLDEN)
    h = mix64(h ^ (index * _GOLDEN + np.uint64(0x632BE59BD9B4E019)))
    return mix64(h ^ (stream * np.uint64(0xD6E8FEB86659FD93) + _GOLDEN))


@lazily(nb.uint64(nb.uint64[:]), cache=True, inline="always")
def next_u64(state):
    """Next 64 random bits; advances ``state[0]``."""
    state[0] += _GOLDEN
    return mix64(state[0])


@lazily(nb.int64(nb.uint64[:], nb.int64), cache=True, inline="always")
def below(state, n):
    """Uniform integer in ``[0, n)`` (n >= 1), without modulo bias (Lemire)."""
    un = np.uint64(n)
    while True:
        x = next_u64(state)
        # 128-bit multiply-high emulated with 32-bit halves
        x_hi = x >> np.uint64(32)
        x_lo = x & np.uint64(0xFFFFFFFF)
        n_hi = un >> np.uint64(32)
        n_lo = un & np.uint64(0xFFFFFFFF)
        lo_lo = x_lo * n_lo
        hi_lo = x_hi * n_lo
        lo_hi = x_lo * n_hi
        hi_hi = x_hi * n_hi
        cross = (lo_lo >> np.uint64(32)) + (hi_lo & np.uint64(0xFFFFFFFF)) + lo_hi
        high = (hi_lo >> np.uint64(32)) + (cross >> np.uint64(32)) + hi_hi
        low = x * un
        if low >= un or low >= (np.uint64(0) - un) % un:
            return np.int64(high)


@lazily(nb.float64(nb.uint64[:]), cache=True, inline="always")
def uniform(state):
    """Uniform float in [0, 1)."""
    return (next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@nb.njit(cache=True)
def shuffle(a, state):
    """Fisher-Yates shuffle of ``a`` in place."""
    for i in range(a.shape[0] - 1, 0, -1):
        j = below(state, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t


@lazily(nb.int64(nb.uint64, nb.uint64[:]), cache=True)
def random_card_of(mask, state):
    """A uniformly chosen card from a non-empty bitmask."""
    return nth_card(mask, below(state, popcount(mask)))
