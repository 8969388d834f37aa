"""Spades' sped-up helpers against their plain forms: the records of a seed must not depend on
how fast they were computed (docs/architecture.md, "Speed habits")."""
import numpy as np

from simcards.games.spades import policies as P

from test_spades_fitted import view  # noqa: I001


def plain_nil_risk(hand, v):
    """``policies.nil_risk`` as it was written first: every side card visited from the lowest up."""
    trumps = hand & v[P.V_SUITS + 3]
    outside = v[P.V_DECK] & v[P.V_SUITS + 3] & ~trumps
    risk = 0.0
    n_t = bin(trumps).count("1")
    rest = trumps
    while rest:
        c = rest.bit_length() - 1
        rest &= ~(1 << c)
        higher = bin(outside & ~((1 << (c + 1)) - 1)).count("1")
        if higher < 4:
            risk += 1.0
        elif higher < 7:
            risk += 0.4
    if n_t >= 4:
        risk += 0.5 * (n_t - 3)
    for s in range(3):
        m = hand & v[P.V_SUITS + s]
        below_count = 0
        low = m
        while low:
            c = (low & -low).bit_length() - 1
            low &= ~(1 << c)
            r = c - 13 * s
            if r >= 9 and below_count < (r - 7) // 2 + 1:
                risk += 0.3 * (r - 8)
            if r <= 5:
                below_count += 1
    return risk


def test_nil_risk_is_its_plain_form_bit_for_bit():
    rng = np.random.default_rng(4)
    v = view("AS")
    row = [int(t) for t in v]
    for _ in range(3000):
        cards = rng.choice(52, int(rng.integers(1, 18)), replace=False)
        hand = sum(1 << int(c) for c in cards)
        assert P.nil_risk(np.uint64(hand), v) == plain_nil_risk(hand, row)
    # the high cards' ducking cards: J with one low card, Q with two, K with two, A with three
    hand = sum(1 << c for c in (9, 10, 11, 12, 0, 1))  # clubs A K Q J 3 2
    assert P.nil_risk(np.uint64(hand), v) == plain_nil_risk(hand, row)
