"""Card-play hints for Seep (``?`` at a move in ``simcards play seep``, docs/play.md).

A *world* is a deal of the cards the seat has not seen, consistent with what it has
seen (:class:`simcards.core.interactive.CardWorlds`, played by its ``_card_hints``). Its
"seats" are the deal's *holders*, the parts of the deck that reach a hand at one moment
(:class:`Holders`): each seat's cards dealt after the opening play (two players: the first
and the second half apart), the bidder's first four when the person is the bidder, and
the floor's four. A holder's known cards are those the seat has seen there: its own hand,
the cards each seat played (in the half it played them), the floor's four (every card on
the floor or in a pile that nobody played). When another seat is the bidder its first
four are its opening card and three other cards of its hand, drawn per world
(:class:`Opening`).

A world is played by :func:`play_world`, the deal engine given the whole deck with the
bid forced. The other seats' earlier moves are forced *by their content* (kind, card,
target, loose cards, house: a move's index in the legal list depends on the hand) by a
wrapper around each seat's policy (:func:`_replayer`); the person's own moves by their
index (same hand, same floor: the same list) through the session's Script. A world is
kept only if it then shows the person what it sees (:func:`public`); a move the world
does not allow is an illegal answer, and the world is drawn again.
"""
from __future__ import annotations

from math import comb

import numba as nb
import numpy as np

from simcards.core.cards import SUIT_MASKS, cards_of
from simcards.core.errors import IllegalAnswer, SimcardsError
from simcards.core.interactive import H_AWAIT, HINT_SEED, CardWorlds
from simcards.core.jit import kernel
from simcards.core.policy import _int64_pointer
from simcards.core.rng import stream_start
from simcards.core.trace import no_trace
from simcards.games.seep.cards import VAL
from simcards.games.seep.layout import (
    BUILD, M_CARD, M_COLS, M_KIND, S_BID, S_D, S_DEALER, S_HAND, S_HOUSE, S_LOOSE, S_PILE, S_PLAY, S_PLAYED, S_PRIVATE,
    S_SEAT, ST_SIZE,
)
from simcards.games.seep.policies import MOVE_SIG
from simcards.games.seep.rules import (
    DEAL_NCOLS, MAX_MOVES, Seats, baazi_step, check_answer, make_work, play_dealt, seats, start_deal, write_deal,
)

MAX_PLAYS = 48  # forced moves per seat, at most
_CUR, _CNT, _ROWS = 0, 4, 8
_SIZE = _ROWS + 4 * MAX_PLAYS * M_COLS
_FORCE = np.zeros(_SIZE, np.int64)  # the other seats' forced moves: cursors, counts, rows (one per process)
_REPLAYERS: dict[int, tuple] = {}


class NoWorld(IllegalAnswer):
    """The world does not fit the opening play (``deck_of``): it is drawn again, as after an illegal answer."""


@kernel
def play_world(params, seats, deck, dealer, D, bid, seed, number, W, moves, row):
    """The deal of ``deck`` (the kernel's card order, rules 2.2 and 2.5) from dealer ``dealer`` and
    running difference ``D``, with ``bid`` forced (0: the bidder's policy bids), played by
    ``seats``; the policies' stream is stream 1 of (``seed``, ``number``), as record ``number``'s
    deal; ``row``: the deal's record row (``write_deal``), then the team that loses the baazi
    by this deal (-1: none, rules 5.2 and 5.3) when it has room for it."""
    st = np.zeros(ST_SIZE, np.int64)
    view = np.zeros(ST_SIZE, np.int64)
    rpol = np.zeros(1, np.uint64)
    tr_state = np.zeros((1, ST_SIZE), np.int64)
    start_deal(st, params, dealer, D)
    rpol[0] = stream_start(np.uint64(seed), np.uint64(number), np.uint64(1))
    play_dealt(st, params, bid, seats, rpol, deck, W, moves, view, no_trace(), tr_state)
    check_answer(st)
    write_deal(st, params, row)
    if row.shape[0] > DEAL_NCOLS:
        row[DEAL_NCOLS] = baazi_step(params, D, st)[1]


def _replayer(inner):
    """``inner`` (a seat's move function) behind the forced moves of ``_FORCE``: the seat's
    next forced move is found in the legal list by its content (-1, an illegal answer, when
    it is not there), and ``inner`` decides once they are spent."""
    key = id(inner)
    if key not in _REPLAYERS:
        address = _FORCE.ctypes.data

        @nb.njit(MOVE_SIG, nogil=True)
        def replay(view, moves, n, rng):
            buf = nb.carray(_int64_pointer(address), _SIZE)
            seat = view[S_SEAT]
            k = buf[_CUR + seat]
            if k < buf[_CNT + seat]:
                buf[_CUR + seat] = k + 1
                q = _ROWS + (seat * MAX_PLAYS + k) * M_COLS
                for i in range(n):
                    same = True
                    for j in range(M_COLS):
                        if moves[i, j] != buf[q + j]:
                            same = False
                            break
                    if same:
                        return i
                return -1
            return inner(view, moves, n, rng)

        _REPLAYERS[key] = (inner, replay)  # inner kept: its id stays unique
    return _REPLAYERS[key][1]


