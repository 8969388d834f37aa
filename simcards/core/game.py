"""The contract every game package fulfils, and the registry that lists them.

The experiment layer, the CLI and the report know games only through
:class:`Game`; they never import a game's rules. See docs/architecture.md.
"""
from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping

from simcards.core.errors import SimcardsError

if TYPE_CHECKING:  # annotations only: the registry imports without numpy (simcards --help stays light)
    from simcards.core.policy import PolicyCatalog
    from simcards.core.variant import Variant


@dataclass(frozen=True)
class Column:
    """One integer column of a record, documented."""

    name: str
    help: str


@dataclass(frozen=True)
class Unit:
    """What one record is: a ``deal``, a ``game``, a ``tournament``..."""

    name: str
    plural: str  # CLI count option: --deals, --games ...
    columns: tuple[Column, ...]
    help: str
    chunk_size: int = 20_000  # records per chunk: about a second of work
    # variant fields that choose what one record of this unit plays (which deal a `deal` is:
    # Kierki's deal_type, Contract Rummy's contract); the other units play every choice, so
    # a shortcut to one of these fields is refused with them rather than silently ignored
    focus: tuple[str, ...] = ()
    # (metric, group) that `simcards sweep` optimises unless told otherwise (None: it asks)
    objective: tuple[str, str] | None = None

    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]


@dataclass(frozen=True)
class OddsRequest:
    """What a player knows when asking "what should I bid?" (built by the CLI or the API).

    Games read the fields they need and refuse, with one line, those they cannot use.
    """

    hand: tuple[int, ...] = ()  # the asking seat's known cards (parsed, no duplicates)
    seat: int | None = None  # the asking seat
    dealer: int | None = None
    bids: Mapping[int, str] = field(default_factory=dict)  # earlier bids in the auction, by seat
    scores: tuple[int, ...] = ()  # scores before this deal (per team or player)
    constraints: tuple[str, ...] = ()  # knowledge of hidden hands (see simcards.core.deal)
    accept: str | None = None  # user accept function, "file.py:name"
    options: Mapping[str, Any] = field(default_factory=dict)  # game-specific (e.g. {"deal": 3})


@dataclass(frozen=True)
class OddsSupport:
    """A game's answer to one "odds" command (``bid``, ``trump`` or ``odds``).

    - ``prepare(variant, request) -> query``: validate and parse into plain, picklable data.
    - ``simulate(query, variant, table, seed, start, count) -> int64 array``: records of
      deals ``start..`` dealt around the known cards, each option played out (same deals
      for every option: common random numbers).
    - ``tally(query, records_df, variant)``: additive tally rows; group = the option.
    - ``present(query, summary, variant) -> DataFrame``: one row per option as shown to
      the user, best first or with a ``recommended`` column.
    - ``figure(query, summary, variant) -> Figure``: e.g. the distribution of tricks with
      the bid marked.
    """

    command: str
    help: str
    prepare: Callable
    simulate: Callable
    columns: tuple[Column, ...]
    tally: Callable
    present: Callable
    figure: Callable
    batch: int = 2000  # deals per batch of the sequential loop
    parse_hand: Callable | None = None  # text -> card numbers, for games whose notation differs (None: core)


@dataclass(frozen=True)
class DoubleDummySupport:
    """A game's double-dummy analysis (docs/double-dummy.md); the solver is ``core.dd``.

    - ``analyse(variant, table, *, seed, index, hands) -> str``: the text of ``simcards dd``:
      the table of tricks by seat on lead and, for a simulated deal (``seed``, ``index``),
      what each card of the bots' play cost; ``hands``: the deal given as text instead.
    - ``replay(unit, variant, table, seed, index) -> str``: the replay of a record with every
      card that cost its side a trick marked.
    - ``records(unit, variant, table, seed, start, count) -> int64 [count, len(columns)]``: the
      double-dummy columns ``run --records dd`` adds to the records of ``units``;
      ``tally(unit, records_df, variant)``: their metrics (additive tally rows).
    - ``deal(variant, table, seed, index) -> dict``: deal ``index`` as the bots played it
      (``hands`` at the start of play, ``dealer``, ``leader``, ``cards``, ``winners``): the deals
      written as PBN (``replay --format pbn``, ``run --pbn``; ``core.pbn``).
    - ``play(variant, table, seed, hands, title, dd=False, from_trick=1) -> str``: the replay of
      the bots bidding and playing a given deal (``hands``: cards per seat, 0 where unknown and
      dealt from ``seed``; ``replay --pbn``), with ``dd`` the costly cards marked.
    """

    analyse: Callable
    replay: Callable
    units: tuple[str, ...] = ()
    columns: tuple[Column, ...] = ()
    records: Callable | None = None
    tally: Callable | None = None
    deal: Callable | None = None
    play: Callable | None = None


