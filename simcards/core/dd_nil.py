"""Nil double dummy: can the attackers make one seat take a trick?

A Nil bidder undertakes to take no trick. With every card visible, the *Nil seat* and the
seats on its side (``defenders``: in Spades the Nil bidder and its partner, in Cutthroat the
bidder alone) play to keep it off every trick; every other seat plays to make it win one.
The answer is yes or no, which the trick-count solver (:mod:`simcards.core.dd`) cannot give:
it counts the tricks of a side that plays for them, and here the seat whose tricks matter
plays against taking them.

The search is a plain AND/OR tree over the cards: an attacker's node is a "yes" once one of
its cards leads to a trick for the Nil seat, a defender's node a "no" once one of its cards
keeps it off every trick. Three things keep it small:

- a trick the Nil seat wins ends the search at once ("yes"), and a Nil seat without cards
  can no longer fail ("no");
- only one card of each run of equivalent cards is tried (:func:`tricks.distinct_cards`:
  cards of one suit in one hand with no card still in play between them win and lose alike);
- answers at trick starts are kept in a small table keyed on the exact position (every hand,
  the leader, spades broken), valid for one problem (``stamp``): a position reached through
  different earlier tricks is searched once.

The rules are those of :mod:`simcards.core.dd` (its rules row and :func:`dd.legal_mask`), so
every game's trick rules hold here. Pimc asks it a few cards from the end of the hand
(``dd_cards``), where the tree is small with two attackers; with more (Cutthroat's paranoid
search at five players) a question can run to millions of positions, so pimc's questions
stop at :data:`LIMIT` positions and count as unanswered.
"""
from __future__ import annotations

import numpy as np

from simcards.core import dd
from simcards.core.cards import bit, lowest_card
from simcards.core.jit import helper, kernel
from simcards.core.tricks import distinct_cards, trick_winner

TABLE_BITS = 12  # 4,096 trick-start answers; a 5-card ending has a few hundred
KEY_WORDS = 6  # up to 5 hands, then leader | broken << 3 | stamp << 8
MAX_TRICKS = 18  # a 17-card hand plus the trick in progress
# positions one card's question may enter before pimc gives up on it: 5-card Spades endings
# need 685 on average (the worst of 200, 9,131), but with four attackers (Cutthroat, five
# players) 7-card endings averaged 3.1 million
LIMIT = 50_000
_NO, _YES = np.int8(1), np.int8(2)  # table values (0: empty)
# search frame slots
F_TRICK, F_NPL, F_LEADER, F_BROKEN, F_T1, F_SEAT, F_ATTACK, F_SLOT, F_CARD = range(9)
F_LEN = 9


@helper
def new_table(bits):
    """(keys, values) of a table with 2**bits entries (:data:`TABLE_BITS` serves pimc); its
    entries are empty (value 0) until a problem, named by a ``stamp`` >= 1, fills them."""
    return np.zeros((1 << bits, KEY_WORDS), np.uint64), np.zeros(1 << bits, np.int8)


@helper
def _slot(H, n, leader, broken, stamp, keys, out):
    """The table slot of a trick-start position, its key written to ``out``."""
    h = np.uint64(0x9E3779B97F4A7C15)
    for s in range(KEY_WORDS - 1):
        w = H[s] if s < n else np.uint64(0)
        out[s] = w
        h = (h ^ w) * np.uint64(0x100000001B3)
        h ^= h >> np.uint64(29)
    out[KEY_WORDS - 1] = np.uint64(leader) | (np.uint64(broken) << np.uint64(3)) | (np.uint64(stamp) << np.uint64(8))
    h = (h ^ out[KEY_WORDS - 1]) * np.uint64(0x100000001B3)
    h ^= h >> np.uint64(31)
    return np.int64(h & np.uint64(keys.shape[0] - 1))


