"""The odds loop: fixed size, sequential stopping to a precision, plots, clear errors."""
import pytest
from click.testing import CliRunner

import simcards
from simcards.cli import main
from simcards.core.errors import SimcardsError


def test_fixed_number_of_deals_and_exact_answer():
    r = simcards.hand_odds("toy", options={"roll": 4}, deals=20000, seed=3)
    assert r.deals == 20000
    table = r.table.set_index("option")
    # two players, six sides: keeping a 4 wins when the other rolls 1..3 -> 1/2 exactly
    keep = table.loc["keep"]
    assert keep.ci_low <= 0.5 <= keep.ci_high


def test_precision_stops_once_every_rate_is_resolved():
    r = simcards.hand_odds("toy", options={"roll": 5}, precision=0.01, seed=1)
    assert r.resolved
    assert r.widest_half_width() <= 0.01
    # a binomial rate near 2/3 needs about 1.96^2 p(1-p) / h^2 = 8,500 deals for h = 0.01
    assert 5000 <= r.deals <= 20000


def test_precision_cap_is_reported():
    r = simcards.hand_odds("toy", options={"roll": 5}, precision=0.001, max_deals=3000, seed=1)
    assert not r.resolved and r.deals == 3000


def test_same_seed_same_answer_whatever_the_threads():
    a = simcards.hand_odds("toy", options={"roll": 2}, deals=5000, seed=8, threads=1)
    b = simcards.hand_odds("toy", options={"roll": 2}, deals=5000, seed=8, threads=2)
    assert a.table.equals(b.table)


def test_plot_is_written(tmp_path):
    r = simcards.hand_odds("toy", options={"roll": 3}, deals=2000, plot=str(tmp_path / "p.png"))
    assert (tmp_path / "p.png").stat().st_size > 1000 and r.figure


@pytest.mark.parametrize("kwargs,words", [
    ({"options": {}}, "give the roll"),
    ({"options": {"roll": 2}, "deals": 0}, "positive integer"),
    ({"options": {"roll": 2}, "precision": 2.0}, "between 0 and 1"),
    ({"options": {"roll": 2}, "precision": 0.1, "deals": 10}, "either --deals or --precision"),
    ({"options": {"roll": 2}, "bids": "X=3"}, "unknown seat"),
    ({"options": {"roll": 2}, "scores": "1:x"}, "--scores takes integers"),
])
def test_bad_requests_are_named(kwargs, words):
    with pytest.raises(SimcardsError, match=words):
        simcards.hand_odds("toy", **kwargs)


def test_cli_bid_without_support_is_one_line():
    result = CliRunner().invoke(main, ["trump", "toy", "--hand", "AS"])
    assert result.exit_code == 2 and "toy has no `trump` command" in result.stderr


def test_precision_stops_after_the_same_deals_whatever_the_threads():
    """Issue 14 item 4: the stopping rounds are a fixed schedule of deal counts, so one
    command gives one table on any machine (they used to grow with the thread count)."""
    runs = [simcards.hand_odds("toy", options={"roll": 5}, precision=0.012, seed=4, threads=t) for t in (1, 2, 3)]
    assert all(r.resolved for r in runs)
    assert len({r.deals for r in runs}) == 1
    for r in runs[1:]:
        assert r.table.equals(runs[0].table) and r.summary.equals(runs[0].summary)


def test_check_points_are_whole_batches_growing_to_the_target():
    from simcards.experiment.odds import MIN_ROUND_BATCHES, check_points

    points = check_points(1_000_000, 2000, True)
    assert points[0] == MIN_ROUND_BATCHES * 2000 and points[-1] == 1_000_000
    steps = [b - a for a, b in zip([0] + points, points)]
    assert all(s > 0 for s in steps) and all(p % 2000 == 0 for p in points[:-1])
    # about 25 % more each round: few checks even for a large cap, never a huge overshoot
    assert len(points) < 40 and all(s <= max(MIN_ROUND_BATCHES * 2000, 0.25 * a + 2000)
                                    for a, s in zip([0] + points, steps))
    assert check_points(20_000, 2000, False) == [20_000]


def test_zero_threads_is_refused():
    with pytest.raises(SimcardsError, match="--threads must be a positive integer"):
        simcards.hand_odds("toy", options={"roll": 2}, deals=100, threads=0)


def test_progress_bar_counts_the_deals(capsys):
    simcards.hand_odds("toy", options={"roll": 2}, deals=3000, progress=True)
    err = capsys.readouterr().err
    assert "bid toy" in err and "deals" in err
    simcards.hand_odds("toy", options={"roll": 2}, deals=3000)
    assert capsys.readouterr().err == ""


HAND = "AS KS 7S 4S AH QH 9H 5D 4D 3D KC 8C 2C"
BID = ["bid", "spades", "--hand", HAND, "--seat", "N", "--dealer", "W", "--deals", "1000", "--seed", "5"]


def test_bid_csv_is_the_table_with_numeric_interval_columns():
    import io

    import pandas as pd

    result = CliRunner().invoke(main, BID + ["--format", "csv"])
    assert result.exit_code == 0, result.output
    frame = pd.read_csv(io.StringIO(result.stdout))  # stdout holds the data alone
    assert {"bid", "P(makes)", "makes 95% CI low", "makes 95% CI high"} <= set(frame.columns)
    assert (frame["makes 95% CI low"] <= frame["P(makes)"]).all()
    assert (frame["P(makes)"] <= frame["makes 95% CI high"]).all()
    assert "1,000 deals" in result.stderr and "policies:" in result.stderr
    api = simcards.hand_odds("spades", hand=HAND, seat="N", dealer="W", deals=1000, seed=5)
    assert list(frame["bid"].astype(str)) == list(api.table["bid"].astype(str))


def test_bid_json_and_output_file(tmp_path):
    import json

    out = tmp_path / "bid.json"
    result = CliRunner().invoke(main, BID + ["--format", "json", "-o", str(out)])
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text())
    assert doc["game"] == "spades" and doc["command"] == "bid" and doc["deals"] == 1000
    assert doc["policies"].startswith("policies: fitted") and doc["rows"]
    assert all(0 <= row["P(makes)"] <= 1 for row in doc["rows"])
    assert f"table (json) -> {out}" in result.stdout
    csv_out = tmp_path / "bid.csv"
    assert CliRunner().invoke(main, BID + ["--format", "csv", "-o", str(csv_out)]).exit_code == 0
    assert csv_out.read_text().startswith("bid,")
    text_out = tmp_path / "bid.txt"
    assert CliRunner().invoke(main, BID + ["-o", str(text_out)]).exit_code == 0
    assert "P(makes)" in text_out.read_text().splitlines()[0]


def test_bid_progress_bar_and_quiet(monkeypatch):
    import simcards.cli as cli

    monkeypatch.setattr(cli, "_show_progress", lambda quiet: not quiet)  # as on a terminal
    shown = CliRunner().invoke(main, BID)
    assert shown.exit_code == 0 and "bid spades" in shown.stderr
    quiet = CliRunner().invoke(main, BID + ["--quiet"])
    assert quiet.exit_code == 0 and "bid spades" not in quiet.stderr
