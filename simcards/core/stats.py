"""Mergeable tallies and the 95 % intervals computed from them.

A *tally* is a DataFrame with one row per (``metric, group, kind``) and the columns

- ``n``, ``sum``, ``sumsq``: number, sum and sum of squares of the observations
  (``kind == "rate"``: ``sum`` successes out of ``n`` trials; ``sumsq`` is NaN for ratio
  rows whose single observations are not known, see :func:`ratio`);
- ``records``, ``rec_sum2``, ``rec_sum_n``, ``rec_n2``, ``rec_sum3``, ``rec_sum2_n``,
  ``rec_sum_n2``, ``rec_n3``: the *record* (the cluster: one deal, game, ...) is the unit
  of sampling. A record contributes ``n_r >= 1`` observations with sum ``s_r`` to the
  row; these columns are the number of records and the sums over records of ``s_r**2``,
  ``s_r n_r``, ``n_r**2`` (the variance) and ``s_r**3``, ``s_r**2 n_r``, ``s_r n_r**2``,
  ``n_r**3`` (the skewness);
- ``min``, ``max``: the smallest and largest observation; ``cap``: the largest value
  possible where one is known (e.g. a turn limit), else -inf.

Every column merges over chunks (:func:`merge`): all but the last three by addition,
those by min or max. So a run of any size keeps one small table in memory.

:func:`finalize` turns a tally into estimates ``R = sum / n`` with 95 % intervals and says
in ``method`` which interval each row used (docs/architecture.md, "Statistics"):

- the variance of ``R`` is the cluster-robust (linearised ratio-estimator) variance over
  records, ``K/(K-1) * sum_r (s_r - R n_r)**2 / n**2``, which is the usual ``s**2 / n``
  when every record contributes one observation;
- proportions (rates, and means of 0/1 values): the binomial interval on the effective
  sample size ``n / design effect`` (Korn and Graubard, 1998): ``wilson`` when at least
  ``COMFORTABLE`` effective successes and failures, ``clopper-pearson`` below (Wilson
  undercovers near 0 and 1: 85 % at p = 4e-5, n = 4,000);
- means of non-negative values whose estimate is visibly right-skewed (skewness of the
  estimate above ``SKEWED``, from the records' third moment): ``gamma``, the Fay–Feuer
  (1997) gamma interval, never below 0; its upper limit allows for one more record with
  every observation at the largest value seen, or at the ``cap`` where the tally knows
  one (rare counts, capped and heavy-tailed means, where Student-t covers 80 %);
- other means: ``t``, Student-t on ``K - 1`` degrees of freedom.

Games build their tallies with :func:`rate`, :func:`mean`, :func:`ratio` or
:class:`TallyRows`, passing ``record=`` (the record index of each observation) wherever
a record contributes several observations to one row (two teams per deal, every seat).
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence

import numba as nb
import numpy as np
import pandas as pd

from simcards.core import jit  # noqa: F401  (cache stamps before any @njit)

KEYS = ["metric", "group", "kind"]
ADDITIVE = ["n", "sum", "sumsq", "records", "rec_sum2", "rec_sum_n", "rec_n2", "rec_sum3", "rec_sum2_n",
            "rec_sum_n2", "rec_n3"]
LOWEST = ["min"]
HIGHEST = ["max", "cap"]
NUMERIC = ADDITIVE + LOWEST + HIGHEST
TALLY_COLUMNS = KEYS + NUMERIC
SUMMARY_COLUMNS = ["metric", "group", "kind", "n", "records", "estimate", "ci_low", "ci_high", "method"]
ALL = "all"
COMFORTABLE = 10  # effective successes and failures from which Wilson replaces Clopper-Pearson
SKEWED = 0.05  # skewness of an estimate above which a non-negative mean gets the gamma interval
_INT_COLUMNS = ("n", "records")


def empty() -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(dtype="object" if c in KEYS else ("int64" if c in _INT_COLUMNS else "float64"))
                         for c in TALLY_COLUMNS})


# ---------------------------------------------------------------- building rows


def _codes(by, labels, prefix: str = ""):
    """Integer group codes and their labels (numbers sorted, labels as strings)."""
    by = np.asarray(by)
    if labels is not None:
        codes = by.astype(np.int64)
        return codes, [prefix + str(labels[i]) for i in range(len(labels))]
    inverse, keys = pd.factorize(by, sort=True)  # hashing: fast on strings too
    return inverse.astype(np.int64), [prefix + str(k) for k in keys]


def rows(metric: str, kind: str, values, *, by=None, where=None, record=None, labels=None,
         group: str | None = None, prefix: str = "", cap: float | None = None) -> list[tuple]:
    """Tally rows (tuples in ``TALLY_COLUMNS`` order) for ``values``.

    ``by`` splits them into groups: an array aligned with ``values`` (with ``labels``, an
    array of integer codes indexing ``labels``; ``prefix`` goes before each label), or one
    label for a single named group (as ``group``); ``where`` keeps only the observations
    where it is True; ``record`` is the record index of each observation (default: each
    observation is its own record); ``cap`` is the largest value the observations can
    take, where the rules set one (a turn limit). Counted in one compiled pass: a chunk's
    tally takes milliseconds.
    """
    v = np.asarray(values, dtype=np.float64).ravel()
    if by is not None and np.ndim(by) == 0:
        group, by = str(by), None
    if where is not None:
        keep = np.asarray(where, dtype=bool).ravel()
        v = v[keep]
        by = None if by is None else np.asarray(by).ravel()[keep]
        record = None if record is None else np.asarray(record).ravel()[keep]
    if by is None:
        codes, names = np.zeros(v.size, np.int64), [group or ALL]
    else:
        codes, names = _codes(np.asarray(by).ravel(), labels, prefix)
    size = len(names)
    own = record is None
    rec = np.zeros(0, np.int64) if own else np.ascontiguousarray(record, dtype=np.int64).ravel()
    n, total, squares, lo, hi, moments = _group_moments(np.ascontiguousarray(codes), size, rec, own,
                                                        np.ascontiguousarray(v))
    return _tuples(metric, kind, names, n, total, squares, tuple(moments), lo, hi, cap)


def _tuples(metric, kind, names, n, total, squares, moments, lo, hi, cap=None) -> list[tuple]:
    top = -np.inf if cap is None else float(cap)
    out = []
    for i in np.nonzero(moments[0])[0]:
        out.append((metric, names[i], kind, int(round(n[i])), float(total[i]), float(squares[i]), int(moments[0][i]),
                    *(float(m[i]) for m in moments[1:]), float(lo[i]), float(hi[i]), top))
    return out


def _record_moments(owner: np.ndarray, s: np.ndarray, cnt: np.ndarray, size: int) -> tuple:
    """Per group (``owner`` of each record): records and the sums over records of s**2,
    s n, n**2, s**3, s**2 n, s n**2, n**3."""
    def add(w):
        return np.array([w.sum()]) if size == 1 else np.bincount(owner, weights=w, minlength=size)

    s2, n2 = s * s, cnt * cnt
    records = np.array([s.size]) if size == 1 else np.bincount(owner, minlength=size)
    return records, add(s2), add(s * cnt), add(n2), add(s2 * s), add(s2 * cnt), add(s * n2), add(n2 * cnt)


@nb.njit(cache=True, nogil=True)
def _add_record(m, g, s, c):
    """Add one record's sum ``s`` and count ``c`` in group ``g`` to the moment table ``m``."""
    m[0, g] += 1.0
    m[1, g] += s * s
    m[2, g] += s * c
    m[3, g] += c * c
    m[4, g] += s * s * s
    m[5, g] += s * s * c
    m[6, g] += s * c * c
    m[7, g] += c * c * c


