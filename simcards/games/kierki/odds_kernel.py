"""Compiled kernel of ``simcards trump kierki`` (imported only when that command runs).

For each record: deal the unknown cards around what is known (the chooser's seen
cards, ``--require`` constraints, the ``--accept`` function), then play the same deal
once per trump option with the same policy stream (common random numbers), and
record the chooser's tricks. The play itself is ``rules.play_tricks``, the normal
kernel's trick engine, so the normal kernels are untouched.
"""
import numpy as np
from numba import types

from simcards.core.jit import kernel
from simcards.core.cards import SUIT_MASKS
from simcards.core.deal import ACCEPT_SIG, deal_constrained
from simcards.core.rng import stream_start
from simcards.games.kierki import policies as P
from simcards.games.kierki import rules as R

MAX_TRIES = 100_000  # deals tried per record before giving up (length bounds, accept function)
ACCEPT = types.UniTuple(types.FunctionType(ACCEPT_SIG), 1)
OK, NO_DEAL, NOT_ACCEPTED = 0, 1, 2  # return codes


@kernel
def simulate_trump_options(tab, seats, fixed, min_len, max_len, accept, chooser, dealer, leader, seen, options,
                           seed, start, count, out):
    """Fill ``out`` (one row per record) and return ``OK``, ``NO_DEAL`` or ``NOT_ACCEPTED``.

    ``tab``, ``seats``: the kernel's :class:`rules.Table` and :class:`rules.Seats`.
    ``out[r, 4k + s]``: seat ``s``'s tricks with trumps ``options[k]`` (-1 = no trumps);
    ``out[r, 4n]`` (n options): what the chooser's own trump policy announces from
    ``seen``; ``out[r, 4n + 1 + s]``: seat ``s``'s 13 cards (bit mask) of the deal played.
    Record ``i`` uses only the streams of ``(seed, i)``: 0 for the deal, 1 for play.
    """
    p = tab.params[0]
    deck = np.arange(52, dtype=np.int64)
    buf = np.empty(52, np.int64)
    sizes = np.full(4, 13, np.int64)
    hands = np.zeros(4, np.uint64)
    w = R.new_work()
    h, res, rng, masks, tinfo = w.hands, w.res, w.rng, w.masks, w.tinfo
    state = np.zeros(1, np.uint64)
    no_script = np.full(1, -1, np.int64)
    no_trace = np.zeros((0, R.TRACE_WIDTH), np.int64)  # not tracing
    n_opt = options.shape[0]
    for r in range(count):
        index = start + r
        state[0] = stream_start(np.uint64(seed), np.uint64(index), np.uint64(0))
        tries = 0
        while True:
            used = deal_constrained(deck, fixed, sizes, 0, state, hands, buf, min_len, max_len, SUIT_MASKS,
                                    MAX_TRIES - tries)
            if used < 0:
                return NOT_ACCEPTED if tries > 0 else NO_DEAL
            tries += used
            if accept[0](hands):
                break
            if tries >= MAX_TRIES:
                return NOT_ACCEPTED
        for k in range(n_opt):
            for s in range(4):
                h[s] = hands[s]
                res[R.R_SCORE + s] = 0
                res[R.R_TRICKS + s] = 0
            rng[0] = stream_start(np.uint64(seed), np.uint64(index), np.uint64(1))
            R.play_tricks(tab, seats, w, R.TRUMPS, dealer, leader, options[k], 1, no_script, no_trace)
            for s in range(4):
                out[r, 4 * k + s] = res[R.R_TRICKS + s]
        tinfo[P.T_SEAT] = chooser
        tinfo[P.T_DEALER] = dealer
        tinfo[P.T_N_SEEN] = p.trump_choice_cards
        tinfo[P.T_ALLOWED] = 15 | (P.NO_TRUMP_BIT if p.allow_no_trump else 0)
        tinfo[P.T_DEAL_NO] = 1
        for s in range(4):
            tinfo[P.T_TOTALS + s] = 0
        masks[P.TM_SEEN] = seen
        masks[P.TM_ORACLE] = hands[chooser] if (seats.oracle >> chooser) & 1 else np.uint64(0)
        R.load_params(tinfo, P.T_PARAMS, seats, chooser)
        rng[0] = stream_start(np.uint64(seed), np.uint64(index), np.uint64(1))
        out[r, 4 * n_opt] = seats.trump[chooser](tinfo, masks, rng)
        for s in range(4):
            out[r, 4 * n_opt + 1 + s] = np.int64(hands[s])
    return OK
