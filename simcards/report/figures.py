"""Save a game's figures for a run into ``<out>/figures``."""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")


def save_figures(game, result) -> list[Path]:
    """Render ``game.figures`` for ``result`` into its results folder; return the paths."""
    import matplotlib.pyplot as plt

    if result.out is None or result.summary is None or not len(result.summary):
        return []
    folder = Path(result.out) / "figures"
    folder.mkdir(exist_ok=True)
    variant = game.variant_type.from_mapping(result.spec.variant)
    paths = []
    for name, fig in game.figures(result.spec.unit, result.summary, variant).items():
        path = folder / f"{name}.png"
        tmp = folder / f".{name}.png.tmp"
        fig.savefig(tmp, dpi=110, bbox_inches="tight", format="png")
        plt.close(fig)
        tmp.replace(path)
        paths.append(path)
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
    fig, ax = plt.subplots(figsize=(8, max(2.5, 0.32 * len(d) + 1)))
    labels = [f"{r.metric} [{r.group}] {r.arm}" for r in d.itertuples()]
    y = np.arange(len(d))[::-1]
    ax.errorbar(d["difference"], y, xerr=[d["difference"] - d["ci_low"], d["ci_high"] - d["difference"]],
                fmt="o", capsize=3)
    ax.axvline(0, color="grey", lw=1)
    ax.set_yticks(y)
    ax.set_yticklabels(labels, fontsize=8)
    ax.set_xlabel(f"difference vs {result.arms[0].name} (paired 95 % interval)")
    ax.set_title(f"{game.title}: {', '.join(metrics[:3])}{' ...' if len(metrics) > 3 else ''}")
    ax.grid(alpha=0.3)
    paths = [folder / "differences.png"]
    fig.savefig(paths[0], dpi=110, bbox_inches="tight")
    plt.close(fig)
    variant = game.variant_type.from_mapping({})
    for name, summary in result.summaries.items():
        safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in name)[:40]
        for fig_name, fig in game.figures(result.unit, summary, variant).items():
            path = folder / f"{fig_name}-{safe}.png"
            fig.savefig(path, dpi=100, bbox_inches="tight")
            plt.close(fig)
            paths.append(path)
    return paths
