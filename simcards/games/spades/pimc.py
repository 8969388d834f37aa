"""``pimc``: perfect-information Monte Carlo card play for Spades (core/pimc.py).

Once the deciding seat holds at most ``dd_cards`` cards (at most :data:`NIL_DD_CARDS` while a
Nil is alive, either team's), each play decision samples
``worlds`` deals of the unseen cards (exact hand sizes, shown voids, the cards this seat
passed to its partner in an exchange), shaped by the bids: a world is redrawn (up to
:data:`SHAPE_TRIES` times) while a seat's hand *as dealt* (its cards in the world plus those
it has played, ``V_PLAYED_BY``) would not give its bid under expert's bidding rules: a
number bid more than ``bid_tolerance`` away from int(expert estimate + 0.8), a Nil on a hand
whose Nil risk is 2.6 or more (Blind Nil and teams that exchanged cards are not checked).
The worlds of a card decision also use the cards played (:func:`_decision_worlds`): it draws
:data:`OVERSAMPLE` (4) times as many and keeps those whose logged plays (``V_HISTORY``) are
likeliest under a model of the opponents' play (:func:`replay_logw`: the hand replayed in
the world, at each opponent's play with a choice ``expert``'s card has ``1 - MODEL_EPS``
and every other legal card an equal share of ``MODEL_EPS``); the kept worlds count
equally. Weighting the worlds by that likelihood instead (:data:`PLAY_WEIGHTS`, importance
weights in fixed point, :func:`world_weights`, in the double-dummy totals and the
play-outs' totals alike) measured worse and is off (docs/dev/pimc-weights.md).
Every legal card is solved double dummy in every world, the result scored, and the card
with the best total is played (ties: fitted's card if it is among the best, else the lowest
card). Earlier in the hand it plays fitted's card (``playout_worlds`` = 0) or decides by
play-outs (:func:`_playout_card`: each distinct legal card played, then the hand played out by
fitted's card play at every seat, in ``playout_worlds`` worlds shaped as above, scored by the rules'
points of the whole hand); for bids (below), exchange, Blind Nil and misdeal it is
``expert`` at expert's default parameters. The view's eight parameter slots are all taken:
``min_worlds`` is the constant ``core.pimc.MIN_WORLDS`` here.

Scoring of a world, where ``v`` is the tricks the partnership takes from here:
both teams' contracts (number bids only) scored as the rules do, made 10 per bid trick,
set minus that (20 under 10-for-200, rule 5.5), each overtrick ``1 - bag_cost`` points; the value is our points minus the
opponents'. Every Nil still alive (a Nil or Blind Nil bidder without a trick, either team's)
adds its own term: in each world, a card after which the Nil bidder's opponents can make it
take a trick, its partner and it playing to keep it off every trick (core/dd_nil.py), costs
our side the Nil's value when the Nil is ours and gains it when it is theirs. So pimc covers
its partner's Nil and attacks the opponents'. The search stops sampling after the world that
takes the solver past ``node_budget`` nodes, once ``min_worlds`` are solved: the cost per
decision is bounded, deterministically.

The play-outs and the simulated bids score the whole hand as the rules do (a failed Nil's
tricks as ``failed_nil_tricks`` says, rule 5.4: bags by default). The solver counts a
partnership's tricks, so once a Nil has failed beside a number bid the play-outs decide to the
end of the hand, unless the rule is ``partner`` (the tricks count for the partner's contract,
as the solver counts them). Not modelled:
the bag penalty; the solver assumes spades must be
broken unless this seat, on lead, was allowed to lead one, and allows trumping on trick 1.
"""
from __future__ import annotations

import math

import numpy as np

from simcards.core.cards import bit, lowest_card, popcount
from simcards.core.tricks import spades_legal
from simcards.core.jit import helper, policy
from simcards.core.pimc import (
    BAG_COST, BID_WORLDS, MAX_WORLDS, MIN_WORLDS, add_world, bid_span, confident_candidate,
    distinct_cards, play_params, playout_sums, playout_worlds, sample_world, solve_worlds, solver_rules,
    trump_lead_restrict, with_params,
)
from simcards.core.policy import Policy, PolicyParam, param_value
from simcards.games.spades.rules import FAILED_NIL_TRICKS, record_play, start_trick
from simcards.games.spades.policies import (
    EXPERT_PARAMS, SIG, V_BID, V_BLIND, V_BN_VALUE, V_BROKEN, V_DEALER, V_DECK, V_EXCHANGE, V_FAILED_NIL_TRICKS,
    V_GIVEN, V_HAND,
    V_LEADER, V_LED_SUIT, V_LEGAL, V_NIL_VALUE, V_NPLAYED, V_PARAMS, V_PLAYED, V_PLAYED_BY, V_RECEIVED, V_SEAT,
    V_SUITS, V_TABLE, V_TEN_MIN_BID, V_TEN_SET_DOUBLED, V_TRICK, V_TRICKS, V_WIN_CARD, V_WIN_SEAT, V_HISTORY,
    V_VOIDS, HISTORY_SLOTS, card_play, history_card, expert_bid, expert_blind, expert_estimate, expert_exchange,
    expert_misdeal,
    nil_risk,
)

