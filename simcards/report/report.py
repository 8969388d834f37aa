"""The strategy report: ``report.md`` and a self-contained ``report.html`` for a results folder.

Works for a single run (``simcards run``) and for a comparison (``simcards compare`` or an
experiment file with arms). The report says what was asked, how it was simulated, the
answers in plain words with their uncertainty, the figures, and how to reproduce it.
"""
from __future__ import annotations

import base64
import platform
import re
import shlex
from pathlib import Path
from typing import Any

import pandas as pd

from simcards.core.errors import SimcardsError


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def _fmt(kind: str, x: float) -> str:
    if pd.isna(x):
        return "n/a"
    return _pct(x) if kind == "rate" else f"{x:,.3g}" if abs(x) < 1000 else f"{x:,.0f}"


def _fmt_diff(kind: str, x: float) -> str:
    return (f"{100 * x:+.2f} points" if kind == "rate" else f"{x:+,.3g}")


def _versions() -> dict[str, str]:
    import numba
    import numpy

    from simcards.core.version import VERSION as __version__

    return {"simcards": __version__, "numba": numba.__version__, "numpy": numpy.__version__,
            "pandas": pd.__version__, "python": platform.python_version()}


def _run_command(spec: dict[str, Any], out: Path) -> str:
    parts = ["simcards", "run", spec["game"], "--unit", spec["unit"], "--count", str(spec["count"]),
             "--seed", str(spec["seed"])]
    from simcards.core.game import get_game

    defaults = get_game(spec["game"]).variant_type().to_dict()
    for k, v in spec["variant"].items():
        if defaults.get(k) != v:
            value = ",".join(str(x) for x in v) if isinstance(v, list) else ("null" if v is None else str(v).lower() if isinstance(v, bool) else str(v))
            parts += ["--set", f"{k}={value}"]
    policies = spec["policies"]
    common = max(set(policies), key=policies.count)
    parts += ["--policy", common]
    for i, p in enumerate(policies):
        if p != common:
            parts += ["--seat-policy", f"{i}={p}"]
    if spec.get("records", "all") != "all":
        parts += ["--records", spec["records"]]
    parts += ["--out", str(out)]
    return " ".join(shlex.quote(p) for p in parts)


def _compare_command(meta: dict[str, Any], out: Path) -> str:
    parts = ["simcards", "compare", meta["game"], "--unit", meta["unit"], "--seed", str(meta["seed"])]
    if meta.get("precision"):
        first = (meta.get("comparison") or {}).get("first")
        p = meta["precision"]
        p = ",".join(f"{k}={v}" for k, v in p.items()) if isinstance(p, dict) else str(p)
        parts += (["--count", str(first)] if first else []) + ["--precision", p,
                                                               "--max-count", str(meta["max_count"])]
    else:
        parts += ["--count", str(meta["count"])]
    if meta.get("preset"):
        parts += ["--preset", meta["preset"]]
    for s in meta.get("settings", []):
        parts += ["--set", s]
    if meta.get("policy"):
        parts += ["--policy", meta["policy"]]
    for k, v in meta.get("seat_policy", {}).items():
        parts += ["--seat-policy", f"{k}={v}"]
    for arm in meta["arms"]:
        items = list(arm["settings"])
        if arm.get("preset"):
            items.append(f"preset={arm['preset']}")
        if arm.get("policy"):
            items.append(f"policy={arm['policy']}")
        items += [f"seat{k}={v}" for k, v in arm.get("seat_policy", {}).items()]
        items.append(f"name={arm['name']}")
        parts += ["--arm", ",".join(items)]
    for m in meta.get("metrics", []):
        parts += ["--metric", m]
    parts += ["--out", str(out)]
    return " ".join(shlex.quote(p) for p in parts)


def _sweep_command(meta: dict[str, Any], out: Path) -> str:
    sw = meta["sweep"]
    values = ",".join(_plain(v) for v in sw["values"])
    parts = ["simcards", "sweep", meta["game"], "--policy", sw["policy"], "--param", f"{sw['param']}={values}",
             "--seats", ",".join(map(str, sw["seats"])), "--field", sw["field"], "--metric", sw["metric"],
             "--group", str(sw["group"]), "--unit", meta["unit"], "--count", str(sw["count"]), "--seed", str(meta["seed"])]
    if sw.get("minimize"):
        parts.append("--minimize")
    if sw.get("halving"):
        parts.append("--halving")
    if meta.get("preset"):
        parts += ["--preset", meta["preset"]]
    for s in meta.get("settings", []):
        parts += ["--set", s]
    parts += ["--out", str(out)]
    return " ".join(shlex.quote(p) for p in parts)


