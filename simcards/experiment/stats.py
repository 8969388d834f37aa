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


def combine(parts: Iterable[pd.DataFrame]) -> pd.DataFrame:
    """Concatenate a game's tally pieces into one tally."""
    parts = [p for p in parts if len(p)]
    if not parts:
        return empty()
    return merge(pd.concat(parts, ignore_index=True))


def merge(*tallies: pd.DataFrame) -> pd.DataFrame:
    """Add tallies row by row (same metric, group and kind)."""
    frames = [t for t in tallies if t is not None and len(t)]
    if not frames:
        return empty()
    both = pd.concat(frames, ignore_index=True)
    out = both.groupby(["metric", "group", "kind"], sort=False, as_index=False)[["n", "sum", "sumsq"]].sum()
    out["n"] = out["n"].astype("int64")
    return out[TALLY_COLUMNS]


def finalize(tally: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Estimates with ``confidence`` intervals for every tally row."""
    from scipy import stats as sps
    from statsmodels.stats.proportion import proportion_confint

    rows = []
    for r in tally.itertuples(index=False):
        n = int(r.n)
        if n == 0:
            rows.append((r.metric, r.group, r.kind, 0, np.nan, np.nan, np.nan))
            continue
        if r.kind == "rate":
            est = r.sum / n
            lo, hi = proportion_confint(int(round(r.sum)), n, alpha=1 - confidence, method="wilson")
        else:
            est = r.sum / n
            if n > 1:
                var = max((r.sumsq - n * est * est) / (n - 1), 0.0)
                half = sps.t.ppf(0.5 + confidence / 2, n - 1) * np.sqrt(var / n)
            else:
                half = np.nan
            lo, hi = est - half, est + half
        # the interval always contains the estimate (guards against rounding at p = 0 or 1)
        rows.append((r.metric, r.group, r.kind, n, float(est), float(min(lo, est)), float(max(hi, est))))
    out = pd.DataFrame(rows, columns=SUMMARY_COLUMNS)
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
