"""Coverage of every interval method of the summary, against exact or high-precision truths.

Each check draws many small synthetic runs through the real path (``stats.rate``/
``mean``/``ratio`` with ``record=``, an ``Accumulator`` over several chunks, ``finalize``)
and counts how often the 95 % interval holds the truth. With R replicates the coverage
of a calibrated method lies within 3 sampling standard deviations of 0.95 (band below);
methods that are conservative by design (Clopper–Pearson, gamma) only get the floor.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from simcards.core import stats

R = 400
SPREAD = 3 * math.sqrt(0.95 * 0.05 / R)
LOW, HIGH = 0.95 - SPREAD, 0.95 + SPREAD  # 0.917 .. 0.983


def coverage(draw, truth, seed, chunks=3, replicates=R):
    """Share of replicates whose interval holds ``truth``, and the methods used.

    ``draw(rng)`` returns one chunk's tally (one metric row)."""
    rng = np.random.default_rng(seed)
    hits, methods, widths = 0, set(), []
    for _ in range(replicates):
        acc = stats.Accumulator()
        for _ in range(chunks):
            acc.add(draw(rng))
        row = stats.finalize(acc.frame()).iloc[0]
        hits += bool(row.ci_low <= truth <= row.ci_high)
        methods.add(row.method)
        widths.append(row.ci_high - row.ci_low)
    return hits / replicates, methods, float(np.mean(widths))


def test_binomial_interval_exact_coverage_near_zero():
    """Exact coverage (sum over every count) on a grid of p: Wilson alone falls to 85 % at
    p = 4e-5, n = 4,000; the interval used (Clopper–Pearson below 10 successes or
    failures) keeps at least 93 % everywhere."""
    for n in (30, 200, 4000):
        x = np.arange(n + 1)
        lo, hi, _ = stats.binomial_interval(x, np.full(n + 1, n))
        for p in np.concatenate([np.geomspace(0.01 / n, 0.5, 300), [4e-5]]):
            pmf = sps.binom.pmf(x, n, p)
            assert pmf[(lo <= p) & (p <= hi)].sum() >= 0.93, (n, p)
    from statsmodels.stats.proportion import proportion_confint

    x = np.arange(4001)
    lo, hi = proportion_confint(x, 4000, method="wilson")
    assert sps.binom.pmf(x, 4000, 4e-5)[(lo <= 4e-5) & (4e-5 <= hi)].sum() < 0.86  # why Wilson is not used there


def test_rare_bernoulli_events():
    p = 4e-5
    cov, methods, _ = coverage(lambda rng: stats.rate("rare", rng.random(1000) < p), p, seed=1, chunks=4)
    assert methods <= {"clopper-pearson"}
    assert cov >= LOW


def _pair_positive(rng, k, p=0.3, rho=0.6):
    """Two observations per record: with probability rho the same draw, else independent."""
    first = rng.random(k) < p
    second = np.where(rng.random(k) < rho, first, rng.random(k) < p)
    return np.concatenate([first, second])


def _pair_negative(rng, k, p=0.3):
    """Two observations per record that never both succeed (like two teams' bags)."""
    first = rng.random(k) < p
    second = ~first & (rng.random(k) < p / (1 - p))
    return np.concatenate([first, second])


@pytest.mark.parametrize("pair", [_pair_positive, _pair_negative])
def test_clustered_rates(pair):
    k = 100

    def draw(rng):
        return stats.rate("pooled", pair(rng, k), record=stats.record_index(k, 2))

    cov, methods, width = coverage(draw, 0.3, seed=2)
    assert methods == {"wilson"}
    assert LOW <= cov <= HIGH
    # treating the two observations as independent is off by the design effect
    naive, _, naive_width = coverage(lambda rng: stats.rate("pooled", pair(rng, k)), 0.3, seed=2)
    assert abs(naive - 0.95) > SPREAD and abs(naive_width / width - 1) > 0.15


@pytest.mark.parametrize("sign", [1, -1])
def test_clustered_means_per_seat(sign):
    """Four seats per record: a shared record effect (sign 1) or seats that share a fixed
    total (sign -1, like tricks), signed values (Student-t)."""
    k = 60

    def draw(rng):
        e = rng.normal(size=(k, 4))
        shared = rng.normal(size=(k, 1)) if sign > 0 else -0.9 * e.mean(axis=1, keepdims=True)
        values = 2.0 + e + shared - 2.5  # mean -0.5: some values negative
        return stats.mean("per_seat", values.ravel(), record=np.repeat(np.arange(k), 4))

    cov, methods, _ = coverage(draw, -0.5, seed=3)
    assert methods == {"t"}
    assert LOW <= cov <= HIGH


CAP, MU, SIGMA = 1000.0, 3.4, 0.8


