"""Cutthroat Spades record schemas (units), tallies and figures.

Per-seat columns exist for five seats; seats beyond ``num_players`` hold -1.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simcards.core.game import Column, Unit
from simcards.core import stats
from simcards.games.cutthroat.layout import B_1F, B_2F, B_B6, B_BN, B_SM, KIND_NAMES, KIND_OF_CODE, K_ORDINARY, NIL
from simcards.games.cutthroat.rules import DEAL_COLUMNS, GAME_COLUMNS, KIND_COLS, TOURNAMENT_COLUMNS
from simcards.games.cutthroat.variant import form_of

_BID_HELP = "bid code: 0 NIL, 1..T ordinary, 21 1F, 22 2F, 26 B6, 30 BN, 40 SM"
_HELP = {
    "dealer": "dealer seat",
    "first_leader": "seat that led trick 1",
    "redeals": "deficient-hand redeals before play",
    "bid": _BID_HELP,
    "tricks": "tricks won",
    "delta": "points scored this hand (bag penalty and prize jacks included)",
    "bags": "bags taken this hand",
    "jacks": "prize jacks captured: 1 JC + 2 JD + 4 JH",
    "trumps": "trumps (spades and jokers) dealt",
    "top_trumps": "jokers, AS, KS, QS dealt",
    "aces": "side-suit aces dealt",
    "voids": "side suits void at the deal",
    "winner": "winning seat, -1 if unfinished (max_hands reached)",
    "hands": "hands played",
    "first_dealer": "dealer of the first hand",
    "last_dealer": "dealer of the last hand",
    "over_target": "players at or above the target at the end",
    "tie_hands": "hands after which the top score was at the target but shared",
    "score": "final score",
    "bagouts": "bag-outs: times the bag counter reached bag_limit (bag_mode=accumulate; also when the penalty per bag is 0)",
    "b6_bids": "B6 bids made",
    "games": "games played (an unfinished game ends the tournament with winner -1)",
    "tokens": "win tokens at the end",
}


def _column(name: str) -> Column:
    if name.startswith(("n_", "made_")):
        what, kind = name.split("_", 1)
        return Column(name, ("bids" if what == "n" else "successful bids") + f" of kind {kind} (all seats)")
    base, _, seat = name.rpartition("_")
    if base in _HELP and seat.isdigit():
        return Column(name, f"seat {seat}: {_HELP[base]}")
    return Column(name, _HELP[name])


def _unit(name, plural, columns, help, chunk, objective=None):
    return Unit(name, plural, tuple(_column(c) for c in columns), help, chunk, objective=objective)


UNITS = (
    # chunk sizes: a few tenths of a second of work on one core
    _unit("deal", "deals", DEAL_COLUMNS, "one hand from 0-0 scores: bids, tricks, points, hand features", 100_000),
    _unit("game", "games", GAME_COLUMNS, "one game to the target score (ties play on)", 5_000,
          objective=("win_share", "seat 0")),
    _unit("tournament", "tournaments", TOURNAMENT_COLUMNS, "games until a player holds tournament_wins tokens", 500),
)


# ---------------------------------------------------------------- tallies


def made(bid: np.ndarray, tricks: np.ndarray, variant) -> np.ndarray:
    """Whether each bid succeeded (exact count for Nil/BN/1F/2F, at least for the others)."""
    f = form_of(variant)
    return np.select(
        [(bid == NIL) | (bid == B_BN), bid == B_1F, bid == B_2F, bid == B_B6, bid == B_SM],
        [tricks == 0, tricks == 1, tricks == 2, tricks >= variant.blind_six_tricks, tricks >= f.shoot_moon_min_tricks],
        tricks >= bid,
    )


def kind_of(bid: np.ndarray) -> np.ndarray:
    """Bid kind index (layout.K_*) of each bid code."""
    return KIND_OF_CODE[np.asarray(bid, dtype=np.int64)]


def _seat_frame(df: pd.DataFrame, n: int, names) -> pd.DataFrame:
    """Long table: one row per (record, seat) with the per-seat columns ``names`` and
    ``record``, the record's index in ``df`` (the unit of sampling)."""
    parts = []
    for s in range(n):
        part = pd.DataFrame({c: df[f"{c}_{s}"].to_numpy() for c in names})
        part["seat"] = s
        part["record"] = np.arange(len(df))
        if "dealer" in df:
            part["pos"] = (s - df["dealer"].to_numpy() - 1) % n
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def _position_name(pos: int, n: int) -> str:
    return "dealer" if pos == n - 1 else f"bidder {pos + 1}"


def _bid_rows(rows: stats.TallyRows, kinds: np.ndarray, success: np.ndarray, record: np.ndarray) -> None:
    names = list(KIND_NAMES)
    rows.add("bid_success", "rate", success, by=kinds, labels=names, record=record)
    for k, name in enumerate(names):
        rows.add("bid_choice", "rate", kinds == k, group=name, record=record)


