"""The Spades pimc policy: double-dummy play at a known ending, determinism, parameters."""
import numpy as np
import pytest

from simcards.core.cards import parse_cards
from simcards.core.errors import SimcardsError
from simcards.games.spades import GAME
from simcards.games.spades import policies as P
from simcards.games.spades.pimc import card_totals

from spades_util import table, variant  # noqa: I001


def m(text):
    return sum(1 << c for c in parse_cards(text))


def ending_view(params=""):
    """Trick 12 of 13, South (seat 0) last to play: West led 5H, North 2H, East KH; South holds
    AH 3H; the three unseen cards are clubs. South's side needs one more trick."""
    v = np.zeros(P.VIEW_LEN, np.int64)
    deck = (1 << 52) - 1
    unseen = m("2C 3C 4C")
    hand = m("AH 3H")
    played = deck & ~unseen & ~hand
    v[P.V_SEAT], v[P.V_HAND], v[P.V_LEGAL] = 0, hand, hand
    v[P.V_TRICK], v[P.V_LEADER], v[P.V_NPLAYED] = 11, 1, 3
    v[P.V_LED_SUIT], v[P.V_WIN_SEAT], v[P.V_WIN_CARD] = 2, 3, parse_cards("KH")[0]
    v[P.V_BROKEN], v[P.V_PLAYED], v[P.V_DECK] = 1, played, deck
    for s in range(4):
        v[P.V_SUITS + s] = ((1 << 13) - 1) << (13 * s)
    v[P.V_TABLE + 0] = -1
    for s, c in ((1, "5H"), (2, "2H"), (3, "KH")):
        v[P.V_TABLE + s] = parse_cards(c)[0]
    for s, (b, t) in enumerate(((4, 3), (3, 2), (3, 3), (3, 3))):
        v[P.V_BID + s], v[P.V_TRICKS + s] = b, t
    v[P.V_TARGET], v[P.V_BAG_LIMIT], v[P.V_NIL_VALUE], v[P.V_BN_VALUE] = 500, 10, 100, 200
    v[P.V_PARAMS:P.V_PARAMS + 8] = GAME.policies.param_row("pimc" + params)
    return v


def test_plays_the_card_that_is_best_in_every_world():
    # AH wins this trick; 3H would lose it, and the AH could not win the last trick (no
    # heart is left to lead): the ace is strictly better double dummy in every world
    card, solved, totals = card_totals(ending_view())
    ace, three = parse_cards("AH 3H")
    assert card == ace
    assert solved == 16
    assert totals.get(ace, 0) > totals.get(three, 0)


def test_before_dd_cards_without_playouts_it_plays_fitteds_card():
    card, solved, totals = card_totals(ending_view(":dd_cards=1:playout_worlds=0"))
    assert solved == 0 and totals == {}
    assert card == parse_cards("AH")[0]  # fitted wins it too


def test_node_budget_stops_after_min_worlds():
    from simcards.core.pimc import MIN_WORLDS

    _, solved, _ = card_totals(ending_view(":node_budget=1"))
    assert solved == MIN_WORLDS  # Spades has no min_worlds parameter (the view's 8 slots are taken)


def test_same_records_on_one_and_two_threads():
    import pandas as pd

    from simcards.experiment.runner import execute
    from simcards.experiment.spec import make_spec

    spec = make_spec("spades", count=6, seed=11, chunk_size=2, policy="pimc:worlds=4:dd_cards=5",
                     seat_policy={1: "expert"})
    one = execute(spec, threads=1)
    two = execute(spec, threads=2)
    pd.testing.assert_frame_equal(one.records, two.records)
    # the double-dummy play changes something: the records are not expert's
    expert = GAME.simulate("deal", variant(), table("expert"), 11, 0, 6)
    pimc = GAME.simulate("deal", variant(), table("pimc:worlds=4:dd_cards=5"), 11, 0, 6)
    assert not np.array_equal(expert, pimc)


@pytest.mark.parametrize("spec, words", [
    ("pimc:worlds=0", "worlds must be in 1..256"),
    ("pimc:dd_cards=2.5", "dd_cards is a whole number"),
    ("pimc:node_budget=-1", "node_budget must be in"),
    ("pimc:bag_cost=x", "bag_cost must be a number"),
    ("pimc:depth=3", "has no parameter 'depth'"),
])
def test_parameters_are_validated_in_one_line(spec, words):
    with pytest.raises(SimcardsError) as err:
        GAME.policies.resolve(spec)
    assert words in str(err.value) and "\n" not in str(err.value)


