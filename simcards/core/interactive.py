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
H_AWAIT, H_LOGN, H_CAPDEC, H_CAPSEAT, H_CAPLEN, H_OVER, H_CARDS = 0, 1, 2, 3, 4, 5, 6
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
{cards}
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

# card mode (hint worlds, :func:`card_hints`): a seat's forced cards are the cards it played,
# in order; those the kernel played for it without asking (a single legal card) are skipped
_CARDS = """    if buf[H_CARDS] == 1:
        legal = np.uint64({a}[LEGAL_SLOT])
        while k < buf[H_CNT + seat] and not (legal >> np.uint64(buf[H_FORCED + seat * MAX_FORCED + k])) & np.uint64(1):
            k += 1
        buf[H_CUR + seat] = k"""

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
                 log_rows: dict[str, int] | None = None, card_legal: dict[str, tuple[int, int]] | None = None):
        self.catalog = catalog
        self.specs = list(specs)
        self.buf = _buffer()
        self.decisions = catalog.decisions
        self.log_rows = dict(log_rows or {})
        self.card_legal = dict(card_legal or {})
        inner = catalog.table(self.specs)
        functions = {}
        for index, d in enumerate(self.decisions):
            arg, slot = seat_at[d.name]
            seats = []
            for f in inner[d.name]:
                key = (id(f), d.name, index, arg, slot, self.log_rows.get(d.name), self.card_legal.get(d.name))
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
        legal_arg, legal_slot = self.card_legal.get(decision.name, (None, 0))
        cards = _CARDS.format(a=f"a{legal_arg}") if legal_arg is not None else ""
        source = _WRAPPER.format(args=names, seat_arg=f"a{arg}", capture=_capture_code(decision.signature), row=row,
                                 cards=cards)
        namespace = dict(nb=nb, np=np, _int64_pointer=_int64_pointer, inner=inner, AwaitingMove=AwaitingMove,
                         ADDRESS=self.buf.ctypes.data, SIZE=SIZE, SEAT_SLOT=slot, DECISION=index,
                         LEGAL_SLOT=legal_slot, H_CARDS=H_CARDS,
                         H_CUR=H_CUR, H_CNT=H_CNT, H_FORCED=H_FORCED, MAX_FORCED=MAX_FORCED, H_AWAIT=H_AWAIT,
                         H_CAPDEC=H_CAPDEC, H_CAPSEAT=H_CAPSEAT, H_CAP=H_CAP, H_CAPLEN=H_CAPLEN,
                         H_LOGN=H_LOGN, H_LOG=H_LOG, MAX_LOG=MAX_LOG, H_OVER=H_OVER, LOG_W=LOG_W)
        exec(source, namespace)
        return nb.njit(decision.signature, nogil=True)(namespace["wrapped"])

    def prime(self, forced: dict[int, Sequence[int]], await_seat: int, cards: bool = False) -> None:
        """Set the forced answers of each seat and the seat that waits (-1: none) before a run;
        ``cards``: card mode (a play decision skips forced cards no longer legal, see ``_CARDS``)."""
        b = self.buf
        b[:H_FORCED] = 0
        b[H_AWAIT] = await_seat
        b[H_CARDS] = int(cards)
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
    card_legal: dict[str, tuple[int, int]] = {}  # card decision -> (argument index, slot) of its legal-card mask
    hints_cover = ("no hint for this decision; card-play hints are not available for this game "
                   "(docs/play.md, Hints, lists what `?` covers)")  # said where `?` has no hint
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

    def card_worlds(self, session: "Session", pending: Pending) -> "CardWorlds | None":
        """What the seat knows of the deal in play and how to play a world of it (card hints),
        or None when this decision has none; a SimcardsError says why not, in one line."""
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
        self.script = Script(self.game.policies, self.specs, self.adapter.seat_at, self.adapter.log_rows,
                             self.adapter.card_legal)
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

    def traced(self, run: Callable[[np.ndarray], Any], rows: int = 8192) -> np.ndarray:
        """The raw trace rows ``[event, a .. e]`` of the record up to the pending decision.

        ``run(trace)`` runs the game's kernel for this record into the trace buffer; it stops
        at the person's decision, so the rows hold the past only. Card hints read from them
        the public events alone (the cards played), never a hidden hand.
        """
        from simcards.core.trace import TraceEvents

        while True:
            trace = TraceEvents.buffer(rows)
            self.script.prime({self.seat: self.answers}, self.seat)
            try:
                run(trace)
            except AwaitingMove:
                pass
            n = TraceEvents.wanted(trace)
            if n < trace.shape[0]:
                return trace[1:n + 1].copy()
            rows = n + 1

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


