"""`simcards --help`, `games`, `rules X` and a command's --help start without numba, numpy or pandas once warm."""
import json
import os
import subprocess
import sys

import pytest

from simcards import describe

PROBE = """
import json, sys
from simcards.cli import main
try:
    main({argv!r})
except SystemExit:
    pass
heavy = sorted({{m.split(".")[0] for m in sys.modules}} & {{"numba", "numpy", "pandas", "matplotlib", "scipy"}})
print(json.dumps(heavy), file=sys.stderr)
"""


def _probe(argv, cache):
    env = {k: v for k, v in os.environ.items() if k != "SIMCARDS_GAMES"}
    env["SIMCARDS_CACHE_DIR"] = str(cache)
    done = subprocess.run([sys.executable, "-c", PROBE.format(argv=argv)], env=env, capture_output=True, text=True,
                          check=True)
    return done.stdout, json.loads(done.stderr.strip().splitlines()[-1])


@pytest.mark.parametrize("argv", [["--help"], ["games"], ["rules", "spades"], ["run", "--help"]])
def test_startup_commands_import_nothing_heavy_when_warm(tmp_path, argv):
    first, _ = _probe(argv, tmp_path)
    again, heavy = _probe(argv, tmp_path)
    assert again == first and first.strip()
    assert heavy == []


def test_cached_text_is_the_built_text(tmp_path, monkeypatch):
    monkeypatch.delenv("SIMCARDS_GAMES", raising=False)
    monkeypatch.setenv("SIMCARDS_CACHE_DIR", str(tmp_path))
    from simcards.cli import _print_rules, _printed

    built = _printed(_print_rules, "seep")
    assert describe.cached("rules seep", lambda: _printed(_print_rules, "seep")) == built
    assert describe.cached("rules seep", lambda: "not called") == built
    assert "num_players" in built and "Policies" in built


def test_cache_is_rebuilt_when_the_sources_change(tmp_path, monkeypatch):
    monkeypatch.delenv("SIMCARDS_GAMES", raising=False)
    monkeypatch.setenv("SIMCARDS_CACHE_DIR", str(tmp_path))
    assert describe.cached("games", lambda: "old\n") == "old\n"
    monkeypatch.setattr(describe, "_source_digest", lambda: "f" * 64)  # an edited source
    assert describe.cached("games", lambda: "new\n") == "new\n"
    assert len(list(tmp_path.glob("describe-*.json"))) == 1  # the stale texts are gone


def test_errors_and_plugin_games_are_never_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("SIMCARDS_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("SIMCARDS_GAMES", raising=False)

    def unknown():
        raise describe_error

    describe_error = ValueError("unknown game")
    with pytest.raises(ValueError):
        describe.cached("rules poker", unknown)
    assert describe.cached("rules poker", lambda: "now known\n") == "now known\n"
    monkeypatch.setenv("SIMCARDS_GAMES", "toy=toygame")
    assert describe.cached("rules poker", lambda: "plug-in\n") == "plug-in\n"


def test_unwritable_cache_is_not_an_error(tmp_path, monkeypatch):
    monkeypatch.delenv("SIMCARDS_GAMES", raising=False)
    (tmp_path / "file").write_text("x")
    monkeypatch.setenv("SIMCARDS_CACHE_DIR", str(tmp_path / "file" / "sub"))
    assert describe.cached("games", lambda: "text\n") == "text\n"


def test_no_home_folder_means_no_cache(monkeypatch):
    monkeypatch.delenv("SIMCARDS_GAMES", raising=False)
    monkeypatch.delenv("SIMCARDS_CACHE_DIR", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)

    def no_home():
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(describe.Path, "home", staticmethod(no_home))
    assert describe.cached("games", lambda: "text\n") == "text\n"


def test_command_options_come_from_the_registry_and_are_cached(tmp_path, monkeypatch):
    """Counts, record options and shortcuts are the games' declarations; a warm call imports no game."""
    monkeypatch.setenv("SIMCARDS_CACHE_DIR", str(tmp_path))
    from simcards.core.game import builtin_game_names, game_names, get_game

    options = describe.command_options()
    for name in game_names():
        g = get_game(name)
        assert {u.plural for u in g.units} <= set(options["plurals"])
        assert {u.name for u in g.units} <= set(options["records"])
        for option, field in g.shortcuts.items():
            assert options["shortcuts"][option]["fields"][name] == field
    monkeypatch.setattr(describe, "_declared_options", lambda name: None)  # nothing is imported now:
    again = describe.command_options()  # this package's games come from the cache (plug-ins alone are read live)
    for name in builtin_game_names():
        assert {u.plural for u in get_game(name).units} <= set(again["plurals"])
        assert set(get_game(name).shortcuts) <= set(again["shortcuts"])


def test_setup_warms_every_describing_text_so_first_calls_import_nothing_heavy(tmp_path, monkeypatch):
    monkeypatch.delenv("SIMCARDS_GAMES", raising=False)
    env = {k: v for k, v in os.environ.items() if k != "SIMCARDS_GAMES"}
    env["SIMCARDS_CACHE_DIR"] = str(tmp_path)
    subprocess.run([sys.executable, "-c", "from simcards.cli import warm_texts; warm_texts()"], env=env, check=True)
    for argv in (["games"], ["rules", "kierki"], ["policies", "seep"], ["run", "--help"], ["bid", "--help"]):
        out, heavy = _probe(argv, tmp_path)  # the first call after set-up
        assert out.strip() and heavy == [], argv
