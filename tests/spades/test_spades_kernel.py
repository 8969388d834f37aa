"""Variant validation, determinism, record sanity and referee re-checks of kernel traces."""
import dataclasses

import numpy as np
import pytest
from spades_util import table, variant

from simcards.core.errors import SimcardsError
from simcards.games.spades import GAME, rules
from simcards.games.spades.kernel import run_kernel
from simcards.games.spades.referee import check_trace
from simcards.games.spades.replay import traced_hands
from simcards.games.spades.variant import PRESETS, SpadesVariant

COL = {name: i for i, (name, _) in enumerate(rules.DEAL_COLUMNS)}
GCOL = {name: i for i, (name, _) in enumerate(rules.GAME_COLUMNS)}


def test_variant_defaults_match_rules_table():
    v = SpadesVariant()
    expected = dict(target_score=500, losing_score=None, nil_allowed=True, nil_value=100, blind_nil_allowed=True,
                    blind_nil_value=200, blind_nil_min_deficit=None, blind_nil_exchange_count=3,
                    nil_exchange_count=0, exchange_order="simultaneous", failed_nil_tricks="bags",
                    bag_mode="accumulate", bag_limit=10, bag_limit_penalty=100, bag_overflow="carry",
                    per_bag_penalty=10, bag_point_value=1, spades_must_be_broken=True,
                    first_lead="left_of_dealer", first_lead_card_forced=True, first_trick_trump_allowed=True,
                    min_team_bid=0, forbid_total_bids_13=False, ten_for_two_hundred=False,
                    ten_for_two_hundred_min_bid=10, ten_for_two_hundred_set_doubled=True, boston_bonus=0,
                    jokers=0, joker_removed_cards=("2C", "2D"), misdeal_condition="none",
                    misdeal_optional=False, match_wins=1, first_dealer="random", max_hands=1000)
    assert {f.name: getattr(v, f.name) for f in dataclasses.fields(v)} == expected


def test_presets():
    assert GAME.variant("classic_book").nil_exchange_count == 3
    club = GAME.variant("club_rules")
    assert (club.blind_nil_min_deficit, club.blind_nil_exchange_count, club.exchange_order) == (100, 2, "nil_first")
    online = GAME.variant("online_common")
    assert (online.losing_score, online.ten_for_two_hundred, online.first_lead) == (-200, True, "lowest_club")
    assert set(PRESETS) == {"standard", "classic_book", "club_rules", "online_common"}


@pytest.mark.parametrize("pair", ["jokers=1", "joker_removed_cards=2S 2D", "joker_removed_cards=2C",
                                  "losing_score=10", "blind_nil_exchange_count=5", "bag_point_value=2",
                                  "first_dealer=4", "exchange_order=sideways", "ten_for_two_hundred_min_bid=9",
                                  "min_team_bid=14", "bag_limit=0", "bogus=1"])
def test_bad_values_one_line_errors(pair):
    with pytest.raises(SimcardsError) as e:
        SpadesVariant.from_pairs([pair])
    assert "\n" not in str(e.value)


def test_determinism_whatever_the_chunking():
    t = table("basic", "random", "basic", "random")
    v = variant()
    whole = GAME.simulate("deal", v, t, 42, 0, 900)
    parts = np.vstack([GAME.simulate("deal", v, t, 42, a, b - a) for a, b in ((0, 1), (1, 300), (300, 900))])
    assert np.array_equal(whole, parts)
    g = GAME.simulate("game", v.replace(target_score=200), table("basic"), 3, 0, 40)
    g2 = np.vstack([GAME.simulate("game", v.replace(target_score=200), table("basic"), 3, a, 20) for a in (0, 20)])
    assert np.array_equal(g, g2)
    assert not np.array_equal(whole, GAME.simulate("deal", v, t, 43, 0, 900))


def test_same_deals_for_other_policies_and_house_rules():
    """Common random numbers: the deal of record i does not depend on policies or scoring rules."""
    from simcards.games.spades.kernel import run_kernel
    v = variant(first_dealer=0)
    _, a = run_kernel("deal", v, table("basic"), 5, 17, 1, trace=True)
    _, b = run_kernel("deal", v.replace(bag_limit=5, nil_value=50), table("random"), 5, 17, 1, trace=True)
    assert traced_hands(a)[0].hands == traced_hands(b)[0].hands


