"""One trace format for every game: named events in int64 rows, one reader.

A game declares its events once, each with its field names (at most ``FIELDS``)::

    EVENTS = TraceEvents("cutthroat", hand=("hand_no", "dealer", "game_hand"),
                         play=("seat", "card", "trick", "pos"), ...)
    EVENTS.export(globals())          # EV_HAND = 1, EV_PLAY = 2, ... for the kernels

A trace buffer is ``int64[rows, WIDTH]`` (:meth:`TraceEvents.buffer`). Row 0 is the
header: ``[0, 0]`` counts the events *emitted*, which may exceed the rows there are;
event ``k`` is row ``1 + k``: ``[event code, field 1 .. field FIELDS]`` (unused fields 0).
A buffer with no rows (:data:`NO_TRACE` from Python, :func:`no_trace` inside a kernel)
means "not tracing": :func:`emit` returns at
once, so a kernel has one code path for simulation and replay. Kernels call
``emit(trace, EV_PLAY, seat, card, trick, pos, 0)``; Python reads the events back with
:meth:`TraceEvents.read` (named tuples, ``ev.kind == "play"``, ``ev.card``; ``ev[0]`` is
the code, so an event still indexes like its row), or runs a
traced kernel with :meth:`TraceEvents.collect`, which grows the buffer until it fits.
"""
from __future__ import annotations

from collections import namedtuple
from typing import Callable, Iterable

import numpy as np

from simcards.core.jit import inline

FIELDS = 5  # fields per event
WIDTH = 1 + FIELDS  # columns of a trace row
NO_TRACE = np.zeros((0, WIDTH), np.int64)  # pass this when not tracing


@inline
def emit(trace, event, a, b, c, d, e):
    """Append one event (code ``event``, fields ``a..e``) if ``trace`` has rows; counts it
    even when the buffer is full, so the caller can tell how many rows it needed."""
    if trace.shape[0] == 0:
        return
    n = trace[0, 0] + 1
    if n < trace.shape[0]:
        trace[n, 0] = event
        trace[n, 1] = a
        trace[n, 2] = b
        trace[n, 3] = c
        trace[n, 4] = d
        trace[n, 5] = e
    trace[0, 0] = n


@inline
def no_trace():
    """A fresh empty trace for kernels that call traced code without tracing (a kernel may
    not use the global :data:`NO_TRACE`: numba freezes global arrays read-only)."""
    return np.zeros((0, WIDTH), np.int64)


@inline
def tracing(trace):
    """Whether ``trace`` records events (a kernel may skip work only a trace needs)."""
    return trace.shape[0] > 0


class TraceEvents:
    """A game's trace events: names, codes (1, 2, ... in declaration order) and fields."""

    def __init__(self, game: str, /, **events: Iterable[str]):
        self.game = game
        self.fields: dict[str, tuple[str, ...]] = {}
        self.codes: dict[str, int] = {}
        self._types = {}
        for code, (name, fields) in enumerate(events.items(), start=1):
            fields = tuple(fields)
            if "code" in fields or "kind" in fields:
                raise ValueError(f"{game} trace event {name}: 'code' and 'kind' are taken by every event")
            if len(fields) > FIELDS:
                raise ValueError(f"{game} trace event {name} has {len(fields)} fields (at most {FIELDS})")
            self.fields[name] = fields
            self.codes[name] = code
            base = namedtuple(f"{name}_event", ("code",) + fields)
            self._types[code] = type(base.__name__, (base,), {"__slots__": (), "kind": name})

    def constants(self, prefix: str = "EV_") -> dict[str, int]:
        """``{EV_<NAME>: code}`` for the kernels."""
        return {prefix + name.upper(): code for name, code in self.codes.items()}

    def export(self, namespace: dict, prefix: str = "EV_") -> None:
        """Put :meth:`constants` into a module's globals (numba reads them as constants)."""
        namespace.update(self.constants(prefix))

    @staticmethod
    def buffer(rows: int = 4096) -> np.ndarray:
        """A zeroed trace buffer for ``rows`` events (plus the header row)."""
        return np.zeros((rows + 1, WIDTH), np.int64)

    @staticmethod
    def wanted(trace: np.ndarray) -> int:
        """Events emitted into ``trace`` (more than it holds if it overflowed)."""
        return int(trace[0, 0]) if trace.shape[0] else 0

    def read(self, trace: np.ndarray) -> list:
        """The events of ``trace`` as named tuples: ``code`` (the event's number), then the
        declared fields; ``ev.kind`` is the event's name. ``ev[0]``, ``ev[1]``... index it like
        the row it came from."""
        n = self.wanted(trace)
        if n >= trace.shape[0]:
            raise ValueError(f"{self.game} trace overflowed: {n} events, room for {trace.shape[0] - 1}")
        out = []
        for row in trace[1:n + 1].tolist():
            kind = self._types[row[0]]
            out.append(kind(*row[:len(kind._fields)]))
        return out

    def collect(self, run: Callable[[np.ndarray], object], rows: int = 4096):
        """``(result, events)`` of ``run(trace)``, rerun with a larger buffer until it fits."""
        while True:
            trace = self.buffer(rows)
            result = run(trace)
            n = self.wanted(trace)
            if n < trace.shape[0]:
                return result, self.read(trace)
            rows = n

    def rows(self, trace: np.ndarray) -> np.ndarray:
        """The raw event rows ``[event, a .. e]`` of ``trace`` (header dropped)."""
        return trace[1:self.wanted(trace) + 1]
