"""Card play under another policy's bids (``bidding``): the ladder's fair double-dummy measure.

A spec's ``bidding`` policy makes every seat's decisions but card play; the seats' own
policies play the cards. Without it (or naming the seats' own policy) nothing changes."""
import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from simcards.cli import main
from simcards.core.errors import SimcardsError
from simcards.core.game import get_game
from simcards.experiment.ladder import dd_ratios
from simcards.experiment.runner import execute
from simcards.experiment.spec import ExperimentSpec, make_spec

BIDS = [f"bid{s}" for s in range(4)] + [f"blind{s}" for s in range(4)] + ["contract0", "contract1"]


def _records(policy, bidding=None, count=12, seed=5):
    spec = make_spec("spades", unit="deal", count=count, seed=seed, policy=policy, bidding=bidding)
    return spec, execute(spec, threads=1).records


def test_bidding_by_the_card_policy_itself_is_no_change():
    plain = make_spec("spades", unit="deal", count=10, seed=3, policy="expert")
    same = make_spec("spades", unit="deal", count=10, seed=3, policy="expert", bidding="expert")
    assert same.bidding == "" and same == plain and same.digest() == plain.digest()
    assert "bidding" not in plain.to_dict()  # old folders keep their identity
    assert ExperimentSpec.from_dict(plain.to_dict()) == plain


@pytest.mark.parametrize("bidder", ["expert", "expert:nil_estimate=0:round_up=0.2"])
def test_cards_of_one_policy_under_the_bids_of_another(bidder):
    """basic's cards under expert's bids: the bids are the bidder's own run's (its own parameters
    loaded, though the seats carry basic's), the cards are not."""
    spec, mixed = _records("basic", bidding=bidder)
    assert spec.bidding == bidder and ExperimentSpec.from_dict(spec.to_dict()) == spec
    _, own = _records(bidder)
    _, basic = _records("basic")
    assert (mixed[BIDS].to_numpy() == own[BIDS].to_numpy()).all()
    assert (mixed[BIDS].to_numpy() != basic[BIDS].to_numpy()).any()  # basic bids otherwise
    won = [f"won{t}" for t in range(2)]
    assert (mixed[won].to_numpy() != own[won].to_numpy()).any()  # basic's cards, not the bidder's


def test_a_parameterised_bidder_differs_from_the_plain_one():
    _, a = _records("basic", bidding="expert")
    _, b = _records("basic", bidding="expert:nil_estimate=0:round_up=0.2")
    assert (a[BIDS].to_numpy() != b[BIDS].to_numpy()).any()


def test_held_bids_in_the_ladder_double_dummy_runs(tmp_path):
    """The ladder's dd runs: basic's cards under expert's contracts, the ratio to expert's."""
    out = tmp_path / "lad"
    from simcards.api import ladder as ladder_with_figure  # the workflow: the report shows the figure

    result = ladder_with_figure("spades", policies=["basic", "expert"], unit="deal", count=8, dd_deals=6, seed=4,
                                out=out, threads=1)
    assert result.dd_bids == "expert" and result.dd_reference == "expert"
    runs = {}
    for k in (1, 2):
        meta = __import__("json").loads((out / "dd" / f"policy{k}" / "meta.json").read_text())
        runs[k] = (meta, pd.read_parquet(out / "dd" / f"policy{k}" / "deals.parquet"))
    assert runs[1][0]["spec"]["bidding"] == "expert" and "bidding" not in runs[2][0]["spec"]
    assert (runs[1][1][BIDS].to_numpy() == runs[2][1][BIDS].to_numpy()).all()
    ratio = pd.read_csv(out / "dd_ratio.csv")
    assert set(ratio.policy) == {"basic"} and set(ratio.reference) == {"expert"}
    assert {"all", "lead", "second", "third", "fourth", "early", "late"} >= set(ratio.kind)
    from simcards.experiment.ladder import ladder_lines

    text = "\n".join(ladder_lines(result))
    assert "every other decision but card play by expert" in text and "over expert's" in text
    rep = CliRunner().invoke(main, ["report", str(out), "--quiet"])
    assert rep.exit_code == 0, rep.output
    md = (out / "report.md").read_text()
    assert "under `expert`'s bids" in md and "--dd-bids expert" in md and "over `expert`'s" in md


