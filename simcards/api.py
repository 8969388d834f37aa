"""The Python API: the same operations as the CLI, returning DataFrames."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

import pandas as pd

from simcards.core.errors import SimcardsError
from simcards.core.game import Game, game_names, get_game


def shortcut_settings(game: Game, settings: Sequence[str] = (), *, unit: str | None = None,
                      shortcuts: Mapping[str, Any] | None = None, **named: Any) -> list[str]:
    """``name=value`` pairs for the CLI shortcuts (``--players 3`` -> ``num_players=3``).

    ``shortcuts`` maps option names (``"players"``, ``"deal-type"``) to values, None for
    an option not given; keywords (``players=3``, ``deal_type="robber"``) work too.
    Refuses, with one line, a shortcut the game lacks, a shortcut that repeats a ``--set``
    of the same parameter, and a shortcut to a unit's focus (``--deal-type``/``--contract``
    pick the deal the ``deal`` unit plays) with another unit, where it would be silently ignored.
    """
    given = {k: v for k, v in {**(shortcuts or {}), **{k.replace("_", "-"): v for k, v in named.items()}}.items()
             if v is not None}
    set_names = {item.partition("=")[0].strip() for item in settings}
    pairs = []
    for option, value in given.items():
        field = game.shortcuts.get(option)
        if field is None:
            raise SimcardsError(f"{game.name} has no --{option} option")
        if field in set_names:
            raise SimcardsError(f"--{option} {value} and --set {field}=... both set {field}; give one of them")
        focus = game.shortcut_unit(option)
        if focus is not None and unit is not None and unit != focus:
            raise SimcardsError(f"--{option} picks the {focus} that --unit {focus} plays; a {game.name} {unit} "
                                f"plays every {focus}, so drop --{option} or use --unit {focus}")
        pairs.append(f"{field}={value}")
    return pairs


def data_files(out: str | Path | None) -> list[Path]:
    """The CSV and Parquet files a results folder holds (run or compare), for the console."""
    if out is None:
        return []
    names = ("summary.csv", "differences.csv", "deals.parquet", "batches.parquet", "tally.parquet")
    return [Path(out) / n for n in names if (Path(out) / n).is_file()]


def _bundled(options: dict[str, Any], *more: tuple[str, type]) -> dict[str, Any]:
    """The API's keywords bundled as the workflows take them: the house rules and policies
    (preset, variant, settings, policy, seat_policy) into ``setup=``
    (:class:`simcards.experiment.spec.Setup`), where and how to compute (out, threads,
    backend, ..., echo) into ``execution=`` (:class:`simcards.experiment.runner.Execution`),
    and into each of ``more``'s ``(name, dataclass)`` its fields; a bundle given is kept."""
    from simcards.experiment.runner import Execution
    from simcards.experiment.spec import Setup, take_fields

    options = dict(options)
    for name, bundle in (("setup", Setup), ("execution", Execution)) + more:
        if name not in options:
            options[name] = take_fields(bundle, options)
    return options


def run_experiment(game: str | Game, **options: Any):
    """Validate, run and return the full ``RunResult`` (:func:`simcards.app.workflows.run_experiment`),
    with the options of :func:`run`."""
    from simcards.app.workflows import run_experiment as run_workflow

    return run_workflow(game, **_bundled(options))


def run(game: str, **options: Any) -> pd.DataFrame:
    """Simulate and return per-record rows; ``df.attrs["summary"]`` holds the estimates.

    The rows are indexed by record number, named after the unit (``df.loc[123]`` is the
    deal that ``simcards replay spades --deal 123`` shows).

    ``simcards.run("spades", deals=100_000, seed=7, variant={"bag_limit": 5})``.
    Options: unit, count or a plural (deals=, games=, ...), seed, preset, variant (dict),
    settings (``["name=value"]``), policy, seat_policy ({seat: name}), out, threads,
    backend, scheduler, records, chunk_size, progress, force.
    """
    result = run_experiment(game, **options)
    frame = result.records if result.records is not None else pd.DataFrame()
    if "index" in frame.columns:  # the record number (`simcards replay --deal N`) is the frame's index
        frame = frame.set_index("index").rename_axis(result.spec.unit)
    frame.attrs["summary"] = result.summary
    frame.attrs["spec"] = result.spec.to_dict()
    return frame


