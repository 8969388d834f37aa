"""A strength ladder: every policy against every other, on the same deals, seats swapped.

For each pair of policies (A, B) two arms play the same records of the seed: A at seat 0's
side (seat 0 and its partners) against a field of B, and B at that side against a field of
A. The unit's objective (a side-0 win rate or win share) in the first arm minus the second
is twice A's edge over B: the deals and the seats are the same, only who holds them
changes, so deal luck and seat advantage cancel and the difference is paired (the
batch-means interval of :mod:`compare`; the batch of records is the unit). The edge is
reported as half that difference, with its interval halved:

    edge(A over B) = (objective[A at side 0 vs B] - objective[B at side 0 vs A]) / 2

In a two-sided game whose objective is side 0's win rate this is A's win rate over both
seatings minus one half. Each pair is an ordinary comparison folder under ``pairs/`` (so an
interrupted ladder resumes); ``ladder.csv`` holds one row per ordered pair.

The pairs' edges with their intervals are the answer. The ranking only summarises them, by
the Copeland score: the pairs a policy wins clearly (its edge's interval lies above zero)
minus those it loses clearly. An average of the edges would count a win over ``random``
like a win over the strongest opponent, and the field decides it; the Copeland score
counts each opponent once, and only where the deals have decided. Ties share a rank.

Without ``policies`` every built-in takes part, a searching one (:attr:`Policy.searching`)
at its :attr:`Policy.ladder` parameters: a cheaper search budget, so that the default
ladder takes minutes, named in the tables (``pimc:worlds=8:bid_worlds=8``).

With ``dd_deals`` (games with double-dummy columns, docs/double-dummy.md) each policy also
plays that many deals at every seat with the double-dummy columns (``run --records dd``,
under ``dd/``): the tricks its cards cost against double-dummy play and, where the game
tallies them, its bids against the double-dummy tricks. ``dd.csv`` holds those metrics.

Each policy's own bids would confound that measure: the contracts decide what a trick is
worth, and no decision made while a Nil is alive is scored. So by default every policy
plays its cards under the same bids: one reference policy (``dd_bids``; by default
``expert`` where the game has it, else the first policy named) makes every decision but
card play (bids, Blind Nil, the exchange, a misdeal call: ``PolicyCatalog.table``'s
``bidding``) at every seat, and the policy measured plays the cards. The deals, and so the
contracts, are then the same in every policy's run, and ``dd_ratio.csv`` holds each
policy's points per decision over the reference's, overall and by kind of decision, with a
paired bootstrap interval over the deals (:func:`dd_ratios`). ``dd_bids="own"``: each
policy makes its own bids (the ratios are then not paired on the contracts).
"""
from __future__ import annotations

import itertools
import json
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Sequence

import pandas as pd

from simcards.core.errors import SimcardsError
from simcards.core.game import Game, get_game
from simcards.experiment.compare import Arm, CompareResult, compare
from simcards.experiment.runner import Execution
from simcards.experiment.spec import Setup
from simcards.experiment.sweep import Objective, side_seats


DEFAULT_COUNT = 1_000  # records per pair (each way round) when no count is given


@dataclass
class LadderResult:
    game: str
    unit: str
    seed: int
    count: int
    policies: list[str]
    metric: str
    group: str
    minimize: bool
    pairs: pd.DataFrame  # policy, opponent, edge, ci_low, ci_high, p_value, n (both orders of each pair)
    ranking: pd.DataFrame  # rank, policy, copeland (clear wins - clear losses), clear_wins, clear_losses
    comparisons: dict
    seconds: float
    out: Path | None = None
    dd: pd.DataFrame | None = None  # policy + the double-dummy metrics of its summary (with dd_deals)
    dd_deals: int = 0
    dd_bids: str = ""  # who bid in the double-dummy runs: a policy, or "own" (each its own)
    dd_reference: str = ""  # the policy the ratios divide by
    dd_ratio: pd.DataFrame | None = None  # dd_ratios(): each policy's points per decision over the reference's