# ---------------------------------------------------------------- card hints (`?` during card play)

HINT_RUNS = 800  # card hints play about this many (world, card) rollouts: 1-4 s (docs/play.md)
MIN_WORLDS, MAX_WORLDS = 30, 200
HINT_STREAM = 1 << 32  # the worlds of the person's k-th move draw from stream HINT_STREAM + k of (seed, record)
DD_WORLDS = 6  # worlds solved double dummy, when the position is small enough
# the solver from here when no hand holds more cards (measured, Spades, one core: 5-9 cards per hand
# 0.003-0.06 s a position, 10 cards 0.25-5 s, 11 cards 0.5-21 s, 12 cards 6-185 s)
DD_MAX_CARDS = 8
HINT_SEED = 0x5EED_C0DE  # the rollouts' streams: (seed ^ HINT_SEED, world number), never the record's own
MAX_REJECTS = 50  # sampled worlds tried per world kept, before giving up


@dataclass
class CardWorlds:
    """What the deciding seat knows of the deal in play, and how to play one world of it.

    A *world* is a deal of the cards the seat has not seen, consistent with what it knows:
    ``known[s]`` (card masks) are in seat ``s``'s hand as dealt (its own hand; every card a
    seat has played), ``max_len[s, suit]`` bounds its suit lengths (a seat that did not
    follow suit had no more of it than it had played), ``sizes[s]`` cards each.
    ``forced[s]``: the answers of seat ``s`` the world replays before the person's card
    (its bids, then the cards it played, in order). ``play(hands, number)`` plays the
    world ``hands`` (as dealt) to the end with the Script primed and returns
    ``{column: value}`` (NaN: not applicable); ``public(pending)``: what the seat sees now,
    which a world must reproduce exactly. ``dd(hands)``: ``{card: tricks}`` double dummy
    for the measured side from the position now, or None; ``dd_note`` says why none.
    ``draw(state)``: a game's own sampler of a world (its arrangement; None: a failed try)
    in place of ``deal_constrained`` over ``known`` and ``max_len`` (Contract Rummy's worlds
    are hands of card counts plus the stock's order); ``item``: what a row is.
    ``play_moves(world, number, values)``: every move played on the world at once (a row
    of ``play``'s values per move; the game primes the Script), in place of ``play`` per move.
    """

    seats: int
    deck: np.ndarray
    sizes: np.ndarray
    known: np.ndarray
    max_len: np.ndarray
    suit_masks: np.ndarray
    forced: dict[int, list[int]]
    play: Callable[[np.ndarray, int], dict[str, float]]
    public: Callable[[Pending], tuple]
    best: str  # the column whose mean picks the best card
    dd: Callable[[np.ndarray], dict[int, int]] | None = None
    dd_note: str = ""
    note: str = ""  # what the numbers are, one line (e.g. "team points: this hand's score of your side")
    draw: Callable[[np.ndarray], Any] | None = None
    item: str = "card"
    play_moves: Callable[[Any, int, list[int]], list[dict[str, float]]] | None = None
    runs: int = HINT_RUNS  # rollouts per hint in all (hint_worlds)


