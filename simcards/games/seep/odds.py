"""``simcards bid seep``: what to bid from the bidder's four cards.

You give the four cards the bidder sees (docs/games/seep.md, rule 2.3). Each legal bid is a value
``min_bid_value``..13 of a card in them. The other 48 cards are dealt uniformly around
them (exactly: no rejection, the known hand already allows a bid, so no redeal can
happen), each legal bid is played on the same deals by the chosen policies, and the
table shows per bid:

- ``P(make)``: the bidder's team ends the deal holding the card played at the opening:
  for a build opening this is "the bidder's team captures the bid house" (followed
  through breaks and merges), for a capture opening it is certain, for a throw it is
  the thrown card captured by the bidder's team;
- ``P(house)``: the opening builds a house; ``P(house taken)``: it does and the
  bidder's team captures that house;
- expected deal points of the bidder's team, of the other team, and the difference
  (what the running difference ``D`` moves by), with a paired interval against the
  best bid (all bids see the same deals, so the paired interval is the one to read);
- with ``--scores A:B`` (team A = seats 0, 2): ``P(win baazi)``, the bidder's team
  winning the baazi when it is played on from ``D = A - B`` (see ``odds_kernel``).

``--require`` takes seats N E S W (0..3) and ``F`` for the floor's four cards; a
constraint is about a seat's whole hand of the deal (12 cards; the bidder's known four
included). ``--accept FILE.py:NAME`` gets the seats' whole hands (not the floor).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simcards.core.cards import cards_of, format_card, mask_of
from simcards.core.deal import compile_accept, parse_constraints
from simcards.core.errors import SimcardsError, kernel_errors
from simcards.games.seep.policies import DECISIONS
from simcards.core.game import Column, OddsSupport
from simcards.games.seep.cards import VAL
from simcards.games.seep.layout import EVENTS, S_HANDS, ST_SIZE
from simcards.games.seep.odds_kernel import (
    FIELDS, FIRST_BID, N_SLOTS, NOT_AN_OPTION, simulate_bid_options, trace_bid_option,
)
from simcards.games.seep.rules import deal_stock, seats, start_deal

DEFAULT_BAAZI_CAP = 200  # later deals per baazi when the variant sets no max_deals_per_baazi
HIST_LO, HIST_HI, HIST_STEP = -150, 250, 10  # bins of the point difference for the figure
RANK_NAMES = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}

COLUMNS = tuple(Column(f"{f}_{b}", f"{f} with the bid {b} ({NOT_AN_OPTION}: not an option)")
                for b in range(FIRST_BID, FIRST_BID + N_SLOTS) for f in FIELDS) + (
    Column("policy_bid", "the bid the bidder's own bid policy makes from the four cards"),)


_ACCEPT: dict = {}


def _accept(spec):
    """The compiled accept function of ``spec`` (compiled once per process, not per batch)."""
    if spec not in _ACCEPT:
        _ACCEPT[spec] = compile_accept(spec)
    return _ACCEPT[spec]


def _holder_names(n: int) -> str:
    return "NESWF" if n == 4 else "01F"


def deal_positions(variant, dealer: int) -> np.ndarray:
    """Holder of each deck position under the kernel's deal order (seats, then the floor = n)."""
    n = variant.num_players
    st = np.zeros(ST_SIZE, np.int64)
    start_deal(st, variant.to_params(), dealer, 0)
    order = np.arange(52, dtype=np.int64)
    deal_stock(st, order, False)
    if n == 2:
        deal_stock(st, order, True)
    holder = np.full(52, -1, np.int64)
    holder[:4] = (dealer + 1) % n
    holder[4:8] = n
    for s in range(n):
        for p in cards_of(int(st[S_HANDS + s])):
            if p >= 8:
                holder[p] = s
    assert (holder >= 0).all()
    return holder


