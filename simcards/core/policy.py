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
"""
from __future__ import annotations

import importlib.util
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numba as nb

from simcards.core.errors import SimcardsError

warnings.filterwarnings("ignore", message="First-class function type feature is experimental")


@dataclass(frozen=True)
class Decision:
    """One kind of decision a policy makes, with the numba signature of its function."""

    name: str
    signature: Any
    help: str


@dataclass
class Policy:
    """A named set of decision functions (Python or compiled).

    ``Policy("cautious", bid=my_bid, base=basic)`` takes ``play`` from ``basic``.
    """

    name: str = ""
    base: "Policy | None" = None
    functions: dict = field(default_factory=dict)

    def __init__(self, name: str = "", *, base: "Policy | None" = None, **functions: Callable):
        self.name = name
        self.base = base
        self.functions = dict(functions)

    def function(self, decision: str):
        if decision in self.functions:
            return self.functions[decision]
        if self.base is not None:
            return self.base.function(decision)
        return None


def compile_decision(func: Callable, decision: Decision, owner: str):
    """Compile ``func`` for ``decision``'s signature, or raise a one-line SimcardsError."""
    if isinstance(func, nb.core.registry.CPUDispatcher):
        if any(sig == decision.signature.args for sig in func.signatures):
            return func
        func = func.py_func
    if not callable(func):
        raise SimcardsError(f"policy {owner}: {decision.name} is not a function")
    try:
        return nb.njit(decision.signature, cache=True, nogil=True)(func)
    except Exception as exc:  # numba typing/lowering errors are long; keep the first line
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise SimcardsError(
            f"policy {owner}: its {decision.name} function does not compile for "
            f"{decision.name}{decision.signature}: {first}"
        ) from None


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
    return ":" in spec and spec.rpartition(":")[0].endswith(".py")


class PolicyCatalog:
    """A game's decisions and built-in policies; resolves names to compiled tables."""

    def __init__(self, game: str, decisions: Sequence[Decision], builtins: Mapping[str, Policy], max_seats: int):
        self.game = game
        self.decisions = tuple(decisions)
        self.builtins = dict(builtins)
        self.max_seats = max_seats
        self._compiled: dict[str, tuple] = {}

    def names(self) -> list[str]:
        return list(self.builtins)

    def compiled(self, spec: str) -> tuple:
        """One compiled function per decision for a policy name or ``file.py:name``."""
        if spec in self._compiled:
            return self._compiled[spec]
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
        funcs = []
        for d in self.decisions:
            f = policy.function(d.name)
            if f is None:
                raise SimcardsError(f"policy {spec} has no {d.name} function and no base policy to take it from")
            funcs.append(compile_decision(f, d, spec))
        self._compiled[spec] = tuple(funcs)
        return self._compiled[spec]

    def table(self, seat_specs: Sequence[str]) -> dict[str, tuple]:
        """``{decision: (f_seat0, ..., f_seat{max_seats-1})}``, padded with the last seat's."""
        if not seat_specs:
            raise SimcardsError("no policy given")
        compiled = [self.compiled(s) for s in seat_specs]
        while len(compiled) < self.max_seats:
            compiled.append(compiled[-1])
        return {d.name: tuple(c[i] for c in compiled) for i, d in enumerate(self.decisions)}


def seat_policies(default: str, overrides: Mapping[int, str] | None, n_seats: int) -> list[str]:
    """Per-seat policy names from a default and ``{seat: name}`` overrides."""
    specs = [default] * n_seats
    for seat, name in (overrides or {}).items():
        if not 0 <= int(seat) < n_seats:
            raise SimcardsError(f"seat {seat} does not exist (seats are 0..{n_seats - 1})")
        specs[int(seat)] = name
    return specs
