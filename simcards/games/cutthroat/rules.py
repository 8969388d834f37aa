"""Compiled Cutthroat Spades kernel: deal, bid, play and score hands, games, tournaments.

One entry point, :func:`run_records`, simulates records ``start .. start+count-1`` of a
seed for a unit (deal, game or tournament) and optionally writes a trace of every
event as a named event (``EVENTS``, core/trace.py; the same code path: ``NO_TRACE``
when not tracing).
:func:`simulate_bid_options` (``simcards bid cutthroat``) runs the same
:func:`play_hand` and :func:`play_game` on a given deal with one seat's bid forced.

Randomness: hand ``h`` of record ``i`` (hands counted across the games of a
tournament) shuffles from stream ``8h`` of ``(seed, i)`` and seat ``s`` decides from
stream ``8h + 1 + s``; the first dealer comes from stream 7. So hand 0 of game ``i``
is exactly deal ``i`` of the deal unit, and changing one seat's policy leaves the
other seats' random draws alone.

The kernels take their arguments bundled: :class:`Table` (the packed variant and the
form), :class:`Seats` (the policies) and :class:`Work` (scratch and running state).
"""
from collections import namedtuple

import numpy as np

from simcards.core.jit import helper, inline, kernel
from simcards.core.borrow import borrowed, keep_alive
from simcards.core.cards import bit, lowest_card, popcount
from simcards.core.deal import deal_constrained
from simcards.core.errors import IllegalAnswer
from simcards.core.trace import NO_TRACE, TraceEvents, emit, no_trace, tracing
from simcards.core.rng import below, next_u64, stream_start
from simcards.core.tricks import SUIT_MASKS_JOKERS_AS_SPADES, spades_legal
from simcards.core.variant import NULL
from simcards.games.cutthroat.layout import (
    BAG_MODE, BAG_OUT_PENALTY, FIRST_LEAD, MISDEAL_CONDITION, B_1F, B_2F, B_B6, B_BN, B_SM, DECLINE, K_B6, KIND_OF_CODE,
    M_DECK, M_HAND, M_LEGAL, M_PLAYED, M_PRIZE, M_TRICK, M_VOID, MASKS_SIZE, MAX_SEATS, NIL,
    PHASE_BID, PHASE_BLIND, PHASE_PLAY, PHASE_REDEAL, V_B6_TRICKS, V_B6USED, V_BAG_LIMIT,
    V_BAG_MODE, V_BAGS, V_BID, V_BROKEN, V_DEALER, V_HAND_NO, V_JACKS, V_LED_SUIT, V_LEADER,
    V_MAX_BID, V_N, V_NPLAYED, V_PHASE, V_SCORE, V_SEAT, V_SITOUT, V_SM_MIN, V_T, V_TARGET,
    V_TOKENS, V_TRICK, V_TRICK_CARD, V_TRICK_SEAT, V_TRICKS, V_WIN_CARD, V_WIN_SEAT, VIEW_SIZE, V_PARAMS,
)
from simcards.core.policy import seat_params, shared_params

SUITS = SUIT_MASKS_JOKERS_AS_SPADES  # effective suits: jokers are spades
TRUMPS = SUITS[3]
JC, JD, JH = 9, 22, 35
FACE_CARDS = np.uint64(sum(1 << (13 * s + r) for s in range(4) for r in (9, 10, 11)))
TOP_TRUMPS = np.uint64((1 << 49) | (1 << 50) | (1 << 51) | (7 << 52))  # Q K A of spades, jokers
SIDE_ACES = np.uint64((1 << 12) | (1 << 25) | (1 << 38))
MAX_REDEALS = 1000  # simulation guard for the deficient-hand redeal
ASK, STOP, LOOK = -1, -2, -3  # play_hand ``forced`` values other than a bid code

UNIT_DEAL, UNIT_GAME, UNIT_TOURNAMENT = 0, 1, 2

# trace events (core/trace.py): declared once, codes EV_HAND = 1 .. in this order
EVENTS = TraceEvents(
    "cutthroat",
    hand=("hand_in_game", "dealer", "hand_in_record"),
    deal=("seat", "hand"),
    redeal=("caller", "number"),  # caller -1: automatic
    bid=("seat", "bid", "blind", "blind_mask", "open_mask"),  # bid code; the masks: legal blind and open bids
    play=("seat", "card", "trick", "pos"),
    trick=("winner", "trick", "card"),
    score=("seat", "delta", "score", "bags", "penalty"),  # score and bag counter after the hand
    game=("game", "winner", "hands"),  # winner -1: unfinished
    tournament=("winner", "games"),
)
EVENTS.export(globals())

# record columns
PER_SEAT_DEAL = ("bid", "tricks", "delta", "bags", "jacks", "trumps", "top_trumps", "aces", "voids")
DEAL_HEAD = ("dealer", "first_leader", "redeals")
GAME_HEAD = ("winner", "hands", "first_dealer", "last_dealer", "over_target", "tie_hands")
PER_SEAT_GAME = ("score", "bagouts", "b6_bids")
KIND_COLS = ("ordinary", "nil", "1f", "2f", "b6", "bn", "sm")
TOURNAMENT_HEAD = ("winner", "games", "hands", "first_dealer")
PER_SEAT_TOURNAMENT = ("tokens",)


def _columns(head, per_seat, tail=()):
    return list(head) + [f"{c}_{s}" for c in per_seat for s in range(MAX_SEATS)] + list(tail)


DEAL_COLUMNS = _columns(DEAL_HEAD, PER_SEAT_DEAL)
GAME_COLUMNS = _columns(GAME_HEAD, PER_SEAT_GAME,
                        [f"n_{k}" for k in KIND_COLS] + [f"made_{k}" for k in KIND_COLS])
TOURNAMENT_COLUMNS = _columns(TOURNAMENT_HEAD, PER_SEAT_TOURNAMENT)
UNIT_COLUMNS = (DEAL_COLUMNS, GAME_COLUMNS, TOURNAMENT_COLUMNS)

