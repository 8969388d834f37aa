"""Spades decisions, the state view policies see, and the built-in policies.

Every decision function has the same signature ``SIG = int64(int64[:], uint64[:])``:
``f(view, rng) -> int``. ``view`` is the read-only *state view* below, filled by the
kernel with what the deciding seat may know (docs/games/spades.md, rule 3.6: public information plus its
own hand and its own exchange cards, never another seat's hand); ``rng`` is the
seat's own random stream for ``simcards.core.rng`` helpers. Card sets are ``uint64``
masks stored in int64 slots (bit ``card``; cards as in ``simcards.core.cards``, with
LJ = 52 and BJ = 54 in the joker deck): use ``np.uint64(view[V_HAND])``.

State view layout (index constants, ``view[V_BID + seat]`` for per-seat blocks):

====================  =====================================================================
``V_SEAT``            the seat deciding (0..3; partner = seat ^ 2, team = seat & 1)
``V_DEALER``          dealer of this hand
``V_HAND``            own current hand (0 in the ``blind`` decision: the hand is unseen)
``V_LEGAL``           play: legal cards; bid: legal bids as bits (bit b = bid b, bit 0 =
                      Nil, bit 14 = BN); exchange: the cards to choose from (own hand)
``V_COUNT``           exchange: number of cards to give
``V_ROLE``            exchange: 0 = the Nil/BN bidder, 1 = its partner
``V_GIVEN``           cards this seat gave in the exchange (private)
``V_RECEIVED``        cards this seat received in the exchange (private)
``V_TRICK``           trick number 0..12
``V_LEADER``          leader of the current trick
``V_NPLAYED``         cards already played to the current trick (0 = this seat leads)
``V_LED_SUIT``        effective suit led (0 C, 1 D, 2 H, 3 S; -1 when leading)
``V_WIN_SEAT``        seat currently winning the trick (-1 when leading)
``V_WIN_CARD``        card currently winning the trick (-1 when leading)
``V_BROKEN``          1 once spades are broken
``V_PLAYED``          every card played this hand, current trick included
``V_DECK``            the deck in use (52 cards)
``V_SUITS + s``       effective-suit masks (jokers are in ``V_SUITS + 3``, spades)
``V_TABLE + seat``    card played by that seat to the current trick, -1 if none yet
``V_BID + seat``      bid (-1 = not yet, 0 = Nil or BN, 1..13)
``V_BLIND + seat``    1 when that seat's 0 is a Blind Nil
``V_TRICKS + seat``   tricks won so far this hand
``V_VOIDS + seat``    bit s set once that seat failed to follow suit s (public)
``V_SCORE + team``    team scores at the start of the hand (team 0 = seats 0 and 2)
``V_BAGS + team``     team bag counters at the start of the hand
``V_EXCHANGE + team`` cards exchanged each way by that team this hand (0 = none)
``V_TARGET``          target score; ``V_BAG_LIMIT``, ``V_NIL_VALUE``, ``V_BN_VALUE`` alike
``V_TEN_MIN_BID``     10-for-200 (5.5): its smallest contract, 0 when off; ``V_TEN_SET_DOUBLED``
                      1 when a set contract loses double too
``V_FAILED_NIL_TRICKS`` a failed Nil's tricks (5.4): 0 bags, 1 its partner's contract (bags when
                      the partner bid Nil too), 2 nothing
``V_HANDS_PLAYED``    hands already played in this game
``V_PARAMS + k``      the deciding seat's policy parameter k in fixed point: read it with
                      ``param_value(view, V_PARAMS + k)`` (k-th declared ``PolicyParam``)
``V_PLAYED_BY + seat`` cards that seat has played this hand (public; current trick included)
``V_HISTORY + k``     the cards played this hand in order (public): play ``i`` (0 = the opening
                      lead) is ``(view[V_HISTORY + i // 10] >> (6 * (i % 10))) & 63``
                      (:func:`history_card`); ``popcount(view[V_PLAYED])`` plays are logged, and
                      the seat of each is the one whose ``V_PLAYED_BY`` holds the card
====================  =====================================================================

Decisions: ``blind`` (1 = bid Blind Nil; asked only when BN is legal, before the hand
is seen), ``bid`` (0..13), ``exchange`` (mask of exactly ``V_COUNT`` cards of
``V_LEGAL``), ``play`` (a card of ``V_LEGAL``), ``misdeal`` (1 = call the optional
deficient-hand redeal). An illegal answer stops the run with an error naming the seat.
"""

import numba as nb
import numpy as np
from numba import types

from simcards.core.jit import helper, inline, policy
from simcards.core.cards import bit, highest_card, lowest_card, popcount
from simcards.core.policy import PARAM_SLOTS, Decision, Layout, Policy, PolicyParam, param_value, with_defaults
from simcards.core.rng import below, random_card_of

SIG = types.int64(types.int64[:], types.uint64[:])

