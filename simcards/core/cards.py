"""Card notation and bitmask helpers shared by every game.

A card is an integer: ``suit * 13 + rank`` for the 52 ordinary cards, with suits
clubs=0, diamonds=1, hearts=2, spades=3 and ranks 2=0 ... A=12; the jokers follow
as LJ=52, MJ=53, BJ=54. A hand in a trick-taking game is a ``uint64`` with bit
``card`` set, so "highest card of a suit" is the highest set bit of a masked hand.

Notation is rank then suit (``AS``, ``TS`` or ``10S``, ``2C``), jokers ``BJ``,
``MJ``, ``LJ``. Parsing is case-insensitive and accepts commas or spaces.
"""
from __future__ import annotations

import re

import numba as nb
import numpy as np
from llvmlite import ir as llvm_ir
from numba.core import types as nbtypes
from numba.extending import intrinsic

from simcards.core import jit  # noqa: F401  (installs the stale-proof cache stamps before any @njit)
from simcards.core.jit import lazily
from simcards.core.errors import SimcardsError

SUITS = "CDHS"
RANKS = "23456789TJQKA"
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
LITTLE_JOKER, MIDDLE_JOKER, BIG_JOKER = 52, 53, 54
JOKER_NAMES = {LITTLE_JOKER: "LJ", MIDDLE_JOKER: "MJ", BIG_JOKER: "BJ"}
N_CARDS = 55  # 52 + three possible jokers

ACE = 12
KING = 11
QUEEN = 10
JACK = 9
TEN = 8

_SUIT_MASK = (1 << 13) - 1
SUIT_MASKS = np.array([_SUIT_MASK << (13 * s) for s in range(4)], dtype=np.uint64)
JOKER_MASK = np.uint64((1 << 52) | (1 << 53) | (1 << 54))


def card(rank: int, suit: int) -> int:
    """The card number of ``rank`` (0 = deuce .. 12 = ace) in ``suit``."""
    return suit * 13 + rank


def rank_of(c: int) -> int:
    return c % 13


def suit_of(c: int) -> int:
    return c // 13


def format_card(c: int) -> str:
    """``AS``, ``TD``, ``BJ`` for a card number."""
    c = int(c)
    if c in JOKER_NAMES:
        return JOKER_NAMES[c]
    if not 0 <= c < 52:
        raise ValueError(f"not a card number: {c}")
    return RANKS[c % 13] + SUITS[c // 13]


def format_cards(cards) -> str:
    return " ".join(format_card(c) for c in cards)


_CARD_RE = re.compile(r"^(10|[2-9TJQKA])([CDHS])$")


def parse_card(text: str) -> int:
    """Parse one card (``AS``, ``10H``, ``TH``, ``BJ``); raise SimcardsError if unknown."""
    t = text.strip().upper()
    for number, name in JOKER_NAMES.items():
        if t == name:
            return number
    m = _CARD_RE.match(t)
    if not m:
        raise SimcardsError(
            f"unknown card {text!r}: write rank then suit, e.g. AS, TD, 10H, 2C, or a joker BJ/MJ/LJ"
        )
    rank_text = "T" if m.group(1) == "10" else m.group(1)
    return card(RANKS.index(rank_text), SUITS.index(m.group(2)))


def parse_cards(text: str, *, allow_duplicates: bool = False) -> list[int]:
    """Parse a space- or comma-separated list of cards, refusing duplicates by default."""
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    cards = [parse_card(t) for t in tokens]
    if not allow_duplicates:
        seen: set[int] = set()
        for c in cards:
            if c in seen:
                raise SimcardsError(f"card {format_card(c)} is written twice in {text!r}")
            seen.add(c)
    return cards


def mask_of(cards) -> int:
    """Bitmask with one bit per card."""
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def cards_of(mask: int) -> list[int]:
    """Card numbers in a bitmask, ascending."""
    mask = int(mask)
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# ---------------------------------------------------------------- compiled helpers
# The bit counts are LLVM's intrinsics (``ctpop``, ``ctlz``, ``cttz``): one instruction each
# (popcnt, lzcnt, tzcnt) where the CPU has them, instead of a dozen dependent operations; the
# double-dummy solver calls them several times a card played.


@intrinsic
def _ctpop64(typingctx, x):
    """LLVM's population count of a ``uint64``."""
    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])
    return nbtypes.uint64(nbtypes.uint64), codegen


@intrinsic
def _ctlz64(typingctx, x):
    """LLVM's count of leading zeros of a ``uint64`` (64 for zero)."""
    def codegen(context, builder, sig, args):
        return builder.ctlz(args[0], llvm_ir.Constant(llvm_ir.IntType(1), 0))
    return nbtypes.uint64(nbtypes.uint64), codegen


@intrinsic
def _cttz64(typingctx, x):
    """LLVM's count of trailing zeros of a ``uint64`` (64 for zero)."""
    def codegen(context, builder, sig, args):
        return builder.cttz(args[0], llvm_ir.Constant(llvm_ir.IntType(1), 0))
    return nbtypes.uint64(nbtypes.uint64), codegen


@lazily(nb.int64(nb.uint64), cache=True, inline="always")
def popcount(x):
    """Number of set bits."""
    return np.int64(_ctpop64(x))


@lazily(nb.int64(nb.uint64), cache=True, inline="always")
def lowest_card(x):
    """Index of the lowest set bit (-1 for an empty mask)."""
    if x == 0:
        return -1
    return np.int64(_cttz64(x))


@lazily(nb.int64(nb.uint64), cache=True, inline="always")
def highest_card(x):
    """Index of the highest set bit (-1 for an empty mask: 63 - 64)."""
    return 63 - np.int64(_ctlz64(x))


@lazily(nb.uint64(nb.int64), cache=True, inline="always")
def bit(c):
    """The one-card mask of card ``c``."""
    return np.uint64(1) << np.uint64(c)


@lazily(nb.int64(nb.uint64, nb.int64), cache=True)
def nth_card(x, n):
    """The ``n``-th lowest card of mask ``x`` (0-based); -1 if there are fewer."""
    for _ in range(n):
        if x == 0:
            return -1
        x &= x - np.uint64(1)
    return lowest_card(x)
