"""Cutthroat Spades decisions and the built-in policies ``random``, ``basic``, ``expert``.

Every decision function has the signature ``f(view, masks, rng) -> int64`` (see
:mod:`simcards.games.cutthroat.layout` for the state view, the bid codes and what each
decision returns). Decisions:

- ``blind``: offered the blind bids the seat may make (``masks[M_LEGAL]``) before it
  looks at its hand (``masks[M_HAND]`` is 0): return B6/BN, or -1 to look first.
- ``bid``: the hand is seen; return one of the legal bid codes.
- ``play``: return one card of ``masks[M_LEGAL]`` (only called with two or more choices).
- ``redeal``: with an optional misdeal condition, 1 calls a redeal, 0 keeps the hand.

A user policy is ``simcards.Policy("mine", base=<builtin>, play=my_play)`` in the
user's file; each function is plain Python using numpy and the layout constants.
"""

import numpy as np
from numba import types

from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from simcards.core.jit import inline, policy
from simcards.core.cards import bit, format_card, lowest_card, popcount
from simcards.core.policy import Decision, Policy, PolicyCatalog, PolicyParam, param_value, with_defaults
from simcards.core.rng import below, random_card_of, uniform
from simcards.core.tricks import SUIT_MASKS_JOKERS_AS_SPADES
from simcards.games.cutthroat import layout as _layout
from simcards.games.cutthroat.layout import (
    BAG_MODE, B_1F, B_2F, B_B6, B_BN, B_SM, DECLINE, M_DECK, M_HAND, M_LEGAL, M_PLAYED, MAX_SEATS,
    NIL, V_B6_TRICKS, V_BAG_LIMIT, V_BAG_MODE, V_BAGS, V_BID, V_LED_SUIT, V_MAX_BID,
    V_N, V_NPLAYED, V_PARAMS, V_SCORE, V_SEAT, V_SITOUT, V_SM_MIN, V_T, V_TARGET, V_TRICK, V_TRICKS,
    V_TRICK_SEAT, V_WIN_CARD, V_WIN_SEAT,
)

SIG = types.int64(types.int64[:], types.uint64[:], types.uint64[:])
SUITS = SUIT_MASKS_JOKERS_AS_SPADES
TRUMPS = SUITS[3]
SIDE_ACES = np.uint64((1 << 12) | (1 << 25) | (1 << 38))

DECISIONS = (
    Decision("blind", SIG, "Blind bid (B6/BN) before looking at the hand, or -1 to look first."),
    Decision("bid", SIG, "Bid code after looking at the hand."),
    Decision("play", SIG, "Card to play, one of masks[M_LEGAL]."),
    Decision("redeal", SIG, "Deficient hand (optional misdeal): 1 = redeal, 0 = keep."),
)



# ---------------------------------------------------------------- helpers


@inline
def highest_card(x):
    """Highest card of a mask (-1 if empty), with the CPU's bit-scan (no branches on the value)."""
    return np.int64(63 - leading_zeros(x)) if x else -1


@inline
def lowest_of(x):
    """Lowest card of a non-empty mask, with the CPU's bit-scan."""
    return np.int64(trailing_zeros(x))


@inline
def weakest(cards):
    """The card of lowest strength: the lowest-ranked side card, else the lowest trump."""
    best = -1
    best_rank = 99
    for su in range(3):
        m = cards & SUITS[su]
        if m:
            c = lowest_of(m)
            if c - 13 * su < best_rank:
                best_rank = c - 13 * su
                best = c
    if best < 0:
        best = lowest_of(cards & TRUMPS)
    return best


@inline
def strongest(cards):
    """The card of highest strength: the highest trump, else the highest-ranked side card."""
    if cards & TRUMPS:
        return highest_card(cards & TRUMPS)
    best = -1
    best_rank = -1
    for su in range(3):
        m = cards & SUITS[su]
        if m:
            c = highest_card(m)
            if c - 13 * su > best_rank:
                best_rank = c - 13 * su
                best = c
    return best


# The helpers take scalars, not the view arrays: an array handed to a helper costs
# reference counting that, in a branchy policy, can cost more than the policy itself.


@inline
def winners(legal, best, led):
    """Cards of ``legal`` beating ``best``, the card winning the trick (all when ``best`` < 0).

    ``led`` is the effective suit led; ``best`` is of that suit or a trump.
    """
    if best < 0:
        return legal
    above = ~((bit(best) << np.uint64(1)) - np.uint64(1))
    if bit(best) & TRUMPS:
        return legal & TRUMPS & above
    return (legal & SUITS[led] & above) | (legal & TRUMPS)