# the view has 8 parameter slots: min_worlds is the constant core.pimc.MIN_WORLDS here (its default)
P_WORLDS, P_DD_CARDS, P_NODE_BUDGET, P_BAG_COST, P_BID_TOLERANCE, P_BID_WORLDS, P_BID_SPAN, P_PLAYOUT_WORLDS = range(8)
PIMC_PARAMS = play_params(13, min_worlds=False) + (
    BAG_COST,
    PolicyParam("bid_tolerance", 2, 0, 13, "redraw a world where a seat's dealt hand is further than this from "
                "its bid by expert's rules (13: bids ignored)", integer=True),
    BID_WORLDS,
    bid_span(13),
    playout_worlds(32),
)
# While a Nil is alive, double dummy from at most this many cards: earlier, the attackers of a
# Nil can make it take a trick in nearly every world whatever it plays, so the Nil term tells
# no card from another and the Nil bidder's tricks still count for its side's contract; the
# play-outs keep fitted's Nil play (pimc:dd_cards=13 made 92 of 280 Nils against 229)
NIL_DD_CARDS = 5
SHAPE_TRIES = 40  # redraws of a world that contradicts the bids before it is kept anyway
HARD_TRIES = 200  # rejection draws before the constructive deal (core.pimc.sample_world)
NIL_RISK_LIMIT = 2.6  # expert's largest Nil risk (behind_nil_risk): a Nil hand is below it
PLAY_WEIGHTS = False  # weight each world by the other seats' logged plays (replay_logw)
PLAY_MODEL_SHARP = False  # the play model of the other seats: expert's card (True: fitted's)
MODEL_PARTNER = False  # the partner's plays weigh the worlds too (False: only the opponents')
MODEL_EPS = 0.2  # the model's probability of a legal card other than its own (shared equally)
TEMPER = 1.0  # the weights are exp(TEMPER * log weight): below 1 flattens them (a world's plays count less)
OVERSAMPLE = 4  # a card decision draws this many times its worlds and keeps the likeliest (1: all drawn)
BID_Z = 1.0  # a bid other than expert's needs its mean gain this many standard errors above 0
PLAYOUT_Z = 1.0  # a play-out card other than fitted's needs its mean gain this many standard errors above 0
WEIGHT_SCALE = 1 << 16  # the weight of the likeliest world of a decision (fixed point)
_EXPERT_DEFAULTS = np.array([p.fixed(p.default) for p in EXPERT_PARAMS], np.int64)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_ALL_BIDS = (1 << 14) - 1  # a later seat's legal bids in a simulated bidding: Nil and 1..13


@helper
def _expert_view(view):
    """A copy of ``view`` with expert's default parameters in the parameter slots."""
    return with_params(view, V_PARAMS, _EXPERT_DEFAULTS)


@helper
def _fits_bids(view, world, tol):
    """Whether every other seat's dealt hand in ``world`` agrees with its bid (module doc)."""
    me = view[V_SEAT]
    for s in range(4):
        b = view[V_BID + s]
        if s == me or b < 0 or view[V_BLIND + s] == 1 or view[V_EXCHANGE + (s & 1)] != 0:
            continue
        dealt = world[s] | np.uint64(view[V_PLAYED_BY + s])
        if b == 0:
            if nil_risk(dealt, view) >= NIL_RISK_LIMIT:
                return False
        elif tol < 13:
            want = max(int(expert_estimate(dealt, view) + 0.8), 1)
            if abs(want - b) > tol:
                return False
    return True


@helper
def _contract_points(view, bid, taken, extra, bag_cost):
    """A team's contract points (x10) with ``taken`` tricks so far and ``extra`` to come;
    under 10-for-200 (5.5: ``V_TEN_MIN_BID`` > 0) a contract of at least that many is worth
    20 a bid trick made and, if ``V_TEN_SET_DOUBLED``, 20 a bid trick set."""
    if bid <= 0:
        return -int(round(10 * bag_cost * (taken + extra))) + 10 * (taken + extra)
    made, set_ = 100, 100
    if view[V_TEN_MIN_BID] > 0 and bid >= view[V_TEN_MIN_BID]:
        made = 200
        if view[V_TEN_SET_DOUBLED]:
            set_ = 200
    total = taken + extra
    if total < bid:
        return -set_ * bid
    return made * bid + int(round(10 * (1.0 - bag_cost) * (total - bid)))


