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
from simcards.core.jit import helper, lazily

NO_TRUMP = -1

SUIT_MASKS_JOKERS_AS_SPADES = SUIT_MASKS.copy()
SUIT_MASKS_JOKERS_AS_SPADES[3] |= JOKER_MASK


@lazily(nb.int64(nb.int64, nb.uint64[:]), cache=True, inline="always")
def suit_of_card(c, suit_masks):
    """Effective suit of card ``c`` under ``suit_masks``."""
    b = bit(c)
    for s in range(4):
        if suit_masks[s] & b:
            return s
    return -1


@lazily(nb.uint64(nb.uint64, nb.int64, nb.uint64[:]), cache=True, inline="always")
def follow_mask(hand, led_suit, suit_masks):
    """Cards of ``hand`` that may be played to a trick led in ``led_suit`` (must follow)."""
    same = hand & suit_masks[led_suit]
    return same if same else hand


@lazily(nb.int64(nb.int64[:], nb.int64, nb.int64, nb.uint64[:]), cache=True)
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


@lazily(nb.uint64(nb.uint64, nb.uint64), cache=True, inline="always")
def cards_above(suit_cards, c_bit):
    """Cards of ``suit_cards`` higher than the single card ``c_bit``."""
    return suit_cards & ~((c_bit << np.uint64(1)) - np.uint64(1))


@lazily(nb.uint64(nb.uint64, nb.uint64), cache=True, inline="always")
def cards_below(suit_cards, c_bit):
    """Cards of ``suit_cards`` lower than the single card ``c_bit``."""
    return suit_cards & (c_bit - np.uint64(1))


# ---------------------------------------------------------------- Spades family
# Shared by partnership Spades and Cutthroat Spades (identical legal-move algorithm,
# docs/games/spades.md and docs/games/cutthroat.md, rule 4.3).


@lazily(nb.uint64(nb.uint64, nb.int64, nb.uint64[:], nb.int64, nb.boolean, nb.boolean),
         cache=True, inline="always")
def spades_legal(hand, led_suit, suit_masks, forced_card, no_trump_lead, no_trump_discard):
    """Legal cards of ``hand`` in a Spades-family game (trump = effective suit 3).

    ``led_suit`` is -1 when the player leads. ``forced_card`` >= 0 forces that card
    (opening lead of the lowest club). ``no_trump_lead``: spades not yet broken (and
    the rule is on), so a trump may be led only from a hand of trumps.
    ``no_trump_discard``: trick 1 with ``first_trick_trump_allowed = false``.
    """
    trumps = suit_masks[3]
    if led_suit < 0:
        if forced_card >= 0:
            return bit(forced_card)
        if no_trump_lead:
            side = hand & ~trumps
            if side:
                return side
        return hand
    same = hand & suit_masks[led_suit]
    if same:
        return same
    if no_trump_discard:
        side = hand & ~trumps
        if side:
            return side
    return hand


@lazily(nb.boolean(nb.int64, nb.int64, nb.int64, nb.uint64[:]), cache=True, inline="always")
def card_beats(c, best, trump_suit, suit_masks):
    """Whether card ``c`` beats ``best``, the card currently winning a trick.

    ``best`` is of the led suit or a trump, so ``c`` wins exactly when it is a higher
    card of ``best``'s effective suit, or a trump played over a non-trump.
    """
    sc = suit_of_card(c, suit_masks)
    sb = suit_of_card(best, suit_masks)
    if sc == sb:
        return c > best
    return trump_suit >= 0 and sc == trump_suit


@helper
def _run_above(card_bit, legal, alive, suit_masks):
    """The next ``alive`` card above ``card_bit`` in its suit when it is ``legal`` too (the
    same run of equivalent cards), else 0."""
    one = np.uint64(1)
    suit = np.uint64(0)
    for k in range(suit_masks.shape[0]):
        if suit_masks[k] & card_bit:
            suit = suit_masks[k]
    above = alive & suit & ~((card_bit << one) - one)
    nxt = above & (~above + one)
    return nxt & legal


@helper
def distinct_cards(legal, alive, suit_masks, prefer):
    """One card of each run of equivalent ``legal`` cards (a mask): cards of one suit with no
    ``alive`` card (one still in a hand or in the trick in progress) between them win and
    lose the same tricks. A run is stood for by ``prefer`` when it holds it, else by its top
    card (as in the solver's move list, core/dd.py)."""
    out = np.uint64(0)
    m = legal
    while m:
        low = m & (~m + np.uint64(1))
        m ^= low
        if not _run_above(low, legal, alive, suit_masks):
            out |= low  # the top of its run
    if prefer >= 0 and legal & bit(prefer) and not out & bit(prefer):
        top = bit(prefer)
        while _run_above(top, legal, alive, suit_masks):
            top = _run_above(top, legal, alive, suit_masks)
        out = (out & ~top) | bit(prefer)
    return out
