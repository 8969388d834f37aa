"""``pimc`` for Cutthroat: perfect-information Monte Carlo card play (core/pimc.py), paranoid.

Once the seat holds at most ``dd_cards`` cards, each play decision deals the unseen cards
to the other players ``worlds`` times (exact hand sizes, shown voids; the dealer sitting out
trick 1 in the 5-player 2-joker form holds one card fewer), solves every legal card in every
world double dummy with the seat measured alone against all the others together (the
paranoid bound of docs/double-dummy.md), and plays the card with the best total score (ties:
expert's card if among the best, else the lowest card). Earlier it plays expert's card
(``playout_worlds`` = 0) or decides by play-outs (:func:`_playout_card`: each distinct legal
card played, then the hand played out by expert at every seat, in ``playout_worlds`` worlds,
valued by :func:`hand_value`: expert's card unless another's gain over it, world by world, is
more than :data:`PLAYOUT_Z` standard errors above 0, core.pimc.confident_candidate); for the
blind offer and the redeal question it is ``expert`` at expert's default parameters; it bids by
simulation (below).

Score of a world where the seat takes ``v`` more tricks, from the tricks its bid still wants
(``tricks_wanted``): an at-least bid (ordinary, B6, SM) 100 when made plus 10 per trick up to
the bid, ``1 - bag_cost`` x 10 per overtrick; an exact bid (1F, 2F) 100 when exactly made,
minus 10 per trick off; a Nil or Blind Nil not yet failed -100 if it takes any trick, and every
trick -1. Not modelled: setting the leader or a Nil bidder (expert's heuristics do that
before ``dd_cards``), prize jacks; the solver assumes spades must be broken unless this seat,
on lead, could lead one, and allows trumping on trick 1. World shaping by bids: not done.

**Bids by simulation** (``pimc_bid``; ``bid_worlds`` = 0: expert's bid). The seat deals the
cards it does not hold ``bid_worlds`` times (exact hand sizes, the dealer one card short when he
sits out trick 1; a world is redrawn up to :data:`SHAPE_TRIES` times while an earlier bidder's
hand in it would not give his bid under expert's rules: the same bid, or an ordinary bid within
:data:`BID_TOLERANCE`; blind bids are not checked). Candidates: expert's bid, the legal ordinary
bids within ``bid_span`` of expert's count (its bid when ordinary, else its ordinary estimate),
1F, 2F and SM when legal and their tricks (1, 2, the SM threshold) are within ``bid_span`` of
that count, and Nil whenever legal. Blind bids (B6, BN) stay a separate decision, expert's:
they are made before the hand is seen, so a hand-based simulation does not apply. In every world
(the same worlds for every candidate) the later seats bid as expert would with their world
hands (from this seat's legal bids, after looking), then every seat plays expert's cards to the
end (:func:`rollout`, with the kernel's own view bookkeeping) and the hand is scored by the
kernel's ``rules.score_bid`` (bag-outs, prize jacks) with the bag rules the view carries and the
rules' default values for the rest (Nil 100, BN 200, 1F 50, 2F 40, SM 150; a policy does not see
them). The value of a world is the seat's points minus the mean of the others' (times n - 1):
every player is for himself, and a point taken from a rival counts as a point won. Expert's
bid stands unless another candidate's mean gain over it, world by world, is more than
:data:`BID_Z` standard errors above 0 (core.pimc.confident_candidate, as the play-outs). The trick
rules a view does not carry are the defaults: spades must be broken, trumping on trick 1
allowed, the lowest club led to trick 1 in the joker forms. Draws only from the seat's stream.
"""
from __future__ import annotations

import numpy as np

from collections import namedtuple

