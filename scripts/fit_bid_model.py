#!/usr/bin/env python
"""Fit the Spades ``fitted`` policy's bid model to pimc's simulated bids (simcards/games/spades/bid_model.py).

    python scripts/fit_bid_model.py                               # 400,000 situations, seed 1 (6 min)
    python scripts/fit_bid_model.py --situations 2000 --out /tmp/m.py   # a quick look
    python scripts/fit_bid_model.py --linear                      # the committed model (and a ridge fit's figures)
    python scripts/fit_bid_model.py --labels /tmp/labels.npz     # keep (or reuse) the labelled situations

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
from simcards.games.spades import bid_model, pimc  # noqa: E402
from simcards.games.spades.kernel import prepared  # noqa: E402
from simcards.games.spades.policies import (  # noqa: E402
    BN_BIT, EXPERT_PARAMS, P_ROUND_UP, V_BID, V_HAND, V_LEGAL, V_PARAMS, V_SEAT, VIEW_LEN, expert_bid,
)
from simcards.games.spades.rules import _reset_view, legal_bids  # noqa: E402
from simcards.games.spades.variant import SpadesVariant  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "simcards", "games", "spades", "bid_model_data.py")
SLOTS = 6  # label columns: Nil, c-2, c-1, c, c+1, c+2
RIDGE = 1.0  # ridge penalty of the linear fit (--linear, for comparison) on standardized features
HIDDEN, EPOCHS, BATCH, RATE, DECAY = 64, 20, 256, 1e-3, 1e-5  # the network and its training
Y_SCALE = 100.0  # targets are trained in units of 10 points
N_OUT = 5
_EXPERT = np.array([p.fixed(p.default) for p in EXPERT_PARAMS], np.int64)
_PIMC = np.array([p.fixed(p.default) for p in pimc.PIMC_PARAMS], np.int64)


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
    """The bid of each label column per situation (Nil, c-2 .. c+2)."""
    c = X[:, 4].astype(np.int64)
    return np.stack([np.zeros_like(c)] + [c + d for d in (-2, -1, 0, 1, 2)], axis=1)


def targets(V):
    """Per situation and model slot (Nil, c-2, c-1, c+1, c+2): the slot's value minus the
    centre's, and whether both are candidates."""
    Y = np.stack([V[:, col] - V[:, 3] for col in (0, 1, 2, 4, 5)], axis=1)
    mask = np.isfinite(Y)
    return np.where(mask, Y, 0.0), mask


def fit(X, V, hidden=HIDDEN, epochs=EPOCHS, seed=0):
    """A one-hidden-layer network (ReLU, ``hidden`` units) of the five slot values minus the
    centre's, trained by Adam on the squared error of the candidate slots (numpy only, batches
    of 256 in an order drawn from ``seed``). Returns (W1, B1, W2, B2) on the raw features
    (the standardization folded into the first layer)."""
    Y, mask = targets(V)
    Y = Y / Y_SCALE
    mu = X.mean(axis=0)
    sd = X.std(axis=0)
    mu[0], sd[0] = 0.0, 1.0  # the bias feature stays 1
    sd[sd == 0] = 1.0
    Z = (X - mu) / sd
    rng = np.random.default_rng(seed)
    f = X.shape[1]
    params = [rng.normal(0.0, 1.0 / np.sqrt(f), (f, hidden)), np.zeros(hidden),
              rng.normal(0.0, 1.0 / np.sqrt(hidden), (hidden, N_OUT)), np.zeros(N_OUT)]
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
    """The five slot predictions (x10 points relative to the centre) of ``model`` for rows ``X``:
    what bid_model.fitted_choice computes in the kernel."""
    W1, B1, W2, B2 = model
    return np.maximum(X @ W1 + B1, 0.0) @ W2 + B2


def fit_linear(X, V, ridge=RIDGE):
    """Raw-feature weights (5 slots x features) of the ridge fits of slot value minus the centre's."""
    W = np.zeros((bid_model.N_SLOTS, X.shape[1]))
    cols = (0, 1, 2, 4, 5)  # label columns of the model's slots (3 is the centre)
    for k, col in enumerate(cols):
        y = V[:, col] - V[:, 3]
        ok = np.isfinite(y)
        if col > 0:
            ok &= np.isfinite(V[:, col])
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