@inline
def bosses(cards, unseen):
    """Cards of ``cards`` higher than every ``unseen`` card (held by others) of their effective suit."""
    res = np.uint64(0)
    for su in range(4):
        mine = cards & SUITS[su]
        if mine:
            top = highest_card(mine)
            if highest_card(unseen & SUITS[su]) < top:
                res |= bit(top)
    return res


@inline
def tricks_wanted(code, won, b6_tricks, sm_min):
    """Tricks a bid still wants (> 0), or 0 when its player should now avoid tricks."""
    if code == NIL or code == B_BN:
        return 0
    if code == B_1F:
        return max(0, 1 - won)
    if code == B_2F:
        return max(0, 2 - won)
    if code == B_B6:
        return max(0, b6_tricks - won)
    if code == B_SM:
        return max(0, sm_min - won)
    return max(0, code - won)


@inline
def need(view, seat):
    """Tricks ``seat`` still wants, read from the view (see :func:`tricks_wanted`)."""
    return tricks_wanted(view[V_BID + seat], view[V_TRICKS + seat], view[V_B6_TRICKS], view[V_SM_MIN])


@inline
def last_to_play(n, sitout, nplayed):
    """Whether the player with ``nplayed`` cards before him plays the trick's last card."""
    players = n - 1 if sitout >= 0 else n
    return nplayed == players - 1


@inline
def nearest_legal(legal, k):
    """Ordinary bid ``k`` if legal, else the closest legal ordinary bid, else any legal bid."""
    for d in range(18):
        for cand in (k - d, k + d):
            if 1 <= cand <= 17 and (legal & bit(cand)):
                return cand
    return lowest_card(legal)


@inline
def estimate_tricks(hand, n, tricks):
    """A quick count of the tricks a hand should take (top cards, trump length, shortness)."""
    est = 0.0
    trumps = hand & TRUMPS
    t_len = popcount(trumps)
    # top trumps: jokers, A, K, Q, J of spades by position from the top
    rank_pos = 0
    for c in range(54, 38, -1):
        if not (trumps & bit(c)):
            continue
        if c >= 51:
            est += 1.0
        elif c == 50:
            est += 0.9 if t_len >= 2 else 0.4
        elif c == 49:
            est += 0.7 if t_len >= 3 else 0.2
        elif c == 48:
            est += 0.4 if t_len >= 4 else 0.1
        rank_pos += 1
    per_seat = tricks / n
    long_start = 3 if per_seat < 5 else 4
    if t_len > long_start:
        est += 0.8 * (t_len - long_start)
    for su in range(3):
        side = hand & SUITS[su]
        length = popcount(side)
        if side & bit(13 * su + 12):
            est += 1.0 if length <= 5 else 0.8
        if side & bit(13 * su + 11):
            est += (0.8 if side & bit(13 * su + 12) else 0.55) if length >= 2 else 0.2
        if (side & bit(13 * su + 10)) and length >= 3:
            est += 0.3
        if length <= 1 and t_len >= 3:
            est += 0.5 if length == 0 else 0.25
    return est


@inline
def calibrated(count, n, tricks):
    """:func:`estimate_tricks`' ``count`` scaled to the form: long hands (3 players, 17 cards)
    take more tricks than their top cards suggest, short 5-player hands fewer (fitted to
    basic-vs-basic play)."""
    share = tricks / n
    return (0.22 * share - 0.15) + (0.55 + 0.14 * share) * count


@inline
def expected_tricks(hand, n, tricks):
    """The hand count scaled to the form (:func:`calibrated`)."""
    return calibrated(estimate_tricks(hand, n, tricks), n, tricks)


# ---------------------------------------------------------------- random


@policy(SIG)
def random_blind(view, masks, rng):
    """Bid blind one time in ten, uniformly among the offered blind bids."""
    if uniform(rng) < 0.9:
        return DECLINE
    return random_card_of(masks[M_LEGAL], rng)


@policy(SIG)
def random_bid(view, masks, rng):
    """A uniformly random legal bid."""
    return random_card_of(masks[M_LEGAL], rng)


@policy(SIG)
def random_play(view, masks, rng):
    """A uniformly random legal card."""
    return random_card_of(masks[M_LEGAL], rng)


