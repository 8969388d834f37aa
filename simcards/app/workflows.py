"""Workflows: run, compare and experiment files, each with its files and figures.

The application layer sits above ``experiment`` (which computes and stores) and
``report`` (which draws): a workflow runs the experiment, then saves its figures. The
CLI and the Python API both call these, so they do the same thing.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, Mapping, Sequence

from simcards.core.errors import SimcardsError
from simcards.core.game import Game, get_game
from simcards.experiment.compare import Arm, CompareResult, arm_from_table, compare as compare_arms, print_differences
from simcards.experiment.files import check_companions, count_options, file_setup, read_spec_file, run_options
from simcards.experiment.runner import Execution, RunResult, execute
from simcards.experiment.spec import Setup, make_spec, resolve_count
from simcards.experiment.store import FolderLock
from simcards.report.figures import save_comparison_figures, save_figures


DD_CHUNK = 4  # run --records dd: records per chunk unless --chunk-size says otherwise
DD_DEALS = 200  # bid --dd: default deals (a full-deal solve takes about half a second, a few take far longer)
DD_BATCH = 4  # bid --dd: deals per batch, so that the threads share the solves and the bar moves


def run_experiment(game: str | Game, *, unit: str | None = None, count: int | None = None, seed: int = 0,
                   setup: Setup = Setup(), execution: Execution = Execution(),
                   records: str = "all", chunk_size: int | None = None, bidding: str | None = None,
                   **counts: int | None) -> RunResult:
    """Validate, run and return the full :class:`RunResult` (used by the CLI); ``bidding``: the
    policy of every seat's decisions but card play (:func:`make_spec`). ``setup``: the house
    rules and policies; ``execution``: where and how to compute (without ``out`` the run is
    in memory)."""
    g = game if isinstance(game, Game) else get_game(game)
    unit_name, n = resolve_count(g, unit, count, counts)
    if records == "dd" and count is None and all(v is None for v in counts.values()):
        plural = g.unit(unit_name).plural
        raise SimcardsError(f"--records dd solves every deal double dummy (seconds each, some a minute): give the "
                            f"number of {plural}, e.g. --{plural} 100 (the default count would take hours)")
    if records == "dd" and chunk_size is None:
        chunk_size = DD_CHUNK  # a record solves for seconds: small chunks move the bar and are stored as they finish
    spec = make_spec(g, unit=unit_name, count=n, seed=seed, **setup.spec_options(), chunk_size=chunk_size,
                     records=records, bidding=bidding)
    out = execution.out
    result = execute(spec, out=out, **execution.run_options())
    if out is not None:
        with _locked(out):
            save_figures(g, result)
    return result


def double_dummy_odds(game: str | Game, command: str = "bid", *, deals: int | None = None,
                      precision: float | None = None, options: Mapping[str, Any] | None = None):
    """(game, keyword arguments) that make :func:`simcards.api.hand_odds` answer with the
    double-dummy columns (``bid --dd``, docs/double-dummy.md): the same deals, ``DD_DEALS`` of
    them unless ``deals`` says otherwise, in batches of ``DD_BATCH`` so that the threads share
    the solves and the progress bar follows them."""
    g = game if isinstance(game, Game) else get_game(game)
    support = g.odds_support(command)
    if not any(c.name == "dd_tricks" for c in support.columns):
        raise SimcardsError(f"--dd: `simcards {command} {g.name}` has no double-dummy columns (it has: "
                            "`simcards bid spades`)")
    if precision is not None:
        raise SimcardsError(f"--dd plays a fixed number of deals (--deals, default {DD_DEALS}); drop --precision")
    solving = replace(g, odds={**g.odds, command: replace(support, batch=DD_BATCH)})
    return solving, {"deals": DD_DEALS if deals is None else deals, "precision": None,
                     "options": {**(options or {}), "dd": True}}


def compare(game: str | Game, arms: Sequence[Arm], **options: Any) -> CompareResult:
    """Compare ``arms`` on the same deals (see :func:`simcards.experiment.compare.compare`); a
    comparison written to a folder gets its figures."""
    g = game if isinstance(game, Game) else get_game(game)
    result = compare_arms(g, arms, **options)
    if result.out is not None:
        with _locked(result.out):
            save_comparison_figures(g, result)
    return result


def sweep(game: str | Game, **options: Any):
    """Sweep a policy parameter (see :func:`simcards.experiment.sweep.sweep`); a sweep written
    to a folder gets ``sweep.csv``, the comparison's figures and the metric across the grid."""
    from simcards.experiment.sweep import save_sweep, sweep as run_sweep
    from simcards.report.figures import save_sweep_figure

    g = game if isinstance(game, Game) else get_game(game)
    result = run_sweep(g, **options)
    out = result.comparison.out
    if out is not None:
        with _locked(out):
            save_sweep(result)
            save_comparison_figures(g, result.comparison)
            save_sweep_figure(result)
    return result