def list_games() -> pd.DataFrame:
    """One row per available game."""
    rows = []
    for name in game_names():
        try:
            g = get_game(name)
        except SimcardsError:
            continue  # a package still being written
        rows.append({"game": g.name, "title": g.title, "units": ", ".join(u.name for u in g.units),
                     "policies": ", ".join(g.policies.names()), "description": g.description})
    return pd.DataFrame(rows)


def rules(game: str) -> pd.DataFrame:
    """Every house-rule parameter of ``game``: default, allowed values, meaning."""
    g = get_game(game)
    rows = []
    for name, spec in g.variant_type.param_specs().items():
        default = g.variant_type.defaults()[name]
        rows.append({"parameter": name, "default": _show(default), "allowed": spec.allowed(), "meaning": spec.help})
    return pd.DataFrame(rows)


def policies(game: str) -> pd.DataFrame:
    """Every built-in policy of ``game``, one row per parameter (a row with no parameter
    for a policy without any): policy, help, parameter, default, low, high, integer, meaning."""
    g = get_game(game)
    rows = []
    for p in g.policies.describe():
        base = {"policy": p["name"], "help": p["help"]}
        if not p["params"]:
            rows.append(dict(base, parameter=None, default=None, low=None, high=None, integer=None, meaning=None))
        for q in p["params"]:
            rows.append(dict(base, parameter=q["name"], default=q["default"], low=q["low"], high=q["high"],
                             integer=q["integer"], meaning=q["help"]))
    return pd.DataFrame(rows, columns=["policy", "help", "parameter", "default", "low", "high", "integer", "meaning"])


