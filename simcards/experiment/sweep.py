"""Sweep a policy parameter over a grid on the same deals, against a fixed field.

``simcards sweep spades --policy expert --param nil_estimate=1:5:0.5 --games 2000``
plays each value of the grid for the swept seats (by default the side of seat 0: the
seat and its partners) while the other seats play a fixed field (by default the same
policy at its defaults). Every value plays the same records of the seed (common random
numbers), so the differences between values are paired, and each is reported against
the default value with the paired batch-means interval of :mod:`compare` (the batch of
records is the unit). A sweep is a comparison whose arms are the grid values: it is
stored, resumed and reported like one.

**Sequential halving** (``halving=True``; Karnin, Koren & Somekh 2013, "Almost optimal
exploration in multi-armed bandits", in the doubling form of successive halving): the
grid of K values plays R = ceil(log2 K) rounds; after each round but the last, the better
half of the values (by their estimate, ties to the earlier value) goes on and plays twice
as many records; the last round's values reach ``count`` records (rounded down so that
every round ends on a whole batch). The default value plays
every round (it is the reference), so every value's paired interval uses exactly the
records that value played. Round 1 costs K x its records and every later round half that,
so the whole costs (1 + (R - 1) / 2) / 2^(R - 1) of a full sweep's records (one half for
K = 8, about a fifth for K = 32); it may drop a
value that is only slightly worse early; the final best value's interval is computed on
the full ``count`` records.

The best value is chosen on the same records that estimate it, so its difference from the
default is biased slightly upward (the winner's curse); the Holm-adjusted p-values of
every value's difference are given so the grid is judged as a family.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Mapping, Sequence

import pandas as pd

from simcards.core.errors import SimcardsError
from simcards.core.game import Game, get_game
from simcards.core.policy import PolicyParam, split_spec
from simcards.experiment.compare import MIN_BATCHES, Arm, CompareResult, compare, paired_differences
from simcards.experiment.runner import Execution
from simcards.experiment.spec import Setup

MAX_VALUES = 64


def parse_grid(text: str, param: PolicyParam, owner: str) -> list[float | int]:
    """``"0.3:0.9:0.1"`` (low:high:step, both ends included) or ``"0.3,0.5,0.8"`` -> values.

    Each value is validated like a ``--policy`` parameter (range, whole numbers).
    """
    text = text.strip()
    if ":" in text:
        parts = text.split(":")
        if len(parts) != 3:
            raise SimcardsError(f"--param {param.name}={text}: a grid is LOW:HIGH:STEP or V1,V2,...")
        try:
            low, high, step = (float(p) for p in parts)
        except ValueError:
            raise SimcardsError(f"--param {param.name}={text}: LOW:HIGH:STEP must be numbers") from None
        if not step > 0 or not math.isfinite(step):
            raise SimcardsError(f"--param {param.name}={text}: the step must be positive")
        if high < low:
            raise SimcardsError(f"--param {param.name}={text}: HIGH is below LOW")
        count = int(math.floor((high - low) / step + 1e-9)) + 1
        if count > MAX_VALUES:
            raise SimcardsError(f"--param {param.name}={text}: {count} values; at most {MAX_VALUES} "
                                f"(use a larger step)")
        raw = [round(low + i * step, 6) for i in range(count)]
        texts = [repr(v) for v in raw]
    else:
        texts = [t.strip() for t in text.split(",") if t.strip()]
        if not texts:
            raise SimcardsError(f"--param {param.name}=: give LOW:HIGH:STEP or V1,V2,...")
        if len(texts) > MAX_VALUES:
            raise SimcardsError(f"--param {param.name}: {len(texts)} values; at most {MAX_VALUES}")
    values = [param.parse(t, owner) for t in texts]
    out: list[float | int] = []
    for v in values:
        if v not in out:
            out.append(v)
    return out


def parse_seat_list(text: str | None) -> tuple[int, ...] | None:
    """``"0,2"`` -> ``(0, 2)`` (None: the default seats)."""
    if text is None or not str(text).strip():
        return None
    try:
        return tuple(int(t) for t in str(text).split(",") if t.strip())
    except ValueError:
        raise SimcardsError(f"--seats takes seat numbers separated by commas (e.g. 0,2), got {text!r}") from None


def parse_param_option(text: str) -> tuple[str, str]:
    """``"nil_estimate=1:5:0.5"`` -> ``("nil_estimate", "1:5:0.5")``."""
    name, sep, grid = text.partition("=")
    if not sep or not name.strip() or not grid.strip():
        raise SimcardsError(f"--param takes NAME=LOW:HIGH:STEP or NAME=V1,V2,...; got {text!r}")
    return name.strip(), grid.strip()


@dataclass(frozen=True)
class Objective:
    """What a sweep or a ladder compares its policies on: one metric of one group."""

    metric: str | None = None
    """Metric of the tally (None: the unit's declared objective, where the game names one)."""
    group: str | None = None
    """Group of the metric (None: the objective's, or the metric's only group)."""
    minimize: bool = False
    """Smaller is better (penalty points, set rate...)."""


@dataclass
class SweepResult:
    """A sweep: its definition, the comparison it ran and one row per value (:attr:`table`)."""

    policy: str
    param: str
    default: float
    values: list
    seats: tuple[int, ...]
    field: str
    metric: str
    group: str
    minimize: bool
    halving: bool
    comparison: CompareResult
    table: pd.DataFrame  # value, is_default, n, estimate, difference, ci_low, ci_high, p_value, p_holm, round_dropped, best

    @property
    def best(self) -> pd.Series:
        return self.table[self.table["best"]].iloc[0]


def _value_name(param: PolicyParam, value) -> str:
    return f"{param.name}={param.format(value)}"


def side_seats(g: Game, variant, seat: int = 0) -> tuple[int, ...]:
    """The seats of seat ``seat``'s side (its partners), from the game's ``sides``."""
    if g.sides is None:
        return (seat,)
    for side in g.sides(variant):
        if seat in side:
            return tuple(side)
    return (seat,)


def sweep(game: str | Game, *, policy: str, param: str, grid: str | Sequence, seats: Sequence[int] | None = None,
          field: str | None = None, objective: Objective = Objective(), halving: bool = False,
          unit: str | None = None, count: int | None = None, seed: int = 0,
          setup: Setup = Setup(), execution: Execution = Execution(),
          question: str | None = None, **counts: int | None) -> SweepResult:
    """Play every value of ``param`` (a parameter of ``policy``) on the same records; see the module doc.

    ``grid``: ``"LOW:HIGH:STEP"``, ``"V1,V2"`` or a list of values. ``seats``: who plays the
    swept policy (default: the side of seat 0); the others play ``field`` (default: the
    policy at its defaults). ``objective``: the metric and group compared (default: the unit's
    objective, when the game declares one) and whether smaller is better. ``setup``: the house
    rules (its policies are refused: the sweep seats them); ``execution``: where and how to
    compute, as for :func:`~simcards.experiment.compare.compare`.
    """
    from simcards.experiment.spec import resolve_count

    g = game if isinstance(game, Game) else get_game(game)
    metric, group, minimize = objective.metric, objective.group, objective.minimize
    rules = setup.rules_only("a sweep (--policy, --seats, --field)")
    name, given = split_spec(policy)
    swept = g.policies.policy(name)
    declared = {p.name: p for p in swept.params}
    if param not in declared:
        offered = ", ".join(declared) or "none"
        raise SimcardsError(f"policy {name} has no parameter {param!r} to sweep (its parameters: {offered}; "
                            f"see `simcards policies {g.name}`)")
    if any(k == param for k, _ in given):
        raise SimcardsError(f"--policy {policy}: do not fix {param}, the parameter being swept")
    p = declared[param]
    values = list(grid) if not isinstance(grid, str) else parse_grid(grid, p, name)
    values = [p.parse(str(v), name) for v in values]
    if len(values) < 1:
        raise SimcardsError("--param: the grid is empty")
    fixed = "".join(f":{k}={v}" for k, v in given)
    variant = g.variant(rules.preset, None, list(rules.settings))
    n_seats = g.seats(variant)
    seats = tuple(sorted(set(int(s) for s in seats))) if seats else side_seats(g, variant, 0)
    for s in seats:
        if not 0 <= s < n_seats:
            raise SimcardsError(f"--seats: seat {s} does not exist (seats are 0..{n_seats - 1})")
    if len(seats) == n_seats:
        raise SimcardsError("--seats: every seat plays the swept policy, so there is no field to play against; "
                            "leave at least one seat to the field")
    field = field or name + fixed
    g.policies.resolve(field)  # a bad field fails before any work
    unit_name, n = resolve_count(g, unit, count, counts)
    u = g.unit(unit_name)
    if metric is None:
        if u.objective is None:
            raise SimcardsError(f"--metric: {g.name} {unit_name}s have no default metric to optimise; name one "
                                f"(see the summary of `simcards run {g.name} --unit {unit_name}`)")
        metric, group = u.objective if group is None else (u.objective[0], group)
    default = p.default
    grid_values = [default] + [v for v in values if v != default]

    def arm(v) -> Arm:
        label = _value_name(p, v) + (" (default)" if v == default else "")
        spec = f"{name}{fixed}:{param}={p.format(v)}"
        return Arm(name=label, seat_policy={s: spec for s in seats})

    arms = [arm(v) for v in grid_values]
    direction = -1.0 if minimize else 1.0
    n_total = n if n is not None else 10_000
    rounds = max(1, math.ceil(math.log2(len(values)))) if halving and len(values) > 2 else 1
    first = max(n_total // 2 ** (rounds - 1), 1)
    if first >= MIN_BATCHES:  # whole batches in the first round, so every round ends on a batch boundary
        first -= first % (first // MIN_BATCHES)  # and a dropped value is paired on exactly its records
    if rounds > 1:
        n_total = first * 2 ** (rounds - 1)  # the finalists' records, rounded down to whole batches
    key = {}

    def estimates(batches: pd.DataFrame) -> dict[str, float]:
        rows = batches[(batches["metric"] == metric) & (batches["group"].astype(str) == str(key["group"]))]
        by_arm = rows.groupby("arm")[["sum", "n"]].sum()
        return {a: (r["sum"] / r["n"] if r["n"] else math.nan) for a, r in by_arm.iterrows()}

    def select(active: list[Arm], batches: pd.DataFrame, round_number: int) -> list[Arm]:
        _resolve_group(batches, metric, group, key, g, unit_name)
        est = estimates(batches)
        contenders = [a for a in active[1:]]
        ranked = sorted(contenders, key=lambda a: (-direction * est.get(a.name, -math.inf * direction),
                                                   arms.index(a)))
        keep = ranked[:max(1, math.ceil(len(ranked) / 2))]
        dropped_in[round_number] = [a.name for a in ranked[len(keep):]]
        return keep

    dropped_in: dict[int, list[str]] = {}
    definition = {"sweep": {"policy": name + fixed, "param": param, "default": default, "values": values,
                            "seats": list(seats), "field": field, "metric": metric, "group": group,
                            "minimize": minimize, "halving": halving, "rounds": rounds, "count": n_total}}
    result = compare(g, arms, unit=unit_name, count=first, seed=seed, setup=replace(rules, policy=field),
                     max_count=n_total, execution=execution, question=question,
                     select=select if rounds > 1 else None, extra=definition)
    _resolve_group(result.batches, metric, group, key, g, unit_name)
    table = _value_table(result, arms, grid_values, default, p, metric, key["group"], direction, dropped_in)
    result.meta["sweep"]["group"] = key["group"]
    result.meta["sweep"]["dropped"] = {str(k): v for k, v in dropped_in.items()}
    sweep_result = SweepResult(policy=name + fixed, param=param, default=default, values=grid_values,
                               seats=seats, field=field, metric=metric, group=str(key["group"]), minimize=minimize,
                               halving=rounds > 1, comparison=result, table=table)
    return sweep_result


def _resolve_group(batches: pd.DataFrame, metric: str, group: str | None, key: dict, g: Game, unit: str) -> None:
    if "group" in key:
        return
    rows = batches[batches["metric"] == metric]
    if not len(rows):
        known = ", ".join(sorted(set(batches["metric"])))
        raise SimcardsError(f"{g.name} has no metric {metric!r} for unit {unit} (metrics: {known})")
    groups = sorted(set(rows["group"].astype(str)))
    if group is None:
        if len(groups) > 1:
            raise SimcardsError(f"metric {metric} has groups {', '.join(groups)}: choose one with --group")
        key["group"] = groups[0]
    elif str(group) not in groups:
        raise SimcardsError(f"metric {metric} has no group {group!r} (groups: {', '.join(groups)})")
    else:
        key["group"] = str(group)


def _value_table(result: CompareResult, arms: list[Arm], values: list, default, p: PolicyParam, metric: str,
                 group: str, direction: float, dropped_in: Mapping[int, list[str]]) -> pd.DataFrame:
    from simcards.core.stats import holm

    batches = result.batches
    n_batches = int(batches["batch"].max()) + 1
    diffs = paired_differences(batches, arms[0].name, [a.name for a in arms[1:]], n_batches, [metric])
    diffs = diffs[diffs["group"].astype(str) == group].set_index("arm") if len(diffs) else diffs
    base_rows = batches[(batches["arm"] == arms[0].name) & (batches["metric"] == metric)
                        & (batches["group"].astype(str) == group)]
    base_estimate = base_rows["sum"].sum() / base_rows["n"].sum() if base_rows["n"].sum() else math.nan
    drop_round = {a: r for r, names in dropped_in.items() for a in names}
    rows = []
    for a, v in zip(arms, values):
        if a is arms[0]:
            rows.append({"value": v, "is_default": True, "n": int(base_rows["n"].sum()), "estimate": base_estimate,
                         "difference": 0.0, "ci_low": 0.0, "ci_high": 0.0, "p_value": math.nan,
                         "round_dropped": None})
            continue
        d = diffs.loc[a.name] if len(diffs) and a.name in diffs.index else None
        rows.append({"value": v, "is_default": False, "n": int(d["n_arm"]) if d is not None else 0,
                     "estimate": float(d["estimate_arm"]) if d is not None else math.nan,
                     "difference": float(d["difference"]) if d is not None else math.nan,
                     "ci_low": float(d["ci_low"]) if d is not None else math.nan,
                     "ci_high": float(d["ci_high"]) if d is not None else math.nan,
                     "p_value": float(d["p_value"]) if d is not None else math.nan,
                     "round_dropped": drop_round.get(a.name)})
    table = pd.DataFrame(rows)
    tested = table["p_value"].notna()
    table["p_holm"] = math.nan
    if tested.any():
        table.loc[tested, "p_holm"] = holm(table.loc[tested, "p_value"].to_numpy())
    finalists = table[table["round_dropped"].isna()]
    best_index = (finalists["estimate"] * direction).idxmax()
    table["best"] = table.index == best_index
    table["value_text"] = [p.format(v) for v in table["value"]]
    return table.sort_values("value").reset_index(drop=True)


def save_sweep(result: SweepResult) -> None:
    """``sweep.csv`` beside the comparison's files, checksummed in its meta.json (call it
    holding the folder's lock: ``app.workflows.sweep`` does)."""
    import json

    from simcards.experiment.store import atomic_write_bytes, atomic_write_csv, read_meta_file

    out = result.comparison.out
    meta = read_meta_file(out)
    meta["files"]["sweep.csv"] = atomic_write_csv(out / "sweep.csv", result.table)
    meta["sweep"] = result.comparison.meta["sweep"]
    atomic_write_bytes(out / "meta.json", json.dumps(meta, indent=2, default=str).encode())


def sweep_lines(result: SweepResult) -> list[str]:
    """The sweep table as the CLI prints it: one line per value, the best marked."""
    t = result.table
    c = result.comparison
    better = "smaller" if result.minimize else "larger"
    lines = [f"{result.param} of {result.policy} for seats {', '.join(map(str, result.seats))} against "
             f"{result.field}; metric {result.metric} [{result.group}] ({better} is better); "
             f"{c.count:,} {c.unit}s of seed {c.seed}" + (", sequential halving" if result.halving else ""),
             f"{'value':>10} {'n':>9} {'estimate':>10} {'vs default':>11}  95% CI (paired)         p (Holm)"]
    for r in t.itertuples(index=False):
        mark = "  <- best" if r.best else ""
        if r.is_default:
            lines.append(f"{r.value_text:>10} {r.n:>9,} {r.estimate:>10.4g} {'(default)':>11}{mark}")
            continue
        dropped = f"  dropped after round {int(r.round_dropped)}" if r.round_dropped == r.round_dropped and \
            r.round_dropped is not None else ""
        lines.append(f"{r.value_text:>10} {r.n:>9,} {r.estimate:>10.4g} {r.difference:>+11.4g}  "
                     f"[{r.ci_low:+.4g}, {r.ci_high:+.4g}]   {r.p_holm:.3g}{mark}{dropped}")
    best = result.best
    if best["is_default"]:
        lines.append(f"best: the default {result.param}={best['value_text']}")
    else:
        excludes = best["ci_low"] > 0 or best["ci_high"] < 0
        lines.append(f"best: {result.param}={best['value_text']}, {best['difference']:+.4g} against the default "
                     f"(95% paired CI [{best['ci_low']:+.4g}, {best['ci_high']:+.4g}]"
                     + ("" if excludes else ", which includes 0: not distinguishable from the default") + ")")
    return lines
