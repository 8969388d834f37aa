"""Kierki decisions, the state views policies see, and the built-in policies.

Three decisions, each ``int64(int64[:] info, uint64[:] masks, uint64[:] rng)``:

``play`` (a card for a trick, negative and trump deals) -- returns a card of ``masks[M_LEGAL]``.

  info[I_DEAL_TYPE]  deal type code (0 no_tricks .. 6 robber, 7 trumps)
  info[I_SEAT]       the seat deciding (0=N, 1=E, 2=S, 3=W)
  info[I_DEALER]     dealer of this deal
  info[I_LEADER]     seat that led the current trick
  info[I_TRICK]      trick number 1..13
  info[I_N_IN_TRICK] cards already in the trick (0 = you lead)
  info[I_TRUMP]      trump suit (0 C, 1 D, 2 H, 3 S) or -1 (none)
  info[I_WIN_CARD]   card currently winning the trick (-1 when leading)
  info[I_WIN_SEAT]   its seat (-1 when leading)
  info[I_TRICK_CARDS + j]  j-th card of the trick (-1 if not yet played), j = 0..3
  info[I_DEAL_PTS + s]     points seat s has taken in this deal so far
  info[I_TOTALS + s]       seat s's game total before this deal
  info[I_DEAL_NO]    deal number within the game (1-based)
  info[I_PEN + c]    penalty of card c in this deal (<= 0; 0 in trump deals), c = 0..51
  info[I_TRICK_PEN + t]    points charged to the winner of trick t (1..13) before card
                           penalties (negative; +points_per_trump_trick in trump deals)
  masks[M_HAND] own hand, masks[M_LEGAL] legal cards, masks[M_PLAYED] every card played in
  the deal (current trick included), masks[M_TRICK] the current trick, masks[M_BY_SEAT + s]
  cards seat s has played in this deal, masks[M_VOIDS] public voids: bit ``4*seat + suit`` is set
  once ``seat`` has failed to follow ``suit``.

``trump`` (the trump announcement) -- returns a suit 0..3, or -1 for no trumps.

  info[T_SEAT], info[T_DEALER], info[T_N_SEEN] (= trump_choice_cards), info[T_ALLOWED]
  (bit s: suit s may be chosen; bit 4: no trumps may be announced), info[T_DEAL_NO],
  info[T_TOTALS + s]; masks[TM_SEEN] (= masks[0]) = exactly the cards the chooser has
  received so far. masks[TM_ORACLE] (= masks[1]) holds the chooser's whole hand only for
  the labelled oracle ``oracle_13`` (rules 10.1: hidden information only for oracles); it is
  0 for every other policy.

``lottery`` (a card for the Fan Tan layout; only asked when at least two cards are legal)
-- returns a card of ``masks[M_LEGAL]``.

  info[L_SEAT], info[L_DEALER], info[L_TURN] (turn number 0..), info[L_BASE] (position of
  the opening rank in the layout sequence, -1 while ``first_card`` is still open),
  info[L_ACE_HIGH] (0/1), info[L_LO + s] / info[L_HI + s] (lowest/highest position of row
  s, -1 if unopened), info[L_LEFT + s] (cards left in seat s's hand), info[L_PASSES + s]
  (passes made), info[L_PLACE + s] (0 still in, else finishing place), info[L_TOTALS + s],
  info[L_DEAL_NO], info[L_AWARDS + k] (the award of the k-th player out, 0 beyond the
  variant's); masks[M_HAND], masks[M_LEGAL], masks[M_PLAYED] (the layout), masks[M_BY_SEAT + s]
  (cards seat s has put on the layout), masks[M_ABSENT + s] (cards seat s is known not to
  hold: every card that was playable at a turn it passed).

Every view ends with the seat's policy parameters: ``info[I_PARAMS + k]``,
``info[T_PARAMS + k]``, ``info[L_PARAMS + k]`` (read them with ``param_value``; k is the
parameter's place in the policy's declaration, ``P_LENGTH_WEIGHT`` ... below).

Layout position of a card: ace low ``A=0, 2=1 .. K=12``; ace high ``2=0 .. A=12``.

Policies see only what section 10.1 allows: their own hand and public play.
"""
from __future__ import annotations

import numpy as np
from numba import types

