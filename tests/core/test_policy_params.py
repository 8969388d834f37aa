"""Policy parameters (core/policy.py): parsing, validation, fixed-point values per seat,
and the values reaching compiled code without a recompile (the toy game's
``keep_at_least`` policy reads them from its view)."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

import toygame
from simcards.cli import main
from simcards.core.errors import SimcardsError
from simcards.core.policy import PARAM_SCALE, PARAM_SLOTS, PolicyParam, is_user_spec, split_spec, user_spec_file

CATALOG = toygame.GAME.policies


def test_split_spec_names_and_items():
    assert split_spec("expert") == ("expert", [])
    assert split_spec("greedy_deep:theta=8:hold=2") == ("greedy_deep", [("theta", "8"), ("hold", "2")])
    assert split_spec("bots/my.py:cautious") == ("bots/my.py:cautious", [])
    assert split_spec("bots/my.py:cautious:risk=2") == ("bots/my.py:cautious", [("risk", "2")])
    assert is_user_spec("bots/my.py:cautious:risk=2") and not is_user_spec("expert:x=1")
    assert user_spec_file("bots/my.py:cautious:risk=2") == "bots/my.py"
    with pytest.raises(SimcardsError, match="expected name=value"):
        split_spec("expert:0.6")


def test_resolve_fills_defaults_and_canonicalises():
    name, canonical, values = CATALOG.resolve("keep_at_least:fraction=0.250:threshold=0")
    assert name == "keep_at_least"
    assert canonical == "keep_at_least:threshold=0:fraction=0.25"  # declaration order, values as declared
    assert values == {"threshold": 0, "fraction": 0.25}
    assert CATALOG.resolve("keep_at_least")[2] == {"threshold": 4, "fraction": 0.5}
    assert CATALOG.canonical("basic") == "basic"


@pytest.mark.parametrize("spec, message", [
    ("keep_at_least:bogus=1", "has no parameter 'bogus' (its parameters: threshold, fraction"),
    ("basic:threshold=1", "policy basic has no parameter 'threshold' (its parameters: none"),
    ("keep_at_least:threshold=101", "must be in 0..100, got 101"),
    ("keep_at_least:threshold=2.5", "is a whole number in 0..100"),
    ("keep_at_least:fraction=high", "must be a number in 0..1, got 'high'"),
    ("keep_at_least:fraction=nan", "must be a number in 0..1"),
    ("keep_at_least:fraction=0.1234567", "at most six decimals"),
    ("keep_at_least:threshold=1:threshold=2", "given twice"),
    ("nosuch:threshold=1", "unknown toy policy 'nosuch'"),
])
def test_bad_parameters_are_one_line_errors(spec, message):
    with pytest.raises(SimcardsError, match=None) as info:
        CATALOG.resolve(spec)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_param_declaration_is_checked():
    with pytest.raises(ValueError):
        PolicyParam("x", 5, 0, 1, "default outside its range")


def test_table_carries_each_seats_values_in_fixed_point():
    table = CATALOG.table(["keep_at_least:threshold=2", "basic", "keep_at_least:threshold=0:fraction=0.75"])
    assert table.params.shape == (4, PARAM_SLOTS) and table.params.dtype == np.int64
    assert table.params[0, :2].tolist() == [2 * PARAM_SCALE, PARAM_SCALE // 2]
    assert table.params[1].tolist() == [0] * PARAM_SLOTS  # a policy without parameters
    assert table.params[2, :2].tolist() == [0, 750_000]
    assert table.params[3].tolist() == table.params[2].tolist()  # padding seat: the last seat's
    assert table.specs[:3] == ("keep_at_least:threshold=2", "basic", "keep_at_least:threshold=0:fraction=0.75")
    # one compiled function serves every value
    assert table["keep"][0] is CATALOG.table(["keep_at_least:threshold=99"])["keep"][0]


def _rolls(spec, players=2, count=400):
    g = toygame.GAME
    v = g.variant(settings={"players": players})
    return g.simulate("deal", v, g.policies.table([spec] * players), 11, 0, count)


def test_values_reach_the_kernel():
    keep_all = _rolls("keep_at_least:threshold=1")
    assert np.array_equal(keep_all, _rolls("basic"))  # keeping every roll is keep_always
    assert np.array_equal(_rolls("keep_at_least"), _rolls("keep_at_least:threshold=4"))  # defaults = explicit
    assert not np.array_equal(_rolls("keep_at_least:threshold=6"), keep_all)
    # threshold 0 switches to the fraction: half of 6 sides is 3, so it keeps 3 and up
    assert np.array_equal(_rolls("keep_at_least:threshold=0:fraction=0.5"), _rolls("keep_at_least:threshold=3"))
    # per seat: only seat 1 changes its mind
    g = toygame.GAME
    v = g.variant(settings={"players": 2})
    mixed = g.simulate("deal", v, g.policies.table(["keep_at_least:threshold=1", "keep_at_least:threshold=7"]), 11, 0, 400)
    assert np.array_equal(mixed[:, 0], keep_all[:, 0])


def test_cli_lists_parameters_and_refuses_bad_ones(tmp_path):
    runner = CliRunner()
    out = runner.invoke(main, ["policies", "toy"])
    assert out.exit_code == 0, out.output
    assert "keep_at_least: keep a roll of at least a threshold" in out.output
    assert "threshold = 4  (whole number in 0..100): lowest roll kept" in out.output
    rows = [json.loads(line) for line in runner.invoke(main, ["policies", "toy", "--json"]).output.splitlines()]
    assert {r["name"] for r in rows} == {"random", "basic", "expert", "keep_at_least"}
    bad = runner.invoke(main, ["run", "toy", "--deals", "10", "--policy", "keep_at_least:threshold=500",
                               "--out", str(tmp_path / "bad")])
    assert bad.exit_code == 2 and "threshold must be in 0..100, got 500" in bad.output
    assert len(bad.output.strip().splitlines()) == 1


def test_meta_stores_canonical_specs_and_runs_reproduce(tmp_path):
    runner = CliRunner()
    out = runner.invoke(main, ["run", "toy", "--deals", "2000", "--policy", "keep_at_least:threshold=5.0",
                               "--seat-policy", "1=keep_at_least:fraction=0.5000:threshold=0", "--quiet",
                               "--out", str(tmp_path / "r")])
    assert out.exit_code == 0, out.output
    meta = json.loads((tmp_path / "r" / "meta.json").read_text())
    assert meta["spec"]["policies"][:2] == ["keep_at_least:threshold=5", "keep_at_least:threshold=0:fraction=0.5"]


def test_compare_arms_take_parameters(tmp_path):
    runner = CliRunner()
    out = runner.invoke(main, ["compare", "toy", "--arm", "policy=keep_at_least:threshold=1",
                               "--arm", "policy=keep_at_least:threshold=4", "--deals", "4000", "--quiet",
                               "--out", str(tmp_path / "c")])
    assert out.exit_code == 0, out.output
    assert "best" in out.output
