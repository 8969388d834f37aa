"""Move hints for Contract Rummy (``?`` in ``simcards play``): the worlds of a deal in play.

A *world* is the deal in play as dealt: every seat's hand (card counts), the up-card, the
stock's order, and the order of each reshuffle of the pile into the stock so far. It must
fit what the deciding seat has seen; :func:`rummy_worlds` gathers that from the public
events of the record's trace (never a hidden hand, stock card or draw of another seat):

- its own hand as dealt, and each card it drew from the stock (or took as a buy penalty)
  at the place it drew it: the stock's k-th card, or the k-th card of the r-th reshuffle;
- the up-card, every discard, every card taken from the pile (a top or deep take, a buy),
  every card laid on the table (contract, extra meld, lay-off, joker swap) and by whom.

Each opponent's cards that left its hand (discards, melds, lay-offs, swaps) and that it
was not seen to take must have come from its hand as dealt or from a stock card it drew
before; :func:`sample` puts each such card in one of those places, at random among the
places possible, and deals every other unseen card uniformly (the rest of the pack over
the other hands and the stock; each reshuffle's pile cards over its unseen places). The
world is then replayed (``core.interactive.card_hints``) with every public answer of
the deal forced, and kept only if the seat sees exactly what it sees now.

Forced answers are public ones only: the draws (a deep take as "list the deep takes",
then the take), the discards, the buys (who may buy is public). Whether an opponent was
asked to go down is not public (only a hand that can lay the contract is asked), so its
``go_down`` answers are not forced but given by a rule: yes at the turn it went down, no
before (:func:`_go_down`).
"""
from __future__ import annotations

from collections import Counter, namedtuple

import numba as nb
import numpy as np

from simcards.core.errors import SimcardsError
from simcards.core.interactive import (
    H_CUR, H_FORCED, H_LOGN, H_OVER, HINT_SEED, MAX_FORCED, MAX_SEATS, CardWorlds,
)
from simcards.core.policy import _int64_pointer
from simcards.core.rng import next_u64
from simcards.games.contract_rummy import rules as R
from simcards.games.contract_rummy import view as V
from simcards.games.contract_rummy.melds import JOKER, NT
from simcards.games.contract_rummy.policies import SIG

HINT_RUNS = 600  # rollouts per hint (worlds = 600 / moves, 30..200); a kernel call costs ~3 ms (numba unboxing)
World = namedtuple("World", ("hands", "upcard", "stock", "plan"))  # int64[MAX_SEATS, NT], int, int64[:], uint64[:]

# the go_down rule's data: the person's seat, the turn now, each seat's turn of going down (-1)
_RULE = np.zeros(2 + V.MAX_SEATS, np.int64)
_WRAPPED: dict[int, tuple] = {}


def _go_down(inner):
    """``inner`` (a seat's go_down) behind the rule: another seat's go_down before the turn now
    answers 1 at the turn that seat went down and 0 before; the rest asks ``inner``."""
    if id(inner) not in _WRAPPED:
        address, size = _RULE.ctypes.data, _RULE.shape[0]

        def wrapped(hand, pub, melds, opts, cfg, rng):
            g = nb.carray(_int64_pointer(address), size)
            s = pub[V.P_SEAT]
            if s != g[0] and pub[V.P_TURN] < g[1]:
                return np.int64(1) if pub[V.P_TURN] == g[2 + s] else np.int64(0)
            return inner(hand, pub, melds, opts, cfg, rng)

        _WRAPPED[id(inner)] = (inner, nb.njit(SIG, nogil=True)(wrapped))
    return _WRAPPED[id(inner)][1]


class _Fast:
    """A kernel called many times with arguments of the same types: its compiled entry point,
    typed once (numba's dispatcher types a tuple of first-class functions anew at every call,
    about 3 ms of Seats, ten times the deal itself)."""

    def __init__(self, kernel):
        self.kernel, self.entry = kernel, None

    def __call__(self, *args):
        if self.entry is None:
            sig = tuple(nb.typeof(a) for a in args)
            self.kernel.compile(sig)
            self.entry = self.kernel.overloads[sig].entry_point
        return self.entry(*args)


