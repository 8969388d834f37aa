"""The invariants of rules section 8 as hypothesis properties (kernel traces + the referee)."""
import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st

from simcards.core.cards import cards_of, mask_of, parse_cards
from simcards.core.policy import Policy
from simcards.core.tricks import SUIT_MASKS_JOKERS_AS_SPADES as SUITS
from simcards.games.cutthroat import referee, rules
from simcards.games.cutthroat.layout import B_1F, B_2F, B_B6, B_BN, B_SM, NIL, parse_bid
from simcards.games.cutthroat.policies import CATALOG
from simcards.games.cutthroat.variant import PRESETS, CutthroatVariant, form_of, packed

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FORMS = [(3, 0), (4, 0), (5, 0), (5, 2), (5, 3)]


@st.composite
def variants(draw):
    n, j = draw(st.sampled_from(FORMS))
    settings_ = dict(PRESETS[draw(st.sampled_from(sorted(PRESETS)))])
    settings_.update(num_players=n, jokers=j, target_score=draw(st.sampled_from([150, 300])))
    flags = draw(st.fixed_dictionaries({}, optional={
        "spades_must_be_broken": st.booleans(),
        "first_trick_trump_allowed": st.booleans(),
        "forbid_total_bids_equal_tricks": st.booleans(),
        "first_lead": st.sampled_from(["left_of_dealer", "lowest_club"]),
        "first_lead_card_forced": st.booleans(),
        "blind_six_min_deficit": st.sampled_from([0, 50]),
        "blind_six_max_per_game": st.sampled_from([None, 0, 1, 2]),
        "bag_mode": st.sampled_from(["accumulate", "per_bag", "none"]),
        "bag_out_penalty": st.sampled_from(["per_accumulated_bag", "fixed_carry"]),
        "misdeal_condition": st.sampled_from(["none", "no_spades", "at_most_one_spade"]),
        "misdeal_optional": st.booleans(),
        "first_dealer": st.sampled_from(["random", 0, 2]),
    }))
    settings_.update(flags)
    return CutthroatVariant.from_mapping(settings_)


def trace_of(v, unit, policy, seed, index):
    table = CATALOG.table([policy] * v.num_players)
    return rules.trace_record(unit, v, table, seed, index)


def hands_of(events):
    """[(dealt hands by seat, plays [(seat, card, trick, pos)], trick rows [(winner, trick)])] per hand."""
    out = []
    for ev in events:
        if ev.kind == "hand":
            out.append(({}, [], []))
        elif ev.kind == "deal":
            out[-1][0][ev.seat] = ev.hand
        elif ev.kind == "play":
            out[-1][1].append((ev.seat, ev.card, ev.trick, ev.pos))
        elif ev.kind == "trick":
            out[-1][2].append((ev.winner, ev.trick))
    return out


@SETTINGS
@given(v=variants(), seed=st.integers(0, 2**32), index=st.integers(0, 10**6),
       policy=st.sampled_from(["random", "basic", "expert"]))
