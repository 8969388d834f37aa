#!/usr/bin/env python
"""Fit a ``fitted`` policy's bid model to pimc's simulated bids (simcards/games/<game>/bid_model.py).

    python scripts/fit_bid_model.py                               # Spades: 400,000 situations, seed 1 (6 min)
    python scripts/fit_bid_model.py --situations 2000 --out /tmp/m.py   # a quick look
    python scripts/fit_bid_model.py --linear                      # the committed model (and a ridge fit's figures)
    python scripts/fit_bid_model.py --labels /tmp/labels.npz     # keep (or reuse) the labelled situations
    python scripts/fit_bid_model.py --game cutthroat --linear    # Cutthroat's (its module doc: the command)

The fitting, the held-out report and the weights module are the same for every game; a game
supplies its labeller (below: Spades, then Cutthroat), its label columns (the candidate bids
of a situation, one of them the *centre*: expert's count) and its bid_model's features.

Spades.

Situation ``i`` of ``--seed`` is drawn from its own random stream (``stream_start(seed, i, 0)``):
a deal, a dealer and the deciding seat's place in the bidding, the scores and bag counters
(a quarter at 0-0, the rest after 1..12 hands), and the earlier seats' bids by ``expert`` (its
``round_up`` drawn from 0.5..1.0 for each, so the model does not see one bidder only). Each
candidate bid (Nil, and expert's number bid ``c`` with the legal bids within 2 of it: pimc's
candidates) is valued with pimc's own machinery (``pimc._sample_worlds``: ``--worlds`` deals of
the unseen cards shaped by the earlier bids; ``pimc.bid_value``: the later seats bid and every
seat plays as expert, the hand scored by pimc's rules): the label is the mean points (x10).

The fit: a small network (numpy only: one hidden layer of 64 ReLU units, Adam) predicts for
each slot (Nil, c-2, c-1, c+1, c+2) the slot's value minus c's from ``bid_model.bid_features``
(``--linear`` also reports a ridge regression), on the first 80 % of the situations; the last
20 % are held out and the report gives, there, how often the model's bid is pimc's and the
points per bid it leaves to pimc's choice (regret), beside expert's bid. The weights are
written as a Python module (``--out``), the data the policy compiles in. The same arguments
give the same file (single-threaded numba, numpy's solve).

Cutthroat (``--game cutthroat``): situation ``i`` is a deal of the default 3-player form (or,
in the same proportions as the seed draws them, the 4- and 5-player forms: ``--forms``), a
dealer and the deciding seat's place, each seat's score and bag counter (a quarter at 0, the
rest after 1..12 hands), the earlier seats' bids by ``expert`` (its ``margin`` drawn from
0.4..1.0 for each; no blind bids); the candidates are Nil, 1F, 2F, SM and expert's count ``c``
with the ordinary bids within 2 of it, each legal one valued with Cutthroat pimc's machinery
(``pimc._bid_worlds``, ``pimc.bid_value``: the seat's points minus the mean of the others',
times n - 1); the model's slots are Nil, 1F, 2F, SM, c-2, c-1, c+1, c+2.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):  # one summation order: reproducible
    os.environ.setdefault(_var, "1")

import numba as nb  # noqa: E402
import numpy as np  # noqa: E402

from simcards.core.cards import bit  # noqa: E402
from simcards.core.rng import below, shuffle, stream_start, uniform  # noqa: E402
from simcards.games.cutthroat import bid_model as ct_model, pimc as ct_pimc  # noqa: E402
from simcards.games.cutthroat import layout as CL  # noqa: E402
from simcards.games.cutthroat.policies import EXPERT_PARAMS as CT_EXPERT_PARAMS, P_MARGIN  # noqa: E402
from simcards.games.cutthroat.policies import expert_bid as ct_expert_bid  # noqa: E402
from simcards.games.cutthroat.rules import bid_count, bid_options, deal_hands  # noqa: E402
from simcards.games.cutthroat.rules import prepared as ct_prepared  # noqa: E402
from simcards.games.cutthroat.variant import CutthroatVariant  # noqa: E402
from simcards.games.spades import bid_model, pimc  # noqa: E402
from simcards.games.spades.kernel import prepared  # noqa: E402
from simcards.games.spades.policies import (  # noqa: E402
    BN_BIT, EXPERT_PARAMS, P_ROUND_UP, V_BID, V_HAND, V_LEGAL, V_PARAMS, V_SEAT, VIEW_LEN, expert_bid,
)
from simcards.games.spades.rules import _reset_view, legal_bids  # noqa: E402
from simcards.games.spades.variant import SpadesVariant  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "simcards", "games", "{game}", "bid_model_data.py")
SLOTS = 6  # Spades' label columns: Nil, c-2, c-1, c, c+1, c+2
CT_SLOTS = 9  # Cutthroat's label columns: Nil, 1F, 2F, SM, c-2, c-1, c, c+1, c+2
RIDGE = 1.0  # ridge penalty of the linear fit (--linear, for comparison) on standardized features
HIDDEN, EPOCHS, BATCH, RATE, DECAY = 64, 20, 256, 1e-3, 1e-5  # the network and its training
Y_SCALE = 100.0  # targets are trained in units of 10 points
_EXPERT = np.array([p.fixed(p.default) for p in EXPERT_PARAMS], np.int64)
_PIMC = np.array([p.fixed(p.default) for p in pimc.PIMC_PARAMS], np.int64)
_CT_EXPERT = np.array([p.fixed(p.default) for p in CT_EXPERT_PARAMS], np.int64)
_CT_PIMC = np.array([p.fixed(p.default) for p in ct_pimc.PIMC_PARAMS], np.int64)


@nb.njit
def _scores(rng, scores, bags):
    """Scores and bag counters at the start of a hand: 0-0 a quarter of the time, else after
    1..12 hands of 30..80 points each (a set now and then), the bags in the ones digit."""
    hands = 0 if below(rng, 4) == 0 else 1 + below(rng, 12)
    for t in range(2):
        if hands == 0:
            scores[t] = 0
            bags[t] = 0
            continue
        b = below(rng, 10)
        s = 10 * int(hands * (3.0 + 5.0 * uniform(rng)))
        if below(rng, 10) == 0:
            s -= 100 + 10 * below(rng, 10)
        s = min(max(s, -200), 480)
        scores[t] = s + b
        bags[t] = b
    return hands


@nb.njit
def label(params, deck, masks, seed, start, count, n_worlds, X, V, E):
    """Situations ``start .. start+count-1``: features ``X[i]``, candidate values ``V[i]``
    (mean points x10 per world; NaN where the slot is no candidate), expert's bid ``E[i]``."""
    view = np.zeros(VIEW_LEN, np.int64)
    hands = np.zeros(4, np.uint64)
    bids = np.full(4, -1, np.int64)
    scores = np.zeros(2, np.int64)
    bags = np.zeros(2, np.int64)
    buf = deck.copy()
    deck_mask = np.uint64(0)
    for c in deck:
        deck_mask |= bit(c)
    rng = np.zeros(1, np.uint64)
    worlds = np.zeros((n_worlds, 4), np.uint64)
    scratch = np.zeros(4, np.uint64)
    tricks = np.zeros(4, np.int64)
    for i in range(count):
        rng[0] = stream_start(np.uint64(seed), np.uint64(start + i), np.uint64(0))
        buf[:] = deck
        shuffle(buf, rng)
        for s in range(4):
            hands[s] = np.uint64(0)
            bids[s] = -1
        for j in range(buf.shape[0]):
            hands[j & 3] |= bit(buf[j])
        dealer = below(rng, 4)
        place = below(rng, 4)
        seat = (dealer + 1 + place) & 3
        played_hands = _scores(rng, scores, bags)
        _reset_view(view, params, deck_mask, masks, dealer, scores, bags, played_hands)  # as the kernel sets it
        for k in range(place):  # the earlier seats bid as expert, each with its own rounding
            s = (dealer + 1 + k) & 3
            view[V_SEAT] = s
            view[V_HAND] = np.int64(hands[s])
            view[V_LEGAL] = np.int64(legal_bids(params, bids, scores, s, dealer, 1) & ~bit(BN_BIT))
            for q in range(_EXPERT.shape[0]):
                view[V_PARAMS + q] = _EXPERT[q]
            view[V_PARAMS + P_ROUND_UP] = int(round((0.5 + 0.5 * uniform(rng)) * 1_000_000))
            bids[s] = expert_bid(view, rng)
            view[V_BID + s] = bids[s]
        view[V_SEAT] = seat
        view[V_HAND] = np.int64(hands[seat])
        legal = legal_bids(params, bids, scores, seat, dealer, 1) & ~bit(BN_BIT)
        view[V_LEGAL] = np.int64(legal)
        for q in range(_PIMC.shape[0]):
            view[V_PARAMS + q] = _PIMC[q]
        bid_model.bid_features(view, X[i])
        base = pimc._expert_view(view)
        E[i] = expert_bid(base, rng)
        c = bid_model.centre_bid(view)
        cand = np.full(SLOTS, -1, np.int64)
        if legal & np.uint64(1):
            cand[0] = 0
        for k in range(5):
            b = c - 2 + k
            if 1 <= b <= 13 and (legal >> np.uint64(b)) & np.uint64(1):
                cand[1 + k] = b
        got = pimc._sample_worlds(view, rng, n_worlds, worlds)
        pb = base.copy()
        rv = base.copy()
        for k in range(SLOTS):
            V[i, k] = 0.0
        for w in range(got):
            for k in range(SLOTS):
                if cand[k] >= 0:
                    V[i, k] += pimc.bid_value(base, cand[k], worlds[w], pb, rv, scratch, rng, tricks, 1.0)
        for k in range(SLOTS):
            V[i, k] = V[i, k] / got if (cand[k] >= 0 and got > 0) else np.nan