def _plain(v: Any) -> str:
    return str(int(v)) if float(v) == int(v) else f"{float(v):.6f}".rstrip("0")


def _sweep_markdown(out: Path, meta: dict[str, Any]) -> str:
    """A comparison's report with the sweep's question, table and figure first."""
    from simcards.core.game import get_game

    game = get_game(meta["game"])
    sw = meta["sweep"]
    t = pd.read_csv(out / "sweep.csv", dtype={"value_text": str})
    better = "smaller" if sw.get("minimize") else "larger"
    question = meta.get("question") or (f"Which `{sw['param']}` of `{sw['policy']}` gives the best `{sw['metric']}` "
                                        f"[{sw['group']}] in {game.title}?")
    best = t[t["best"]].iloc[0]
    if bool(best["is_default"]):
        answer = f"The default, `{sw['param']}={best['value_text']}`, is best of the grid."
    else:
        clear = best["ci_low"] > 0 or best["ci_high"] < 0
        answer = (f"`{sw['param']}={best['value_text']}` is best of the grid: {best['difference']:+.4g} against the "
                  f"default (95 % paired interval {best['ci_low']:+.4g} to {best['ci_high']:+.4g}"
                  + ("" if clear else "; it includes zero, so it is not distinguishable from the default") + ").")
    shown = pd.DataFrame({
        sw["param"]: t["value_text"] + t["is_default"].map({True: " (default)", False: ""}),
        "records": t["n"].map("{:,}".format), sw["metric"]: t["estimate"].map("{:.4g}".format),
        "vs default": [("" if d else f"{x:+.4g}") for d, x in zip(t["is_default"], t["difference"])],
        "95 % interval (paired)": [("" if d else f"{lo:+.4g} to {hi:+.4g}") for d, lo, hi in
                                   zip(t["is_default"], t["ci_low"], t["ci_high"])],
        "p (Holm)": [("" if d else f"{p:.3g}") for d, p in zip(t["is_default"], t["p_holm"])],
        "note": [("best" if b else "") + (f"dropped after round {int(r)}" if r == r else "")
                 for b, r in zip(t["best"], t["round_dropped"])]})
    method = ("Sequential halving (Karnin, Koren & Somekh 2013) in its doubling form: after each round the better "
              "half of the values went on with twice as many records; the default played every round. Values "
              "dropped early have wider intervals (fewer records)." if sw.get("halving") else
              "Every value played every record.")
    lines = [f"# {game.title}: {question}", "", "## Answer", "", answer, "",
             f"Seats {', '.join(map(str, sw['seats']))} played `{sw['policy']}` with each value of `{sw['param']}`; "
             f"the other seats played `{sw['field']}`. Every value played the same deals (common random numbers), "
             f"so each difference from the default is paired (the batch of records is the unit). {better.capitalize()} "
             f"is better. {method} The best value is picked on the same records that measure it, so its advantage "
             f"is slightly optimistic; the Holm-adjusted p-values judge the grid as a family.", "",
             "## The grid", "", _table(shown), "", "![sweep](figures/sweep.png)", "",
             "## Reproduce", "", "```console", f"$ {_sweep_command(meta, out)}", f"$ simcards report {out}", "```", "",
             "The comparison behind the sweep follows (every metric, not only the one swept).", ""]
    rest = _compare_markdown(out, meta).split("\n", 1)[1]
    return "\n".join(lines) + rest.replace("## Reproduce", "## Reproduce the comparison", 1)


