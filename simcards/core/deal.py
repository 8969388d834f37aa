"""Dealing around known cards, with constraints on the hidden hands.

The "what should I bid?" questions fix some cards (the user's hand, a card a seat is
known to hold) and deal the rest. :func:`deal_known` places the known cards and deals
the unknown ones uniformly among the free places, which is exactly uniform over all
deals consistent with what is known — no rejection is needed for fixed cards.

Further knowledge about hidden hands (a void, suit-length bounds) is expressed as
per-seat, per-suit length bounds; :func:`deal_constrained` redeals the unknown cards
until the bounds hold (uniform over the deals that satisfy them) and reports failure
after ``max_tries``, so a caller can say "no deal satisfies ...".

Constraint notation (``--require``), seats by number or, at four seats, N/E/S/W:

    W:void=S        West holds no spade
    E:has=AS,KH     East holds the ace of spades and the king of hearts
    N:len(S)>=4     North holds at least four spades   (also <=, =, and =2..4)
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numba as nb
import numpy as np

from simcards.core.cards import SUITS, bit, format_card, mask_of, parse_cards, popcount
from simcards.core.errors import SimcardsError
from simcards.core.jit import lazily
from simcards.core.rng import shuffle

COMPASS = "NESW"


def seat_number(text: str, n_seats: int, names: str | None = None) -> int:
    """A seat from ``0..n-1`` or a compass letter (four seats); one-line error otherwise."""
    t = text.strip().upper()
    names = names if names is not None else (COMPASS if n_seats == 4 else "")
    if t.isdigit() and int(t) < n_seats:
        return int(t)
    if len(t) == 1 and names and t in names:
        return names.index(t)
    allowed = f"0..{n_seats - 1}" + (f" or {'/'.join(names)}" if names else "")
    raise SimcardsError(f"unknown seat {text!r} (seats: {allowed})")


@dataclass(frozen=True)
class Constraints:
    """Known cards and suit-length bounds per seat, as arrays for the kernels."""

    fixed: np.ndarray  # uint64[n_seats]: cards known to be in each seat
    min_len: np.ndarray  # int64[n_seats, 4]
    max_len: np.ndarray  # int64[n_seats, 4]

    @property
    def has_bounds(self) -> bool:
        return bool((self.min_len > 0).any() or (self.max_len < 99).any())


_LEN = re.compile(r"^len\(([CDHS])\)\s*(>=|<=|=)\s*(\d+)(?:\.\.(\d+))?$", re.I)


def parse_constraints(texts, n_seats: int, *, known: dict[int, list[int]] | None = None,
                      names: str | None = None) -> Constraints:
    """Build :class:`Constraints` from ``--require`` strings and already known cards."""
    fixed = np.zeros(n_seats, dtype=np.uint64)
    owner: dict[int, int] = {}

    def place(seat: int, cards: list[int], what: str) -> None:
        for c in cards:
            if c in owner and owner[c] != seat:
                raise SimcardsError(f"{format_card(c)} cannot be in seat {owner[c]} and in seat {seat} ({what})")
            owner[c] = seat
            fixed[seat] |= np.uint64(1 << c)

    for seat, cards in (known or {}).items():
        place(seat, cards, "known hand")
    min_len = np.zeros((n_seats, 4), dtype=np.int64)
    max_len = np.full((n_seats, 4), 99, dtype=np.int64)
    for text in texts:
        seat_text, sep, rule = text.partition(":")
        if not sep:
            raise SimcardsError(f"constraint {text!r}: write SEAT:RULE, e.g. W:void=S, E:has=AS, N:len(S)>=4")
        seat = seat_number(seat_text, n_seats, names)
        rule = rule.strip()
        low = rule.lower()
        if low.startswith("void="):
            suit = rule[5:].strip().upper()
            if suit not in SUITS or len(suit) != 1:
                raise SimcardsError(f"constraint {text!r}: unknown suit {suit!r} (C, D, H, S)")
            max_len[seat, SUITS.index(suit)] = 0
        elif low.startswith("has="):
            place(seat, parse_cards(rule[4:]), text)
        else:
            m = _LEN.match(rule)
            if not m:
                raise SimcardsError(f"constraint {text!r}: unknown rule (use void=S, has=AS,KH, len(S)>=4, len(H)=2..4)")
            s = SUITS.index(m.group(1).upper())
            a = int(m.group(3))
            if m.group(4) is not None:
                if m.group(2) != "=":
                    raise SimcardsError(f"constraint {text!r}: a range is written len(S)=2..4")
                min_len[seat, s] = max(min_len[seat, s], a)
                max_len[seat, s] = min(max_len[seat, s], int(m.group(4)))
            elif m.group(2) == ">=":
                min_len[seat, s] = max(min_len[seat, s], a)
            elif m.group(2) == "<=":
                max_len[seat, s] = min(max_len[seat, s], a)
            else:
                min_len[seat, s] = max(min_len[seat, s], a)
                max_len[seat, s] = min(max_len[seat, s], a)
    for seat in range(n_seats):
        for s in range(4):
            held = int(bin(int(fixed[seat]) & (((1 << 13) - 1) << (13 * s))).count("1"))
            if min_len[seat, s] > max_len[seat, s] or held > max_len[seat, s]:
                raise SimcardsError(f"no deal satisfies the constraints: seat {seat} cannot hold "
                                    f"{min_len[seat, s]}..{max_len[seat, s]} {SUITS[s]} (it holds {held} known)")
    return Constraints(fixed=fixed, min_len=min_len, max_len=max_len)


@nb.njit(cache=True, nogil=True)
def deal_known(deck, fixed, sizes, first_seat, state, hands, buf):
    """Deal ``deck`` so seat ``s`` gets ``fixed[s]`` plus random cards up to ``sizes[s]``.

    Unknown cards are shuffled and handed out one at a time from ``first_seat`` around
    the table, skipping full seats: uniform over all deals consistent with ``fixed``.
    Returns the number of unknown cards dealt.
    """
    n_seats = fixed.shape[0]
    known = np.uint64(0)
    for s in range(n_seats):
        known |= fixed[s]
    n = 0
    for i in range(deck.shape[0]):
        if not (known & bit(deck[i])):
            buf[n] = deck[i]
            n += 1
    shuffle(buf[:n], state)
    room = np.empty(n_seats, np.int64)
    for s in range(n_seats):
        hands[s] = fixed[s]
        room[s] = sizes[s] - popcount(fixed[s])
    seat = first_seat
    j = 0
    while j < n:
        if room[seat] > 0:
            hands[seat] |= bit(buf[j])
            room[seat] -= 1
            j += 1
        seat += 1
        if seat == n_seats:
            seat = 0
    return n


@nb.njit(cache=True, nogil=True)
def within_bounds(hands, min_len, max_len, suit_masks):
    """Whether every seat's suit lengths lie within its bounds."""
    for s in range(hands.shape[0]):
        for suit in range(4):
            k = popcount(hands[s] & suit_masks[suit])
            if k < min_len[s, suit] or k > max_len[s, suit]:
                return False
    return True


