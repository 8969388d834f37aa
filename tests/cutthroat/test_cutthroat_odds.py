"""`simcards bid cutthroat`: dealing around a known hand and playing every bid on the same deals."""
import math
import textwrap

import numpy as np
import pytest
from click.testing import CliRunner

from simcards.api import hand_odds
from simcards.cli import main
from simcards.core.cards import cards_of, parse_cards
from simcards.core.errors import SimcardsError
from simcards.core.game import OddsRequest
from simcards.games.cutthroat import GAME, referee, rules
from simcards.games.cutthroat.layout import B_1F, B_B6, B_BN, B_SM, NIL, bid_name
from simcards.games.cutthroat.odds import BID, LOOK, bags_from_scores, column, prepare, recommended, simulate
from simcards.games.cutthroat.policies import CATALOG
from simcards.games.cutthroat.variant import CutthroatVariant, form_of

HAND = "AS KS 7S 4S 3S AH QH 9H 5H 5D 4D 3D KC 8C 7C 4C 3C"  # 17 cards, 5 spades
TOP = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AH KH QH JH"  # every trump and the top hearts
SPADES = sum(1 << c for c in range(39, 52))
CLUBS = sum(1 << c for c in range(13))
V3 = CutthroatVariant()
BASIC3 = CATALOG.table(["basic"] * 3)


def request(hand=HAND, seat=0, dealer=2, bids=None, scores=(), require=(), accept=None, options=None):
    return OddsRequest(hand=tuple(parse_cards(hand)), seat=seat, dealer=dealer, bids=bids or {},
                       scores=tuple(scores), constraints=tuple(require), accept=accept, options=options or {})


def run(req, v=V3, table=BASIC3, n=300, seed=5, start=0):
    q = prepare(v, req)
    return q, simulate(q, v, table, seed, start, n)


def hands_of(out, n):
    return out[:, [BID.columns.index(next(c for c in BID.columns if c.name == f"hand{s}")) for s in range(n)]]


def col(out, code, field):
    names = [c.name for c in BID.columns]
    return out[:, names.index(column(code, field))]


def mask(text):
    return sum(1 << c for c in parse_cards(text))


def count(masks, suit_mask):
    return np.array([bin(int(h) & suit_mask).count("1") for h in masks])


# ---------------------------------------------------------------- end to end


def test_cli_end_to_end(tmp_path):
    plot = tmp_path / "bids.png"
    res = CliRunner().invoke(main, ["bid", "cutthroat", "--players", "3", "--hand", HAND, "--scores", "120:180:95",
                                    "--bags", "3:0:7", "--deals", "300", "--threads", "1", "--plot", str(plot)])
    assert res.exit_code == 0, res.output
    for text in ("P(success)", "points 95% CI", "P(win game)", "best for game", "recommended", "B6 (if blind)",
                 "BN (if blind)", "seat 1 bids", "seat 2 bids", "300 deals",
                 "bag counters used: seat 0 3, seat 1 0, seat 2 7 (given)", "policies: fitted at every seat"):
        assert text in res.output
    assert plot.stat().st_size > 10_000
    res = CliRunner().invoke(main, ["bid", "cutthroat", "--hand", "AS KS"])
    assert res.exit_code == 2 and "17 cards" in res.output and "Traceback" not in res.output
    res = CliRunner().invoke(main, ["bid", "cutthroat", "--players", "3", "--hand", HAND, "--scores", "120:180:95"])
    assert res.exit_code == 2 and "--bags" in res.output and "Traceback" not in res.output


# ---------------------------------------------------------------- exactness and the deal


