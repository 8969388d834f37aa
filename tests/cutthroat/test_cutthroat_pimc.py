"""Cutthroat pimc: plays every form through the kernel, reproducibly, and not as expert does."""
import numpy as np
import pytest

from simcards.core.errors import SimcardsError
from simcards.games.cutthroat import GAME


@pytest.mark.parametrize("players", [3, 5])
def test_pimc_plays_reproducibly_and_differs_from_expert(players):
    v = GAME.variant(None, pairs=[f"num_players={players}"])
    spec = ["pimc:worlds=4:dd_cards=7"] * players
    one = GAME.simulate("deal", v, GAME.policies.table(spec), 5, 0, 12)
    two = GAME.simulate("deal", v, GAME.policies.table(spec), 5, 0, 12)
    expert = GAME.simulate("deal", v, GAME.policies.table(["expert"] * players), 5, 0, 12)
    assert np.array_equal(one, two)
    assert not np.array_equal(one, expert)


def test_pimc_parameters_are_validated_in_one_line():
    with pytest.raises(SimcardsError) as err:
        GAME.policies.resolve("pimc:dd_cards=18")
    assert "dd_cards must be in 1..17" in str(err.value) and "\n" not in str(err.value)


# ---------------------------------------------------------------- bidding by simulation

def bid_position(variant, policy, seed, index, which):
    """(view, masks, record, hands, open bids, dealer) at the ``which``-th bid decision of deal
    ``index`` as ``policy`` played it at every seat (deal unit: 0-0, no bags; the earlier
    bids as the record has them)."""
    from simcards.core.cards import mask_of, parse_card
    from simcards.core.dd_report import event_rows
    from simcards.games.cutthroat import layout as L, rules
    from simcards.games.cutthroat.variant import form_of

    f = form_of(variant)
    n = f.n
    table = GAME.policies.table([policy] * n)
    row, trace = rules.trace_record("deal", variant, table, seed, index)
    record = dict(zip(rules.DEAL_COLUMNS, (int(x) for x in row)))
    hands, bids, dealer = [0] * n, [], -1
    for ev, a, b, c, d, e in event_rows(trace):
        if ev == rules.EV_HAND and dealer < 0:
            dealer = b
        elif ev == rules.EV_DEAL:
            hands[a] = b
        elif ev == rules.EV_BID:
            bids.append((a, b, c, e))
    seat, _, blind, opened = bids[which]
    assert not any(bl for _, _, bl, _ in bids)  # at 0-0 expert never bids blind
    v = np.zeros(L.VIEW_SIZE, np.int64)
    v[L.V_SEAT], v[L.V_N], v[L.V_DEALER], v[L.V_T] = seat, n, dealer, f.tricks
    v[L.V_LEADER], v[L.V_SITOUT], v[L.V_WIN_SEAT], v[L.V_WIN_CARD], v[L.V_LED_SUIT] = -1, -1, -1, -1, -1
    v[L.V_MAX_BID], v[L.V_SM_MIN], v[L.V_B6_TRICKS] = f.max_ordinary_bid, f.shoot_moon_min_tricks, \
        variant.blind_six_tricks
    v[L.V_TARGET], v[L.V_BAG_LIMIT] = variant.target_score, variant.bag_limit
    v[L.V_BAG_MODE] = getattr(L.BAG_MODE, variant.bag_mode.upper())
    v[L.V_PHASE] = L.PHASE_BID
    for s in range(L.MAX_SEATS):
        v[L.V_BID + s], v[L.V_TRICK_CARD + s], v[L.V_TRICK_SEAT + s] = -1, -1, -1
    for s, code, _, _ in bids[:which]:
        v[L.V_BID + s] = code
    pimc_row = GAME.policies.param_row("pimc" + policy[len("pimc"):] if policy.startswith("pimc") else "pimc")
    v[L.V_PARAMS:L.V_PARAMS + len(pimc_row)] = pimc_row
    m = np.zeros(L.MASKS_SIZE, np.uint64)
    m[L.M_HAND], m[L.M_LEGAL], m[L.M_DECK] = hands[seat], opened, f.deck
    m[L.M_PRIZE] = mask_of([parse_card(j) for j in variant.prize_jacks])
    return v, m, record, hands, opened, dealer


