"""The compiled Seep kernel: deal, bid, legal moves, move application, scoring, baazi, match.

Everything here is numba; no pandas/click/matplotlib. The state layout, move encoding
and move encoding are in :mod:`simcards.games.seep.layout`; the rules are the
variant packed by ``Variant.to_params`` (``params[0].capture_sums``, enum rules compared
with the generated constants, ``ABSORB.FORBIDDEN``). One record is
computed by :func:`simulate_kernel` for every unit; :func:`play_deal` is the single
deal engine; given a trace buffer (core/trace.py, events ``layout.EVENTS``) it emits the
legal move list and the chosen move of every play, and stores a snapshot of the full state
before every play into ``tr_state`` (used by ``replay.py`` and the referee).
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from simcards.core.errors import IllegalAnswer
from simcards.core.rng import below, shuffle, stream_start
from simcards.core.jit import helper, kernel
from simcards.core.policy import PARAM_SLOTS
from simcards.core.trace import emit as trace_event, no_trace, tracing
from simcards.games.seep.cards import VAL, VALMASK, low_card, mask_points, mask_sum, ncards, value_set
from simcards.games.seep.layout import (
    ABSORB, AFTER_BAAZI, DEALER_RULE, END_HOUSE, LOSING_BASIS, MATCH_MODE, TIE_DEALER, ADD, BREAK, BUILD,
    CAPTURE, EV_LEGAL, EV_PLAY, M_CARD, M_COLS, M_HOUSE, M_KIND, M_LOOSE, M_TARGET,
    S_ADDED, S_BID, S_BIDDER, S_BROKEN, S_BUILT, S_CARD_PTS, S_D, S_DEALER,
    S_EARLY_PLAYS, S_EARLY_VALUE, S_HAND, S_HANDS, S_HIDDEN, S_HOUSE, S_LAST_CAPTURE, S_LAST_VALUE, S_LEFTOVER,
    S_LEFTOVER_TEAM, S_LOOSE, S_MAX_MOVES, S_MIN_BID, S_MIN_HOUSE, S_NCARDS, S_NPLAYERS, S_OPEN_CARD,
    S_OPEN_FLOOR, S_OPEN_HAND, S_OPEN_KIND, S_OWNERS, S_PARAMS, S_PARTNER_FREE, S_PILE, S_PLAY, S_PLAYED, S_PRIVATE,
    S_ERROR, S_REDEALS, S_SCORE, S_SEAT, S_STOCK, S_SUM_MOVES, S_SWEEPS, S_SWEEP_PTS, S_SWEEP_VALUE,
    S_TRACK_AT, S_TRACK_TEAM, S_TRACK_VALUE, ST_SIZE, THROW,
)

# Hot helpers never allocate: @helper(alloc=False) compiles them without reference counting,
# whose atomic increments otherwise dominate the run time, and leaves them to LLVM to inline.

MAX_SUBSETS = 1 << 16     # loose-card subsets with a value sum <= 13
MAX_GROUPS = 1 << 13      # groups per target value
MAX_MOVES = 1 << 13       # legal moves per decision ("fail loudly past a limit", A.2)
META_STREAM = 1 << 40     # stream of a record's first dealer

# the policies, bundled: per decision a function per seat; params: each seat's policy parameters
# (PolicyTable.params, copied into the view's S_PARAMS slots before that seat decides)
Seats = namedtuple("Seats", ("bid", "move", "params"))
# record-level deal streams: deck 2*j, policies 2*j + 1 for the j-th deal of a record


# ------------------------------------------------------------------ work buffers

def make_work():
    """Preallocated buffers for the move generator (one set per chunk/thread)."""
    return (np.zeros(MAX_SUBSETS, np.int64), np.zeros(MAX_SUBSETS, np.int64),
            np.zeros((14, MAX_GROUPS), np.int64), np.zeros(14, np.int64),
            np.zeros(MAX_GROUPS, np.int64), np.zeros(MAX_GROUPS, np.int64),
            np.zeros(MAX_MOVES, np.int64), np.zeros(MAX_MOVES, np.int64),
            np.zeros(MAX_MOVES, np.int64), np.zeros(MAX_MOVES, np.int64))


_make_work_nb = kernel(make_work)


# ------------------------------------------------------------------ subset machinery

@helper(alloc=False)
def enum_groups(loose, ws_mask, ws_sum, grp, ngrp):
    """Every non-empty subset of ``loose`` whose values sum to t <= 13, into ``grp[t]``."""
    for t in range(14):
        ngrp[t] = 0
    n = 1
    ws_mask[0] = 0
    ws_sum[0] = 0
    m = loose
    while m:
        c = low_card(m)
        m &= m - 1
        v = VAL[c]
        b = np.int64(1) << c
        cur = n
        for i in range(cur):
            s = ws_sum[i] + v
            if s <= 13:
                if n >= ws_mask.shape[0]:
                    raise ValueError("seep: too many loose-card subsets (limit exceeded)")
                x = ws_mask[i] | b
                ws_mask[n] = x
                ws_sum[n] = s
                n += 1
                k = ngrp[s]
                if k >= grp.shape[1]:
                    raise ValueError("seep: too many capture groups (limit exceeded)")
                grp[s, k] = x
                ngrp[s] = k + 1


@helper(alloc=False)
def filter_groups(grp, ngrp, t, avail, gl):
    """Copy the groups for ``t`` lying inside ``avail`` into ``gl``; return their number."""
    k = 0
    for i in range(ngrp[t]):
        g = grp[t, i]
        if g & ~avail == 0:
            gl[k] = g
            k += 1
    return k


@helper(alloc=False)
def packables(gl, k, out, sm, sj):
    """All distinct unions of disjoint groups from ``gl[:k]`` (the empty set included)."""
    n = 0
    top = 1
    sm[0] = 0
    sj[0] = 0
    while top:
        top -= 1
        m = sm[top]
        j = sj[top]
        dup = False
        for i in range(n):
            if out[i] == m:
                dup = True
                break
        if not dup:
            if n >= out.shape[0]:
                raise ValueError("seep: too many packings (limit exceeded)")
            out[n] = m
            n += 1
        for i in range(j, k):
            if gl[i] & m == 0:
                if top >= sm.shape[0]:
                    raise ValueError("seep: packing search too deep (limit exceeded)")
                sm[top] = m | gl[i]
                sj[top] = i + 1
                top += 1
    return n


@helper(alloc=False)
def is_maximal(x, gl, k):
    """No group of ``gl[:k]`` (all inside the available set) avoids ``x``."""
    for i in range(k):
        if gl[i] & x == 0:
            return False
    return True


@helper(alloc=False)
def add_owner(owners, p):
    """3.2 add_owner on a seat bitmask."""
    if owners & ((1 << p) | (1 << ((p + 2) % 4))):
        return owners
    return owners | (1 << p)


@helper(alloc=False)
def emit(moves, n, kind, card, target, loose, house):
    if n >= moves.shape[0]:
        raise ValueError("seep: too many legal moves (limit exceeded)")
    moves[n, M_KIND] = kind
    moves[n, M_CARD] = card
    moves[n, M_TARGET] = target
    moves[n, M_LOOSE] = loose
    moves[n, M_HOUSE] = house
    return n + 1


@helper(alloc=False)
def house_selections(v, V, loose, grp, ngrp, absorb, gl, gl2, pk, sm, sj, xl):
    """Distinct loose sets X that join a card of value ``v`` in a house of value ``V``."""
    E = loose & ~VALMASK[V]
    need = V - v
    k = filter_groups(grp, ngrp, V, E, gl)
    ny = 1 if need == 0 else ngrp[need]
    if k == 0:  # no further groups to absorb: X is the group completing the card
        for iy in range(ny):
            xl[iy] = 0 if need == 0 else grp[need, iy]
        return ny
    nx = 0
    for iy in range(ny):
        y = np.int64(0) if need == 0 else grp[need, iy]
        k2 = 0
        for i in range(k):
            if gl[i] & y == 0:
                gl2[k2] = gl[i]
                k2 += 1
        if absorb == ABSORB.FORBIDDEN or k2 == 0:
            npk = 1
            pk[0] = 0
        elif k2 == 1:
            npk = 2
            pk[0] = 0
            pk[1] = gl2[0]
        else:
            npk = packables(gl2, k2, pk, sm, sj)
        for iz in range(npk):
            z = pk[iz]
            if absorb == ABSORB.MANDATORY and not is_maximal(z, gl2, k2):
                continue
            x = y | z
            dup = False
            for i in range(nx):
                if xl[i] == x:
                    dup = True
                    break
            if not dup:
                xl[nx] = x
                nx += 1
    return nx


# ------------------------------------------------------------------ legal moves

@helper(alloc=False)
def legal_moves(st, p, params, W, moves):
    """Fill ``moves`` with every legal move of seat ``p`` (3.4); return their number."""
    rule = params[0]
    ws_mask, ws_sum, grp, ngrp, gl, gl2, pk, sm, sj, xl = W
    hand = st[S_HANDS + p]
    loose = st[S_LOOSE]
    opening = st[S_PLAY] == 1
    bid = st[S_BID]
    minh = rule.min_house_value
    cap_sums = rule.capture_sums != 0
    cap_max = rule.capture_maximal != 0
    throw_nc = rule.throw_requires_no_capture != 0
    owner_throw = rule.owner_may_throw != 0
    absorb = rule.absorption_mode
    direct = rule.allow_direct_cemented_build != 0
    partner_free = rule.partner_add_free != 0
    pbit = np.int64(1) << p
    enum_groups(loose, ws_mask, ws_sum, grp, ngrp)
    sums = np.int64(1)  # bit t: some group sums to t (bit 0: the empty completion)
    for t in range(1, 14):
        if ngrp[t]:
            sums |= np.int64(1) << t
    present = np.int64(0)
    owned = np.int64(0)
    ordinary = np.int64(0)
    for w in range(minh, 14):
        h = st[S_HOUSE + w]
        if h:
            present |= np.int64(1) << w
            if st[S_OWNERS + w] & pbit:
                owned |= np.int64(1) << w
            if mask_sum(h) == w:
                ordinary |= np.int64(1) << w
    hv = value_set(hand)
    n = 0
    vals = hv
    while vals:
        vbit = vals & -vals
        vals &= vals - 1
        v = low_card(vbit)
        vm = hand & VALMASK[v]
        hv_after = hv if ncards(vm) >= 2 else hv & ~vbit
        house_v = (present & vbit) != 0
        may_use_v = (not opening) or v == bid
        # 1. CAPTURE (and the "can capture" test of THROW)
        k = 0
        if may_use_v:
            if cap_sums:
                k = filter_groups(grp, ngrp, v, loose, gl) if ngrp[v] else 0
            else:
                single = loose & VALMASK[v]
                while single:
                    gl[k] = single & -single
                    single &= single - 1
                    k += 1
            if k == 0 and not house_v:
                npk = 0
            elif k <= 1:
                npk = 1 + k
                pk[0] = 0
                pk[1] = gl[0]
            else:
                npk = packables(gl, k, pk, sm, sj)
            for i in range(npk):
                x = pk[i]
                if cap_max:
                    if not is_maximal(x, gl, k):
                        continue
                    if x == 0 and not house_v:
                        continue
                    o_after = owned & ~vbit if house_v else owned
                    if o_after & ~hv_after:
                        continue
                    cm = vm
                    while cm:
                        n = emit(moves, n, CAPTURE, low_card(cm), v, x, 1 if house_v else 0)
                        cm &= cm - 1
                else:
                    for take in range(1, -1, -1):
                        if take == 1 and not house_v:
                            continue
                        if x == 0 and take == 0:
                            continue
                        o_after = owned & ~vbit if take == 1 else owned
                        if o_after & ~hv_after:
                            continue
                        cm = vm
                        while cm:
                            n = emit(moves, n, CAPTURE, low_card(cm), v, x, take)
                            cm &= cm - 1
        # 2. BUILD / ADD
        cand = (hv_after | present) & ~((np.int64(1) << max(minh, v)) - 1) & (sums << v)
        if opening:
            cand &= np.int64(1) << bid
        while cand:
            Vbit = cand & -cand
            cand &= cand - 1
            V = low_card(Vbit)
            exists = (present & Vbit) != 0
            if exists:
                new_owners = add_owner(st[S_OWNERS + V], p)
                is_owner = (new_owners & pbit) != 0
                if (is_owner or not partner_free) and not (hv_after & Vbit):
                    continue
                o_after = owned | Vbit if is_owner else owned
                if o_after & ~hv_after:
                    continue
            else:
                if (owned | Vbit) & ~hv_after:
                    continue
            nx = house_selections(v, V, loose, grp, ngrp, absorb, gl, gl2, pk, sm, sj, xl)
            auto = loose & VALMASK[V]
            for i in range(nx):
                x = xl[i]
                if not exists:
                    if x | auto == 0:
                        continue  # a card on its own is never a house
                    if not direct and (v == V or mask_sum(x) != V - v):
                        continue
                cm = vm
                while cm:
                    n = emit(moves, n, ADD if exists else BUILD, low_card(cm), V, x, 0)
                    cm &= cm - 1
        # 3. BREAK
        if not opening and ordinary:
            ws = ordinary
            while ws:
                wbit = ws & -ws
                ws &= ws - 1
                w = low_card(wbit)
                v2 = w + v
                if v2 > 13:
                    break
                if st[S_OWNERS + w] & pbit:
                    continue
                v2bit = np.int64(1) << v2
                if not (hv_after & v2bit):
                    continue
                new_owners = add_owner(st[S_OWNERS + v2], p) if present & v2bit else pbit
                o_after = owned | v2bit if new_owners & pbit else owned
                if o_after & ~hv_after:
                    continue
                cm = vm
                while cm:
                    n = emit(moves, n, BREAK, low_card(cm), v2, 0, 0)
                    cm &= cm - 1
        # 4. THROW
        if may_use_v and not house_v:
            ok = not (throw_nc and k > 0)
            if ok and not owner_throw and owned != 0:
                ok = False
            if ok and not (owned & ~hv_after):
                cm = vm
                while cm:
                    n = emit(moves, n, THROW, low_card(cm), 0, 0, 0)
                    cm &= cm - 1
    return n


# ------------------------------------------------------------------ applying a move

@helper(alloc=False)
def sweep_value_for(st, k):
    """4.3: bonus of a sweep made on play ``k``."""
    if k == 48:
        return st[S_LAST_VALUE]
    if k <= st[S_EARLY_PLAYS]:
        return st[S_EARLY_VALUE]
    return st[S_SWEEP_VALUE]


@helper(alloc=False)
def auto_merge(st, V):
    same = st[S_LOOSE] & VALMASK[V]
    st[S_LOOSE] &= ~same
    st[S_HOUSE + V] |= same


@helper(alloc=False)
def apply_move(st, p, kind, card, target, x, take):
    """Play one move (3.5) for seat ``p``; does not deal the stock."""
    b = np.int64(1) << card
    st[S_HANDS + p] &= ~b
    st[S_PLAYED + p] |= b
    st[S_NCARDS + p] -= 1
    k = st[S_PLAY]
    team = p % 2
    if kind == CAPTURE:
        taken = b | x
        st[S_LOOSE] &= ~x
        if take:
            taken |= st[S_HOUSE + target]
            if st[S_TRACK_VALUE] == target:
                st[S_TRACK_TEAM] = team
                st[S_TRACK_AT] = target
                st[S_TRACK_VALUE] = -1
            st[S_HOUSE + target] = 0
            st[S_OWNERS + target] = 0
        st[S_PILE + team] |= taken
        st[S_LAST_CAPTURE] = team
        if st[S_LOOSE] == 0:
            empty = True
            for w in range(14):
                if st[S_HOUSE + w]:
                    empty = False
                    break
            if empty:
                st[S_SWEEP_PTS + team] += sweep_value_for(st, k)
                if k == 48:
                    st[S_SWEEPS + 2] += 1
                elif k <= st[S_EARLY_PLAYS]:
                    st[S_SWEEPS + 0] += 1
                else:
                    st[S_SWEEPS + 1] += 1
    elif kind == BUILD or kind == ADD:
        st[S_LOOSE] &= ~x
        if st[S_HOUSE + target]:
            st[S_HOUSE + target] |= b | x
            st[S_OWNERS + target] = add_owner(st[S_OWNERS + target], p)
            st[S_ADDED] += 1
        else:
            st[S_HOUSE + target] = b | x
            st[S_OWNERS + target] = np.int64(1) << p
            st[S_BUILT] += 1
            if k == 1:
                st[S_TRACK_VALUE] = target
        auto_merge(st, target)
    elif kind == BREAK:
        w = target - VAL[card]
        cards = st[S_HOUSE + w] | b
        st[S_HOUSE + w] = 0
        st[S_OWNERS + w] = 0
        if st[S_HOUSE + target]:
            st[S_HOUSE + target] |= cards
            st[S_OWNERS + target] = add_owner(st[S_OWNERS + target], p)
        else:
            st[S_HOUSE + target] = cards
            st[S_OWNERS + target] = np.int64(1) << p
        if st[S_TRACK_VALUE] == w:
            st[S_TRACK_VALUE] = target
        st[S_BROKEN] += 1
        auto_merge(st, target)
    else:
        st[S_LOOSE] |= b
    st[S_PLAY] = k + 1


# ------------------------------------------------------------------ deal, bid, play

@helper(alloc=False)
def shuffle_deal(deck, rng, bid_mask, known):
    """Shuffle until the bidder's four cards (deck[0..3]) allow a bid; return the redeals.

    ``known`` (a mask, usually 0) fixes cards at the front of the deck, i.e. in the
    bidder's hand; only the other cards are shuffled (dealing around a known hand).
    """
    redeals = 0
    nk = ncards(known)
    if nk >= 4:
        first4 = np.int64(0)
        m = known
        for i in range(4):
            first4 |= m & -m
            m &= m - 1
        if first4 & bid_mask == 0:
            raise ValueError("seep: the known cards allow no bid, so the deal would be redone forever")
    while True:
        j = 0
        m = known
        while m:
            deck[j] = low_card(m)
            m &= m - 1
            j += 1
        for c in range(52):
            if not (known >> c) & 1:
                deck[j] = c
                j += 1
        shuffle(deck[nk:], rng)
        h = np.int64(0)
        for i in range(4):
            h |= np.int64(1) << deck[i]
        if h & bid_mask:
            return redeals
        redeals += 1


@helper(alloc=False)
def give_packet(st, deck, pos, seat):
    for i in range(4):
        st[S_HANDS + seat] |= np.int64(1) << deck[pos + i]
    st[S_NCARDS + seat] += 4
    st[S_STOCK] &= ~st[S_HANDS + seat]
    return pos + 4


@helper(alloc=False)
def deal_stock(st, deck, second_half):
    """2.5: the eleven packets of four after the opening play (4 players).

    Two players (6.2): after the opening, packets bidder, dealer, bidder, dealer, dealer
    (8 and 12 cards); after play 24 (``second_half``), six packets alternating from the
    bidder (12 each).
    """
    bidder = st[S_BIDDER]
    if st[S_NPLAYERS] == 4:
        pos = 8
        for r in range(11):
            pos = give_packet(st, deck, pos, (bidder + (r % 4 if r < 8 else (r - 8) + 1)) % 4)
        return
    dealer = st[S_DEALER]
    if not second_half:
        pos = 8
        for seat in (bidder, dealer, bidder, dealer, dealer):
            pos = give_packet(st, deck, pos, seat)
    else:
        pos = 28
        for r in range(6):
            pos = give_packet(st, deck, pos, bidder if r % 2 == 0 else dealer)


@helper(alloc=False)
def make_view(st, p, view, policy_params):
    """Seat ``p``'s view: the public state, its own hand, its policy parameters (a row of ``policy_params``)."""
    for i in range(S_PRIVATE):
        view[i] = st[i]
    view[S_SEAT] = p
    view[S_HAND] = st[S_HANDS + p]
    for k in range(PARAM_SLOTS):
        view[S_PARAMS + k] = policy_params[p, k]


