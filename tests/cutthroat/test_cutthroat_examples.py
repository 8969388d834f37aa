"""Every worked example of rules section 9, checked on the compiled kernel and the referee."""
import numpy as np
import pytest

from simcards.core.cards import mask_of, parse_card, parse_cards
from simcards.core.tricks import SUIT_MASKS_JOKERS_AS_SPADES as SUITS, card_beats, spades_legal
from simcards.games.cutthroat import referee, rules
from simcards.games.cutthroat.layout import B_1F, B_2F, B_B6, B_BN, B_SM, NIL, parse_bid
from simcards.games.cutthroat.policies import CATALOG
from simcards.games.cutthroat.variant import PRESETS, CutthroatVariant, packed

OFFICIAL = CutthroatVariant()


def variant(preset="official", **changes):
    return CutthroatVariant.from_mapping({**PRESETS[preset], **changes})


def kernel_score(v, bid, tricks, jacks="", g=0):
    """(delta, G after) from the compiled scorer."""
    jmask = np.uint64(mask_of(parse_cards(jacks))) if jacks else np.uint64(0)
    delta, g_after, _, _, _ = rules.score_bid(packed(v)[0], parse_bid(bid), tricks, jmask, g)
    return delta, g_after


def both(v, bid, tricks, jacks="", g=0):
    """Score with the kernel and the referee; they must agree."""
    k = kernel_score(v, bid, tricks, jacks, g)
    r = referee.score_player(v, bid, tricks, set(jacks.split()), g)
    assert k == (r[0], r[1]), (k, r)
    return k


@pytest.mark.parametrize("bid, tricks, jacks, g, delta, g_after", [
    ("4", 6, "", 0, 42, 2),          # 9.1
    ("5", 3, "", 0, -50, 0),         # 9.2
    ("1F", 1, "", 0, 50, 0),         # 9.3
    ("1F", 3, "", 0, 12, 2),
    ("1F", 0, "", 0, -50, 0),
    ("2F", 2, "", 0, 40, 0),         # 9.4
    ("2F", 4, "", 0, 22, 2),
    ("2F", 1, "", 0, -40, 0),
    ("2F", 0, "", 0, -40, 0),
    ("B6", 7, "", 0, 101, 1),        # 9.5 outcome
    ("B6", 5, "", 0, -100, 0),
    ("BN", 0, "", 0, 200, 0),        # 9.6
    ("BN", 2, "", 0, -198, 2),
    ("NIL", 0, "", 0, 100, 0),       # 9.7
    ("NIL", 1, "", 0, -99, 1),
    ("NIL", 1, "JD", 0, -89, 1),
    ("SM", 15, "", 3, 150, 3),       # 9.8
    ("SM", 13, "", 0, -150, 0),
    ("5", 9, "", 8, -66, 0),         # 9.9
    ("4", 4, "JD JC", 0, 60, 0),     # 9.12
])
def test_official_scoring(bid, tricks, jacks, g, delta, g_after):
    assert both(OFFICIAL, bid, tricks, jacks, g) == (delta, g_after)


def test_9_8_shoot_moon_overtricks_and_five_players():
    assert both(OFFICIAL.replace(shoot_moon_overtricks_score=True), "SM", 15, "", 3) == (151, 3)
    five = OFFICIAL.replace(num_players=5)
    assert both(five, "SM", 8) == (150, 0)
    assert both(five, "SM", 7) == (-150, 0)


def test_9_9_fixed_carry():
    assert both(OFFICIAL.replace(bag_out_penalty="fixed_carry"), "5", 9, "", 8) == (-46, 2)


def test_9_10_short_bag5():
    assert both(variant("short_bag5"), "4", 6, "", 4) == (-18, 0)


def test_9_11_short_per_bag():
    assert both(variant("short_per_bag"), "3", 6) == (3, 0)


def test_9_13_jack_of_hearts():
    v = variant("long_three_jacks")
    assert both(v, "3", 4, "JH", 9) == (31, 9)
    assert both(v, "3", 4, "", 9) == (-69, 0)


def test_9_14_jack_of_hearts_per_bag():
    v = OFFICIAL.replace(bag_mode="per_bag", prize_jacks=("JC", "JH"))
    assert both(v, "3", 5, "JC JH") == (32, 0)


def test_9_15_complete_hand():
    got = [both(OFFICIAL, "7", 8, "JD"), both(OFFICIAL, "1F", 1), both(OFFICIAL, "6", 8, "JC")]
    assert got == [(81, 1), (50, 0), (72, 2)]


