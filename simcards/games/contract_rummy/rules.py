"""Contract Rummy rules kernel (numba): deal, draw, meld phase, discard, scoring.

One ``State`` of preallocated arrays is reused for every record of a chunk:
``hands[seat, type]`` counts, ``pub`` (the public view, view.py), ``melds`` (table),
``stock`` (top = last), ``pile_who`` (who discarded each pile card) and ``st`` (per-deal
statistics). The meld phase is planned by the engine (section 3.3/3.4): it lays the
contract, then makes joker swaps, extra melds and lay-offs, and retries with a card kept
back (or with no disposal) whenever the end-of-phase constraints would fail.

Randomness: stream 0 of the record shuffles (deals, refills, random first dealer),
stream 1 feeds the policies. The optional trace (a core/trace.py buffer, ``EVENTS`` below;
an empty one when not tracing) receives every action as a named event; replay.py prints
it and referee.py re-checks it.
"""
from collections import namedtuple

import numpy as np

from simcards.core.borrow import borrowed, keep_alive
from simcards.core.errors import IllegalAnswer
from simcards.core.policy import PARAM_SLOTS, Layout
from simcards.core.rng import below, shuffle, stream_start
from simcards.core.scratch import stack_int64, stack_int64_2d
from simcards.core.trace import NO_TRACE, TraceEvents, emit, tracing
from simcards.core.jit import helper, inline, kernel
from simcards.games.contract_rummy.melds import (
    ACE_MODE, DEEP_USE, EXHAUSTION, FINAL_DISCARD, GO_OUT_DISCARD, SWAP_SCOPE,
    C_ACE, C_MAX_JOK, C_MIN_NAT, C_MIN_SET, C_SET_DUP, C_UNIT_DEAL,
    C_BUY, C_BUY_AFTER, C_BUY_PEN, C_CONTRACTS, C_DECKS, C_DEEP, C_DEEP_BEFORE, C_DEEP_USE,
    C_EXHAUST, C_EXTRA_CARDS, C_EXTRA_MELDS, C_FINAL_ALL, C_FINAL_DISC, C_FIRST_DEALER, C_GO_OUT_DISC,
    C_HANDS, C_JOKERS, C_LAYOFF_SAME, C_MAX_BUYS, C_MAX_DEPTH, C_MAX_TURNS, C_MIN_RUN, C_NDEALS,
    C_NO_RETURN, C_NPL, C_SWAP, C_SWAP_PLACE, C_SWAP_PRIOR, C_SWAP_SCOPE, C_SWAP_SETS,
    C_TAKE_AFTER, C_TIE, INF, JOKER, M_CONTRACT, M_HI,
    M_JOK, M_KEY, M_KIND, M_LO, M_NAT, M_OWNER, MF, NT, RUN, SET, add_to_meld,
    final_fits, final_go_out, final_go_out_ok, find_contract, hand_penalty, joker_slot, meld_size, natural_slot, nib, penalty,
    pos_bounds, pos_type, popcount64,
)
from simcards.games.contract_rummy.view import (
    MAX_CARDS, MAX_MELDS, MAX_SEATS, OPT_SIZE, P_BUYS, P_DEAL, P_DEALER, P_DOWN, P_DOWN_TURN,
    P_DRAW, P_FINAL_ALL, P_HAND_SIZE, P_HLEN, P_NMELDS, P_NPL, P_OWN_TURN, P_PARAMS, P_PILE, P_PILE_LEN, P_R,
    P_S, P_SEAT, P_SINGLE_TOP, P_STOCK, P_TARGET, P_TOTAL, P_TURN, PUB_SIZE,
)

# no allocation below run_records (helper/inline with alloc=False: no reference counts; melds.py)

# ---- trace events (core/trace.py), declared once: codes EV_DEAL = 1, EV_HAND = 2, ... in this order
EVENTS = TraceEvents(
    "contract-rummy",
    deal=("dealer", "deal_no", "hand_size", "sets", "runs"),
    hand=("seat", "card", "count"),  # card: a card type; count: copies dealt
    upcard=("card",),
    stock=("depth", "card"),  # depth 0 = the stock's top card
    turn=("seat", "turn"),
    draw_stock=("seat", "card"),
    refill=("cards",),  # pile cards reshuffled into the stock (its order follows as stock events)
    take_top=("seat", "card"),
    deep=("seat", "depth", "target"),
    deep_card=("seat", "card", "depth"),
    buy=("seat", "card"),
    buy_stock=("seat", "card"),
    contract=("seat", "sets", "runs", "goes_out"),  # goes_out: the all-at-once final deal (3.6)
    meld=("seat", "meld", "is_run", "key", "contract"),  # its cards follow as mcard events
    mcard=("seat", "meld", "card", "slot"),  # slot: a run position or a set suit
    layoff=("seat", "meld", "card", "slot"),
    swap=("seat", "meld", "card", "slot"),  # card replaces the joker at slot
    discard=("seat", "card"),
    out=("seat", "by_discard"),
    exhausted=("why", "turns"),  # why: EXH_*
    score=("seat", "points", "total"),
    game_end=("winners",),  # bitmask of seats
    engine_fallback=("seat",),
)
EVENTS.export(globals())
EXH_CAP, EXH_NO_DRAW, EXH_EMPTY_STOCK = 1, 2, 3

# ---- per-deal statistics (st): the deal's counters, then per-seat slots (+ seat); constants S_*, NST
ST = Layout("contract-rummy deal state",
            turns=1, exhausted=1, out=1, refills=1, stock_draws=1, top_takes=1, deep_takes=1, deep_cards=1,
            layoffs=1, extra_melds=1, swaps=1, buys=1, fallbacks=1,
            pending=1,  # jokers swapped back this turn and still in hand (never discardable)
            score=MAX_SEATS,
            down_own=MAX_SEATS,  # own turn index when down (-1)
            jok_dealt=MAX_SEATS,
            left=MAX_SEATS,  # cards in hand at the end
            own_turns=MAX_SEATS,
            error=3)  # decision + 1, seat, value of an illegal policy answer (then IllegalAnswer)
ST.export(globals(), "S_", size="NST")

# decisions by their index in policies.DECISIONS (the error channel: core/errors.py)
DEC_DRAW, DEC_GO_DOWN, DEC_DISCARD, DEC_BUY = 0, 1, 2, 3

# turn outcomes
T_CONTINUE, T_OUT, T_NO_DRAW = 0, 1, 2
ASK_DEEP = -1  # draw option: "show me the legal deep takes" (then draw is asked again)


# kernel arguments, bundled (as in Spades): the variant, the policies, the table's state, scratch
Table = namedtuple("Table", ("cfg", "known"))  # packed variant (melds.py C_*); known: card counts dealt to kseat
Seats = namedtuple("Seats", ("draw", "go_down", "discard", "buy", "params"))  # a function per seat; params[seat]
Board = namedtuple("Board", ("hands", "pub", "melds", "stock", "pile_who", "st", "trace"))  # the State's arrays
Work = namedtuple("Work", ("rng_deck", "rng_pol", "opts", "buf", "buf2", "sol", "pack"))  # per-chunk scratch


class State:
    """Preallocated per-chunk arrays (a plain namespace; the kernel gets the arrays)."""


def new_state(trace_rows=0):
    s = State()
    s.hands = np.zeros((MAX_SEATS, NT), np.int64)
    s.pub = np.zeros(PUB_SIZE, np.int64)
    s.melds = np.zeros((MAX_MELDS, MF), np.int64)
    s.stock = np.zeros(MAX_CARDS, np.int64)
    s.pile_who = np.zeros(MAX_CARDS, np.int64)
    s.st = np.zeros(NST, np.int64)
    s.scratch = np.zeros(4 * MAX_CARDS + 4 * PUB_SIZE + 2 * MAX_MELDS * MF, np.int64)
    s.trace = EVENTS.buffer(trace_rows) if trace_rows > 0 else NO_TRACE  # no rows: not tracing
    return s


def seats(table):
    """The :class:`Seats` of a policy table (core/policy.py PolicyTable)."""
    return Seats(table["draw"], table["go_down"], table["discard"], table["buy"], table.params)


def board(s, trace=None):
    """The :class:`Board` of a :class:`State` (``trace``: instead of ``s.trace``)."""
    return Board(s.hands, s.pub, s.melds, s.stock, s.pile_who, s.st, s.trace if trace is None else trace)