@helper(alloc=False)
def start_deal(st, params, dealer, D):
    rule = params[0]
    for i in range(ST_SIZE):
        st[i] = 0
    st[S_NPLAYERS] = rule.num_players
    st[S_DEALER] = dealer
    st[S_BIDDER] = (dealer + 1) % rule.num_players
    st[S_LAST_CAPTURE] = -1
    st[S_D] = D
    st[S_SWEEP_VALUE] = rule.sweep_value
    st[S_EARLY_VALUE] = rule.early_sweep_value
    st[S_EARLY_PLAYS] = rule.early_sweep_plays
    st[S_LAST_VALUE] = rule.last_play_sweep_value
    st[S_MIN_HOUSE] = rule.min_house_value
    st[S_MIN_BID] = rule.min_bid_value
    st[S_PARTNER_FREE] = rule.partner_add_free
    st[S_TRACK_VALUE] = -1
    st[S_TRACK_TEAM] = -1
    st[S_TRACK_AT] = -1
    st[S_LEFTOVER_TEAM] = -1


# decisions by their index in policies.DECISIONS. This file's hot helpers cannot raise with
# run-time values (``_nrt=False``): an illegal answer is noted in st[S_ERROR..] and the deal
# abandoned; the compiled caller then calls ``check_answer``, which raises IllegalAnswer.
DEC_BID, DEC_MOVE = 0, 1