@nb.njit(cache=True, nogil=True)
def _group_moments(codes, size, record, own, v):
    """One pass over the observations: per group n, sum, sum of squares, min, max and the
    record moments of :func:`_record_moments` (``own``: every observation is its own record).

    The observations of each record are chained (``head``/``nxt``), so the per-(group, record)
    sums need no sort and no table of groups x records; it releases the GIL, so a chunk's
    tally overlaps the other threads' simulation.
    """
    count = v.size
    n, total, squares = np.zeros(size), np.zeros(size), np.zeros(size)
    lo, hi = np.full(size, np.inf), np.full(size, -np.inf)
    m = np.zeros((8, size))
    for i in range(count):
        g, x = codes[i], v[i]
        n[g] += 1.0
        total[g] += x
        squares[g] += x * x
        lo[g] = min(lo[g], x)
        hi[g] = max(hi[g], x)
        if own:
            _add_record(m, g, x, 1.0)
    if own or count == 0:
        return n, total, squares, lo, hi, m
    span = 0
    for i in range(count):
        span = max(span, record[i] + 1)
    head = np.full(span, -1, np.int64)
    nxt = np.empty(count, np.int64)
    for i in range(count - 1, -1, -1):
        nxt[i] = head[record[i]]
        head[record[i]] = i
    s_acc, c_acc = np.zeros(size), np.zeros(size)
    touched = np.empty(size, np.int64)
    for r in range(span):
        used = 0
        i = head[r]
        while i >= 0:
            g = codes[i]
            if c_acc[g] == 0.0:
                touched[used] = g
                used += 1
            s_acc[g] += v[i]
            c_acc[g] += 1.0
            i = nxt[i]
        for t in range(used):
            g = touched[t]
            _add_record(m, g, s_acc[g], c_acc[g])
            s_acc[g] = 0.0
            c_acc[g] = 0.0
    return n, total, squares, lo, hi, m