# column offsets used by the kernel
D_SEAT0 = len(DEAL_HEAD)
G_SEAT0 = len(GAME_HEAD)
G_N_KIND = len(GAME_HEAD) + MAX_SEATS * len(PER_SEAT_GAME)
G_MADE_KIND = G_N_KIND + len(KIND_COLS)
T_SEAT0 = len(TOURNAMENT_HEAD)

# per-hand result rows (hand_out[row, seat])
H_BID, H_TRICKS, H_DELTA, H_BAGS, H_JACKS, H_PENALTY, H_MADE, H_BAGOUTS = range(8)
H_ROWS = 8


# kernel arguments, bundled
Table = namedtuple("Table", ("params", "form"))  # the variant: params row, form [N, T, deck mask, dealer sits out]
# per decision a function per seat, then params: int64[seat, PARAM_SLOTS], each seat's policy parameters,
# and shared: whether every seat has the same values
Seats = namedtuple("Seats", ("blind", "bid", "play", "redeal", "params", "shared"))
# per chunk: hands, dealt hands, per-hand results [H_ROWS, seat], view, masks, seat (+ deal, call) streams,
# card scratch, state [scores, bags, B6 uses] per seat, win tokens per seat
Work = namedtuple("Work", ("hands", "dealt", "out", "policy_view", "masks", "rngs", "cards", "state", "tokens"))

# decisions by their index in policies.DECISIONS: an illegal answer raises IllegalAnswer(D_x, seat, value)
DEC_BLIND, DEC_BID, DEC_PLAY, DEC_REDEAL = 0, 1, 2, 3


# ---------------------------------------------------------------- small rules helpers


@inline
def bid_count(p, code):
    """Tricks a bid counts for in the forbidden-total rule (3.4)."""
    if code == NIL or code == B_BN:
        return 0
    if code == B_1F:
        return 1
    if code == B_2F:
        return 2
    if code == B_B6:
        return p.blind_six_tricks
    if code == B_SM:
        return p.shoot_moon_min_tricks
    return code


@inline
def bid_made(p, code, t):
    """Whether a bid succeeded: at least k (ordinary, B6, SM), exactly 0/1/2 (Nil, BN, 1F, 2F)."""
    if code == NIL or code == B_BN:
        return t == 0
    if code == B_1F:
        return t == 1
    if code == B_2F:
        return t == 2
    if code == B_B6:
        return t >= p.blind_six_tricks
    if code == B_SM:
        return t >= p.shoot_moon_min_tricks
    return t >= code


@inline
def deficit(scores, n, seat):
    """Best score among the other players minus ``seat``'s score (3.3)."""
    best = -(1 << 62)
    for o in range(n):
        if o != seat and scores[o] > best:
            best = scores[o]
    return best - scores[seat]


@inline
def bid_options(p, n, tricks, seat, is_dealer, sum_before, scores, b6used, saw_hand):
    """(blind bids, open bids) legal for ``seat`` as code masks (3.2-3.4)."""
    opened = np.uint64(0)
    for k in range(1, p.max_ordinary_bid + 1):
        opened |= bit(k)
    if p.nil_allowed:
        opened |= bit(NIL)
    if p.one_for_fifty_allowed:
        opened |= bit(B_1F)
    if p.two_for_forty_allowed:
        opened |= bit(B_2F)
    if p.shoot_moon_allowed:
        opened |= bit(B_SM)
    blind = np.uint64(0)
    if not saw_hand:
        d = deficit(scores, n, seat)
        if p.blind_nil_allowed and (p.blind_nil_min_deficit == NULL or d >= p.blind_nil_min_deficit):
            blind |= bit(B_BN)
        if (p.blind_six_allowed and d >= p.blind_six_min_deficit
                and (p.blind_six_max_per_game == NULL or b6used[seat] < p.blind_six_max_per_game)):
            blind |= bit(B_B6)
    if is_dealer and p.forbid_total_bids_equal_tricks:
        forbidden = np.uint64(0)
        every = opened | blind
        for code in range(64):
            if (every & bit(code)) and sum_before + bid_count(p, code) == tricks:
                forbidden |= bit(code)
        if every & ~forbidden:  # waived when nothing would remain
            opened &= ~forbidden
            blind &= ~forbidden
    return blind, opened


@inline
def score_bid(p, code, t, jacks, g):
    """Score one player's hand (docs/games/cutthroat.md, rule 5.1): returns (delta, new G, bags added, penalty, bag-outs).

    A bag-out is the counter reaching ``bag_limit`` under ``bag_mode=accumulate`` (once per
    hand with ``per_accumulated_bag``, once per limit crossed with ``fixed_carry``), whatever
    the penalty per bag, 0 included.

    ``jacks`` is the card mask of the prize jacks he captured; ``g`` his counter before.
    """
    bags = 0
    extra = 0
    if code == NIL or code == B_BN:
        v = p.nil_value if code == NIL else p.blind_nil_value
        if t == 0:
            base = v
        else:
            base = -v
            if p.failed_nil_tricks_as_bags:
                bags = t
    elif code == B_1F or code == B_2F:  # exactly k; more falls back to an ordinary k
        k = 1 if code == B_1F else 2
        value = p.one_for_fifty_value if code == B_1F else p.two_for_forty_value
        if t == k:
            base = value
        elif t > k:
            base = 10 * k
            bags = t - k
        else:
            base = -value
    elif code == B_B6:
        if t >= p.blind_six_tricks:
            base = p.blind_six_value
            bags = t - p.blind_six_tricks
        else:
            base = -p.blind_six_value
    elif code == B_SM:
        if t >= p.shoot_moon_min_tricks:
            base = p.shoot_moon_value
            if p.shoot_moon_overtricks_score:
                extra = p.bag_point_value * (t - p.shoot_moon_min_tricks)
        else:
            base = -p.shoot_moon_fail_value
    else:
        if t >= code:
            base = 10 * code
            bags = t - code
        else:
            base = -10 * code
    prize = np.uint64(p.prize_jacks)
    jack_points = p.prize_jack_points * popcount(jacks & prize & (bit(JD) | bit(JC)))
    relief = p.jack_of_hearts_bag_relief if (jacks & prize & bit(JH)) else 0
    penalty = 0
    bagouts = 0
    if p.bag_mode == BAG_MODE.ACCUMULATE:
        g = max(0, g + bags - relief)
        if p.bag_out_penalty == BAG_OUT_PENALTY.PER_ACCUMULATED_BAG:
            if g >= p.bag_limit:
                penalty = p.bag_penalty_per_bag * g
                g = 0
                bagouts = 1
        else:  # fixed_carry
            while g >= p.bag_limit:
                penalty += p.bag_penalty_per_bag * p.bag_limit
                g -= p.bag_limit
                bagouts += 1
    elif p.bag_mode == BAG_MODE.PER_BAG:
        penalty = p.bag_penalty_per_bag * max(0, bags - relief)
    else:
        g = max(0, g + bags - relief)
    delta = base + p.bag_point_value * bags + extra + jack_points - penalty
    return delta, g, bags, penalty, bagouts


