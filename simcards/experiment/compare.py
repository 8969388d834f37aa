"""Compare arms (house rules and/or policies) on exactly the same deals.

Every arm plays records ``0 .. n-1`` of the same seed, so the deals are identical
(common random numbers) and only the rules or policies differ. Each chunk of records
is a *batch*: the arms' tallies per batch give paired differences whose variance is
estimated by linearising the ratio estimators over batches (the batch-means method),
so any metric a game tallies — a rate, a mean, by group — can be compared without
per-record bookkeeping. The same batches without pairing give the unpaired interval
shown beside it.

With ``precision``, rounds of new records (doubling) are added until every reported
difference's 95 % half-width is at most ``precision``, or ``max_count`` is reached.
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
from simcards.experiment import stats
from simcards.experiment.runner import execute
from simcards.experiment.spec import make_spec

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

    settings = [f"{k}={_toml_value(v)}" for k, v in (table.get("variant") or {}).items()]
    settings += list(table.get("settings", []))
    return Arm(name=str(table.get("name", f"arm{index + 1}")), settings=tuple(settings), preset=table.get("preset"),
               policy=table.get("policy"), seat_policy=seat_policy_table(table.get("seat_policy"), f"arm {index + 1}"))


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return ",".join(str(x) for x in v)
    return str(v)


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

    def arm_table(self) -> pd.DataFrame:
        """All arms' summaries stacked, with an ``arm`` column."""
        frames = [s.assign(arm=name) for name, s in self.summaries.items()]
        table = pd.concat(frames, ignore_index=True)
        return table[["arm"] + [c for c in table.columns if c != "arm"]]