@helper(alloc=False)
def note_illegal(st, decision, seat, value):
    st[S_ERROR] = decision + 1
    st[S_ERROR + 1] = seat
    st[S_ERROR + 2] = value


@helper
def check_answer(st):
    """Raise IllegalAnswer for the answer ``note_illegal`` noted (after every play_deal/play_dealt)."""
    if st[S_ERROR] != 0:
        raise IllegalAnswer(st[S_ERROR] - 1, st[S_ERROR + 1], st[S_ERROR + 2])


@helper(alloc=False)
def play_deal(st, params, dealer, D, seats, rdeck, rpol, deck, W, moves, view,
              trace, tr_state):
    """Deal, bid, play and score one deal into ``st`` (see layout for the fields)."""
    rule = params[0]
    start_deal(st, params, dealer, D)
    bid_mask = np.int64(0)
    for v in range(rule.min_bid_value, 14):
        bid_mask |= VALMASK[v]
    st[S_REDEALS] = shuffle_deal(deck, rdeck, bid_mask, np.int64(0))
    play_dealt(st, params, 0, seats, rpol, deck, W, moves, view, trace, tr_state)


@helper(alloc=False)
def play_dealt(st, params, forced_bid, seats, rpol, deck, W, moves, view,
               trace, tr_state):
    """Bid, play and score a deal whose card order is already in ``deck`` (after ``start_deal``).

    ``forced_bid`` > 0 is the bid (``simcards bid seep`` plays every legal bid on one
    deck); 0 asks the bidder's policy. Shared by every entry point of the kernel. With a
    trace (``tracing(trace)``) it emits the events and fills ``tr_state[0 .. 48]``.
    """
    rule = params[0]
    bidder = st[S_BIDDER]
    h = np.int64(0)
    f = np.int64(0)
    for i in range(4):
        h |= np.int64(1) << deck[i]
        f |= np.int64(1) << deck[4 + i]
    stock = np.int64(0)
    for i in range(8, 52):
        stock |= np.int64(1) << deck[i]
    st[S_HANDS + bidder] = h
    st[S_NCARDS + bidder] = 4
    st[S_HIDDEN] = f
    st[S_STOCK] = stock
    st[S_OPEN_HAND] = h
    st[S_OPEN_FLOOR] = f
    if forced_bid > 0:
        bid = forced_bid
    else:
        make_view(st, bidder, view, seats.params)
        bid = seats.bid[bidder](view, rpol)
    if bid < rule.min_bid_value or bid > 13 or (h & VALMASK[min(max(bid, 0), 13)]) == 0:
        note_illegal(st, DEC_BID, bidder, bid)
        return
    st[S_BID] = bid
    st[S_LOOSE] = f
    st[S_HIDDEN] = 0
    st[S_PLAY] = 1
    nplayers = rule.num_players
    for k in range(1, 49):
        p = (bidder + k - 1) % nplayers
        n = legal_moves(st, p, params, W, moves)
        if n == 0:
            raise ValueError("seep: no legal move (engine invariant violated)")
        if n > st[S_MAX_MOVES]:
            st[S_MAX_MOVES] = n
        st[S_SUM_MOVES] += n
        make_view(st, p, view, seats.params)
        i = seats.move[p](view, moves, n, rpol)
        if i < 0 or i >= n:
            note_illegal(st, DEC_MOVE, p, i)
            return
        if tracing(trace):
            for j in range(ST_SIZE):
                tr_state[k - 1, j] = st[j]
            for j in range(n):
                trace_event(trace, EV_LEGAL, moves[j, M_KIND], moves[j, M_CARD], moves[j, M_TARGET], moves[j, M_LOOSE],
                            moves[j, M_HOUSE])
            trace_event(trace, EV_PLAY, k, p, i, n, 0)
        if k == 1:
            st[S_OPEN_CARD] = moves[i, M_CARD]
            st[S_OPEN_KIND] = moves[i, M_KIND]
        apply_move(st, p, moves[i, M_KIND], moves[i, M_CARD], moves[i, M_TARGET], moves[i, M_LOOSE], moves[i, M_HOUSE])
        if k == 1:
            deal_stock(st, deck, False)
        elif k == 24 and nplayers == 2:
            deal_stock(st, deck, True)
    finish_deal(st, params)
    if tracing(trace):
        for j in range(ST_SIZE):
            tr_state[48, j] = st[j]