@helper
def deficient(hand, condition):
    """Whether ``hand`` triggers the misdeal condition (2.4)."""
    if condition == MISDEAL_CONDITION.NO_SPADES:
        return (hand & TRUMPS) == 0
    if condition == MISDEAL_CONDITION.AT_MOST_ONE_SPADE:
        return popcount(hand & TRUMPS) <= 1
    if condition == MISDEAL_CONDITION.NO_FACE_CARDS:
        return (hand & FACE_CARDS) == 0
    return False


@inline
def _below32(x, n):
    """Lemire's multiply-shift: a uniform value in [0, n) from 32 random bits, or -1 to reject."""
    prod = (x & np.uint64(0xFFFFFFFF)) * np.uint64(n)
    low = prod & np.uint64(0xFFFFFFFF)
    if low < np.uint64(n) and low < (np.uint64(1 << 32) - np.uint64(n)) % np.uint64(n):
        return -1
    return np.int64(prod >> np.uint64(32))


@helper
def _shuffle(a, m, rng):
    """Fisher-Yates shuffle of ``a[:m]`` (m < 2**32), two unbiased 32-bit draws per 64 random bits.

    Same distribution as ``core.rng.shuffle`` at about half the cost, which matters
    because the deal is a large part of a hand's work.
    """
    i = m - 1
    while i > 0:
        x = next_u64(rng)
        for half in range(2):
            if i <= 0:
                break
            j = _below32(x >> np.uint64(32 * half), i + 1)
            if j >= 0:
                t = a[i]
                a[i] = a[j]
                a[j] = t
                i -= 1


@helper
def deal_hands(deck, n, dealer, known_seat, known, cards, hands, rng):
    """Shuffle and deal ``deck`` one card at a time from ``left_of(dealer)``.

    ``known`` (a card mask, or 0) is already in ``known_seat``'s hand: those cards are
    taken out before the shuffle and that seat's turns in the deal are skipped.
    ``cards`` is a scratch int64 array of at least 55 slots.
    """
    m = 0
    rest = deck & ~known
    while rest:
        c = lowest_card(rest)
        cards[m] = c
        m += 1
        rest &= rest - np.uint64(1)
    _shuffle(cards, m, rng)
    for s in range(n):
        hands[s] = np.uint64(0)
    if known_seat >= 0:
        hands[known_seat] = known
    k = 0
    seat = dealer + 1
    while k < m:
        if seat == n:  # clockwise without a division in the hot loop
            seat = 0
        if seat != known_seat:
            hands[seat] |= bit(cards[k])
            k += 1
        seat += 1


@helper
def owner(hands, n, c):
    """Seat holding card ``c``."""
    for s in range(n):
        if hands[s] & bit(c):
            return s
    return -1


# ---------------------------------------------------------------- the view during play
# The kernel's play loop and the policies that play a hand out (pimc's rollouts) keep the
# view with these three, so both keep it alike.


@inline
def start_trick(view, trick, leader, out_seat):
    """The view at the start of trick ``trick`` led by ``leader`` (``out_seat``: the seat
    sitting it out, or -1): nothing on the table yet."""
    view[V_TRICK] = trick
    view[V_LEADER] = leader
    view[V_SITOUT] = out_seat
    view[V_WIN_SEAT] = -1
    view[V_WIN_CARD] = -1
    view[V_LED_SUIT] = -1
    for i in range(MAX_SEATS):
        view[V_TRICK_CARD + i] = -1
        view[V_TRICK_SEAT + i] = -1


@inline
def record_play(view, masks, hands, seat, c, pos, led, best, best_seat, best_suit, broken, trick_mask, played_all):
    """``seat`` plays ``c`` as card ``pos`` of the trick (rules 4.2-4.5): removes it from
    ``hands[seat]`` and updates the public view and masks (table, cards played, voids shown,
    the card winning so far, spades broken). Returns the new (led suit, winning card, its
    seat, its effective suit, broken, cards of the trick, cards played)."""
    b = bit(c)
    hands[seat] &= ~b
    if pos == 0:
        led = 3 if (b & TRUMPS) else c // 13
        view[V_LED_SUIT] = led
    elif not (b & SUITS[led]):
        masks[M_VOID + seat] |= SUITS[led]
    if b & TRUMPS:
        broken = True
    # a higher card of the winning card's suit, or a first trump, takes the lead
    if best < 0 or (c > best and (b & SUITS[best_suit])) or (best_suit != 3 and (b & TRUMPS)):
        best = c
        best_seat = seat
        best_suit = 3 if (b & TRUMPS) else led
    trick_mask |= b
    played_all |= b
    view[V_TRICK_CARD + pos] = c
    view[V_TRICK_SEAT + pos] = seat
    view[V_WIN_SEAT] = best_seat
    view[V_WIN_CARD] = best
    view[V_BROKEN] = broken
    masks[M_PLAYED] = played_all
    masks[M_TRICK] = trick_mask
    return led, best, best_seat, best_suit, broken, trick_mask, played_all


@inline
def end_trick(view, masks, winner, jacks):
    """The view once ``winner`` has taken the trick (``jacks``: the prize jacks in it)."""
    view[V_TRICKS + winner] += 1
    view[V_JACKS + winner] |= np.int64(jacks)
    masks[M_TRICK] = np.uint64(0)