OWN_BIDS = "own"  # dd_bids: each policy makes its own non-card decisions
BOOTSTRAP = 2_000  # resamples of the deals behind each ratio's interval


def dd_bidder(g: Game, names: Sequence[str], dd_bids: str | None) -> tuple[str, str]:
    """(who bids in the double-dummy runs, the policy the ratios divide by): ``dd_bids``, or by
    default ``expert`` where the game has it, else the first of ``names``; ``"own"``: every
    policy bids for itself (also where the game cannot hand its bids to another policy)."""
    reference = "expert" if "expert" in g.policies.builtins else names[0]
    catalog = g.policies
    can = bool(getattr(catalog, "card_decisions", ())) and getattr(catalog, "params_at", None) is not None
    if dd_bids is None:
        return (reference if can else OWN_BIDS), reference
    if dd_bids.strip() == OWN_BIDS:
        return OWN_BIDS, reference
    if not can:
        raise SimcardsError(f"--dd-bids: {g.name} cannot hand its bids to another policy "
                            f"(no card-play decision or parameter slots); use --dd-bids own")
    bidder = g.policies.canonical(dd_bids)
    return bidder, bidder


def default_unit(g: Game) -> str:
    """The unit a ladder plays by default: a whole game if the game has one with an objective."""
    with_objective = [u for u in g.units if u.objective is not None]
    if not with_objective:
        raise SimcardsError(f"{g.name} declares no objective for any unit; give --unit, --metric and --group")
    for name in ("game", "match", "baazi"):
        for u in with_objective:
            if u.name == name:
                return u.name
    return with_objective[0].name