@pytest.mark.parametrize("pairs, hand, seat, dealer", [
    ([], HAND, 1, 0),
    (["num_players=4"], "AS KS 7S 4S AH QH 9H 5D 4D 3D KC 8C 2C", 2, 1),
    (["num_players=5"], "AS KS 7S AH QH 9H 5D 4D KC 8C", 4, 3),
    (["num_players=5", "jokers=2"], "BJ AS 7S AH QH 9H 5D 4D KC 8C", 0, 0),  # the dealer holds 10
    (["num_players=5", "jokers=3"], "MJ AS 7S AH QH 9H 5D 4D KC 8C 2C", 3, 0),
])
def test_known_cards_stay_with_the_seat_and_every_deal_is_a_deal(pairs, hand, seat, dealer):
    v = GAME.variant(pairs=pairs)
    f = form_of(v)
    bids = {s: "1" for s in [(dealer + 1 + i) % f.n for i in range(f.n)][:[(dealer + 1 + i) % f.n
                                                                          for i in range(f.n)].index(seat)]}
    q, out = run(request(hand, seat, dealer, bids=bids), v, CATALOG.table(["basic"] * f.n), n=150)
    hands = hands_of(out, f.n)
    known = mask(hand)
    assert ((hands[:, seat] & known) == known).all()
    union = np.zeros(len(out), dtype=np.int64)
    for s in range(f.n):
        assert ((union & hands[:, s]) == 0).all()
        union |= hands[:, s]
        size = f.tricks - 1 if f.dealer_sits_out and s == dealer else f.tricks
        assert (count(hands[:, s], (1 << 55) - 1) == size).all()
    assert (union == f.deck).all()
    for code in q["options"]:
        assert (col(out, code, "tricks") >= 0).all()
        total = col(out, code, "tricks")
        assert (total <= f.tricks).all()


def test_unknown_cards_are_dealt_uniformly():
    """Seat 1's spades given the 5 we hold: hypergeometric, 8 spades among 34 cards, 17 drawn."""
    _, out = run(request(), n=3000, seed=11)
    k = count(hands_of(out, 3)[:, 1], SPADES)
    pmf = np.array([math.comb(8, j) * math.comb(26, 17 - j) / math.comb(34, 17) for j in range(9)])
    mean = (pmf * np.arange(9)).sum()
    sd = math.sqrt((pmf * (np.arange(9) - mean) ** 2).sum())
    assert abs(k.mean() - mean) < 4 * sd / math.sqrt(len(k))
    for j in (3, 4, 5):
        p = pmf[j]
        assert abs((k == j).mean() - p) < 4 * math.sqrt(p * (1 - p) / len(k))


def test_holding_every_trump_and_the_top_hearts_takes_every_trick():
    q, out = run(request(TOP), n=200)
    assert (col(out, B_SM, "tricks") == 17).all()
    # every trick: both prize jacks too (150 + 2 x 10)
    assert (col(out, B_SM, "made") == 1).all() and (col(out, B_SM, "delta") == 170).all()
    assert (col(out, NIL, "made") == 0).all()


# ---------------------------------------------------------------- options and common random numbers


def test_options_follow_the_rules_and_b6_eligibility():
    q = prepare(V3, request())
    assert [bid_name(c) for c in q["options"]] == [str(k) for k in range(1, 14)] + ["NIL", "1F", "2F", "SM", "BN"]
    q = prepare(V3, request(scores=(120, 180, 95, 0, 0, 0)))  # deficit 60: B6 allowed (docs/games/cutthroat.md, rule 9.5)
    assert q["options"][-2:] == (B_B6, B_BN)
    q = prepare(V3, request(scores=(135, 180, 95, 0, 0, 0)))  # deficit 45
    assert B_B6 not in q["options"]
    q = prepare(V3, request(scores=(120, 180, 95, 0, 0, 0, 1, 0, 0)))  # B6 already used this game
    assert B_B6 not in q["options"]
    q = prepare(V3, request(hand="", scores=(120, 180, 95, 0, 0, 0)))  # before looking
    assert q["options"] == (LOOK, B_B6, B_BN)
    v = V3.replace(forbid_total_bids_equal_tricks=True)
    q = prepare(v, request(seat=2, dealer=2, bids={0: "6", 1: "5"}))  # rules 9.20
    assert 6 not in q["options"] and B_B6 not in q["options"] and 7 in q["options"]


def test_all_options_see_the_same_deals_and_batches_do_not_matter():
    req = request(seat=1, dealer=0, bids={})
    q, whole = run(req, n=120, seed=3)
    _, first = run(req, n=70, seed=3)
    _, rest = run(req, n=50, seed=3, start=70)
    assert (np.vstack([first, rest]) == whole).all()
    # each option alone is played on the same deals with the same results
    for code in (4, NIL, B_SM):
        single = dict(q, options=(code,))
        alone = simulate(single, V3, BASIC3, 3, 0, 120)
        for field in ("tricks", "delta", "bid2", "win"):
            assert (col(alone, code, field) == col(whole, code, field)).all()
        assert (hands_of(alone, 3) == hands_of(whole, 3)).all()


