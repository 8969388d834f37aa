"""Comparisons with common random numbers, and the report a person reads."""
import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from simcards.cli import main
from simcards.experiment.compare import compare, parse_arm


def test_arms_are_parsed_into_settings_policies_and_names():
    arm = parse_arm("bag_limit=5, policy=expert, seat1=basic, preset=club_rules, name=five")
    assert (arm.name, arm.settings, arm.policy, arm.preset, dict(arm.seat_policy)) == \
        ("five", ("bag_limit=5",), "expert", "club_rules", {1: "basic"})


def test_every_arm_plays_the_same_deals_so_intervals_are_paired():
    # seat 0 rolls the same dice in both arms; only seat 1's policy differs
    result = compare("toy", [parse_arm("name=base"), parse_arm("seat1=expert,name=smart")], count=20000, seed=5)
    d = result.differences.set_index(["metric", "group"])
    same = d.loc[("roll", "0")]  # seat 0's first roll: identical deals, so exactly no difference
    assert same.difference == 0 and same.half_width == 0 and same.unpaired_half_width > 0
    best = d.loc[("best", "all")]
    assert best.half_width * 2 < best.unpaired_half_width  # pairing removes the shared variance
    assert best.ci_low > 0  # keeping only high rolls raises the best roll


@pytest.mark.slow
def test_paired_interval_has_its_nominal_coverage():
    # 40 comparisons of two arms that differ by a known amount: seat 1 rerolls or keeps
    # under two policies; the true difference is estimated from one huge run.
    truth = compare("toy", [parse_arm("name=a"), parse_arm("seat1=random,name=b")], count=200000, seed=999)
    true_diff = truth.differences.set_index(["metric", "group"]).loc[("best", "all")].difference
    covered = 0
    for seed in range(40):
        r = compare("toy", [parse_arm("name=a"), parse_arm("seat1=random,name=b")], count=2000, seed=seed)
        row = r.differences.set_index(["metric", "group"]).loc[("best", "all")]
        covered += row.ci_low <= true_diff <= row.ci_high
    # 95 % coverage: 40 trials, P(covered <= 33) < 0.5 % under the nominal rate
    assert covered >= 34


