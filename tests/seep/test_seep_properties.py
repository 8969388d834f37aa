"""Hypothesis properties for the invariants of rules section 8."""
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from seep_util import variant
from simcards.core.cards import cards_of
from simcards.games.seep import GAME, referee
from simcards.games.seep.cards import PTS, VAL, VALMASK, mask_sum
from simcards.games.seep.layout import (
    BREAK, CAPTURE, S_BID, S_BIDDER, S_CARD_PTS, S_DEALER, S_HANDS, S_HIDDEN, S_HOUSE, S_LAST_CAPTURE,
    S_LEFTOVER, S_LEFTOVER_TEAM, S_LOOSE, S_NCARDS, S_OPEN_HAND, S_OWNERS, S_PILE, S_PLAY, S_SCORE,
    S_STOCK, S_SWEEP_PTS, THROW,
)
from simcards.games.seep.layout import plays as layout_plays
from simcards.games.seep.replay import trace
from simcards.games.seep.rules import apply_move, baazi_step, next_dealer

ALL = (1 << 52) - 1
TABLES = {name: GAME.policies.table([name]) for name in ("random", "basic", "expert")}
FLAGS = hs.fixed_dictionaries({
    "capture_sums": hs.booleans(), "capture_maximal": hs.booleans(), "owner_may_throw": hs.booleans(),
    "absorption_mode": hs.sampled_from(["optional", "mandatory", "forbidden"]),
    "allow_direct_cemented_build": hs.booleans(), "partner_add_free": hs.booleans(),
})
SLOW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def zones(st):
    z = [int(st[S_HANDS + s]) for s in range(4)] + [int(st[S_STOCK]), int(st[S_HIDDEN]), int(st[S_LOOSE])]
    z += [int(st[S_HOUSE + v]) for v in range(14)] + [int(st[S_PILE]), int(st[S_PILE + 1])]
    return z


def check_structure(st, minh=9):
    """Invariants 1, 6-10 on one state."""
    seen = 0
    for m in zones(st):
        assert seen & m == 0, "a card is in two places"
        seen |= m
    assert seen == ALL, "a card is missing"
    for v in range(14):
        h = int(st[S_HOUSE + v])
        owners = int(st[S_OWNERS + v])
        if not h:
            assert owners == 0
            continue
        assert minh <= v <= 13
        assert bin(h).count("1") >= 2
        total = mask_sum(h)
        assert total % v == 0 and total >= v
        seats = [s for s in range(4) if owners >> s & 1]
        assert seats, "house without owner"
        if total == v:
            assert len(seats) == 1
        else:
            assert len(seats) <= 2 and len({s % 2 for s in seats}) == len(seats)
        for s in seats:
            assert int(st[S_HANDS + s]) & int(VALMASK[v]), "retention violated"
        assert int(st[S_LOOSE]) & int(VALMASK[v]) == 0, "loose card of a house value"


