"""Every advertised shortcut and preset of every game works from the CLI (in-process, small counts)."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from conformance_util import GAMES
from simcards.cli import main
from simcards.core.game import get_game

RUN_OPTIONS = {opt.lstrip("-") for p in main.commands["run"].params for opt in p.opts}


def presets():
    return [(name, p) for name in GAMES for p in get_game(name).presets]


def shortcuts():
    return [(name, k) for name in GAMES for k in get_game(name).shortcuts]


def run_cli(tmp_path, game, *options, unit_name=None):
    g = get_game(game)
    unit = g.unit(unit_name)
    args = ["run", game, f"--{unit.plural}", "4" if unit.name != "deal" else "30", "--seed", "1",
            "--threads", "1", "--quiet", "--records", "summary", "--out", str(tmp_path / "out"), *options]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, f"simcards {' '.join(args)}\n{result.output}"
    return result


@pytest.mark.parametrize("game,preset", presets())
def test_every_preset_runs_from_the_cli(game, preset, tmp_path):
    run_cli(tmp_path, game, "--preset", preset)


def _other_value(spec, default):
    """A legal value of a parameter other than its default (the shortcut must change something)."""
    if spec.kind == "enum":
        return next(c for c in spec.choices if c != default)
    if spec.values:
        return next(v for v in spec.values if v != default)
    low = int(spec.min if spec.min is not None else 0)
    high = int(spec.max if spec.max is not None else low + 2)
    return next(v for v in range(low, high + 1) if v != default)


@pytest.mark.parametrize("game,option", shortcuts())
def test_every_advertised_shortcut_is_a_cli_option_that_sets_its_field(game, option, tmp_path):
    g = get_game(game)
    field = g.shortcuts[option]
    assert option in RUN_OPTIONS, f"{game} advertises --{option}, which `simcards run` does not have"
    specs = g.variant_type.param_specs()
    assert field in specs, f"{game}: --{option} maps to {field!r}, which is no parameter"
    value = _other_value(specs[field], getattr(g.variant(), field))
    # per-deal shortcuts (--contract, --deal-type) pick the deal that unit deal plays; whole games refuse them
    unit = "deal" if "deal" in [u.name for u in g.units] else None
    result = run_cli(tmp_path, game, f"--{option}", str(value), unit_name=unit)
    meta = json.loads((tmp_path / "out" / "meta.json").read_text())
    assert str(meta["spec"]["variant"][field]) == str(value), result.output


def test_rules_prints_only_shortcuts_that_exist():
    for name in GAMES:
        text = CliRunner().invoke(main, ["rules", name]).output
        for line in text.splitlines():
            if line.startswith("Shortcuts:"):
                for part in line[len("Shortcuts:"):].split(","):
                    option = part.split()[0].lstrip("-")
                    assert option in RUN_OPTIONS, f"`simcards rules {name}` advertises --{option}: {line}"


def test_the_real_entry_point_takes_a_shortcut(tmp_path):
    """`python -m simcards.cli run seep --players 2 ...` in a process of its own (the others run in-process)."""
    import os
    import subprocess
    import sys

    out = tmp_path / "seep2"
    done = subprocess.run([sys.executable, "-m", "simcards.cli", "run", "seep", "--players", "2", "--deals", "20",
                           "--threads", "1", "--quiet", "--records", "summary", "--out", str(out)],
                          capture_output=True, text=True, env=dict(os.environ), timeout=600)
    assert done.returncode == 0, done.stderr
    meta = json.loads((out / "meta.json").read_text())
    assert meta["spec"]["variant"]["num_players"] == 2
