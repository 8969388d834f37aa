"""Save a game's figures for a run into ``<out>/figures``."""
from __future__ import annotations

from pathlib import Path

import matplotlib

from simcards.experiment.store import atomic_path

matplotlib.use("Agg")


def _save(fig, path: Path, dpi: int) -> Path:
    """Write ``fig`` as PNG under a temporary name and rename it: a reader never sees half a file."""
    import matplotlib.pyplot as plt

    with atomic_path(path) as tmp:
        fig.savefig(tmp, dpi=dpi, bbox_inches="tight", format="png")
    plt.close(fig)
    return path


def save_figures(game, result) -> list[Path]:
    """Render ``game.figures`` for ``result`` into its results folder; return the paths."""

    if result.out is None or result.summary is None or not len(result.summary):
        return []
    folder = Path(result.out) / "figures"
    folder.mkdir(exist_ok=True)
    variant = game.variant_type.from_mapping(result.spec.variant)
    paths = []
    for name, fig in game.figures(result.spec.unit, result.summary, variant).items():
        paths.append(_save(fig, folder / f"{name}.png", 110))
    return paths


def save_comparison_figures(game, result) -> list[Path]:
    """Differences with error bars (one figure per metric with several groups)."""
    import matplotlib.pyplot as plt
    import numpy as np

    if result.out is None or not len(result.differences):
        return []
    folder = Path(result.out) / "figures"
    folder.mkdir(exist_ok=True)
    d = result.differences
    metrics = list(dict.fromkeys(d["metric"]))
    heights = [max(1, int((d["metric"] == m).sum())) for m in metrics]
    fig, axes = plt.subplots(len(metrics), 1, figsize=(8, 0.45 * sum(heights) + 0.9 * len(metrics)),
                             gridspec_kw={"height_ratios": heights}, squeeze=False)
    for ax, metric in zip(axes[:, 0], metrics):
        rows = d[d["metric"] == metric]
        scale = 100.0 if (rows["kind"] == "rate").all() else 1.0  # rates in percentage points
        y = np.arange(len(rows))[::-1]
        diff = rows["difference"] * scale
        ax.errorbar(diff, y, xerr=[diff - rows["ci_low"] * scale, rows["ci_high"] * scale - diff], fmt="o", capsize=3)
        ax.axvline(0, color="grey", lw=1)
        ax.set_yticks(y)
        ax.set_yticklabels([f"{r.arm}" + ("" if r.group == "all" else f" [{r.group}]") for r in rows.itertuples()],
                           fontsize=8)
        ax.set_title(metric + (" (percentage points)" if scale == 100.0 else ""), fontsize=9, loc="left")
        ax.grid(alpha=0.3)
    axes[-1, 0].set_xlabel(f"difference vs {result.arms[0].name} (paired 95 % interval)")
    fig.suptitle(f"{game.title}: differences between arms", fontsize=11)
    fig.tight_layout()
    paths = [_save(fig, folder / "differences.png", 110)]
    fig = arms_figure(game, result)
    if fig is not None:
        paths.append(_save(fig, folder / "arms.png", 110))
    return paths


def changed_metrics(differences) -> list[str]:
    """Metrics (in order) with at least one paired difference whose interval excludes zero;
    all of them when none does (the reader still wants to see the arms)."""
    d = differences
    moved = d[(d["ci_low"] > 0) | (d["ci_high"] < 0)]
    metrics = list(dict.fromkeys(moved["metric"])) or list(dict.fromkeys(d["metric"]))
    return metrics


def arms_figure(game, result):
    """One figure: for each metric that moved, every arm's estimate with its 95 % interval,
    side by side (the groups of a metric, e.g. bid levels, as clusters)."""
    import matplotlib.pyplot as plt
    import numpy as np

    metrics = changed_metrics(result.differences)
    frames = {name: s for name, s in result.summaries.items() if s is not None and len(s)}
    if not metrics or not frames:
        return None
    names = list(frames)
    fig, axes = plt.subplots(len(metrics), 1, figsize=(8, 2.6 * len(metrics) + 0.6), squeeze=False)
    width = 0.8 / len(names)
    for ax, metric in zip(axes[:, 0], metrics):
        groups = list(dict.fromkeys(g for s in frames.values() for g in s.loc[(s.metric == metric) & (s.n > 0), "group"]))
        x = np.arange(len(groups))
        for k, name in enumerate(names):
            s = frames[name]
            rows = s[(s.metric == metric) & (s.n > 0)].set_index("group").reindex(groups)
            have = rows["estimate"].notna().to_numpy()
            est, lo, hi = (rows[c].to_numpy(float) for c in ("estimate", "ci_low", "ci_high"))
            at = x - 0.4 + width * (k + 0.5)
            ax.errorbar(at[have], est[have], yerr=[est[have] - lo[have], hi[have] - est[have]], fmt="o",
                        capsize=3, label=name)
        ax.set_xticks(x)
        ax.set_xticklabels(["" if g == "all" else str(g) for g in groups], fontsize=8)
        ax.set_title(metric, fontsize=9, loc="left")
        ax.grid(alpha=0.3, axis="y")
    axes[0, 0].legend(fontsize=8, loc="best")
    fig.suptitle(f"{game.title}: each arm's estimate with its 95 % interval (metrics that moved)", fontsize=11)
    fig.tight_layout()
    return fig


