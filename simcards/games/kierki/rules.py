"""Kierki rules kernel (numba): deal, trump choice, trick play, lottery, scoring.

Cards and hands follow ``simcards.core.cards`` (card = suit*13 + rank, clubs 0,
diamonds 1, hearts 2, spades 3; hands are ``uint64`` masks). Everything a deal needs
is read from :class:`Table`, built once per chunk by :func:`kernel_tables`:

- ``params``: the variant packed by ``Variant.to_params`` (read ``params[0].trump_leader``;
  enum rules compared with the generated constants, ``TRUMP_LEADER.DEALER``);
- ``sched[k]``: deal ``k`` of a game as (type, dealer offset);
- ``card_pen[t, c]``: points charged for capturing card ``c`` in a deal of type ``t``;
- ``trick_pen[t, k]``: points for winning trick ``k`` (1..13) before card penalties
  (negative deals) or the trick value (trump deals). A trick's charge is therefore
  ``trick_pen[t, k] + sum(card_pen[t, c] for c in trick)``; the robber row is the
  sum of the six negative rows, which is exactly the cumulative rule of 2.4;
- ``pen_mask[t]``: cards that carry a penalty (used by early stop).

Randomness: deal ``k`` (0-based) of record ``index`` uses stream ``4k`` for the
shuffle and ``4k+1`` for policy choices (section 10.2), so early stop or a policy
change in one deal never alters another deal's cards.

The hot-path functions take bundled arguments: :class:`Table` (the variant), :class:`Seats`
(per decision, each seat's policy function) and :class:`Work` (per-chunk scratch arrays).

Traces: every move is emitted as a named event (``EVENTS``, core/trace.py) into the
trace buffer; ``NO_TRACE`` when not tracing. replay.py reads them.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from simcards.core.jit import helper, inline, kernel
from simcards.core.cards import SUIT_MASKS, bit, highest_card, lowest_card, popcount
from simcards.core.errors import IllegalAnswer, kernel_errors
from simcards.core.policy import PARAM_SLOTS
from simcards.core.trace import NO_TRACE, WIDTH, TraceEvents, emit
from simcards.core.variant import NULL
from simcards.core.rng import below, shuffle, stream_start
from simcards.games.kierki import policies as P
from simcards.games.kierki.variant import KierkiVariant

# decisions by their index in policies.DECISIONS: an illegal answer raises IllegalAnswer(D_x, seat, value)
DEC_PLAY, DEC_TRUMP, DEC_LOTTERY = 0, 1, 2

# deal type codes (variant.DEAL_TYPES order)
NO_TRICKS, NO_HEARTS, NO_QUEENS, NO_JACKS_KINGS, NO_KING_OF_HEARTS, NO_SEVENTH_LAST, ROBBER, TRUMPS, LOTTERY = range(9)
HEARTS = 2
KH = HEARTS * 13 + 11
AH = HEARTS * 13 + 12
HEART_MASK = SUIT_MASKS[HEARTS]
_SM = SUIT_MASKS

# enum parameters as named constants (their packed values)
(HEART_LEAD_RULE, KING_OF_HEARTS_FORCED, TRUMP_OBLIGATION, TRUMP_CHOOSER, TRUMP_LEADER,
 LOTTERY_FIRST_PLAYER, LOTTERY_BASE_RANK, LOTTERY_ACE) = (KierkiVariant.choice_enum(name) for name in (
    "heart_lead_rule", "king_of_hearts_forced", "trump_obligation", "trump_chooser", "trump_leader",
    "lottery_first_player", "lottery_base_rank", "lottery_ace"))

_DECK = np.uint64((1 << 52) - 1)  # every card

# kernel arguments, bundled
Table = namedtuple("Table", ("params", "sched", "card_pen", "trick_pen", "pen_mask"))  # the variant, packed
Seats = namedtuple("Seats", ("play", "trump", "lottery", "params", "oracle"))
# per decision a function per seat; params: each seat's policy parameters (PolicyTable.params); oracle:
# bit s set when seat s's trump function is a labelled oracle (given the whole hand, rules 10.1)
Work = namedtuple("Work", ("deck", "hands", "info", "masks", "tinfo", "totals", "res", "lohi",
                           "deal_rng", "rng"))  # per chunk: scratch arrays and the two random streams

# per-deal result (also the `deal` unit's record layout)
(R_TYPE, R_DEALER, R_FIRST) = range(3)
R_SCORE, R_TRICKS = 3, 7
R_TRUMP, R_CHOOSER, R_TRUMP_SEEN, R_TRUMP_FULL = 11, 12, 13, 14
R_SEVENS, R_PLACE = 15, 19
R_TRICKS_PLAYED, R_TURNS = 23, 24
RES_LEN = 25

# trace events (core/trace.py): declared once, codes EV_DEAL = 1 .. in this order
EVENTS = TraceEvents(
    "kierki",
    deal=("deal_no", "type", "dealer", "first"),  # first: first player (-1 in the lottery)
    hand=("seat", "hand"),
    trump=("chooser", "suit", "seen", "allowed"),  # suit -1: no trumps; seen: mask; allowed: bits
    play=("seat", "card", "trick", "legal"),  # trick: the trick number (lottery: the turn); legal: mask
    trick=("trick", "winner", "charge"),
    **{"pass": ("seat", "turn")},
    out=("seat", "place", "award"),
    score=("s0", "s1", "s2", "s3"),
    early=("tricks",),  # tricks played before an early stop
)
EVENTS.export(globals())
TRACE_WIDTH = WIDTH



# ---------------------------------------------------------------- dealing

@helper
def deal_hands(deck, rng, dealer, hands):
    """Shuffle ``deck`` (52 cards) in place and deal it with the canonical map."""
    for i in range(52):
        deck[i] = i
    shuffle(deck, rng)
    hands_from_deck(deck, dealer, hands)


@helper
def deal_with_known(deck, rng, dealer, seat, known, hands):
    """Deal with ``known`` cards fixed in ``seat``'s hand and the rest shuffled around them.

    The known cards fill ``seat``'s first positions under the canonical map (so they are
    also the first cards a trump chooser in that seat would see); every other position
    gets a uniformly shuffled unknown card. With ``known == 0`` this is :func:`deal_hands`.
    """
    n = 0
    for c in range(52):
        if not known & bit(c):
            deck[n] = c
            n += 1
    shuffle(deck[:n], rng)
    pool = deck[:n].copy()
    u = 0
    rest = known
    for i in range(52):
        if (dealer + 1 + i) % 4 == seat and rest:
            c = lowest_card(rest)
            rest &= rest - np.uint64(1)
            deck[i] = c
        else:
            deck[i] = pool[u]
            u += 1
    hands_from_deck(deck, dealer, hands)


@helper
def hands_from_deck(deck, dealer, hands):
    """The canonical dealing map of section 1.2: ``deck[i]`` goes to seat ``(dealer+1+i) % 4``."""
    for s in range(4):
        hands[s] = 0
    for i in range(52):
        hands[(dealer + 1 + i) % 4] |= bit(deck[i])


@helper
def first_cards(deck, dealer, seat, k):
    """Mask of the first ``k`` cards ``seat`` receives under the canonical map."""
    m = np.uint64(0)
    i = (seat - dealer - 1) % 4
    for _ in range(k):
        m |= bit(deck[i])
        i += 4
    return m


# ---------------------------------------------------------------- trick play

@inline
def load_params(view, at, seats, seat):
    """Copy ``seat``'s policy parameters into ``view[at:at + PARAM_SLOTS]`` (before calling its policy)."""
    for k in range(PARAM_SLOTS):
        view[at + k] = seats.params[seat, k]


