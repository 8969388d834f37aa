"""Compiled partnership Spades: deal, bid, exchange, play and score (rules sections 2-5).

One hand is played by :func:`play_hand`; :func:`simulate_deals` (unit ``deal``) and
:func:`simulate_games` (unit ``game``: a game, or a match when ``match_wins > 1``)
loop over records. Record ``i`` of seed ``s`` draws its deals from stream 0 of
``(s, i)`` and the policies of seat ``k`` from stream ``1 + k``, so the results do not
depend on chunking and changing one seat's policy leaves the others' draws alone.

Hands are ``uint64`` masks. The kernel keeps the public state directly in the policy
state view (``policies.V_*``) and writes one record row per hand (``DEAL_COLUMNS``);
given a trace buffer it also emits every move as a named event (``EVENTS``, core/trace.py)
that ``replay.py`` formats and ``referee.py`` re-checks. The kernels take their arguments
bundled: :class:`Table` (the packed variant), :class:`Seats` (the policies) and
:class:`Work` (scratch and running scores). No pandas here.
"""
from collections import namedtuple

import numba as nb
import numpy as np

from simcards.core.jit import helper, inline, kernel
from simcards.core.borrow import borrowed, keep_alive
from simcards.core.cards import bit, lowest_card, popcount
from simcards.core.deal import deal_constrained, deal_known
from simcards.core.errors import IllegalAnswer
from simcards.core.trace import NO_TRACE, TraceEvents, emit, no_trace, tracing
from simcards.core.rng import below, shuffle, stream_start
from simcards.core.variant import NULL
from simcards.core.tricks import spades_legal
from simcards.games.spades.variant import SpadesVariant
from simcards.games.spades.policies import (
    BN_BIT, V_BAGS, V_BAG_LIMIT, V_BID, V_BLIND, V_BN_VALUE, V_BROKEN, V_COUNT, V_DEALER, V_DECK,
    V_EXCHANGE, V_GIVEN, V_HAND, V_HANDS_PLAYED, V_LEADER, V_LED_SUIT, V_LEGAL, V_NIL_VALUE,
    V_NPLAYED, V_PARAMS, V_PLAYED, V_PLAYED_BY, V_RECEIVED, V_ROLE, V_SCORE, V_SEAT, V_SUITS, V_TABLE, V_TARGET, V_TRICK,
    V_FAILED_NIL_TRICKS, V_TEN_MIN_BID, V_TEN_SET_DOUBLED, V_TRICKS, V_VOIDS, V_WIN_CARD, V_WIN_SEAT, VIEW_LEN, V_HISTORY,
    HISTORY_BITS, HISTORY_PER_SLOT,
)
from simcards.core.policy import seat_params, shared_params

# enum parameters as named constants (their packed values)
BAG_MODE, BAG_OVERFLOW, EXCHANGE_ORDER, FAILED_NIL_TRICKS, FIRST_LEAD, MISDEAL_CONDITION = (
    SpadesVariant.choice_enum(name) for name in
    ("bag_mode", "bag_overflow", "exchange_order", "failed_nil_tricks", "first_lead", "misdeal_condition"))

# ---------------------------------------------------------------- record layouts

DEAL_COLUMNS = (
    ("dealer", "Seat that dealt (bidding starts at its left)."),
    ("redeals", "Deficient-hand redeals before this hand (misdeal_condition)."),
    *((f"bid{s}", f"Bid of seat {s}: 0 = Nil or Blind Nil, 1..13 = tricks.") for s in range(4)),
    *((f"blind{s}", f"1 if seat {s} bid Blind Nil.") for s in range(4)),
    *((f"exchange{t}", f"Cards passed each way inside team {t} (0 = no exchange).") for t in range(2)),
    ("first_leader", "Seat that led trick 1."),
    *((f"tricks{s}", f"Tricks won by seat {s}.") for s in range(4)),
    *((f"contract{t}", f"Team {t} contract: sum of its number bids (0 = both bid Nil/BN).") for t in range(2)),
    *((f"won{t}", f"Tricks won by team {t} (both seats).") for t in range(2)),
    *((f"made{t}", f"Team {t} contract: 1 made, 0 set, -1 no contract (both Nil/BN).") for t in range(2)),
    *((f"set{t}", f"1 if team {t} was set (won fewer tricks than its contract).") for t in range(2)),
    *((f"nil{s}", f"Seat {s} Nil/BN: -1 not bid, 0 failed, 1 made.") for s in range(4)),
    *((f"points{t}", f"Score change of team {t} in this hand (bag penalties included).") for t in range(2)),
    *((f"bags{t}", f"New bags of team {t} this hand.") for t in range(2)),
    *((f"penalties{t}", f"Bag penalties applied to team {t} this hand (per_bag mode: bags penalised).") for t in range(2)),
    *((f"score{t}", f"Team {t} score after the hand.") for t in range(2)),
    *((f"bag_count{t}", f"Team {t} bag counter after the hand.") for t in range(2)),
    ("broken_trick", "Trick (1..13) in which spades were broken; 0 = never."),
)
_D = {name: i for i, (name, _) in enumerate(DEAL_COLUMNS)}
D_DEALER, D_REDEALS, D_BID, D_BLIND, D_EXCH = _D["dealer"], _D["redeals"], _D["bid0"], _D["blind0"], _D["exchange0"]
D_LEADER, D_TRICKS, D_CONTRACT, D_WON = _D["first_leader"], _D["tricks0"], _D["contract0"], _D["won0"]
D_MADE, D_SET, D_NIL, D_POINTS, D_BAGS = _D["made0"], _D["set0"], _D["nil0"], _D["points0"], _D["bags0"]
D_PEN, D_SCORE, D_BAGCOUNT, D_BROKEN = _D["penalties0"], _D["score0"], _D["bag_count0"], _D["broken_trick"]
N_DEAL_COLS = len(DEAL_COLUMNS)

