"""A user's path through the CLI and the Python API on a real game (Spades)."""
import json
import shlex

import pandas as pd
from click.testing import CliRunner

import simcards
from simcards.cli import main
from simcards.experiment.runner import execute
from simcards.experiment.spec import ExperimentSpec


def test_python_api_returns_records_and_summary():
    df = simcards.run("spades", deals=2000, seed=7, variant={"bag_limit": 5})
    assert len(df) == 2000 and list(df.index) == list(range(2000)) and df.index.name == "deal"
    assert "index" not in df.columns  # the record number is the index, not a stray first column
    summary = df.attrs["summary"]
    assert {"metric", "group", "n", "estimate", "ci_low", "ci_high"} <= set(summary.columns)
    assert df.attrs["spec"]["variant"]["bag_limit"] == 5
    again = simcards.run("spades", deals=2000, seed=7, variant={"bag_limit": 5}, threads=1, chunk_size=333)
    pd.testing.assert_frame_equal(df, again)


def test_games_and_rules_tables():
    games = simcards.list_games()
    assert "spades" in set(games["game"])
    rules = simcards.rules("spades")
    assert {"parameter", "default", "allowed", "meaning"} <= set(rules.columns)
    assert "bag_limit" in set(rules["parameter"])


def test_cli_run_writes_a_reproducible_results_folder(tmp_path):
    out = tmp_path / "bag5"
    result = CliRunner().invoke(main, ["run", "spades", "--unit", "game", "--games", "300", "--preset", "club_rules",
                                       "--set", "bag_limit=5", "--seat-policy", "1=expert", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "win_rate_team0" in result.output
    for name in ("meta.json", "deals.parquet", "summary.csv"):
        assert (out / name).exists()
    assert list((out / "figures").glob("*.png"))
    meta = json.loads((out / "meta.json").read_text())
    assert meta["spec"]["variant"]["bag_limit"] == 5 and meta["spec"]["policies"][1] == "expert"
    # meta.json alone reproduces the records
    records = pd.read_parquet(out / "deals.parquet")
    again = execute(ExperimentSpec.from_dict(meta["spec"]), threads=1).records
    pd.testing.assert_frame_equal(records, again)


def test_report_reproduce_command_reproduces_a_run(tmp_path):
    out = tmp_path / "run"
    assert CliRunner().invoke(main, ["run", "spades", "--deals", "3000", "--seed", "3", "--set", "nil_value=50",
                                     "--out", str(out), "--quiet"]).exit_code == 0
    assert CliRunner().invoke(main, ["report", str(out)]).exit_code == 0
    md = (out / "report.md").read_text()
    command = next(line[2:] for line in md.splitlines() if line.startswith("$ simcards run"))
    argv = shlex.split(command)[1:]
    argv[argv.index("--out") + 1] = str(tmp_path / "again")
    assert CliRunner().invoke(main, argv + ["--quiet"]).exit_code == 0
    pd.testing.assert_frame_equal(pd.read_parquet(out / "deals.parquet"),
                                  pd.read_parquet(tmp_path / "again" / "deals.parquet"))


def test_replay_prints_a_whole_deal():
    result = CliRunner().invoke(main, ["replay", "spades", "--seed", "7", "--deal", "123"])
    assert result.exit_code == 0, result.output
    assert "Bids" in result.output and result.output.count("won by") == 13


def test_run_and_compare_say_where_their_data_files_are(tmp_path):
    out = tmp_path / "run"
    result = CliRunner().invoke(main, ["run", "toy", "--deals", "500", "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    line = next(x for x in result.stdout.splitlines() if x.startswith("data: "))
    assert str(out / "summary.csv") in line and str(out / "deals.parquet") in line
    cmp = tmp_path / "cmp"
    result = CliRunner().invoke(main, ["compare", "toy", "--arm", "sides=6", "--arm", "sides=8", "--deals", "640",
                                       "--out", str(cmp)])
    assert result.exit_code == 0, result.output
    line = next(x for x in result.stdout.splitlines() if x.startswith("data: "))
    assert str(cmp / "differences.csv") in line and str(cmp / "batches.parquet") in line
    for path in line[len("data: "):].split(", "):
        assert (tmp_path / path).exists() or __import__("pathlib").Path(path).exists()


def test_compare_shows_progress_unless_quiet(monkeypatch, tmp_path):
    import simcards.cli as cli

    monkeypatch.setattr(cli, "_show_progress", lambda quiet: not quiet)  # as on a terminal
    argv = ["compare", "toy", "--arm", "sides=6", "--arm", "sides=8", "--deals", "640"]
    shown = CliRunner().invoke(main, argv + ["--out", str(tmp_path / "a")])
    assert shown.exit_code == 0, shown.output
    assert "toy deals" in shown.stderr and "640" in shown.stderr
    quiet = CliRunner().invoke(main, argv + ["--out", str(tmp_path / "b"), "--quiet"])
    assert quiet.exit_code == 0 and "toy deals" not in quiet.stderr


def test_compare_metric_restricts_the_differences(tmp_path):
    result = CliRunner().invoke(main, ["compare", "toy", "--arm", "sides=6", "--arm", "sides=8", "--deals", "640",
                                       "--metric", "best", "--out", str(tmp_path / "m"), "--quiet"])
    assert result.exit_code == 0, result.output
    diffs = pd.read_csv(tmp_path / "m" / "differences.csv")
    assert set(diffs["metric"]) == {"best"}


def test_summary_rows_without_observations_say_so(capsys):
    """A rate with n = 0 (e.g. win_rate_team0 when no game finished) is not NaN [nan, nan]."""
    from simcards.cli import _print_summary

    summary = pd.DataFrame({"metric": ["win_rate_team0", "points"], "group": ["", ""], "n": [0, 12],
                            "estimate": [float("nan"), 3.5], "ci_low": [float("nan"), 2.0],
                            "ci_high": [float("nan"), 5.0], "kind": ["rate", "mean"]})
    _print_summary(summary)
    out = capsys.readouterr().out
    assert "nan" not in out.lower()
    row = next(line for line in out.splitlines() if "win_rate_team0" in line)
    assert "no observations" in row
    assert "[2, 5]" in next(line for line in out.splitlines() if "points" in line)


def test_run_spec_says_where_its_data_files_are(tmp_path):
    spec = tmp_path / "dice.toml"
    spec.write_text('game = "toy"\ndeals = 640\n[[arms]]\nname = "six"\nvariant = { sides = 6 }\n'
                    '[[arms]]\nname = "eight"\nvariant = { sides = 8 }\n')
    out = tmp_path / "dice"
    result = CliRunner().invoke(main, ["run", "--spec", str(spec), "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    line = next(x for x in result.stdout.splitlines() if x.startswith("data: "))
    assert str(out / "differences.csv") in line


def test_rules_lists_only_shortcuts_the_command_line_has():
    """Seep declares --baazis and --first-dealer shortcuts, but --baazis counts baazis."""
    result = CliRunner().invoke(main, ["rules", "seep"])
    assert result.exit_code == 0
    line = next(x for x in result.stdout.splitlines() if x.startswith("Shortcuts:"))
    assert "--players N means --set num_players=N" in line and "baazis" not in line and "first-dealer" not in line