def _ladder_dd_md(out: Path, meta: dict[str, Any]) -> list[str]:
    dd = pd.read_csv(out / "dd.csv", dtype={"group": str})
    by_kind = dd[dd.group.astype(str) != "all"]
    by_kind = by_kind[by_kind.metric == "dd_points_per_decision"]
    dd = dd[dd.group.astype(str) == "all"] if "all" in set(dd.group.astype(str)) else dd

    def shown(frame):
        return pd.DataFrame({"policy": frame.policy, "metric": frame.metric, "group": frame.group,
                             "estimate": frame.estimate.map("{:.4f}".format),
                             "95 % interval": [f"{lo:.4f} to {hi:.4f}" for lo, hi in zip(frame.ci_low, frame.ci_high)],
                             "n": frame.n.map("{:,}".format)})

    deals = (meta.get("ladder") or {}).get("dd_deals")
    bidder = (meta.get("ladder") or {}).get("dd_bids") or "own"
    bids = ("each making its own bids" if bidder == "own" else
            f"under `{bidder}`'s bids (`{bidder}` made every decision but card play at every seat, so every "
            "policy's cards played the same contracts)")
    lines = ["## Against double dummy", "",
             f"Each policy played {deals:,} deals at every seat, {bids}; every card was compared with the best card "
             "double dummy (docs/double-dummy.md). `dd_points_per_decision`: the points a decision (a card chosen from "
             "two or more legal cards) cost its side against the best card in the same deal, scored as the "
             "contracts score (made or set, both sides; an overtrick neutral, so a ducked overtrick costs "
             "nothing), the deal the unit of the interval; `dd_lost_all`: tricks a team's cards cost it per hand; "
             "`dd_lost_per_card`: per card played; `dd_bid_error`: the team's bid minus its double-dummy tricks; "
             "`dd_bid_within1`: bids within one trick of them. Double dummy sees every card, so it overstates "
             "what any real player can take: read these as distances from a common yardstick.", "",
             _table(shown(dd)), ""]
    if len(by_kind):
        lines += ["Points per decision by kind (lead, second, third, fourth hand; early: tricks 1-8, late: 9-13):",
                  "", _table(shown(by_kind)), ""]
    if (out / "dd_ratio.csv").exists():
        ratio = pd.read_csv(out / "dd_ratio.csv")
        if len(ratio):
            ref = ratio.reference.iloc[0]
            lines += [f"Points per decision over `{ref}`'s on the same deals (`dd_ratio.csv`): the interval is a "
                      f"percentile bootstrap over the deals ({int(ratio.resamples.iloc[0]):,} resamples), the same "
                      "deals drawn for both policies, so it is paired; `all`: the four hands together.", "",
                      _table(pd.DataFrame({
                          "policy": [f"`{p}`" for p in ratio.policy], "kind": ratio.kind,
                          "ratio": ratio.ratio.map("{:.3f}".format),
                          "95 % interval (paired)": [f"{lo:.3f} to {hi:.3f}" for lo, hi in zip(ratio.ci_low, ratio.ci_high)],
                          "points/decision": ratio.points_per_decision.map("{:.4f}".format),
                          f"`{ref}`": ratio.reference_points_per_decision.map("{:.4f}".format),
                          "deals": ratio.deals.map("{:,}".format)})), ""]
    return lines