# ---------------------------------------------------------------- one hand


@helper
def play_hand(tab, seats, w, seed, index, hand_no, game_hand, dealer, trace, forced, do_deal):
    """Deal, bid, play and score one hand of record ``index``; update ``w.state`` (scores,
    bags, B6 uses) in place.

    ``tab``: the variant (:class:`Table`); ``seats``: the policies (:class:`Seats`); ``w``:
    scratch and running state (:class:`Work`). ``hand_no`` counts the record's hands (its
    random streams), ``game_hand`` the game's. ``w.out[H_*, seat]`` receives the hand's
    results and ``w.dealt`` the hands as dealt. Returns (first leader, redeals).

    Hand odds (``simcards bid``) use the same code: with ``do_deal`` false ``hands``
    already holds the deal (no shuffle, no redeal); ``forced[s]`` is ``ASK`` (the
    policies decide), a bid code seat ``s`` makes without asking its policy, ``LOOK``
    (no blind offer: the seat looks and its policy bids) or ``STOP`` (return when it is
    seat ``s``'s turn to bid; ``out[H_BID]`` then holds the earlier bids, first leader -1).
    """
    p = tab.params[0]
    form = tab.form
    blind_f, bid_f, play_f, redeal_f = seats.blind, seats.bid, seats.play, seats.redeal
    hands, dealt, out, view, masks, rngs, cards = w.hands, w.dealt, w.out, w.policy_view, w.masks, w.rngs, w.cards
    scores, bags, b6used, tokens = w.state[0], w.state[1], w.state[2], w.tokens
    n = form[0]
    tricks_total = form[1]
    deck = np.uint64(form[2])
    sitout = dealer if form[3] else -1
    deal_rng = rngs[MAX_SEATS]
    # a policy call gets its seat's stream copied into rng1 (slicing rngs[seat] per call is
    # slow); the copy is written out at each call site because a helper taking the arrays
    # measured 8 % slower per hand (reference counting of array arguments)
    rng1 = rngs[MAX_SEATS + 1]
    deal_rng[0] = stream_start(np.uint64(seed), np.uint64(index), np.uint64(8 * hand_no))
    for s in range(n):
        rngs[s, 0] = stream_start(np.uint64(seed), np.uint64(index), np.uint64(8 * hand_no + 1 + s))

    emit(trace, EV_HAND, game_hand, dealer, hand_no, 0, 0)
    # view: public state at the start of the hand
    shared_params(view, V_PARAMS, seats)
    view[V_N] = n
    view[V_DEALER] = dealer
    view[V_T] = tricks_total
    view[V_HAND_NO] = game_hand
    view[V_MAX_BID] = p.max_ordinary_bid
    view[V_SM_MIN] = p.shoot_moon_min_tricks
    view[V_B6_TRICKS] = p.blind_six_tricks
    view[V_TARGET] = p.target_score
    view[V_BAG_LIMIT] = p.bag_limit
    view[V_BAG_MODE] = p.bag_mode
    for s in range(MAX_SEATS):
        inside = s < n
        view[V_SCORE + s] = scores[s] if inside else 0
        view[V_BAGS + s] = bags[s] if inside else 0
        view[V_B6USED + s] = b6used[s] if inside else 0
        view[V_TOKENS + s] = tokens[s] if inside else 0
        view[V_BID + s] = -1
        view[V_TRICKS + s] = 0
        view[V_JACKS + s] = 0
        view[V_TRICK_CARD + s] = -1
        view[V_TRICK_SEAT + s] = -1
        masks[M_VOID + s] = np.uint64(0)
    view[V_TRICK] = 0
    view[V_NPLAYED] = 0
    view[V_LEADER] = -1
    view[V_BROKEN] = 0
    view[V_SITOUT] = -1
    view[V_WIN_SEAT] = -1
    view[V_WIN_CARD] = -1
    view[V_LED_SUIT] = -1
    masks[M_PLAYED] = np.uint64(0)
    masks[M_DECK] = deck
    masks[M_TRICK] = np.uint64(0)
    masks[M_PRIZE] = np.uint64(p.prize_jacks)

    # deal, with the optional deficient-hand redeal
    # out[H_MADE] is scratch until scoring: 1 once a seat has looked at its hand
    redeals = 0
    if not do_deal:
        for s in range(n):
            out[H_MADE, s] = 0
            emit(trace, EV_DEAL, s, np.int64(hands[s]), 0, 0, 0)
    while do_deal:
        deal_hands(deck, n, dealer, -1, np.uint64(0), cards, hands, deal_rng)
        for s in range(n):
            out[H_MADE, s] = 0
        for s in range(n):
            emit(trace, EV_DEAL, s, np.int64(hands[s]), 0, 0, 0)
        if p.misdeal_condition == MISDEAL_CONDITION.NONE or redeals >= MAX_REDEALS:
            break
        caller = -2
        for i in range(n):
            s = (dealer + 1 + i) % n
            if not deficient(hands[s], p.misdeal_condition):
                continue
            if not p.misdeal_optional:
                caller = -1
                break
            out[H_MADE, s] = 1
            view[V_SEAT] = s
            view[V_PHASE] = PHASE_REDEAL
            masks[M_HAND] = hands[s]
            masks[M_LEGAL] = np.uint64(3)
            rng1[0] = rngs[s, 0]
            seat_params(view, V_PARAMS, seats, s)
            answer = redeal_f[s](view, masks, rng1)
            rngs[s, 0] = rng1[0]
            if answer != 0 and answer != 1:
                raise IllegalAnswer(DEC_REDEAL, s, answer)
            if answer == 1:
                caller = s
                break
        if caller == -2:
            break
        redeals += 1
        emit(trace, EV_REDEAL, caller, redeals, 0, 0, 0)
    for s in range(n):
        dealt[s] = hands[s]

    # bidding: one round from the dealer's left; blind options first
    bid_sum = 0
    for i in range(n):
        s = (dealer + 1 + i) % n
        if forced[s] == STOP:
            return -1, redeals
        blind, opened = bid_options(p, n, tricks_total, s, s == dealer, bid_sum, scores, b6used, out[H_MADE, s] == 1)
        view[V_SEAT] = s
        code = DECLINE
        if forced[s] >= 0:
            code = forced[s]
        elif blind and forced[s] != LOOK:
            view[V_PHASE] = PHASE_BLIND
            masks[M_HAND] = np.uint64(0)
            masks[M_LEGAL] = blind
            rng1[0] = rngs[s, 0]
            seat_params(view, V_PARAMS, seats, s)
            code = blind_f[s](view, masks, rng1)
            rngs[s, 0] = rng1[0]
            if code != DECLINE and (code < 0 or code > 63 or not (blind & bit(code))):
                raise IllegalAnswer(DEC_BLIND, s, code)
            if code == DECLINE and opened == 0:
                code = lowest_card(blind)
        if code == DECLINE:
            view[V_PHASE] = PHASE_BID
            masks[M_HAND] = hands[s]
            masks[M_LEGAL] = opened
            rng1[0] = rngs[s, 0]
            seat_params(view, V_PARAMS, seats, s)
            code = bid_f[s](view, masks, rng1)
            rngs[s, 0] = rng1[0]
            if code < 0 or code > 63 or not (opened & bit(code)):
                raise IllegalAnswer(DEC_BID, s, code)
            is_blind = 0
        else:
            is_blind = 1 if (code == B_B6 or code == B_BN) else 0  # only a forced bid is not blind here
            if code == B_B6:
                b6used[s] += 1
        emit(trace, EV_BID, s, code, is_blind, np.int64(blind), np.int64(opened))
        out[H_BID, s] = code
        view[V_BID + s] = code
        bid_sum += bid_count(p, code)

    # first leader (4.1)
    forced = -1
    if p.first_lead == FIRST_LEAD.LOWEST_CLUB:
        clubs = np.uint64(0)
        for s in range(n):
            if s != sitout:
                clubs |= hands[s]
        opening = lowest_card(clubs & SUITS[0])
        leader = owner(hands, n, opening)
        if p.first_lead_card_forced:
            forced = opening
    else:
        leader = (dealer + 1) % n
    first_leader = leader

    # play
    for s in range(n):
        out[H_TRICKS, s] = 0
        out[H_JACKS, s] = 0
    broken = False
    played_all = np.uint64(0)
    prize = np.uint64(p.prize_jacks)
    view[V_PHASE] = PHASE_PLAY
    traced = tracing(trace)
    for trick in range(tricks_total):
        out_seat = sitout if trick == 0 else -1
        nplay = n - 1 if out_seat >= 0 else n
        start_trick(view, trick, leader, out_seat)
        trick_mask = np.uint64(0)
        seat = leader
        led = -1
        best_suit = -1
        best = -1
        best_seat = -1
        for pos in range(nplay):
            if seat == n:
                seat = 0
            if seat == out_seat:
                seat = seat + 1 if seat + 1 < n else 0
            hand = hands[seat]
            legal = spades_legal(hand, led, SUITS, forced if trick == 0 else -1,
                                 p.spades_must_be_broken == 1 and not broken,
                                 trick == 0 and p.first_trick_trump_allowed == 0)
            if legal & (legal - np.uint64(1)):
                view[V_SEAT] = seat
                view[V_NPLAYED] = pos
                masks[M_HAND] = hand
                masks[M_LEGAL] = legal
                rng1[0] = rngs[seat, 0]
                seat_params(view, V_PARAMS, seats, seat)
                c = play_f[seat](view, masks, rng1)
                rngs[seat, 0] = rng1[0]
                if c < 0 or c > 54 or not (legal & bit(c)):
                    raise IllegalAnswer(DEC_PLAY, seat, c)
            else:
                c = lowest_card(legal)
            if traced:
                emit(trace, EV_PLAY, seat, c, trick, pos, 0)
            led, best, best_seat, best_suit, broken, trick_mask, played_all = record_play(
                view, masks, hands, seat, c, pos, led, best, best_seat, best_suit, broken, trick_mask, played_all)
            seat += 1
        out[H_TRICKS, best_seat] += 1
        out[H_JACKS, best_seat] |= np.int64(trick_mask & prize)
        end_trick(view, masks, best_seat, trick_mask & prize)
        emit(trace, EV_TRICK, best_seat, trick, best, 0, 0)
        leader = best_seat

    # scoring (5.1): every player independently
    for s in range(n):
        code = out[H_BID, s]
        delta, g, added, penalty, bagouts = score_bid(p, code, out[H_TRICKS, s], np.uint64(out[H_JACKS, s]), bags[s])
        out[H_DELTA, s] = delta
        out[H_BAGS, s] = added
        out[H_PENALTY, s] = penalty
        out[H_BAGOUTS, s] = bagouts
        out[H_MADE, s] = bid_made(p, code, out[H_TRICKS, s])
        scores[s] += delta
        bags[s] = g
        emit(trace, EV_SCORE, s, delta, scores[s], g, penalty)
    return first_leader, redeals