@helper
def heart_restricted(params, deal_type):
    """Does the heart-lead rule apply in ``deal_type`` (``heart_lead_restricted_deals``)?"""
    p = params[0]
    if p.heart_lead_rule == HEART_LEAD_RULE.UNRESTRICTED:
        return False
    for i in range(p.heart_lead_restricted_deals_len):
        if p.heart_lead_restricted_deals[i] == deal_type:
            return True
    return False


@helper
def trick_legal(hand, trick_mask, first_card, deal_type, trump, params, restricted, hearts_before):
    """Legal cards (Appendix A ``legal_trick_cards``); ``first_card`` -1 when leading;
    ``restricted``: :func:`heart_restricted` of this deal."""
    p = params[0]
    if first_card < 0:
        if restricted:
            non_hearts = hand & ~HEART_MASK
            lifted = p.heart_lead_rule == HEART_LEAD_RULE.UNTIL_BROKEN and hearts_before
            if non_hearts and not lifted:
                return non_hearts
        return hand
    led = first_card // 13
    same = hand & _SM[led]
    kh_applies = (deal_type == NO_KING_OF_HEARTS or deal_type == ROBBER) and (hand & bit(KH)) != 0
    if same:
        if (kh_applies and p.king_of_hearts_forced == KING_OF_HEARTS_FORCED.WHEN_VOID_OR_BEATEN and led == HEARTS
                and (trick_mask & bit(AH))):
            return bit(KH)
        return same
    if kh_applies and p.king_of_hearts_forced != KING_OF_HEARTS_FORCED.OFF:
        return bit(KH)
    if deal_type == TRUMPS and trump >= 0 and p.trump_obligation != TRUMP_OBLIGATION.NONE:
        trumps = hand & _SM[trump]
        if trumps:
            if p.trump_obligation == TRUMP_OBLIGATION.MUST_OVERTRUMP:
                played = trick_mask & _SM[trump]
                if played:
                    top = bit(highest_card(played))
                    higher = trumps & ~((top << np.uint64(1)) - np.uint64(1))
                    if higher:
                        return higher
            return trumps
    return hand


