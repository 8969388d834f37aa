"""Compiled kernel of ``simcards bid seep`` (numba only; imported when that command runs).

For each record: deal the 48 unknown cards around the bidder's four known cards (and
``--require`` knowledge), lay them out as one deck in the kernel's canonical order,
then play that deck once per legal bid (``rules.play_dealt`` with a forced bid; the
policy streams restart for every bid: common random numbers). With ``baazi`` the
baazi is then played on from the resulting running difference with the ordinary
deal engine (``rules.play_deal``) until a team wins it.

Holders: seats ``0..n-1`` and the floor (holder ``n``, the four face-down cards).
``pos_holder[p]`` is the holder that receives deck position ``p`` under the kernel's
own deal order (computed in Python from ``rules.deal_stock``), so every constraint is
about a seat's whole hand for the deal (the bidder: the four known cards and the
later ones).
"""
import numpy as np

from simcards.core.cards import SUIT_MASKS
from simcards.core.deal import deal_constrained
from simcards.core.rng import shuffle, stream_start
from simcards.core.jit import helper, kernel
from simcards.core.trace import no_trace
from simcards.games.seep.cards import low_card
from simcards.games.seep.layout import (
    BUILD, M_COLS, S_HANDS, S_NCARDS, S_OPEN_CARD, S_OPEN_KIND, S_PILE, S_SCORE, S_TRACK_TEAM, ST_SIZE,
)
from simcards.games.seep.rules import (
    MAX_MOVES, _make_work_nb, baazi_step, check_answer, make_view, next_dealer, play_deal, play_dealt, start_deal,
)

FIELDS = ("bidder_team", "other_team", "made", "built", "house_taken", "won", "deals")
F_BT, F_OT, F_MADE, F_BUILT, F_TAKEN, F_WON, F_DEALS = range(len(FIELDS))
FIRST_BID = 9            # option slots: bids 9..13
N_SLOTS = 5
NOT_AN_OPTION = -99
POLICY_BID_STREAM = 1 << 39   # the bid policy's own choice, apart from the play streams
MAX_TRIES = 10_000       # deals tried per record for the length bounds
MAX_ACCEPT_TRIES = 100_000


@helper
def layout_deck(known, hands, pos_holder, deck, buf, rng):
    """The deck order giving each holder its dealt cards: known cards first (bidder's
    four), each holder's other cards in a random order over its positions."""
    j = 0
    m = known
    while m:
        deck[j] = low_card(m)
        m &= m - 1
        j += 1
    for h in range(hands.shape[0]):
        m = np.int64(hands[h]) & ~known
        n = 0
        while m:
            buf[n] = low_card(m)
            m &= m - 1
            n += 1
        shuffle(buf[:n], rng)
        i = 0
        for p in range(4, 52):
            if pos_holder[p] == h:
                deck[p] = buf[i]
                i += 1


@helper
def deal_record(accept, known, fixed, min_len, max_len, sizes, pos_holder, useed, urec, cards, hands, seat_hands,
                buf, rdeal, deck):
    """The deck of record ``urec`` (stream 0): holders' cards drawn around the fixed ones
    within the length bounds, redrawn until ``accept[0]`` keeps the seats' hands."""
    nplayers = seat_hands.shape[0]
    rdeal[0] = stream_start(useed, urec, np.uint64(0))
    tries = 0
    while True:
        if deal_constrained(cards, fixed, sizes, 0, rdeal, hands, buf, min_len, max_len, SUIT_MASKS,
                            MAX_TRIES) < 0:
            raise ValueError("seep: no deal satisfies the constraints (10,000 deals tried)")
        for s in range(nplayers):
            seat_hands[s] = hands[s]
        if accept[0](seat_hands):
            break
        tries += 1
        if tries >= MAX_ACCEPT_TRIES:
            raise ValueError("seep: no deal satisfies the accept function (100,000 deals tried)")
    layout_deck(known, hands, pos_holder, deck, buf, rdeal)