def ladder(game: str | Game, *, policies: Sequence[str] | None = None, unit: str | None = None,
           count: int | None = None, seed: int = 0, objective: Objective = Objective(), setup: Setup = Setup(),
           execution: Execution = Execution(),
           dd_deals: int = 0, dd_bids: str | None = None,
           **counts: int | None) -> LadderResult:
    """Play every pair of ``policies`` (default: every built-in, those that search at their
    ladder budget, :attr:`Policy.ladder`) both ways round; see the module doc. ``objective``:
    the metric of seat 0's side compared (default: the unit's objective); ``setup``: the
    house rules (its policies are refused: the ladder seats them); ``execution``:
    where and how to compute (``default_out`` aside: a ladder is written only to ``out``)."""
    from simcards.experiment.spec import resolve_count
    from simcards.experiment.store import prepare_folder, read_meta_file

    g = game if isinstance(game, Game) else get_game(game)
    metric, group, minimize = objective.metric, objective.group, objective.minimize
    rules = setup.rules_only("a ladder (--policies)")
    preset, settings = rules.preset, rules.settings
    names = list(policies) if policies else g.policies.ladder_specs()
    names = [g.policies.canonical(p) for p in names]  # one-line errors for bad names or parameters
    if len(set(names)) != len(names):
        raise SimcardsError("--policies: a policy is named twice")
    if len(names) < 2:
        raise SimcardsError("a ladder needs at least two policies")
    given_unit = unit or next((u.name for u in g.units if counts.get(u.plural) is not None), None)
    unit_name, n = resolve_count(g, given_unit or default_unit(g), count, counts)
    u = g.unit(unit_name)
    if metric is None:
        if u.objective is None:
            raise SimcardsError(f"{g.name} {unit_name}s declare no objective: give --metric (and --group)")
        metric, group = u.objective
    n = n if n is not None else DEFAULT_COUNT
    if dd_deals:
        if isinstance(dd_deals, bool) or not isinstance(dd_deals, int) or dd_deals < 0:
            raise SimcardsError(f"--dd-deals must be a positive whole number, got {dd_deals!r}")
        if g.double_dummy is None or "deal" not in g.double_dummy.units:
            raise SimcardsError(f"--dd-deals: {g.name} has no double-dummy columns for deals (docs/double-dummy.md)")
    elif dd_bids is not None:
        raise SimcardsError("--dd-bids goes with --dd-deals")
    bidder, reference = dd_bidder(g, names, dd_bids) if dd_deals else ("", "")
    variant = g.variant(preset, None, list(settings))
    side = side_seats(g, variant, 0)
    if len(side) == g.seats(variant):
        raise SimcardsError(f"{g.name}: seat 0's side holds every seat, so there is no field to play against")
    identity = {"kind": "ladder", "game": g.name, "unit": unit_name, "count": n, "seed": seed, "policies": names,
                "metric": metric, "group": group, "minimize": minimize, "preset": preset, "settings": list(settings),
                "dd_deals": dd_deals}
    if dd_deals:
        identity["dd_bids"] = bidder
    out, force, echo = execution.out, execution.force, execution.echo
    lock = None
    if out is not None:
        out = Path(out)
        lock = prepare_folder(out)
    started = time.perf_counter()
    try:
        if out is not None:
            old = read_meta_file(out, force=force)
            if old is not None and old.get("ladder") != identity:
                if not force:
                    raise SimcardsError(f"output folder {out} holds something else; choose another --out or pass --force")
                from simcards.experiment.store import clear_folder

                clear_folder(out)
            _write_meta(out, {"format": "simcards-compare-1", "kind": "ladder", "ladder": identity,
                              "status": "running"})
        comparisons: dict[tuple[str, str], CompareResult] = {}
        pairs = list(itertools.combinations(names, 2))
        for k, (a, b) in enumerate(pairs):
            if echo:
                echo(f"pair {k + 1} of {len(pairs)}: {a} against {b}")
            arms = [Arm(name=f"{a} at side 0", policy=b, seat_policy={s: a for s in side}),
                    Arm(name=f"{b} at side 0", policy=a, seat_policy={s: b for s in side})]
            pair_out = (out / "pairs" / f"pair{k + 1}") if out is not None else None
            comparisons[(a, b)] = compare(g, arms, unit=unit_name, count=n, seed=seed, setup=rules,
                                          metrics=[metric],
                                          execution=replace(execution, out=pair_out, default_out=False, echo=None))
        table = _pair_table(comparisons, metric, str(group), -1.0 if minimize else 1.0)
        ranking = _ranking(table, names)
        dd_table = dd_ratio = None
        if dd_deals:
            dd_table, records = _double_dummy(g, names, dd_deals, seed, rules, out, echo, bidder,
                                              execution.run_options())
            dd_ratio = dd_ratios(records, reference)
        result = LadderResult(game=g.name, unit=unit_name, seed=seed, count=n, policies=names, metric=metric,
                              group=str(group), minimize=minimize, pairs=table, ranking=ranking,
                              comparisons=comparisons, seconds=time.perf_counter() - started, out=out,
                              dd=dd_table, dd_deals=dd_deals, dd_bids=bidder, dd_reference=reference,
                              dd_ratio=dd_ratio)
        if out is not None:
            save_ladder(result, identity)
    finally:
        if lock is not None:
            lock.release()
    return result


def _double_dummy(g: Game, names, dd_deals, seed, rules: Setup, out, echo, bidder, options):
    """Each policy at every seat over ``dd_deals`` deals with the double-dummy columns, its
    cards under ``bidder``'s bids (or its own: ``"own"``). Returns (the dd metrics of each
    run's summary, {policy: its records})."""
    from simcards.experiment.runner import execute
    from simcards.experiment.spec import make_spec

    frames, records = [], {}
    held = bidder != OWN_BIDS
    for k, p in enumerate(names):
        if echo:
            bids = f", bids by {bidder}" if held and bidder != p else ""
            echo(f"double dummy {k + 1} of {len(names)}: {p} at every seat, {dd_deals:,} deals{bids}")
        spec = make_spec(g, unit="deal", count=dd_deals, seed=seed, preset=rules.preset,
                         settings=list(rules.settings), policy=p, records="dd", bidding=bidder if held else None)
        run = execute(spec, out=(out / "dd" / f"policy{k + 1}") if out is not None else None, **options)
        s = run.summary
        s = s[s.metric.str.startswith("dd_")]
        frames.append(s.assign(policy=p)[["policy"] + [c for c in s.columns]])
        records[p] = run.records
    return pd.concat(frames, ignore_index=True), records


