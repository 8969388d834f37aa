"""Step a game's compiled kernel one decision at a time (``simcards play``, docs/play.md).

The kernel stays the only referee. Every seat's decision functions are wrapped by a
:class:`Script`: a wrapper first returns the seat's *forced* answers (the moves already
made) in order, each after calling the seat's policy and dropping its answer (so the
random streams advance as in the simulator: Seep's bots share one); then, at the seat that waits for a person, it copies its arguments (what
that seat may see: its view of the state and the legal moves) into a shared buffer and
raises :class:`AwaitingMove`, which stops the kernel; any other seat asks its policy.
Every answer is logged with its seat and decision. Running the record again with one
more forced answer advances the game by one move, so deal ``i`` of seed ``s`` is the
simulator's deal and the bots answer exactly as they would there.

A game takes part through an *adapter* (``simcards/games/<game>/interactive.py``, an
:class:`Adapter`): where the deciding seat is in each decision's arguments, the legal
moves with labels, the state as text, one line per logged move.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numba as nb
import numpy as np
from numba import types

from simcards.core.errors import SimcardsError
from simcards.core.policy import PolicyTable, _int64_pointer


class AwaitingMove(Exception):
    """Raised inside a kernel: the person's seat must decide (the buffer holds its view)."""


# buffer layout (int64 slots)
MAX_SEATS = 8
MAX_FORCED = 4096  # answers per seat
MAX_LOG = 40000
H_AWAIT, H_LOGN, H_CAPDEC, H_CAPSEAT, H_CAPLEN, H_OVER = 0, 1, 2, 3, 4, 5
H_CNT = 8
H_CUR = H_CNT + MAX_SEATS
H_FORCED = 32
LOG_W = 9  # seat, decision, answer, then up to 6 fields of the chosen row (Adapter.log_rows)
H_LOG = H_FORCED + MAX_SEATS * MAX_FORCED
H_CAP = H_LOG + LOG_W * MAX_LOG
CAP_SIZE = 1 << 16  # Seep's whole move table (8192 x 5) fits
SIZE = H_CAP + CAP_SIZE

_WRAPPER = """
def wrapped({args}):
    buf = nb.carray(_int64_pointer(ADDRESS), SIZE)
    seat = np.int64({seat_arg}[SEAT_SLOT])
    k = buf[H_CUR + seat]
    if k < buf[H_CNT + seat]:
        inner({args})  # its answer is dropped; it draws from the random stream as the bot would
        ans = buf[H_FORCED + seat * MAX_FORCED + k]
        buf[H_CUR + seat] = k + 1
    elif seat == buf[H_AWAIT]:
        buf[H_CAPDEC] = DECISION
        buf[H_CAPSEAT] = seat
        p = H_CAP
{capture}
        buf[H_CAPLEN] = p - H_CAP  # past CAP_SIZE: not all was kept (pending() refuses it)
        raise AwaitingMove()
    else:
        ans = np.int64(inner({args}))
    n = buf[H_LOGN]
    if n < MAX_LOG:
        q = H_LOG + LOG_W * n
        buf[q] = seat
        buf[q + 1] = DECISION
        buf[q + 2] = ans
{row}
        buf[H_LOGN] = n + 1
    else:
        buf[H_OVER] = 1
    return ans
"""

_CAPTURE_1D = """        m = {a}.shape[0]
        if p + m + 1 < SIZE:
            buf[p] = m
            for j in range(m):
                buf[p + 1 + j] = np.int64({a}[j])
        p += m + 1"""
_CAPTURE_2D = """        r, c = {a}.shape
        if p + r * c + 2 < SIZE:
            buf[p] = r
            buf[p + 1] = c
            for i in range(r):
                for j in range(c):
                    buf[p + 2 + i * c + j] = np.int64({a}[i, j])
        p += r * c + 2"""
_CAPTURE_SCALAR = """        if p < SIZE:
            buf[p] = np.int64({a})
        p += 1"""


