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
    rows: list[tuple] = []
    if unit == "game":
        _tally_games(df, rows)
    else:
        _tally_deals(df, rows)
    out = pd.DataFrame(rows, columns=stats.TALLY_COLUMNS)
    out["n"] = out["n"].astype("int64")
    return out


def _add(rows, metric, kind, values, where=None, groups=None, labels=None):
    """Append tally rows: ``values`` (bools for rates) split by integer ``groups``.

    Computed with numpy bincount: the tally of a 50,000-record chunk takes milliseconds.
    """
    values = np.asarray(values, dtype=np.float64)
    if where is not None:
        where = np.asarray(where, dtype=bool)
        values = values[where]
        groups = None if groups is None else np.asarray(groups)[where]
    if groups is None:
        rows.append((metric, stats.ALL, kind, len(values), float(values.sum()), float((values * values).sum())))
        return
    groups = np.asarray(groups, dtype=np.int64)
    if len(groups) == 0:
        return
    lo = int(groups.min())
    g = groups - lo
    n = np.bincount(g)
    total = np.bincount(g, weights=values)
    squares = np.bincount(g, weights=values * values)
    for i in np.nonzero(n)[0]:
        label = labels[i + lo] if labels is not None else str(i + lo)
        rows.append((metric, label, kind, int(n[i]), float(total[i]), float(squares[i])))


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


def _tally_deals(df: pd.DataFrame, rows: list) -> None:
    contract = _per_team(df, "contract")
    made = _per_team(df, "made")
    has = made >= 0
    _add(rows, "bid_success", "rate", made == 1, where=has, groups=contract)
    _add(rows, "bid_success_all", "rate", made == 1, where=has)
    _add(rows, "set_rate", "rate", made == 0, where=has)
    _add(rows, "points", "mean", _per_team(df, "points"), groups=_team_index(df), labels=TEAMS)
    bags = _per_team(df, "bags")
    _add(rows, "bags_per_team_hand", "mean", bags)
    _add(rows, "bag_rate", "rate", bags > 0)
    _add(rows, "bag_penalty_rate", "rate", _per_team(df, "penalties") > 0)
    nil = _per_seat(df, "nil")
    blind = _per_seat(df, "blind")
    _add(rows, "nil_success", "rate", nil == 1, where=nil >= 0, groups=blind, labels=NIL_KINDS)
    # Nil bid rate per seat-hand; BN counted in its own group over the same trials
    n = len(nil)
    rows.append(("nil_bid_rate", "nil", "rate", n, float(((nil >= 0) & (blind == 0)).sum()),
                 float(((nil >= 0) & (blind == 0)).sum())))
    rows.append(("nil_bid_rate", "blind_nil", "rate", n, float((blind == 1).sum()), float((blind == 1).sum())))
    _add(rows, "tricks", "mean", _per_seat(df, "tricks"), groups=np.repeat(np.arange(4), len(df)), labels=SEATS)
    _add(rows, "contract", "mean", contract, where=has)
    _add(rows, "redeals", "mean", df["redeals"].to_numpy())


def _tally_games(df: pd.DataFrame, rows: list) -> None:
    winner = df["winner"].to_numpy()
    finished = winner >= 0
    games = df["games"].to_numpy()
    _add(rows, "win_rate_team0", "rate", winner == 0, where=finished)
    _add(rows, "unfinished_rate", "rate", ~finished)
    _add(rows, "hands_per_game", "mean", df["hands"].to_numpy() / games)
    _add(rows, "both_over_target", "rate", df["both_over"].to_numpy() == 1, where=finished)
    _add(rows, "tie_extra_hand", "rate", df["tie_hands"].to_numpy() > 0)
    team = _team_index(df)
    games2 = np.concatenate([games, games])
    hands2 = np.concatenate([df["hands"].to_numpy()] * 2)
    _add(rows, "final_score", "mean", _per_team(df, "score"), groups=team, labels=TEAMS)
    _add(rows, "sets_per_game", "mean", _per_team(df, "sets") / games2, groups=team, labels=TEAMS)
    _add(rows, "bag_penalties_per_game", "mean", _per_team(df, "penalties") / games2, groups=team, labels=TEAMS)
    _add(rows, "bags_per_hand", "mean", _per_team(df, "bags_taken") / hands2, groups=team, labels=TEAMS)
    _counts(rows, "set_rate", "all", _per_team(df, "sets"), _per_team(df, "contracts"))
    _counts(rows, "nil_success", "nil", _per_team(df, "nil_made"), _per_team(df, "nil_bids"))
    _counts(rows, "nil_success", "blind_nil", _per_team(df, "bn_made"), _per_team(df, "bn_bids"))
    if (games > 1).any():
        _add(rows, "match_win_rate_team0", "rate", winner == 0, where=finished)


def _counts(rows: list, metric: str, group: str, successes, trials) -> None:
    """A rate row from per-record success and trial counts."""
    s = float(np.sum(successes))
    n = int(np.sum(trials))
    if n:
        rows.append((metric, group, "rate", n, s, s))


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
