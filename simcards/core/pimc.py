"""Perfect-information Monte Carlo (PIMC) card play, for any trick-taking game.

At a decision the deciding seat deals the cards it has not seen to the other seats many
times (*worlds*), each consistent with what it knows: every seat's exact number of cards,
cards known to be in a seat (``fixed``) and cards a seat cannot hold (``allowed``: a shown
void removes that suit). In each world every legal card is solved double dummy
(:func:`simcards.core.dd.card_values`), the measured side's tricks turned into points by the
game's ``utility`` table, and the card with the largest total over the worlds is played.

Ties (equal totals): the game's ``prefer`` card (its heuristic bot's choice) when it is among
the best, else the lowest card number. Sampling draws only from the seat's own random
stream and the work per decision is capped by solver nodes (``node_budget``, counted by the
solver), never by the clock, so deal ``i`` of seed ``s`` plays the same on any machine and
any number of threads.

Games use three pieces: :func:`sample_world` (one world, hard constraints), their own
acceptance test on top (bids, Nil: game knowledge) and :func:`decide` (solve the worlds,
pick the card). The transposition table is allocated once per decision, sized by
:data:`TABLE_BITS` for the hand size (2^(bits+4) entries: small hands need few entries, and
clearing a large table costs more than their solves).
"""
from __future__ import annotations

import numpy as np

from simcards.core import dd
from simcards.core.cards import bit, lowest_card, popcount
from simcards.core.deal import deal_known
from simcards.core.jit import helper
from simcards.core.rng import below

TABLE_BITS = (6, 6, 6, 6, 6, 7, 8, 9, 10, 11, 12, 12, 12, 12)  # by cards in the hand to act (measured)
MAX_WORLDS = 256


@helper
def sample_world(unseen, fixed, sizes, allowed, state, hands, cards, buf, max_tries):
    """Deal the ``unseen`` cards (plus each seat's ``fixed`` cards) so seat ``s`` holds exactly
    ``sizes[s]`` cards, all within ``allowed[s] | fixed[s]``; into ``hands``.

    Uniform over the consistent deals when a plain deal fits within ``max_tries`` draws
    (rejection); otherwise a constructive deal (each card, most constrained first, to a
    random seat that may hold it, weighted by room left), not exactly uniform. ``cards``,
    ``buf``: int64 scratch of at least 64. Returns the draws used, or -1 if none fitted.
    """
    n = sizes.shape[0]
    k = 0
    m = unseen
    while m:
        low = m & (~m + np.uint64(1))
        m ^= low
        cards[k] = lowest_card(low)
        k += 1
    deck = cards[:k]
    for t in range(max_tries):
        deal_known(deck, fixed, sizes, 0, state, hands, buf)
        ok = True
        for s in range(n):
            if hands[s] & ~(allowed[s] | fixed[s]):
                ok = False
                break
        if ok:
            return t + 1
    # constructive: cards with fewer possible holders first
    free = np.zeros(64, np.int64)
    order = np.zeros(64, np.int64)
    for t in range(max_tries):
        known = np.uint64(0)
        for s in range(n):
            hands[s] = fixed[s]
            known |= fixed[s]
        nfree = 0
        for i in range(k):
            if not known & bit(deck[i]):
                free[nfree] = deck[i]
                nfree += 1
        # shuffle, then stable sort by holder count (random order within a count)
        for i in range(nfree - 1, 0, -1):
            j = below(state, i + 1)
            free[i], free[j] = free[j], free[i]
        cnt = 0
        for holders in range(1, n + 1):
            for i in range(nfree):
                h = 0
                for s in range(n):
                    if allowed[s] & bit(free[i]):
                        h += 1
                if h == holders:
                    order[cnt] = free[i]
                    cnt += 1
        if cnt < nfree:
            return -1  # a card no seat may hold
        ok = True
        for i in range(cnt):
            c = order[i]
            total = 0
            for s in range(n):
                if allowed[s] & bit(c):
                    total += max(sizes[s] - popcount(hands[s]), 0)
            if total == 0:
                ok = False
                break
            r = below(state, total)
            for s in range(n):
                if allowed[s] & bit(c):
                    room = max(sizes[s] - popcount(hands[s]), 0)
                    if r < room:
                        hands[s] |= bit(c)
                        break
                    r -= room
        if ok:
            for s in range(n):
                if popcount(hands[s]) != sizes[s]:
                    ok = False
        if ok:
            return max_tries + t + 1
    return -1