def save_sweep_figure(result) -> Path | None:
    """The metric across the grid: each value's estimate with bars as wide as the paired 95 %
    interval of its difference from the default; the default and the best marked."""
    import matplotlib.pyplot as plt
    import numpy as np

    out = result.comparison.out
    if out is None:
        return None
    t = result.table
    folder = Path(out) / "figures"
    folder.mkdir(exist_ok=True)
    base = float(t.loc[t["is_default"], "estimate"].iloc[0])
    fig, ax = plt.subplots(figsize=(7, 4))
    kept = t[t["round_dropped"].isna()]
    dropped = t[t["round_dropped"].notna()]
    for rows, colour, label in ((kept, "C0", "value"), (dropped, "0.6", "dropped early (sequential halving)")):
        if not len(rows):
            continue
        y = rows["estimate"].to_numpy(float)
        d = rows["difference"].to_numpy(float)  # bars: the half-widths of the paired difference
        ax.errorbar(rows["value"].to_numpy(float), y, yerr=[np.maximum(d - rows["ci_low"].to_numpy(float), 0),
                                                            np.maximum(rows["ci_high"].to_numpy(float) - d, 0)],
                    fmt="o", color=colour, capsize=3, label=label)
    ax.axhline(base, color="grey", lw=1, ls="--", label=f"default {result.param}={t.loc[t['is_default'], 'value_text'].iloc[0]}")
    best = t[t["best"]].iloc[0]
    ax.plot([best["value"]], [best["estimate"]], marker="*", ms=16, color="C3", ls="none", label="best")
    ax.set_xlabel(f"{result.param} ({result.policy}, seats {', '.join(map(str, result.seats))})")
    ax.set_ylabel(f"{result.metric} [{result.group}]")
    ax.set_title(f"{result.metric} across {result.param}: paired 95 % intervals against the default", fontsize=9)
    ax.legend(fontsize=8)
    return _save(fig, folder / "sweep.png", 110)


def ladder_figure(result):
    """A matrix of edges (row policy over column opponent), intervals that exclude 0 in bold."""
    import math

    import matplotlib.pyplot as plt
    import numpy as np

    names = list(result.ranking.policy)
    m = np.full((len(names), len(names)), np.nan)
    clear = np.zeros_like(m, dtype=bool)
    for r in result.pairs.itertuples(index=False):
        i, j = names.index(r.policy), names.index(r.opponent)
        m[i, j] = r.edge
        clear[i, j] = r.ci_low > 0 or r.ci_high < 0
    size = max(4.0, 0.9 * len(names) + 2)
    fig, ax = plt.subplots(figsize=(size + 1, size))
    bound = np.nanmax(np.abs(m)) if np.isfinite(m).any() else 1.0
    image = ax.imshow(m, cmap="RdBu", vmin=-bound, vmax=bound)
    for i in range(len(names)):
        for j in range(len(names)):
            if math.isfinite(m[i, j]):
                ax.text(j, i, f"{m[i, j]:+.3f}", ha="center", va="center", fontsize=8,
                        fontweight="bold" if clear[i, j] else "normal")
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(len(names)), names, fontsize=8)
    ax.set_xlabel("opponent")
    ax.set_title(f"{result.game}: edge in {result.metric} [{result.group}], row over column\n"
                 f"(bold: the paired 95 % interval excludes 0)", fontsize=9)
    fig.colorbar(image, ax=ax, shrink=0.8)
    return fig


def save_ladder_figure(result) -> Path | None:
    """``figures/ladder.png`` of a ladder written to a folder."""
    if result.out is None:
        return None
    folder = Path(result.out) / "figures"
    folder.mkdir(exist_ok=True)
    return _save(ladder_figure(result), folder / "ladder.png", 110)