def traced(session):
    """Trace rows of the record up to the pending decision."""
    from simcards.games.contract_rummy.sim import variant_config

    tab = R.Table(variant_config(session.variant), np.zeros(NT, np.int64))
    seats = R.seats(session.script.table)
    game = session.unit == "game"
    out = np.zeros((1, R.GAME_NCOLS if game else R.DEAL_NCOLS), np.int64)

    def run(trace):
        s = R.new_state()
        R.run_records(game, tab, seats, R.board(s, trace), np.uint64(session.seed), session.index, 1, out,
                      s.scratch, np.int64(-1), np.zeros(R.MAX_SEATS, np.int64))
    return session.traced(run, rows=20_000)


def deal_start(log, rows) -> int:
    """Index in ``log`` of the first answer of the deal in play: after as many final draws
    (answer >= 0) as the earlier deals had turns that drew."""
    starts = [i for i, r in enumerate(rows) if r[0] == R.EV_DEAL]
    draws = 0
    for i in range(len(starts) - 1):
        part = rows[starts[i]:starts[i + 1]]
        draws += int((part[:, 0] == R.EV_TURN).sum())
        draws -= int(((part[:, 0] == R.EV_EXHAUSTED) & (part[:, 1] == R.EXH_NO_DRAW)).sum())
    if draws == 0:
        return 0
    seen = 0
    for i, e in enumerate(log):
        if e.decision == "draw" and e.answer >= 0:
            seen += 1
            if seen == draws:
                break
    for j in range(i + 1, len(log)):
        if log[j].decision == "draw":
            return j
    return len(log)


class Seen:
    """What seat ``me`` has seen of the deal in play (public events of its trace rows)."""

    def __init__(self, rows, me: int, n: int, pack: Counter):
        first = max(i for i, r in enumerate(rows) if r[0] == R.EV_DEAL)
        rows = rows[first:]
        self.me, self.n = me, n
        self.dealer, self.hand_size = int(rows[0][1]), int(rows[0][3])
        self.own = Counter()
        self.upcard = -1
        self.segments: list[list] = [[]]  # per stock (0: as dealt, r: r-th reshuffle): a row per card drawn
        self.contents: list[list[int]] = [[]]  # a reshuffle's pile cards, bottom first (0: unused)
        self.flows: dict[int, list] = {q: [] for q in range(n) if q != me}  # (time, +1 known in / -1 out, type)
        pile: list[int] = []
        for i, r in enumerate(rows):
            ev, a, b = int(r[0]), int(r[1]), int(r[2])
            if ev == R.EV_HAND and a == me:
                self.own[b] += int(r[3])
            elif ev == R.EV_UPCARD:
                self.upcard = a
                pile = [a]
            elif ev in (R.EV_DRAW_STOCK, R.EV_BUY_STOCK):
                self.segments[-1].append((i, a, b if a == me else -1))  # another seat's card is not seen
            elif ev == R.EV_REFILL:
                self.contents.append(pile[:-1])
                self.segments.append([])
                pile = pile[-1:]
            elif ev in (R.EV_TAKE_TOP, R.EV_DEEP_CARD, R.EV_BUY):
                pile.pop()
                self._flow(a, i, +1, b)
            elif ev == R.EV_DISCARD:
                pile.append(b)
                self._flow(a, i, -1, b)
            elif ev in (R.EV_MCARD, R.EV_LAYOFF):
                self._flow(a, i, -1, int(r[3]))
            elif ev == R.EV_SWAP:
                self._flow(a, i, -1, int(r[3]))
                self._flow(a, i, +1, JOKER)
        self.stock0 = sum(pack.values()) - n * self.hand_size - 1
        pool = pack - self.own
        pool[self.upcard] -= 1
        for _, q, c in self.segments[0]:
            if q == me:
                pool[c] -= 1
        if any(v < 0 for v in pool.values()):
            raise SimcardsError("the cards seen do not fit the pack")
        self.pool = +pool
        self.needs = {q: self._needs(f) for q, f in self.flows.items()}

    def _flow(self, seat, time, sign, card):
        if seat != self.me:
            self.flows[seat].append((time, sign, card))

    @staticmethod
    def _needs(flow) -> list[tuple[int, int]]:
        """(type, time) of each card the seat gave that it was not seen to take before:
        it came from its hand as dealt or a stock card it drew before ``time``."""
        known, out = Counter(), []
        for time, sign, card in flow:
            if sign > 0:
                known[card] += 1
            elif known[card]:
                known[card] -= 1
            else:
                out.append((card, time))
        return out