def test_deltas_agree_with_the_referee_scoring():
    v = V3.replace(prize_jacks=())  # no jacks: the delta depends only on bid and tricks
    q, out = run(request(), v, n=200)
    for code in q["options"]:
        for t, d in zip(col(out, code, "tricks")[:40], col(out, code, "delta")[:40]):
            assert d == referee.score_player(v, bid_name(code), int(t), set(), 0)[0]


# ---------------------------------------------------------------- conditioning


def test_earlier_bids_reject_deals_where_the_policy_would_bid_otherwise():
    q, out = run(request(seat=1, dealer=2, bids={0: "8"}), n=300, seed=2)
    for code in q["options"]:
        assert (col(out, code, "bid0") == 8).all()
    spades = count(hands_of(out, 3)[:, 0], SPADES)
    # unconditioned, seat 0 holds 8 x 17 / 34 = 4 spades on average (hypergeometric, sd about 1.03)
    assert spades.mean() - 4 > 4 * 1.03 / math.sqrt(len(spades))  # a bid of 8 needs trumps


def test_conditioning_on_a_random_policy_is_exact(tmp_path):
    """Seat 0 bids 1 when it holds AS or a coin says so: P(AS with seat 0 | bid 1) = 0.5 / 0.75.

    Each try of the rejection draws fresh policy randomness; reusing one coin per record
    would give 0.5 x 0.5 + 0.5 x 1 = 0.75 instead."""
    path = tmp_path / "coin_bots.py"
    path.write_text(textwrap.dedent("""
        import simcards
        from simcards.core.rng import below
        from simcards.games.cutthroat.policies import BUILTINS

        def coin_or_ace(view, masks, rng):
            heads = below(rng, 2) == 1
            if (masks[0] >> 51) & 1 or heads:
                return 1
            return 2

        coin = simcards.Policy("coin", base=BUILTINS["basic"], bid=coin_or_ace)
    """))
    table = CATALOG.table([f"{path}:coin", "basic", "basic"])
    hand = HAND.replace("AS", "2S")  # the ace of spades is with seat 0 or seat 2, even odds
    q = prepare(V3, request(hand, seat=1, dealer=2, bids={0: "1"}))
    q = dict(q, options=(4,))
    out = simulate(q, V3, table, 9, 0, 1500)
    has = (hands_of(out, 3)[:, 0] >> 51) & 1
    assert abs(has.mean() - 2 / 3) < 4 * math.sqrt(2 / 9 / len(has))


def test_earlier_blind_bid_is_a_condition_too():
    table = CATALOG.table(["expert", "basic", "basic"])
    q, out = run(request(seat=1, dealer=2, bids={0: "B6"}, scores=(0, 200, 0, 0, 0, 0)), table=table, n=50)
    assert (col(out, 4, "bid0") == B_B6).all()
    with pytest.raises(SimcardsError, match="no deal satisfies the earlier bids 0=BN"):
        run(request(seat=1, dealer=2, bids={0: "BN"}), table=table, n=5)  # expert never bids BN at 0:0:0


def test_constraints_are_respected_and_impossible_ones_reported():
    q, out = run(request(require=("1:void=C", "2:has=JS")), n=200)
    hands = hands_of(out, 3)
    assert (count(hands[:, 1], CLUBS) == 0).all()
    assert ((hands[:, 2] & mask("JS")) != 0).all()
    with pytest.raises(SimcardsError, match="no deal satisfies"):
        run(request(require=("1:len(S)>=8", "2:len(S)>=1")), n=5)  # 8 spades are out: seat 1 needs all
    with pytest.raises(SimcardsError, match="cannot be in seat"):
        prepare(V3, request(require=("1:has=AS",)))


def test_accept_function_is_used(tmp_path):
    path = tmp_path / "accept_bots.py"
    path.write_text(textwrap.dedent("""
        def ace_of_diamonds_left(hands):
            return (hands[1] >> 25) & 1 == 1

        def never(hands):
            return False
    """))
    _, out = run(request(accept=f"{path}:ace_of_diamonds_left"), n=100)
    assert ((hands_of(out, 3)[:, 1] >> 25) & 1 == 1).all()
    with pytest.raises(SimcardsError, match="accept function"):
        run(request(accept=f"{path}:never"), n=2)