# ---------------------------------------------------------------- bidding by simulation


def bid_view(hands, record, seat, params=""):
    """The view of ``seat``'s bid decision in a deal played by the bots (deal unit: 0-0, no bags),
    the earlier seats' bids as the record has them."""
    from simcards.games.spades.pimc import _ALL_BIDS

    v = np.zeros(P.VIEW_LEN, np.int64)
    dealer = record["dealer"]
    v[P.V_SEAT], v[P.V_DEALER], v[P.V_HAND], v[P.V_LEGAL] = seat, dealer, hands[seat], _ALL_BIDS
    v[P.V_DECK] = (1 << 52) - 1
    for s in range(4):
        v[P.V_SUITS + s] = ((1 << 13) - 1) << (13 * s)
        v[P.V_TABLE + s] = -1
        v[P.V_BID + s] = -1
    s = (dealer + 1) % 4
    while s != seat:
        v[P.V_BID + s] = record[f"bid{s}"]
        s = (s + 1) % 4
    v[P.V_LED_SUIT], v[P.V_WIN_SEAT], v[P.V_WIN_CARD], v[P.V_LEADER] = -1, -1, -1, -1
    v[P.V_TARGET], v[P.V_BAG_LIMIT], v[P.V_NIL_VALUE], v[P.V_BN_VALUE] = 500, 10, 100, 200
    v[P.V_PARAMS:P.V_PARAMS + 8] = GAME.policies.param_row("pimc" + params)
    return v


def expert_deals(count=40, seed=5, **settings):
    from simcards.games.spades.dd import played_deal

    t = table("expert")
    return [played_deal(variant(**settings), t, seed, i) for i in range(count)]


def test_the_play_out_replays_the_kernel_when_the_world_is_the_deal():
    # expert is deterministic: bidding as the record did, in the true deal, the simulated
    # hand must give every seat exactly the tricks the kernel gave it (first seat to bid:
    # the other three bids come from the simulation)
    from simcards.games.spades.pimc import _expert_view, bid_value

    checked = 0
    for deal in expert_deals(60):
        r = deal["record"]
        if any(r[f"bid{s}"] == 0 for s in range(4)) or r["exchange0"] or r["exchange1"]:
            continue  # no Nil: the exchange is not simulated
        seat = (r["dealer"] + 1) % 4
        base = _expert_view(bid_view(deal["hands"], r, seat))
        world = np.array(deal["hands"], np.uint64)
        tricks = np.zeros(4, np.int64)
        value = bid_value(base, r[f"bid{seat}"], world, base.copy(), base.copy(), np.zeros(4, np.uint64),
                          np.array([1], np.uint64), tricks, 1.0)
        assert list(tricks) == [r[f"tricks{s}"] for s in range(4)], deal
        us, them = seat % 2, 1 - seat % 2
        points = [10 * (r[f"points{t}"] - r[f"bags{t}"]) for t in range(2)]  # bag_cost 1: overtricks count 0
        assert value == points[us] - points[them]
        checked += 1
    assert checked >= 20, checked


def test_bid_candidates_and_expert_fallback():
    from simcards.games.spades.pimc import bid_totals

    deal = expert_deals(4)[1]
    r = deal["record"]
    seat = r["dealer"]  # the last to bid: three bids known
    bid, worlds, totals = bid_totals(bid_view(deal["hands"], r, seat))
    assert worlds == 16
    expert_bid = r[f"bid{seat}"]
    assert totals and all(b == 0 or abs(b - expert_bid) <= 2 for b in totals)
    assert bid in totals or bid == expert_bid
    # another bid than expert's only when its mean gain over expert's is positive (BID_Z above 0)
    assert bid == expert_bid or totals[bid] > totals[expert_bid]
    # bid_worlds=0: expert's bid, nothing simulated
    off = bid_totals(bid_view(deal["hands"], r, seat, ":bid_worlds=0"))
    assert off == (expert_bid, 0, {})
    # a narrower span only offers bids closer to expert's (and Nil)
    _, _, narrow = bid_totals(bid_view(deal["hands"], r, seat, ":bid_span=1"))
    assert all(b == 0 or abs(b - expert_bid) <= 1 for b in narrow)


