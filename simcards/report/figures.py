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