from simcards.core.jit import helper, policy
from simcards.core.cards import bit, format_card, highest_card, lowest_card, popcount, SUIT_MASKS
from simcards.core.policy import PARAM_SLOTS, Decision, Layout, Policy, PolicyCatalog, PolicyParam, param_value
from simcards.core.rng import below, random_card_of

SIG = types.int64(types.int64[:], types.uint64[:], types.uint64[:])

# ---- the views, declared once (offsets generated; the params slots come last)
PLAY_VIEW = Layout("kierki play view", deal_type=1, seat=1, dealer=1, leader=1, trick=1, n_in_trick=1, trump=1,
                   win_card=1, win_seat=1, trick_cards=4, deal_pts=4, totals=4, deal_no=1, spare=2, pen=52,
                   trick_pen=14,  # indexed by trick number 0..13
                   params=PARAM_SLOTS)
PLAY_VIEW.export(globals(), "I_", size="PLAY_INFO_LEN")
MASKS = Layout("kierki masks", hand=1, legal=1, played=1, trick=1, by_seat=4, voids=1, absent=4)
MASKS.export(globals(), "M_", size="MASKS_LEN")
TM_SEEN, TM_ORACLE = 0, 1  # the trump decision's masks: cards seen; the whole hand (oracle_13 only)
TRUMP_VIEW = Layout("kierki trump view", seat=1, dealer=1, n_seen=1, allowed=1, deal_no=1, totals=4,
                    params=PARAM_SLOTS)
TRUMP_VIEW.export(globals(), "T_", size="TRUMP_INFO_LEN")
NO_TRUMP_BIT = 16
LOTTERY_VIEW = Layout("kierki lottery view", seat=1, dealer=1, turn=1, base=1, ace_high=1, lo=4, hi=4, left=4,
                      passes=4, place=4, totals=4, deal_no=1, awards=3, params=PARAM_SLOTS)
LOTTERY_VIEW.export(globals(), "L_", size="LOTTERY_INFO_LEN")
INFO_LEN = max(PLAY_INFO_LEN, LOTTERY_INFO_LEN)  # the kernel's one array for the play and lottery views

TRUMPS_CODE = 7
SUIT_ORDER = (3, 2, 1, 0)  # canonical tie-break order S, H, D, C
_SM = SUIT_MASKS
_ALL = np.uint64((1 << 52) - 1)



# ---------------------------------------------------------------- parameters

# Every heuristic built-in declares this one list (defaults per policy), so a decision
# function taken from another policy reads its parameters from the same slots.
P_LENGTH_WEIGHT, P_NT_MAX_LENGTH, P_NT_MIN_ACES, P_TRUMP_SHARE, P_AH_DANGER = range(5)


def heuristic_params(length_weight=100, nt_max_length=2, nt_min_aces=2, trump_share=0.5, ah_danger=0):
    """The parameters of Kierki's heuristic built-ins (defaults: ``basic``)."""
    return (
        PolicyParam("length_weight", length_weight, 0, 100,
                    "trump choice: points per card of a suit, added to its honours A4 K3 Q2 J1 "
                    "(100: longest suit first; 2: the rules' `strongest`)", integer=True),
        PolicyParam("nt_max_length", nt_max_length, 0, 13,
                    "no trumps (allow_no_trump) only if no suit seen is longer than this", integer=True),
        PolicyParam("nt_min_aces", nt_min_aces, 0, 4, "... and at least this many aces are seen", integer=True),
        PolicyParam("trump_share", trump_share, 0.0, 1.0,
                    "trump deals: lead a master trump when holding at least this share of the "
                    "outstanding trumps (0: always)"),
        PolicyParam("ah_danger", ah_danger, 0, 150,
                    "negative deals: extra danger of AH while KH is penalised (it may capture it)", integer=True),
    )


@helper
def _param(info, at, k):
    return param_value(info, at + k)


# ---------------------------------------------------------------- small helpers

@helper
def beats(c, w, trump):
    """Does card ``c`` beat the currently winning card ``w``?"""
    sc, sw = c // 13, w // 13
    if trump >= 0 and sc == trump and sw != trump:
        return True
    return sc == sw and c > w


@helper
def winners_in(mask, w, trump):
    """Cards of ``mask`` that would beat ``w``."""
    out = np.uint64(0)
    m = mask
    while m:
        c = lowest_card(m)
        m &= m - np.uint64(1)
        if beats(c, w, trump):
            out |= bit(c)
    return out


# ---------------------------------------------------------------- random

