"""Nothing compiles what it will not run; a command that must compile says so once (issue 32)."""
import io
import json
import os
import subprocess
import sys
import time

import numba
import pytest

from simcards.app.compiling import (
    ESTIMATE_SECONDS, SOLVER_SECONDS, compile_notice, game_in, uses_solver, what_compiles,
)

COUNT_COMPILES = """
import json, sys
from numba.core import event
compiled = []

class Count(event.Listener):
    def on_start(self, ev):
        compiled.append(ev.data["dispatcher"].py_func.__qualname__)
    def on_end(self, ev):
        pass

event.register("numba:compile", Count())
{body}
print(json.dumps(compiled), file=sys.stderr)
"""


def _compiled_by(body: str, tmp_path) -> list[str]:
    """The functions numba compiles while ``body`` runs in a fresh process with an empty cache."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"), SIMCARDS_CACHE_DIR=str(tmp_path / "texts"))
    env.pop("SIMCARDS_GAMES", None)
    done = subprocess.run([sys.executable, "-c", COUNT_COMPILES.format(body=body)], env=env, capture_output=True,
                          text=True, check=True)
    return json.loads(done.stderr.strip().splitlines()[-1])


def test_describing_every_game_compiles_nothing(tmp_path):
    body = """
from simcards.cli import main
for argv in (["games"], ["rules", "spades"], ["policies", "kierki"], ["policies", "cutthroat", "--json"]):
    try:
        main(argv)
    except SystemExit:
        pass
from simcards.core.game import get_game
for name in ("spades", "cutthroat", "seep", "contract-rummy", "kierki"):
    get_game(name).policies.describe()
"""
    assert _compiled_by(body, tmp_path) == []


def test_a_policy_compiles_at_its_first_use_for_its_declared_signature(tmp_path):
    body = """
