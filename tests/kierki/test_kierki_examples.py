"""Every worked example of docs/games/kierki.md section 9, against kernel and referee."""
import numpy as np
import pytest

from kierki_helpers import SEAT, SUIT_INDEX, TABLES, cards, hand, kernel_legal, kernel_play, kmask, names, \
    traced_game, variant
from simcards.core.cards import format_card, parse_card
from simcards.games.kierki import GAME
from simcards.games.kierki import policies as P
from simcards.games.kierki import referee as REF
from simcards.games.kierki import rules as R
from simcards.games.kierki.variant import DEAL_TYPES, KierkiVariant, schedule

V = KierkiVariant()


def both_legal(v, deal, h, trick=(), trump=None, hearts_before=False):
    k = kernel_legal(v, deal, h, trick, trump, hearts_before)
    r = REF.legal_trick_cards(set(h), list(trick), deal, trump, v, hearts_before)
    assert k == r
    return k


# 9.1 -------------------------------------------------------------------------------------

def test_9_1_dealer_and_leader_schedule():
    expected = [("no_tricks", "N", "E"), ("no_hearts", "E", "S"), ("no_queens", "S", "W"),
                ("no_jacks_kings", "W", "N"), ("no_king_of_hearts", "N", "E"), ("no_seventh_and_last", "E", "S"),
                ("robber", "S", "W"), ("trumps", "W", "W"), ("trumps", "N", "N"), ("trumps", "E", "E"),
                ("trumps", "S", "S"), ("lottery", "W", "W")]
    v = variant(first_dealer=0)
    sched = schedule(v)
    assert [(t, "NESW"[off]) for t, off in sched] == [(t, d) for t, d, _ in expected]
    _, events = traced_game(v, TABLES["basic"], 5, 0)
    heads = [i for i, e in enumerate(events) if e[0] == R.EV_DEAL]
    assert len(heads) == 12
    for (t, d, first), i in zip(expected, heads):
        e = events[i]
        assert DEAL_TYPES[e[2]] == t and "NESW"[e[3]] == d
        if t == "lottery":
            first_turn = next(x for x in events[i:] if x[0] in (R.EV_PLAY, R.EV_PASS))
            assert "NESW"[first_turn[1]] == first
        else:
            assert "NESW"[e[4]] == first


# 9.2 -------------------------------------------------------------------------------------

def test_9_2_heart_lead_restriction():
    assert both_legal(V, "no_hearts", cards("2H 5H 9H KH 3C")) == {"3C"}
    assert both_legal(V, "no_hearts", cards("2H 5H 9H KH")) == set(cards("2H 5H 9H KH"))
    assert both_legal(V, "robber", cards("AH 2H 3D"), hearts_before=True) == {"3D"}
    assert both_legal(V, "no_queens", cards("2H 5H 9H KH 3C")) == set(cards("2H 5H 9H KH 3C"))
    ub = variant(heart_lead_rule="until_broken")
    assert both_legal(ub, "no_hearts", cards("2H 5H 9H KH 3C"), hearts_before=True) == set(cards("2H 5H 9H KH 3C"))
    assert both_legal(ub, "no_hearts", cards("2H 5H 9H KH 3C"), hearts_before=False) == {"3C"}
    assert both_legal(V, "no_king_of_hearts", ["KH"]) == {"KH"}
    assert both_legal(V, "no_king_of_hearts", ["AH"], trick=["KH"]) == {"AH"}
    # discarding a heart is always allowed, even on trick 1
    assert both_legal(V, "no_hearts", cards("2H 3S"), trick=["5C"]) == {"2H", "3S"}


# 9.3 / 9.4 / 9.5 -------------------------------------------------------------------------

def kernel_winner(trick, trump=None):
    t = -1 if trump is None else SUIT_INDEX[trump]
    cs = [parse_card(c) for c in trick]
    w = 0
    for i in range(1, 4):
        if P.beats(cs[i], cs[w], t):
            w = i
    assert w == REF.trick_winner_index(trick, trump)
    return w


def kernel_charge(v, deal, trick, t):
    _, _, card_pen, trick_pen, _ = R.kernel_tables(v)
    d = DEAL_TYPES.index(deal)
    charge = trick_pen[d, t] + sum(card_pen[d, parse_card(c)] for c in trick)
    assert charge == REF.trick_charge(deal, trick, t, v)
    return charge