def work(rng_deck, rng_pol, opts, scratch, sol, pack=None):
    """A :class:`Work` over caller-owned arrays (``scratch`` split in two halves: buf, buf2)."""
    half = scratch.shape[0] // 2
    if pack is None:
        pack = np.zeros(MAX_CARDS, np.int64)
    return Work(rng_deck, rng_pol, opts, scratch[:half], scratch[half:], sol, pack)


# ------------------------------------------------------------------ small helpers


@inline(alloc=False)
def ask_seat(pub, pparams, seat):
    """The view for ``seat``'s policy: who decides, and that seat's policy parameters
    (its ``PolicyTable.params`` row, fixed point) in the view's ``params`` slots."""
    pub[P_SEAT] = seat
    for k in range(PARAM_SLOTS):
        pub[P_PARAMS + k] = pparams[seat, k]


@helper(alloc=False)
def illegal(st, decision, seat, value):
    """Note an illegal answer in st[S_ERROR..] and raise (no run-time values without NRT)."""
    st[S_ERROR] = decision + 1
    st[S_ERROR + 1] = seat
    st[S_ERROR + 2] = value
    raise IllegalAnswer("contract-rummy: illegal policy answer")


@helper(alloc=False)
def discard_rule(cfg, pub):
    if pub[P_FINAL_ALL] and cfg[C_FINAL_DISC] != FINAL_DISCARD.SAME:
        return cfg[C_FINAL_DISC] - 1
    return cfg[C_GO_OUT_DISC]


@helper(alloc=False)
def legal_discards(hand, cfg, pub, opts, pending):
    """Write the legal discard types to opts[1..]; return how many."""
    n = 0
    st = pub[P_SINGLE_TOP]
    for t in range(NT):
        if hand[t] == 0:
            continue
        if cfg[C_NO_RETURN] and t == st:
            continue
        if t == JOKER and hand[t] <= pending:
            continue
        n += 1
        opts[n] = t
    opts[0] = n
    return n


@helper(alloc=False)
def end_ok(hand, cfg, pub, p, placed):
    """End-of-meld-phase constraints (3.4)."""
    if pub[P_TARGET] >= 0 and placed[0] < 1:
        return False
    h = pub[P_HLEN + p]
    rule = discard_rule(cfg, pub)
    if h == 0:
        return rule != GO_OUT_DISCARD.REQUIRED
    if h == 1 and rule == GO_OUT_DISCARD.FORBIDDEN:
        return False
    st = pub[P_SINGLE_TOP]
    for t in range(NT):
        if hand[t] and not (cfg[C_NO_RETURN] and t == st) and not (t == JOKER and hand[t] <= placed[1]):
            return True
    return False


# ------------------------------------------------------------------ deal


@helper(alloc=False)
def build_pack(cfg, pack):
    n = 0
    for d in range(cfg[C_DECKS]):
        for t in range(52):
            pack[n] = t
            n += 1
    for j in range(cfg[C_JOKERS]):
        pack[n] = JOKER
        n += 1
    return n


@helper(alloc=False)
def deal_cards(k, dealer, cfg, hands, pub, melds, stock, pile_who, st, rng, trace, pack, known, kseat):
    """Shuffle and deal deal ``k`` (0-based) as in 2.2; reset the deal state.

    With ``kseat`` >= 0 that seat's hand is the multiset ``known`` (int64[NT] counts, which
    must be available in the pack): the known cards leave the pack, the rest is shuffled
    uniformly and dealt to the other seats, the up-card and the stock in the usual order.
    That is the exact conditional distribution of the deal given the seat's hand. With
    ``kseat`` = -1 the deal (and its random numbers) is the normal one.
    """
    n = cfg[C_NPL]
    h = cfg[C_HANDS + k]
    for q in range(MAX_SEATS):
        for t in range(NT):
            hands[q, t] = 0
        pub[P_DOWN + q] = 0
        pub[P_DOWN_TURN + q] = -1
        pub[P_HLEN + q] = 0
        pub[P_BUYS + q] = 0
    N = build_pack(cfg, pack)
    if kseat >= 0:
        m = 0
        for i in range(N):
            t = pack[i]
            if hands[kseat, t] < known[t]:
                hands[kseat, t] += 1
            else:
                pack[m] = t
                m += 1
        N = m
    shuffle(pack[:N], rng)
    for i in range(NST):
        st[i] = 0
    for q in range(MAX_SEATS):
        st[S_SCORE + q] = -1 if q >= n else 0
        st[S_DOWN_OWN + q] = -1
        st[S_LEFT + q] = -1 if q >= n else 0
        st[S_JOK_DEALT + q] = -1 if q >= n else 0
    st[S_OUT] = -1
    j = 0
    for i in range(n * h):
        q = (dealer + 1 + i) % n
        if q == kseat:
            continue
        hands[q, pack[j]] += 1
        j += 1
    for q in range(n):
        pub[P_HLEN + q] = h
        st[S_JOK_DEALT + q] = hands[q, JOKER]
    pub[P_PILE] = pack[j]
    pile_who[0] = -1
    pub[P_PILE_LEN] = 1
    ns = N - j - 1
    for i in range(ns):
        stock[i] = pack[N - 1 - i]
    pub[P_STOCK] = ns
    pub[P_NMELDS] = 0
    pub[P_DEAL] = k + 1
    pub[P_DEALER] = dealer
    pub[P_S] = cfg[C_CONTRACTS + 2 * k]
    pub[P_R] = cfg[C_CONTRACTS + 2 * k + 1]
    pub[P_HAND_SIZE] = h
    # 3.6 defines the all-at-once deal for a final contract of runs only; a custom final
    # contract with sets is played like any other deal (docs/games/contract-rummy.md, decisions)
    pub[P_FINAL_ALL] = 1 if (cfg[C_FINAL_ALL] and k == cfg[C_NDEALS] - 1 and pub[P_S] == 0) else 0
    trace_deal(n, hands, pub, stock, trace)


@helper(alloc=False)
def trace_deal(n, hands, pub, stock, trace):
    """The deal's events: the deal, every hand, the up-card, the stock from its top."""
    if tracing(trace):
        emit(trace, EV_DEAL, pub[P_DEALER], pub[P_DEAL], pub[P_HAND_SIZE], pub[P_S], pub[P_R])
        for q in range(n):
            for t in range(NT):
                if hands[q, t]:
                    emit(trace, EV_HAND, q, t, hands[q, t], 0, 0)
        emit(trace, EV_UPCARD, pub[P_PILE], 0, 0, 0, 0)
        ns = pub[P_STOCK]
        for i in range(ns):
            emit(trace, EV_STOCK, i, stock[ns - 1 - i], 0, 0, 0)


@helper(alloc=False)
def refill(cfg, pub, stock, pile_who, rng, st, trace):
    """Reshuffle the pile except its top card into the stock (2.4). False if impossible.

    A ``rng`` longer than its one state slot carries planned refills (hint worlds,
    play_arranged): ``rng[1]`` the read position, there ``m`` and then the pile position
    (0 = bottom) of each new stock card, first drawn first. A refill past the plan, or of
    another size, is shuffled as usual."""
    pl = pub[P_PILE_LEN]
    if pl < 2:
        return False
    m = pl - 1
    c = np.int64(rng[1]) if rng.shape[0] > 1 else np.int64(0)
    if c > 0 and c + m < rng.shape[0] and np.int64(rng[c]) == m:
        for i in range(m):
            stock[m - 1 - i] = pub[P_PILE + np.int64(rng[c + 1 + i])]
        rng[1] = np.uint64(c + 1 + m)
    else:
        for j in range(m):
            stock[j] = pub[P_PILE + j]
        shuffle(stock[:m], rng)
    pub[P_PILE] = pub[P_PILE + pl - 1]
    pile_who[0] = pile_who[pl - 1]
    pub[P_PILE_LEN] = 1
    pub[P_STOCK] = m
    st[S_REFILLS] += 1
    if tracing(trace):
        emit(trace, EV_REFILL, m, 0, 0, 0, 0)
        for j in range(m):
            emit(trace, EV_STOCK, j, stock[m - 1 - j], 0, 0, 0)
    return True