def _frame(pts, dec):
    """dd records of deals with the given points (x10) and decisions in the lead column only."""
    n = len(pts)
    d = {"index": np.arange(n)}
    for k in ("lead", "second", "third", "fourth", "early", "late"):
        d[f"dd_pts_{k}"] = np.array(pts) if k in ("lead", "early") else np.zeros(n, int)
        d[f"dd_dec_{k}"] = np.array(dec) if k in ("lead", "early") else np.zeros(n, int)
    return pd.DataFrame(d)


def test_dd_ratios_is_the_ratio_of_points_per_decision_paired_over_deals():
    ref = _frame([10, 30, 20, 40], [5, 5, 5, 5])
    half = _frame([5, 15, 10, 20], [5, 5, 5, 5])  # exactly half on every deal: no spread at all
    other = _frame([0, 40, 10, 10], [4, 6, 5, 5])
    r = dd_ratios({"ref": ref, "half": half, "other": other}, "ref").set_index(["policy", "kind"])
    assert r.loc[("half", "all"), "ratio"] == pytest.approx(0.5)
    assert r.loc[("half", "all"), "ci_low"] == pytest.approx(0.5) and r.loc[("half", "all"), "ci_high"] == pytest.approx(0.5)
    assert r.loc[("other", "lead"), "ratio"] == pytest.approx((60 / 20) / (100 / 20))
    assert r.loc[("other", "all"), "ci_low"] < r.loc[("other", "all"), "ratio"] < r.loc[("other", "all"), "ci_high"]
    assert ("other", "second") not in r.index  # no decisions of that kind: no ratio
    with pytest.raises(SimcardsError, match="same deals"):
        dd_ratios({"ref": ref, "short": half.iloc[:3]}, "ref")


def _one_error_line(output: str) -> bool:
    """One error line, the last (a first run may print the compile notice before it)."""
    lines = [x for x in output.strip().splitlines() if "compiling" not in x]
    return len(lines) == 1 and lines[0].startswith("error:")


def test_bad_bidders_are_one_line_and_status_2(tmp_path):
    with pytest.raises(SimcardsError, match="unknown spades policy 'nosuch'"):
        make_spec("spades", unit="deal", count=5, policy="basic", bidding="nosuch")
    with pytest.raises(SimcardsError, match="no card-play decision"):
        make_spec("seep", count=5, policy="basic", bidding="expert")
    runner = CliRunner()
    for extra in (["--dd-deals", "2", "--dd-bids", "nosuch"], ["--dd-bids", "expert"]):
        r = runner.invoke(main, ["ladder", "spades", "--policies", "basic,expert", "--deals", "4", *extra,
                                 "--out", str(tmp_path / "bad")])
        assert r.exit_code == 2, r.output
        assert _one_error_line(r.output), r.output


@pytest.mark.parametrize("game", ["cutthroat", "kierki"])
def test_other_games_hand_their_non_card_decisions_over(game):
    """Cutthroat and Kierki: basic's cards under expert's other decisions run (play stays basic's)."""
    g = get_game(game)
    n = g.seats(g.variant(None, None, []))
    table = g.policies.table(["basic"] * n, bidding="expert")
    plain = g.policies.table(["basic"] * n)
    assert table.bidding == "expert" and table["play"] == plain["play"]
    spec = make_spec(g, unit="deal", count=5, seed=2, policy="basic", bidding="expert")
    assert len(execute(spec, threads=1).records) == 5


def test_run_bidding_on_the_command_line(tmp_path):
    """``simcards run --bidding``: the folder's records hold the bidder's bids, the output says so."""
    runner = CliRunner()
    out = tmp_path / "r"
    r = runner.invoke(main, ["run", "spades", "--deals", "12", "--seed", "5", "--policy", "basic", "--bidding",
                             "expert", "--quiet", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "every decision but card play by expert" in r.output
    _, own = _records("expert")
    mine = pd.read_parquet(out / "deals.parquet")
    assert (mine[BIDS].to_numpy() == own[BIDS].to_numpy()).all()
    bad = runner.invoke(main, ["run", "spades", "--deals", "5", "--bidding", "nosuch", "--out", str(tmp_path / "b")])
    assert bad.exit_code == 2 and _one_error_line(bad.output), bad.output