def test_hand_invariants(v, seed, index, policy):
    """Invariants 1-4, 7-17, 20 on one hand; the referee recomputes moves and scores."""
    row, trace = trace_of(v, "deal", policy, seed, index)
    referee.check_trace(trace, v, "deal")  # 1-4, 7, 8-12, 17 move by move
    f = form_of(v)
    n = v.num_players
    (dealt, plays, tricks), = hands_of(trace)[-1:]
    # 1, 2: the deck of the form, disjoint hands, sizes
    assert sum(bin(m).count("1") for m in dealt.values()) == bin(f.deck).count("1")
    union = 0
    for m in dealt.values():
        assert union & m == 0
        union |= m
    assert union == f.deck
    # 8, 9: T tricks; each card played once; one card per player per trick (dealer skips trick 1 with 2 jokers)
    assert len(tricks) == f.tricks
    assert sorted(c for _, c, _, _ in plays) == cards_of(f.deck)
    for t in range(f.tricks):
        seats = [s for s, _, tr, _ in plays if tr == t]
        expected = n - 1 if (t == 0 and f.dealer_sits_out) else n
        assert len(set(seats)) == len(seats) == expected
        if t > 0:
            assert seats[0] == tricks[t - 1][0]  # 11: the winner leads the next trick
    # 13: trumps led before broken only from a hand of trumps; 14: no suit after showing void
    held = dict(dealt)
    broken = False
    void = {s: set() for s in range(n)}
    lead_suit = None
    for s, c, t, pos in plays:
        b = 1 << c
        suit = 3 if b & int(SUITS[3]) else c // 13
        assert suit not in void[s]
        if pos == 0:
            lead_suit = suit
            if suit == 3 and not broken and v.spades_must_be_broken and not (t == 0 and f.first_lead == "lowest_club"
                                                                             and v.first_lead_card_forced):
                assert held[s] & ~int(SUITS[3]) == 0
        elif suit != lead_suit:
            void[s].add(lead_suit)
        broken |= suit == 3
        held[s] &= ~b
    assert all(m == 0 for m in held.values())
    # 15, 16, 20: tricks add up; the sitting-out dealer wins at most T-1; each prize jack captured once
    won = [row[rules.D_SEAT0 + 5 + s] for s in range(n)]
    assert sum(won) == f.tricks
    if f.dealer_sits_out:
        assert won[row[0]] <= f.tricks - 1
    jacks = [row[rules.D_SEAT0 + 20 + s] for s in range(n)]
    prize_bits = sum({"JC": 1, "JD": 2, "JH": 4}[j] for j in v.prize_jacks)
    assert sum(jacks) == prize_bits and all(a & b == 0 for a in jacks for b in jacks if a is not b)
    assert sum(row[rules.D_SEAT0 + 15 + s] for s in range(n)) <= f.tricks
    # 7: ordinary bids are in range
    for s in range(n):
        bid = row[rules.D_SEAT0 + s]
        assert bid in (NIL, B_1F, B_2F, B_B6, B_BN, B_SM) or 1 <= bid <= f.max_ordinary_bid


@settings(max_examples=25, deadline=None)
@given(v=variants(), seed=st.integers(0, 2**32), policy=st.sampled_from(["random", "expert"]))
def test_game_and_tournament_invariants(v, seed, policy):
    """Invariants 3, 5, 22, 23: rotation across games, B6 limits, game ends, tokens."""
    v = v.replace(target_score=120, tournament_wins=2, max_hands=60)
    row, trace = trace_of(v, "tournament", policy, seed, 0)
    summary = referee.check_trace(trace, v, "tournament")  # 3, 4, 22, 23
    hand_no = 0
    for winner, played, scores in summary["games"]:
        bids = summary["bids"][hand_no: hand_no + played]
        per_seat = [sum(b[s] == "B6" for b in bids) for s in range(v.num_players)]
        if v.blind_six_max_per_game is not None:
            assert max(per_seat) <= v.blind_six_max_per_game  # 5
        if v.blind_six_min_deficit > 0:
            assert "B6" not in bids[0]  # 5: nobody trails in the first hand
        hand_no += played
    champion, games, tokens = summary["tournament"]
    assert max(tokens) <= v.tournament_wins
    if champion >= 0:
        assert tokens[champion] == v.tournament_wins and sorted(tokens)[-2] < v.tournament_wins


BIDS = ["NIL", "BN", "1F", "2F", "B6", "SM"] + [str(k) for k in range(1, 14)]


@SETTINGS
@given(v=variants(), bid=st.sampled_from(BIDS), t=st.integers(0, 17), g=st.integers(0, 20),
       jacks=st.sets(st.sampled_from(["JD", "JC", "JH"])))
def test_scoring_invariants(v, bid, t, g, jacks):
    """Invariants 17-19: the kernel's delta equals the reference formula; outcomes and bag counters."""
    f = form_of(v)
    t = min(t, f.tricks)
    if bid.isdigit() and int(bid) > f.max_ordinary_bid:
        bid = str(f.max_ordinary_bid)
    g = min(g, v.bag_limit - 1) if v.bag_mode == "accumulate" else (0 if v.bag_mode == "per_bag" else g)
    code = parse_bid(bid)
    jmask = np.uint64(mask_of(parse_cards(" ".join(jacks)))) if jacks else np.uint64(0)
    delta, g_after, bags, penalty, _ = rules.score_bid(packed(v)[0], code, t, jmask, g)
    ref = referee.score_player(v, bid, t, jacks, g)
    assert (delta, g_after, bags, penalty) == ref  # 17
    if bid in ("NIL", "BN"):  # 18: Nil and BN succeed iff no trick
        value = v.nil_value if bid == "NIL" else v.blind_nil_value
        base = delta - _jack_points(v, jacks) + penalty - v.bag_point_value * bags
        assert base == (value if t == 0 else -value)
    if v.bag_mode == "accumulate":
        assert 0 <= g_after < v.bag_limit  # 19
    elif v.bag_mode == "per_bag":
        assert g_after == 0
    if bid == "SM":
        assert bags == 0 and g_after <= g