# ---------------------------------------------------------------- games and records

TIED_AT_TARGET = -2


@helper
def game_winner(scores, n, target):
    """5.7: the seat alone on the highest score if it is >= target; -2 if shared at the target, else -1."""
    top = scores[0]
    for s in range(1, n):
        top = max(top, scores[s])
    leaders = 0
    seat = -1
    for s in range(n):
        if scores[s] == top:
            leaders += 1
            seat = s
    if top < target:
        return -1
    return seat if leaders == 1 else TIED_AT_TARGET



@inline
def _features(row, col, seat, hand):
    """Hand features at the deal: trumps, top trumps, side aces, void side suits."""
    row[col + 5 * MAX_SEATS + seat] = popcount(hand & TRUMPS)
    row[col + 6 * MAX_SEATS + seat] = popcount(hand & TOP_TRUMPS)
    row[col + 7 * MAX_SEATS + seat] = popcount(hand & SIDE_ACES)
    voids = 0
    for su in range(3):
        if (hand & SUITS[su]) == 0:
            voids += 1
    row[col + 8 * MAX_SEATS + seat] = voids


@helper
def play_game(tab, seats, w, seed, index, hand_no, game_no, dealer, row, trace, hands_before, forced):
    """Play one game from ``dealer``; returns (winner or -1, hands played, next dealer, next hand_no).

    ``row`` (may be empty) receives the game record columns. With ``hands_before`` 0 the
    game starts from zero scores; otherwise it goes on from ``w.state`` (scores, bags, B6
    uses) after that many hands (hand odds: the game played out from a hand).
    ``forced`` is passed to every hand (all ``ASK`` for normal play).
    """
    p = tab.params[0]
    n = tab.form[0]
    out = w.out
    scores = w.state[0]
    if hands_before == 0:
        for k in range(3):
            for s in range(MAX_SEATS):
                w.state[k, s] = 0
    record = row.shape[0] > 0
    if record:
        row[:] = 0
        row[2] = dealer
        for s in range(n, MAX_SEATS):
            for g in range(len(PER_SEAT_GAME)):
                row[G_SEAT0 + g * MAX_SEATS + s] = -1
    winner = -1
    played = hands_before
    while played < p.max_hands:
        play_hand(tab, seats, w, seed, index, hand_no, played, dealer, trace, forced, True)
        played += 1
        hand_no += 1
        if record:
            row[3] = dealer
            for s in range(n):
                kind = KIND_OF_CODE[out[H_BID, s]]
                row[G_N_KIND + kind] += 1
                row[G_MADE_KIND + kind] += out[H_MADE, s]
                row[G_SEAT0 + MAX_SEATS + s] += out[H_BAGOUTS, s]
                if kind == K_B6:
                    row[G_SEAT0 + 2 * MAX_SEATS + s] += 1
        dealer = (dealer + 1) % n
        winner = game_winner(scores, n, p.target_score)
        if winner >= 0:
            break
        if record and winner == TIED_AT_TARGET:
            row[5] += 1
        winner = -1
    emit(trace, EV_GAME, game_no, winner, played, 0, 0)
    if record:
        row[0] = winner
        row[1] = played
        for s in range(n):
            row[G_SEAT0 + s] = scores[s]
            if scores[s] >= p.target_score:
                row[4] += 1
    return winner, played, dealer, hand_no