import numpy as np
from simcards.games.spades import policies
before = list(policies.expert_bid.signatures)
from simcards.core.game import get_game
table = get_game("spades").policies.table(["basic"])
assert before == [], before
assert policies.expert_bid.signatures == [], "expert was never asked for"
from simcards.core import cards
assert cards.popcount(np.uint64(7)) == 3 and cards.popcount(7) == 3  # a Python int is converted, not specialised
assert len(cards.popcount.signatures) == 1
"""
    compiled = _compiled_by(body, tmp_path)
    assert "basic_bid" in compiled and "expert_bid" not in compiled and "pimc_card" not in compiled


def _jitted():
    @numba.njit  # not cached: a fresh compile in every test
    def add(a, b):
        return a + b

    return add


class _Event:
    """A numba compile event of a function of ``module`` (what the listener reads)."""

    def __init__(self, module):
        def f():
            pass

        f.__module__ = module
        self.data = {"dispatcher": type("D", (), {"py_func": f})()}


def _compile(notice, module, seconds):
    notice.on_start(_Event(module))
    time.sleep(seconds)
    notice.on_end(_Event(module))


def test_notice_is_printed_once_with_what_and_how_long():
    out = io.StringIO()
    with compile_notice(stream=out, ticker=False, game="spades", delay=0.2) as notice:
        _compile(notice, "simcards.games.spades.rules", 0.3)
        _compile(notice, "simcards.games.spades.policies", 0.3)  # more compiling: no second notice
    lines = out.getvalue().splitlines()
    assert lines == ["simcards: compiling the Spades kernels (first run only, about 35 s; kept for the next runs)"]


def test_a_short_compile_says_nothing():
    out = io.StringIO()
    with compile_notice(stream=out, ticker=False, game="spades", delay=5.0) as notice:
        _compile(notice, "simcards.games.spades.rules", 0.05)
        assert _jitted()(1, 2) == 3  # a real compile, well under the delay
    assert out.getvalue() == ""


def test_a_users_policy_alone_says_nothing():
    out = io.StringIO()
    with compile_notice(stream=out, ticker=False, game="spades", delay=0.1) as notice:
        _compile(notice, "simcards_user_bots", 0.3)  # the user's own function: their compile, not a wait of ours
    assert out.getvalue() == ""


def test_no_notice_when_nothing_compiles():
    f = _jitted()
    f(1, 2)
    out = io.StringIO()
    with compile_notice(stream=out, ticker=False, delay=0.0):
        assert f(3, 4) == 7
    assert out.getvalue() == ""


def test_counter_ends_its_line_when_compiling_ends():
    out = io.StringIO()
    with compile_notice(stream=out, ticker=True, game="seep", delay=0.05) as notice:
        notice.interval = 0.02
        _compile(notice, "simcards.games.seep.rules", 0.3)
        time.sleep(0.3)
    text = out.getvalue()
    assert text.startswith("simcards: compiling the Seep kernels")
    assert "\rsimcards: compiled 1 functions in" in text and text.endswith("\n")


@pytest.mark.parametrize("words, game", [(["spades", "--deals", "5"], "spades"), (["Contract-Rummy"], "contract_rummy"),
                                          (["--spec", "x.toml"], None)])
def test_game_is_read_from_the_command_line(words, game):
    assert game_in(words) == game


def test_what_compiles_names_the_game_of_a_module():
    assert what_compiles("simcards.games.kierki.policies")[0] == "the Kierki kernels"
    assert what_compiles("simcards.core.dd")[0] == "the double-dummy solver"
    assert what_compiles("my_bots")[0] == "your policy"


def test_commands_that_compute_listen_for_compiles_and_describing_ones_do_not(monkeypatch, tmp_path):
    import contextlib

    from click.testing import CliRunner

    from simcards.app import compiling
    from simcards.cli import main

    entered = []

    @contextlib.contextmanager
    def recorder(game=None, **_):
        entered.append(game)
        yield

    monkeypatch.setattr(compiling, "compile_notice", recorder)
    assert CliRunner().invoke(main, ["run", "toy", "--deals", "10", "--out", str(tmp_path / "r"), "--quiet"]).exit_code == 0
    assert CliRunner().invoke(main, ["replay", "spades", "--seed", "1", "--deal", "0"]).exit_code == 0
    assert entered == [None, "spades"]
    for argv in (["games"], ["rules", "seep"], ["policies", "seep"], ["run", "--help"]):
        assert CliRunner().invoke(main, argv).exit_code == 0
    assert entered == [None, "spades"]


@pytest.mark.parametrize("command, params, expected", [
    ("run", {"game": "spades", "policy": "expert", "seat_policy": (), "records": "all"}, False),
    ("run", {"game": "spades", "policy": "expert", "seat_policy": ("0=pimc",), "records": "all"}, True),
    ("run", {"game": "spades", "policy": "pimc:worlds=8", "records": "all"}, True),
    ("run", {"game": "spades", "policy": "expert", "records": "dd"}, True),
    ("dd", {"game": "spades"}, True),
    ("replay", {"game": "spades", "double_dummy": True}, True),
    ("ladder", {"game": "kierki", "policies": "basic,expert", "dd_deals": 0}, False),
    ("ladder", {"game": "spades", "policies": None, "dd_deals": 20}, True),
    ("ladder", {"game": "spades", "policies": None, "dd_deals": 0}, True),
    ("ladder", {"game": "seep", "policies": None}, False),
])
def test_commands_that_run_the_solver_are_told_apart(command, params, expected):
    assert uses_solver(command, params) is expected


def test_the_notice_counts_the_solver_when_the_command_runs_it():
    out = io.StringIO()
    with compile_notice(stream=out, ticker=False, game="spades", delay=0.1, solver=True) as notice:
        _compile(notice, "simcards.games.spades.rules", 0.2)
    minutes = round((ESTIMATE_SECONDS["spades"] + SOLVER_SECONDS) / 60)
    assert out.getvalue().splitlines() == [
        f"simcards: compiling the Spades kernels and the double-dummy solver (first run only, about {minutes} min; "
        "kept for the next runs)"]
    assert what_compiles("simcards.core.dd") == ("the double-dummy solver", SOLVER_SECONDS)


def test_settle_ends_the_counter_before_a_prompt_and_nothing_follows_it():
    """An interactive prompt settles the notice: the counter's line is ended at once and the
    watcher writes nothing after the prompt (it used to end its line a second later, after the
    prompt, where a terminal user's input went)."""
    out = io.StringIO()
    with compile_notice(stream=out, ticker=True, game="seep", delay=0.05) as notice:
        notice.interval = 0.05
        _compile(notice, "simcards.games.seep.rules", 0.3)  # the counter is running, its line open
        notice.settle()
        settled = out.getvalue()
        assert settled.startswith("simcards: compiling the Seep kernels") and settled.endswith("\n")
        assert settled.count("\n") == 2  # the notice and the counter's one ended line
        out.write("Your move > ")  # the prompt
        time.sleep(0.4)  # longer than the watcher's idle wait
        assert out.getvalue() == settled + "Your move > "
        _compile(notice, "simcards.games.seep.policies", 0.3)  # a later compile: a new counter, no second notice
    text = out.getvalue()[len(settled) + len("Your move > "):]
    assert text.startswith("\rsimcards: compiled ") and text.endswith("\n")
    assert text.split("\r")[-1].startswith("simcards: compiled 1 functions in")  # counted afresh
    assert "compiling the Seep kernels" not in text


def test_settle_says_a_notice_the_watcher_had_not_seen_yet():
    out = io.StringIO()
    with compile_notice(stream=out, ticker=False, game="kierki", delay=0.05) as notice:
        notice.interval = 10.0  # the watcher looks only every 2 s
        _compile(notice, "simcards.games.kierki.rules", 0.1)
        notice.settle()
        assert out.getvalue().startswith("simcards: compiling the Kierki kernels")