def prepare(variant, request):
    """Validate the request: four known cards, seat/dealer, scores, constraints."""
    n = variant.num_players
    cards = tuple(int(c) for c in request.hand)
    if len(cards) != 4:
        raise SimcardsError(f"seep bid: give the bidder's 4 cards, e.g. --hand \"KS 9H 3D 5C\" (got {len(cards)})")
    bad = [c for c in cards if not 0 <= c < 52]
    if bad:
        raise SimcardsError(f"seep bid: {format_card(bad[0]) if bad[0] >= 0 else bad[0]} is not in the Seep deck "
                            f"(52 cards, no jokers)")
    if len(set(cards)) != 4:
        raise SimcardsError("seep bid: a card is given twice in the hand")
    hand_text = " ".join(format_card(c) for c in cards)
    options = tuple(sorted({int(VAL[c]) for c in cards if VAL[c] >= variant.min_bid_value}))
    if not options:
        ranks = " ".join("A23456789TJQK"[v - 1] for v in range(variant.min_bid_value, 14))
        raise SimcardsError(f"seep bid: {hand_text} holds no card of value {variant.min_bid_value}..13 ({ranks}), "
                            f"so no bid is possible: the bidder shows the cards and the same dealer deals again "
                            f"(docs/games/seep.md, rule 2.3)")
    if request.bids:
        raise SimcardsError("seep bid: only the bidder bids in Seep, so there are no earlier bids (drop --bids)")
    if request.options.get("deal") is not None:
        raise SimcardsError("seep bid: --deal does not apply to Seep")
    seat, dealer = request.seat, request.dealer
    if seat is None:
        seat = 0 if dealer is None else (dealer + 1) % n
    if dealer is None:
        dealer = (seat - 1) % n
    names = _holder_names(n)
    if seat >= n or dealer >= n:
        raise SimcardsError(f"seep bid: seats are {'N E S W' if n == 4 else '0 1'} with num_players={n}")
    if (dealer + 1) % n != seat:
        raise SimcardsError(f"seep bid: the bidder is the player after the dealer (docs/games/seep.md, rule 2.2): dealer {names[dealer]} "
                            f"means bidder {names[(dealer + 1) % n]}, not {names[seat]}")
    scores = tuple(int(s) for s in request.scores)
    baazi = bool(scores)
    D0 = 0
    if baazi:
        if len(scores) != 2:
            raise SimcardsError(f"seep bid: --scores takes the two team totals of this baazi, A:B "
                                f"(team A = seats 0, 2), got {len(scores)} numbers")
        D0 = scores[0] - scores[1]
        lead = variant.baazi_lead
        over = abs(D0) >= lead if variant.baazi_lead_inclusive else abs(D0) > lead
        if over:
            raise SimcardsError(f"seep bid: with scores {scores[0]}:{scores[1]} the lead is {abs(D0)}, so the baazi "
                                f"is already over (baazi_lead={lead})")
    pos_holder = deal_positions(variant, dealer)
    sizes = np.bincount(pos_holder, minlength=n + 1).astype(np.int64)
    cons = parse_constraints(request.constraints, n + 1, known={seat: list(cards)}, names=names)
    for h in range(n + 1):
        k = bin(int(cons.fixed[h])).count("1")
        if k > sizes[h]:
            who = "the floor" if h == n else f"seat {names[h]}"
            raise SimcardsError(f"no deal satisfies the constraints: {who} would hold {k} known cards "
                                f"but gets {sizes[h]}")
        if int(cons.min_len[h].sum()) > sizes[h]:
            who = "the floor" if h == n else f"seat {names[h]}"
            raise SimcardsError(f"no deal satisfies the constraints: {who} cannot hold "
                                f"{int(cons.min_len[h].sum())} cards of the required suits in {sizes[h]}")
    if request.accept is not None:
        _ACCEPT[request.accept] = compile_accept(request.accept)  # a bad file or name fails here, with one line
    return {"cards": cards, "known": mask_of(cards), "seat": seat, "dealer": dealer, "options": options,
            "scores": scores, "baazi": baazi, "D0": D0, "constraints": cons, "sizes": sizes,
            "pos_holder": pos_holder, "accept": request.accept}


