"""Every worked example of section 8 of docs/games/contract-rummy.md."""
import numpy as np
import pytest

from simcards.games.contract_rummy import melds as M
from simcards.games.contract_rummy import rules as R
from simcards.games.contract_rummy.notation import counts, parse_type
from simcards.games.contract_rummy.referee import check_trace
from simcards.games.contract_rummy.variant import ContractRummyVariant as V

from contract_rummy_helpers import (
    Table, cfg_of, draw_deep3, draw_stock, draw_top, meld_text, parse_meld, say_yes, sol_buf, table_with,
)

CFG = cfg_of()
CFG2 = cfg_of(num_players=5)  # two decks


@pytest.fixture(scope="module")
def top_table():
    return table_with(draw=draw_top)


@pytest.fixture(scope="module")
def stock_table():
    return table_with(draw=draw_stock)


def valid(text, cfg=CFG):
    return bool(M.meld_valid(cfg, parse_meld(text)))


def can_make(hand, S, R_, cfg=CFG, force=-1):
    h = counts(hand)
    return M.find_contract(h, S, R_, cfg, h[M.JOKER], force, True, sol_buf()) >= 0


# ------------------------------------------------------------------ E1, E2


@pytest.mark.parametrize("extra", [True, False])
def test_e1_contract_with_extra_card(stock_table, extra):
    assert valid("{7S 7H 7D}") and valid("{QS QH QD QC}")
    v = V(contract_meld_extra_cards=extra)
    t = Table(v, deal=1, hands={0: "7S 7H 7D QS QH QD QC 2C 3D 5H"}, pile="9C", stock="4S")
    t.play_turn(0, stock_table)
    assert t.down(0)
    assert sorted(t.melds()) == sorted(["{7S 7H 7D}", "{QS QH QD QC}"])
    assert len(t.hand(0).split()) == 3  # 10 + 4S drawn - 7 melded - 1 discarded


def test_e2_invalid_contracts():
    assert not valid("{5D 5D 5H}", CFG2)  # two decks: 5D twice
    assert not M.meld_valid(CFG, parse_meld("{KS KH}"))
    assert not can_make("9S TS JS 3H 3C 3D 2C 5D 7H 9C", 2, 0)  # a run is not a set
    assert not can_make("8S 8H 8D 2C 4D 6H 9C JD QS KH", 2, 0)  # one set now, one later: not allowed
    bad = parse_meld("{6S 6H 6D}")
    bad[M.M_NAT] -= 1 << 4 * 1  # 6D natural -> joker declared 6H instead
    bad[M.M_JOK] += 1 << 4 * 2
    assert not M.meld_valid(CFG, bad)
    assert valid("{6S 6H JK=6D}")


# ------------------------------------------------------------------ E3, E4, E5


def test_e3_set_and_run_with_joker(stock_table):
    hand = "8C 8D JK 3H 4H 5H 6H KS 2C 9D TS"
    sol = sol_buf()
    h = counts(hand)
    n = M.find_contract(h, 1, 1, CFG, 1, -1, True, sol)
    assert n == 2
    texts = sorted(meld_text(sol[i]) for i in range(n))
    assert any("8C" in x and "8D" in x and "JK=8" in x for x in texts)  # joker completes the set
    # the joker in the run instead leaves the eights unmelded: no 1-set contract from the rest
    assert not can_make("8C 8D 3H 4H 5H 6H KS 2C 9D TS", 1, 1)
    t = Table(V(), deal=2, hands={0: "8C 8D JK 3H 4H 5H 6H KS 2C 9D"}, pile="7C", stock="TS")
    t.play_turn(0, stock_table)
    assert t.down(0)
    assert t.pile().split()[-1] == "KS"
    assert sorted(t.hand(0).split()) == sorted("2C 9D TS".split())
    assert t.penalty(0) == 21