@policy(SIG)
def random_play(info, masks, rng):
    return random_card_of(masks[M_LEGAL], rng)


@policy(SIG)
def random_trump(info, masks, rng):
    allowed = info[T_ALLOWED]
    n = popcount(np.uint64(allowed))
    k = below(rng, n)
    for s in (0, 1, 2, 3, 4):
        if allowed & (1 << s):
            if k == 0:
                return s if s < 4 else -1
            k -= 1
    return -1


@policy(SIG)
def random_lottery(info, masks, rng):
    return random_card_of(masks[M_LEGAL], rng)


# ---------------------------------------------------------------- negative deals: duck and dump

@helper
def _danger(info, c, ah_bonus):
    """Penalty card ``c`` carries if captured, plus ``ah_bonus`` for AH while KH is penalised."""
    d = -info[I_PEN + c]
    if ah_bonus and c == 38 and info[I_PEN + 37] != 0:  # AH can capture the KH
        d += ah_bonus
    return d


@helper
def _void_others(masks, me, s):
    """How many other seats are known to be void in suit ``s``."""
    v = masks[M_VOIDS]
    n = 0
    for p in range(4):
        if p != me and (v >> np.uint64(4 * p + s)) & np.uint64(1):
            n += 1
    return n


@helper
def _ruff_threat(masks, me, s, trump):
    """Is another seat known void in ``s`` but not known void in trumps?"""
    v = masks[M_VOIDS]
    for p in range(4):
        if p != me and (v >> np.uint64(4 * p + s)) & np.uint64(1) and not (v >> np.uint64(4 * p + trump)) & np.uint64(1):
            return True
    return False


@helper
def _harmless_trick(info):
    """A trick that costs nothing to win and whose winner does not lead a penalised trick.

    Only no_seventh_and_last has such tricks (no card penalties, most tricks free).
    """
    t = info[I_TRICK]
    if info[I_DEAL_TYPE] != 5 or info[I_TRICK_PEN + t] != 0 or t == 13 or info[I_TRICK_PEN + t + 1] != 0:
        return False
    return True


@helper
def _later_all_void(info, masks, s):
    """Are all players still to play in this trick known to be void in suit ``s``?"""
    me = info[I_SEAT]
    for k in range(1, 4 - info[I_N_IN_TRICK]):
        p = (me + k) % 4
        if not (masks[M_VOIDS] >> np.uint64(4 * p + s)) & np.uint64(1):
            return False
    return True


@helper
def _negative_play(info, masks, careful):
    """duck_and_dump (section 10.3); ``careful`` adds void tracking and card counting."""
    hand, legal, played = masks[M_HAND], masks[M_LEGAL], masks[M_PLAYED]
    n = info[I_N_IN_TRICK]
    if popcount(legal) == 1:
        return lowest_card(legal)
    ah = np.int64(_param(info, I_PARAMS, P_AH_DANGER))
    if n == 0:
        best, best_key, fallback = -1, 1 << 40, -1
        for s in SUIT_ORDER:
            mine = legal & _SM[s]
            if mine == 0:
                continue
            low = lowest_card(mine)
            others = _SM[s] & ~played & ~hand
            sure_win = others == 0 or low > highest_card(others)
            if careful:
                # fewest outstanding cards below ours = least chance that everyone ducks under it;
                # suits where opponents are void let them dump penalties on us
                key = popcount(others & (bit(low) - np.uint64(1))) * 64 + popcount(hand & _SM[s]) * 4
                key += _void_others(masks, info[I_SEAT], s) * 512
                key += 0 if _danger(info, low, ah) == 0 else 2048
                if hand & bit(37) and info[I_PEN + 37] != 0:
                    # holding the penalised KH: make a void to discard it on
                    key += popcount(hand & _SM[s]) * 256
            else:
                key = (low % 13) * 16 + popcount(hand & _SM[s])
            if sure_win:
                if fallback < 0 or low % 13 < fallback % 13:
                    fallback = low
                continue
            if key < best_key:
                best, best_key = low, key
        return best if best >= 0 else fallback
    w = info[I_WIN_CARD]
    led = info[I_TRICK_CARDS] // 13
    same = legal & _SM[led]
    if same:
        if careful and _harmless_trick(info):
            return highest_card(same)  # shed a high card while winning costs nothing
        under = same & (bit(w) - np.uint64(1)) if w // 13 == led else same
        if under:
            return highest_card(under)
        if n == 3:
            return highest_card(same)
        if careful:
            # we win unless someone later plays higher: if nobody can, shed the highest
            others = _SM[led] & ~played & ~hand
            if others == 0 or highest_card(others) < lowest_card(same) or _later_all_void(info, masks, led):
                return highest_card(same)
        return lowest_card(same)
    # void: dump the most dangerous card, then the likeliest future winner
    best, best_key = -1, -1
    m = legal
    while m:
        c = lowest_card(m)
        m &= m - np.uint64(1)
        if careful:
            s = c // 13
            below_out = popcount(_SM[s] & ~played & ~hand & (bit(c) - np.uint64(1)))
            key = _danger(info, c, ah) * 64 + below_out * 4 + (3 - min(3, popcount(hand & _SM[s])))
        else:
            key = _danger(info, c, ah) * 16 + c % 13
        if key > best_key or (key == best_key and _canon_before(c, best)):
            best, best_key = c, key
    return best