def ladder(game: str | Game, **options: Any):
    """Every policy against every other (see :func:`simcards.experiment.ladder.ladder`); a
    ladder written to a folder gets ``figures/ladder.png``."""
    from simcards.experiment.ladder import ladder as run_ladder
    from simcards.report.figures import save_ladder_figure

    result = run_ladder(game, **options)
    if result.out is not None:
        with _locked(result.out):
            save_ladder_figure(result)
    return result


@contextmanager
def _locked(folder):
    """The results folder's lock while its figures are drawn (the run released it when done)."""
    lock = FolderLock(Path(folder)).acquire()
    try:
        yield
    finally:
        lock.release()


def _file_execution(data: dict, execution: Execution) -> Execution:
    """``execution`` for an experiment file: its folder by default ``results/<name of the experiment>``,
    its messages by default printed."""
    out = execution.out if execution.out is not None else Path("results") / data.get("name", Path(data["_path"]).stem)
    return replace(execution, out=out, echo=execution.echo or print)


def compare_from_file(data: dict, *, execution: Execution = Execution(), print_summary=None):
    """Run the comparison an experiment file with ``[[arms]]`` describes."""
    arms = [arm_from_table(t, i) for i, t in enumerate(data["arms"])]
    execution = _file_execution(data, execution)
    echo = execution.echo
    result = compare(data["game"], arms, unit=data.get("unit"), count=data.get("count"), seed=data.get("seed", 0),
                     setup=file_setup(data), precision=data.get("precision"), max_count=data.get("max_count"),
                     metrics=data.get("metrics"), execution=execution, question=data.get("question"),
                     spec_file=data["_path"], **count_options(data))
    if print_summary:
        print_differences(result, echo)
    echo(f"{result.count:,} {result.unit}s per arm, {len(arms)} arms -> {result.out}")
    return result


def sweep_from_file(data: dict, *, execution: Execution = Execution(), print_summary=None):
    """Run the sweep an experiment file with a ``[sweep]`` table describes."""
    from simcards.experiment.sweep import Objective, sweep_lines

    sw = data["sweep"]
    execution = _file_execution(data, execution)
    echo = execution.echo
    result = sweep(data["game"], policy=sw["policy"], param=sw["param"], grid=sw["grid"], seats=sw.get("seats"),
                   field=sw.get("field"),
                   objective=Objective(sw.get("metric"), sw.get("group"), sw.get("minimize", False)),
                   halving=sw.get("halving", False), unit=data.get("unit"),
                   count=data.get("count"), seed=data.get("seed", 0), setup=file_setup(data), execution=execution,
                   question=data.get("question"), **count_options(data))
    if print_summary:
        for line in sweep_lines(result):
            echo(line)
    echo(f"{result.comparison.count:,} {result.comparison.unit}s per finalist -> {result.comparison.out}")
    return result


def run_spec_file(path: str | Path, *, execution: Execution = Execution(), print_summary=None,
                  game: str | None = None, options_given: Sequence[str] = ()):
    """Run the experiment an experiment file describes (arms: a comparison); ``execution``:
    where and how (its ``out`` by default ``results/<name of the experiment>``, its ``echo``
    by default ``print``).

    ``game`` and ``options_given`` (names of options the user typed) are checked against
    the file: anything the file decides is refused rather than silently ignored.
    """
    data = read_spec_file(path)
    check_companions(data, game, options_given)
    if data.get("sweep"):
        return sweep_from_file(data, execution=execution, print_summary=print_summary)
    if data.get("arms"):
        return compare_from_file(data, execution=execution, print_summary=print_summary)
    execution = _file_execution(data, execution)
    echo = execution.echo
    result = run_experiment(data["game"], execution=execution, **run_options(data))
    if print_summary:
        print_summary(result.summary)
    echo(f"{result.spec.count:,} {result.spec.unit}s -> {result.out}")
    return result

