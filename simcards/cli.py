"""The ``simcards`` command line: parse, validate, call the library, print. No logic.

Every user mistake ends with one line ``error: ...`` and exit status 2.
"""
from __future__ import annotations

import dataclasses
import functools
import sys
from pathlib import Path

import click

from simcards.core.errors import SimcardsError
from simcards.describe import command_options

EPILOG_RUN = """\b
Examples:
  simcards run spades --deals 1000000 --seed 7 --out results/spades-default
  simcards run spades --unit game --games 20000 --preset club_rules --set bag_limit=5 --out results/bag5
  simcards run spades --policy expert --seat-policy 1=basic --seat-policy 3=docs/examples/my_bots.py:cautious --deals 200000
  simcards run cutthroat --players 5 --set jokers=2 --unit game --games 50000
  simcards run spades --deals 2000000 --backend dask            # local Dask cluster
  simcards run spades --deals 50000000 --backend dask --scheduler tcp://host:8786 --out results/big

An interrupted run keeps its finished chunks: rerun the same command to resume.
Without --out, results go to results/<game>-<unit>-<hash of the experiment>. A progress
bar (time left) shows on a terminal; --quiet hides it and the summary table."""


# ----- options derived from the registry (no game is named here)
# Every game's units and shortcuts become options of run, compare, replay and the odds commands:
# --<plural> N counts a unit's records, replay --<unit> N picks one, a shortcut (--players N) stands
# for --set num_players=N (Game.shortcuts; simcards.describe.command_options reads them, cached).
# They are declared when a command first needs its options (to parse or for its --help), so
# `simcards --help`, `games` and `rules` never read the registry.

@functools.lru_cache(maxsize=None)
def _registry() -> dict:
    return command_options()


def _dest(option: str) -> str:
    return option.replace("-", "_")


def _registry_options(kw: dict, names, suffix: str = "") -> dict:
    """Take the values of registry-derived options out of a command's keywords: {option: value}."""
    return {n: kw.pop(_dest(n) + suffix) for n in names}


def _plurals() -> list[str]:
    return _registry()["plurals"]  # deals, games, ...


def _shortcuts(per_unit: bool = True) -> list[str]:
    """The registry's shortcut options (``per_unit=False``: only those every unit reads)."""
    return [o for o, s in _registry()["shortcuts"].items() if per_unit or not s["focus"]]


def _count_options() -> list[click.Option]:
    return [click.Option([f"--{c}", _dest(c)], type=int, help=f"Number of {c} (picks that unit).")
            for c in _plurals()]


def _record_options() -> list[click.Option]:
    return [click.Option([f"--{u}", _dest(u) + "_index"], type=int, help=f"Replay {u} number N (unit {u}).")
            for u in _registry()["records"]]


def _shortcut_options(per_unit: bool = True) -> list[click.Option]:
    options = []
    for option in _shortcuts(per_unit):
        s = _registry()["shortcuts"][option]
        metavar = "N" if s["kind"] == "int" else "NAME"
        by_field: dict[str, list[str]] = {}
        for game, field in s["fields"].items():
            by_field.setdefault(field, []).append(game)
        meaning = "; ".join(f"--set {f}={metavar} ({', '.join(g)})" for f, g in by_field.items())
        focus = sorted(set(s["focus"].values()))
        where = f" With --unit {', '.join(focus)} only." if focus else ""
        options.append(click.Option([f"--{option}", _dest(option)], type=int if s["kind"] == "int" else str,
                                    metavar=metavar, help=f"Same as {meaning}.{where}"))
    return options


class _Later:
    """Stands in a command's parameter list for options the registry gives (see RegistryCommand)."""

    def __init__(self, make):
        self.make = make


def registry_options(make):
    """Decorator: the options ``make()`` returns go here in the command's options, declared when needed."""
    def apply(f):
        f.__dict__.setdefault("__click_params__", []).append(_Later(make))
        return f
    return apply


class RegistryCommand(click.Command):
    """A command some of whose options come from the registry, built on first use of its parameters."""

    @property
    def params(self):
        if any(isinstance(p, _Later) for p in self._params):
            self._params = [q for p in self._params for q in (p.make() if isinstance(p, _Later) else [p])]
        return self._params

    @params.setter
    def params(self, value):
        self._params = list(value)

    def invoke(self, ctx):
        """Run the command; a command that computes says so when numba compiles (its --help
        never gets here, and the describing commands compile nothing)."""
        if self.name in _DESCRIBING:
            return super().invoke(ctx)
        from simcards.app.compiling import compile_notice, game_in, uses_solver

        with compile_notice(game=game_in([ctx.params.get("game") or ""]),  # "compiling the Spades kernels, ..."
                            solver=uses_solver(self.name, ctx.params)):
            return super().invoke(ctx)


class SimcardsGroup(click.Group):
    """Turns SimcardsError and click usage errors into one line and exit status 2."""

    def main(self, args=None, prog_name=None, **extra):
        try:
            rv = super().main(args=args, prog_name=prog_name or "simcards", standalone_mode=False, **extra)
        except SimcardsError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(getattr(exc, "exit_status", 2))  # 130 for an interrupted run (finished work kept)
        except click.ClickException as exc:
            context = f" (see `{exc.ctx.command_path} --help`)" if getattr(exc, "ctx", None) else ""
            click.echo(f"error: {exc.format_message()}{context}", err=True)
            sys.exit(2)
        except click.exceptions.Abort:
            click.echo("aborted", err=True)
            sys.exit(130)
        sys.exit(rv if isinstance(rv, int) else 0)


def _fail(message: str):
    raise SimcardsError(message)


def _cap_threads(ctx, param, value):
    """``--threads`` above the machine's cores: say so on stderr and use the cores (the
    records are the same on any thread count; more threads than cores only add switching)."""
    import os

    cores = os.cpu_count() or 1
    if value is not None and value > cores:
        click.echo(f"simcards: --threads {value} is more than the {cores} cores here; using {cores}", err=True)
        return cores
    return value


def _seat_policies(values) -> dict[int, str]:
    out = {}
    for v in values:
        seat, sep, name = v.partition("=")
        if not sep or not seat.strip().isdigit() or not name.strip():
            _fail(f"--seat-policy takes SEAT=POLICY (e.g. 1=basic or 3=my_bots.py:cautious), got {v!r}")
        out[int(seat)] = name.strip()
    return out


def _policies_line(base: str, seat_policy: dict[int, str]) -> str:
    """One line naming the policies that played (answers depend on them: docs/guide.md)."""
    line = f"policies: {base} at every seat"
    others = [f"seat {s} {p}" for s, p in sorted(seat_policy.items()) if p != base]
    return line + (" but " + ", ".join(others) if others else "")