@pytest.mark.parametrize("players, jokers", [(3, 0), (4, 0), (5, 2), (5, 3)])
def test_the_play_out_replays_the_kernel_when_the_world_is_the_deal(players, jokers):
    # expert draws nothing and decides from the view alone: bidding as the first bidder did,
    # in the true deal, the simulated hand must give every later seat the bid the kernel
    # recorded, every seat its tricks, and the hand the kernel's scores (rules.score_bid)
    from simcards.games.cutthroat.pimc import _expert_view, bid_value

    v = GAME.variant(None, pairs=[f"num_players={players}", f"jokers={jokers}"])
    n = players
    kinds = set()
    for index in range(25):
        view, masks, r, hands, opened, dealer = bid_position(v, "expert", 5, index, 0)
        seat = int(view[0])  # V_SEAT
        base = _expert_view(view)
        pb, rv = base.copy(), base.copy()
        pm, rm = masks.copy(), masks.copy()
        tricks, jacks = np.zeros(n, np.int64), np.zeros(n, np.uint64)
        value = bid_value(base, masks, r[f"bid_{seat}"], np.array(hands, np.uint64), opened, pb, pm, rv, rm,
                          np.zeros(n, np.uint64), np.array([1], np.uint64), tricks, jacks)
        from simcards.games.cutthroat.layout import V_BID

        assert [int(pb[V_BID + s]) for s in range(n)] == [r[f"bid_{s}"] for s in range(n)], index
        assert list(tricks) == [r[f"tricks_{s}"] for s in range(n)], index
        code = [(j >> 9 & 1) + 2 * (j >> 22 & 1) + 4 * (j >> 35 & 1) for j in map(int, jacks)]
        assert code == [r[f"jacks_{s}"] for s in range(n)], index  # prize jacks JC, JD, JH as the record codes them
        deltas = [r[f"delta_{s}"] for s in range(n)]
        assert value == (n - 1) * deltas[seat] - sum(deltas[s] for s in range(n) if s != seat), index
        kinds |= {r[f"bid_{s}"] for s in range(n)}
    assert len(kinds) >= 4, kinds  # several kinds of bid were replayed


def test_bid_candidates_and_expert_fallback():
    from simcards.games.cutthroat.layout import B_1F, B_2F, B_SM, NIL
    from simcards.games.cutthroat.pimc import bid_totals

    v = GAME.variant(None, pairs=["num_players=3"])
    changed = 0
    for index in range(6):
        view, masks, r, _, opened, _ = bid_position(v, "expert", 5, index, 2)  # the dealer: two bids known
        seat = int(view[0])
        expert = r[f"bid_{seat}"]
        bid, worlds, totals = bid_totals(view, masks)
        assert worlds == 16
        assert expert in totals and bid in totals
        assert all((opened >> b) & 1 for b in totals)
        if 1 <= expert <= 17:
            assert all(b in (NIL, B_1F, B_2F, B_SM) or abs(b - expert) <= 2 for b in totals)
            assert all(b in totals for b in range(max(1, expert - 2), expert + 3) if (opened >> b) & 1)
        # another bid than expert's only when its mean gain over expert's is positive (BID_Z above 0)
        assert bid == expert or totals[bid] > totals[expert]
        changed += bid != expert
        # bid_worlds=0: expert's bid, nothing simulated
        view0, masks0, *_ = bid_position(v, "pimc:bid_worlds=0", 5, index, 2)
        assert bid_totals(view0, masks0) == (expert, 0, {})
        # bid_span=0: only expert's bid and Nil (and 1F/2F/SM of expert's count)
        view1, masks1, *_ = bid_position(v, "pimc:bid_span=0", 5, index, 2)
        _, _, narrow = bid_totals(view1, masks1)
        assert all(b in (expert, NIL) or (b == B_1F and expert == 1) or (b == B_2F and expert == 2) for b in narrow)
        # the same stream, the same choice
        assert bid_totals(view, masks) == (bid, worlds, totals)
    assert changed >= 1