@helper(alloc=False)
def finish_deal(st, params):
    """Section 4: leftovers, the no-house check, card points and deal scores."""
    rule = params[0]
    team = st[S_LAST_CAPTURE]
    if team < 0:
        team = st[S_DEALER] % 2
    left = st[S_LOOSE]
    for w in range(14):
        if st[S_HOUSE + w]:
            if rule.end_house_policy == END_HOUSE.ERROR:
                raise ValueError("seep: a house survived play 48 (engine invariant violated)")
            left |= st[S_HOUSE + w]
            st[S_HOUSE + w] = 0
            st[S_OWNERS + w] = 0
    st[S_LEFTOVER] = left
    st[S_LEFTOVER_TEAM] = team if left else -1
    st[S_PILE + team] |= left
    st[S_LOOSE] = 0
    for t in range(2):
        st[S_CARD_PTS + t] = mask_points(st[S_PILE + t])
        st[S_SCORE + t] = st[S_CARD_PTS + t] + st[S_SWEEP_PTS + t]


# ------------------------------------------------------------------ baazi and match

@helper(alloc=False)
def min_points_loser(st, params):
    """5.2: the team under the threshold (-1 if none or the rule is off)."""
    rule = params[0]
    if rule.min_points_rule == 0:
        return -1
    base = S_SCORE if rule.min_points_includes_sweeps else S_CARD_PTS
    for t in range(2):
        if st[base + t] < rule.min_points_threshold:
            return t
    return -1