def test_bidding_by_simulation_changes_bids_and_is_reproducible():
    sim = GAME.simulate("deal", variant(), table("pimc:dd_cards=1:playout_worlds=0"), 17, 0, 30)
    again = GAME.simulate("deal", variant(), table("pimc:dd_cards=1:playout_worlds=0"), 17, 0, 30)
    plain = GAME.simulate("deal", variant(), table("pimc:dd_cards=1:playout_worlds=0:bid_worlds=0"), 17, 0, 30)
    assert np.array_equal(sim, again)
    bids = [i for i, (name, _) in enumerate(__import__("simcards.games.spades.rules", fromlist=["x"]).DEAL_COLUMNS)
            if name.startswith("bid")]
    assert not np.array_equal(sim[:, bids], plain[:, bids])


# ---------------------------------------------------------------- play-outs before dd_cards


def opening_view(params=""):
    """Trick 1, South (seat 0) on lead with a fixed 13-card hand, every bid made (3, 4, 3, 3)."""
    v = np.zeros(P.VIEW_LEN, np.int64)
    hand = m("AS KS 7S 4S AH QH JH 9H KD 8D 3D 5C 2C")
    legal = hand & ~m("AS KS 7S 4S")  # spades not broken
    v[P.V_SEAT], v[P.V_DEALER], v[P.V_HAND], v[P.V_LEGAL] = 0, 3, hand, legal
    v[P.V_TRICK], v[P.V_LEADER], v[P.V_NPLAYED] = 0, 0, 0
    v[P.V_LED_SUIT], v[P.V_WIN_SEAT], v[P.V_WIN_CARD] = -1, -1, -1
    v[P.V_DECK] = (1 << 52) - 1
    for s in range(4):
        v[P.V_SUITS + s] = ((1 << 13) - 1) << (13 * s)
        v[P.V_TABLE + s] = -1
    for s, b in enumerate((3, 4, 3, 3)):
        v[P.V_BID + s] = b
    v[P.V_TARGET], v[P.V_BAG_LIMIT], v[P.V_NIL_VALUE], v[P.V_BN_VALUE] = 500, 10, 100, 200
    v[P.V_PARAMS:P.V_PARAMS + 8] = GAME.policies.param_row("pimc" + params)
    return v


def test_playouts_value_one_card_of_each_run_from_the_first_trick():
    from simcards.core.pimc import distinct_cards

    card, worlds, totals = card_totals(opening_view(":playout_worlds=6"))
    assert worlds == 6
    expert_card, _, _ = card_totals(opening_view(":playout_worlds=0"))  # the heuristic's: fitted's
    suits = np.array([((1 << 13) - 1) << (13 * s) for s in range(4)], np.uint64)
    reps = distinct_cards(np.uint64(m("AH QH JH 9H KD 8D 3D 5C 2C")), np.uint64((1 << 52) - 1), suits,
                          np.int64(expert_card))
    reps = {c for c in range(52) if (int(reps) >> c) & 1}
    assert len(reps) == 8 and expert_card in reps  # QH JH: one run (nothing is played yet)
    assert set(totals) <= reps
    # the card played has the best total (a card missing from totals totals 0), expert's on a tie
    values = {c: totals.get(c, 0) for c in reps}
    assert card in reps and values[card] == max(values.values())
    assert card == expert_card or values[card] > values[expert_card]
    # the same seed gives the same answer
    assert card_totals(opening_view(":playout_worlds=6")) == (card, worlds, totals)


def test_playout_worlds_0_plays_fitteds_card_before_dd_cards():
    view = opening_view(":playout_worlds=0")
    fitted_card = P.fitted_play(view.copy(), np.array([1], np.uint64))
    assert card_totals(view) == (fitted_card, 0, {})
    # the default searches: 32 worlds
    assert card_totals(opening_view())[1] == 32


def test_a_live_nil_keeps_the_play_outs_until_nil_dd_cards():
    """Double dummy from the first card (dd_cards=13) searches the opening lead's worlds, but
    while a Nil is alive (here West's) the play-outs decide until NIL_DD_CARDS cards."""
    from simcards.games.spades.pimc import NIL_DD_CARDS

    params = ":dd_cards=13:playout_worlds=6:node_budget=0"
    assert card_totals(opening_view(params))[1] == 16  # double dummy: the default 16 worlds
    nil = opening_view(params)
    nil[P.V_BID + 1] = 0  # West bid Nil and has no trick yet
    assert NIL_DD_CARDS < 13 and card_totals(nil)[1] == 6  # the play-outs' 6 worlds


