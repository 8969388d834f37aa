"""``simcards trump kierki``: which trump suit to announce from the cards you see.

You give the cards the chooser has seen (``trump_choice_cards`` of them, 5 by default),
optionally the chooser's seat (``--seat``; the dealer follows from ``trump_chooser``),
``--require`` knowledge of the hidden hands and an ``--accept FILE.py:NAME`` function.
The unknown cards are dealt uniformly around them: by section 3.1 the seen cards are
the chooser's first cards of a uniformly shuffled pack, and the other 52 - k positions
are then a uniform arrangement of the remaining cards, so the chooser holds the seen
cards plus 13 - k cards drawn uniformly, and the other seats the rest. Every trump
option is played out on the same deal with the same policy stream (common random
numbers); the table shows the chooser's and every seat's expected points per option.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simcards.core.cards import format_card
from simcards.core.deal import compile_accept, parse_constraints
from simcards.core.errors import SimcardsError, kernel_errors
from simcards.core.game import Column, OddsSupport
from simcards.core import stats
from simcards.games.kierki import policies as P
from simcards.games.kierki import rules as R

SEATS = "NESW"
SLOTS = (3, 2, 1, 0, -1)  # column order of the options: S, H, D, C, no trumps
OPTION_NAMES = {3: "S", 2: "H", 1: "D", 0: "C", -1: "NT"}
TRICKS = tuple(range(14))

_ACCEPT: dict = {}


def _accept(spec):
    """The compiled accept function of ``spec`` (compiled once per process, not per batch)."""
    if spec not in _ACCEPT:
        _ACCEPT[spec] = compile_accept(spec)
    return _ACCEPT[spec]


def prepare(variant, request):
    """Validate the request; the query is a dict of plain data (options, cards, seats, constraints)."""
    if request.bids:
        raise SimcardsError("kierki trump: there is no auction before the trump choice; --bids does not apply")
    if request.scores:
        raise SimcardsError("kierki trump: --scores does not apply (the table shows this deal's points; "
                            "each trump deal distributes 13 x points_per_trump_trick whatever the scores)")
    extra = sorted(k for k, v in request.options.items() if v is not None)
    if extra:
        raise SimcardsError(f"kierki trump: --{extra[0]} does not apply (the command studies one trump deal)")
    cards = tuple(int(c) for c in request.hand)
    k = variant.trump_choice_cards
    if len(cards) != k:
        raise SimcardsError(f"kierki trump: give the {k} cards the chooser has seen (got {len(cards)}); "
                            f"set trump_choice_cards=N to study another number")
    bad = [c for c in cards if not 0 <= c < 52]
    if bad:
        raise SimcardsError(f"kierki trump: {format_card(bad[0])} is not in the deck (kierki is played "
                            f"without jokers)")
    if len(set(cards)) != len(cards):
        raise SimcardsError("kierki trump: a card is given twice")
    for name, value in (("seat", request.seat), ("dealer", request.dealer)):
        if value is not None and not 0 <= value < 4:
            raise SimcardsError(f"kierki trump: {name} must be one of N, E, S, W (0..3); got {value}")
    by_dealer = variant.trump_chooser == "dealer"
    if request.seat is None and request.dealer is not None:
        dealer = request.dealer
        chooser = dealer if by_dealer else (dealer + 1) % 4
    else:
        chooser = 0 if request.seat is None else request.seat
        dealer = chooser if by_dealer else (chooser - 1) % 4
        if request.dealer is not None and request.dealer != dealer:
            raise SimcardsError(f"kierki trump: with trump_chooser={variant.trump_chooser} the chooser "
                                f"{SEATS[chooser]} implies dealer {SEATS[dealer]}, not {SEATS[request.dealer]}")
    cons = parse_constraints(request.constraints, 4, known={chooser: list(cards)}, names=SEATS)
    for s in range(4):
        held = bin(int(cons.fixed[s])).count("1")
        if held > 13:
            raise SimcardsError(f"no deal satisfies the constraints: {SEATS[s]} would hold {held} known cards")
    _accept(request.accept)  # a bad FILE.py:NAME fails here, before any dealing
    options = (3, 2, 1, 0) + ((-1,) if variant.allow_no_trump else ())
    leader = dealer if variant.trump_leader == "dealer" else (dealer + 1) % 4
    return {"options": options, "cards": cards, "chooser": chooser, "dealer": dealer, "leader": leader,
            "constraints": cons, "accept": request.accept}


def column(option: int, seat: int) -> str:
    return f"tricks_{OPTION_NAMES[option]}_{SEATS[seat]}"


COLUMNS = (tuple(Column(column(o, s), f"tricks of seat {SEATS[s]} with trumps {OPTION_NAMES[o]} "
                                      f"(-1 if not an option)") for o in SLOTS for s in range(4))
           + (Column("policy_choice", "what the chooser's own trump policy announces from the seen cards "
                                      "(-1 no trumps)"),)
           + tuple(Column(f"hand_{SEATS[s]}", f"the 13 cards dealt to {SEATS[s]} (bit mask)") for s in range(4)))
_INDEX = {c.name: i for i, c in enumerate(COLUMNS)}


def simulate(query, variant, table, seed, start, count):
    """Records ``start..start+count-1`` of ``seed`` (layout ``COLUMNS``)."""
    from simcards.games.kierki.odds_kernel import NO_DEAL, OK, simulate_trump_options

    cons = query["constraints"]
    seen = np.uint64(sum(1 << c for c in query["cards"]))
    opts = np.array(query["options"], np.int64)
    n = len(opts)
    work = np.zeros((count, 4 * n + 5), np.int64)
    with kernel_errors("kierki", P.DECISIONS, table, formats=P.FORMATS,
                       where=f"seed {seed}, records {start}..{start + count - 1}"):
        code = simulate_trump_options(R.kernel_tables(variant), R.seats(table), cons.fixed,
                                      cons.min_len, cons.max_len, (_accept(query["accept"]),), query["chooser"],
                                      query["dealer"], query["leader"], seen, opts, np.uint64(seed), np.int64(start),
                                      np.int64(count), work)
    if code == NO_DEAL:
        raise SimcardsError("kierki trump: no deal satisfies the --require constraints (100,000 deals tried)")
    if code != OK:
        raise SimcardsError(f"kierki trump: no deal satisfies the accept function {query['accept']} "
                            f"(with the constraints; 100,000 deals tried)")
    out = np.full((count, len(COLUMNS)), -1, np.int64)
    for k, o in enumerate(opts):
        for s in range(4):
            out[:, _INDEX[column(o, s)]] = work[:, 4 * k + s]
    out[:, _INDEX["policy_choice"]:] = work[:, 4 * n:]
    return out


def tally(query, df, variant):
    """Per option: the chooser's points, tricks and their distribution (shares of 0..13
    tricks, means of indicators for the figure), P(4+ tricks) (the rate ``--precision``
    aims at), the share of deals where the option is best, the chooser's final length in
    the trump suit, every seat's points, and paired differences to each other option."""
    pts = variant.points_per_trump_trick
    chooser = query["chooser"]
    rows = stats.TallyRows()

    opts = query["options"]
    names = [OPTION_NAMES[o] for o in opts]
    tricks = np.stack([df[column(o, chooser)].to_numpy() for o in opts], axis=1)
    best = tricks == tricks.max(axis=1, keepdims=True)
    share = best / best.sum(axis=1, keepdims=True)
    policy = df["policy_choice"].to_numpy()
    hand = df[f"hand_{SEATS[chooser]}"].to_numpy().astype(np.uint64)
    for k, (o, name) in enumerate(zip(opts, names)):
        t = tricks[:, k]
        rows.rate("tricks>=4", name, t >= 4)
        rows.rate("policy_chooses", name, policy == o)
        rows.mean("chooser_points", name, t * pts)
        rows.mean("chooser_tricks", name, t)
        rows.mean("best_option_share", name, share[:, k])
        if o >= 0:
            rows.mean("trump_length", name, np.bitwise_count(hand & np.uint64(((1 << 13) - 1) << (13 * o))))
        for s in range(4):
            rows.mean(f"points_{SEATS[s]}", name, df[column(o, s)].to_numpy() * pts)
        for j, other in enumerate(names):
            if j != k:
                rows.mean(f"points_minus_{other}", name, (t - tricks[:, j]) * pts)
        counts = np.bincount(t, minlength=14)
        for n in TRICKS:
            rows.share(f"tricks={n}", name, counts[n], t.size)
    return rows.frame()