def test_9_3_following_and_discarding():
    assert both_legal(V, "no_hearts", cards("9D 4D 8H"), trick=["TD"]) == {"9D", "4D"}
    assert both_legal(V, "no_hearts", cards("QH 8S 2C"), trick=["TD", "9D"]) == {"QH", "8S", "2C"}
    trick = ["TD", "9D", "QH", "JD"]  # N E S W
    assert "NESW"[kernel_winner(trick)] == "W"
    assert kernel_charge(V, "no_hearts", trick, 1) == -20
    assert kernel_charge(V, "robber", trick, 5) == -130


def test_9_4_no_trump_winner():
    assert kernel_winner(["4C", "2C", "AS", "3C"]) == 0


def test_9_5_trump_winners():
    assert kernel_winner(["TH", "KH", "2S", "AH"], "S") == 2
    assert kernel_winner(["9D", "3S", "QS", "5S"], "S") == 2
    assert kernel_winner(["AD", "3C", "KD", "9H"], "S") == 0


# 9.6 -------------------------------------------------------------------------------------

@pytest.mark.parametrize("rule, h, trick, expected", [
    ("none", "4S QS 9C 2D", ["6H"], "4S QS 9C 2D"),
    ("must_trump", "4S QS 9C 2D", ["6H"], "4S QS"),
    ("must_overtrump", "4S QS 9C 2D", ["6H"], "4S QS"),
    ("none", "4S QS 9C", ["6H", "7S"], "4S QS 9C"),
    ("must_trump", "4S QS 9C", ["6H", "7S"], "4S QS"),
    ("must_overtrump", "4S QS 9C", ["6H", "7S"], "QS"),
    ("none", "4S 5S 9C", ["6H", "7S"], "4S 5S 9C"),
    ("must_trump", "4S 5S 9C", ["6H", "7S"], "4S 5S"),
    ("must_overtrump", "4S 5S 9C", ["6H", "7S"], "4S 5S"),
])
def test_9_6_trump_obligation(rule, h, trick, expected):
    v = variant(trump_obligation=rule)
    assert both_legal(v, "trumps", cards(h), trick=trick, trump="S") == set(cards(expected))


# 9.7 / 9.8 -------------------------------------------------------------------------------

def test_9_7_robber_single_tricks():
    assert "NESW"[kernel_winner(["JD", "QD", "KH", "4D"])] == "E"
    assert kernel_charge(V, "robber", ["JD", "QD", "KH", "4D"], 7) == -385
    trick = ["QH", "2H", "JC", "AH"]  # W N E S
    assert "WNES"[kernel_winner(trick)] == "S"
    assert kernel_charge(V, "robber", trick, 13) == -245
    assert kernel_charge(V, "robber", ["KH", "QH", "QS", "QD"], 7) == -495
    assert kernel_charge(V, "robber", ["KH", "QH", "QS", "QC"], 13) == -495


def test_9_8_deal_6_tallies():
    _, _, _, trick_pen, _ = R.kernel_tables(V)
    d = DEAL_TYPES.index("no_seventh_and_last")
    assert trick_pen[d, 7] == -75 and trick_pen[d, 13] == -75
    assert sum(trick_pen[d]) == -150 and sum(trick_pen[d] != 0) == 2


# 9.9 / 9.18 ------------------------------------------------------------------------------

DECK_9_18 = ("6S 4D 6C 8H 4C 3D QD 3H AH QC TH KD KH 2H TD QH 7C 8C 8S 3C "
             "JH TS AD 4S 5S 5D QS 7S 9D 2D KC 9C KS 7D 3S 6H 2S 8D 5C JS "
             "TC 2C JD 6D 7H 9S JC 4H AS 9H 5H AC").split()
HANDS_9_18 = [hand("A K 6 5 2", "A K J 7", "9", "T 7 4"), hand("T 9", "9 2", "8 7 5 4 3 2", "Q 8 2"),
              hand("Q 8 3", "T 5", "A Q J T", "K J 6 5"), hand("J 7 4", "Q 8 6 4 3", "K 6", "A 9 3")]
PLAY_9_18 = """AC TC QC KC  KD 9D 8D AD  QS JS AS TS  AH 9H TH QH  KS 9S 8S 7S  KH 2H 5H 8H
JH 2D 3S 6H  7H 2C 5C 4H  7C 8C JC 9C  QD 6D 2S 7D  JD 3H 4C 5D  4S 6S 3D 6C  5S 4D TD 3C""".split()


