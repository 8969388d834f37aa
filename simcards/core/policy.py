"""Pluggable, compiled decision policies.

A game declares its *decisions* (``bid``, ``play``, ...), each with one numba
signature. A :class:`Policy` is a name plus one compiled function per decision.
Kernels receive, for each decision, a tuple of ``max_seats`` first-class functions
(one per seat) and call ``funcs[seat](...)``; because the tuple's type depends only
on the signature, one cached kernel serves built-in and user policies alike.

User policies live in the user's own file and are named ``path.py:name``. ``name``
is a :class:`Policy` (missing decisions come from its ``base``), or a plain
function when the game has a single decision kind. Plain Python functions are
compiled here with the decision's signature, so users never write numba types.

A policy may declare *parameters* (:class:`PolicyParam`): ``expert:nil_threshold=0.6``
or ``greedy_deep:theta=8:hold=2`` (``name=value`` items after the policy name, each
after a ``:``). The values do not change the compiled functions: the table carries them
as fixed-point integers (``PolicyTable.params``, one row per seat), the kernel copies the
seat's row into the ``params`` slots of the policy view, and the policy reads them with
:func:`param_value`. So one cached kernel serves every value of a sweep.
"""
from __future__ import annotations

import importlib.util
import inspect
import math
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numba as nb
from numba import types
from numba.core.extending import intrinsic

from simcards.core.errors import POLICY_FAULT, SimcardsError
from simcards.core.jit import inline

warnings.filterwarnings("ignore", message="First-class function type feature is experimental")


@dataclass(frozen=True)
class Decision:
    """One kind of decision a policy makes, with the numba signature of its function."""

    name: str
    signature: Any
    help: str


PARAM_SLOTS = 8  # parameters a policy may declare (the view's ``params`` slots)
PARAM_SCALE = 1_000_000  # fixed point: a value v travels as round(v * PARAM_SCALE)


@inline(nb.float64(nb.int64[:], nb.int64))
def param_value(view, at):
    """The policy parameter stored at ``view[at]`` (fixed point) as a float."""
    return view[at] / PARAM_SCALE


@inline
def seat_params(view, at, seats, seat):
    """Copy ``seat``'s parameters into ``view[at:at + PARAM_SLOTS]`` before its policy is
    called (``seats``: a kernel's bundle with ``params`` and ``shared``; with ``shared`` every
    seat has the same values and :func:`shared_params` loaded them once)."""
    if not seats.shared:
        for k in range(PARAM_SLOTS):
            view[at + k] = seats.params[seat, k]


@inline
def shared_params(view, at, seats):
    """Load the parameters once (after the view is reset) when every seat has the same."""
    if seats.shared:
        for k in range(PARAM_SLOTS):
            view[at + k] = seats.params[0, k]


def with_defaults(params, **defaults):
    """``params`` (PolicyParams) with other defaults: the same names, order and ranges, so a
    policy built on another reads its slots alike (a name not among them is an error)."""
    from dataclasses import replace

    unknown = sorted(set(defaults) - {p.name for p in params})
    if unknown:
        raise ValueError(f"no parameter {unknown[0]!r} to give a default")
    return tuple(replace(p, default=defaults.get(p.name, p.default)) for p in params)


