"""Dealing around known cards is exactly uniform; constraints are parsed and honoured."""
import numpy as np
import pytest
from scipy import stats

from simcards.core import cards as C
from simcards.core.deal import deal_constrained, deal_known, parse_constraints
from simcards.core.errors import SimcardsError
from simcards.core.rng import stream_start
from simcards.core.tricks import SUIT_MASKS_JOKERS_AS_SPADES as MASKS

DECK = np.arange(52, dtype=np.int64)
SIZES = np.full(4, 13, dtype=np.int64)
HAND = C.parse_cards("AS KS 7S 4S AH QH 9H 5D 4D 3D KC 8C 2C")


def deals(constraints, n, seed=1):
    hands = np.zeros(4, np.uint64)
    buf = np.zeros(52, np.int64)
    out = np.zeros((n, 4), np.uint64)
    for i in range(n):
        state = np.array([stream_start(np.uint64(seed), np.uint64(i), np.uint64(0))], np.uint64)
        tries = deal_constrained(DECK, constraints.fixed, SIZES, 1, state, hands, buf, constraints.min_len,
                                 constraints.max_len, MASKS, 100000)
        assert tries > 0
        out[i] = hands
    return out


def test_known_cards_stay_and_every_card_is_dealt_once():
    con = parse_constraints([], 4, known={0: HAND})
    for hands in deals(con, 200):
        assert int(hands[0]) == C.mask_of(HAND)
        assert [C.popcount(h) for h in hands] == [13] * 4
        assert int(hands[0] | hands[1] | hands[2] | hands[3]) == (1 << 52) - 1


def test_hidden_suit_lengths_follow_the_exact_hypergeometric_law():
    """East's spades: 13 of the 39 unseen cards, 9 of which are spades."""
    n = 20000
    con = parse_constraints([], 4, known={0: HAND})
    east_spades = [C.popcount(h[1] & MASKS[3]) for h in deals(con, n)]
    observed = np.bincount(east_spades, minlength=10)[:10]
    expected = stats.hypergeom(39, 9, 13).pmf(np.arange(10)) * n
    keep = expected > 5  # pool the sparse tail, as chi-square needs
    obs = np.append(observed[keep], observed[~keep].sum())
    exp = np.append(expected[keep], expected[~keep].sum())
    assert stats.chisquare(obs, exp * obs.sum() / exp.sum()).pvalue > 1e-3


def test_constraints_hold_in_every_deal():
    con = parse_constraints(["W:void=S", "E:has=QS,JH", "N:len(H)=2..3", "3:len(D)>=2"], 4, known={2: HAND})
    for hands in deals(con, 300):
        assert C.popcount(hands[3] & MASKS[3]) == 0
        assert int(hands[1]) & C.mask_of(C.parse_cards("QS JH")) == C.mask_of(C.parse_cards("QS JH"))
        assert 2 <= C.popcount(hands[0] & MASKS[2]) <= 3
        assert C.popcount(hands[3] & MASKS[1]) >= 2


@pytest.mark.parametrize("texts,known,words", [
    (["W:void=X"], {}, "unknown suit"),
    (["Q:void=S"], {}, "unknown seat"),
    (["W void S"], {}, "SEAT:RULE"),
    (["W:len(S)>4"], {}, "unknown rule"),
    (["E:has=AS"], {0: HAND}, "cannot be in seat 0 and in seat 1"),
    (["S:len(H)>=3", "S:len(H)<=2"], {}, "no deal satisfies"),
    (["N:void=S"], {0: HAND}, "no deal satisfies"),
])
def test_bad_constraints_are_named(texts, known, words):
    with pytest.raises(SimcardsError, match=words):
        parse_constraints(texts, 4, known=known)


def test_impossible_bounds_are_reported_by_the_dealer():
    con = parse_constraints(["E:len(S)>=9"], 4, known={0: HAND})  # only 9 spades are unseen: nearly never
    state = np.array([1], np.uint64)
    assert deal_constrained(DECK, con.fixed, SIZES, 1, state, np.zeros(4, np.uint64), np.zeros(52, np.int64),
                            con.min_len, con.max_len, MASKS, 50) == -1


def test_user_accept_function_is_compiled_with_one_line_errors(tmp_path):
    from simcards.core.deal import accept_all, compile_accept

    (tmp_path / "acc.py").write_text("def short_west(hands):\n    return hands[3] & 0xF == 0\n"
                                     "def broken(hands):\n    return hands.nope\n")
    f = compile_accept(f"{tmp_path}/acc.py:short_west")
    assert f(np.array([0, 0, 0, 0xF0], np.uint64)) and not f(np.array([0, 0, 0, 1], np.uint64))
    assert compile_accept(None) is accept_all
    with pytest.raises(SimcardsError, match="does not compile"):
        compile_accept(f"{tmp_path}/acc.py:broken")
    with pytest.raises(SimcardsError, match="FILE.py:NAME"):
        compile_accept("short_west")
