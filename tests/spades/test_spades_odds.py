"""`simcards bid spades`: dealing around a known hand and playing every legal bid."""
import math
import os

import numpy as np
import pytest
from click.testing import CliRunner
from spades_util import table, variant

from simcards.api import hand_odds
from simcards.cli import main
from simcards.core.cards import parse_cards
from simcards.core.errors import SimcardsError
from simcards.core.game import OddsRequest
from simcards.games.spades import GAME, rules
from simcards.games.spades.odds import BID, BN_LABEL, bags_from_scores, prepare, recommended
from simcards.games.spades.policies import BN_BIT

ALL_SPADES = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"
HAND = "AS KS 7S 4S AH QH 9H 5D 4D 3D KC 8C 2C"
BOTS = os.path.join(os.path.dirname(__file__), "spades_probe_bots.py")
SPADES = sum(1 << c for c in range(39, 52))
FIELD = {c.name: i for i, c in enumerate(BID.columns)}


def request(hand=HAND, seat=0, dealer=3, bids=None, scores=(), require=(), accept=None, options=None):
    return OddsRequest(hand=tuple(parse_cards(hand)), seat=seat, dealer=dealer, bids=bids or {},
                       scores=tuple(scores), constraints=tuple(require), accept=accept, options=options or {})


def mask(text):
    return sum(1 << c for c in parse_cards(text))


def spade_count(hands):
    return np.array([bin(int(h) & SPADES).count("1") for h in hands])


def hands_of(out):
    return out[:, [FIELD[f"hand{s}"] for s in range(4)]]


def col(out, field, bid):
    return out[:, FIELD[f"{field}_{bid}"]]


# ---------------------------------------------------------------- end to end


def test_cli_end_to_end(tmp_path):
    plot = tmp_path / "bids.png"
    res = CliRunner().invoke(main, ["bid", "spades", "--hand", HAND, "--seat", "S", "--dealer", "W", "--bids", "N=3,E=4",
                                    "--scores", "310:420", "--deals", "400", "--threads", "1", "--plot", str(plot)])
    assert res.exit_code == 0, res.output
    for text in ("P(makes)", "P(nil made)", "P(win game)", "best for game", "recommended", BN_LABEL, "400 deals"):
        assert text in res.output
    assert plot.stat().st_size > 10_000
    res = CliRunner().invoke(main, ["bid", "spades", "--hand", "AS KS", "--seat", "S"])
    assert res.exit_code == 2 and "13 cards" in res.output and "Traceback" not in res.output


def test_known_hand_is_dealt_to_the_seat_and_every_deal_is_a_deal():
    q = prepare(variant(), request(seat=2, dealer=0, bids={1: "3"}))
    out = BID.simulate(q, variant(), table("basic"), 4, 0, 300)
    hands = hands_of(out).astype(np.uint64)
    deck = (1 << 52) - 1
    assert (hands[:, 2] == mask(HAND)).all()
    assert all(bin(int(h)).count("1") == 13 for h in hands.ravel())
    assert (np.bitwise_or.reduce(hands, axis=1) == deck).all()
    assert all(int(a) & int(b) == 0 for row in hands for i, a in enumerate(row) for b in row[i + 1:])


def test_holding_every_spade_takes_every_trick():
    result = hand_odds(GAME, "bid", hand=ALL_SPADES, seat="N", dealer="W", deals=300, policy="basic", threads=1)
    t = result.table.set_index("bid")
    assert t.loc["13", "P(own tricks>=bid)"] == 1 and t.loc["13", "own tricks"] == 13
    assert t.loc["1", "P(makes)"] == 1 and t.loc["13", "P(makes)"] == 0  # 13 + partner's number > 13 tricks
    assert t.loc["Nil", "P(makes)"] == 0 and t.loc["Nil", "P(nil made)"] == 0


# ---------------------------------------------------------------- options, CRN, exact dealing


