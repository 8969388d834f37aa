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

from simcards.core import dd, dd_nil
from simcards.core.cards import bit, lowest_card, popcount
from simcards.core.deal import deal_known
from simcards.core.jit import helper
from simcards.core.policy import PolicyParam
from simcards.core.rng import below
from simcards.core.tricks import distinct_cards  # noqa: F401  (the adapters' import)

TABLE_BITS = (6, 6, 6, 6, 6, 7, 8, 9, 10, 11, 12, 12, 12, 12)  # by cards in the hand to act (measured)
MAX_WORLDS = 256


MIN_WORLDS = 4  # worlds solved before node_budget can stop the sampling, where no min_worlds parameter


def playout_worlds(default: int) -> PolicyParam:
    """The ``playout_worlds`` parameter (the search before ``dd_cards``) with a game's default."""
    return PolicyParam("playout_worlds", default, 0, MAX_WORLDS, "before dd_cards: deals sampled per card decision, "
                       "each distinct legal card played out by expert at every seat in every one (0 = expert's card)",
                       integer=True)


def play_params(max_cards: int, min_worlds: bool = True) -> tuple:
    """The card-play search parameters every game's pimc takes, in this order (``max_cards``:
    the most cards a hand holds): ``worlds``, ``dd_cards``, ``node_budget``, ``min_worlds``
    (left out with ``min_worlds=False``: :data:`MIN_WORLDS`)."""
    out = (
        PolicyParam("worlds", 16, 1, MAX_WORLDS, "deals of the unseen cards sampled per play decision", integer=True),
        PolicyParam("dd_cards", 5, 1, max_cards, "play double dummy once the seat holds at most this many cards "
                    "(before: expert's card)", integer=True),
        PolicyParam("node_budget", 200_000, 0, 1_000_000_000, "solver nodes per decision: no further world once "
                    "spent (0 = no cap)", integer=True),
    )
    if min_worlds:
        out += (PolicyParam("min_worlds", MIN_WORLDS, 1, MAX_WORLDS, "worlds solved before node_budget can stop the "
                            "sampling", integer=True),)
    return out


BAG_COST = PolicyParam("bag_cost", 1.0, 0.0, 20.0, "points an overtrick costs beyond its 1 (1: overtricks are neutral)")
BID_WORLDS = PolicyParam("bid_worlds", 16, 0, MAX_WORLDS, "deals sampled per bid: each candidate bid is played out "
                         "by expert at every seat in every one (0 = expert's bid)", integer=True)


def bid_span(max_tricks: int) -> PolicyParam:
    """The ``bid_span`` parameter of a game whose bids go up to ``max_tricks``."""
    return PolicyParam("bid_span", 2, 0, max_tricks, "candidate bids: expert's bid and the legal bids within this "
                       "many tricks of it (and Nil when legal)", integer=True)


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
    links = np.zeros((chunks, dd.LINK_WORDS), np.int64)
    heads = np.zeros((1 << bits, 3), np.int64)
    meta = np.zeros(dd.M_LEN, np.int64)
    meta[dd.M_CAP] = size
    ctr = np.zeros(dd.C_LEN, np.int64)
    return keys, bounds, links, heads, meta, ctr


