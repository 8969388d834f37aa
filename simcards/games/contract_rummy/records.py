"""Record schemas (units ``game`` and ``deal``), tally and figures for Contract Rummy."""
from __future__ import annotations

import re

import numpy as np
import pandas as pd

from simcards.core.game import Column, Unit
from simcards.core import stats
from simcards.games.contract_rummy import rules as R
from simcards.games.contract_rummy.view import MAX_SEATS

K_MAX = 25  # P(down by own turn k) is tallied for k = 1..K_MAX

_DEAL_HEAD = [
    ("contract", "Deal number (1-based index into contracts) that was played."),
    ("sets", "Sets in the contract."),
    ("runs", "Runs in the contract."),
    ("hand_size", "Cards dealt to each player."),
    ("num_players", "Players at the table."),
    ("decks", "52-card decks in the pack."),
    ("jokers", "Jokers in the pack."),
    ("dealer", "Dealer seat (the seat to his left plays first)."),
    ("turns", "Turns played in the deal."),
    ("exhausted", "1 if the deal ended without anyone going out (2.5)."),
    ("out_seat", "Seat that went out, -1 after an exhausted end."),
    ("refills", "Times the pile was reshuffled into the stock."),
    ("stock_draws", "Draws from the stock."),
    ("top_takes", "Single top-of-pile takes."),
    ("deep_takes", "Deep takes (3.2 c)."),
    ("deep_cards", "Cards taken by deep takes."),
    ("layoffs", "Cards laid off (jokers and swapped naturals included)."),
    ("extra_melds", "Melds laid after the contract."),
    ("swaps", "Joker swaps."),
    ("buys", "Buys (3.2.1)."),
]
DEAL_COLUMNS = tuple(Column(n, h) for n, h in _DEAL_HEAD) + tuple(
    Column(f"{name}_{q}", f"{text} of seat {q} (-1 for an empty seat).")
    for name, text in (("score", "Deal penalty"), ("down_turn", "Own turn (1 = his first) the contract went down, -1 never;"),
                       ("jokers_dealt", "Jokers dealt"), ("cards_left", "Cards in hand at the end"))
    for q in range(MAX_SEATS)
)
assert len(DEAL_COLUMNS) == R.DEAL_NCOLS

_GAME_HEAD = [
    ("num_players", "Players at the table."),
    ("decks", "52-card decks in the pack."),
    ("jokers", "Jokers in the pack."),
    ("first_dealer", "Dealer of deal 1."),
    ("deals", "Deals in the game (len(contracts))."),
    ("winners", "Bitmask of the winning seats (lowest total; ties by tie_break)."),
]
GAME_COLUMNS = (
    tuple(Column(n, h) for n, h in _GAME_HEAD)
    + tuple(Column(f"total_{q}", f"Game penalty total of seat {q} (-1 for an empty seat).") for q in range(MAX_SEATS))
    + tuple(
        c
        for k in range(1, R.MAX_REC_DEALS + 1)
        for c in (
            Column(f"d{k}_turns", f"Turns in deal {k} (-1 if the game has fewer deals)."),
            Column(f"d{k}_exhausted", f"1 if deal {k} ended exhausted."),
            Column(f"d{k}_out", f"Seat that went out in deal {k}, -1 none."),
            *(Column(f"d{k}_score_{q}", f"Deal {k} penalty of seat {q}.") for q in range(MAX_SEATS)),
            *(Column(f"d{k}_down_{q}", f"Own turn seat {q} went down in deal {k}, -1 never.") for q in range(MAX_SEATS)),
        )
    )
)
assert len(GAME_COLUMNS) == R.GAME_NCOLS

UNITS = (
    # `simcards sweep` maximises the swept seat's game win rate unless told otherwise (the swept
    # policy plays seat 0 by default; `--metric game_total --minimize` for the penalty points)
    Unit("game", "games", GAME_COLUMNS, "One game of all deals (default 7) with cumulative penalties.", chunk_size=250,
         objective=("win_rate", "seat=0")),
    Unit("deal", "deals", DEAL_COLUMNS, "One deal of the contract chosen by `contract` (--contract).", chunk_size=2000,
         focus=("contract",)),
)


def _deal_rows(rows: stats.TallyRows, contract, n_players, scores, downs, exhausted, turns, cap) -> None:
    """Tally rows of one contract: scores/downs are [records, seats] arrays; rows pooling
    the seats of a record pass ``record=`` (the record is the unit); ``cap`` is the turn
    limit (its long tail is what the interval of ``turns`` must allow for)."""
    g = f"contract={contract}"
    d = downs[:, :n_players].ravel()
    seats = np.repeat(np.arange(len(downs)), n_players)
    rows.add("turns_to_down", "mean", d, where=d > 0, group=g, record=seats)
    rows.add("never_down", "rate", d < 0, group=g, record=seats)
    for k in range(1, K_MAX + 1):
        rows.add("p_down_by_turn", "rate", (d > 0) & (d <= k), group=f"{g} k={k}", record=seats)
    s = scores[:, :n_players]
    rows.add("penalty", "mean", s.ravel(), group=g, record=seats)
    for q in range(n_players):
        rows.add("penalty", "mean", s[:, q], group=f"{g} seat={q}")
    rows.add("exhausted", "rate", exhausted == 1, group=g)
    rows.add("turns", "mean", turns, group=g, cap=cap)