@policy(SIG)
def keep_hand(view, masks, rng):
    """Never call an optional redeal."""
    return 0


@policy(SIG)
def random_redeal(view, masks, rng):
    """Call an optional redeal half the time."""
    return below(rng, 2)


# ---------------------------------------------------------------- basic


@policy(SIG)
def never_blind(view, masks, rng):
    """Always look at the hand first."""
    return DECLINE


# basic's parameters (defaults: the constants it always used)
P_BASIC_NIL_BELOW, P_BASIC_MARGIN = 0, 1
BASIC_PARAMS = (
    PolicyParam("nil_below", 0.6, 0.0, 17.0, "Nil when the trick estimate is below this (and no spade above TS)"),
    PolicyParam("margin", 0.5, -2.0, 2.0, "bid int(trick estimate - margin): lower bids more"),
)


@policy(SIG)
def basic_bid(view, masks, rng):
    """Round the trick estimate to an ordinary bid; Nil with a weak hand; SM with a huge one."""
    hand = masks[M_HAND]
    legal = masks[M_LEGAL]
    est = expected_tricks(hand, view[V_N], view[V_T])
    if (est < param_value(view, V_PARAMS + P_BASIC_NIL_BELOW) and (legal & bit(NIL))
            and (hand & TRUMPS & ~((bit(48)) - np.uint64(1))) == 0):
        return NIL
    k = max(1, np.int64(est - param_value(view, V_PARAMS + P_BASIC_MARGIN)))
    if k >= view[V_SM_MIN] + 1 and (legal & bit(B_SM)):
        return B_SM
    return nearest_legal(legal, min(k, view[V_MAX_BID]))


@inline
def play_to_win(legal, unseen, best, led, leading, last):
    """Take the trick cheaply: a boss lead, or the lowest card that wins; else throw the weakest."""
    if leading:
        top = bosses(legal, unseen) & ~TRUMPS
        if top:
            return strongest(top)
        return weakest(legal)
    win = winners(legal, best, led)
    if win:
        if last:
            return weakest(win)
        safe = bosses(win, unseen)
        if safe:
            return weakest(safe)
        return strongest(win) if popcount(win) <= 2 else weakest(win)
    return weakest(legal)


@inline
def play_to_lose(legal, best, led):
    """Avoid the trick: the highest card that does not win; if every card wins, the highest."""
    if best < 0:
        return weakest(legal)
    lose = legal & ~winners(legal, best, led)
    if lose:
        return strongest(lose)
    return strongest(legal)


@policy(SIG)
def basic_play(view, masks, rng):
    """Win tricks until the bid is made, then duck (Nil: always duck)."""
    legal = masks[M_LEGAL]
    best = view[V_WIN_CARD]
    led = view[V_LED_SUIT]
    if need(view, view[V_SEAT]) > 0:
        nplayed = view[V_NPLAYED]
        unseen = masks[M_DECK] & ~masks[M_PLAYED] & ~masks[M_HAND]
        return play_to_win(legal, unseen, best, led, nplayed == 0,
                           last_to_play(view[V_N], view[V_SITOUT], nplayed))
    return play_to_lose(legal, best, led)


# ---------------------------------------------------------------- expert


@inline
def leader_gap(view):
    """(best opponent score - own score, best opponent seat, best opponent score)."""
    seat = view[V_SEAT]
    best = -(1 << 62)
    best_seat = -1
    for s in range(view[V_N]):
        if s != seat and view[V_SCORE + s] > best:
            best = view[V_SCORE + s]
            best_seat = s
    return best - view[V_SCORE + seat], best_seat, best


# expert's parameters (defaults: the constants it always used)
P_NIL_LIMIT, P_NIL_LIMIT_LONG, P_MARGIN, P_BAGOUT_MARGIN, P_MOON_MARGIN, P_B6_DEFICIT, P_LATE_WITHIN, P_BN_DEFICIT = range(8)
EXPERT_PARAMS = (
    PolicyParam("nil_limit", 1.6, 0.0, 17.0, "Nil when the raw trick count is below this and the hand is Nil-safe"),
    PolicyParam("nil_limit_long", 1.0, 0.0, 17.0, "nil_limit with 17-card hands (3 players)"),
    PolicyParam("margin", 0.7, -2.0, 2.0, "bid int(trick estimate + 0.5 - margin): lower bids more"),
    PolicyParam("bagout_margin", 0.3, -2.0, 2.0, "margin within 3 bags of a bag-out (bag_mode=accumulate)"),
    PolicyParam("moon_margin", 1.0, -17.0, 17.0, "shoot the moon when the estimate reaches its tricks + this"),
    PolicyParam("b6_deficit", 100, 0, 10000, "blind six when behind the leader by at least this (or late)", integer=True),
    PolicyParam("late_within", 150, 0, 10000, "late: the leader within this of the target (blind six then too)",
                integer=True),
    PolicyParam("bn_deficit", 250, 0, 10000,
                "blind nil (5-player hands only) when behind by at least this, the leader within 80 of the target",
                integer=True),
)