@kernel
def simulate_bid_options(params, seats, accept, known, fixed, min_len, max_len, sizes, pos_holder,
                         dealer, D0, options, baazi, max_baazi_deals, seed, start, count, out):
    """Row ``r`` of ``out``: per bid slot ``FIELDS`` (``NOT_AN_OPTION`` for bids not held),
    then the bid the bidder's own policy makes from the four cards."""
    rule = params[0]
    nplayers = rule.num_players
    bidder = (dealer + 1) % nplayers
    bt = bidder % 2
    st = np.zeros(ST_SIZE, np.int64)
    view = np.zeros(ST_SIZE, np.int64)
    deck = np.zeros(52, np.int64)
    later_deck = np.zeros(52, np.int64)  # the baazi's later deals (``deck`` serves every bid)
    W = _make_work_nb()
    moves = np.zeros((MAX_MOVES, M_COLS), np.int64)
    trace = no_trace()
    tr_state = np.zeros((1, ST_SIZE), np.int64)
    rdeal = np.zeros(1, np.uint64)
    rdeck = np.zeros(1, np.uint64)
    rpol = np.zeros(1, np.uint64)
    cards = np.arange(52, dtype=np.int64)
    buf = np.zeros(52, np.int64)
    hands = np.zeros(fixed.shape[0], np.uint64)
    seat_hands = np.zeros(nplayers, np.uint64)
    useed = np.uint64(seed)
    nf = len(FIELDS)
    for r in range(count):
        urec = np.uint64(start + r)
        deal_record(accept, known, fixed, min_len, max_len, sizes, pos_holder, useed, urec, cards, hands,
                    seat_hands, buf, rdeal, deck)
        # what the bidder's own policy bids from the four cards (its own stream)
        start_deal(st, params, dealer, D0)
        st[S_HANDS + bidder] = known
        st[S_NCARDS + bidder] = 4
        make_view(st, bidder, view, seats.params)
        rpol[0] = stream_start(useed, urec, np.uint64(POLICY_BID_STREAM))
        out[r, N_SLOTS * nf] = seats.bid[bidder](view, rpol)
        for k in range(options.shape[0]):
            b = options[k]
            base = (b - FIRST_BID) * nf
            start_deal(st, params, dealer, D0)
            rpol[0] = stream_start(useed, urec, np.uint64(1))
            play_dealt(st, params, b, seats, rpol, deck, W, moves, view,
                       trace, tr_state)
            check_answer(st)
            oc = np.int64(1) << st[S_OPEN_CARD]
            out[r, base + F_BT] = st[S_SCORE + bt]
            out[r, base + F_OT] = st[S_SCORE + 1 - bt]
            out[r, base + F_MADE] = 1 if st[S_PILE + bt] & oc else 0
            out[r, base + F_BUILT] = 1 if st[S_OPEN_KIND] == BUILD else 0
            out[r, base + F_TAKEN] = 1 if st[S_TRACK_TEAM] == bt else 0
            out[r, base + F_WON] = -1
            out[r, base + F_DEALS] = 1
            if baazi:
                D, loser, by_min = baazi_step(params, D0, st)
                d = next_dealer(params, dealer, D, st[S_SCORE], st[S_SCORE + 1], loser)
                deals = 1
                while loser < 0 and deals < max_baazi_deals:
                    # later deals: streams 2j, 2j+1 of the record, the same for every bid
                    rdeck[0] = stream_start(useed, urec, np.uint64(2 * deals))
                    rpol[0] = stream_start(useed, urec, np.uint64(2 * deals + 1))
                    play_deal(st, params, d, D, seats, rdeck, rpol, later_deck, W, moves, view,
                              trace, tr_state)
                    check_answer(st)
                    D, loser, by_min = baazi_step(params, D, st)
                    d = next_dealer(params, d, D, st[S_SCORE], st[S_SCORE + 1], loser)
                    deals += 1
                out[r, base + F_WON] = -1 if loser < 0 else (1 if loser != bt else 0)
                out[r, base + F_DEALS] = deals


@kernel
def trace_bid_option(params, seats, accept, known, fixed, min_len, max_len, sizes, pos_holder, dealer,
                     D0, bid, seed, rec, st, deck, trace, tr_state):
    """Record ``rec``'s deal played with ``bid``, traced (twin of :func:`simulate_bid_options`)."""
    rule = params[0]
    nplayers = rule.num_players
    view = np.zeros(ST_SIZE, np.int64)
    W = _make_work_nb()
    moves = np.zeros((MAX_MOVES, M_COLS), np.int64)
    rdeal = np.zeros(1, np.uint64)
    rpol = np.zeros(1, np.uint64)
    hands = np.zeros(fixed.shape[0], np.uint64)
    seat_hands = np.zeros(nplayers, np.uint64)
    buf = np.zeros(52, np.int64)
    urec = np.uint64(rec)
    deal_record(accept, known, fixed, min_len, max_len, sizes, pos_holder, np.uint64(seed), urec,
                np.arange(52, dtype=np.int64), hands, seat_hands, buf, rdeal, deck)
    start_deal(st, params, dealer, D0)
    rpol[0] = stream_start(np.uint64(seed), urec, np.uint64(1))
    play_dealt(st, params, bid, seats, rpol, deck, W, moves, view,
               trace, tr_state)
    check_answer(st)
