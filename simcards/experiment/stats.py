"""Additive tallies and the 95 % intervals computed from them.

A *tally* is a DataFrame with columns ``metric, group, kind, n, sum, sumsq``:

- ``kind == "rate"``: ``sum`` successes out of ``n`` trials (a proportion);
- ``kind == "mean"``: ``sum`` and ``sumsq`` of ``n`` observations.

Tallies of chunks add up row by row (:func:`merge`), so a run of any size keeps only
one small table in memory. :func:`finalize` turns a tally into estimates with 95 %
intervals: Wilson score intervals for rates (statsmodels), Student-t intervals for
means (scipy).

Games build their tallies with :func:`rate` and :func:`mean`.
"""
from __future__ import annotations

from typing import Iterable

import numpy as np
import pandas as pd

TALLY_COLUMNS = ["metric", "group", "kind", "n", "sum", "sumsq"]
SUMMARY_COLUMNS = ["metric", "group", "kind", "n", "estimate", "ci_low", "ci_high"]
ALL = "all"


def empty() -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(dtype="float64" if c in ("sum", "sumsq") else ("int64" if c == "n" else "object"))
                         for c in TALLY_COLUMNS})


def _grouped(metric: str, kind: str, values, by) -> pd.DataFrame:
    """One tally row per group (numpy bincount: tallies run once per chunk, often)."""
    v = np.asarray(values, dtype=np.float64)
    if by is None or np.ndim(by) == 0:
        groups, n, total, squares = [ALL if by is None else str(by)], [v.size], [v.sum()], [np.dot(v, v)]
    else:
        inverse, keys = pd.factorize(np.asarray(by), sort=True)  # hashing: fast on strings too
        n = np.bincount(inverse, minlength=len(keys))
        total = np.bincount(inverse, weights=v, minlength=len(keys))
        squares = np.bincount(inverse, weights=v * v, minlength=len(keys))
        groups = [str(k) for k in keys]
    return pd.DataFrame({"metric": metric, "group": groups, "kind": kind, "n": np.asarray(n, dtype=np.int64),
                         "sum": np.asarray(total, dtype=np.float64), "sumsq": np.asarray(squares, dtype=np.float64)})


def rate(metric: str, success, *, by=None, where=None) -> pd.DataFrame:
    """Tally rows for a proportion: ``success`` is a boolean Series (True = success).

    ``by`` splits it into groups (an array aligned with ``success``, or one label such as
    ``"team0"`` for a single named group); ``where`` keeps only the rows where it is True
    (e.g. only hands where the bid was nil).
    """
    return _grouped(metric, "rate", *_select(np.asarray(success, dtype=bool), by, where))


def mean(metric: str, values, *, by=None, where=None) -> pd.DataFrame:
    """Tally rows for a mean of ``values`` (optionally grouped by ``by``, filtered by ``where``)."""
    return _grouped(metric, "mean", *_select(np.asarray(values, dtype=np.float64), by, where))


def _select(values: np.ndarray, by, where):
    if by is not None and np.ndim(by) > 0:
        by = np.asarray(by)
    if where is not None:
        keep = np.asarray(where, dtype=bool)
        values = values[keep]
        by = by[keep] if by is not None and np.ndim(by) > 0 else by
    return values, by


class TallyRows:
    """Tally rows added one at a time, for tallies with many small groups (the odds tables):
    no DataFrame per row, one at the end. ``group`` is a single label per call."""

    def __init__(self) -> None:
        self._rows: list[tuple] = []

    def rate(self, metric: str, group, success) -> None:
        """A proportion: ``success`` holds one 0/1 (or bool) value per record."""
        ok = np.asarray(success, dtype=np.float64)
        total = float(ok.sum())
        self._rows.append((metric, group, "rate", ok.size, total, total))

    def mean(self, metric: str, group, values) -> None:
        """A mean of ``values`` (one per record)."""
        x = np.asarray(values, dtype=np.float64)
        self._rows.append((metric, group, "mean", x.size, float(x.sum()), float(np.dot(x, x))))

    def share(self, metric: str, group, count: float, n: int) -> None:
        """The mean of an indicator known only by its count among ``n`` records."""
        self._rows.append((metric, group, "mean", int(n), float(count), float(count)))

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame(self._rows, columns=TALLY_COLUMNS)


