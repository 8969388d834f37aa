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


def test_a_new_games_units_and_shortcuts_are_options_without_editing_the_cli(tmp_path):
    """A plug-in game with unit ``roll`` and shortcut ``--sides``: run and replay take them (own process)."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, SIMCARDS_GAMES="toy=toygame,toy-rolls=toyrolls", SIMCARDS_CACHE_DIR=str(tmp_path / "c"))
    out = tmp_path / "rolls"
    run = [sys.executable, "-m", "simcards.cli", "run", "toy-rolls", "--rolls", "7", "--sides", "9", "--threads", "1",
           "--quiet", "--records", "summary", "--out", str(out)]
    done = subprocess.run(run, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    meta = json.loads((out / "meta.json").read_text())
    assert (meta["spec"]["unit"], meta["spec"]["count"], meta["spec"]["variant"]["sides"]) == ("roll", 7, 9)
    replay = [sys.executable, "-m", "simcards.cli", "replay", "toy-rolls", "--roll", "3", "--sides", "9"]
    done = subprocess.run(replay, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0 and done.stdout.startswith("toy roll 3:"), done.stderr
    help_text = subprocess.run([sys.executable, "-m", "simcards.cli", "run", "--help"], capture_output=True, text=True,
                               env=env, timeout=600).stdout
    assert "--rolls" in help_text and "--set sides=N (toy-rolls)" in help_text
    # another game refuses the new shortcut with the usual line
    done = subprocess.run([sys.executable, "-m", "simcards.cli", "run", "toy", "--deals", "5", "--sides", "9"],
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 2 and done.stderr.strip() == "error: toy has no --sides option", done.stderr


def test_shortcut_refused_outside_its_focus_unit_names_that_unit():
    """``Unit.focus`` declares which unit a shortcut's field picks for; whole games refuse it (one line)."""
    for name in GAMES:
        g = get_game(name)
        for option in g.shortcuts:
            focus = g.shortcut_unit(option)
            others = [u.name for u in g.units if u.name != focus]
            if focus is None or not others:
                continue
            result = CliRunner().invoke(main, ["run", name, f"--{option}", "1", "--unit", others[0], "--count", "3"])
            assert result.exit_code == 2
            assert f"--{option} picks the {focus} that --unit {focus} plays" in result.stderr