def _ratio_terms(batch: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Per (metric, group, batch): s, n and the whole-run totals S, N."""
    totals = batch.groupby(keys, as_index=False)[["n", "sum"]].sum().rename(columns={"n": "N", "sum": "S"})
    return batch.merge(totals, on=keys)


def paired_differences(batches: pd.DataFrame, baseline: str, others: Sequence[str], n_batches: int,
                       metrics: Sequence[str] | None = None, confidence: float = 0.95) -> pd.DataFrame:
    """Differences ``arm - baseline`` per metric and group with paired and unpaired intervals.

    ``batches`` has columns ``arm, batch, metric, group, kind, n, sum`` (one tally per batch).
    Each arm's estimate is ``R = S / N``; its linearised per-batch residual is
    ``z_b = (s_b - R n_b) / N``, and ``Var(R) ~ B/(B-1) * sum_b z_b^2``. For a paired
    difference the residuals are subtracted batch by batch before squaring.
    """
    from scipy import stats as sps
    from statsmodels.stats.multitest import multipletests

    keys = ["metric", "group", "kind"]
    if metrics:
        batches = batches[batches["metric"].isin(metrics)]
    rows = []
    base = batches[batches["arm"] == baseline]
    B = n_batches
    tq = sps.t.ppf(0.5 + confidence / 2, max(B - 1, 1))
    for other in others:
        arm = batches[batches["arm"] == other]
        both = base.merge(arm, on=keys + ["batch"], how="outer", suffixes=("_a", "_b")).fillna(
            {"n_a": 0, "sum_a": 0.0, "n_b": 0, "sum_b": 0.0})
        for key, g in both.groupby(keys, sort=False):
            Na, Sa, Nb, Sb = g.n_a.sum(), g.sum_a.sum(), g.n_b.sum(), g.sum_b.sum()
            if Na == 0 or Nb == 0:
                continue
            Ra, Rb = Sa / Na, Sb / Nb
            za = np.zeros(B)
            zb = np.zeros(B)
            idx = g.batch.to_numpy(dtype=int)
            np.add.at(za, idx, (g.sum_a.to_numpy() - Ra * g.n_a.to_numpy()) / Na)
            np.add.at(zb, idx, (g.sum_b.to_numpy() - Rb * g.n_b.to_numpy()) / Nb)
            scale = B / (B - 1) if B > 1 else float("nan")
            var_paired = scale * np.sum((zb - za) ** 2)
            var_unpaired = scale * (np.sum(za ** 2) + np.sum(zb ** 2))
            diff = Rb - Ra
            half = tq * math.sqrt(var_paired)
            half_unpaired = tq * math.sqrt(var_unpaired)
            if var_paired > 0:
                p = 2 * sps.t.sf(abs(diff) / math.sqrt(var_paired), max(B - 1, 1))
            else:
                p = 0.0 if diff != 0 else 1.0
            rows.append({"arm": other, "baseline": baseline, "metric": key[0], "group": key[1], "kind": key[2],
                         "n_arm": int(Nb), "n_baseline": int(Na), "estimate_arm": Rb, "estimate_baseline": Ra,
                         "difference": diff, "ci_low": diff - half, "ci_high": diff + half, "half_width": half,
                         "unpaired_half_width": half_unpaired, "p_value": p})
    table = pd.DataFrame(rows)
    if len(table):
        table["p_holm"] = multipletests(table["p_value"].to_numpy(), method="holm")[1]
    return table


def compare(game: str | Game, arms: Sequence[Arm], *, unit: str | None = None, count: int | None = None,
            seed: int = 0, preset: str | None = None, settings: Sequence[str] = (), policy: str | None = None,
            seat_policy: Mapping[int, str] | None = None, precision: float | None = None,
            max_count: int | None = None, metrics: Sequence[str] | None = None, threads: int | None = None,
            backend: str = "local", scheduler: str | None = None, workers: int | None = None,
            out: str | Path | None = None, progress: bool = False, question: str | None = None,
            echo: Callable[[str], None] | None = None, spec_file: str | None = None,
            **counts: int | None) -> CompareResult:
    """Run every arm on the same records and return summaries and paired differences."""
    from simcards.api import resolve_count

    g = game if isinstance(game, Game) else get_game(game)
    if len(arms) < 2:
        raise SimcardsError("compare needs at least two arms (--arm ... --arm ...)")
    names = [a.name for a in arms]
    if len(set(names)) != len(names):
        raise SimcardsError(f"two arms are called {next(n for n in names if names.count(n) > 1)!r}; name them with name=...")
    unit_name, n = resolve_count(g, unit, count, counts)
    if precision is not None and precision <= 0:
        raise SimcardsError(f"precision must be positive, got {precision}")
    u = g.unit(unit_name)
    first = n if n is not None else (MIN_BATCHES * max(u.chunk_size // 8, 50) if precision else 10_000)
    if max_count is None:
        max_count = max(first, 64 * first) if precision else first
    chunk = max(first // MIN_BATCHES, 1)

    def spec_for(arm: Arm, start: int, size: int):
        seats = dict(seat_policy or {})
        seats.update(arm.seat_policy)
        return make_spec(g, unit=unit_name, count=size, seed=seed, preset=arm.preset or preset,
                         settings=list(settings) + list(arm.settings), policy=arm.policy or policy,
                         seat_policy=seats, chunk_size=chunk, records="summary", start=start)

    for arm in arms:  # validate every arm before any work
        spec_for(arm, 0, first)
    batches: list[pd.DataFrame] = []
    tallies = {a.name: stats.empty() for a in arms}
    done, size, rounds = 0, first, 0
    started = time.perf_counter()
    while True:
        rounds += 1
        for arm in arms:
            spec = spec_for(arm, done, size)
            result = execute(spec, threads=threads, backend=backend, scheduler=scheduler, workers=workers,
                             progress=progress)
            offset = done // chunk
            for c, t in result.chunk_tallies.items():
                batches.append(t.assign(arm=arm.name, batch=offset + c))
            tallies[arm.name] = stats.merge(tallies[arm.name], result.tally)
        done += size
        all_batches = pd.concat(batches, ignore_index=True)
        n_batches = int(all_batches["batch"].max()) + 1
        diffs = paired_differences(all_batches, arms[0].name, [a.name for a in arms[1:]], n_batches, metrics)
        worst = float(diffs["half_width"].max()) if len(diffs) else 0.0
        if echo and precision:
            echo(f"round {rounds}: {done:,} {u.name}s per arm, widest paired half-width {worst:.4g}")
        if precision is None or worst <= precision or done >= max_count:
            break
        size = min(done, max_count - done)  # double, within the cap
    summaries = {name: stats.finalize(t) for name, t in tallies.items()}
    if metrics:
        summaries = {k: v[v.metric.isin(metrics)].reset_index(drop=True) for k, v in summaries.items()}
    result = CompareResult(game=g.name, unit=unit_name, seed=seed, count=done, arms=list(arms), summaries=summaries,
                           differences=diffs, batches=all_batches, rounds=rounds,
                           seconds=time.perf_counter() - started, precision=precision,
                           resolved=precision is None or worst <= precision)
    result.meta = {"kind": "compare", "game": g.name, "unit": unit_name, "seed": seed, "count": done,
                   "chunk_size": chunk, "preset": preset, "settings": list(settings), "policy": policy,
                   "seat_policy": {str(k): v for k, v in (seat_policy or {}).items()}, "precision": precision,
                   "max_count": max_count, "metrics": list(metrics or []), "question": question,
                   "spec_file": spec_file,
                   "arms": [{"name": a.name, "settings": list(a.settings), "preset": a.preset, "policy": a.policy,
                             "seat_policy": {str(k): v for k, v in a.seat_policy.items()}} for a in arms],
                   "rounds": rounds, "resolved": result.resolved, "seconds": round(result.seconds, 3)}
    if out is not None:
        save_comparison(result, Path(out), g)
    return result


def save_comparison(result: CompareResult, out: Path, game: Game) -> None:
    """Write a comparison folder: meta.json, summary.csv, differences.csv, batches.parquet, figures."""
    from simcards.experiment.store import _version, atomic_write_bytes, atomic_write_parquet, git_commit, machine

    out.mkdir(parents=True, exist_ok=True)
    meta_path = out / "meta.json"
    if meta_path.exists():
        try:
            old = json.loads(meta_path.read_text())
        except ValueError:
            old = None
        if not isinstance(old, dict) or old.get("kind") != "compare":
            raise SimcardsError(f"{out} holds other results; choose another --out")
    meta = dict(result.meta, format="simcards-compare-1", simcards_version=_version(), git_commit=git_commit(),
                machine=machine(), created=time.strftime("%Y-%m-%dT%H:%M:%S%z"))
    result.arm_table().to_csv(out / "summary.csv", index=False)
    result.differences.to_csv(out / "differences.csv", index=False)
    atomic_write_parquet(out / "batches.parquet", result.batches)
    atomic_write_bytes(meta_path, json.dumps(meta, indent=2, default=str).encode())
    result.out = out
    from simcards.report.figures import save_comparison_figures

    save_comparison_figures(game, result)


def compare_from_file(data: dict, *, out=None, echo: Callable = print, print_summary=None, **execute_options):
    """Run the comparison an experiment file with ``[[arms]]`` describes."""
    from simcards.experiment.files import PLURALS, seat_policy_table

    where = f"experiment file {data['_path']}"
    arms = [arm_from_table(t, i) for i, t in enumerate(data["arms"])]
    base_settings = [f"{k}={_toml_value(v)}" for k, v in (data.get("variant") or {}).items()]
    counts = {k: data[k] for k in PLURALS if k in data}
    if out is None:
        out = Path("results") / data.get("name", Path(data["_path"]).stem)
    execute_options.pop("force", None)
    result = compare(data["game"], arms, unit=data.get("unit"), count=data.get("count"), seed=data.get("seed", 0),
                     preset=data.get("preset"), settings=base_settings + list(data.get("settings", [])),
                     policy=data.get("policy"), seat_policy=seat_policy_table(data.get("seat_policy"), where),
                     precision=data.get("precision"), max_count=data.get("max_count"), metrics=data.get("metrics"),
                     out=out, question=data.get("question"), echo=echo, spec_file=data["_path"], **execute_options,
                     **counts)
    if print_summary:
        print_differences(result, echo)
    echo(f"{result.count:,} {result.unit}s per arm, {len(arms)} arms -> {result.out}")
    return result


def print_differences(result: CompareResult, echo: Callable[[str], None], max_rows: int = 40) -> None:
    """The differences table, one line per metric/group, as the CLI prints it."""
    d = result.differences
    if not len(d):
        echo("(no metric common to the arms)")
        return
    echo(f"{'metric':<24} {'group':<10} {'arm':<18} {'baseline':>10} {'arm value':>10} {'difference':>11}  95% CI (paired)        unpaired ±")
    for r in d.head(max_rows).itertuples(index=False):
        echo(f"{r.metric:<24} {str(r.group):<10} {r.arm[:18]:<18} {r.estimate_baseline:>10.4g} {r.estimate_arm:>10.4g} "
             f"{r.difference:>+11.4g}  [{r.ci_low:+.4g}, {r.ci_high:+.4g}]   {r.unpaired_half_width:.3g}")
    if len(d) > max_rows:
        echo(f"... {len(d) - max_rows} more rows in differences.csv")
    if len(d) > 1:
        echo(f"note: {len(d)} differences are reported; each interval is 95 % on its own. Holm-adjusted "
             f"p-values for the whole family are in differences.csv (p_holm).")
