"""core/pimc.py: the world sampler keeps every hard constraint; decide picks the best total."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simcards.core import dd
from simcards.core.cards import parse_cards
from simcards.core.pimc import decide, sample_world_py

ONES = np.ones(2, np.int64)
NO_NILS = np.zeros((0, 3), np.int64)  # decide's Nil rows: none in play

SUIT = [((1 << 13) - 1) << (13 * s) for s in range(4)]


@st.composite
def situations(draw):
    """A true deal of the unseen cards, then constraints it satisfies (so a world exists)."""
    n = draw(st.integers(3, 5))
    size = draw(st.integers(1, 52 // n))
    cards = draw(st.permutations(list(range(52))))[: n * size]
    truth = [sum(1 << c for c in cards[s * size:(s + 1) * size]) for s in range(n)]
    sizes = [size] * n
    # some seats already played to the trick: one card fewer
    for s in range(n):
        if size > 1 and draw(st.booleans()):
            truth[s] &= ~(1 << (truth[s].bit_length() - 1))
            sizes[s] -= 1
    me = draw(st.integers(0, n - 1))
    fixed = [0] * n
    fixed[me] = truth[me]
    other = draw(st.integers(0, n - 1))
    if other != me and truth[other]:
        fixed[other] = truth[other] & -truth[other]  # one card known to be there (a passed card)
    allowed = []
    for s in range(n):
        a = (1 << 64) - 1
        for suit in range(4):
            if not truth[s] & SUIT[suit] and draw(st.booleans()):
                a &= ~SUIT[suit]  # a shown void, true of the real deal
        allowed.append(0 if s == me else a)
    unseen = 0
    for s in range(n):
        unseen |= truth[s] & ~fixed[s]
    return unseen, fixed, sizes, allowed, draw(st.integers(0, 2**63))


@settings(max_examples=200, deadline=None)
@given(situations())
def test_worlds_keep_sizes_voids_and_known_cards(case):
    unseen, fixed, sizes, allowed, seed = case
    hands = sample_world_py(unseen, fixed, sizes, allowed, seed)
    assert hands is not None
    union = 0
    for s, h in enumerate(hands):
        assert bin(h).count("1") == sizes[s]
        assert h & fixed[s] == fixed[s]  # known cards stay
        assert h & ~(allowed[s] | fixed[s]) == 0  # no card of a shown void, nothing for the deciding seat
        assert union & h == 0  # no card twice
        union |= h
    known = 0
    for f in fixed:
        known |= f
    assert union == unseen | known  # exactly the unseen cards, never a seen or played one


def test_hard_constraints_use_the_constructive_deal():
    # three seats void in all but one suit each: plain deals almost never fit
    unseen = SUIT[0] | SUIT[1] | SUIT[2]
    allowed = [SUIT[0], SUIT[1], SUIT[2]]
    hands = sample_world_py(unseen, [0, 0, 0], [13, 13, 13], allowed, 5, max_tries=3)
    assert hands == [SUIT[0], SUIT[1], SUIT[2]]
    assert sample_world_py(unseen, [0, 0, 0], [13, 13, 13], [SUIT[0], SUIT[0], SUIT[2]], 5) is None


def test_decide_picks_the_card_best_in_every_world_and_breaks_ties_by_preference():
    # no trump, South (0) on lead with AS 2S, North 2H 3H; the KS is with West or East:
    # the ace drops the king and the deuce then wins too (two tricks in every world); the
    # deuce first loses to the king and the ace is discarded on a diamond (none)
    masks = np.array(SUIT, np.uint64)
    R = dd.rules_row(4, -1)
    m = lambda text: sum(1 << c for c in parse_cards(text))  # noqa: E731
    south, north = m("AS 2S"), m("2H 3H")
    worlds = np.array([[south, m("KS 3D"), north, m("4D 5D")],
                       [south, m("3D 4D"), north, m("KS 5D")]], np.uint64)
    totals = np.zeros(64, np.int64)
    utility = np.array([0, 10, 20], np.int64)
    ace, deuce = parse_cards("AS 2S")
    args = (R, np.int64(0b0101), masks, np.zeros(8, np.int64), np.int64(0), np.int64(0), np.int64(1), np.int64(0),
            np.uint64(south))
    card, solved = decide(worlds, 2, ONES, *args, utility, NO_NILS, np.int64(deuce), np.int64(0), np.int64(1), np.int64(6), totals)
    assert solved == 2
    assert (totals[ace], totals[deuce]) == (40, 0)
    assert card == ace
    # equal utilities: the preferred card wins the tie
    flat = np.zeros(3, np.int64)
    card, _ = decide(worlds, 2, ONES, *args, flat, NO_NILS, np.int64(deuce), np.int64(0), np.int64(1), np.int64(6), totals)
    assert card == deuce
    # a node budget of one node stops after min_worlds
    _, solved = decide(worlds, 2, ONES, *args, utility, NO_NILS, np.int64(-1), np.int64(1), np.int64(1), np.int64(6), totals)
    assert solved == 1
    # each world's points count its weight times
    weights = np.array([3, 1], np.int64)
    card, _ = decide(worlds, 2, weights, *args, utility, NO_NILS, np.int64(deuce), np.int64(0), np.int64(1), np.int64(6),
                     totals)
    assert (totals[ace], totals[deuce]) == (80, 0)


def test_decide_adds_the_swing_of_a_nil_the_card_lets_fail():
    # no trump; South (0) leads, West (1) bid Nil with the heart king, East (3) has no heart:
    # the queen of hearts forces the king to win; the club lets East win and lead a diamond
    masks = np.array(SUIT, np.uint64)
    m = lambda text: sum(1 << c for c in parse_cards(text))  # noqa: E731
    south = m("QH 2C")
    worlds = np.array([[south, m("KH 3C"), m("4H 4C"), m("5D 5C")]], np.uint64)
    queen, club = parse_cards("QH 2C")
    totals = np.zeros(64, np.int64)
    args = (dd.rules_row(4, -1), np.int64(0b0101), masks, np.zeros(8, np.int64), np.int64(0), np.int64(0),
            np.int64(1), np.int64(0), np.uint64(south), np.zeros(3, np.int64))  # no trick for us either way
    card, _ = decide(worlds, 1, ONES, *args, NO_NILS, np.int64(club), np.int64(0), np.int64(1), np.int64(6), totals)
    assert card == club  # tricks alone: a tie, the preferred card
    nils = np.array([[1, 0b0101, 1000]], np.int64)  # West's Nil, attacked by South and North, +100 points if set
    card, _ = decide(worlds, 1, ONES, *args, nils, np.int64(club), np.int64(0), np.int64(1), np.int64(6), totals)
    assert (totals[queen], totals[club]) == (1000, 0)
    assert card == queen


def test_distinct_cards_keeps_one_card_of_each_run():
    from simcards.core.pimc import distinct_cards

    suits = np.array(SUIT, np.uint64)
    legal = sum(1 << c for c in parse_cards("AH KH 9H 8H 6H 2C"))
    alive = ((1 << 52) - 1) & ~(1 << parse_cards("7H")[0])  # 7H is played: 8H and 6H are one run

    def reps(prefer):
        out = int(distinct_cards(np.uint64(legal), np.uint64(alive), suits, np.int64(prefer)))
        return {c for c in range(52) if (out >> c) & 1}

    ah, kh, h9, h8, h6, c2 = parse_cards("AH KH 9H 8H 6H 2C")
    assert reps(-1) == {ah, h9, c2}  # the top of each run: AH KH, 9H 8H 6H, 2C
    assert reps(h6) == {ah, h6, c2}  # the preferred card stands for its run
    assert reps(kh) == {kh, h9, c2}
    # the top of a run stops below a live card of another seat: QH (alive) splits KH from JH
    legal2 = sum(1 << c for c in parse_cards("KH JH"))
    out = int(distinct_cards(np.uint64(legal2), np.uint64(alive), suits, np.int64(-1)))
    assert out == legal2


def _pick(values, prefer, z, weights=None):
    """confident_candidate over worlds of play-out values (rows: worlds; columns: cards 0..k-1)."""
    from simcards.core.pimc import GAIN, SQUARE, WEIGHTS, add_world, confident_candidate, playout_sums

    values = np.asarray(values, np.int64)
    k = values.shape[1]
    candidates = np.uint64((1 << k) - 1)
    totals = np.zeros(64, np.int64)
    sums = playout_sums()
    row = np.zeros(64, np.int64)
    weights = np.ones(len(values), np.int64) if weights is None else np.asarray(weights, np.int64)
    for w, v in enumerate(values):
        row[:k] = v
        add_world(row, candidates, np.int64(prefer), weights[w], totals, sums)
    assert sums[GAIN, WEIGHTS] == weights.sum() and sums[SQUARE, WEIGHTS] == (weights ** 2).sum()
    card = confident_candidate(candidates, sums, np.int64(prefer), float(z))
    return int(card), totals


def test_confident_candidate_needs_a_gain_beyond_the_noise():
    # card 1 gains 1000 in one world of 16 and loses 900 in another: a better total, by luck
    lucky = np.zeros((16, 2), np.int64)
    lucky[3, 1], lucky[9, 1] = 1000, -900
    card, totals = _pick(lucky, 0, 1.0)
    assert totals[1] > totals[0] and card == 0
    assert _pick(lucky, 0, 0.0)[0] == 1  # z = 0: the best total
    steady = np.zeros((16, 3), np.int64)
    steady[:, 2] = 10  # card 2 gains 10 in every world: chosen whatever z
    steady[0, 1] = 400  # card 1: one lucky world
    steady[1, 1] = -300
    assert _pick(steady, 0, 3.0)[0] == 2
    assert _pick(np.zeros((16, 3), np.int64), 1, 1.0)[0] == 1  # all equal: prefer


@given(st.lists(st.lists(st.integers(-50, 50), min_size=4, max_size=4), min_size=1, max_size=20),
       st.integers(0, 3))
@settings(max_examples=100, deadline=None)
def test_confident_candidate_at_z0_is_the_best_total(values, prefer):
    card, totals = _pick(values, prefer, 0.0)
    top = max(int(totals[c]) for c in range(4))
    # the best total, the lowest card of those tied at it; prefer unless one is strictly above its total
    assert card == (prefer if top == totals[prefer] else min(c for c in range(4) if totals[c] == top))