def test_a_failed_nil_beside_a_number_bid_is_played_out():
    """Under the default rules (5.4) a failed Nil's later tricks are bags, never its partner's
    contract, while the solver counts a partnership's tricks: with such a Nil on either side
    the play-outs (which score the hand by the rules) decide, even within dd_cards."""
    params = ":playout_worlds=6"
    ace = parse_cards("AH")[0]
    assert card_totals(ending_view(params))[:2] == (ace, 16)  # double dummy's 16 worlds
    for seat in (1, 2):  # an opponent's failed Nil (West: 2 tricks), then the partner's (North: 3)
        view = ending_view(params)
        view[P.V_BID + seat] = 0
        card, solved, _ = card_totals(view)
        assert solved == 6  # the play-outs' worlds
        assert card == ace  # South itself must still take the trick its own 4 need
    both = ending_view(params)
    both[P.V_BID + 1] = both[P.V_BID + 3] = 0  # both Nil: no contract their tricks could count for
    assert card_totals(both)[1] == 16
    for mode in ("partner", "ignored"):  # the house rules of 5.4, North's Nil failed
        view = ending_view(params)
        view[P.V_BID + 2] = 0
        view[P.V_FAILED_NIL_TRICKS] = FAILED_NIL_MODES.index(mode)
        card, solved, _ = card_totals(view)
        if mode == "partner":  # North's tricks count for South's contract, as the solver counts them
            assert solved == 16
        else:  # North's tricks count for nothing: South needs the trick for its own 4
            assert (card, solved) == (ace, 6)


def test_failed_nil_tricks_for_the_partner_count_in_the_double_dummy_utility():
    from simcards.games.spades.pimc import _utility

    r = {"bid0": 4, "bid1": 3, "bid2": 0, "bid3": 3, "blind0": 0, "blind1": 0, "blind2": 0, "blind3": 0}
    values = {}
    for mode in FAILED_NIL_MODES:
        v = score_view(r, 0, mode)
        for s, t in enumerate((2, 3, 2, 3)):  # North's Nil failed with 2 tricks
            v[P.V_TRICKS + s] = t
        u = np.zeros(4, np.int64)
        _utility(v, np.int64(3), 1.0, u)
        values[mode] = list(u)
    # South needs 2 of the last 3 for its 4 alone, 0 with North's 2 counted (partner);
    # East-West (3 + 3, 6 taken) have made theirs: +60 whatever happens
    assert values["bags"] == values["ignored"] == [-400 - 600, -400 - 600, 400 - 600, 400 - 600]
    assert values["partner"] == [400 - 600] * 4


def test_playouts_same_records_on_threads_and_chunk_sizes():
    import pandas as pd

    from simcards.experiment.runner import execute
    from simcards.experiment.spec import make_spec

    policy = "pimc:worlds=4:playout_worlds=3:bid_worlds=0"
    runs = [execute(make_spec("spades", unit="deal", count=6, seed=5, chunk_size=c, policy=policy,
                              seat_policy={1: "expert"}),
                    threads=t).records for c, t in ((2, 1), (3, 2), (6, 2))]
    pd.testing.assert_frame_equal(runs[0], runs[1])
    pd.testing.assert_frame_equal(runs[0], runs[2])
    # the play-outs change the play: not the records of pimc without them
    off = GAME.simulate("deal", variant(), table("pimc:worlds=4:bid_worlds=0:playout_worlds=0"), 5, 0, 6)
    on = GAME.simulate("deal", variant(), table(policy), 5, 0, 6)
    assert not np.array_equal(off, on)


FAILED_NIL_MODES = ("bags", "partner", "ignored")  # failed_nil_tricks (5.4), in the view's order


def score_view(record, seat, failed_nil_tricks="bags"):
    """The bids, blinds and rule values of ``record`` in a view of ``seat``."""
    v = np.zeros(P.VIEW_LEN, np.int64)
    v[P.V_SEAT] = seat
    v[P.V_FAILED_NIL_TRICKS] = FAILED_NIL_MODES.index(failed_nil_tricks)
    for s in range(4):
        v[P.V_BID + s], v[P.V_BLIND + s] = record[f"bid{s}"], record[f"blind{s}"]
    v[P.V_NIL_VALUE], v[P.V_BN_VALUE] = 100, 200
    return v


