"""Compare arms (house rules and/or policies) on exactly the same deals.

Every arm plays records ``0 .. n-1`` of the same seed, so the deals are identical
(common random numbers) and only the rules or policies differ. Each chunk of records
is a *batch*: the arms' tallies per batch give paired differences whose variance is
estimated by linearising the ratio estimators over batches (the batch-means method),
so any metric a game tallies — a rate, a mean, by group — can be compared without
per-record bookkeeping. The same batches without pairing give the unpaired interval
shown beside it.

Batch ``b`` is records ``b*B .. (b+1)*B-1`` of the seed whatever the rounds, so a batch
that a round boundary splits is added up, never counted twice. With ``precision``,
rounds of new records (doubling) are added until every reported difference meets its
target (:func:`parse_precision`: a half-width for rates, standard deviations or an
absolute half-width for means), or ``max_count`` is reached.

With a folder, each arm of each round is an ordinary results folder under ``arms/``
(resumable, checksummed, locked), so an interrupted comparison resumes with the same
command and ends identical to an uninterrupted one.
"""
from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from simcards.core.errors import SimcardsError
from simcards.core.game import Game, get_game
from simcards.core import stats
from simcards.experiment.runner import Execution, execute
from simcards.experiment.spec import Setup, make_spec, toml_value

MIN_BATCHES = 32
ARM_POLICY_KEYS = ("policy", "preset", "name")


@dataclass(frozen=True)
class Arm:
    """One arm: a name, variant settings (``name=value``), preset and policies."""

    name: str
    settings: tuple[str, ...] = ()
    preset: str | None = None
    policy: str | None = None
    seat_policy: Mapping[int, str] = field(default_factory=dict)

    def describe(self) -> str:
        parts = list(self.settings)
        if self.preset:
            parts.insert(0, f"preset={self.preset}")
        if self.policy:
            parts.append(f"policy={self.policy}")
        parts += [f"seat{k}={v}" for k, v in sorted(self.seat_policy.items())]
        return ", ".join(parts) or "base settings"


def parse_arm(text: str) -> Arm:
    """``"bag_limit=5,policy=expert,seat1=basic,preset=club_rules,name=five"`` -> Arm."""
    settings, preset, policy, seats, name = [], None, None, {}, None
    for item in [t.strip() for t in text.split(",") if t.strip()]:
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key or not value:
            raise SimcardsError(f"arm {text!r}: expected name=value items separated by commas, got {item!r}")
        if key == "policy":
            policy = value
        elif key == "preset":
            preset = value
        elif key == "name":
            name = value
        elif key.startswith("seat") and key[4:].isdigit():
            seats[int(key[4:])] = value
        else:
            settings.append(f"{key}={value}")
    return Arm(name=name or text, settings=tuple(settings), preset=preset, policy=policy, seat_policy=seats)


def arm_from_table(table: Mapping[str, Any], index: int) -> Arm:
    """An arm from an experiment file's ``[[arms]]`` table."""
    from simcards.experiment.files import seat_policy_table

    settings = [f"{k}={toml_value(v)}" for k, v in (table.get("variant") or {}).items()]
    settings += list(table.get("settings", []))
    return Arm(name=str(table.get("name", f"arm{index + 1}")), settings=tuple(settings), preset=table.get("preset"),
               policy=table.get("policy"), seat_policy=seat_policy_table(table.get("seat_policy"), f"arm {index + 1}"))


@dataclass
class CompareResult:
    game: str
    unit: str
    seed: int
    count: int
    arms: list[Arm]
    summaries: dict[str, pd.DataFrame]  # arm name -> finalized summary
    differences: pd.DataFrame
    batches: pd.DataFrame  # arm, batch, tally rows
    rounds: int = 1
    seconds: float = 0.0
    precision: float | None = None
    resolved: bool = True
    out: Path | None = None
    meta: dict = field(default_factory=dict)
    identical: list = field(default_factory=list)  # groups of arm names that played every record alike

    def arm_table(self) -> pd.DataFrame:
        """All arms' summaries stacked, with an ``arm`` column."""
        frames = [s.assign(arm=name) for name, s in self.summaries.items()]
        table = pd.concat(frames, ignore_index=True)
        return table[["arm"] + [c for c in table.columns if c != "arm"]]