def _ladder_markdown(out: Path, meta: dict[str, Any]) -> str:
    """The pair table (the answer), the Copeland ranking and the edge matrix of a ladder."""
    from simcards.core.game import get_game
    from simcards.experiment.ladder import _ranking, ordered_pairs

    game = get_game(meta["game"])
    table = pd.read_csv(out / "ladder.csv")
    ranking = _ranking(table, list(meta["policies"]))  # from the pairs (a folder of an older ranking too)
    pairs = ordered_pairs(table, list(ranking.policy))
    better = "smaller" if meta.get("minimize") else "larger"
    clear = (pairs.ci_low > 0) | (pairs.ci_high < 0)
    shown_pairs = pd.DataFrame({"policy": [f"`{p}`" for p in pairs.policy], "over": [f"`{p}`" for p in pairs.opponent],
                                "edge": [f"**{e:+.4f}**" if c else f"{e:+.4f}" for e, c in zip(pairs.edge, clear)],
                                "95 % interval (paired)": [f"{lo:+.4f} to {hi:+.4f}" for lo, hi in zip(pairs.ci_low, pairs.ci_high)],
                                "p (Holm)": pairs.p_holm.map("{:.3g}".format), "records": pairs.n.map("{:,}".format)})
    shown_rank = pd.DataFrame({"rank": ranking["rank"], "policy": [f"`{p}`" for p in ranking.policy],
                               "Copeland score": ranking.copeland.map("{:+d}".format),
                               "clear wins": ranking.clear_wins, "clear losses": ranking.clear_losses})
    command = ["simcards", "ladder", meta["game"], "--policies", ",".join(meta["policies"]), "--unit", meta["unit"],
               "--count", str(meta["count"]), "--seed", str(meta["seed"]), "--metric", meta["metric"],
               "--group", str(meta["group"])] + (["--minimize"] if meta.get("minimize") else [])
    for s in (meta.get("ladder") or {}).get("settings", []):
        command += ["--set", s]
    if (meta.get("ladder") or {}).get("dd_deals"):
        command += ["--dd-deals", str(meta["ladder"]["dd_deals"])]
        if meta["ladder"].get("dd_bids"):
            command += ["--dd-bids", meta["ladder"]["dd_bids"]]
    command += ["--out", str(out)]
    top = ranking[ranking["rank"] == 1]
    first = " and ".join(f"`{p}`" for p in top.policy)
    lead = top.iloc[0]
    answer = (f"{first} {'rank' if len(top) > 1 else 'ranks'} first: {int(lead.clear_wins)} clear wins and "
              f"{int(lead.clear_losses)} clear losses among the {len(ranking) - 1} other policies "
              f"(`{meta['metric']}` [{meta['group']}], {better} is better). Each pair's edge with its "
              "interval is the answer; the ranking only counts them.")
    lines = [f"# {game.title}: how strong are the bots?", "", "## Answer", "", answer, "",
             f"Every pair of policies played the same {meta['count']:,} {meta['unit']}s (seed {meta['seed']}) twice: "
             "once with the first policy at seat 0's side against a field of the second, once the other way round. "
             "The edge is half the difference of the two: deal luck and seat advantage cancel, and the interval is "
             "paired (batch means; the batch of records is the unit). In a two-sided game whose metric is side 0's "
             "win rate, the edge is the policy's win rate over both seatings minus one half. Bold: the interval "
             "excludes zero (a clear win). Read many pairs with the Holm-adjusted p-values.", "",
             "## Every pair", "", _table(shown_pairs), "",
             "## Ranking", "",
             "By the Copeland score: the pairs a policy wins clearly minus those it loses clearly (clear: the "
             "pair's 95 % interval excludes zero). Each opponent counts once, however weak; a mean of the edges "
             "would let the wins over `random` decide. Ties share a rank.", "",
             _table(shown_rank), "",
             "![ladder](figures/ladder.png)", "",
             *(_ladder_dd_md(out, meta) if (out / "dd.csv").exists() else []),
             "## Reproduce", "", "```console", "$ " + " ".join(shlex.quote(c) for c in command),
             f"$ simcards report {out}", "```", ""]
    return "\n".join(lines)


def _table(frame: pd.DataFrame) -> str:
    """A Markdown table."""
    cols = list(frame.columns)
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join(str(v) for v in row) + " |")
    return "\n".join(lines)


def _summary_table(summary: pd.DataFrame, max_rows: int = 80) -> str:
    rows = summary.head(max_rows)
    shown = pd.DataFrame({
        "metric": rows.metric, "group": rows.group, "n": rows.n.map("{:,}".format),
        "estimate": [_fmt(k, e) for k, e in zip(rows.kind, rows.estimate)],
        "95 % interval": [f"{_fmt(k, lo)} – {_fmt(k, hi)}" for k, lo, hi in zip(rows.kind, rows.ci_low, rows.ci_high)],
    })
    if "method" in rows:
        shown["method"] = rows["method"].fillna("").to_numpy()
    return _table(shown)


def _run_headlines(summary: pd.DataFrame, limit: int = 8) -> list[str]:
    lines = []
    for r in summary[summary.n > 0].head(limit).itertuples(index=False):
        group = "" if r.group == "all" else f" ({r.group})"
        lines.append(f"**{r.metric}{group}**: {_fmt(r.kind, r.estimate)} "
                     f"(95 % interval {_fmt(r.kind, r.ci_low)} to {_fmt(r.kind, r.ci_high)}; n = {r.n:,})")
    return lines