def _shortcut_pairs(game, shortcuts, settings=(), unit=None) -> list[str]:
    from simcards.api import shortcut_settings

    return shortcut_settings(game, settings, unit=unit, shortcuts=shortcuts)


def _show_progress(quiet: bool) -> bool:
    """Progress bars go to a terminal's stderr only (never into a pipe or a log)."""
    return not quiet and sys.stderr.isatty()


def _files_line(out) -> str | None:
    """Where the data files of a results folder are, for spreadsheets and scripts."""
    from simcards.api import data_files

    files = data_files(out)
    return "data: " + ", ".join(str(f) for f in files) if files else None


def _print_table(frame, max_rows: int = 60) -> None:
    from simcards.api import table_text

    click.echo(table_text(frame, max_rows))


def _print_summary(summary, max_rows: int = 60) -> None:
    if summary is None or not len(summary):
        click.echo("(no summary)")
        return
    table = summary.copy()
    empty = table.n == 0  # e.g. win rates when no game finished: say so rather than NaN [nan, nan]
    table["95% CI"] = ["no observations" if e else f"[{lo:.4g}, {hi:.4g}]"
                       for e, lo, hi in zip(empty, table.ci_low, table.ci_high)]
    table["estimate"] = ["-" if e else f"{x:.4g}" for e, x in zip(empty, table.estimate)]
    table = table[["metric", "group", "n", "estimate", "95% CI"] + (["method"] if "method" in table else [])]
    _print_table(table, max_rows)
    if len(table) > max_rows:
        click.echo(f"... {len(table) - max_rows} more rows in summary.csv")


SimcardsGroup.command_class = RegistryCommand  # every subcommand may take registry options


# Commands that only describe: they never compile, and never import numba for the notice.
_DESCRIBING = ("games", "rules", "policies")


@click.group(cls=SimcardsGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="simcards")
def main():
    """Monte Carlo strategy analysis for card games.

    \b
    Start with:
      simcards games                  # the games, one line each
      simcards rules spades           # every house rule of a game, presets, units, policies
      simcards run spades --deals 100000 --out results/first
      simcards replay spades --seed 7 --deal 123
      simcards bid spades --hand "AS KS 7S 4S AH QH 9H 5D 4D 3D KC 8C 2C" --seat N --dealer W

    Guide: docs/guide.md. Every command has --help with examples.
    """


@main.command()
def games():
    """List the games, one line each."""
    from simcards.describe import cached

    click.echo(cached("games", lambda: _printed(_print_games)), nl=False)


@main.command()
@click.argument("game")
def rules(game):
    """Show GAME's house-rule parameters, presets, units, record columns and policies."""
    from simcards.describe import cached

    click.echo(cached("rules " + game.strip().lower(), lambda: _printed(_print_rules, game)), nl=False)


@main.command()
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable: one JSON object per policy.")
def policies(game, as_json):
    """List GAME's built-in policies and their parameters (default, range, meaning).

    \b
    Give parameters after the policy name, each after a colon:
      simcards run contract-rummy --policy greedy_deep:theta=8 --games 1000
      simcards run spades --seat-policy 0=expert:nil_estimate=2.5 --deals 100000
      simcards compare spades --arm policy=expert --arm policy=expert:nil_estimate=2
      simcards sweep spades --policy expert --param nil_estimate=1:5:0.5 --games 2000
    """
    from simcards.describe import cached

    if as_json:
        import json

        from simcards.core.game import get_game

        for row in get_game(game).policies.describe():
            click.echo(json.dumps(row))
        return
    click.echo(cached("policies " + game.strip().lower(), lambda: _printed(_print_policies, game)), nl=False)


def _print_policies(game):
    from simcards.core.game import get_game

    g = get_game(game)
    click.echo(f"{g.title} policies (--policy NAME[:PARAM=VALUE...], --seat-policy SEAT=NAME[:...]); "
               f"default {g.default_policy}\n")
    for p in g.policies.describe():
        click.echo(f"{p['name']}" + (f" (based on {p['base']})" if p["base"] else "") + (f": {p['help']}" if p["help"] else ""))
        for q in p["params"]:
            kind = "whole number" if q["integer"] else "number"
            fmt = (lambda x: str(int(x))) if q["integer"] else (lambda x: f"{x:g}")
            click.echo(f"    {q['name']} = {fmt(q['default'])}  ({kind} in {fmt(q['low'])}..{fmt(q['high'])}): {q['help']}")
    click.echo("\nDecisions (write your own policy: docs/policies.md):")
    for d in g.policies.decisions:
        click.echo(f"    {d.name}{_signature_text(d.signature)}: {d.help}")


def warm_texts() -> None:
    """Build the cached texts of `games`, `rules GAME`, `policies GAME` and the commands'
    options (simcards.describe) for every built-in game, so that the first of those commands
    and the first --help answer at once. scripts/setup.sh calls it; it compiles nothing."""
    import contextlib
    import io

    from simcards.core.game import game_names

    with contextlib.redirect_stdout(io.StringIO()):
        for argv in [["games"], ["run", "--help"]] + [[c, g] for g in game_names() for c in ("rules", "policies")]:
            try:
                main(argv)
            except SystemExit:
                pass


def _printed(show, *args) -> str:
    """What ``show(*args)`` prints (the texts of games and rules are cached: simcards.describe)."""
    import contextlib
    import io

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        show(*args)
    return buffer.getvalue()


def _print_games():
    from simcards.api import list_games

    for row in list_games().itertuples(index=False):
        click.echo(f"{row.game:<16} {row.title}: units {row.units}; policies {row.policies}")


def _print_rules(game):
    from simcards.api import rules as rule_table
    from simcards.core.game import get_game

    g = get_game(game)
    click.echo(f"{g.title} ({g.name})\n{g.description}\n")
    click.echo("Parameters (set with --set name=value):")
    for row in rule_table(game).itertuples(index=False):
        click.echo(f"  {row.parameter} = {row.default}\n      allowed: {row.allowed}\n      {row.meaning}")
    click.echo("\nPresets (--preset NAME):")
    for name, settings in g.presets.items():
        text = ", ".join(f"{k}={v}" for k, v in settings.items()) or "the defaults"
        click.echo(f"  {name}: {text}")
    if g.shortcuts:  # each is an option of run, compare and replay (the CLI derives them from the registry)
        specs = g.variant_type.param_specs()
        metavars = {k: "N" if specs[v].kind == "int" else "NAME" for k, v in g.shortcuts.items()}
        click.echo("\nShortcuts: " + ", ".join(f"--{k} {metavars[k]} means --set {v}={metavars[k]}"
                                               for k, v in g.shortcuts.items()))
    click.echo("\nUnits (--unit NAME, count with --<plural>):")
    for u in g.units:
        click.echo(f"  {u.name} (--{u.plural}): {u.help}")
        for c in u.columns:
            click.echo(f"      {c.name}: {c.help}")
    click.echo("\nPolicies (--policy NAME, --seat-policy SEAT=NAME, or my_bots.py:name):")
    for p in g.policies.describe():
        params = ", ".join(f"{q['name']}={q['default']:g}" for q in p["params"])
        click.echo(f"  {p['name']}" + (f": {p['help']}" if p["help"] else "") + (f" [parameters: {params}]" if params else ""))
    click.echo(f"  (parameters and their ranges: simcards policies {g.name})")
    click.echo("  decisions (write a policy: docs/policies.md):")
    for d in g.policies.decisions:
        click.echo(f"    {d.name}{_signature_text(d.signature)}: {d.help}")