_ROW = """        if 0 <= ans < {a}.shape[0]:
            for j in range(min({a}.shape[1], LOG_W - 3)):
                buf[q + 3 + j] = np.int64({a}[ans, j])"""


def _capture_code(signature) -> str:
    """Source that copies every argument but the last (the random stream) into the buffer."""
    lines = []
    for i, t in enumerate(signature.args[:-1]):
        a = f"a{i}"
        if isinstance(t, types.Array):
            lines.append((_CAPTURE_1D if t.ndim == 1 else _CAPTURE_2D).format(a=a))
        else:
            lines.append(_CAPTURE_SCALAR.format(a=a))
    return "\n".join(lines)


def _read_capture(signature, data: np.ndarray) -> tuple:
    """The captured arguments back as arrays (dtype of the signature) and ints."""
    out, p = [], 0
    for t in signature.args[:-1]:
        if isinstance(t, types.Array):
            dtype = np.dtype(str(t.dtype))
            if t.ndim == 1:
                m = int(data[p])
                part = data[p + 1:p + 1 + m].copy()
                out.append(part.view(dtype) if dtype.itemsize == 8 else part.astype(dtype))
                p += m + 1
            else:
                r, c = int(data[p]), int(data[p + 1])
                out.append(data[p + 2:p + 2 + r * c].copy().reshape(r, c).view(dtype))
                p += r * c + 2
        else:
            out.append(int(data[p]))
            p += 1
    return tuple(out)


@dataclass(frozen=True)
class LogEntry:
    """One answer given during the record: who, which decision, what."""

    seat: int
    decision: str
    answer: int
    row: tuple = ()  # the chosen row of the table named by Adapter.log_rows, if any


@dataclass
class Pending:
    """The person's seat must decide: the decision, the seat, its arguments as the policy sees them."""

    decision: str
    seat: int
    args: tuple


_BUFFER: np.ndarray | None = None  # one per process: the wrappers are closures over its address
_WRAPPERS: dict[tuple, Any] = {}


def _buffer() -> np.ndarray:
    global _BUFFER
    if _BUFFER is None:
        _BUFFER = np.zeros(SIZE, np.int64)
    return _BUFFER