def _points(frame: pd.DataFrame, kind: str):
    """(points lost, decisions) per deal of ``kind`` (``"all"``: the four hands' together)."""
    import numpy as np

    kinds = DD_KINDS[:4] if kind == "all" else (kind,)
    pts = sum(frame[f"dd_pts_{k}"].to_numpy(np.float64) for k in kinds) / 10.0
    dec = sum(frame[f"dd_dec_{k}"].to_numpy(np.float64) for k in kinds)
    return pts, dec


def dd_ratios(records: dict, reference: str, resamples: int = BOOTSTRAP, seed: int = 0) -> pd.DataFrame | None:
    """Each policy's points per decision over ``reference``'s, overall (``all``) and by kind.

    Both runs play the same deals (same seed and indices), so the interval is paired: a
    percentile bootstrap that resamples the deals (the same draw for both policies) and
    recomputes the ratio of the two ratio-of-sums estimates. ``None`` where the game's records
    have no points columns or ``reference`` has no run."""
    import numpy as np

    if reference not in records or records[reference] is None or "dd_pts_lead" not in records[reference]:
        return None
    ref = records[reference].sort_values("index")
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, len(ref), size=(resamples, len(ref)))
    rows = []
    for p, frame in records.items():
        if p == reference:
            continue
        mine = frame.sort_values("index")
        if not np.array_equal(mine["index"].to_numpy(), ref["index"].to_numpy()):
            raise SimcardsError(f"double dummy: {p} and {reference} did not play the same deals")
        for kind in ("all",) + DD_KINDS:
            pp, pd_ = _points(mine, kind)
            rp, rd = _points(ref, kind)
            if rd.sum() == 0 or pd_.sum() == 0 or rp.sum() == 0:
                continue
            est = (pp.sum() / pd_.sum()) / (rp.sum() / rd.sum())
            with np.errstate(divide="ignore", invalid="ignore"):
                boot = (pp[draws].sum(1) / pd_[draws].sum(1)) / (rp[draws].sum(1) / rd[draws].sum(1))
            boot = boot[np.isfinite(boot)]
            low, high = np.percentile(boot, [2.5, 97.5])
            rows.append({"policy": p, "reference": reference, "kind": kind, "ratio": est, "ci_low": low,
                         "ci_high": high, "points_per_decision": pp.sum() / pd_.sum(),
                         "reference_points_per_decision": rp.sum() / rd.sum(), "decisions": int(pd_.sum()),
                         "reference_decisions": int(rd.sum()), "deals": len(ref), "resamples": resamples})
    return pd.DataFrame(rows) if rows else None


def _pair_table(comparisons, metric: str, group: str, direction: float) -> pd.DataFrame:
    rows = []
    for (a, b), c in comparisons.items():
        d = c.differences
        d = d[(d.metric == metric) & (d.group.astype(str) == group)]
        if not len(d):
            raise SimcardsError(f"no metric {metric!r} with group {group!r} in the comparison of {a} and {b}")
        r = d.iloc[0]  # arm 2 (B at side 0) minus arm 1 (A at side 0)
        edge = -direction * r.difference / 2
        low, high = sorted((-direction * r.ci_low / 2, -direction * r.ci_high / 2))
        rows.append({"policy": a, "opponent": b, "edge": edge, "ci_low": low, "ci_high": high,
                     "p_value": r.p_value, "n": int(r.n_arm), "a_at_side0": r.estimate_baseline,
                     "b_at_side0": r.estimate_arm})
        rows.append({"policy": b, "opponent": a, "edge": -edge, "ci_low": -high, "ci_high": -low,
                     "p_value": r.p_value, "n": int(r.n_arm), "a_at_side0": r.estimate_arm,
                     "b_at_side0": r.estimate_baseline})
    table = pd.DataFrame(rows)
    from simcards.core.stats import holm

    once = table.iloc[::2]
    adjusted = holm(once["p_value"].to_numpy())
    table["p_holm"] = [h for h in adjusted for _ in range(2)]
    return table


