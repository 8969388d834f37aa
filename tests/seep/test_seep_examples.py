"""Every worked example of rules section 9, checked on the kernel and the referee."""
import numpy as np
import pytest

from seep_util import check_moves, kernel_moves, make_state, parse_move, variant
from simcards.core.cards import mask_of, parse_cards
from simcards.games.seep.cards import VALMASK, mask_points
from simcards.games.seep.layout import (
    S_CARD_PTS, S_DEALER, S_LAST_CAPTURE, S_LEFTOVER, S_LEFTOVER_TEAM, S_LOOSE,
    S_PILE, S_PLAY, S_SCORE, S_SWEEP_PTS, ST_SIZE,
)
from simcards.games.seep.rules import (
    apply_move, baazi_step, finish_deal, min_points_loser, next_dealer, start_deal,
)


def play(st, text):
    """Apply a move given in notation (it must be legal) with the kernel."""
    mv = parse_move(text, st)
    assert mv in kernel_moves(st)
    p = int((st[2] + st[S_PLAY] - 1) % 4)
    apply_move(st, p, mv[0], mv[1], mv[2], mask_of(mv[3]), int(mv[4]))


# 9.1 ----------------------------------------------------------------------------------------
def test_9_1_sums_and_two_maximal_choices():
    st = make_state(1, {1: "JH 4C"}, "2S 3D 5C 6H")
    check_moves(st, ["CAPTURE JH: 2S 3D 6H", "CAPTURE JH: 5C 6H", "BUILD 11: 4C + 2S 5C", "THROW 4C"])


def test_9_1_pure_matching():
    v = variant(capture_sums=False)
    st = make_state(1, {1: "JH 4C"}, "2S 3D 5C 6H", v=v)
    check_moves(st, ["THROW JH", "THROW 4C", "BUILD 11: 4C + 2S 5C"], v)


# 9.2 ----------------------------------------------------------------------------------------
def test_9_2_every_disjoint_group_taken():
    st = make_state(3, {3: "JD 8C"}, "2C 9H 4S 7D KH")
    check_moves(st, ["CAPTURE JD: 2C 9H 4S 7D", "THROW 8C"])


def test_9_2_non_maximal_variant():
    v = variant(capture_maximal=False)
    st = make_state(3, {3: "JD 8C"}, "2C 9H 4S 7D KH", v=v)
    check_moves(st, ["CAPTURE JD: 2C 9H", "CAPTURE JD: 4S 7D", "CAPTURE JD: 2C 9H 4S 7D", "THROW 8C"], v)


# 9.3 ----------------------------------------------------------------------------------------
EX93 = dict(hands={2: "9D 8S", 1: "9C"}, loose="2C 7D 6S 3H AS", houses=[(9, "5H 4D", {1})])
EX93_MOVES = [
    "CAPTURE 9D: H9{5H 4D} 2C 7D 6S 3H",
    "CAPTURE 9D: H9{5H 4D} 2C 6S AS",
    "CAPTURE 8S: 2C 6S 7D AS",
    "ADD H9: 8S + AS",
    "ADD H9: 8S + AS, 2C 7D",
    "ADD H9: 8S + AS, 6S 3H",
    "ADD H9: 8S + AS, 2C 7D, 6S 3H",
]


def test_9_3_house_plus_groups_and_co_owner():
    st = make_state(2, **EX93)
    check_moves(st, EX93_MOVES)
    play(st, "ADD H9: 8S + AS")
    assert st[30 + 9] == (1 << 1) | (1 << 2)  # owners {P1, P2}
    # capture 2 takes more points than capture 1 although fewer cards
    st2 = make_state(2, **EX93)
    m1, m2 = parse_move(EX93_MOVES[0], st2), parse_move(EX93_MOVES[1], st2)
    assert mask_points(mask_of(m1[3])) < mask_points(mask_of(m2[3]))


def test_9_3_absorption_mandatory():
    v = variant(absorption_mode="mandatory")
    st = make_state(2, v=v, **EX93)
    check_moves(st, [EX93_MOVES[i] for i in (0, 1, 2, 6)], v)


