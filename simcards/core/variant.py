"""House-rule variants: frozen dataclasses with validated, documented parameters.

A game declares its variant as a subclass of :class:`Variant` whose fields are made
with :func:`param`, named and defaulted exactly as in the rules (``docs/games/<game>.md``, which follows them)::

    @dataclass(frozen=True)
    class SpadesVariant(Variant):
        bag_limit: int = param(10, min=1, help="Counter value that triggers a penalty.")
        bag_mode: str = param("accumulate", choices=("accumulate", "per_bag", "none"), help=...)

The base class parses ``name=value`` strings (CLI ``--set``), plain mappings (TOML,
Python API), validates every value with a one-line error, and packs the variant into
a one-row numpy structured array (``to_params``) that compiled kernels read by field
name (``params[0].bag_limit``). Enums become their index in ``choices``, booleans
0/1, ``None`` becomes ``NULL``, card lists become bitmasks, ``random`` seats -1;
lists (``kind="codes"`` of choices, ``kind="ints"``) become a fixed-length subarray
(``count`` long, padded with -1; codes as their index in ``choices``) plus a
``<name>_len`` field.

Kernels compare enum parameters with named constants, never bare indices:
:meth:`Variant.choice_enum` (or :func:`choice_enums` for all of them) makes an ``IntEnum``
per enum field from its ``choices`` (``BAG_MODE.PER_BAG == 1``), which numba compiles as
constants (and caches). A parameter whose default depends on others (``None`` meaning
"derived", e.g. Cutthroat's per-form thresholds) is resolved once, generically: the
subclass returns the resolved values from :meth:`Variant.derived`, and ``to_params``
packs them in place of ``NULL``.
"""
from __future__ import annotations

import dataclasses
import enum
import functools
import re
from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable, Mapping

import numpy as np

from simcards.core.cards import format_card, mask_of, parse_cards
from simcards.core.errors import SimcardsError

NULL = -(2**62)  # packed value of a parameter set to null/None
RANDOM_SEAT = -1  # packed value of a seat parameter set to "random"

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}
_NULL = {"null", "none", ""}


@dataclass(frozen=True)
class ParamSpec:
    """What a parameter accepts; kept in the dataclass field's metadata."""

    kind: str  # int, bool, enum, cards, seat, float
    help: str
    choices: tuple = ()
    min: float | None = None
    max: float | None = None
    nullable: bool = False
    count: int | None = None  # cards: exact number of cards, if fixed; codes/ints: max length
    seats: int | None = None  # seat: number of seats (0..seats-1 or "random")
    values: tuple = ()  # int: the only allowed values, when they are not a whole range (e.g. 0 or 2)

    def allowed(self) -> str:
        """Human-readable description of the allowed values."""
        if self.kind == "bool":
            text = "true/false"
        elif self.kind == "enum":
            text = ", ".join(self.choices)
        elif self.kind == "cards":
            text = f"{self.count} distinct cards" if self.count is not None else "a list of cards"
            if self.choices:
                text += " from " + " ".join(self.choices)
        elif self.kind in ("codes", "ints"):
            what = ", ".join(self.choices) if self.kind == "codes" else "integers"
            text = f"a list of {what}"
            if self.kind == "ints" and (self.min is not None or self.max is not None):
                text += f" in {self.min:g}..{self.max:g}" if self.min is not None and self.max is not None else ""
            if self.count:
                text += f" (at most {self.count})"
        elif self.kind == "seat":
            text = f"random or a seat 0..{self.seats - 1}" if self.seats else "random or a seat"
        elif self.values:
            text = ", ".join(str(v) for v in self.values[:-1]) + f" or {self.values[-1]}"
        else:
            lo = "" if self.min is None else f">= {self.min:g}"
            hi = "" if self.max is None else f"<= {self.max:g}"
            text = " and ".join(t for t in (lo, hi) if t) or "any integer"
            if self.kind == "float":
                text = text.replace("integer", "number")
        if self.nullable:
            text = "null or " + text
        return text


def param(default: Any, *, help: str, choices: Iterable[str] = (), min: float | None = None,
          max: float | None = None, nullable: bool = False, kind: str | None = None,
          count: int | None = None, seats: int | None = None, values: Iterable[int] = ()) -> Any:
    """Declare one house-rule parameter (see module docstring)."""
    choices = tuple(choices)
    if kind is None:
        if choices:
            kind = "enum"
        elif isinstance(default, bool):
            kind = "bool"
        elif isinstance(default, float):
            kind = "float"
        else:
            kind = "int"
    if kind in ("cards", "codes", "ints") and isinstance(default, (list, tuple)):
        default = tuple(default)
    spec = ParamSpec(kind=kind, help=help, choices=choices, min=min, max=max,
                     nullable=nullable, count=count, seats=seats, values=tuple(values))
    return field(default=default, metadata={"param": spec})