def check_deal(v, policy, seed, index, apply_all=False):
    states, events = trace(v, TABLES[policy], seed, index)
    traced = layout_plays(events)
    minh = v.min_house_value
    first = states[0]
    bidder, dealer = int(first[S_BIDDER]), int(first[S_DEALER])
    assert bidder == (dealer + 1) % v.num_players
    bid = int(first[S_BID])
    assert v.min_bid_value <= bid <= 13 and int(first[S_OPEN_HAND]) & int(VALMASK[bid])  # 14
    plays = [0] * 4
    cemented = {}
    for k in range(1, 49):
        st = states[k - 1]
        p = (bidder + k - 1) % v.num_players
        check_structure(st, minh)
        assert int(st[S_PLAY]) == k
        if k == 1:
            assert bin(int(st[S_HANDS + bidder])).count("1") == 4
        else:
            dealt = 12 if v.num_players == 4 or k <= 24 else 24  # 6.2: two deals of 12
            for s in range(v.num_players):
                assert bin(int(st[S_HANDS + s])).count("1") == dealt - plays[s] == int(st[S_NCARDS + s])  # 2
        if v.num_players == 2:
            assert not any(int(st[S_HANDS + s]) for s in (2, 3))
            if k == 25:  # retention empties the floor of houses by the end of the first half
                assert not any(int(st[S_HOUSE + w]) for w in range(14))
        play, legal = traced[k - 1]
        assert play.k == k and play.seat == p and play.legal == len(legal)
        rows = [ev[1:] for ev in legal]  # [kind, card, target, loose, house]
        n = len(rows)
        assert n >= 1 and len({tuple(r) for r in rows}) == n  # 13
        if apply_all:
            for r in rows:
                cp = st.copy()
                apply_move(cp, p, r[0], r[1], r[2], r[3], r[4])
                check_structure(cp, minh)
        row = rows[play.choice]
        kind, card, target = int(row[0]), int(row[1]), int(row[2])
        assert int(st[S_HANDS + p]) >> card & 1
        if k == 1:  # 14
            assert (kind in (CAPTURE, THROW) and VAL[card] == bid) or (kind in (1,) and target == bid)
        nxt = states[k]
        if kind == CAPTURE and v.capture_maximal and v.capture_sums:  # 15
            assert int(nxt[S_HOUSE + VAL[card]]) == 0 or k == 48
            assert not referee.has_group(set(cards_of(int(nxt[S_LOOSE]))), VAL[card]) or k == 48
        if kind == THROW and v.throw_requires_no_capture:  # 16
            assert not referee.has_group(set(cards_of(int(st[S_LOOSE]))), VAL[card], v.capture_sums)
            assert int(st[S_HOUSE + VAL[card]]) == 0
        if kind == BREAK:  # 17
            w = target - VAL[card]
            assert mask_sum(int(st[S_HOUSE + w])) == w and not int(st[S_OWNERS + w]) >> p & 1 and target <= 13
            assert int(st[S_HANDS + p]) & ~(1 << card) & int(VALMASK[target])
        # 18: sweep points change only on a capture that empties the floor, by sweep_value_for(k)
        gained = [int(nxt[S_SWEEP_PTS + t] - st[S_SWEEP_PTS + t]) for t in range(2)]
        empty = kind == CAPTURE and (k == 48 and int(nxt[S_LEFTOVER]) == 0 and int(st[S_LOOSE]) & ~int(row[3]) == 0
                                     or k < 48 and int(nxt[S_LOOSE]) == 0
                                     and not any(int(nxt[S_HOUSE + w]) for w in range(14)))
        if k < 48 or kind == CAPTURE:
            expected = referee.sweep_value_for(k, referee.Rules.of(v)) if empty else 0
            assert gained[p % 2] == expected and gained[1 - p % 2] == 0
        # 11: a cemented house keeps its value and cards until captured
        for w, cards in cemented.items():
            if int(st[S_HOUSE + w]) & cards == cards:
                continue
            assert cards & (int(st[S_PILE]) | int(st[S_PILE + 1])) == cards
        cemented = {w: int(st[S_HOUSE + w]) for w in range(14)
                    if int(st[S_HOUSE + w]) and mask_sum(int(st[S_HOUSE + w])) > w}
        plays[p] += 1
    assert plays == ([12] * 4 if v.num_players == 4 else [24, 24, 0, 0])  # 3
    last = states[48]
    assert all(int(last[S_HANDS + s]) == 0 for s in range(4)) and int(last[S_LOOSE]) == 0  # 4
    assert not any(int(last[S_HOUSE + w]) for w in range(14))
    assert int(last[S_PILE]) | int(last[S_PILE + 1]) == ALL and int(last[S_PILE]) & int(last[S_PILE + 1]) == 0
    pts = [sum(int(PTS[c]) for c in cards_of(int(last[S_PILE + t]))) for t in range(2)]
    assert pts == [int(last[S_CARD_PTS]), int(last[S_CARD_PTS + 1])] and sum(pts) == 100  # 5
    assert int(last[S_SCORE]) + int(last[S_SCORE + 1]) == 100 + int(last[S_SWEEP_PTS]) + int(last[S_SWEEP_PTS + 1])
    if int(last[S_LEFTOVER]):  # 19
        assert int(last[S_LEFTOVER_TEAM]) == int(last[S_LAST_CAPTURE])
    if v.throw_requires_no_capture and v.capture_sums:
        assert int(last[S_LAST_CAPTURE]) >= 0


@SLOW
@given(seed=hs.integers(0, 2**32), index=hs.integers(0, 10**6), policy=hs.sampled_from(["random", "basic", "expert"]))
def test_invariants_default_rules(seed, index, policy):
    check_deal(variant(), policy, seed, index, apply_all=True)


@SLOW
@given(seed=hs.integers(0, 2**32), index=hs.integers(0, 10**6), flags=FLAGS)
def test_invariants_under_variants(seed, index, flags):
    check_deal(variant(**flags), "random", seed, index)


