"""Every worked example of rules section 9, through the referee's differential entry
point (score_hand) and through the compiled kernel's own functions."""
import numpy as np
import pytest
from spades_util import build_hand, variant

from simcards.core.cards import mask_of, parse_card, parse_cards
from simcards.core.errors import SimcardsError
from simcards.core.tricks import SUIT_MASKS_JOKERS_AS_SPADES, spades_legal, trick_winner
from simcards.games.spades import rules
from simcards.games.spades.policies import BN_BIT
from simcards.games.spades.referee import legal_bid_set, legal_cards, score_hand
from simcards.games.spades.referee import trick_winner as ref_winner

N, E, S, W = 0, 1, 2, 3


def hand(tricks, bids, blind=(0, 0, 0, 0), v=None, dealer=W, scores=None, bags=None, exchanges=None):
    """Referee a constructed hand with these per-seat tricks; check the kernel's scoring agrees."""
    v = v or variant()
    hands, plays = build_hand(tricks, dealer)
    res = score_hand(hands, dealer, list(bids), list(blind), exchanges or {}, plays, v, scores, bags)
    assert res.tricks == list(tricks)
    params = v.to_params()
    for team in (0, 1):
        a, q = team, team + 2
        k = rules.score_team(params, bids[a], blind[a], tricks[a], bids[q], blind[q], tricks[q],
                             (bags or [0, 0])[team])
        r = res.team[team]
        made = -1 if r["made"] is None else int(r["made"])
        assert k == (r["delta"], r["bags_after"], r["new_bags"], r["penalties"], r["contract"], made)
    return res


def delta(res, team):
    return res.team[team]["delta"]


def test_9_1_contract_made_with_bags():
    res = hand(tricks=(3, 4, 3, 3), bids=(4, 3, 2, 2))
    assert delta(res, 1) == 52 and res.team[1]["bags_after"] == 2
    assert delta(res, 0) == 60 and res.team[0]["new_bags"] == 0


def test_9_2_contract_set():
    res = hand(tricks=(4, 3, 3, 3), bids=(5, 2, 3, 2))
    assert delta(res, 0) == -80 and res.team[0]["new_bags"] == 0
    assert delta(res, 1) == 42 and res.team[1]["new_bags"] == 2