# ---------------------------------------------------------------- scores and the game


def test_scores_give_the_bag_counters():
    carry = V3.replace(bag_out_penalty="fixed_carry")
    assert bags_from_scores(carry, (312, -48, 0)) == (2, 2, 0)
    assert bags_from_scores(V3.replace(bag_mode="per_bag"), (312, -48, 0)) == (0, 0, 0)
    q = prepare(carry, request(scores=(312, 100, 40)))
    assert q["bags"] == (2, 0, 0) and q["play_out"]
    q = prepare(V3, request(scores=(312, 100, 40, 5, 0, 0)))
    assert q["bags"] == (5, 0, 0)


def test_bag_counters_are_not_guessed_under_the_default_bag_out():
    """Issue 14: the default bag-out costs 10 per bag held and zeroes the counter, so the
    overshoot stays in the score's digit (8 bags, bid 3 and win 7: 128 + 34 - 120 = 42 with
    counter 0); the counters must be given."""
    from simcards.games.cutthroat.referee import score_player

    delta, g_after, _, _ = score_player(V3, "3", 7, set(), 8)
    assert (128 + delta) % 10 == 2 and g_after == 0
    carry = V3.replace(bag_out_penalty="fixed_carry")
    delta, g_after, _, _ = score_player(carry, "3", 7, set(), 8)
    assert (128 + delta) % 10 == g_after == 2  # with carry-over the guess holds
    assert bags_from_scores(V3, (42, 100, 40)) is None
    with pytest.raises(SimcardsError, match="bag_out_penalty=per_accumulated_bag.*--bags"):
        prepare(V3, request(scores=(42, 100, 40)))
    q = prepare(V3, request(scores=(42, 100, 40, 0, 0, 0)))
    assert q["bags"] == (0, 0, 0) and q["bags_from"] == "given"
    assert prepare(V3, request())["bags"] == (0, 0, 0)  # no scores: a game's start


def test_a_made_moon_near_the_target_wins_the_game():
    q, out = run(request(TOP, scores=(400, 300, 300, 0, 0, 0)), n=100)
    assert (col(out, B_SM, "win") == 1).all()  # 400 + 150 alone past 500
    assert set(np.unique(col(out, NIL, "win"))) <= {0, 1}


def test_game_played_out_matches_the_game_unit():
    """Before looking, at 0:0:0, "look, then bid" is a whole game from its first hand: its
    P(win game) must agree with the game unit's win share (independent streams)."""
    q = prepare(V3, request(hand="", seat=0, dealer=2, scores=(0, 0, 0, 0, 0, 0)))
    assert q["options"][0] == LOOK and q["play_out"]
    n = 1500
    odds = col(simulate(dict(q, options=(LOOK,)), V3, BASIC3, 21, 0, n), LOOK, "win") == 1
    games = rules.simulate("game", V3.replace(first_dealer=2), BASIC3, 22, 0, n)
    unit = games[:, rules.GAME_COLUMNS.index("winner")] == 0
    p = (odds.sum() + unit.sum()) / (2 * n)
    assert abs(odds.mean() - unit.mean()) < 4 * math.sqrt(2 * p * (1 - p) / n)


def test_present_recommends_by_points_and_by_game():
    res = hand_odds("cutthroat", "bid", hand=HAND, scores="120:180:95:0:0:5", deals=400, threads=1)
    t = res.table
    assert t.loc[0, "recommended"] == "yes" and (t.recommended == "yes").sum() == 1
    real = ~t.bid.str.endswith("(if blind)")
    assert t.loc[0, "points"] == t[real].points.max()
    assert t[t["best for game"] == "yes"]["P(win game)"].iloc[0] == t[real]["P(win game)"].max()
    assert recommended(res.query, res.summary) == t.loc[0, "bid"]
    assert list(t.bid[~real]) == ["B6 (if blind)", "BN (if blind)"]


def test_blind_question_before_looking():
    res = hand_odds("cutthroat", "bid", hand="", scores="120:180:95:0:0:5", deals=300, threads=1)
    assert set(res.table.bid) == {"look, then bid", "B6", "BN"}
    assert res.table["your bid"].str.len().gt(0).all()