@helper
def _first_dealer(p, n, seed, index, rng):
    """``first_dealer``, or a seat drawn from stream 7 of the record (``rng`` is scratch)."""
    if p.first_dealer >= 0:
        return p.first_dealer
    rng[0] = stream_start(np.uint64(seed), np.uint64(index), np.uint64(7))
    return below(rng, n)


@helper
def _scratch():
    """Per-chunk arrays of :class:`Work`, then the forced bids (all ``ASK``) and an empty row."""
    return (np.zeros(MAX_SEATS, np.uint64), np.zeros(MAX_SEATS, np.uint64), np.zeros((H_ROWS, MAX_SEATS), np.int64),
            np.zeros(VIEW_SIZE, np.int64), np.zeros(MASKS_SIZE, np.uint64), np.zeros((MAX_SEATS + 2, 1), np.uint64),
            np.zeros(64, np.int64), np.zeros((3, MAX_SEATS), np.int64), np.zeros(MAX_SEATS, np.int64),
            np.full(MAX_SEATS, ASK, np.int64), np.zeros(0, np.int64))


@inline
def _work(owners):
    """The :class:`Work` bundle over a chunk's scratch arrays (borrowed: no reference counts)."""
    return Work(borrowed(owners[0]), borrowed(owners[1]), borrowed(owners[2]), borrowed(owners[3]),
                borrowed(owners[4]), borrowed(owners[5]), borrowed(owners[6]), borrowed(owners[7]),
                borrowed(owners[8]))


@inline
def _borrowed_table(tab):
    return Table(borrowed(tab.params), borrowed(tab.form))


@inline
def _borrowed_seats(seats):
    return Seats(seats.blind, seats.bid, seats.play, seats.redeal, borrowed(seats.params), seats.shared)


@helper
def _deal_row(row, w, n, dealer, leader, redeals):
    """A deal record's columns (``UNIT_DEAL``) from the hand just played into ``w``."""
    out = w.out
    row[0] = dealer
    row[1] = leader
    row[2] = redeals
    for s in range(n):
        row[D_SEAT0 + s] = out[H_BID, s]
        row[D_SEAT0 + MAX_SEATS + s] = out[H_TRICKS, s]
        row[D_SEAT0 + 2 * MAX_SEATS + s] = out[H_DELTA, s]
        row[D_SEAT0 + 3 * MAX_SEATS + s] = out[H_BAGS, s]
        jc = 0
        if out[H_JACKS, s] & (1 << JC):
            jc += 1
        if out[H_JACKS, s] & (1 << JD):
            jc += 2
        if out[H_JACKS, s] & (1 << JH):
            jc += 4
        row[D_SEAT0 + 4 * MAX_SEATS + s] = jc
        _features(row, D_SEAT0, s, w.dealt[s])


@kernel
def play_given_deal(tab, seats, seed, given, row, trace):
    """Deal record 0 of ``seed`` played from the ``given`` hands (card masks per seat, the
    whole deck) instead of a shuffle: ``replay --pbn``. No redeal; the dealer is
    ``first_dealer`` or drawn as :func:`run_records` draws it."""
    owners = _scratch()
    w = _work(owners)
    ask = borrowed(owners[9])
    tab, seats = _borrowed_table(tab), _borrowed_seats(seats)
    n = tab.form[0]
    dealer = _first_dealer(tab.params[0], n, seed, np.int64(0), w.rngs[MAX_SEATS])
    w.tokens[:] = 0
    w.state[:] = 0
    row[:] = -1
    for s in range(MAX_SEATS):
        w.hands[s] = given[s] if s < n else np.uint64(0)
    leader, redeals = play_hand(tab, seats, w, seed, np.int64(0), np.int64(0), np.int64(0), dealer, trace, ask, False)
    _deal_row(row, w, n, dealer, leader, redeals)