def test_deal_records_are_consistent():
    out = GAME.simulate("deal", variant(), table("basic"), 1, 0, 5000)
    tricks = out[:, COL["tricks0"]:COL["tricks0"] + 4]
    assert (tricks.sum(axis=1) == 13).all()
    assert (out[:, COL["score0"]] == out[:, COL["points0"]]).all()
    assert set(np.unique(out[:, COL["dealer"]])) == {0, 1, 2, 3}
    # basic never bids Nil; it makes most contracts but not all
    assert (out[:, COL["bid0"]:COL["bid0"] + 4] > 0).all()
    made = out[:, COL["made0"]]
    assert 0.3 < (made == 1).mean() < 0.99


def test_dealer_is_uniform_and_first_dealer_setting():
    out = GAME.simulate("deal", variant(), table("random"), 9, 0, 4000)
    counts = np.bincount(out[:, COL["dealer"]], minlength=4)
    # each count ~ Binomial(4000, 1/4): sd ~ 27; 5 sd tolerance
    assert (abs(counts - 1000) < 140).all()
    fixed = GAME.simulate("deal", variant(first_dealer=2), table("random"), 9, 0, 50)
    assert (fixed[:, COL["dealer"]] == 2).all()


CONFIGS = [
    ("standard", {}, ("basic",)),
    ("standard", {}, ("random",)),
    ("classic_book", {}, ("random", "basic", "random", "basic")),
    ("club_rules", {}, ("random",)),
    ("online_common", {}, ("basic", "random", "random", "basic")),
    (None, {"jokers": 2}, ("random",)),
    (None, {"jokers": 2, "joker_removed_cards": "2H 2D", "first_lead": "lowest_club"}, ("basic", "random")),
    (None, {"first_lead": "lowest_club", "first_lead_card_forced": False}, ("random",)),
    (None, {"min_team_bid": 4, "forbid_total_bids_13": True}, ("random",)),
    (None, {"spades_must_be_broken": False, "first_trick_trump_allowed": False}, ("random",)),
    (None, {"exchange_order": "partner_first", "nil_exchange_count": 2}, ("random",)),
    (None, {"misdeal_condition": "at_most_one_spade", "misdeal_optional": True}, ("random",)),
    (None, {"misdeal_condition": "no_face_cards"}, ("basic",)),
    (None, {"bag_mode": "per_bag", "failed_nil_tricks": "partner", "boston_bonus": 200}, ("random",)),
    (None, {"bag_overflow": "reset", "bag_limit": 5, "failed_nil_tricks": "ignored"}, ("random",)),
]


@pytest.mark.parametrize("preset,settings,policies", CONFIGS)
def test_referee_rechecks_kernel_traces(preset, settings, policies):
    """The plain-Python referee replays 25 traced deals per configuration (375 in all)."""
    v = GAME.variant(preset, settings)
    t = table(*policies)
    for i in range(25):
        out, events = run_kernel("deal", v, t, 1000 + len(settings), 7 * i, 1, trace=True)
        check_trace(v, traced_hands(events)[0], out[0])


@pytest.mark.parametrize("preset,settings,policies", [
    ("standard", {"target_score": 300}, ("basic",)),
    ("online_common", {}, ("basic", "random")),
    ("club_rules", {"target_score": 250, "match_wins": 2}, ("basic",)),
])
def test_referee_rechecks_game_traces(preset, settings, policies):
    """Every hand of traced games: moves, scores carried from hand to hand, dealer rotation, end rule."""
    v = GAME.variant(preset, settings)
    for index in range(3):
        out, events = run_kernel("game", v, table(*policies), 77, index, 1, trace=True)
        trace = traced_hands(events)
        rec = out[0]
        hands = int(rec[GCOL["hands"]])
        assert 1 <= hands <= 400 and len(trace) == hands
        prev = None
        for h in range(hands):
            row = check_trace(v, trace[h])
            if prev is not None:
                assert trace[h].dealer == (trace[h - 1].dealer + 1) % 4
                if trace[h].hands_before > 0:
                    assert trace[h].scores[0] == prev[COL["score0"]]
                    assert trace[h].bags[1] == prev[COL["bag_count1"]]
            if v.bag_mode == "accumulate" and v.bag_limit == 10 and v.bag_overflow == "carry":
                for team in (0, 1):  # invariant 19 (every amount but bags is a multiple of 10)
                    assert row[COL[f"score{team}"]] % 10 == row[COL[f"bag_count{team}"]]
            prev = row
        s0, s1 = rec[GCOL["score0"]], rec[GCOL["score1"]]
        assert (s0, s1) == (prev[COL["score0"]], prev[COL["score1"]])
        if rec[GCOL["winner"]] >= 0:
            w = rec[GCOL["winner"]]
            assert (s0, s1)[w] > (s0, s1)[1 - w]
            assert max(s0, s1) >= v.target_score or (v.losing_score is not None and min(s0, s1) <= v.losing_score)
            assert rec[GCOL["games_won0"] + w] == v.match_wins