def _jack_points(v, jacks):
    return v.prize_jack_points * len({"JD", "JC"} & set(v.prize_jacks) & set(jacks))


@settings(max_examples=200, deadline=None)
@given(bid=st.sampled_from(BIDS), t=st.integers(0, 17), g=st.integers(0, 9),
       jacks=st.sets(st.sampled_from(["JD", "JC"])))
def test_official_delta_bounds(bid, t, g, jacks):
    """Invariant 21: official preset, 3 players: -434 <= delta <= 200; 18 with default values."""
    v = CutthroatVariant()
    jacks = set(sorted(jacks)[:t])  # a jack comes with a won trick
    jmask = np.uint64(mask_of(parse_cards(" ".join(jacks)))) if jacks else np.uint64(0)
    code = parse_bid(bid)
    delta, _, bags, penalty, _ = rules.score_bid(packed(v)[0], code, t, jmask, g)
    assert -434 <= delta <= 200
    base = delta - 10 * len(jacks) + penalty - bags  # the bid's own points (5.1 "base")
    if bid == "1F":
        assert (base == 50) == (t == 1)
    if bid == "2F":
        assert (base == 40) == (t == 2)
    if bid == "B6":
        assert (base > 0) == (t >= 6)
    if bid == "SM":
        assert (base == 150) == (t >= 14)


def test_official_delta_extremes_reached():
    """The bounds of invariant 21 are attained exactly by the cases the rules name."""
    p = packed(CutthroatVariant())[0]
    assert rules.score_bid(p, B_BN, 16, np.uint64(0), 9)[0] == -434
    assert rules.score_bid(p, B_BN, 0, np.uint64(0), 0)[0] == 200


def spy_blind(view, masks, rng):
    """Blind decision that reports an illegal bid if it can see any card of its hand."""
    if masks[0] != 0:
        return 99
    return -1


def test_blind_decisions_see_no_cards():
    """Invariant 6: the blind offer gets an empty hand mask (an illegal bid would raise)."""
    spy = Policy("spy", base=CATALOG.builtins["basic"], blind=spy_blind)
    CATALOG.builtins["spy_for_test"] = spy
    try:
        v = CutthroatVariant(blind_six_min_deficit=0, target_score=200)
        table = CATALOG.table(["spy_for_test"] * 3)
        out = rules.simulate("game", v, table, 1, 0, 20)
        assert (out[:, rules.GAME_COLUMNS.index("hands")] > 0).all()
    finally:
        del CATALOG.builtins["spy_for_test"]


def test_bag_outs_are_counted_whatever_the_penalty():
    """A bag-out is the counter reaching bag_limit (docs/games/cutthroat.md, rule 5.1), also with
    bag_penalty_per_bag = 0; fixed_carry counts every limit crossed (issue 14: the column used to
    count hands with a penalty, so 0 bag-outs were reported under a zero penalty)."""
    free = CutthroatVariant.from_pairs(["bag_penalty_per_bag=0"])
    assert free.bag_mode == "accumulate"
    g = free.bag_limit - 1
    *_, penalty, bagouts = rules.score_bid(packed(free)[0], parse_bid("3"), 5, np.uint64(0), g)  # 2 bags
    assert penalty == 0 and bagouts == 1
    *_, bagouts = rules.score_bid(packed(free)[0], parse_bid("3"), 3, np.uint64(0), g)  # no bag
    assert bagouts == 0
    carry = CutthroatVariant.from_pairs(["bag_out_penalty=fixed_carry", "bag_limit=2"])
    *_, bagouts = rules.score_bid(packed(carry)[0], parse_bid("1"), 6, np.uint64(0), 1)  # 1 + 5 bags = 6
    assert bagouts == 3


def test_game_records_count_the_same_bag_outs_with_or_without_penalty():
    """Zero penalty changes the scores, so whole games differ; per hand the count is the rule's:
    with the penalty at 0 the games still show bag-outs (they were reported as none)."""
    from simcards.core.policy import seat_policies
    from simcards.games.cutthroat import GAME

    v = GAME.variant(None, None, ["bag_penalty_per_bag=0"])
    table = GAME.policies.table(seat_policies("expert", None, GAME.seats(v)))
    cols = GAME.unit("game").column_names()
    rec = np.asarray(GAME.simulate("game", v, table, 11, 0, 200))
    total = sum(rec[:, cols.index(f"bagouts_{s}")].sum() for s in range(3))
    assert total > 0
