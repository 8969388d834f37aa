"""``simcards bid spades``: how each legal bid of a known hand fares.

You give your 13 cards, your seat and the dealer, the bids already made at the table
(``--bids "E=3,S=nil"``) and optionally the scores (``NS:EW``) and ``--require``
knowledge of the hidden hands. The other 39 cards are dealt uniformly around yours;
each legal bid is played on the same deals (the other seats bid and play with their
policies), and the table shows, per bid, how often you take that many tricks, how often
the team contract (or your Nil) makes, the team's expected points and bags.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simcards.core.cards import format_card
from simcards.core.deal import compile_accept, parse_constraints
from simcards.core.errors import SimcardsError
from simcards.core.game import Column, OddsSupport
from simcards.games.spades import rules
from simcards.games.spades.kernel import DECISION_ORDER, error_text, prepared
from simcards.games.spades.policies import BN_BIT
from simcards.games.spades.referee import legal_bid_set

SEATS = "NESW"


def bid_name(b: int) -> str:
    return "Nil" if b == 0 else ("BN" if b == BN_BIT else str(b))


def _parse_bid(text: str, who: int) -> int:
    t = text.strip().lower()
    if t in ("nil", "0"):
        return 0
    if t in ("bn", "blind", "blind_nil", "blindnil"):
        return BN_BIT
    if t.isdigit() and 1 <= int(t) <= 13:
        return int(t)
    raise SimcardsError(f"bid of {SEATS[who]} must be 1..13, nil or bn; got {text!r}")


def prepare(variant, request):
    """Validate the request: 13 known cards, seat, dealer, the earlier bids in order, scores."""
    cards = tuple(request.hand)
    if len(cards) != 13:
        raise SimcardsError(f"spades bid: give your 13 cards (got {len(cards)})")
    deck = set(int(c) for c in prepared(variant)[1])
    bad = [c for c in cards if c not in deck]
    if bad:
        raise SimcardsError(f"spades bid: {format_card(bad[0])} is not in the deck of this variant")
    seat = 0 if request.seat is None else request.seat
    dealer = (seat + 3) % 4 if request.dealer is None else request.dealer
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    before = order[:order.index(seat)]
    prior = [-1, -1, -1, -1]
    for who, text in request.bids.items():
        if who not in before:
            raise SimcardsError(f"spades bid: {SEATS[who]} bids after {SEATS[seat]} when {SEATS[dealer]} deals; "
                                f"give only earlier bids ({', '.join(SEATS[s] for s in before) or 'none'})")
        prior[who] = _parse_bid(text, who)
    missing = [SEATS[s] for s in before if prior[s] < 0]
    if missing:
        raise SimcardsError(f"spades bid: give the earlier bids of {', '.join(missing)} (e.g. --bids \"{missing[0]}=3\")")
    scores = tuple(request.scores) or (0, 0)
    if len(scores) != 2:
        raise SimcardsError(f"spades bid: --scores takes the two team scores NS:EW, got {len(scores)} numbers")
    made: dict[int, tuple[int, bool]] = {}
    for s in before:
        b = prior[s]
        legal = legal_bid_set(variant, s, dealer, made, scores, looked=False)
        if ("BN" if b == BN_BIT else b) not in legal:
            raise SimcardsError(f"spades bid: {SEATS[s]} may not bid {bid_name(b)} here")
        made[s] = (0 if b == BN_BIT else b, b == BN_BIT)
    legal = legal_bid_set(variant, seat, dealer, made, scores, looked=True)
    options = tuple(sorted(b for b in legal if b != "BN"))
    cons = parse_constraints(request.constraints, 4, known={seat: list(cards)})
    return {"cards": cards, "seat": seat, "dealer": dealer, "prior": tuple(prior), "options": options,
            "scores": scores, "constraints": cons, "accept": request.accept}


def simulate(query, variant, table, seed, start, count):
    """Records of deals ``start..``: per option slot the ``rules.ODDS_FIELDS``."""
    params, deck, masks = prepared(variant)
    cons = query["constraints"]
    out = np.full((count, len(COLUMNS)), -99, np.int64)
    err = np.zeros(4, np.int64)
    try:
        rules.simulate_bid_options(
            params, deck, masks, cons.fixed, cons.min_len, cons.max_len, (compile_accept(query["accept"]),),
            query["seat"], query["dealer"], np.array(query["prior"], np.int64),
            np.array(query["options"], np.int64), np.array(query["scores"], np.int64),
            np.uint64(seed), np.int64(start), np.int64(count), *[table[d] for d in DECISION_ORDER], out, err)
    except ValueError as exc:
        raise SimcardsError(error_text(err) if err[0] != rules.E_REDEALS else str(exc)) from None
    return out


COLUMNS = tuple(Column(f"{field}_{bid_name(b).lower()}", f"{field} with the bid {bid_name(b)} (-99: not an option)")
                for b in range(rules.ODDS_SLOTS) for field in rules.ODDS_FIELDS)


def tally(query, df, variant):
    from simcards.experiment import stats

    parts = []
    for b in query["options"]:
        name = bid_name(b)
        col = {f: df[f"{f}_{name.lower()}"].to_numpy() for f in rules.ODDS_FIELDS}
        made = col["tricks"] == 0 if b == 0 else col["made"] == 1
        parts.append(stats.rate("makes", made).assign(group=name))
        if b > 0:
            parts.append(stats.rate("own_tricks>=bid", col["tricks"] >= b).assign(group=name))
        parts.append(stats.mean("team_points", col["points"]).assign(group=name))
        parts.append(stats.mean("own_tricks", col["tricks"]).assign(group=name))
        parts.append(stats.mean("team_bags", col["bags"]).assign(group=name))
    return pd.concat(parts, ignore_index=True)


def present(query, summary, variant):
    """One row per legal bid, best expected team points first."""
    def get(metric, name):
        rows = summary[(summary.metric == metric) & (summary.group == name)]
        return rows.iloc[0] if len(rows) else None

    rows = []
    for b in query["options"]:
        name = bid_name(b)
        pts = get("team_points", name)
        own = get("own_tricks>=bid", name)
        rows.append({"bid": name, "P(makes)": round(get("makes", name).estimate, 4),
                     "P(own tricks>=bid)": "" if own is None else round(own.estimate, 4),
                     "team points": round(pts.estimate, 2), "95% CI": f"[{pts.ci_low:.1f}, {pts.ci_high:.1f}]",
                     "own tricks": round(get("own_tricks", name).estimate, 3),
                     "team bags": round(get("team_bags", name).estimate, 3)})
    table = pd.DataFrame(rows).sort_values("team points", ascending=False, ignore_index=True)
    table["recommended"] = ["yes"] + [""] * (len(table) - 1)
    return table


def figure(query, summary, variant):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sub = summary[summary.metric == "team_points"].copy()
    order = [bid_name(b) for b in query["options"]]
    sub["order"] = sub.group.map({n: i for i, n in enumerate(order)})
    sub = sub.sort_values("order")
    fig, ax = plt.subplots(figsize=(7, 3.8))
    ax.bar(sub.group, sub.estimate, yerr=[sub.estimate - sub.ci_low, sub.ci_high - sub.estimate], capsize=3)
    ax.axhline(0, color="grey", lw=0.8)
    hand = " ".join(format_card(c) for c in sorted(query["cards"], reverse=True))
    ax.set_title(f"Spades: team points by bid, {SEATS[query['seat']]} holding\n{hand}", fontsize=9)
    ax.set_xlabel("bid")
    ax.set_ylabel("expected team points this hand")
    fig.tight_layout()
    return fig


BID = OddsSupport(command="bid", help="how often each legal bid makes, expected team points and bags",
                  prepare=prepare, simulate=simulate, columns=COLUMNS, tally=tally, present=present,
                  figure=figure, batch=2000)
