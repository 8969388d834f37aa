"""Invariants of section 7 as property tests, the solver oracle, determinism."""
import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from simcards.games.contract_rummy import melds as M
from simcards.games.contract_rummy import rules as R
from simcards.games.contract_rummy.policies import CATALOG
from simcards.games.contract_rummy.referee import check_trace
from simcards.games.contract_rummy.sim import run_chunk, variant_config
from simcards.games.contract_rummy.variant import ContractRummyVariant as V


@pytest.fixture(scope="module")
def tables():
    return {name: CATALOG.table([name]) for name in ("random", "basic", "expert")}


variant_settings = st.fixed_dictionaries({
    "num_players": st.sampled_from([3, 4, 5, 6]),
    "min_run_length": st.sampled_from([3, 4]),
    "ace_mode": st.sampled_from(["both", "low", "high", "wrap"]),
    "contract_runs_suits": st.sampled_from(["distinct", "not_all_same", "non_contiguous", "any"]),
    "go_out_discard": st.sampled_from(["optional", "required", "forbidden"]),
    "final_deal_all_at_once": st.booleans(),
    "extra_melds_after_contract": st.booleans(),
    "layoff_same_turn_as_contract": st.booleans(),
    "no_return_discard": st.booleans(),
    "deep_take_target_use": st.sampled_from(["meld_or_layoff", "meld_only"]),
    "buying_enabled": st.booleans(),
    "joker_swap_scope": st.sampled_from(["any", "others_only"]),
    "joker_swap_from_sets": st.booleans(),
    "stock_exhaustion": st.sampled_from(["reshuffle", "end_deal"]),
    "max_jokers_per_meld": st.sampled_from([None, 1]),
    "num_jokers": st.sampled_from(["auto", "2"]),
})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(settings_=variant_settings, seed=st.integers(0, 2**32), policy=st.sampled_from(["random", "basic", "expert"]))
def test_invariants_hold_on_random_games(tables, settings_, seed, policy):
    """Invariants 1-21 (referee, move by move) plus the record-level ones."""
    v = V(max_turns_per_deal=40, **settings_)
    out, tr = run_chunk("game", v, tables[policy], seed, 0, 1, trace_rows=300_000)
    assert check_trace(tr, v) == []
    row = out[0]
    n = v.num_players
    totals = np.zeros(n, np.int64)
    first = row[3]
    deals = [ev for ev in tr if ev.kind == "deal"]
    assert len(deals) == len(v.contracts)  # invariant 19: number of deals
    for k in range(len(v.contracts)):
        assert deals[k].dealer == (first + k) % n  # invariant 20: dealer rotation
        base = R.GAME_HEAD + k * R.GAME_PER_DEAL
        scores = row[base + 3: base + 3 + n]
        assert (scores >= 0).all()  # invariant 18
        out_seat = row[base + 2]
        assert row[base] <= v.max_turns_per_deal  # invariant 17
        if out_seat >= 0:
            assert scores[out_seat] == 0 and row[base + 1] == 0
            assert all(scores[q] >= 2 for q in range(n) if q != out_seat)
        else:
            assert row[base + 1] == 1
        new = totals + scores
        assert (new >= totals).all()  # invariant 19: totals never decrease
        totals = new
    assert list(row[6:6 + n]) == list(totals)


# ------------------------------------------------------------------ solver oracle (invariants 22, 23)


def brute_force(cnt, S, R_, v):
    """Can S sets and R runs be laid from cnt? Enumerates explicit melds (sets of any size,
    runs up to min_run_length + 2 long) and searches disjoint combinations."""
    J = int(cnt[M.JOKER])
    maxj = v.max_jokers_per_meld if v.max_jokers_per_meld is not None else 99
    L = v.min_run_length
    nat_need = v.min_naturals_per_meld
    melds = []  # (kind, key, usage tuple of (type, k), jokers, extra) ; extra = (lo, hi) for runs
    for r in range(13):
        suits = [s for s in range(4) if cnt[s * 13 + r] > 0]
        for k in range(1, len(suits) + 1):
            for chosen in itertools.combinations(suits, k):
                for j in range(0, 5):
                    size = k + j
                    if not v.min_set_size <= size <= v.max_set_size or size > 4 or j > maxj or k < nat_need:
                        continue
                    melds.append(("set", r, tuple((s * 13 + r, 1) for s in chosen), j, None))
    if v.ace_mode == "wrap":
        spans = [(lo, lo + ln - 1) for lo in range(13) for ln in range(L, min(13, L + 2) + 1)]
        prank = lambda p: p % 13  # noqa: E731
    else:
        lo_b, hi_b = {"low": (1, 13), "high": (2, 14), "both": (1, 14)}[v.ace_mode]
        spans = [(lo, lo + ln - 1) for lo in range(lo_b, hi_b + 1) for ln in range(L, L + 3) if lo + ln - 1 <= hi_b]
        prank = lambda p: 12 if p in (1, 14) else p - 2  # noqa: E731
    for s in range(4):
        for lo, hi in spans:
            types = [s * 13 + prank(p) for p in range(lo, hi + 1)]
            avail = [t for t in types if cnt[t] > 0]
            for k in range(len(avail) + 1):
                for nat in itertools.combinations(range(len(types)), k):
                    if any(cnt[types[i]] == 0 for i in nat):
                        continue
                    j = len(types) - k
                    if k < nat_need or j > maxj:
                        continue
                    melds.append(("run", s, tuple((types[i], 1) for i in nat), j, (lo, hi)))
    sets = [m for m in melds if m[0] == "set"]
    runs = [m for m in melds if m[0] == "run"]

    def runs_ok(rs):
        suits = [m[1] for m in rs]
        rule = v.contract_runs_suits
        if rule == "distinct":
            return len(set(suits)) == len(suits)
        if rule == "not_all_same":
            return len(rs) < 2 or len(set(suits)) > 1
        if rule == "non_contiguous":
            for a, b in itertools.combinations(rs, 2):
                if a[1] != b[1]:
                    continue
                if v.ace_mode == "wrap":
                    pa = {p % 13 for p in range(a[4][0], a[4][1] + 1)}
                    pb = {p % 13 for p in range(b[4][0], b[4][1] + 1)}
                    grown = pa | {(p + 1) % 13 for p in pa} | {(p - 1) % 13 for p in pa}
                    if grown & pb:
                        return False
                elif not (a[4][1] + 1 < b[4][0] or b[4][1] + 1 < a[4][0]):
                    return False
        return True

    for rs in itertools.combinations_with_replacement(runs, R_):
        if not runs_ok(rs):
            continue
        use = np.zeros(M.NT, np.int64)
        for m in rs:
            for t, k in m[2]:
                use[t] += k
            use[M.JOKER] += m[3]
        if (use > cnt).any():
            continue
        for ss in itertools.combinations_with_replacement(sets, S):
            if v.contract_sets_distinct_ranks and len({m[1] for m in ss}) < S:
                continue
            u2 = use.copy()
            for m in ss:
                for t, k in m[2]:
                    u2[t] += k
                u2[M.JOKER] += m[3]
            if not (u2 > cnt).any():
                return True
    return False