def test_precision_stops_when_every_rate_is_precise():
    res = hand_odds("cutthroat", "bid", hand=HAND, deals=None, precision=0.05, max_deals=50_000, threads=1)
    assert res.resolved and res.deals < 50_000
    assert res.widest_half_width() <= 0.05


# ---------------------------------------------------------------- bad requests


@pytest.mark.parametrize("kw, message", [
    (dict(hand="AS KS"), "17 cards"),
    (dict(hand=HAND.replace("3C", "2C")), "2C is not in the deck"),
    (dict(seat=3), "seat must be a seat 0..2"),
    (dict(dealer=5), "dealer must be"),
    (dict(seat=1, dealer=0), None),
    (dict(seat=2, dealer=0, bids={1: "4"}), None),
    (dict(seat=2, dealer=0), "give the earlier bids of seat"),
    (dict(seat=0, dealer=2, bids={1: "4"}), "bids after seat 0"),
    (dict(seat=1, dealer=2, bids={0: "XX"}), "must be NIL"),
    (dict(seat=1, dealer=2, bids={0: "B6"}), "may not bid B6"),
    (dict(scores=(100, 200)), "3 scores"),
    (dict(scores=(510, 200, 100, 0, 0, 0)), "already over"),
    (dict(scores=(100, 200, 0, 12, 0, 0)), "bag counters"),
    (dict(options={"deal": 2}), "--deal does not apply"),
])
def test_bad_requests_are_one_line_errors(kw, message):
    if message is None:
        prepare(V3, request(**kw))
        return
    with pytest.raises(SimcardsError, match=message) as err:
        prepare(V3, request(**kw))
    assert "\n" not in str(err.value)


def test_unsupported_variant_is_refused():
    with pytest.raises(SimcardsError, match="misdeal_optional"):
        prepare(V3.replace(misdeal_condition="no_spades", misdeal_optional=True), request())
    with pytest.raises(SimcardsError, match="would be redealt"):
        prepare(V3.replace(misdeal_condition="no_face_cards"), request("AS 7S 4S 3S 2S 9H 8H 5H 5D 4D 3D 8C 7C 6C 4C 3C 5C"))
    q, out = run(request(), V3.replace(misdeal_condition="at_most_one_spade"), n=100)
    hands = hands_of(out, 3)
    assert (count(hands[:, 1], SPADES) >= 2).all() and (count(hands[:, 2], SPADES) >= 2).all()


def test_basic_plays_its_nil_and_its_one_for_fifty_as_bid():
    """Issue 14 check: basic plays every special contract it can bid the way the bid requires.
    On a plain Nil hand its Nil and 1F succeed about as often as expert's (same deals)."""
    weak = "2S 3S 4S 2H 3H 4H 5H 7H 2D 3D 4D 5D 8D 3C 4C 6C 7C"
    n = 2000
    got = {}
    for name in ("basic", "expert"):
        q, out = run(request(weak), table=CATALOG.table([name] * 3), n=n, seed=23)
        got[name] = {code: col(out, code, "made") for code in (NIL, B_1F)}
    for code in (NIL, B_1F):
        diff = got["basic"][code].astype(float) - got["expert"][code]
        assert set(np.unique(got["basic"][code])) <= {0, 1}
        assert diff.mean() > -0.03 - 4 * diff.std(ddof=1) / np.sqrt(n), (code, got["basic"][code].mean())
    assert got["basic"][NIL].mean() > 0.9


def test_bid_plot_shows_each_bids_success_rate_and_points_with_intervals():
    result = hand_odds("cutthroat", "bid", hand=HAND, scores="120:180:95:0:0:5", deals=300, policy="basic", threads=1)
    fig = BID.figure(result.query, result.summary, CutthroatVariant())
    tricks, made, points = fig.axes
    assert made.get_ylabel().startswith("P(succeeds)") and points.get_ylabel().startswith("expected points")
    rates = result.summary[result.summary.metric == "succeeds"].set_index("group").estimate
    names = [n for n in rates.index]
    heights = [bar.get_height() for bar in made.patches]
    assert len(heights) == len(made.get_xticklabels()) == len(points.patches)
    assert sorted(round(h, 9) for h in heights) == sorted(round(rates[n], 9) for n in names)
    assert any(type(c).__name__ == "ErrorbarContainer" for c in made.containers)  # the intervals are drawn