@helper
def _utility(view, left, bag_cost, out):
    """``out[v]``: the points of a world where the deciding partnership takes ``v`` of ``left``
    tricks: both teams' number contracts (a Nil's value is :func:`_live_nils`' separate term).

    No tie-break towards taking tricks: with ``bag_cost=1`` an overtrick is worth nothing and
    expert's card (which ducks once the contract is safe) breaks ties; a trick tie-break
    measured worse at the game level (docs/games/spades.md, "pimc")."""
    me = view[V_SEAT]
    bids = np.zeros(2, np.int64)
    taken = np.zeros(2, np.int64)
    for s in range(4):
        b = view[V_BID + s]
        if b > 0:
            bids[s & 1] += b
            taken[s & 1] += view[V_TRICKS + s]
        elif b == 0 and _nil_tricks_to_partner(view, s):
            taken[s & 1] += view[V_TRICKS + s]
    us = me & 1
    for v in range(left + 1):
        out[v] = (_contract_points(view, bids[us], taken[us], v, bag_cost)
                  - _contract_points(view, bids[1 - us], taken[1 - us], left - v, bag_cost))


@helper
def _sample_worlds(view, rng, n_worlds, worlds):
    """Up to ``n_worlds`` deals of the unseen cards into ``worlds`` (module doc: exact hand
    sizes, shown voids, the cards passed to the partner, redrawn while they contradict the
    bids). Returns how many were drawn."""
    tol = int(param_value(view, V_PARAMS + P_BID_TOLERANCE))
    me = view[V_SEAT]
    hand = np.uint64(view[V_HAND])
    left = popcount(hand)
    played = np.uint64(view[V_PLAYED])
    fixed = np.zeros(4, np.uint64)
    fixed[me] = hand
    partner = me ^ 2
    fixed[partner] = np.uint64(view[V_GIVEN]) & ~played  # cards passed to the partner, not yet played
    unseen = np.uint64(view[V_DECK]) & ~played & ~hand & ~fixed[partner]
    sizes = np.zeros(4, np.int64)
    allowed = np.zeros(4, np.uint64)
    for s in range(4):
        sizes[s] = left - 1 if (s != me and view[V_TABLE + s] >= 0) else left
        a = _ALL
        for suit in range(4):
            if (view[V_VOIDS + s] >> suit) & 1:
                a &= ~np.uint64(view[V_SUITS + suit])
        allowed[s] = a if s != me else np.uint64(0)
    hands = np.zeros(4, np.uint64)
    cards = np.zeros(64, np.int64)
    buf = np.zeros(64, np.int64)
    count = 0
    for w in range(n_worlds):
        got = False
        for t in range(SHAPE_TRIES):
            if sample_world(unseen, fixed, sizes, allowed, rng, hands, cards, buf, HARD_TRIES) < 0:
                break
            got = True
            if _fits_bids(view, hands, tol):
                break
        if not got:
            break
        for s in range(4):
            worlds[count, s] = hands[s]
        count += 1
    return count


@helper
def _nil_seat(view):
    """The seat whose Nil the deciding side plays for (this seat or its partner, Nil and no
    trick yet), or -1: then the partnership's tricks are measured."""
    me = view[V_SEAT]
    if view[V_BID + me] == 0 and view[V_TRICKS + me] == 0:
        return me
    if view[V_BID + (me ^ 2)] == 0 and view[V_TRICKS + (me ^ 2)] == 0:
        return me ^ 2
    return -1


@helper
def _model_card(rv, hands, s, legal, me, given_me, got_me, sharp):
    """The card ``card_play`` gives seat ``s`` (its hand ``hands[s]``, ``legal``) in a play-out
    or replay view ``rv`` of the deciding seat ``me``, which knows only its own exchange
    (``given_me``, ``got_me``: what it passed to and got from its partner)."""
    rv[V_SEAT] = s
    rv[V_HAND] = np.int64(hands[s])
    rv[V_LEGAL] = np.int64(legal)
    rv[V_GIVEN] = given_me if s == me else (got_me if s == (me ^ 2) else 0)
    rv[V_RECEIVED] = got_me if s == me else (given_me if s == (me ^ 2) else 0)
    return card_play(rv, sharp)


@helper
def _close_trick(rv, trick, winner):
    """Credit trick ``trick`` to ``winner`` in ``rv`` and open the next one, which it leads.
    Returns the next trick's number."""
    rv[V_TRICKS + winner] += 1
    trick += 1
    if trick < 13:
        start_trick(rv, trick, winner)
    return trick