# 9.4 ----------------------------------------------------------------------------------------
def test_9_4_builder_holds_the_value_himself():
    st = make_state(0, {0: "5C 8D QH", 2: "KS"}, "7S 4H 5H")
    check_moves(st, ["CAPTURE 5C: 5H", "CAPTURE QH: 7S 5H", "BUILD 12: 5C + 7S", "BUILD 12: 8D + 4H",
                     "BUILD 12: 8D + 4H, 7S 5H", "THROW 8D"])
    play(st, "BUILD 12: 8D + 4H, 7S 5H")
    assert st[S_LOOSE] == 0 and st[S_SWEEP_PTS] == 0 and st[S_SWEEP_PTS + 1] == 0


# 9.5 ----------------------------------------------------------------------------------------
def test_9_5_auto_merge():
    st = make_state(1, {1: "6D TS 3C"}, "4C TH 2S")
    check_moves(st, ["CAPTURE 6D: 2S 4C", "BUILD 10: 6D + 4C", "CAPTURE TS: TH", "THROW 3C"])
    play(st, "BUILD 10: 6D + 4C")
    assert st[16 + 10] == mask_of(parse_cards("6D 4C TH")) and st[S_LOOSE] == mask_of(parse_cards("2S"))


def test_9_5_two_tens():
    st = make_state(1, {1: "6D TS TC"}, "4C TH 2S")
    check_moves(st, ["CAPTURE 6D: 2S 4C", "BUILD 10: 6D + 4C", "CAPTURE TS: TH", "BUILD 10: TS",
                     "CAPTURE TC: TH", "BUILD 10: TC"])


# 9.6 ----------------------------------------------------------------------------------------
def test_9_6_cementing_own_house():
    st = make_state(0, {0: "JS JD 3H"}, "8S 2D", [(11, "7C 4D", {0})])
    check_moves(st, ["CAPTURE JS: H11{7C 4D}", "CAPTURE JD: H11{7C 4D}", "ADD H11: JS", "ADD H11: JD",
                     "ADD H11: 3H + 8S", "THROW 3H"])
    st = make_state(0, {0: "JS 3H"}, "8S 2D", [(11, "7C 4D", {0})])
    check_moves(st, ["CAPTURE JS: H11{7C 4D}", "ADD H11: 3H + 8S", "THROW 3H"])


# 9.7 ----------------------------------------------------------------------------------------
H97 = [(11, "7C 4D | JH", {0})]


def test_9_7_partner_adds_free():
    st = make_state(2, {2: "5D 9S", 0: "JC"}, "5S 6C", H97)
    check_moves(st, ["CAPTURE 5D: 5S", "ADD H11: 5D + 6C", "THROW 9S"])
    play(st, "ADD H11: 5D + 6C")
    assert st[30 + 11] == 1  # owners stay {P0}


def test_9_7_opponent_without_value():
    st = make_state(1, {1: "5H 9D 2C", 0: "JC"}, "5S 6C", H97)
    check_moves(st, ["CAPTURE 5H: 5S", "THROW 9D", "THROW 2C"])


def test_9_7_opponent_with_value_and_sweep():
    st = make_state(1, {1: "5H 9D JS", 0: "JC"}, "5S 6C", H97)
    check_moves(st, ["CAPTURE 5H: 5S", "ADD H11: 5H + 6C", "THROW 9D", "CAPTURE JS: H11{7C 4D | JH} 5S 6C"])
    st2 = st.copy()
    play(st2, "ADD H11: 5H + 6C")
    assert st2[30 + 11] == 0b11  # owners {P0, P1}
    play(st, "CAPTURE JS: H11{7C 4D | JH} 5S 6C")
    assert st[S_SWEEP_PTS + 1] == 50