def _compare_headlines(diffs: pd.DataFrame, limit: int = 12) -> list[str]:
    if not len(diffs):
        return ["The arms share no metric to compare."]
    lines = []
    ranked = diffs.assign(strength=diffs["difference"].abs() / diffs["half_width"].where(diffs["half_width"] > 0, 1e-12))
    ranked = ranked.sort_values(["p_holm", "strength"], ascending=[True, False])
    for r in ranked.head(limit).itertuples(index=False):
        group = "" if r.group == "all" else f" ({r.group})"
        interval = f"{_fmt_diff(r.kind, r.ci_low)} to {_fmt_diff(r.kind, r.ci_high)}"
        if r.p_holm < 0.05:
            verb = "raises" if r.difference > 0 else "lowers"
            lines.append(f"**{r.arm}** {verb} **{r.metric}{group}** from {_fmt(r.kind, r.estimate_baseline)} to "
                         f"{_fmt(r.kind, r.estimate_arm)} compared with {r.baseline} "
                         f"(difference {_fmt_diff(r.kind, r.difference)}, 95 % interval {interval}).")
        else:
            lines.append(f"No clear difference in **{r.metric}{group}** between {r.arm} and {r.baseline} "
                         f"(Holm-adjusted p = {r.p_holm:.2g}): "
                         f"{_fmt(r.kind, r.estimate_arm)} vs {_fmt(r.kind, r.estimate_baseline)} "
                         f"(difference {_fmt_diff(r.kind, r.difference)}, 95 % interval {interval}).")
    return lines


def build_report(folder: str | Path, *, progress: bool = False) -> tuple[Path, Path]:
    """Write ``report.md`` and ``report.html`` into a results folder; return their paths.

    ``progress`` shows a bar over the steps (checking the files' checksums, which reads every
    file and is the long part for a big ``deals.parquet``; the Markdown; the HTML with its figures).

    A folder whose files do not match the checksums in its ``meta.json``, or that is
    unfinished, is refused (one line); the report files are written atomically, so a
    full disk or a read-only folder leaves nothing half-written.
    """
    from simcards.experiment.store import atomic_write_text, read_meta_file, verify_files

    out = Path(folder)
    if not (out / "meta.json").exists():
        raise SimcardsError(f"{out} is not a simcards results folder (no meta.json)")
    meta = read_meta_file(out)
    if meta.get("status", "complete") != "complete":
        what = "comparison" if meta.get("kind") == "compare" else "run"
        raise SimcardsError(f"{out} holds an unfinished {what}; rerun its command to finish it first")
    from tqdm import tqdm

    steps = tqdm(total=3, desc="report", unit=" step", disable=not progress, leave=False)
    steps.set_postfix_str("checking files")
    bad = verify_files(out, meta)
    steps.update()
    if bad:
        steps.close()
        raise SimcardsError(f"{out}/{bad[0]} does not match its checksum in meta.json (damaged or edited"
                            f"{f'; {len(bad) - 1} more file(s) too' if len(bad) > 1 else ''}); rerun the command "
                            f"that made the folder to recompute it")
    if meta.get("kind") == "ladder":
        md = _ladder_markdown(out, meta)
    elif meta.get("kind") == "compare" and meta.get("sweep") and (out / "sweep.csv").exists():
        md = _sweep_markdown(out, meta)
    elif meta.get("kind") == "compare":
        md = _compare_markdown(out, meta)
    else:
        md = _run_markdown(out, meta)
    steps.set_postfix_str("figures and HTML")
    steps.update()
    html = _html(md, out, title=md.splitlines()[0].lstrip("# "))
    steps.update()
    steps.close()
    md_path, html_path = out / "report.md", out / "report.html"
    try:
        atomic_write_text(md_path, md)
        atomic_write_text(html_path, html)
    except SimcardsError as exc:
        raise SimcardsError(f"no report written: {exc}") from None
    return md_path, html_path


def _figures_md(out: Path) -> str:
    figs = sorted((out / "figures").glob("*.png")) if (out / "figures").exists() else []
    if not figs:
        return "_No figures._"
    return "\n\n".join(f"![{p.stem}](figures/{p.name})" for p in figs)