@pytest.mark.parametrize("rule,ok_a,ok_b", [("distinct", False, False), ("non_contiguous", True, False),
                                            ("any", True, True)])
def test_e4_run_suit_rules(rule, ok_a, ok_b):
    cfg = cfg_of(contract_runs_suits=rule)
    assert can_make("4H 5H 6H 9H TH JH", 0, 2, cfg) == ok_a
    assert can_make("4H 5H 6H 7H 8H 9H", 0, 2, cfg) == ok_b


def test_e4_jokers_and_aces():
    assert can_make("4H 5H 6H JK TC JC", 0, 2)
    assert can_make("QD KD AD AS 2S 3S", 0, 2)
    assert valid("{QD KD AD}") and valid("{AS 2S 3S}")
    wrap = parse_meld("{KD AD 2D}")  # parse_meld puts A high: K A 2 is a gap
    assert not M.meld_valid(CFG, wrap)
    assert not can_make("KD AD 2D 4H 5H 6H", 0, 2)
    assert can_make("KD AD 2D 4H 5H 6H", 0, 2, cfg_of(ace_mode="wrap"))


def test_e5_set_and_two_runs(stock_table):
    assert can_make("5S 6S 7S 9H TH JH QH KC KD JK 2D 4C 8D", 1, 2)
    t = Table(V(), deal=6, hands={0: "5S 6S 7S 9H TH JH QH KC KD JK 2D 4C"}, pile="3C", stock="8D")
    t.play_turn(0, stock_table)
    assert t.down(0)
    assert sorted(t.hand(0).split()) == ["2D", "4C"]
    assert t.pile().split()[-1] == "8D"
    assert t.penalty(0) == 6


# ------------------------------------------------------------------ E6, E7


def test_e6_final_deal_goes_out(stock_table):
    h = counts("3C 4C 5C 6C 8H 9H TH JK JS QS KS AS 7D")
    assert M.final_go_out(h, 3, CFG, parse_type("7D"), sol_buf()) == 3
    assert M.final_go_out(h, 3, CFG, -1, sol_buf()) < 0  # forbidden: 7D fits nowhere
    t = Table(V(), deal=7, hands={0: "3C 4C 5C 6C 8H 9H TH JK JS QS KS AS"}, pile="2C", stock="7D")
    assert t.play_turn(0, stock_table) == R.T_OUT
    assert len(t.melds()) == 3 and t.pile().split()[-1] == "7D"
    t = Table(V(final_deal_go_out_discard="forbidden"), deal=7,
              hands={0: "3C 4C 5C 6C 8H 9H TH JK JS QS KS AS"}, pile="2C", stock="7D")
    assert t.play_turn(0, stock_table) == R.T_CONTINUE
    assert t.melds() == [] and not t.down(0)


def test_e7_final_deal_melding_not_allowed(stock_table):
    h = counts("3C 4C 5C 6C 8H 9H TH JS QS KS AS 7D 2H")
    for d in [-1] + [t for t in range(53) if h[t]]:
        assert M.final_go_out(h, 3, CFG, d, sol_buf()) < 0
    t = Table(V(), deal=7, hands={0: "3C 4C 5C 6C 8H 9H TH JS QS KS AS 7D"}, pile="5D", stock="2H")
    assert t.play_turn(0, stock_table) == R.T_CONTINUE
    assert t.melds() == []
    t = Table(V(final_deal_all_at_once=False), deal=7, hands={0: "3C 4C 5C 6C 8H 9H TH JS QS KS AS 7D"},
              pile="5D", stock="2H")
    t.play_turn(0, stock_table)
    assert t.down(0) and sum(len(m.split()) for m in t.melds()) == 11
    assert t.hand(0) in ("2H", "7D")


# ------------------------------------------------------------------ E8 deep take


E8_HAND = "4S 5S 6S KS KD 3H 8D QC TC JK"