def test_9_7_partner_add_not_free_variant():
    v = variant(partner_add_free=False)
    st = make_state(2, {2: "5D 9S", 0: "JC"}, "5S 6C", H97, v=v)
    check_moves(st, ["CAPTURE 5D: 5S", "THROW 9S"], v)


# 9.8 ----------------------------------------------------------------------------------------
H98 = [(9, "5C 4H", {0}), (13, "KD | 8C 5S", {1})]


@pytest.mark.parametrize("mover", [3, 2])
def test_9_8_break(mover):
    st = make_state(mover, {mover: "3D QS 4S", 0: "9S", 1: "KC"}, "QC 2H", H98)
    check_moves(st, ["BREAK H9→12: 3D", "CAPTURE QS: QC", "THROW 3D", "THROW 4S"])
    play(st, "BREAK H9→12: 3D")
    assert st[16 + 12] == mask_of(parse_cards("5C 4H 3D QC")) and st[16 + 9] == 0
    assert st[30 + 12] == 1 << mover


def test_9_8_owner_cannot_break_own():
    st = make_state(0, {0: "9S 3D QS", 1: "KC"}, "QC 2H", H98)
    check_moves(st, ["CAPTURE 9S: H9{5C 4H}", "CAPTURE QS: QC", "THROW 3D"])


# 9.9 ----------------------------------------------------------------------------------------
H99 = [(10, "6H 4S", {2}), (12, "8C 4C", {1})]


def test_9_9_break_and_merge():
    st = make_state(1, {1: "2H QD 7S", 2: "TC"}, "5D", H99)
    check_moves(st, ["BREAK H10→12: 2H", "CAPTURE QD: H12{8C 4C}", "ADD H12: 7S + 5D", "THROW 2H", "THROW 7S"])
    play(st, "BREAK H10→12: 2H")
    assert st[16 + 12] == mask_of(parse_cards("8C 4C 6H 4S 2H")) and st[30 + 12] == 1 << 1 and st[16 + 10] == 0


def test_9_9_partner_breaks_into_partners_house():
    st = make_state(3, {3: "2H QD 7S", 1: "QH", 2: "TC"}, "5D", H99)
    check_moves(st, ["BREAK H10→12: 2H", "CAPTURE QD: H12{8C 4C}", "ADD H12: QD", "ADD H12: 7S + 5D",
                     "THROW 2H", "THROW 7S"])
    play(st, "BREAK H10→12: 2H")
    assert st[30 + 12] == 1 << 1  # owners stay {P1}


# 9.10 ---------------------------------------------------------------------------------------
def test_9_10_retention():
    st = make_state(2, {2: "KD 6C 2H"}, "6H 7S", [(13, "9D 4S", {2})], play=30)
    moves = ["CAPTURE KD: H13{9D 4S} 6H 7S", "CAPTURE 6C: 6H", "ADD H13: 6C + 7S", "THROW 2H"]
    check_moves(st, moves)
    v = variant(owner_may_throw=False)
    check_moves(make_state(2, {2: "KD 6C 2H"}, "6H 7S", [(13, "9D 4S", {2})], play=30, v=v), moves[:3], v)
    play(st, moves[0])
    assert st[S_SWEEP_PTS] == 50


def test_9_10_second_case():
    st = make_state(0, {0: "TS KD 3D"}, "3S", [(10, "7H 3C", {0})])
    check_moves(st, ["CAPTURE TS: H10{7H 3C}", "CAPTURE 3D: 3S", "THROW KD"])


# 9.11 / 9.12 openings -------------------------------------------------------------------------
def test_9_11_opening_builds():
    st = make_state(1, {1: "QS 7H 5D 2C"}, "5S 7C 3H TD", play=1, bid=12)
    assert st[S_DEALER] == 0
    check_moves(st, ["CAPTURE QS: 5S 7C", "BUILD 12: 7H + 5S", "BUILD 12: 5D + 7C", "BUILD 12: 2C + TD",
                     "BUILD 12: 2C + 3H 7C", "BUILD 12: 2C + TD, 5S 7C"])


