"""Compiled kernel of ``simcards trump kierki`` (imported only when that command runs).

For each record: deal the unknown cards around what is known (the chooser's seen
cards, ``--require`` constraints), then play the same deal once per trump option with
the same policy stream (common random numbers), and record the chooser's tricks.
"""
import numba as nb
import numpy as np
from numba import types

from simcards.core.cards import SUIT_MASKS
from simcards.core.deal import deal_constrained
from simcards.core.rng import stream_start
from simcards.games.kierki import policies as P
from simcards.games.kierki import rules as R

ODDS_SIG = types.void(types.int64[:], types.int64[:, :], types.int64[:, :], types.uint64[:], R.FUNCS, R.FUNCS,
                      types.uint64[:], types.int64[:, :], types.int64[:, :], types.int64, types.int64,
                      types.int64, types.uint64, types.int64[:], types.uint64, types.int64, types.int64,
                      types.int64[:, :])


@nb.njit(ODDS_SIG, cache=True, nogil=True)
def simulate_trump_options(cfg, card_pen, trick_pen, pen_mask, play_funcs, trump_funcs, fixed, min_len, max_len,
                           chooser, dealer, leader, seen, options, seed, start, count, out):
    """``out[r, k]``: chooser's tricks with trump ``options[k]``; last column: the policy's own choice."""
    deck = np.arange(52, dtype=np.int64)
    buf = np.empty(52, np.int64)
    sizes = np.full(4, 13, np.int64)
    hands = np.zeros(4, np.uint64)
    h = np.zeros(4, np.uint64)
    info = np.zeros(P.PLAY_INFO_LEN, np.int64)
    masks = np.zeros(P.MASKS_LEN, np.uint64)
    tinfo = np.zeros(P.TRUMP_INFO_LEN, np.int64)
    totals = np.zeros(4, np.int64)
    res = np.zeros(R.RES_LEN, np.int64)
    rng = np.zeros(1, np.uint64)
    state = np.zeros(1, np.uint64)
    no_script = np.full(1, -1, np.int64)
    no_trace = np.zeros((1, R.TRACE_WIDTH), np.int64)
    n_opt = options.shape[0]
    for r in range(count):
        index = start + r
        state[0] = stream_start(np.uint64(seed), np.uint64(index), np.uint64(0))
        if deal_constrained(deck, fixed, sizes, 0, state, hands, buf, min_len, max_len, SUIT_MASKS, 10000) < 0:
            raise ValueError("kierki: no deal satisfies the constraints within 10000 tries")
        for k in range(n_opt):
            for s in range(4):
                h[s] = hands[s]
                res[R.R_SCORE + s] = 0
                res[R.R_TRICKS + s] = 0
            rng[0] = stream_start(np.uint64(seed), np.uint64(index), np.uint64(1))
            R.play_tricks(h, R.TRUMPS, dealer, leader, options[k], 1, cfg, card_pen, trick_pen, pen_mask,
                          play_funcs, rng, info, masks, totals, res, no_script, no_trace)
            out[r, k] = res[R.R_TRICKS + chooser]
        tinfo[P.T_SEAT] = chooser
        tinfo[P.T_DEALER] = dealer
        tinfo[P.T_N_SEEN] = cfg[R.C_CHOICE_CARDS]
        tinfo[P.T_ALLOWED] = 15 | (P.NO_TRUMP_BIT if cfg[R.C_ALLOW_NT] else 0)
        tinfo[P.T_DEAL_NO] = 1
        masks[0] = seen
        rng[0] = stream_start(np.uint64(seed), np.uint64(index), np.uint64(1))
        out[r, n_opt] = trump_funcs[chooser](tinfo, masks, rng)