def _signature_text(signature) -> str:
    """``(int64[:], uint64[:]) -> int64`` rather than numba's verbose repr."""
    import re

    def array(m: re.Match) -> str:
        return f"{m.group(1)}[{', '.join(':' * int(m.group(2)))}]"

    return re.sub(r"Array\((\w+), (\d), '\w', \w+, aligned=\w+\)", array, str(signature))


def experiment_options(f):
    """Options shared by run, compare and the odds commands."""
    options = [
        click.option("--unit", help="What one record is (deal, game, ...; see `simcards rules GAME`)."),
        click.option("--count", type=int, help="Number of records (or use --deals/--games/...)."),
        registry_options(_count_options),
        click.option("--seed", type=int, default=0, show_default=True, help="Seed: record i of seed s is always the same."),
        click.option("--preset", help="Named house-rule set (see `simcards rules GAME`)."),
        click.option("--set", "settings", multiple=True, metavar="NAME=VALUE", help="Set a house-rule parameter (repeatable)."),
        click.option("--policy", help="Policy of every seat: random, basic, expert, file.py:name, with parameters "
                     "as NAME:PARAM=VALUE (see `simcards policies GAME`)."),
        click.option("--seat-policy", multiple=True, metavar="SEAT=POLICY", help="Policy of one seat (repeatable)."),
        registry_options(_shortcut_options),
        click.option("--threads", type=int, callback=_cap_threads,
                     help="Threads for the local backend (default: all cores; more than the cores are capped)."),
        click.option("--chunk-size", type=int, help="Records per chunk (default: about a second of work)."),
    ]
    for opt in reversed(options):
        f = opt(f)
    return f


@main.command(epilog=EPILOG_RUN)
@click.argument("game", required=False)
@experiment_options
@click.option("--out", type=click.Path(path_type=Path), help="Results folder (default results/<game>-<unit>-<hash>).")
@click.option("--records", type=click.Choice(["all", "summary", "none", "dd"]), default="all", show_default=True,
              help="Keep per-record rows (all), only the summary (summary) or nothing but meta.json (none); "
                   "dd: all, plus double-dummy columns and metrics (slow: docs/double-dummy.md).")
@click.option("--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True,
              help="local threads, or Dask (a local cluster, or --scheduler).")
@click.option("--scheduler", help="Address of a running Dask scheduler, e.g. tcp://host:8786.")
@click.option("--workers", type=int, help="Worker processes of the local Dask cluster (default: all cores).")
@click.option("--force", is_flag=True, help="Replace a results folder that holds a different experiment.")
@click.option("--spec", "spec_file", type=click.Path(path_type=Path), help="Run the experiment described in a TOML file.")
@click.option("--pbn", "pbn_file", type=click.Path(dir_okay=False, path_type=Path), help="Also write the run's deals "
              "to this PBN file, one board each (trick-taking games, --unit deal, four seats; replays every deal).")
@click.option("--bidding", help="One policy for every seat's decisions but card play (bids, Blind Nil, the "
              "exchange...), the seats' policies playing the cards (Spades, Cutthroat, Kierki).")
@click.option("--quiet", is_flag=True, help="No progress bar and no summary table.")
def run(game, unit, count, policy, seat_policy, chunk_size, out, records, spec_file, pbn_file, bidding, **registry):
    """Simulate GAME and write a results folder with records, summary and figures."""
    from simcards.app.workflows import run_experiment
    from simcards.core.game import get_game
    from simcards.experiment.runner import Interrupted
    from simcards.experiment.spec import make_spec

    study = Study.from_click(registry)
    seed, preset, settings, quiet = study.seed, study.preset, study.settings, study.quiet
    if spec_file is not None:
        from simcards.app.workflows import run_spec_file

        if pbn_file is not None:
            _fail("--pbn writes the deals of a run named on the command line, not of --spec")
        if bidding is not None:
            _fail("--bidding goes with a run named on the command line, not with --spec")
        ctx = click.get_current_context()
        given = [p for p in ctx.params if ctx.get_parameter_source(p) == click.core.ParameterSource.COMMANDLINE]
        result = run_spec_file(spec_file, game=game, options_given=given,
                               execution=study.execution(out, echo=click.echo),
                               print_summary=None if quiet else _print_summary)
        files = _files_line(getattr(result, "out", None))
        if files:
            click.echo(files)
        return
    if game is None:
        _fail("name a game (see `simcards games`) or give --spec FILE")
    from simcards.experiment.spec import resolve_count

    g = get_game(game)
    counts = _registry_options(registry, _plurals())
    unit_name, n = resolve_count(g, unit, count, counts)
    pairs = list(settings) + _shortcut_pairs(g, _registry_options(registry, _shortcuts()), settings, unit_name)
    if pbn_file is not None:  # refuse before the run, not after it
        from simcards.app.pbn_deals import check_run

        check_run(g, unit_name, g.variant(preset, None, pairs))
    if out is None:
        spec = make_spec(g, unit=unit_name, count=n, seed=seed, preset=preset, settings=pairs, policy=policy,
                         seat_policy=_seat_policies(seat_policy), chunk_size=chunk_size, records=records,
                         bidding=bidding)
        out = Path("results") / f"{g.name}-{spec.unit}-{spec.digest()}"
    try:
        result = run_experiment(g, unit=unit, count=count, seed=seed,
                                setup=study.setup(pairs, policy, _seat_policies(seat_policy)),
                                execution=study.execution(out), records=records, chunk_size=chunk_size,
                                bidding=bidding, **counts)
    except Interrupted as exc:
        click.echo(f"\n{exc}", err=True)
        sys.exit(130)
    if not quiet:
        _print_summary(result.summary)
    played = list(result.spec.policies)
    line = _policies_line(max(played, key=played.count), dict(enumerate(played)))
    if result.spec.bidding:
        line += f"; every decision but card play by {result.spec.bidding}"
    click.echo(line)
    done = f"{result.spec.count:,} {result.spec.unit}s"
    if result.computed_chunks:
        done += f" in {result.seconds:.1f} s ({result.rate:,.0f}/s)"
    done += result.resume_note()
    click.echo(f"{done} -> {result.out}")
    files = _files_line(result.out)
    if files:
        click.echo(files)
    if pbn_file is not None:
        from simcards.app.pbn_deals import write_run_deals

        click.echo(f"deals (PBN): {write_run_deals(result.spec, pbn_file)}")