# the state view, declared once: offsets are generated (V_SEAT = 0, ..., VIEW_LEN = 73)
VIEW = Layout("spades view", size=73,
              seat=1, dealer=1, hand=1, legal=1, count=1, role=1, given=1, received=1,
              trick=1, leader=1, nplayed=1, led_suit=1, win_seat=1, win_card=1, broken=1,
              played=1, deck=1, suits=4, table=4, bid=4, blind=4, tricks=4, voids=4,
              score=2, bags=2, exchange=2, target=1, bag_limit=1, nil_value=1, bn_value=1,
              hands_played=1, params=PARAM_SLOTS, played_by=4, history=6,
              ten_min_bid=1, ten_set_doubled=1,  # 10-for-200 (5.5): its smallest contract, 0 when off
              failed_nil_tricks=1)  # 5.4: 0 bags, 1 the partner's contract, 2 ignored
VIEW.export(globals(), "V_", size="VIEW_LEN")
HISTORY_BITS = 6  # bits of one logged card in the V_HISTORY slots
HISTORY_PER_SLOT = 10  # logged cards per V_HISTORY slot (60 bits: the slot stays non-negative)
HISTORY_SLOTS = VIEW.length["history"]

BN_BIT = 14  # bit of the legal-bid mask that stands for Blind Nil

DECISIONS = (
    Decision("blind", SIG, "Before seeing the hand: 1 to bid Blind Nil, 0 to look at the cards"),
    Decision("bid", SIG, "Bid 0 (Nil) .. 13, one of the bits of view[V_LEGAL]"),
    Decision("exchange", SIG, "Mask of exactly view[V_COUNT] cards of view[V_LEGAL] to pass to the partner"),
    Decision("play", SIG, "A card of view[V_LEGAL]"),
    Decision("misdeal", SIG, "Deficient hand (optional misdeal rule): 1 to call a redeal"),
)

_ONE = np.uint64(1)


# ---------------------------------------------------------------- helpers for policies