@helper
def rollout(base, world, first, rv, hands, rng, tricks, sharp=False):
    """Play the hand out from the position of ``base`` (a view at a decision of its seat,
    with expert's parameters: :func:`_expert_view`) in the deal ``world`` (every seat's
    hand): the deciding seat plays ``first`` (-1: its heuristic card), then every seat plays
    ``expert``'s card (``sharp``: ``fitted``'s, ``policies.card_play``). ``tricks[s]``: the
    tricks seat ``s`` takes from here on, the trick in progress included. ``rv``, ``hands``:
    scratch. Spades must be broken and trumping on trick 1 is allowed (the rules' defaults: a
    view does not carry them). The heuristic's decisions would draw from ``rng``, the deciding seat's stream; the view is kept by the
    kernel's own bookkeeping (``rules.start_trick``, ``rules.record_play``)."""
    rv[:] = base
    for s in range(4):
        hands[s] = world[s]
        tricks[s] = 0
    me = base[V_SEAT]
    given_me = base[V_GIVEN]
    got_me = base[V_RECEIVED]
    suit_masks = np.zeros(4, np.uint64)
    for s in range(4):
        suit_masks[s] = np.uint64(base[V_SUITS + s])
    trick = base[V_TRICK]
    leader = base[V_LEADER]
    pos = base[V_NPLAYED]
    led = base[V_LED_SUIT]
    best = base[V_WIN_CARD]
    best_seat = base[V_WIN_SEAT]
    broken = base[V_BROKEN] == 1
    played = np.uint64(base[V_PLAYED])
    c = first
    while trick < 13:
        s = (leader + pos) & 3
        rv[V_NPLAYED] = pos
        if c < 0:
            legal = spades_legal(hands[s], led, suit_masks, -1, not broken, False)
            if popcount(legal) == 1:
                c = lowest_card(legal)
            else:
                c = _model_card(rv, hands, s, legal, me, given_me, got_me, sharp)
        led, best, best_seat, broken, played = record_play(rv, hands, suit_masks, s, c, pos, led, best,
                                                           best_seat, broken, played)
        c = -1
        pos += 1
        if pos == 4:
            tricks[best_seat] += 1
            trick = _close_trick(rv, trick, best_seat)
            leader = best_seat
            pos = 0
            led = -1
            best = -1
            best_seat = -1


@helper
def replay_logw(base, view, world, rv, hands, suit_masks):
    """The log of the probability of the other seats' logged plays (``V_HISTORY``) in the deal
    ``world`` under :data:`PLAY_MODEL`: the hand replayed from its first card, each seat
    holding its cards of ``world`` plus those it has played (``V_PLAYED_BY``), and at each play
    by another seat with a choice, expert's card (``base``: ``view`` with expert's parameters,
    its views of the other seats built as :func:`rollout` builds them, kept by
    ``rules.record_play``) gets ``1 - MODEL_EPS``, each other legal card an equal share of
    ``MODEL_EPS``. The deciding seat's own plays and a forced opening lead (the deck's lowest
    club) say nothing. ``rv``, ``hands``: scratch. Returns (log weight, plays the replay found
    illegal under the default rules (spades must be broken, trumping on trick 1 allowed),
    such a play is kept and not scored); (0, -1) when the log does not replay (a view not
    filled by the kernel)."""
    me = view[V_SEAT]
    played_all = np.uint64(view[V_PLAYED])
    n = popcount(played_all)
    rv[:] = base
    given_me = base[V_GIVEN]
    got_me = base[V_RECEIVED]
    for s in range(4):
        hands[s] = world[s] | np.uint64(view[V_PLAYED_BY + s])
        rv[V_PLAYED_BY + s] = 0
        rv[V_VOIDS + s] = 0
        rv[V_TRICKS + s] = 0
    for k in range(HISTORY_SLOTS):
        rv[V_HISTORY + k] = 0
    rv[V_PLAYED] = 0
    rv[V_BROKEN] = 0
    club = lowest_card(np.uint64(view[V_DECK]) & suit_masks[0])
    logw = 0.0
    bad = 0
    trick = 0
    leader = -1
    pos = 0
    led = -1
    best = -1
    best_seat = -1
    broken = False
    played = np.uint64(0)
    for i in range(n):
        c = history_card(view, i)
        s = -1
        for t in range(4):
            if hands[t] & bit(c):
                s = t
        if s < 0 or not played_all & bit(c) or (leader >= 0 and s != ((leader + pos) & 3)):
            return 0.0, -1
        if leader < 0:
            leader = s
            start_trick(rv, 0, leader)
        rv[V_NPLAYED] = pos
        legal = spades_legal(hands[s], led, suit_masks, -1, not broken, False)
        if not legal & bit(c):
            bad += 1
        elif s != me and (MODEL_PARTNER or s != (me ^ 2)) and popcount(legal) > 1 and not (i == 0 and c == club):
            if _model_card(rv, hands, s, legal, me, given_me, got_me, PLAY_MODEL_SHARP) == c:
                logw += math.log(1.0 - MODEL_EPS)
            else:
                logw += math.log(MODEL_EPS / (popcount(legal) - 1))
        led, best, best_seat, broken, played = record_play(rv, hands, suit_masks, s, c, pos, led, best,
                                                           best_seat, broken, played)
        pos += 1
        if pos == 4:
            trick = _close_trick(rv, trick, best_seat)
            leader = best_seat
            pos = 0
            led = -1
            best = -1
            best_seat = -1
    return logw, bad