def test_options_are_the_legal_bids_after_the_earlier_ones():
    q = prepare(variant(), request(bids={3: "4", 0: "nil"}, seat=1, dealer=2))  # S deals: W, N, then E
    assert q["options"] == (*range(0, 14), BN_BIT) and q["prior"] == (0, -1, -1, 4)
    q = prepare(variant(min_team_bid=4), request(seat=2, dealer=3, bids={0: "1", 1: "3"}))
    assert q["options"] == tuple(range(3, 14))  # partner N bid 1: South must bring the team to 4 (no BN)
    q = prepare(variant(forbid_total_bids_13=True), request(seat=3, dealer=3, bids={0: "4", 1: "4", 2: "3"}))
    assert 2 not in q["options"] and 0 in q["options"]
    q = prepare(variant(blind_nil_min_deficit=100), request(scores=(300, 350)))
    assert BN_BIT not in q["options"]  # BN only 100 behind: not even "had you bid it blind"
    assert BN_BIT in prepare(variant(blind_nil_min_deficit=100), request(scores=(200, 350)))["options"]


def test_all_options_see_the_same_deals():
    """Common random numbers: an option's results do not depend on which others are played."""
    v, t = variant(), table("expert")
    q = prepare(v, request(seat=2, dealer=0, bids={1: "3"}, scores=(250, 300)))
    full = BID.simulate(q, v, t, 3, 0, 200)
    alone = BID.simulate(dict(q, options=(4,)), v, t, 3, 0, 200)
    assert np.array_equal(hands_of(full), hands_of(alone))
    for field in rules.ODDS_FIELDS:
        assert np.array_equal(col(full, field, 4), col(alone, field, 4))
    assert (col(alone, "tricks", 5) == -99).all()


def test_same_results_whatever_the_batches():
    q = prepare(variant(), request(require=("E:void=S",)))
    t = table("expert")
    whole = BID.simulate(q, variant(), t, 9, 0, 300)
    parts = np.vstack([BID.simulate(q, variant(), t, 9, a, 150) for a in (0, 150)])
    assert np.array_equal(whole, parts)


def _check_hypergeometric(counts, population, successes, draws):
    """Each P(count = k) within 4.5 standard errors of the exact hypergeometric value."""
    n = len(counts)
    for k in range(0, min(successes, draws) + 1):
        exact = math.comb(successes, k) * math.comb(population - successes, draws - k) / math.comb(population, draws)
        se = math.sqrt(exact * (1 - exact) / n)
        assert abs(np.mean(counts == k) - exact) <= 4.5 * se + 1e-9, (k, np.mean(counts == k), exact)


def test_unknown_cards_are_dealt_uniformly():
    """East's spades, North holding 4: hypergeometric (39 cards, 9 spades, 13 drawn)."""
    q = prepare(variant(), request())
    out = BID.simulate(dict(q, options=(1,)), variant(), table("basic"), 11, 0, 3000)
    _check_hypergeometric(spade_count(hands_of(out)[:, 1]), 39, 9, 13)


# ---------------------------------------------------------------- conditions: earlier bids, --require, --accept


def test_earlier_bids_reject_deals_where_the_policy_would_bid_otherwise():
    """East bids its spade count; "E=3" keeps exactly the deals where East holds 3 spades,
    and the rest of the deal stays uniform: West's spades given South 4 and East 3 are
    hypergeometric (26 cards, 6 spades, 13 drawn)."""
    v = variant()
    t = table("basic", f"{BOTS}:spade_counter", "basic", "basic")
    q = prepare(v, request(seat=2, dealer=0, bids={1: "3"}))  # N deals: E bids first, then S
    out = BID.simulate(dict(q, options=(2, 4)), v, t, 5, 0, 2500)
    hands = hands_of(out)
    assert (spade_count(hands[:, 1]) == 3).all()
    _check_hypergeometric(spade_count(hands[:, 3]), 26, 6, 13)
    free = BID.simulate(dict(q, prior=(-1, -1, -1, -1), options=(4,)), v, t, 5, 0, 300)
    assert (spade_count(hands_of(free)[:, 1]) != 3).mean() > 0.5  # without the condition most deals differ