def _ranking(table: pd.DataFrame, names: list[str]) -> pd.DataFrame:
    """The Copeland ranking (module doc): clear wins minus clear losses, ties sharing a rank.
    Within a tie, more clear wins first, then the order the policies were named in."""
    rows = []
    for p in names:
        mine = table[table.policy == p]
        wins, losses = int((mine.ci_low > 0).sum()), int((mine.ci_high < 0).sum())
        rows.append({"policy": p, "copeland": wins - losses, "clear_wins": wins, "clear_losses": losses})
    ranking = pd.DataFrame(rows).sort_values(["copeland", "clear_wins"], ascending=False, kind="stable")
    ranking = ranking.reset_index(drop=True)
    ranking.insert(0, "rank", [1 + int((ranking.copeland > c).sum()) for c in ranking.copeland])
    return ranking


def ordered_pairs(result_pairs: pd.DataFrame, order: list[str]) -> pd.DataFrame:
    """One row per pair, the policy with the edge >= 0 first, in ranking order (``order``)."""
    pairs = result_pairs[(result_pairs.edge > 0)
                         | ((result_pairs.edge == 0) & (result_pairs.policy < result_pairs.opponent))]
    rank = {p: i for i, p in enumerate(order)}
    key = pairs.policy.map(rank) * len(order) + pairs.opponent.map(rank)
    return pairs.assign(_key=key).sort_values("_key", kind="stable").drop(columns="_key")


def _write_meta(out: Path, meta: dict) -> None:
    from simcards.experiment.store import atomic_write_bytes

    atomic_write_bytes(out / "meta.json", json.dumps(meta, indent=2, default=str).encode())


def save_ladder(result: LadderResult, identity: dict) -> None:
    """``ladder.csv`` and ``ranking.csv``, checksummed in the folder's meta.json."""
    from simcards.experiment.store import _version, atomic_write_csv, git_commit, machine

    out = result.out
    files = {"ladder.csv": atomic_write_csv(out / "ladder.csv", result.pairs),
             "ranking.csv": atomic_write_csv(out / "ranking.csv", result.ranking)}
    if result.dd is not None:
        files["dd.csv"] = atomic_write_csv(out / "dd.csv", result.dd)
    if result.dd_ratio is not None:
        files["dd_ratio.csv"] = atomic_write_csv(out / "dd_ratio.csv", result.dd_ratio)
    _write_meta(out, {"format": "simcards-compare-1", "kind": "ladder", "ladder": identity, "status": "complete",
                      "game": result.game, "unit": result.unit, "seed": result.seed, "count": result.count,
                      "policies": result.policies, "metric": result.metric, "group": result.group,
                      "minimize": result.minimize, "seconds": round(result.seconds, 3), "files": files,
                      "simcards_version": _version(), "git_commit": git_commit(), "machine": machine(),
                      "created": time.strftime("%Y-%m-%dT%H:%M:%S%z")})