@helper
def decide(worlds, count, weights, R, side, suit_masks, tc, npl, leader, broken, t1, legal, utility, nils, prefer,
           node_budget, min_worlds, bits, totals):
    """The card of ``legal`` with the largest total ``utility[tricks]`` over the worlds, plus
    the Nil swings.

    ``worlds[w]``: every seat's hand in world ``w`` (``w < count``), whose points count
    ``weights[w]`` times (int64: a game's importance weights in fixed point, 1 each for equal
    worlds; integers keep the totals and their ties exact); ``tc[:npl]``: the trick
    so far, led by ``leader``; ``side``: bitmask of the measured seats; ``utility[v]``: the
    points of the side taking ``v`` of the remaining tricks (trick in progress included).
    ``nils[j]``: a Nil still alive, (seat, its attackers as a seat mask, the points to the
    side if it fails); in each world a card whose play lets the attackers make that seat
    take a trick (core/dd_nil.py) adds those points (a separate question from the tricks:
    the two totals are added, each under its own best play); a world where one card's
    question ran past ``dd_nil.LIMIT`` positions adds nothing. No rows: no Nil in play.
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
    n_nils = nils.shape[0]
    nil_keys, nil_values = dd_nil.new_table(dd_nil.TABLE_BITS if n_nils > 0 else 0)
    nil_nodes = np.zeros(1, np.int64)
    fails = np.zeros(dd.MAX_MOVES, np.int64)
    for w in range(count):
        for s in range(n):
            H[s] = worlds[w, s]
        meta[dd.M_STAMP] += 1  # a new problem (Table.fresh)
        meta[dd.M_USED] = 0
        meta[dd.M_CHUNKS] = 0
        k = dd.card_values(H, R, side, suit_masks, tc, npl, leader, broken, t1, keys, bounds, links, heads, meta,
                           ctr, out_cards, out_values, utility)  # resolved as far as the utility tells apart
        for i in range(k):
            c = out_cards[i]
            if legal & bit(c):
                v = out_values[i]
                if v >= utility.shape[0]:
                    v = utility.shape[0] - 1
                totals[c] += utility[v] * weights[w]
                valued |= bit(c)
        for j in range(n_nils):  # the stamp j + 1: a position's answer holds in every world
            k = dd_nil.nil_card_values(H, R, nils[j, 0], nils[j, 1], suit_masks, tc, npl, leader, broken, t1,
                                       np.int64(j + 1), nil_keys, nil_values, nil_nodes, np.int64(dd_nil.LIMIT),
                                       out_cards, fails)
            answered = True
            for i in range(k):
                if fails[i] < 0:
                    answered = False
            for i in range(k):  # a world with a question left open adds no swing to any card
                if answered and fails[i] == 1 and legal & bit(out_cards[i]):
                    totals[out_cards[i]] += nils[j, 2] * weights[w]
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


@helper
def with_params(view, start, values):
    """A copy of ``view`` with ``values`` in the slots from ``start`` (a policy's parameters,
    e.g. the heuristic's defaults for its simulated decisions)."""
    v = view.copy()
    for k in range(values.shape[0]):
        v[start + k] = values[k]
    return v


@helper
def sample_worlds(unseen, fixed, sizes, allowed, rng, n_worlds, worlds, hard_tries):
    """Up to ``n_worlds`` worlds (:func:`sample_world`, ``hard_tries`` draws each) into
    ``worlds``, stopping at the first that no deal fits. Returns how many were drawn.

    Games that shape worlds by the bids redraw each world in a loop of their own: core code
    calls no game code (a game's function passed in would be lowered as a dynamic address
    that numba cannot cache, and core's cache stamp does not cover game sources: core/jit.py)."""
    n = sizes.shape[0]
    hands = np.zeros(n, np.uint64)
    cards = np.zeros(64, np.int64)
    buf = np.zeros(64, np.int64)
    count = 0
    for w in range(n_worlds):
        if sample_world(unseen, fixed, sizes, allowed, rng, hands, cards, buf, hard_tries) < 0:
            break
        for s in range(n):
            worlds[count, s] = hands[s]
        count += 1
    return count


@helper
def trump_lead_restrict(npl, broken, hand, legal, trumps):
    """The solver's ``R_LEAD_RESTRICT`` where trumps must be broken: 0 when this seat, on lead
    before they are broken, was allowed to lead one (it holds other cards too), else 1."""
    if npl == 0 and broken == 0 and hand & trumps and hand & ~trumps and legal & trumps:
        return 0
    return 1


@helper
def solver_rules(seats, trump, lead_restrict, sitout_t1):
    """The solver's rules array (``dd.R_*``): ``seats`` players, suit ``trump`` (-1: none), no
    forced lead, every search feature."""
    R = np.zeros(dd.R_LEN, np.int64)
    R[dd.R_SEATS] = seats
    R[dd.R_TRUMP] = trump
    R[dd.R_LEAD_RESTRICT] = lead_restrict
    R[dd.R_FORCED_LEAD] = -1
    R[dd.R_SITOUT_T1] = sitout_t1
    R[dd.R_FEATURES] = dd.F_ALL
    return R


@helper
def solve_worlds(worlds, count, weights, R, side, suit_masks, tc, npl, leader, broken, t1, legal, utility, nils,
                 prefer, node_budget, min_worlds, left, totals):
    """:func:`decide` with the table sized for ``left`` cards in the hand to act; ``prefer``
    when no card was valued. Returns (card, worlds solved)."""
    card, solved = decide(worlds, count, weights, R, side, suit_masks, tc, npl, leader, broken, t1, legal, utility,
                          nils, prefer, node_budget, min_worlds, np.int64(TABLE_BITS[min(left, 13)]), totals)
    if card < 0:
        return prefer, solved
    return card, solved


GAIN, SQUARE = 0, 1  # the rows of a decision's play-out sums (:func:`playout_sums`)
WEIGHTS = 64  # their last column: the sum of the worlds' weights (GAIN) and of their squares (SQUARE)


@helper
def playout_sums():
    """A decision's play-out sums for :func:`add_world` and :func:`confident_candidate`:
    row :data:`GAIN` (card ``c``'s weighted gain over ``prefer``, summed over the worlds),
    row :data:`SQUARE` (the weighted squares of those gains); column :data:`WEIGHTS` holds the
    sum of the worlds' weights and of their squares."""
    return np.zeros((2, WEIGHTS + 1), np.float64)


@helper
def add_world(values, candidates, prefer, weight, totals, sums):
    """One world's play-out values (``values[c]`` for each candidate ``c``) into a decision's
    sums: ``totals[c]`` += ``weight * values[c]``, and ``sums`` (:func:`playout_sums`) the
    world's gain of each candidate over ``prefer``, which :func:`confident_candidate` reads."""
    for c in range(totals.shape[0]):
        if candidates & bit(c):
            totals[c] += weight * values[c]
            d = float(values[c] - values[prefer])
            sums[GAIN, c] += weight * d
            sums[SQUARE, c] += weight * d * d
    sums[GAIN, WEIGHTS] += weight
    sums[SQUARE, WEIGHTS] += float(weight) * weight


@helper
def confident_candidate(candidates, sums, prefer, z):
    """The candidate whose gain over ``prefer`` (``sums`` of :func:`add_world`) has the largest
    lower bound ``mean - z * standard error``; ``prefer`` unless some lower bound is above 0
    (ties: the lowest card). With ``z = 0`` it is the best total. A play-out is one
    noisy sample of a world's value, so a card that beats the heuristic's by one lucky
    world's swing is not played."""
    wsum = sums[GAIN, WEIGHTS]
    if wsum <= 0:
        return prefer
    n_eff = wsum * wsum / sums[SQUARE, WEIGHTS]
    best = prefer
    top = 0.0
    for c in range(WEIGHTS):
        if c == prefer or not candidates & bit(c):
            continue
        mean = sums[GAIN, c] / wsum
        var = max(sums[SQUARE, c] / wsum - mean * mean, 0.0)
        low = mean - z * np.sqrt(var / n_eff)
        if low > top:
            best = c
            top = low
    return best


def sample_world_py(unseen, fixed, sizes, allowed, seed: int, max_tries: int = 200):
    """Test entry: one world from a fresh stream ``seed`` (hands as a list, or None)."""
    state = np.array([seed], np.uint64)
    hands = np.zeros(len(sizes), np.uint64)
    cards = np.zeros(64, np.int64)
    buf = np.zeros(64, np.int64)
    r = sample_world(np.uint64(unseen), np.asarray(fixed, np.uint64), np.asarray(sizes, np.int64),
                     np.asarray(allowed, np.uint64), state, hands, cards, buf, np.int64(max_tries))
    return None if r < 0 else [int(h) for h in hands]
