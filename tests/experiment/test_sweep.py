"""`simcards sweep` on the toy game, whose answer is known exactly.

Seat 0 keeps a die roll of at least ``threshold`` and otherwise rerolls once; its mean
final roll on a d6 is P(keep) E[roll | kept] + P(reroll) 3.5: thresholds 1..6 give
3.5, 3.9167, 4.1667, 4.25, 4.1667, 3.9167, so the default (4) is best and every
other value is worse by a known amount.
"""
import json
import math

import pytest
from click.testing import CliRunner

import toygame
from simcards.api import sweep
from simcards.cli import main
from simcards.core.errors import SimcardsError
from simcards.experiment.sweep import parse_grid, parse_param_option, parse_seat_list

TRUTH = {1: 3.5, 2: 3 + 11 / 12, 3: 4 + 1 / 6, 4: 4.25, 5: 4 + 1 / 6, 6: 3 + 11 / 12}
PARAM = toygame.KEEP_AT_LEAST.params[0]


def test_grids_parse_and_validate():
    assert parse_grid("1:6:1", PARAM, "p") == [1, 2, 3, 4, 5, 6]
    assert parse_grid("2, 4,4 ,9", PARAM, "p") == [2, 4, 9]
    fraction = toygame.KEEP_AT_LEAST.params[1]
    assert parse_grid("0.1:0.3:0.1", fraction, "p") == [0.1, 0.2, 0.3]  # no 0.30000000000000004
    for bad, message in [("1:6", "LOW:HIGH:STEP"), ("6:1:1", "HIGH is below LOW"), ("1:6:0", "step must be positive"),
                         ("1:500:100", "must be in 0..100"), ("1.5,2", "whole number"), ("0:100:1", "at most 64")]:
        with pytest.raises(SimcardsError, match=message):
            parse_grid(bad, PARAM, "p")
    assert parse_param_option("threshold=1:6:1") == ("threshold", "1:6:1")
    with pytest.raises(SimcardsError, match="NAME=LOW:HIGH:STEP"):
        parse_param_option("threshold")
    assert parse_seat_list("0, 2") == (0, 2) and parse_seat_list(None) is None


def _sweep(tmp_path, **options):
    defaults = dict(policy="keep_at_least", param="threshold", grid="1:6:1", seats=(0,), metric="roll", group="0",
                    count=16_000, seed=3, out=tmp_path / "sweep")
    defaults.update(options)
    return sweep("toy", **defaults)


def test_sweep_finds_the_known_best_with_paired_intervals(tmp_path):
    result = _sweep(tmp_path)
    t = result.table.set_index("value")
    assert list(t.index) == [1, 2, 3, 4, 5, 6] and t.loc[4, "is_default"]
    assert (t["n"] == 16_000).all()  # the record is a deal: n counts records, not seats
    for v, truth in TRUTH.items():
        if v == 4:
            continue
        # within four standard errors of the true difference (the half-width is 1.96 of them)
        half = (t.loc[v, "ci_high"] - t.loc[v, "ci_low"]) / 2
        assert abs(t.loc[v, "difference"] - (truth - TRUTH[4])) <= 2 * half, v
    assert result.best["value"] in (3, 4, 5)  # 4 is best by 0.083; its neighbours are close
    assert t.loc[1, "ci_high"] < 0  # clearly worse: keep everything
    # common random numbers: the paired interval is far narrower than the unpaired one would be
    diffs = result.comparison.differences
    row = diffs[(diffs.metric == "roll") & diffs.arm.str.startswith("threshold=1")].iloc[0]
    assert row.half_width < 0.8 * row.unpaired_half_width
    meta = json.loads((tmp_path / "sweep" / "meta.json").read_text())
    assert meta["sweep"]["param"] == "threshold" and meta["files"]["sweep.csv"]
    assert (tmp_path / "sweep" / "figures" / "sweep.png").stat().st_size > 0


def test_halving_drops_the_worse_half_and_keeps_pairing(tmp_path):
    result = _sweep(tmp_path, halving=True)
    t = result.table.set_index("value")
    assert t.loc[4, "n"] == 16_000  # the default plays every round
    dropped = t[t["round_dropped"].notna()]
    assert len(dropped) == 3  # 5 contenders -> 3 -> 2
    assert 1 in dropped.index and t.loc[1, "round_dropped"] == 1 and t.loc[1, "n"] == 4_000
    finalists = t[t["round_dropped"].isna() & ~t["is_default"]]
    assert (finalists["n"] == 16_000).all()
    # a dropped value is paired with the default on the records it played only: its row is
    # the row of a plain sweep of those records
    plain = _sweep(tmp_path, count=4_000, grid="1,4", out=tmp_path / "plain").table.set_index("value")
    for column in ("n", "estimate", "difference", "ci_low", "ci_high"):
        assert t.loc[1, column] == pytest.approx(plain.loc[1, column], rel=1e-12), column