def recommended(query, summary) -> str:
    """The option with the highest expected points for the chooser."""
    rows = summary[summary.metric == "chooser_points"]
    return str(rows.loc[rows.estimate.idxmax(), "group"])


def present(query, summary, variant):
    """One row per option, best expected points first; ``vs best`` is the paired
    difference to the recommended option (same deals), the interval to read when
    asking whether another suit is really worse."""
    by = {(m, g): r for m, g, r in zip(summary.metric, summary.group, summary.itertuples())}
    best = recommended(query, summary)
    rows = []
    for o in query["options"]:
        name = OPTION_NAMES[o]
        p = by[("chooser_points", name)]
        row = {"trumps": name, "mean points": round(p.estimate, 2), "95% CI": f"[{p.ci_low:.1f}, {p.ci_high:.1f}]"}
        if name == best:
            row["vs best"] = ""
        else:
            d = by[(f"points_minus_{best}", name)]
            row["vs best"] = f"{d.estimate:+.1f} [{d.ci_low:+.1f}, {d.ci_high:+.1f}]"
        row.update({"mean tricks": round(by[("chooser_tricks", name)].estimate, 3),
                    "P(tricks>=4)": round(by[("tricks>=4", name)].estimate, 4),
                    "P(best option)": round(by[("best_option_share", name)].estimate, 4),
                    "trump length": round(by[("trump_length", name)].estimate, 2) if o >= 0 else "",
                    "policy picks": round(by[("policy_chooses", name)].estimate, 4)})
        for s in range(4):
            row[f"pts {SEATS[s]}" + ("*" if s == query["chooser"] else "")] = round(
                by[(f"points_{SEATS[s]}", name)].estimate, 1)
        rows.append(row)
    table = pd.DataFrame(rows).sort_values("mean points", ascending=False, ignore_index=True)
    table["recommended"] = np.where(table.trumps == best, "yes", "")
    return table


