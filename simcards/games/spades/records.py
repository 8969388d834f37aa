"""Spades record schemas (units ``deal`` and ``game``), tallies and figures."""
from __future__ import annotations

import numpy as np
import pandas as pd

from simcards.core.game import Column, Unit
from simcards.core import stats
from simcards.games.spades import rules

DEAL_UNIT = Unit(
    name="deal",
    plural="deals",
    columns=tuple(Column(n, h) for n, h in rules.DEAL_COLUMNS),
    help="One hand from 0-0 (scores and bag counters at zero): bids, exchange, tricks, score.",
    chunk_size=50_000,
    objective=("points", "team0"),  # what `simcards sweep` optimises by default
)
GAME_UNIT = Unit(
    name="game",
    plural="games",
    columns=tuple(Column(n, h) for n, h in rules.GAME_COLUMNS),
    help="Hands until the game ends (a match of games when match_wins > 1): winner, hands, scores, bags, sets, Nil results.",
    chunk_size=2_000,
    objective=("win_rate_team0", "all"),
)
UNITS = (DEAL_UNIT, GAME_UNIT)


def tally(unit: str, df: pd.DataFrame, variant) -> pd.DataFrame:
    """Tally rows (see ``simcards.core.stats``) for a chunk of records; metrics that
    pool both teams or all seats of a record pass ``record=`` (the record is the unit)."""
    rows = stats.TallyRows()
    if unit == "game":
        _tally_games(df, rows)
    else:
        _tally_deals(df, rows)
    return rows.frame()


def _per_team(df: pd.DataFrame, name: str) -> np.ndarray:
    """``name0`` and ``name1`` stacked (team 0 rows, then team 1 rows)."""
    return np.concatenate([df[f"{name}0"].to_numpy(), df[f"{name}1"].to_numpy()])


def _per_seat(df: pd.DataFrame, name: str) -> np.ndarray:
    return np.concatenate([df[f"{name}{s}"].to_numpy() for s in range(4)])


def _team_index(df: pd.DataFrame) -> np.ndarray:
    return np.repeat(np.arange(2), len(df))


TEAMS = ("team0", "team1")
SEATS = ("seat0", "seat1", "seat2", "seat3")
NIL_KINDS = ("nil", "blind_nil")


def _tally_deals(df: pd.DataFrame, rows: stats.TallyRows) -> None:
    teams, seats = stats.record_index(len(df), 2), stats.record_index(len(df), 4)
    contract = _per_team(df, "contract")
    made = _per_team(df, "made")
    has = made >= 0
    rows.add("bid_success", "rate", made == 1, where=has, by=contract, record=teams)
    rows.add("bid_success_all", "rate", made == 1, where=has, record=teams)
    rows.add("set_rate", "rate", made == 0, where=has, record=teams)
    rows.add("points", "mean", _per_team(df, "points"), by=_team_index(df), labels=TEAMS)
    bags = _per_team(df, "bags")
    rows.add("bags_per_team_hand", "mean", bags, record=teams)
    rows.add("bag_rate", "rate", bags > 0, record=teams)
    rows.add("bag_penalty_rate", "rate", _per_team(df, "penalties") > 0, record=teams)
    nil = _per_seat(df, "nil")
    blind = _per_seat(df, "blind")
    rows.add("nil_success", "rate", nil == 1, where=nil >= 0, by=blind, labels=NIL_KINDS, record=seats)
    # Nil bid rate per seat-hand; BN counted in its own group over the same trials
    rows.add("nil_bid_rate", "rate", (nil >= 0) & (blind == 0), group="nil", record=seats)
    rows.add("nil_bid_rate", "rate", blind == 1, group="blind_nil", record=seats)
    rows.add("tricks", "mean", _per_seat(df, "tricks"), by=np.repeat(np.arange(4), len(df)), labels=SEATS)
    rows.add("contract", "mean", contract, where=has, record=teams)
    rows.add("redeals", "mean", df["redeals"].to_numpy())


def _tally_games(df: pd.DataFrame, rows: stats.TallyRows) -> None:
    winner = df["winner"].to_numpy()
    finished = winner >= 0
    games = df["games"].to_numpy()
    hands = df["hands"].to_numpy()
    rows.add("win_rate_team0", "rate", winner == 0, where=finished)
    rows.add("unfinished_rate", "rate", ~finished)
    rows.add_ratio("hands_per_game", "mean", hands, games)
    rows.add("both_over_target", "rate", df["both_over"].to_numpy() == 1, where=finished)
    rows.add("tie_extra_hand", "rate", df["tie_hands"].to_numpy() > 0)
    team = _team_index(df)
    games2 = np.concatenate([games, games])
    hands2 = np.concatenate([hands, hands])
    rows.add("final_score", "mean", _per_team(df, "score"), by=team, labels=TEAMS)
    rows.add_ratio("sets_per_game", "mean", _per_team(df, "sets"), games2, by=team, labels=TEAMS)
    rows.add_ratio("bag_penalties_per_game", "mean", _per_team(df, "penalties"), games2, by=team, labels=TEAMS)
    # pooled ratio (total bags / total hands), not the mean of per-game ratios
    rows.add_ratio("bags_per_hand", "mean", _per_team(df, "bags_taken"), hands2, by=team, labels=TEAMS)
    both = np.arange(len(df))
    pair = np.concatenate([both, both])
    rows.add_ratio("set_rate", "rate", *_summed(pair, _per_team(df, "sets"), _per_team(df, "contracts")), group="all")
    rows.add_ratio("nil_success", "rate", *_summed(pair, _per_team(df, "nil_made"), _per_team(df, "nil_bids")),
                   group="nil")
    rows.add_ratio("nil_success", "rate", *_summed(pair, _per_team(df, "bn_made"), _per_team(df, "bn_bids")),
                   group="blind_nil")
    if (games > 1).any():
        rows.add("match_win_rate_team0", "rate", winner == 0, where=finished)


def _summed(record: np.ndarray, successes, trials):
    """Both teams' successes and trials added per record (a record is one cluster)."""
    size = int(record.max()) + 1 if len(record) else 0
    return (np.bincount(record, weights=successes, minlength=size),
            np.bincount(record, weights=trials, minlength=size))


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
            # every level from the lowest to the highest, NaN where no contract was bid: the
            # line breaks there instead of joining levels across missing data
            rows = rows.set_index("level").reindex(range(rows.level.min(), rows.level.max() + 1))
            fig, ax = plt.subplots(figsize=(7, 4))
            err = np.vstack([rows.estimate - rows.ci_low, rows.ci_high - rows.estimate])
            ax.errorbar(rows.index, rows.estimate, yerr=err, fmt="o-", capsize=3)
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