@helper
def _canon_before(a, b):
    """Is ``a`` before ``b`` in suit order S, H, D, C (same rank)?"""
    return a // 13 > b // 13


# ---------------------------------------------------------------- trump deals: greedy tricks

@helper
def _masters(hand, played, s):
    """Own cards of suit ``s`` that are the highest unplayed card of the suit."""
    others = _SM[s] & ~played & ~hand
    mine = hand & _SM[s]
    if mine == 0:
        return np.uint64(0)
    top = highest_card(others)
    return mine & ~((bit(top) << np.uint64(1)) - np.uint64(1)) if top >= 0 else mine


@helper
def _trump_play(info, masks, careful):
    hand, legal, played = masks[M_HAND], masks[M_LEGAL], masks[M_PLAYED]
    trump = info[I_TRUMP]
    if popcount(legal) == 1:
        return lowest_card(legal)
    n = info[I_N_IN_TRICK]
    if n == 0:
        tmask = _SM[trump] if trump >= 0 else np.uint64(0)
        my_trumps = popcount(legal & tmask)
        out_trumps = popcount(tmask & ~played & ~hand)
        tmast = _masters(hand, played, trump) & legal if trump >= 0 else np.uint64(0)
        share = _param(info, I_PARAMS, P_TRUMP_SHARE)
        if tmast and my_trumps >= share * out_trumps and (not careful or out_trumps > 0):
            return highest_card(tmast)
        for s in SUIT_ORDER:
            if s == trump:
                continue
            m = _masters(hand, played, s) & legal
            if m:
                if careful and trump >= 0 and out_trumps > 0:
                    # a side master is only safe while nobody can ruff it: skip suits that
                    # an opponent has shown out of, or that are nearly exhausted
                    others = _SM[s] & ~played & ~hand
                    if popcount(others) < 2 or _ruff_threat(masks, info[I_SEAT], s, trump):
                        continue
                return highest_card(m)
        if tmast:
            return highest_card(tmast)
        best_s, best_len = -1, -1
        for s in SUIT_ORDER:
            if s == trump:
                continue
            ln = popcount(legal & _SM[s])
            if ln > best_len:
                best_s, best_len = s, ln
        if best_len > 0:
            return lowest_card(legal & _SM[best_s])
        return lowest_card(legal)
    w = info[I_WIN_CARD]
    led = info[I_TRICK_CARDS] // 13
    same = legal & _SM[led]
    if same:
        win = winners_in(same, w, trump)
        if win:
            if careful and n < 3:
                # with players still to come, win only with a card nobody left can beat
                others = _SM[led] & ~played & ~hand
                safe = win & ~((bit(highest_card(others)) << np.uint64(1)) - np.uint64(1)) if others else win
                if safe:
                    return lowest_card(safe)
                return lowest_card(same)
            return lowest_card(win)
        return lowest_card(same)
    tl = legal & _SM[trump] if trump >= 0 else np.uint64(0)
    win = winners_in(tl, w, trump)
    if win:
        return lowest_card(win)
    side = legal & ~tl
    if side == 0:
        return lowest_card(legal)
    best_s, best_len = -1, 99
    for s in SUIT_ORDER:
        ln = popcount(side & _SM[s])
        if 0 < ln < best_len:
            best_s, best_len = s, ln
    return lowest_card(side & _SM[best_s])


@policy(SIG)
def basic_play(info, masks, rng):
    if info[I_DEAL_TYPE] == TRUMPS_CODE:
        return _trump_play(info, masks, False)
    return _negative_play(info, masks, False)