def tally(unit: str, df: pd.DataFrame, variant) -> pd.DataFrame:
    """Tally rows for one chunk of records (see simcards.core.stats); rows pooling
    every seat of a record pass ``record=`` (the record, not the seat, is the unit)."""
    n = variant.num_players
    rows = stats.TallyRows()
    if unit == "deal":
        long = _seat_frame(df, n, ["bid", "tricks", "delta", "bags"])
        bid, tricks = long["bid"].to_numpy(), long["tricks"].to_numpy()
        record = long["record"].to_numpy()
        ok = made(bid, tricks, variant)
        _bid_rows(rows, kind_of(bid), ok, record)
        seat, pos, delta = long["seat"].to_numpy(), long["pos"].to_numpy(), long["delta"].to_numpy()
        seat_names = [f"seat {s}" for s in range(n)]
        rows.add("score", "mean", delta, by=seat, labels=seat_names)
        rows.add("score_by_position", "mean", delta, by=pos, labels=[_position_name(q, n) for q in range(n)])
        rows.add("tricks", "mean", tricks, by=seat, labels=seat_names)
        rows.add("bags", "mean", long["bags"].to_numpy(), record=record)
        ordinary = kind_of(bid) == K_ORDINARY
        rows.add("ordinary_success_by_bid", "rate", ok, where=ordinary, by=bid, labels=[f"{k:02d}" for k in range(18)],
                 record=record)
        return rows.frame()
    if unit == "game":
        chosen = {name: df[f"n_{name}"].to_numpy() for name in KIND_COLS}
        total = sum(chosen.values())
        for k, name in enumerate(KIND_COLS):
            rows.add_ratio("bid_success", "rate", df[f"made_{name}"].to_numpy(), chosen[name], group=KIND_NAMES[k])
            rows.add_ratio("bid_choice", "rate", chosen[name], total, group=KIND_NAMES[k])
        _win_rows(rows, df, n, "first_dealer")
        for s in range(n):
            rows.add("final_score", "mean", df[f"score_{s}"].to_numpy(), group=f"seat {s}")
        rows.add("game_length", "mean", df["hands"].to_numpy())
        rows.add("unfinished", "rate", df["winner"].to_numpy() < 0)
        rows.add("tie_played_on", "rate", df["tie_hands"].to_numpy() > 0)
        rows.add("several_past_target", "rate", df["over_target"].to_numpy() >= 2)
        players = stats.record_index(len(df), n)
        bagouts = np.concatenate([df[f"bagouts_{s}"].to_numpy() for s in range(n)])
        rows.add("bagouts_per_player", "mean", bagouts, record=players)
        b6 = np.concatenate([df[f"b6_bids_{s}"].to_numpy() for s in range(n)])
        rows.add("b6_bids_per_player", "mean", b6, record=players)
        return rows.frame()
    if unit == "tournament":
        _win_rows(rows, df, n, "first_dealer")
        rows.add("tournament_length", "mean", df["games"].to_numpy())
        rows.add("tournament_hands", "mean", df["hands"].to_numpy())
        rows.add("unfinished", "rate", df["winner"].to_numpy() < 0)
        return rows.frame()
    raise ValueError(f"unknown unit {unit}")


def _win_rows(rows: stats.TallyRows, df: pd.DataFrame, n: int, first_dealer: str) -> None:
    """Win share by seat and by position after the first dealer (1 = first bidder)."""
    winner = df["winner"].to_numpy()
    pos = np.where(winner >= 0, (winner - df[first_dealer].to_numpy() - 1) % n, -1)
    for s in range(n):
        rows.add("win_share", "rate", winner == s, group=f"seat {s}")
        rows.add("win_share_by_position", "rate", pos == s, group=_position_name(s, n))


# ---------------------------------------------------------------- figures


def _bars(ax, rows: pd.DataFrame, title: str, ylabel: str):
    rows = rows[rows["n"] > 0]
    order = {name: i for i, name in enumerate(KIND_NAMES)}  # bid kinds in rules order
    rows = rows.assign(_o=rows["group"].map(lambda g: order.get(g, len(order)))).sort_values(["_o", "group"])
    x = np.arange(len(rows))
    est = rows["estimate"].to_numpy()
    err = np.vstack([est - rows["ci_low"].to_numpy(), rows["ci_high"].to_numpy() - est])
    ax.bar(x, est, yerr=err, capsize=4, color="#4477aa")
    ax.set_xticks(x, [f"{g}\n(n={n})" for g, n in zip(rows["group"], rows["n"])], fontsize=8)
    ax.set_title(title)
    ax.set_ylabel(ylabel)


def figures(unit: str, summary: pd.DataFrame, variant) -> dict:
    """Bid success and choice by bid type (deal, game); points (deal) and win share (game,
    tournament) by seat and by seat position."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figs = {}
    for metric, title, ylabel in (("bid_success", "Bid success by bid type (95 % CI)", "success rate"),
                                  ("bid_choice", "How often each bid type is chosen", "share of bids"),
                                  ("win_share", "Win share by seat (95 % CI)", "share of wins"),
                                  ("score_by_position", "Points per hand by seat position (95 % CI)", "points"),
                                  ("win_share_by_position", "Win share by position after the first dealer",
                                   "share of wins")):
        rows = summary[summary["metric"] == metric]
        if len(rows) and (rows["n"] > 0).any():
            fig, ax = plt.subplots(figsize=(7, 3.5))
            _bars(ax, rows, title, ylabel)
            figs[metric] = fig
    return figs