def choices(X, V, P, E):
    """Per situation: pimc's bid (best label, ties to expert's), the model's (predictions ``P``)
    and expert's, with the label value of each (x10 points)."""
    B = slot_bids(X)
    n = len(X)
    idx = np.arange(n)
    vals = np.where(np.isfinite(V), V, -np.inf)
    # pimc: the best candidate; ties go to expert's bid
    best = vals.max(axis=1)
    pimc_col = np.argmax(vals, axis=1)
    e_col = np.full(n, -1)
    for k in range(SLOTS):
        e_col = np.where((B[:, k] == E) & np.isfinite(V[:, k]) & (e_col < 0), k, e_col)
    tie = (e_col >= 0) & (vals[idx, np.maximum(e_col, 0)] == best)
    pimc_col = np.where(tie, e_col, pimc_col)
    pred = np.full((n, SLOTS), -np.inf)
    pred[:, 3] = 0.0
    for k, col in enumerate((0, 1, 2, 4, 5)):
        pred[:, col] = P[:, k]
    pred = np.where(np.isfinite(V), pred, -np.inf)
    model_col = np.argmax(pred, axis=1)  # ties: the first column (the centre scores 0)
    model_col = np.where(pred[idx, 3] >= pred[idx, model_col], 3, model_col)
    return pimc_col, model_col, e_col, vals, best


def report(X, V, P, E, name):
    pimc_col, model_col, e_col, vals, best = choices(X, V, P, E)
    idx = np.arange(len(X))
    ok = e_col >= 0
    agree = np.mean(model_col == pimc_col)
    regret = np.mean(best - vals[idx, model_col]) / 10
    e_agree = np.mean((e_col == pimc_col)[ok])
    e_regret = np.mean((best - vals[idx, np.maximum(e_col, 0)])[ok]) / 10
    centre_regret = np.mean(best - vals[idx, 3]) / 10
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


def write_module(path, model, args, summary):
    W1, B1, W2, B2 = model
    text = (f'"""Weights of the Spades bid model (simcards/games/spades/bid_model.py), generated by\n'
            f'``python scripts/fit_bid_model.py --seed {args.seed} --situations {args.situations} '
            f'--worlds {args.worlds}{" --linear" if args.linear else ""}``: do not edit.\n\n'
            + "\n".join(summary.splitlines()) + '\n"""\n'
            f"SEED = {args.seed}\nSITUATIONS = {args.situations}\nWORLDS = {args.worlds}\n"
            "# the network: hidden = relu(features @ W1 + B1); slot values (Nil, c-2, c-1, c+1, c+2; x10\n"
            "# points relative to expert's number bid c) = hidden @ W2 + B2; features: bid_model.FEATURE_NAMES\n"
            f"W1 = {_rows(W1)}\nB1 = {_rows(B1)}[0]\nW2 = {_rows(W2)}\nB2 = {_rows(B2)}[0]\n")
    with open(path, "w") as f:
        f.write(text)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--situations", type=int, default=400_000)
    ap.add_argument("--worlds", type=int, default=16, help="deals sampled per situation (pimc's bid_worlds)")
    ap.add_argument("--out", default=OUT, help="the weights module to write")
    ap.add_argument("--labels", help="an .npz of labelled situations: read when it exists, else written")
    ap.add_argument("--linear", action="store_true", help="also report a ridge regression's held-out figures")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    if args.situations < 10 or args.worlds < 1:
        print("error: --situations must be at least 10 and --worlds at least 1", file=sys.stderr)
        return 2
    if args.labels and os.path.exists(args.labels):
        d = np.load(args.labels)
        X, V, E = d["X"], d["V"], d["E"]
        if len(X) != args.situations:
            print(f"error: {args.labels} holds {len(X)} situations, not {args.situations}", file=sys.stderr)
            return 2
    else:
        X, V, E = generate(args.seed, args.situations, args.worlds, quiet=args.quiet)
        if args.labels:
            np.savez(args.labels, X=X, V=V, E=E)
    n_train = int(0.8 * len(X))
    tr, ho = slice(0, n_train), slice(n_train, None)
    model = fit(X[tr], V[tr], seed=args.seed)
    train, _ = report(X[tr], V[tr], predict(X[tr], model), E[tr], "network, fit (first 80 %)")
    held, _ = report(X[ho], V[ho], predict(X[ho], model), E[ho], "network, held out (last 20 %)")
    summary = train + "\n" + held
    if args.linear:
        W = fit_linear(X[tr], V[tr])
        summary += "\n" + report(X[ho], V[ho], X[ho] @ W.T, E[ho], "linear (ridge), held out")[0]
    print(summary)
    write_module(args.out, model, args, summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