@helper
def world_weights(view, worlds, count, weights):
    """``weights[w]``: world ``w``'s weight in the decision's totals: :func:`replay_weights`
    when :data:`PLAY_WEIGHTS` is on, else :data:`WEIGHT_SCALE` each."""
    if PLAY_WEIGHTS:
        replay_weights(view, worlds, count, weights)
    else:
        for w in range(count):
            weights[w] = WEIGHT_SCALE


@helper
def _replay_logws(view, worlds, count, logw):
    """``logw[w]``: world ``w``'s log weight under the other seats' logged plays
    (:func:`replay_logw`; 0 for a world whose log does not replay). Returns whether every
    world replayed."""
    base = _expert_view(view)
    rv = base.copy()
    hands = np.zeros(4, np.uint64)
    suit_masks = np.zeros(4, np.uint64)
    for s in range(4):
        suit_masks[s] = np.uint64(view[V_SUITS + s])
    every = True
    for w in range(count):
        lw, bad = replay_logw(base, view, worlds[w], rv, hands, suit_masks)
        if bad < 0:
            lw = 0.0
            every = False
        logw[w] = lw
    return every


@helper
def replay_weights(view, worlds, count, weights):
    """``weights[w]`` (int64, at most :data:`WEIGHT_SCALE`): world ``w``'s importance weight,
    ``exp(TEMPER * (log weight - the largest of the decision's))`` of :func:`replay_logw` in fixed point
    (the totals stay integers, so ties and determinism are exact); all
    :data:`WEIGHT_SCALE` when nothing was played or a world's log does not replay."""
    for w in range(count):
        weights[w] = WEIGHT_SCALE
    if count < 2 or view[V_PLAYED] == 0:
        return
    logw = np.zeros(count, np.float64)
    if not _replay_logws(view, worlds, count, logw):
        return
    top = logw.max()
    for w in range(count):
        weights[w] = np.int64(math.floor(WEIGHT_SCALE * math.exp(TEMPER * (logw[w] - top)) + 0.5))


@helper
def _decision_worlds(view, rng, n_worlds, worlds):
    """The worlds of a card decision: :func:`_sample_worlds`, or with :data:`OVERSAMPLE` > 1
    that many times ``n_worlds`` drawn and the ``n_worlds`` whose logged plays are likeliest
    (:func:`replay_logw`; ties: the earlier drawn) kept. Returns how many."""
    if OVERSAMPLE <= 1 or view[V_PLAYED] == 0:
        return _sample_worlds(view, rng, n_worlds, worlds)
    pool = np.zeros((n_worlds * OVERSAMPLE, 4), np.uint64)
    got = _sample_worlds(view, rng, n_worlds * OVERSAMPLE, pool)
    logw = np.zeros(got, np.float64)
    _replay_logws(view, pool, got, logw)
    order = np.argsort(-logw, kind="mergesort")
    count = min(n_worlds, got)
    for k in range(count):
        for s in range(4):
            worlds[k, s] = pool[order[k], s]
    return count


@helper
def pimc_card(view, rng, totals):
    """The card pimc plays (``totals[c]``: each card's total value; all 0 when expert decided).
    Returns (card, worlds solved)."""
    legal = np.uint64(view[V_LEGAL])
    prefer = card_play(view, True)  # fitted's card
    for c in range(64):
        totals[c] = 0
    me = view[V_SEAT]
    left = popcount(np.uint64(view[V_HAND]))
    if popcount(legal) < 2:
        return prefer, 0
    dd_cards = int(param_value(view, V_PARAMS + P_DD_CARDS))
    nils = _live_nils(view)
    if nils.shape[0] > 0:
        dd_cards = min(dd_cards, NIL_DD_CARDS)
    if left > dd_cards or _failed_nil_with_partner(view):
        return _playout_card(view, rng, prefer, totals)
    n_worlds = min(int(param_value(view, V_PARAMS + P_WORLDS)), MAX_WORLDS)
    worlds = np.zeros((n_worlds, 4), np.uint64)
    count = _decision_worlds(view, rng, n_worlds, worlds)
    if count == 0:
        return prefer, 0
    side = np.int64((1 << me) | (1 << (me ^ 2)))
    utility = np.zeros(left + 1, np.int64)
    _utility(view, left, param_value(view, V_PARAMS + P_BAG_COST), utility)
    weights = np.zeros(count, np.int64)
    world_weights(view, worlds, count, weights)
    return _dd_card(view, worlds, count, weights, side, utility, nils, prefer, totals)