@policy(SIG)
def expert_blind(view, masks, rng):
    """Gamble blind only when behind late in the game: B6 where 6 tricks are likely, BN when desperate."""
    legal = masks[M_LEGAL]
    gap, _, best = leader_gap(view)
    per_seat = view[V_T] / view[V_N]
    late = best >= view[V_TARGET] - param_value(view, V_PARAMS + P_LATE_WITHIN)
    if ((legal & bit(B_B6)) and view[V_B6_TRICKS] <= per_seat + 0.5
            and (gap >= param_value(view, V_PARAMS + P_B6_DEFICIT) or late)):
        return B_B6
    if ((legal & bit(B_BN)) and per_seat <= 2.5 and gap >= param_value(view, V_PARAMS + P_BN_DEFICIT)
            and best >= view[V_TARGET] - 80):
        return B_BN  # only short (5-player) hands ever escape every trick blind
    return DECLINE


@inline
def nil_safe(hand):
    """A hand to bid Nil with: no high trump, short trumps, no unguarded high side card."""
    trumps = hand & TRUMPS
    if popcount(trumps) > 3 or (trumps & ~(bit(47) - np.uint64(1))):  # nothing above TS
        return False
    for su in range(3):
        side = hand & SUITS[su]
        length = popcount(side)
        high = side & ~(bit(13 * su + 9) - np.uint64(1))  # J or above
        if popcount(high) > max(0, length - 3):
            return False
    return True


@policy(SIG)
def expert_bid(view, masks, rng):
    """Nil with a safe hand; 1F/2F when one or two sure winners sit in an otherwise Nil-safe
    hand; SM with a huge hand; else the calibrated count, bid up when near a bag-out."""
    hand = masks[M_HAND]
    legal = masks[M_LEGAL]
    seat = view[V_SEAT]
    est = expected_tricks(hand, view[V_N], view[V_T])
    # 17-card hands (3 players) rarely escape the extra tricks: stricter Nil, no 1F/2F
    long_hands = view[V_T] > 5 * view[V_N]
    nil_limit = param_value(view, V_PARAMS + (P_NIL_LIMIT_LONG if long_hands else P_NIL_LIMIT))
    if (legal & bit(NIL)) and estimate_tricks(hand, view[V_N], view[V_T]) < nil_limit and nil_safe(hand):
        return NIL
    if est >= view[V_SM_MIN] + param_value(view, V_PARAMS + P_MOON_MARGIN) and (legal & bit(B_SM)):
        return B_SM
    sure = hand & (SIDE_ACES | (TRUMPS & ~(bit(50) - np.uint64(1))))  # side aces, AS, jokers
    n_sure = popcount(sure)
    if n_sure == 1 and (legal & bit(B_1F)) and not long_hands and nil_safe(hand & ~sure):
        return B_1F
    if n_sure == 2 and (legal & bit(B_2F)) and not long_hands and nil_safe(hand & ~sure):
        return B_2F
    margin = param_value(view, V_PARAMS + P_MARGIN)
    if view[V_BAG_MODE] == BAG_MODE.ACCUMULATE and view[V_BAGS + seat] >= view[V_BAG_LIMIT] - 3:
        margin = param_value(view, V_PARAMS + P_BAGOUT_MARGIN)  # close to a bag-out: bid up
    k = max(1, np.int64(est + 0.5 - margin))
    return nearest_legal(legal, min(k, view[V_MAX_BID]))


@inline
def set_target(view):
    """Opponent worth setting: the top scorer among those still short of an at-least bid."""
    seat = view[V_SEAT]
    target = -1
    best = -(1 << 62)
    for s in range(view[V_N]):
        if s == seat:
            continue
        code = view[V_BID + s]
        if code == NIL or code == B_BN or code == B_1F or code == B_2F:
            continue
        if need(view, s) > 0 and view[V_SCORE + s] > best:
            best = view[V_SCORE + s]
            target = s
    return target