@dataclass
class CardHint:
    """Card hints: per legal card, per column, the values over the worlds (one per world)."""

    cards: list[Move]
    columns: list[str]
    values: dict[int, dict[str, np.ndarray]]  # card value -> column -> per-world values
    worlds: int
    tried: int
    best: int
    best_column: str
    dd: dict[int, np.ndarray] | None = None  # card value -> per-world double-dummy tricks
    dd_note: str = ""
    note: str = ""
    kept: list[np.ndarray] = field(default_factory=list)  # the worlds played (hands as dealt)
    item: str = "card"  # what a row is (CardWorlds.item)


def plays_since(rows: np.ndarray, start_events: Sequence[int], play_event: int) -> list[tuple[int, int]]:
    """``(seat, card)`` of the play events after the last of ``start_events`` (the deal in play)."""
    starts = [i for i, r in enumerate(rows) if int(r[0]) in start_events]
    first = starts[-1] + 1 if starts else 0
    return [(int(r[1]), int(r[2])) for r in rows[first:] if int(r[0]) == play_event]


def bidding_block(log: Sequence[LogEntry], play: str = "play") -> list[LogEntry]:
    """The answers of the deal in play before its first card: the last run of non-``play``
    answers before the trailing plays (every deal of a trick game has a bid answer)."""
    i = len(log)
    while i > 0 and log[i - 1].decision == play:
        i -= 1
    j = i
    while j > 0 and log[j - 1].decision != play:
        j -= 1
    return list(log[j:i])


def dealt_sizes(deck_size: int, seats: int, dealer: int) -> np.ndarray:
    """Cards dealt to each seat, one at a time from the dealer's left."""
    sizes = np.zeros(seats, np.int64)
    for k in range(deck_size):
        sizes[(dealer + 1 + k) % seats] += 1
    return sizes