@helper(alloc=False)
def next_dealer(params, dealer, D_after, score_a, score_b, loser):
    """2.1 / 5.5 with the dealer flags of section 6; ``loser`` = baazi loser or -1.

    Two players (6.2): the player behind deals, level keeps the dealer, and after a
    baazi its loser deals (the ``dealer_after_baazi`` flag has no partner to pick).
    """
    rule = params[0]
    n = rule.num_players
    right = (dealer + 1) % n
    if rule.dealer_rule == DEALER_RULE.ROTATE:
        return right
    if loser < 0:
        if rule.losing_team_basis == LOSING_BASIS.RUNNING_DIFFERENCE:
            behind = -1 if D_after == 0 else (0 if D_after < 0 else 1)
        else:
            behind = -1 if score_a == score_b else (0 if score_a < score_b else 1)
        if behind < 0:
            return dealer if rule.tie_dealer == TIE_DEALER.SAME else right
        return dealer if dealer % 2 == behind else right
    w = dealer if dealer % 2 == loser else right
    if n == 2:
        return w
    mode = rule.dealer_after_baazi
    if mode == AFTER_BAAZI.PARTNER_OF_NEXT:
        return (w + 2) % 4
    if mode == AFTER_BAAZI.DEALER_PARTNER:
        return (dealer + 2) % 4
    if mode == AFTER_BAAZI.LEFT_OF_DEALER:
        return (dealer + 3) % 4
    return w