@helper(alloc=False)
def stock_card(cfg, pub, stock, pile_who, rng, st, trace):
    """Pop the stock top, refilling first if allowed; -1 if no card."""
    if pub[P_STOCK] == 0:
        if cfg[C_EXHAUST] != EXHAUSTION.RESHUFFLE or not refill(cfg, pub, stock, pile_who, rng, st, trace):
            return -1
    pub[P_STOCK] -= 1
    return stock[pub[P_STOCK]]


@helper(alloc=False)
def stock_available(cfg, pub, need):
    """Whether ``need`` stock cards can be supplied (with a refill if allowed)."""
    if pub[P_STOCK] >= need:
        return True
    if cfg[C_EXHAUST] != EXHAUSTION.RESHUFFLE:
        return False
    # a refill happens only when the stock is empty
    if pub[P_STOCK] == 0:
        return pub[P_PILE_LEN] - 1 >= need
    return False


# ------------------------------------------------------------------ table actions


@helper(alloc=False)
def lay_meld(cfg, hand, pub, melds, p, sol_row, contract, target, placed, st, trace):
    """Put a new meld (a solution row) on the table from ``hand``."""
    i = pub[P_NMELDS]
    m = melds[i]
    for f in range(MF):
        m[f] = sol_row[f]
    m[M_OWNER] = p
    m[M_CONTRACT] = contract
    pub[P_NMELDS] = i + 1
    emit(trace, EV_MELD, p, i, m[M_KIND], m[M_KEY], contract)
    n = 0
    if m[M_KIND] == RUN:
        for pos in range(m[M_LO], m[M_HI] + 1):
            if (m[M_NAT] >> pos) & 1:
                t = pos_type(cfg, m[M_KEY], pos)
            else:
                t = JOKER
                if placed[1] > 0:
                    placed[1] -= 1
                    st[S_PENDING] -= 1
            hand[t] -= 1
            n += 1
            if t == target:
                placed[0] += 1
            emit(trace, EV_MCARD, p, i, t, pos, 0)
    else:
        for s in range(4):
            for _ in range(nib(m[M_NAT], s)):
                t = s * 13 + m[M_KEY]
                hand[t] -= 1
                n += 1
                if t == target:
                    placed[0] += 1
                emit(trace, EV_MCARD, p, i, t, s, 0)
            for _ in range(nib(m[M_JOK], s)):
                hand[JOKER] -= 1
                n += 1
                if placed[1] > 0:
                    placed[1] -= 1
                    st[S_PENDING] -= 1
                if target == JOKER:
                    placed[0] += 1
                emit(trace, EV_MCARD, p, i, JOKER, s, 0)
    pub[P_HLEN + p] -= n
    if not contract:
        st[S_EXTRA_MELDS] += 1


@helper(alloc=False)
def lay_off(cfg, hand, pub, melds, p, i, t, slot, target, placed, st, trace):
    add_to_meld(cfg, melds[i], slot, t == JOKER)
    hand[t] -= 1
    pub[P_HLEN + p] -= 1
    if t == target and cfg[C_DEEP_USE] == DEEP_USE.MELD_OR_LAYOFF:  # meld_only: a lay-off does not place the target
        placed[0] += 1
    if t == JOKER and placed[1] > 0:
        placed[1] -= 1
        st[S_PENDING] -= 1
    st[S_LAYOFFS] += 1
    emit(trace, EV_LAYOFF, p, i, t, slot, 0)


@helper(alloc=False)
def joker_target_slot(cfg, hand, pub, melds, origin):
    """Best free slot for a joker: one that lets a held natural follow it (+4), on a run
    (+1; a joker in a set is dead), on the meld it was swapped from (+1); never one a
    held natural could fill itself (-8). Returns (meld, slot) or (-1, -1)."""
    best_i = -1
    best_s = -1
    best = -100
    for i in range(pub[P_NMELDS]):
        m = melds[i]
        for prefer_high in (True, False):
            sl = joker_slot(cfg, m, prefer_high)
            if sl == -1:
                continue
            score = 1 if i == origin else 0
            if m[M_KIND] == SET:
                if hand[sl * 13 + m[M_KEY]] > 0:
                    score -= 8
            else:
                score += 1
                if _pos_ok(cfg, sl) and hand[pos_type(cfg, m[M_KEY], sl)] > 0:
                    score -= 8
                nxt = sl + 1 if sl > m[M_HI] else sl - 1
                if _pos_ok(cfg, nxt) and m[M_HI] - m[M_LO] + 2 < 14 and hand[pos_type(cfg, m[M_KEY], nxt)] > 0:
                    score += 4
            if score > best:
                best = score
                best_i = i
                best_s = sl
            if m[M_KIND] == SET:
                break
    return best_i, best_s


@helper(alloc=False)
def _pos_ok(cfg, p):
    a = cfg[C_ACE]
    if a == ACE_MODE.WRAP:
        return True
    if a == ACE_MODE.LOW:
        return 1 <= p <= 13
    if a == ACE_MODE.HIGH:
        return 2 <= p <= 14
    return 1 <= p <= 14


@helper(alloc=False)
def closure(cfg, hand, pub, melds, p, target, placed, st, trace):
    """Lay off natural cards until nothing more fits (safe among lay-offs, 9.3)."""
    changed = True
    while changed:
        changed = False
        for t in range(52):
            while hand[t] > 0:
                done = False
                for i in range(pub[P_NMELDS]):
                    sl = natural_slot(cfg, melds[i], t)
                    if sl != -1:
                        lay_off(cfg, hand, pub, melds, p, i, t, sl, target, placed, st, trace)
                        changed = True
                        done = True
                        break
                if not done:
                    break


@helper(alloc=False)
def try_swaps(cfg, hand, pub, melds, p, t_turn, target, placed, st, trace):
    """Joker swaps (3.3.4): take back jokers whose declared card is held; re-place each at once."""
    if cfg[C_SWAP] == 0:
        return
    if cfg[C_SWAP_PRIOR] and not pub[P_DOWN_TURN + p] < t_turn:
        return
    for i in range(pub[P_NMELDS]):
        m = melds[i]
        if cfg[C_SWAP_SCOPE] == SWAP_SCOPE.OTHERS_ONLY and m[M_OWNER] == p:
            continue
        if m[M_KIND] == RUN:
            for pos in range(m[M_LO], m[M_HI] + 1):
                if not (m[M_JOK] >> pos) & 1:
                    continue
                t = pos_type(cfg, m[M_KEY], pos)
                if hand[t] == 0 or (cfg[C_SWAP_PLACE] and joker_target_slot(cfg, hand, pub, melds, -1)[0] < 0):
                    continue
                m[M_JOK] &= ~(1 << pos)
                m[M_NAT] |= 1 << pos
                _swapped(cfg, hand, pub, melds, p, i, t, pos, target, placed, st, trace)
        elif cfg[C_SWAP_SETS]:
            for s in range(4):
                if nib(m[M_JOK], s) == 0:
                    continue
                t = s * 13 + m[M_KEY]
                if hand[t] == 0 or (cfg[C_SWAP_PLACE] and joker_target_slot(cfg, hand, pub, melds, -1)[0] < 0):
                    continue
                m[M_JOK] -= 1 << (4 * s)
                m[M_NAT] += 1 << (4 * s)
                _swapped(cfg, hand, pub, melds, p, i, t, s, target, placed, st, trace)


@helper(alloc=False)
def _swapped(cfg, hand, pub, melds, p, i, t, slot, target, placed, st, trace):
    hand[t] -= 1
    hand[JOKER] += 1
    if t == target and cfg[C_DEEP_USE] == DEEP_USE.MELD_OR_LAYOFF:
        placed[0] += 1
    if target == JOKER:
        placed[0] -= 1
    st[S_SWAPS] += 1
    emit(trace, EV_SWAP, p, i, t, slot, 0)
    j, sl = joker_target_slot(cfg, hand, pub, melds, i)
    if j >= 0:
        lay_off(cfg, hand, pub, melds, p, j, JOKER, sl, target, placed, st, trace)
    else:
        placed[1] += 1  # kept (only possible without joker_swap_must_place)
        st[S_PENDING] += 1