def _extreme(ufunc, codes: np.ndarray, v: np.ndarray, size: int) -> np.ndarray:
    """Per-group minimum (``np.minimum``) or maximum of ``v``; +-inf for empty groups."""
    out = np.full(size, np.inf if ufunc is np.minimum else -np.inf)
    if v.size and size == 1:
        out[0] = ufunc.reduce(v)
    elif v.size:
        ufunc.at(out, codes, v)
    return out


def ratio_rows(metric: str, kind: str, totals, counts, *, by=None, where=None, labels=None,
               group: str | None = None) -> list[tuple]:
    """Tally rows of the ratio ``sum(totals) / sum(counts)``, one (total, count) per record.

    ``kind == "rate"``: successes and trials per record (each trial a 0/1 observation).
    ``kind == "mean"``: e.g. bags and hands per game: the single observations are not
    known, so ``sumsq`` is NaN and ``min``/``max`` are those of the records' ratios.
    """
    s = np.asarray(totals, dtype=np.float64).ravel()
    cnt = np.asarray(counts, dtype=np.float64).ravel()
    if by is not None and np.ndim(by) == 0:
        group, by = str(by), None
    keep = cnt > 0
    if where is not None:
        keep &= np.asarray(where, dtype=bool).ravel()
    s, cnt = s[keep], cnt[keep]
    if by is None:
        codes, names = np.zeros(s.size, np.int64), [group or ALL]
    else:
        codes, names = _codes(np.asarray(by).ravel()[keep], labels)
    size = len(names)

    n, total = np.bincount(codes, weights=cnt, minlength=size), np.bincount(codes, weights=s, minlength=size)
    r = s / np.where(cnt > 0, cnt, 1)
    lo, hi = _extreme(np.minimum, codes, r, size), _extreme(np.maximum, codes, r, size)
    if kind == "rate":
        squares, lo, hi = total, np.minimum(lo, 0.0), np.maximum(hi, 1.0)
    else:
        squares = np.full(size, np.nan)
    return _tuples(metric, kind, names, n, total, squares, _record_moments(codes, s, cnt, size), lo, hi)


def frame(tuples: Sequence[tuple]) -> pd.DataFrame:
    """Tally rows (tuples in ``TALLY_COLUMNS`` order) as a tally DataFrame."""
    if not len(tuples):
        return empty()
    columns = list(zip(*tuples))
    return _tally_frame(columns[:3], np.array(columns[3:], dtype=np.float64).T)


def _tally_frame(keys: Sequence[Sequence], values: np.ndarray) -> pd.DataFrame:
    """A tally DataFrame from its three key columns and its numbers (one row per key),
    built in one constructor call (pandas inserts column by column slowly: per chunk it
    showed)."""
    data: dict[str, Any] = {"metric": list(keys[0]), "group": [str(g) for g in keys[1]], "kind": list(keys[2])}
    for i, c in enumerate(NUMERIC):
        data[c] = values[:, i].astype(np.int64) if c in _INT_COLUMNS else values[:, i]
    return pd.DataFrame(data)


def rate(metric: str, success, *, by=None, where=None, record=None, labels=None) -> pd.DataFrame:
    """Tally rows for a proportion: ``success`` is a boolean array (True = success).

    ``by`` splits it into groups (an array aligned with ``success``, or one label such as
    ``"team0"`` for a single named group); ``where`` keeps only the rows where it is True
    (e.g. only hands where the bid was nil); ``record`` gives each observation's record
    when a record contributes several (e.g. ``np.tile(np.arange(len(df)), 2)`` for two
    teams' columns stacked).
    """
    return frame(rows(metric, "rate", np.asarray(success, dtype=bool), by=by, where=where, record=record,
                      labels=labels))