@helper(alloc=False)
def baazi_step(params, D, st):
    """Result of one played deal: (new D, baazi loser or -1, by the 9-point rule)."""
    rule = params[0]
    loser = min_points_loser(st, params)
    if loser >= 0:
        return np.int64(0), loser, True
    D = D + st[S_SCORE] - st[S_SCORE + 1]
    lead = rule.baazi_lead
    if rule.baazi_lead_inclusive:
        if D >= lead:
            return np.int64(0), np.int64(1), False
        if D <= -lead:
            return np.int64(0), np.int64(0), False
    else:
        if D > lead:
            return np.int64(0), np.int64(1), False
        if D < -lead:
            return np.int64(0), np.int64(0), False
    return D, np.int64(-1), False


@helper
def first_dealer(params, seed, rec):
    rule = params[0]
    if rule.first_dealer >= 0:
        return rule.first_dealer
    meta = np.zeros(1, np.uint64)
    meta[0] = stream_start(np.uint64(seed), np.uint64(rec), np.uint64(META_STREAM))
    return below(meta, rule.num_players)


# record columns (see records.py for the documentation)
DEAL_NCOLS = 34
BAAZI_NCOLS = 12
MATCH_NCOLS = 10
UNIT_DEAL, UNIT_BAAZI, UNIT_MATCH = 0, 1, 2