@inline(nb.int64(nb.int64[:], nb.int64))
def history_card(view, i):
    """Play ``i`` of the hand (0 = the opening lead) from the ``V_HISTORY`` slots."""
    return (view[V_HISTORY + i // HISTORY_PER_SLOT] >> (HISTORY_BITS * (i % HISTORY_PER_SLOT))) & 63


@inline(nb.int64(nb.int64))
def rank_value(c):
    """Rank of a card for comparisons across suits: 2 = 0 .. A = 12, LJ = 13, BJ = 15."""
    if c >= 52:
        return c - 39
    return c - 13 * (c // 13)


@helper(nb.int64(nb.uint64, nb.int64[:], nb.boolean))
def lowest_by_rank(cards, view, avoid_trumps):
    """The lowest-ranked card of ``cards`` (ties: the suit with fewer cards); trumps last if asked."""
    best = -1
    best_key = 1 << 30
    for s in range(4):
        m = cards & np.uint64(view[V_SUITS + s])
        if m == 0:
            continue
        c = lowest_card(m)
        key = rank_value(c) * 64 + popcount(m)
        if avoid_trumps and s == 3:
            key += 1 << 20
        if key < best_key:
            best_key = key
            best = c
    return best


@helper(nb.int64(nb.uint64, nb.int64[:], nb.boolean))
def highest_by_rank(cards, view, avoid_trumps):
    """The highest-ranked card of ``cards`` (ties: the shorter suit); trumps last if asked."""
    best = -1
    best_key = -(1 << 30)
    for s in range(4):
        m = cards & np.uint64(view[V_SUITS + s])
        if m == 0:
            continue
        c = highest_card(m)
        key = rank_value(c) * 64 - popcount(m)
        if avoid_trumps and s == 3:
            key -= 1 << 20
        if key > best_key:
            best_key = key
            best = c
    return best


@inline(nb.int64(nb.int64, nb.int64[:]))
def suit_in_view(c, view):
    """Effective suit of card ``c``."""
    if c >= 52:
        return 3
    return c // 13


@inline(nb.boolean(nb.int64, nb.int64, nb.int64[:]))
def beats(c, best, view):
    """Whether ``c`` beats the card ``best`` that is winning the trick (spades trump)."""
    sc = suit_in_view(c, view)
    sb = suit_in_view(best, view)
    if sc == sb:
        return c > best
    return sc == 3


@inline(nb.uint64(nb.uint64, nb.int64, nb.int64[:]))
def winners_over(cards, best, view):
    """The cards of ``cards`` that would beat ``best`` (the card now winning the trick)."""
    sb = suit_in_view(best, view)
    above = cards & np.uint64(view[V_SUITS + sb]) & ~((bit(best) << _ONE) - _ONE)
    if sb != 3:
        above |= cards & np.uint64(view[V_SUITS + 3])
    return above


@helper(nb.int64(nb.uint64, nb.int64))
def nearest_legal_bid(legal_bids, want):
    """The legal number bid (or Nil when only that is left) closest to ``want``, ties upward."""
    for d in range(14):
        up = want + d
        if 1 <= up <= 13 and (legal_bids >> np.uint64(up)) & _ONE:
            return up
        down = want - d
        if 1 <= down <= 13 and (legal_bids >> np.uint64(down)) & _ONE:
            return down
    return 0


@helper(nb.uint64(nb.uint64, nb.int64, nb.int64[:], nb.boolean))
def pick_cards(cards, k, view, highest):
    """``k`` cards of ``cards`` by rank: the highest (trumps first) or the lowest (trumps last)."""
    out = np.uint64(0)
    rest = cards
    for _ in range(k):
        if highest:
            trumps = rest & np.uint64(view[V_SUITS + 3])
            c = highest_card(trumps) if trumps else highest_by_rank(rest, view, False)
        else:
            c = lowest_by_rank(rest, view, True)
        out |= bit(c)
        rest &= ~bit(c)
    return out


@inline(nb.int64(nb.uint64, nb.int64, nb.int64[:]))
def highest_below(cards, best, view):
    """Highest card of ``cards`` that does not beat ``best``; -1 if every card beats it."""
    sb = suit_in_view(best, view)
    under = cards & np.uint64(view[V_SUITS + sb]) & ((bit(best)) - _ONE)
    if under:
        return highest_card(under)
    if sb == 3:
        return -1
    other = cards & ~np.uint64(view[V_SUITS + sb]) & ~np.uint64(view[V_SUITS + 3])
    if other:
        return highest_by_rank(other, view, True)
    return -1


@helper(nb.int64(nb.int64[:], nb.uint64, nb.uint64))
def nil_play(view, legal, hand):
    """Play of a Nil bidder: stay under the winning card, shed high cards when safe."""
    trumps_m = np.uint64(view[V_SUITS + 3])
    if view[V_NPLAYED] == 0:
        return lowest_by_rank(legal, view, True)
    best = view[V_WIN_CARD]
    led = view[V_LED_SUIT]
    follow = legal & np.uint64(view[V_SUITS + led])
    if follow:
        c = highest_below(follow, best, view)
        if c >= 0:
            return c
        if view[V_NPLAYED] == 3:
            return highest_card(follow)
        return lowest_card(follow)
    side = legal & ~trumps_m
    if side:
        return highest_by_rank(side, view, True)
    c = highest_below(legal, best, view)
    if c >= 0:
        return c
    return highest_card(legal) if view[V_NPLAYED] == 3 else lowest_card(legal)


# ---------------------------------------------------------------- random: uniform legal


@policy(SIG)
def random_blind(view, rng):
    # BN is one of the 15 bids BN, Nil, 1..13: take it with probability 1/15
    return 1 if below(rng, 15) == 0 else 0


@policy(SIG)
def random_bid(view, rng):
    legal = np.uint64(view[V_LEGAL]) & np.uint64((1 << 14) - 1)
    return random_card_of(legal, rng)


@policy(SIG)
def random_exchange(view, rng):
    rest = np.uint64(view[V_LEGAL])
    out = np.uint64(0)
    for _ in range(view[V_COUNT]):
        c = random_card_of(rest, rng)
        out |= bit(c)
        rest &= ~bit(c)
    return np.int64(out)


@policy(SIG)
def random_play(view, rng):
    return random_card_of(np.uint64(view[V_LEGAL]), rng)


@policy(SIG)
def random_misdeal(view, rng):
    return below(rng, 2)


# ---------------------------------------------------------------- basic: cheap counting


@helper(nb.float64(nb.uint64, nb.int64[:]))
def sure_tricks(hand, view):
    """Cheap trick count: top trumps with enough length, trumps beyond three, side aces
    and guarded kings."""
    trumps = hand & np.uint64(view[V_SUITS + 3])
    n_trumps = popcount(trumps)
    deck_trumps = np.uint64(view[V_DECK]) & np.uint64(view[V_SUITS + 3])
    count = 0.0
    top = deck_trumps
    for i in range(3):  # the three highest trumps of the deck, each needs i guards
        c = highest_card(top)
        top &= ~bit(c)
        if (trumps & bit(c)) and n_trumps > i:
            count += 1.0
    if n_trumps > 3:
        count += n_trumps - 3
    for s in range(3):
        m = hand & np.uint64(view[V_SUITS + s])
        n = popcount(m)
        ace = bit(13 * s + 12)
        king = bit(13 * s + 11)
        if (m & ace) and n <= 5:
            count += 1.0
        if (m & king) and 2 <= n <= 4:
            count += 1.0
    return count


@policy(SIG)
def basic_blind(view, rng):
    return 0


BASIC_PARAMS = (
    PolicyParam("round_up", 0.5, -1.0, 2.0, "bid int(sure-trick count + round_up): higher bids more"),
)


@policy(SIG)
def basic_bid(view, rng):
    want = int(sure_tricks(np.uint64(view[V_HAND]), view) + param_value(view, V_PARAMS + 0))
    return nearest_legal_bid(np.uint64(view[V_LEGAL]), max(want, 1))


@policy(SIG)
def basic_exchange(view, rng):
    # the Nil bidder sheds its highest cards, the partner sends its lowest
    return np.int64(pick_cards(np.uint64(view[V_LEGAL]), view[V_COUNT], view, view[V_ROLE] == 0))


@policy(SIG)
def basic_play(view, rng):
    legal = np.uint64(view[V_LEGAL])
    if popcount(legal) == 1:
        return lowest_card(legal)
    if view[V_BID + view[V_SEAT]] == 0:
        return nil_play(view, legal, np.uint64(view[V_HAND]))  # a Nil is played as a Nil
    if view[V_NPLAYED] == 0:
        # lead a card that is the highest left in its suit, else the lowest card
        unseen = np.uint64(view[V_DECK]) & ~np.uint64(view[V_PLAYED]) & ~np.uint64(view[V_HAND])
        for s in range(4):
            m = legal & np.uint64(view[V_SUITS + s])
            if m and highest_card(m) > highest_card(unseen & np.uint64(view[V_SUITS + s])):
                return highest_card(m)
        return lowest_by_rank(legal, view, True)
    seat = view[V_SEAT]
    if view[V_WIN_SEAT] != (seat ^ 2):
        win = winners_over(legal, view[V_WIN_CARD], view)
        if win:
            return lowest_by_rank(win, view, True)
    return lowest_by_rank(legal, view, True)


@policy(SIG)
def basic_misdeal(view, rng):
    return 1


RANDOM = Policy("random", blind=random_blind, bid=random_bid, exchange=random_exchange,
                play=random_play, misdeal=random_misdeal, help="uniformly random legal moves")
BASIC = Policy("basic", blind=basic_blind, bid=basic_bid, exchange=basic_exchange,
               play=basic_play, misdeal=basic_misdeal, params=BASIC_PARAMS,
               help="sure-trick count (top spades, long spades, side aces, guarded kings), plain play")


# ---------------------------------------------------------------- expert
# Tracks played cards (masters = cards above every unseen card of their suit) and
# shown voids; protects a partner's Nil, attacks an opponent's Nil, ducks once its
# contract is safe unless the opponents can still be set; bids with fractional trick
# values, Nil with safe hands, Blind Nil when far behind late in the game.

_LOW_MASK = np.uint64((1 << 14) - 1)

# expert's parameters (defaults: the constants it always used); only bid and blind read them
P_NIL_ESTIMATE, P_NIL_RISK, P_BEHIND_NIL_ESTIMATE, P_BEHIND_NIL_RISK = 0, 1, 2, 3
P_ROUND_UP, P_NEAR_LIMIT_ROUND_UP, P_BN_DEFICIT, P_BN_OPP_WITHIN = 4, 5, 6, 7
EXPERT_PARAMS = (
    PolicyParam("nil_estimate", 3.0, 0.0, 13.0, "Nil only when the trick estimate is below this"),
    PolicyParam("nil_risk", 2.0, 0.0, 13.0, "... and the Nil risk (cards that may be forced to win) below this"),
    PolicyParam("behind_nil_estimate", 3.5, 0.0, 13.0,
                "nil_estimate when behind with the opponents within 120 of the target"),
    PolicyParam("behind_nil_risk", 2.6, 0.0, 13.0, "nil_risk when behind with the opponents within 120 of the target"),
    PolicyParam("round_up", 0.8, -1.0, 2.0, "bid int(trick estimate + round_up): higher bids more"),
    PolicyParam("near_limit_round_up", 0.95, -1.0, 2.0, "round_up within 3 bags of the bag limit"),
    PolicyParam("bn_deficit", 200, 0, 10000, "Blind Nil only when behind by at least this many points", integer=True),
    PolicyParam("bn_opp_within", 150, 0, 10000, "... and the opponents within this of the target", integer=True),
)


@helper(nb.float64(nb.uint64, nb.int64[:]))
def expert_estimate(hand, view):
    """Expected tricks of ``hand``: graded honours, trump length and ruffing values."""
    trumps = hand & np.uint64(view[V_SUITS + 3])
    n_t = popcount(trumps)
    outside = np.uint64(view[V_DECK]) & np.uint64(view[V_SUITS + 3]) & ~trumps
    est = 0.0
    rest = trumps
    i = 0
    honours = 0
    while rest:
        c = highest_card(rest)
        rest &= ~bit(c)
        higher = popcount(outside & ~((bit(c) << _ONE) - _ONE))
        if higher == 0:
            est += 1.0
            honours += 1
        elif n_t - i > higher + 1:
            est += 0.85 if higher == 1 else 0.6
            honours += 1
        elif higher <= 2 and n_t - i > higher:
            est += 0.35
        i += 1
    length = n_t - honours - 3
    if length > 0:
        est += 0.8 * length
    spare = n_t - 2
    for s in range(3):
        m = hand & np.uint64(view[V_SUITS + s])
        n = popcount(m)
        if m & bit(13 * s + 12):
            est += 0.95 if n <= 5 else 0.7
        if m & bit(13 * s + 11):
            if n >= 2:
                est += 0.75 if n <= 4 else 0.45
            else:
                est += 0.2
        if (m & bit(13 * s + 10)) and n >= 3 and (m & (bit(13 * s + 12) | bit(13 * s + 11))):
            est += 0.35
        if spare > 0:
            if n == 0:
                est += 0.8 * min(spare, 2)
                spare -= 2
            elif n == 1 and not (m & bit(13 * s + 12)):
                est += 0.55
                spare -= 1
    return est


@helper(nb.float64(nb.uint64, nb.int64[:]))
def nil_risk(hand, view):
    """Rough count of cards that may be forced to win a trick (0 = a safe Nil hand)."""
    trumps = hand & np.uint64(view[V_SUITS + 3])
    outside = np.uint64(view[V_DECK]) & np.uint64(view[V_SUITS + 3]) & ~trumps
    risk = 0.0
    n_t = popcount(trumps)
    rest = trumps
    while rest:
        c = highest_card(rest)
        rest &= ~bit(c)
        higher = popcount(outside & ~((bit(c) << _ONE) - _ONE))
        if higher < 4:
            risk += 1.0
        elif higher < 7:
            risk += 0.4
    if n_t >= 4:
        risk += 0.5 * (n_t - 3)
    for s in range(3):
        m = hand & np.uint64(view[V_SUITS + s])  # a side suit's cards lie in its 13 natural bits
        # each high card (J, Q, K, A) needs low cards (2-7) of its suit to duck under the
        # others' leads: risk 0.3 per rank above the ten, added from the jack up
        below_count = popcount(m & (np.uint64(0x3F) << np.uint64(13 * s)))
        for r in range(9, 13):
            if (m & bit(13 * s + r)) and below_count < (r - 7) // 2 + 1:
                risk += 0.3 * (r - 8)
    return risk


@policy(SIG)
def expert_blind(view, rng):
    seat = view[V_SEAT]
    team = seat & 1
    partner_bid = view[V_BID + (seat ^ 2)]
    if partner_bid == 0:
        return 0
    deficit = view[V_SCORE + 1 - team] - view[V_SCORE + team]
    opp = view[V_SCORE + 1 - team]
    # a desperate, high-variance bid: far behind and the opponents close to the target
    if (deficit >= param_value(view, V_PARAMS + P_BN_DEFICIT)
            and opp >= view[V_TARGET] - param_value(view, V_PARAMS + P_BN_OPP_WITHIN)):
        return 1
    return 0


@policy(SIG)
def expert_bid(view, rng):
    hand = np.uint64(view[V_HAND])
    legal = np.uint64(view[V_LEGAL])
    seat = view[V_SEAT]
    partner_bid = view[V_BID + (seat ^ 2)]
    est = expert_estimate(hand, view)
    team = seat & 1
    # behind with the opponents close to the target: take more Nil risk
    behind = (view[V_SCORE + 1 - team] >= view[V_TARGET] - 120
              and view[V_SCORE + team] < view[V_SCORE + 1 - team])
    if legal & _ONE and partner_bid != 0 and (partner_bid < 0 or partner_bid >= 3):
        if behind:
            limit = param_value(view, V_PARAMS + P_BEHIND_NIL_ESTIMATE)
            risk = param_value(view, V_PARAMS + P_BEHIND_NIL_RISK)
        else:
            limit = param_value(view, V_PARAMS + P_NIL_ESTIMATE)
            risk = param_value(view, V_PARAMS + P_NIL_RISK)
        if est < limit and nil_risk(hand, view) < risk:
            return 0
    # round up from .2; near the bag limit from .05 (an overtrick costs more there)
    near_limit = view[V_BAGS + team] >= view[V_BAG_LIMIT] - 3
    want = int(est + param_value(view, V_PARAMS + (P_NEAR_LIMIT_ROUND_UP if near_limit else P_ROUND_UP)))
    if want < 1:
        want = 1
    return nearest_legal_bid(legal & _LOW_MASK, want)


@policy(SIG)
def expert_exchange(view, rng):
    return np.int64(pick_cards(np.uint64(view[V_LEGAL]), view[V_COUNT], view, view[V_ROLE] == 0))


@policy(SIG)
def expert_misdeal(view, rng):
    hand = np.uint64(view[V_HAND])
    if nil_risk(hand, view) < 0.9:
        return 0  # a fine Nil hand: keep it
    return 1 if expert_estimate(hand, view) < 2.5 else 0


@inline(nb.uint64(nb.uint64, nb.uint64, nb.int64[:], nb.int64))
def masters_of(cards, unseen, view, s):
    """Cards of ``cards`` in suit ``s`` that beat every unseen card of that suit."""
    sm = np.uint64(view[V_SUITS + s])
    top = unseen & sm
    if top == 0:
        return cards & sm
    return cards & sm & ~((bit(highest_card(top)) << _ONE) - _ONE)


@helper(nb.boolean(nb.int64[:], nb.uint64))
def partner_safe(view, unseen):
    """Whether the partner's card now winning should hold: it is the last card, or it is
    a master and no opponent still to play has shown a void."""
    seat = view[V_SEAT]
    npl = view[V_NPLAYED]
    if npl == 3:
        return True
    best = view[V_WIN_CARD]
    sb = suit_in_view(best, view)
    if unseen & np.uint64(view[V_SUITS + sb]) & ~((bit(best) << _ONE) - _ONE):
        return False
    if sb != 3:
        led = view[V_LED_SUIT]
        nxt = (seat + 1) & 3  # the opponent still to play after me
        if (view[V_VOIDS + nxt] >> led) & 1 and unseen & np.uint64(view[V_SUITS + 3]):
            return False
    return True


@helper(nb.int64(nb.int64[:], nb.uint64))
def lowest_winner(view, cards):
    """Cheapest card of ``cards`` that beats the card now winning; -1 if none."""
    win = winners_over(cards, view[V_WIN_CARD], view)
    if not win:
        return -1
    side = win & ~np.uint64(view[V_SUITS + 3])
    return lowest_card(side) if side else lowest_card(win)


@helper(nb.int64(nb.int64[:], nb.uint64, nb.uint64, nb.uint64))
def cover_play(view, legal, hand, unseen):
    """Protect the partner's Nil: win tricks the partner still has to play to, overtake it."""
    seat = view[V_SEAT]
    partner = seat ^ 2
    trumps_m = np.uint64(view[V_SUITS + 3])
    if view[V_NPLAYED] == 0:
        for s in range(4):
            m = masters_of(legal, unseen, view, s)
            if m and s != 3:
                return highest_card(m)
        side = legal & ~trumps_m
        return highest_by_rank(side if side else legal, view, False)
    partner_card = view[V_TABLE + partner]
    if partner_card < 0 or view[V_WIN_SEAT] == partner:
        led = view[V_LED_SUIT]
        follow = legal & np.uint64(view[V_SUITS + led])
        if follow:
            if partner_card < 0:
                top = highest_card(follow)
                if beats(top, view[V_WIN_CARD], view):
                    return top
                return lowest_card(follow)
            c = lowest_winner(view, follow)
            return c if c >= 0 else lowest_card(follow)
        c = lowest_winner(view, legal & trumps_m)
        if c >= 0:
            return c
        return lowest_by_rank(legal, view, True)
    return -1  # partner is safe in this trick: play normally


@helper(nb.int64(nb.uint64, nb.uint64, nb.int64[:]))
def lowest_uncovered(cards, unseen, view):
    """The card of ``cards`` with the fewest unseen cards of its suit below it (ties: the lower
    rank): led to a Nil bidder, the card it is least likely to have a card to duck under."""
    best = -1
    best_key = 1 << 30
    for s in range(4):
        sm = np.uint64(view[V_SUITS + s])
        m = cards & sm
        if m == 0:
            continue
        c = lowest_card(m)
        key = popcount(unseen & sm & (bit(c) - _ONE)) * 64 + rank_value(c)
        if key < best_key:
            best_key = key
            best = c
    return best


@inline
def card_play(view, sharp):
    """The card ``expert`` plays (``sharp`` False) or ``fitted`` plays (``sharp`` True).

    ``sharp`` changes six spots, each measured by a ladder against the old rule
    (docs/games/spades.md, "fitted"): it attacks an opposing Nil unless its own contract
    needs every trick left (expert: only with 3 tricks to spare), and when the Nil bidder is still
    to play it stays under the winning card even when it wants tricks, shedding its highest
    such card (expert: its lowest card, only when it wants no trick); it leads to the Nil the
    card with the fewest unseen cards below it, trumps included once led trumps are legal;
    it tries to set the opponents when they need all but two of the tricks left (expert:
    all but one); covering its partner's Nil it leads a suit the partner has shown void in;
    wanting tricks it leads a suit the partner can ruff and the opponents cannot.
    """
    legal = np.uint64(view[V_LEGAL])
    if popcount(legal) == 1:
        return lowest_card(legal)
    seat = view[V_SEAT]
    partner = seat ^ 2
    hand = np.uint64(view[V_HAND])
    unseen = np.uint64(view[V_DECK]) & ~np.uint64(view[V_PLAYED]) & ~hand
    trumps_m = np.uint64(view[V_SUITS + 3])
    npl = view[V_NPLAYED]
    left = 13 - view[V_TRICK]

    if view[V_BID + seat] == 0:
        return nil_play(view, legal, hand)  # alive or failed: every trick is a bag
    if view[V_BID + partner] == 0 and view[V_TRICKS + partner] == 0:
        if sharp and npl == 0:  # lead a suit the Nil bidder is void in: it sheds a card
            m = np.uint64(0)
            for s in range(3):
                if (view[V_VOIDS + partner] >> s) & 1:
                    m |= legal & np.uint64(view[V_SUITS + s])
            if m:
                return highest_by_rank(m, view, True)
        c = cover_play(view, legal, hand, unseen)
        if c >= 0:
            return c

    # contracts: only number bidders' tricks count
    need = 0
    opp_need = 0
    for s in range(4):
        b = view[V_BID + s]
        if b > 0:
            if (s & 1) == (seat & 1):
                need += b - view[V_TRICKS + s]
            else:
                opp_need += b - view[V_TRICKS + s]
    opp_nil = -1
    for o in ((seat + 1) & 3, (seat + 3) & 3):
        if view[V_BID + o] == 0 and view[V_TRICKS + o] == 0:
            opp_nil = o
    want = need > 0 or (opp_need > 0 and opp_need >= left - (2 if sharp else 1))
    if opp_nil >= 0 and need < left - (0 if sharp else 2):
        # attack the Nil: keep it winning, lead and follow low under it
        if npl == 0:
            m = legal & ~trumps_m  # side suits the Nil bidder still holds
            for s in range(3):
                if (view[V_VOIDS + opp_nil] >> s) & 1:
                    m &= ~np.uint64(view[V_SUITS + s])
            if sharp:
                if not (view[V_VOIDS + opp_nil] >> 3) & 1:
                    m |= legal & trumps_m
                return lowest_uncovered(m if m else legal, unseen, view)
            return lowest_by_rank(m if m else legal, view, True)
        if view[V_WIN_SEAT] == opp_nil:
            c = highest_below(legal, view[V_WIN_CARD], view)
            if c >= 0:
                return c
        elif view[V_TABLE + opp_nil] < 0 and (sharp or not want):
            if sharp:
                c = highest_below(legal, view[V_WIN_CARD], view)
                if c >= 0:
                    return c
            return lowest_by_rank(legal, view, True)

    if npl == 0:
        if want:
            for s in range(3):  # cash side masters the opponents can follow
                m = masters_of(legal, unseen, view, s)
                if m and not (((view[V_VOIDS + ((seat + 1) & 3)] | view[V_VOIDS + ((seat + 3) & 3)]) >> s) & 1
                              and unseen & trumps_m):
                    return highest_card(m)
            tm = masters_of(legal, unseen, view, 3)
            if tm and popcount(legal & trumps_m) >= 2:
                return highest_card(tm)
            if sharp and not (view[V_VOIDS + partner] >> 3) & 1:  # a suit the partner ruffs
                opp_voids = view[V_VOIDS + ((seat + 1) & 3)] | view[V_VOIDS + ((seat + 3) & 3)]
                for s in range(3):
                    m = legal & np.uint64(view[V_SUITS + s])
                    if m and (view[V_VOIDS + partner] >> s) & 1 and not (opp_voids >> s) & 1:
                        return lowest_card(m)
            # lead low from the shortest side suit to make a void for ruffing
            best_s = -1
            best_n = 99
            for s in range(3):
                m = legal & np.uint64(view[V_SUITS + s])
                n = popcount(m)
                if n > 0 and n < best_n:
                    best_n = n
                    best_s = s
            if best_s >= 0 and (hand & trumps_m):
                return lowest_card(legal & np.uint64(view[V_SUITS + best_s]))
            return lowest_by_rank(legal, view, True)
        return lowest_by_rank(legal, view, True)

    best = view[V_WIN_CARD]
    led = view[V_LED_SUIT]
    follow = legal & np.uint64(view[V_SUITS + led])
    partner_winning = view[V_WIN_SEAT] == partner
    if want:
        if partner_winning and partner_safe(view, unseen):
            return lowest_by_rank(legal, view, True) if not follow else lowest_card(follow)
        if follow:
            win = winners_over(follow, best, view)
            if not win:
                return lowest_card(follow)
            if npl == 3:
                return lowest_card(win)
            m = masters_of(win, unseen, view, led)
            if m:
                return lowest_card(m)
            if npl == 1:
                return lowest_card(follow)
            return highest_card(win)
        c = lowest_winner(view, legal & trumps_m)
        if c >= 0:
            return c
        return lowest_by_rank(legal, view, True)
    # contract safe: duck to avoid bags
    if follow:
        c = highest_below(follow, best, view)
        if c >= 0:
            return c
        return highest_card(follow) if npl == 3 else lowest_card(follow)
    side = legal & ~trumps_m
    if side:
        return highest_by_rank(side, view, True)
    c = highest_below(legal, best, view)
    if c >= 0:
        return c
    return lowest_card(legal)


@policy(SIG)
def expert_play(view, rng):
    return card_play(view, False)


@policy(SIG)
def fitted_play(view, rng):
    return card_play(view, True)


EXPERT = Policy("expert", blind=expert_blind, bid=expert_bid, exchange=expert_exchange,
                play=expert_play, misdeal=expert_misdeal, params=EXPERT_PARAMS,
                help="graded trick estimate, Nil on safe hands, card tracking, covers and attacks Nil")


# bidding styles (docs/games/spades.md, rules 10.11): expert's play with other bidding defaults
AGGRESSIVE = Policy("aggressive", base=EXPERT, params=with_defaults(
    EXPERT_PARAMS, nil_estimate=3.5, nil_risk=2.6, behind_nil_estimate=4.0, behind_nil_risk=3.2, round_up=0.95,
    near_limit_round_up=1.1, bn_deficit=150, bn_opp_within=200),
    help="expert bidding up: rounds the estimate up from .05, Nil on riskier hands, Blind Nil earlier")
CONSERVATIVE = Policy("conservative", base=EXPERT, params=with_defaults(
    EXPERT_PARAMS, nil_estimate=2.5, nil_risk=1.4, behind_nil_estimate=3.0, behind_nil_risk=2.0, round_up=0.5,
    near_limit_round_up=0.8, bn_deficit=300, bn_opp_within=100),
    help="expert bidding down: rounds the estimate to nearest, Nil only on safe hands, Blind Nil rarely")


# ---------------------------------------------------------------- quick_count
# The popular counting heuristic of rules 10.3 ("aces and kings count one, spades beyond
# three count one"), its weights as parameters; expert's play (which reads no parameters).

P_ACE, P_KING, P_QUEEN, P_LONG_SPADES, P_VOID, P_QC_ROUND_UP, P_NIL_BELOW = range(7)
QUICK_COUNT_PARAMS = (
    PolicyParam("ace", 1.0, 0.0, 2.0, "value of each ace (a joker counts as an ace)"),
    PolicyParam("king", 1.0, 0.0, 2.0, "value of each king with at least one other card of its suit"),
    PolicyParam("queen", 0.0, 0.0, 2.0, "value of each queen with at least two other cards of its suit"),
    PolicyParam("long_spades", 3, 0, 13, "every spade beyond this many counts one", integer=True),
    PolicyParam("void", 0.0, 0.0, 2.0, "value of each void side suit when holding a spade"),
    PolicyParam("round_up", 0.5, -1.0, 2.0, "bid int(count + round_up)"),
    PolicyParam("nil_below", 0.0, 0.0, 13.0, "bid Nil when the count is below this (0: never)"),
)


@helper(nb.float64(nb.uint64, nb.int64[:]))
def quick_count(hand, view):
    """The counting heuristic of ``QUICK_COUNT_PARAMS`` for ``hand`` (the seat's parameters in ``view``)."""
    ace = param_value(view, V_PARAMS + P_ACE)
    king = param_value(view, V_PARAMS + P_KING)
    queen = param_value(view, V_PARAMS + P_QUEEN)
    trumps = hand & np.uint64(view[V_SUITS + 3])
    n_t = popcount(trumps)
    count = 0.0
    for s in range(4):
        m = hand & np.uint64(view[V_SUITS + s])
        n = popcount(m)
        if m & bit(13 * s + 12):
            count += ace
        if (m & bit(13 * s + 11)) and n >= 2:
            count += king
        if (m & bit(13 * s + 10)) and n >= 3:
            count += queen
        if s < 3 and n == 0 and n_t > 0:
            count += param_value(view, V_PARAMS + P_VOID)
    count += ace * popcount(hand & np.uint64(view[V_SUITS + 3]) & ~np.uint64((1 << 52) - 1))  # jokers
    extra = n_t - int(param_value(view, V_PARAMS + P_LONG_SPADES))
    if extra > 0:
        count += extra
    return count


@policy(SIG)
def quick_count_bid(view, rng):
    legal = np.uint64(view[V_LEGAL])
    count = quick_count(np.uint64(view[V_HAND]), view)
    partner_bid = view[V_BID + (view[V_SEAT] ^ 2)]
    if legal & _ONE and partner_bid != 0 and count < param_value(view, V_PARAMS + P_NIL_BELOW):
        return 0
    want = int(count + param_value(view, V_PARAMS + P_QC_ROUND_UP))
    return nearest_legal_bid(legal & _LOW_MASK, max(want, 1))


# blind from basic (never): expert's blind reads expert's parameters
QUICK_COUNT = Policy("quick_count", base=EXPERT, blind=basic_blind, bid=quick_count_bid, params=QUICK_COUNT_PARAMS,
                     help="counting heuristic: aces, guarded kings, long spades (weights as parameters), expert play")
