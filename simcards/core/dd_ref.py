"""Plain minimax reference for the double-dummy solver (tests only; small endings).

Written from the rules text, sharing no code with :mod:`simcards.core.dd` beyond the
rules row: every legal card is tried at every turn (no pruning, no equivalence, no
ordering); positions are memoised on their full state, which changes nothing but time.
"""
from __future__ import annotations

from functools import lru_cache

from simcards.core import dd


def _suit(c: int, suit_masks) -> int:
    for s in range(4):
        if int(suit_masks[s]) >> c & 1:
            return s
    raise ValueError(f"card {c} is in no suit")


def legal(rules, suit_masks, hand: tuple[int, ...], trick: tuple[int, ...], broken: bool, trick1: bool) -> list[int]:
    """Legal cards of ``hand`` (card numbers) given the cards of the trick so far."""
    trump = int(rules[dd.R_TRUMP])
    is_trump = (lambda c: trump >= 0 and _suit(c, suit_masks) == trump)
    if not trick:
        forced = int(rules[dd.R_FORCED_LEAD])
        if trick1 and forced in hand:
            return [forced]
        if rules[dd.R_LEAD_RESTRICT] and not broken:
            side = [c for c in hand if not is_trump(c)]
            if side:
                return side
        return list(hand)
    led = _suit(trick[0], suit_masks)
    same = [c for c in hand if _suit(c, suit_masks) == led]
    if same:
        return same
    if trick1 and rules[dd.R_NO_TRUMP_T1]:
        side = [c for c in hand if not is_trump(c)]
        if side:
            return side
    trumps = [c for c in hand if is_trump(c)]
    if trumps and rules[dd.R_OBLIGATION] != dd.OBLIGE_NONE:
        played = [c for c in trick if is_trump(c)]
        if rules[dd.R_OBLIGATION] == dd.OBLIGE_OVERTRUMP and played:
            over = [c for c in trumps if c > max(played)]
            if over:
                return over
        return trumps
    return list(hand)


def winner(rules, suit_masks, trick: tuple[int, ...]) -> int:
    """Position in ``trick`` of the winning card."""
    trump = int(rules[dd.R_TRUMP])
    trumps = [i for i, c in enumerate(trick) if trump >= 0 and _suit(c, suit_masks) == trump]
    if trumps:
        return max(trumps, key=lambda i: trick[i])
    led = _suit(trick[0], suit_masks)
    return max((i for i, c in enumerate(trick) if _suit(c, suit_masks) == led), key=lambda i: trick[i])


def play_order(rules, lead: int, trick1: bool) -> list[int]:
    """The seats in the order they play to a trick led by ``lead`` (the sit-out seat, if any,
    left out of trick 1)."""
    n = int(rules[dd.R_SEATS])
    sitout = int(rules[dd.R_SITOUT_T1])
    seats = [(lead + i) % n for i in range(n)]
    return [s for s in seats if not (trick1 and s == sitout)]


def solve(hands, rules, side, suit_masks, *, leader: int, trick=(), broken: bool = False,
          trick1: bool = False) -> int:
    """The side's maximum tricks of those remaining, by exhaustive minimax."""
    sides = frozenset(int(s) for s in side)
    masks = tuple(int(m) for m in suit_masks)

    @lru_cache(maxsize=None)
    def value(hs: tuple[tuple[int, ...], ...], lead: int, tr: tuple[int, ...], brk: bool, t1: bool) -> int:
        seats = play_order(rules, lead, t1)
        if len(tr) == len(seats):
            w = seats[winner(rules, masks, tr)]
            rest = (w in sides)
            if not any(hs):
                return rest
            return rest + value(hs, w, (), brk, False)
        if not any(hs):
            return 0
        seat = seats[len(tr)]
        options = []
        for c in legal(rules, masks, hs[seat], tr, brk, t1):
            nh = list(hs)
            nh[seat] = tuple(x for x in hs[seat] if x != c)
            nbrk = brk or (int(rules[dd.R_TRUMP]) >= 0 and _suit(c, masks) == int(rules[dd.R_TRUMP]))
            options.append(value(tuple(nh), lead, tr + (c,), nbrk, t1))
        return max(options) if seat in sides else min(options)

    hs = tuple(tuple(c for c in range(64) if int(h) >> c & 1) for h in hands)
    return value(hs, int(leader), tuple(int(c) for c in trick), bool(broken), bool(trick1))


def nil_fails(hands, rules, nil: int, attackers, suit_masks, *, leader: int, trick=(), broken: bool = False,
              trick1: bool = False) -> bool:
    """Whether the ``attackers`` can make seat ``nil`` take a trick (every other seat keeping
    it off tricks), by exhaustive minimax: core/dd_nil.py's reference."""
    attacking = frozenset(int(s) for s in attackers)
    masks = tuple(int(m) for m in suit_masks)
    trump = int(rules[dd.R_TRUMP])

    @lru_cache(maxsize=None)
    def value(hs: tuple[tuple[int, ...], ...], lead: int, tr: tuple[int, ...], brk: bool, t1: bool) -> bool:
        seats = play_order(rules, lead, t1)
        if len(tr) == len(seats):
            w = seats[winner(rules, masks, tr)]
            if w == nil:
                return True
            return any(hs) and value(hs, w, (), brk, False)
        if not any(hs):
            return False
        seat = seats[len(tr)]
        options = []
        for c in legal(rules, masks, hs[seat], tr, brk, t1):
            nh = list(hs)
            nh[seat] = tuple(x for x in hs[seat] if x != c)
            nbrk = brk or (trump >= 0 and _suit(c, masks) == trump)
            options.append(value(tuple(nh), lead, tr + (c,), nbrk, t1))
        return any(options) if seat in attacking else all(options)

    hs = tuple(tuple(c for c in range(64) if int(h) >> c & 1) for h in hands)
    return value(hs, int(leader), tuple(int(c) for c in trick), bool(broken), bool(trick1))