@main.command()
@click.argument("game", required=False)
@click.option("--file", "file", type=click.Path(path_type=Path), help="Replay a game saved by `simcards play --save`.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the run the record belongs to.")
@registry_options(_record_options)
@click.option("--preset", help="Named house-rule set.")
@click.option("--set", "settings", multiple=True, metavar="NAME=VALUE", help="Set a house-rule parameter.")
@click.option("--policy", help="Policy of every seat.")
@click.option("--seat-policy", multiple=True, metavar="SEAT=POLICY", help="Policy of one seat.")
@registry_options(_shortcut_options)
@click.option("--dd", "double_dummy", is_flag=True,
              help="Mark every card that cost its side a trick double dummy (docs/double-dummy.md).")
@click.option("--from-trick", type=int, default=1, show_default=True,
              help="With --dd: analyse the play from this trick on (late tricks solve fast).")
@click.option("--format", "fmt", type=click.Choice(["text", "pbn"]), default="text", show_default=True,
              help="pbn: the deal as a PBN game, for bridge software (trick-taking games, four seats).")
@click.option("--pbn", "pbn_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Spades, Cutthroat with 4 players: the bots bid and play the deal of a PBN file instead (its "
                   "dealer deals; Spades deals the hands the file leaves out from --seed).")
@click.option("--board", help="With --pbn: the board of that number (default: the file's first deal).")
def replay(game, file, seed, preset, settings, policy, seat_policy, double_dummy, from_trick, fmt, pbn_file, board,
           **registry):
    """Print one record of GAME move by move: hands, bids, every move, the score.

    \b
    Examples:
      simcards replay spades --seed 7 --deal 123
      simcards replay kierki --seed 3 --game 17
      simcards replay spades --seed 7 --deal 123 --format pbn
      simcards replay spades --pbn docs/examples/deals.pbn --board 3 --dd
    With --file FILE, the game saved by `simcards play --save FILE`.
    """
    from simcards.api import replay_text
    from simcards.core.game import get_game

    if file is not None:
        from simcards.app.play import replay_file

        click.echo(replay_file(file))
        return
    if game is None:
        _fail("name a GAME (e.g. `simcards replay spades --deal 3`) or --file game.json")
    g = get_game(game)
    chosen = {u: i for u, i in _registry_options(registry, _registry()["records"], "_index").items()
              if i is not None}
    if pbn_file is not None:
        if chosen:
            _fail("--pbn replays the file's deal: drop " + ", ".join(f"--{u}" for u in chosen))
        pairs = list(settings) + _shortcut_pairs(g, _registry_options(registry, _shortcuts()), settings, "deal")
        click.echo(replay_text(g, unit="deal", seed=seed, preset=preset, settings=pairs, policy=policy,
                               seat_policy=_seat_policies(seat_policy), dd=double_dummy, from_trick=from_trick,
                               progress=_show_progress(False), format=fmt, pbn=str(pbn_file), board=board))
        return
    if board is not None:
        _fail("--board picks a board of --pbn FILE")
    if len(chosen) != 1:
        _fail("name one record: " + ", ".join(f"--{u.name} N" for u in g.units) + " (see `simcards rules " + g.name
              + "` for units)")
    (unit, index), = chosen.items()
    pairs = list(settings) + _shortcut_pairs(g, _registry_options(registry, _shortcuts()), settings, unit)
    click.echo(replay_text(g, unit=unit, index=index, seed=seed, preset=preset, settings=pairs, policy=policy,
                           seat_policy=_seat_policies(seat_policy), dd=double_dummy, from_trick=from_trick,
                           progress=_show_progress(False), format=fmt))


@main.command("dd")
@click.argument("game")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the simulated deal.")
@click.option("--deal", "deal_index", type=int, help="Analyse deal number N of --seed, as the bots played it.")
@click.option("--hand", "hands", help='All hands as text, in seat order, separated by "/" (an ending is fine).')
@click.option("--pbn", "pbn_file", type=click.Path(path_type=Path), help="Analyse the deal of a PBN file (N, E, S, W "
              "are seats 0-3).")
@click.option("--board", help="With --pbn: the board of that number (default: the file's first deal).")
@click.option("--preset", help="Named house-rule set.")
@click.option("--set", "settings", multiple=True, metavar="NAME=VALUE", help="Set a house-rule parameter.")
@click.option("--policy", help="Policy of every seat (the play that is analysed).")
@click.option("--seat-policy", multiple=True, metavar="SEAT=POLICY", help="Policy of one seat.")
@registry_options(_shortcut_options)
@click.option("--from-trick", type=int, default=1, show_default=True,
              help="Analyse the play from this trick on, without the opening table (late tricks solve fast).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def dd(game, seed, deal_index, hands, pbn_file, board, preset, settings, policy, seat_policy, from_trick, quiet,
       **registry):
    """Double-dummy analysis of one deal: tricks with perfect play, and what each card cost.

    \b
    Examples:
      simcards dd spades --seed 7 --deal 123 --from-trick 9
      simcards dd cutthroat --players 4 --seed 3 --deal 1 --from-trick 8
      simcards dd kierki --deal-type trumps --seed 2 --deal 4 --from-trick 9
      simcards dd spades --hand "AS KS QS / AH KH QH / AD KD QD / AC KC QC"
      simcards dd spades --pbn docs/examples/deals.pbn --board 3
    """
    from simcards.api import double_dummy_text
    from simcards.core.game import get_game

    g = get_game(game)
    if pbn_file is not None:
        from simcards.app.pbn_deals import deal_hands_text

        if hands is not None or deal_index is not None:
            _fail("name one deal: --pbn FILE, --hand or --deal")
        hands, board_read = deal_hands_text(g, pbn_file, board)
        click.echo(f"{pbn_file}, {board_read.name()}")
    elif board is not None:
        _fail("--board picks a board of --pbn FILE")
    pairs = list(settings) + _shortcut_pairs(g, _registry_options(registry, _shortcuts()), settings, "deal")
    click.echo(double_dummy_text(g, seed=seed, index=deal_index, hands=hands, preset=preset, settings=pairs,
                                 policy=policy, seat_policy=_seat_policies(seat_policy), from_trick=from_trick,
                                 progress=_show_progress(quiet)))


