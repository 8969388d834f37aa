"""The Nil solver (core/dd_nil.py) against the plain minimax reference (core/dd_ref.nil_fails)
on small endings under every trick rule the games use, and worked positions."""
import numpy as np
from hypothesis import given, settings, strategies as st

from simcards.core import dd, dd_nil, dd_ref
from simcards.core.cards import SUIT_MASKS, parse_cards
from simcards.core.tricks import SUIT_MASKS_JOKERS_AS_SPADES


@st.composite
def nil_endings(draw):
    """(hands, rules row, nil seat, attackers, masks, leader, trick, broken, trick1)."""
    n = draw(st.sampled_from([3, 4, 5]))
    k = draw(st.integers(1, 4 if n == 4 else 3))
    jokers = draw(st.booleans())
    masks = SUIT_MASKS_JOKERS_AS_SPADES if jokers else SUIT_MASKS
    trump = 3 if jokers else draw(st.sampled_from([-1, 0, 3]))
    trick1 = draw(st.booleans())
    leader = draw(st.integers(0, n - 1))
    sitout = draw(st.sampled_from([-1] + [s for s in range(n) if s != leader])) if n == 5 else -1
    deck = draw(st.permutations(list(range(55 if jokers else 52))))
    hands, pos = [], 0
    for s in range(n):
        m = k - (1 if trick1 and s == sitout else 0)
        hands.append(sum(1 << c for c in deck[pos:pos + m]))
        pos += m
    rules = dd.rules_row(n, trump, lead_restrict=draw(st.booleans()), obligation=draw(st.sampled_from([0, 1, 2])),
                         no_trump_trick1=draw(st.booleans()), sitout_trick1=sitout)
    nil = draw(st.integers(0, n - 1))
    partner = (nil + 2) % n if n == 4 and draw(st.booleans()) else nil  # Spades: the partner defends too
    attackers = [s for s in range(n) if s not in (nil, partner)]
    broken = draw(st.booleans())
    order = [(leader + i) % n for i in range(n)]
    order = [s for s in order if not (trick1 and s == sitout)]
    trick = []
    for s in order[:draw(st.integers(0, len(order) - 1))]:
        hand = tuple(c for c in range(64) if hands[s] >> c & 1)
        c = draw(st.sampled_from(dd_ref.legal(rules, masks, hand, tuple(trick), broken, trick1)))
        trick.append(c)
        hands[s] &= ~(1 << c)
    return hands, rules, nil, attackers, masks, leader, trick, broken, trick1


@settings(max_examples=200, deadline=None)
@given(nil_endings())
def test_nil_solver_matches_plain_minimax(position):
    hands, rules, nil, attackers, masks, leader, trick, broken, trick1 = position
    kw = dict(leader=leader, trick=trick, broken=broken, trick1=trick1)
    assert dd_nil.fails(hands, rules, nil, attackers, masks, **kw) == dd_ref.nil_fails(hands, rules, nil, attackers,
                                                                                        masks, **kw)


def _hands(*texts):
    return [sum(1 << c for c in parse_cards(t)) for t in texts]


SPADES = dd.rules_row(4, 3)


def test_the_partner_covers_the_nil_bidders_king():
    # North (0) bid Nil with the heart king; South (2) holds the ace and four
    hands = _hands("KH 2C", "2H 3C", "AH 4H", "3H 5C")
    assert not dd_nil.fails(hands, SPADES, 0, [1, 3], SUIT_MASKS, leader=1)
    assert not dd_nil.fails(hands, SPADES, 0, [1, 3], SUIT_MASKS, leader=3)
    # without the partner's help (Cutthroat: every other seat attacks) the king must win
    assert dd_nil.fails(hands, SPADES, 0, [1, 2, 3], SUIT_MASKS, leader=1)


def test_the_nil_bidders_top_trump_always_wins():
    hands = _hands("AS 2C", "2H 3C", "AH 4C", "3H 5C")
    for leader in range(4):
        assert dd_nil.fails(hands, SPADES, 0, [1, 3], SUIT_MASKS, leader=leader)


def test_a_nil_bidder_with_only_low_cards_is_safe():
    hands = _hands("2H 2C", "5H 3C", "AH 4C", "3H 5C")
    for leader in range(4):
        assert not dd_nil.fails(hands, SPADES, 0, [1, 3], SUIT_MASKS, leader=leader)


def test_card_values_names_the_card_that_saves_the_nil():
    # East led the heart queen, South and West followed low; North, fourth, holds the king and
    # the two: the king wins the trick, the two keeps the Nil (North then discards the king)
    hands = _hands("KH 2H", "3C", "4C", "5C")
    trick = parse_cards("QH 9H 3H")
    tc = np.zeros(8, np.int64)
    tc[:3] = trick
    keys, values = dd_nil.new_table(dd_nil.TABLE_BITS)
    cards = np.zeros(dd.MAX_MOVES, np.int64)
    out = np.zeros(dd.MAX_MOVES, np.int64)
    k = dd_nil.nil_card_values(np.array(hands, np.uint64), np.asarray(SPADES, np.int64), np.int64(0), np.int64(0b1010),
                               SUIT_MASKS, tc, np.int64(3), np.int64(1), np.int64(0), np.int64(0), np.int64(1), keys,
                               values, np.zeros(1, np.int64), np.int64(0), cards, out)
    got = {int(cards[i]): int(out[i]) for i in range(k)}
    king, two = parse_cards("KH 2H")
    assert got == {two: 0, king: 1}


def test_a_question_past_its_limit_is_left_open_and_the_hands_restored():
    hands = _hands("KH 2H 3S 4S", "QH 3C 5S 6S", "9H 4C 7S 8S", "3H 5C 9S TS")
    H = np.array(hands, np.uint64)
    keys, values = dd_nil.new_table(dd_nil.TABLE_BITS)
    cards = np.zeros(dd.MAX_MOVES, np.int64)
    out = np.zeros(dd.MAX_MOVES, np.int64)
    args = (np.asarray(SPADES, np.int64), np.int64(0), np.int64(0b1010), SUIT_MASKS, np.zeros(8, np.int64),
            np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(1), keys, values, np.zeros(1, np.int64))
    k = dd_nil.nil_card_values(H, *args, np.int64(3), cards, out)
    assert k == 4 and set(out[:k].tolist()) == {-1}
    assert H.tolist() == hands
    keys[:], values[:] = 0, 0
    k = dd_nil.nil_card_values(H, *args, np.int64(0), cards, out)
    want = {int(cards[i]): bool(dd_ref.nil_fails(
        [h & ~(1 << int(cards[i])) if s == 0 else h for s, h in enumerate(hands)], SPADES, 0, [1, 3], SUIT_MASKS,
        leader=0, trick=[int(cards[i])])) for i in range(k)}
    assert {int(cards[i]): bool(out[i]) for i in range(k)} == want
    assert H.tolist() == hands