def test_e8_deep_take():
    t = Table(V(), deal=2, hands={0: E8_HAND}, pile="9C 4D KH 7S 2C", stock="5C")
    assert 3 in t.draw_options(0)
    deep = table_with(draw=draw_deep3)
    t.play_turn(0, deep)
    assert t.down(0)
    on_table = " ".join(t.melds())
    assert "KH" in on_table and "7S" in on_table
    assert t.pile().startswith("9C 4D")
    assert len(t.pile().split()) == 3
    assert check_trace_fragment_ok(t)


def check_trace_fragment_ok(t):
    kinds = {ev.kind for ev in t.trace()}
    return {"deep", "contract", "discard"} <= kinds


def test_e8_illegal_versions():
    t = Table(V(), deal=2, hands={0: "4S 5S 6S KS 2D 3H 8D QC TC JK"}, pile="9C 4D KH 7S 2C", stock="5C")
    assert 3 in t.draw_options(0)  # (i) one king + the joker still make a set with KH
    t = Table(V(), deal=2, hands={0: "4S 5S 6S 9S 2D 3H 8D QC TC JK"}, pile="9C 4D KH 7S 2C", stock="5C")
    assert 3 not in t.draw_options(0)  # (i) no king: KH cannot be placed
    t = Table(V(deep_take_before_contract=False), deal=2, hands={0: E8_HAND}, pile="9C 4D KH 7S 2C", stock="5C")
    assert all(o < 2 for o in t.draw_options(0))  # (iii)


# ------------------------------------------------------------------ E9, E10


def e9_table(v, with_run=True):
    ms = [parse_meld("{4S 4H 4D}", owner=0)]
    if with_run:
        ms.append(parse_meld("{7D 8D 9D}", owner=1))
    else:
        ms.append(parse_meld("{QS QH QC}", owner=1))
    return Table(v, deal=1, hands={0: "4C", 1: "2S 3S 5S"}, pile="3C 6D", stock="KC", melds=ms,
                 down={0: 2, 1: 3}, turn=9)


def test_e9_top_take_and_go_out(top_table):
    t = e9_table(V())
    assert t.play_turn(0, top_table) == R.T_OUT
    assert "{6D 7D 8D 9D}" in t.melds() and t.pile() == "3C"


def test_e9_no_return(top_table):
    t = e9_table(V(), with_run=False)
    assert t.play_turn(0, top_table) == R.T_CONTINUE
    assert t.hand(0) == "6D" and t.pile() == "3C 4C"


def test_e9_required_discard(top_table):
    t = e9_table(V(go_out_discard="required"))
    assert t.play_turn(0, top_table) == R.T_OUT
    assert "{6D 7D 8D 9D}" in t.melds() and t.pile() == "3C 4C"


def test_e10_layoffs_both_ends(stock_table):
    t = Table(V(), deal=3, hands={0: "5H 9H TH", 1: "2C 3C 4C"}, pile="2D", stock="KC",
              melds=[parse_meld("{6H 7H 8H}", owner=1), parse_meld("{2S 3S 4S}", owner=0)],
              down={0: 2, 1: 3}, turn=9)
    assert t.play_turn(0, stock_table) == R.T_OUT
    assert "{5H 6H 7H 8H 9H TH}" in t.melds() and t.pile() == "2D KC"


def test_e10_not_allowed():
    run = parse_meld("{5H 6H 7H 8H 9H TH}")
    assert M.natural_slot(CFG2, run, parse_type("8H")) == -1
    run = parse_meld("{6H 7H 8H}")
    assert M.natural_slot(CFG, run, parse_type("4H")) == -1
    M.add_to_meld(CFG, run, 5, True)  # JK=5H first, then 4H fits
    assert M.natural_slot(CFG, run, parse_type("4H")) == 4


# ------------------------------------------------------------------ E11, E12