@kernel
def run_records(unit, tab, seats, seed, start, count, out_rows, trace):
    """Simulate records ``start .. start+count-1`` of ``seed`` into ``out_rows`` [count, ncols].

    ``trace`` (a core/trace.py buffer, ``NO_TRACE`` when not tracing) receives the events
    of the records (``EVENTS``).
    """
    owners = _scratch()
    w = _work(owners)
    ask, no_row = borrowed(owners[9]), borrowed(owners[10])
    tab, seats = _borrowed_table(tab), _borrowed_seats(seats)
    p = tab.params[0]
    n = tab.form[0]
    out, state, tokens = w.out, w.state, w.tokens
    for r in range(count):
        index = start + r
        row = out_rows[r]
        dealer = _first_dealer(p, n, seed, index, w.rngs[MAX_SEATS])
        tokens[:] = 0
        if unit == UNIT_DEAL:
            row[:] = -1
            state[:] = 0
            leader, redeals = play_hand(tab, seats, w, seed, index, np.int64(0), np.int64(0), dealer, trace, ask, True)
            _deal_row(row, w, n, dealer, leader, redeals)
        elif unit == UNIT_GAME:
            play_game(tab, seats, w, seed, index, np.int64(0), np.int64(0), dealer, row, trace, np.int64(0), ask)
        else:
            row[:] = 0
            row[3] = dealer
            hand_no = np.int64(0)  # np.int64, not a literal 0: one specialization of play_game
            games = np.int64(0)
            champion = -1
            while True:
                winner, played, dealer, hand_no = play_game(tab, seats, w, seed, index, hand_no, games, dealer,
                                                            no_row, trace, np.int64(0), ask)
                games += 1
                if winner < 0:
                    break
                tokens[winner] += 1
                if tokens[winner] >= p.tournament_wins:
                    champion = winner
                    break
            emit(trace, EV_TOURNAMENT, champion, games, 0, 0, 0)
            row[0] = champion
            row[1] = games
            row[2] = hand_no
            for s in range(MAX_SEATS):
                row[T_SEAT0 + s] = tokens[s] if s < n else -1
    keep_alive(owners)


# ---------------------------------------------------------------- Python entry points

UNIT_CODES = {"deal": UNIT_DEAL, "game": UNIT_GAME, "tournament": UNIT_TOURNAMENT}
DECISION_ORDER = Seats._fields[:-2]


def prepared(variant) -> Table:
    """The kernels' :class:`Table` for ``variant``."""
    from simcards.games.cutthroat.variant import form_array

    return Table(variant.to_params(), form_array(variant))


def seats(table) -> Seats:
    """The kernels' :class:`Seats` of a policy table: per decision, each seat's function,
    then each seat's policy parameters (``table.params``) and whether they are all the same."""
    params = table.params
    return Seats(*(table[name] for name in DECISION_ORDER), params, bool((params == params[0]).all()))


def _run(unit, variant, table, seed, start, count, trace):
    from simcards.core.errors import kernel_errors
    from simcards.games.cutthroat.policies import DECISIONS, FORMATS

    out = np.zeros((count, len(UNIT_COLUMNS[UNIT_CODES[unit]])), np.int64)
    with kernel_errors("cutthroat", DECISIONS, table, formats=FORMATS,
                       where=f"seed {seed}, records {start}..{start + count - 1}"):
        run_records(UNIT_CODES[unit], prepared(variant), seats(table), int(seed), int(start), int(count), out, trace)
    return out


def simulate(unit, variant, table, seed, start, count):
    """Records ``start .. start+count-1`` of ``seed`` as an int64 array [count, ncols]."""
    return _run(unit, variant, table, seed, start, count, NO_TRACE)


def trace_record(unit, variant, table, seed, index):
    """(record row, its ``EVENTS`` as named tuples) of record ``index``: every deal, bid, card and score."""
    out, events = EVENTS.collect(lambda trace: _run(unit, variant, table, seed, index, 1, trace))
    return out[0], events


def trace_given(variant, table, seed, hands):
    """(deal record row, its ``EVENTS``) of the bots bidding and playing the given ``hands`` (card
    masks per seat, the whole deck; ``replay --pbn``), with the streams of record 0 of ``seed``."""
    from simcards.core.errors import kernel_errors
    from simcards.games.cutthroat.policies import DECISIONS, FORMATS

    given = np.zeros(MAX_SEATS, np.uint64)
    given[:len(hands)] = [int(h) for h in hands]

    def run(trace):
        row = np.zeros(len(UNIT_COLUMNS[UNIT_CODES["deal"]]), np.int64)
        with kernel_errors("cutthroat", DECISIONS, table, formats=FORMATS, where=f"seed {seed}, the given deal"):
            play_given_deal(prepared(variant), seats(table), int(seed), given, row, trace)
        return row

    return EVENTS.collect(run)


# ---------------------------------------------------------------- hand odds (simcards bid cutthroat)

ODDS_SLOTS = 24  # option slots: ordinary 1..17, then NIL, 1F, 2F, SM, B6, BN, LOOK (see odds.slot_of)
ODDS_FIELDS = ("tricks", "delta", "bags", "made", "win", "bid0", "bid1", "bid2", "bid3", "bid4")
ODDS_HANDS = ODDS_SLOTS * len(ODDS_FIELDS)  # then MAX_SEATS columns: the accepted deal (hand masks)
ODDS_WIDTH = ODDS_HANDS + MAX_SEATS
ODDS_DEAL_STREAM = 6  # hand 0 leaves stream 6 unused; the odds deal draws from it
PRIOR_TRY_HANDS = 1 << 40  # try t > 0 of the earlier-bids check plays as hand number PRIOR_TRY_HANDS + t
MAX_TRIES = 100_000  # deals tried per record before "no deal satisfies ..."
E_CONSTRAINTS, E_ACCEPT, E_PRIOR, E_REPLAY, E_MISDEAL = 1, 2, 3, 4, 5
OddsDeal = namedtuple("OddsDeal", ("deck", "fixed", "sizes", "min_len", "max_len"))  # what the odds deal draws