@helper
def _nil_tricks_to_partner(view, seat):
    """Whether the tricks of ``seat``, a Nil or Blind Nil bidder, count towards its partner's
    contract: under ``failed_nil_tricks=partner`` when the partner bid a number (5.4)."""
    return view[V_FAILED_NIL_TRICKS] == FAILED_NIL_TRICKS.PARTNER and view[V_BID + (seat ^ 2)] > 0


@helper
def _failed_nil_with_partner(view):
    """Whether a failed Nil or Blind Nil bidder's partner bid a number and the rules do not give
    it the Nil's tricks: the double-dummy phase would count the Nil bidder's later tricks towards
    that contract (the solver counts a partnership's tricks), where the rules make them bags
    (5.4's default) or nothing. Under ``failed_nil_tricks=partner`` the solver counts as the
    rules do."""
    if view[V_FAILED_NIL_TRICKS] == FAILED_NIL_TRICKS.PARTNER:
        return False
    for s in range(4):
        if view[V_BID + s] == 0 and view[V_TRICKS + s] > 0 and view[V_BID + (s ^ 2)] > 0:
            return True
    return False


@helper
def _live_nils(view):
    """The Nils still alive (a Nil or Blind Nil bidder without a trick), as core.pimc.decide's
    rows: (seat, the other team's seats, the points to this seat's side if it fails: minus
    its value for our own team's Nil, plus it for theirs; x10 like the utility)."""
    me = view[V_SEAT]
    n = 0
    for s in range(4):
        if view[V_BID + s] == 0 and view[V_TRICKS + s] == 0:
            n += 1
    out = np.zeros((n, 3), np.int64)
    k = 0
    for s in range(4):
        if view[V_BID + s] == 0 and view[V_TRICKS + s] == 0:
            value = 10 * (view[V_BN_VALUE] if view[V_BLIND + s] else view[V_NIL_VALUE])
            out[k, 0] = s
            out[k, 1] = (1 << ((s + 1) & 3)) | (1 << ((s + 3) & 3))
            out[k, 2] = -value if (s & 1) == (me & 1) else value
            k += 1
    return out


@helper
def _dd_card(view, worlds, count, weights, side, utility, nils, prefer, totals):
    """The DD phase: every legal card solved in every world (core.pimc.decide), world ``w``'s
    points counted ``weights[w]`` times (:func:`world_weights`)."""
    legal = np.uint64(view[V_LEGAL])
    hand = np.uint64(view[V_HAND])
    left = popcount(hand)
    npl = view[V_NPLAYED]
    # the solver's rules: spades trump; must be broken unless this seat, on lead, could lead one
    R = solver_rules(4, 3, trump_lead_restrict(npl, view[V_BROKEN], hand, legal, np.uint64(view[V_SUITS + 3])), -1)
    suit_masks = np.zeros(4, np.uint64)
    for s in range(4):
        suit_masks[s] = np.uint64(view[V_SUITS + s])
    leader = view[V_LEADER]
    tc = np.zeros(8, np.int64)
    for i in range(npl):
        tc[i] = view[V_TABLE + ((leader + i) & 3)]
    t1 = 1 if view[V_TRICK] == 0 else 0
    return solve_worlds(worlds, count, weights, R, side, suit_masks, tc, np.int64(npl), np.int64(leader),
                        np.int64(view[V_BROKEN]), np.int64(t1), legal, utility, nils, prefer,
                        np.int64(param_value(view, V_PARAMS + P_NODE_BUDGET)),
                        np.int64(MIN_WORLDS), left, totals)


