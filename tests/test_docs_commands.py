"""Every command the docs show runs, so the docs cannot drift from the program.

The commands are read from README.md, docs/*.md and docs/games/*.md: every ``$ simcards``
line, and every line starting ``simcards `` inside a fenced block that is not Python or
TOML; and from the examples of every ``simcards <command> --help``. Lines ending in ``\\`` continue on the next; ``a && b`` runs both; ``# ...`` is a
comment. Nothing in a command is replaced except, to keep the test fast:

- a count larger than ``SMALL`` (``--deals 1000000``, ``--games 20000`` ...) becomes
  ``SMALL``'s value (a fifth of it for ``ladder``, which plays every pair of policies both
  ways round: its default, every built-in with ``pimc``, ran 6-9 minutes at ``SMALL``); an odds command (bid, trump, odds) without a count, which plays
  20,000 deals by default, gets ``--deals ODDS_DEALS``; one with ``--precision`` gets
  ``--max-deals ODDS_DEALS`` (it may then stop short of the precision, and says so);
  ``compare --precision`` likewise gets ``--max-count`` (and ``--count``, without a
  count its first round alone is tens of thousands of records);
- a command that writes nothing (a ladder without ``--out``) shown on several pages, the
  same once shrunk, runs once;
- nothing else: paths are the docs' own, resolved from the repository root (the test
  runs in a temporary folder holding links to ``docs/``, ``scripts/`` and ``shared/``,
  so results folders and plots land there).

A command followed in the docs by a line ``error: ...`` must fail with exit status 2 and
that message. Commands that need a running Dask cluster are listed in ``NEEDS_CLUSTER``
and skipped; local Dask clusters and policy files (compiled on each load) are slow.
"""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from simcards.cli import main

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "docs" / "games").glob("*.md"))]
SMALL = {"--deals": 2000, "--games": 200, "--tournaments": 20, "--baazis": 100, "--matches": 30, "--count": 2000}
LADDER_SHARE = 5  # a ladder's counts are SMALL's divided by this (every pair still plays)
ODDS_DEALS = 1000
COMPARE_MAX = 1024
ODDS_COMMANDS = {"bid", "trump", "odds"}
NEEDS_CLUSTER = ("--scheduler",)  # tcp://host:8786 and the like: no cluster in a test


def documented_commands() -> list[tuple[str, str, str | None]]:
    """(where, command line, expected error or None) for every documented command."""
    found = []
    for page in PAGES:
        lines = page.read_text().splitlines()
        fence = None  # info string of the open fenced block, or None outside one
        i = 0
        while i < len(lines):
            raw = lines[i]
            stripped = raw.strip()
            if stripped.startswith("```"):
                fence = None if fence is not None else stripped[3:].strip().lower()
                i += 1
                continue
            start = i
            text = None
            if stripped.startswith("$ simcards"):
                text = stripped[2:]
            elif fence is not None and fence not in ("python", "py", "toml") and stripped.startswith("simcards "):
                text = stripped
            if text is None:
                i += 1
                continue
            while text.endswith("\\") and i + 1 < len(lines):
                i += 1
                text = text[:-1].rstrip() + " " + lines[i].strip()
            following = next((x.strip() for x in lines[i + 1:] if x.strip()), "")
            expected = following[len("error: "):] if following.startswith("error: ") else None
            found.append((f"{page.relative_to(ROOT)}:{start + 1}", text, expected))
            i += 1
    return found


def help_commands() -> list[tuple[str, str, None]]:
    """The example lines of ``simcards --help`` and of every command's ``--help``."""
    found, seen = [], set()
    for name, command in [("", main), *sorted(main.commands.items())]:
        text = "\n".join(t for t in (command.help, command.epilog) if t)
        for n, line in enumerate(text.splitlines()):
            if line.strip().startswith("simcards ") and line.strip() not in seen:  # bid, trump, odds share one
                seen.add(line.strip())
                found.append((f"simcards {name} --help:{n}".replace("  ", " "), line.strip(), None))
    return found


def _argv_lists(command: str) -> list[list[str]]:
    tokens = shlex.split(command, comments=True)
    runs, current = [], []
    for token in tokens:
        if token == "&&":
            runs.append(current)
            current = []
        else:
            current.append(token)
    runs.append(current)
    for argv in runs:
        assert argv and argv[0] == "simcards", f"not a simcards command: {command}"
    return [argv[1:] for argv in runs]


