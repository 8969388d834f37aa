"""``simcards trump kierki``: which trump suit to announce from the cards you see.

You give the cards the chooser has seen (``trump_choice_cards`` of them, 5 by default)
and optionally your seat and ``--require`` knowledge. The unknown cards are dealt
uniformly around them; every trump option is played out on the same deals by the
chosen policies, and the table shows the chooser's expected points per option.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simcards.core.cards import format_card
from simcards.core.deal import parse_constraints
from simcards.core.errors import SimcardsError
from simcards.core.game import Column, OddsSupport
from simcards.games.kierki import rules as R

OPTION_NAMES = {3: "S", 2: "H", 1: "D", 0: "C", -1: "no trumps"}


def prepare(variant, request):
    """Validate the request; the query is ``(options, cards, chooser, dealer, constraints)``."""
    cards = tuple(request.hand)
    k = variant.trump_choice_cards
    if len(cards) != k:
        raise SimcardsError(f"kierki trump: give the {k} cards the chooser has seen (got {len(cards)}); "
                            f"set trump_choice_cards=N to study another number")
    if any(c >= 52 for c in cards):
        raise SimcardsError("kierki is played without jokers")
    chooser = 0 if request.seat is None else request.seat
    dealer = chooser if variant.trump_chooser == "dealer" else (chooser - 1) % 4
    if request.dealer is not None and request.dealer != dealer:
        raise SimcardsError(f"kierki trump: with trump_chooser={variant.trump_chooser} the chooser "
                            f"{'NESW'[chooser]} implies dealer {'NESW'[dealer]}, not {'NESW'[request.dealer]}")
    cons = parse_constraints(request.constraints, 4, known={chooser: list(cards)})
    options = (3, 2, 1, 0) + ((-1,) if variant.allow_no_trump else ())
    return {"options": options, "cards": cards, "chooser": chooser, "dealer": dealer, "constraints": cons}


def simulate(query, variant, table, seed, start, count):
    from simcards.games.kierki.odds_kernel import simulate_trump_options

    cfg, _, card_pen, trick_pen, pen_mask = R.kernel_tables(variant)
    cons = query["constraints"]
    leader = query["dealer"] if variant.trump_leader == "dealer" else (query["dealer"] + 1) % 4
    seen = np.uint64(sum(1 << c for c in query["cards"]))
    out = np.zeros((count, len(COLUMNS)), np.int64)
    opts = np.array(query["options"], np.int64)
    work = np.zeros((count, len(opts) + 1), np.int64)
    try:
        simulate_trump_options(cfg, card_pen, trick_pen, pen_mask, table["play"], table["trump"], cons.fixed,
                               cons.min_len, cons.max_len, query["chooser"], query["dealer"], leader, seen, opts,
                               np.uint64(seed), np.int64(start), np.int64(count), work)
    except ValueError as exc:  # raised inside the kernel
        raise SimcardsError(str(exc)) from None
    out[:, :] = -1
    for k, o in enumerate(opts):
        out[:, _col(o)] = work[:, k]
    out[:, -1] = work[:, -1]
    return out


def _col(option: int) -> int:
    return 4 if option < 0 else 3 - option


COLUMNS = tuple(Column(f"tricks_{OPTION_NAMES[o].replace(' ', '_')}", f"chooser's tricks with trumps {OPTION_NAMES[o]} "
                                                                   f"(-1 if not an option)") for o in (3, 2, 1, 0, -1)) + (
    Column("policy_choice", "what the chooser's own trump policy announces from the seen cards (-1 no trumps)"),)


def tally(query, df, variant):
    from simcards.experiment import stats

    pts = variant.points_per_trump_trick
    parts = []
    tricks = np.stack([df[COLUMNS[_col(o)].name].to_numpy() for o in query["options"]], axis=1)
    best = tricks == tricks.max(axis=1, keepdims=True)
    share = best / best.sum(axis=1, keepdims=True)
    for k, o in enumerate(query["options"]):
        name = OPTION_NAMES[o]
        parts.append(stats.mean("chooser_points", tricks[:, k] * pts).assign(group=name))
        parts.append(stats.mean("chooser_tricks", tricks[:, k]).assign(group=name))
        parts.append(stats.rate("tricks>=4", tricks[:, k] >= 4).assign(group=name))
        parts.append(stats.mean("best_option_share", share[:, k]).assign(group=name))
        parts.append(stats.rate("policy_chooses", df["policy_choice"].to_numpy() == o).assign(group=name))
    return pd.concat(parts, ignore_index=True)


def present(query, summary, variant):
    rows = []
    for o in query["options"]:
        name = OPTION_NAMES[o]

        def get(metric):
            r = summary[(summary.metric == metric) & (summary.group == name)].iloc[0]
            return r

        p = get("chooser_points")
        rows.append({"trumps": name, "mean points": round(p.estimate, 2),
                     "95% CI": f"[{p.ci_low:.1f}, {p.ci_high:.1f}]",
                     "mean tricks": round(get("chooser_tricks").estimate, 3),
                     "P(tricks>=4)": round(get("tricks>=4").estimate, 4),
                     "P(best option)": round(get("best_option_share").estimate, 4),
                     "policy picks": round(get("policy_chooses").estimate, 4)})
    table = pd.DataFrame(rows).sort_values("mean points", ascending=False, ignore_index=True)
    table["recommended"] = ["yes"] + [""] * (len(table) - 1)
    return table


def figure(query, summary, variant):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sub = summary[summary.metric == "chooser_points"]
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.bar(sub.group, sub.estimate, yerr=[sub.estimate - sub.ci_low, sub.ci_high - sub.estimate], capsize=3)
    seen = " ".join(format_card(c) for c in query["cards"])
    ax.set_title(f"Kierki trump choice from {seen}")
    ax.set_ylabel("chooser's mean points")
    fig.tight_layout()
    return fig


TRUMP = OddsSupport(command="trump", help="expected points of each trump suit from the cards the chooser sees",
                    prepare=prepare, simulate=simulate, columns=COLUMNS, tally=tally, present=present,
                    figure=figure, batch=2000)
