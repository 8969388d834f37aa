"""scripts/spades_dd_points.py: its per-decision points add up to the records' dd_pts columns."""
import importlib.util
from pathlib import Path

import numpy as np

from simcards.core.game import get_game
from simcards.games.spades import dd as sdd

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "spades_dd_points.py"


def _script():
    spec = importlib.util.spec_from_file_location("spades_dd_points", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_decisions_add_up_to_the_dd_records():
    script = _script()
    game = get_game("spades")
    variant = game.variant_type.from_mapping({})
    rows = script.decisions(game, variant, "expert", 3, 9)
    assert rows and all(r["points_x10"] >= 0 and r["after"] <= r["best"] for r in rows)
    table = game.policies.table(["expert"])
    records = sdd.dd_records("deal", variant, table, 9, 0, 3)
    names = [c.name for c in sdd.COLUMNS]
    for i in range(3):
        expected = sum(int(records[i, names.index(f"dd_pts_{k}")]) for k in ("lead", "second", "third", "fourth"))
        assert sum(r["points_x10"] for r in rows if r["deal"] == i) == expected
        scored = sum(int(records[i, names.index(f"dd_dec_{k}")]) for k in ("lead", "second", "third", "fourth"))
        assert sum(1 for r in rows if r["deal"] == i) == scored
    pts, dec = script.per_deal(rows, 3, range(1, 14))
    assert dec.sum() == len(rows) and np.isclose(pts.sum(), sum(r["points_x10"] for r in rows) / 10)