@dataclass(frozen=True)
class PolicyParam:
    """A parameter of a policy: default, allowed range (inclusive) and help.

    ``integer=True`` refuses fractional values. Values travel to compiled code as fixed
    point with six decimals (:data:`PARAM_SCALE`); finer values are refused.
    """

    name: str
    default: float
    low: float
    high: float
    help: str
    integer: bool = False

    def __post_init__(self) -> None:
        if not self.low <= self.default <= self.high:
            raise ValueError(f"parameter {self.name}: default {self.default} outside {self.low}..{self.high}")

    def parse(self, text: str, owner: str) -> float | int:
        """The value of ``text`` for this parameter, or a one-line SimcardsError."""
        where = f"policy {owner}: parameter {self.name}"
        try:
            value = float(text)
        except (TypeError, ValueError):
            raise SimcardsError(f"{where} must be a number in {self.range_text()}, got {text!r}") from None
        if not math.isfinite(value):
            raise SimcardsError(f"{where} must be a number in {self.range_text()}, got {text!r}")
        if self.integer:
            if value != int(value):
                raise SimcardsError(f"{where} is a whole number in {self.range_text()}, got {text!r}")
            value = int(value)
        if not self.low <= value <= self.high:
            raise SimcardsError(f"{where} must be in {self.range_text()}, got {text}")
        if abs(value * PARAM_SCALE - round(value * PARAM_SCALE)) > 1e-6:
            raise SimcardsError(f"{where}: at most six decimals, got {text}")
        return value

    def fixed(self, value: float) -> int:
        return int(round(value * PARAM_SCALE))

    def format(self, value: float) -> str:
        if self.integer:
            return str(int(value))
        return f"{float(value):.6f}".rstrip("0").rstrip(".") or "0"

    def range_text(self) -> str:
        return f"{self.format(self.low)}..{self.format(self.high)}"


@dataclass
class Policy:
    """A named set of decision functions (Python or compiled), with optional parameters.

    ``Policy("cautious", bid=my_bid, base=basic)`` takes ``play`` from ``basic``.
    ``params``: the :class:`PolicyParam` it reads (``param_value(view, V_PARAMS + k)`` for
    the k-th); without its own, a policy has its base's. ``help``: one line for
    ``simcards policies GAME``. ``searching``: it searches at its decisions (``pimc``), hundreds
    of times slower than the heuristics, so the golden digests pin it on a few records.
    ``ladder``: the parameters the ladder gives it when no policies are named (``NAME=VALUE``
    separated by colons: a search budget cheap enough for a default ladder of a few minutes).
    """

    name: str = ""
    base: "Policy | None" = None
    functions: dict = field(default_factory=dict)
    own_params: tuple = ()
    help: str = ""
    searching: bool = False
    ladder: str = ""

    def __init__(self, name: str = "", *, base: "Policy | None" = None, params: Sequence[PolicyParam] = (),
                 help: str = "", searching: bool = False, ladder: str = "", **functions: Callable):
        self.name = name
        self.searching = searching
        self.ladder = ladder
        self.base = base
        self.functions = dict(functions)
        self.own_params = tuple(params)
        self.help = help
        if len(self.own_params) > PARAM_SLOTS:
            raise ValueError(f"policy {name}: at most {PARAM_SLOTS} parameters")
        names = [p.name for p in self.own_params]
        if len(set(names)) != len(names):
            raise ValueError(f"policy {name}: parameter names repeat")

    def function(self, decision: str):
        if decision in self.functions:
            return self.functions[decision]
        if self.base is not None:
            return self.base.function(decision)
        return None

    @property
    def params(self) -> tuple:
        """The parameters this policy reads (its own, else its base's)."""
        if self.own_params or self.base is None:
            return self.own_params
        return self.base.params

    def defaults(self) -> dict:
        return {p.name: p.default for p in self.params}


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def compile_decision(func: Callable, decision: Decision, owner: str):
    """Compile ``func`` for ``decision``'s signature, or raise a one-line SimcardsError.

    Refused with one line: a non-function, a function with the wrong number of
    arguments, one that does not compile, one whose answer is not an integer.
    """
    if isinstance(func, nb.core.registry.CPUDispatcher):
        if hasattr(func, "ensure_compiled"):  # a built-in, compiled at first use (core/jit.py)
            func.ensure_compiled()
        if any(sig == decision.signature.args for sig in func.signatures):
            return func
        func = func.py_func
    if not callable(func):
        raise SimcardsError(f"policy {owner}: {decision.name} is not a function")
    nargs = len(decision.signature.args)
    try:
        params = inspect.signature(func).parameters.values()
        positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        if len(positional) != nargs and not any(p.kind == p.VAR_POSITIONAL for p in params):
            raise SimcardsError(
                f"policy {owner}: its {decision.name} function takes {len(positional)} arguments, but "
                f"{decision.name} is called with {nargs} ({decision.signature}); is it a policy for another game?"
            )
    except (TypeError, ValueError):  # no Python signature to read: let numba judge
        pass
    try:
        probe = nb.njit(nogil=True)(func)  # its own return type; not cached (it would share the cache entry)
        probe.compile(decision.signature.args)
        answer = probe.overloads[decision.signature.args].signature.return_type
    except Exception as exc:  # numba typing/lowering errors are long; keep the first line
        raise SimcardsError(
            f"policy {owner}: its {decision.name} function does not compile for "
            f"{decision.name}{decision.signature}: {_first_line(exc)}"
        ) from None
    if not isinstance(answer, (types.Integer, types.Boolean)):
        raise SimcardsError(
            f"policy {owner}: its {decision.name} function does not compile for {decision.name}"
            f"{decision.signature}: it returns {answer}, but a {decision.name} answer is an integer (return int(...))"
        )
    return nb.njit(decision.signature, cache=True, nogil=True)(func)