from simcards.core.cards import bit, lowest_card, popcount
from simcards.core.jit import helper, policy
from simcards.core.pimc import (
    BAG_COST, BID_WORLDS, MAX_WORLDS, add_world, bid_span, confident_candidate, distinct_cards,
    play_params, playout_sums, playout_worlds, sample_world, sample_worlds, solve_worlds, solver_rules, trump_lead_restrict, with_params,
)
from simcards.core.policy import Policy, param_value
from simcards.core.tricks import SUIT_MASKS_JOKERS_AS_SPADES, spades_legal
from simcards.games.cutthroat.layout import (
    BAG_OUT_PENALTY, B_1F, B_2F, B_B6, B_BN, B_SM, M_DECK, M_HAND, M_LEGAL, M_PLAYED, M_PRIZE, M_TRICK, M_VOID, NIL,
    PHASE_PLAY, V_B6_TRICKS, V_BAG_LIMIT, V_BAG_MODE, V_BAGS, V_BID, V_BROKEN, V_DEALER, V_LED_SUIT, V_LEADER,
    V_JACKS, V_MAX_BID, V_N, V_NPLAYED, V_PARAMS, V_PHASE, V_SEAT, V_SITOUT, V_SM_MIN, V_T, V_TRICK, V_TRICK_CARD,
    V_TRICK_SEAT, V_TRICKS, V_WIN_CARD, V_WIN_SEAT,
)
from simcards.games.cutthroat.policies import EXPERT_PARAMS, P_MARGIN, SIG, expected_tricks, expert_blind, \
    expert_bid, expert_play, expert_redeal, tricks_wanted
from simcards.games.cutthroat.rules import end_trick, record_play, score_bid, start_trick
from simcards.games.cutthroat.variant import CutthroatVariant

P_WORLDS, P_DD_CARDS, P_NODE_BUDGET, P_MIN_WORLDS, P_BAG_COST, P_BID_WORLDS, P_BID_SPAN, P_PLAYOUT_WORLDS = range(8)
PIMC_PARAMS = play_params(17) + (BAG_COST, BID_WORLDS, bid_span(17), playout_worlds(16))
HARD_TRIES = 200
SHAPE_TRIES = 40  # redraws of a bid world that contradicts the earlier bids before it is kept anyway
BID_TOLERANCE = 2  # an earlier ordinary bid fits a world hand on which expert would bid within this many
_EXPERT_DEFAULTS = np.array([p.fixed(p.default) for p in EXPERT_PARAMS], np.int64)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_SUITS = SUIT_MASKS_JOKERS_AS_SPADES
BID_Z = 1.0  # a bid other than expert's needs its mean gain this many standard errors above 0
PLAYOUT_Z = 1.0  # a play-out card other than expert's needs its mean gain this many standard errors above 0


@helper
def _expert_view(view):
    """A copy of ``view`` with expert's default parameters in the parameter slots."""
    return with_params(view, V_PARAMS, _EXPERT_DEFAULTS)


@helper
def _utility(view, left, bag_cost, out):
    """``out[v]``: the points of a world where the seat takes ``v`` of ``left`` tricks (module doc)."""
    me = view[V_SEAT]
    code = view[V_BID + me]
    won = view[V_TRICKS + me]
    if code == NIL or code == B_BN:
        for v in range(left + 1):
            out[v] = -v - (100 if (v > 0 and won == 0) else 0)
        return
    if code == B_1F or code == B_2F:
        target = 1 if code == B_1F else 2
        for v in range(left + 1):
            off = abs(won + v - target)
            out[v] = (100 if off == 0 else 0) - 10 * off
        return
    w = tricks_wanted(code, won, view[V_B6_TRICKS], view[V_SM_MIN])
    over = int(round(10 * (1.0 - bag_cost)))
    for v in range(left + 1):
        out[v] = (100 if v >= w else 0) + 10 * min(v, w) + over * max(0, v - w)


