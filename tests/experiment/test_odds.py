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