def test_conditioning_on_a_randomised_bid_is_exact():
    """East bids 3 when it holds AS or its coin shows heads (else 2); South does not hold AS,
    so P(AS with East) = 1/3 and P(AS with East | East bid 3) = (1/3) / (1/3 + 2/3 x 1/2) = 1/2.

    Every try of the rejection draws fresh policy random numbers. Reusing one coin per
    record for every try would accept any deal after heads and only AS deals after tails:
    1/2 x 1/3 + 1/2 x 1 = 2/3, about 13 standard errors away with these 1500 deals."""
    v = variant()
    t = table("basic", f"{BOTS}:coin_or_ace", "basic", "basic")
    q = prepare(v, request(HAND.replace("AS", "2H"), seat=2, dealer=0, bids={1: "3"}))  # E bids first
    out = BID.simulate(dict(q, options=(3,)), v, t, 13, 0, 1500)
    has = (hands_of(out)[:, 1] >> 51) & 1
    assert abs(has.mean() - 1 / 2) < 4 * math.sqrt(1 / 4 / len(has)), has.mean()
    assert (col(out, "tricks", 3) >= 0).all()  # every deal was played (the replay bid 3 again)


def test_earlier_blind_nil_is_a_condition_too():
    probe = f"{BOTS}:probe"  # bids Blind Nil whenever offered
    t = table("basic", probe, "basic", "basic")
    q = prepare(variant(), request(seat=2, dealer=0, bids={1: "bn"}))
    out = BID.simulate(dict(q, options=(3,)), variant(), t, 2, 0, 50)
    assert (col(out, "tricks", 3) >= 0).all()
    with pytest.raises(SimcardsError, match="no deal satisfies the earlier bids E=3"):
        BID.simulate(prepare(variant(), request(seat=2, dealer=0, bids={1: "3"})), variant(), t, 2, 0, 5)


def test_constraints_are_respected_and_impossible_ones_reported():
    with pytest.raises(SimcardsError):
        prepare(variant(), request(require=("E:has=AS",)))
    hearts = "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"
    q = prepare(variant(), request(hand=ALL_SPADES, require=(f"S:has={hearts.replace(' ', ',')}", "W:void=H")))
    out = BID.simulate(q, variant(), table("basic"), 1, 0, 50)
    assert (col(out, "tricks", 13) == 13).all() and (col(out, "team_tricks", 13) == 13).all()
    assert (hands_of(out)[:, 2] == mask(hearts)).all()
    q = prepare(variant(), request(require=("E:void=C", "W:len(D)>=5")))
    hands = hands_of(BID.simulate(q, variant(), table("basic"), 1, 0, 100)).astype(np.uint64)
    clubs, diamonds = (1 << 13) - 1, ((1 << 13) - 1) << 13
    assert all(int(h) & clubs == 0 for h in hands[:, 1]) and all(bin(int(h) & diamonds).count("1") >= 5 for h in hands[:, 3])
    with pytest.raises(SimcardsError, match="no deal satisfies"):
        q = prepare(variant(), request(hand=ALL_SPADES, require=("E:len(H)>=13", "W:len(H)>=1")))
        BID.simulate(q, variant(), table("basic"), 1, 0, 5)


def test_accept_function_is_used():
    with pytest.raises(SimcardsError, match="no deal satisfies the accept function"):
        hand_odds(GAME, "bid", hand=HAND, seat="N", dealer="W", deals=10, accept=f"{BOTS}:refuse_all", threads=1)


# ---------------------------------------------------------------- Nil, Blind Nil, scores and the game


def test_nil_and_blind_nil_are_reported_as_nil_results():
    q = prepare(variant(), request(hand="2S 3H 4H 5H 2D 3D 4D 5D 2C 3C 4C 5C 6C"))
    out = BID.simulate(q, variant(), table("expert"), 7, 0, 300)
    for bid in ("nil", "bn"):
        nil = col(out, "nil", bid)
        assert set(np.unique(nil)) <= {0, 1} and np.array_equal(nil == 1, col(out, "tricks", bid) == 0)
    assert (col(out, "nil", "4") == -1).all()
    summary = hand_odds(GAME, "bid", hand="2S 3H 4H 5H 2D 3D 4D 5D 2C 3C 4C 5C 6C", seat="N", dealer="W", deals=300,
                        policy="expert", threads=1).table.set_index("bid")
    assert 0.3 < summary.loc["Nil", "P(nil made)"] == summary.loc["Nil", "P(makes)"]
    assert summary.loc[BN_LABEL, "recommended"] == "" and summary.loc["4", "P(nil made)"] == ""


