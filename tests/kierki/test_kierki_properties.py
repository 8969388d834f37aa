"""Section 8 invariants as hypothesis properties; the referee re-checks kernel traces."""
import threading

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from kierki_helpers import TABLES, traced_game, variant
from simcards.core.cards import format_card
from simcards.core.rng import shuffle, stream_start
from simcards.games.kierki import referee as REF
from simcards.games.kierki import rules as R
from simcards.games.kierki.variant import DEAL_TYPES, NEGATIVE, nominal_deal_total, nominal_game_total, schedule

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

variant_settings = st.fixed_dictionaries({
    "preset": st.sampled_from(["standard", "standard", "lottery_x4", "no_robber_trumps", "no_robber_lottery",
                               "trump_left_full_hand", "long_cycled"]),
    "first_dealer": st.sampled_from([None, 0, 1, 2, 3]),
    "heart_lead_rule": st.sampled_from(["only_hearts_left", "until_broken", "unrestricted"]),
    "heart_lead_restricted_deals": st.sampled_from([("no_hearts", "no_king_of_hearts", "robber"),
                                                    ("no_tricks", "no_hearts", "no_king_of_hearts", "robber"), ()]),
    "king_of_hearts_forced": st.sampled_from(["off", "when_void", "when_void_or_beaten"]),
    "early_stop": st.booleans(),
    "trump_choice_cards": st.sampled_from([0, 5, 13]),
    "trump_obligation": st.sampled_from(["none", "must_trump", "must_overtrump"]),
    "trump_leader": st.sampled_from(["dealer", "left_of_dealer"]),
    "lottery_first_player": st.sampled_from(["dealer", "left_of_dealer"]),
    "lottery_ace": st.sampled_from(["low", "high"]),
})
lottery_forms = st.sampled_from([{}, {"lottery_base_rank": "8"}, {"lottery_base_rank": "first_card"},
                                 {"lottery_opening_card": "7D"}, {"lottery_opening_card": "7H"},
                                 {"lottery_awards": (700, 400, 200), "require_balanced": False}])
trump_forms = st.sampled_from([{}, {"allow_no_trump": True}, {"trump_suits_distinct": True},
                               {"seventh_last_tricks": (12, 13)}])
policies = st.sampled_from(["random", "basic", "expert"])


def build(settings_, lot, tf):
    s = {**settings_, **lot, **tf}
    if s.get("preset") == "long_cycled":  # keep examples quick
        s["preset"] = "standard"
        s["deal_ordering"] = "cycled"
        s["deal_type_repetitions"] = 2
    return variant(**s)


def check_game(v, policy, seed, index):
    rec, events = traced_game(v, TABLES[policy], seed, index)
    d0 = int(rec[R.G_FIRST_DEALER])
    per_deal = REF.check_trace(events, v, first_dealer=d0)
    sched = schedule(v)
    totals = np.sum(per_deal, axis=0)
    assert list(rec[R.G_TOTAL:R.G_TOTAL + 4]) == list(totals)
    assert totals.sum() == nominal_game_total(v)  # invariant 13
    for (deal, _), scores in zip(sched, per_deal):
        assert sum(scores) == nominal_deal_total(v, deal)  # invariant 10
        assert all(x % 5 == 0 for x in scores)  # invariant 14
        if deal == "lottery":
            assert sorted(scores, reverse=True)[:len(v.lottery_awards)] == sorted(v.lottery_awards, reverse=True)
        elif deal == "trumps":
            assert all(x % v.points_per_trump_trick == 0 for x in scores if v.points_per_trump_trick)
        else:
            assert all(x <= 0 for x in scores)
    return rec, events


@SETTINGS
@given(variant_settings, lottery_forms, trump_forms, policies, st.integers(0, 2**32), st.integers(0, 10**6))
def test_referee_rechecks_random_configurations(s, lot, tf, policy, seed, index):
    v = build(s, lot, tf)
    rec, events = check_game(v, policy, seed, index)
    _check_play_soundness(events, v)
    _check_trump_sees_first_cards(events, v, seed, index)