def sample(seen: Seen, gen: np.random.Generator) -> World | None:
    """One world that holds what the seat has seen (module docstring); None when the random
    placement of the opponents' needed cards failed (try again)."""
    n, me, h = seen.n, seen.me, seen.hand_size
    stocks = [seen.pool.copy()] + [Counter(c) for c in seen.contents[1:]]  # what each stock may still hold
    for r, seg in enumerate(seen.segments[1:], 1):
        for _, q, c in seg:
            if q == me:
                stocks[r][c] -= 1
                if stocks[r][c] < 0:
                    return None
    free_hand = {q: h for q in seen.flows}
    hands = np.zeros((V.MAX_SEATS, NT), np.int64)
    for c, k in seen.own.items():
        hands[me, c] = k
    draws = [[c for _, _, c in seg] for seg in seen.segments]  # the cards drawn, -1 where unseen
    needs = [(time, q, card) for q, nd in seen.needs.items() for card, time in nd]
    gen.shuffle(needs)
    needs.sort(key=lambda x: x[0])
    for time, q, card in needs:
        places = [(r, j) for r, seg in enumerate(seen.segments) for j, (t, who, _) in enumerate(seg)
                  if who == q and t < time and draws[r][j] < 0 and stocks[r][card] > 0]
        dealt = free_hand[q] if stocks[0][card] > 0 else 0
        if dealt + len(places) == 0:
            return None
        k = int(gen.integers(dealt + len(places)))
        if k < dealt:
            hands[q, card] += 1
            free_hand[q] -= 1
            stocks[0][card] -= 1
        else:
            r, j = places[k - dealt]
            draws[r][j] = card
            stocks[r][card] -= 1
    # the unseen rest, dealt uniformly: the pack's rest over the hands and the first stock ...
    rest = np.array([c for c, k in stocks[0].items() for _ in range(k)], np.int64)
    gen.shuffle(rest)
    i = 0
    for q in free_hand:
        for c in rest[i:i + free_hand[q]]:
            hands[q, c] += 1
        i += free_hand[q]
    stock = np.array(draws[0] + [-1] * (seen.stock0 - len(draws[0])), np.int64)
    for j in np.flatnonzero(stock < 0):
        stock[j] = rest[i]
        i += 1
    # ... and each reshuffle's pile cards over its unseen places, as pile positions
    plan = [np.uint64(0), np.uint64(2)]
    for r in range(1, len(seen.segments)):
        left = [c for c, k in stocks[r].items() for _ in range(k)]
        gen.shuffle(left)
        m = len(seen.contents[r])
        order = draws[r] + [-1] * (m - len(draws[r]))
        for j in range(m):
            if order[j] < 0:
                order[j] = left.pop()
        at: dict[int, list[int]] = {}
        for pos, c in enumerate(seen.contents[r]):
            at.setdefault(c, []).append(pos)
        plan.append(np.uint64(m))
        plan += [np.uint64(at[c].pop()) for c in order]
    return World(hands, int(seen.upcard), stock, np.array(plan, np.uint64))


def public(pending) -> tuple:
    """What the seat sees at ``pending`` (a world must show it the same): its hand, the
    public view (the pile up to its length), the table melds and the decision's options."""
    hand, pub, melds, opts = pending.args[:4]
    used = {"draw": int(opts[0]) + 1, "discard": int(opts[0]) + 1, "go_down": 3, "buy": 1}[pending.decision]
    return (pending.decision, tuple(hand), tuple(pub[:V.P_PILE]), tuple(pub[V.P_PILE:V.P_PILE + pub[V.P_PILE_LEN]]),
            tuple(map(tuple, melds[:pub[V.P_NMELDS]])), tuple(opts[:used]))


