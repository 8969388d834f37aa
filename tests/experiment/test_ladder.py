"""`simcards ladder` on the toy game, whose answer is known exactly.

Seat 0's mean final roll (metric ``roll``, group 0) depends on its own policy only:
``basic`` keeps every roll (3.5), ``random`` keeps half of them at random (3.5),
``expert`` keeps 4 and up, as ``keep_at_least`` does by default (4.25). The edge of A over
B is half the difference of the two seatings: 0.375 for expert over basic, 0 between expert
and keep_at_least (they play every record alike).
"""
import json

import pytest
from click.testing import CliRunner

from simcards.api import ladder
from simcards.cli import main
from simcards.core.errors import SimcardsError


def _edge(result, a, b):
    row = result.pairs[(result.pairs.policy == a) & (result.pairs.opponent == b)].iloc[0]
    return row


def test_ladder_measures_known_edges(tmp_path):
    result = ladder("toy", unit="deal", count=8_000, seed=2, metric="roll", group="0", out=tmp_path / "l")
    assert set(result.policies) == {"random", "basic", "expert", "keep_at_least"}
    for a, b, truth in [("expert", "basic", 0.375), ("expert", "random", 0.375), ("basic", "random", 0.0)]:
        row = _edge(result, a, b)
        half = (row.ci_high - row.ci_low) / 2
        assert abs(row.edge - truth) <= 2 * half, (a, b)  # four standard errors
        assert _edge(result, b, a).edge == pytest.approx(-row.edge)
        assert row.n == 8_000  # records, not seats
    same = _edge(result, "expert", "keep_at_least")
    assert same.edge == 0 and same.ci_low == 0 == same.ci_high  # identical play on every record
    # Copeland: expert and keep_at_least beat basic and random clearly and tie with each other
    rank = result.ranking.set_index("policy")
    assert rank.loc["expert", "copeland"] == rank.loc["keep_at_least", "copeland"] == 2
    assert rank.loc["expert", "rank"] == rank.loc["keep_at_least", "rank"] == 1
    assert set(result.ranking.policy[:2]) == {"expert", "keep_at_least"}
    meta = json.loads((tmp_path / "l" / "meta.json").read_text())
    assert meta["kind"] == "ladder" and set(meta["files"]) == {"ladder.csv", "ranking.csv"}
    assert (tmp_path / "l" / "figures" / "ladder.png").exists()
    again = ladder("toy", unit="deal", count=8_000, seed=2, metric="roll", group="0", out=tmp_path / "l")
    assert again.pairs.equals(result.pairs)  # resumed from the pair folders, same numbers


def test_ladder_refuses_bad_input(tmp_path):
    with pytest.raises(SimcardsError, match="at least two policies"):
        ladder("toy", policies=["basic"], unit="deal", metric="roll", group="0")
    with pytest.raises(SimcardsError, match="named twice"):
        ladder("toy", policies=["basic", "basic"], unit="deal", metric="roll", group="0")
    with pytest.raises(SimcardsError, match="declare no objective"):
        ladder("toy", policies=["basic", "expert"], unit="deal", count=100)


def test_cli_ladder_and_report(tmp_path):
    runner = CliRunner()
    out = tmp_path / "cli"
    r = runner.invoke(main, ["ladder", "toy", "--policies", "basic,expert,keep_at_least:threshold=6", "--deals",
                             "2000", "--metric", "roll", "--group", "0", "--quiet", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "rank" in r.output and "keep_at_least:threshold=6" in r.output and "Copeland" in r.output
    assert "mean edge" not in r.output
    rep = runner.invoke(main, ["report", str(out), "--quiet"])
    assert rep.exit_code == 0, rep.output
    md = (out / "report.md").read_text()
    assert "## Ranking" in md and "## Every pair" in md and "simcards ladder toy" in md and "Copeland" in md
    busy = runner.invoke(main, ["ladder", "toy", "--policies", "basic,nosuch", "--deals", "10", "--metric", "roll",
                                "--out", str(tmp_path / "bad")])
    assert busy.exit_code == 2 and "unknown toy policy 'nosuch'" in busy.output


def test_ladder_adds_each_policys_double_dummy_metrics(monkeypatch, tmp_path):
    """With dd_deals, each policy plays that many deals at every seat with the double-dummy
    columns (a stand-in solver here: twice the best roll), and the ladder reports them."""
    from dataclasses import replace

    import toygame
    from simcards.experiment import runner

    monkeypatch.setattr(toygame, "GAME", replace(toygame.GAME, double_dummy=toygame.STANDIN_DD))
    monkeypatch.setattr(runner, "_table_cache", {})
    result = ladder("toy", policies=["basic", "expert"], unit="deal", count=500, metric="roll", group="0",
                    dd_deals=300, out=tmp_path / "dd")
    dd = result.dd[result.dd.metric == "dd_lost_all"].set_index("policy")
    assert list(dd.index) == ["basic", "expert"]
    assert (dd["n"] == 300).all()
    assert (tmp_path / "dd" / "dd.csv").exists()
    from simcards.experiment.ladder import ladder_lines

    assert any("Against double dummy" in line for line in ladder_lines(result))
    with pytest.raises(SimcardsError, match="no double-dummy columns"):
        ladder("seep", policies=["basic", "expert"], dd_deals=10)


def test_copeland_ranking_counts_clear_pairs_only():
    """A win over a weak policy counts as much as one over a strong one, an unclear pair counts
    nothing, and ties share a rank (what a mean of the edges would not do)."""
    import pandas as pd

    from simcards.experiment.ladder import _ranking

    rows = []
    for a, b, edge, low, high in [("a", "b", 0.02, 0.01, 0.03), ("a", "c", 0.01, -0.01, 0.03),
                                  ("c", "b", 0.45, 0.44, 0.46), ("a", "d", 0.03, 0.01, 0.05),
                                  ("c", "d", 0.45, 0.44, 0.46), ("b", "d", 0.01, -0.02, 0.04)]:
        rows += [{"policy": a, "opponent": b, "edge": edge, "ci_low": low, "ci_high": high},
                 {"policy": b, "opponent": a, "edge": -edge, "ci_low": -high, "ci_high": -low}]
    ranking = _ranking(pd.DataFrame(rows), ["d", "c", "b", "a"]).set_index("policy")
    assert ranking.loc["a", "copeland"] == 2 and ranking.loc["c", "copeland"] == 2  # c's mean edge is larger
    assert ranking.loc["a", "rank"] == ranking.loc["c", "rank"] == 1
    assert ranking.loc["b", "copeland"] == -2 and ranking.loc["b", "rank"] == 3
    assert (ranking.loc["d", "clear_wins"], ranking.loc["d", "clear_losses"]) == (0, 2)


def test_default_ladder_names_every_builtin_searching_ones_at_their_budget():
    from simcards.core.game import get_game

    specs = get_game("spades").policies.ladder_specs()
    assert specs[:3] == ["random", "basic", "expert"]
    pimc = [s for s in specs if s.split(":")[0] == "pimc"]
    assert pimc and pimc[0] != "pimc"  # a cheaper budget, named in the tables
    g = get_game("spades")
    assert g.policies.canonical(pimc[0]) == pimc[0]  # valid parameters
    assert len(specs) == len(g.policies.names())