def _check_play_soundness(events, v):
    """Invariants 6, 7 and 9 read straight off the trace."""
    hands, deal, trick, n_tricks = None, None, [], 0
    for e in events:
        if e[0] == R.EV_DEAL:
            deal, hands, n_tricks = DEAL_TYPES[e[2]], [], 0
        elif e[0] == R.EV_HAND:
            hands.append(REF.hand_names(int(e[2])))
        elif e[0] == R.EV_PLAY and deal != "lottery":
            seat, c = e[1], format_card(e[2])
            if trick:
                led = trick[0][1]
                if any(x[1] == led for x in hands[seat]):
                    assert c[1] == led  # follow-suit soundness
            elif (deal in v.heart_lead_restricted_deals and v.heart_lead_rule == "only_hearts_left"
                  and c[1] == "H"):
                assert all(x[1] == "H" for x in hands[seat])  # lead soundness
            hands[seat].discard(c)
            trick.append(c)
        elif e[0] == R.EV_TRICK:
            trick, n_tricks = [], n_tricks + 1
        elif e[0] == R.EV_SCORE and deal != "lottery":
            assert n_tricks == 13 or (v.early_stop and deal in ("no_hearts", "no_queens", "no_jacks_kings",
                                                                "no_king_of_hearts"))


def _check_trump_sees_first_cards(events, v, seed, index):
    """Invariant 16: the trump decision sees exactly the first cards dealt to the chooser."""
    for e in events:
        if e[0] == R.EV_DEAL:
            deal_no, dealer = int(e[1]), int(e[3])
        if e[0] == R.EV_TRUMP:
            st_ = np.zeros(1, np.uint64)
            st_[0] = stream_start(np.uint64(seed), np.uint64(index), np.uint64(4 * (deal_no - 1)))
            deck = np.arange(52, dtype=np.int64)
            shuffle(deck, st_)
            chooser = int(e[1])
            mine = [int(deck[i]) for i in range(52) if (dealer + 1 + i) % 4 == chooser]
            expect = sum(1 << c for c in mine[:v.trump_choice_cards])
            assert int(e[3]) == expect


@SETTINGS
@given(st.sampled_from(["standard", "lottery_x4", "long_blocked"]), policies, st.integers(0, 2**32))
def test_early_stop_never_changes_scores(preset, policy, seed):
    a = variant(preset=preset, early_stop=False)
    b = variant(preset=preset, early_stop=True)
    ra = R.run_records("game", a, TABLES[policy], seed, 0, 40)
    rb = R.run_records("game", b, TABLES[policy], seed, 0, 40)
    assert np.array_equal(ra[:, :R.G_TRICKS_PLAYED], rb[:, :R.G_TRICKS_PLAYED])
    assert (rb[:, R.G_TRICKS_PLAYED] <= ra[:, R.G_TRICKS_PLAYED]).all()
    assert (rb[:, R.G_TRICKS_PLAYED] < ra[:, R.G_TRICKS_PLAYED]).any()
    for dt in ("no_hearts", "no_queens", "robber", "no_king_of_hearts"):
        da = R.run_records("deal", a.replace(deal_type=dt), TABLES[policy], seed, 0, 40)
        db = R.run_records("deal", b.replace(deal_type=dt), TABLES[policy], seed, 0, 40)
        assert np.array_equal(da[:, R.R_SCORE:R.R_SCORE + 4], db[:, R.R_SCORE:R.R_SCORE + 4])


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 3), st.sampled_from(["standard", "long_blocked", "long_cycled", "lottery_x4"]))
def test_schedules(d0, preset):
    v = variant(preset=preset)
    sched = [(t, (d0 + off) % 4) for t, off in schedule(v)]
    assert sched == REF.build_schedule(v, d0)
    dealers = [d for _, d in sched]
    if preset == "standard":  # invariant 2
        assert len(sched) == 12 and dealers == [(d0 + k) % 4 for k in range(12)]
        assert all(dealers.count(s) == 3 for s in range(4))
        assert len({d for t, d in sched if t == "trumps"}) == 4
    if preset == "long_blocked":  # invariant 3
        for t in NEGATIVE:
            ds = [d for tt, d in sched if tt == t]
            assert sorted(ds) == [0, 1, 2, 3] and sorted((d + 1) % 4 for d in ds) == [0, 1, 2, 3]
        assert all([d for t, d in sched if t == "trumps"].count(s) == 4 for s in range(4))
        assert sorted(d for t, d in sched if t == "lottery") == [0, 1, 2, 3]
    if preset == "long_cycled":
        for pos in range(12):
            assert sorted(sched[12 * c + pos][1] for c in range(4)) == [0, 1, 2, 3]
    assert sched[-1][0] == "lottery"  # invariant 4 (the game ends with its last lottery)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(list(DEAL_TYPES)), policies, st.integers(0, 2**32))