@main.command()
@click.argument("game", required=False)
@click.option("--seat", default="0", show_default=True, help="Your seat: 0..n-1 (or N/E/S/W with four seats).")
@click.option("--policy", help="Policy of the bots (default: the game's default, expert; see the ladder in its docs/games page).")
@click.option("--seat-policy", multiple=True, metavar="SEAT=POLICY", help="Policy of one bot seat.")
@click.option("--preset", help="Named house-rule set.")
@click.option("--set", "settings", multiple=True, metavar="NAME=VALUE", help="Set a house-rule parameter.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed: deal i of seed s is the simulator's deal.")
@click.option("--deal", "deal_index", type=int, help="Play deal number N (unit deal; the default, N = 0).")
@click.option("--game", "game_index", type=int, help="Play game number N (unit game: every deal of a game).")
@registry_options(_shortcut_options)
@click.option("--save", type=click.Path(path_type=Path), help="Save the game to this file (on quit and at the end).")
@click.option("--load", type=click.Path(path_type=Path), help="Go on with a game saved with --save.")
def play(game, seat, policy, seat_policy, preset, settings, seed, deal_index, game_index, save, load, **registry):
    """Play GAME in the terminal: you take one seat, the bots the others.

    \b
    Examples:
      simcards play spades --seat S --seed 7 --deal 3
      simcards play seep --seat 1 --save seep.json
      simcards play --load seep.json
    Type a card (QS), a bid, or the number of a listed move; ? hints, h history,
    u undo, s save, q quit. See docs/play.md.
    """
    from simcards.app.play import play as run_play
    from simcards.core.game import get_game

    if load is not None:
        run_play(None, load=load, save=save)
        return
    if game is None:
        _fail("name a GAME (e.g. `simcards play spades`) or --load game.json")
    g = get_game(game)
    if deal_index is not None and game_index is not None:
        _fail("give --deal N or --game N, not both")
    unit, index = ("game", game_index) if game_index is not None else (None if deal_index is None else "deal",
                                                                        deal_index or 0)
    pairs = list(settings) + _shortcut_pairs(g, _registry_options(registry, _shortcuts()), settings, unit)
    run_play(g, save=save, seat=seat, policy=policy, seat_policy=_seat_policies(seat_policy), preset=preset,
             settings=pairs, seed=seed, index=index, unit=unit)


EPILOG_COMPARE = """\b
Examples:
  simcards compare spades --arm bag_limit=10 --arm bag_limit=5 --unit game --games 100000
  simcards compare kierki --arm policy=basic --arm policy=expert --precision 0.5
  simcards compare spades --arm name=plain --arm nil_value=50,name=cheap-nil --deals 500000 --metric points
  simcards compare spades --arm seat3=basic --arm seat3=docs/examples/my_bots.py:cautious --deals 200000 --quiet
  simcards run --spec scripts/experiments/spades-bags.toml       # arms from an experiment file

An arm is comma-separated items: house rules (name=value), preset=NAME, policy=NAME,
seatN=POLICY, name=LABEL. The first arm is the baseline; every arm plays the same deals.
Files: summary.csv, differences.csv (paired intervals), batches.parquet, figures/."""


@dataclasses.dataclass(frozen=True)
class Study:
    """The options run, compare, sweep and ladder share (:func:`study_options`): the seed, the house
    rules, and where and how to compute."""

    seed: int
    preset: str | None
    settings: tuple
    threads: int | None
    backend: str
    scheduler: str | None
    workers: int | None
    force: bool
    quiet: bool

    @classmethod
    def from_click(cls, kw: dict) -> Study:
        """Take the study's options out of click's keyword arguments ``kw`` (the rest stay)."""
        return cls(**{f.name: kw.pop(f.name) for f in dataclasses.fields(cls)})

    def execution(self, out=None, *, default_out: bool = False, echo=None):
        """Where and how to compute (:class:`simcards.experiment.runner.Execution`): the results
        folder ``out`` (or, with ``default_out``, the default one) and the messages to ``echo``."""
        from simcards.experiment.runner import Execution

        return Execution(out=out, default_out=default_out, force=self.force, threads=self.threads,
                         backend=self.backend, scheduler=self.scheduler, workers=self.workers,
                         progress=_show_progress(self.quiet), echo=echo)

    def setup(self, settings: list, policy=None, seat_policy=None):
        """The house rules (``settings``: shortcuts resolved) and the policies
        (:class:`simcards.experiment.spec.Setup`)."""
        from simcards.experiment.spec import Setup

        return Setup(preset=self.preset, settings=settings, policy=policy, seat_policy=seat_policy)

    def workflow(self, settings: list, out=None, *, default_out: bool = False, echo=None) -> dict:
        """Keyword arguments of the workflows: the seed, :meth:`setup` (the policies aside: an
        arm, a sweep or a ladder seats them) and :meth:`execution`."""
        return dict(seed=self.seed, setup=self.setup(settings),
                    execution=self.execution(out, default_out=default_out, echo=echo))


@main.command(epilog=EPILOG_COMPARE)
@click.argument("game")
@click.option("--arm", "arms", multiple=True, required=True, metavar="ITEMS", help="One arm (repeat; the first is the baseline).")
@experiment_options
@click.option("--precision", help="Add rounds until every difference is this precise: P means a 95 % half-width of "
              "P for rates and of P standard deviations for means; or rate=R,mean=M (absolute half-widths).")