def _capped_truth(rate):
    """E X for X = 1000 (the cap) with probability ``rate``, else min(1000, lognormal)."""
    c = math.log(CAP)
    below = math.exp(MU + SIGMA ** 2 / 2) * sps.norm.cdf((c - MU - SIGMA ** 2) / SIGMA)
    capped = CAP * sps.norm.sf((c - MU) / SIGMA)
    return (1 - rate) * (below + capped) + rate * CAP


@pytest.mark.parametrize("rate", [0.004, 0.01])
def test_capped_heavy_tailed_mean(rate):
    """Like Contract Rummy ``turns`` with its 1000-turn cap at 150 deals: the cap is hit in
    0.4 % or 1 % of the records, so most runs never see it (Student-t covers 83 %, 81 %).
    The tally knows the cap (``cap=``), as Rummy's does."""

    def draw(rng):
        x = np.minimum(CAP, np.exp(rng.normal(MU, SIGMA, 50)))
        return stats.mean("turns", np.where(rng.random(50) < rate, CAP, x), cap=CAP)

    cov, methods, _ = coverage(draw, _capped_truth(rate), seed=4)
    assert methods == {"gamma"}
    assert cov >= LOW


def test_non_negative_mean_without_tail_is_not_inflated():
    """A tame non-negative mean (tricks of one seat, 150 records) is barely skewed: mostly
    Student-t, calibrated (inside the two-sided band, not just above the floor)."""
    cov, methods, _ = coverage(lambda rng: stats.mean("tricks", rng.binomial(13, 0.25, 50)), 3.25, seed=8)
    assert "t" in methods and methods <= {"t", "gamma"}
    assert LOW <= cov <= HIGH


def test_rare_counts():
    """Clumped rare counts (like misdeal redeals): 0 mostly, else 1 + Poisson(1.5)."""
    pi = 0.002

    def draw(rng):
        hit = rng.random(1500) < pi
        return stats.mean("redeals", np.where(hit, 1 + rng.poisson(1.5, 1500), 0))

    cov, methods, _ = coverage(draw, pi * 2.5, seed=5)
    assert "gamma" in methods
    assert cov >= LOW


def test_ratio_metric():
    """Bags per hand pooled over games of different lengths, overdispersed per game."""

    def draw(rng):
        hands = 8 + rng.poisson(6, 50)
        bags = rng.poisson(0.9 * hands * rng.gamma(4.0, 0.25, 50))
        return stats.ratio("bags_per_hand", bags, hands)

    cov, methods, _ = coverage(draw, 0.9, seed=6)
    assert "gamma" in methods and methods <= {"t", "gamma"}
    assert cov >= LOW


def test_clustered_rate_from_counts():
    """Successes and trials per record (sets out of contracts per game), game effects."""

    def draw(rng):
        trials = 5 + rng.poisson(10, 40)
        p = rng.beta(3, 7, 40)  # mean 0.3
        return stats.ratio("set_rate", rng.binomial(trials, p), trials, kind="rate")

    cov, methods, _ = coverage(draw, 0.3, seed=7)
    assert methods == {"wilson"}
    assert LOW <= cov <= HIGH


def test_cluster_columns_merge_and_give_the_ratio_estimator_variance():
    """The tally of chunks, merged, gives the linearised ratio-estimator variance computed
    directly from per-record sums (records of 1 to 4 observations, two groups)."""
    rng = np.random.default_rng(9)
    record = np.sort(rng.integers(0, 300, 900))
    values = rng.normal(size=900) + record % 7
    by = rng.integers(0, 2, 900)
    cut = np.searchsorted(record, 150)  # chunks never split a record
    acc = stats.Accumulator()
    acc.add(stats.mean("m", values[:cut], by=by[:cut], record=record[:cut]))
    acc.add(stats.mean("m", values[cut:], by=by[cut:], record=record[cut:] - 150))
    summary = stats.finalize(acc.frame())
    for g in (0, 1):
        sel = by == g
        s = np.bincount(record[sel], weights=values[sel], minlength=300)
        n = np.bincount(record[sel], minlength=300)
        s, n = s[n > 0], n[n > 0]
        r = s.sum() / n.sum()
        k = len(s)
        se = math.sqrt(k / (k - 1) * np.sum((s - r * n) ** 2)) / n.sum()
        row = summary[summary.group == str(g)].iloc[0]
        assert row.records == k and row.n == n.sum() and row.estimate == pytest.approx(r)
        assert row.method == "t"
        assert (row.ci_high - row.ci_low) / 2 == pytest.approx(sps.t.ppf(0.975, k - 1) * se)