class Script:
    """Per-seat wrapped decision functions over the process's buffer (module docstring).

    ``seat_at``: ``{decision: (argument index, slot)}``, where the deciding seat is.
    Wrappers are compiled once per process (closures over the buffer's address) for each
    decision and distinct policy function, and shared by every Script; one Script runs
    at a time (a run primes the buffer first), so sessions are not for threads.
    """

    def __init__(self, catalog, specs: Sequence[str], seat_at: dict[str, tuple[int, int]],
                 log_rows: dict[str, int] | None = None):
        self.catalog = catalog
        self.specs = list(specs)
        self.buf = _buffer()
        self.decisions = catalog.decisions
        self.log_rows = dict(log_rows or {})
        inner = catalog.table(self.specs)
        functions = {}
        for index, d in enumerate(self.decisions):
            arg, slot = seat_at[d.name]
            seats = []
            for f in inner[d.name]:
                key = (id(f), d.name, index, arg, slot, self.log_rows.get(d.name))
                if key not in _WRAPPERS:
                    _WRAPPERS[key] = (f, self._wrap(f, d, index, arg, slot))  # f kept: its id stays unique
                seats.append(_WRAPPERS[key][1])
            functions[d.name] = tuple(seats)
        self.table = PolicyTable(functions, inner.specs, inner.params)

    def _wrap(self, inner, decision, index: int, arg: int, slot: int):
        nargs = len(decision.signature.args)
        names = ", ".join(f"a{i}" for i in range(nargs))
        row_arg = self.log_rows.get(decision.name)
        row = _ROW.format(a=f"a{row_arg}") if row_arg is not None else ""
        source = _WRAPPER.format(args=names, seat_arg=f"a{arg}", capture=_capture_code(decision.signature), row=row)
        namespace = dict(nb=nb, np=np, _int64_pointer=_int64_pointer, inner=inner, AwaitingMove=AwaitingMove,
                         ADDRESS=self.buf.ctypes.data, SIZE=SIZE, SEAT_SLOT=slot, DECISION=index,
                         H_CUR=H_CUR, H_CNT=H_CNT, H_FORCED=H_FORCED, MAX_FORCED=MAX_FORCED, H_AWAIT=H_AWAIT,
                         H_CAPDEC=H_CAPDEC, H_CAPSEAT=H_CAPSEAT, H_CAP=H_CAP, H_CAPLEN=H_CAPLEN,
                         H_LOGN=H_LOGN, H_LOG=H_LOG, MAX_LOG=MAX_LOG, H_OVER=H_OVER, LOG_W=LOG_W)
        exec(source, namespace)
        return nb.njit(decision.signature, nogil=True)(namespace["wrapped"])

    def prime(self, forced: dict[int, Sequence[int]], await_seat: int) -> None:
        """Set the forced answers of each seat and the seat that waits (-1: none) before a run."""
        b = self.buf
        b[:H_FORCED] = 0
        b[H_AWAIT] = await_seat
        for seat, answers in forced.items():
            if len(answers) > MAX_FORCED:
                raise SimcardsError(f"more than {MAX_FORCED} moves of seat {seat}: too long a record to play")
            b[H_CNT + seat] = len(answers)
            b[H_FORCED + seat * MAX_FORCED: H_FORCED + seat * MAX_FORCED + len(answers)] = answers

    def log(self) -> list[LogEntry]:
        n = int(self.buf[H_LOGN])
        rows = self.buf[H_LOG:H_LOG + LOG_W * n].reshape(n, LOG_W)
        out = []
        for r in rows:
            name = self.decisions[int(r[1])].name
            extra = tuple(int(x) for x in r[3:]) if name in self.log_rows else ()
            out.append(LogEntry(int(r[0]), name, int(r[2]), extra))
        return out

    def pending(self) -> Pending:
        d = self.decisions[int(self.buf[H_CAPDEC])]
        n = int(self.buf[H_CAPLEN])
        if n > CAP_SIZE:
            raise SimcardsError(f"{d.name}: the view of the deciding seat is larger than the play buffer ({n} > {CAP_SIZE})")
        data = self.buf[H_CAP:H_CAP + n]
        return Pending(d.name, int(self.buf[H_CAPSEAT]), _read_capture(d.signature, data))


@dataclass
class Move:
    """A legal answer: the value the kernel receives, its label, other inputs that pick it."""

    value: int
    label: str
    keys: tuple[str, ...] = ()


@dataclass
class Choices:
    """What the person may answer now: a numbered list, and/or free text read by ``parse``.

    ``parse(text) -> value`` raises SimcardsError (one line) for text that is no legal move.
    """

    moves: list[Move]
    prompt: str = ""
    parse: Callable[[str], int] | None = None
    numbered: bool = True  # False where the labels are numbers themselves (bids): a number is a label


class Adapter(ABC):
    """What a game tells the session (``simcards/games/<game>/interactive.py``); a game must
    give :meth:`choices` and :meth:`screen`, the rest has defaults."""

    seat_at: dict[str, tuple[int, int]] = {}  # decision -> (argument index, slot) of the deciding seat
    log_rows: dict[str, int] = {}  # decision -> argument (a 2-D table) whose chosen row the log keeps

    def seat_names(self, variant) -> list[str]:
        return [f"seat {s}" for s in range(MAX_SEATS)]

    @abstractmethod
    def choices(self, pending: Pending, variant) -> Choices:
        """The legal answers of the pending decision, labelled for the person."""

    @abstractmethod
    def screen(self, pending: Pending, variant, names: list[str]) -> str:
        """The state as the deciding seat sees it."""

    def describe(self, entry: LogEntry, variant, names: list[str]) -> str:
        """One line of history for a logged answer."""
        return f"{names[entry.seat]}: {entry.decision} {entry.answer}"

    def odds_request(self, pending: Pending, variant):
        """An OddsRequest for the `bid` hint of this decision, or None when none applies."""
        return None