@click.option("--max-count", type=int, help="Cap on records per arm with --precision (default 64 x the first round).")
@click.option("--metric", "metrics", multiple=True, help="Only these metrics (repeatable; default: all).")
@click.option("--out", type=click.Path(path_type=Path), help="Results folder (default results/compare-<game>-<unit>-<hash of the comparison>).")
@click.option("--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True)
@click.option("--scheduler", help="Address of a running Dask scheduler.")
@click.option("--workers", type=int, help="Worker processes of a local Dask cluster.")
@click.option("--question", help="The question, in words, for the report.")
@click.option("--force", is_flag=True, help="Replace a folder that holds a different comparison (clears its report).")
@click.option("--quiet", is_flag=True, help="No progress bars.")
def compare(game, arms, unit, count, policy, seat_policy, chunk_size, precision, max_count, metrics, out, question,
            **registry):
    """Compare house rules or policies of GAME on the same deals, with paired 95 % intervals."""
    from simcards.core.game import get_game
    from simcards.app.workflows import compare as run_compare
    from simcards.experiment.compare import parse_arm, print_differences

    study = Study.from_click(registry)
    g = get_game(game)
    if chunk_size is not None:
        _fail("compare chooses its own chunks (one batch each); drop --chunk-size")
    counts = _registry_options(registry, _plurals())
    unit_name = unit or next((u.name for u in g.units if counts.get(u.plural) is not None), g.units[0].name)
    pairs = list(study.settings) + _shortcut_pairs(g, _registry_options(registry, _shortcuts()), study.settings,
                                                   unit_name)
    parsed = [parse_arm(a) for a in arms]
    result = run_compare(g, parsed, unit=unit, count=count, precision=precision, max_count=max_count,
                         metrics=list(metrics) or None, question=question, seed=study.seed,
                         setup=study.setup(pairs, policy, _seat_policies(seat_policy)),
                         execution=study.execution(out, default_out=True, echo=click.echo), **counts)
    print_differences(result, click.echo)
    click.echo(_policies_line(policy or g.default_policy, _seat_policies(seat_policy)) + " (unless an arm sets them)")
    if precision and not result.resolved:
        click.echo(f"warning: precision {precision} not reached within {result.count:,} {result.unit}s per arm "
                   f"(raise --max-count)", err=True)
    click.echo(f"{result.count:,} {result.unit}s per arm in {result.seconds:.1f} s -> {result.out}")
    files = _files_line(result.out)
    if files:
        click.echo(files)


def study_options(f):
    """Options shared by sweep and ladder: seed, house rules, where and how to compute."""
    options = [
        click.option("--seed", type=int, default=0, show_default=True, help="Seed: record i of seed s is always the same."),
        click.option("--preset", help="Named house-rule set (see `simcards rules GAME`)."),
        click.option("--set", "settings", multiple=True, metavar="NAME=VALUE", help="Set a house-rule parameter (repeatable)."),
        registry_options(_shortcut_options),
        click.option("--threads", type=int, callback=_cap_threads,
                     help="Threads for the local backend (default: all cores; more than the cores are capped)."),
        click.option("--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True),
        click.option("--scheduler", help="Address of a running Dask scheduler."),
        click.option("--workers", type=int, help="Worker processes of a local Dask cluster."),
        click.option("--force", is_flag=True, help="Replace a folder that holds something else."),
        click.option("--quiet", is_flag=True, help="No progress bars."),
    ]
    for opt in reversed(options):
        f = opt(f)
    return f


EPILOG_SWEEP = """\b
Examples:
  simcards sweep spades --policy expert --param nil_estimate=1:5:0.5 --unit game --games 2000
  simcards sweep contract-rummy --policy greedy_deep --param theta=0:30:10 --games 400 --metric game_total --group seat=0 --minimize
  simcards sweep toy --policy keep_at_least --param threshold=1:6:1 --seats 0 --metric best --halving

The grid is LOW:HIGH:STEP (both ends) or V1,V2,...; the default value is always played (it
is the reference). Seats (default: seat 0 and its partners) play the swept policy; the
other seats play --field (default: the same policy at its defaults). Every value plays the
same records (common random numbers); each value's difference from the default has a
paired 95 % interval (batch means). --halving drops the worse half of the values after
each round (sequential halving), the survivors playing twice as many records.
Files: sweep.csv, summary.csv, differences.csv, batches.parquet, figures/sweep.png;
`simcards report FOLDER` writes the report."""


@main.command(epilog=EPILOG_SWEEP)
@click.argument("game")
@click.option("--policy", required=True, help="The policy whose parameter is swept (other parameters may be fixed: "
              "NAME:PARAM=VALUE).")
@click.option("--param", "param_grid", required=True, metavar="NAME=GRID", help="The parameter and its grid: "
              "NAME=LOW:HIGH:STEP or NAME=V1,V2,...")
@click.option("--seats", help="Seats that play the swept policy, e.g. 0,2 (default: seat 0's side).")
@click.option("--field", help="Policy of the other seats (default: the swept policy at its defaults).")
@click.option("--metric", help="Metric to compare (default: the unit's objective, if the game names one).")
@click.option("--group", help="Group of the metric (e.g. team0), when it has several.")
@click.option("--minimize", is_flag=True, help="Smaller is better (penalty points, set rate...).")
@click.option("--halving", is_flag=True, help="Sequential halving: drop the worse half of the values after each round.")
@click.option("--unit", help="What one record is (deal, game, ...; see `simcards rules GAME`).")
@click.option("--count", type=int, help="Records per value (the finalists' with --halving; or --deals/--games/...).")
@registry_options(_count_options)
@study_options
@click.option("--out", type=click.Path(path_type=Path), help="Results folder (default results/compare-<game>-<unit>-<hash>).")
def sweep(game, policy, param_grid, seats, field, metric, group, minimize, halving, unit, count, out, **registry):
    """Sweep a policy parameter of GAME over a grid, on the same deals, against a fixed field."""
    from simcards.app.workflows import sweep as run_sweep
    from simcards.core.game import get_game
    from simcards.experiment.sweep import Objective, parse_param_option, parse_seat_list, sweep_lines

    study = Study.from_click(registry)
    g = get_game(game)
    counts = _registry_options(registry, _plurals())
    unit_name = unit or next((u.name for u in g.units if counts.get(u.plural) is not None), g.units[0].name)
    pairs = list(study.settings) + _shortcut_pairs(g, _registry_options(registry, _shortcuts()), study.settings,
                                                   unit_name)
    name, grid = parse_param_option(param_grid)
    result = run_sweep(g, policy=policy, param=name, grid=grid, seats=parse_seat_list(seats), field=field,
                       objective=Objective(metric, group, minimize), halving=halving, unit=unit, count=count,
                       **study.workflow(pairs, out, default_out=True, echo=click.echo), **counts)
    for line in sweep_lines(result):
        click.echo(line)
    c = result.comparison
    click.echo(f"{c.seconds:.1f} s -> {c.out} (simcards report {c.out})")


EPILOG_LADDER = """\b
Examples:
  simcards ladder spades --games 1000
  simcards ladder kierki --policies basic,expert --games 1000
  simcards ladder spades --policies basic,expert,expert:nil_estimate=2 --unit deal --deals 20000

Every pair of policies plays the same records twice, each policy once at seat 0's side
(seat 0 and its partners) against a field of the other; the edge is half the difference
in the unit's objective (Spades games: team 0's win rate), with a paired 95 % interval.
Without --policies every built-in plays, pimc at a cheaper search budget (shown in its
name, e.g. pimc:worlds=8:bid_worlds=8). The ranking counts clear wins minus clear losses
(Copeland; clear: the interval excludes 0).
Files: ladder.csv, ranking.csv, figures/ladder.png, pairs/ (one comparison per pair);
`simcards report FOLDER` writes the report."""


@main.command(epilog=EPILOG_LADDER)
@click.argument("game")
@click.option("--policies", help="Policies to rank, separated by commas (default: every built-in, pimc at a cheaper "
              "search budget); parameters as NAME:PARAM=VALUE.")
@click.option("--unit", help="What one record is (default: a whole game, where the game has one).")
@click.option("--count", type=int, help="Records per pair, each way round (or --games/--deals/...; default 1,000).")
@registry_options(_count_options)
@click.option("--metric", help="Metric of seat 0's side to compare (default: the unit's objective).")
@click.option("--group", help="Group of the metric, when it has several.")
@click.option("--minimize", is_flag=True, help="Smaller is better.")
@click.option("--dd-deals", type=int, default=0, help="Also play N deals per policy at every seat against double "
              "dummy: trick loss per card, bid accuracy and (Spades) the points a decision cost, by kind of "
              "decision (docs/double-dummy.md).")
@click.option("--dd-bids", help="With --dd-deals: the policy that bids (and makes every other decision but card "
              "play) at every seat while each policy plays the cards, so all play under the same contracts "
              "(default: expert, where the game has it, else the first policy); 'own': each policy bids for "
              "itself. The ratios to it are paired over the deals.")
@study_options
@click.option("--out", type=click.Path(path_type=Path), help="Results folder (default results/ladder-<game>-<unit>-<count>-<seed>).")
def ladder(game, policies, unit, count, metric, group, minimize, dd_deals, dd_bids, out, **registry):
    """Rank GAME's policies: every pair on the same deals, seats swapped, with paired intervals."""
    from simcards.app.workflows import ladder as run_ladder
    from simcards.core.game import get_game
    from simcards.experiment.ladder import DEFAULT_COUNT, default_unit, ladder_lines
    from simcards.experiment.sweep import Objective

    study = Study.from_click(registry)
    g = get_game(game)
    counts = _registry_options(registry, _plurals())
    unit_name = unit or next((u.name for u in g.units if counts.get(u.plural) is not None), None) or default_unit(g)
    pairs = list(study.settings) + _shortcut_pairs(g, _registry_options(registry, _shortcuts()), study.settings,
                                                   unit_name)
    names = [p.strip() for p in policies.split(",") if p.strip()] if policies else None
    n = count or next((v for v in counts.values() if v is not None), None) or DEFAULT_COUNT
    out = out or Path("results") / f"ladder-{g.name}-{unit_name}-{n}-{study.seed}"
    result = run_ladder(g, policies=names, unit=unit, count=count, objective=Objective(metric, group, minimize),
                        dd_deals=dd_deals, dd_bids=dd_bids,
                        **study.workflow(pairs, out, echo=None if study.quiet else click.echo), **counts)
    for line in ladder_lines(result):
        click.echo(line)
    click.echo(f"{result.seconds:.1f} s -> {result.out} (simcards report {result.out})")


def odds_options(f):
    """Options of the bid, trump and odds commands."""
    options = [
        click.option("--hand", "--cards", "hand", default="", help="The cards you hold (or see), e.g. \"AS KS 7S ...\"."),
        click.option("--seat", help="Your seat (N/E/S/W or a number)."),
        click.option("--dealer", help="The dealer's seat."),
        click.option("--bids", help="Earlier bids of the auction, e.g. \"E=3,S=nil\"."),
        click.option("--scores", default="", help="Scores before this deal, e.g. 310:420 (team or player order)."),
        click.option("--require", multiple=True, metavar="SEAT:RULE",
                     help="Knowledge of a hidden hand: W:void=S, E:has=AS, N:len(S)>=4 (repeatable)."),
        click.option("--accept", metavar="FILE.py:NAME", help="Your own accept function for dealt hands."),
        click.option("--deal", "deal_number", type=int, help="Which deal of the game the hand is for "
                     "(games whose deals differ, e.g. by contract)."),
        registry_options(lambda: _shortcut_options(per_unit=False)),
        click.option("--preset", help="Named house-rule set."),
        click.option("--set", "settings", multiple=True, metavar="NAME=VALUE", help="Set a house-rule parameter."),
        click.option("--bags", default="", help="Bag counters before this deal (games that count bags), in --scores "
                     "order, e.g. 3:7."),
        click.option("--policy", help="Policy of every seat for the play (default: expert, the game's default)."),
        click.option("--seat-policy", multiple=True, metavar="SEAT=POLICY", help="Policy of one seat."),
        click.option("--seed", type=int, default=0, show_default=True, help="Seed of the simulated deals."),
        click.option("--deals", type=int, help="Exactly this many deals (default 20,000; 200 with bid --dd)."),
        click.option("--precision", type=float, help="Deal until every rate's 95 % half-width is below this, e.g. 0.005."),
        click.option("--max-deals", type=int, help="Cap for --precision (default 2,000,000)."),
        click.option("--threads", type=int, callback=_cap_threads,
                     help="Threads (default: all cores; more than the cores are capped)."),
        click.option("--plot", type=click.Path(), help="Save a figure (PNG) of the distribution with the bid marked."),
        click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table", show_default=True,
                     help="table for reading; csv or json for a spreadsheet or a script."),
        click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
                     help="Write the table (in --format) to this file instead of the console."),
        click.option("--quiet", is_flag=True, help="No progress bar."),
    ]
    for opt in reversed(options):
        f = opt(f)
    return f


