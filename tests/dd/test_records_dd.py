"""`run --records dd`: double-dummy columns and metrics go through the same runner
(deterministic over threads and chunking, resumable), and the Spades metrics are right."""
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

import toygame
from simcards.core import stats
from simcards.core.errors import SimcardsError
from simcards.experiment import runner
from simcards.experiment.spec import make_spec


@pytest.fixture
def toy_with_dd(monkeypatch):
    monkeypatch.setattr(toygame, "GAME", replace(toygame.GAME, double_dummy=toygame.STANDIN_DD))
    monkeypatch.setattr(runner, "_table_cache", {})


def test_dd_columns_through_the_runner_threads_and_resume(toy_with_dd, tmp_path):
    spec = make_spec("toy", count=500, seed=3, records="dd", chunk_size=70)
    one = runner.execute(spec, threads=1)
    assert (one.records["dd_value"] == 2 * one.records["best"]).all()
    row = one.summary.set_index("metric").loc["dd_value"]
    assert row["estimate"] == pytest.approx(2 * one.records["best"].mean())
    two = runner.execute(replace(spec, chunk_size=33), threads=2, out=tmp_path / "r")
    pd.testing.assert_frame_equal(one.records.reset_index(drop=True), two.records.reset_index(drop=True))
    again = runner.execute(replace(spec, chunk_size=33), threads=2, out=tmp_path / "r")
    assert again.computed_chunks == 0 and len(again.records) == 500


def test_records_dd_refused_where_there_is_no_solver():
    with pytest.raises(SimcardsError, match="no double-dummy columns"):
        make_spec("seep", count=10, records="dd")
    with pytest.raises(SimcardsError, match="unit game"):
        make_spec("spades", unit="game", count=10, records="dd")


def test_spades_dd_tally_metrics():
    from simcards.games.spades.dd import COLUMNS, dd_tally

    df = pd.DataFrame({c.name: np.zeros(4, np.int64) for c in COLUMNS})
    df["dd_tricks0"] = [4, 5, 6, 7]
    df["dd_tricks1"] = 13 - df["dd_tricks0"]
    df["contract0"] = [4, 6, 6, 0]
    df["contract1"] = [9, 7, 9, 6]
    df["made0"] = [1, 0, 0, -1]
    df["made1"] = [0, 1, 0, 1]
    df["dd_lost0"] = [1, 0, 2, 1]
    s = stats.finalize(dd_tally("deal", df, None)).set_index(["metric", "group"])["estimate"]
    assert s[("dd_lost", "team0")] == pytest.approx(1.0)
    # makeable: team0 4>=4, 5<6, 6>=6 (contract 0 excluded); team1 9>=9, 8>=7, 7<9, 6>=6
    assert s[("dd_makeable_all", "all")] == pytest.approx(5 / 7)
    # makeable and set: team0 deal 2 (6 makeable, set), team1 deal 0 (9 makeable, set): 2 of 5
    assert s[("dd_makeable_set", "all")] == pytest.approx(2 / 5)
    # bid errors of the number contracts: team0 0, +1, 0; team1 0, -1, +2, 0
    assert s[("dd_bid_error", "all")] == pytest.approx(2 / 7)
    assert s[("dd_bid_within1", "all")] == pytest.approx(6 / 7)
    assert s[("dd_lost_per_card", "all")] == pytest.approx((1 + 0 + 2 + 1) / 8 / 26)