@helper(alloc=False)
def extra_melds(cfg, hand, pub, melds, p, target, placed, st, trace, budget, sol):
    """Lay new melds from the hand (runs first), target first; ``budget`` = jokers allowed."""
    while True:
        found = -1
        tgt = target if (target >= 0 and target < 52 and placed[0] < 1 and hand[target] > 0) else -1
        for b in range(budget + 1):
            if b > hand[JOKER]:
                break
            for kind in range(2):
                if found >= 0:
                    break
                if tgt >= 0:
                    found = find_contract(hand, 1 - kind, kind, cfg, b, tgt, True, sol)
                if found < 0:
                    found = find_contract(hand, 1 - kind, kind, cfg, b, -1, True, sol)
            if found >= 0:
                break
        if found < 0:
            return
        # refuse degenerate all-joker shortcuts: a meld must take at least one natural
        lay_meld(cfg, hand, pub, melds, p, sol[0], 0, target, placed, st, trace)


@helper(alloc=False)
def dispose(cfg, hand, pub, melds, p, t_turn, reserve, target, placed, st, trace, sol):
    """A down player's lay-offs, swaps and extra melds; ``reserve`` type is kept back.

    A deep-take target that fits a meld is laid off first; ``reserve`` = -2 does only that.
    """
    if target >= 0 and target < 52 and placed[0] < 1 and hand[target] > 0 and cfg[C_DEEP_USE] == DEEP_USE.MELD_OR_LAYOFF:
        for i in range(pub[P_NMELDS]):
            sl = natural_slot(cfg, melds[i], target)
            if sl != -1:
                lay_off(cfg, hand, pub, melds, p, i, target, sl, target, placed, st, trace)
                break
    if reserve == -2:
        return
    hidden = reserve >= 0 and hand[reserve] > 0  # the contract may have used the kept card
    if hidden:
        hand[reserve] -= 1
        pub[P_HLEN + p] -= 1
    try_swaps(cfg, hand, pub, melds, p, t_turn, target, placed, st, trace)
    if cfg[C_EXTRA_MELDS]:
        extra_melds(cfg, hand, pub, melds, p, target, placed, st, trace, 0, sol)
    closure(cfg, hand, pub, melds, p, target, placed, st, trace)
    while hand[JOKER] > 0:
        before = pub[P_HLEN + p]
        if cfg[C_EXTRA_MELDS]:
            extra_melds(cfg, hand, pub, melds, p, target, placed, st, trace, hand[JOKER], sol)
            closure(cfg, hand, pub, melds, p, target, placed, st, trace)
        if hand[JOKER] > 0:
            j, sl = joker_target_slot(cfg, hand, pub, melds, -1)
            if j >= 0:
                lay_off(cfg, hand, pub, melds, p, j, JOKER, sl, target, placed, st, trace)
                closure(cfg, hand, pub, melds, p, target, placed, st, trace)
        if pub[P_HLEN + p] == before:
            break
    if hidden:
        hand[reserve] += 1
        pub[P_HLEN + p] += 1


# ------------------------------------------------------------------ snapshots


@helper(alloc=False)
def snap_save(hand, pub, melds, st, trace, buf):
    nm = pub[P_NMELDS]
    k = 0
    for t in range(NT):
        buf[k] = hand[t]
        k += 1
    for i in range(P_PILE):  # the pile and the policy parameters never change in a meld phase
        buf[k] = pub[i]
        k += 1
    for i in range(nm):
        for f in range(MF):
            buf[k] = melds[i, f]
            k += 1
    for i in range(S_SCORE):  # the deal's counters (the per-seat slots follow)
        buf[k] = st[i]
        k += 1
    buf[k] = trace[0, 0] if tracing(trace) else 0  # events emitted so far


@helper(alloc=False)
def snap_load(hand, pub, melds, st, trace, buf):
    k = 0
    for t in range(NT):
        hand[t] = buf[k]
        k += 1
    for i in range(P_PILE):  # the pile and the policy parameters never change in a meld phase
        pub[i] = buf[k]
        k += 1
    nm = pub[P_NMELDS]
    for i in range(nm):
        for f in range(MF):
            melds[i, f] = buf[k]
            k += 1
    for i in range(S_SCORE):
        st[i] = buf[k]
        k += 1
    if tracing(trace):  # drop the events of the phase being undone
        trace[0, 0] = buf[k]


# ------------------------------------------------------------------ meld phase


@helper(alloc=False)
def contract_attempt(cfg, hand, pub, melds, p, t_turn, reserve, go_down, placed, st, trace, sol):
    """One candidate meld phase: 1 if it meets 3.4, 0 if not, -1 if no reserve choice can help.

    ``reserve``: a card type kept back from disposal, -1 none, -2 no disposal at all."""
    target = pub[P_TARGET]
    S = pub[P_S]
    R = pub[P_R]
    if not pub[P_DOWN + p]:
        if not go_down:
            return 1 if end_ok(hand, cfg, pub, p, placed) else -1
        if pub[P_FINAL_ALL]:
            return 1 if final_attempt(cfg, hand, pub, melds, p, t_turn, placed, st, trace, sol) else -1
        force = -1
        if target >= 0 and target < 52 and (cfg[C_DEEP_USE] == DEEP_USE.MELD_ONLY or not cfg[C_LAYOFF_SAME]):
            force = target
        n = find_contract(hand, S, R, cfg, hand[JOKER], force, True, sol)
        if n < 0 and target >= 0 and target < 52 and force < 0:
            n = find_contract(hand, S, R, cfg, hand[JOKER], target, True, sol)
        if n < 0 and force < 0 and target >= 0:
            n = find_contract(hand, S, R, cfg, hand[JOKER], -1, True, sol)
        if n < 0:
            return -1
        emit(trace, EV_CONTRACT, p, S, R, 0, 0)
        for j in range(n):
            lay_meld(cfg, hand, pub, melds, p, sol[j], 1, target, placed, st, trace)
        pub[P_DOWN + p] = 1
        pub[P_DOWN_TURN + p] = t_turn
        if cfg[C_EXTRA_CARDS] and not cfg[C_LAYOFF_SAME] and reserve != -2:
            # longer contract melds (1.5.3): extend the new contract melds only
            own_closure(cfg, hand, pub, melds, p, pub[P_NMELDS] - n, target, placed, st, trace, reserve)
    if pub[P_DOWN + p] and (reserve != -2 or target >= 0) and (pub[P_DOWN_TURN + p] < t_turn or cfg[C_LAYOFF_SAME]):
        dispose(cfg, hand, pub, melds, p, t_turn, reserve, target, placed, st, trace, sol)
    if target >= 0 and placed[0] < 1:
        return -1  # keeping a card back never helps to place the target
    return 1 if end_ok(hand, cfg, pub, p, placed) else 0


@helper(alloc=False)
def own_closure(cfg, hand, pub, melds, p, first, target, placed, st, trace, reserve):
    """Longer contract melds: extend the melds from index ``first`` with held naturals."""
    hidden = reserve >= 0 and hand[reserve] > 0
    if hidden:
        hand[reserve] -= 1
    changed = True
    while changed:
        changed = False
        for t in range(52):
            if hand[t] == 0:
                continue
            for i in range(first, pub[P_NMELDS]):
                sl = natural_slot(cfg, melds[i], t)
                if sl != -1:
                    add_to_meld(cfg, melds[i], sl, False)
                    hand[t] -= 1
                    pub[P_HLEN + p] -= 1
                    if t == target:
                        placed[0] += 1
                    emit(trace, EV_MCARD, p, i, t, sl, 0)
                    changed = True
                    break
    if hidden:
        hand[reserve] += 1


@helper(alloc=False)
def final_possible(hand, R):
    """Necessary for going out in the all-at-once final deal: after one discard at most,
    the naturals lie in at most R suits."""
    suits = 0
    singles = 0
    for s in range(4):
        c = 0
        for r in range(13):
            c += hand[s * 13 + r]
        if c > 0:
            suits += 1
            if c == 1:
                singles += 1
    return suits <= R or (suits == R + 1 and singles > 0)