@intrinsic
def _int64_pointer(typingctx, address):
    """The address (an integer) as a pointer to int64: lets a guard write POLICY_FAULT."""
    sig = types.CPointer(types.int64)(address)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(signature.return_type))

    return sig, codegen


_GUARD_SOURCE = """
def guarded({args}):
    saved = {rng}[0]
    try:
        return inner({args})
    except Exception:
        pass
    fault = nb.carray(_int64_pointer(ADDRESS), 4)
    fault[1] = SEAT
    fault[2] = DECISION
    fault[0] = 1
    {rng}[0] = saved
    answer = inner({args})  # raises the user's own exception again, message intact
    fault[0] = 0
    return answer
"""


def guard_decision(func, decision: Decision, index: int, seat: int):
    """``func`` (a user's compiled decision function) wrapped for the error channel.

    The guard costs one load and store per call. When ``func`` raises, the guard notes
    ``seat`` and the decision on POLICY_FAULT (core/errors.py), restores the random
    stream (the last argument of every decision) and calls ``func`` again, so the
    user's exception reaches Python with its message; ``kernel_errors`` names who raised.
    Guards are closures over constants, so they are compiled per process (~0.2 s each).
    """
    nargs = len(decision.signature.args)
    names = [f"a{i}" for i in range(nargs)]
    namespace = {"inner": func, "nb": nb, "_int64_pointer": _int64_pointer,
                 "ADDRESS": POLICY_FAULT.ctypes.data, "SEAT": seat, "DECISION": index}
    exec(_GUARD_SOURCE.format(args=", ".join(names), rng=names[-1]), namespace)
    return nb.njit(decision.signature, nogil=True)(namespace["guarded"])


_OWN_PARAMS_SOURCE = """
def own_params(a0, {args}):
    v = a0.copy()
    for k in range(ROW.shape[0]):
        v[AT + k] = ROW[k]
    return inner(v, {args})
"""


class PolicyTable(dict):
    """``{decision: (f_seat0, ...)}`` as the kernels take it, plus ``specs`` (each seat's
    canonical policy spec) and ``params`` (``int64[max_seats, PARAM_SLOTS]``: each seat's
    parameter values in fixed point, in the order its policy declares them)."""

    def __init__(self, functions: Mapping[str, tuple], specs: Sequence[str], params):
        import numpy as np

        super().__init__(functions)
        self.specs = tuple(specs)
        self.bidding = None  # the policy of the non-card decisions, when not the seats' own (PolicyCatalog.table)
        # required: zeros in place of a built-in's defaults would silently change its play
        self.params = np.ascontiguousarray(params, dtype=np.int64)
        if self.params.shape != (len(self.specs), PARAM_SLOTS):
            raise ValueError(f"policy parameters of shape {self.params.shape}, not ({len(self.specs)}, {PARAM_SLOTS})")