@pytest.mark.parametrize("n_tricks,s_tricks,expected,bags", [
    (5, 0, 141, 1),   # 9.3 Nil made, partner makes
    (3, 0, 60, 0),    # 9.4 Nil made, partner set
    (4, 2, -58, 2),   # 9.5 Nil failed, partner makes
    (3, 1, -139, 1),  # 9.6 Nil failed, partner set (default: bags)
])
def test_9_3_to_9_6_nil(n_tricks, s_tricks, expected, bags):
    rest = 13 - n_tricks - s_tricks
    res = hand(tricks=(n_tricks, rest - rest // 2, s_tricks, rest // 2), bids=(4, 3, 0, 3))
    assert delta(res, 0) == expected and res.team[0]["bags_after"] == bags
    assert res.nil[S] == int(s_tricks == 0)


@pytest.mark.parametrize("mode,expected,bags", [("bags", -139, 1), ("partner", -60, 0), ("ignored", -140, 0)])
def test_9_6_failed_nil_tricks_treatments(mode, expected, bags):
    res = hand(tricks=(3, 5, 1, 4), bids=(4, 3, 0, 3), v=variant(failed_nil_tricks=mode))
    assert delta(res, 0) == expected and res.team[0]["bags_after"] == bags


def _bn_exchange(tricks, dealer):
    """Hands as dealt and the exchange for W (BN) and E: undo a 3-card swap of the built hands."""
    after, plays = build_hand(tricks, dealer)
    gw = after[E][:3]  # what W gave now sits in E's hand
    ge = after[W][:3]
    dealt = [list(h) for h in after]
    dealt[W] = sorted(set(after[W]) - set(ge) | set(gw))
    dealt[E] = sorted(set(after[E]) - set(gw) | set(ge))
    return dealt, plays, {W: gw, E: ge}


def test_9_7_blind_nil_with_exchange():
    v = variant()
    for tricks, expected in (((3, 6, 4, 0), 251), ((3, 5, 4, 1), -149)):
        dealt, plays, exch = _bn_exchange(tricks, dealer=S)  # W bids first, then N, E, S
        res = score_hand(dealt, S, [4, 5, 3, 0], [0, 0, 0, 1], exch, plays, v, scores=[320, 150])
        assert res.tricks == list(tricks) and res.exchange_counts == [0, 3]
        assert delta(res, 1) == expected and res.team[1]["bags_after"] == 1
    # an exchange is compulsory (3 cards each way) and must come from the right hands
    with pytest.raises(SimcardsError):
        score_hand(dealt, S, [4, 5, 3, 0], [0, 0, 0, 1], {}, plays, v, scores=[320, 150])
    # blind_nil_min_deficit = 100: legal at a deficit of 170, not offered at 90
    vd = variant(blind_nil_min_deficit=100)
    assert "BN" in legal_bid_set(vd, W, S, {}, [320, 150], looked=False)
    assert "BN" not in legal_bid_set(vd, W, S, {}, [320, 230], looked=False)
    with pytest.raises(SimcardsError):
        score_hand(dealt, S, [4, 5, 3, 0], [0, 0, 0, 1], exch, plays, vd, scores=[320, 230])
    params = vd.to_params()
    bids = np.full(4, -1, np.int64)
    for ns, ew, offered in ((320, 150, True), (320, 230, False)):
        mask = rules.legal_bids(params, bids, np.array([ns, ew], np.int64), W, S, 0)
        assert bool(mask >> np.uint64(BN_BIT) & np.uint64(1)) == offered


@pytest.mark.parametrize("bids,blind,tricks,expected,bags", [
    ((0, 4, 0, 4), (0, 0, 0, 0), (0, 6, 2, 5), 2, 2),
    ((0, 4, 0, 4), (1, 0, 1, 0), (0, 6, 0, 7), 400, 0),
    ((0, 4, 0, 4), (1, 0, 1, 0), (1, 6, 1, 5), -398, 2),
    ((0, 4, 0, 4), (0, 0, 1, 0), (0, 6, 1, 6), -99, 1),
])
def test_9_8_both_partners_nil(bids, blind, tricks, expected, bags):
    res = hand(tricks=tricks, bids=bids, blind=blind)
    assert delta(res, 0) == expected and res.team[0]["bags_after"] == bags
    assert res.exchange_counts[0] == 0


def test_9_9_per_bag_penalty():
    res = hand(tricks=(4, 2, 4, 3), bids=(3, 2, 2, 3), v=variant(bag_mode="per_bag", per_bag_penalty=10))
    assert delta(res, 0) == 23 and res.team[0]["bags_after"] == 0


def test_9_10_bag_overflow_carry():
    score, bags = 0, 0
    rows = [((2, 2), 7, 43, 3, 43), ((2, 1), 6, 33, 6, 76), ((3, 1), 9, -55, 1, 21)]
    for (bn, bs), won, exp_delta, exp_bags, exp_score in rows:
        tricks = (won - won // 2, (13 - won) // 2, won // 2, 13 - won - (13 - won) // 2)
        res = hand(tricks=tricks, bids=(bn, 2, bs, 2), scores=[score, 0], bags=[bags, 0])
        score, bags = res.team[0]["score_after"], res.team[0]["bags_after"]
        assert (delta(res, 0), bags, score) == (exp_delta, exp_bags, exp_score)
    assert score % 10 == bags


@pytest.mark.parametrize("overflow,exp_delta,exp_score", [("carry", -169, 70), ("reset", -69, 170)])
def test_9_11_two_penalties(overflow, exp_delta, exp_score):
    res = hand(tricks=(7, 0, 6, 0), bids=(1, 1, 1, 1), scores=[239, 0], bags=[9, 0],
               v=variant(bag_overflow=overflow))
    assert delta(res, 0) == exp_delta and res.team[0]["score_after"] == exp_score
    assert res.team[0]["bags_after"] == 0


def test_9_12_both_pass_target():
    res = hand(tricks=(4, 3, 3, 3), bids=(4, 3, 2, 2), scores=[470, 455], bags=[0, 5])
    assert [t["score_after"] for t in res.team] == [531, 506]
    assert rules.game_over(variant().to_params(), 531, 506) == 0


def test_9_13_tie_at_target_plays_on():
    params = variant().to_params()
    res = hand(tricks=(3, 4, 3, 3), bids=(3, 3, 2, 3), scores=[480, 470])  # NS 5 win 6, EW 6 win 7
    assert [t["score_after"] for t in res.team] == [531, 531]
    assert rules.game_over(params, 531, 531) == -1 and rules.terminal_tie(params, 531, 531)
    second = hand(tricks=(2, 5, 2, 4), bids=(2, 5, 2, 4), scores=[531, 531])
    assert [t["score_after"] for t in second.team] == [571, 621]
    assert rules.game_over(variant().to_params(), 571, 621) == 1


def test_9_14_optional_bonuses():
    v = variant(ten_for_two_hundred=True)
    assert delta(hand(tricks=(6, 1, 5, 1), bids=(6, 1, 4, 1), v=v), 0) == 201
    assert delta(hand(tricks=(6, 1, 5, 1), bids=(6, 1, 4, 1)), 0) == 101
    assert delta(hand(tricks=(5, 2, 4, 2), bids=(6, 1, 4, 1), v=v), 0) == -200
    v2 = variant(ten_for_two_hundred=True, ten_for_two_hundred_set_doubled=False)
    assert delta(hand(tricks=(5, 2, 4, 2), bids=(6, 1, 4, 1), v=v2), 0) == -100
    assert delta(hand(tricks=(5, 2, 4, 2), bids=(6, 1, 4, 1)), 0) == -100
    boston = hand(tricks=(7, 0, 6, 0), bids=(7, 1, 4, 1), v=variant(boston_bonus=200))
    assert delta(boston, 0) == 312 and delta(boston, 1) == -20
    assert delta(hand(tricks=(7, 0, 6, 0), bids=(7, 1, 4, 1)), 0) == 112


def test_9_15_losing_score():
    v = variant(losing_score=-200)
    res = hand(tricks=(2, 5, 1, 5), bids=(3, 3, 2, 3), scores=[-190, 60], v=v)
    assert res.team[0]["score_after"] == -240
    assert rules.game_over(v.to_params(), -240, 150) == 1
    assert rules.game_over(variant().to_params(), -240, 150) == -1


def test_9_16_minimum_team_bid():
    v = variant(min_team_bid=4)
    assert legal_bid_set(v, S, W, {N: (2, False)}, [0, 0], False) == set(range(2, 14))
    assert legal_bid_set(v, S, W, {N: (0, False)}, [0, 0], False) == set(range(4, 14))
    params = v.to_params()
    bids = np.full(4, -1, np.int64)
    zero = np.zeros(2, np.int64)
    bids[N] = 2
    assert rules.legal_bids(params, bids, zero, S, W, 0) == sum(1 << b for b in range(2, 14))
    bids[N] = 0
    assert rules.legal_bids(params, bids, zero, S, W, 0) == sum(1 << b for b in range(4, 14))


def _legal_both(hand_text, trick_text, v, trick_number=2, broken=False):
    cards = set(parse_cards(hand_text))
    trick = parse_cards(trick_text) if trick_text else []
    ref = legal_cards(cards, trick, trick_number, broken, v, None)
    masks = SUIT_MASKS_JOKERS_AS_SPADES
    led = -1 if not trick else (3 if trick[0] >= 52 else trick[0] // 13)
    k = spades_legal(np.uint64(mask_of(cards)), led, masks, -1,
                     v.spades_must_be_broken and not broken,
                     trick_number == 1 and not v.first_trick_trump_allowed)
    assert int(k) == mask_of(ref)
    return {c for c in ref}


def test_9_17_legal_moves_and_winners():
    v = variant()
    assert _legal_both("AS KS 3H", "", v) == {parse_card("3H")}
    assert _legal_both("AS KS", "", v) == set(parse_cards("AS KS"))
    assert _legal_both("2S QD", "9H", v) == set(parse_cards("2S QD"))
    assert _legal_both("LJ 5H", "4S", variant(jokers=2)) == {parse_card("LJ")}
    for trick, winner in (("9H KH 2S AH", S), ("9H KH QD AH", W)):
        cards = parse_cards(trick)
        assert ref_winner(list(zip((N, E, S, W), cards))) == winner
        played = np.array(cards, dtype=np.int64)
        assert trick_winner(played, 4, 3, SUIT_MASKS_JOKERS_AS_SPADES) == winner


def test_illegal_play_is_rejected():
    hands, plays = build_hand((3, 4, 3, 3), dealer=0)
    plays[0], plays[4] = plays[4], plays[0]  # seat 1 leads a card of trick 2 instead
    with pytest.raises(SimcardsError):
        score_hand(hands, 0, [3, 3, 3, 3], [0] * 4, {}, plays, variant())


def test_referee_rejects_illegal_bids_and_exchanges():
    hands, plays = build_hand((3, 4, 3, 3), dealer=W)
    # forbid_total_bids_13: N, E, S bid 3+4+3 = 10, so the dealer W may not bid 3
    with pytest.raises(SimcardsError, match="seat 3 may not bid 3"):
        score_hand(hands, W, [3, 4, 3, 3], [0] * 4, {}, plays, variant(forbid_total_bids_13=True))
    score_hand(hands, W, [3, 4, 3, 3], [0] * 4, {}, plays, variant())
    # Nil not allowed
    with pytest.raises(SimcardsError, match="may not bid 0"):
        score_hand(hands, W, [3, 4, 0, 3], [0] * 4, {}, plays, variant(nil_allowed=False))
    # a seat that looked (optional misdeal) may not bid Blind Nil
    with pytest.raises(SimcardsError, match="may not bid BN"):
        score_hand(hands, W, [3, 0, 3, 3], [0, 1, 0, 0], {}, plays, variant(blind_nil_exchange_count=0),
                   looked={E})
    # an exchange where none is due, and cards a seat does not hold
    with pytest.raises(SimcardsError, match="may not exchange"):
        score_hand(hands, W, [3, 4, 3, 3], [0] * 4, {N: hands[N][:3], S: hands[S][:3]}, plays, variant())
    dealt, plays_bn, exch = _bn_exchange((3, 6, 4, 0), dealer=S)
    bad = {W: exch[E], E: exch[W]}
    with pytest.raises(SimcardsError, match="does not hold"):
        score_hand(dealt, S, [4, 5, 3, 0], [0, 0, 0, 1], bad, plays_bn, variant(), scores=[320, 150])