def mean(metric: str, values, *, by=None, where=None, record=None, labels=None, cap=None) -> pd.DataFrame:
    """Tally rows for a mean of ``values`` (grouped by ``by``, filtered by ``where``, several
    observations of one record tied by ``record``: see :func:`rate`; ``cap``: see :func:`rows`)."""
    return frame(rows(metric, "mean", values, by=by, where=where, record=record, labels=labels, cap=cap))


def ratio(metric: str, totals, counts, *, kind: str = "mean", by=None, where=None, labels=None) -> pd.DataFrame:
    """Tally rows for ``sum(totals) / sum(counts)`` with one (total, count) per record:
    successes and trials (``kind="rate"``), or e.g. bags and hands per game."""
    return frame(ratio_rows(metric, kind, totals, counts, by=by, where=where, labels=labels))


def record_index(records: int, copies: int) -> np.ndarray:
    """Record index of ``copies`` per-record columns stacked one after the other."""
    return np.tile(np.arange(records, dtype=np.int64), copies)


class TallyRows:
    """Tally rows added one call at a time, one DataFrame at the end (for tallies with many
    small groups, such as the odds tables). ``group`` is a single label per call."""

    def __init__(self) -> None:
        self._rows: list[tuple] = []

    def add(self, metric: str, kind: str, values, **kw) -> None:
        """Rows of :func:`rows` (``by``, ``where``, ``record``, ``labels``, ``group``)."""
        self._rows += rows(metric, kind, values, **kw)

    def add_ratio(self, metric: str, kind: str, totals, counts, **kw) -> None:
        """Rows of :func:`ratio_rows`."""
        self._rows += ratio_rows(metric, kind, totals, counts, **kw)

    def rate(self, metric: str, group, success, *, record=None) -> None:
        """A proportion: ``success`` holds 0/1 (or bool) values, one per record unless ``record``."""
        self.add(metric, "rate", np.asarray(success, dtype=bool), group=str(group), record=record)

    def mean(self, metric: str, group, values, *, record=None) -> None:
        """A mean of ``values`` (one per record unless ``record``)."""
        self.add(metric, "mean", values, group=str(group), record=record)

    def share(self, metric: str, group, count: float, n: int) -> None:
        """The share of the ``n`` records (one 0/1 indicator each) counted in ``count``:
        a proportion (binomial interval, not [0, 0] when nothing was seen) kept as kind
        ``mean`` so that rate targets (``--precision``) do not wait for it."""
        count, n = float(count), int(n)
        if n:
            self._rows.append((metric, str(group), "mean", n, count, count, n, count, count, float(n), count, count,
                               count, float(n), 0.0 if count < n else 1.0, 1.0 if count > 0 else 0.0, 1.0))

    def frame(self) -> pd.DataFrame:
        return frame(self._rows)


def combine(parts: Iterable[pd.DataFrame]) -> pd.DataFrame:
    """Concatenate a game's tally pieces into one tally."""
    parts = [p for p in parts if len(p)]
    if not parts:
        return empty()
    return merge(pd.concat(parts, ignore_index=True))


# ---------------------------------------------------------------- merging


def _complete(tally: pd.DataFrame) -> pd.DataFrame:
    """A tally written before the record columns existed: one observation per record."""
    if all(c in tally.columns for c in NUMERIC):
        return tally
    t = tally.copy()
    defaults = {"records": t["n"], "rec_sum2": t["sumsq"], "rec_sum_n": t["sum"], "rec_n2": t["n"].astype(float),
                "rec_sum3": np.nan, "rec_sum2_n": t["sumsq"], "rec_sum_n2": t["sum"], "rec_n3": t["n"].astype(float),
                "min": -np.inf, "max": np.inf, "cap": -np.inf}
    for c in NUMERIC:
        if c not in t.columns:
            t[c] = defaults[c]
    return t


class Accumulator:
    """Merges tallies row by row in plain Python (tallies are small; pandas groupby is slow here)."""

    def __init__(self) -> None:
        self._rows: dict[tuple, list] = {}

    def add(self, tally: pd.DataFrame | None) -> "Accumulator":
        if tally is None or not len(tally):
            return self
        tally = _complete(tally)
        na, nl = len(ADDITIVE), len(LOWEST)
        columns = [tally[c].tolist() for c in KEYS + NUMERIC]
        for values in zip(*columns):
            key, numbers = values[:3], values[3:]
            row = self._rows.get(key)
            if row is None:
                self._rows[key] = list(numbers)
                continue
            for i in range(na):
                row[i] += numbers[i]
            for i in range(na, na + nl):
                row[i] = min(row[i], numbers[i])
            for i in range(na + nl, len(numbers)):
                row[i] = max(row[i], numbers[i])
        return self

    def frame(self) -> pd.DataFrame:
        if not self._rows:
            return empty()
        keys = list(zip(*self._rows))
        return _tally_frame(keys, np.array(list(self._rows.values()), dtype=np.float64))