def test_single_deals_per_player_sets_and_robber_decomposition(dt, policy, seed):
    v = variant(deal_type=dt)
    for index in range(3):
        rec, events = traced_game(v, TABLES[policy], seed, index, unit="deal")
        (scores,) = REF.check_trace(events, v, deal_types=[dt])
        assert list(rec[R.R_SCORE:R.R_SCORE + 4]) == scores
        allowed = {"no_tricks": range(0, -261, -20), "no_hearts": range(0, -261, -20),
                   "no_queens": range(0, -241, -60), "no_jacks_kings": range(0, -241, -30),
                   "no_king_of_hearts": (0, -150), "no_seventh_and_last": (0, -75, -150),
                   "trumps": range(0, 326, 25), "lottery": (0, 500, 800)}
        if dt in allowed:
            assert all(x in allowed[dt] for x in scores)  # invariant 11
        if dt == "no_king_of_hearts":
            assert sorted(scores) == [-150, 0, 0, 0]
        if dt == "robber":  # invariant 12
            parts = [0] * 4
            trick = []
            for e in events:
                if e[0] == R.EV_PLAY:
                    trick.append(format_card(e[2]))
                elif e[0] == R.EV_TRICK:
                    for comp in NEGATIVE[:-1]:
                        parts[e[2]] += REF.trick_charge(comp, trick, int(e[1]), v)
                    trick = []
            assert parts == scores


def test_determinism_whatever_the_chunking():
    v = variant()
    whole = R.run_records("game", v, TABLES["random"], 11, 100, 60)
    parts = np.vstack([R.run_records("game", v, TABLES["random"], 11, 100 + a, b - a)
                       for a, b in ((0, 7), (7, 31), (31, 60))])
    assert np.array_equal(whole, parts)
    out = [None, None]

    def work(i):
        out[i] = R.run_records("game", v, TABLES["random"], 11, 100 + 30 * i, 30)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert np.array_equal(np.vstack(out), whole)
    other = R.run_records("game", v, TABLES["random"], 12, 100, 60)
    assert not np.array_equal(other, whole)


def test_referee_sampled_standard_games():
    """A few hundred sampled records of the default game, every policy."""
    v = variant()
    for policy in ("random", "basic", "expert"):
        for index in range(0, 100 * 37, 37):
            rec, _ = check_game(v, policy, 2024, index)
            # the two halves: -2600 in the negative deals, +2600 in trumps and lottery
            assert rec[R.G_NEG:R.G_NEG + 4].sum() == -2600
            assert rec[R.G_TRUMPS:R.G_TRUMPS + 4].sum() + rec[R.G_LOTTERY:R.G_LOTTERY + 4].sum() == 2600
            assert (rec[R.G_NEG:R.G_NEG + 4] <= 0).all() and (rec[R.G_TOTAL:R.G_TOTAL + 4] <= 2100).all()


@pytest.mark.parametrize("policy", ["random", "basic", "expert"])
def test_long_blocked_game(policy):
    v = variant(preset="long_blocked")
    rec, _ = check_game(v, policy, 3, 1)
    assert rec[R.G_COUNT + DEAL_TYPES.index("trumps")] == 16
    assert rec[R.G_COUNT + DEAL_TYPES.index("lottery")] == 4


