"""Spades record schemas (units ``deal`` and ``game``), tallies and figures."""
from __future__ import annotations

import numpy as np
import pandas as pd

from simcards.core.game import Column, Unit
from simcards.experiment import stats
from simcards.games.spades import rules

DEAL_UNIT = Unit(
    name="deal",
    plural="deals",
    columns=tuple(Column(n, h) for n, h in rules.DEAL_COLUMNS),
    help="One hand from 0-0 (scores and bag counters at zero): bids, exchange, tricks, score.",
    chunk_size=50_000,
)
GAME_UNIT = Unit(
    name="game",
    plural="games",
    columns=tuple(Column(n, h) for n, h in rules.GAME_COLUMNS),
    help="Hands until the game ends (a match of games when match_wins > 1): winner, hands, scores, bags, sets, Nil results.",
    chunk_size=2_000,
)
UNITS = (DEAL_UNIT, GAME_UNIT)


def tally(unit: str, df: pd.DataFrame, variant) -> pd.DataFrame:
    """Additive tally rows (see ``simcards.experiment.stats``) for a chunk of records."""
    if unit == "game":
        return _tally_games(df)
    return _tally_deals(df)


def _per_team(df: pd.DataFrame, name: str) -> pd.Series:
    """Stack ``name0`` and ``name1`` into one Series (team 0 rows, then team 1 rows)."""
    return pd.concat([df[f"{name}0"], df[f"{name}1"]], ignore_index=True)


def _tally_deals(df: pd.DataFrame) -> pd.DataFrame:
    parts = []
    contract = _per_team(df, "contract")
    made = _per_team(df, "made")
    has_contract = made >= 0
    parts.append(stats.rate("bid_success", made == 1, by=contract, where=has_contract))
    parts.append(stats.rate("bid_success_all", made == 1, where=has_contract))
    parts.append(stats.rate("set_rate", made == 0, where=has_contract))
    for t in range(2):
        parts.append(stats.mean("points", df[f"points{t}"], by=pd.Series([f"team{t}"] * len(df))))
    bags = _per_team(df, "bags")
    parts.append(stats.mean("bags_per_team_hand", bags))
    parts.append(stats.rate("bag_rate", bags > 0))
    parts.append(stats.rate("bag_penalty_rate", _per_team(df, "penalties") > 0))
    nil = pd.concat([df[f"nil{s}"] for s in range(4)], ignore_index=True)
    blind = pd.concat([df[f"blind{s}"] for s in range(4)], ignore_index=True)
    kind = np.where(blind == 1, "blind_nil", "nil")
    parts.append(stats.rate("nil_success", nil == 1, by=pd.Series(kind), where=nil >= 0))
    parts.append(stats.rate("nil_bid_rate", nil >= 0, by=pd.Series(kind)))
    for s in range(4):
        parts.append(stats.mean("tricks", df[f"tricks{s}"], by=pd.Series([f"seat{s}"] * len(df))))
    parts.append(stats.mean("contract", contract, where=has_contract))
    parts.append(stats.mean("redeals", df["redeals"]))
    return stats.combine(parts)


def _tally_games(df: pd.DataFrame) -> pd.DataFrame:
    parts = []
    finished = df["winner"] >= 0
    parts.append(stats.rate("win_rate_team0", df["winner"] == 0, where=finished))
    parts.append(stats.rate("unfinished_rate", ~finished))
    parts.append(stats.mean("hands_per_game", df["hands"] / df["games"]))
    parts.append(stats.rate("both_over_target", df["both_over"] == 1, where=finished))
    parts.append(stats.rate("tie_extra_hand", df["tie_hands"] > 0))
    for t in range(2):
        g = pd.Series([f"team{t}"] * len(df))
        parts.append(stats.mean("final_score", df[f"score{t}"], by=g))
        parts.append(stats.mean("sets_per_game", df[f"sets{t}"] / df["games"], by=g))
        parts.append(stats.mean("bag_penalties_per_game", df[f"penalties{t}"] / df["games"], by=g))
        parts.append(stats.mean("bags_per_hand", df[f"bags_taken{t}"] / df["hands"], by=g))
    contracts = _per_team(df, "contracts")
    sets = _per_team(df, "sets")
    parts.append(_counts("set_rate", sets, contracts, "all"))
    for kind, bids, made in (("nil", "nil_bids", "nil_made"), ("blind_nil", "bn_bids", "bn_made")):
        parts.append(_counts("nil_success", _per_team(df, made), _per_team(df, bids), kind))
    if (df["games"] > 1).any():
        parts.append(stats.rate("match_win_rate_team0", df["winner"] == 0, where=finished))
    return stats.combine(parts)


def _counts(metric: str, successes: pd.Series, trials: pd.Series, group: str) -> pd.DataFrame:
    """A rate row from per-record success and trial counts."""
    s = float(successes.sum())
    return pd.DataFrame([{"metric": metric, "group": group, "kind": "rate", "n": int(trials.sum()),
                          "sum": s, "sumsq": s}])[stats.TALLY_COLUMNS]


def figures(unit: str, summary: pd.DataFrame, variant) -> dict:
    """Matplotlib figures: bid success by contract (deal), win rate and game length (game)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = {}
    if unit == "deal":
        rows = summary[(summary.metric == "bid_success") & (summary.n > 0)].copy()
        if len(rows):
            rows["level"] = rows["group"].astype(int)
            rows = rows.sort_values("level")
            fig, ax = plt.subplots(figsize=(7, 4))
            err = np.vstack([rows.estimate - rows.ci_low, rows.ci_high - rows.estimate])
            ax.errorbar(rows.level, rows.estimate, yerr=err, fmt="o-", capsize=3)
            ax.set_xlabel("team contract (tricks bid)")
            ax.set_ylabel("contracts made")
            ax.set_ylim(0, 1.02)
            ax.set_title("Spades: bid success by bid level (95 % intervals)")
            ax.grid(alpha=0.3)
            out["bid_success_by_level"] = fig
        nil = summary[(summary.metric == "nil_success") & (summary.n > 0)]
        if len(nil):
            fig, ax = plt.subplots(figsize=(5, 4))
            err = np.vstack([nil.estimate - nil.ci_low, nil.ci_high - nil.estimate])
            ax.bar(nil.group, nil.estimate, yerr=err, capsize=4)
            ax.set_ylim(0, 1)
            ax.set_ylabel("success rate")
            ax.set_title("Nil and Blind Nil success")
            out["nil_success"] = fig
    else:
        rows = summary[summary.metric.isin(["win_rate_team0", "unfinished_rate"]) & (summary.n > 0)]
        if len(rows):
            fig, ax = plt.subplots(figsize=(5, 4))
            err = np.vstack([rows.estimate - rows.ci_low, rows.ci_high - rows.estimate])
            ax.bar(rows.metric, rows.estimate, yerr=err, capsize=4)
            ax.axhline(0.5, color="grey", lw=0.8, ls="--")
            ax.set_ylim(0, 1)
            ax.set_title("Spades games: team 0 win rate")
            out["win_rate"] = fig
    return out
