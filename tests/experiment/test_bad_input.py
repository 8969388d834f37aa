"""Bad input anywhere ends with one line naming the problem, exit status 2, nothing lost."""
import json
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcards.cli import main

GOOD_POLICY = '''
def keep(view, rng):
    return 1
'''
NOT_COMPILABLE = '''
def keep(view, rng):
    return "a string is not an int64"
'''
SYNTAX_ERROR = "def keep(view, rng) return 1\n"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    ws = tmp_path_factory.mktemp("bad")
    (ws / "good.py").write_text(GOOD_POLICY)
    (ws / "wrong_sig.py").write_text(NOT_COMPILABLE)
    (ws / "syntax.py").write_text(SYNTAX_ERROR)
    (ws / "not_toml.toml").write_text("game = [unclosed\n")
    (ws / "unknown_key.toml").write_text('game = "toy"\ndeals = 10\ncolour = "red"\n')
    (ws / "no_game.toml").write_text("deals = 10\n")
    (ws / "bad_value.toml").write_text('game = "toy"\ndeals = 10\n[variant]\nsides = "many"\n')
    (ws / "metrics_text.toml").write_text('game = "toy"\ndeals = 10\nmetrics = "points"\n')
    (ws / "count_text.toml").write_text('game = "toy"\ndeals = "ten"\n')
    (ws / "a_file").write_text("x")
    foreign = ws / "foreign"
    foreign.mkdir()
    (foreign / "thesis.tex").write_text("precious")
    corrupt = ws / "corrupt"
    corrupt.mkdir()
    (corrupt / "meta.json").write_text("{{{")
    other = ws / "other"
    result = CliRunner().invoke(main, ["run", "toy", "--deals", "100", "--out", str(other), "--quiet"])
    assert result.exit_code == 0, result.output
    return ws


def port_nobody_listens_on():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