@kernel
def simulate_bid_options(tab, seats, accept, deal, seat, dealer, prior, options, slots, start_state,
                         play_out, seed, start, count, out, err):
    """Deal ``count`` hands around the known cards and play each bid option of ``seat`` on each.

    ``deal`` (:class:`OddsDeal`): the deck's cards, the known cards and cards per seat,
    the suit-length bounds; ``start_state`` int64[3, MAX_SEATS]: scores, bags and B6 uses
    before the hand.
    Deal ``i`` draws from stream ``ODDS_DEAL_STREAM`` of ``(seed, start + i)``: the
    ``fixed`` cards are placed and the rest dealt uniformly (``core.deal``), redrawn
    (at most ``MAX_TRIES`` times in all) until the suit-length bounds hold, no hand
    would be redealt automatically (``misdeal_condition``), ``accept[0](hands)`` holds
    (a 1-tuple: one cached kernel serves every accept function) and the seats with
    ``prior[s] >= 0`` would have bid exactly ``prior[s]`` with their policies
    (:func:`play_hand` stopped at ``seat``'s turn). Try ``t`` plays as hand number 0
    (``t = 0``) or ``PRIOR_TRY_HANDS + t``, so each try has fresh policy streams.
    Every option then replays the accepted deal with the same hand number (same seat
    streams) and ``seat`` forced to ``options[j]`` (``LOOK``: its policy bids after
    looking): the earlier seats repeat their bids, and the options differ only by the
    bid (common random numbers). With ``play_out`` the game goes on from the scores
    after the hand (hands 1, 2, ... of the record's streams) until it ends.
    ``out[i, slots[j] * F + f]`` receives ``ODDS_FIELDS[f]`` of option ``j``: the seat's
    tricks, delta, bags, made (1/0), won the game (1/0; -1 unfinished or not played
    out), and every seat's bid; then the dealt hands.
    """
    owners = _scratch()
    w = _work(owners)
    forced, no_row = borrowed(owners[9]), borrowed(owners[10])
    tab, seats = _borrowed_table(tab), _borrowed_seats(seats)
    p = tab.params[0]
    n = tab.form[0]
    hands, hand_out, state = w.hands, w.out, w.state
    seat_hands = np.zeros(n, np.uint64)  # the deal as core.deal and accept functions see it
    scratch = np.zeros(MAX_SEATS, np.uint64)  # the accepted deal, for every option
    buf = np.zeros(64, np.int64)
    deal_rng = np.zeros(1, np.uint64)
    nf = len(ODDS_FIELDS)
    checks = False
    for s in range(n):
        checks = checks or prior[s] >= 0
    automatic_redeal = p.misdeal_condition != MISDEAL_CONDITION.NONE and not p.misdeal_optional
    for i in range(count):
        index = start + i
        deal_rng[0] = stream_start(np.uint64(seed), np.uint64(index), np.uint64(ODDS_DEAL_STREAM))
        tries = 0
        hand_no = 0
        while True:
            hand_no = 0 if tries == 0 else PRIOR_TRY_HANDS + tries
            if deal_constrained(deal.deck, deal.fixed, deal.sizes, (dealer + 1) % n, deal_rng, seat_hands, buf,
                                deal.min_len, deal.max_len, SUITS, 10_000) < 0:
                err[0] = E_CONSTRAINTS
                raise ValueError("cutthroat: no deal satisfies the constraints")
            for s in range(n):
                hands[s] = seat_hands[s]
                scratch[s] = seat_hands[s]
            ok = True
            if automatic_redeal:
                for s in range(n):
                    if deficient(hands[s], p.misdeal_condition):
                        ok = False
                        err[0] = E_MISDEAL
            if ok and not accept[0](seat_hands):
                ok = False
                err[0] = E_ACCEPT
            if ok and checks:  # would the earlier seats have bid so with these hands?
                for s in range(MAX_SEATS):
                    forced[s] = ASK
                state[:] = start_state
                forced[seat] = STOP
                play_hand(tab, seats, w, seed, index, hand_no, np.int64(0), dealer, no_trace(), forced, False)
                for s in range(n):
                    hands[s] = scratch[s]
                    if prior[s] >= 0 and hand_out[H_BID, s] != prior[s]:
                        ok = False
                        err[0] = E_PRIOR
            if ok:
                break
            tries += 1
            if tries >= MAX_TRIES:
                raise ValueError("cutthroat: no deal accepted")
        for s in range(MAX_SEATS):
            out[i, ODDS_HANDS + s] = np.int64(scratch[s]) if s < n else -1
        for j in range(options.shape[0]):
            for s in range(MAX_SEATS):
                hands[s] = scratch[s]
                forced[s] = ASK
            state[:] = start_state
            forced[seat] = options[j]
            play_hand(tab, seats, w, seed, index, hand_no, np.int64(0), dealer, no_trace(), forced, False)
            for s in range(n):  # the check above saw the same hands, view and streams
                if prior[s] >= 0 and hand_out[H_BID, s] != prior[s]:
                    err[0] = E_REPLAY
                    err[1] = s
                    raise ValueError("cutthroat: a policy bid differently on the same deal")
            base = slots[j] * nf
            out[i, base] = hand_out[H_TRICKS, seat]
            out[i, base + 1] = hand_out[H_DELTA, seat]
            out[i, base + 2] = hand_out[H_BAGS, seat]
            out[i, base + 3] = hand_out[H_MADE, seat]
            for s in range(MAX_SEATS):
                out[i, base + 5 + s] = hand_out[H_BID, s] if s < n else -1
            win = -1
            if play_out:
                winner = game_winner(state[0], n, p.target_score)
                if winner < 0 and p.max_hands > 1:
                    forced[seat] = ASK
                    winner, _, _, _ = play_game(tab, seats, w, seed, index, np.int64(1), np.int64(0), (dealer + 1) % n,
                                                no_row, no_trace(), np.int64(1), forced)
                if winner >= 0:
                    win = 1 if winner == seat else 0
            out[i, base + 4] = win
    keep_alive(owners)