@inline
def nil_victim(view):
    """An opponent on Nil/BN who has not taken a trick yet (-1 if none)."""
    seat = view[V_SEAT]
    for s in range(view[V_N]):
        code = view[V_BID + s]
        if s != seat and (code == NIL or code == B_BN) and view[V_TRICKS + s] == 0:
            return s
    return -1


@inline
def yet_to_play(view, s):
    """Whether seat ``s`` still plays to the current trick after the acting seat."""
    for i in range(view[V_NPLAYED]):
        if view[V_TRICK_SEAT + i] == s:
            return False
    return s != view[V_SITOUT] and s != view[V_SEAT]


@policy(SIG)
def expert_play(view, masks, rng):
    """Make the bid, then duck; but spend spare tricks to set the leader or a Nil bidder."""
    legal = masks[M_LEGAL]
    seat = view[V_SEAT]
    best = view[V_WIN_CARD]
    led = view[V_LED_SUIT]
    nplayed = view[V_NPLAYED]
    unseen = masks[M_DECK] & ~masks[M_PLAYED] & ~masks[M_HAND]
    if need(view, seat) > 0:
        return play_to_win(legal, unseen, best, led, nplayed == 0,
                           last_to_play(view[V_N], view[V_SITOUT], nplayed))
    code = view[V_BID + seat]
    exact = code == NIL or code == B_BN or code == B_1F or code == B_2F
    if not exact:
        victim = nil_victim(view)
        if victim >= 0 and view[V_WIN_SEAT] == victim:
            lose = legal & ~winners(legal, best, led)
            if lose:
                return strongest(lose)  # leave the Nil bidder on top
        target = set_target(view)
        if target >= 0:
            remaining = view[V_T] - view[V_TRICK]
            if need(view, target) * view[V_N] >= remaining:  # the target's bid is in reach of a set
                if view[V_WIN_SEAT] == target or (nplayed > 0 and yet_to_play(view, target)):
                    win = winners(legal, best, led)
                    if win:
                        safe = bosses(win, unseen)
                        if safe:
                            return weakest(safe)
                        if view[V_WIN_SEAT] == target:
                            return weakest(win)
    return play_to_lose(legal, best, led)


@policy(SIG)
def expert_redeal(view, masks, rng):
    """Redeal a deficient hand unless it is a good Nil hand."""
    return 0 if nil_safe(masks[M_HAND]) else 1


def _builtins():
    random = Policy("random", blind=random_blind, bid=random_bid, play=random_play, redeal=random_redeal,
                    help="uniformly random legal bids and cards (blind one time in ten)")
    basic = Policy("basic", blind=never_blind, bid=basic_bid, play=basic_play, redeal=keep_hand, params=BASIC_PARAMS,
                   help="rounded trick estimate, Nil on weak hands, wins until the bid is made then ducks")
    expert = Policy("expert", base=basic, blind=expert_blind, bid=expert_bid, play=expert_play,
                    redeal=expert_redeal, params=EXPERT_PARAMS,
                    help="calibrated estimate, Nil/1F/2F/SM/B6/BN by hand and score, sets the leader and Nil bidders")
    # bidding styles (docs/games/cutthroat.md, rules 10.10): expert's play with other bidding defaults
    aggressive = Policy("aggressive", base=expert, params=with_defaults(
        EXPERT_PARAMS, nil_limit=2.0, nil_limit_long=1.3, margin=0.4, bagout_margin=0.1, moon_margin=0.5,
        b6_deficit=50, late_within=200, bn_deficit=200),
        help="expert bidding up: higher ordinary bids, Nil and moon on weaker evidence, blind bids earlier")
    conservative = Policy("conservative", base=expert, params=with_defaults(
        EXPERT_PARAMS, nil_limit=1.2, nil_limit_long=0.7, margin=1.0, bagout_margin=0.6, moon_margin=1.5,
        b6_deficit=200, late_within=100, bn_deficit=400),
        help="expert bidding down: lower ordinary bids, Nil and moon only on clear hands, blind bids rarely")
    return {p.name: p for p in (random, basic, expert, aggressive, conservative)}


BUILTINS = _builtins()
CATALOG = PolicyCatalog("cutthroat", DECISIONS, BUILTINS, MAX_SEATS, params_at=V_PARAMS)
FORMATS = {"blind": _layout.bid_name, "bid": _layout.bid_name, "play": format_card}  # answers in error lines