@helper(alloc=False)
def final_attempt(cfg, hand, pub, melds, p, t_turn, placed, st, trace, sol):
    """All-at-once final deal (3.6): go out now or lay nothing."""
    rule = discard_rule(cfg, pub)
    target = pub[P_TARGET]
    R = pub[P_R]
    if pub[P_S] == 0 and not final_possible(hand, R):
        return target < 0 and end_ok(hand, cfg, pub, p, placed)
    fits = stack_int64_2d(4, 5)
    final_fits(hand, cfg, fits)
    for opt in range(-1, NT):
        if opt == -1:
            if rule == GO_OUT_DISCARD.REQUIRED:
                continue
        else:
            if rule == GO_OUT_DISCARD.FORBIDDEN or hand[opt] == 0:
                continue
            if cfg[C_NO_RETURN] and opt == pub[P_SINGLE_TOP]:
                continue
            if opt == target and hand[opt] < 2:
                continue
        if pub[P_S] == 0 and final_go_out_ok(hand, R, cfg, opt, fits):
            n = final_go_out(hand, R, cfg, opt, sol)
        else:
            n = -1
        if n < 0:
            continue
        emit(trace, EV_CONTRACT, p, pub[P_S], R, 1, 0)
        for j in range(n):
            lay_meld(cfg, hand, pub, melds, p, sol[j], 1, target, placed, st, trace)
        pub[P_DOWN + p] = 1
        pub[P_DOWN_TURN + p] = t_turn
        return end_ok(hand, cfg, pub, p, placed)
    return target < 0 and end_ok(hand, cfg, pub, p, placed)


@helper(alloc=False)
def best_attempt(cfg, hand, pub, melds, p, t_turn, placed, st, trace, sol, buf):
    """Play the first legal meld phase that goes down/disposes, trying reserve choices in
    order (none, each legal discard type, no disposal); ``buf`` holds the starting state."""
    for k in range(-1, NT + 1):
        reserve = -2 if k == NT else k
        if k != -1:
            snap_load(hand, pub, melds, st, trace, buf)
            if k < NT and (hand[k] == 0 or (cfg[C_NO_RETURN] and k == pub[P_SINGLE_TOP])):
                continue
        placed[0] = 0
        placed[1] = 0
        rc = contract_attempt(cfg, hand, pub, melds, p, t_turn, reserve, True, placed, st, trace, sol)
        if rc == 1:
            return True
        if rc == -1:
            return False
    return False


@helper(alloc=False)
def meld_phase(cfg, hands, pub, melds, p, t_turn, st, trace, go_down_f, pparams, rng, opts, buf, sol, ask):
    """Plan and play the meld phase (3.3/3.4). Returns True if a legal phase was played."""
    hand = hands[p]
    placed = stack_int64(2)
    placed[0] = 0
    placed[1] = 0
    if (pub[P_FINAL_ALL] and not pub[P_DOWN + p] and pub[P_TARGET] < 0 and pub[P_S] == 0
            and not final_possible(hand, pub[P_R])):
        # the usual turn of the all-at-once final deal: nothing can be laid (final_attempt)
        return end_ok(hand, cfg, pub, p, placed)
    if (not pub[P_DOWN + p] and not pub[P_FINAL_ALL] and pub[P_TARGET] < 0
            and find_contract(hand, pub[P_S], pub[P_R], cfg, hand[JOKER], -1, True, sol) < 0):
        # not down and no contract in hand: the phase is empty (contract_attempt's search)
        return end_ok(hand, cfg, pub, p, placed)
    snap_save(hand, pub, melds, st, trace, buf)
    was_down = pub[P_DOWN + p]
    if not best_attempt(cfg, hand, pub, melds, p, t_turn, placed, st, trace, sol, buf):
        snap_load(hand, pub, melds, st, trace, buf)
        placed[0] = 0
        placed[1] = 0
        return contract_attempt(cfg, hand, pub, melds, p, t_turn, -2, False, placed, st, trace, sol) == 1
    if ask and not was_down and pub[P_DOWN + p] and pub[P_TARGET] < 0 and not pub[P_FINAL_ALL]:
        opts[0] = pub[P_HLEN + p]
        opts[1] = hand_penalty(hand, cfg)
        opts[2] = 1 if pub[P_HLEN + p] == 0 else 0
        # the policy decides looking at the hand it holds before laying down
        snap_load(hand, pub, melds, st, trace, buf)
        ask_seat(pub, pparams, p)
        answer = go_down_f[p](hand, pub, melds, opts, cfg, rng)
        if answer != 0 and answer != 1:
            illegal(st, DEC_GO_DOWN, p, answer)
        if answer == 1:
            return best_attempt(cfg, hand, pub, melds, p, t_turn, placed, st, trace, sol, buf)
        placed[0] = 0
        placed[1] = 0
        return contract_attempt(cfg, hand, pub, melds, p, t_turn, -2, False, placed, st, trace, sol) == 1
    return True


# ------------------------------------------------------------------ draws


@helper(alloc=False)
def quick_meld_with(cfg, hand, t):
    """Whether a minimum-size set or run holding natural t can be made from ``hand``."""
    J = hand[JOKER]
    if J > cfg[C_MAX_JOK]:
        J = cfg[C_MAX_JOK]
    need = cfg[C_MIN_NAT]
    s = t // 13
    r = t % 13
    nat = 0
    for s2 in range(4):
        c = hand[s2 * 13 + r]
        if cfg[C_SET_DUP] == 0 and c > 1:
            c = 1
        nat += c
    if nat >= need and nat + J >= cfg[C_MIN_SET]:
        return True
    L = cfg[C_MIN_RUN]
    pmin, pmax, maxlen = pos_bounds(cfg)
    # positions of t (an ace has two)
    for p0 in range(pmin, pmax + 1):
        if pos_type(cfg, s, p0) != t:
            continue
        for lo in range(p0 - L + 1, p0 + 1):
            if lo < pmin or lo + L - 1 > pmax:
                continue
            nat = 0
            for p in range(lo, lo + L):
                if hand[pos_type(cfg, s, p)] > 0:
                    nat += 1
            if nat >= need and nat + J >= L:
                return True
    return False


@helper(alloc=False)
def related(cfg, hand, t):
    """A joker, another card of t's rank, or a same-suit card within run reach is held."""
    if hand[JOKER] > 0:
        return True
    s = t // 13
    r = t % 13
    for s2 in range(4):
        if hand[s2 * 13 + r] > (1 if s2 == s else 0):
            return True
    for dd in range(1, cfg[C_MIN_RUN]):
        if hand[s * 13 + (r + dd) % 13] or hand[s * 13 + (r - dd + 13) % 13]:
            return True
    return False


@helper(alloc=False)
def deep_prefilter(cfg, hand, pub, melds, p, target, sol):
    """Necessary conditions for a deep take (hand already holds the taken cards)."""
    if not pub[P_DOWN + p]:
        if pub[P_FINAL_ALL]:
            return pub[P_S] != 0 or final_possible(hand, pub[P_R])
        if target == JOKER:
            return find_contract(hand, pub[P_S], pub[P_R], cfg, hand[JOKER], -1, True, sol) >= 0
        hand[target] -= 1
        rel = related(cfg, hand, target)
        hand[target] += 1
        return rel and find_contract(hand, pub[P_S], pub[P_R], cfg, hand[JOKER], target, True, sol) >= 0
    if target == JOKER:
        return True
    if cfg[C_DEEP_USE] == DEEP_USE.MELD_OR_LAYOFF:
        for i in range(pub[P_NMELDS]):
            m = melds[i]
            if natural_slot(cfg, m, target) != -1:
                return True
            if m[M_KIND] == RUN and m[M_KEY] == target // 13 and hand[JOKER] > 0:
                return True
            if m[M_KIND] == RUN and m[M_KEY] == target // 13:
                # a chain of held cards from a run end to the target
                for direction in (-1, 1):
                    pos = m[M_LO] - 1 if direction < 0 else m[M_HI] + 1
                    for _ in range(13):
                        if not _pos_ok(cfg, pos):
                            break
                        t2 = pos_type(cfg, m[M_KEY], pos)
                        if t2 == target:
                            return True
                        if hand[t2] == 0:
                            break
                        pos += direction
    if cfg[C_EXTRA_MELDS] and quick_meld_with(cfg, hand, target):
        return True
    if cfg[C_SWAP] and cfg[C_DEEP_USE] == DEEP_USE.MELD_OR_LAYOFF:
        for i in range(pub[P_NMELDS]):
            m = melds[i]
            if m[M_KIND] == RUN and m[M_KEY] == target // 13:
                for pos in range(m[M_LO], m[M_HI] + 1):
                    if (m[M_JOK] >> pos) & 1 and pos_type(cfg, m[M_KEY], pos) == target:
                        return True
    return False