def test_e11_aces_at_run_ends():
    run = parse_meld("{JS QS KS}")
    assert M.natural_slot(CFG, run, parse_type("AS")) == 14
    M.add_to_meld(CFG, run, 14, False)
    assert M.natural_slot(CFG, run, parse_type("2S")) == -1
    low = parse_meld("{AD 2D 3D}")
    assert M.natural_slot(CFG, low, parse_type("KD")) == -1
    assert M.joker_slot(CFG, low, False) == 4  # nothing below the low ace
    long = parse_meld("{2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC}")
    assert M.natural_slot(CFG2, long, parse_type("AC")) in (1, 14)
    M.add_to_meld(CFG2, long, 1, False)
    assert M.natural_slot(CFG2, long, parse_type("AC")) == 14
    M.add_to_meld(CFG2, long, 14, False)
    assert M.meld_valid(CFG2, long) and M.meld_size(long) == 14


def test_e12_set_declaration():
    s = parse_meld("{7S 7H JK=7D}")
    assert M.natural_slot(CFG, s, parse_type("7C")) == 0
    M.add_to_meld(CFG, s, 0, False)
    assert M.meld_size(s) == 4 and M.natural_slot(CFG, s, parse_type("7C")) == -1
    s = parse_meld("{7S 7H JK=7D}")
    assert M.natural_slot(CFG, s, parse_type("7D")) == -1


def test_e12_joker_in_set_is_dead(stock_table):
    t = Table(V(), deal=2, hands={0: "KD 5C"}, pile="2D", stock="3H",
              melds=[parse_meld("{KS KH JK=KD}", owner=1), parse_meld("{2C 3C 4C}", owner=1)],
              down={0: 2, 1: 2}, turn=9)
    t.play_turn(0, stock_table)
    assert "JK=KD" in " ".join(t.melds())


# ------------------------------------------------------------------ E13 joker swap


def e13_table(v=None, down_turn=2, hand="TD 5C", joker_meld="{9D JK=TD JD QD}"):
    ms = [parse_meld("{5S 5H 5D}", owner=0), parse_meld("{2C 3C 4C}", owner=0), parse_meld(joker_meld, owner=1)]
    return Table(v or V(), deal=2, hands={0: hand, 1: "AS 3H 9H"}, pile="2H", stock="8D", melds=ms,
                 down={0: down_turn, 1: 3}, turn=9)


def test_e13_joker_swap_goes_out(stock_table):
    t = e13_table()
    assert t.play_turn(0, stock_table) == R.T_OUT
    assert "{8D 9D TD JD QD JK=KD}" in t.melds()
    assert "{5S 5H 5D 5C}" in t.melds()
    assert t.pile() == "2H"


@pytest.mark.parametrize("case", ["this_turn", "set", "wrong_card"])
def test_e13_illegal_swaps(stock_table, case):
    if case == "this_turn":
        t = e13_table(down_turn=9)
    elif case == "set":
        t = e13_table(hand="KD 5C", joker_meld="{KS KH JK=KD}")
    else:
        t = e13_table(hand="TH 5C")
    t.play_turn(0, stock_table)
    assert not any(ev.kind == "swap" for ev in t.trace())


# ------------------------------------------------------------------ E14, E15


def test_e14_no_layoff_before_contract(stock_table):
    t = Table(V(), deal=1, hands={2: "8H 2C 4D 6S 9C JD KH 3S 5D 7C"}, pile="QC", stock="TS",
              melds=[parse_meld("{5H 6H 7H}", owner=1), parse_meld("{QS QH QD}", owner=1)], down={1: 3}, turn=9)
    t.play_turn(2, stock_table)
    assert "8H" in t.hand(2) and "{5H 6H 7H}" in t.melds()


