"""`run --records dd` for Cutthroat and Kierki's trump deals: each player's double-dummy
tricks (paranoid bound) are the solver's on the deal the bots played, the columns do not
depend on threads or chunking, the metrics are right, and what cannot be measured is one line."""
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from simcards.cli import main
from simcards.core import dd, stats
from simcards.core.game import get_game
from simcards.core.policy import seat_policies
from simcards.experiment import runner
from simcards.experiment.spec import make_spec
from simcards.games.cutthroat import dd as cdd
from simcards.games.kierki import dd as kdd


def _check_against_solver(game, records, played, rules_of, seats, seed):
    g = get_game(game)
    v = g.variant_type.from_mapping(records.spec.variant)
    table = g.policies.table(list(records.spec.policies))  # the run's own (the game's default)
    for _, rec in records.records.iterrows():
        deal = played(v, table, seed, int(rec["index"]))
        row, masks = rules_of(v, deal)
        for s in range(seats):
            alone = dd.solve(deal["hands"], row, [s], masks, leader=deal["leader"], trick1=True)
            assert rec[f"dd_tricks_{s}"] == alone
            # the paranoid value falls only by the player's own costs (the others minimise it):
            # he took at least his double-dummy tricks less what his cards cost
            assert 0 <= rec[f"dd_lost_{s}"] and rec[f"tricks_{s}"] >= alone - rec[f"dd_lost_{s}"]
            assert rec[f"tricks_{s}"] == deal["winners"].count(s)


def test_kierki_trump_deals_dd_columns_threads_and_metrics():
    # deals 1-3 of seed 2 solve in a few seconds (deal 0 takes several)
    spec = make_spec("kierki", unit="deal", count=3, seed=2, settings=["deal_type=trumps"], records="dd",
                     chunk_size=2, start=1)
    one = runner.execute(spec, threads=1)
    two = runner.execute(replace(spec, chunk_size=1), threads=2)
    pd.testing.assert_frame_equal(one.records.reset_index(drop=True), two.records.reset_index(drop=True))
    _check_against_solver("kierki", one, kdd.played_deal, lambda v, d: kdd.solver_rules(v, d["trump"]), 4, 2)
    df = one.records
    chooser = df["chooser"].to_numpy()
    dd_c = np.array([df[f"dd_tricks_{c}"].iloc[i] for i, c in enumerate(chooser)])
    took = np.array([df[f"tricks_{c}"].iloc[i] for i, c in enumerate(chooser)])
    s = one.summary.set_index(["metric", "group"])["estimate"]
    assert s[("dd_chooser_tricks", "chooser")] == pytest.approx(dd_c.mean())
    assert s[("chooser_minus_dd", "chooser")] == pytest.approx((took - dd_c).mean())
    assert s[("dd_lost", "seat1")] == pytest.approx(df["dd_lost_1"].mean())


def test_cutthroat_dd_columns_against_the_solver():
    spec = make_spec("cutthroat", unit="deal", count=2, seed=3, settings=["num_players=5", "jokers=2"],
                     records="dd")
    run = runner.execute(spec, threads=1)
    df = run.records
    assert (df[["dd_tricks_0", "dd_lost_4"]] >= 0).all().all()
    _check_against_solver("cutthroat", run, cdd.played_deal,
                          lambda v, d: cdd.solver_rules(v, d["hands"], d["sitout"]), 5, 3)


def test_cutthroat_dd_tally_metrics():
    v = get_game("cutthroat").variant(None, None, ["num_players=3"])
    cols = {c.name: np.full(4, -1, np.int64) for c in cdd.COLUMNS}
    df = pd.DataFrame(cols)
    # seat 0: ordinary 5 (dd 6, took 5: makeable, made), 7 (dd 6: not makeable), Nil (not judged), B6 (dd 6, took 4:
    # makeable, set); seat 1: 4 (dd 3, took 4), 2 (dd 2, took 1: makeable, set), 1F, 3 (dd 5, took 3)
    df["bid_0"], df["dd_tricks_0"], df["tricks_0"] = [5, 7, 0, 26], [6, 6, 2, 6], [5, 7, 0, 4]
    df["bid_1"], df["dd_tricks_1"], df["tricks_1"] = [4, 2, 21, 3], [3, 2, 1, 5], [4, 1, 1, 3]
    df["bid_2"], df["dd_tricks_2"], df["tricks_2"] = [1, 1, 1, 1], [0, 0, 0, 0], [1, 1, 1, 1]
    for s in range(3):
        df[f"dd_lost_{s}"] = [0, 1, 0, 2]
    s = stats.finalize(cdd.dd_tally("deal", df, v)).set_index(["metric", "group"])["estimate"]
    # judged bids: seat0 5, 7, B6; seat1 4, 2, 3; seat2 four 1s (dd 0: not makeable) -> makeable 5/10
    assert s[("dd_makeable_all", "all")] == pytest.approx(4 / 10)
    assert s[("dd_makeable", "B6")] == pytest.approx(1.0) and s[("dd_makeable", "07")] == pytest.approx(0.0)
    # makeable: seat0 5 (made), B6 (set); seat1 2 (set), 3 (made) -> set 2 of 4
    assert s[("dd_makeable_set", "all")] == pytest.approx(2 / 4)
    # need - dd: seat0 -1, +1, 0 (B6 needs 6); seat1 +1, 0, -2; seat2 +1 x4
    assert s[("dd_bid_error", "all")] == pytest.approx((-1 + 1 + 0 + 1 + 0 - 2 + 4) / 10)
    assert s[("dd_lost", "seat0")] == pytest.approx(0.75)


def test_kierki_records_dd_needs_the_trump_deals(tmp_path):
    r = CliRunner().invoke(main, ["run", "kierki", "--unit", "deal", "--deals", "2", "--records", "dd", "--quiet",
                                  "--out", str(tmp_path / "k")])
    assert r.exit_code == 2 and "trump deals" in r.output and len(r.output.strip().splitlines()) == 1, r.output
    r = CliRunner().invoke(main, ["run", "cutthroat", "--games", "2", "--records", "dd", "--quiet"])
    assert r.exit_code == 2 and "unit deal" in r.output, r.output
    # the default count (10,000 records) would take hours: a count must be given
    r = CliRunner().invoke(main, ["run", "cutthroat", "--records", "dd", "--quiet"])
    assert r.exit_code == 2 and "give the number of deals" in r.output, r.output