@helper(alloc=False)
def deep_legal(cfg, hands, pub, melds, p, t_turn, d, st, trace, buf, buf2, sol, opts):
    """Whether DEEP(d) leaves a legal meld phase placing the target (checked by playing it
    on a copy of the state)."""
    hand = hands[p]
    pl = pub[P_PILE_LEN]
    target = pub[P_PILE + pl - d]
    # necessary conditions first (cheap), then the exact check by playing the phase
    for k in range(1, d + 1):
        hand[pub[P_PILE + pl - k]] += 1
    rel = deep_prefilter(cfg, hand, pub, melds, p, target, sol)
    for k in range(1, d + 1):
        hand[pub[P_PILE + pl - k]] -= 1
    if not rel:
        return False
    if pub[P_DOWN + p] and target < 52 and cfg[C_DEEP_USE] == DEEP_USE.MELD_OR_LAYOFF:
        # a down player can always lay off just the target when it fits a meld: he still
        # holds >= 2 cards afterwards (d >= 2), none of them barred from the discard
        for i in range(pub[P_NMELDS]):
            if natural_slot(cfg, melds[i], target) != -1:
                return True
    # play it on the real arrays, then restore everything
    trace = trace[:0]  # the trial phase is not traced
    for k in range(1, d + 1):
        hand[pub[P_PILE + pl - k]] += 1
    pub[P_HLEN + p] += d
    pub[P_PILE_LEN] = pl - d
    pub[P_TARGET] = target
    pub[P_SINGLE_TOP] = -1
    placed = stack_int64(2)
    placed[0] = 0
    placed[1] = 0
    snap_save(hand, pub, melds, st, trace, buf2)
    ok = best_attempt(cfg, hand, pub, melds, p, t_turn, placed, st, trace, sol, buf2)
    snap_load(hand, pub, melds, st, trace, buf2)
    for k in range(1, d + 1):
        hand[pub[P_PILE + pl - k]] -= 1
    pub[P_HLEN + p] -= d
    pub[P_PILE_LEN] = pl
    pub[P_TARGET] = -1
    return ok


@helper(alloc=False)
def _feasible_with(cfg, hand, pub, pl, d, sol):
    """Whether the contract can be made from the hand plus the top d pile cards."""
    for k in range(1, d + 1):
        hand[pub[P_PILE + pl - k]] += 1
    ok = find_contract(hand, pub[P_S], pub[P_R], cfg, hand[JOKER], -1, True, sol) >= 0
    for k in range(1, d + 1):
        hand[pub[P_PILE + pl - k]] -= 1
    return ok


@helper(alloc=False)
def draw_options(cfg, hands, pub, melds, p, t_turn, st, trace, opts, buf, buf2, sol, with_deep):
    """Legal draws into opts (0 stock, 1 top, d deep). With ``with_deep`` = 0 the deep takes
    are not worked out; -1 is listed instead when some may exist (ASK_DEEP). Otherwise deep
    takes down to depth ``with_deep`` are listed."""
    hand = hands[p]
    n = 0
    if stock_available(cfg, pub, 1):
        n += 1
        opts[n] = 0
    pl = pub[P_PILE_LEN]
    down = pub[P_DOWN + p]
    may_take = pl > 0 and (not down or cfg[C_TAKE_AFTER])
    if may_take:
        top = pub[P_PILE + pl - 1]
        only_top = cfg[C_NO_RETURN] and hand[top] == pub[P_HLEN + p]
        if not only_top:
            n += 1
            opts[n] = 1
        if cfg[C_DEEP] and (down or cfg[C_DEEP_BEFORE]) and pl >= 2 and not with_deep:
            n += 1
            opts[n] = ASK_DEEP
        elif cfg[C_DEEP] and (down or cfg[C_DEEP_BEFORE]):
            maxd = pl
            if cfg[C_MAX_DEPTH] < maxd:
                maxd = cfg[C_MAX_DEPTH]
            if with_deep < maxd:
                maxd = with_deep
            mind = 2
            if not down and not pub[P_FINAL_ALL] and maxd >= 2:
                # the target must meet the hand or the cards above it (rank, run reach, joker)
                any_rel = False
                for d in range(2, maxd + 1):
                    hand[pub[P_PILE + pl - d + 1]] += 1
                    tgt = pub[P_PILE + pl - d]
                    if tgt == JOKER or related(cfg, hand, tgt):
                        any_rel = True
                for d in range(2, maxd + 1):
                    hand[pub[P_PILE + pl - d + 1]] -= 1
                if not any_rel:
                    maxd = 1
            if not down and not pub[P_FINAL_ALL] and maxd >= 2:
                # necessary: the contract can be made from the hand plus the cards down to d;
                # that is monotone in d, so bisect for the shallowest such depth
                lo = 2
                hi = maxd + 1
                while lo < hi:
                    mid = (lo + hi) // 2
                    if _feasible_with(cfg, hand, pub, pl, mid, sol):
                        hi = mid
                    else:
                        lo = mid + 1
                mind = lo
            for d in range(mind, maxd + 1):
                if n + 1 >= OPT_SIZE:
                    break
                if deep_legal(cfg, hands, pub, melds, p, t_turn, d, st, trace, buf, buf2, sol, opts):
                    n += 1
                    opts[n] = d
    opts[0] = n
    return n


@helper(alloc=False)
def buy_window(cfg, hands, pub, melds, p, pile_who, stock, rng_deck, rng_pol, st, trace, buy_f, pparams, opts):
    """"May I" (3.2.1): others may buy the top discard before p draws from the stock."""
    n = cfg[C_NPL]
    pl = pub[P_PILE_LEN]
    if pl == 0:
        return
    discarder = pile_who[pl - 1]
    pen = cfg[C_BUY_PEN]
    for k in range(1, n):
        q = (p + k) % n
        if q == discarder:
            continue
        if pub[P_DOWN + q] and not cfg[C_BUY_AFTER]:
            continue
        if pub[P_BUYS + q] >= cfg[C_MAX_BUYS]:
            continue
        # the stock (refilled from the pile without the bought card if empty) must
        # supply the penalty cards and the player's own draw
        if pub[P_STOCK] < pen + 1 and (pub[P_STOCK] > 0 or cfg[C_EXHAUST] != EXHAUSTION.RESHUFFLE or pl - 2 < pen + 1):
            return
        top = pub[P_PILE + pl - 1]
        opts[0] = top
        ask_seat(pub, pparams, q)
        answer = buy_f[q](hands[q], pub, melds, opts, cfg, rng_pol)
        if answer != 0 and answer != 1:
            illegal(st, DEC_BUY, q, answer)
        if answer == 0:
            continue
        pub[P_PILE_LEN] = pl - 1
        hands[q, top] += 1
        pub[P_HLEN + q] += 1
        emit(trace, EV_BUY, q, top, 0, 0, 0)
        for _ in range(pen):
            c = stock_card(cfg, pub, stock, pile_who, rng_deck, st, trace)
            hands[q, c] += 1
            pub[P_HLEN + q] += 1
            emit(trace, EV_BUY_STOCK, q, c, 0, 0, 0)
        pub[P_BUYS + q] += 1
        st[S_BUYS] += 1
        return


# ------------------------------------------------------------------ turn and deal