@helper
def pimc_card(view, masks, rng, totals):
    """(card, worlds solved) of pimc at this play decision; ``totals[c]``: each card's total."""
    legal = masks[M_LEGAL]
    prefer = expert_play(view, masks, rng)
    for c in range(64):
        totals[c] = 0
    me = view[V_SEAT]
    n = view[V_N]
    hand = masks[M_HAND]
    left = popcount(hand)
    if popcount(legal) < 2:
        return prefer, 0
    if left > int(param_value(view, V_PARAMS + P_DD_CARDS)):
        return _playout_card(view, masks, rng, prefer, totals)
    n_worlds = min(int(param_value(view, V_PARAMS + P_WORLDS)), MAX_WORLDS)
    worlds = np.zeros((n_worlds, n), np.uint64)
    count = _play_worlds(view, masks, rng, n_worlds, worlds)
    if count == 0:
        return prefer, 0
    npl = view[V_NPLAYED]
    trick = view[V_TRICK]
    sitout = view[V_SITOUT]
    R = solver_rules(n, 3, trump_lead_restrict(npl, view[V_BROKEN], hand, legal, _SUITS[3]),
                     sitout if trick == 0 else -1)
    suit_masks = _SUITS.copy()
    tc = np.zeros(8, np.int64)
    for i in range(npl):
        tc[i] = view[V_TRICK_CARD + i]
    utility = np.zeros(left + 1, np.int64)
    _utility(view, left, param_value(view, V_PARAMS + P_BAG_COST), utility)
    return solve_worlds(worlds, count, np.ones(count, np.int64), R, np.int64(1 << me), suit_masks, tc, np.int64(npl),
                        np.int64(view[V_LEADER]), np.int64(view[V_BROKEN]), np.int64(1 if trick == 0 else 0),
                        legal, utility, np.zeros((0, 3), np.int64), prefer,
                        np.int64(param_value(view, V_PARAMS + P_NODE_BUDGET)),
                        np.int64(param_value(view, V_PARAMS + P_MIN_WORLDS)), left, totals)


@helper
def _play_worlds(view, masks, rng, n_worlds, worlds):
    """Up to ``n_worlds`` deals of the unseen cards at a play decision (exact hand sizes, shown
    voids, the dealer one card short while he sits out trick 1) into ``worlds``; returns how many."""
    me = view[V_SEAT]
    n = view[V_N]
    hand = masks[M_HAND]
    left = popcount(hand)
    played = masks[M_PLAYED]
    npl = view[V_NPLAYED]
    trick = view[V_TRICK]
    sitout = view[V_SITOUT]
    fixed = np.zeros(n, np.uint64)
    fixed[me] = hand
    unseen = masks[M_DECK] & ~played & ~hand
    sizes = np.zeros(n, np.int64)
    allowed = np.zeros(n, np.uint64)
    for s in range(n):
        size = left
        for i in range(npl):
            if view[V_TRICK_SEAT + i] == s:
                size -= 1
        if trick == 0 and s == sitout:
            size -= 1  # plays no card to trick 1 and holds one card fewer
        sizes[s] = size if s != me else left
        allowed[s] = (_ALL & ~masks[M_VOID + s]) if s != me else np.uint64(0)
    return sample_worlds(unseen, fixed, sizes, allowed, rng, n_worlds, worlds, HARD_TRIES)


@helper
def _playout_card(view, masks, rng, prefer, totals):
    """Before ``dd_cards``: each distinct legal card (core.pimc.distinct_cards) played in
    ``playout_worlds`` worlds, then the hand played out by expert at every seat
    (:func:`rollout`), valued by :func:`hand_value` of the whole hand (the tricks and prize
    jacks taken so far included); ``prefer`` (expert's card) unless another's gain over it is more
    than :data:`PLAYOUT_Z` standard errors above 0 (core.pimc.confident_candidate).
    ``playout_worlds`` = 0: ``prefer``. Returns (card, worlds)."""
    n_worlds = min(int(param_value(view, V_PARAMS + P_PLAYOUT_WORLDS)), MAX_WORLDS)
    if n_worlds == 0:
        return prefer, 0
    n = view[V_N]
    legal = masks[M_LEGAL]
    alive = masks[M_DECK] & ~masks[M_PLAYED]
    for i in range(view[V_NPLAYED]):
        alive |= bit(view[V_TRICK_CARD + i])  # the trick in progress
    candidates = distinct_cards(legal, alive, _SUITS, prefer)
    if popcount(candidates) < 2:
        return prefer, 0
    worlds = np.zeros((n_worlds, n), np.uint64)
    count = _play_worlds(view, masks, rng, n_worlds, worlds)
    if count == 0:
        return prefer, 0
    base = _expert_view(view)
    rv = base.copy()
    rm = masks.copy()
    hands = np.zeros(n, np.uint64)
    tricks = np.zeros(n, np.int64)
    jacks = np.zeros(n, np.uint64)
    values = np.zeros(64, np.int64)
    sums = playout_sums()
    for w in range(count):
        for c in range(64):
            if candidates & bit(c):
                rollout(base, masks, worlds[w], c, rv, rm, hands, rng, tricks, jacks)
                for s in range(n):
                    tricks[s] += view[V_TRICKS + s]
                    jacks[s] |= np.uint64(view[V_JACKS + s])
                values[c] = hand_value(view, masks, tricks, jacks)
        add_world(values, candidates, prefer, 1, totals, sums)
    return confident_candidate(candidates, sums, prefer, PLAYOUT_Z), count