def test_sweep_resumes_identically(tmp_path):
    first = _sweep(tmp_path, count=4_000)
    again = _sweep(tmp_path, count=4_000)
    assert first.table.drop(columns=[]).equals(again.table)


def test_bad_sweeps_are_refused(tmp_path):
    with pytest.raises(SimcardsError, match="policy basic has no parameter 'threshold' to sweep"):
        _sweep(tmp_path, policy="basic")
    with pytest.raises(SimcardsError, match="every seat plays the swept policy"):
        _sweep(tmp_path, seats=(0, 1))
    with pytest.raises(SimcardsError, match="do not fix threshold"):
        _sweep(tmp_path, policy="keep_at_least:threshold=2")
    with pytest.raises(SimcardsError, match="no default metric"):
        _sweep(tmp_path, metric=None, group=None)
    with pytest.raises(SimcardsError, match="no metric 'nope'"):
        _sweep(tmp_path, metric="nope", count=100)


def test_cli_sweep_prints_the_grid_and_reports(tmp_path):
    runner = CliRunner()
    out = tmp_path / "cli"
    r = runner.invoke(main, ["sweep", "toy", "--policy", "keep_at_least", "--param", "threshold=1,4,6",
                             "--seats", "0", "--metric", "roll", "--deals", "4000", "--quiet", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "threshold of keep_at_least for seats 0" in r.output and "(default)" in r.output and "<- best" in r.output
    bad = runner.invoke(main, ["sweep", "toy", "--policy", "keep_at_least", "--param", "threshold=1:6",
                               "--seats", "0", "--metric", "roll", "--deals", "100", "--out", str(tmp_path / "bad")])
    assert bad.exit_code == 2 and len(bad.output.strip().splitlines()) == 1
    rep = runner.invoke(main, ["report", str(out), "--quiet"])
    assert rep.exit_code == 0, rep.output
    md = (out / "report.md").read_text()
    assert "## The grid" in md and "simcards sweep toy --policy keep_at_least" in md and "figures/sweep.png" in md
    assert not math.isnan(float(json.loads((out / "meta.json").read_text())["sweep"]["default"]))


def test_python_api_sweeps_and_lists_parameters(tmp_path):
    import simcards

    result = simcards.sweep("toy", "keep_at_least", "threshold=1,4", seats=(0,), metric="roll", deals=2_000)
    assert list(result.table["value"]) == [1, 4] and result.comparison.out is None
    table = simcards.policies("toy")
    assert set(table.loc[table.policy == "keep_at_least", "parameter"]) == {"threshold", "fraction"}


def test_experiment_file_describes_a_sweep(tmp_path):
    spec = tmp_path / "toy-sweep.toml"
    spec.write_text('name = "toy-sweep"\nquestion = "How high should seat 0 keep?"\ngame = "toy"\nunit = "deal"\n'
                    'deals = 3000\nseed = 4\n[sweep]\npolicy = "keep_at_least"\nparam = "threshold"\n'
                    'grid = [2, 4, 6]\nseats = [0]\nmetric = "roll"\n')
    runner = CliRunner()
    r = runner.invoke(main, ["run", "--spec", str(spec), "--out", str(tmp_path / "s"), "--quiet"])
    assert r.exit_code == 0, r.output
    table = json.loads((tmp_path / "s" / "meta.json").read_text())["sweep"]
    assert table["values"] == [2, 4, 6] and table["seats"] == [0]
    assert runner.invoke(main, ["report", str(tmp_path / "s"), "--quiet"]).exit_code == 0
    assert "How high should seat 0 keep?" in (tmp_path / "s" / "report.md").read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "toy"\npolicy = "basic"\n[sweep]\npolicy = "keep_at_least"\nparam = "threshold"\ngrid = "1:6:1"\n')
    r = runner.invoke(main, ["run", "--spec", str(bad)])
    assert r.exit_code == 2 and "drop 'policy'" in r.output


def test_halving_rounds_end_on_batch_boundaries(tmp_path):
    """1,500 records in 2 rounds: a first round of 750 would split a batch (750 // 32 = 23
    records) between rounds, pairing a dropped value with records it never played."""
    result = _sweep(tmp_path, grid="0:8:2", count=1_500, halving=True)
    t = result.table.set_index("value")
    first = int(t["n"].min())
    assert first % (first // 32) == 0
    dropped = t[t["round_dropped"] == 1].index[0]
    plain = _sweep(tmp_path, grid=f"{dropped},4", count=first, out=tmp_path / "plain").table.set_index("value")
    for column in ("n", "estimate", "difference", "ci_low", "ci_high"):
        assert t.loc[dropped, column] == pytest.approx(plain.loc[dropped, column], rel=1e-12), column