@helper(alloc=False)
def play_turn(cfg, b, seats, w, p, t_turn):
    """Seat p's turn t_turn: draw, meld phase, discard; returns T_*. ``b``: the :class:`Board`,
    ``seats``: the :class:`Seats`, ``w``: the :class:`Work`."""
    hands, pub, melds, stock, pile_who, st, trace = b.hands, b.pub, b.melds, b.stock, b.pile_who, b.st, b.trace
    draw_f, go_down_f, discard_f, buy_f, pparams = seats.draw, seats.go_down, seats.discard, seats.buy, seats.params
    rng_deck, rng_pol, opts, buf, buf2, sol = w.rng_deck, w.rng_pol, w.opts, w.buf, w.buf2, w.sol
    hand = hands[p]
    pub[P_SEAT] = p
    pub[P_TURN] = t_turn
    pub[P_DRAW] = -1
    pub[P_SINGLE_TOP] = -1
    pub[P_TARGET] = -1
    st[S_OWN_TURNS + p] += 1
    pub[P_OWN_TURN] = st[S_OWN_TURNS + p]
    emit(trace, EV_TURN, p, t_turn, 0, 0, 0)
    n = draw_options(cfg, hands, pub, melds, p, t_turn, st, trace, opts, buf, buf2, sol, 0)
    if n == 0:
        return T_NO_DRAW
    ask_seat(pub, pparams, p)
    choice = draw_f[p](hand, pub, melds, opts, cfg, rng_pol)
    asked = False
    for i in range(1, n + 1):
        if opts[i] == ASK_DEEP:
            asked = True
    if asked and choice <= ASK_DEEP:
        # the policy wants to see the deep takes (all, or down to depth -choice): list them
        depth = INF if choice == ASK_DEEP else -choice
        n = draw_options(cfg, hands, pub, melds, p, t_turn, st, trace, opts, buf, buf2, sol, depth)
        if n == 0:
            return T_NO_DRAW
        ask_seat(pub, pparams, p)
        choice = draw_f[p](hand, pub, melds, opts, cfg, rng_pol)
    valid = False
    for i in range(1, n + 1):
        if opts[i] == choice:
            valid = True
    if not valid:
        illegal(st, DEC_DRAW, p, choice)
    pub[P_DRAW] = choice
    if choice == 0:
        if cfg[C_BUY]:
            buy_window(cfg, hands, pub, melds, p, pile_who, stock, rng_deck, rng_pol, st, trace, buy_f, pparams, opts)
        c = stock_card(cfg, pub, stock, pile_who, rng_deck, st, trace)
        hand[c] += 1
        pub[P_HLEN + p] += 1
        st[S_STOCK_DRAWS] += 1
        emit(trace, EV_DRAW_STOCK, p, c, 0, 0, 0)
    elif choice == 1:
        pl = pub[P_PILE_LEN]
        c = pub[P_PILE + pl - 1]
        pub[P_PILE_LEN] = pl - 1
        hand[c] += 1
        pub[P_HLEN + p] += 1
        pub[P_SINGLE_TOP] = c
        st[S_TOP_TAKES] += 1
        emit(trace, EV_TAKE_TOP, p, c, 0, 0, 0)
    else:
        pl = pub[P_PILE_LEN]
        target = pub[P_PILE + pl - choice]
        emit(trace, EV_DEEP, p, choice, target, 0, 0)
        for k in range(1, choice + 1):
            c = pub[P_PILE + pl - k]
            hand[c] += 1
            emit(trace, EV_DEEP_CARD, p, c, k, 0, 0)
        pub[P_HLEN + p] += choice
        pub[P_PILE_LEN] = pl - choice
        pub[P_TARGET] = target
        st[S_DEEP_TAKES] += 1
        st[S_DEEP_CARDS] += choice
    st[S_PENDING] = 0
    ok = meld_phase(cfg, hands, pub, melds, p, t_turn, st, trace, go_down_f, pparams, rng_pol, opts, buf, sol, True)
    if not ok:
        st[S_FALLBACKS] += 1
        emit(trace, EV_ENGINE_FALLBACK, p, 0, 0, 0, 0)
    if pub[P_HLEN + p] == 0:
        emit(trace, EV_OUT, p, 0, 0, 0, 0)
        return T_OUT
    n = legal_discards(hand, cfg, pub, opts, st[S_PENDING])
    if n == 0:
        # cannot happen after a legal phase; keep the engine total
        opts[0] = 1
        for t in range(NT):
            if hand[t]:
                opts[1] = t
                break
        n = 1
        st[S_FALLBACKS] += 1
    ask_seat(pub, pparams, p)
    c = discard_f[p](hand, pub, melds, opts, cfg, rng_pol)
    valid = False
    for i in range(1, n + 1):
        if opts[i] == c:
            valid = True
    if not valid:
        illegal(st, DEC_DISCARD, p, c)
    hand[c] -= 1
    pub[P_HLEN + p] -= 1
    pl = pub[P_PILE_LEN]
    pub[P_PILE + pl] = c
    pile_who[pl] = p
    pub[P_PILE_LEN] = pl + 1
    emit(trace, EV_DISCARD, p, c, 0, 0, 0)
    if pub[P_HLEN + p] == 0:
        emit(trace, EV_OUT, p, 1, 0, 0, 0)
        return T_OUT
    return T_CONTINUE


@helper(alloc=False)
def play_deal(k, dealer, tab, b, seats, w, kseat):
    """Play deal k (0-based) with ``dealer`` (seat ``kseat`` holding ``tab.known``, see
    deal_cards); scores in st[S_SCORE + seat]."""
    cfg = tab.cfg
    deal_cards(k, dealer, cfg, b.hands, b.pub, b.melds, b.stock, b.pile_who, b.st, w.rng_deck, b.trace, w.pack,
               tab.known, kseat)
    play_dealt(dealer, cfg, b, seats, w)


@helper(alloc=False)
def play_dealt(dealer, cfg, b, seats, w):
    """Play the deal just dealt (deal_cards) from its first turn to its end; scores in st."""
    hands, pub, st, trace = b.hands, b.pub, b.st, b.trace
    n = cfg[C_NPL]
    p = (dealer + 1) % n
    t = 0
    out = -1
    exhausted = 0
    while True:
        if cfg[C_EXHAUST] != EXHAUSTION.RESHUFFLE and pub[P_STOCK] == 0:
            exhausted = EXH_EMPTY_STOCK
            break
        t += 1
        r = play_turn(cfg, b, seats, w, p, t)
        if r == T_OUT:
            out = p
            break
        if r == T_NO_DRAW:
            exhausted = EXH_NO_DRAW
            break
        if t >= cfg[C_MAX_TURNS]:
            exhausted = EXH_CAP
            break
        p = (p + 1) % n
    st[S_TURNS] = t
    st[S_EXHAUSTED] = 1 if exhausted else 0
    st[S_OUT] = out
    if exhausted:
        emit(trace, EV_EXHAUSTED, exhausted, t, 0, 0, 0)
    for q in range(n):
        st[S_LEFT + q] = pub[P_HLEN + q]
        sc = 0 if q == out else hand_penalty(hands[q], cfg)
        st[S_SCORE + q] = sc
        if pub[P_DOWN + q]:
            dt = pub[P_DOWN_TURN + q]
            # own-turn index of turn dt: seat q plays turns first_q, first_q + n, ...
            first_q = (q - dealer - 1) % n + 1
            st[S_DOWN_OWN + q] = (dt - first_q) // n + 1
        emit(trace, EV_SCORE, q, sc, pub[P_TOTAL + q] + sc, 0, 0)


# ------------------------------------------------------------------ records

DEAL_NCOLS = 20 + 4 * MAX_SEATS
GAME_HEAD = 6 + MAX_SEATS
GAME_PER_DEAL = 3 + 2 * MAX_SEATS
MAX_REC_DEALS = 10
GAME_NCOLS = GAME_HEAD + MAX_REC_DEALS * GAME_PER_DEAL


@helper(alloc=False)
def write_deal_row(row, k, cfg, pub, st, dealer):
    row[0] = k + 1
    row[1] = cfg[C_CONTRACTS + 2 * k]
    row[2] = cfg[C_CONTRACTS + 2 * k + 1]
    row[3] = cfg[C_HANDS + k]
    row[4] = cfg[C_NPL]
    row[5] = cfg[C_DECKS]
    row[6] = cfg[C_JOKERS]
    row[7] = dealer
    row[8] = st[S_TURNS]
    row[9] = st[S_EXHAUSTED]
    row[10] = st[S_OUT]
    row[11] = st[S_REFILLS]
    row[12] = st[S_STOCK_DRAWS]
    row[13] = st[S_TOP_TAKES]
    row[14] = st[S_DEEP_TAKES]
    row[15] = st[S_DEEP_CARDS]
    row[16] = st[S_LAYOFFS]
    row[17] = st[S_EXTRA_MELDS]
    row[18] = st[S_SWAPS]
    row[19] = st[S_BUYS]
    for q in range(MAX_SEATS):
        row[20 + q] = st[S_SCORE + q]
        row[20 + MAX_SEATS + q] = st[S_DOWN_OWN + q]
        row[20 + 2 * MAX_SEATS + q] = st[S_JOK_DEALT + q]
        row[20 + 3 * MAX_SEATS + q] = st[S_LEFT + q]


@helper(alloc=False)
def game_winners(totals, wins, n, tie_break):
    """Bitmask of winners: lowest total; with tie_break 1 the tied player with most deals won."""
    best = INF
    for q in range(n):
        if totals[q] < best:
            best = totals[q]
    mask = 0
    for q in range(n):
        if totals[q] == best:
            mask |= 1 << q
    if tie_break == 1 and popcount64(mask) > 1:
        most = -1
        for q in range(n):
            if (mask >> q) & 1 and wins[q] > most:
                most = wins[q]
        m2 = 0
        for q in range(n):
            if (mask >> q) & 1 and wins[q] == most:
                m2 |= 1 << q
        mask = m2
    return mask


