"""Experiment files: a TOML description of a run (or, with arms, a comparison).

    name = "my-study"               # results/<name> unless --out is given
    question = "Does the house rule change who wins?"
    game = "GAME"                   # a name of `simcards games`
    unit = "game"
    count = 20000                   # or the unit's plural: games = 20000, deals = ...
    seed = 7
    preset = "PRESET"
    policy = "basic"
    records = "all"
    [variant]
    some_rule = 5
    [seat_policy]
    1 = "expert"

(scripts/experiments/*.toml are real ones.)

With ``[[arms]]`` tables (each with its own ``name``, ``variant``, ``policy``,
``seat_policy``) the file describes a comparison (see ``simcards compare``). With a
``[sweep]`` table it describes a parameter sweep (see ``simcards sweep``)::

    [sweep]
    policy = "expert"
    param = "nil_estimate"
    grid = "1:5:0.5"                # or [1, 2.5, 4]
    seats = [0, 2]                  # default: seat 0's side
    field = "expert"                # default: the policy at its defaults
    metric = "win_rate_team0"       # default: the unit's objective
    group = "all"
    minimize = false
    halving = false
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Sequence

from simcards.core.errors import SimcardsError
from simcards.core.game import get_game

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

# and the plural of each of the game's units (deals = 1000): count_options
RUN_KEYS = {"name", "question", "game", "unit", "count", "seed", "preset", "variant", "settings", "policy", "seat_policy", "records", "chunk_size", "arms",
            "metrics", "precision", "max_count", "out", "sweep"}
ARM_KEYS = {"name", "variant", "settings", "policy", "seat_policy", "preset"}
SWEEP_KEYS = {"policy", "param", "grid", "seats", "field", "metric", "group", "minimize", "halving"}


def plurals(game: str) -> tuple[str, ...]:
    """The count keys of ``game``'s units (``deals``, ``games``, ...)."""
    return tuple(u.plural for u in get_game(game).units)


def count_options(data: dict[str, Any]) -> dict[str, Any]:
    """The unit counts a parsed file gives (``{"games": 20000}``)."""
    return {k: data[k] for k in plurals(data["game"]) if k in data}