GAME_COLUMNS = (
    ("winner", "Winning team (0 = seats 0/2, 1 = seats 1/3) of the match; -1 = unfinished (max_hands)."),
    ("games_won0", "Games won by team 0 (match_wins > 1 makes a record a match)."),
    ("games_won1", "Games won by team 1."),
    ("games", "Games played in this record."),
    ("hands", "Hands played (all games of the record)."),
    ("first_dealer", "Dealer of the first hand."),
    ("score0", "Final score of team 0 in the last game."),
    ("score1", "Final score of team 1 in the last game."),
    ("bag_count0", "Bag counter of team 0 at the end of the last game."),
    ("bag_count1", "Bag counter of team 1 at the end of the last game."),
    *((f"bags_taken{t}", f"Bags taken by team {t} over all hands.") for t in range(2)),
    *((f"penalties{t}", f"Bag penalties paid by team {t} (per_bag mode: bags penalised).") for t in range(2)),
    *((f"contracts{t}", f"Hands in which team {t} had a number contract.") for t in range(2)),
    *((f"sets{t}", f"Hands in which team {t} was set.") for t in range(2)),
    *((f"nil_bids{t}", f"Nil bids (not blind) by team {t}.") for t in range(2)),
    *((f"nil_made{t}", f"Successful Nil bids by team {t}.") for t in range(2)),
    *((f"bn_bids{t}", f"Blind Nil bids by team {t}.") for t in range(2)),
    *((f"bn_made{t}", f"Successful Blind Nil bids by team {t}.") for t in range(2)),
    ("tie_hands", "Hands after which the game would have ended but the scores were tied."),
    ("both_over", "1 if both teams were at or above the target when the last game ended."),
    ("redeals", "Deficient-hand redeals over the record."),
)
_G = {name: i for i, (name, _) in enumerate(GAME_COLUMNS)}
G_WINNER, G_GAMES_WON, G_GAMES, G_HANDS, G_FIRST = _G["winner"], _G["games_won0"], _G["games"], _G["hands"], _G["first_dealer"]
G_SCORE, G_BAGCOUNT, G_BAGS, G_PEN = _G["score0"], _G["bag_count0"], _G["bags_taken0"], _G["penalties0"]
G_CONTRACTS, G_SETS, G_NILB, G_NILM = _G["contracts0"], _G["sets0"], _G["nil_bids0"], _G["nil_made0"]
G_BNB, G_BNM, G_TIES, G_BOTH, G_REDEALS = _G["bn_bids0"], _G["bn_made0"], _G["tie_hands"], _G["both_over"], _G["redeals"]
N_GAME_COLS = len(GAME_COLUMNS)

# trace events of one hand, in this order (core/trace.py; replay.py reads them)
EVENTS = TraceEvents(
    "spades",
    hand=("dealer", "redeals", "hands_before"),
    scores=("score0", "score1", "bags0", "bags1"),  # before the hand
    dealt=("seat", "hand"),  # the hand as dealt (before the exchange)
    bid=("seat", "bid", "blind"),
    give=("seat", "cards"),  # cards the seat passed in the exchange
    exchange=("count0", "count1"),  # cards passed each way per team
    lead=("seat",),  # first leader
    play=("seat", "card"),
    trick=("trick", "leader", "winner"),
)
EVENTS.export(globals())

# kernel arguments, bundled
Table = namedtuple("Table", ("params", "deck", "suit_masks", "fixed"))  # the variant, packed (fixed: known cards)
# per decision a function per seat, then params: int64[seat, PARAM_SLOTS], each seat's policy parameters,
# and shared: whether every seat has the same values
Seats = namedtuple("Seats", ("blind", "bid", "exchange", "play", "misdeal", "params", "shared"))
Work = namedtuple("Work", ("deal_rng", "rngs", "policy_view", "hands", "given", "buf", "scores", "bags"))  # per chunk

# error codes written to err[0] before the kernel raises (turned into SimcardsError)
E_BID, E_PLAY, E_EXCHANGE, E_REDEALS, E_ACCEPT, E_PRIOR, E_REPLAY = 1, 2, 3, 4, 5, 6, 7
# decisions by their index in policies.DECISIONS: an illegal answer raises IllegalAnswer(D_x, seat, value)
DEC_BLIND, DEC_BID, DEC_EXCHANGE, DEC_PLAY, DEC_MISDEAL = 0, 1, 2, 3, 4
MAX_REDEALS = 10_000
MAX_TRIES = 100_000  # hand odds: deals tried per record before giving up (accept, earlier bids)
BID_STOP = -2  # play_hand forced-bid value: stop before this seat bids

_ONE = np.uint64(1)
_THIRTEEN = np.full(4, 13, np.int64)  # cards per seat
_FACES = np.uint64(0)
for _s in range(4):
    for _r in (9, 10, 11):  # J, Q, K
        _FACES |= np.uint64(1 << (13 * _s + _r))


# ---------------------------------------------------------------- deck and deal