def merge(*tallies: pd.DataFrame) -> pd.DataFrame:
    """Merge tallies row by row (same metric, group and kind)."""
    acc = Accumulator()
    for t in tallies:
        acc.add(t)
    return acc.frame()


# ---------------------------------------------------------------- intervals


def holm(p_values) -> np.ndarray:
    """Holm's step-down adjusted p-values (the family-wise error over the tests given), in the
    order given. The same numbers as statsmodels' ``multipletests(p, method="holm")[1]``, NaN
    entries included (each counts as a test and stays NaN; tests/experiment/test_coverage.py
    checks), without its ``gc.collect()`` on every call: 0.1-2 s in a process holding compiled
    kernels, once a comparison round, a sweep or a ladder."""
    p = np.asarray(p_values, dtype=np.float64)
    order = np.argsort(p)  # NaN last
    adjusted = np.minimum(np.maximum.accumulate(p[order] * np.arange(p.size, 0, -1)), 1.0)
    out = np.empty(p.size)
    out[order] = adjusted
    return out



def binomial_interval(x, n, confidence: float = 0.95):
    """Wilson where ``min(x, n - x) >= COMFORTABLE``, Clopper–Pearson below; ``x`` and ``n``
    may be fractional (effective counts). Returns (low, high, method names)."""
    from scipy import stats as sps

    x = np.asarray(x, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    a = 1 - confidence
    z = sps.norm.ppf(1 - a / 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = x / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        cp_lo = np.where(x > 0, sps.beta.ppf(a / 2, x, n - x + 1), 0.0)
        cp_hi = np.where(x < n, sps.beta.ppf(1 - a / 2, x + 1, n - x), 1.0)
    wilson = np.minimum(x, n - x) >= COMFORTABLE
    lo = np.where(wilson, centre - half, cp_lo)
    hi = np.where(wilson, centre + half, cp_hi)
    return np.clip(lo, 0, 1), np.clip(hi, 0, 1), np.where(wilson, "wilson", "clopper-pearson")


def gamma_interval(y, v, w, confidence: float = 0.95):
    """Fay–Feuer interval for a non-negative mean ``y`` with variance ``v``; ``w`` is the
    largest rise one more record could bring (the upper limit allows for it)."""
    from scipy import stats as sps

    a = 1 - confidence
    with np.errstate(divide="ignore", invalid="ignore"):
        lo = np.where(y > 0, sps.gamma.ppf(a / 2, y * y / v, scale=v / y), 0.0)
        yw, vw = y + w, v + w * w
        hi = sps.gamma.ppf(1 - a / 2, yw * yw / vw, scale=vw / yw)
    return lo, hi


def _skewness(col: dict, r: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Skewness of the estimate: of the sum of the records' residuals d = s - R n, i.e.
    skewness of d over sqrt(K); 0 where it is lost in rounding (or unknown: NaN)."""
    d3 = col["rec_sum3"] - 3 * r * col["rec_sum2_n"] + 3 * r * r * col["rec_sum_n2"] - r ** 3 * col["rec_n3"]
    d2 = col["rec_sum2"] - 2 * r * col["rec_sum_n"] + r * r * col["rec_n2"]
    scale = np.abs(col["rec_sum3"]) + 3 * np.abs(r * col["rec_sum2_n"]) + 3 * r * r * col["rec_sum_n2"] \
        + np.abs(r ** 3) * col["rec_n3"]
    with np.errstate(divide="ignore", invalid="ignore"):
        d3 = np.where(np.abs(d3) > 1e-9 * scale, d3, 0.0)
        return np.where(d2 > 0, d3 / d2 ** 1.5, 0.0)


def finalize(tally: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Estimates with ``confidence`` intervals for every tally row (``method`` says which)."""
    from scipy import stats as sps

    if not len(tally):
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    t = _complete(tally)
    col = {c: t[c].to_numpy(dtype=np.float64) for c in NUMERIC}
    n, total, k = col["n"], col["sum"], col["records"]
    rows_n = len(t)
    est = np.full(rows_n, np.nan)
    lo = np.full(rows_n, np.nan)
    hi = np.full(rows_n, np.nan)
    method = np.full(rows_n, "", dtype=object)
    z = sps.norm.ppf(0.5 + confidence / 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        ok = n > 0
        est[ok] = total[ok] / n[ok]
        r = np.where(ok, est, 0.0)
        # cluster-robust variance of R = S/N over K records (= s^2/N for one observation per record)
        resid = np.maximum(col["rec_sum2"] - 2 * r * col["rec_sum_n"] + r * r * col["rec_n2"], 0.0)
        var = np.where(k > 1, k / (k - 1) * resid / (n * n), np.nan)
        tq = np.where(k > 1, sps.t.ppf(0.5 + confidence / 2, np.maximum(k - 1, 1)), np.nan)
        clustered = k < n
        binary = (t["kind"].to_numpy() == "rate") | ((col["min"] >= 0) & (col["max"] <= 1) & (col["sumsq"] == total))
        # proportions: binomial interval on the effective sample size (Korn-Graubard)
        prop = ok & binary
        binom_var = r * (1 - r) / n
        deff = np.where((var > 0) & (binom_var > 0), var / binom_var, 1.0)
        n_eff = np.where(clustered, n / deff * np.where(k > 1, (z / tq) ** 2, 1.0), n)
        if prop.any():
            lo[prop], hi[prop], method[prop] = binomial_interval(r[prop] * n_eff[prop], n_eff[prop], confidence)
        means = ok & ~binary & (k > 1)
        flat = means & ~(var > 0)
        lo[flat], hi[flat], method[flat] = est[flat], est[flat], "t"
        # non-negative means: Fay-Feuer gamma; others: Student-t on K-1 df
        gamma = means & (var > 0) & (col["min"] >= 0) & (_skewness(col, r, k) > SKEWED)
        if gamma.any():
            v = var[gamma] * (tq[gamma] / z) ** 2
            # Fay-Feuer's one more event at the largest weight: one more record whose n/K
            # observations are all at the largest value seen, or possible (a known cap)
            w = np.maximum(col["max"][gamma], col["cap"][gamma]) / k[gamma]
            lo[gamma], hi[gamma] = gamma_interval(est[gamma], v, w, confidence)
            method[gamma] = "gamma"
        student = means & (var > 0) & ~gamma
        half = tq[student] * np.sqrt(var[student])
        lo[student], hi[student], method[student] = est[student] - half, est[student] + half, "t"
    # the interval always contains the estimate (guards against rounding at p = 0 or 1)
    lo = np.where(np.isnan(lo), lo, np.minimum(lo, est))
    hi = np.where(np.isnan(hi), hi, np.maximum(hi, est))
    out = pd.DataFrame({"metric": t["metric"].to_numpy(), "group": t["group"].astype(str).to_numpy(),
                        "kind": t["kind"].to_numpy(), "n": n.astype(np.int64), "records": k.astype(np.int64),
                        "estimate": est, "ci_low": lo, "ci_high": hi, "method": method})
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


__all__ = ["TALLY_COLUMNS", "SUMMARY_COLUMNS", "ALL", "empty", "rows", "ratio_rows", "frame", "rate", "mean",
           "ratio", "record_index", "TallyRows", "combine", "Accumulator", "merge", "binomial_interval",
           "gamma_interval", "finalize", "sort_naturally", "half_width"]


def rank_options(table: pd.DataFrame, by: str, hypothetical=None, win_column: str | None = None) -> pd.DataFrame:
    """Options best first by ``by`` (hypothetical rows, e.g. "had you bid blind", last and
    never recommended); marks ``recommended`` and, with ``win_column``, ``best for game``."""
    hypothetical = np.zeros(len(table), bool) if hypothetical is None else np.asarray(hypothetical, bool)
    ranked = table.assign(_h=hypothetical).sort_values(["_h", by], ascending=[True, False], ignore_index=True)
    legal = ~ranked["_h"]
    ranked = ranked.drop(columns="_h")
    ranked["recommended"] = ""
    if legal.any():
        ranked.loc[legal.idxmax(), "recommended"] = "yes"
    if win_column is not None and legal.any():
        ranked["best for game"] = ""
        ranked.loc[ranked[legal][win_column].idxmax(), "best for game"] = "yes"
    return ranked
