"""The plain-Python referee re-checks kernel traces: 300+ records across forms, presets, policies."""
import itertools

import pytest

from simcards.games.cutthroat import referee, rules
from simcards.games.cutthroat.policies import CATALOG
from simcards.games.cutthroat.variant import PRESETS, CutthroatVariant

FORMS = [(3, 0), (4, 0), (5, 0), (5, 2), (5, 3)]
POLICIES = ["random", "basic", "expert"]


def make(form, preset="official", **changes):
    n, j = form
    return CutthroatVariant.from_mapping({**PRESETS[preset], "num_players": n, "jokers": j, **changes})


@pytest.mark.parametrize("form, preset, policy", list(itertools.product(FORMS, PRESETS, POLICIES)))
def test_referee_deals(form, preset, policy):
    """60 configurations x 5 deals = 300 hands checked move by move."""
    v = make(form, preset)
    table = CATALOG.table([policy] * v.num_players)
    for index in range(5):
        _, trace = rules.trace_record("deal", v, table, 100 + len(preset), index)
        summary = referee.check_trace(trace, v, "deal")
        assert summary["hands"] == 1


# house rules that change legal moves, bids or deals, each in a full game
RULE_CASES = [
    dict(spades_must_be_broken=False),
    dict(first_trick_trump_allowed=False),
    dict(forbid_total_bids_equal_tricks=True),
    dict(first_lead="lowest_club", first_lead_card_forced=False),
    dict(first_lead="left_of_dealer"),
    dict(misdeal_condition="at_most_one_spade"),
    dict(misdeal_condition="no_face_cards", misdeal_optional=True),
    dict(misdeal_condition="no_spades", misdeal_optional=True),
    dict(blind_six_min_deficit=0, blind_nil_min_deficit=100, blind_six_tricks=4),
    dict(bag_mode="none", failed_nil_tricks_as_bags=False, bag_point_value=0),
    dict(bag_out_penalty="fixed_carry", bag_limit=3, shoot_moon_overtricks_score=True),
    dict(shoot_moon_allowed=False, one_for_fifty_allowed=False, two_for_forty_allowed=False, nil_allowed=False),
    dict(shoot_moon_min_tricks=5, max_ordinary_bid=9, first_dealer=1),
]


@pytest.mark.parametrize("case", range(len(RULE_CASES)))
@pytest.mark.parametrize("form", [(3, 0), (4, 0), (5, 2)])
def test_referee_games_under_house_rules(case, form):
    v = make(form, "long_three_jacks" if case % 2 else "short_bag5", target_score=200, **RULE_CASES[case])
    policies = ["expert", "random", "basic", "expert", "random"][: v.num_players]
    table = CATALOG.table(policies)
    _, trace = rules.trace_record("game", v, table, 7, case)
    summary = referee.check_trace(trace, v, "game")
    assert len(summary["games"]) == 1


@pytest.mark.parametrize("policy", ["expert", "random"])
def test_referee_tournament(policy):
    v = make((3, 0), "short_per_bag", target_score=120, tournament_wins=2)
    table = CATALOG.table([policy] * 3)
    row, trace = rules.trace_record("tournament", v, table, 3, 1)
    summary = referee.check_trace(trace, v, "tournament")
    winner, games, tokens = summary["tournament"]
    cols = rules.TOURNAMENT_COLUMNS
    assert row[cols.index("winner")] == winner and row[cols.index("games")] == games
    assert [row[cols.index(f"tokens_{s}")] for s in range(3)] == tokens


def test_referee_catches_a_wrong_score():
    """The referee is not a rubber stamp: a tampered delta is reported."""
    v = CutthroatVariant()
    table = CATALOG.table(["basic"] * 3)
    _, trace = rules.trace_record("deal", v, table, 1, 0)
    bad = list(trace)
    i = next(k for k, ev in enumerate(bad) if ev.kind == "score")
    bad[i] = bad[i]._replace(delta=bad[i].delta + 1)
    with pytest.raises(referee.RefereeError):
        referee.check_trace(bad, v, "deal")
    bad = list(trace)
    i = next(k for k, ev in enumerate(bad) if ev.kind == "trick")
    bad[i] = bad[i]._replace(winner=(bad[i].winner + 1) % 3)
    with pytest.raises(referee.RefereeError):
        referee.check_trace(bad, v, "deal")


def test_differential_entry_point():
    """score_hand plays a hand from explicit hands, bids and plays (3 players, 17 tricks)."""
    v = CutthroatVariant()
    suits = "SHDC"
    ranks = "23456789TJQKA"
    # A holds all spades and 4 hearts; B hearts and diamonds; C the rest
    a = [r + "S" for r in ranks] + ["2H", "3H", "4H", "5H"]
    b = [r + "H" for r in ranks[4:]] + [r + "D" for r in ranks[:8]]
    c = [r + "D" for r in ranks[8:]] + [r + "C" for r in ranks[1:]]
    hands = [a, b, c]
    assert len(set(a + b + c)) == 51
    # dealer C (2): A leads. A leads hearts, then trumps.
    plays = []
    res = None
    # build plays greedily with the referee's own legal moves: lowest legal card each time
    from simcards.games.cutthroat.referee import legal_cards, trick_winner, rank_value
    held = [set(h) for h in hands]
    leader, broken = 0, False
    for number in range(1, 18):
        trick = []
        for i in range(3):
            s = (leader + i) % 3
            legal = legal_cards(v, held[s], [x for _, x in trick], number, broken, None)
            card = min(legal, key=lambda x: (rank_value(x), x))  # ties: hearts before spades
            held[s].remove(card)
            broken |= card[-1] == "S"
            trick.append((s, card))
            plays.append(card)
        leader = trick_winner(trick)
    res = referee.score_hand(v, hands, 2, ["SM", "NIL", "3"], plays)
    # A's four low hearts lose to B's hearts; every other trick falls to A's spades
    assert res.tricks == [13, 4, 0]
    assert res.captured[0] == {"JD", "JC"}
    # A: failed SM -150 + two prize jacks; B: failed Nil -100 + 4 bags; C: set 3
    assert res.deltas == [-130, -96, -30] and res.bags_after == [0, 4, 0]
    with pytest.raises(referee.RefereeError):
        referee.score_hand(v, hands, 2, ["SM", "NIL", "3"], [plays[1], plays[0]] + plays[2:])