def split_spec(spec: str) -> tuple[str, list[tuple[str, str]]]:
    """``"expert:nil_threshold=0.6:bid_shade=1"`` -> ``("expert", [("nil_threshold", "0.6"), ...])``.

    The policy name is a built-in name or ``file.py:name``; every later ``:`` item is
    ``name=value``. One-line SimcardsError on a malformed item.
    """
    parts = spec.strip().split(":")
    cut = 1
    for i, part in enumerate(parts[:-1]):
        if part.endswith(".py"):
            cut = i + 2
            break
    name, items = ":".join(parts[:cut]), parts[cut:]
    pairs = []
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise SimcardsError(f"policy {spec!r}: expected name=value after ':', got {item!r} "
                                f"(parameters: POLICY:NAME=VALUE:NAME=VALUE)")
        pairs.append((key.strip(), value.strip()))
    return name, pairs


def load_user_object(spec: str):
    """Import ``path.py:name`` and return the object, with one-line errors."""
    path_text, _, name = spec.rpartition(":")
    path = Path(path_text).expanduser()
    if not path.is_file():
        raise SimcardsError(f"policy file {path_text!r} not found (write a policy as file.py:name)")
    module_name = "simcards_user_" + "".join(c if c.isalnum() else "_" for c in str(path.resolve()))
    module = sys.modules.get(module_name)
    if module is None:
        try:
            loader_spec = importlib.util.spec_from_file_location(module_name, path)
            module = importlib.util.module_from_spec(loader_spec)
            sys.modules[module_name] = module
            loader_spec.loader.exec_module(module)
        except SimcardsError:
            sys.modules.pop(module_name, None)
            raise
        except Exception as exc:
            sys.modules.pop(module_name, None)
            raise SimcardsError(f"policy file {path_text!r} could not be loaded: {type(exc).__name__}: {exc}") from None
    if not hasattr(module, name):
        raise SimcardsError(f"policy file {path_text!r} has no {name!r}")
    return getattr(module, name)


def is_user_spec(spec: str) -> bool:
    """Whether ``spec`` names a policy in a user's file (``file.py:name[:param=value...]``)."""
    return ".py:" in split_spec(spec)[0]


def user_spec_file(spec: str) -> str:
    """The file of a user policy spec (``bots.py`` of ``bots.py:cautious:risk=2``)."""
    return split_spec(spec)[0].rpartition(":")[0]