def ladder_lines(result: LadderResult) -> list[str]:
    """The pair table (the answer), then the Copeland ranking, as the CLI prints them."""
    smaller = " (smaller is better)" if result.minimize else ""
    width = max([28] + [len(p) for p in result.policies])
    lines = [f"{result.game}: {len(result.policies)} policies, every pair on the same {result.count:,} "
             f"{result.unit}s (seed {result.seed}) both ways round; edge = half the difference in "
             f"{result.metric} [{result.group}] at seat 0's side{smaller}, with its paired 95 % interval",
             f"{'policy':<{width}} {'over':<{width}} {'edge':>9}  95% CI (paired)        p (Holm)"]
    for r in ordered_pairs(result.pairs, list(result.ranking.policy)).itertuples(index=False):
        clear = "*" if r.ci_low > 0 or r.ci_high < 0 else " "
        lines.append(f"{r.policy:<{width}} {r.opponent:<{width}} {r.edge:>+9.4f}{clear} [{r.ci_low:+.4f}, "
                     f"{r.ci_high:+.4f}]   {r.p_holm:.3g}")
    lines += ["(* the interval excludes 0: a clear win)", "",
              "Ranking by the Copeland score: pairs won clearly minus pairs lost clearly",
              f"{'rank':>4}  {'policy':<{width}} {'score':>5}  clear wins/losses"]
    for r in result.ranking.itertuples(index=False):
        lines.append(f"{r.rank:>4}  {r.policy:<{width}} {r.copeland:>+5d}  {r.clear_wins}/{r.clear_losses}")
    if result.dd is not None:
        bids = ("each policy making its own bids" if result.dd_bids == OWN_BIDS else
                f"bids and every other decision but card play by {result.dd_bids}")
        lines += ["", f"Against double dummy, each policy's cards at every seat over {result.dd_deals:,} deals, "
                      f"{bids}:"]
        lines += dd_lines(result.dd)
        if result.dd_ratio is not None:
            lines += [""] + dd_ratio_lines(result.dd_ratio)
    return lines


def dd_ratio_lines(ratios: pd.DataFrame) -> list[str]:
    """Each policy's points per decision over the reference's, with the paired bootstrap interval."""
    r0 = ratios.iloc[0]
    kinds = ("all",) + DD_KINDS
    lines = [f"Points per decision over {r0.reference}'s on the same {int(r0.deals):,} deals (paired bootstrap "
             f"over the deals, 95 %):",
             f"{'policy':<28} " + " ".join(f"{k:>22}" for k in kinds)]
    for p, rows in ratios.groupby("policy", sort=False):
        cells = []
        for k in kinds:
            r = rows[rows.kind == k]
            cells.append(f"{'-':>22}" if not len(r) else
                         f"{r.iloc[0].ratio:>6.3f} [{r.iloc[0].ci_low:.3f}, {r.iloc[0].ci_high:.3f}]".rjust(22))
        lines.append(f"{p:<28} " + " ".join(cells))
    return lines


DD_SHOWN = ("dd_points_per_decision", "dd_lost_all", "dd_lost_per_card", "dd_bid_error", "dd_bid_within1",
            "dd_makeable_all", "dd_makeable_set")
DD_KINDS = ("lead", "second", "third", "fourth", "early", "late")  # dd_report.DECISION_KINDS


def _cell(rows) -> str:
    if not len(rows):
        return f"{'-':>22}"
    r = rows.iloc[0]
    return f"{r.estimate:>10.4f} ±{(r.ci_high - r.ci_low) / 2:<10.4f}"


def dd_lines(table: pd.DataFrame) -> list[str]:
    """One line per policy: its double-dummy metrics (those the game tallies, over all its
    decisions), then, where the game scores decisions in points, the points per decision by
    kind of decision (± half the 95 % interval)."""
    group = table.group.astype(str)
    overall = table[(group == "all") | ~table.metric.isin(["dd_points_per_decision"])]
    shown = [m for m in DD_SHOWN if m in set(overall.metric)]
    lines = [f"{'policy':<28} " + " ".join(f"{m:>22}" for m in shown)]
    for p, rows in overall.groupby("policy", sort=False):
        lines.append(f"{p:<28} " + " ".join(_cell(rows[rows.metric == m]) for m in shown))
    kinds = table[(table.metric == "dd_points_per_decision") & group.isin(DD_KINDS)]
    if len(kinds):
        lines += ["", "Points a decision cost against the best card double dummy, by kind of decision "
                      "(early: tricks 1-8, late: 9-13):",
                  f"{'policy':<28} " + " ".join(f"{k:>22}" for k in DD_KINDS)]
        for p, rows in kinds.groupby("policy", sort=False):
            lines.append(f"{p:<28} " + " ".join(_cell(rows[rows.group.astype(str) == k]) for k in DD_KINDS))
    return lines