def test_9_12_opening_sweep_and_cemented_builds():
    st = make_state(0, {0: "9H 9C 4D 8S"}, "9D 5C 3S AH", play=1, bid=9)
    assert st[S_DEALER] == 3
    check_moves(st, ["CAPTURE 9H: 9D 5C 3S AH", "CAPTURE 9C: 9D 5C 3S AH", "BUILD 9: 9H", "BUILD 9: 9C",
                     "BUILD 9: 9H + 5C 3S AH", "BUILD 9: 9C + 5C 3S AH", "BUILD 9: 4D + 5C", "BUILD 9: 8S + AH"])
    play(st, "CAPTURE 9H: 9D 5C 3S AH")
    assert st[S_SWEEP_PTS] == 25


def test_9_12_second_case():
    st = make_state(2, {2: "KH 2C 5D 8H"}, "6C 7D 4S 9H", play=1, bid=13)
    check_moves(st, ["CAPTURE KH: 6C 7D 4S 9H", "BUILD 13: 2C + 4S 7D"])
    play(st, "CAPTURE KH: 6C 7D 4S 9H")
    assert st[S_SWEEP_PTS] == 25


# 9.13 the last play ---------------------------------------------------------------------------
def test_9_13_last_play():
    st = make_state(3, {3: "TC"}, "4D 6S 2H", play=48)
    assert st[S_DEALER] == 3
    check_moves(st, ["CAPTURE TC: 4D 6S"])
    play(st, "CAPTURE TC: 4D 6S")
    finish_deal(st, variant().to_params())
    assert st[S_SWEEP_PTS + 1] == 0 and st[S_LEFTOVER] == mask_of(parse_cards("2H")) and st[S_LEFTOVER_TEAM] == 1
    st = make_state(3, {3: "TC"}, "4D 6S", play=48)
    play(st, "CAPTURE TC: 4D 6S")
    assert st[S_LOOSE] == 0 and st[S_SWEEP_PTS + 1] == 0
    v = variant(last_play_sweep_value=50)
    st = make_state(3, {3: "TC"}, "4D 6S", play=48, v=v)
    play(st, "CAPTURE TC: 4D 6S")
    assert st[S_SWEEP_PTS + 1] == 50


# 9.14 redeal ----------------------------------------------------------------------------------
def test_9_14_redeal_hand_has_no_bid():
    from simcards.games.seep import GAME
    from simcards.games.seep.rules import shuffle_deal
    hand = mask_of(parse_cards("8S 5H 2D AC"))
    bid_mask = 0
    for val in range(9, 14):
        bid_mask |= int(VALMASK[val])
    assert hand & bid_mask == 0
    with pytest.raises(ValueError, match="allow no bid"):
        shuffle_deal(np.zeros(52, np.int64), np.array([1], np.uint64), bid_mask, hand)
    # redeals keep the dealer and the bidder, score nothing, and the dealt hand can bid
    out = GAME.simulate("deal", variant(first_dealer=2), GAME.policies.table(["basic"]), 8, 0, 400)
    redealt = out[out[:, 2] > 0]
    assert len(redealt) > 20
    assert (redealt[:, 0] == 2).all() and (redealt[:, 1] == 3).all()
    assert ((redealt[:, 4] >> 9) > 0).all() and ((redealt[:, 7] + redealt[:, 8]) == 100).all()


# 9.15 scoring ---------------------------------------------------------------------------------
def scored_state(score_a, score_b, dealer, cards_a=None, sweeps=(0, 0)):
    st = np.zeros(ST_SIZE, np.int64)
    start_deal(st, variant().to_params(), dealer, 0)
    st[S_CARD_PTS], st[S_CARD_PTS + 1] = score_a - sweeps[0], score_b - sweeps[1]
    st[S_SWEEP_PTS], st[S_SWEEP_PTS + 1] = sweeps
    st[S_SCORE], st[S_SCORE + 1] = score_a, score_b
    return st