def test_precision_adds_rounds_until_resolved():
    result = compare("toy", [parse_arm("name=a"), parse_arm("seat1=expert,name=b")], seed=1, precision="mean=0.02",
                     metrics=["best"])
    assert result.resolved and result.rounds >= 2
    assert (result.differences.half_width <= 0.02).all()
    assert (result.differences.n_arm == result.count).all()  # a batch split by a round is not counted twice
    assert set(result.differences.metric) == {"best"}


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    out = tmp_path_factory.mktemp("cmp") / "dice"
    result = CliRunner().invoke(main, ["compare", "toy", "--arm", "name=base", "--arm", "seat1=expert,name=smart",
                                       "--deals", "6000", "--out", str(out), "--question", "Does rerolling low dice help?"])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(main, ["report", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_report_markdown_says_what_was_asked_answered_and_how_to_reproduce(compared):
    md = (compared / "report.md").read_text()
    for section in ("## The question", "## Answers", "## Setup", "## Figures", "## Differences", "## Reproduce"):
        assert section in md
    assert "Does rerolling low dice help?" in md
    assert "**smart** raises **best**" in md
    assert "simcards compare toy" in md and "--arm" in md
    assert (compared / "figures" / "differences.png").exists()
    # the arms side by side in one figure, not one file per arm
    assert sorted(p.name for p in (compared / "figures").glob("*.png")) == ["arms.png", "differences.png"]
    assert "![arms](figures/arms.png)" in md


def test_arms_figure_shows_each_arm_of_each_metric_that_moved():
    import pandas as pd

    from simcards.report.figures import arms_figure, changed_metrics

    diffs = pd.DataFrame({"metric": ["a", "b", "b"], "group": ["all", "1", "2"], "arm": ["x"] * 3,
                          "difference": [0.0, 1.0, 0.5], "ci_low": [-1.0, 0.5, -0.2], "ci_high": [1.0, 1.5, 1.2]})
    assert changed_metrics(diffs) == ["b"]
    assert changed_metrics(diffs[diffs.metric == "a"]) == ["a"]  # nothing moved: still show the arms

    def summary(shift):
        return pd.DataFrame({"metric": ["a", "b", "b"], "group": ["all", "1", "2"], "n": [10, 10, 0],
                             "estimate": [1.0, 2 + shift, 3.0], "ci_low": [0.5, 1.5 + shift, 2.0],
                             "ci_high": [1.5, 2.5 + shift, 4.0]})

    class Result:
        differences = diffs
        summaries = {"base": summary(0.0), "x": summary(1.0)}

    class Game:
        title = "Toy"

    fig = arms_figure(Game, Result)
    (ax,) = fig.axes
    assert ax.get_title(loc="left") == "b"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["base", "x"]
    points = [c for c in ax.containers]  # one errorbar container per arm
    assert len(points) == 2
    ys = sorted(float(c.lines[0].get_ydata()[0]) for c in points)
    assert ys == [2.0, 3.0]  # group 2 has no observations: no point drawn for it


def test_spades_bid_level_line_breaks_where_no_contract_was_bid():
    import numpy as np
    import pandas as pd

    from simcards.games.spades import records
    from simcards.games.spades.variant import SpadesVariant

    summary = pd.DataFrame({"metric": ["bid_success"] * 3, "group": ["2", "3", "6"], "n": [5, 5, 5],
                            "estimate": [0.9, 0.8, 0.4], "ci_low": [0.8, 0.7, 0.3], "ci_high": [1.0, 0.9, 0.5]})
    fig = records.figures("deal", summary, SpadesVariant())["bid_success_by_level"]
    line = fig.axes[0].lines[0]
    assert list(line.get_xdata()) == [2, 3, 4, 5, 6]
    assert np.isnan(np.asarray(line.get_ydata(), float)[2:4]).all()  # levels 4 and 5: a gap, not a line from 3 to 6


def test_report_reproduce_command_gives_the_same_numbers(compared, tmp_path):
    md = (compared / "report.md").read_text()
    command = next(line[2:] for line in md.splitlines() if line.startswith("$ simcards compare"))
    import shlex

    argv = shlex.split(command)[1:]
    argv[argv.index("--out") + 1] = str(tmp_path / "again")
    assert CliRunner().invoke(main, argv).exit_code == 0
    a = pd.read_csv(compared / "differences.csv")
    b = pd.read_csv(tmp_path / "again" / "differences.csv")
    pd.testing.assert_frame_equal(a, b)


def test_report_html_is_self_contained(compared):
    html = (compared / "report.html").read_text()
    assert html.count("data:image/png;base64,") >= 1
    assert 'src="figures/' not in html and "http://" not in html and "https://" not in html


def test_report_renders_in_headless_chromium(compared, tmp_path):
    browser = chromium()
    if browser is None or not shutil.which("chromedriver"):
        if os.environ.get("CI"):
            pytest.fail("CI must install chromium and chromium-driver (see .ci/run)")
        pytest.skip("chromium/chromedriver not installed")
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1200,2000"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = webdriver.ChromeService(executable_path=shutil.which("chromedriver"))
    driver = webdriver.Chrome(options=options, service=service)
    try:
        driver.get((compared / "report.html").resolve().as_uri())
        images = driver.execute_script(
            "return Array.from(document.images).map(i => [i.complete, i.naturalWidth, i.naturalHeight])")
        assert images and all(done and w > 100 and h > 100 for done, w, h in images)
        assert driver.find_element("tag name", "h1").text.startswith("Toy dice")
        shot = tmp_path / "report.png"
        driver.save_screenshot(str(shot))
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert errors == []
    finally:
        driver.quit()
    from matplotlib.image import imread

    pixels = imread(shot)
    assert pixels.shape[0] > 500 and np.std(pixels) > 0.05  # a real page, not a blank one


def test_report_progress_bar_counts_its_steps_and_is_silent_without(compared, capsys):
    from simcards.report.report import build_report

    build_report(compared, progress=True)
    shown = capsys.readouterr().err
    assert "report" in shown and "checking files" in shown and "figures and HTML" in shown
    build_report(compared)
    assert capsys.readouterr().err == ""