def test_referee_catches_tampered_traces():
    v = variant(first_dealer=0)
    _, events = traced_game(v, TABLES["basic"], 4, 2)
    REF.check_trace(events, v, first_dealer=0)
    plays = [i for i, e in enumerate(events) if e[0] == R.EV_PLAY]
    tricks = [i for i, e in enumerate(events) if e[0] == R.EV_TRICK]
    for i, col, delta in ((plays[5], 2, 1), (tricks[3], 3, -5), (tricks[20], 2, 1), (0, 3, 1)):
        bad = events.copy()
        bad[i, col] = (bad[i, col] + delta) % 4 if col == 2 and bad[i, 0] == R.EV_TRICK else bad[i, col] + delta
        with pytest.raises(REF.RefereeError):
            REF.check_trace(bad, v, first_dealer=0)
    with pytest.raises(REF.RefereeError):
        REF.check_trace(events, v, first_dealer=1)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 3), st.integers(0, 3), st.integers(0, 13))
def test_dealing_around_known_cards(seed, dealer, seat, n_known):
    rng = np.zeros(1, np.uint64)
    rng[0] = stream_start(np.uint64(seed), np.uint64(0), np.uint64(0))
    pick = np.random.default_rng(seed).choice(52, n_known, replace=False)
    known = np.uint64(sum(1 << int(c) for c in pick))
    deck = np.zeros(52, np.int64)
    hands = np.zeros(4, np.uint64)
    R.deal_with_known(deck, rng, dealer, seat, known, hands)
    assert sorted(deck) == list(range(52))
    assert int(hands[seat]) & int(known) == int(known)
    assert [bin(int(h)).count("1") for h in hands] == [13] * 4
    first = R.first_cards(deck, dealer, seat, n_known)
    assert first == known
    if n_known == 0:
        rng[0] = stream_start(np.uint64(seed), np.uint64(0), np.uint64(0))
        deck2, hands2 = np.zeros(52, np.int64), np.zeros(4, np.uint64)
        R.deal_hands(deck2, rng, dealer, hands2)
        assert np.array_equal(deck, deck2)


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(list(DEAL_TYPES[:8])), st.sampled_from(["basic", "expert"]), st.integers(0, 2**32))
def test_rotating_seats_rotates_scores(dt, policy, seed):
    """Invariant 22 for the deterministic built-ins: hands and dealer rotated together."""
    tab = R.kernel_tables(variant())
    rng = np.zeros(1, np.uint64)
    rng[0] = stream_start(np.uint64(seed), np.uint64(1), np.uint64(0))
    deck, hands = np.zeros(52, np.int64), np.zeros(4, np.uint64)
    R.deal_hands(deck, rng, 0, hands)
    code = DEAL_TYPES.index(dt)
    trump = -1 if dt != "trumps" else int(seed % 4)
    results = []
    for r in range(4):
        rotated = np.array([hands[(s - r) % 4] for s in range(4)], np.uint64)
        res = np.zeros(R.RES_LEN, np.int64)
        leader = (r + (0 if dt == "trumps" else 1)) % 4
        R.play_given_hands(tab, R.seats(TABLES[policy]), code, r, leader, trump,
                           rotated, res, R.NO_SCRIPT, R.NO_TRACE)
        results.append(res[R.R_SCORE:R.R_SCORE + 4])
    for r in range(4):
        assert [results[r][(s + r) % 4] for s in range(4)] == list(results[0])


def test_dealing_is_uniform_statistically():
    """7s per hand follow the hypergeometric law; random first dealers are uniform (4 SE tolerance)."""
    from math import comb

    v = variant(deal_type="lottery")
    recs = R.run_records("deal", v, TABLES["random"], 77, 0, 20000)
    sevens = recs[:, R.R_SEVENS:R.R_SEVENS + 4]
    assert (sevens.sum(axis=1) == 4).all()
    x = sevens.ravel()
    for k in range(5):
        p = comb(4, k) * comb(48, 13 - k) / comb(52, 13)
        se = np.sqrt(p * (1 - p) / len(x)) * 2  # the four hands of a deal are dependent: be generous
        assert abs((x == k).mean() - p) < 4 * se
    dealers = recs[:, R.R_DEALER]
    for s in range(4):
        assert abs((dealers == s).mean() - 0.25) < 4 * np.sqrt(0.25 * 0.75 / len(dealers))