def _force(rows: dict[int, list[tuple]]) -> None:
    _FORCE[:] = 0
    for s, rs in rows.items():
        _FORCE[_CNT + s] = len(rs)
        for k, r in enumerate(rs):
            q = _ROWS + (s * MAX_PLAYS + k) * M_COLS
            _FORCE[q:q + M_COLS] = r[:M_COLS]


def public(pending) -> tuple:
    """What the seat sees now (a world must show it the same): the public view, its hand."""
    return (pending.decision, int(pending.args[2])) + tuple(int(x) for x in pending.args[0][:S_PRIVATE])


def deal_log(log) -> tuple[list, int]:
    """The moves of the deal in play, ``[(seat, row)]`` in play order, and the index of its bid in ``log``."""
    bids = [i for i, e in enumerate(log) if e.decision == "bid"]
    if not bids:
        raise SimcardsError("no bid in the record so far")
    b = bids[-1]
    return [(e.seat, tuple(e.row[:M_COLS])) for e in log[b + 1:] if e.decision == "move"], b


class Holders:
    """The deal's holders (see the module docstring) and the deck position each one fills."""

    def __init__(self, variant, dealer: int, me: int):
        from simcards.games.seep.odds import deal_positions

        n = variant.num_players
        self.n, self.me = n, me
        self.bidder = (dealer + 1) % n
        self.stages = 2 if n == 2 else 1
        self.floor = n
        self.open = n * self.stages + 1 if me == self.bidder else None  # the person's first four
        self.count = n * self.stages + 1 + (self.open is not None)
        holder = deal_positions(variant, dealer)
        self.pos = np.full(52, -1, np.int64)
        for p in range(52):
            if p < 4:
                self.pos[p] = self.open if self.open is not None else self.seat(self.bidder, 1)
            elif p < 8:
                self.pos[p] = self.floor
            else:
                self.pos[p] = self.seat(int(holder[p]), 2 if n == 2 and p >= 28 else 1)
        self.sizes = np.bincount(self.pos, minlength=self.count).astype(np.int64)

    def seat(self, s: int, stage: int) -> int:
        return s if stage == 1 else self.n + 1 + s

    def stage(self, play: int) -> int:
        """The dealing stage a card played at ``play`` comes from (two players: the second half after play 24)."""
        return 2 if self.n == 2 and play > 24 else 1


def knowledge(h: Holders, v, moves, open_hand: int) -> np.ndarray:
    """Known cards per holder: the person's hand (and first four, ``open_hand``), every played
    card in its player's holder, the floor's four."""
    known = np.zeros(h.count, np.uint64)
    for k, (s, row) in enumerate(moves, 1):
        known[h.seat(s, h.stage(k))] |= np.uint64(1 << int(row[1]))
    known[h.seat(h.me, h.stage(int(v[S_PLAY])))] |= np.uint64(int(v[S_HAND]))
    if h.open is not None:
        known[h.open] = np.uint64(open_hand)
        known[h.seat(h.me, 1)] &= ~np.uint64(open_hand)
    played = 0
    for s in range(h.n):
        played |= int(v[S_PLAYED + s])
    seen = int(v[S_LOOSE]) | int(v[S_PILE]) | int(v[S_PILE + 1])
    for w in range(14):
        seen |= int(v[S_HOUSE + w])
    known[h.floor] = np.uint64(seen & ~played)
    return known


def _open_weight(rest: int, good: int) -> float:
    """The share of the three-card draws from ``rest`` cards that take one of ``good`` cards."""
    return 1 - comb(rest - good, 3) / comb(rest, 3)


class Opening:
    """Another seat's first four in a world: its opening card and three other cards of its hand.

    After a build opening the bidder kept a card of the bid value (rule 2.4): a world is then
    kept with a weight proportional to its share of the draws that fit (that many first
    fours fit it; ``NoWorld`` otherwise) and the draw is made among those.
    """

    def __init__(self, h: Holders, opening: tuple, bid: int, known: np.ndarray, rng):
        self.holder = h.seat(h.bidder, 1)
        self.card = int(opening[M_CARD])
        self.build = int(opening[M_KIND]) == BUILD
        self.bid, self.rng = bid, rng
        good = [c for c in range(52) if int(VAL[c]) == bid and c != self.card]
        elsewhere = 0
        for k in range(h.count):
            if k != self.holder:
                elsewhere |= int(known[k])
        mine = int(known[self.holder])
        room = int(h.sizes[self.holder]) - bin(mine).count("1")
        sure = sum(mine >> c & 1 for c in good)
        free = sum(1 for c in good if not (mine | elsewhere) >> c & 1)
        self.rest = int(h.sizes[self.holder]) - 1
        self.most = min(self.rest, sure + min(free, room))  # bid-valued cards the bidder may hold at most

    def first_four(self, hand: list[int]) -> list[int]:
        rest = [c for c in hand if c != self.card]
        pick = self.rng.choice(len(rest), 3, replace=False)
        if self.build:
            good = sum(int(VAL[c]) == self.bid for c in rest)
            if self.rng.random() * _open_weight(len(rest), self.most) >= _open_weight(len(rest), good):
                raise NoWorld()
            while not any(int(VAL[rest[i]]) == self.bid for i in pick):
                pick = self.rng.choice(len(rest), 3, replace=False)
        return [self.card] + [rest[i] for i in pick]