@dataclasses.dataclass(frozen=True)
class OddsOptions:
    """What the bid, trump and odds commands were given (:func:`odds_options`, as click names them)."""

    hand: str
    seat: str | None
    dealer: str | None
    bids: str | None
    scores: str
    bags: str
    require: tuple
    accept: str | None
    deal_number: int | None
    preset: str | None
    settings: tuple
    policy: str | None
    seat_policy: tuple
    seed: int
    deals: int | None
    precision: float | None
    max_deals: int | None
    threads: int | None
    plot: str | None
    fmt: str
    output: Path | None
    quiet: bool
    double_dummy: bool = False
    shortcuts: dict = dataclasses.field(default_factory=dict)  # the game's own shortcut options (--players ...)

    @classmethod
    def from_click(cls, kw: dict) -> OddsOptions:
        """The options out of click's keyword arguments (the rest are the game's shortcuts)."""
        names = {f.name for f in dataclasses.fields(cls)} - {"shortcuts"}
        return cls(**{k: v for k, v in kw.items() if k in names},
                   shortcuts={k: v for k, v in kw.items() if k not in names})


def _odds_command(command: str, game: str, o: OddsOptions) -> None:
    """Answer ``simcards COMMAND GAME`` with the options ``o``: the table, then its notes."""
    from simcards.api import hand_odds
    from simcards.core.game import get_game

    if o.bags and not o.scores:
        _fail("--bags goes with --scores (the bag counters of a game in progress)")
    scores = ":".join(x for x in (o.scores, o.bags) if x)
    g = get_game(game)
    shortcuts = _registry_options(o.shortcuts, _shortcuts(per_unit=False))
    pairs = list(o.settings) + _shortcut_pairs(g, shortcuts, o.settings)
    options = {"deal": o.deal_number} if o.deal_number is not None else {}
    counts = {"deals": o.deals, "precision": o.precision, "options": options}
    if o.double_dummy:
        from simcards.app.workflows import double_dummy_odds

        g, counts = double_dummy_odds(g, command, **counts)
    seat_policy = _seat_policies(o.seat_policy)
    result = hand_odds(g, command, hand=o.hand, seat=o.seat, dealer=o.dealer, bids=o.bids, scores=scores,
                       require=o.require, accept=o.accept, settings=pairs, preset=o.preset, policy=o.policy,
                       seat_policy=seat_policy, seed=o.seed, max_deals=o.max_deals, threads=o.threads,
                       plot=o.plot, progress=_show_progress(o.quiet), **counts)
    policies = _policies_line(o.policy or g.default_policy, seat_policy)
    _print_odds(result, o, policies)