def knowledge(seats: int, own: int, own_hand: int, plays: Sequence[tuple[int, int]], voids: Sequence[int],
              suit_masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(``known``, ``max_len``) of :class:`CardWorlds`: the seat's hand as dealt (what it holds
    and what it played), every card another seat played, and a void suit (bit ``k`` of
    ``voids[s]``) bounded by the cards of it that seat played."""
    known = np.zeros(seats, np.uint64)
    for s, c in plays:
        known[s] |= np.uint64(1 << c)
    known[own] |= np.uint64(own_hand)
    max_len = np.full((seats, 4), 99, np.int64)
    for s in range(seats):
        for k in range(4):
            if voids[s] >> k & 1:
                max_len[s, k] = bin(int(known[s]) & int(suit_masks[k])).count("1")
    return known, max_len


def hint_worlds(cards: int, runs: int = HINT_RUNS) -> int:
    """Worlds per card hint with ``cards`` legal cards: ``runs`` rollouts in all, within bounds."""
    return int(min(MAX_WORLDS, max(MIN_WORLDS, runs // max(cards, 1))))


def card_hints(session: "Session", pending: Pending, worlds: int | None = None, dd_worlds: int = DD_WORLDS,
               progress: Callable[[int, int], None] | None = None) -> CardHint:
    """Each legal card of ``pending`` played out on ``worlds`` sampled worlds by the policies.

    The worlds are deals of the unseen cards consistent with what the seat knows
    (:class:`CardWorlds`), drawn from stream ``HINT_STREAM + k`` of the record's seed and
    index (``k``: the person's moves so far), so a hint is reproducible. A world is kept
    only if replaying the deal so far in it (every earlier move forced) shows the seat
    exactly what it sees now; every card is then played on the same kept worlds (common
    random numbers) and the policies play on. The hidden hands of the record are never read.
    """
    session.run()  # the shared buffer holds this record's log again (an earlier hint ran worlds in it)
    try:
        return _card_hints(session, pending, worlds, dd_worlds, progress)
    finally:
        session.run()  # and after: history lines and undo read the record, not the last world


def _card_hints(session, pending, worlds, dd_worlds, progress) -> CardHint:
    from simcards.core.deal import deal_constrained
    from simcards.core.errors import IllegalAnswer
    from simcards.core.rng import stream_start

    spec = session.adapter.card_worlds(session, pending)
    if spec is None:
        raise SimcardsError(f"{session.game.title}: {session.adapter.hints_cover}")
    cards = session.adapter.choices(pending, session.variant).moves
    worlds = hint_worlds(len(cards), spec.runs) if worlds is None else int(worlds)
    seat, script = session.seat, session.script
    want = spec.public(pending)
    state = np.array([stream_start(np.uint64(session.seed), np.uint64(session.index),
                                   np.uint64(HINT_STREAM + len(session.answers)))], np.uint64)
    min_len = np.zeros((spec.seats, 4), np.int64)
    hands = np.zeros(spec.seats, np.uint64)
    buf = np.zeros(64, np.int64)
    kept: list[np.ndarray] = []
    values: dict[int, dict[str, list]] = {m.value: {} for m in cards}
    columns: list[str] = []
    tried = 0
    while len(kept) < worlds and tried < MAX_REJECTS * worlds:
        tried += 1
        if spec.draw is not None:
            world = spec.draw(state)
            if world is None:
                continue
        elif deal_constrained(spec.deck, spec.known, spec.sizes, 0, state, hands, buf, min_len, spec.max_len,
                              spec.suit_masks, 10_000) < 0:
            raise SimcardsError("no deal of the unseen cards fits what your seat has seen")
        else:
            world = hands.copy()
        number = len(kept)
        script.prime(spec.forced, seat, cards=True)
        try:  # the deal so far, replayed in this world, must show the seat what it sees
            spec.play(world, number)
            continue
        except AwaitingMove:
            if spec.public(script.pending()) != want:
                continue
        except IllegalAnswer:  # a card played at the table is not legal in this world
            continue
        results = {}
        if spec.play_moves is not None:  # one call for every move
            results = dict(zip([m.value for m in cards], spec.play_moves(world, number, [m.value for m in cards])))
        else:
            for m in cards:
                forced = dict(spec.forced)
                forced[seat] = list(forced.get(seat, [])) + [m.value]
                script.prime(forced, -1, cards=True)
                results[m.value] = spec.play(world, number)
        for m in cards:
            for k, x in results[m.value].items():
                if k not in columns:
                    columns.append(k)
                values[m.value].setdefault(k, []).append(x)
        kept.append(world)
        if progress is not None:
            progress(len(kept), worlds)
    if not kept:
        raise SimcardsError(f"no sampled world reproduced what your seat has seen ({tried} tried)")
    out = {v: {k: np.array(col.get(k, [np.nan] * len(kept)), float) for k in columns} for v, col in values.items()}
    means = {v: np.nanmean(out[v][spec.best]) for v in out}
    best = max(out, key=lambda v: means[v])
    dd = None
    if spec.dd is not None:
        solved = [spec.dd(w) for w in kept[:dd_worlds]]
        dd = {m.value: np.array([d[m.value] for d in solved], float) for m in cards}
    return CardHint(cards, columns, out, len(kept), tried, best, spec.best, dd, spec.dd_note, spec.note, kept,
                    spec.item)


def _mean_se(x: np.ndarray) -> tuple[float, float]:
    x = x[~np.isnan(x)]
    if x.size == 0:
        return float("nan"), float("nan")
    se = float(x.std(ddof=1) / np.sqrt(x.size)) if x.size > 1 else float("nan")
    return float(x.mean()), se


def hint_text(h: CardHint, policy: str) -> str:
    """The card-hint table: one row per legal card, mean ± standard error over the worlds."""
    show = [c for c in h.columns if not all(np.isnan(h.values[m.value][c]).all() for m in h.cards)]
    rows = []
    for m in h.cards:
        cells = [m.label + (" *" if m.value == h.best else "")]
        for c in show:
            mean, se = _mean_se(h.values[m.value][c])
            cells.append("-" if np.isnan(mean) else f"{mean:.2f} ± {se:.2f}")
        diff = h.values[m.value][h.best_column] - h.values[h.best][h.best_column]
        mean, se = _mean_se(diff)
        cells.append("best" if m.value == h.best else f"{mean:+.2f} ± {se:.2f}")
        if h.dd is not None:
            d = h.dd[m.value]
            cells.append(f"{d.mean():.2f}")
            cells.append(f"{max(h.dd[x.value].mean() for x in h.cards) - d.mean():.2f}")
        rows.append(cells)
    head = [h.item] + show + [f"{h.best_column} vs best"]
    if h.dd is not None:
        n = len(next(iter(h.dd.values())))
        head += [f"DD tricks ({n} worlds)", "DD cost"]
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    line = lambda cells: "  ".join(x.rjust(w) if i else x.ljust(w) for i, (x, w) in enumerate(zip(cells, widths)))  # noqa: E731
    text = [f"{h.item.capitalize()} hints: each legal {h.item} played on the same {h.worlds} sampled worlds (deals "
            f"of the cards you have not seen that fit what you have seen; {h.tried} drawn), then by the bots "
            f"({policy}) to the end of the deal. Mean ± standard error over the worlds; * the best {h.item} by "
            f"{h.best_column}; 'vs best': the difference, paired on the same worlds."]
    if h.note:
        text.append(h.note)
    text += [line(head)] + [line(r) for r in rows]
    if h.dd is None and h.dd_note:
        text.append(h.dd_note)
    elif h.dd is not None:
        text.append("DD: the tricks you (with a partner: your side) take from here with best play, every card "
                    "visible (the hidden hands of the first sampled worlds; without partners you against all the "
                    "others together); cost: the best card's DD tricks minus this card's.")
    return "\n".join(text)


@dataclass
class TrickState:
    """The trick in progress as the seat sees it, for the double-dummy solver."""

    leader: int
    trick: list[int]  # cards played to it, in order from the leader
    broken: bool = False
    trick1: bool = False


def trick_worlds(*, seats: int, seat: int, deck: np.ndarray, sizes: np.ndarray, suit_masks: np.ndarray,
                 own_hand: int, plays: Sequence[tuple[int, int]], voids: Sequence[int],
                 bids: dict[int, list[int]], play, public, best: str, note: str = "",
                 dd_rules: Callable[[np.ndarray], tuple] | None = None, side: Sequence[int] = (),
                 state: TrickState | None = None, dd_max: int = DD_MAX_CARDS) -> CardWorlds:
    """:class:`CardWorlds` of a trick game: known cards and voids from the plays so far
    (:func:`knowledge`), each seat's forced answers its ``bids`` then its cards, and the
    double-dummy value of each card (``dd_rules(hands) -> (rules row, suit masks)``, the
    measured ``side``) when no hand holds more than ``dd_max`` cards."""
    known, max_len = knowledge(seats, seat, own_hand, plays, voids, suit_masks)
    forced = {s: list(bids.get(s, [])) for s in range(seats)}
    for s, c in plays:
        forced[s].append(c)
    played = np.zeros(seats, np.uint64)
    for s, c in plays:
        played[s] |= np.uint64(1 << c)
    left = max(int(sizes[s]) - bin(int(played[s])).count("1") for s in range(seats))
    dd = None
    if dd_rules is None:
        dd_note = ""
    elif left > dd_max:
        dd_note = (f"DD cost skipped: up to {left} cards left in a hand; the solver runs from {dd_max} cards per "
                   "hand on (a full deal takes minutes)")
    else:
        dd_note = ""
        dd = _dd_from_here(dd_rules, side, played, state)
    return CardWorlds(seats, np.asarray(deck, np.int64), sizes, known, max_len, suit_masks, forced, play, public,
                      best, dd, dd_note, note)


def _dd_from_here(dd_rules, side, played: np.ndarray, state: TrickState):
    """``hands as dealt -> {card: tricks}``: the measured side's tricks from the position
    now (the trick in progress included) after each legal card, double dummy (``core.dd``)."""
    from simcards.core import dd

    solver = dd.Table()

    def solve(hands):
        now = hands & ~played
        row, masks = dd_rules(now)
        solver.fresh()
        return dd.values(now, row, side, masks, leader=state.leader, trick=state.trick, broken=state.broken,
                         trick1=state.trick1, table=solver)
    return solve