@policy(SIG)
def pimc_play(view, masks, rng):
    totals = np.zeros(64, np.int64)
    card, _ = pimc_card(view, masks, rng, totals)
    return card


# ---------------------------------------------------------------- bidding by simulation

# what rules.score_bid reads of the variant: the bag rules the view carries, the rest at the
# rules' defaults (a policy does not see them)
ScoreRules = namedtuple("ScoreRules", (
    "nil_value", "blind_nil_value", "failed_nil_tricks_as_bags", "one_for_fifty_value", "two_for_forty_value",
    "blind_six_tricks", "blind_six_value", "shoot_moon_min_tricks", "shoot_moon_value", "shoot_moon_fail_value",
    "shoot_moon_overtricks_score", "prize_jacks", "prize_jack_points", "jack_of_hearts_bag_relief", "bag_mode",
    "bag_out_penalty", "bag_limit", "bag_penalty_per_bag", "bag_point_value"))
_D = CutthroatVariant()
NIL_VALUE, BN_VALUE, FAILED_NIL_BAGS = _D.nil_value, _D.blind_nil_value, int(_D.failed_nil_tricks_as_bags)
ONE_F_VALUE, TWO_F_VALUE, B6_VALUE = _D.one_for_fifty_value, _D.two_for_forty_value, _D.blind_six_value
SM_VALUE, SM_FAIL_VALUE = _D.shoot_moon_value, _D.shoot_moon_fail_value
SM_OVERTRICKS = int(_D.shoot_moon_overtricks_score)
JACK_POINTS, JH_RELIEF = _D.prize_jack_points, _D.jack_of_hearts_bag_relief
BAG_PENALTY, BAG_POINT = _D.bag_penalty_per_bag, _D.bag_point_value
BAG_OUT = int(BAG_OUT_PENALTY.PER_ACCUMULATED_BAG)
JOKERS = np.uint64(7 << 52)


@helper
def score_rules(view, masks):
    """The :class:`ScoreRules` of the hand at ``view``."""
    return ScoreRules(NIL_VALUE, BN_VALUE, FAILED_NIL_BAGS, ONE_F_VALUE, TWO_F_VALUE, view[V_B6_TRICKS], B6_VALUE,
                      view[V_SM_MIN], SM_VALUE, SM_FAIL_VALUE, SM_OVERTRICKS, np.int64(masks[M_PRIZE]), JACK_POINTS,
                      JH_RELIEF, view[V_BAG_MODE], BAG_OUT, view[V_BAG_LIMIT], BAG_PENALTY, BAG_POINT)


@helper
def sits_out(view, masks):
    """Whether the dealer sits out trick 1 (the deck is one card short of the hands: 5 players, 2 jokers)."""
    return popcount(masks[M_DECK]) < view[V_N] * view[V_T]