@dataclass(frozen=True)
class Game:
    """Everything the rest of simcards needs to know about one game.

    Callables (all receive the unit name and the validated Variant):

    - ``seats(variant) -> int``: seats at the table (policies are given per seat).
    - ``simulate(unit, variant, table, seed, start, count) -> int64 array [count, ncols]``:
      records ``start .. start+count-1`` of ``seed``; ``table`` is ``{decision: funcs}``
      from ``policies.table``. Must release the GIL (numba ``nogil=True``).
    - ``tally(unit, records_df, variant) -> DataFrame`` of ``metric, group, kind, n,
      sum, sumsq`` rows, additive over chunks (see ``simcards.core.stats``).
    - ``figures(unit, summary_df, variant) -> {name: matplotlib Figure}``.
    - ``replay(unit, variant, table, seed, index) -> str``: one record, for a person.
    """

    name: str
    title: str
    description: str
    variant_type: type[Variant]
    presets: Mapping[str, Mapping[str, Any]]
    units: tuple[Unit, ...]
    policies: PolicyCatalog
    seats: Callable[[Variant], int]
    simulate: Callable
    tally: Callable
    figures: Callable
    replay: Callable
    aliases: tuple[str, ...] = ()
    # CLI option -> variant field (``{"players": "num_players"}``: ``--players 3`` is ``--set num_players=3``);
    # the CLI derives its options from these and the units' plurals (simcards.describe.command_options)
    shortcuts: Mapping[str, str] = field(default_factory=dict)
    default_policy: str = "basic"
    odds: Mapping[str, OddsSupport] = field(default_factory=dict)  # command -> support
    double_dummy: DoubleDummySupport | None = None  # `simcards dd`, `replay --dd` (docs/double-dummy.md)
    # the sides of the table: ``sides(variant) -> ((0, 2), (1, 3))`` for partnerships (None: every
    # seat for itself); `simcards sweep` gives the swept policy to seat 0's side by default
    sides: Callable | None = None

    def __post_init__(self) -> None:
        plurals = {u.plural for u in self.units}
        for option in self.shortcuts:
            if option in plurals or option in {u.name for u in self.units}:
                raise SimcardsError(f"game {self.name}: shortcut --{option} is also the count or record option of a unit")

    def shortcut_unit(self, option: str) -> str | None:
        """The unit a shortcut's field is the focus of (None: every unit reads it)."""
        field_name = self.shortcuts[option]
        return next((u.name for u in self.units if field_name in u.focus), None)

    def odds_support(self, command: str) -> OddsSupport:
        if command not in self.odds:
            offered = ", ".join(f"`simcards {c} {self.name}`" for c in self.odds) or "none yet"
            raise SimcardsError(f"{self.name} has no `{command}` command (it offers: {offered})")
        return self.odds[command]

    def unit(self, name: str | None) -> Unit:
        if name is None:
            return self.units[0]
        for u in self.units:
            if u.name == name:
                return u
        raise SimcardsError(
            f"{self.name} has no unit {name!r} (units: {', '.join(u.name for u in self.units)})"
        )

    def variant(self, preset: str | None = None, settings: Mapping[str, Any] | None = None,
                pairs: list[str] | tuple[str, ...] = ()) -> Variant:
        """A validated variant: preset, then ``settings``, then ``name=value`` pairs."""
        base: dict[str, Any] = {}
        if preset:
            if preset not in self.presets:
                raise SimcardsError(
                    f"unknown {self.name} preset {preset!r} (presets: {', '.join(self.presets)})"
                )
            base.update(self.presets[preset])
        base.update(settings or {})
        return self.variant_type.from_pairs(pairs, base=base)


# name -> module exposing GAME; imported lazily so `simcards games` stays fast
_GAME_MODULES = {
    "spades": "simcards.games.spades",
    "cutthroat": "simcards.games.cutthroat",
    "seep": "simcards.games.seep",
    "contract-rummy": "simcards.games.contract_rummy",
    "kierki": "simcards.games.kierki",
}
_BUILTIN_MODULES = dict(_GAME_MODULES)
_ALIASES = {
    "cutthroat-spades": "cutthroat",
    "contract_rummy": "contract-rummy",
    "rummy": "contract-rummy",
    "partnership-spades": "spades",
}


def _games_from_environment() -> None:
    """Games named in ``SIMCARDS_GAMES="name=module,..."`` (plug-ins; Dask workers inherit it)."""
    import os

    for item in os.environ.get("SIMCARDS_GAMES", "").split(","):
        name, sep, module = item.partition("=")
        if sep and name.strip() and module.strip():
            _GAME_MODULES[name.strip()] = module.strip()


def register_game(name: str, module: str) -> None:
    """Make the module ``module`` (which exposes ``GAME``) available as game ``name``.

    For games outside this package (and for the runner's own tests).
    """
    _GAME_MODULES[name] = module


_games_from_environment()


def game_names() -> list[str]:
    """Names of the games whose package is present."""
    names = []
    for name, module in _GAME_MODULES.items():
        if _installed(module):
            names.append(name)
    return names


def builtin_game_names() -> list[str]:
    """The games of this package (not plug-ins, nor a plug-in that replaced one of them)."""
    return [n for n in game_names() if _GAME_MODULES[n] == _BUILTIN_MODULES.get(n)]


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def get_game(name: str) -> Game:
    """The Game called ``name`` (or an alias), or a one-line SimcardsError."""
    key = _ALIASES.get(name.strip().lower(), name.strip().lower())
    if key not in _GAME_MODULES or not _installed(_GAME_MODULES[key]):
        raise SimcardsError(f"unknown game {name!r} (games: {', '.join(game_names())})")
    module = importlib.import_module(_GAME_MODULES[key])
    if not hasattr(module, "GAME"):
        raise SimcardsError(f"game package {_GAME_MODULES[key]} is incomplete (it defines no GAME)")
    return module.GAME
