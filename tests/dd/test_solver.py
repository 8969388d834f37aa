"""The double-dummy solver (core/dd.py) against the plain minimax reference (core/dd_ref.py)
on small endings, opening and mid-trick, under every rule the games use."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from simcards.core import dd, dd_ref
from simcards.core.cards import SUIT_MASKS
from simcards.core.tricks import SUIT_MASKS_JOKERS_AS_SPADES

TABLE = dd.Table(14)
TINY = dd.Table(0, entries=2)  # a pool that fills and is swept within one solve


@st.composite
def endings(draw):
    """(hands, rules row, side, masks, leader, trick, broken, trick1): a legal position."""
    n = draw(st.sampled_from([3, 4, 5]))
    k = draw(st.integers(1, 3))
    jokers = draw(st.booleans())
    masks = SUIT_MASKS_JOKERS_AS_SPADES if jokers else SUIT_MASKS
    trump = 3 if jokers else draw(st.sampled_from([-1, 0, 1, 2, 3]))
    trick1 = draw(st.booleans())
    leader = draw(st.integers(0, n - 1))
    sitout = draw(st.sampled_from([-1] + [s for s in range(n) if s != leader])) if n == 5 else -1
    deck = draw(st.permutations(list(range(55 if jokers else 52))))
    hands, pos = [], 0
    for s in range(n):
        m = k - (1 if trick1 and s == sitout else 0)
        hands.append(sum(1 << c for c in deck[pos:pos + m]))
        pos += m
    features = draw(st.sampled_from([dd.F_ALL, 0, dd.F_TT, dd.F_TT | dd.F_CLASSES, dd.F_ALL & ~dd.F_QUICK,
                                     dd.F_SURE, dd.F_KILLER | dd.F_TT, dd.F_ALL & ~dd.F_KILLER,
                                     dd.F_SECOND | dd.F_TT | dd.F_CLASSES]))
    rules = dd.rules_row(n, trump, lead_restrict=draw(st.booleans()), obligation=draw(st.sampled_from([0, 1, 2])),
                         no_trump_trick1=draw(st.booleans()), sitout_trick1=sitout, features=features)
    side = [s for s in range(n) if draw(st.booleans())] or [leader]
    broken = draw(st.booleans())
    order = [(leader + i) % n for i in range(n)]
    order = [s for s in order if not (trick1 and s == sitout)]
    trick = []
    for s in order[:draw(st.integers(0, len(order) - 1))]:  # cards of the trick in progress, legally
        hand = tuple(c for c in range(64) if hands[s] >> c & 1)
        c = draw(st.sampled_from(dd_ref.legal(rules, masks, hand, tuple(trick), broken, trick1)))
        trick.append(c)
        hands[s] &= ~(1 << c)
    return hands, rules, side, masks, leader, trick, broken, trick1


@settings(max_examples=150, deadline=None)
@given(endings())
def test_solver_matches_plain_minimax(position):
    hands, rules, side, masks, leader, trick, broken, trick1 = position
    TABLE.fresh()
    got = dd.solve(hands, rules, side, masks, leader=leader, trick=trick, broken=broken, trick1=trick1, table=TABLE)
    want = dd_ref.solve(hands, rules, side, masks, leader=leader, trick=trick, broken=broken, trick1=trick1)
    assert got == want
    TINY.fresh()
    assert dd.solve(hands, rules, side, masks, leader=leader, trick=trick, broken=broken, trick1=trick1,
                    table=TINY) == want


def test_quick_tricks_stop_at_a_partner_who_must_ruff():
    """Found by the hypothesis test above (East measured alone against the other three): South
    leads the two diamonds nobody else holds, but West, void with a trump and obliged to trump,
    ruffs the first (still a trick of South's side) and must lead his club, which East wins:
    South's two quick tricks were one. A partner who ruffs takes the lead, so with several
    partners the quick tricks now stop at the length of any player who can ruff."""
    hands = [3, 72, 24576, (1 << 39) | 4]  # N: C2 C3, E: C5 C8, S: D2 D3, W: S2 C4 (spades trump)
    rules = dd.rules_row(4, 3, obligation=dd.OBLIGE_TRUMP)
    want = dd_ref.solve(hands, rules, [1], SUIT_MASKS, leader=2)
    assert want == 1
    TABLE.fresh()
    assert dd.solve(hands, rules, [1], SUIT_MASKS, leader=2, table=TABLE) == want


@pytest.mark.parametrize("n", [3, 4])
def test_sure_trump_tricks_when_one_side_holds_every_trump(n):
    """Four-card endings where one side holds all the trumps (the sure-trump-tricks bound decides
    many questions): every leader, either side measured, against the plain minimax."""
    rng = np.random.default_rng(40 + n)
    trumps = [c for c in range(52) if int(SUIT_MASKS[3]) >> c & 1]
    others = [c for c in range(52) if not int(SUIT_MASKS[3]) >> c & 1]
    for _ in range(12):
        holders = [0, 2] if n == 4 else [int(rng.integers(n))]
        rng.shuffle(trumps)
        rng.shuffle(others)
        k = int(rng.integers(2, 7))
        hands, t, o = [0] * n, list(trumps[:k]), list(others)
        for s in range(n):
            for _ in range(4):
                if t and s in holders and (rng.random() < 0.6 or sum(4 for x in holders if x > s) < len(t)):
                    hands[s] |= 1 << t.pop()
                else:
                    hands[s] |= 1 << o.pop()
        if t:
            continue
        rules = dd.rules_row(n, 3, lead_restrict=bool(rng.integers(2)))
        for leader in range(n):
            for side in (holders, [x for x in range(n) if x not in holders]):
                TABLE.fresh()
                got = dd.solve(hands, rules, side, SUIT_MASKS, leader=leader, broken=True, table=TABLE)
                assert got == dd_ref.solve(hands, rules, side, SUIT_MASKS, leader=leader, broken=True)


@settings(max_examples=150, deadline=None)
@given(endings(), st.lists(st.integers(-1, 1), min_size=1, max_size=7))
def test_card_values_to_a_utility_keep_each_cards_utility(position, utility):
    """Values resolved only as far as a utility tells them apart (pimc's flat contract points)
    score every card as the exact values do."""
    hands, rules, side, masks, leader, trick, broken, trick1 = position
    TABLE.fresh()
    exact = dd.values(hands, rules, side, masks, leader=leader, trick=trick, broken=broken, trick1=trick1, table=TABLE)
    TABLE.fresh()
    coarse = dd.values(hands, rules, side, masks, leader=leader, trick=trick, broken=broken, trick1=trick1,
                       table=TABLE, utility=utility)
    top = len(utility) - 1
    assert {c: utility[min(v, top)] for c, v in coarse.items()} == {c: utility[min(v, top)] for c, v in exact.items()}


def test_card_values_agree_with_solving_after_each_card():
    rng = np.random.default_rng(3)
    rules = dd.rules_row(4, 3, lead_restrict=True)
    for _ in range(5):
        deck = rng.permutation(52)
        hands = [sum(1 << int(c) for c in deck[4 * s:4 * s + 4]) for s in range(4)]
        values = dd.values(hands, rules, [0, 2], SUIT_MASKS, leader=1)
        for c, v in values.items():
            after = list(hands)
            after[1] &= ~(1 << c)
            assert v == dd_ref.solve(after, rules, [0, 2], SUIT_MASKS, leader=1, trick=[c])
        TABLE.fresh()
        assert max(values.values()) == 4 - dd.solve(hands, rules, [1, 3], SUIT_MASKS, leader=1, table=TABLE) \
            or min(values.values()) == dd.solve(hands, rules, [0, 2], SUIT_MASKS, leader=1, table=TABLE)


def test_play_costs_add_up():
    """The costs of one side's cards equal its best tricks at the start minus what it took."""
    rng = np.random.default_rng(4)
    rules = dd.rules_row(4, -1)
    deck = rng.permutation(52)
    hands = [sum(1 << int(c) for c in deck[3 * s:3 * s + 3]) for s in range(4)]
    # play the lowest legal card every time
    cards, H, trick, leader, seat = [], list(hands), [], 0, 0
    for _ in range(12):
        hand = tuple(c for c in range(52) if H[seat] >> c & 1)
        c = min(dd_ref.legal(rules, SUIT_MASKS, hand, tuple(trick), True, False))
        cards.append(c)
        H[seat] &= ~(1 << c)
        trick.append(c)
        seat = (seat + 1) % 4
    costs = dd.play_costs(hands, rules, SUIT_MASKS, [(0, 2), (1, 3), (0, 2), (1, 3)], 0, cards, trick1=False)
    assert len(costs) == 12 and all(s["cost"] >= 0 for s in costs)
    start = dd_ref.solve(hands, rules, [0, 2], SUIT_MASKS, leader=0)
    assert costs[0]["best"] == start


def test_a_full_pool_keeps_answers_exact():
    """A pool far too small for the search fills again and again; each time it keeps the entries
    of the most cards and goes on: the answers stay those of a table that never fills."""
    rng = np.random.default_rng(8)
    small, large = dd.Table(0), dd.Table(14)  # 16 entries, 2^18
    for trump in (-1, 3):
        rules = dd.rules_row(4, trump, lead_restrict=trump >= 0)
        for _ in range(4):
            deck = rng.permutation(52)
            hands = [sum(1 << int(c) for c in deck[6 * s:6 * s + 6]) for s in range(4)]
            small.fresh()
            large.fresh()
            got = dd.values(hands, rules, [0, 2], SUIT_MASKS, leader=0, table=small)
            assert got == dd.values(hands, rules, [0, 2], SUIT_MASKS, leader=0, table=large)
    assert small.counters[dd.C_TT_RESETS] > 0 and large.counters[dd.C_TT_RESETS] == 0


def test_play_costs_bounds_keep_values_exact():
    """``play_costs`` solves each position inside the bound the card after it gives (that card
    was its seat's choice): every ``best`` and ``after`` is still the plain minimax's value, for
    random (often bad) cards, partnerships and a player alone against the others, whole plays
    and plays cut off mid-trick, from the first trick or a later one."""
    rng = np.random.default_rng(12)
    for n, trump, sides, zero_sum in ((4, -1, [(0, 2), (1, 3), (0, 2), (1, 3)], True),
                                      (4, 3, [(0, 2), (1, 3), (0, 2), (1, 3)], True),
                                      (3, 3, [(0,), (1,), (2,)], False)):
        rules = dd.rules_row(n, trump)
        for _ in range(3):
            deck = rng.permutation(52)
            hands = [sum(1 << int(c) for c in deck[4 * s:4 * s + 4]) for s in range(n)]
            cards, positions, seats, won = [], [], [], []
            H, trick, leader, seat = list(hands), [], 0, 0
            for _ in range(4 * n):
                positions.append((tuple(H), tuple(trick), leader))
                hand = tuple(c for c in range(52) if H[seat] >> c & 1)
                c = int(rng.choice(dd_ref.legal(rules, SUIT_MASKS, hand, tuple(trick), True, False)))
                cards.append(c)
                seats.append(seat)
                H[seat] &= ~(1 << c)
                trick.append(c)
                if len(trick) == n:
                    w = (leader + dd._winner_py(trick, rules, SUIT_MASKS)) % n
                    won.append(w)
                    trick, leader, seat = [], w, w
                else:
                    won.append(-1)
                    seat = (seat + 1) % n
            positions.append((tuple(H), (), leader))
            # the whole play, a play cut off in the middle of a trick (its last position has no
            # neighbour after it), and the same from the second trick on
            cut = int(rng.integers(n + 1, 4 * n))
            for played, first_trick in ((cards, 0), (cards[:cut], 0), (cards[:cut], 1)):
                costs = dd.play_costs(hands, rules, SUIT_MASKS, sides, 0, played, trick1=False, zero_sum=zero_sum,
                                      first_trick=first_trick, table=dd.Table())
                first = n * first_trick
                assert len(costs) == len(played) - first
                for k, row in enumerate(costs, start=first):
                    side = sides[seats[k]]
                    assert (row["seat"], row["card"], row["trick"]) == (seats[k], cards[k], k // n)
                    hs, tr, ld = positions[k]
                    assert row["best"] == dd_ref.solve(list(hs), rules, list(side), SUIT_MASKS, leader=ld,
                                                       trick=list(tr))
                    hs, tr, ld = positions[k + 1]
                    after = dd_ref.solve(list(hs), rules, list(side), SUIT_MASKS, leader=ld, trick=list(tr))
                    assert row["after"] == after + (1 if won[k] in side else 0)


def _cards(text):
    """'SA SJ H3' -> a card mask (suits C D H S from 0, ranks 2..A from 0)."""
    return sum(1 << ("CDHS".index(t[0]) * 13 + "23456789TJQKA".index(t[1])) for t in text.split())


@pytest.mark.parametrize("leader, hands", [
    # East leads low to the ace, West returns the jack, overtaken by the queen: five tricks
    # (the quick tricks counted three before 2026-12-07: the ace, the queen and the ten)
    (1, ["CA CK CQ CJ CT", "SQ ST S7 S6 S2", "S8 S5 HK HQ D3", "SA SJ H3 H2 D2"]),
    # West cashes the ace (the king unblocked) and crosses with his last spade: five (was three)
    (3, ["CA CK CQ CJ CT", "SK SQ ST S7 S6", "S8 S5 HK HQ D3", "SA S4 H3 H2 D2"]),
])
def test_quick_tricks_run_a_suit_through_the_partners_overtake(leader, hands):
    """Deal 232 of the no-trump bench (docs/dev/double-dummy.md): once the opponents are out of
    the suit, every card the partner has left in it wins; the quick tricks count all of them."""
    H = np.array([_cards(h) for h in hands], dtype=np.uint64)
    rules = dd.rules_row(4, -1)
    side = np.int64(dd.side_mask([1, 3]))
    assert dd_ref.solve([int(h) for h in H], rules, [1, 3], SUIT_MASKS, leader=leader) == 5
    tricks, _ = dd._quick_tricks(H.copy(), rules, side, SUIT_MASKS, np.int64(leader), False, np.int64(13))
    assert tricks == 5
    TABLE.fresh()
    assert dd.solve([int(h) for h in H], rules, [1, 3], SUIT_MASKS, leader=leader, table=TABLE) == 5