@helper
def new_table(bits):
    """The arrays of a :class:`simcards.core.dd.Table` of ``2^bits`` buckets, inside compiled code."""
    size = 1 << (bits + 4)
    chunks = -(-size // dd.CHUNK) + (1 << bits)  # dd.table_chunks
    keys = np.zeros((chunks * dd.CHUNK, dd.ENTRY_WORDS), np.uint64)
    bounds = np.zeros((chunks * dd.CHUNK, 4), np.int8)
    links = np.zeros(chunks, np.int64)
    heads = np.zeros((1 << bits, 3), np.int64)
    meta = np.zeros(dd.M_LEN, np.int64)
    meta[dd.M_CAP] = size
    ctr = np.zeros(dd.C_LEN, np.int64)
    return keys, bounds, links, heads, meta, ctr


@helper
def decide(worlds, count, R, side, suit_masks, tc, npl, leader, broken, t1, legal, utility, prefer,
           node_budget, min_worlds, bits, totals):
    """The card of ``legal`` with the largest total ``utility[tricks]`` over the worlds.

    ``worlds[w]``: every seat's hand in world ``w`` (``w < count``); ``tc[:npl]``: the trick
    so far, led by ``leader``; ``side``: bitmask of the measured seats; ``utility[v]``: the
    points of the side taking ``v`` of the remaining tricks (trick in progress included).
    Stops after the first world that takes the solver past ``node_budget`` nodes (0: no
    cap), once ``min_worlds`` are solved. ``bits``: the table's size (:data:`TABLE_BITS`
    gives one by hand size). ``totals[c]`` (int64[64], zeroed here): each
    card's total. Returns (card, worlds solved); card -1 when no legal card was valued.
    """
    for c in range(64):
        totals[c] = 0
    keys, bounds, links, heads, meta, ctr = new_table(bits)
    out_cards = np.zeros(dd.MAX_MOVES, np.int64)
    out_values = np.zeros(dd.MAX_MOVES, np.int64)
    n = R[dd.R_SEATS]
    H = np.zeros(n, np.uint64)
    valued = np.uint64(0)
    solved = 0
    for w in range(count):
        for s in range(n):
            H[s] = worlds[w, s]
        meta[dd.M_STAMP] += 1  # a new problem (Table.fresh)
        meta[dd.M_USED] = 0
        meta[dd.M_CHUNKS] = 0
        k = dd.card_values(H, R, side, suit_masks, tc, npl, leader, broken, t1, keys, bounds, links, heads, meta,
                           ctr, out_cards, out_values)
        for i in range(k):
            c = out_cards[i]
            if legal & bit(c):
                v = out_values[i]
                if v >= utility.shape[0]:
                    v = utility.shape[0] - 1
                totals[c] += utility[v]
                valued |= bit(c)
        solved += 1
        if node_budget > 0 and solved >= min_worlds and ctr[dd.C_NODES] >= node_budget:
            break
    if valued == 0:
        return np.int64(-1), solved
    best = np.int64(-1)
    m = valued
    while m:
        low = m & (~m + np.uint64(1))
        m ^= low
        c = lowest_card(low)
        if best < 0 or totals[c] > totals[best]:
            best = c
    if prefer >= 0 and valued & bit(prefer) and totals[prefer] == totals[best]:
        best = prefer
    return best, solved


def sample_world_py(unseen, fixed, sizes, allowed, seed: int, max_tries: int = 200):
    """Test entry: one world from a fresh stream ``seed`` (hands as a list, or None)."""
    state = np.array([seed], np.uint64)
    hands = np.zeros(len(sizes), np.uint64)
    cards = np.zeros(64, np.int64)
    buf = np.zeros(64, np.int64)
    r = sample_world(np.uint64(unseen), np.asarray(fixed, np.uint64), np.asarray(sizes, np.int64),
                     np.asarray(allowed, np.uint64), state, hands, cards, buf, np.int64(max_tries))
    return None if r < 0 else [int(h) for h in hands]