def test_scores_give_the_bag_counters():
    assert bags_from_scores(variant(), (312, -48)) == (2, 2)
    assert bags_from_scores(variant(bag_mode="per_bag"), (312, -48)) == (0, 0)
    assert prepare(variant(), request(scores=(312, 420)))["bags"] == (2, 0)
    assert prepare(variant(), request(scores=(310, 420, 7, 3)))["bags"] == (7, 3)


def test_bag_counters_are_not_guessed_where_the_digit_is_not_the_counter():
    """Issue 14: under bag_overflow=reset the penalty zeroes the counter but the surplus
    stays in the score (8 bags at 348, a contract of 4 winning 8 tricks: 348 + 44 - 100 =
    292 with counter 0), so the last digit (2) is no counter; the counters must be given."""
    from simcards.games.spades.referee import score_team

    reset = variant(bag_overflow="reset")
    r = score_team(reset, 2, False, 4, 2, False, 4, 8)
    assert (348 + r["delta"]) % 10 == 2 and r["bags_after"] == 0
    carry = score_team(variant(), 2, False, 4, 2, False, 4, 8)
    assert (348 + carry["delta"]) % 10 == carry["bags_after"] == 2  # with carry the guess holds
    assert bags_from_scores(reset, (292, 420)) is None
    with pytest.raises(SimcardsError, match="bag_overflow=reset.*--bags"):
        prepare(reset, request(scores=(288, 420)))
    assert prepare(reset, request(scores=(288, 420, 0, 3)))["bags"] == (0, 3)
    assert prepare(reset, request())["bags"] == (0, 0)  # no scores: a game's start
    with pytest.raises(SimcardsError, match="bag_limit=5"):
        prepare(variant(bag_limit=5), request(scores=(288, 420)))


def test_cli_prints_the_bag_counters_and_the_policies(tmp_path):
    base = ["bid", "spades", "--hand", HAND, "--seat", "N", "--dealer", "W", "--deals", "100", "--threads", "1"]
    res = CliRunner().invoke(main, base + ["--scores", "312:420"])
    assert res.exit_code == 0, res.output
    assert "bag counters used: NS 2, EW 0 (the scores' last digits)" in res.output
    assert "policies: fitted at every seat" in res.output
    res = CliRunner().invoke(main, base + ["--scores", "288:420", "--set", "bag_overflow=reset"])
    assert res.exit_code == 2 and "--bags" in res.output and "Traceback" not in res.output
    res = CliRunner().invoke(main, base + ["--scores", "288:420", "--bags", "0:3", "--set", "bag_overflow=reset",
                                           "--seat-policy", "2=basic"])
    assert res.exit_code == 0, res.output
    assert "bag counters used: NS 0, EW 3 (given)" in res.output
    assert "policies: fitted at every seat but seat 2 basic" in res.output
    res = CliRunner().invoke(main, base + ["--bags", "0:3"])
    assert res.exit_code == 2 and "--scores" in res.output


def test_a_winning_hand_wins_the_game():
    """At 495:-400 a positive hand puts NS at 500+ while EW cannot reach it: P(win) = 1 there."""
    q = prepare(variant(), request(scores=(495, -400)))
    out = BID.simulate(q, variant(), table("expert"), 8, 0, 300)
    for b in q["options"]:
        name = "bn" if b == BN_BIT else ("nil" if b == 0 else str(b))
        points, win = col(out, "points", name), col(out, "win", name)
        assert (win[points >= 5] == 1).all() and set(np.unique(win)) <= {0, 1}
    v = variant(bag_mode="none")  # all 13 tricks: bid 1 makes 10 * (1 + partner's bid) + bags, EW lose
    q = prepare(v, request(hand=ALL_SPADES, scores=(490, 0)))
    assert (col(BID.simulate(q, v, table("basic"), 8, 0, 50), "win", "1") == 1).all()
    assert (col(BID.simulate(prepare(variant(), request()), variant(), table("basic"), 8, 0, 20), "win", "4") == -1).all()