@helper(alloc=False)
def write_deal(st, params, row):
    row[0] = st[S_DEALER]
    row[1] = st[S_BIDDER]
    row[2] = st[S_REDEALS]
    row[3] = st[S_BID]
    row[4] = value_set(st[S_OPEN_HAND])
    row[5] = st[S_OPEN_KIND]
    row[6] = st[S_OPEN_CARD]
    row[7] = st[S_CARD_PTS]
    row[8] = st[S_CARD_PTS + 1]
    row[9] = st[S_SWEEP_PTS]
    row[10] = st[S_SWEEP_PTS + 1]
    row[11] = st[S_SCORE]
    row[12] = st[S_SCORE + 1]
    row[13] = st[S_SWEEPS]
    row[14] = st[S_SWEEPS + 1]
    row[15] = st[S_SWEEPS + 2]
    row[16] = st[S_LAST_CAPTURE]
    row[17] = ncards(st[S_LEFTOVER])
    row[18] = mask_points(st[S_LEFTOVER])
    row[19] = min_points_loser(st, params)
    oc = np.int64(1) << st[S_OPEN_CARD]
    row[20] = 0 if st[S_PILE] & oc else 1
    row[21] = st[S_TRACK_TEAM]
    row[22] = st[S_TRACK_AT]
    row[23] = st[S_BUILT]
    row[24] = st[S_ADDED]
    row[25] = st[S_BROKEN]
    row[26] = st[S_MAX_MOVES]
    row[27] = st[S_SUM_MOVES]
    bt = st[S_BIDDER] % 2
    row[28] = st[S_SCORE + bt]
    row[29] = st[S_SCORE + 1 - bt]
    # the three other cards of the bid value: captured by the bidder's team?
    others = VALMASK[st[S_BID]] & ~oc
    row[30] = 1 if (st[S_PILE + bt] & others) == others else 0
    row[31] = 1 if st[S_PILE + bt] & oc else 0
    row[32] = st[S_D]
    row[33] = ncards(st[S_OPEN_HAND] & VALMASK[st[S_BID]])