@policy(SIG)
def expert_play(info, masks, rng):
    if info[I_DEAL_TYPE] == TRUMPS_CODE:
        return _trump_play(info, masks, True)
    return _negative_play(info, masks, True)


# ---------------------------------------------------------------- trump choice

@helper
def _choose_trump(info, seen):
    """The suit with most ``length_weight`` x count + honours A4 K3 Q2 J1 among ``seen``, then S H D C;
    no trumps (when allowed) if no suit is longer than ``nt_max_length`` and ``nt_min_aces`` aces are seen."""
    len_weight = np.int64(_param(info, T_PARAMS, P_LENGTH_WEIGHT))
    allowed = info[T_ALLOWED]
    best, best_key = -1, -1
    for s in SUIT_ORDER:
        if not allowed & (1 << s):
            continue
        mine = seen & _SM[s]
        hon = 0
        for r in range(9, 13):
            if mine & bit(s * 13 + r):
                hon += r - 8
        key = popcount(mine) * len_weight + hon
        if key > best_key:
            best, best_key = s, key
    if allowed & NO_TRUMP_BIT:
        longest = 0
        aces = 0
        for s in range(4):
            longest = max(longest, popcount(seen & _SM[s]))
            if seen & bit(s * 13 + 12):
                aces += 1
        if longest <= _param(info, T_PARAMS, P_NT_MAX_LENGTH) and aces >= _param(info, T_PARAMS, P_NT_MIN_ACES):
            return -1
    return best


@policy(SIG)
def basic_trump(info, masks, rng):
    """longest_then_honours (length_weight 100): most cards, then honours A4 K3 Q2 J1, then S H D C."""
    return _choose_trump(info, masks[TM_SEEN])


@policy(SIG)
def oracle_trump(info, masks, rng):
    """oracle_13: the same scoring on the chooser's whole hand (hidden information: an oracle, rules 10.3)."""
    return _choose_trump(info, masks[TM_ORACLE])


# ---------------------------------------------------------------- lottery

@helper
def _pos(c, ace_high):
    r = c % 13
    if ace_high:
        return r
    return 0 if r == 12 else r + 1


@helper
def _beyond(info, hand, c):
    """Own cards of c's suit further out in the direction c extends its row."""
    s = c // 13
    ah = info[L_ACE_HIGH]
    p = _pos(c, ah)
    mine = (hand & _SM[s]) & ~bit(c)
    if info[L_LO + s] < 0:
        return popcount(mine)
    up = p > info[L_HI + s]
    k = 0
    while mine:
        o = lowest_card(mine)
        mine &= mine - np.uint64(1)
        q = _pos(o, ah)
        if (up and q > p) or (not up and q < p):
            k += 1
    return k


@helper
def _unlocks(info, masks, c):
    """Unseen cards (not ours, not on the layout) that playing ``c`` makes playable."""
    s = c // 13
    ah = info[L_ACE_HIGH]
    p = _pos(c, ah)
    free = _SM[s] & ~masks[M_HAND] & ~masks[M_PLAYED]
    k = 0
    lo, hi = info[L_LO + s], info[L_HI + s]
    down = lo < 0 or p < lo
    upward = lo < 0 or p > hi
    for q in (p - 1, p + 1):
        if q < 0 or q > 12 or (q < p and not down) or (q > p and not upward):
            continue
        r = q if ah else (12 if q == 0 else q - 1)
        if free & bit(s * 13 + r):
            k += 1
    return k