@pytest.mark.parametrize("players", [3, 5])
def test_bidding_by_simulation_changes_bids_and_is_reproducible(players):
    from simcards.games.cutthroat.rules import DEAL_COLUMNS

    v = GAME.variant(None, pairs=[f"num_players={players}"])
    t = lambda spec: GAME.policies.table([spec] * players)  # noqa: E731
    sim = GAME.simulate("deal", v, t("pimc:dd_cards=1:playout_worlds=0"), 17, 0, 30)
    again = GAME.simulate("deal", v, t("pimc:dd_cards=1:playout_worlds=0"), 17, 0, 30)
    plain = GAME.simulate("deal", v, t("pimc:dd_cards=1:playout_worlds=0:bid_worlds=0"), 17, 0, 30)
    expert = GAME.simulate("deal", v, t("expert"), 17, 0, 30)
    assert np.array_equal(sim, again)
    assert np.array_equal(plain, expert)  # dd_cards=1 plays expert's cards; bid_worlds=0 bids expert's bids
    bids = [i for i, name in enumerate(DEAL_COLUMNS) if name.startswith("bid_")]
    assert not np.array_equal(sim[:, bids], plain[:, bids])


@pytest.mark.parametrize("players, jokers", [(3, 0), (5, 2)])
def test_the_play_out_from_a_play_decision_finishes_the_hand_as_the_kernel_did(players, jokers):
    # the view at a play decision in mid-hand, rebuilt from the trace (trick in progress, voids
    # shown, tricks and prize jacks so far); played out from there by expert with the true
    # remaining hands, every seat must take the tricks the kernel gave it afterwards
    from simcards.core.dd_report import event_rows
    from simcards.core.tricks import SUIT_MASKS_JOKERS_AS_SPADES as SUITS
    from simcards.games.cutthroat import layout as L, rules
    from simcards.games.cutthroat.pimc import _expert_view, rollout

    v = GAME.variant(None, pairs=[f"num_players={players}", f"jokers={jokers}"])
    n = players
    trumps = int(SUITS[3])
    checked = 0
    for index in range(8):
        view, masks, r, hands, _, dealer = bid_position(v, "expert", 7, index, 0)
        _, trace = rules.trace_record("deal", v, GAME.policies.table(["expert"] * n), 7, index)
        plays = [(a, b, c, d) for ev, a, b, c, d, e in event_rows(trace) if ev == rules.EV_PLAY]
        for s in range(n):
            view[L.V_BID + s] = r[f"bid_{s}"]
        for cut in (len(plays) // 3 + 1, len(plays) // 2 + 2):  # stop before play number ``cut``
            vw, m = view.copy(), masks.copy()
            left, voids = list(hands), [0] * n
            tricks, jacks = [0] * n, [0] * n
            played, table = 0, []
            broken = False
            for k, (seat, c, trick, pos) in enumerate(plays[:cut + 1]):
                if pos == 0:
                    table = []
                if k == cut:
                    break
                b = 1 << c
                if table and not b & int(SUITS[table[0][2]]):
                    voids[seat] |= int(SUITS[table[0][2]])
                led = table[0][2] if table else (3 if b & trumps else c // 13)
                table.append((seat, c, led))
                left[seat] &= ~b
                played |= b
                broken |= bool(b & trumps)
                if k + 1 == len(plays) or plays[k + 1][3] == 0:  # the trick is complete: its winner
                    best = None
                    for s2, c2, _ in table:
                        t2 = 1 << c2 & trumps
                        if best is None or (t2 and not best[2]) or ((t2 != 0) == best[2] and
                                                                   (t2 or c2 // 13 == led) and c2 > best[1]):
                            best = (s2, c2, t2 != 0)
                    tricks[best[0]] += 1
                    jacks[best[0]] |= sum(1 << x for _, x, _ in table) & int(m[L.M_PRIZE])
            seat, c, trick, pos = plays[cut]
            assert pos == len(table)
            vw[L.V_PHASE], vw[L.V_SEAT], vw[L.V_TRICK], vw[L.V_NPLAYED] = L.PHASE_PLAY, seat, trick, pos
            vw[L.V_LEADER] = table[0][0] if table else seat
            vw[L.V_SITOUT] = dealer if (trick == 0 and jokers == 2) else -1
            vw[L.V_BROKEN] = int(broken)
            vw[L.V_LED_SUIT] = table[0][2] if table else -1
            best = None
            for s2, c2, _ in table:
                t2 = 1 << c2 & trumps
                if best is None or (t2 and not best[2]) or ((t2 != 0) == best[2] and
                                                           (t2 or c2 // 13 == table[0][2]) and c2 > best[1]):
                    best = (s2, c2, t2 != 0)
            vw[L.V_WIN_SEAT], vw[L.V_WIN_CARD] = (best[0], best[1]) if best else (-1, -1)
            for i, (s2, c2, _) in enumerate(table):
                vw[L.V_TRICK_CARD + i], vw[L.V_TRICK_SEAT + i] = c2, s2
            for s in range(n):
                vw[L.V_TRICKS + s], vw[L.V_JACKS + s] = tricks[s], jacks[s]
                m[L.M_VOID + s] = voids[s]
            m[L.M_HAND], m[L.M_PLAYED] = left[seat], played
            m[L.M_TRICK] = sum(1 << c2 for _, c2, _ in table)
            base = _expert_view(vw)
            out = np.zeros(n, np.int64)
            rollout(base, m, np.array(left, np.uint64), -1, base.copy(), m.copy(), np.zeros(n, np.uint64),
                    np.array([1], np.uint64), out, np.zeros(n, np.uint64))
            assert [tricks[s] + out[s] for s in range(n)] == [r[f"tricks_{s}"] for s in range(n)], (index, cut)
            checked += 1
    assert checked == 16


# ---------------------------------------------------------------- play-outs before dd_cards

@pytest.mark.parametrize("players, jokers", [(3, 0), (5, 2)])
def test_playouts_reproducible_on_threads_and_chunks_and_not_the_old_play(players, jokers):
    import pandas as pd

    from simcards.experiment.runner import execute
    from simcards.experiment.spec import make_spec

    sets = [f"num_players={players}", f"jokers={jokers}"]
    policy = "pimc:worlds=4:bid_worlds=0:playout_worlds=3"
    runs = [execute(make_spec("cutthroat", unit="deal", count=6, seed=3, chunk_size=c, policy=policy,
                              seat_policy={1: "expert"}, settings=sets), threads=t).records
            for c, t in ((2, 1), (3, 2))]
    pd.testing.assert_frame_equal(runs[0], runs[1])
    v = GAME.variant(None, pairs=sets)
    expert = GAME.simulate("deal", v, GAME.policies.table(["expert"] * players), 3, 0, 6)
    zero = GAME.simulate("deal", v, GAME.policies.table(["pimc:dd_cards=1:bid_worlds=0:playout_worlds=0"] * players),
                         3, 0, 6)
    new = GAME.simulate("deal", v, GAME.policies.table([policy] * players), 3, 0, 6)
    assert np.array_equal(expert, zero)  # playout_worlds=0 (no bid search, no double dummy): expert's play
    assert not np.array_equal(expert, new)
