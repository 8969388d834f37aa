"""Compiled trick-taking helpers shared by Spades, Cutthroat Spades and Kierki.

Hands are ``uint64`` card masks (see ``simcards.core.cards``). ``suit_masks`` is a
game's array of four masks giving each card's *effective* suit: with jokers they
are folded into spades, so a joker follows spades, is a trump and beats the ace
because its card number is higher. Within an effective suit a higher card number
is a higher card, so the best card of a set is its highest set bit.
"""
import numba as nb
import numpy as np

from simcards.core.cards import SUIT_MASKS, JOKER_MASK, highest_card, bit

NO_TRUMP = -1

SUIT_MASKS_JOKERS_AS_SPADES = SUIT_MASKS.copy()
SUIT_MASKS_JOKERS_AS_SPADES[3] |= JOKER_MASK


@nb.njit(nb.int64(nb.int64, nb.uint64[:]), cache=True, inline="always")
def suit_of_card(c, suit_masks):
    """Effective suit of card ``c`` under ``suit_masks``."""
    b = bit(c)
    for s in range(4):
        if suit_masks[s] & b:
            return s
    return -1


@nb.njit(nb.uint64(nb.uint64, nb.int64, nb.uint64[:]), cache=True, inline="always")
def follow_mask(hand, led_suit, suit_masks):
    """Cards of ``hand`` that may be played to a trick led in ``led_suit`` (must follow)."""
    same = hand & suit_masks[led_suit]
    return same if same else hand


@nb.njit(nb.int64(nb.int64[:], nb.int64, nb.int64, nb.uint64[:]), cache=True)
def trick_winner(played, n, trump_suit, suit_masks):
    """Position (0..n-1) in ``played`` of the card that wins the trick.

    The highest trump wins if any was played (``trump_suit`` = ``NO_TRUMP`` for none),
    else the highest card of the suit led by ``played[0]``.
    """
    led = suit_of_card(played[0], suit_masks)
    trumps = np.uint64(0)
    led_cards = np.uint64(0)
    for i in range(n):
        b = bit(played[i])
        if trump_suit >= 0 and (suit_masks[trump_suit] & b):
            trumps |= b
        elif suit_masks[led] & b:
            led_cards |= b
    best = highest_card(trumps) if trumps else highest_card(led_cards)
    for i in range(n):
        if played[i] == best:
            return i
    return -1


@nb.njit(nb.uint64(nb.uint64, nb.uint64), cache=True, inline="always")
def cards_above(suit_cards, c_bit):
    """Cards of ``suit_cards`` higher than the single card ``c_bit``."""
    return suit_cards & ~((c_bit << np.uint64(1)) - np.uint64(1))


@nb.njit(nb.uint64(nb.uint64, nb.uint64), cache=True, inline="always")
def cards_below(suit_cards, c_bit):
    """Cards of ``suit_cards`` lower than the single card ``c_bit``."""
    return suit_cards & (c_bit - np.uint64(1))