class PolicyCatalog:
    """A game's decisions and built-in policies; resolves names to compiled tables."""

    def __init__(self, game: str, decisions: Sequence[Decision], builtins: Mapping[str, Policy], max_seats: int,
                 params_at: int | Mapping[str, int] | None = None, card_decisions: Sequence[str] = ("play",)):
        self.game = game
        self.decisions = tuple(decisions)
        self.builtins = dict(builtins)
        self.max_seats = max_seats
        # for tables whose non-card decisions another policy makes (:meth:`table`'s ``bidding``):
        # where the view's parameter slots start (one offset, or one per decision), and the
        # decisions that choose a card
        self.params_at = params_at
        self.card_decisions = tuple(d for d in card_decisions if d in {x.name for x in self.decisions})
        self._own_params: dict[tuple, Any] = {}
        self._compiled: dict[str, tuple] = {}
        self._user: dict[str, frozenset] = {}  # spec -> decisions whose function is the user's
        self._guards: dict[tuple, Any] = {}
        self._builtin_ids = None
        self._policies: dict[str, Policy] = {}

    def names(self) -> list[str]:
        return list(self.builtins)

    def ladder_specs(self) -> list[str]:
        """The ladder's default: every built-in, each at its :attr:`Policy.ladder` parameters."""
        return [f"{name}:{p.ladder}" if p.ladder else name for name, p in self.builtins.items()]

    def policy(self, spec: str) -> Policy:
        """The :class:`Policy` a spec names (parameters ignored; user files loaded)."""
        name, _ = split_spec(spec)
        self.compiled(name)
        return self._policies[name]

    def resolve(self, spec: str) -> tuple[str, str, dict]:
        """``(policy name, canonical spec, {parameter: value})`` of a spec, validated.

        The values are every parameter of the policy (defaults filled in); the canonical
        spec names those the user gave, in declaration order, formatted as declared.
        """
        name, pairs = split_spec(spec)
        policy = self.policy(name)
        declared = {p.name: p for p in policy.params}
        given: dict[str, Any] = {}
        for key, text in pairs:
            if key not in declared:
                offered = ", ".join(declared) if declared else "none"
                raise SimcardsError(f"policy {name} has no parameter {key!r} (its parameters: {offered}; "
                                    f"see `simcards policies {self.game}`)")
            if key in given:
                raise SimcardsError(f"policy {spec!r}: parameter {key} given twice")
            given[key] = declared[key].parse(text, name)
        values = {p.name: given.get(p.name, p.default) for p in policy.params}
        canonical = ":".join([name] + [f"{p.name}={p.format(given[p.name])}" for p in policy.params if p.name in given])
        return name, canonical, values

    def canonical(self, spec: str) -> str:
        """The spec as stored in meta.json (see :meth:`resolve`)."""
        return self.resolve(spec)[1]

    def param_row(self, spec: str):
        """``int64[PARAM_SLOTS]``: the spec's parameter values in fixed point."""
        import numpy as np

        name, _, values = self.resolve(spec)
        row = np.zeros(PARAM_SLOTS, np.int64)
        for k, p in enumerate(self._policies[name].params):
            row[k] = p.fixed(values[p.name])
        return row

    def compiled(self, spec: str) -> tuple:
        """One compiled function per decision for a policy name or ``file.py:name``
        (parameters, if any, do not change the functions)."""
        if spec in self._compiled:
            return self._compiled[spec]
        name, pairs = split_spec(spec)
        if pairs:
            return self.compiled(name)
        if spec in self.builtins:
            policy = self.builtins[spec]
        elif is_user_spec(spec):
            obj = load_user_object(spec)
            if isinstance(obj, Policy):
                policy = obj
            elif callable(obj) and len(self.decisions) == 1:
                policy = Policy(spec, **{self.decisions[0].name: obj})
            elif callable(obj):
                names = ", ".join(d.name for d in self.decisions)
                raise SimcardsError(
                    f"policy {spec}: {self.game} policies decide {names}; "
                    f"define simcards.Policy(..., base=<builtin>) with those functions"
                )
            else:
                raise SimcardsError(f"policy {spec} is not a simcards.Policy or a function")
        else:
            raise SimcardsError(
                f"unknown {self.game} policy {spec!r} (built-ins: {', '.join(self.builtins)}; "
                f"or a file as my_bots.py:name)"
            )
        if spec not in self.builtins:
            self._check_decisions(spec, policy)
        if self._builtin_ids is None:
            self._builtin_ids = {id(p.function(d.name)) for p in self.builtins.values() for d in self.decisions}
        funcs, user = [], set()
        for d in self.decisions:
            f = policy.function(d.name)
            if f is None:
                raise SimcardsError(f"policy {spec} has no {d.name} function and no base policy to take it from")
            if spec not in self.builtins and id(f) not in self._builtin_ids:
                user.add(d.name)
            funcs.append(compile_decision(f, d, spec))
        self._compiled[spec] = tuple(funcs)
        self._user[spec] = frozenset(user)
        self._policies[spec] = policy
        return self._compiled[spec]

    def _check_decisions(self, spec: str, policy: Policy) -> None:
        """Refuse a policy that defines a decision this game does not have (one line)."""
        known = {d.name for d in self.decisions}
        defined, p = [], policy
        while p is not None:
            defined += [name for name in p.functions if name not in defined]
            p = p.base
        unknown = [name for name in defined if name not in known]
        if unknown:
            raise SimcardsError(
                f"policy {spec} defines {', '.join(unknown)}, which {self.game} does not decide "
                f"({self.game} decisions: {', '.join(sorted(known, key=[d.name for d in self.decisions].index))}); "
                f"is it a policy for another game?"
            )

    def _seat_function(self, spec: str, index: int, seat: int):
        """The compiled function of ``spec`` for decision ``index`` at ``seat`` (user code guarded)."""
        spec = split_spec(spec)[0]
        d = self.decisions[index]
        f = self.compiled(spec)[index]
        if d.name not in self._user.get(spec, ()):
            return f
        key = (spec, index, seat)
        if key not in self._guards:
            self._guards[key] = guard_decision(f, d, index, seat)
        return self._guards[key]

    def table(self, seat_specs: Sequence[str], bidding: str | None = None) -> PolicyTable:
        """``{decision: (f_seat0, ..., f_seat{max_seats-1})}``, padded with the last seat's.

        A user's own decision functions are guarded per seat (``guard_decision``), so an
        exception they raise names the seat and the decision; built-ins run unwrapped.

        ``bidding``: one policy that makes every seat's decisions other than card play
        (:attr:`card_decisions`: bids, Blind Nil, the exchange, a misdeal call...), the seats'
        own policies playing the cards; a seat whose policy is ``bidding`` is unchanged. The
        seats' parameter rows stay the card policies'; a ``bidding`` function reads its own
        parameters from a copy of the view (:meth:`_with_own_params`).
        """
        import numpy as np

        if not seat_specs:
            raise SimcardsError("no policy given")
        specs = [self.canonical(s) for s in seat_specs]
        bidder = self.canonical(bidding) if bidding else None
        if bidder is not None and not self.card_decisions:
            raise SimcardsError(f"{self.game} has no card-play decision, so no policy can bid for another")
        padded = specs + [specs[-1]] * (self.max_seats - len(specs))
        rows = [self.param_row(s) for s in padded]
        functions = {}
        for i, d in enumerate(self.decisions):
            seats = []
            for seat, s in enumerate(specs):
                if bidder is None or bidder == s or d.name in self.card_decisions:
                    seats.append(self._seat_function(s, i, seat))
                else:
                    seats.append(self._with_own_params(bidder, i, seat, rows[seat]))
            functions[d.name] = tuple(seats + [seats[-1]] * (self.max_seats - len(seats)))  # padding: never asked
        table = PolicyTable(functions, padded, np.stack(rows))
        table.bidding = bidder
        return table

    def _with_own_params(self, spec: str, index: int, seat: int, seat_row):
        """``spec``'s function for decision ``index`` at ``seat``, where the seat's parameter
        row (``seat_row``, another policy's) is loaded: as it is when the rows are equal, else
        wrapped to call it on a copy of the view with ``spec``'s own parameters in the slots."""
        import numpy as np

        f = self._seat_function(spec, index, seat)
        row = self.param_row(spec)
        if np.array_equal(row, seat_row):
            return f
        d = self.decisions[index]
        at = self.params_at.get(d.name) if isinstance(self.params_at, Mapping) else self.params_at
        if at is None:
            raise SimcardsError(f"{self.game}: a policy with other parameters cannot bid for another here "
                                f"(its catalog names no parameter slots)")
        key = (spec, index, seat if self._user.get(split_spec(spec)[0]) else -1)
        if key not in self._own_params:
            names = [f"a{i}" for i in range(len(d.signature.args))]
            namespace = {"inner": f, "ROW": row.copy(), "AT": int(at)}
            exec(_OWN_PARAMS_SOURCE.format(args=", ".join(names[1:])), namespace)
            self._own_params[key] = nb.njit(d.signature, nogil=True)(namespace["own_params"])
        return self._own_params[key]

    def describe(self) -> list[dict]:
        """Every built-in policy with its help and parameters (for ``simcards policies``)."""
        out = []
        for name, p in self.builtins.items():
            text = p.help or (getattr(p, "doc", "") or "").strip()
            out.append({"name": name, "help": text.splitlines()[0] if text else "",
                        "base": p.base.name if p.base is not None else None,
                        "params": [{"name": q.name, "default": q.default, "low": q.low, "high": q.high,
                                    "integer": q.integer, "help": q.help} for q in p.params]})
        return out