def test_9_9_trump_choice_sees_first_five_cards():
    deck = np.array([parse_card(c) for c in DECK_9_18], np.int64)
    seen = R.first_cards(deck, 3, 3, 5)
    assert [format_card(c) for c in deck[3:20:4]] == cards("8H 3H KD QH 3C")
    assert names(seen) == set(cards("8H 3H KD QH 3C"))
    info = np.zeros(P.TRUMP_INFO_LEN, np.int64)
    info[P.T_ALLOWED] = 15
    info[P.T_N_SEEN] = 5
    info[P.T_PARAMS:] = GAME.policies.param_row("basic")  # the policy's default parameters
    rng = np.zeros(1, np.uint64)
    assert P.basic_trump(info, np.array([seen, 0], np.uint64), rng) == SUIT_INDEX["H"]


def test_9_18_golden_trump_deal():
    deck = np.array([parse_card(c) for c in DECK_9_18], np.int64)
    hands = np.zeros(4, np.uint64)
    R.hands_from_deck(deck, 3, hands)
    assert [names(h) for h in hands] == [set(h) for h in HANDS_9_18]
    expected_winners = "W S N N N N N N S S W N N"
    for rule in ("none", "must_trump", "must_overtrump"):
        v = variant(trump_obligation=rule)
        scores, tricks, winners = REF.score_trick_deal(HANDS_9_18, "trumps", 3, PLAY_9_18, v, trump="H")
        res, events = kernel_play(v, "trumps", HANDS_9_18, 3, PLAY_9_18, trump="H", dealer=3)
        assert list(res[R.R_SCORE:R.R_SCORE + 4]) == scores == [200, 0, 75, 50]
        assert list(res[R.R_TRICKS:R.R_TRICKS + 4]) == tricks == [8, 0, 3, 2]
        kw = ["NESW"[e[2]] for e in events if e[0] == R.EV_TRICK]
        assert " ".join(kw) == " ".join("NESW"[w] for w in winners) == expected_winners


# 9.10 - 9.14 lottery ---------------------------------------------------------------------

SEQ_LOW = "A23456789TJQK"
SEQ_HIGH = "23456789TJQKA"


def layout(rows, ace="low"):
    """rows: {suit: "7S" or "5H 9H" (lo, hi)} -> kernel lo/hi arrays and referee rows."""
    seq = SEQ_LOW if ace == "low" else SEQ_HIGH
    lo, hi = np.full(4, -1, np.int64), np.full(4, -1, np.int64)
    ref = {s: None for s in "SHDC"}
    for s, text in rows.items():
        ends = text.split()
        a, b = seq.index(ends[0][0]), seq.index(ends[-1][0])
        lo[SUIT_INDEX[s]], hi[SUIT_INDEX[s]] = a, b
        ref[s] = (a, b)
    return lo, hi, ref


def both_lottery(rows, h, ace="low"):
    v = variant(lottery_ace=ace)
    lo, hi, ref = layout(rows, ace)
    params = R.kernel_tables(v).params
    k = names(R.lottery_legal(kmask(h), lo, hi, R.lottery_base(params), R.lottery_ace_high(params)))
    assert k == REF.lottery_legal(set(h), ref, "7", v)
    return k


def test_9_10_lottery_legal_cards():
    rows = {"S": "7S", "H": "5H 9H", "C": "6C JC"}
    assert both_lottery(rows, cards("4H TH 7D 6S 9D KC")) == set(cards("4H TH 7D 6S"))


def test_9_11_ace_low_and_high():
    rows = {"S": "7S KS", "C": "2C 7C"}
    assert both_lottery(rows, cards("AC AS 8C 6S 7H"), "low") == set(cards("AC 8C 6S 7H"))
    assert both_lottery(rows, cards("AC AS 8C 6S 7H"), "high") == set(cards("AS 8C 6S 7H"))


def test_9_12_forced_pass():
    rows = {"S": "7S TS", "H": "2H QH", "D": "5D TD", "C": "4C 9C"}
    assert both_lottery(rows, cards("3D QS 2C")) == set()
    assert both_lottery(rows, cards("3D QS 2C KH")) == {"KH"}
    assert "AH" in both_lottery(rows, cards("3D QS 2C AH"), "low")
    rows_high = {"S": "7S TS", "H": "2H QH", "D": "5D TD", "C": "4C 9C"}
    assert both_lottery(rows_high, cards("3D QS 2C AH"), "high") == set()