@pytest.mark.parametrize("mode", FAILED_NIL_MODES)
def test_hand_points_score_as_the_kernel_does(mode):
    # the play-outs' and the simulated bidding's value of a hand (bag_cost 0: a bag is worth its
    # 1 point) is the kernel's points, Nils made and failed included, under each treatment of a
    # failed Nil's tricks (5.4: bags by default, the partner's contract, or nothing)
    from simcards.games.spades.pimc import _hand_points

    nils = checked = 0
    for deal in expert_deals(200, seed=8, failed_nil_tricks=mode):
        r = deal["record"]
        if r["penalties0"] or r["penalties1"]:
            continue  # ten bags in one hand: the bag penalty is not in the value
        tricks = np.array([r[f"tricks{s}"] for s in range(4)], np.int64)
        for seat in range(4):
            us, them = seat % 2, 1 - seat % 2
            value = _hand_points(score_view(r, seat, mode), tricks, 0.0)
            assert value == 10 * (r[f"points{us}"] - r[f"points{them}"]), (r, seat)
        checked += 1
        nils += any(r[f"bid{s}"] == 0 and r[f"tricks{s}"] > 0 for s in range(4))
    assert checked >= 150 and nils >= 3, (checked, nils)


def test_hand_points_blind_nil_fails_for_its_value_and_its_tricks_are_bags():
    from simcards.games.spades.pimc import _hand_points

    r = {"bid0": 0, "bid1": 3, "bid2": 4, "bid3": 3, "blind0": 1, "blind1": 0, "blind2": 0, "blind3": 0}
    tricks = np.array([2, 3, 5, 3], np.int64)
    # South's Blind Nil fails (-200, 2 bags), North makes 4 with one bag; East-West make 6
    assert _hand_points(score_view(r, 0), tricks, 0.0) == 10 * ((-200 + 40 + 1 + 2) - 60)
    # bag_cost 1: a bag is worth nothing; the opponents' view is the negation
    assert _hand_points(score_view(r, 0), tricks, 1.0) == 10 * ((-200 + 40) - 60)
    assert _hand_points(score_view(r, 1), tricks, 1.0) == -10 * ((-200 + 40) - 60)


def _view_and_world(passed):
    """A real view: the seed-1 deal played by expert (the play session's bots) up to South's
    (seat 2) card decision after ``passed`` earlier ones; and the deal's true hands there."""
    from simcards.app.play import new_session
    from simcards.games.spades import kernel
    from simcards.games.spades.replay import traced_hands

    s = new_session("spades", seat=2, settings=[], seed=1, unit="deal")  # as tests/play/test_card_hints.py
    s.script.prime({}, -1)
    s.game.simulate(s.unit, s.variant, s.script.table, s.seed, s.index, 1)
    mine = [e.answer for e in s.script.log() if e.seat == 2]
    state, k, plays = s.advance(), 0, 0
    while not (state.decision == "play" and plays == passed):
        plays += state.decision == "play"
        state = s.play(mine[k])
        k += 1
    view = np.array(state.args[0], np.int64)
    _, events = kernel.run_kernel("deal", s.variant, s.game.policies.table(s.specs), 1, 0, 1, trace=True)
    played = int(view[P.V_PLAYED])
    world = [int(h) & ~played & (2**64 - 1) for h in traced_hands(events)[0].hands]
    return view, world


@pytest.mark.parametrize("passed", [2, 6])
def test_replay_weights_the_worlds_by_the_logged_plays(passed):
    """The true deal replays the logged plays legally and, the bots being expert (the play
    model), agrees with the model at every play: no sampled world weighs more, some weigh
    less; the weights are the same on a second call."""
    from simcards.games.spades.pimc import WEIGHT_SCALE, sampled_worlds, world_replays

    view, world = _view_and_world(passed)
    assert int(view[P.V_PLAYED]) != 0 and world[2] == int(view[P.V_HAND])
    worlds = np.vstack([np.array([world], np.uint64), sampled_worlds(view, 24)])
    replays, weights = world_replays(view, worlds)
    assert all(bad == 0 for _, bad in replays)  # every logged card legal in every world's replay
    true_logw = replays[0][0]
    assert true_logw < 0  # the other seats had choices
    assert all(lw <= true_logw for lw, _ in replays)
    assert any(lw < true_logw for lw, _ in replays[1:])
    assert weights[0] == WEIGHT_SCALE == max(weights) and min(weights) < WEIGHT_SCALE
    assert world_replays(view, worlds) == (replays, weights)


def test_a_view_without_a_log_weighs_its_worlds_equally():
    """A view filled by hand (no V_HISTORY) does not replay: every world weighs the same."""
    from simcards.games.spades.pimc import WEIGHT_SCALE, sampled_worlds, world_replays

    v = ending_view()
    worlds = sampled_worlds(v, 3)
    replays, weights = world_replays(v, worlds)
    assert [bad for _, bad in replays] == [-1] * len(worlds)
    assert weights == [WEIGHT_SCALE] * len(worlds)