def options(v, seat, scores, b6used=(0, 0, 0), dealer=2, sum_before=0, saw=False):
    f = referee.tricks_in_hand(v)
    blind, opened = rules.bid_options(packed(v)[0], v.num_players, f, seat, seat == dealer, sum_before,
                                      np.array(scores, np.int64), np.array(b6used, np.int64), saw)
    return int(blind), int(opened)


def test_9_5_blind_six_eligibility():
    b6 = 1 << B_B6
    assert options(OFFICIAL, 0, [120, 180, 60])[0] & b6           # deficit 60
    assert not options(OFFICIAL, 1, [120, 180, 60])[0] & b6       # leader
    assert options(OFFICIAL, 2, [120, 180, 60])[0] & b6           # deficit 120
    assert not options(OFFICIAL, 0, [135, 180, 60])[0] & b6       # deficit 45
    # one B6 per game in official; unlimited under long_three_jacks
    assert not options(OFFICIAL, 2, [120, 180, 60], b6used=(0, 0, 1))[0] & b6
    assert options(variant("long_three_jacks"), 2, [120, 180, 60], b6used=(0, 0, 1))[0] & b6
    for seat, scores in ((0, [120, 180, 60]), (1, [120, 180, 60]), (0, [135, 180, 60])):
        blind, _ = referee.legal_bids(OFFICIAL, seat, 2, scores, [0, 0, 0], [], False)
        assert ("B6" in blind) == bool(options(OFFICIAL, seat, scores)[0] & b6)


def test_9_5_kernel_tracks_b6_uses_through_a_game():
    """In real games no seat bids B6 more often than allowed (uses counted by the kernel)."""
    table = CATALOG.table(["expert"] * 3)
    out = rules.simulate("game", OFFICIAL, table, 5, 0, 40)
    cols = rules.GAME_COLUMNS
    b6 = out[:, [cols.index(f"b6_bids_{s}") for s in range(3)]]
    assert b6.max() <= 1 and b6.sum() > 0


def test_9_16_tie_at_target_then_winner():
    v = OFFICIAL
    scores = np.array([470, 461, 300], np.int64)
    bags = [3, 1, 5]
    hand1 = [("4", 5, ""), ("5", 5, ""), ("7", 7, "JD JC")]
    for s, (bid, t, j) in enumerate(hand1):
        d, bags[s] = both(v, bid, t, j, bags[s])
        scores[s] += d
    assert list(scores) == [511, 511, 390]
    assert rules.game_winner(scores, 3, 500) == rules.TIED_AT_TARGET
    hand2 = [("3", 3, ""), ("NIL", 2, ""), ("11", 12, "JD JC")]
    for s, (bid, t, j) in enumerate(hand2):
        d, bags[s] = both(v, bid, t, j, bags[s])
        scores[s] += d
    assert list(scores) == [541, 413, 521] and bags == [4, 3, 6]
    assert rules.game_winner(scores, 3, 500) == 0


def test_9_17_tournament_tokens():
    """Tournaments end when the first player reaches the token count; the deal keeps rotating."""
    v = OFFICIAL.replace(target_score=150)
    table = CATALOG.table(["basic"] * 3)
    for index in range(3):
        row, trace = rules.trace_record("tournament", v, table, 11, index)
        summary = referee.check_trace(trace, v, "tournament")
        winner, games, tokens = summary["tournament"]
        assert tokens[winner] == v.tournament_wins == 5
        assert sum(tokens) == games and max(t for s, t in enumerate(tokens) if s != winner) < 5
        for _, _, final_scores in summary["games"]:
            assert max(final_scores) >= 150


def _first_trick(trace):
    plays = [(ev.seat, ev.card) for ev in trace if ev.kind == "play" and ev.trick == 0]
    return plays