def _show(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


def replay_text(game: str | Game, *, unit: str | None = None, index: int = 0, seed: int = 0,
                preset: str | None = None, variant: Mapping[str, Any] | None = None, settings: Sequence[str] = (),
                policy: str | None = None, seat_policy: Mapping[int, str] | None = None, dd: bool = False,
                from_trick: int = 1, progress: bool = False, format: str = "text", pbn: str | None = None,
                board: str | None = None) -> str:
    """The move-by-move text of record ``index`` of ``seed`` (what `simcards replay` prints);
    ``dd``: with the cards that cost a trick double dummy marked (docs/double-dummy.md);
    ``progress``: a progress bar of the analysis on stderr; ``format="pbn"``: the deal as a
    PBN game instead (trick-taking games, four seats); ``pbn``: the bots play board ``board``
    (default the first) of that PBN file instead of a simulated deal (Spades)."""
    from simcards.core.policy import seat_policies

    g = game if isinstance(game, Game) else get_game(game)
    u = g.unit(unit)
    if index < 0:
        raise SimcardsError(f"{u.name} number must be >= 0, got {index}")
    if pbn is not None:
        from simcards.app.pbn_deals import check_play

        check_play(g)  # before the policies compile
    v = g.variant(preset, variant, list(settings))
    played = seat_policies(policy or g.default_policy, seat_policy, g.seats(v))
    table = g.policies.table(played)
    if pbn is not None:
        from simcards.app.pbn_deals import replay_given
        from simcards.core import dd_report

        if format != "text":
            raise SimcardsError("--pbn replays a deal read from a PBN file as text; drop --format")
        with dd_report.progress(progress):
            return replay_given(g, v, table, pbn, board, seed=seed, dd=dd, from_trick=_trick_number(from_trick))
    if format == "pbn":
        from simcards.app.pbn_deals import deal_game
        from simcards.core.pbn import file_text

        if u.name != "deal" or dd:
            raise SimcardsError("--format pbn writes one deal as PBN: use --deal N, without --dd")
        return file_text([deal_game(g, v, table, seed, index, played)]).rstrip("\n")
    if format != "text":
        raise SimcardsError(f"unknown format {format!r} (text or pbn)")
    if dd:
        from simcards.core import dd_report

        with dd_report.progress(progress):
            return _double_dummy(g).replay(u.name, v, table, seed, index, from_trick=_trick_number(from_trick))
    return g.replay(u.name, v, table, seed, index)


def _double_dummy(g: Game):
    if g.double_dummy is None:
        raise SimcardsError(f"{g.name} offers no double-dummy analysis (the trick-taking games do: "
                            "spades, cutthroat, kierki)")
    return g.double_dummy


def double_dummy_text(game: str | Game, *, seed: int = 0, index: int | None = None, hands: str | None = None,
                      preset: str | None = None, variant: Mapping[str, Any] | None = None,
                      settings: Sequence[str] = (), policy: str | None = None,
                      seat_policy: Mapping[int, str] | None = None, from_trick: int = 1,
                      progress: bool = False) -> str:
    """What `simcards dd` prints: the double-dummy table of deal ``index`` of ``seed`` (or of the
    deal written in ``hands``) and what each card of the bots' play cost (docs/double-dummy.md);
    ``progress``: a progress bar of the analysis on stderr."""
    from simcards.core import dd_report
    from simcards.core.policy import seat_policies

    g = game if isinstance(game, Game) else get_game(game)
    support = _double_dummy(g)
    if (index is None) == (hands is None):
        raise SimcardsError("name one deal: --deal N (a simulated deal of --seed) or --hand \"...\" (all hands as text)")
    if index is not None and index < 0:
        raise SimcardsError(f"deal number must be >= 0, got {index}")
    v = g.variant(preset, variant, list(settings))
    table = g.policies.table(seat_policies(policy or g.default_policy, seat_policy, g.seats(v)))
    if hands is not None and from_trick != 1:
        raise SimcardsError("--from-trick analyses a simulated deal's play: use it with --deal")
    with dd_report.progress(progress):
        return support.analyse(v, table, seed=seed, index=index, hands=hands, from_trick=_trick_number(from_trick))


def _trick_number(n: int) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise SimcardsError(f"--from-trick must be a trick number from 1, got {n!r}")
    return n


def compare(game: str, arms: Sequence[str], **options: Any):
    """Compare arms (``"bag_limit=5,policy=expert,name=five"``) on the same deals.

    Returns a ``CompareResult``: ``.differences`` (paired 95 % intervals), ``.summaries``,
    ``.arm_table()``. Options as ``simcards compare`` (count or deals=/games=, seed,
    precision, metrics, out, ...).
    """
    from simcards.app.workflows import compare as run_compare
    from simcards.experiment.compare import parse_arm

    return run_compare(game, [parse_arm(a) if isinstance(a, str) else a for a in arms], **_bundled(options))


def sweep(game: str, policy: str, param: str, **options: Any):
    """Sweep ``param`` of ``policy`` over a grid on the same deals (``simcards sweep``).

    ``param`` is ``"nil_estimate=1:5:0.5"`` (or pass ``grid=`` and a bare name). Returns a
    ``SweepResult``: ``.table`` (one row per value: estimate, paired difference from the
    default with its 95 % interval, Holm p-value, ``best``), ``.best``, ``.comparison``.
    Options as the CLI: seats, field, metric, group, minimize, halving, games=/deals=, seed, out...
    """
    from simcards.app.workflows import sweep as run_sweep
    from simcards.experiment.sweep import Objective, parse_param_option

    if "grid" not in options:
        param, options["grid"] = parse_param_option(param)
    return run_sweep(game, policy=policy, param=param, **_bundled(options, ("objective", Objective)))


def ladder(game: str, **options: Any):
    """Rank policies: every pair on the same deals, seats swapped (``simcards ladder``).

    Returns a ``LadderResult``: ``.ranking``, ``.pairs`` (edge of each policy over each other
    with its paired 95 % interval), ``.comparisons``. Options as the CLI (policies, unit,
    games=/deals=, seed, metric, group, out...).
    """
    from simcards.app.workflows import ladder as run_ladder
    from simcards.experiment.sweep import Objective

    return run_ladder(game, **_bundled(options, ("objective", Objective)))


def format_odds_table(result, fmt: str, *, policies: str = "") -> str:
    """An odds table as ``table`` (the console's text), ``csv`` (one row per option) or ``json`` (the rows with the
    game, command, deals, policies and notes), for a spreadsheet or a script.

    Interval columns printed as ``[low, high]`` become two numeric columns
    (``<name> low``, ``<name> high``); empty cells become empty (csv) or null (json)."""
    import json

    if fmt == "table":
        return table_text(result.table, max_rows=None) + "\n"
    table = _machine_table(result.table)
    if fmt == "csv":
        return table.to_csv(index=False)
    if fmt == "json":
        rows = json.loads(table.to_json(orient="records"))
        doc = {"game": result.game, "command": result.command, "deals": result.deals, "policies": policies,
               "notes": list(result.table.attrs.get("notes", ())), "rows": rows}
        return json.dumps(doc, indent=2) + "\n"
    raise SimcardsError(f"unknown format {fmt!r} (table, csv or json)")


def table_text(frame: pd.DataFrame, max_rows: int | None = 60) -> str:
    """A table as the console shows it (4 significant digits)."""
    import pandas as pd

    with pd.option_context("display.max_rows", max_rows, "display.width", 160, "display.max_columns", 20,
                           "display.float_format", "{:.4g}".format):
        return frame.to_string(index=False)


def _machine_table(table: pd.DataFrame) -> pd.DataFrame:
    import re

    import numpy as np
    import pandas as pd

    interval = re.compile(r"^\[\s*(-?[\d.eE+-]+|nan),\s*(-?[\d.eE+-]+|nan)\s*\]$")
    columns = {}
    for name in table.columns:
        col = table[name]
        if col.dtype == object or pd.api.types.is_string_dtype(col):
            col = col.replace("", np.nan)
            text = col.dropna().astype(str)
            found = text.str.match(interval)
            if len(text) and found.all():
                parts = col.astype(str).str.extract(interval)
                columns[f"{name} low"] = pd.to_numeric(parts[0], errors="coerce")
                columns[f"{name} high"] = pd.to_numeric(parts[1], errors="coerce")
                continue
        columns[name] = col
    return pd.DataFrame(columns)


def hand_odds(game: str | Game, command: str = "bid", *, hand: str | Sequence[int] = (), seat: str | int | None = None,
              dealer: str | int | None = None, bids: str | Mapping | None = None, scores: str | Sequence[int] = (),
              require: Sequence[str] = (), accept: str | None = None, options: Mapping[str, Any] | None = None,
              preset: str | None = None, variant: Mapping[str, Any] | None = None, settings: Sequence[str] = (),
              policy: str | None = None, seat_policy: Mapping[int, str] | None = None, seed: int = 0,
              deals: int | None = None, precision: float | None = None, max_deals: int | None = None,
              threads: int | None = None, plot: str | None = None, progress: bool = False):
    """Odds for a hand: ``simcards bid/trump/odds`` as a function; returns an ``OddsResult``.

    ``simcards.hand_odds("spades", hand="AS KS ...", seat="N", dealer="W", bids="E=3", scores="310:420")``;
    ``result.table`` has one row per option (bid, trump suit, ...); ``progress=True``
    shows a bar of the deals done.
    """
    from simcards.core.cards import parse_cards
    from simcards.core.deal import seat_number
    from simcards.core.game import OddsRequest
    from simcards.experiment.odds import odds
    from simcards.experiment.spec import Setup

    g = game if isinstance(game, Game) else get_game(game)
    setup = Setup(preset=preset, variant=variant, settings=settings, policy=policy, seat_policy=seat_policy)
    n_seats = g.seats(g.variant(preset, variant, list(settings)))
    parser = getattr(g.odds.get(command), "parse_hand", None) or parse_cards
    cards = tuple(parser(hand)) if isinstance(hand, str) else tuple(hand)

    def as_seat(value):
        return None if value is None else seat_number(str(value), n_seats)

    bid_map: dict[int, str] = {}
    if isinstance(bids, str):
        for item in [t for t in bids.replace(";", ",").split(",") if t.strip()]:
            who, sep, what = item.partition("=")
            if not sep or not what.strip():
                raise SimcardsError(f"--bids takes SEAT=BID items, e.g. E=3,S=nil; got {item!r}")
            bid_map[seat_number(who, n_seats)] = what.strip()
    elif bids:
        bid_map = {seat_number(str(k), n_seats): str(v) for k, v in bids.items()}
    if isinstance(scores, str):
        try:
            score_tuple = tuple(int(x) for x in scores.split(":")) if scores.strip() else ()
        except ValueError:
            raise SimcardsError(f"--scores takes integers separated by colons, e.g. 310:420; got {scores!r}") from None
    else:
        score_tuple = tuple(int(x) for x in scores)
    request = OddsRequest(hand=cards, seat=as_seat(seat), dealer=as_seat(dealer), bids=bid_map, scores=score_tuple,
                          constraints=tuple(require), accept=accept, options=dict(options or {}))
    return odds(g, command, request, setup=setup, seed=seed, deals=deals, precision=precision, max_deals=max_deals,
                threads=threads, plot=plot, progress=progress)
