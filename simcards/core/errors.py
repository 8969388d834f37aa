"""Errors that reach the user as one clear line (exit status 2), and the kernels' error channel.

The error channel (docs/architecture.md, "Errors"): a kernel that meets an illegal policy
answer raises :class:`IllegalAnswer`, either with the fault as its arguments
``IllegalAnswer(decision, seat, value)`` (kernels compiled with numba's runtime) or with
none after writing ``(decision + 1, seat, value)`` into an error record the Python side
passed in (helpers compiled with ``_nrt=False``, which cannot raise with run-time values).
A user policy that raises is caught by its guard (``core/policy.py``), which notes seat
and decision on :data:`POLICY_FAULT` and lets the user's own exception through. Every
game runs its kernels inside :func:`kernel_errors`, the one place that turns all of these
into a :class:`SimcardsError` line such as::

    spades: seat 3 (policy bots.py:greedy): bid returned 15, which is not legal (bid: ...)
"""
from __future__ import annotations

import numbers
from contextlib import contextmanager
from typing import TYPE_CHECKING, Callable, Mapping

if TYPE_CHECKING:
    import numpy as np


class SimcardsError(Exception):
    """A user mistake: bad input, an unknown name, an unusable folder.

    The CLI prints ``error: <message>`` and exits with status 2, never a traceback.
    """


class IllegalAnswer(ValueError):
    """Raised inside a kernel: a policy answered something the rules do not allow.

    Arguments ``(decision index, seat, value)``, or none when the kernel wrote them into
    the error record given to :func:`kernel_errors` (see :func:`error_record`).
    """


def error_record() -> np.ndarray:
    """A zeroed error record ``[decision + 1, seat, value, spare]`` for ``_nrt=False`` kernels."""
    import numpy as np

    return np.zeros(4, np.int64)


def __getattr__(name: str):
    """``POLICY_FAULT``, made on first use: written only on the fault path of a guarded user
    policy, ``[1, seat, decision index, 0]``. Lazy so that the CLI's fast commands, which
    import :class:`SimcardsError` from here, do not import numpy."""
    if name == "POLICY_FAULT":
        import numpy as np

        fault = globals()["POLICY_FAULT"] = np.zeros(4, np.int64)
        return fault
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def take_policy_fault() -> tuple[int, int] | None:
    """(seat, decision index) of the user policy that raised last, clearing the note."""
    fault = globals().get("POLICY_FAULT")
    if fault is None or fault[0] == 0:
        return None
    seat, decision = int(fault[1]), int(fault[2])
    fault[:] = 0
    return seat, decision


def _who(table, seat: int) -> str:
    specs = getattr(table, "specs", None)
    if specs and 0 <= seat < len(specs):
        return f"seat {seat} (policy {specs[seat]})"
    return f"seat {seat}"


def illegal_answer_message(game: str, decisions, table, decision: int, seat: int, value: int,
                           formats: Mapping[str, Callable[[int], str]] | None = None) -> str:
    """The one line for an illegal answer: who, which decision, what it returned, what is legal."""
    d = decisions[decision] if 0 <= decision < len(decisions) else None
    name = d.name if d else f"decision {decision}"
    shown = str(value)
    if d and formats and d.name in formats:
        try:
            text = str(formats[d.name](value))
            shown = text if text == str(value) else f"{text} ({value})"
        except Exception:  # a value no formatter knows (e.g. 999): the number says it
            shown = str(value)
    hint = f" ({name}: {d.help})" if d and d.help else ""
    return f"{game}: {_who(table, seat)}: {name} returned {shown}, which is not legal{hint}"


@contextmanager
def kernel_errors(game: str, decisions, table, record: np.ndarray | None = None,
                  formats: Mapping[str, Callable[[int], str]] | None = None, where: str = ""):
    """Run a kernel call; turn its errors into one-line :class:`SimcardsError`.

    ``game``: the game's name; ``decisions``: its ``Decision`` list (the catalog's, whose
    order the kernels' decision indices follow); ``table``: the policy
    table given to the kernel (``PolicyCatalog.table``, which knows each seat's policy);
    ``record``: the error record passed to ``_nrt=False`` kernels; ``formats``: how to show
    a decision's value (e.g. a card); ``where``: appended, e.g. ``"seed 7, records 0..99"``.
    """
    tail = f" ({where})" if where else ""
    try:
        yield
    except SimcardsError:
        raise
    except IllegalAnswer as exc:
        args = exc.args
        if len(args) == 3 and all(isinstance(a, numbers.Integral) for a in args):
            decision, seat, value = (int(a) for a in args)
        elif record is not None and record[0] > 0:
            decision, seat, value = int(record[0]) - 1, int(record[1]), int(record[2])
        else:
            raise SimcardsError(f"{game}: a policy gave an illegal answer{tail}") from None
        raise SimcardsError(illegal_answer_message(game, decisions, table, decision, seat,
                                                   value, formats) + tail) from None
    except Exception as exc:
        fault = take_policy_fault()
        if fault is not None:
            seat, decision = fault
            name = decisions[decision].name if 0 <= decision < len(decisions) else "a"
            text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
            raise SimcardsError(f"{game}: {_who(table, seat)}: its {name} function raised {text}{tail}") from None
        if isinstance(exc, ValueError) and str(exc).startswith(game):
            raise SimcardsError(f"{exc}{tail}") from None  # the kernel's own checks (limits, constraints)
        raise