@SLOW
@given(seed=hs.integers(0, 2**32), index=hs.integers(0, 10**6), policy=hs.sampled_from(["random", "basic", "expert"]))
def test_invariants_two_player_game(seed, index, policy):
    check_deal(variant(num_players=2), policy, seed, index, apply_all=True)


@settings(max_examples=300, deadline=None)
@given(D=hs.integers(-99, 99), a=hs.integers(0, 100), sweeps=hs.tuples(hs.integers(0, 4), hs.integers(0, 4)),
       dealer=hs.integers(0, 3))
def test_baazi_step_and_dealer_rule(D, a, sweeps, dealer):
    """Invariants 20, 21, 23 on the kernel's baazi step and dealer rule."""
    import numpy as np
    from simcards.games.seep.layout import ST_SIZE
    cfg = variant().to_params()
    st = np.zeros(ST_SIZE, np.int64)
    st[S_SCORE], st[S_SCORE + 1] = a + 50 * sweeps[0], 100 - a + 50 * sweeps[1]
    st[S_CARD_PTS], st[S_CARD_PTS + 1] = a, 100 - a
    under = [t for t in range(2) if st[S_SCORE + t] < 9]
    assert len(under) <= 1  # 21
    D2, loser, by_min = baazi_step(cfg, D, st)
    nd = next_dealer(cfg, dealer, D2, int(st[S_SCORE]), int(st[S_SCORE + 1]), loser)
    if loser < 0:
        assert abs(D2) < 100  # 20
        if D2 == 0:
            assert nd == dealer
        else:
            assert nd % 2 == (0 if D2 < 0 else 1)  # 23
    else:
        assert D2 == 0 and nd % 2 == loser
        assert by_min == bool(under)


def test_match_counts_add_up():
    """Invariant 22 and the fixed-count rule on match records."""
    v = variant(match_baazis=3)
    out = GAME.simulate("match", v, TABLES["basic"], 5, 0, 30)
    cols = GAME.unit("match").column_names()
    a, b, played, capped = (out[:, cols.index(c)] for c in ("baazis_a", "baazis_b", "baazis", "capped"))
    assert (a + b + capped == played).all() and (played == 3).all()
    v = variant(match_baazis=2, match_mode="first_to")
    out = GAME.simulate("match", v, TABLES["basic"], 5, 0, 30)
    a, b = out[:, cols.index("baazis_a")], out[:, cols.index("baazis_b")]
    assert (np.maximum(a, b) == 2).all() and (np.minimum(a, b) <= 1).all()


def test_team_symmetry_rotating_the_dealer():
    """Invariant 27: one seat of rotation swaps the teams' results exactly."""
    for policy in ("random", "basic"):
        r0 = GAME.simulate("deal", variant(first_dealer=0), TABLES[policy], 9, 0, 200)
        r1 = GAME.simulate("deal", variant(first_dealer=1), TABLES[policy], 9, 0, 200)
        assert (r0[:, 11] == r1[:, 12]).all() and (r0[:, 12] == r1[:, 11]).all()


def test_suit_relabelling_hearts_clubs():
    """Invariant 28: swapping hearts and clubs everywhere leaves a deal legal and its scores unchanged."""
    def swap(c):
        s, r = divmod(c, 13)
        return {0: 2, 2: 0}.get(s, s) * 13 + r
    v = variant()
    for index in range(10):
        states, events = trace(v, TABLES["random"], 21, index)
        first, second = referee.from_kernel(states[0]), referee.from_kernel(states[1])
        chosen = referee.chosen_moves(events)
        after_open = referee.apply(first, chosen[0], check=False)
        b = first.bidder
        dealt = {t: sorted(second.hands[t] - after_open.hands[t]) for t in range(4)}
        stock = []
        for seat in [b, b + 1, b + 2, b + 3] * 2 + [b + 1, b + 2, b + 3]:
            stock += dealt[seat % 4][:4]
            dealt[seat % 4] = dealt[seat % 4][4:]
        sw = [(k, swap(c), t, frozenset(swap(x) for x in X), h) for k, c, t, X, h in chosen]
        result = referee.play_out(first.dealer, first.bid, [{swap(c) for c in h} for h in first.hands],
                                  {swap(c) for c in first.loose}, [swap(c) for c in stock], sw)
        assert result["scores"] == [int(states[48][S_SCORE]), int(states[48][S_SCORE + 1])]