def figure(query, summary, variant):
    """Left: the distribution of the chooser's tricks (points) with the recommended trump
    (bars) and each other option (lines), means marked. Right: mean points per option
    with 95 % intervals, the recommended one highlighted."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    best = recommended(query, summary)
    pts = variant.points_per_trump_trick
    by = summary.set_index(["metric", "group"])

    def shares(name):
        return np.array([by.loc[(f"tricks={k}", name), "estimate"] for k in TRICKS])

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4), gridspec_kw={"width_ratios": [3, 2]})
    colors = dict(zip(("S", "H", "D", "C", "NT"), ("tab:blue", "tab:red", "tab:orange", "tab:green", "tab:purple")))
    for o in query["options"]:
        name = OPTION_NAMES[o]
        if name != best:
            left.plot(TRICKS, shares(name), marker="o", ms=3, lw=1, alpha=0.7, color=colors[name],
                      label=f"trumps {name}")
    left.bar(TRICKS, shares(best), color=colors[best], alpha=0.45, edgecolor="black",
             label=f"trumps {best} (recommended)")
    mean_best = by.loc[("chooser_tricks", best), "estimate"]
    left.axvline(mean_best, color="black", lw=2, ls="--", label=f"mean with {best}: {mean_best:.2f} tricks")
    left.set_xticks(TRICKS)
    left.set_xticklabels([f"{k}\n{k * pts}" for k in TRICKS], fontsize=7)
    left.set_xlabel("chooser's tricks / points this deal")
    left.set_ylabel("share of deals")
    left.legend(fontsize=8)
    names = [OPTION_NAMES[o] for o in query["options"]]
    p = summary[summary.metric == "chooser_points"].set_index("group").loc[names]
    right.bar(names, p.estimate, yerr=[p.estimate - p.ci_low, p.ci_high - p.estimate], capsize=3,
              color=["tab:red" if n == best else "tab:blue" for n in names])
    right.set_xlabel("trumps announced (red: recommended)")
    right.set_ylabel("chooser's expected points (95 % CI)")
    seen = " ".join(format_card(c) for c in sorted(query["cards"], reverse=True)) or "no cards"
    fig.suptitle(f"Kierki trump choice: {SEATS[query['chooser']]} (dealer {SEATS[query['dealer']]}) has seen {seen}",
                 fontsize=10)
    fig.tight_layout()
    return fig


TRUMP = OddsSupport(command="trump", help="expected points of each trump suit from the cards the chooser sees",
                    prepare=prepare, simulate=simulate, columns=COLUMNS, tally=tally, present=present,
                    figure=figure, batch=2000)
