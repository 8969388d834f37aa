"""What an experiment is: a small, hashable, JSON-able description.

An :class:`ExperimentSpec` holds everything that determines the records: game,
unit, count, seed, the full variant and the policy of each seat (with a fingerprint
of any user policy file). Two runs with equal specs produce identical records;
``meta.json`` stores the spec so a run can be reproduced from it. ``chunk_size`` is
not part of what an experiment *is*: records never depend on chunking. ``None`` (the
default) lets the runner size chunks by measured time; an integer fixes them.
"""
from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from simcards.core.errors import SimcardsError
from simcards.core.game import Game, get_game
from simcards.core.policy import is_user_spec, seat_policies, user_spec_file

RECORD_MODES = ("all", "summary", "none", "dd")
KEEPS_RECORDS = ("all", "dd")  # modes that keep per-record rows (dd: with double-dummy columns, docs/double-dummy.md)
MAX_SEED = 2**63 - 1


@dataclass(frozen=True)
class ExperimentSpec:
    game: str
    unit: str
    count: int
    seed: int
    variant: Mapping[str, Any]
    policies: tuple[str, ...]
    chunk_size: int | None
    records: str = "all"
    policy_files: Mapping[str, str] = field(default_factory=dict)  # path -> sha256
    start: int = 0  # first record index: records start .. start+count-1
    code: str = ""  # code_fingerprint(): the simcards sources that make the records
    # the policy of every seat's decisions but card play (bids, Blind Nil, the exchange...):
    # "" for the seats' own (PolicyCatalog.table's ``bidding``); left out of to_dict when "",
    # so every spec without it keeps its identity and digest
    bidding: str = ""

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["policies"] = list(self.policies)
        d["variant"] = dict(self.variant)
        d["policy_files"] = dict(self.policy_files)
        if not self.bidding:
            d.pop("bidding")
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "ExperimentSpec":
        try:
            return cls(game=d["game"], unit=d["unit"], count=int(d["count"]), seed=int(d["seed"]),
                       variant=dict(d["variant"]), policies=tuple(d["policies"]),
                       chunk_size=None if d.get("chunk_size") is None else int(d["chunk_size"]), records=d.get("records", "all"),
                       policy_files=dict(d.get("policy_files", {})), start=int(d.get("start", 0)),
                       code=str(d.get("code", "")), bidding=str(d.get("bidding") or ""))
        except (KeyError, TypeError, ValueError) as exc:
            raise SimcardsError(f"not a simcards experiment spec ({type(exc).__name__}: {exc})") from None

    def digest(self) -> str:
        """Short stable hash of the experiment (names default result folders; not the chunking)."""
        text = json.dumps(self.identity(), sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:10]

    def identity(self) -> dict[str, Any]:
        """What must match for a results folder to hold this experiment (not the chunking)."""
        d = self.to_dict()
        d.pop("chunk_size")
        return d

    def game_object(self) -> Game:
        return get_game(self.game)

    def variant_object(self):
        return self.game_object().variant_type.from_mapping(self.variant)


def resolve_count(game: Game, unit: str | None, count: int | None, counts: Mapping[str, int | None]):
    """Pick the unit and count from ``count`` or a plural keyword (``deals=``, ``games=``...)."""
    given = {k: v for k, v in counts.items() if v is not None}
    plurals = {u.plural: u.name for u in game.units}
    for k in given:
        if k not in plurals:
            raise SimcardsError(f"{game.name} has no unit counted in {k} (units: "
                                f"{', '.join(f'{u.name} (--{u.plural})' for u in game.units)})")
    if len(given) > 1:
        raise SimcardsError(f"give one count, not {' and '.join('--' + k for k in given)}")
    if given:
        (plural, n), = given.items()
        implied = plurals[plural]
        if unit is not None and unit != implied:
            raise SimcardsError(f"--{plural} counts {implied}s but --unit is {unit}; use --{game.unit(unit).plural}")
        if count is not None:
            raise SimcardsError("give either a count or --" + plural)
        return implied, n
    return game.unit(unit).name, count