@kernel  # allocates its owners: needs the runtime
def run_records(unit_game, tab, seats, board, seed, start, count, out, scratch, kseat, totals0):
    """Simulate records start..start+count-1 (games or single deals) into ``out``.

    ``tab``: the :class:`Table`; ``seats``: the :class:`Seats`; ``board``: the :class:`Board`
    (a State's arrays and the trace). ``tab.known``/``kseat``: seat ``kseat`` is dealt the
    cards ``known`` in deal ``contract`` (cfg C_UNIT_DEAL; ``kseat`` = -1: normal deals; see deal_cards). The ``deal`` unit plays
    that deal alone; the ``game`` unit then starts at that deal from the penalty totals
    ``totals0`` (the earlier deals' columns stay -1) and plays the game to its end."""
    cfg = tab.cfg
    n = cfg[C_NPL]
    # borrowed views: no reference counting on the arrays handed to every helper (core/borrow.py)
    owners = (np.zeros(1, np.uint64), np.zeros(1, np.uint64), np.zeros(OPT_SIZE, np.int64),
              np.zeros((16, MF), np.int64), np.zeros(MAX_CARDS, np.int64), np.zeros(MAX_SEATS, np.int64),
              np.zeros(MAX_SEATS, np.int64))
    rng_deck, rng_pol, opts = borrowed(owners[0]), borrowed(owners[1]), borrowed(owners[2])
    sol, pack, totals, wins = borrowed(owners[3]), borrowed(owners[4]), borrowed(owners[5]), borrowed(owners[6])
    cfg, out, scratch, totals0 = borrowed(cfg), borrowed(out), borrowed(scratch), borrowed(totals0)
    tab = Table(cfg, borrowed(tab.known))
    seats = Seats(seats.draw, seats.go_down, seats.discard, seats.buy, borrowed(seats.params))
    b = Board(borrowed(board.hands), borrowed(board.pub), borrowed(board.melds), borrowed(board.stock),
              borrowed(board.pile_who), borrowed(board.st), borrowed(board.trace))
    pub, st, trace = b.pub, b.st, b.trace
    half = scratch.shape[0] // 2
    w = Work(rng_deck, rng_pol, opts, scratch[:half], scratch[half:], sol, pack)
    pub[P_NPL] = n
    for i in range(count):
        idx = np.uint64(start + i)
        rng_deck[0] = stream_start(np.uint64(seed), idx, np.uint64(0))
        rng_pol[0] = stream_start(np.uint64(seed), idx, np.uint64(1))
        row = out[i]
        for c in range(out.shape[1]):
            row[c] = -1
        first = cfg[C_FIRST_DEALER]
        if first < 0:
            first = below(rng_deck, n)
        for q in range(MAX_SEATS):
            totals[q] = totals0[q] if kseat >= 0 else 0
            wins[q] = 0
            pub[P_TOTAL + q] = totals[q]
        if not unit_game:
            k = cfg[C_UNIT_DEAL]
            dealer = (first + k) % n
            play_deal(k, dealer, tab, b, seats, w, kseat)
            write_deal_row(row, k, cfg, pub, st, dealer)
            continue
        nd = cfg[C_NDEALS]
        k0 = cfg[C_UNIT_DEAL] if kseat >= 0 else 0
        for k in range(k0, nd):
            dealer = (first + k) % n
            play_deal(k, dealer, tab, b, seats, w, kseat if k == k0 else -1)
            base = GAME_HEAD + k * GAME_PER_DEAL
            row[base] = st[S_TURNS]
            row[base + 1] = st[S_EXHAUSTED]
            row[base + 2] = st[S_OUT]
            if st[S_OUT] >= 0:
                wins[st[S_OUT]] += 1
            for q in range(MAX_SEATS):
                row[base + 3 + q] = st[S_SCORE + q]
                row[base + 3 + MAX_SEATS + q] = st[S_DOWN_OWN + q]
            for q in range(n):
                totals[q] += st[S_SCORE + q]
                pub[P_TOTAL + q] = totals[q]
        mask = game_winners(totals, wins, n, cfg[C_TIE])
        emit(trace, EV_GAME_END, mask, 0, 0, 0, 0)
        row[0] = n
        row[1] = cfg[C_DECKS]
        row[2] = cfg[C_JOKERS]
        row[3] = first
        row[4] = nd
        row[5] = mask
        for q in range(MAX_SEATS):
            row[6 + q] = totals[q] if q < n else -1
    keep_alive(owners)


@kernel  # allocates its owners: needs the runtime
def play_arranged(tab, seats, board, k, dealer, hands0, upcard, stock0, totals0, plan, seed, number, scratch,
                  moves, script, slot, rewind, out):
    """Deal ``k`` (0-based) with ``dealer``, dealt as given instead of shuffled: ``hands0[seat, type]``
    (counts), the up-card ``upcard``, the stock ``stock0`` (first drawn first); the penalty totals before
    it ``totals0``. Refills are shuffled by stream (``seed``, ``number``, 0), after the planned ones
    (``plan``: uint64 [-, 2, plan...], see refill); the policies draw from stream 1. The hint worlds of
    ``simcards play`` (worlds.py) are played so.

    With no ``moves`` the deal is played once, its row (write_deal_row) in ``out[0]``. Otherwise once
    per move, each from the same deal and random numbers: before play ``j``, ``script[slot] = moves[j]``
    and the slots ``rewind`` of ``script`` are zeroed (the play Script's buffer, core/interactive.py:
    the person's next answer, the answer cursors), its row in ``out[j]``."""
    cfg = tab.cfg
    n = cfg[C_NPL]
    owners = (np.zeros(OPT_SIZE, np.int64), np.zeros((16, MF), np.int64), np.zeros(MAX_CARDS, np.int64),
              np.zeros(plan.shape[0], np.uint64), np.zeros(1, np.uint64))
    opts, sol, pack, rng_deck, rng_pol = (borrowed(owners[0]), borrowed(owners[1]), borrowed(owners[2]),
                                          borrowed(owners[3]), borrowed(owners[4]))
    cfg, scratch = borrowed(cfg), borrowed(scratch)
    tab = Table(cfg, borrowed(tab.known))
    seats = Seats(seats.draw, seats.go_down, seats.discard, seats.buy, borrowed(seats.params))
    b = Board(borrowed(board.hands), borrowed(board.pub), borrowed(board.melds), borrowed(board.stock),
              borrowed(board.pile_who), borrowed(board.st), borrowed(board.trace))
    pub, st = b.pub, b.st
    half = scratch.shape[0] // 2
    w = Work(rng_deck, rng_pol, opts, scratch[:half], scratch[half:], sol, pack)
    ns = stock0.shape[0]
    for j in range(max(1, moves.shape[0])):
        if moves.shape[0] > 0:
            for z in rewind:
                script[z] = 0
            script[slot] = moves[j]
        for i in range(plan.shape[0]):
            rng_deck[i] = plan[i]
        pub[P_NPL] = n
        for q in range(MAX_SEATS):
            pub[P_TOTAL + q] = totals0[q]
        mark = b.trace[0, 0] if tracing(b.trace) else 0
        deal_cards(k, dealer, cfg, b.hands, pub, b.melds, b.stock, b.pile_who, st, rng_deck, b.trace, pack,
                   tab.known, -1)
        if tracing(b.trace):
            b.trace[0, 0] = mark  # its events are those of the shuffled deal: dropped
        rng_deck[0] = stream_start(seed, np.uint64(number), np.uint64(0))  # that shuffle gives way to:
        rng_pol[0] = stream_start(seed, np.uint64(number), np.uint64(1))
        for q in range(n):
            for t in range(NT):
                b.hands[q, t] = hands0[q, t]
            st[S_JOK_DEALT + q] = hands0[q, JOKER]
        pub[P_PILE] = upcard
        for i in range(ns):
            b.stock[i] = stock0[ns - 1 - i]
        pub[P_STOCK] = ns
        trace_deal(n, b.hands, pub, b.stock, b.trace)
        play_dealt(dealer, cfg, b, seats, w)
        write_deal_row(out[j], k, cfg, pub, st, dealer)
    keep_alive(owners)