def test_ten_for_two_hundred_doubles_the_contract_in_pimcs_scoring():
    from simcards.games.spades.pimc import _hand_points, _utility

    r = {"bid0": 6, "bid1": 1, "bid2": 4, "bid3": 1, "blind0": 0, "blind1": 0, "blind2": 0, "blind3": 0}
    v = score_view(r, 0)
    made, set_ = np.array([6, 1, 5, 1], np.int64), np.array([5, 2, 4, 2], np.int64)
    assert _hand_points(v, made, 1.0) == 10 * (100 - 20)  # off: 10 a bid trick
    v[P.V_TEN_MIN_BID], v[P.V_TEN_SET_DOUBLED] = 10, 1
    assert _hand_points(v, made, 1.0) == 10 * (200 - 20)
    assert _hand_points(v, set_, 1.0) == 10 * (-200 - 20)
    v[P.V_TEN_SET_DOUBLED] = 0
    assert _hand_points(v, set_, 1.0) == 10 * (-100 - 20)
    v[P.V_TEN_MIN_BID] = 11  # 10 is below the smallest doubled contract
    assert _hand_points(v, made, 1.0) == 10 * (100 - 20)
    # the double-dummy phase's utility: 3 tricks left, 8 taken of our 10
    v[P.V_TEN_MIN_BID], v[P.V_TEN_SET_DOUBLED] = 10, 1
    for s, t in enumerate((5, 0, 3, 2)):
        v[P.V_TRICKS + s] = t
    u = np.zeros(4, np.int64)
    _utility(v, np.int64(3), 1.0, u)
    # ours: set (-200) with 0 or 1 of the 3, made (+200) with 2 or 3; theirs (2 bid, 2 taken) made +20
    assert list(u) == [-2000 - 200, -2000 - 200, 2000 - 200, 2000 - 200]



def reset_view(**settings):
    """The view the kernel sets up at the start of a hand under the house rules ``settings``
    (every slot it does not write left at 7)."""
    from simcards.games.spades import kernel, rules

    tab = kernel.prepared(variant(**settings))
    view = np.full(P.VIEW_LEN, 7, np.int64)
    deck_mask = np.uint64(sum(1 << int(c) for c in tab.deck))
    rules._reset_view(view, tab.params, deck_mask, tab.suit_masks, 0,
                      np.zeros(2, np.int64), np.zeros(2, np.int64), 0)
    return view


@pytest.mark.parametrize("settings, want", [({}, (0, 1)),
                                            ({"ten_for_two_hundred": True}, (10, 1)),
                                            ({"ten_for_two_hundred": True, "ten_for_two_hundred_min_bid": 12,
                                              "ten_for_two_hundred_set_doubled": False}, (12, 0))])
def test_the_view_carries_ten_for_two_hundred(settings, want):
    view = reset_view(**settings)
    assert (int(view[P.V_TEN_MIN_BID]), int(view[P.V_TEN_SET_DOUBLED])) == want


@pytest.mark.parametrize("mode", FAILED_NIL_MODES)
def test_the_view_carries_failed_nil_tricks(mode):
    view = reset_view(failed_nil_tricks=mode)
    assert view[P.V_FAILED_NIL_TRICKS] == FAILED_NIL_MODES.index(mode)


def test_a_decision_keeps_the_likeliest_of_the_worlds_drawn():
    """With OVERSAMPLE > 1 the worlds kept are the likeliest of those drawn from the same
    stream (the first OVERSAMPLE x n), none of the dropped ones likelier than a kept one."""
    from simcards.games.spades.pimc import OVERSAMPLE, decision_worlds, sampled_worlds, world_replays

    view, _ = _view_and_world(6)
    n = 8
    kept = decision_worlds(view, n)
    pool = sampled_worlds(view, n * OVERSAMPLE)
    assert OVERSAMPLE > 1 and len(kept) == n and len(pool) == n * OVERSAMPLE
    rows = {tuple(int(h) for h in w) for w in pool}
    kept_rows = [tuple(int(h) for h in w) for w in kept]
    assert set(kept_rows) <= rows
    logw = {tuple(int(h) for h in w): lw for w, (lw, _) in zip(pool, world_replays(view, pool)[0])}
    dropped = [r for r in rows if r not in set(kept_rows)]
    assert min(logw[r] for r in kept_rows) >= max(logw[r] for r in dropped)
    assert max(logw[r] for r in kept_rows) > min(logw[r] for r in dropped)