def generate(seed: int, n: int, worlds: int, chunk: int = 2000, quiet: bool = False):
    tab = prepared(SpadesVariant())
    X = np.zeros((n, bid_model.N_FEATURES))
    V = np.zeros((n, SLOTS))
    E = np.zeros(n, np.int64)
    t0 = time.perf_counter()
    for a in range(0, n, chunk):
        b = min(a + chunk, n)
        label(tab.params, tab.deck, tab.suit_masks, seed, a, b - a, worlds, X[a:b], V[a:b], E[a:b])
        if not quiet:
            el = time.perf_counter() - t0
            print(f"  {b:,} situations, {el:.0f} s", file=sys.stderr, flush=True)
    return X, V, E


def slot_bids(X):
    """Spades: the bid of each label column per situation (Nil, c-2 .. c+2)."""
    c = X[:, 4].astype(np.int64)
    return np.stack([np.zeros_like(c)] + [c + d for d in (-2, -1, 0, 1, 2)], axis=1)


# ---------------------------------------------------------------- Cutthroat's situations


@nb.njit
def ct_label(params, form, seed, start, count, n_worlds, X, V, E):
    """Cutthroat situations ``start .. start+count-1`` of one form (``form``: the kernel's
    [N, T, deck, dealer sits out]): features ``X[i]``, candidate values ``V[i]`` (mean pimc
    value x10 per world; NaN where the column is no legal candidate), expert's bid ``E[i]``."""
    p = params[0]
    n = form[0]
    t = form[1]
    deck = np.uint64(form[2])
    view = np.zeros(CL.VIEW_SIZE, np.int64)
    masks = np.zeros(CL.MASKS_SIZE, np.uint64)
    hands = np.zeros(n, np.uint64)
    cards = np.zeros(64, np.int64)
    scores = np.zeros(CL.MAX_SEATS, np.int64)
    b6used = np.zeros(CL.MAX_SEATS, np.int64)
    rng = np.zeros(1, np.uint64)
    worlds = np.zeros((n_worlds, n), np.uint64)
    tricks = np.zeros(n, np.int64)
    jacks = np.zeros(n, np.uint64)
    play_hands = np.zeros(n, np.uint64)
    cand = np.zeros(CT_SLOTS, np.int64)
    for i in range(count):
        rng[0] = stream_start(np.uint64(seed), np.uint64(start + i), np.uint64(0))
        dealer = below(rng, n)
        deal_hands(deck, n, dealer, -1, np.uint64(0), cards, hands, rng)
        place = below(rng, n)
        seat = (dealer + 1 + place) % n
        played = 0 if below(rng, 4) == 0 else 1 + below(rng, 12)
        for s in range(CL.MAX_SEATS):  # the kernel's view at the start of a hand (rules.play_hand)
            inside = s < n
            g = below(rng, 10) if (played and inside) else 0
            sc = 0
            if played and inside:
                sc = 10 * int(played * (2.0 + 5.0 * uniform(rng)))
                if below(rng, 8) == 0:
                    sc -= 100 + 10 * below(rng, 10)
                sc = min(max(sc, -200), p.target_score - 20) + g
            scores[s] = sc
            view[CL.V_SCORE + s] = sc
            view[CL.V_BAGS + s] = g
            view[CL.V_B6USED + s] = 0
            view[CL.V_TOKENS + s] = 0
            view[CL.V_BID + s] = -1
            view[CL.V_TRICKS + s] = 0
            view[CL.V_JACKS + s] = 0
            view[CL.V_TRICK_CARD + s] = -1
            view[CL.V_TRICK_SEAT + s] = -1
            masks[CL.M_VOID + s] = np.uint64(0)
        view[CL.V_N] = n
        view[CL.V_DEALER] = dealer
        view[CL.V_T] = t
        view[CL.V_HAND_NO] = played
        view[CL.V_MAX_BID] = p.max_ordinary_bid
        view[CL.V_SM_MIN] = p.shoot_moon_min_tricks
        view[CL.V_B6_TRICKS] = p.blind_six_tricks
        view[CL.V_TARGET] = p.target_score
        view[CL.V_BAG_LIMIT] = p.bag_limit
        view[CL.V_BAG_MODE] = p.bag_mode
        view[CL.V_TRICK] = 0
        view[CL.V_NPLAYED] = 0
        view[CL.V_LEADER] = -1
        view[CL.V_BROKEN] = 0
        view[CL.V_SITOUT] = -1
        view[CL.V_WIN_SEAT] = -1
        view[CL.V_WIN_CARD] = -1
        view[CL.V_LED_SUIT] = -1
        view[CL.V_PHASE] = CL.PHASE_BID
        masks[CL.M_PLAYED] = np.uint64(0)
        masks[CL.M_DECK] = deck
        masks[CL.M_TRICK] = np.uint64(0)
        masks[CL.M_PRIZE] = np.uint64(p.prize_jacks)
        bid_sum = 0
        for k in range(place):  # the earlier seats look and bid as expert, each with its own margin
            s = (dealer + 1 + k) % n
            _, opened = bid_options(p, n, t, s, s == dealer, bid_sum, scores, b6used, True)
            view[CL.V_SEAT] = s
            masks[CL.M_HAND] = hands[s]
            masks[CL.M_LEGAL] = opened
            for q in range(_CT_EXPERT.shape[0]):
                view[CL.V_PARAMS + q] = _CT_EXPERT[q]
            view[CL.V_PARAMS + P_MARGIN] = int(round((0.4 + 0.6 * uniform(rng)) * 1_000_000))
            code = ct_expert_bid(view, masks, rng)
            view[CL.V_BID + s] = code
            bid_sum += bid_count(p, code)
        _, legal = bid_options(p, n, t, seat, seat == dealer, bid_sum, scores, b6used, True)
        view[CL.V_SEAT] = seat
        masks[CL.M_HAND] = hands[seat]
        masks[CL.M_LEGAL] = legal
        for q in range(_CT_PIMC.shape[0]):
            view[CL.V_PARAMS + q] = _CT_PIMC[q]
        ct_model.bid_features(view, masks, X[i])
        base = ct_pimc._expert_view(view)
        E[i] = ct_expert_bid(base, masks, rng)
        c = ct_model.centre_bid(view, masks)
        for k in range(CT_SLOTS):
            b = (CL.NIL, CL.B_1F, CL.B_2F, CL.B_SM)[k] if k < 4 else c - 6 + k
            ok = b >= 0 and (k < 4 or 1 <= b <= view[CL.V_MAX_BID]) and (legal & bit(b))
            cand[k] = b if ok else -1
        got = ct_pimc._bid_worlds(base, masks, legal, rng, n_worlds, worlds)
        pb = base.copy()
        rv = base.copy()
        pm = masks.copy()
        rm = masks.copy()
        for k in range(CT_SLOTS):
            V[i, k] = 0.0
        for w in range(got):
            for k in range(CT_SLOTS):
                if cand[k] >= 0:
                    V[i, k] += ct_pimc.bid_value(base, masks, cand[k], worlds[w], legal, pb, pm, rv, rm, play_hands,
                                                 rng, tricks, jacks)
        for k in range(CT_SLOTS):
            V[i, k] = V[i, k] / got if (cand[k] >= 0 and got > 0) else np.nan