def simulate(query, variant, table, seed, start, count):
    """Records of deals ``start..``: per bid slot ``FIELDS``, then the policy's own bid."""
    cons = query["constraints"]
    out = np.full((count, len(COLUMNS)), NOT_AN_OPTION, np.int64)
    cap = variant.max_deals_per_baazi or DEFAULT_BAAZI_CAP
    with kernel_errors("seep", DECISIONS, table):
        simulate_bid_options(variant.to_params(), seats(table), (_accept(query["accept"]),),
                             np.int64(query["known"]), cons.fixed, cons.min_len, cons.max_len, query["sizes"],
                             query["pos_holder"], np.int64(query["dealer"]), np.int64(query["D0"]),
                             np.array(query["options"], np.int64), query["baazi"], np.int64(cap),
                             np.uint64(seed), np.int64(start), np.int64(count), out)
    return out


def trace_option(query, variant, table, seed: int, index: int, bid: int):
    """Deal ``index`` of ``seed`` played with ``bid``, traced: (states, events, deck) (see ``replay.trace``).

    The same deal and play as in :func:`simulate`; ``replay.format_trace`` prints it and
    ``referee.check_trace`` re-checks it.
    """
    if bid not in query["options"]:
        raise SimcardsError(f"seep bid: {bid} is not a legal bid of this hand (bids: {query['options']})")
    cons = query["constraints"]
    deck = np.zeros(52, np.int64)
    tr_state = np.zeros((49, ST_SIZE), np.int64)

    def run(events):
        trace_bid_option(variant.to_params(), seats(table), (_accept(query["accept"]),),
                         np.int64(query["known"]), cons.fixed, cons.min_len, cons.max_len, query["sizes"],
                         query["pos_holder"], np.int64(query["dealer"]), np.int64(query["D0"]), np.int64(bid),
                         np.uint64(seed), np.int64(index), np.zeros(ST_SIZE, np.int64), deck, events, tr_state)

    return tr_state, EVENTS.collect(run, 8192)[1], deck


def replay_option(query, variant, table, seed: int, index: int, bid: int) -> str:
    """The text of deal ``index`` played with ``bid`` (what ``simcards replay`` prints for a deal)."""
    from simcards.games.seep.replay import format_trace

    return format_trace(*trace_option(query, variant, table, seed, index, bid)[:2])


def _col(field: str, b: int) -> str:
    return f"{field}_{b}"


def tally(query, df, variant):
    """Rates the user reads (make, house, house taken, baazi won) and the point means.

    The distribution of the point difference (for the figure), the paired gaps between
    bids and the policy's own choice are tallied as means of 0/1 or of differences, so
    that ``--precision`` stops on the rates of the table only.
    """
    from simcards.core import stats

    parts = []
    diff = {}
    edges = np.arange(HIST_LO, HIST_HI + HIST_STEP, HIST_STEP)
    for b in query["options"]:
        c = {f: df[_col(f, b)].to_numpy() for f in FIELDS}
        g = str(b)
        d = c["bidder_team"] - c["other_team"]
        diff[b] = d
        parts.append(stats.rate("make", c["made"] == 1).assign(group=g))
        parts.append(stats.rate("house", c["built"] == 1).assign(group=g))
        parts.append(stats.rate("house_taken", c["house_taken"] == 1).assign(group=g))
        parts.append(stats.mean("bidder_team_points", c["bidder_team"]).assign(group=g))
        parts.append(stats.mean("other_team_points", c["other_team"]).assign(group=g))
        parts.append(stats.mean("point_difference", d).assign(group=g))
        parts.append(stats.mean("policy_bids", df["policy_bid"].to_numpy() == b).assign(group=g))
        if query["baazi"]:
            parts.append(stats.rate("win_baazi", c["won"] == 1).assign(group=g))
            parts.append(stats.mean("baazi_capped", c["won"] == -1).assign(group=g))
            parts.append(stats.mean("deals_to_baazi_end", c["deals"]).assign(group=g))
        bins = np.clip(np.searchsorted(edges, d, side="right") - 1, 0, len(edges) - 2)
        counts = np.bincount(bins, minlength=len(edges) - 1)
        histogram = stats.TallyRows()
        for e, count in zip(edges[:-1], counts):
            histogram.share("difference_histogram", f"{g}:{e}", count, len(d))
        parts.append(histogram.frame())
    opts = query["options"]
    for i, a in enumerate(opts):
        for b in opts[i + 1:]:
            parts.append(stats.mean("paired_gap", diff[a] - diff[b]).assign(group=f"{a}-{b}"))
    return stats.combine(parts)


