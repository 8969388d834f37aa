"""``pimc`` for Kierki: perfect-information Monte Carlo card play (core/pimc.py).

Each play decision with two or more legal cards deals the unseen cards to the other three
seats ``worlds`` times (exact hand sizes, shown voids) and plays each distinct legal card
(core.pimc.distinct_cards) in every world, then the deal out by ``expert`` at every seat
(:func:`rollout`), scored as the deal scores this seat: its tricks in a trump deal, the
penalty points it takes in a negative deal (the view's card and trick penalties). It plays
expert's card unless another's gain over it, world by world, is more than :data:`PLAYOUT_Z`
standard errors above 0 (core.pimc.confident_candidate). In a trump deal, once the seat holds
at most ``dd_cards`` cards, it solves every legal card in every world double dummy instead,
with the seat measured alone against the other three (the paranoid bound; every trick is
worth the same, so the score is the tricks), and plays the card with the most tricks in total
(ties: expert's card if among the best, else the lowest card). The solver counts tricks, not
penalty cards, so a negative deal is played out to its last card. In the lottery it plays
each legal card in ``worlds`` worlds (each seat's cards left, none of the cards a pass showed
it lacks) and the lottery out by expert, valued by the award it wins, with the same
confidence rule. The trump choice is ``expert``'s, and it reads expert's parameters (its first
five). The view's eight parameter slots are full, so every phase reads ``worlds`` (no separate
``playout_worlds`` as in Spades and Cutthroat).

The variant's trump obligation, heart-lead rule and forced king of hearts are not in the view.
The solver assumes no trump obligation unless this seat, void in the suit led, was allowed
only trumps (then ``must_trump``); the play-outs assume none, and in a negative deal that
penalises the king of hearts (no hearts, no king of hearts, the robber) a seat leads a heart
only when it holds nothing else (the default ``heart_lead_rule``, ``only_hearts_left``).
"""
from __future__ import annotations

import numpy as np

from simcards.core import dd
from simcards.core.cards import SUIT_MASKS, bit, lowest_card, popcount
from simcards.core.jit import helper, policy
from simcards.core.pimc import (
    MAX_WORLDS, add_world, confident_candidate, distinct_cards, playout_sums, sample_worlds, solve_worlds, solver_rules,
)
from simcards.core.policy import Policy, PolicyParam, param_value
from simcards.games.kierki.policies import (
    EXPERT, I_LEADER, I_N_IN_TRICK, I_PARAMS, I_PEN, I_SEAT, I_TRICK, I_TRICK_CARDS, I_TRICK_PEN, I_TRUMP,
    I_DEAL_TYPE, M_HAND, M_LEGAL, I_WIN_CARD, I_WIN_SEAT, M_PLAYED, M_VOIDS, SIG, TRUMPS_CODE, _negative_play,
    _trump_play, beats, expert_play,
    L_ACE_HIGH, L_AWARDS, L_BASE, L_HI, L_LEFT, L_LO, L_PARAMS, L_PLACE, L_SEAT, M_ABSENT, _lottery_pick,
    expert_lottery,
)
from simcards.games.kierki.rules import lay_card, lottery_legal

P_WORLDS, P_DD_CARDS, P_NODE_BUDGET = 5, 6, 7  # after expert's five
PIMC_PARAMS = EXPERT.params + (
    PolicyParam("worlds", 16, 1, MAX_WORLDS, "deals of the unseen cards sampled per play decision "
                "(play-outs and double dummy)", integer=True),
    PolicyParam("dd_cards", 5, 1, 13, "trump deals: play double dummy once the seat holds at most this many "
                "cards (before: play-outs of each card by expert at every seat)", integer=True),
    PolicyParam("node_budget", 200_000, 0, 1_000_000_000, "solver nodes per decision: no further world once "
                "spent (after 4 worlds; 0 = no cap)", integer=True),
)
MIN_WORLDS = 4
HARD_TRIES = 200
PLAYOUT_Z = 1.0  # a play-out card other than expert's needs its mean gain this many standard errors above 0
_DECK = np.uint64((1 << 52) - 1)  # every card
_HEARTS = SUIT_MASKS[2]
_KH = 37  # the king of hearts: a deal that penalises it restricts heart leads (by default)


