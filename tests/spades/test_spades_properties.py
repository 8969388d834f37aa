"""Rules section 8 invariants as hypothesis property tests on kernel traces."""
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spades_util import table

from simcards.core.cards import cards_of
from simcards.games.spades import GAME, rules
from simcards.games.spades.kernel import run_kernel
from simcards.games.spades.replay import traced_hands
from simcards.games.spades.referee import deck_of, effective_suit, score_hand, score_team, trick_winner

COL = {name: i for i, (name, _) in enumerate(rules.DEAL_COLUMNS)}
SETTINGS = dict(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

variants = st.fixed_dictionaries({}, optional={
    "jokers": st.sampled_from([0, 2]),
    "joker_removed_cards": st.sampled_from(["2C 2D", "2H 2D", "2C 2H"]),
    "spades_must_be_broken": st.booleans(),
    "first_lead": st.sampled_from(["left_of_dealer", "lowest_club"]),
    "first_lead_card_forced": st.booleans(),
    "first_trick_trump_allowed": st.booleans(),
    "blind_nil_exchange_count": st.integers(0, 4),
    "nil_exchange_count": st.integers(0, 4),
    "exchange_order": st.sampled_from(["simultaneous", "nil_first", "partner_first"]),
    "min_team_bid": st.integers(0, 8),
    "forbid_total_bids_13": st.booleans(),
    "failed_nil_tricks": st.sampled_from(["bags", "partner", "ignored"]),
    "bag_limit": st.integers(1, 12),
    "misdeal_condition": st.sampled_from(["none", "no_spades", "at_most_one_spade", "no_face_cards"]),
    "misdeal_optional": st.booleans(),
    "nil_allowed": st.booleans(),
    "blind_nil_allowed": st.booleans(),
})
policies = st.lists(st.sampled_from(["random", "basic", "expert"]), min_size=4, max_size=4).map(tuple)


def traced(settings_, pols, seed, index):
    v = GAME.variant(None, settings_)
    out, events = run_kernel("deal", v, table(*pols), seed, index, 1, trace=True)
    return v, out[0], traced_hands(events)[0]


@settings(**SETTINGS)
@given(variants, policies, st.integers(0, 2**32), st.integers(0, 10**6))
def test_hand_invariants(settings_, pols, seed, index):
    v, rec, t = traced(settings_, pols, seed, index)
    deck = deck_of(v)
    dealt = [set(cards_of(t.hands[s])) for s in range(4)]
    # 1, 2: 52 distinct cards, 13 each, disjoint, union = deck
    assert len(deck) == 52 and all(len(h) == 13 for h in dealt) and set().union(*dealt) == deck
    bids, blind, given_, plays = t.bids, t.blinds, t.given, t.plays
    assert len(plays) == 52
    # 4, 9, 10, 11: the referee validates every bid (in order) and play, leaders and winners
    res = score_hand(dealt, t.dealer, bids, blind, given_, plays, v)
    assert res.leaders == t.leaders
    assert res.winners == t.winners
    # 6: exchange keeps 13 cards each, same union, k each way between partners only
    after = res.hands_after_exchange
    assert all(len(h) == 13 for h in after) and set().union(*after) == deck
    for team in (0, 1):
        k = res.exchange_counts[team]
        both_nil = bids[team] == 0 and bids[team + 2] == 0
        assert not (both_nil and k)
        for s in (team, team + 2):
            assert len(cards_of(given_[s])) == k
            assert after[s] <= dealt[s] | dealt[s ^ 2]
        if k == 0:
            assert after[team] == dealt[team] and after[team + 2] == dealt[team + 2]
    # 7, 8: 13 tricks of 4 cards, every card once
    assert sorted(plays) == sorted(deck)
    # 12, 13, 14: spade leads, broken flag, voids
    hands = [set(h) for h in after]
    broken = False
    void = [set() for _ in range(4)]
    for k in range(13):
        leader = res.leaders[k]
        led = effective_suit(plays[4 * k])
        for pos in range(4):
            s = (leader + pos) % 4
            c = plays[4 * k + pos]
            suit = effective_suit(c)
            assert suit not in void[s]
            if pos == 0 and suit == 3 and not broken and v.spades_must_be_broken:
                forced = v.first_lead == "lowest_club" and v.first_lead_card_forced and k == 0
                assert forced or all(effective_suit(x) == 3 for x in hands[s])
            if pos > 0 and suit != led:
                void[s].add(led)
            hands[s].discard(c)
            broken = broken or suit == 3
        # 11: winner = highest trump else highest of the led suit
        trick = plays[4 * k:4 * k + 4]
        assert res.winners[k] == trick_winner([((leader + i) % 4, c) for i, c in enumerate(trick)])
    assert all(not h for h in hands)
    # 13: the kernel's spades-broken state turned true at the first trump played, never back
    first_trump = next((k + 1 for k in range(13) if any(effective_suit(c) == 3 for c in plays[4 * k:4 * k + 4])), 0)
    assert rec[COL["broken_trick"]] == first_trump
    # 15, 17, 20 and the record
    tricks = [int(x) for x in rec[COL["tricks0"]:COL["tricks0"] + 4]]
    assert sum(tricks) == 13 and tricks == res.tricks
    for s in range(4):
        if bids[s] == 0:
            assert rec[COL[f"nil{s}"]] == int(tricks[s] == 0)
    assert rec[COL["bags0"]] + rec[COL["bags1"]] <= 13
    # 16: each team's delta is the reference formula
    for team in (0, 1):
        assert rec[COL[f"points{team}"]] == res.team[team]["delta"]


@settings(**SETTINGS)
@given(st.integers(0, 2**32), st.integers(0, 10**5), policies)
def test_blind_nil_decision_sees_no_card(seed, index, pols):
    """5: a blind function that bids BN exactly when it sees no card: BN whenever offered."""
    import os
    here = os.path.join(os.path.dirname(__file__), "spades_probe_bots.py")
    t = GAME.policies.table([f"{here}:probe"] * 4)
    v = GAME.variant(None, {})
    out, events = run_kernel("deal", v, t, seed, index, 1, trace=True)
    # BN is legal for every seat under the defaults and the probe takes it iff its hand is hidden
    assert traced_hands(events)[0].blinds == [1, 1, 1, 1]


@settings(**SETTINGS)
@given(st.integers(0, 13), st.integers(0, 13), st.integers(0, 13), st.integers(0, 13),
       st.booleans(), st.booleans(), st.integers(0, 13), st.integers(0, 9), st.integers(1, 10), st.booleans())
def test_scoring_invariants(bp, bq, tp, tq_raw, blp, blq, other_bid, bags, limit, reset):
    tq = min(tq_raw, 13 - tp)
    blp, blq = blp and bp == 0, blq and bq == 0
    v = GAME.variant(None, {})
    params = v.to_params()
    delta, g, new, pens, C, made = rules.score_team(params, bp, int(blp), tp, bq, int(blq), tq, bags)
    ref = score_team(v, bp, blp, tp, bq, blq, tq, bags)
    assert (delta, g, new, pens) == (ref["delta"], ref["bags_after"], ref["new_bags"], ref["penalties"])
    # 21: default bounds; 18: counter range and penalty count; 19: score mod 10 == G from 0-0
    assert -589 <= delta <= 400
    assert 0 <= g < 10 and pens == (bags + new) // 10
    assert (bags + delta) % 10 == g  # a score congruent to G stays congruent
    # 18 with another limit / reset
    v2 = v.replace(bag_limit=limit, bag_overflow="reset" if reset else "carry")
    d2, g2, n2, p2, *_ = rules.score_team(v2.to_params(), bp, int(blp), tp, bq, int(blq), tq, bags % limit)
    assert 0 <= g2 < limit
    if not reset:
        assert p2 == (bags % limit + n2) // limit


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 10**5), st.sampled_from([(0, 1), (0, 2), (1, 2)]))
def test_swapping_two_side_suits_keeps_trick_counts(seed, index, pair):
    """23: relabel two non-trump suits in a traced hand; the relabelled play is legal and
    every seat takes the same tricks (what suit-symmetric deterministic policies would do)."""
    v, rec, t = traced({"first_dealer": 1}, ("basic",) * 4, seed, index)
    a, b = pair

    def swap(c):
        if c < 52 and c // 13 in pair:
            return (b if c // 13 == a else a) * 13 + c % 13
        return c

    hands = [[swap(c) for c in cards_of(t.hands[s])] for s in range(4)]
    res = score_hand(hands, t.dealer, t.bids, [0] * 4, {}, [swap(c) for c in t.plays], v)
    assert res.tricks == [int(x) for x in rec[COL["tricks0"]:COL["tricks0"] + 4]]


def test_game_records_end_rule_and_dealer():
    """3, 22 on many games: the winner leads strictly and the end condition holds."""
    v = GAME.variant(None, {"target_score": 250, "losing_score": -150})
    out = GAME.simulate("game", v, table("basic", "random"), 8, 0, 300)
    g = {name: i for i, (name, _) in enumerate(rules.GAME_COLUMNS)}
    for r in out:
        s = (r[g["score0"]], r[g["score1"]])
        if r[g["winner"]] >= 0:
            w = r[g["winner"]]
            assert s[w] > s[1 - w]
            assert max(s) >= 250 or min(s) <= -150
        else:
            assert r[g["hands"]] == v.max_hands


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 3), st.integers(0, 3), st.lists(st.integers(-1, 14), min_size=4, max_size=4),
       st.integers(-300, 600), st.integers(-300, 600), st.booleans(),
       st.fixed_dictionaries({}, optional={
           "min_team_bid": st.integers(0, 13), "forbid_total_bids_13": st.booleans(),
           "nil_allowed": st.booleans(), "blind_nil_allowed": st.booleans(),
           "blind_nil_min_deficit": st.sampled_from([None, 0, 100, 250])}))
def test_kernel_and_referee_agree_on_legal_bids(seat, dealer, raw, s0, s1, looked, settings_):
    """4: the kernel's legal-bid mask equals the referee's legal set in every situation."""
    from simcards.games.spades.policies import BN_BIT
    from simcards.games.spades.referee import legal_bid_set
    v = GAME.variant(None, settings_)
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    before = order[:order.index(seat)]
    bids = np.full(4, -1, np.int64)
    made = {}
    for s in before:  # earlier bids: any value 0..13 (BN as 0); legality of the past is not the point
        b = max(raw[s], 0) % 14
        bids[s] = b
        made[s] = (b, raw[s] == 14)
    mask = int(rules.legal_bids(v.to_params(), bids, np.array([s0, s1], np.int64), seat, dealer, int(looked)))
    kernel = {b for b in range(14) if mask >> b & 1} | ({"BN"} if mask >> BN_BIT & 1 else set())
    assert kernel == legal_bid_set(v, seat, dealer, made, [s0, s1], looked)