@dataclass(frozen=True)
class Variant:
    """Base of every game's house-rule set. Subclasses add fields made with ``param``."""

    game_name: ClassVar[str] = "game"

    def __post_init__(self) -> None:
        fields = dataclasses.fields(self)
        # seats last: a seat parameter counts the seats of this table (``num_players``, when the
        # game has one), so `first_dealer=N` and `first_dealer=4` at three seats say the same thing
        for f in sorted(fields, key=lambda f: _spec(f).kind == "seat"):
            spec = _spec(f)
            if spec.kind == "seat" and isinstance(getattr(self, "num_players", None), int):
                spec = dataclasses.replace(spec, seats=min(spec.seats or self.num_players, self.num_players))
            object.__setattr__(self, f.name, _coerce(self.game_name, f.name, spec, getattr(self, f.name)))
        self.check()

    # ----- hooks for subclasses
    def check(self) -> None:
        """Cross-parameter rules; raise SimcardsError with one line. Default: none."""

    def derived(self) -> dict[str, Any]:
        """Resolved values of parameters left ``None`` whose default depends on others
        (packed by ``to_params`` instead of ``NULL``). Default: none."""
        return {}

    # ----- construction
    @classmethod
    def choice_enum(cls, name: str) -> type[enum.IntEnum]:
        """``IntEnum`` of parameter ``name``'s choices, valued as packed (see module doc)."""
        return choice_enums(cls)[name]

    @classmethod
    def param_specs(cls) -> dict[str, ParamSpec]:
        return {f.name: _spec(f) for f in dataclasses.fields(cls)}

    @classmethod
    def defaults(cls) -> dict[str, Any]:
        return {f.name: f.default for f in dataclasses.fields(cls)}

    @classmethod
    def from_mapping(cls, settings: Mapping[str, Any] | None = None):
        """Build from ``{name: value}``; values may be native or strings."""
        settings = dict(settings or {})
        specs = cls.param_specs()
        for name in settings:
            if name not in specs:
                raise SimcardsError(_unknown(cls.game_name, name, specs))
        return cls(**settings)

    @classmethod
    def from_pairs(cls, pairs: Iterable[str], base: Mapping[str, Any] | None = None):
        """Build from ``["bag_limit=5", ...]`` on top of ``base`` settings."""
        settings = dict(base or {})
        for pair in pairs:
            name, value = parse_pair(pair)
            settings[name] = value
        return cls.from_mapping(settings)

    def replace(self, **changes):
        return dataclasses.replace(self, **changes)

    # ----- output
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-friendly settings (card lists as strings)."""
        out = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            out[f.name] = list(v) if isinstance(v, tuple) else v
        return out

    def changed(self) -> dict[str, Any]:
        """Only the settings that differ from the defaults."""
        d = type(self)().to_dict()
        return {k: v for k, v in self.to_dict().items() if d[k] != v}

    @classmethod
    def params_dtype(cls) -> np.dtype:
        fields = []
        for f in dataclasses.fields(cls):
            spec = _spec(f)
            if spec.kind in ("codes", "ints"):
                fields.append((f.name, np.int64, (spec.count or 16,)))
                fields.append((f.name + "_len", np.int64))
            else:
                fields.append((f.name, np.float64 if spec.kind == "float" else np.int64))
        return np.dtype(fields)

    def to_params(self) -> np.ndarray:
        """One-row structured array for compiled kernels (read ``params[0].name``)."""
        row = np.zeros(1, dtype=self.params_dtype())
        derived = self.derived()
        for f in dataclasses.fields(self):
            spec, value = _spec(f), getattr(self, f.name)
            if value is None and f.name in derived:
                value = derived[f.name]
            if spec.kind in ("codes", "ints"):
                packed = [spec.choices.index(v) for v in value] if spec.kind == "codes" else list(value)
                row[0][f.name][:] = -1
                row[0][f.name][: len(packed)] = packed
                row[0][f.name + "_len"] = len(packed)
            else:
                row[0][f.name] = _pack(spec, value)
        return row


def constant_name(choice: str) -> str:
    """Python name of a choice: ``per_bag`` -> ``PER_BAG``, ``7`` -> ``N7``."""
    name = re.sub(r"\W", "_", str(choice)).upper()
    return "N" + name if name[:1].isdigit() or not name else name


@functools.lru_cache(maxsize=None)
def choice_enums(variant_type: type) -> dict[str, type[enum.IntEnum]]:
    """One ``IntEnum`` per enum (and ``codes``) parameter of ``variant_type``, named after
    the parameter in capitals, members named by :func:`constant_name`, valued by their
    index in ``choices`` (the packed value). Module-level globals of these compile to
    constants in numba kernels: ``if p.bag_mode == BAG_MODE.PER_BAG``."""
    out = {}
    for f in dataclasses.fields(variant_type):
        spec = _spec(f)
        if spec.kind in ("enum", "codes") and spec.choices:
            members = {constant_name(c): i for i, c in enumerate(spec.choices)}
            out[f.name] = enum.IntEnum(f.name.upper(), members, module=variant_type.__module__)
    return out


def parse_pair(pair: str) -> tuple[str, str]:
    """Split ``name=value``; one-line error otherwise."""
    if "=" not in pair:
        raise SimcardsError(f"expected name=value, got {pair!r}")
    name, value = pair.split("=", 1)
    name = name.strip().replace("-", "_")
    if not name:
        raise SimcardsError(f"expected name=value, got {pair!r}")
    return name, value.strip()


def _spec(f) -> ParamSpec:
    return f.metadata["param"]


def _unknown(game: str, name: str, specs: Mapping[str, ParamSpec]) -> str:
    import difflib

    close = difflib.get_close_matches(name, list(specs), n=1)
    hint = f" (did you mean {close[0]}?)" if close else f" (see `simcards rules {game}`)"
    return f"unknown {game} parameter {name!r}{hint}"


def _coerce(game: str, name: str, spec: ParamSpec, value: Any) -> Any:
    """Turn a native or string value into the canonical one, or raise one line."""
    where = f"{game} parameter {name}"
    if (isinstance(value, str) and value.strip().lower() in _NULL and spec.kind != "cards"
            and value.strip() not in spec.choices):  # an enum may have a choice called "none"
        value = None
    if value is None:
        if spec.nullable:
            return None
        raise SimcardsError(f"{where} may not be null (allowed: {spec.allowed()})")
    if spec.kind == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, (int, np.integer)) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        raise SimcardsError(f"{where} must be true or false, got {value!r}")
    if spec.kind == "enum":
        text = str(value).strip()
        if text not in spec.choices:
            raise SimcardsError(f"{where} must be one of {', '.join(spec.choices)}; got {value!r}")
        return text
    if spec.kind == "cards":
        if isinstance(value, str):
            text = value.strip().strip("[]{}()")
            cards = parse_cards(text) if text else []
        else:
            cards = parse_cards(" ".join(str(v) for v in value))
        if spec.count is not None and len(cards) != spec.count:
            raise SimcardsError(f"{where} needs {spec.count} cards, got {len(cards)}")
        names = tuple(format_card(c) for c in cards)
        if spec.choices:
            bad = [n for n in names if n not in spec.choices]
            if bad:
                raise SimcardsError(f"{where}: {bad[0]} is not allowed (allowed: {' '.join(spec.choices)})")
        return names
    if spec.kind in ("codes", "ints"):
        items = _as_list(value)
        if spec.count is not None and len(items) > spec.count:
            raise SimcardsError(f"{where} takes at most {spec.count} items, got {len(items)}")
        if spec.kind == "codes":
            for item in items:
                if item not in spec.choices:
                    raise SimcardsError(f"{where}: {item!r} is not one of {', '.join(spec.choices)}")
            return tuple(items)
        numbers = tuple(_as_int(where, item) for item in items)
        for n in numbers:
            if (spec.min is not None and n < spec.min) or (spec.max is not None and n > spec.max):
                raise SimcardsError(f"{where}: {n} is out of range (allowed: {spec.allowed()})")
        return numbers
    if spec.kind == "seat":
        if isinstance(value, str) and value.strip().lower() == "random":
            return "random"
        try:
            number = _as_int(where, value)
        except SimcardsError:
            number = None
        if number is None or (spec.seats is not None and not 0 <= number < spec.seats):
            raise SimcardsError(f"{where} must be {spec.allowed()}; got {value!r}")
        return number
    try:
        number = _as_float(where, value) if spec.kind == "float" else _as_int(where, value)
    except SimcardsError:  # the same message as a number out of range: what is allowed
        raise SimcardsError(f"{where} must be {spec.allowed()}; got {value!r}") from None
    if spec.min is not None and number < spec.min:
        raise SimcardsError(f"{where} must be {spec.allowed()}; got {value!r}")
    if spec.max is not None and number > spec.max:
        raise SimcardsError(f"{where} must be {spec.allowed()}; got {value!r}")
    if spec.values and number not in spec.values:
        raise SimcardsError(f"{where} must be {spec.allowed()}; got {value!r}")
    return number


def _as_list(value: Any) -> list:
    if isinstance(value, str):
        text = value.strip().strip("[]{}()")
        return [t.strip().strip("'\"") for t in text.replace(",", " ").split() if t.strip()]
    return list(value)


def _as_int(where: str, value: Any) -> int:
    if isinstance(value, bool):
        raise SimcardsError(f"{where} must be an integer, got {value!r}")
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    try:
        return int(str(value).strip())
    except ValueError:
        raise SimcardsError(f"{where} must be an integer, got {value!r}") from None


def _as_float(where: str, value: Any) -> float:
    if isinstance(value, bool):
        raise SimcardsError(f"{where} must be a number, got {value!r}")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise SimcardsError(f"{where} must be a number, got {value!r}") from None


def _pack(spec: ParamSpec, value: Any):
    if value is None:
        return NULL
    if spec.kind == "bool":
        return int(value)
    if spec.kind == "enum":
        return spec.choices.index(value)
    if spec.kind == "cards":
        from simcards.core.cards import parse_card

        return mask_of(parse_card(c) for c in value)
    if spec.kind == "seat":
        return RANDOM_SEAT if value == "random" else int(value)
    return value