def combine(parts: Iterable[pd.DataFrame]) -> pd.DataFrame:
    """Concatenate a game's tally pieces into one tally."""
    parts = [p for p in parts if len(p)]
    if not parts:
        return empty()
    return merge(pd.concat(parts, ignore_index=True))


class Accumulator:
    """Adds tallies row by row in plain Python (tallies are small; pandas groupby is slow here)."""

    def __init__(self) -> None:
        self._rows: dict[tuple, list] = {}

    def add(self, tally: pd.DataFrame | None) -> "Accumulator":
        if tally is None or not len(tally):
            return self
        for metric, group, kind, n, total, squares in zip(tally["metric"].tolist(), tally["group"].tolist(),
                                                           tally["kind"].tolist(), tally["n"].tolist(),
                                                           tally["sum"].tolist(), tally["sumsq"].tolist()):
            row = self._rows.get((metric, group, kind))
            if row is None:
                self._rows[(metric, group, kind)] = [n, total, squares]
            else:
                row[0] += n
                row[1] += total
                row[2] += squares
        return self

    def frame(self) -> pd.DataFrame:
        if not self._rows:
            return empty()
        keys = list(self._rows)
        values = list(self._rows.values())
        return pd.DataFrame({"metric": [k[0] for k in keys], "group": [str(k[1]) for k in keys],
                             "kind": [k[2] for k in keys], "n": np.array([v[0] for v in values], dtype=np.int64),
                             "sum": np.array([v[1] for v in values], dtype=np.float64),
                             "sumsq": np.array([v[2] for v in values], dtype=np.float64)})


def merge(*tallies: pd.DataFrame) -> pd.DataFrame:
    """Add tallies row by row (same metric, group and kind)."""
    acc = Accumulator()
    for t in tallies:
        acc.add(t)
    return acc.frame()


def finalize(tally: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Estimates with ``confidence`` intervals for every tally row."""
    from scipy import stats as sps
    from statsmodels.stats.proportion import proportion_confint

    if not len(tally):
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    n = tally["n"].to_numpy(dtype=np.int64)
    total = tally["sum"].to_numpy(dtype=np.float64)
    squares = tally["sumsq"].to_numpy(dtype=np.float64)
    is_rate = (tally["kind"] == "rate").to_numpy()
    with np.errstate(divide="ignore", invalid="ignore"):
        est = np.where(n > 0, total / np.maximum(n, 1), np.nan)
        lo = np.full(len(n), np.nan)
        hi = np.full(len(n), np.nan)
        rate_rows = is_rate & (n > 0)
        if rate_rows.any():
            lo[rate_rows], hi[rate_rows] = proportion_confint(np.rint(total[rate_rows]).astype(np.int64),
                                                             n[rate_rows], alpha=1 - confidence, method="wilson")
        mean_rows = ~is_rate & (n > 1)
        if mean_rows.any():
            m, k = est[mean_rows], n[mean_rows]
            var = np.maximum((squares[mean_rows] - k * m * m) / (k - 1), 0.0)
            half = sps.t.ppf(0.5 + confidence / 2, k - 1) * np.sqrt(var / k)
            lo[mean_rows], hi[mean_rows] = m - half, m + half
    # the interval always contains the estimate (guards against rounding at p = 0 or 1)
    lo = np.where(np.isnan(lo), lo, np.minimum(lo, est))
    hi = np.where(np.isnan(hi), hi, np.maximum(hi, est))
    out = pd.DataFrame({"metric": tally["metric"].to_numpy(), "group": tally["group"].astype(str).to_numpy(),
                        "kind": tally["kind"].to_numpy(), "n": n, "estimate": est, "ci_low": lo, "ci_high": hi})
    return sort_naturally(out)


def _group_key(group: str):
    try:
        return (0, float(group), "")
    except (TypeError, ValueError):
        return (1, 0.0, str(group))


def sort_naturally(summary: pd.DataFrame) -> pd.DataFrame:
    """Metrics in order of first appearance, groups numerically where they are numbers."""
    if not len(summary):
        return summary
    first = {m: i for i, m in reversed(list(enumerate(summary["metric"])))}
    keys = [(first[m], _group_key(g)) for m, g in zip(summary["metric"], summary["group"])]
    order = sorted(range(len(summary)), key=keys.__getitem__)
    return summary.iloc[order].reset_index(drop=True)


def half_width(summary: pd.DataFrame) -> pd.Series:
    """Half-width of each summary row's interval."""
    return (summary["ci_high"] - summary["ci_low"]) / 2