def test_illegal_policy_answer_is_a_one_line_error(tmp_path):
    bad = tmp_path / "bad_bots.py"
    bad.write_text("from simcards.core.policy import Policy\n"
                   "from simcards.games.spades.policies import BASIC\n"
                   "def play(view, rng):\n    return 60\n"
                   "bad = Policy('bad', base=BASIC, play=play)\n")
    t = GAME.policies.table(["basic", f"{bad}:bad"])
    with pytest.raises(SimcardsError, match=r"spades: seat 1 \(policy .*:bad\): play returned 60, which is not legal"):
        GAME.simulate("deal", variant(), t, 1, 0, 10)


def test_policies_cannot_tamper_with_the_kernel_through_the_view():
    """Bids, scores and tricks are kept by the kernel; the view is only the policies' copy."""
    import os
    probe = os.path.join(os.path.dirname(__file__), "spades_probe_bots.py") + ":vandal"
    v = variant(blind_nil_min_deficit=100)
    honest = GAME.simulate("deal", v, table("basic"), 12, 0, 500)
    vandal = GAME.simulate("deal", v, GAME.policies.table([probe, "basic"]), 12, 0, 500)
    assert np.array_equal(honest, vandal)


def _dealt(v, pols, seed, index):
    out, events = run_kernel("deal", v, table(*pols), seed, index, 1, trace=True)
    return out[0], traced_hands(events)[0]


def test_automatic_misdeal_redeals_until_no_hand_qualifies():
    from simcards.games.spades.referee import deficient
    from simcards.core.cards import cards_of
    v = variant(misdeal_condition="at_most_one_spade")
    redeals = 0
    for i in range(200):
        rec, t = _dealt(v, ("basic",), 21, i)
        hands = [set(cards_of(t.hands[s])) for s in range(4)]
        assert not any(deficient(h, "at_most_one_spade") for h in hands)
        redeals += rec[COL["redeals"]]
    # P(some seat holds at most one spade) is about 0.2, so redeals are common but not the rule
    assert 10 < redeals < 150


def test_optional_misdeal_seats_that_looked_are_not_offered_blind_nil():
    """The probe bids BN whenever offered and never calls a misdeal (basic's misdeal is
    replaced by 'no'): qualifying seats looked at their cards and bid normally."""
    import os
    from simcards.games.spades.referee import deficient
    from simcards.core.cards import cards_of
    probe = os.path.join(os.path.dirname(__file__), "spades_probe_bots.py") + ":probe_keep"
    v = variant(misdeal_condition="at_most_one_spade", misdeal_optional=True)
    t = GAME.policies.table([probe])
    seen_looked = 0
    for i in range(100):
        out, events = run_kernel("deal", v, t, 4, i, 1, trace=True)
        hand = traced_hands(events)[0]
        assert out[0][COL["redeals"]] == 0
        for s in range(4):
            looked = deficient(set(cards_of(hand.hands[s])), "at_most_one_spade")
            assert hand.blinds[s] == (0 if looked else 1)
            seen_looked += looked
    assert seen_looked > 0


def test_kernels_free_what_they_allocate_and_allocate_per_chunk_only():
    """Borrowed views must not leak or free early: allocations balance, and their number
    does not grow with the number of records (nothing allocated per hand)."""
    from numba.core.runtime import _nrt_python, rtsys
    t = table("expert", "basic")
    v = variant()
    GAME.simulate("deal", v, t, 1, 0, 5)
    was_enabled = _nrt_python.memsys_stats_enabled()
    _nrt_python.memsys_enable_stats()
    try:
        counts = []
        for n in (10, 5000):
            a = rtsys.get_allocation_stats()
            GAME.simulate("deal", v, t, 1, 0, n)
            GAME.simulate("game", v, t, 1, 0, n // 100 + 1)
            b = rtsys.get_allocation_stats()
            assert b.alloc - a.alloc == b.free - a.free
            counts.append(b.alloc - a.alloc)
        assert counts[0] == counts[1]
    finally:
        if not was_enabled:
            _nrt_python.memsys_disable_stats()


def test_the_view_logs_the_plays_in_order():
    """A probe that plays basic's card checks the view's V_HISTORY at every decision (it
    answers an illegal card when the log disagrees), and its records are basic's."""
    import os
    probe = os.path.join(os.path.dirname(__file__), "spades_probe_bots.py") + ":historian"
    v = variant()
    honest = GAME.simulate("deal", v, table("basic"), 5, 0, 200)
    logged = GAME.simulate("deal", v, GAME.policies.table([probe]), 5, 0, 200)
    assert np.array_equal(honest, logged)