@helper
def _sample(info, masks, rng, n_worlds, worlds):
    """Up to ``n_worlds`` deals of the unseen cards to the other three seats into ``worlds``
    (exact hand sizes, shown voids); returns how many."""
    hand = masks[M_HAND]
    left = popcount(hand)
    me = info[I_SEAT]
    leader = info[I_LEADER]
    npl = info[I_N_IN_TRICK]
    played = masks[M_PLAYED]
    fixed = np.zeros(4, np.uint64)
    fixed[me] = hand
    unseen = _DECK & ~played & ~hand
    sizes = np.zeros(4, np.int64)
    allowed = np.zeros(4, np.uint64)
    for s in range(4):
        done = ((s - leader) & 3) < npl  # already played to this trick
        sizes[s] = left - 1 if (s != me and done) else left
        a = _DECK
        for suit in range(4):
            if (masks[M_VOIDS] >> np.uint64(4 * s + suit)) & np.uint64(1):
                a &= ~SUIT_MASKS[suit]
        allowed[s] = a if s != me else np.uint64(0)
    return sample_worlds(unseen, fixed, sizes, allowed, rng, n_worlds, worlds, HARD_TRIES)


@helper
def pimc_card(info, masks, rng, totals):
    """(card, worlds solved) of pimc at this play decision; ``totals[c]``: each card's value
    summed over the worlds (tricks in a trump deal, penalty points in a negative deal)."""
    legal = masks[M_LEGAL]
    prefer = expert_play(info, masks, rng)
    for c in range(64):
        totals[c] = 0
    hand = masks[M_HAND]
    left = popcount(hand)
    if popcount(legal) < 2:
        return prefer, 0
    if info[I_DEAL_TYPE] != TRUMPS_CODE or left > int(param_value(info, I_PARAMS + P_DD_CARDS)):
        return _playout_card(info, masks, rng, prefer, totals)
    me = info[I_SEAT]
    leader = info[I_LEADER]
    npl = info[I_N_IN_TRICK]
    trump = info[I_TRUMP]
    n_worlds = min(int(param_value(info, I_PARAMS + P_WORLDS)), MAX_WORLDS)
    worlds = np.zeros((n_worlds, 4), np.uint64)
    count = _sample(info, masks, rng, n_worlds, worlds)
    if count == 0:
        return prefer, 0
    tc = np.zeros(8, np.int64)
    for i in range(npl):
        tc[i] = info[I_TRICK_CARDS + i]
    R = solver_rules(4, trump, 0, -1)
    if npl > 0 and trump >= 0:
        led = SUIT_MASKS[tc[0] // 13]
        trumps = SUIT_MASKS[trump]
        if not hand & led and hand & trumps and hand & ~trumps and not legal & ~trumps:
            R[dd.R_OBLIGATION] = dd.OBLIGE_TRUMP
    utility = np.arange(left + 1).astype(np.int64)
    return solve_worlds(worlds, count, np.ones(count, np.int64), R, np.int64(1 << me), SUIT_MASKS.copy(), tc, np.int64(npl),
                        np.int64(leader), np.int64(0), np.int64(0), legal, utility, np.zeros((0, 3), np.int64), prefer,
                        np.int64(param_value(info, I_PARAMS + P_NODE_BUDGET)), np.int64(MIN_WORLDS), left, totals)


@helper
def rollout(info, masks, world, first, rv, rm, hands, tricks, points):
    """Play the deal out from the play decision at ``info``/``masks`` in the deal ``world``
    (every seat's hand): the seat to play plays ``first``, then every seat plays expert's card
    (``policies._trump_play`` or ``_negative_play``, careful). ``tricks[s]``, ``points[s]``:
    the tricks seat ``s`` takes from here on, the trick in progress included, and the points
    they score (the view's trick and card penalties; 0 in a trump deal). No trump obligation
    (the view does not carry the variant's); in a deal that penalises the king of hearts a
    seat leads a heart only when it has nothing else. ``rv``, ``rm``, ``hands``: scratch."""
    rv[:] = info
    rm[:] = masks
    for s in range(4):
        hands[s] = world[s]
        tricks[s] = 0
        points[s] = 0
    negative = info[I_DEAL_TYPE] != TRUMPS_CODE
    no_heart_leads = negative and info[I_PEN + _KH] != 0
    trick = info[I_TRICK]
    trump = info[I_TRUMP]
    leader = info[I_LEADER]
    pos = info[I_N_IN_TRICK]
    win = info[I_WIN_CARD] if pos > 0 else -1
    win_seat = info[I_WIN_SEAT] if pos > 0 else -1
    led = info[I_TRICK_CARDS] // 13 if pos > 0 else -1
    played = masks[M_PLAYED]
    voids = masks[M_VOIDS]
    charge = 0
    for i in range(pos):
        charge += info[I_PEN + info[I_TRICK_CARDS + i]]
    c = first
    while pos > 0 or hands[leader] != 0:
        s = (leader + pos) & 3
        if c < 0:
            legal = hands[s]
            if pos > 0 and hands[s] & SUIT_MASKS[led]:
                legal = hands[s] & SUIT_MASKS[led]
            elif pos == 0 and no_heart_leads and hands[s] & ~_HEARTS:
                legal = hands[s] & ~_HEARTS
            if popcount(legal) == 1:
                c = lowest_card(legal)
            else:
                rv[I_SEAT] = s
                rv[I_LEADER] = leader
                rv[I_TRICK] = trick
                rv[I_N_IN_TRICK] = pos
                rv[I_WIN_CARD] = win
                rv[I_WIN_SEAT] = win_seat
                rm[M_HAND] = hands[s]
                rm[M_LEGAL] = legal
                rm[M_PLAYED] = played
                rm[M_VOIDS] = voids
                c = _negative_play(rv, rm, True) if negative else _trump_play(rv, rm, True)
        charge += info[I_PEN + c]
        hands[s] &= ~bit(c)
        played |= bit(c)
        rv[I_TRICK_CARDS + pos] = c
        if pos == 0:
            led = c // 13
            win = c
            win_seat = s
        else:
            if c // 13 != led:
                voids |= np.uint64(1) << np.uint64(4 * s + led)
            if beats(c, win, trump):
                win = c
                win_seat = s
        c = -1
        pos += 1
        if pos == 4:
            tricks[win_seat] += 1
            if negative:
                points[win_seat] += charge + info[I_TRICK_PEN + trick]
            charge = 0
            trick += 1
            leader = win_seat
            pos = 0


@helper
def _playout_card(info, masks, rng, prefer, totals):
    """Negative deals, and trump deals before ``dd_cards``: each distinct legal card
    (core.pimc.distinct_cards) played in ``worlds`` sampled worlds (the parameter the
    double-dummy phase reads too: the view's eight parameter slots are full), then the deal
    played out by expert at every seat (:func:`rollout`), valued by this seat's tricks in a
    trump deal and its points in a negative deal; ``prefer`` (expert's card) unless another's
    gain over it is more than :data:`PLAYOUT_Z` standard errors above 0
    (core.pimc.confident_candidate). Returns (card, worlds)."""
    n_worlds = min(int(param_value(info, I_PARAMS + P_WORLDS)), MAX_WORLDS)
    legal = masks[M_LEGAL]
    alive = _DECK & ~masks[M_PLAYED]
    for i in range(info[I_N_IN_TRICK]):
        alive |= bit(info[I_TRICK_CARDS + i])  # the trick in progress
    candidates = distinct_cards(legal, alive, SUIT_MASKS.copy(), prefer)
    if popcount(candidates) < 2:
        return prefer, 0
    worlds = np.zeros((n_worlds, 4), np.uint64)
    count = _sample(info, masks, rng, n_worlds, worlds)
    if count == 0:
        return prefer, 0
    return _playout_choice(info, masks, worlds, count, candidates, prefer, False, totals), count


@helper
def _playout_choice(info, masks, worlds, count, candidates, prefer, lottery, totals):
    """The card of ``candidates`` to play after playing each in the ``count`` ``worlds`` and
    the rest out by expert: :func:`lottery_rollout`'s award (``lottery``), else
    :func:`rollout`'s tricks (trump deal) or points (negative deal) of the seat to play.
    ``prefer`` (expert's card) unless another's gain over it is more than :data:`PLAYOUT_Z`
    standard errors above 0 (core.pimc.confident_candidate); ``totals[c]``: the values'
    sums."""
    rv = info.copy()
    rm = masks.copy()
    hands = np.zeros(4, np.uint64)
    tricks = np.zeros(4, np.int64)
    points = np.zeros(4, np.int64)
    me = 0 if lottery else info[I_SEAT]  # (the trick view's slots; the lottery's view differs)
    negative = not lottery and info[I_DEAL_TYPE] != TRUMPS_CODE
    values = np.zeros(64, np.int64)
    sums = playout_sums()
    for w in range(count):
        for c in range(64):
            if not candidates & bit(c):
                continue
            if lottery:
                values[c] = lottery_rollout(info, masks, worlds[w], c, rv, rm, hands)
            else:
                rollout(info, masks, worlds[w], c, rv, rm, hands, tricks, points)
                values[c] = points[me] if negative else tricks[me]
        add_world(values, candidates, prefer, 1, totals, sums)
    return confident_candidate(candidates, sums, prefer, PLAYOUT_Z)


# ---------------------------------------------------------------- the lottery

@helper
def _lottery_sample(info, masks, rng, n_worlds, worlds):
    """Up to ``n_worlds`` deals of the cards neither on the layout nor in this hand to the
    other seats (each its number of cards left, none of the cards it showed it lacks by
    passing, ``masks[M_ABSENT + s]``) into ``worlds``; returns how many."""
    hand = masks[M_HAND]
    me = info[L_SEAT]
    fixed = np.zeros(4, np.uint64)
    fixed[me] = hand
    sizes = np.zeros(4, np.int64)
    allowed = np.zeros(4, np.uint64)
    for s in range(4):
        sizes[s] = info[L_LEFT + s]
        allowed[s] = (_DECK & ~masks[M_ABSENT + s]) if s != me else np.uint64(0)
    return sample_worlds(_DECK & ~masks[M_PLAYED] & ~hand, fixed, sizes, allowed, rng, n_worlds, worlds, HARD_TRIES)


@helper
def lottery_rollout(info, masks, world, first, rv, rm, hands):
    """Play the lottery out from the decision at ``info``/``masks`` in the deal ``world``
    (every seat's hand): the seat to play plays ``first``, then every seat plays expert's
    lottery card (``policies._lottery_pick``, blocker) in turn, passing when it has none.
    Returns the award the deciding seat wins (``info[L_AWARDS + k]`` for the k-th out, 0
    when the awards run out before its hand does). ``rv``, ``rm``, ``hands``: scratch."""
    rv[:] = info
    rm[:] = masks
    for s in range(4):
        hands[s] = world[s]
    me = info[L_SEAT]
    ace_high = info[L_ACE_HIGH]
    n_out = 0
    for s in range(4):
        if info[L_PLACE + s] > 0:
            n_out += 1
    n_awards = 0
    for k in range(3):
        if info[L_AWARDS + k] != 0:
            n_awards = k + 1
    lo = rv[L_LO:L_LO + 4]
    hi = rv[L_HI:L_HI + 4]
    layout = masks[M_PLAYED]
    seat = me
    c = first
    for _ in range(4 * 52):
        if hands[seat] != 0:
            if c < 0:
                legal = lottery_legal(hands[seat], lo, hi, rv[L_BASE], ace_high)
                if popcount(legal) == 1:
                    c = lowest_card(legal)
                elif legal:
                    rm[M_HAND] = hands[seat]
                    rm[M_LEGAL] = legal
                    rm[M_PLAYED] = layout
                    c = _lottery_pick(rv, rm, True)
            if c >= 0:
                hands[seat] &= ~bit(c)
                layout |= bit(c)
                rv[L_BASE] = lay_card(lo, hi, rv[L_BASE], c, ace_high)
                if hands[seat] == 0:
                    n_out += 1
                    if seat == me:
                        return info[L_AWARDS + n_out - 1] if n_out <= n_awards else 0
                    if n_out >= n_awards:
                        return 0
        c = -1
        seat = (seat + 1) & 3
    return 0


@helper
def pimc_lottery_card(info, masks, rng, totals):
    """(card, worlds) of pimc at a lottery decision: each legal card played in ``worlds``
    sampled worlds (:func:`_lottery_sample`), the lottery played out by expert at every seat
    (:func:`lottery_rollout`), valued by the award this seat wins; expert's card unless
    another's gain over it is more than :data:`PLAYOUT_Z` standard errors above 0.
    ``totals[c]``: each card's awards summed over the worlds."""
    legal = masks[M_LEGAL]
    prefer = expert_lottery(info, masks, rng)
    for c in range(64):
        totals[c] = 0
    if popcount(legal) < 2:
        return prefer, 0
    n_worlds = min(int(param_value(info, L_PARAMS + P_WORLDS)), MAX_WORLDS)
    worlds = np.zeros((n_worlds, 4), np.uint64)
    count = _lottery_sample(info, masks, rng, n_worlds, worlds)
    if count == 0:
        return prefer, 0
    return _playout_choice(info, masks, worlds, count, legal, prefer, True, totals), count


@policy(SIG)
def pimc_lottery(info, masks, rng):
    totals = np.zeros(64, np.int64)
    card, _ = pimc_lottery_card(info, masks, rng, totals)
    return card


@policy(SIG)
def pimc_play(info, masks, rng):
    totals = np.zeros(64, np.int64)
    card, _ = pimc_card(info, masks, rng, totals)
    return card


PIMC = Policy("pimc", searching=True, ladder="worlds=8", base=EXPERT, play=pimc_play, lottery=pimc_lottery,
              params=PIMC_PARAMS,
              help="card play and lottery: play-outs by expert in sampled worlds, scored as the deal scores; in "
                   "trump deals perfect-information Monte Carlo (paranoid) for the late cards; trump choice: expert")