@nb.njit(cache=True, nogil=True)
def deal_constrained(deck, fixed, sizes, first_seat, state, hands, buf, min_len, max_len, suit_masks, max_tries):
    """:func:`deal_known` repeated until the length bounds hold; tries used, or -1 if none did."""
    for t in range(max_tries):
        deal_known(deck, fixed, sizes, first_seat, state, hands, buf)
        if within_bounds(hands, min_len, max_len, suit_masks):
            return t + 1
    return -1


# ---------------------------------------------------------------- user accept functions

ACCEPT_SIG = nb.types.boolean(nb.types.uint64[:])


@lazily(ACCEPT_SIG, cache=True, nogil=True)
def accept_all(hands):
    """The default accept function: every deal is kept."""
    return True


def compile_accept(spec: str | None):
    """A user's ``file.py:name`` accept function compiled for ``accept(hands) -> bool``.

    ``hands`` is a ``uint64`` array of card masks, one per seat. ``None`` gives
    :func:`accept_all`. Kernels call it after dealing and redeal when it says False.
    """
    if spec is None:
        # compiled now, so a kernel typed with a user's function converts it instead of
        # compiling a second specialization for the dispatcher
        accept_all.ensure_compiled()
        return accept_all
    from simcards.core.policy import Decision, compile_decision, is_user_spec, load_user_object

    if not is_user_spec(spec):
        raise SimcardsError(f"--accept takes FILE.py:NAME, got {spec!r}")
    return compile_decision(load_user_object(spec), Decision("accept", ACCEPT_SIG, "keep this deal?"), spec)