def test_9_18_two_jokers_deal_and_first_trick():
    v = CutthroatVariant(num_players=5, jokers=2, first_dealer=0)
    table = CATALOG.table(["basic"] * 5)
    c2, c3 = parse_card("2C"), parse_card("3C")
    seen_normal = seen_dealer_2c = False
    for index in range(200):
        row, trace = rules.trace_record("deal", v, table, 3, index)
        hands = {ev.seat: ev.hand for ev in trace if ev.kind == "deal"}
        assert [bin(hands[s]).count("1") for s in range(5)] == [10, 11, 11, 11, 11]
        bidders = [ev.seat for ev in trace if ev.kind == "bid"]
        assert bidders == [1, 2, 3, 4, 0]
        first = _first_trick(trace)
        assert len(first) == 4 and 0 not in [s for s, _ in first]
        tricks = [ev for ev in trace if ev.kind == "trick"]
        assert len(tricks) == 11
        if hands[0] >> c2 & 1:
            holder = next(s for s in range(1, 5) if hands[s] >> c3 & 1) if not hands[0] >> c3 & 1 else None
            if holder is not None:
                assert first[0] == (holder, c3)
                seen_dealer_2c = True
        else:
            holder = next(s for s in range(5) if hands[s] >> c2 & 1)
            assert first[0] == (holder, c2)
            assert [s for s, _ in first] == [(holder + i) % 5 for i in range(5) if (holder + i) % 5 != 0]
            seen_normal = True
        referee.check_trace(trace, v, "deal")
    assert seen_normal and seen_dealer_2c


def test_9_18_referee_first_trick():
    v = CutthroatVariant(num_players=5, jokers=2)
    trick = [(3, "2C"), (4, "9C"), (1, "LJ"), (2, "KC")]
    assert referee.trick_winner(trick) == 1
    assert referee.legal_cards(v, {"2C", "5H"}, [], 1, False, "2C") == {"2C"}


def _legal(hand, trick, broken, forced=-1):
    h = np.uint64(mask_of(parse_cards(" ".join(hand))))
    led = -1
    if trick:
        first = parse_card(trick[0])
        led = 3 if first >= 39 else first // 13
    return set(parse_cards_of(spades_legal(h, led, SUITS, forced, not broken, False)))


def parse_cards_of(mask):
    from simcards.core.cards import cards_of, format_card
    return {format_card(c) for c in cards_of(int(mask))}


def _winner(cards):
    played = [parse_card(c) for c in cards]
    best = played[0]
    for c in played[1:]:
        if card_beats(c, best, 3, SUITS):
            best = c
    return played.index(best)


def test_9_19_three_jokers():
    v = CutthroatVariant(num_players=5, jokers=3)
    cases = [
        (["BJ", "4S", "7H"], [], False, {"7H"}),
        (["BJ", "MJ", "4S"], [], False, {"BJ", "MJ", "4S"}),
        (["MJ", "KH"], ["4S"], False, {"MJ"}),
    ]
    for hand, trick, broken, want in cases:
        assert _legal(hand, trick, broken) == want
        assert referee.legal_cards(v, set(hand), trick, 2, broken, None) == want
    assert _winner(["4S", "AS", "LJ", "MJ", "2S"]) == 3
    assert _winner(["9H", "KH", "QD", "AH", "3H"]) == 3
    assert referee.trick_winner(list(enumerate(["4S", "AS", "LJ", "MJ", "2S"]))) == 3
    assert referee.trick_winner(list(enumerate(["9H", "KH", "QD", "AH", "3H"]))) == 3


def test_9_19_trump_lead_breaks_spades():
    """A leader holding only trumps leads one and spades are broken (kernel trace)."""
    v = CutthroatVariant(num_players=5, jokers=3)
    table = CATALOG.table(["random"] * 5)
    _, trace = rules.trace_record("deal", v, table, 2, 0)
    referee.check_trace(trace, v, "deal")


def test_9_20_forbidden_total():
    v = OFFICIAL.replace(forbid_total_bids_equal_tricks=True)
    # A 6, B 5 so far; C (dealer) trails by 50 so B6 would be offered
    blind, opened = options(v, 2, [100, 60, 50], sum_before=11)
    assert not opened & (1 << 6) and not blind & (1 << B_B6)
    assert blind & (1 << B_BN) and opened & (1 << 5) and opened & (1 << 7)
    assert opened & (1 << NIL) and opened & (1 << B_1F) and opened & (1 << B_2F) and opened & (1 << B_SM)
    rb, ro = referee.legal_bids(v, 2, 2, [100, 60, 50], [0, 0, 0], ["6", "5"], False)
    assert "6" not in ro and "B6" not in rb and {"5", "7", "NIL", "1F", "2F", "SM"} <= ro and "BN" in rb
    # the restriction concerns the dealer only
    blind, opened = options(v, 0, [50, 60, 100], sum_before=11, dealer=2)
    assert opened & (1 << 6)