CT_FORMS = ((3, 0, 6), (4, 0, 2), (5, 0, 1), (5, 2, 1))  # (players, jokers, share): the default form most


def ct_generate(seed: int, n: int, worlds: int, chunk: int = 2000, quiet: bool = False):
    """Cutthroat's labelled situations: the forms of :data:`CT_FORMS` in turn, chunk by chunk
    in proportion to their shares (situation ``i`` is the same whatever ``n``)."""
    X = np.zeros((n, ct_model.N_FEATURES))
    V = np.zeros((n, CT_SLOTS))
    E = np.zeros(n, np.int64)
    tabs = [ct_prepared(CutthroatVariant(num_players=k, jokers=j)) for k, j, _ in CT_FORMS]
    cycle = [f for f, (_, _, share) in enumerate(CT_FORMS) for _ in range(share)]
    t0 = time.perf_counter()
    for a in range(0, n, chunk):
        b = min(a + chunk, n)
        tab = tabs[cycle[(a // chunk) % len(cycle)]]
        ct_label(tab.params, tab.form, seed, a, b - a, worlds, X[a:b], V[a:b], E[a:b])
        if not quiet:
            print(f"  {b:,} situations, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    return X, V, E


def ct_slot_bids(X):
    """Cutthroat: the bid code of each label column per situation (Nil, 1F, 2F, SM, c-2 .. c+2)."""
    c = X[:, 4].astype(np.int64)
    fixed = [np.full_like(c, code) for code in (CL.NIL, CL.B_1F, CL.B_2F, CL.B_SM)]
    return np.stack(fixed + [c + d for d in (-2, -1, 0, 1, 2)], axis=1)


class Game:
    """What a game gives the shared fitting: its bid model, labeller and label columns."""

    def __init__(self, name, title, model, generate, slot_bids, columns, centre, per_point):
        self.name, self.title, self.model, self.generate, self.slot_bids = name, title, model, generate, slot_bids
        self.per_point = per_point  # label units per point (Spades' pimc values are x10 points)
        self.columns = columns  # label columns
        self.centre = centre  # the column of expert's count: the model predicts the others minus it
        self.cols = tuple(k for k in range(columns) if k != centre)  # the model's slots, in order


GAMES = {
    "spades": Game("spades", "Spades", bid_model, generate, slot_bids, SLOTS, 3, 10),
    "cutthroat": Game("cutthroat", "Cutthroat", ct_model, ct_generate, ct_slot_bids, CT_SLOTS, 6, 1),
}


# ---------------------------------------------------------------- the fit, shared


def targets(V, game=GAMES["spades"]):
    """Per situation and model slot: the slot's value minus the centre's, and whether both are
    candidates."""
    Y = np.stack([V[:, col] - V[:, game.centre] for col in game.cols], axis=1)
    mask = np.isfinite(Y)
    return np.where(mask, Y, 0.0), mask


def fit(X, V, hidden=HIDDEN, epochs=EPOCHS, seed=0, game=GAMES["spades"]):
    """A one-hidden-layer network (ReLU, ``hidden`` units) of the slot values minus the
    centre's, trained by Adam on the squared error of the candidate slots (numpy only, batches
    of 256 in an order drawn from ``seed``). Returns (W1, B1, W2, B2) on the raw features
    (the standardization folded into the first layer)."""
    Y, mask = targets(V, game)
    n_out = Y.shape[1]
    Y = Y / Y_SCALE
    mu = X.mean(axis=0)
    sd = X.std(axis=0)
    mu[0], sd[0] = 0.0, 1.0  # the bias feature stays 1
    sd[sd == 0] = 1.0
    Z = (X - mu) / sd
    rng = np.random.default_rng(seed)
    f = X.shape[1]
    params = [rng.normal(0.0, 1.0 / np.sqrt(f), (f, hidden)), np.zeros(hidden),
              rng.normal(0.0, 1.0 / np.sqrt(hidden), (hidden, n_out)), np.zeros(n_out)]
    m1 = [np.zeros_like(p) for p in params]
    m2 = [np.zeros_like(p) for p in params]
    step = 0
    for _ in range(epochs):
        order = rng.permutation(len(X))
        for a in range(0, len(X), BATCH):
            idx = order[a:a + BATCH]
            W1, B1, W2, B2 = params
            h = np.maximum(Z[idx] @ W1 + B1, 0.0)
            g = (h @ W2 + B2 - Y[idx]) * mask[idx] / len(idx)
            gh = (g @ W2.T) * (h > 0)
            grads = (Z[idx].T @ gh + DECAY * W1, gh.sum(axis=0), h.T @ g + DECAY * W2, g.sum(axis=0))
            step += 1
            for p, gp, a1, a2 in zip(params, grads, m1, m2):
                a1 *= 0.9
                a1 += 0.1 * gp
                a2 *= 0.999
                a2 += 0.001 * gp * gp
                p -= RATE * (a1 / (1 - 0.9 ** step)) / (np.sqrt(a2 / (1 - 0.999 ** step)) + 1e-8)
    W1, B1, W2, B2 = params
    return (W1 / sd[:, None], B1 - (mu / sd) @ W1, W2 * Y_SCALE, B2 * Y_SCALE)


def predict(X, model):
    """The slot predictions (x10 points relative to the centre) of ``model`` for rows ``X``:
    what the bid models' ``fitted_choice`` computes in the kernel (core/slotnet.py)."""
    W1, B1, W2, B2 = model
    return np.maximum(X @ W1 + B1, 0.0) @ W2 + B2


def fit_linear(X, V, ridge=RIDGE, game=GAMES["spades"]):
    """Raw-feature weights (slots x features) of the ridge fits of slot value minus the centre's."""
    W = np.zeros((len(game.cols), X.shape[1]))
    for k, col in enumerate(game.cols):
        y = V[:, col] - V[:, game.centre]
        ok = np.isfinite(y)
        Xk, yk = X[ok], y[ok]
        if len(yk) < 10:
            continue
        mu = Xk[:, 1:].mean(axis=0)
        sd = Xk[:, 1:].std(axis=0)
        sd[sd == 0] = 1.0
        Z = np.column_stack([np.ones(len(yk)), (Xk[:, 1:] - mu) / sd])
        A = Z.T @ Z + ridge * len(yk) * 1e-3 * np.diag([0.0] + [1.0] * (Z.shape[1] - 1))
        w = np.linalg.solve(A, Z.T @ yk)
        raw = np.zeros(X.shape[1])
        raw[1:] = w[1:] / sd
        raw[0] = w[0] - np.sum(w[1:] * mu / sd)
        W[k] = raw
    return W


def choices(X, V, P, E, game=GAMES["spades"]):
    """Per situation: pimc's bid (best label, ties to expert's), the model's (predictions ``P``)
    and expert's, with the label value of each (x10 points)."""
    B = game.slot_bids(X)
    n = len(X)
    idx = np.arange(n)
    vals = np.where(np.isfinite(V), V, -np.inf)
    # pimc: the best candidate; ties go to expert's bid
    best = vals.max(axis=1)
    pimc_col = np.argmax(vals, axis=1)
    e_col = np.full(n, -1)
    for k in range(game.columns):
        e_col = np.where((B[:, k] == E) & np.isfinite(V[:, k]) & (e_col < 0), k, e_col)
    tie = (e_col >= 0) & (vals[idx, np.maximum(e_col, 0)] == best)
    pimc_col = np.where(tie, e_col, pimc_col)
    pred = np.full((n, game.columns), -np.inf)
    pred[:, game.centre] = 0.0
    for k, col in enumerate(game.cols):
        pred[:, col] = P[:, k]
    pred = np.where(np.isfinite(V), pred, -np.inf)
    model_col = np.argmax(pred, axis=1)  # ties: the first column (the centre scores 0)
    model_col = np.where(pred[idx, game.centre] >= pred[idx, model_col], game.centre, model_col)
    return pimc_col, model_col, e_col, vals, best


def report(X, V, P, E, name, game=GAMES["spades"]):
    pimc_col, model_col, e_col, vals, best = choices(X, V, P, E, game)
    idx = np.arange(len(X))
    ok = e_col >= 0
    agree = np.mean(model_col == pimc_col)
    regret = np.mean(best - vals[idx, model_col]) / game.per_point
    e_agree = np.mean((e_col == pimc_col)[ok])
    e_regret = np.mean((best - vals[idx, np.maximum(e_col, 0)])[ok]) / game.per_point
    centre_regret = np.mean(best - vals[idx, game.centre]) / game.per_point
    lines = [f"{name}: {len(X):,} situations",
             f"  agreement with pimc's bid: model {agree:.3f}, expert {e_agree:.3f}",
             f"  regret (points a bid below pimc's choice, by its own worlds): model {regret:.2f}, "
             f"expert {e_regret:.2f}, expert's number bid always {centre_regret:.2f}",
             f"  model bids Nil {np.mean(model_col == 0):.3f}, pimc {np.mean(pimc_col == 0):.3f}, "
             f"expert {np.mean(e_col == 0):.3f}"]
    return "\n".join(lines), {"agree": agree, "regret": regret, "expert_agree": e_agree, "expert_regret": e_regret}


def _rows(a):
    a = np.atleast_2d(a)
    return "[\n" + ",\n".join("    [" + ", ".join(f"{v:.6g}" for v in row) + "]" for row in a) + ",\n]"


def write_module(path, model, args, summary, game=GAMES["spades"]):
    W1, B1, W2, B2 = model
    slots = ("Nil, c-2, c-1, c+1, c+2; x10\n# points relative to expert's number bid c" if game.name == "spades" else
             "Nil, 1F, 2F, SM, c-2, c-1, c+1, c+2;\n# pimc's value, points, relative to expert's ordinary count c")
    text = (f'"""Weights of the {game.title} bid model (simcards/games/{game.name}/bid_model.py), generated by\n'
            f'``python scripts/fit_bid_model.py {"" if game.name == "spades" else "--game " + game.name + " "}'
            f'--seed {args.seed} --situations {args.situations} '
            f'--worlds {args.worlds}{" --linear" if args.linear else ""}``: do not edit.\n\n'
            + "\n".join(summary.splitlines()) + '\n"""\n'
            f"SEED = {args.seed}\nSITUATIONS = {args.situations}\nWORLDS = {args.worlds}\n"
            f"# the network: hidden = relu(features @ W1 + B1); slot values ({slots}) = hidden @ W2 + B2; features: "
            "bid_model.FEATURE_NAMES\n"
            f"W1 = {_rows(W1)}\nB1 = {_rows(B1)}[0]\nW2 = {_rows(W2)}\nB2 = {_rows(B2)}[0]\n")
    with open(path, "w") as f:
        f.write(text)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=sorted(GAMES), default="spades")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--situations", type=int, default=400_000)
    ap.add_argument("--worlds", type=int, default=16, help="deals sampled per situation (pimc's bid_worlds)")
    ap.add_argument("--out", help="the weights module to write (default: the game's bid_model_data.py)")
    ap.add_argument("--labels", help="an .npz of labelled situations: read when it exists, else written")
    ap.add_argument("--linear", action="store_true", help="also report a ridge regression's held-out figures")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    if args.situations < 10 or args.worlds < 1:
        print("error: --situations must be at least 10 and --worlds at least 1", file=sys.stderr)
        return 2
    game = GAMES[args.game]
    out = args.out or OUT.format(game=game.name)
    if args.labels and os.path.exists(args.labels):
        d = np.load(args.labels)
        X, V, E = d["X"], d["V"], d["E"]
        if len(X) != args.situations:
            print(f"error: {args.labels} holds {len(X)} situations, not {args.situations}", file=sys.stderr)
            return 2
    else:
        X, V, E = game.generate(args.seed, args.situations, args.worlds, quiet=args.quiet)
        if args.labels:
            np.savez(args.labels, X=X, V=V, E=E)
    n_train = int(0.8 * len(X))
    tr, ho = slice(0, n_train), slice(n_train, None)
    model = fit(X[tr], V[tr], seed=args.seed, game=game)
    train, _ = report(X[tr], V[tr], predict(X[tr], model), E[tr], "network, fit (first 80 %)", game)
    held, _ = report(X[ho], V[ho], predict(X[ho], model), E[ho], "network, held out (last 20 %)", game)
    summary = train + "\n" + held
    if args.linear:
        W = fit_linear(X[tr], V[tr], game=game)
        summary += "\n" + report(X[ho], V[ho], X[ho] @ W.T, E[ho], "linear (ridge), held out", game)[0]
    print(summary)
    write_module(out, model, args, summary, game)
    return 0


if __name__ == "__main__":
    sys.exit(main())