def test_shares_never_seen_have_an_upper_limit():
    rows = stats.TallyRows()
    rows.share("tricks=13", "4", 0, 2000)
    row = stats.finalize(rows.frame()).iloc[0]
    assert row.estimate == 0 and row.ci_low == 0 and row.ci_high == pytest.approx(3.69 / 2000, rel=0.01)
    assert row.kind == "mean" and row.method == "clopper-pearson"


def test_old_tallies_without_record_columns_still_finalize():
    old = stats.mean("x", np.arange(10.0))[["metric", "group", "kind", "n", "sum", "sumsq"]]
    new = stats.finalize(stats.mean("x", np.arange(10.0) - 20))  # signed: Student-t either way
    row = stats.finalize(old).iloc[0]
    assert row.method == "t" and row.records == 10
    assert row.ci_high - row.ci_low == pytest.approx(new.ci_high[0] - new.ci_low[0])


SEEDS = 100


def test_spades_intervals_match_the_spread_over_seeds():
    """Game level: the half-widths of pooled Spades metrics (two teams per deal) against
    the spread of the estimates over 100 independent seeds of 1,000 deals (``contract``
    was 1.83x too wide, ``bags_per_team_hand`` 1.39x).

    The ratio (half-width / 1.96) / sd is 1 for honest intervals; the sd of S estimates
    has a relative error of 1/sqrt(2(S-1)) = 7 %, so 3 of them give the band 0.79..1.21."""
    import pandas as pd

    from simcards.games.spades import GAME

    v = GAME.variant(None, {})
    table = GAME.policies.table(["expert"] * 4)
    cols = GAME.unit("deal").column_names()
    metrics = ["contract", "bag_rate", "bags_per_team_hand", "bid_success_all"]
    est, half = {m: [] for m in metrics}, {m: [] for m in metrics}
    for seed in range(SEEDS):
        df = pd.DataFrame(GAME.simulate("deal", v, table, 9000 + seed, 0, 1000), columns=cols)
        s = stats.finalize(GAME.tally("deal", df, v)).set_index("metric")
        for m in metrics:
            est[m].append(s.loc[m, "estimate"])
            half[m].append((s.loc[m, "ci_high"] - s.loc[m, "ci_low"]) / 2)
    band = 3 / math.sqrt(2 * (SEEDS - 1))
    for m in metrics:
        ratio = np.mean(half[m]) / 1.96 / np.std(est[m], ddof=1)
        assert abs(ratio - 1) <= band, (m, ratio)


def test_paired_rates_where_every_record_agrees_keep_their_coverage():
    # Two arms with rates near 0 and 1 (a strong bot against a weak one): in about half
    # the replicates every record agrees, the batch means have no spread, and a
    # zero-width interval at 1.0 would miss the truth 0.998 each time.
    from simcards.experiment.compare import paired_differences

    p_a, p_b, records, batches, replicates = 0.001, 0.999, 300, 20, 150
    truth = p_b - p_a
    rng = np.random.default_rng(2026)
    hits = unanimous = 0
    for _ in range(replicates):
        a = (rng.random(records) < p_a).reshape(batches, -1).sum(axis=1)
        b = (rng.random(records) < p_b).reshape(batches, -1).sum(axis=1)
        per = records // batches
        frame = pd.DataFrame([{"arm": arm, "batch": k, "metric": "win", "group": "all", "kind": "rate",
                               "n": per, "sum": float(s[k]), "records": per}
                              for arm, s in (("a", a), ("b", b)) for k in range(batches)])
        row = paired_differences(frame, "a", ["b"], batches).iloc[0]
        unanimous += a.sum() == 0 and b.sum() == records
        hits += bool(row.ci_low <= truth <= row.ci_high)
        assert row.ci_low < row.ci_high
    assert unanimous > replicates / 4  # the case under test happened often
    assert hits / replicates >= 0.95 - 3 * math.sqrt(0.95 * 0.05 / replicates)  # conservative: the floor only


@pytest.mark.parametrize("size", [1, 2, 5, 28])
def test_holm_gives_statsmodels_numbers(size):
    # stats.holm replaces statsmodels' multipletests(method="holm"), which runs gc.collect()
    # on every call (about 0.5 s here, so few trials: 12 reach every case below); the
    # adjusted p-values must be the same, NaN and ties included
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(size)
    for trial in range(12):
        p = rng.random(size) ** 3
        if size > 2 and trial % 3 == 0:
            p[rng.integers(size)] = p[0]  # a tie
        if size > 1 and trial % 5 == 0:
            p[rng.integers(size)] = np.nan
        if trial % 7 == 0:
            p[rng.integers(size)] = 0.0
        ours = stats.holm(p)
        theirs = multipletests(p, method="holm")[1]
        np.testing.assert_array_equal(np.isnan(ours), np.isnan(theirs))
        np.testing.assert_allclose(ours[~np.isnan(ours)], theirs[~np.isnan(theirs)], rtol=0, atol=1e-15)