@helper
def _playout_card(view, rng, prefer, totals):
    """Before ``dd_cards``: each distinct legal card (core.pimc.distinct_cards) played in
    ``playout_worlds`` worlds, then the hand played out by fitted's card play at every seat
    (:func:`rollout`), scored by the rules' points of the whole hand, the tricks taken so far
    included (:func:`_hand_points`, ``bag_cost``), each world's points counted ``weights[w]``
    times (:func:`world_weights`); ``prefer`` (fitted's card) unless another's gain over it is
    more than :data:`PLAYOUT_Z` standard errors above 0 (core.pimc.confident_candidate).
    ``playout_worlds`` = 0: ``prefer``. Returns (card, worlds)."""
    n_worlds = min(int(param_value(view, V_PARAMS + P_PLAYOUT_WORLDS)), MAX_WORLDS)
    if n_worlds == 0:
        return prefer, 0
    legal = np.uint64(view[V_LEGAL])
    alive = np.uint64(view[V_DECK]) & ~np.uint64(view[V_PLAYED])
    suit_masks = np.zeros(4, np.uint64)
    for s in range(4):
        suit_masks[s] = np.uint64(view[V_SUITS + s])
        if view[V_TABLE + s] >= 0:
            alive |= bit(view[V_TABLE + s])  # the trick in progress
    candidates = distinct_cards(legal, alive, suit_masks, prefer)
    if popcount(candidates) < 2:
        return prefer, 0
    worlds = np.zeros((n_worlds, 4), np.uint64)
    count = _decision_worlds(view, rng, n_worlds, worlds)
    if count == 0:
        return prefer, 0
    base = _expert_view(view)
    bag_cost = param_value(view, V_PARAMS + P_BAG_COST)
    weights = np.zeros(count, np.int64)
    world_weights(view, worlds, count, weights)
    rv = base.copy()
    hands = np.zeros(4, np.uint64)
    tricks = np.zeros(4, np.int64)
    values = np.zeros(64, np.int64)
    sums = playout_sums()
    for w in range(count):
        for c in range(64):
            if candidates & bit(c):
                rollout(base, worlds[w], c, rv, hands, rng, tricks, True)
                for s in range(4):
                    tricks[s] += view[V_TRICKS + s]
                values[c] = _hand_points(view, tricks, bag_cost)
        add_world(values, candidates, prefer, weights[w], totals, sums)
    return confident_candidate(candidates, sums, prefer, PLAYOUT_Z), count


@policy(SIG)
def pimc_play(view, rng):
    totals = np.zeros(64, np.int64)
    card, _ = pimc_card(view, rng, totals)
    return card


@helper
def _hand_points(view, tricks, bag_cost):
    """Points (x10) of the deciding seat's team minus the opponents' for a hand whose bids are
    in ``view`` and whose tricks per seat are ``tricks``: number contracts as in
    :func:`_contract_points`, a Nil +-``nil_value`` (a Blind Nil +-``blind_nil_value``), a failed
    Nil's tricks as ``failed_nil_tricks`` says (5.4: bags worth ``1 - bag_cost`` each by default,
    the partner's contract under ``partner``, nothing under ``ignored``), 10-for-200 as in
    :func:`_contract_points`; the bag penalty aside."""
    us = view[V_SEAT] & 1
    value = 0
    for team in range(2):
        bid = 0
        taken = 0
        points = 0
        for s in (team, team + 2):
            b = view[V_BID + s]
            if b == 0:
                nil = view[V_BN_VALUE] if view[V_BLIND + s] else view[V_NIL_VALUE]
                points += (-1 if tricks[s] > 0 else 1) * nil * 10
                if _nil_tricks_to_partner(view, s):
                    taken += tricks[s]
                elif view[V_FAILED_NIL_TRICKS] != FAILED_NIL_TRICKS.IGNORED:
                    points += int(round(10 * (1.0 - bag_cost) * tricks[s]))
            else:
                bid += b
                taken += tricks[s]
        if bid > 0:
            points += _contract_points(view, bid, taken, 0, bag_cost)
        value += points if team == us else -points
    return value


@helper
def bid_value(base, bid, world, pb, rv, hands, rng, tricks, bag_cost):
    """Points (x10, :func:`_hand_points`) of the hand dealt as ``world`` when the deciding
    seat of ``base`` (its bid decision, expert's parameters) bids ``bid``: the seats after it
    bid as ``expert`` would with their hands of ``world`` (any bid 0..13 legal), then every
    seat plays ``expert``'s cards from the opening lead (left of the dealer; no card exchange)."""
    pb[:] = base
    me = base[V_SEAT]
    dealer = base[V_DEALER]
    pb[V_BID + me] = bid
    s = (me + 1) & 3
    while s != ((dealer + 1) & 3):
        if pb[V_BID + s] < 0:
            pb[V_SEAT] = s
            pb[V_HAND] = np.int64(world[s])
            pb[V_LEGAL] = np.int64(_ALL_BIDS)
            pb[V_BID + s] = expert_bid(pb, rng)
        s = (s + 1) & 3
    pb[V_SEAT] = me
    pb[V_HAND] = np.int64(world[me])
    leader = (dealer + 1) & 3
    start_trick(pb, 0, leader)
    pb[V_NPLAYED] = 0
    pb[V_BROKEN] = 0
    pb[V_PLAYED] = 0
    rollout(pb, world, -1, rv, hands, rng, tricks)
    return _hand_points(pb, tricks, bag_cost)