def _print_odds(result, o: OddsOptions, policies: str) -> None:
    """The odds table (or its csv/json, on the console or in ``--output``), then its notes."""
    from simcards.api import format_odds_table

    # csv and json on the console are for pipes: the data alone on stdout, the words on stderr
    say = (lambda text: click.echo(text, err=True)) if o.fmt != "table" and o.output is None else click.echo
    if o.fmt == "table" and o.output is None:
        _print_table(result.table, max_rows=80)
    else:
        text = format_odds_table(result, o.fmt, policies=policies)
        if o.output is None:
            click.echo(text, nl=False)
        else:
            try:
                o.output.write_text(text)
            except OSError as exc:
                _fail(f"cannot write {o.output}: {exc.strerror or exc}")
    for note in result.table.attrs.get("notes", ()):
        say(note)
    say(policies)
    line = f"{result.deals:,} deals in {result.seconds:.1f} s"
    if o.precision is not None:
        line += (f"; every rate's 95 % half-width is at most {o.precision:g}" if result.resolved else
                 f"; precision {o.precision:g} NOT reached (widest half-width {result.widest_half_width():.4f}; "
                 "raise --max-deals)")
    say(line)
    if o.output is not None:
        say(f"table ({o.fmt}) -> {o.output}")
    if result.figure:
        say(f"plot -> {result.figure}")


ODDS_EPILOG = """\b
Examples:
  simcards bid spades --hand "AS KS 7S 4S AH QH 9H 5D 4D 3D KC 8C 2C" --seat N --dealer W
  simcards bid spades --hand "AS KS 7S 4S AH QH 9H 5D 4D 3D KC 8C 2C" --seat S --dealer W --bids "N=3,E=4" --scores 310:420 --precision 0.005
  simcards bid spades --pbn docs/examples/deals.pbn --board 3 --seat N
  simcards bid spades --pbn docs/examples/my-hand.pbn --seat N --known   # and the cards shown of others
  simcards bid cutthroat --players 3 --hand "AS KS 7S 4S 3S AH QH 9H 5H 5D 4D 3D KC 8C 7C 4C 3C" --scores 120:180:95 --bags 0:0:5
  simcards bid seep --hand "KS 9H 3D 5C" --format csv -o seep-bids.csv
  simcards trump kierki --cards "AS KS 5H 2D 9C" --format json --quiet
  simcards odds contract-rummy --deal 3 --players 4 --hand "7S 7H 7D QS QH 2C 5D 9H KC 4S"

Unknown cards are dealt uniformly around the known ones; every option is played
on the same deals. Intervals are 95 %. --format csv|json prints the data alone on
stdout (words on stderr), -o FILE writes it to a file; --quiet hides the progress bar."""


@main.command(epilog=ODDS_EPILOG)
@click.argument("game")
@odds_options
@click.option("--dd", "double_dummy", is_flag=True,
              help="Also the team's double-dummy tricks on the same deals: P(DD tricks >= bid), makeable DD (the "
                   "DD tricks reach your bid plus partner's number bid on that deal, before or after yours; your bid "
                   "alone, an optimistic bound, where he bids Nil: P(partner Nil)), their mean and distribution "
                   "(Spades; docs/double-dummy.md). A deal takes about 0.5 s to solve, so --dd plays 200 deals "
                   "unless --deals says more.")
@click.option("--pbn", "pbn_file", type=click.Path(path_type=Path), help="Take your hand (of --seat) and the dealer "
              "from a PBN file's deal instead of --hand.")
@click.option("--board", help="With --pbn: the board of that number (default: the file's first deal).")
@click.option("--known", is_flag=True, help="With --pbn: the other hands the file gives are known cards too (a "
              "hand of fewer cards: cards known to be in that seat), as --require SEAT:has=...; without it only "
              "your hand is read.")
def bid(game, pbn_file, board, known, **kw):
    """For each legal bid of your hand in GAME: how often it makes, expected score and bags."""
    if pbn_file is not None:
        from simcards.app.pbn_deals import held_hand, known_cards

        if kw["hand"]:
            _fail("give --hand or --pbn, not both")
        kw["hand"], dealer = held_hand(pbn_file, board, kw["seat"])
        kw["dealer"] = kw["dealer"] or dealer
        if known:
            kw["require"] = tuple(kw["require"]) + tuple(known_cards(pbn_file, board, kw["seat"]))
    elif board is not None or known:
        _fail("--board and --known read a board of --pbn FILE")
    _odds_command("bid", game, OddsOptions.from_click(kw))


@main.command(epilog=ODDS_EPILOG)
@click.argument("game")
@odds_options
def trump(game, **kw):
    """For each trump choice from the cards you see in GAME: expected points."""
    _odds_command("trump", game, OddsOptions.from_click(kw))


@main.command(epilog=ODDS_EPILOG)
@click.argument("game")
@odds_options
def odds(game, **kw):
    """Odds for the hand you hold in GAME (what they are: `simcards odds GAME --help`, docs/games/)."""
    _odds_command("odds", game, OddsOptions.from_click(kw))


@main.command()
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--quiet", is_flag=True, help="No progress bar.")
def report(folder, quiet):
    """Write report.md and a self-contained report.html for a results FOLDER.

    \b
    Example:
      simcards run --spec scripts/experiments/spades-bags.toml
      simcards report results/spades-bags
    """
    from simcards.report.report import build_report

    md, html = build_report(folder, progress=_show_progress(quiet))
    click.echo(f"wrote {md} and {html}")


if __name__ == "__main__":  # pragma: no cover
    main()