@helper
def rollout(base, bmasks, world, first, rv, rm, hands, rng, tricks, jacks):
    """Play the hand out from the position of ``base``/``bmasks`` (a view at a play decision,
    with expert's parameters: :func:`_expert_view`; or, from :func:`bid_value`, at the
    opening lead) in the deal ``world`` (every seat's hand): the seat to play plays ``first``
    (-1: expert's card), then every seat plays ``expert``'s card. ``tricks[s]``, ``jacks[s]``:
    the tricks and prize jacks seat ``s`` takes from here on, the trick in progress included.
    ``rv``, ``rm``, ``hands``: scratch. The trick rules a view does not carry are the rules'
    defaults: spades must be broken, trumping on trick 1 allowed, the lowest club led to trick 1
    in the joker forms. The expert decisions draw from ``rng``, the deciding seat's stream (expert
    draws nothing); the view is kept by the kernel's own bookkeeping (``rules.start_trick``,
    ``rules.record_play``, ``rules.end_trick``)."""
    rv[:] = base
    rm[:] = bmasks
    n = base[V_N]
    for s in range(n):
        hands[s] = world[s]
        tricks[s] = 0
        jacks[s] = 0
    total = base[V_T]
    prize = bmasks[M_PRIZE]
    trick = base[V_TRICK]
    leader = base[V_LEADER]
    pos = base[V_NPLAYED]
    out_seat = base[V_SITOUT] if trick == 0 else -1
    led = base[V_LED_SUIT]
    best = base[V_WIN_CARD]
    best_seat = base[V_WIN_SEAT]
    best_suit = -1 if best < 0 else (3 if bit(best) & _SUITS[3] else led)
    broken = base[V_BROKEN] == 1
    trick_mask = bmasks[M_TRICK]
    played = bmasks[M_PLAYED]
    forced = -1
    if trick == 0 and pos == 0 and bmasks[M_DECK] & JOKERS:
        clubs = np.uint64(0)
        for s in range(n):
            if s != out_seat:
                clubs |= hands[s]
        forced = lowest_card(clubs & _SUITS[0])
    seat = leader if pos == 0 else base[V_TRICK_SEAT + pos - 1] + 1
    c = first
    while trick < total:
        nplay = n - 1 if out_seat >= 0 else n
        while pos < nplay:
            if seat == n:
                seat = 0
            if seat == out_seat:
                seat = seat + 1 if seat + 1 < n else 0
            if c < 0:
                hand = hands[seat]
                legal = spades_legal(hand, led, _SUITS, forced if trick == 0 else -1, not broken, False)
                if legal & (legal - np.uint64(1)):
                    rv[V_SEAT] = seat
                    rv[V_NPLAYED] = pos
                    rm[M_HAND] = hand
                    rm[M_LEGAL] = legal
                    c = expert_play(rv, rm, rng)
                else:
                    c = lowest_card(legal)
            led, best, best_seat, best_suit, broken, trick_mask, played = record_play(
                rv, rm, hands, seat, c, pos, led, best, best_seat, best_suit, broken, trick_mask, played)
            c = -1
            seat += 1
            pos += 1
        tricks[best_seat] += 1
        jacks[best_seat] |= trick_mask & prize
        end_trick(rv, rm, best_seat, trick_mask & prize)
        trick += 1
        leader = best_seat
        seat = leader
        pos = 0
        out_seat = -1
        led = -1
        best = -1
        best_seat = -1
        best_suit = -1
        trick_mask = np.uint64(0)
        if trick < total:
            start_trick(rv, trick, leader, -1)


@helper
def hand_value(view, masks, tricks, jacks):
    """The deciding seat's points for a hand whose bids are in ``view`` and whose tricks and
    prize jacks per seat are ``tricks``, ``jacks`` (``rules.score_bid``, bag-outs included,
    with :func:`score_rules`), minus the mean of the other players' points, times n - 1."""
    rules = score_rules(view, masks)
    me = view[V_SEAT]
    n = view[V_N]
    value = 0
    for s in range(n):
        delta = score_bid(rules, view[V_BID + s], tricks[s], jacks[s], view[V_BAGS + s])[0]
        value += (n - 1) * delta if s == me else -delta
    return value