hands = st.lists(st.integers(0, 51), min_size=4, max_size=11)


@settings(max_examples=120, deadline=None)
@given(cards=hands, jokers=st.integers(0, 2),
       contract=st.sampled_from([(2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3)]),
       flags=st.fixed_dictionaries({
           "contract_runs_suits": st.sampled_from(["distinct", "not_all_same", "non_contiguous", "any"]),
           "ace_mode": st.sampled_from(["both", "low", "high", "wrap"]),
           "max_jokers_per_meld": st.sampled_from([None, 1]),
           "min_naturals_per_meld": st.sampled_from([1, 2]),
           "contract_sets_distinct_ranks": st.booleans(),
       }))
def test_solver_agrees_with_brute_force(cards, jokers, contract, flags):
    """Invariant 23 (one deck: each card at most once)."""
    v = V(**flags)
    cfg = variant_config(v)
    cnt = np.zeros(M.NT, np.int64)
    for c in set(cards):
        cnt[c] = 1
    cnt[M.JOKER] = jokers
    S, R_ = contract
    sol = np.zeros((16, M.MF), np.int64)
    fast = M.find_contract(cnt, S, R_, cfg, jokers, -1, True, sol) >= 0
    assert fast == brute_force(cnt, S, R_, v)
    if fast:  # the solution itself is made of valid melds from the hand
        use = np.zeros(M.NT, np.int64)
        for i in range(S + R_):
            m = sol[i]
            assert M.meld_valid(cfg, m)
            if m[M.M_KIND] == M.RUN:
                for p in range(m[M.M_LO], m[M.M_HI] + 1):
                    if (m[M.M_NAT] >> p) & 1:
                        use[M.pos_type(cfg, m[M.M_KEY], p)] += 1
                    else:
                        use[M.JOKER] += 1
            else:
                for s in range(4):
                    use[s * 13 + m[M.M_KEY]] += (m[M.M_NAT] >> 4 * s) & 15
                    use[M.JOKER] += (m[M.M_JOK] >> 4 * s) & 15
        assert (use <= cnt).all()


@settings(max_examples=150, deadline=None)
@given(cards=st.lists(st.integers(0, 52), min_size=3, max_size=13), extra=st.integers(0, 52),
       contract=st.sampled_from([(2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3)]),
       two_decks=st.booleans())
def test_adding_a_card_never_raises_deficiency(cards, extra, contract, two_decks):
    """Invariant 22."""
    cfg = variant_config(V(num_players=5) if two_decks else V())
    cnt = np.zeros(M.NT, np.int64)
    for c in cards:
        cnt[c] = min(cnt[c] + 1, 2 if two_decks or c == M.JOKER else 1)
    S, R_ = contract
    d0 = M.deficiency(cnt, S, R_, cfg, 12)
    m0 = M.contract_missing(cnt, S, R_, cfg, 12)
    cnt[extra] += 1
    assert M.deficiency(cnt, S, R_, cfg, 12) <= d0 or extra == M.JOKER
    assert M.contract_missing(cnt, S, R_, cfg, 12) <= m0


# ------------------------------------------------------------------ determinism (invariant 21)


@pytest.mark.parametrize("unit,count", [("deal", 6), ("game", 3)])
def test_same_records_whatever_the_chunking(tables, unit, count):
    v = V(max_turns_per_deal=60, contract=3)
    whole = run_chunk(unit, v, tables["basic"], 99, 10, count)
    parts = np.vstack([run_chunk(unit, v, tables["basic"], 99, 10 + i, 1) for i in range(count)])
    assert (whole == parts).all()
    other = run_chunk(unit, v, tables["basic"], 100, 10, count)
    assert not (whole == other).all()