def forced_answers(log, me: int) -> dict[int, list[int]]:
    """Each seat's answers of the deal in play to force in a world: the person's all; another
    seat's public ones (draws, a deep take listed first, discards, buys; no go_down)."""
    forced: dict[int, list[int]] = {}
    for e in log:
        out = forced.setdefault(e.seat, [])
        if e.seat == me:
            out.append(e.answer)
        elif e.decision == "draw":
            if e.answer >= 2:
                out += [R.ASK_DEEP, e.answer]
            elif e.answer >= 0:
                out.append(e.answer)
        elif e.decision in ("discard", "buy"):
            out.append(e.answer)
    return forced


def rummy_worlds(session, pending) -> CardWorlds:
    """Move hints for the pending decision: worlds of the deal in play (module docstring),
    each played to the deal's end by ``rules.play_arranged``."""
    from simcards.games.contract_rummy.sim import variant_config

    variant, me = session.variant, pending.seat
    pub = pending.args[1]
    n = int(pub[V.P_NPL])
    rows = traced(session)  # (it reruns the record: the log below is this record's)
    log = session.history()
    log = log[deal_start(log, rows):]
    pack = Counter({t: variant.decks() for t in range(52)})
    if variant.jokers():
        pack[JOKER] = variant.jokers()
    seen = Seen(rows, me, n, pack)
    k, dealer = int(pub[V.P_DEAL]) - 1, int(pub[V.P_DEALER])
    tab = R.Table(variant_config(variant), np.zeros(NT, np.int64))
    t = session.script.table
    seats = R.Seats(t["draw"], tuple(_go_down(f) for f in t["go_down"]), t["discard"], t["buy"], t.params)
    totals = np.array(pub[V.P_TOTAL:V.P_TOTAL + V.MAX_SEATS], np.int64)
    _RULE[0], _RULE[1] = me, pub[V.P_TURN]
    _RULE[2:] = pub[V.P_DOWN_TURN:V.P_DOWN_TURN + V.MAX_SEATS]
    board = R.board(R.new_state())
    scratch = R.new_state().scratch
    seed = np.uint64(session.seed) ^ np.uint64(HINT_SEED)
    forced = forced_answers(log, me)
    script = session.script
    slot = H_FORCED + me * MAX_FORCED + len(forced.get(me, []))  # the person's answer now
    rewind = np.array([H_CUR + s for s in range(MAX_SEATS)] + [H_LOGN, H_OVER], np.int64)
    none = np.zeros(0, np.int64)
    call = _Fast(R.play_arranged)

    def draw(stream):
        return sample(seen, np.random.default_rng(int(next_u64(stream))))

    def run(world: World, number: int, moves: np.ndarray) -> np.ndarray:
        out = np.zeros((max(1, moves.shape[0]), R.DEAL_NCOLS), np.int64)
        call(tab, seats, board, k, dealer, world.hands, world.upcard, world.stock, totals, world.plan, seed,
             number, scratch, moves, script.buf, slot, rewind, out)
        return out

    def columns(row) -> dict[str, float]:
        mine = float(row[20 + me])
        others = [float(row[20 + q]) for q in range(n) if q != me]
        return {"penalty": mine, "P(you go out)": float(row[10] == me), "lead": min(others) - mine}

    def play(world: World, number: int) -> dict[str, float]:
        return columns(run(world, number, none)[0])

    def play_moves(world: World, number: int, values: list[int]) -> list[dict[str, float]]:
        primed = dict(forced)
        primed[me] = list(forced.get(me, [])) + [values[0]]
        script.prime(primed, -1, cards=True)
        return [columns(row) for row in run(world, number, np.array(values, np.int64))]

    unused = dict(deck=np.zeros(0, np.int64), sizes=np.zeros(n, np.int64), known=np.zeros(n, np.uint64),
                  max_len=np.zeros((n, 4), np.int64), suit_masks=np.zeros(4, np.uint64))  # deal_constrained's
    return CardWorlds(seats=n, **unused, forced=forced, play=play, public=public, best="lead", draw=draw, item="move",
                      play_moves=play_moves, runs=HINT_RUNS,
                      note="penalty: your penalty points this deal; P(you go out): you go out first; lead: the "
                           "lowest opponent penalty minus yours (the best move has the highest lead).")