def seat_policies(default: str, overrides: Mapping[int, str] | None, n_seats: int) -> list[str]:
    """Per-seat policy names from a default and ``{seat: name}`` overrides."""
    specs = [default] * n_seats
    for seat, name in (overrides or {}).items():
        if not 0 <= int(seat) < n_seats:
            raise SimcardsError(f"seat {seat} does not exist (seats are 0..{n_seats - 1})")
        specs[int(seat)] = name
    return specs


class Layout:
    """Named slots of a flat array (a policy's state view, a record or config row),
    declared once in order with their lengths; the offsets are generated.

    ``VIEW = Layout("spades view", seat=1, dealer=1, suits=4, ..., size=72)`` gives
    ``VIEW.offset["suits"]``, ``VIEW.length["suits"]`` and ``VIEW.size`` (at least the sum
    of the lengths; ``size`` pads it). ``VIEW.export(globals(), "V_", size="VIEW_LEN")``
    makes the module constants (``V_SUITS``, ``VIEW_LEN``) that kernels and policies index
    with; numba reads module ints as compile-time constants, so this costs nothing.
    """

    def __init__(self, name: str, size: int | None = None, **slots: int):
        self.name = name
        self.offset: dict[str, int] = {}
        self.length: dict[str, int] = {}
        at = 0
        for slot, n in slots.items():
            self.offset[slot] = at
            self.length[slot] = int(n)
            at += int(n)
        if size is not None and size < at:
            raise ValueError(f"{name}: {at} slots do not fit in size {size}")
        self.size = at if size is None else size

    def constants(self, prefix: str, size: str | None = None) -> dict[str, int]:
        """``{prefix + SLOT: offset}`` (plus ``{size: self.size}`` when named)."""
        out = {prefix + slot.upper(): at for slot, at in self.offset.items()}
        if size:
            out[size] = self.size
        return out

    def export(self, namespace: dict, prefix: str, size: str | None = None) -> None:
        """Put :meth:`constants` into a module's globals."""
        namespace.update(self.constants(prefix, size))

    def read(self, row) -> dict[str, Any]:
        """``{slot: value or list of values}`` of one array laid out like this."""
        out = {}
        for slot, at in self.offset.items():
            n = self.length[slot]
            out[slot] = row[at] if n == 1 else list(row[at:at + n])
        return out

    def describe(self) -> str:
        """One line per slot: offset, name, length (for docs and docstrings)."""
        return "\n".join(f"{at:4d}  {slot}" + (f"[{self.length[slot]}]" if self.length[slot] > 1 else "")
                         for slot, at in self.offset.items())

    def pack(self, variant, fields: Mapping[str, str], none: int | None = None):
        """``int64[size]``: at each slot of ``fields`` (``{slot: variant field}``) that field's value,
        packed as ``Variant.to_params`` packs it (booleans 0/1, an enum the index of its choice,
        a random seat -1); a value of None becomes ``none`` (default ``variant.NULL``). Other slots 0."""
        import numpy as np

        from simcards.core.variant import NULL, _pack

        specs = variant.param_specs()
        row = np.zeros(self.size, np.int64)
        for slot, name in fields.items():
            value = getattr(variant, name)
            row[self.offset[slot]] = (NULL if none is None else none) if value is None else _pack(specs[name], value)
        return row