def test_present_recommends_by_points_and_by_game():
    result = hand_odds(GAME, "bid", hand=HAND, seat="S", dealer="W", bids="N=3,E=4", scores="440:420", deals=600,
                       policy="expert", threads=1)
    tab = result.table
    legal = tab[tab.bid != BN_LABEL]
    assert (np.diff(legal["team points"].to_numpy()) <= 0).all() and tab.iloc[-1].bid == BN_LABEL
    assert tab.loc[tab.recommended == "yes", "bid"].tolist() == [legal.iloc[0].bid]
    best = legal.loc[legal["P(win game)"].idxmax(), "bid"]
    assert tab.loc[tab["best for game"] == "yes", "bid"].tolist() == [best]
    assert recommended(result.query, result.summary, "game") == best
    fig = BID.figure(result.query, result.summary, variant())
    marked = [line.get_xdata()[0] for line in fig.axes[0].lines if line.get_color() == "tab:red"]
    assert marked == [0 if legal.iloc[0].bid == "Nil" else int(legal.iloc[0].bid)]


def test_precision_stops_when_every_rate_is_precise():
    result = hand_odds(GAME, "bid", hand=HAND, seat="N", dealer="W", precision=0.03, max_deals=40_000, threads=1)
    assert result.resolved and result.widest_half_width() <= 0.03 and result.deals < 40_000
    rates = set(result.summary[result.summary.kind == "rate"].metric)
    assert rates == {"makes", "own_tricks>=bid", "nil_made", "partner_made"}  # the trick-count shares are not targets


@pytest.mark.parametrize("kw,message", [
    ({"hand": "AS KS"}, "13 cards"),
    ({"bids": {1: "3"}}, "bids after"),
    ({"seat": 2, "dealer": 3}, "earlier bids"),
    ({"seat": 1, "dealer": 3, "bids": {0: "14"}}, "1..13"),
    ({"seat": 2, "dealer": 0, "bids": {1: "nil", 3: "2"}}, "bids after"),
    ({"dealer": 4}, "dealer must be"),
    ({"scores": (1, 2, 3)}, "two team scores"),
    ({"scores": (510, 420)}, "already over"),
    ({"scores": (310, 420, 12, 0)}, "bag counters"),
    ({"hand": ALL_SPADES.replace("2S", "LJ")}, "not in the deck"),
    ({"options": {"deal": 2}}, "--deal does not apply"),
])
def test_bad_requests_are_one_line_errors(kw, message):
    with pytest.raises(SimcardsError, match=message):
        prepare(variant(), request(**kw))


def test_illegal_earlier_bid_is_refused():
    with pytest.raises(SimcardsError, match="may not bid"):
        prepare(variant(min_team_bid=4), request(seat=1, dealer=1, bids={2: "1", 3: "3", 0: "nil"}))
    with pytest.raises(SimcardsError, match="may not bid BN"):
        prepare(variant(blind_nil_allowed=False), request(seat=2, dealer=0, bids={1: "bn"}))


def test_bid_plot_shows_each_bids_make_rate_and_points_with_intervals():
    result = hand_odds(GAME, "bid", hand=HAND, seat="N", dealer="W", deals=300, policy="basic", threads=1)
    fig = BID.figure(result.query, result.summary, variant())
    tricks, makes, points = fig.axes
    assert makes.get_ylabel().startswith("P(makes)") and points.get_ylabel().startswith("expected team points")
    labels = [t.get_text() for t in makes.get_xticklabels()]
    heights = {label: bar.get_height() for label, bar in zip(labels, makes.patches)}
    rates = result.summary[result.summary.metric == "makes"].set_index("group").estimate
    for label, height in heights.items():
        group = BN_LABEL if label == "BN" else label
        assert height == pytest.approx(rates[group])
    assert len(makes.patches) == len(labels)
    assert any(type(c).__name__ == "ErrorbarContainer" for c in makes.containers)  # the intervals are drawn