def _ratio_terms(batch: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Per (metric, group, batch): s, n and the whole-run totals S, N."""
    totals = batch.groupby(keys, as_index=False)[["n", "sum"]].sum().rename(columns={"n": "N", "sum": "S"})
    return batch.merge(totals, on=keys)


def _records(g: pd.DataFrame, side: str, n: float) -> float:
    """Records behind one arm's rows of ``g`` (the tallies' ``records``; ``n`` if absent)."""
    column = f"records_{side}"
    return float(g[column].fillna(0).sum()) if column in g else float(n)


def unanimous_rates(Sa: float, Na: float, Ka: float, Sb: float, Nb: float, Kb: float,
                    confidence: float = 0.95) -> tuple[float, float, float]:
    """Interval and p-value of ``Sb/Nb - Sa/Na`` when every record of each arm agrees (rates of 0 or 1).

    Batch means then have no spread and would give a zero-width interval, which covers
    nothing but the observed value. Instead each arm gets its exact Clopper–Pearson
    interval on its ``K`` records (the unit; Bonferroni, each at ``1 - (1 - confidence)/2``)
    and the difference runs from the lowest to the highest combination; the p-value is
    Fisher's exact test on the records. Conservative, never empty.
    """
    from scipy import stats as sps

    from simcards.core.stats import binomial_interval

    each = 1 - (1 - confidence) / 2
    xa, xb = Ka * Sa / Na, Kb * Sb / Nb
    (lo_a, lo_b), (hi_a, hi_b), _ = binomial_interval([xa, xb], [Ka, Kb], each)
    p = sps.fisher_exact([[round(xb), round(Kb - xb)], [round(xa), round(Ka - xa)]])[1]
    return float(lo_b - hi_a), float(hi_b - lo_a), float(p)


def paired_differences(batches: pd.DataFrame, baseline: str, others: Sequence[str], n_batches: int,
                       metrics: Sequence[str] | None = None, confidence: float = 0.95) -> pd.DataFrame:
    """Differences ``arm - baseline`` per metric and group with paired and unpaired intervals.

    ``batches`` has columns ``arm, batch, metric, group, kind, n, sum`` (one tally per batch).
    Each arm's estimate is ``R = S / N``; its linearised per-batch residual is
    ``z_b = (s_b - R n_b) / N``, and ``Var(R) ~ B/(B-1) * sum_b z_b^2``. For a paired
    difference the residuals are subtracted batch by batch before squaring. Rates at 0
    or 1 in both arms (every record agrees) have no spread to measure and get the exact
    interval of :func:`unanimous_rates` instead.
    """
    from scipy import stats as sps
    from simcards.core.stats import holm

    keys = ["metric", "group", "kind"]
    every = batches
    if metrics:
        batches = batches[batches["metric"].isin(metrics)]
    rows = []
    base = batches[batches["arm"] == baseline]
    for other in others:
        arm = batches[batches["arm"] == other]
        played = every.loc[every["arm"] == other, "batch"].unique()  # an arm a sweep dropped early played fewer batches:
        B = len(played)  # it is paired with the baseline on those only
        tq = sps.t.ppf(0.5 + confidence / 2, max(B - 1, 1))
        both = base[base["batch"].isin(played)].merge(arm, on=keys + ["batch"], how="outer", suffixes=("_a", "_b")).fillna(
            {"n_a": 0, "sum_a": 0.0, "n_b": 0, "sum_b": 0.0})
        for key, g in both.groupby(keys, sort=False):
            Na, Sa, Nb, Sb = g.n_a.sum(), g.sum_a.sum(), g.n_b.sum(), g.sum_b.sum()
            if Na == 0 or Nb == 0:
                continue
            Ra, Rb = Sa / Na, Sb / Nb
            za = np.zeros(n_batches)
            zb = np.zeros(n_batches)
            idx = g.batch.to_numpy(dtype=int)
            np.add.at(za, idx, (g.sum_a.to_numpy() - Ra * g.n_a.to_numpy()) / Na)
            np.add.at(zb, idx, (g.sum_b.to_numpy() - Rb * g.n_b.to_numpy()) / Nb)
            scale = B / (B - 1) if B > 1 else float("nan")
            var_paired = scale * np.sum((zb - za) ** 2)
            var_unpaired = scale * (np.sum(za ** 2) + np.sum(zb ** 2))
            diff = Rb - Ra
            half = tq * math.sqrt(var_paired)
            half_unpaired = tq * math.sqrt(var_unpaired)
            low, high = diff - half, diff + half
            if var_paired > 0:
                p = 2 * sps.t.sf(abs(diff) / math.sqrt(var_paired), max(B - 1, 1))
            else:
                p = 0.0 if diff != 0 else 1.0
            if var_paired == 0 and key[2] == "rate" and Ra in (0.0, 1.0) and Rb in (0.0, 1.0):
                low, high, p = unanimous_rates(Sa, Na, _records(g, "a", Na), Sb, Nb, _records(g, "b", Nb), confidence)
                half = (high - low) / 2
            rows.append({"arm": other, "baseline": baseline, "metric": key[0], "group": key[1], "kind": key[2],
                         "n_arm": int(Nb), "n_baseline": int(Na), "estimate_arm": Rb, "estimate_baseline": Ra,
                         "difference": diff, "ci_low": low, "ci_high": high, "half_width": half,
                         "unpaired_half_width": half_unpaired, "p_value": p})
    table = pd.DataFrame(rows)
    if len(table):
        table["p_holm"] = holm(table["p_value"].to_numpy())
    return table


@dataclass(frozen=True)
class Precision:
    """A ``--precision`` target per metric kind: ``rate`` and ``mean`` are absolute 95 % half-widths,
    ``mean_sd`` a half-width in standard deviations of the metric (None: no target for that kind)."""

    rate: float | None = None
    mean: float | None = None
    mean_sd: float | None = None

    def target(self, kind: str, sd: float) -> float:
        if kind == "rate":
            return self.rate if self.rate is not None else math.inf
        if self.mean is not None:
            return self.mean
        return self.mean_sd * sd if self.mean_sd is not None else math.inf

    def describe(self) -> str:
        parts = []
        if self.rate is not None:
            parts.append(f"rates ±{self.rate:g}")
        if self.mean is not None:
            parts.append(f"means ±{self.mean:g}")
        if self.mean_sd is not None:
            parts.append(f"means ±{self.mean_sd:g} sd")
        return ", ".join(parts)


def parse_precision(value: float | str | Mapping | None) -> Precision | None:
    """``0.01`` (rates ±0.01, means ±0.01 standard deviations) or ``"rate=0.01,mean=2"`` (absolute)."""
    if value is None:
        return None
    if isinstance(value, Mapping):
        items = dict(value)
    else:
        text = str(value).strip()
        try:
            p = float(text)
        except ValueError:
            items = {}
            for item in [t.strip() for t in text.split(",") if t.strip()]:
                key, sep, number = item.partition("=")
                items[key.strip()] = number.strip() if sep else None
        else:
            if not p > 0 or math.isinf(p):
                raise SimcardsError(f"precision must be positive, got {value}")
            return Precision(rate=p, mean_sd=p)
    out = {}
    for key, number in items.items():
        if key not in ("rate", "mean"):
            raise SimcardsError(f"--precision takes a number or rate=R,mean=M; got {value!r}")
        try:
            out[key] = float(number)
        except (TypeError, ValueError):
            raise SimcardsError(f"--precision {key}= needs a number, got {number!r}") from None
        if not out[key] > 0:
            raise SimcardsError(f"precision must be positive, got {key}={number}")
    if not out:
        raise SimcardsError(f"--precision takes a number or rate=R,mean=M; got {value!r}")
    return Precision(**out)


def _sd(tally: pd.DataFrame) -> dict[tuple, float]:
    """Per (metric, group, kind): the standard deviation of one observation."""
    n = tally["n"].to_numpy(dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        m = tally["sum"].to_numpy(dtype=float) / n
        var = np.maximum(tally["sumsq"].to_numpy(dtype=float) / n - m * m, 0.0)
    return {k: float(v) for k, v in zip(zip(tally["metric"], tally["group"].astype(str), tally["kind"]), np.sqrt(var))}


def _shortfall(diffs: pd.DataFrame, precision: Precision, tallies: Mapping[str, pd.DataFrame], baseline: str) -> float:
    """The largest half-width / target ratio (<= 1: every target met)."""
    if not len(diffs):
        return 0.0
    sds = {name: _sd(t) for name, t in tallies.items()}
    worst = 0.0
    for r in diffs.itertuples(index=False):
        key = (r.metric, str(r.group), r.kind)
        sd = max(sds[baseline].get(key, 0.0), sds[r.arm].get(key, 0.0))
        target = precision.target(r.kind, sd)
        ratio = 0.0 if r.half_width == 0 else (r.half_width / target if target > 0 else math.inf)
        worst = max(worst, ratio)
    return worst


def comparison_identity(g: Game, unit: str, arms: Sequence[Arm], *, seed: int, first: int, batch: int,
                        precision, max_count: int, metrics, preset, settings, policy, seat_policy) -> dict[str, Any]:
    """What must match for a folder to hold this comparison (its hash names the default folder)."""
    return {"game": g.name, "unit": unit, "seed": seed, "first": first, "batch_size": batch,
            "precision": None if precision is None else str(precision), "max_count": max_count,
            "metrics": sorted(metrics or []) if precision is not None else [],  # they decide rounds only
            "preset": preset, "settings": list(settings), "policy": policy,
            "seat_policy": {str(k): v for k, v in sorted((seat_policy or {}).items())},
            "arms": [_arm_dict(a) for a in arms]}


def _arm_dict(a: Arm) -> dict[str, Any]:
    return {"name": a.name, "settings": list(a.settings), "preset": a.preset, "policy": a.policy,
            "seat_policy": {str(k): v for k, v in sorted(a.seat_policy.items())}}


def _digest(d: Mapping[str, Any]) -> str:
    import hashlib

    return hashlib.sha256(json.dumps(d, sort_keys=True, default=str).encode()).hexdigest()[:10]


class ComparisonFolder:
    """A comparison's folder: locked, refused if it holds something else, one results folder per arm and round."""

    def __init__(self, path: Path, identity: dict[str, Any], *, force: bool = False):
        from simcards.experiment.store import COMPARE_FORMAT, clear_folder, prepare_folder, read_meta_file

        self.path = Path(path)
        self.identity = identity
        self._lock = prepare_folder(self.path)
        try:
            old = read_meta_file(self.path, force=force)
            problem = None
            if old is None and _owned_or_foreign(self.path):
                problem = f"output folder {self.path} is not empty and holds no simcards results"
            elif old is not None and old.get("format") != COMPARE_FORMAT and old.get("kind") != "compare":
                problem = f"output folder {self.path} holds a run ({_describe_run(old)}), not this comparison"
            elif old is not None and old.get("comparison") != identity:
                problem = f"output folder {self.path} holds a different comparison ({_describe_comparison(old)})"
            if problem:
                if not force:
                    raise SimcardsError(f"{problem}; choose another --out or pass --force to replace it")
                clear_folder(self.path)
                old = None
            self.meta = old or {"format": COMPARE_FORMAT, "kind": "compare", "comparison": identity,
                                "status": "running"}
            self.meta["status"] = "running"
            self.save_meta()
        except BaseException:
            self.close()
            raise

    def arm_path(self, arm_index: int, round_number: int) -> Path:
        return self.path / "arms" / f"arm{arm_index + 1}-round{round_number}"

    def save_meta(self) -> None:
        from simcards.experiment.store import atomic_write_bytes

        atomic_write_bytes(self.path / "meta.json", json.dumps(self.meta, indent=2, default=str).encode())

    def close(self) -> None:
        self._lock.release()