def read_spec_file(path: str | Path) -> dict[str, Any]:
    """Parse and check an experiment file's keys; one-line SimcardsError on any problem."""
    p = Path(path)
    try:
        text = p.read_text()
    except OSError as exc:
        raise SimcardsError(f"cannot read experiment file {p}: {exc.strerror or exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SimcardsError(f"experiment file {p} is not valid TOML: {exc}") from None
    if "game" not in data:
        raise SimcardsError(f"experiment file {p}: missing key 'game'")
    if not isinstance(data["game"], str):
        raise SimcardsError(f"experiment file {p}: game must be a name (see `simcards games`)")
    keys = RUN_KEYS | set(plurals(data["game"]))
    unknown = sorted(set(data) - keys)
    if unknown:
        raise SimcardsError(f"experiment file {p}: unknown key {unknown[0]!r} (keys: {', '.join(sorted(keys))})")
    for key in ("variant", "seat_policy"):
        if key in data and not isinstance(data[key], dict):
            raise SimcardsError(f"experiment file {p}: {key} must be a table")
    for key, value in data.items():
        _check_type(p, key, value)
    for i, arm in enumerate(data.get("arms", [])):
        if not isinstance(arm, dict):
            raise SimcardsError(f"experiment file {p}: arms must be [[arms]] tables")
        bad = sorted(set(arm) - ARM_KEYS)
        if bad:
            raise SimcardsError(f"experiment file {p}: arm {i + 1} has unknown key {bad[0]!r} (keys: {', '.join(sorted(ARM_KEYS))})")
    if "sweep" in data:
        _check_sweep(p, data)
    data["_path"] = str(p)
    return data


def _check_sweep(p: Path, data: dict[str, Any]) -> None:
    sweep = data["sweep"]
    if not isinstance(sweep, dict):
        raise SimcardsError(f"experiment file {p}: sweep must be a [sweep] table")
    if data.get("arms"):
        raise SimcardsError(f"experiment file {p}: a file describes [[arms]] or a [sweep], not both")
    for key in ("policy", "seat_policy"):
        if key in data:
            raise SimcardsError(f"experiment file {p}: with a [sweep], the policies are the sweep's "
                                f"(policy, seats, field inside [sweep]); drop {key!r}")
    bad = sorted(set(sweep) - SWEEP_KEYS)
    if bad:
        raise SimcardsError(f"experiment file {p}: [sweep] has unknown key {bad[0]!r} (keys: {', '.join(sorted(SWEEP_KEYS))})")
    for key in ("policy", "param", "grid"):
        if key not in sweep:
            raise SimcardsError(f"experiment file {p}: [sweep] needs {key!r}")
    for key in ("policy", "param", "field", "metric", "group"):
        if key in sweep and not isinstance(sweep[key], str):
            raise SimcardsError(f"experiment file {p}: [sweep] {key} must be a string, not {sweep[key]!r}")
    if not isinstance(sweep["grid"], (str, list)):
        raise SimcardsError(f"experiment file {p}: [sweep] grid is \"LOW:HIGH:STEP\" or a list of values")
    if "seats" in sweep and not (isinstance(sweep["seats"], list) and all(isinstance(s, int) for s in sweep["seats"])):
        raise SimcardsError(f"experiment file {p}: [sweep] seats must be a list of seat numbers, like [0, 2]")
    for key in ("minimize", "halving"):
        if key in sweep and not isinstance(sweep[key], bool):
            raise SimcardsError(f"experiment file {p}: [sweep] {key} must be true or false")


_TEXT = ("name", "question", "game", "unit", "preset", "policy", "records", "out")
_WHOLE = ("count", "deals", "games", "tournaments", "baazis", "matches", "seed", "chunk_size", "max_count")
_LISTS = ("settings", "metrics")


def _check_type(path: Path, key: str, value: Any) -> None:
    """One line when a key's value has the wrong type (``metrics = "points"`` would be read
    letter by letter; a count given as text would fail deep in the run)."""
    if key in _TEXT and not isinstance(value, str):
        raise SimcardsError(f"experiment file {path}: {key} must be a string, not {value!r}")
    if key in _WHOLE and (isinstance(value, bool) or not isinstance(value, int)):
        raise SimcardsError(f"experiment file {path}: {key} must be a whole number, not {value!r}")
    if key in _LISTS and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        raise SimcardsError(f"experiment file {path}: {key} must be a list of strings, like [\"a\", \"b\"], not {value!r}")
    if key == "precision" and (isinstance(value, bool) or not isinstance(value, (int, float, str))):
        raise SimcardsError(f"experiment file {path}: precision must be a number or a string like \"rate=0.01\", "
                            f"not {value!r}")


def seat_policy_table(table: dict | None, where: str) -> dict[int, str]:
    out = {}
    for k, v in (table or {}).items():
        try:
            out[int(k)] = str(v)
        except ValueError:
            raise SimcardsError(f"{where}: seat_policy keys are seat numbers, got {k!r}") from None
    return out


def file_setup(data: dict[str, Any]):
    """The house rules and policies of a parsed file (:class:`simcards.experiment.spec.Setup`)."""
    from simcards.experiment.spec import Setup

    return Setup(preset=data.get("preset"), variant=data.get("variant"), settings=list(data.get("settings", [])),
                 policy=data.get("policy"),
                 seat_policy=seat_policy_table(data.get("seat_policy"), f"experiment file {data['_path']}"))


def run_options(data: dict[str, Any]) -> dict[str, Any]:
    """Keyword arguments for ``simcards.app.workflows.run_experiment`` from a parsed file."""
    return dict(unit=data.get("unit"), count=data.get("count"), seed=data.get("seed", 0), setup=file_setup(data),
                records=data.get("records", "all"), chunk_size=data.get("chunk_size"), **count_options(data))


# options of `simcards run` that may go with --spec (the file says everything else)
SPEC_COMPANIONS = {"spec_file", "out", "threads", "backend", "scheduler", "workers", "force", "quiet"}


def check_companions(data: dict[str, Any], game: str | None, options_given: Sequence[str]) -> None:
    """Refuse command-line options that an experiment file would silently override."""
    where = data["_path"]
    if game is not None and game != data["game"]:
        raise SimcardsError(f"{where} is an experiment of {data['game']!r}; drop the game argument {game!r} "
                            f"(the file names the game)")
    for name in options_given:
        if name in SPEC_COMPANIONS or name == "game":
            continue
        option = "--set" if name == "settings" else "--" + name.replace("_", "-")
        raise SimcardsError(f"{option} conflicts with --spec {where}: set it in the file instead "
                            f"(only --out, --threads, --backend, --scheduler, --workers, --force, --quiet go with --spec)")

