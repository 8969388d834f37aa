"""Kierki records: the `game` and `deal` units, their columns, tally and figures."""
from __future__ import annotations

import numpy as np
import pandas as pd

from simcards.core.game import Column, Unit
from simcards.core import stats
from simcards.games.kierki import rules as R
from simcards.games.kierki.variant import DEAL_TYPES

SEATS = "NESW"
POSITIONS = ("dealer", "left", "opposite", "right")  # seat relative to the dealer (left = next clockwise)
SUITS = "CDHS"


def _game_columns() -> tuple[Column, ...]:
    cols = [Column("first_dealer", "seat of the dealer of deal 1 (0=N, 1=E, 2=S, 3=W)")]
    cols += [Column(f"total_{s}", f"final game total of seat {s} ({SEATS[s]})") for s in range(4)]
    cols += [Column(f"neg_{s}", f"seat {s}: points from negative deals (first half)") for s in range(4)]
    cols += [Column(f"trumps_{s}", f"seat {s}: points from trump deals") for s in range(4)]
    cols += [Column(f"lottery_{s}", f"seat {s}: points from lotteries") for s in range(4)]
    for t in DEAL_TYPES:
        cols += [Column(f"pts_{t}_{p}", f"{t}: points of the {p} seat (relative to each deal's dealer), "
                                        f"summed over the game's {t} deals") for p in POSITIONS]
    cols += [Column(f"n_{t}", f"number of {t} deals in the game") for t in DEAL_TYPES]
    for k in range(1, 5):
        cols += [
            Column(f"tr{k}_suit", f"trump deal {k}: suit chosen (0 C, 1 D, 2 H, 3 S, -1 no trumps, -2 no such deal)"),
            Column(f"tr{k}_seen", f"trump deal {k}: cards of the trump suit among the chooser's choice cards"),
            Column(f"tr{k}_full", f"trump deal {k}: cards of the trump suit in the chooser's full hand"),
            Column(f"tr{k}_tricks", f"trump deal {k}: tricks won by the chooser"),
        ]
    cols += [Column(f"sevens_{s}", f"first lottery: opening-rank cards (7s) dealt to seat {s} (-1 no lottery)")
             for s in range(4)]
    cols += [Column(f"place_{s}", f"first lottery: finishing place of seat {s} (0 not placed, -1 no lottery)")
             for s in range(4)]
    cols += [Column("tricks_played", "tricks played in the whole game (fewer with early_stop)")]
    assert len(cols) == R.GAME_LEN
    return tuple(cols)


def _deal_columns() -> tuple[Column, ...]:
    cols = [Column("deal_type", "deal type code: " + ", ".join(f"{i} {t}" for i, t in enumerate(DEAL_TYPES))),
            Column("dealer", "dealer seat (0=N, 1=E, 2=S, 3=W)"),
            Column("first_player", "seat that leads trick 1 / takes the first lottery turn")]
    cols += [Column(f"score_{s}", f"points of seat {s} in the deal") for s in range(4)]
    cols += [Column(f"tricks_{s}", f"tricks won by seat {s} (0 in the lottery)") for s in range(4)]
    cols += [Column("trump", "trump suit (0 C, 1 D, 2 H, 3 S, -1 no trumps, -2 not a trump deal)"),
             Column("chooser", "seat that chose trumps (-1 not a trump deal)"),
             Column("trump_seen", "trump cards among the chooser's choice cards (-1 n/a)"),
             Column("trump_full", "trump cards in the chooser's full hand (-1 n/a)")]
    cols += [Column(f"sevens_{s}", f"opening-rank cards (7s) dealt to seat {s}") for s in range(4)]
    cols += [Column(f"place_{s}", f"lottery finishing place of seat {s} (0 not placed)") for s in range(4)]
    cols += [Column("tricks_played", "tricks played (fewer with early_stop; 0 in the lottery)"),
             Column("turns", "lottery turns taken, passes included (0 in trick deals)")]
    assert len(cols) == R.RES_LEN
    return tuple(cols)


UNITS = (
    Unit("game", "games", _game_columns(), "one whole game of Kierki (12 deals in the standard form)",
         chunk_size=5_000, objective=("win_share", "seat 0")),
    Unit("deal", "deals", _deal_columns(), "one deal of the type set by deal_type (not a rule)",
         chunk_size=50_000, focus=("deal_type",)),
)


# ---------------------------------------------------------------- tally

