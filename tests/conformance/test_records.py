"""Records of every game: independent of threads and chunking, tallies additive, replay faithful."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from conformance_util import GAMES, profile
from simcards.api import run_experiment
from simcards.core import stats


def frame(setup, array, start=0):
    """Records as the runner gives them to ``tally`` (experiment/runner.simulate_records)."""
    df = pd.DataFrame(np.asarray(array), columns=setup.game.unit(setup.unit).column_names())
    df.insert(0, "index", np.arange(start, start + len(df), dtype=np.int64))
    return df


@pytest.mark.parametrize("game", GAMES)
def test_records_do_not_depend_on_threads_or_chunking(game, setups):
    s = setups(game)
    n = s.count
    common = dict(unit=s.unit, count=n, seed=3, settings=list(profile(game).settings), policy="basic")
    whole = run_experiment(game, threads=1, chunk_size=n, **common).records
    pieces = run_experiment(game, threads=2, chunk_size=max(1, n // 3 - 1), **common).records
    pd.testing.assert_frame_equal(whole.reset_index(drop=True), pieces.reset_index(drop=True))
    direct = s.game.simulate(s.unit, s.variant, s.table("basic"), 3, 0, n)
    np.testing.assert_array_equal(whole[s.game.unit(s.unit).column_names()].to_numpy(), direct)


def _sorted(tally):
    return tally.sort_values(["metric", "group", "kind"]).reset_index(drop=True)


@pytest.mark.parametrize("game", GAMES)
def test_tally_of_two_halves_merged_is_the_tally_of_the_whole(game, setups):
    s = setups(game)
    n = max(s.count, 4)
    array = s.game.simulate(s.unit, s.variant, s.table("basic"), 4, 0, n)
    k = n // 3
    whole = _sorted(s.game.tally(s.unit, frame(s, array), s.variant))
    halves = _sorted(stats.merge(s.game.tally(s.unit, frame(s, array[:k]), s.variant),
                                 s.game.tally(s.unit, frame(s, array[k:], k), s.variant)))
    assert len(whole), f"{game}: empty tally"
    pd.testing.assert_frame_equal(whole[["metric", "group", "kind", "n"]], halves[["metric", "group", "kind", "n"]])
    np.testing.assert_allclose(halves["sum"], whole["sum"], rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(halves["sumsq"], whole["sumsq"], rtol=1e-12, atol=1e-9)


# ---- replay: the traced run behind `simcards replay` gives the record's own columns

def _spades(unit, v, table, seed, i):
    from simcards.games.spades.kernel import run_kernel

    return run_kernel(unit, v, table, seed, i, 1, trace=True)[0][0]


def _cutthroat(unit, v, table, seed, i):
    from simcards.games.cutthroat.rules import trace_record

    return trace_record(unit, v, table, seed, i)[0]


def _kierki(unit, v, table, seed, i):
    from simcards.games.kierki import rules

    return rules.run_records(unit, v, table, seed, i, 1, trace=rules.trace_buffer(v, unit))[0]


def _rummy(unit, v, table, seed, i):
    from simcards.games.contract_rummy.sim import run_chunk

    return run_chunk(unit, v, table, seed, i, 1, trace_rows=20_000)[0][0]


def _seep(unit, v, table, seed, i):
    from simcards.games.seep import rules
    from simcards.games.seep.replay import trace

    if unit != "deal":
        return None  # a baazi's replay is deal by deal; its row is checked through its deals' scores
    states = trace(v, table, seed, i)[0]
    row = np.zeros(64, np.int64)  # write_deal fills the deal columns; the rest stays 0
    rules.write_deal(states[48], v.to_params(), row)
    return row


# The game's own traced run, where the game has one (the toy game's replay simply reruns
# simulate, so there only determinism is checked).
TRACED = {"spades": _spades, "cutthroat": _cutthroat, "kierki": _kierki, "contract-rummy": _rummy, "seep": _seep}


@pytest.mark.parametrize("game", GAMES)
def test_replay_is_the_record(game, setups):
    s = setups(game)
    table = s.table("basic")
    records = s.game.simulate(s.unit, s.variant, table, 9, 0, 3)
    texts = [s.game.replay(s.unit, s.variant, table, 9, i) for i in range(3)]
    assert all(t.strip() for t in texts)
    assert texts[1] == s.game.replay(s.unit, s.variant, table, 9, 1)  # deterministic
    assert len(set(texts)) == 3, f"{game}: different records replay to the same text"
    traced = TRACED.get(game)
    if traced is None:
        pytest.skip(f"{game} offers no traced run to check against its columns (replay determinism checked)")
    for i in range(3):
        row = traced(s.unit, s.variant, table, 9, i)
        if row is None:
            continue
        ncols = records.shape[1]
        np.testing.assert_array_equal(np.asarray(row)[:ncols], records[i], err_msg=f"{game} record {i}")