@helper
def bid_value(base, bmasks, code, world, legal_bids, pb, pm, rv, rm, hands, rng, tricks, jacks):
    """:func:`hand_value` of the hand dealt as ``world`` when the deciding seat of
    ``base``/``bmasks`` (its bid decision, expert's parameters) bids ``code``: the seats after it
    bid as ``expert`` would with their hands of ``world`` (from ``legal_bids``, after looking: no
    blind bid), then every seat plays ``expert``'s cards from the opening lead (:func:`rollout`)."""
    pb[:] = base
    pm[:] = bmasks
    me = base[V_SEAT]
    n = base[V_N]
    dealer = base[V_DEALER]
    pb[V_BID + me] = code
    s = me + 1 if me + 1 < n else 0
    first = dealer + 1 if dealer + 1 < n else 0
    while s != first:
        if pb[V_BID + s] < 0:
            pb[V_SEAT] = s
            pm[M_HAND] = world[s]
            pm[M_LEGAL] = legal_bids
            pb[V_BID + s] = expert_bid(pb, pm, rng)
        s = s + 1 if s + 1 < n else 0
    sitout = dealer if sits_out(base, bmasks) else -1
    leader = first
    if bmasks[M_DECK] & JOKERS:  # lowest_club, the joker forms' first lead
        clubs = np.uint64(0)
        for t in range(n):
            if t != sitout:
                clubs |= world[t]
        leader = -1
        low = lowest_card(clubs & _SUITS[0])
        for t in range(n):
            if world[t] & bit(low):
                leader = t
    pb[V_SEAT] = me
    pm[M_HAND] = world[me]
    pb[V_PHASE] = PHASE_PLAY
    start_trick(pb, 0, leader, sitout)
    pb[V_NPLAYED] = 0
    pb[V_BROKEN] = 0
    pm[M_PLAYED] = np.uint64(0)
    pm[M_TRICK] = np.uint64(0)
    rollout(pb, pm, world, -1, rv, rm, hands, rng, tricks, jacks)
    return hand_value(pb, pm, tricks, jacks)


@helper
def _fits_bids(base, bmasks, world, legal_bids, pb, pm, rng):
    """Whether every earlier bidder's hand in ``world`` agrees with its bid: expert's bid on
    that hand is the same bid, or both are ordinary and within :data:`BID_TOLERANCE`."""
    pb[:] = base
    pm[:] = bmasks
    me = base[V_SEAT]
    n = base[V_N]
    for s in range(n):
        b = base[V_BID + s]
        if s == me or b < 0 or b == B_BN or b == B_B6:  # blind bids say nothing of the hand
            continue
        pb[V_SEAT] = s
        for t in range(n):
            pb[V_BID + t] = base[V_BID + t] if t != s else -1
        pm[M_HAND] = world[s]
        pm[M_LEGAL] = legal_bids
        e = expert_bid(pb, pm, rng)
        if e == b:
            continue
        if 1 <= e <= 17 and 1 <= b <= 17 and abs(e - b) <= BID_TOLERANCE:
            continue
        return False
    return True


@helper
def _bid_worlds(base, masks, legal_bids, rng, n_worlds, worlds):
    """Up to ``n_worlds`` deals of the cards the seat does not hold into ``worlds``: exact hand
    sizes (the dealer one card short when he sits out trick 1), redrawn up to
    :data:`SHAPE_TRIES` times while they contradict the earlier bids (:func:`_fits_bids`)."""
    me = base[V_SEAT]
    n = base[V_N]
    hand = masks[M_HAND]
    fixed = np.zeros(n, np.uint64)
    fixed[me] = hand
    unseen = masks[M_DECK] & ~hand
    sizes = np.zeros(n, np.int64)
    allowed = np.zeros(n, np.uint64)
    short = sits_out(base, masks)
    for s in range(n):
        sizes[s] = base[V_T] - (1 if (short and s == base[V_DEALER]) else 0)
        allowed[s] = _ALL if s != me else np.uint64(0)
    sizes[me] = popcount(hand)
    hands = np.zeros(n, np.uint64)
    cards = np.zeros(64, np.int64)
    buf = np.zeros(64, np.int64)
    pb = base.copy()
    pm = masks.copy()
    count = 0
    for w in range(n_worlds):
        got = False
        for t in range(SHAPE_TRIES):
            if sample_world(unseen, fixed, sizes, allowed, rng, hands, cards, buf, HARD_TRIES) < 0:
                break
            got = True
            if _fits_bids(base, masks, hands, legal_bids, pb, pm, rng):
                break
        if not got:
            break
        for s in range(n):
            worlds[count, s] = hands[s]
        count += 1
    return count