@helper
def _seat_to_act(R, leader, npl, t1):
    """The seat that plays the ``npl``-th card (from 0) of a trick led by ``leader``."""
    seat = leader
    for i in range(npl):
        seat = dd._next_seat(R, seat, t1)
    return seat


@helper
def _fails(H, R, nil, attackers, suit_masks, tcs, npl, leader, broken, t1, stamp, keys, values, kbuf, ctr, limit):
    """1 when the ``attackers`` (a seat mask) can make seat ``nil`` win a trick from here,
    the trick in progress (``tcs[0, :npl]``, led by ``leader``) included, 0 when they cannot,
    -1 when the search entered more than ``limit`` positions (0: no limit) without an answer.
    ``H`` is restored on return; ``ctr[0]`` counts the positions entered.

    An explicit stack, not recursion (numba's cache cannot reload a recursive function): a
    frame per card played, holding its position (trick number, cards in the trick, leader,
    spades broken, trick 1), the cards still to try and its table slot at a trick start."""
    n = R[dd.R_SEATS]
    trump = R[dd.R_TRUMP]
    sitout = R[dd.R_SITOUT_T1]
    depth = tcs.shape[0] * n + 1
    fr = np.zeros((depth, F_LEN), np.int64)
    todo = np.zeros(depth, np.uint64)
    p = 0
    d, np_, lead, brk, first = np.int64(0), npl, leader, broken, t1
    start = ctr[0]
    while True:
        # enter the position (d, np_, lead, brk, first): answer it (r 0/1) or push a frame
        ctr[0] += 1
        if limit > 0 and ctr[0] - start > limit:  # give up: take back every card on the stack
            for q in range(p - 1, -1, -1):
                H[fr[q, F_SEAT]] ^= bit(fr[q, F_CARD])
            return np.int64(-1)
        r = np.int64(-1)
        players = n - 1 if (first and sitout >= 0) else n
        if np_ == players:  # the trick is complete
            w = _seat_to_act(R, lead, trick_winner(tcs[d], players, trump, suit_masks), first)
            if w == nil:
                r = 1
            else:
                d, np_, lead, first = d + 1, np.int64(0), w, np.int64(0)
        slot = np.int64(-1)
        if r < 0 and np_ == 0:
            if H[nil] == 0:
                r = 0
            else:
                slot = _slot(H, n, lead, brk, stamp, keys, kbuf[d])
                if values[slot] != 0:
                    same = True
                    for k in range(KEY_WORDS):
                        if keys[slot, k] != kbuf[d, k]:
                            same = False
                    if same:
                        r = 1 if values[slot] == _YES else 0
        if r < 0:
            seat = _seat_to_act(R, lead, np_, first)
            alive = np.uint64(0)
            for s in range(n):
                alive |= H[s]
            for i in range(np_):
                alive |= bit(tcs[d, i])
            legal = dd.legal_mask(R, H[seat], suit_masks, np_, tcs[d], brk, first)
            fr[p, F_TRICK], fr[p, F_NPL], fr[p, F_LEADER], fr[p, F_BROKEN], fr[p, F_T1] = d, np_, lead, brk, first
            fr[p, F_SEAT], fr[p, F_ATTACK], fr[p, F_SLOT] = seat, (attackers >> seat) & 1, slot
            todo[p] = distinct_cards(legal, alive, suit_masks, np.int64(-1))
            p += 1
        # settle answers up the stack until a frame has a card to try
        while True:
            top = p - 1
            if r >= 0:
                if top < 0:
                    return r
                H[fr[top, F_SEAT]] ^= bit(fr[top, F_CARD])  # take the card back
                if r != fr[top, F_ATTACK]:  # not decisive for this seat: try its next card
                    r = -1
            if r < 0 and todo[top] == 0:
                r = 1 - fr[top, F_ATTACK]  # every card tried: the attacker found no trick, the defence no escape
            elif r < 0:
                low = todo[top] & (~todo[top] + np.uint64(1))
                todo[top] ^= low
                c = lowest_card(low)
                H[fr[top, F_SEAT]] ^= low
                fr[top, F_CARD] = c
                d, np_, lead, brk, first = fr[top, F_TRICK], fr[top, F_NPL], fr[top, F_LEADER], fr[top, F_BROKEN], \
                    fr[top, F_T1]
                tcs[d, np_] = c
                np_ += 1
                if trump >= 0 and suit_masks[trump] & low:
                    brk = 1
                break
            # the frame is answered (r): keep a trick start's answer, pop it
            if fr[top, F_SLOT] >= 0:
                slot = fr[top, F_SLOT]
                for k in range(KEY_WORDS):
                    keys[slot, k] = kbuf[fr[top, F_TRICK], k]
                values[slot] = _YES if r == 1 else _NO
            p -= 1
            if p == 0:
                return r