def shrink(argv: list[str]) -> list[str]:
    """The same command with large counts made small (see the module docstring)."""
    argv = list(argv)
    share = LADDER_SHARE if argv and argv[0] == "ladder" else 1
    for i, token in enumerate(argv[:-1]):
        if token in SMALL and argv[i + 1].isdigit() and int(argv[i + 1]) > SMALL[token] // share:
            argv[i + 1] = str(SMALL[token] // share)
        if token in ("--max-deals", "--max-count") and argv[i + 1].isdigit():
            argv[i + 1] = str(min(int(argv[i + 1]), ODDS_DEALS if token == "--max-deals" else COMPARE_MAX))
    if argv and argv[0] in ODDS_COMMANDS:
        if "--precision" in argv and "--max-deals" not in argv:
            argv += ["--max-deals", str(ODDS_DEALS)]
        elif "--precision" not in argv and "--deals" not in argv:
            argv += ["--deals", str(ODDS_DEALS)]
        elif "--deals" in argv:
            i = argv.index("--deals")
            argv[i + 1] = str(min(int(argv[i + 1]), ODDS_DEALS))
    if argv and argv[0] == "compare" and "--precision" in argv:
        if "--max-count" not in argv:
            argv += ["--max-count", str(COMPARE_MAX)]
        if not any(token in SMALL for token in argv):  # its first round is large too
            argv += ["--count", str(COMPARE_MAX // 4)]
    return argv


def _marks(command: str):
    if any(flag in command for flag in NEEDS_CLUSTER):
        return [pytest.mark.skip(reason="needs a running Dask cluster")]
    if "--backend dask" in command or ".py:" in command or "--spec" in command:
        return [pytest.mark.slow]  # local clusters, policy files compiled on load, whole experiments
    return []


COMMANDS = documented_commands() + help_commands()


@pytest.fixture(scope="module")
def workspaces(tmp_path_factory):
    """One folder per page (or --help text): its commands may build on each other
    (run, then report; interrupt, then resume), other pages' may not collide with them."""
    made = {}

    def workspace(source: str):
        if source not in made:
            ws = made[source] = tmp_path_factory.mktemp("docs")
            for name in ("docs", "scripts", "shared"):
                if (ROOT / name).exists():
                    (ws / name).symlink_to(ROOT / name)
        return made[source]

    return workspace


def test_the_docs_show_commands():
    assert len(COMMANDS) > 80
    assert not [c for w, c, _ in COMMANDS if re.search(r"<[^>]*cards>|\"\.\.\.\"|\[--", c)], "placeholders left"


def test_every_odds_and_run_command_is_kept_small():
    for _, command, _ in COMMANDS:
        for argv in _argv_lists(command):
            small = shrink(argv)
            for i, token in enumerate(small[:-1]):
                if token in SMALL and small[i + 1].isdigit():
                    assert int(small[i + 1]) <= SMALL[token]


_PASSED: set[tuple[str, ...]] = set()  # shrunk side-effect-free commands that already ran and passed


def _leaves_nothing(argv: list[str]) -> bool:
    """A command that writes nothing (a ladder without --out), so a second page showing the
    same shrunk command tests nothing new (the Spades ladder shown three times: minutes each)."""
    return bool(argv) and argv[0] == "ladder" and "--out" not in argv


@pytest.mark.parametrize("where,command,expected",
                         [pytest.param(w, c, e, id=w, marks=_marks(c)) for w, c, e in COMMANDS])
def test_documented_command_runs(workspaces, monkeypatch, where, command, expected):
    monkeypatch.chdir(workspaces(where.rpartition(":")[0]))
    for argv in _argv_lists(command):
        small = tuple(shrink(argv))
        if expected is None and _leaves_nothing(argv) and small in _PASSED:
            continue
        result = CliRunner().invoke(main, list(small))
        if expected is not None:
            assert result.exit_code == 2, f"{where}: expected an error\n{result.output}"
            assert expected in result.stderr, f"{where}: the docs show another message\n{result.stderr}"
            return
        assert result.exit_code == 0, f"{where}: {command}\n{result.output}\n{result.exception!r}"
        if _leaves_nothing(argv):
            _PASSED.add(small)