def _owned_or_foreign(path: Path) -> bool:
    return any(not p.name.startswith(".") for p in path.iterdir())


def _describe_run(meta: Mapping[str, Any]) -> str:
    spec = meta.get("spec") or {}
    return f"{spec.get('game')} {spec.get('unit')} x{spec.get('count')} seed {spec.get('seed')}"


def _describe_comparison(meta: Mapping[str, Any]) -> str:
    arms = meta.get("arms") or (meta.get("comparison") or {}).get("arms") or []
    return f"{meta.get('game') or (meta.get('comparison') or {}).get('game')}: " + \
        " vs ".join(str(a.get("name")) for a in arms)


def compare(game: str | Game, arms: Sequence[Arm], *, unit: str | None = None, count: int | None = None,
            seed: int = 0, setup: Setup = Setup(), precision: float | str | None = None,
            max_count: int | None = None, metrics: Sequence[str] | None = None,
            execution: Execution = Execution(), question: str | None = None, spec_file: str | None = None,
            select: Callable | None = None, extra: Mapping[str, Any] | None = None,
            **counts: int | None) -> CompareResult:
    """Run every arm on the same records and return summaries and paired differences.

    ``setup``: the house rules and policies every arm starts from (:class:`~simcards.experiment.spec.Setup`;
    ``variant`` is written as settings). ``execution``: where and how to compute
    (:class:`~simcards.experiment.runner.Execution`).
    With its ``out`` (or ``default_out``: ``results/compare-<game>-<unit>-<hash>``) the comparison
    is durable like a run: each arm's finished batches are kept as they finish, and the same
    call resumes. ``precision``: see :func:`parse_precision`.

    ``select(active, batches, round) -> active``: after each round, the arms that go on
    (the baseline always does); with it, rounds double until ``max_count`` (a sweep's
    sequential halving, :mod:`simcards.experiment.sweep`). ``extra``: more identity and
    meta (a sweep's definition), so a folder holds one sweep only.
    """
    from simcards.experiment.spec import resolve_count

    g = game if isinstance(game, Game) else get_game(game)
    if len(arms) < 2:
        raise SimcardsError("compare needs at least two arms (--arm ... --arm ...)")
    names = [a.name for a in arms]
    if len(set(names)) != len(names):
        raise SimcardsError(f"two arms are called {next(n for n in names if names.count(n) > 1)!r}; name them with name=...")
    unit_name, n = resolve_count(g, unit, count, counts)
    target = parse_precision(precision)
    u = g.unit(unit_name)
    first = n if n is not None else (MIN_BATCHES * max(u.chunk_size // 8, 50) if target else 10_000)
    if max_count is not None:
        if max_count < 1:
            raise SimcardsError(f"--max-count must be at least 1, not {max_count}")
        if n is not None and n > max_count:
            raise SimcardsError(f"the first round ({n:,} {u.plural}) is larger than --max-count {max_count:,}")
        first = min(first, max_count)  # the cap holds for the first round too
    else:
        max_count = max(first, 64 * first) if target else first
    batch = max(first // MIN_BATCHES, 1)
    preset, settings, policy, seat_policy = setup.preset, setup.rule_settings(), setup.policy, setup.seat_policy

    def spec_for(arm: Arm, start: int, size: int):
        seats = dict(seat_policy or {})
        seats.update(arm.seat_policy)
        return make_spec(g, unit=unit_name, count=size, seed=seed, preset=arm.preset or preset,
                         settings=list(settings) + list(arm.settings), policy=arm.policy or policy,
                         seat_policy=seats, records="summary", start=start)

    for arm in arms:  # validate every arm before any work
        spec_for(arm, 0, first)
    identity = comparison_identity(g, unit_name, arms, seed=seed, first=first, batch=batch, precision=precision,
                                   max_count=max_count, metrics=metrics, preset=preset, settings=settings,
                                   policy=policy, seat_policy=seat_policy)
    if extra:
        identity = dict(identity, **extra)
    out = execution.out
    if out is None and execution.default_out:
        out = Path("results") / f"compare-{g.name}-{unit_name}-{_digest(identity)}"
    folder = ComparisonFolder(Path(out), identity, force=execution.force) if out is not None else None
    try:
        result = _run_rounds(g, arms, spec_for, folder, first=first, batch=batch, target=target,
                             max_count=max_count, metrics=metrics, echo=execution.echo, unit=unit_name,
                             select=select, **execution.run_options())
        result.seed, result.precision = seed, precision  # what the rounds do not need to know
        result.meta = {"kind": "compare", "game": g.name, "unit": unit_name, "seed": seed, "count": result.count,
                       "chunk_size": batch, "preset": preset, "settings": list(settings), "policy": policy,
                       "seat_policy": {str(k): v for k, v in (seat_policy or {}).items()}, "precision": precision,
                       "precision_meaning": target.describe() if target else None,
                       "max_count": max_count, "metrics": list(metrics or []), "question": question,
                       "spec_file": spec_file, "arms": [_arm_dict(a) for a in arms], "rounds": result.rounds,
                       "resolved": result.resolved, "seconds": round(result.seconds, 3),
                       "identical": result.identical, **(extra or {})}
        if folder is not None:
            save_comparison(result, folder, g)
    finally:
        if folder is not None:
            folder.close()
    return result


def _run_rounds(g: Game, arms, spec_for, folder, *, first, batch, target, max_count, metrics, echo, unit,
                select=None, **execute_options) -> CompareResult:
    """Rounds of records (the first, then doubling) until the precision target or the cap
    (with ``select``: until the cap, the arms it keeps going on)."""
    per_arm: dict[str, dict[int, pd.DataFrame]] = {a.name: {} for a in arms}  # arm -> batch -> tally
    tallies = {a.name: stats.empty() for a in arms}
    done, size, rounds = 0, first, 0
    active = list(arms)
    started = time.perf_counter()
    while True:
        rounds += 1
        for i, arm in enumerate(arms):
            if arm not in active:
                continue
            spec = spec_for(arm, done, size)
            result = execute(spec, out=folder.arm_path(i, rounds) if folder else None, batch_size=batch,
                             **execute_options)
            for b, t in result.batch_tallies.items():  # a batch split by a round boundary is added up
                per_arm[arm.name][b] = stats.merge(per_arm[arm.name][b], t) if b in per_arm[arm.name] else t
            tallies[arm.name] = stats.merge(tallies[arm.name], result.tally)
        done += size
        all_batches = pd.concat([t.assign(arm=name, batch=b) for name, bt in per_arm.items()
                                 for b, t in sorted(bt.items())], ignore_index=True)
        n_batches = int(all_batches["batch"].max()) + 1
        if metrics:
            unknown = sorted(set(metrics) - set(all_batches["metric"]))
            if unknown:
                raise SimcardsError(f"{g.name} has no metric {unknown[0]!r} for unit {unit} "
                                    f"(metrics: {', '.join(sorted(set(all_batches['metric'])))})")
        diffs = paired_differences(all_batches, arms[0].name, [a.name for a in arms[1:]], n_batches, metrics)
        worst = _shortfall(diffs, target, tallies, arms[0].name) if target else 0.0
        if echo and target:
            echo(f"round {rounds}: {done:,} {unit}s per arm, widest half-width {worst:.2f} x the target "
                 f"({target.describe()})")
        if done >= max_count or (target is not None and worst <= 1) or (target is None and select is None):
            break
        if select is not None:
            kept = select(active, all_batches, rounds)
            active = [arms[0]] + [a for a in arms[1:] if a in kept]
            if echo:
                echo(f"round {rounds}: {done:,} {unit}s per arm; {len(active) - 1} of {len(arms) - 1} values go on")
        size = min(done, max_count - done)  # double, within the cap
    summaries = {name: stats.finalize(t) for name, t in tallies.items()}
    if metrics:
        summaries = {k: v[v.metric.isin(metrics)].reset_index(drop=True) for k, v in summaries.items()}
    return CompareResult(game=g.name, unit=unit, seed=0, count=done, arms=list(arms), summaries=summaries,
                         differences=diffs, batches=all_batches, rounds=rounds,
                         seconds=time.perf_counter() - started, resolved=target is None or worst <= 1,
                         identical=identical_arms(all_batches, [a.name for a in arms]))


def identical_arms(batches: pd.DataFrame, names: Sequence[str]) -> list[list[str]]:
    """Groups of arms whose every batch tally is equal (they played every record alike)."""
    groups: dict[bytes, list[str]] = {}
    for name in names:
        t = batches[batches["arm"] == name].drop(columns="arm")
        t = t.sort_values(["batch", "metric", "group", "kind"]).reset_index(drop=True)
        groups.setdefault(pd.util.hash_pandas_object(t, index=False).to_numpy().tobytes(), []).append(name)
    return [g for g in groups.values() if len(g) > 1]


def save_comparison(result: CompareResult, folder: ComparisonFolder, game: Game) -> None:
    """Write a comparison's files (checksummed in meta.json): summary.csv, differences.csv, batches.parquet, figures."""
    from simcards.experiment.store import _version, atomic_write_csv, atomic_write_parquet, git_commit, machine

    out = folder.path
    files = {"summary.csv": atomic_write_csv(out / "summary.csv", result.arm_table()),
             "differences.csv": atomic_write_csv(out / "differences.csv", result.differences),
             "batches.parquet": atomic_write_parquet(out / "batches.parquet", result.batches)}
    folder.meta.update(result.meta, format=folder.meta["format"], comparison=folder.identity, status="complete",
                       files=files, simcards_version=_version(), git_commit=git_commit(), machine=machine(),
                       created=folder.meta.get("created") or time.strftime("%Y-%m-%dT%H:%M:%S%z"))
    folder.save_meta()
    result.out = out


def print_differences(result: CompareResult, echo: Callable[[str], None], max_rows: int = 40) -> None:
    """The differences table, one line per metric/group, as the CLI prints it."""
    d = result.differences
    if not len(d):
        echo("(no metric common to the arms)")
        return
    width = max([3] + [len(str(a)) for a in d["arm"]])  # never cut names: two could print alike
    echo(f"{'metric':<24} {'group':<10} {'arm':<{width}} {'baseline':>10} {'arm value':>10} {'difference':>11}  "
         f"95% CI (paired)        unpaired ±")
    for r in d.head(max_rows).itertuples(index=False):
        echo(f"{r.metric:<24} {str(r.group):<10} {str(r.arm):<{width}} {r.estimate_baseline:>10.4g} "
             f"{r.estimate_arm:>10.4g} {r.difference:>+11.4g}  [{r.ci_low:+.4g}, {r.ci_high:+.4g}]   "
             f"{r.unpaired_half_width:.3g}")
    if len(d) > max_rows:
        echo(f"... {len(d) - max_rows} more rows in differences.csv")
    if len(d) > 1:
        echo(f"note: {len(d)} differences are reported; each interval is 95 % on its own. Holm-adjusted "
             f"p-values for the whole family are in differences.csv (p_holm).")
    for group in result.identical:
        echo(identical_note(group))


def identical_note(group: Sequence[str]) -> str:
    """The warning for arms that played every record alike (console and report)."""
    return (f"note: these arms played identically: {' and '.join(group)} (every batch of every metric equal); "
            f"the rule never triggered with these policies")