@dataclass
class Finished:
    """The record is over: its row of the unit's columns."""

    record: np.ndarray


def match_move(text: str, choices: Choices) -> int:
    """The value the person's text picks: a number of the list, a label or key, or ``parse``."""
    t = text.strip()
    moves = choices.moves
    if t.isdigit() and moves and choices.numbered and not any(t.lower() == m.label.lower() for m in moves):
        k = int(t)
        if 1 <= k <= len(moves):
            return moves[k - 1].value
        raise SimcardsError(f"no move number {k} (choose 1..{len(moves)})")
    for m in moves:
        if t.lower() == m.label.lower() or t.lower() in (k.lower() for k in m.keys):
            return m.value
    if choices.parse is not None:
        return choices.parse(t)
    shown = ", ".join(m.label for m in moves[:20]) + (" ..." if len(moves) > 20 else "")
    raise SimcardsError(f"{t!r} is not a legal move here (legal: {shown})")


@dataclass
class Session:
    """One record played by a person at ``seat`` and bots elsewhere, advanced move by move."""

    game: Any
    adapter: Adapter
    variant: Any
    unit: str
    seed: int
    index: int
    seat: int
    specs: list[str]
    answers: list[int] = field(default_factory=list)  # the person's answers so far, in order

    def __post_init__(self):
        n = self.game.seats(self.variant)
        if not 0 <= self.seat < n:
            raise SimcardsError(f"seat {self.seat} does not exist (seats are 0..{n - 1})")
        self.script = Script(self.game.policies, self.specs, self.adapter.seat_at, self.adapter.log_rows)
        self.names = self.adapter.seat_names(self.variant)[:n]

    def run(self, answers: Sequence[int] | None = None) -> Pending | Finished:
        """Run the record with the person's ``answers`` forced (default: those so far)."""
        answers = self.answers if answers is None else list(answers)
        self.script.prime({self.seat: answers}, self.seat)
        try:
            out = self.game.simulate(self.unit, self.variant, self.script.table, self.seed, self.index, 1)
        except AwaitingMove:
            return self.script.pending()
        return Finished(out[0])

    def advance(self) -> Pending | Finished:
        return self.run()

    def history(self) -> list[LogEntry]:
        """Every answer of the last run, in order (bots and the person)."""
        return self.script.log()

    def play(self, value: int) -> Pending | Finished:
        """Add the person's answer and run on to the next decision (or the end)."""
        self.answers.append(int(value))
        try:
            return self.run()
        except SimcardsError:
            self.answers.pop()
            raise

    def undo(self) -> bool:
        """Take back the person's last answer; False when there is none."""
        if not self.answers:
            return False
        self.answers.pop()
        return True

    def replay_text(self) -> str:
        """The game's own replay of the record, the person's answers in place."""
        self.script.prime({self.seat: self.answers}, -1)
        return self.game.replay(self.unit, self.variant, self.script.table, self.seed, self.index)

    def to_dict(self) -> dict:
        return {"simcards_play": 1, "game": self.game.name, "unit": self.unit, "seed": self.seed,
                "index": self.index, "seat": self.seat, "policies": list(self.specs),
                "variant": _jsonable(self.variant.changed()), "answers": list(self.answers)}


def _jsonable(x):
    if isinstance(x, dict):
        return {k: _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, np.integer):
        return int(x)
    return x


def adapter_for(game) -> Adapter:
    """The game's adapter (``<game package>.interactive.ADAPTER``), or one line saying there is none."""
    import importlib

    from simcards.core.game import _GAME_MODULES

    module = _GAME_MODULES.get(game.name, "")
    try:
        return importlib.import_module(module + ".interactive").ADAPTER
    except (ImportError, AttributeError):
        raise SimcardsError(f"{game.name} cannot be played interactively yet (no {module}.interactive)") from None