@kernel
def simulate_kernel(unit, params, seats, seed, start, count, out):
    """Records ``start .. start+count-1`` of ``seed`` for ``unit`` into ``out``."""
    rule = params[0]
    st = np.zeros(ST_SIZE, np.int64)
    view = np.zeros(ST_SIZE, np.int64)
    deck = np.zeros(52, np.int64)
    W = _make_work_nb()
    moves = np.zeros((MAX_MOVES, M_COLS), np.int64)
    trace = no_trace()
    tr_state = np.zeros((1, ST_SIZE), np.int64)
    rdeck = np.zeros(1, np.uint64)
    rpol = np.zeros(1, np.uint64)
    useed = np.uint64(seed)
    max_deals = rule.max_deals_per_baazi
    for r in range(count):
        rec = start + r
        urec = np.uint64(rec)
        row = out[r]
        dealer = first_dealer(params, seed, rec)
        if unit == UNIT_DEAL:
            rdeck[0] = stream_start(useed, urec, np.uint64(0))
            rpol[0] = stream_start(useed, urec, np.uint64(1))
            play_deal(st, params, dealer, 0, seats, rdeck, rpol, deck, W, moves, view,
                      trace, tr_state)
            check_answer(st)
            write_deal(st, params, row)
            continue
        # baazi / match
        j = 0
        wins_a = 0
        wins_b = 0
        baazis = 0
        capped = 0
        row[:] = 0
        row[0] = dealer
        while True:
            D = np.int64(0)
            deals = 0
            sweeps = 0
            redeals = 0
            loser = np.int64(-1)
            by_min = False
            while True:
                rdeck[0] = stream_start(useed, urec, np.uint64(2 * j))
                rpol[0] = stream_start(useed, urec, np.uint64(2 * j + 1))
                play_deal(st, params, dealer, D, seats, rdeck, rpol, deck, W, moves, view,
                          trace, tr_state)
                check_answer(st)
                j += 1
                deals += 1
                sweeps += st[S_SWEEPS] + st[S_SWEEPS + 1] + st[S_SWEEPS + 2]
                redeals += st[S_REDEALS]
                D, loser, by_min = baazi_step(params, D, st)
                dealer = next_dealer(params, dealer, D, st[S_SCORE], st[S_SCORE + 1], loser)
                if loser >= 0:
                    break
                if max_deals > 0 and deals >= max_deals:
                    break
            baazis += 1
            if loser < 0:
                capped += 1
            elif loser == 0:
                wins_b += 1
            else:
                wins_a += 1
            if unit == UNIT_BAAZI:
                row[1] = deals
                row[2] = -1 if loser < 0 else 1 - loser
                row[3] = 1 if by_min else 0
                row[4] = 1 if loser < 0 else 0
                row[5] = redeals
                row[6] = sweeps
                row[7] = D if loser < 0 else 0
                row[8] = dealer
                row[9] = st[S_SCORE]
                row[10] = st[S_SCORE + 1]
                row[11] = 1 if loser >= 0 and st[S_DEALER] % 2 == loser else 0
                break
            row[4] += deals
            row[5] += redeals
            row[6] += sweeps
            row[7] += 1 if by_min else 0
            n_target = rule.match_baazis
            if rule.match_mode == MATCH_MODE.FIXED_COUNT:
                if baazis >= n_target:
                    break
            elif wins_a >= n_target or wins_b >= n_target or baazis >= 1000 * n_target:
                break
        if unit == UNIT_MATCH:
            row[1] = wins_a
            row[2] = wins_b
            row[3] = 0 if wins_a > wins_b else (1 if wins_b > wins_a else -1)
            row[8] = baazis
            row[9] = capped


@kernel
def trace_kernel(params, seats, seed, rec, j, dealer, D, st, trace, tr_state):
    """The ``j``-th deal of record ``rec`` traced into ``trace`` and ``tr_state[49]`` (twin of the
    simulation path)."""
    view = np.zeros(ST_SIZE, np.int64)
    deck = np.zeros(52, np.int64)
    W = _make_work_nb()
    moves = np.zeros((MAX_MOVES, M_COLS), np.int64)
    rdeck = np.zeros(1, np.uint64)
    rpol = np.zeros(1, np.uint64)
    rdeck[0] = stream_start(np.uint64(seed), np.uint64(rec), np.uint64(2 * j))
    rpol[0] = stream_start(np.uint64(seed), np.uint64(rec), np.uint64(2 * j + 1))
    play_deal(st, params, dealer, D, seats, rdeck, rpol, deck, W, moves, view,
              trace, tr_state)
    check_answer(st)


@kernel
def legal_moves_of(st, p, params):
    """Legal moves of seat ``p`` in state ``st`` as a fresh array (tests, tools)."""
    W = _make_work_nb()
    moves = np.zeros((MAX_MOVES, M_COLS), np.int64)
    n = legal_moves(st, p, params, W, moves)
    return moves[:n].copy()


def seats(table) -> Seats:
    """The kernels' :class:`Seats` of a policy table."""
    return Seats(table["bid"], table["move"], table.params)


# ------------------------------------------------------------------ Python helpers