def _by_position(df: pd.DataFrame, prefix: str, ref: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """``[(k, values of the seat at position k from ref)]`` for columns ``prefix0..3``."""
    m = df[[f"{prefix}{s}" for s in range(4)]].to_numpy()
    rows = np.arange(len(df))
    return [(k, m[rows, (ref + k) % 4]) for k in range(4)]


TOTAL_THRESHOLDS = (-1500, -1000, -500, 0, 500, 1000)


class _Rows(stats.TallyRows):
    """``mean``/``rate`` rows with the group first; ``record`` ties a record's observations."""

    def mean(self, metric, group, values, record=None):
        self.add(metric, "mean", values, group=group, record=record)

    def rate(self, metric, group, hits, record=None):
        self.add(metric, "rate", np.asarray(hits, dtype=bool), group=group, record=record)


def tally(unit: str, df: pd.DataFrame, variant) -> pd.DataFrame:
    """Mergeable tally rows (see simcards.core.stats) of a chunk of records; rows
    pooling several seats or deals of one record pass ``record=``."""
    rows = _Rows()
    if len(df) == 0:
        return rows.frame()
    if unit == "game":
        _tally_games(df, variant, rows)
    else:
        _tally_deals(df, variant, rows)
    return rows.frame()


def _tally_games(df, variant, rows):
    d0 = df["first_dealer"].to_numpy()
    for t in DEAL_TYPES:
        n = df[f"n_{t}"].to_numpy()
        if n.max() == 0:
            continue
        for p in POSITIONS:
            rows.mean("points_per_deal", f"{t}:{p}", df[f"pts_{t}_{p}"].to_numpy() / np.maximum(n, 1))
    totals = df[[f"total_{s}" for s in range(4)]].to_numpy()
    best = totals.max(axis=1, keepdims=True)
    share = (totals == best) / (totals == best).sum(axis=1, keepdims=True)
    for s in range(4):
        rows.mean("total", f"seat {s}", totals[:, s])
        rows.mean("win_share", f"seat {s}", share[:, s])
    for k, vals in _by_position(df, "total_", d0):
        g = f"first_dealer+{k}"
        rows.mean("total", g, vals)
        rows.mean("win_share", g, share[np.arange(len(df)), (d0 + k) % 4])
        for x in TOTAL_THRESHOLDS:
            rows.rate(f"total<={x}", g, vals <= x)
    for part in ("neg", "trumps", "lottery"):
        for k, vals in _by_position(df, f"{part}_", d0):
            rows.mean(f"{part}_points", f"first_dealer+{k}", vals)
    # comeback value: win share given the first-half rank
    neg = df[[f"neg_{s}" for s in range(4)]].to_numpy()
    rank = (neg[:, :, None] < neg[:, None, :]).sum(axis=2)  # 0 = best first half
    for r in range(4):
        sel = rank == r  # ties: several seats of a game share a rank
        rows.mean("win_share_by_first_half_rank", f"rank {r + 1}", share[sel], record=np.nonzero(sel)[0])
    # trump choice: chooser tricks against the length of the chosen suit
    seen = df[[f"tr{k}_seen" for k in range(1, 5)]].to_numpy().ravel()
    full = df[[f"tr{k}_full" for k in range(1, 5)]].to_numpy().ravel()
    suit = df[[f"tr{k}_suit" for k in range(1, 5)]].to_numpy().ravel()
    tricks = df[[f"tr{k}_tricks" for k in range(1, 5)]].to_numpy().ravel()
    four = np.repeat(np.arange(len(df)), 4)  # record of each raveled (game, trump deal or seat) value
    _tally_trumps(rows, suit, seen, full, tricks, variant, four)
    sevens = df[[f"sevens_{s}" for s in range(4)]].to_numpy().ravel()
    place = df[[f"place_{s}" for s in range(4)]].to_numpy().ravel()
    _tally_lottery(rows, sevens, place, len(variant.lottery_awards), four)
    rows.mean("tricks_played", "all", df["tricks_played"].to_numpy())


def _tally_trumps(rows, suit, seen, full, tricks, variant, record=None):
    """Chooser's points by suit length and the suit chosen; ``record``: the record of each
    value (a game holds several trump deals)."""
    ok = suit > -2
    if not ok.any():
        return
    rec = None if record is None else record[ok]
    pts = tricks[ok] * variant.points_per_trump_trick
    rows.add("chooser_points", "mean", pts, group="all", record=rec)
    rows.add("chooser_points", "mean", pts, by=seen[ok], prefix="seen_len=", record=rec)
    rows.add("chooser_points", "mean", pts, by=full[ok], prefix="full_len=", record=rec)
    for s in (-1, 0, 1, 2, 3):
        rows.rate("trump_suit", "no trumps" if s < 0 else SUITS[s], suit[ok] == s, record=rec)


def _tally_lottery(rows, sevens, place, n_awards, record):
    """Lottery places by 7s held (``record``: the record of each seat's value)."""
    ok = place >= 0
    if not ok.any():
        return
    kw = dict(by=sevens, where=ok, prefix="sevens=", record=record)
    rows.add("lottery_first_out", "rate", place == 1, **kw)
    rows.add("lottery_second_out", "rate", place == 2, **kw)
    # players who are not placed share the remaining places: their mean place
    rest = (n_awards + 1 + 4) / 2
    rows.add("lottery_place", "mean", np.where(place == 0, rest, place), **kw)


def _tally_deals(df, variant, rows):
    dealer = df["dealer"].to_numpy()
    dt = DEAL_TYPES[int(df["deal_type"].iloc[0])]
    for k, vals in _by_position(df, "score_", dealer):
        p = POSITIONS[k]
        rows.mean("points_per_deal", f"{dt}:{p}", vals)
        rows.rate("zero_points", f"{dt}:{p}", vals == 0)
        if dt == "robber":
            rows.rate("points<=-500", f"{dt}:{p}", vals <= -500)
    if dt != "lottery":
        for k, vals in _by_position(df, "tricks_", dealer):
            rows.mean("tricks", f"{dt}:{POSITIONS[k]}", vals)
        rows.mean("tricks_played", dt, df["tricks_played"].to_numpy())
    if dt == "trumps":
        ch = df["chooser"].to_numpy()
        tricks = df[[f"tricks_{s}" for s in range(4)]].to_numpy()[np.arange(len(df)), ch]
        _tally_trumps(rows, df["trump"].to_numpy(), df["trump_seen"].to_numpy(), df["trump_full"].to_numpy(),
                      tricks, variant)
    if dt == "lottery":
        sevens = df[[f"sevens_{s}" for s in range(4)]].to_numpy().ravel()
        place = df[[f"place_{s}" for s in range(4)]].to_numpy().ravel()
        _tally_lottery(rows, sevens, place, len(variant.lottery_awards), np.repeat(np.arange(len(df)), 4))
        first = df["first_player"].to_numpy()
        for k, vals in _by_position(df, "place_", first):
            rows.rate("lottery_first_out", f"turn order {k + 1}", vals == 1)
            rows.rate("lottery_second_out", f"turn order {k + 1}", vals == 2)
        rows.mean("lottery_turns", "all", df["turns"].to_numpy())


# ---------------------------------------------------------------- figures

def figures(unit: str, summary: pd.DataFrame, variant) -> dict:
    """``{"points_by_position": Figure}`` (+ lottery / trump figures when present)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figs = {}
    pts = summary[summary["metric"] == "points_per_deal"]
    if len(pts):
        types = [t for t in DEAL_TYPES if any(pts["group"].str.startswith(t + ":"))]
        fig, ax = plt.subplots(figsize=(max(5, 1.3 * len(types) + 2), 4))
        width = 0.2
        for k, p in enumerate(POSITIONS):
            xs, ys, lo, hi = [], [], [], []
            for i, t in enumerate(types):
                row = pts[pts["group"] == f"{t}:{p}"]
                if len(row):
                    r = row.iloc[0]
                    xs.append(i + (k - 1.5) * width)
                    ys.append(r["estimate"])
                    lo.append(r["estimate"] - r["ci_low"])
                    hi.append(r["ci_high"] - r["estimate"])
            ax.bar(xs, ys, width, yerr=[lo, hi], label=p, capsize=2)
        ax.set_xticks(range(len(types)))
        ax.set_xticklabels(types, rotation=30, ha="right")
        ax.axhline(0, color="black", lw=0.5)
        ax.set_ylabel("mean points per deal")
        ax.set_title("Kierki: mean points per deal type by position from the dealer")
        ax.legend(title="position")
        fig.tight_layout()
        figs["points_by_position"] = fig
    for metric, name, title in (("chooser_points", "trump_choice", "Trump chooser's points by trumps seen"),
                                ("lottery_first_out", "lottery_first_out", "P(first out) by 7s held")):
        sub = summary[(summary["metric"] == metric)
                      & summary["group"].str.contains("seen_len=|sevens=", regex=True)]
        if len(sub):
            fig, ax = plt.subplots(figsize=(5, 3.5))
            ax.errorbar(sub["group"], sub["estimate"],
                        yerr=[sub["estimate"] - sub["ci_low"], sub["ci_high"] - sub["estimate"]], fmt="o", capsize=3)
            ax.set_title("Kierki: " + title)
            fig.tight_layout()
            figs[name] = fig
    return figs


def records_frame(unit: str, records: np.ndarray) -> pd.DataFrame:
    """Records as a DataFrame with the unit's column names."""
    u = UNITS[0] if unit == "game" else UNITS[1]
    return pd.DataFrame(records, columns=u.column_names())


__all__ = ["UNITS", "tally", "figures", "records_frame"]