def test_e15_deficiency():
    h = counts("4S 5S 7S 9H TH 2C 2D KC QD 8C")
    assert M.deficiency(h, 0, 2, CFG, 6) == 2
    h[parse_type("6S")] += 1
    assert M.deficiency(h, 0, 2, CFG, 6) == 1
    h[parse_type("6S")] -= 1
    h[M.JOKER] += 1
    assert M.deficiency(h, 0, 2, CFG, 6) == 2 and M.contract_missing(h, 0, 2, CFG, 6) == 1
    h = counts("7S 7H 7D QS QH 3C 3D JK 9S 5H KC")
    assert M.deficiency(h, 3, 0, CFG, 9) == 2 and M.contract_missing(h, 3, 0, CFG, 9) == 1
    assert not can_make("7S 7H 7D QS QH 3C 3D JK 9S 5H KC", 3, 0)
    assert can_make("7S 7H 7D QS QH 3C 3D JK 9S 5H QD", 3, 0)


# ------------------------------------------------------------------ E16 - E19 scoring


@pytest.mark.parametrize("hand,points", [("KS 7D AH JK", 47), ("TC 9H 2S", 21), ("2C", 2),
                                         ("QH QD 5C", 25), ("AS 3S", 18), ("JK 8C 8H 4D", 35)])
def test_e16_e17_penalties(hand, points):
    assert M.hand_penalty(counts(hand), CFG) == points


@pytest.mark.parametrize("tie,winners", [(0, 0b0011), (1, 0b0001)])
def test_e18_game_tie(tie, winners):
    deals = np.array([[0, 18, 37, 52], [25, 0, 14, 40], [12, 30, 0, 27], [0, 22, 9, 16],
                      [40, 0, 21, 13], [33, 15, 0, 60], [0, 25, 48, 35]])
    totals = np.zeros(8, np.int64)
    totals[:4] = deals.sum(axis=0)
    assert list(totals[:4]) == [110, 110, 129, 243]
    wins = np.zeros(8, np.int64)
    wins[:4] = (deals == 0).sum(axis=0)
    assert R.game_winners(totals, wins, 4, tie) == winners


@pytest.fixture(scope="module")
def basic_table():
    return table_with()


def test_e19_exhausted_deal_scores_everyone(basic_table):
    from simcards.games.contract_rummy.sim import run_chunk

    v = V(max_turns_per_deal=4, contract=5)
    out, tr = run_chunk("deal", v, basic_table, 3, 0, 1, trace_rows=20000)
    row = out[0]
    assert row[9] == 1 and row[10] == -1  # exhausted, nobody out
    scores = row[20:24]
    assert (scores >= 2).all()
    assert check_trace(tr, v) == []


def test_e20_stock_refill(basic_table):
    from simcards.games.contract_rummy.sim import run_chunk

    v = V(contract=5, max_turns_per_deal=40)
    _, tr = run_chunk("deal", v, basic_table, 11, 0, 1, trace_rows=50000)
    refills = [ev for ev in tr if ev.kind == "refill"]
    assert refills, "4 players x 12 cards leave a 4-card stock: it must refill"
    assert check_trace(tr, v) == []  # the referee checks pile-minus-top == new stock


# ------------------------------------------------------------------ E21 buying


def test_e21_buying():
    v = V(buying_enabled=True)
    t = Table(v, deal=1, hands={0: "2C 3C 4C 5D 6D 7H 8H 9S TS JS", 1: "2D 3D 4D 5H 6H 7S 8S 9H TH JH",
                                2: "2H 3H 4H 5S 6S 7D 8D 9D TD JD", 3: "2S 3S 4S 5C 6C 7C 8C 9C TC JC"},
              pile="KD 9S", stock="QS QH QD", turn=7)
    t.s.pile_who[1] = 2  # C (seat 2) discarded 9S
    table = table_with(draw=draw_stock, buy=say_yes)
    t.play_turn(3, table)
    assert t.s.pub[R.P_BUYS + 0] == 1  # buys[A]
    assert t.s.hands[0].sum() == 12 and "9S" in t.hand(0)
    assert t.pile().split()[0] == "KD"
    assert t.s.hands[3].sum() == 10  # D drew and discarded