@helper
def pimc_bid_choice(view, rng, totals):
    """The bid pimc makes: expert's unless another candidate's mean gain over it in the
    same worlds is more than :data:`BID_Z` standard errors above 0 (core.pimc.confident_candidate).
    ``totals[b]``: each candidate's total points over the worlds, x10 (all 0 when nothing was
    simulated). Returns (bid, worlds)."""
    base = _expert_view(view)
    prefer = expert_bid(base, rng)
    for b in range(totals.shape[0]):
        totals[b] = 0
    n_worlds = min(int(param_value(view, V_PARAMS + P_BID_WORLDS)), MAX_WORLDS)
    if n_worlds == 0:
        return prefer, 0
    legal = np.uint64(view[V_LEGAL])
    span = int(param_value(view, V_PARAMS + P_BID_SPAN))
    center = prefer
    if prefer == 0:
        center = max(int(expert_estimate(np.uint64(view[V_HAND]), base) + 0.8), 1)
    candidates = np.uint64(0)
    for b in range(14):
        if legal & bit(b) and (b == 0 or abs(b - center) <= span):
            candidates |= bit(b)
    candidates |= bit(prefer)
    if popcount(candidates) < 2:
        return prefer, 0
    worlds = np.zeros((n_worlds, 4), np.uint64)
    count = _sample_worlds(view, rng, n_worlds, worlds)
    if count == 0:
        return prefer, 0
    bag_cost = param_value(view, V_PARAMS + P_BAG_COST)
    pb = base.copy()
    rv = base.copy()
    hands = np.zeros(4, np.uint64)
    tricks = np.zeros(4, np.int64)
    values = np.zeros(14, np.int64)
    sums = playout_sums()
    for w in range(count):
        for b in range(14):
            if candidates & bit(b):
                values[b] = bid_value(base, b, worlds[w], pb, rv, hands, rng, tricks, bag_cost)
        add_world(values, candidates, prefer, 1, totals, sums)
    return confident_candidate(candidates, sums, prefer, BID_Z), count


@policy(SIG)
def pimc_bid(view, rng):
    totals = np.zeros(14, np.int64)
    b, _ = pimc_bid_choice(view, rng, totals)
    return b


@policy(SIG)
def pimc_blind(view, rng):
    return expert_blind(_expert_view(view), rng)


PIMC = Policy("pimc", searching=True, ladder="worlds=8:bid_worlds=8", blind=pimc_blind, bid=pimc_bid,
              exchange=expert_exchange, play=pimc_play,
              misdeal=expert_misdeal, params=PIMC_PARAMS,
              help="perfect-information Monte Carlo: late cards solved double dummy over sampled deals "
                   "shaped by the bids; expert's bidding")


def card_totals(view, seed: int = 1):
    """Test entry: (card, worlds solved, {card: total points}) of pimc at a filled view."""
    rng = np.array([seed], np.uint64)
    totals = np.zeros(64, np.int64)
    card, solved = pimc_card(np.asarray(view, np.int64), rng, totals)
    return int(card), int(solved), {c: int(totals[c]) for c in range(64) if totals[c] != 0}


def bid_totals(view, seed: int = 1):
    """Test entry: (bid, worlds, {candidate bid: total points x10}) of pimc at a filled bid view."""
    rng = np.array([seed], np.uint64)
    totals = np.zeros(14, np.int64)
    bid, worlds = pimc_bid_choice(np.asarray(view, np.int64), rng, totals)
    return int(bid), int(worlds), {b: int(totals[b]) for b in range(14) if totals[b] != 0}


def world_replays(view, worlds):
    """Test entry: per world of ``worlds`` (rows of four hands) the (log weight, plays found
    illegal) of :func:`replay_logw`, and :func:`replay_weights`' weights (whatever
    :data:`PLAY_WEIGHTS`)."""
    view = np.asarray(view, np.int64)
    worlds = np.asarray(worlds, np.uint64).reshape(-1, 4)
    base = _expert_view(view)
    rv = base.copy()
    hands = np.zeros(4, np.uint64)
    suit_masks = np.array([view[V_SUITS + s] for s in range(4)], np.int64).astype(np.uint64)
    out = [replay_logw(base, view, worlds[w], rv, hands, suit_masks) for w in range(worlds.shape[0])]
    weights = np.zeros(worlds.shape[0], np.int64)
    replay_weights(view, worlds, worlds.shape[0], weights)
    return [(float(lw), int(bad)) for lw, bad in out], [int(x) for x in weights]


def sampled_worlds(view, n: int, seed: int = 1):
    """Test entry: ``n`` worlds pimc samples at a filled view (rows of four hands)."""
    rng = np.array([seed], np.uint64)
    worlds = np.zeros((n, 4), np.uint64)
    count = _sample_worlds(np.asarray(view, np.int64), rng, n, worlds)
    return worlds[:count]


def decision_worlds(view, n: int, seed: int = 1):
    """Test entry: the ``n`` worlds a card decision keeps at a filled view (:func:`_decision_worlds`)."""
    rng = np.array([seed], np.uint64)
    worlds = np.zeros((n, 4), np.uint64)
    count = _decision_worlds(np.asarray(view, np.int64), rng, n, worlds)
    return worlds[:count]