def test_9_13_opening():
    assert schedule(variant(first_dealer=0))[-1] == ("lottery", 3)
    assert both_lottery({}, cards("2S 3H 4D KC")) == set()
    assert both_lottery({}, cards("7S 7D 2C 9H")) == set(cards("7S 7D"))
    assert both_lottery({"D": "7D"}, cards("8D 6D 7C 2S")) == set(cards("8D 6D 7C"))


def test_9_14_lottery_end_and_scoring():
    v = variant(deal_type="lottery")
    for index in range(20):
        rec, events = traced_game(v, TABLES["basic"], 9, index, unit="deal")
        outs = [i for i, e in enumerate(events) if e[0] == R.EV_OUT]
        assert len(outs) == 2
        assert [events[i][3] for i in outs] == [800, 500]
        assert all(e[0] != R.EV_PLAY for e in events[outs[1]:])  # the lottery ends at once
        assert sorted(rec[R.R_SCORE:R.R_SCORE + 4]) == [0, 0, 500, 800]
        REF.check_trace(events, v, deal_types=["lottery"])


# 9.15 -------------------------------------------------------------------------------------

def test_9_15_score_sheet():
    _, _, card_pen, trick_pen, _ = R.kernel_tables(V)
    T = {t: i for i, t in enumerate(DEAL_TYPES)}
    per_trick = trick_pen[T["no_tricks"], 1]
    heart = card_pen[T["no_hearts"], parse_card("2H")]
    queen = card_pen[T["no_queens"], parse_card("QS")]
    jk = card_pen[T["no_jacks_kings"], parse_card("JD")]
    kh = card_pen[T["no_king_of_hearts"], parse_card("KH")]
    last = trick_pen[T["no_seventh_and_last"], 13]
    trick_val = trick_pen[T["trumps"], 1]
    rows = [
        [n * per_trick for n in (4, 3, 6, 0)],
        [n * heart for n in (2, 5, 0, 6)],
        [n * queen for n in (1, 0, 2, 1)],
        [n * jk for n in (3, 2, 1, 2)],
        [0, 0, kh, 0],
        [0, last, 0, last],
    ]
    robber = [a * per_trick + b * heart + c * queen + d * jk + e * kh + f * last for a, b, c, d, e, f in
              zip((3, 4, 2, 4), (4, 3, 1, 5), (1, 2, 0, 1), (2, 3, 1, 2), (0, 1, 0, 0), (1, 0, 0, 1))]
    assert robber == [-335, -500, -90, -375]
    rows.append(robber)
    assert [sum(r) for r in rows] == [-260, -260, -240, -240, -150, -150, -1300]
    first_half = [sum(r[s] for r in rows) for s in range(4)]
    assert first_half == [-605, -795, -510, -690]
    trumps = [[n * trick_val for n in t] for t in ((3, 4, 2, 4), (5, 2, 3, 3), (2, 3, 6, 2), (3, 3, 3, 4))]
    assert all(sum(t) == 325 for t in trumps)
    awards = list(V.lottery_awards)
    lottery = [awards[1], 0, awards[0], 0]
    second = [sum(t[s] for t in trumps) + lottery[s] for s in range(4)]
    assert second == [825, 300, 1150, 325]
    final = [a + b for a, b in zip(first_half, second)]
    assert final == [220, -495, 640, -365] and sum(final) == 0
    assert "NESW"[int(np.argmax(final))] == "S"


# 9.16 / 9.17 ------------------------------------------------------------------------------

HANDS_9_16 = [hand("-", "A J 8 7 6 3", "Q T 6 5 4", "K T"), hand("Q T 6 5 3", "Q 5 2", "A K 8 7", "5"),
              hand("7 4 2", "K T 9", "9 3 2", "9 7 4 3"), hand("A K J 9 8", "4", "J", "A Q J 8 6 2")]
PLAY_9_16 = """3S 2S 8S AH  2C TC 5C 3C  4D 7D 2D JD  6C KC AD 4C  5D 8D 3D AS  5S 4S 9S QD
8C JH KD 7C  JS TD 6S 7S  JC 8H QS 9C  QC 7H QH KH  KS 6H TS TH  AC 6D 5H 9H  4H 3H 2H 9D""".split()
WINNERS_9_16 = "W N W N E W W W W W W W W"
CHARGES_9_16 = [-40, -20, -50, -50, -20, -80, -175, -50, -130, -380, -90, -60, -155]