def test_9_15_s1_sweeps_of_every_kind():
    cfg = variant().to_params()
    st = scored_state(58 + 25 + 50, 42 + 50 + 0, dealer=1, sweeps=(75, 50))
    assert (st[S_SCORE], st[S_SCORE + 1]) == (133, 92)
    D, loser, by_min = baazi_step(cfg, 0, st)
    assert (D, loser, by_min) == (41, -1, False)
    assert next_dealer(cfg, 1, D, 133, 92, loser) == 1


def test_9_15_s2_leftovers():
    st = make_state(1, {1: "5H", 2: "3C", 3: "2H"}, "7S AD", play=46)
    assert st[S_DEALER] == 3
    st[S_LAST_CAPTURE] = 0
    for text in ("THROW 5H", "THROW 3C", "THROW 2H"):
        assert kernel_moves(st) == [parse_move(text, st)]
        play(st, text)
    finish_deal(st, variant().to_params())
    assert st[S_LEFTOVER] == mask_of(parse_cards("7S AD 5H 3C 2H")) and st[S_LEFTOVER_TEAM] == 0
    assert st[S_CARD_PTS] == 8 and st[S_CARD_PTS + 1] == 0
    assert st[S_SWEEP_PTS] == 0 and st[S_PILE + 1] == 0


def test_9_15_s3_nine_point_rule():
    cfg = variant().to_params()
    st = scored_state(8, 92, dealer=3)
    assert min_points_loser(st, cfg) == 0
    D, loser, by_min = baazi_step(cfg, 95, st)
    assert (D, loser, by_min) == (0, 0, True)
    assert next_dealer(cfg, 3, D, 8, 92, loser) == 2
    st = scored_state(58, 92, dealer=3, sweeps=(50, 0))
    assert baazi_step(cfg, 95, st) == (61, -1, False)


def test_9_15_s4_baazi_progression():
    cfg = variant(match_baazis=3, first_dealer=0).to_params()
    table = [  # dealer, A, B, D after, baazi winner, next dealer
        (0, 30, 70, -40, None, 0), (0, 85, 65, -20, None, 0), (0, 70, 30, 20, None, 1),
        (1, 55, 45, 30, None, 1), (1, 120, 30, 0, 0, 3), (3, 7, 93, 0, 1, 2), (2, 50, 50, 0, None, 2)]
    D, dealer, wins = 0, 0, [0, 0]
    for row_dealer, a, b, d_after, winner, nxt in table:
        assert dealer == row_dealer
        sweeps = (50, 0) if a in (85, 120) else (0, 0)
        D, loser, _ = baazi_step(cfg, D, scored_state(a, b, dealer, sweeps=sweeps))
        assert D == d_after
        assert (None if loser < 0 else 1 - loser) == winner
        if loser >= 0:
            wins[1 - loser] += 1
        dealer = next_dealer(cfg, dealer, D, a, b, loser)
        assert dealer == nxt
    assert wins == [1, 1] and D == 0


def test_9_15_s5_tally():
    pile_b = mask_of(parse_cards("AS 2S 3S 4S 5S 6S AH AD TD 2C 3C 4H"))
    pile_a = mask_of(parse_cards("7S 8S 9S TS JS QS KS AC 5C 6H"))
    assert mask_points(pile_b) == 29 and mask_points(pile_a) == 71
    assert (71 + 50) - 29 == 92


def test_4_1_no_capture_leftovers_go_to_the_dealers_team():
    v = variant(throw_requires_no_capture=False)
    st = make_state(3, {3: "2H"}, "2C 9D", play=48, v=v)
    assert st[S_LAST_CAPTURE] == -1 and st[S_DEALER] == 3
    assert parse_move("THROW 2H", st) in kernel_moves(st, v)  # allowed although 2H could capture 2C
    apply_move(st, 3, 4, parse_cards("2H")[0], 0, 0, 0)
    finish_deal(st, v.to_params())
    assert st[S_LEFTOVER_TEAM] == 1 and st[S_PILE + 1] == mask_of(parse_cards("2C 9D 2H"))