def toml_value(v: Any) -> str:
    """A house rule's value as ``--set`` writes it (``true``, ``1,2``), from TOML or Python."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return ",".join(str(x) for x in v)
    return str(v)


@dataclass(frozen=True)
class Setup:
    """The table an experiment plays at: its house rules and who plays each seat (the same
    for every record; a comparison's arms change some of it)."""

    preset: str | None = None
    """Named house-rule set (None: the game's defaults)."""
    variant: Mapping[str, Any] | None = None
    """House rules as ``{name: value}``, applied before ``settings``."""
    settings: Sequence[str] = ()
    """House rules as ``name=value`` texts (``--set``)."""
    policy: str | None = None
    """Policy of every seat, with its parameters (``expert:nil_estimate=2``; None: the game's default)."""
    seat_policy: Mapping[int, str] | None = None
    """Policies of single seats, ``{seat: policy}``, over ``policy``."""

    def rule_settings(self) -> list[str]:
        """Every house rule as ``name=value``: ``variant``'s, then ``settings`` (how a comparison
        names them in its identity)."""
        return [f"{k}={toml_value(v)}" for k, v in (self.variant or {}).items()] + list(self.settings)

    def rules_only(self, what: str) -> Setup:
        """The house rules alone, ``variant`` written as settings, for ``what`` (a sweep, a ladder),
        which seats the policies itself: a policy given here is refused, not ignored."""
        if self.policy is not None or self.seat_policy:
            raise SimcardsError(f"{what} chooses the policies of every seat itself; drop policy and seat_policy")
        return Setup(preset=self.preset, settings=self.rule_settings())

    def spec_options(self) -> dict[str, Any]:
        """The keywords of :func:`make_spec` this setup decides."""
        return dict(preset=self.preset, variant=self.variant, settings=list(self.settings), policy=self.policy,
                    seat_policy=self.seat_policy)


def take_fields(cls, options: dict):
    """An instance of the dataclass ``cls`` from the keywords of ``options`` named like its
    fields, taken out of ``options`` (the rest stay): the Python API's keywords -> a bundle."""
    from dataclasses import fields

    return cls(**{f.name: options.pop(f.name) for f in fields(cls) if f.name in options})


@functools.lru_cache(maxsize=None)
def code_fingerprint() -> str:
    """Digest of the sources that make records (``simcards/core`` and ``simcards/games``).

    Part of the spec, so a results folder started by other code (an upgrade, an edited rule or
    policy) is not resumed or reused as if it held this code's records: deal ``i`` of seed ``s``
    is the same deal only under the same rules and policies."""
    root = Path(__file__).resolve().parents[1]
    h = hashlib.sha256()
    for folder in ("core", "games"):
        for f in sorted((root / folder).rglob("*.py")):
            h.update(f.relative_to(root).as_posix().encode())
            h.update(f.read_bytes())
    return h.hexdigest()[:16]


def file_fingerprint(path: str) -> str:
    try:
        return hashlib.sha256(Path(path).expanduser().read_bytes()).hexdigest()[:16]
    except OSError:
        raise SimcardsError(f"policy file {path!r} cannot be read") from None


def make_spec(game: str | Game, *, unit: str | None = None, count: int | None = None, seed: int = 0,
              preset: str | None = None, variant: Mapping[str, Any] | None = None,
              settings: Sequence[str] = (), policy: str | None = None,
              seat_policy: Mapping[int, str] | None = None, chunk_size: int | None = None,
              records: str = "all", start: int = 0, bidding: str | None = None) -> ExperimentSpec:
    """Validate user choices and build the spec (one-line SimcardsError on bad input).

    ``bidding``: one policy for every seat's decisions but card play (the seats' policies
    play the cards); ``None`` or a seat policy's own name for the seats' own."""
    g = game if isinstance(game, Game) else get_game(game)
    u = g.unit(unit)
    if count is None:
        count = 10_000
    if isinstance(count, bool) or not isinstance(count, int) or count <= 0:
        raise SimcardsError(f"the number of {u.plural} must be a positive integer, got {count!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise SimcardsError(f"seed must be an integer in 0..{MAX_SEED}, got {seed!r}")
    if records not in RECORD_MODES:
        raise SimcardsError(f"records must be one of {', '.join(RECORD_MODES)}, got {records!r}")
    if records == "dd" and (g.double_dummy is None or u.name not in g.double_dummy.units):
        offered = f"unit {', '.join(g.double_dummy.units)}" if g.double_dummy else "no game of this kind"
        raise SimcardsError(f"--records dd: {g.name} has no double-dummy columns for unit {u.name} ({offered})")
    v = g.variant(preset, variant, list(settings))
    specs = seat_policies(policy or g.default_policy, seat_policy, g.seats(v))
    table = g.policies.table(specs, bidding=bidding or None)  # compiled now, so a bad policy fails before
    # any work starts; canonical specs (parameters in declaration order) go into meta.json
    specs = list(table.specs[:len(specs)])
    bidding = table.bidding if table.bidding is not None and any(s != table.bidding for s in specs) else ""
    files = {user_spec_file(s): file_fingerprint(user_spec_file(s)) for s in specs + ([bidding] if bidding else [])
             if is_user_spec(s)}
    if chunk_size is not None and (isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size <= 0):
        raise SimcardsError(f"chunk size must be a positive integer, got {chunk_size!r}")
    return ExperimentSpec(game=g.name, unit=u.name, count=count, seed=seed, variant=v.to_dict(),
                          policies=tuple(specs), chunk_size=chunk_size, records=records,
                          policy_files=files, start=start, code=code_fingerprint(), bidding=bidding)