@pytest.mark.parametrize("forced", ["off", "when_void", "when_void_or_beaten"])
def test_9_16_golden_robber_deal(forced):
    v = variant(king_of_hearts_forced=forced)
    scores, _, winners = REF.score_trick_deal(HANDS_9_16, "robber", SEAT["E"], PLAY_9_16, v)
    res, events = kernel_play(v, "robber", HANDS_9_16, SEAT["E"], PLAY_9_16)
    assert list(res[R.R_SCORE:R.R_SCORE + 4]) == scores == [-70, -20, 0, -1210]
    tricks = [e for e in events if e[0] == R.EV_TRICK]
    assert " ".join("NESW"[e[2]] for e in tricks) == " ".join("NESW"[w] for w in winners) == WINNERS_9_16
    assert [e[3] for e in tricks] == CHARGES_9_16
    # trick 1: E holds hearts but must lead a non-heart; trick 13: W's only card 4H is legal
    first_play = next(e for e in events if e[0] == R.EV_PLAY)
    assert names(first_play[4]) == set(cards("QS TS 6S 5S 3S AD KD 8D 7D 5C"))
    assert both_legal(v, "robber", ["4H"]) == {"4H"}


def test_9_16_kernel_rejects_an_illegal_card():
    plays = list(PLAY_9_16)
    plays[0] = "2H"  # E may not lead a heart while holding other suits
    with pytest.raises(Exception):
        kernel_play(V, "robber", HANDS_9_16, SEAT["E"], plays)
    with pytest.raises(REF.RefereeError):
        REF.score_trick_deal(HANDS_9_16, "robber", SEAT["E"], plays, V)


@pytest.mark.parametrize("early", [False, True])
def test_9_17_early_stop(early):
    v = variant(early_stop=early)
    res, events = kernel_play(v, "no_king_of_hearts", HANDS_9_16, SEAT["E"], PLAY_9_16)
    assert list(res[R.R_SCORE:R.R_SCORE + 4]) == [0, 0, 0, -150]
    assert res[R.R_TRICKS_PLAYED] == (10 if early else 13)
    n = 40 if early else 52
    scores, _, _ = REF.score_trick_deal(HANDS_9_16, "no_king_of_hearts", SEAT["E"], PLAY_9_16[:n], v,
                                        early_stop=early)
    assert scores == [0, 0, 0, -150]


# 9.19 / 9.20 ------------------------------------------------------------------------------

def test_9_19_forced_king_of_hearts():
    beaten = variant(king_of_hearts_forced="when_void_or_beaten")
    void = variant(king_of_hearts_forced="when_void")
    h = cards("KH 3H 8C")
    assert both_legal(V, "no_king_of_hearts", h, trick=["5H", "AH"]) == {"KH", "3H"}
    assert both_legal(beaten, "no_king_of_hearts", h, trick=["5H", "AH"]) == {"KH"}
    assert both_legal(void, "no_king_of_hearts", h, trick=["5H", "AH"]) == {"KH", "3H"}
    h2 = cards("KH 3H 9D")
    for v in (beaten, void):
        assert both_legal(v, "no_king_of_hearts", h2, trick=["5C"]) == {"KH"}
        assert both_legal(v, "robber", h2, trick=["5C"]) == {"KH"}
    assert both_legal(V, "no_king_of_hearts", h2, trick=["5C"]) == set(h2)
    assert both_legal(void, "no_hearts", h2, trick=["5C"]) == set(h2)  # only deals 5 and 7


def test_9_20_long_form_schedules():
    blocked = schedule(variant(preset="long_blocked", first_dealer=0))
    assert len(blocked) == 48
    assert blocked[:4] == [("no_tricks", d) for d in range(4)]
    assert blocked[4:8] == [("no_hearts", d) for d in range(4)]
    assert blocked[24:28] == [("robber", d) for d in range(4)]
    assert blocked[28:44] == [("trumps", d % 4) for d in range(16)]
    assert blocked[44:48] == [("lottery", d) for d in range(4)]
    cycled = schedule(variant(preset="long_cycled"))
    assert len(cycled) == 48
    assert cycled[:12] == schedule(V)
    assert cycled[11] == ("lottery", 3)
    for c in range(4):
        assert cycled[12 * c] == ("no_tricks", c)