@helper
def bid_candidates(base, masks, prefer, span):
    """The bids pimc simulates (a code mask): ``prefer`` (expert's), the legal ordinary bids and
    1F/2F/SM whose tricks are within ``bid_span`` of expert's count (``prefer`` when ordinary,
    else expert's ordinary estimate), and Nil when legal."""
    legal = masks[M_LEGAL]
    center = prefer
    if not (1 <= prefer <= 17):
        est = expected_tricks(masks[M_HAND], base[V_N], base[V_T])
        center = min(max(1, np.int64(est + 0.5 - param_value(base, V_PARAMS + P_MARGIN))), base[V_MAX_BID])
    out = bit(prefer)
    for b in range(1, 18):
        if legal & bit(b) and abs(b - center) <= span:
            out |= bit(b)
    if legal & bit(NIL):
        out |= bit(NIL)
    if legal & bit(B_1F) and abs(1 - center) <= span:
        out |= bit(B_1F)
    if legal & bit(B_2F) and abs(2 - center) <= span:
        out |= bit(B_2F)
    if legal & bit(B_SM) and abs(base[V_SM_MIN] - center) <= span:
        out |= bit(B_SM)
    return out


@helper
def pimc_bid_choice(view, masks, rng, totals):
    """The bid pimc makes: expert's unless another candidate's mean gain over it is more than
    :data:`BID_Z` standard errors above 0 (``totals[b]``: each candidate's total
    :func:`hand_value` over the worlds; all 0 when nothing was simulated). Returns (bid,
    worlds, candidates: a code mask)."""
    base = _expert_view(view)
    prefer = expert_bid(base, masks, rng)
    for b in range(totals.shape[0]):
        totals[b] = 0
    n_worlds = min(int(param_value(view, V_PARAMS + P_BID_WORLDS)), MAX_WORLDS)
    if n_worlds == 0:
        return prefer, 0, np.uint64(0)
    candidates = bid_candidates(base, masks, prefer, int(param_value(view, V_PARAMS + P_BID_SPAN)))
    if popcount(candidates) < 2:
        return prefer, 0, candidates
    n = view[V_N]
    legal_bids = masks[M_LEGAL]
    worlds = np.zeros((n_worlds, n), np.uint64)
    count = _bid_worlds(base, masks, legal_bids, rng, n_worlds, worlds)
    if count == 0:
        return prefer, 0, candidates
    pb = base.copy()
    rv = base.copy()
    pm = masks.copy()
    rm = masks.copy()
    hands = np.zeros(n, np.uint64)
    tricks = np.zeros(n, np.int64)
    jacks = np.zeros(n, np.uint64)
    values = np.zeros(64, np.int64)
    sums = playout_sums()
    for w in range(count):
        for b in range(64):
            if candidates & bit(b):
                values[b] = bid_value(base, masks, b, worlds[w], legal_bids, pb, pm, rv, rm, hands, rng,
                                      tricks, jacks)
        add_world(values, candidates, prefer, 1, totals, sums)
    return confident_candidate(candidates, sums, prefer, BID_Z), count, candidates


@policy(SIG)
def pimc_bid(view, masks, rng):
    totals = np.zeros(64, np.int64)
    b, _, _ = pimc_bid_choice(view, masks, rng, totals)
    return b


@policy(SIG)
def pimc_blind(view, masks, rng):
    return expert_blind(_expert_view(view), masks, rng)


@policy(SIG)
def pimc_redeal(view, masks, rng):
    return expert_redeal(_expert_view(view), masks, rng)


PIMC = Policy("pimc", searching=True, ladder="worlds=8:bid_worlds=8", blind=pimc_blind, bid=pimc_bid, play=pimc_play,
              redeal=pimc_redeal, params=PIMC_PARAMS,
              help="perfect-information Monte Carlo (paranoid): late cards solved double dummy over sampled "
                   "deals; bids chosen by playing each candidate out with expert's cards over sampled deals")


def bid_totals(view, masks, seed: int = 1):
    """Test entry: (bid, worlds, {candidate bid: total hand_value}) of pimc at a filled bid view
    (no candidates when expert's bid stands without simulation)."""
    rng = np.array([seed], np.uint64)
    totals = np.zeros(64, np.int64)
    bid, worlds, cand = pimc_bid_choice(np.asarray(view, np.int64), np.asarray(masks, np.uint64), rng, totals)
    return int(bid), int(worlds), {b: int(totals[b]) for b in range(64) if worlds and (int(cand) >> b) & 1}