def _setup_md(lines: list[tuple[str, str]]) -> str:
    return "\n".join(f"- **{k}**: {v}" for k, v in lines)


def _run_markdown(out: Path, meta: dict[str, Any]) -> str:
    from simcards.core.game import get_game

    spec = meta["spec"]
    game = get_game(spec["game"])
    summary = pd.read_csv(out / "summary.csv", dtype={"group": str})
    changed = {k: v for k, v in spec["variant"].items() if game.variant_type().to_dict().get(k) != v}
    question = meta.get("question") or f"What happens over {spec['count']:,} {spec['unit']}s of {game.title}?"
    versions = _versions()
    setup = [("game", f"{game.title} (`{game.name}`)"), ("unit", f"{spec['unit']}, {spec['count']:,} records"),
             ("seed", str(spec["seed"])),
             ("house rules", ", ".join(f"`{k}={v}`" for k, v in changed.items()) or "the defaults of the rules file"),
             ("policies by seat", ", ".join(f"{i}: `{p}`" for i, p in enumerate(spec["policies"]))),
             ("computed with", f"simcards {meta.get('simcards_version')} (git {str(meta.get('git_commit'))[:10]}), "
                               f"in {meta.get('timings', {}).get('compute_seconds', 0):.1f} s on {meta.get('machine', {}).get('cpus')} cores"),
             ("report made with", ", ".join(f"{k} {v}" for k, v in versions.items()))]
    lines = [f"# {game.title}: {question}", "", "## The question", "", question, "",
             "## Answers", "", *[f"- {h}" for h in _run_headlines(summary)], "",
             "Intervals are 95 % intervals with the record as the unit; the table's `method` column names the "
             "interval each row used (Wilson or Clopper-Pearson for rates, Student-t or gamma for means; "
             "see docs/architecture.md, Statistics). "
             "Each deal was played by heuristic bots (the policies above); the figures are about those bots.",
             "", "## Setup", "", _setup_md(setup), "", "## Figures", "", _figures_md(out), "",
             "## All estimates", "", _summary_table(summary), "",
             "## Reproduce", "", "```console", f"$ {_run_command(spec, out)}", f"$ simcards report {out}", "```", "",
             "Record *i* of a seed is the same deal on any machine, thread count or cluster, "
             "so this command gives identical numbers.", ""]
    return "\n".join(lines)