@helper
def play_tricks(tab, seats, w, deal_type, dealer, leader, trump, deal_no, script, trace):
    """Play the tricks of one negative or trump deal from ``w.hands``; scores and tricks go to
    ``w.res``. The seats' play functions (``seats.play``) draw from ``w.rng``.

    ``script`` (length > 1) replaces the policies by a fixed card sequence, checked legal.
    """
    hands, info, masks, res, totals = w.hands, w.info, w.masks, w.res, w.totals
    card_pen, trick_pen = tab.card_pen, tab.trick_pen
    restricted = heart_restricted(tab.params, deal_type)
    early_stop = tab.params[0].early_stop != 0
    info[P.I_DEAL_TYPE] = deal_type
    info[P.I_DEALER] = dealer
    info[P.I_TRUMP] = trump
    info[P.I_DEAL_NO] = deal_no
    for s in range(4):
        info[P.I_DEAL_PTS + s] = 0
        info[P.I_TOTALS + s] = totals[s]
        masks[P.M_BY_SEAT + s] = 0
    masks[P.M_VOIDS] = 0
    for c in range(52):
        info[P.I_PEN + c] = card_pen[deal_type, c]
    for t in range(14):
        info[P.I_TRICK_PEN + t] = trick_pen[deal_type, t]
    played = np.uint64(0)
    hearts_before = False
    scripted = script.shape[0] > 1
    ply = 0
    tricks = 0
    for t in range(1, 14):
        trick_mask = np.uint64(0)
        first = -1
        win_card = -1
        win_seat = -1
        charge = trick_pen[deal_type, t]
        for j in range(4):
            seat = (leader + j) % 4
            hand = hands[seat]
            legal = trick_legal(hand, trick_mask, first, deal_type, trump, tab.params, restricted, hearts_before)
            if scripted:
                card = script[ply]
            elif legal & (legal - np.uint64(1)) == 0:
                card = lowest_card(legal)
            else:
                info[P.I_SEAT] = seat
                info[P.I_LEADER] = leader
                info[P.I_TRICK] = t
                info[P.I_N_IN_TRICK] = j
                info[P.I_WIN_CARD] = win_card
                info[P.I_WIN_SEAT] = win_seat
                for k in range(j, 4):
                    info[P.I_TRICK_CARDS + k] = -1
                masks[P.M_HAND] = hand
                masks[P.M_LEGAL] = legal
                masks[P.M_PLAYED] = played
                masks[P.M_TRICK] = trick_mask
                load_params(info, P.I_PARAMS, seats, seat)
                card = seats.play[seat](info, masks, w.rng)
            if card < 0 or card > 51 or not (legal & bit(card)):
                raise IllegalAnswer(DEC_PLAY, seat, card)  # (or a test's script did)
            emit(trace, EV_PLAY, seat, card, t, np.int64(legal), 0)
            b = bit(card)
            hands[seat] = hand ^ b
            trick_mask |= b
            played |= b
            masks[P.M_BY_SEAT + seat] |= b
            if j > 0 and card // 13 != first // 13:
                masks[P.M_VOIDS] |= np.uint64(1) << np.uint64(4 * seat + first // 13)
            info[P.I_TRICK_CARDS + j] = card
            charge += card_pen[deal_type, card]
            if j == 0:
                first = card
                win_card = card
                win_seat = seat
            elif P.beats(card, win_card, trump):
                win_card = card
                win_seat = seat
            ply += 1
        res[R_SCORE + win_seat] += charge
        res[R_TRICKS + win_seat] += 1
        info[P.I_DEAL_PTS + win_seat] += charge
        emit(trace, EV_TRICK, t, win_seat, charge, 0, 0)
        if trick_mask & HEART_MASK:
            hearts_before = True
        leader = win_seat
        tricks = t
        if (early_stop and NO_HEARTS <= deal_type <= NO_KING_OF_HEARTS
                and t < 13 and (tab.pen_mask[deal_type] & ~played) == 0):
            emit(trace, EV_EARLY, t, 0, 0, 0, 0)
            break
    res[R_TRICKS_PLAYED] = tricks


# ---------------------------------------------------------------- lottery

@helper
def _lot_card(s, p, ace_high):
    """Card at layout position ``p`` of suit ``s``."""
    if ace_high:
        return s * 13 + p
    return s * 13 + (12 if p == 0 else p - 1)


@helper
def lottery_ace_high(params):
    """1 when the layout runs 2..A (``lottery_ace=high``), 0 for A..K."""
    return 1 if params[0].lottery_ace == LOTTERY_ACE.HIGH else 0


@helper
def lottery_base(params):
    """Layout position of the rank that opens a row (``lottery_base_rank``); -1 for ``first_card``."""
    p = params[0]
    if p.lottery_base_rank == LOTTERY_BASE_RANK.FIRST_CARD:
        return -1
    rank = 5 if p.lottery_base_rank == LOTTERY_BASE_RANK.N7 else 6  # index in 23456789TJQKA
    return rank if lottery_ace_high(params) else rank + 1


@helper
def lottery_opening(params):
    """The card that must open the lottery (``lottery_opening_card``), -1 if none."""
    m = params[0].lottery_opening_card
    return -1 if m == NULL else lowest_card(np.uint64(m))


@helper
def lottery_legal(hand, lo, hi, base, ace_high):
    """Legal Fan Tan cards (Appendix A ``lottery_legal``); ``base`` -1 = any card opens."""
    legal = np.uint64(0)
    for s in range(4):
        if lo[s] < 0:
            if base < 0:
                legal |= hand & _SM[s]
            else:
                legal |= hand & bit(_lot_card(s, base, ace_high))
        else:
            if lo[s] > 0:
                legal |= hand & bit(_lot_card(s, lo[s] - 1, ace_high))
            if hi[s] < 12:
                legal |= hand & bit(_lot_card(s, hi[s] + 1, ace_high))
    return legal


@helper
def lay_card(lo, hi, base, card, ace_high):
    """Put ``card`` on the layout: its row opens at it or grows by it (``lo[s]``/``hi[s]``,
    layout positions). Returns the base, set by the first card while ``base`` is -1
    (``first_card``)."""
    s = card // 13
    q = P._pos(card, ace_high)
    if lo[s] < 0:
        lo[s] = q
        hi[s] = q
        if base < 0:
            base = q
    elif q < lo[s]:
        lo[s] = q
    else:
        hi[s] = q
    return base


@helper
def play_lottery(tab, seats, w, dealer, deal_no, script, trace):
    """Play one lottery from ``w.hands``; awards and finishing places go to ``w.res``."""
    hands, info, masks, res, totals, lohi = w.hands, w.info, w.masks, w.res, w.totals, w.lohi
    p = tab.params[0]
    ace_high = lottery_ace_high(tab.params)
    base = lottery_base(tab.params)
    lo = lohi[0:4]
    hi = lohi[4:8]
    lohi[:] = -1
    open_card = lottery_opening(tab.params)
    if open_card >= 0:
        seat = 0
        for s in range(4):
            if hands[s] & bit(open_card):
                seat = s
    elif p.lottery_first_player == LOTTERY_FIRST_PLAYER.DEALER:
        seat = dealer
    else:
        seat = (dealer + 1) % 4
    res[R_FIRST] = seat
    info[P.L_DEALER] = dealer
    info[P.L_ACE_HIGH] = ace_high
    info[P.L_DEAL_NO] = deal_no
    for s in range(4):
        info[P.L_TOTALS + s] = totals[s]
        info[P.L_PASSES + s] = 0
        info[P.L_PLACE + s] = 0
        masks[P.M_BY_SEAT + s] = 0
        masks[P.M_ABSENT + s] = 0
    for k in range(3):
        info[P.L_AWARDS + k] = p.lottery_awards[k] if k < p.lottery_awards_len else 0
    layout = np.uint64(0)
    n_out = 0
    turn = 0
    scripted = script.shape[0] > 1
    ply = 0
    while True:
        hand = hands[seat]
        if hand == 0:
            seat = (seat + 1) % 4
            continue
        if turn == 0 and open_card >= 0:
            legal = bit(open_card)
        else:
            legal = lottery_legal(hand, lo, hi, base, ace_high)
        if legal == 0:
            info[P.L_PASSES + seat] += 1
            # a pass shows the seat holds none of the cards playable now (public knowledge)
            masks[P.M_ABSENT + seat] |= lottery_legal(_DECK & ~layout, lo, hi, base, ace_high)
            emit(trace, EV_PASS, seat, turn, 0, 0, 0)
        else:
            if scripted:
                card = script[ply]
            elif legal & (legal - np.uint64(1)) == 0:
                card = lowest_card(legal)
            else:
                info[P.L_SEAT] = seat
                info[P.L_TURN] = turn
                info[P.L_BASE] = base
                for s in range(4):
                    info[P.L_LO + s] = lo[s]
                    info[P.L_HI + s] = hi[s]
                    info[P.L_LEFT + s] = popcount(hands[s])
                masks[P.M_HAND] = hand
                masks[P.M_LEGAL] = legal
                masks[P.M_PLAYED] = layout
                load_params(info, P.L_PARAMS, seats, seat)
                card = seats.lottery[seat](info, masks, w.rng)
            if card < 0 or card > 51 or not (legal & bit(card)):
                raise IllegalAnswer(DEC_LOTTERY, seat, card)
            ply += 1
            emit(trace, EV_PLAY, seat, card, turn, np.int64(legal), 0)
            b = bit(card)
            hands[seat] = hand ^ b
            layout |= b
            masks[P.M_BY_SEAT + seat] |= b
            base = lay_card(lo, hi, base, card, ace_high)
            if hands[seat] == 0:
                award = p.lottery_awards[n_out]
                n_out += 1
                res[R_SCORE + seat] += award
                res[R_PLACE + seat] = n_out
                info[P.L_PLACE + seat] = n_out
                emit(trace, EV_OUT, seat, n_out, award, 0, 0)
                if n_out == p.lottery_awards_len:
                    turn += 1
                    break
        turn += 1
        if turn > 4 * 52:
            raise ValueError("kierki: lottery did not end within 208 turns")
        seat = (seat + 1) % 4
    res[R_TURNS] = turn


# ---------------------------------------------------------------- one deal of any type

@helper
def play_deal(tab, seats, w, deal_type, dealer, deal_no, trump_group_used, seed, index, script, trace):
    """Deal and play one deal of ``deal_type``; fills ``w.res`` (layout ``R_*``).

    ``trump_group_used`` holds suits already chosen in the current group of four trump
    deals (bits), for ``trump_suits_distinct``; returns the updated bits.
    """
    p = tab.params[0]
    deck, hands, masks, tinfo, res = w.deck, w.hands, w.masks, w.tinfo, w.res
    for i in range(RES_LEN):
        res[i] = 0
    res[R_TYPE] = deal_type
    res[R_DEALER] = dealer
    res[R_TRUMP] = -2
    res[R_CHOOSER] = -1
    res[R_TRUMP_SEEN] = -1
    res[R_TRUMP_FULL] = -1
    chooser = dealer
    w.deal_rng[0] = stream_start(np.uint64(seed), np.uint64(index), np.uint64(4 * (deal_no - 1)))
    w.rng[0] = stream_start(np.uint64(seed), np.uint64(index), np.uint64(4 * (deal_no - 1) + 1))
    deal_hands(deck, w.deal_rng, dealer, hands)
    sevens = _seven_mask(tab.params)
    for s in range(4):
        res[R_SEVENS + s] = popcount(hands[s] & sevens)
    first = (dealer + 1) % 4
    if deal_type == TRUMPS:
        chooser = dealer if p.trump_chooser == TRUMP_CHOOSER.DEALER else (dealer + 1) % 4
        first = dealer if p.trump_leader == TRUMP_LEADER.DEALER else (dealer + 1) % 4
    emit(trace, EV_DEAL, deal_no, deal_type, dealer, -1 if deal_type == LOTTERY else first, 0)
    for s in range(4):
        emit(trace, EV_HAND, s, np.int64(hands[s]), 0, 0, 0)
    if deal_type == LOTTERY:
        play_lottery(tab, seats, w, dealer, deal_no, script, trace)
    else:
        trump = -1
        if deal_type == TRUMPS:
            seen = first_cards(deck, dealer, chooser, p.trump_choice_cards)
            allowed = 15 & ~trump_group_used
            if p.allow_no_trump:
                allowed |= P.NO_TRUMP_BIT
            tinfo[P.T_SEAT] = chooser
            tinfo[P.T_DEALER] = dealer
            tinfo[P.T_N_SEEN] = p.trump_choice_cards
            tinfo[P.T_ALLOWED] = allowed
            tinfo[P.T_DEAL_NO] = deal_no
            for s in range(4):
                tinfo[P.T_TOTALS + s] = w.totals[s]
            masks[P.TM_SEEN] = seen
            masks[P.TM_ORACLE] = hands[chooser] if (seats.oracle >> chooser) & 1 else np.uint64(0)
            load_params(tinfo, P.T_PARAMS, seats, chooser)
            if script.shape[0] > 1:
                trump = script[0]
            elif popcount(np.uint64(allowed)) == 1:
                trump = lowest_card(np.uint64(allowed))
                trump = -1 if trump == 4 else trump
            else:
                trump = seats.trump[chooser](tinfo, masks, w.rng)
            if trump < -1 or trump > 3 or (trump == -1 and not p.allow_no_trump) or (
                    trump >= 0 and not (allowed >> trump) & 1):
                raise IllegalAnswer(DEC_TRUMP, chooser, trump)
            emit(trace, EV_TRUMP, chooser, trump, np.int64(seen), allowed, 0)
            if trump >= 0:
                trump_group_used |= 1 << trump
            res[R_TRUMP] = trump
            res[R_CHOOSER] = chooser
            res[R_TRUMP_SEEN] = popcount(seen & _SM[trump]) if trump >= 0 else 0
            res[R_TRUMP_FULL] = popcount(hands[chooser] & _SM[trump]) if trump >= 0 else 0
        res[R_FIRST] = first
        play_tricks(tab, seats, w, deal_type, dealer, first, trump, deal_no,
                    script[1:] if deal_type == TRUMPS else script, trace)
    emit(trace, EV_SCORE, res[R_SCORE], res[R_SCORE + 1], res[R_SCORE + 2], res[R_SCORE + 3], 0)
    return trump_group_used


@helper
def _seven_mask(params):
    """Opening-rank cards of the lottery (7s by default; 8s with base 8; 7s for first_card)."""
    q = lottery_base(params)
    ace_high = lottery_ace_high(params)
    m = np.uint64(0)
    for s in range(4):
        m |= bit(_lot_card(s, q, ace_high)) if q >= 0 else bit(s * 13 + 5)
    return m


# ---------------------------------------------------------------- record kernels

# game record layout
G_FIRST_DEALER = 0
G_TOTAL, G_NEG, G_TRUMPS, G_LOTTERY = 1, 5, 9, 13
G_POS = 17           # 9 deal types x 4 positions from the dealer: points summed over the game
G_COUNT = G_POS + 36  # deals of each type
G_TR = G_COUNT + 9    # first four trump deals: suit, seen length, full length, chooser tricks
G_SEVENS = G_TR + 16  # first lottery: opening cards held by seat
G_PLACE = G_SEVENS + 4
G_TRICKS_PLAYED = G_PLACE + 4
GAME_LEN = G_TRICKS_PLAYED + 1


@helper
def _first_dealer(params, seed, index):
    d = params[0].first_dealer
    if d >= 0:  # null (random) packs as NULL < 0
        return d
    st = np.empty(1, np.uint64)
    st[0] = stream_start(np.uint64(seed), np.uint64(index), np.uint64(1 << 20))
    return below(st, 4)


@helper
def new_work():
    """The per-chunk :class:`Work` arrays."""
    return Work(np.empty(52, np.int64), np.zeros(4, np.uint64), np.zeros(P.INFO_LEN, np.int64),
                np.zeros(P.MASKS_LEN, np.uint64), np.zeros(P.TRUMP_INFO_LEN, np.int64), np.zeros(4, np.int64),
                np.zeros(RES_LEN, np.int64), np.zeros(8, np.int64), np.zeros(1, np.uint64),
                np.zeros(1, np.uint64))


@kernel
def simulate_games(tab, seats, seed, start, count, out, trace, script):
    """Records ``start .. start+count-1``: whole games (``tab.sched[k] = (type, dealer offset)``)."""
    w = new_work()
    sched = tab.sched
    distinct = tab.params[0].trump_suits_distinct != 0
    totals, res = w.totals, w.res
    for r in range(count):
        index = start + r
        row = out[r]
        row[:] = 0
        d0 = _first_dealer(tab.params, seed, index)
        row[G_FIRST_DEALER] = d0
        totals[:] = 0
        used = 0
        n_trump = 0
        lotteries = 0
        for k in range(sched.shape[0]):
            dt = sched[k, 0]
            dealer = (d0 + sched[k, 1]) % 4
            if dt == TRUMPS and distinct and n_trump % 4 == 0:
                used = 0
            if not distinct:
                used = 0
            used = play_deal(tab, seats, w, dt, dealer, k + 1, used, seed, index, script, trace)
            for s in range(4):
                pts = res[R_SCORE + s]
                totals[s] += pts
                row[G_POS + dt * 4 + (s - dealer) % 4] += pts
                if dt == TRUMPS:
                    row[G_TRUMPS + s] += pts
                elif dt == LOTTERY:
                    row[G_LOTTERY + s] += pts
                else:
                    row[G_NEG + s] += pts
            row[G_COUNT + dt] += 1
            row[G_TRICKS_PLAYED] += res[R_TRICKS_PLAYED]
            if dt == TRUMPS:
                if n_trump < 4:
                    base = G_TR + 4 * n_trump
                    row[base] = res[R_TRUMP]
                    row[base + 1] = res[R_TRUMP_SEEN]
                    row[base + 2] = res[R_TRUMP_FULL]
                    row[base + 3] = res[R_TRICKS + res[R_CHOOSER]]
                n_trump += 1
            if dt == LOTTERY:
                if lotteries == 0:
                    for s in range(4):
                        row[G_SEVENS + s] = res[R_SEVENS + s]
                        row[G_PLACE + s] = res[R_PLACE + s]
                lotteries += 1
        for s in range(4):
            row[G_TOTAL + s] = totals[s]
        if lotteries == 0:
            for s in range(4):
                row[G_SEVENS + s] = -1
                row[G_PLACE + s] = -1
        if n_trump < 4:
            for j in range(n_trump, 4):
                for q in range(4):
                    row[G_TR + 4 * j + q] = -2 if q == 0 else -1


@kernel
def simulate_deals(tab, seats, seed, start, count, out, trace, script):
    """Records ``start .. start+count-1``: single deals of type ``params[0].deal_type``."""
    w = new_work()
    dt = tab.params[0].deal_type
    for r in range(count):
        index = start + r
        dealer = _first_dealer(tab.params, seed, index)
        play_deal(tab, seats, w, dt, dealer, 1, 0, seed, index, script, trace)
        for i in range(RES_LEN):
            out[r, i] = w.res[i]


@helper
def play_given_hands(tab, seats, deal_type, dealer, leader, trump, hands, res, script, trace):
    """Differential entry point of the kernel: play a trick deal from explicit hands.

    The cards come from ``script`` (every card in playing order, checked legal) or, when
    ``script`` has length 1, from ``seats.play`` with a fixed rng stream. ``hands`` is not
    changed; the result goes to ``res``.
    """
    w0 = new_work()
    w = Work(w0.deck, hands.copy(), w0.info, w0.masks, w0.tinfo, w0.totals, res, w0.lohi, w0.deal_rng, w0.rng)
    w.rng[0] = stream_start(np.uint64(0), np.uint64(0), np.uint64(1))
    for i in range(RES_LEN):
        res[i] = 0
    play_tricks(tab, seats, w, deal_type, dealer, leader, trump, 1, script, trace)


# ---------------------------------------------------------------- Python side: tables and entry points

def kernel_tables(variant) -> Table:
    """The :class:`Table` of a validated KierkiVariant: the packed variant, the schedule and
    the penalty tables."""
    from simcards.games.kierki.variant import DEAL_TYPES, schedule

    v = variant
    card_pen = np.zeros((9, 52), np.int64)
    trick_pen = np.zeros((9, 14), np.int64)
    trick_pen[NO_TRICKS, 1:] = v.penalty_per_trick
    for c in range(26, 39):
        card_pen[NO_HEARTS, c] = v.penalty_per_heart
    for s in range(4):
        card_pen[NO_QUEENS, s * 13 + 10] = v.penalty_per_queen
        card_pen[NO_JACKS_KINGS, s * 13 + 9] = v.penalty_per_jack_or_king
        card_pen[NO_JACKS_KINGS, s * 13 + 11] = v.penalty_per_jack_or_king
    card_pen[NO_KING_OF_HEARTS, KH] = v.penalty_king_of_hearts
    for t in v.seventh_last_tricks:
        trick_pen[NO_SEVENTH_LAST, t] = v.penalty_per_seventh_last_trick
    card_pen[ROBBER] = card_pen[:ROBBER].sum(axis=0)
    trick_pen[ROBBER] = trick_pen[:ROBBER].sum(axis=0)
    trick_pen[TRUMPS, 1:] = v.points_per_trump_trick
    pen_mask = np.zeros(9, np.uint64)
    for t in range(9):
        m = 0
        for c in range(52):
            if card_pen[t, c]:
                m |= 1 << c
        pen_mask[t] = m
    sched = np.array([(DEAL_TYPES.index(t), off) for t, off in schedule(v)], np.int64).reshape(-1, 2)
    return Table(v.to_params(), sched, card_pen, trick_pen, pen_mask)


def _is_oracle(table, seat) -> bool:
    """Is ``seat``'s trump function a labelled oracle's (``policies.ORACLE_TRUMPS``), either
    directly or through the seat's policy spec (a wrapped table, a user policy based on one)?"""
    if any(table["trump"][seat] is f for f in P.ORACLE_TRUMPS):
        return True
    specs = getattr(table, "specs", ())
    if seat < len(specs):
        try:
            trump = P.CATALOG.policy(specs[seat]).function("trump")
        except Exception:  # not a spec of this catalog: only the function identity counts
            return False
        return any(trump is f or getattr(trump, "py_func", None) is f.py_func for f in P.ORACLE_TRUMPS)
    return False


def seats(table) -> Seats:
    """The kernels' :class:`Seats` of a policy table (functions, parameters, oracle seats)."""
    oracle = sum(1 << s for s in range(4) if _is_oracle(table, s))
    return Seats(table["play"], table["trump"], table["lottery"], table.params, np.int64(oracle))


NO_SCRIPT = np.full(1, -1, np.int64)


def run_records(unit, variant, table, seed, start, count, trace=None, script=None):
    """int64 records [count, ncols] of ``unit`` ("game" or "deal"); optional trace buffer."""
    kernel, width = (simulate_games, GAME_LEN) if unit == "game" else (simulate_deals, RES_LEN)
    out = np.zeros((count, width), np.int64)
    with kernel_errors("kierki", P.DECISIONS, table, formats=P.FORMATS,
                       where=f"seed {seed}, records {start}..{start + count - 1}"):
        kernel(kernel_tables(variant), seats(table), np.uint64(seed), np.int64(start), np.int64(count), out,
               NO_TRACE if trace is None else trace, NO_SCRIPT if script is None else script)
    return out


def trace_buffer(variant, unit="game"):
    """A trace buffer large enough for one record of ``unit``."""
    from simcards.games.kierki.variant import schedule

    n = len(schedule(variant)) if unit == "game" else 1
    return np.zeros((n * 320 + 2, TRACE_WIDTH), np.int64)