def deck_setup(params):
    """(deck card numbers int64[52], effective suit masks uint64[4]) for a variant row."""
    p = params[0]
    cards = list(range(52))
    if p["jokers"] == 2:
        removed = int(p["joker_removed_cards"])
        cards = [c for c in cards if not removed >> c & 1] + [52, 54]
    deck = np.array(cards, dtype=np.int64)
    masks = np.zeros(4, dtype=np.uint64)
    for c in cards:
        masks[3 if c >= 52 else c // 13] |= np.uint64(1 << c)
    return deck, masks


@helper
def deal_hands(deck, fixed, dealer, state, hands, buf):
    """Deal 13 cards to each seat: ``fixed[s]`` (known cards, may be 0) plus random ones.

    The unknown cards are shuffled and dealt one at a time from ``left_of(dealer)``
    clockwise, skipping seats that are full (``simcards.core.deal.deal_known``); the
    usual case without known cards takes a shortcut that deals identically.
    """
    if fixed[0] | fixed[1] | fixed[2] | fixed[3]:
        deal_known(deck, fixed, _THIRTEEN, (dealer + 1) & 3, state, hands, buf)
        return
    n = deck.shape[0]
    buf[:n] = deck
    shuffle(buf[:n], state)
    for s in range(4):
        hands[s] = np.uint64(0)
    for j in range(n):
        hands[(dealer + 1 + j) & 3] |= bit(buf[j])


@helper(nb.boolean(nb.uint64, nb.int64, nb.uint64))
def deficient(hand, condition, trumps):
    """Whether ``hand`` qualifies for a redeal under ``misdeal_condition`` (index)."""
    if condition == MISDEAL_CONDITION.NO_SPADES:
        return (hand & trumps) == 0
    if condition == MISDEAL_CONDITION.AT_MOST_ONE_SPADE:
        return popcount(hand & trumps) <= 1
    if condition == MISDEAL_CONDITION.NO_FACE_CARDS:
        return (hand & _FACES) == 0
    return False


# ---------------------------------------------------------------- bidding


@helper
def legal_bids(params, bids, scores, seat, dealer, looked):
    """Legal-bid mask of ``seat`` now (bit b = bid b, bit 0 = Nil, BN_BIT = Blind Nil).

    ``bids``: the four bids so far (-1 = not yet); ``scores``: team scores at the start
    of the hand.
    """
    p = params[0]
    team = seat & 1
    partner_bid = bids[seat ^ 2]
    nil_ok = p.nil_allowed == 1
    bn_ok = p.blind_nil_allowed == 1 and not looked
    if bn_ok and p.blind_nil_min_deficit != NULL:
        bn_ok = scores[1 - team] - scores[team] >= p.blind_nil_min_deficit
    lo = 1
    if p.min_team_bid > 0 and partner_bid >= 0:
        need = p.min_team_bid - partner_bid
        if need > 0:
            nil_ok = False
            bn_ok = False
            lo = max(1, need)
    mask = np.uint64(0)
    for b in range(lo, 14):
        mask |= bit(b)
    if nil_ok:
        mask |= _ONE
    if bn_ok:
        mask |= bit(BN_BIT)
    if p.forbid_total_bids_13 == 1 and seat == dealer:
        others = 0
        for s in range(4):
            if s != seat:
                others += bids[s]
        f = 13 - others
        if 0 <= f <= 13:
            restricted = mask & ~bit(f)
            if f == 0:
                restricted &= ~bit(BN_BIT)
            if restricted & np.uint64((1 << 14) - 1):  # waived if no bid would be left
                mask = restricted
    return mask


# ---------------------------------------------------------------- scoring


@helper
def score_team(params, bid_p, blind_p, t_p, bid_q, blind_q, t_q, bags):
    """Rules 5.1 for one team. Returns (delta, bags_after, new_bags, penalties, contract, made).

    ``bid_*`` is 0 for Nil/BN (``blind_*`` = 1 for BN); ``made`` is 1, 0 (set) or -1 (no
    contract).
    """
    p = params[0]
    nil_points = 0
    failed = 0
    C = 0
    W = 0
    for k in range(2):
        b = bid_p if k == 0 else bid_q
        bl = blind_p if k == 0 else blind_q
        t = t_p if k == 0 else t_q
        if b == 0:
            v = p.blind_nil_value if bl == 1 else p.nil_value
            if t == 0:
                nil_points += v
            else:
                nil_points -= v
                failed += t
        else:
            C += b
            W += t
    mode = p.failed_nil_tricks
    if mode == FAILED_NIL_TRICKS.PARTNER and C > 0:
        W += failed
    contract_points = 0
    over = 0
    made = -1
    if C > 0:
        mult = 2 if (p.ten_for_two_hundred == 1 and C >= p.ten_for_two_hundred_min_bid) else 1
        set_mult = mult if p.ten_for_two_hundred_set_doubled == 1 else 1
        if W >= C:
            contract_points = 10 * C * mult
            over = W - C
            made = 1
        else:
            contract_points = -10 * C * set_mult
            made = 0
    nil_bags = failed if (mode == FAILED_NIL_TRICKS.BAGS or (mode == FAILED_NIL_TRICKS.PARTNER and C == 0)) else 0
    new_bags = over + nil_bags
    bag_points = p.bag_point_value * new_bags
    boston = 0
    if p.boston_bonus > 0 and bid_p > 0 and bid_q > 0 and t_p + t_q == 13:
        boston = p.boston_bonus
    penalty = 0
    penalties = 0
    G = bags
    if p.bag_mode == BAG_MODE.ACCUMULATE:
        G += new_bags
        if p.bag_overflow == BAG_OVERFLOW.CARRY:
            while G >= p.bag_limit:
                penalty += p.bag_limit_penalty
                penalties += 1
                G -= p.bag_limit
        elif G >= p.bag_limit:
            penalty += p.bag_limit_penalty
            penalties = 1
            G = 0
    elif p.bag_mode == BAG_MODE.PER_BAG:
        penalty = p.per_bag_penalty * new_bags
        penalties = new_bags
    else:
        G += new_bags
    delta = contract_points + nil_points + bag_points + boston - penalty
    return delta, G, new_bags, penalties, C, made


@helper
def _terminal(params, s0, s1):
    """Rules 5.8 end condition (before looking at ties)."""
    p = params[0]
    if max(s0, s1) >= p.target_score:
        return True
    return p.losing_score != NULL and min(s0, s1) <= p.losing_score


@helper
def game_over(params, s0, s1):
    """Rules 5.8: -1 = play on, else the winning team."""
    if _terminal(params, s0, s1) and s0 != s1:
        return 0 if s0 > s1 else 1
    return -1


@helper
def terminal_tie(params, s0, s1):
    """Whether the end condition holds but the scores are tied (another hand follows)."""
    return _terminal(params, s0, s1) and s0 == s1


# ---------------------------------------------------------------- one hand


@helper
def _exchange_choice(seats, seat, view, rngs, hand, count, role, received):
    """Ask ``seat`` which ``count`` cards of ``hand`` it passes; check the answer."""
    seat_params(view, V_PARAMS, seats, seat)
    view[V_SEAT] = seat
    view[V_HAND] = np.int64(hand)
    view[V_LEGAL] = np.int64(hand)
    view[V_COUNT] = count
    view[V_ROLE] = role
    view[V_RECEIVED] = np.int64(received)
    view[V_GIVEN] = 0
    answer = seats.exchange[seat](view, rngs[seat])
    give = np.uint64(answer)
    if (give & ~hand) or popcount(give) != count:
        raise IllegalAnswer(DEC_EXCHANGE, seat, answer)
    return give


@inline
def _deal_phase(tab, seats, w, dealer, hands_before, err):
    """Deal, with deficient-hand redeals (same dealer, fresh shuffle). Returns (redeals,
    bit mask of the seats that looked at their hands to decide)."""
    p = tab.params[0]
    suit_masks, hands, view, rngs = tab.suit_masks, w.hands, w.policy_view, w.rngs
    trumps = suit_masks[3]
    deck_mask = suit_masks[0] | suit_masks[1] | suit_masks[2] | suit_masks[3]
    redeals = 0
    looked = 0
    while True:
        deal_hands(tab.deck, tab.fixed, dealer, w.deal_rng, hands, w.buf)
        looked = 0
        if p.misdeal_condition == MISDEAL_CONDITION.NONE:
            break
        redeal = False
        for i in range(4):
            s = (dealer + 1 + i) & 3
            if deficient(hands[s], p.misdeal_condition, trumps):
                if p.misdeal_optional == 0:
                    redeal = True
                    break
                looked |= 1 << s
                _reset_view(view, tab.params, deck_mask, suit_masks, dealer, w.scores, w.bags, hands_before)
                shared_params(view, V_PARAMS, seats)
                view[V_SEAT] = s
                view[V_HAND] = np.int64(hands[s])
                seat_params(view, V_PARAMS, seats, s)
                call = seats.misdeal[s](view, rngs[s])
                if call != 0 and call != 1:
                    raise IllegalAnswer(DEC_MISDEAL, s, call)
                if call == 1:
                    redeal = True
                    break
        if not redeal:
            break
        redeals += 1
        if redeals > MAX_REDEALS:
            err[0] = E_REDEALS
            raise ValueError("spades: too many redeals")
    return redeals, looked


@inline
def _bid_phase(tab, seats, w, dealer, looked, rec, trace, forced):
    """Bidding from the dealer's left into ``rec`` (the authoritative bids; the view is the
    policies' copy). Returns False when ``forced`` stopped it (``BID_STOP``)."""
    view, rngs, hands, scores = w.policy_view, w.rngs, w.hands, w.scores
    bids = rec[D_BID:D_BID + 4]
    blinds = rec[D_BLIND:D_BLIND + 4]
    for s in range(4):
        bids[s] = -1
        blinds[s] = 0
    for i in range(4):
        s = (dealer + 1 + i) & 3
        if forced[s] == BID_STOP:  # hand odds: only the bids before this seat were wanted
            return False
        legal = legal_bids(tab.params, bids, scores, s, dealer, (looked >> s) & 1)
        view[V_SEAT] = s
        seat_params(view, V_PARAMS, seats, s)
        blind = 0
        if forced[s] >= 0:
            blind = 1 if forced[s] == BN_BIT else 0
            b = 0 if blind else forced[s]
        elif legal & bit(BN_BIT):
            view[V_HAND] = 0
            view[V_LEGAL] = np.int64(legal)
            blind = seats.blind[s](view, rngs[s])
            if blind != 0 and blind != 1:
                raise IllegalAnswer(DEC_BLIND, s, blind)
        if forced[s] >= 0:
            pass
        elif blind:
            b = 0
        else:
            legal &= ~bit(BN_BIT)
            view[V_HAND] = np.int64(hands[s])
            view[V_LEGAL] = np.int64(legal)
            b = seats.bid[s](view, rngs[s])
            if b < 0 or b > 13 or not (legal >> np.uint64(b)) & _ONE:
                raise IllegalAnswer(DEC_BID, s, b)
        bids[s] = b
        blinds[s] = blind
        view[V_BID + s] = b
        view[V_BLIND + s] = blind
        emit(trace, EV_BID, s, b, blind, 0, 0)
    return True


@inline
def _exchange_phase(tab, seats, w, rec, trace):
    """Card exchange inside each team with one Nil/BN bidder (NS first)."""
    p = tab.params[0]
    view, rngs, hands, given = w.policy_view, w.rngs, w.hands, w.given
    bids = rec[D_BID:D_BID + 4]
    blinds = rec[D_BLIND:D_BLIND + 4]
    for s in range(4):
        given[s] = np.uint64(0)
    for team in range(2):
        a = team
        q = team + 2
        k = 0
        z = -1
        if (bids[a] == 0) != (bids[q] == 0):
            z = a if bids[a] == 0 else q
            k = p.blind_nil_exchange_count if blinds[z] == 1 else p.nil_exchange_count
        view[V_EXCHANGE + team] = k
        rec[D_EXCH + team] = k
        if k == 0:
            continue
        pz = z ^ 2
        zero = np.uint64(0)
        if p.exchange_order == EXCHANGE_ORDER.SIMULTANEOUS:
            gz = _exchange_choice(seats, z, view, rngs, hands[z], k, 0, zero)
            gp = _exchange_choice(seats, pz, view, rngs, hands[pz], k, 1, zero)
            hands[z] = (hands[z] & ~gz) | gp
            hands[pz] = (hands[pz] & ~gp) | gz
        elif p.exchange_order == EXCHANGE_ORDER.NIL_FIRST:
            gz = _exchange_choice(seats, z, view, rngs, hands[z], k, 0, zero)
            hands[z] &= ~gz
            hands[pz] |= gz
            gp = _exchange_choice(seats, pz, view, rngs, hands[pz], k, 1, gz)
            hands[pz] &= ~gp
            hands[z] |= gp
        else:  # partner_first
            gp = _exchange_choice(seats, pz, view, rngs, hands[pz], k, 1, zero)
            hands[pz] &= ~gp
            hands[z] |= gp
            gz = _exchange_choice(seats, z, view, rngs, hands[z], k, 0, gp)
            hands[z] &= ~gz
            hands[pz] |= gz
        given[z] = gz
        given[pz] = gp
        emit(trace, EV_GIVE, z, np.int64(gz), 0, 0, 0)
        emit(trace, EV_GIVE, pz, np.int64(gp), 0, 0, 0)
    emit(trace, EV_EXCHANGE, rec[D_EXCH], rec[D_EXCH + 1], 0, 0, 0)


@inline
def start_trick(view, trick, leader):
    """The view at the start of trick ``trick`` led by ``leader`` (nothing on the table yet)."""
    view[V_TRICK] = trick
    view[V_LEADER] = leader
    view[V_LED_SUIT] = -1
    view[V_WIN_SEAT] = -1
    view[V_WIN_CARD] = -1
    for s in range(4):
        view[V_TABLE + s] = -1


@inline
def record_play(view, hands, suit_masks, s, c, pos, led, best, best_seat, broken, played):
    """Seat ``s`` plays ``c`` as card ``pos`` of the trick (rules 4.2-4.4): removes it from
    ``hands[s]`` and updates the public view (table, cards played, voids shown, the card
    winning so far, spades broken). Returns the new (led suit, winning card, its seat,
    broken, cards played). The kernel and policies that play a hand out (pimc's rollouts)
    share it, so both keep the view alike. The play is logged in ``V_HISTORY`` as play
    ``popcount(played)`` (its slot must still be 0 there: the kernel's view is reset per hand)."""
    cb = bit(c)
    i = popcount(played)
    view[V_HISTORY + i // HISTORY_PER_SLOT] |= np.int64(c) << (HISTORY_BITS * (i % HISTORY_PER_SLOT))
    hands[s] &= ~cb
    played |= cb
    if cb & suit_masks[3]:
        broken = True
    if pos == 0:
        led = 3 if cb & suit_masks[3] else (c // 13)
        best = c
        best_seat = s
        view[V_LED_SUIT] = led
    else:
        if not (cb & suit_masks[led]):
            view[V_VOIDS + s] |= 1 << led
        if _beats(c, best):
            best = c
            best_seat = s
    view[V_TABLE + s] = c
    view[V_PLAYED] = np.int64(played)
    view[V_PLAYED_BY + s] |= np.int64(cb)
    view[V_WIN_SEAT] = best_seat
    view[V_WIN_CARD] = best
    view[V_BROKEN] = 1 if broken else 0
    return led, best, best_seat, broken, played


@inline
def _play_phase(tab, seats, w, leader, forced, rec, trace):
    """Play 13 tricks from ``leader`` (``forced``: the card trick 1 must be led, or -1);
    tricks per seat into ``rec``, and the trick in which spades were broken."""
    p = tab.params[0]
    suit_masks, view, rngs, hands, given = tab.suit_masks, w.policy_view, w.rngs, w.hands, w.given
    fplay = seats.play
    trumps = suit_masks[3]
    broken = False
    broken_trick = 0
    played = np.uint64(0)
    tricks = rec[D_TRICKS:D_TRICKS + 4]
    for s in range(4):
        tricks[s] = 0
    for trick in range(13):
        start_trick(view, trick, leader)
        led = -1
        best = -1
        best_seat = -1
        for pos in range(4):
            s = (leader + pos) & 3
            view[V_NPLAYED] = pos
            hand = hands[s]
            no_trump_lead = p.spades_must_be_broken == 1 and not broken
            no_trump_discard = trick == 0 and p.first_trick_trump_allowed == 0
            legal = spades_legal(hand, led, suit_masks, forced if trick == 0 else -1,
                                 no_trump_lead, no_trump_discard)
            if popcount(legal) == 1:
                c = lowest_card(legal)
            else:
                view[V_SEAT] = s
                view[V_HAND] = np.int64(hand)
                view[V_LEGAL] = np.int64(legal)
                view[V_GIVEN] = np.int64(given[s])
                view[V_RECEIVED] = np.int64(given[s ^ 2])
                seat_params(view, V_PARAMS, seats, s)
                c = fplay[s](view, rngs[s])
                if c < 0 or c > 63 or not (legal & bit(c)):
                    raise IllegalAnswer(DEC_PLAY, s, c)
            emit(trace, EV_PLAY, s, c, 0, 0, 0)
            if bit(c) & trumps and not broken:
                broken_trick = trick + 1
            led, best, best_seat, broken, played = record_play(view, hands, suit_masks, s, c, pos, led, best,
                                                               best_seat, broken, played)
        tricks[best_seat] += 1
        view[V_TRICKS + best_seat] += 1
        emit(trace, EV_TRICK, trick, leader, best_seat, 0, 0)
        leader = best_seat
    return broken_trick


@inline
def _score_phase(params, rec, scores, bags):
    """Score both teams (rules 5) into ``rec``; updates ``scores`` and ``bags``."""
    bids = rec[D_BID:D_BID + 4]
    blinds = rec[D_BLIND:D_BLIND + 4]
    tricks = rec[D_TRICKS:D_TRICKS + 4]
    for team in range(2):
        a = team
        q = team + 2
        delta, g, new_bags, pens, C, made = score_team(
            params, bids[a], blinds[a], tricks[a], bids[q], blinds[q], tricks[q], bags[team])
        scores[team] += delta
        bags[team] = g
        rec[D_CONTRACT + team] = C
        rec[D_WON + team] = tricks[a] + tricks[q]
        rec[D_MADE + team] = made
        rec[D_SET + team] = 1 if made == 0 else 0
        rec[D_POINTS + team] = delta
        rec[D_BAGS + team] = new_bags
        rec[D_PEN + team] = pens
        rec[D_SCORE + team] = scores[team]
        rec[D_BAGCOUNT + team] = g
    for s in range(4):
        rec[D_NIL + s] = -1 if bids[s] != 0 else (1 if tricks[s] == 0 else 0)


@helper
def play_hand(tab, seats, w, dealer, hands_before, rec, trace, err, forced, do_deal):
    """Deal, bid, exchange, play 13 tricks and score one hand.

    ``tab``: the variant (:class:`Table`); ``seats``: the policies (:class:`Seats`); ``w``:
    the scratch and running state (:class:`Work`), whose ``scores`` and ``bags`` (per team)
    are updated in place. Writes the hand's record row ``rec`` (``DEAL_COLUMNS``) and its
    events into ``trace`` (``EVENTS``; ``NO_TRACE`` when not tracing).
    ``forced[s] >= 0`` makes seat ``s`` bid that value without asking its policy
    (``BN_BIT`` = Blind Nil); ``forced[s] == BID_STOP`` returns as soon as it is seat
    ``s``'s turn to bid (``rec`` then holds the earlier bids); with ``do_deal`` false
    ``w.hands`` already holds the deal (hand odds: the same deal for every option, no
    misdeal check).
    """
    p = tab.params[0]
    suit_masks, hands, scores, bags = tab.suit_masks, w.hands, w.scores, w.bags
    deck_mask = suit_masks[0] | suit_masks[1] | suit_masks[2] | suit_masks[3]
    redeals = 0
    looked = 0
    if do_deal:
        redeals, looked = _deal_phase(tab, seats, w, dealer, hands_before, err)
    if tracing(trace):
        emit(trace, EV_HAND, dealer, redeals, hands_before, 0, 0)
        emit(trace, EV_SCORES, scores[0], scores[1], bags[0], bags[1], 0)
        for s in range(4):
            emit(trace, EV_DEALT, s, np.int64(hands[s]), 0, 0, 0)
    _reset_view(w.policy_view, tab.params, deck_mask, suit_masks, dealer, scores, bags, hands_before)
    shared_params(w.policy_view, V_PARAMS, seats)
    if not _bid_phase(tab, seats, w, dealer, looked, rec, trace, forced):
        return
    _exchange_phase(tab, seats, w, rec, trace)

    # first leader (4.1)
    lead_card = -1
    leader = (dealer + 1) & 3
    if p.first_lead == FIRST_LEAD.LOWEST_CLUB:
        club = lowest_card(deck_mask & suit_masks[0])
        for s in range(4):
            if hands[s] & bit(club):
                leader = s
        if p.first_lead_card_forced == 1:
            lead_card = club
    rec[D_DEALER] = dealer
    rec[D_REDEALS] = redeals
    rec[D_LEADER] = leader
    emit(trace, EV_LEAD, leader, 0, 0, 0, 0)
    rec[D_BROKEN] = _play_phase(tab, seats, w, leader, lead_card, rec, trace)
    _score_phase(tab.params, rec, scores, bags)


@inline(nb.boolean(nb.int64, nb.int64))
def _beats(c, best):
    """``card_beats`` for this deck: the effective suit is min(card // 13, 3) (jokers 52, 54)."""
    sc = min(c // 13, 3)
    sb = min(best // 13, 3)
    if sc == sb:
        return c > best
    return sc == 3


@helper
def _reset_view(view, params, deck_mask, suit_masks, dealer, scores, bags, hands_before):
    p = params[0]
    for i in range(VIEW_LEN):
        view[i] = 0
    view[V_DEALER] = dealer
    view[V_LED_SUIT] = -1
    view[V_WIN_SEAT] = -1
    view[V_WIN_CARD] = -1
    view[V_LEADER] = -1
    view[V_DECK] = np.int64(deck_mask)
    for s in range(4):
        view[V_SUITS + s] = np.int64(suit_masks[s])
        view[V_TABLE + s] = -1
        view[V_BID + s] = -1
    for t in range(2):
        view[V_SCORE + t] = scores[t]
        view[V_BAGS + t] = bags[t]
    view[V_TARGET] = p.target_score
    view[V_BAG_LIMIT] = p.bag_limit
    view[V_NIL_VALUE] = p.nil_value
    view[V_BN_VALUE] = p.blind_nil_value
    view[V_TEN_MIN_BID] = p.ten_for_two_hundred_min_bid if p.ten_for_two_hundred == 1 else 0
    view[V_TEN_SET_DOUBLED] = p.ten_for_two_hundred_set_doubled
    view[V_FAILED_NIL_TRICKS] = p.failed_nil_tricks
    view[V_HANDS_PLAYED] = hands_before


# ---------------------------------------------------------------- record loops


@helper
def _start_record(seed, index, deal_rng, rngs):
    deal_rng[0] = stream_start(np.uint64(seed), np.uint64(index), np.uint64(0))
    for s in range(4):
        rngs[s, 0] = stream_start(np.uint64(seed), np.uint64(index), np.uint64(1 + s))


@helper
def _scratch():
    """Per-chunk arrays: deal stream, seat streams, view, hands, exchange cards, deal
    buffer, scores, bags, one hand's record, forced bids (none)."""
    return (np.zeros(1, np.uint64), np.zeros((4, 1), np.uint64), np.zeros(VIEW_LEN, np.int64),
            np.zeros(4, np.uint64), np.zeros(4, np.uint64), np.zeros(64, np.int64),
            np.zeros(2, np.int64), np.zeros(2, np.int64), np.zeros(N_DEAL_COLS, np.int64),
            np.full(4, -1, np.int64))


@inline
def _work(owners):
    """The :class:`Work` bundle over a chunk's scratch arrays (borrowed: no reference counts)."""
    return Work(borrowed(owners[0]), borrowed(owners[1]), borrowed(owners[2]), borrowed(owners[3]),
                borrowed(owners[4]), borrowed(owners[5]), borrowed(owners[6]), borrowed(owners[7]))


@inline
def _borrowed_table(tab):
    return Table(borrowed(tab.params), borrowed(tab.deck), borrowed(tab.suit_masks), borrowed(tab.fixed))


@inline
def _borrowed_seats(seats):
    return Seats(seats.blind, seats.bid, seats.exchange, seats.play, seats.misdeal, borrowed(seats.params),
                 seats.shared)


@helper
def _new_game(w):
    for t in range(2):
        w.scores[t] = 0
        w.bags[t] = 0


@kernel
def simulate_deals(tab, seats, seed, start, count, out, trace, err):
    """Unit ``deal``: records ``start .. start+count-1``, one hand each from 0-0."""
    p = tab.params[0]
    owners = _scratch()
    w = _work(owners)
    free = borrowed(owners[9])
    tab, seats = _borrowed_table(tab), _borrowed_seats(seats)
    out, trace, err = borrowed(out), borrowed(trace), borrowed(err)
    for i in range(count):
        _start_record(seed, start + i, w.deal_rng, w.rngs)
        dealer = p.first_dealer if p.first_dealer >= 0 else below(w.deal_rng, 4)
        _new_game(w)
        play_hand(tab, seats, w, dealer, np.int64(0), out[i], trace, err, free, True)
    keep_alive(owners)


@kernel
def simulate_games(tab, seats, seed, start, count, out, trace, err):
    """Unit ``game``: each record plays games until a team has ``match_wins`` of them
    (``trace``: the events of every hand, for a count of 1)."""
    p = tab.params[0]
    owners = _scratch()
    w = _work(owners)
    rec, free = borrowed(owners[8]), borrowed(owners[9])
    tab, seats = _borrowed_table(tab), _borrowed_seats(seats)
    out, trace, err = borrowed(out), borrowed(trace), borrowed(err)
    for i in range(count):
        _start_record(seed, start + i, w.deal_rng, w.rngs)
        row = out[i]
        for j in range(N_GAME_COLS):
            row[j] = 0
        dealer = p.first_dealer if p.first_dealer >= 0 else below(w.deal_rng, 4)
        row[G_FIRST] = dealer
        winner = -1
        total_hands = np.int64(0)
        while True:  # games of the match
            _new_game(w)
            row[G_GAMES] += 1
            game_winner, dealer, total_hands = play_game(tab, seats, w, dealer, np.int64(0), total_hands, rec, row,
                                                         trace, err, free)
            if game_winner < 0:
                winner = -1
                break
            row[G_GAMES_WON + game_winner] += 1
            if row[G_GAMES_WON + game_winner] >= p.match_wins:
                winner = game_winner
                break
        row[G_WINNER] = winner
        row[G_HANDS] = total_hands
        for t in range(2):
            row[G_SCORE + t] = w.scores[t]
            row[G_BAGCOUNT + t] = w.bags[t]
        row[G_BOTH] = 1 if min(w.scores[0], w.scores[1]) >= p.target_score else 0
    keep_alive(owners)


@helper
def play_game(tab, seats, w, dealer, hands_in_game, total_hands, rec, row, trace, err, free):
    """Play hands from ``w.scores``/``w.bags`` until the game ends (docs/games/spades.md, rule 5.8) or ``max_hands``.

    ``hands_in_game`` hands of this game were played before; each new hand is added to
    ``row`` (``GAME_COLUMNS`` tallies) and its events to ``trace``. Returns (winning team
    or -1 if unfinished, next dealer, ``total_hands`` after the game).
    """
    p = tab.params[0]
    scores = w.scores
    while True:
        play_hand(tab, seats, w, dealer, hands_in_game, rec, trace, err, free, True)
        hands_in_game += 1
        total_hands += 1
        _accumulate(row, rec)
        dealer = (dealer + 1) & 3
        winner = game_over(tab.params, scores[0], scores[1])
        if winner >= 0 or hands_in_game >= p.max_hands:
            return winner, dealer, total_hands
        if terminal_tie(tab.params, scores[0], scores[1]):
            row[G_TIES] += 1


@helper
def _accumulate(row, rec):
    row[G_REDEALS] += rec[D_REDEALS]
    for t in range(2):
        row[G_BAGS + t] += rec[D_BAGS + t]
        row[G_PEN + t] += rec[D_PEN + t]
        if rec[D_MADE + t] >= 0:
            row[G_CONTRACTS + t] += 1
        row[G_SETS + t] += rec[D_SET + t]
        for s in (t, t + 2):
            if rec[D_NIL + s] >= 0:
                if rec[D_BLIND + s] == 1:
                    row[G_BNB + t] += 1
                    row[G_BNM + t] += rec[D_NIL + s]
                else:
                    row[G_NILB + t] += 1
                    row[G_NILM + t] += rec[D_NIL + s]


# ---------------------------------------------------------------- hand odds (simcards bid spades)

ODDS_SLOTS = 15  # option slots: bids 0 (Nil) .. 13, and BN_BIT = 14 (Blind Nil "had you bid it blind")
ODDS_FIELDS = ("tricks", "team_tricks", "made", "nil", "points", "bags", "win")  # per option slot
ODDS_HANDS = ODDS_SLOTS * len(ODDS_FIELDS)  # then 4 columns: the accepted deal (hand masks by seat)
ODDS_DD = ODDS_HANDS + 4  # one column the kernel leaves to its caller (bid --dd: the team's double-dummy tricks)
ODDS_PARTNER = ODDS_DD + 1  # then per option slot: the partner's bid on that replay (0 Nil, 1..13, BN_BIT)
ODDS_WIDTH = ODDS_PARTNER + ODDS_SLOTS
FUTURE_STREAM = 5  # play-out of the game: deal stream 5, seat s stream 6 + s (1..4 play this hand)
TRY_STREAMS = 5  # earlier-bid check, try t >= 1: seat s streams FUTURE_STREAM + 5t + 1 + s


@helper
def _start_streams(seed, index, first, deal_rng, rngs):
    """Deal stream ``first`` and seat streams ``first + 1 + s`` of record ``index``."""
    deal_rng[0] = stream_start(np.uint64(seed), np.uint64(index), np.uint64(first))
    for s in range(4):
        rngs[s, 0] = stream_start(np.uint64(seed), np.uint64(index), np.uint64(first + 1 + s))


@helper
def _try_streams(tries):
    """First stream (see :func:`_start_streams`) of the earlier-bid check's try ``tries``:
    the record's own streams for try 0, then fresh ones after ``FUTURE_STREAM``'s."""
    return 0 if tries == 0 else FUTURE_STREAM + TRY_STREAMS * tries


@kernel
def simulate_bid_options(tab, seats, min_len, max_len, accept, seat, dealer, prior,
                         options, scores0, bags0, play_out, seed, start, count, out, err):
    """Deal ``count`` hands around the known cards and play each bid option on each.

    Deal ``i`` is drawn from stream 0 of ``(seed, start + i)`` with the ``fixed`` cards
    and the suit-length bounds, and redrawn (at most ``MAX_TRIES`` times) until
    ``accept[0](hands)`` holds (a 1-tuple, so that numba types it as a first-class
    function and one cached kernel serves every accept function) and the seats with
    ``prior[s] >= 0`` would, with their policies, bid exactly ``prior[s]`` (``BN_BIT`` =
    Blind Nil): :func:`play_hand` stopped at ``seat``'s turn. Every try draws fresh
    policy random numbers (try 0: the record's seat streams 1..4, try ``t``: streams
    from :func:`_try_streams`), so a randomised bid conditions the deal exactly
    (P(hands | bids), not the deals one fixed draw would accept). Every option then
    replays the accepted deal with the accepted try's seat streams restarted and
    ``seat`` forced to bid the option, so the earlier seats repeat their bids and the
    options differ only by the bid (common random numbers).
    With ``play_out`` the game goes on from the scores after the hand (next dealer,
    fresh deals of stream ``FUTURE_STREAM``) until it ends.
    Row ``i`` of ``out`` holds, per option slot (``ODDS_FIELDS``): the seat's tricks,
    its team's tricks, made (1/0, -1 no contract), the seat's Nil (1 made, 0 failed,
    -1 not Nil), team points and new bags this hand, and whether the team won the game
    (1/0, -1 unfinished or not played out); then the four dealt hands; column ``ODDS_DD``
    is left as it was; then per option slot (``ODDS_PARTNER + slot``) the partner's bid on
    that replay: 0 Nil, 1..13, ``BN_BIT`` Blind Nil (an earlier partner repeats his bid; a
    later one bids after the forced option, as his policy does on that deal).
    """
    p = tab.params[0]
    owners = _scratch()
    w = _work(owners)
    seats = _borrowed_seats(seats)
    deal_rng, rngs, hands, scores, bags = w.deal_rng, w.rngs, w.hands, w.scores, w.bags
    rec, forced = borrowed(owners[8]), borrowed(owners[9])
    dealt = np.zeros(4, np.uint64)
    spare_rng = np.zeros(1, np.uint64)  # the check restarts the seat streams, not the deal stream
    first = 0  # the accepted try's streams
    future = Table(tab.params, tab.deck, tab.suit_masks, np.zeros(4, np.uint64))  # the play-out: no known cards
    sizes = np.full(4, 13, np.int64)
    game_row = np.zeros(N_GAME_COLS, np.int64)
    nf = len(ODDS_FIELDS)
    team = seat & 1
    checks = False
    for s in range(4):
        checks = checks or prior[s] >= 0
    for i in range(count):
        _start_record(seed, start + i, deal_rng, rngs)
        tries = 0
        while True:
            first = _try_streams(tries)
            if deal_constrained(tab.deck, tab.fixed, sizes, (dealer + 1) & 3, deal_rng, hands, w.buf,
                                min_len, max_len, tab.suit_masks, 10_000) < 0:
                err[0] = E_REDEALS
                raise ValueError("spades: no deal satisfies the constraints")
            ok = accept[0](hands)
            if not ok:
                err[0] = E_ACCEPT
            elif checks:  # would the earlier seats have bid so with these hands?
                for s in range(4):
                    dealt[s] = hands[s]
                    forced[s] = -1
                forced[seat] = BID_STOP
                _start_streams(seed, start + i, first, spare_rng, rngs)
                scores[0] = scores0[0]
                scores[1] = scores0[1]
                bags[0] = bags0[0]
                bags[1] = bags0[1]
                play_hand(tab, seats, w, dealer, np.int64(0), rec, no_trace(), err, forced, False)
                for s in range(4):
                    hands[s] = dealt[s]
                    if prior[s] >= 0 and (rec[D_BID + s] != (0 if prior[s] == BN_BIT else prior[s])
                                          or rec[D_BLIND + s] != (1 if prior[s] == BN_BIT else 0)):
                        ok = False
                        err[0] = E_PRIOR
            if ok:
                break
            tries += 1
            if tries >= MAX_TRIES:
                raise ValueError("spades: no deal accepted")
        for s in range(4):
            dealt[s] = hands[s]
            out[i, ODDS_HANDS + s] = np.int64(hands[s])
        for j in range(options.shape[0]):
            o = options[j]
            _start_streams(seed, start + i, first, spare_rng, rngs)  # do_deal False: no deal stream
            for s in range(4):
                hands[s] = dealt[s]
                forced[s] = -1
            forced[seat] = o
            scores[0] = scores0[0]
            scores[1] = scores0[1]
            bags[0] = bags0[0]
            bags[1] = bags0[1]
            play_hand(tab, seats, w, dealer, np.int64(0), rec, no_trace(), err, forced, False)
            for s in range(4):  # the accepted try saw the same hands, view and seat streams
                if prior[s] >= 0 and rec[D_BID + s] != (0 if prior[s] == BN_BIT else prior[s]):
                    err[0] = E_REPLAY
                    err[1] = s
                    raise ValueError("spades: a policy bid differently on the same deal")
            base = o * nf
            mate = (seat + 2) & 3
            out[i, ODDS_PARTNER + o] = BN_BIT if rec[D_BLIND + mate] == 1 else rec[D_BID + mate]
            out[i, base] = rec[D_TRICKS + seat]
            out[i, base + 1] = rec[D_WON + team]
            out[i, base + 2] = rec[D_MADE + team]
            out[i, base + 3] = rec[D_NIL + seat]
            out[i, base + 4] = rec[D_POINTS + team]
            out[i, base + 5] = rec[D_BAGS + team]
            win = -1
            if play_out:
                winner = game_over(tab.params, scores[0], scores[1])
                if winner < 0 and p.max_hands > 1:
                    _start_streams(seed, start + i, FUTURE_STREAM, deal_rng, rngs)
                    forced[seat] = -1
                    winner, _, _ = play_game(future, seats, w, (dealer + 1) & 3, np.int64(1), np.int64(0), rec, game_row,
                                             no_trace(), err, forced)
                if winner >= 0:
                    win = 1 if winner == team else 0
            out[i, base + 6] = win
    keep_alive(owners)