def _compare_markdown(out: Path, meta: dict[str, Any]) -> str:
    from simcards.core.game import get_game

    game = get_game(meta["game"])
    diffs = pd.read_csv(out / "differences.csv", dtype={"group": str}) if (out / "differences.csv").stat().st_size > 1 else pd.DataFrame()
    summary = pd.read_csv(out / "summary.csv", dtype={"group": str})
    arms = meta["arms"]
    question = meta.get("question") or (f"How does {' / '.join(a['name'] for a in arms[1:])} compare with "
                                        f"{arms[0]['name']} in {game.title}?")
    arm_lines = []
    for a in arms:
        bits = list(a["settings"]) + ([f"preset={a['preset']}"] if a.get("preset") else []) + \
               ([f"policy={a['policy']}"] if a.get("policy") else []) + [f"seat{k}={v}" for k, v in a.get("seat_policy", {}).items()]
        arm_lines.append(f"`{a['name']}`: {', '.join(bits) or 'base settings'}")
    setup = [("game", f"{game.title} (`{game.name}`)"),
             ("unit", f"{meta['unit']}, {meta['count']:,} records per arm, the same deals in every arm (seed {meta['seed']})"),
             ("base settings", (", ".join(f"`{s}`" for s in meta.get("settings", [])) or "the defaults")
              + (f", preset `{meta['preset']}`" if meta.get("preset") else "")),
             ("base policy", str(meta.get("policy") or game.default_policy)),
             ("arms", "; ".join(arm_lines) + f" (baseline: `{arms[0]['name']}`)"),
             ("stopping", f"precision {meta['precision']} ({meta.get('precision_meaning') or ''}; {'reached' if meta.get('resolved') else 'NOT reached'} after "
                          f"{meta['rounds']} rounds)" if meta.get("precision") else "fixed size"),
             ("computed with", f"simcards {meta.get('simcards_version')} (git {str(meta.get('git_commit'))[:10]}) in "
                               f"{meta.get('seconds', 0):.1f} s"),
             ("report made with", ", ".join(f"{k} {v}" for k, v in _versions().items()))]
    diff_table = "_No differences._"
    if len(diffs):
        shown = pd.DataFrame({
            "metric": diffs.metric, "group": diffs.group, "arm": diffs.arm,
            "baseline": [_fmt(k, x) for k, x in zip(diffs.kind, diffs.estimate_baseline)],
            "arm value": [_fmt(k, x) for k, x in zip(diffs.kind, diffs.estimate_arm)],
            "difference": [_fmt_diff(k, x) for k, x in zip(diffs.kind, diffs.difference)],
            "95 % interval (paired)": [f"{_fmt_diff(k, lo)} to {_fmt_diff(k, hi)}" for k, lo, hi in zip(diffs.kind, diffs.ci_low, diffs.ci_high)],
            "unpaired ±": [(_fmt_diff(k, h)).lstrip("+") for k, h in zip(diffs.kind, diffs.unpaired_half_width)],
            "p (Holm)": diffs.p_holm.map("{:.3g}".format)})
        diff_table = _table(shown)
    multiple = (f"{len(diffs)} differences are reported. Each interval is a 95 % interval on its own; when reading "
                f"many at once, use the Holm-adjusted p-values (family-wise 5 %) to decide which are real.") if len(diffs) > 1 else ""
    from simcards.experiment.compare import identical_note

    identical = [f"**Warning**: {identical_note(g).removeprefix('note: ')}." for g in meta.get("identical", [])]
    lines = [f"# {game.title}: {question}", "", "## The question", "", question, "",
             "## Answers", "", *[f"{w}\n" for w in identical], *[f"- {h}" for h in _compare_headlines(diffs)], "",
             "Every arm played exactly the same deals (common random numbers), so each difference is paired: "
             "its interval is computed from the per-batch differences and is much narrower than comparing two "
             "independent runs (the 'unpaired ±' column shows that width). " + multiple, "",
             "## Setup", "", _setup_md(setup), "", "## Figures", "", _figures_md(out), "",
             "## Differences", "", diff_table, "", "## Every arm's estimates", "",
             _summary_table(summary.drop(columns=["arm"]).assign(metric=summary.arm + ": " + summary.metric), 120), "",
             "## Reproduce", "",
             *(["From the experiment file:", "", "```console", f"$ simcards run --spec {meta['spec_file']} --out {out}",
                f"$ simcards report {out}", "```", "", "or with the command line alone:", ""]
               if meta.get("spec_file") else []),
             "```console", f"$ {_compare_command(meta, out)}", f"$ simcards report {out}", "```", "",
             "Every arm replays records 0..n-1 of the seed, so these commands give identical numbers.", ""]
    return "\n".join(lines)


_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:980px;margin:2em auto;padding:0 1em;
color:#1d2330;line-height:1.5}
h1{font-size:1.6em;border-bottom:2px solid #2b6cb0;padding-bottom:.3em}
h2{font-size:1.25em;margin-top:1.6em;color:#2b6cb0}
table{border-collapse:collapse;font-size:.85em;margin:1em 0;display:block;overflow-x:auto}
th,td{border:1px solid #d0d7e2;padding:.25em .6em;text-align:left}
th{background:#eef3fa}
img{max-width:100%;border:1px solid #e2e8f0;margin:.5em 0}
code,pre{background:#f4f6fa;border-radius:3px}
pre{padding:.8em;overflow-x:auto}
"""


def _html(md: str, out: Path, title: str) -> str:
    """Self-contained HTML: the Markdown rendered, every figure embedded as a data URI."""
    import markdown

    body = markdown.markdown(md, extensions=["tables", "fenced_code"])

    def embed(match: re.Match) -> str:
        path = out / match.group(1)
        data = base64.b64encode(path.read_bytes()).decode()
        return f'src="data:image/png;base64,{data}"'

    body = re.sub(r'src="(figures/[^"]+\.png)"', embed, body)
    from html import escape

    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{escape(title)}</title><style>{_CSS}</style></head>\n<body>\n{body}\n</body></html>\n")