@helper
def nil_card_values(H, R, nil, attackers, suit_masks, tc, npl, leader, broken, t1, stamp, keys, values, ctr, limit,
                    out_cards, out_fails):
    """For each legal card of the seat to act (``tc[:npl]`` the trick so far, led by
    ``leader``): whether the attackers can then make seat ``nil`` win a trick (1), not (0),
    or no answer within ``limit`` positions (-1; :data:`LIMIT`), into ``out_cards`` /
    ``out_fails``. ``stamp`` (>= 1) names the problem: table entries of other stamps are
    ignored. Returns the count."""
    tcs = np.zeros((MAX_TRICKS, 8), np.int64)
    kbuf = np.zeros((MAX_TRICKS, KEY_WORDS), np.uint64)
    for i in range(npl):
        tcs[0, i] = tc[i]
    seat = _seat_to_act(R, leader, npl, t1)
    legal = dd.legal_mask(R, H[seat], suit_masks, npl, tc, broken, t1)
    trump = R[dd.R_TRUMP]
    k = 0
    m = legal
    while m:
        low = m & (~m + np.uint64(1))
        m ^= low
        c = lowest_card(low)
        H[seat] ^= low
        tcs[0, npl] = c
        nb_ = broken
        if trump >= 0 and suit_masks[trump] & low:
            nb_ = 1
        f = _fails(H, R, nil, attackers, suit_masks, tcs, npl + 1, leader, nb_, t1, stamp, keys, values, kbuf, ctr,
                   limit)
        H[seat] ^= low
        out_cards[k] = c
        out_fails[k] = f
        k += 1
    return k


@kernel
def _fails_kernel(H, R, nil, attackers, suit_masks, tc, npl, leader, broken, t1):
    keys, values = new_table(TABLE_BITS)
    tcs = np.zeros((MAX_TRICKS, 8), np.int64)
    kbuf = np.zeros((MAX_TRICKS, KEY_WORDS), np.uint64)
    for i in range(npl):
        tcs[0, i] = tc[i]
    ctr = np.zeros(1, np.int64)
    f = _fails(H, R, nil, attackers, suit_masks, tcs, npl, leader, broken, t1, np.int64(1), keys, values, kbuf,
               ctr, np.int64(0))
    return f == 1, ctr[0]


def fails(hands, rules, nil: int, attackers, suit_masks, *, leader: int, trick=(), broken: bool = False,
          trick1: bool = False) -> bool:
    """Whether the ``attackers`` (seats) can make seat ``nil`` take a trick from this position
    (``trick``: the cards of the trick in progress, led by ``leader``), every card visible."""
    H = np.array([int(h) for h in hands], np.uint64)
    tc = np.zeros(8, np.int64)
    for i, c in enumerate(trick):
        tc[i] = c
    mask = 0
    for s in attackers:
        mask |= 1 << int(s)
    f, _ = _fails_kernel(H, np.asarray(rules, np.int64), np.int64(nil), np.int64(mask),
                         np.asarray(suit_masks, np.uint64), tc, np.int64(len(trick)), np.int64(leader),
                         np.int64(bool(broken)), np.int64(bool(trick1)))
    return bool(f)