CASES = [
    # (id, argv, words the error line must contain)
    ("unknown game", ["run", "poker", "--deals", "10"], "unknown game 'poker'"),
    ("unknown game in rules", ["rules", "poker"], "unknown game"),
    ("unknown parameter", ["run", "toy", "--deals", "10", "--set", "colour=red"], "unknown toy parameter 'colour'"),
    ("misspelt parameter", ["run", "toy", "--deals", "10", "--set", "side=4"], "did you mean sides"),
    ("ill-typed parameter", ["run", "toy", "--deals", "10", "--set", "sides=many"], "sides must be >= 2 and <= 100; got 'many'"),
    ("out-of-range value", ["run", "toy", "--deals", "10", "--set", "sides=1"], "sides must be >= 2"),
    ("pair without =", ["run", "toy", "--deals", "10", "--set", "sides"], "expected name=value"),
    ("unknown preset", ["run", "toy", "--deals", "10", "--preset", "huge"], "unknown toy preset 'huge'"),
    ("unknown policy", ["run", "toy", "--deals", "10", "--policy", "genius"], "unknown toy policy 'genius'"),
    ("missing policy file", ["run", "toy", "--deals", "10", "--policy", "{ws}/nope.py:keep"], "not found"),
    ("policy file syntax error", ["run", "toy", "--deals", "10", "--policy", "{ws}/syntax.py:keep"], "could not be loaded"),
    ("policy name missing in file", ["run", "toy", "--deals", "10", "--policy", "{ws}/good.py:other"], "has no 'other'"),
    ("policy with wrong signature", ["run", "toy", "--deals", "10", "--policy", "{ws}/wrong_sig.py:keep"], "does not compile"),
    ("zero deals", ["run", "toy", "--deals", "0"], "positive integer"),
    ("negative deals", ["run", "toy", "--deals", "-5"], "positive integer"),
    ("negative seed", ["run", "toy", "--deals", "10", "--seed", "-1"], "seed must be"),
    ("not a number", ["run", "toy", "--deals", "ten"], "not a valid integer"),
    ("bad seat policy", ["run", "toy", "--deals", "10", "--seat-policy", "north:basic"], "SEAT=POLICY"),
    ("seat out of range", ["run", "toy", "--deals", "10", "--seat-policy", "5=basic"], "seat 5 does not exist"),
    ("two counts", ["run", "toy", "--deals", "10", "--games", "10"], "no unit counted in games"),
    ("unknown unit", ["run", "toy", "--unit", "rubber", "--count", "10"], "has no unit 'rubber'"),
    ("unknown option", ["run", "toy", "--deals", "10", "--colour", "red"], "No such option"),
    ("option of another game", ["run", "toy", "--deals", "10", "--players", "3"], "has no --players option"),
    ("zero threads", ["run", "toy", "--deals", "10", "--threads", "0", "--out", "{ws}/t0"], "threads must be at least 1"),
    ("zero chunk size", ["run", "toy", "--deals", "10", "--chunk-size", "0"], "chunk size"),
    ("scheduler without dask", ["run", "toy", "--deals", "10", "--scheduler", "tcp://127.0.0.1:1", "--out", "{ws}/s"], "needs --backend dask"),
    ("unreachable scheduler", ["run", "toy", "--deals", "10", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:{port}", "--out", "{ws}/unreach"], "cannot reach Dask scheduler"),
    ("different experiment in folder", ["run", "toy", "--deals", "200", "--out", "{ws}/other"], "holds a different experiment"),
    ("foreign folder", ["run", "toy", "--deals", "10", "--out", "{ws}/foreign"], "holds no simcards results"),
    ("corrupt results folder", ["run", "toy", "--deals", "10", "--out", "{ws}/corrupt"], "corrupt"),
    ("output is a file", ["run", "toy", "--deals", "10", "--out", "{ws}/a_file"], "is not a folder"),
    ("unwritable output folder", ["run", "toy", "--deals", "10", "--out", "{ws}/a_file/sub"], "cannot write to output folder"),
    ("missing experiment file", ["run", "--spec", "{ws}/none.toml"], "cannot read experiment file"),
    ("experiment file not TOML", ["run", "--spec", "{ws}/not_toml.toml"], "not valid TOML"),
    ("experiment file unknown key", ["run", "--spec", "{ws}/unknown_key.toml"], "unknown key 'colour'"),
    ("experiment file without game", ["run", "--spec", "{ws}/no_game.toml"], "missing key 'game'"),
    ("experiment file metrics as text", ["run", "--spec", "{ws}/metrics_text.toml"], "metrics must be a list of strings"),
    ("experiment file count as text", ["run", "--spec", "{ws}/count_text.toml"], "deals must be a whole number"),
    ("experiment file bad value", ["run", "--spec", "{ws}/bad_value.toml", "--out", "{ws}/bv"], "sides must be >= 2 and <= 100; got 'many'"),
    ("run without a game", ["run", "--deals", "10"], "name a game"),
    ("replay without a record", ["replay", "toy", "--seed", "1"], "name one record"),
    ("replay negative record", ["replay", "toy", "--deal", "-3"], "must be >= 0"),
]


@pytest.mark.parametrize("argv,expected", [pytest.param(a, e, id=i) for i, a, e in CASES])
def test_bad_input_is_one_line_and_exit_2(workspace, argv, expected):
    port = port_nobody_listens_on()
    args = [a.format(ws=workspace, port=port) for a in argv]
    before = (workspace / "other" / "meta.json").read_text()
    result = CliRunner().invoke(main, args)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert expected in lines[0]
    assert "Traceback" not in result.output
    # nothing lost: other experiments and foreign files are untouched
    assert (workspace / "other" / "meta.json").read_text() == before
    assert (workspace / "foreign" / "thesis.tex").read_text() == "precious"
    assert json.loads(before)["status"] == "complete"


# Options that contradict each other, or would be silently ignored (issue 13, issue 16 rules 4).
CONFLICT_CASES = [
    ("bid with zero threads", ["bid", "toy", "--threads", "0"], "--threads must be a positive integer"),
    ("bid with negative threads", ["bid", "toy", "--threads", "-2"], "--threads must be a positive integer"),
    # compare --metric nosuch: tests/experiment/test_results_safety.py (refused after the first round, kept)
    ("players and num_players", ["run", "cutthroat", "--players", "3", "--set", "num_players=4", "--deals", "10"],
     "--players 3 and --set num_players"),
    ("kierki deal type with whole games", ["run", "kierki", "--deal-type", "robber", "--games", "10"],
     "--deal-type picks the deal that --unit deal plays"),
    ("rummy contract with whole games", ["compare", "contract-rummy", "--arm", "name=a", "--arm", "name=b",
                                         "--contract", "3", "--games", "10"], "--contract picks the deal"),
    ("bid format unknown", ["bid", "toy", "--format", "xml"], "'xml' is not one of"),
]


@pytest.mark.parametrize("argv,expected", [pytest.param(a, e, id=i) for i, a, e in CONFLICT_CASES])
def test_conflicting_options_are_one_line_and_exit_2(workspace, argv, expected):
    args = [a.format(ws=workspace) for a in argv]
    result = CliRunner().invoke(main, args)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert expected in lines[0]
    assert not (workspace / "cmp-metric").exists()  # refused before any work or file