@helper
def _lottery_pick(info, masks, blocker):
    hand, legal = masks[M_HAND], masks[M_LEGAL]
    best, best_key = -1, -(1 << 40)
    base = info[L_BASE]
    m = legal
    while m:
        c = lowest_card(m)
        m &= m - np.uint64(1)
        s = c // 13
        opening = info[L_LO + s] < 0
        key = _beyond(info, hand, c) * 4 + (0 if opening else 1)
        if blocker:
            key -= _unlocks(info, masks, c) * 1024
            if opening and base >= 0:
                key -= 256  # hold back the opening cards
        # ties: lower rank first, then suit order S, H, D, C
        if key > best_key or (key == best_key and (c % 13 < best % 13 or (c % 13 == best % 13 and s > best // 13))):
            best, best_key = c, key
    return best


@policy(SIG)
def basic_lottery(info, masks, rng):
    """chain: keep own later plays open (largest `beyond`), prefer non-openers."""
    return _lottery_pick(info, masks, False)


@policy(SIG)
def expert_lottery(info, masks, rng):
    """blocker: unlock as few unseen cards as possible, hold back 7s; ties by chain."""
    return _lottery_pick(info, masks, True)


@policy(SIG)
def eager_lottery(info, masks, rng):
    """eager: open a row (play a 7) first, then the suit with most cards in hand; ties lower rank, then S H D C."""
    hand, legal = masks[M_HAND], masks[M_LEGAL]
    best, best_key = -1, -1
    m = legal
    while m:
        c = lowest_card(m)
        m &= m - np.uint64(1)
        s = c // 13
        key = (64 if info[L_LO + s] < 0 else 0) + popcount(hand & _SM[s])
        if key > best_key or (key == best_key and (c % 13 < best % 13 or (c % 13 == best % 13 and s > best // 13))):
            best, best_key = c, key
    return best


@policy(SIG)
def lowest_play(info, masks, rng):
    """lowest_card: the lowest-ranked legal card; equal ranks by suit order S, H, D, C."""
    legal = masks[M_LEGAL]
    for r in range(13):
        for s in SUIT_ORDER:
            if legal & bit(s * 13 + r):
                return s * 13 + r
    return lowest_card(legal)


DECISIONS = (
    Decision("play", SIG, "a card for the current trick (negative and trump deals)"),
    Decision("trump", SIG, "the trump suit (0 C, 1 D, 2 H, 3 S, -1 no trumps) from the first cards"),
    Decision("lottery", SIG, "a card for the Fan Tan layout (asked only with 2+ legal cards)"),
)

RANDOM = Policy("random", play=random_play, trump=random_trump, lottery=random_lottery,
                help="random_legal: a uniformly random legal card or suit in every decision")
BASIC = Policy("basic", play=basic_play, trump=basic_trump, lottery=basic_lottery, params=heuristic_params(),
               help="the rules' heuristics: duck_and_dump, greedy_tricks, longest_then_honours, chain")
EXPERT = Policy("expert", play=expert_play, trump=basic_trump, lottery=expert_lottery,
                params=heuristic_params(length_weight=5, trump_share=0.0, ah_danger=5),
                help="careful play (voids, card counting), 5 x count + honours trumps, blocker lottery")
# the named heuristics of rules 10.3 that differ from basic in one decision (the rest is basic's)
STRONGEST = Policy("strongest", base=BASIC, params=heuristic_params(length_weight=2),
                   help="trumps by 2 x count + honour points (rules 10.3 `strongest`); play and lottery as basic")
RANDOM_SUIT = Policy("random_suit", base=BASIC, trump=random_trump,
                     help="a random allowed trump suit (baseline); play and lottery as basic")
ORACLE_13 = Policy("oracle_13", base=BASIC, trump=oracle_trump, params=heuristic_params(length_weight=2),
                   help="ORACLE: strongest's scoring on all 13 cards, which the chooser has not seen (upper bound)")
EAGER = Policy("eager", base=BASIC, lottery=eager_lottery,
               help="lottery: open rows (7s) first, then the longest suit; trick deals as basic")
BLOCKER = Policy("blocker", base=BASIC, lottery=expert_lottery,
                 help="lottery: unlock the fewest unseen cards, hold back 7s, ties by chain; trick deals as basic")
LOWEST_CARD = Policy("lowest_card", base=BASIC, play=lowest_play,
                     help="trick deals: always the lowest legal card (baseline); trumps and lottery as basic")

BUILTINS = {p.name: p for p in (RANDOM, BASIC, EXPERT, STRONGEST, RANDOM_SUIT, ORACLE_13, EAGER, BLOCKER, LOWEST_CARD)}
ORACLE_TRUMPS = (oracle_trump,)  # trump functions that are given the whole hand (masks[TM_ORACLE])
CATALOG = PolicyCatalog("kierki", DECISIONS, BUILTINS, max_seats=4,
                        params_at={"trump": T_PARAMS, "lottery": L_PARAMS})  # a bidder's slots (PolicyCatalog.table)
_SUITS = {-1: "no trumps", 0: "clubs", 1: "diamonds", 2: "hearts", 3: "spades"}
FORMATS = {"play": format_card, "lottery": format_card, "trump": lambda v: _SUITS[v]}  # answers in error lines