def deck_of(h: Holders, world: np.ndarray, opening: Opening | None) -> np.ndarray:
    """The kernel's deck order of a world (hands per holder; another seat's first four drawn by ``opening``)."""
    deck = np.zeros(52, np.int64)
    cards = {k: sorted(cards_of(int(world[k]))) for k in range(h.count)}
    if opening is not None:
        first = opening.first_four(cards[opening.holder])
        cards[opening.holder] = first + [c for c in cards[opening.holder] if c not in first]
    at = {k: 0 for k in cards}
    for p in range(52):
        k = int(h.pos[p])
        deck[p] = cards[k][at[k]]
        at[k] += 1
    return deck


def seep_worlds(session, pending) -> CardWorlds | None:
    """Card hints for a Seep move: the deal in play replayed in sampled worlds (module docstring)."""
    if pending.decision != "move":
        return None
    v = pending.args[0]
    me, variant = pending.seat, session.variant
    dealer, bid, D, play = int(v[S_DEALER]), int(v[S_BID]), int(v[S_D]), int(v[S_PLAY])
    log = session.history()
    moves, at_bid = deal_log(log)
    if len(moves) + 1 != play:
        raise SimcardsError(f"the log holds {len(moves)} moves of this deal, the view says play {play}")
    h = Holders(variant, dealer, me)
    open_hand = 0
    if h.open is not None:  # the person's four cards at the bid: the record run up to that answer
        j = sum(1 for e in log[:at_bid] if e.seat == me)
        open_hand = int(session.run(session.answers[:j]).args[0][S_HAND])
        session.run()  # the shared log is this record's again
    known = knowledge(h, v, moves, open_hand)
    forced_rows: dict[int, list] = {s: [] for s in range(h.n) if s != me}
    for s, row in moves:
        if s != me:
            forced_rows[s].append(row)
    mine = [e.answer for e in log[at_bid + 1:] if e.seat == me and e.decision == "move"]
    params = variant.to_params()
    script = session.script
    table = seats(script.table)
    world_seats = Seats(table.bid, tuple(_replayer(f) for f in table.move), table.params)
    W = make_work()
    buf = np.zeros((MAX_MOVES, M_COLS), np.int64)
    seed = int(np.uint64(session.seed) ^ np.uint64(HINT_SEED))
    side = me % 2
    baazi = session.unit != "deal"  # the baazi's end matters (a deal record ends with the deal)
    rng = np.random.default_rng([session.seed, session.index, len(session.answers)])
    opening = Opening(h, moves[0][1], bid, known, rng) if h.open is None else None
    drawn = {}

    def play_(world, number):
        # a world is first replayed (the Script waits for the person), then each move is played on it:
        # another bidder's first four are drawn at the replay and kept for the moves
        if script.buf[H_AWAIT] >= 0 or not drawn:
            drawn["deck"] = deck_of(h, world, opening)
        deck = drawn["deck"]
        _force(forced_rows)
        row = np.zeros(DEAL_NCOLS + 1, np.int64)
        play_world(params, world_seats, deck, dealer, D, bid, seed, number, W, buf, row)
        ours, theirs = float(row[11 + side]), float(row[12 - side])
        loser = int(row[DEAL_NCOLS])
        return {"margin": ours - theirs, "points": ours, "sweep pts": float(row[9 + side]),
                "their sweep pts": float(row[10 - side]), "P(bid made)": float(row[31]),
                "P(baazi won now)": float(loser == 1 - side) if baazi else np.nan,
                "P(baazi lost now)": float(loser == side) if baazi else np.nan}

    teams = ("A", "B") if h.n == 4 else ("P0", "P1")
    note = (f"Your side {teams[side]}; margin: your side's deal score minus the other's (card points + sweeps), "
            f"what the running difference moves by; points, sweep pts: your side's; P(bid made): the bidder's "
            f"side ({'yours' if h.bidder % 2 == side else 'theirs'}) captures the opening card"
            + ("; P(baazi won/lost now): this deal ends the baazi (a 100-point lead or the 9-point minimum, "
               f"from D = {D:+d})." if baazi else "."))
    return CardWorlds(h.count, np.arange(52, dtype=np.int64), h.sizes, known, np.full((h.count, 4), 99, np.int64),
                      SUIT_MASKS, {me: mine}, play_, public, "margin", note=note)