def _row(summary, metric, group):
    rows = summary[(summary.metric == metric) & (summary.group == group)]
    return rows.iloc[0] if len(rows) else None


def _interval(r, digits=3) -> str:
    return f"[{r.ci_low:.{digits}f}, {r.ci_high:.{digits}f}]"


def best_bid(query, summary) -> int:
    """The bid with the highest expected point difference (bidder's team minus the other)."""
    return max(query["options"], key=lambda b: _row(summary, "point_difference", str(b)).estimate)


def present(query, summary, variant):
    """One row per legal bid, best expected point difference first."""
    best = best_bid(query, summary)
    win_best = None
    if query["baazi"]:
        win_best = max(query["options"], key=lambda b: _row(summary, "win_baazi", str(b)).estimate)
    rows = []
    for b in query["options"]:
        g = str(b)
        make, diff = _row(summary, "make", g), _row(summary, "point_difference", g)
        row = {"bid": b, "cards": " ".join(format_card(c) for c in query["cards"] if VAL[c] == b),
               "P(make)": round(make.estimate, 4), "95% CI": _interval(make),
               "P(house)": round(_row(summary, "house", g).estimate, 4),
               "P(house taken)": round(_row(summary, "house_taken", g).estimate, 4),
               "bidder team": round(_row(summary, "bidder_team_points", g).estimate, 2),
               "other team": round(_row(summary, "other_team_points", g).estimate, 2),
               "difference": round(diff.estimate, 2), "diff 95% CI": _interval(diff, 1)}
        if b == best:
            row["vs best (paired)"] = "best"
        else:
            lo, hi = sorted((b, best))
            gap = _row(summary, "paired_gap", f"{lo}-{hi}")
            sign = 1 if lo == b else -1
            est, a, z = sign * gap.estimate, sign * gap.ci_low, sign * gap.ci_high
            row["vs best (paired)"] = f"{est:+.1f} [{min(a, z):+.1f}, {max(a, z):+.1f}]"
        if query["baazi"]:
            win = _row(summary, "win_baazi", g)
            row["P(win baazi)"] = round(win.estimate, 4)
            row["win 95% CI"] = _interval(win)
        row["policy bids"] = round(_row(summary, "policy_bids", g).estimate, 3)
        mark = "yes" if b == best else ""
        if win_best is not None and b == win_best:
            mark = (mark + ", " if mark else "") + "best P(win)"
        row["recommended"] = mark
        rows.append(row)
    return pd.DataFrame(rows).sort_values("difference", ascending=False, ignore_index=True)


def figure(query, summary, variant):
    """Distribution of the deal's point difference per bid; the recommended bid in bold."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    best = best_bid(query, summary)
    hist = summary[summary.metric == "difference_histogram"]
    fig, ax = plt.subplots(figsize=(7, 3.8))
    for b in query["options"]:
        sub = hist[hist.group.str.startswith(f"{b}:")]
        x = np.array([int(g.split(":")[1]) for g in sub.group]) + HIST_STEP / 2
        order = np.argsort(x)
        mean = _row(summary, "point_difference", str(b)).estimate
        label = f"bid {b} (mean {mean:+.1f})" + (", recommended" if b == best else "")
        line, = ax.plot(x[order], sub.estimate.to_numpy()[order], drawstyle="steps-mid",
                        lw=2.6 if b == best else 1.2, label=label)
        if b == best:
            ax.axvline(mean, color=line.get_color(), ls="--", lw=1)
    hand = " ".join(format_card(c) for c in query["cards"])
    ax.set_title(f"Seep: bidder's team minus other team, deal points, by bid (hand {hand})", fontsize=9)
    ax.set_xlabel(f"point difference this deal (bins of {HIST_STEP}; ends gather the tails)")
    ax.set_ylabel("share of deals")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


BID = OddsSupport(command="bid", help="P(the bidder's team takes the bid house) and expected deal points per legal bid",
                  prepare=prepare, simulate=simulate, columns=COLUMNS, tally=tally, present=present,
                  figure=figure, batch=1000)