def tally(unit, df: pd.DataFrame, variant) -> pd.DataFrame:
    """Tally rows (see simcards.core.stats) of a chunk of records."""
    n = variant.num_players
    rows = stats.TallyRows()
    if len(df) == 0:
        return rows.frame()
    if getattr(unit, "name", unit) == "deal":
        c = int(df["contract"].iloc[0])
        scores = df[[f"score_{q}" for q in range(MAX_SEATS)]].to_numpy()
        downs = df[[f"down_turn_{q}" for q in range(MAX_SEATS)]].to_numpy()
        _deal_rows(rows, c, n, scores, downs, df["exhausted"].to_numpy(), df["turns"].to_numpy(),
                   variant.max_turns_per_deal)
        jd = df[[f"jokers_dealt_{q}" for q in range(n)]].to_numpy().ravel()
        sc = scores[:, :n].ravel()
        seats = np.repeat(np.arange(len(df)), n)
        labels = [f"contract={c} jokers={j}" for j in range(int(jd.max()) + 1)]
        rows.add("penalty_by_jokers_dealt", "mean", sc, by=jd, labels=labels, record=seats)
        went_out = np.stack([(df["out_seat"].to_numpy() == q) for q in range(n)], axis=1).ravel()
        rows.add("went_out_by_jokers_dealt", "rate", went_out, by=jd, labels=labels, record=seats)
    else:
        nd = len(variant.contracts)
        for k in range(1, min(nd, R.MAX_REC_DEALS) + 1):
            scores = df[[f"d{k}_score_{q}" for q in range(MAX_SEATS)]].to_numpy()
            downs = df[[f"d{k}_down_{q}" for q in range(MAX_SEATS)]].to_numpy()
            _deal_rows(rows, k, n, scores, downs, df[f"d{k}_exhausted"].to_numpy(), df[f"d{k}_turns"].to_numpy(),
                       variant.max_turns_per_deal)
        totals = df[[f"total_{q}" for q in range(n)]].to_numpy()
        rows.add("game_total", "mean", totals.ravel(), group="all", record=np.repeat(np.arange(len(df)), n))
        win = df["winners"].to_numpy()
        for q in range(n):
            rows.add("game_total", "mean", totals[:, q], group=f"seat={q}")
            rows.add("win_rate", "rate", (win >> q) & 1, group=f"seat={q}")
    return rows.frame()


_GROUP = re.compile(r"contract=(\d+) k=(\d+)")


def figures(unit, summary: pd.DataFrame, variant) -> dict:
    """P(down by own turn k) per contract, and the mean penalty per contract."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figs = {}
    p = summary[summary["metric"] == "p_down_by_turn"]
    if len(p):
        fig, ax = plt.subplots(figsize=(7, 4.5))
        parsed = p["group"].str.extract(_GROUP).astype(int)
        data = p.assign(contract=parsed[0].to_numpy(), k=parsed[1].to_numpy())
        codes = list(variant.contracts)
        for c, g in data.groupby("contract"):
            g = g.sort_values("k")
            label = f"deal {c} ({codes[c - 1]})" if c - 1 < len(codes) else f"deal {c}"
            ax.plot(g["k"], g["estimate"], marker="o", ms=3, label=label)
            ax.fill_between(g["k"], g["ci_low"], g["ci_high"], alpha=0.15)
        ax.set_xlabel("own turn k")
        ax.set_ylabel("P(contract down by turn k)")
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, title="contract (sets-runs)")
        ax.set_title("Contract Rummy: probability of being down by turn k")
        fig.tight_layout()
        figs["p_down_by_turn"] = fig
    pen = summary[(summary["metric"] == "penalty") & ~summary["group"].str.contains("seat")]
    if len(pen):
        fig, ax = plt.subplots(figsize=(6, 4))
        c = pen["group"].str.extract(r"contract=(\d+)")[0].astype(int)
        order = np.argsort(c.to_numpy())
        est = pen["estimate"].to_numpy()[order]
        lo = pen["ci_low"].to_numpy()[order]
        hi = pen["ci_high"].to_numpy()[order]
        ax.bar(c.to_numpy()[order], est, yerr=[est - lo, hi - est], capsize=3)
        ax.set_xlabel("deal")
        ax.set_ylabel("mean penalty per player")
        ax.set_title("Contract Rummy: mean penalty by contract")
        fig.tight_layout()
        figs["penalty_by_contract"] = fig
    return figs
