"""`simcards odds contract-rummy`: the held hand's P(down by turn k), P(out first), penalty.

Exactness (the seat is dealt exactly the known multiset, every deal is the whole pack),
a hypergeometric check of how the unknown cards are dealt, a hand that is down at once,
chunking, the CLI end to end, refusals and --precision.
"""
import numpy as np
import pytest
from click.testing import CliRunner

from simcards.api import hand_odds
from simcards.cli import main
from simcards.core.errors import SimcardsError
from simcards.core.game import OddsRequest
from simcards.games.contract_rummy import GAME
from simcards.games.contract_rummy import odds as O
from simcards.games.contract_rummy import rules as R
from simcards.games.contract_rummy.melds import JOKER, NT
from simcards.games.contract_rummy.referee import check_trace
from simcards.games.contract_rummy.sim import run_chunk

HAND4 = "7S 7H 7D QS QH 2C 5D 9H KC 4S"  # 10 cards, deal 1 (two sets), no joker
HAND5 = "7S 7S 7H JK QS QH 2C 5D 9H KC"  # 5 players, 2 decks: a repeated card and a joker


def variant(players=4, **kw):
    return GAME.variant(None, {"num_players": players, **kw})


def table(players):
    return GAME.policies.table(["basic"] * players)


def query(v, hand, **kw):
    return O.prepare(v, OddsRequest(hand=tuple(O.parse_hand(hand)), **kw))


def full_pack(v):
    c = np.zeros(NT, np.int64)
    c[:52] = v.decks()
    c[JOKER] = v.jokers()
    return c


def dealt(trace, n):
    """Hands, up-card and stock of the first deal in a trace (counts)."""
    hands = np.zeros((n, NT), np.int64)
    rest = np.zeros(NT, np.int64)
    for ev in trace:
        if ev.kind == "hand":
            hands[ev.seat, ev.card] += ev.count
        elif ev.kind in ("upcard", "stock"):
            rest[ev.card] += 1
        elif ev.kind == "turn":
            break
    return hands, rest


@pytest.mark.parametrize("players,hand,deal,seat", [(4, HAND4, 1, 2), (5, HAND5, 1, 0),
                                                   (5, HAND5 + " 3C 3C", 5, 4)])
def test_known_hand_is_dealt_exactly_and_the_pack_is_whole(players, hand, deal, seat):
    v = variant(players)
    q = query(v, hand, seat=seat, options={"deal": deal})
    for i in range(6):
        _, tr = run_chunk("deal", q["variant"], table(players), 11, i, 1, trace_rows=100_000,
                          known=q["counts"], seat=seat)
        assert tr[0].kind == "deal" and tr[0].dealer == q["dealer"] and tr[0].deal_no == deal
        hands, rest = dealt(tr, players)
        assert (hands[seat] == q["counts"]).all()
        assert (hands.sum(axis=1) == v.hand_sizes[deal - 1]).all()
        assert (hands.sum(axis=0) + rest == full_pack(v)).all()
        assert check_trace(tr, q["variant"]) == []  # and the deal is played by the rules from there


def test_other_hands_are_hypergeometric():
    """Jokers reaching another seat: exact mean (J - known) * h / (N - h) per seat."""
    v = variant(5)  # 2 decks, 2 jokers, 106 cards; the hand holds one joker
    q = query(v, HAND5, seat=1)
    n = 1500
    rows = O.simulate(q, v, table(5), 21, 0, n)
    cols = [c.name for c in O.COLUMNS]
    jd = rows[:, [cols.index(f"jokers_dealt_{s}") for s in range(5)]]
    assert (jd[:, 1] == 1).all()
    assert (jd.sum(axis=1) <= 2).all()
    others = jd[:, [0, 2, 3, 4]]
    p = 1 * 10 / 96  # P(a given other seat holds the remaining joker)
    got = others.mean()
    se = np.sqrt(p * (1 - p) / n)  # per seat; the four seats are negatively correlated, so this is wide
    assert abs(got - p) < 4 * se
    for s in range(4):
        assert abs(others[:, s].mean() - p) < 4 * se


def test_a_hand_holding_its_contract_is_down_on_the_first_turn():
    """basic goes down as soon as it can (expert may wait to go down with more)."""
    v = variant(4)
    hand = "7S 7H 7D QS QH QD 2C 5D 9H KC"  # two sets already: first to play, down at once
    r = hand_odds(GAME, "odds", hand=hand, seat=0, seed=1, deals=200, threads=1, policy="basic")
    by = r.summary.set_index(["metric", "group"]).estimate
    assert by[("down_by_turn", "k=1")] == 1.0
    assert by[("down", "deal")] == 1.0


def test_seat_and_dealer_defaults():
    v = variant(4)
    q = query(v, HAND4)
    assert (q["seat"], q["dealer"]) == (0, 3)
    q = query(v, HAND4, dealer=1)
    assert (q["seat"], q["dealer"]) == (2, 1)
    q = query(v, HAND4, seat=1, options={"deal": 3})
    assert q["dealer"] == 0 and q["variant"].contract == 3
    assert (q["variant"].first_dealer + 2) % 4 == 0  # the dealer of deal 3


def test_chunking_does_not_change_records():
    v = variant(4)
    q = query(v, HAND4, seat=3)
    whole = O.simulate(q, v, table(4), 5, 10, 12)
    parts = np.vstack([O.simulate(q, v, table(4), 5, 10 + i, 3) for i in range(0, 12, 3)])
    assert (whole == parts).all()
    other = O.simulate(q, v, table(4), 6, 10, 12)
    assert not (whole == other).all()


def test_cli_end_to_end(tmp_path):
    png = tmp_path / "curve.png"
    res = CliRunner().invoke(main, ["odds", "contract-rummy", "--deal", "1", "--players", "5", "--hand", HAND5,
                                    "--seat", "2", "--deals", "300", "--seed", "4", "--threads", "2",
                                    "--plot", str(png)])
    assert res.exit_code == 0, res.output
    assert "P(down by turn 1)" in res.output and "expected penalty (you)" in res.output
    assert "300 deals" in res.output
    assert png.stat().st_size > 1000


def test_precision_stops_early():
    r = hand_odds(GAME, "odds", hand=HAND4, seed=2, precision=0.06, max_deals=20_000, threads=2)
    assert r.resolved and r.deals < 20_000
    assert r.widest_half_width() <= 0.06


@pytest.mark.parametrize("kw,message", [
    ({"hand": "7S 7H"}, "deals 10 cards; the hand has 2"),
    ({"hand": "JK BJ 7H 7D QS QH 2C 5D 9H KC"}, "JK is written 2 times but the pack has 1 joker"),
    ({"hand": "7S 7S 7H QS QH 2C 5D 9H KC 4S"}, "written 2 times"),
    ({"hand": HAND4, "settings": ["num_jokers=0"], "options": {"deal": 2}}, None),
    ({"hand": HAND4.replace("4S", "JK"), "settings": ["num_jokers=0"]}, "not in the pack"),
    ({"hand": HAND4, "bids": "E=3"}, "--bids does not apply"),
    ({"hand": HAND4, "scores": "10:20:30"}, "--scores needs 4 penalty totals"),
    ({"hand": HAND4, "scores": "1:2:3:4", "settings": ["tie_break=most_deals_won"]}, "needs tie_break=shared"),
    ({"hand": HAND4, "require": ["E:has=AS"]}, "--require is not supported"),
    ({"hand": HAND4, "accept": "x.py:f"}, "--accept is not supported"),
    ({"hand": HAND4, "options": {"deal": 8}}, "--deal must be 1..7"),
    ({"hand": HAND4, "seat": "5"}, "unknown seat"),
    ({"hand": "7S 7H 7D QS QH 2C 5D 9H KC XX"}, "unknown card"),
])
def test_bad_input(kw, message):
    if message is None:  # control: a valid request with the same keys runs
        hand_odds(GAME, "odds", seed=0, deals=4, threads=1, **kw)
        return
    with pytest.raises(SimcardsError, match=message.replace("(", r"\(")):
        hand_odds(GAME, "odds", seed=0, deals=4, threads=1, **kw)


def test_cli_refusal_is_one_line():
    res = CliRunner().invoke(main, ["odds", "contract-rummy", "--hand", "7S 7H", "--deals", "10"])
    assert res.exit_code == 2
    assert len(res.output.strip().splitlines()) == 1 and "the hand has 2" in res.output


def test_uniform_known_hands_reproduce_the_unconditioned_deal():
    """Independent check of the conditioning: a known hand drawn uniformly from the pack,
    then dealt around, is a uniform deal; so its odds averaged over such hands must match
    the normal ``deal`` unit (same dealer and seat), within the two runs' sampling error."""
    n = 1500
    v = variant(4, first_dealer=3)  # deal 1: dealer 3, seat 0 plays first
    cols = [c.name for c in O.DEAL_COLUMNS]
    plain = run_chunk("deal", v, table(4), 31, 0, n)
    rng = np.random.default_rng(5)
    pack = np.repeat(np.arange(NT), full_pack(v))
    known = []
    for i in range(n):
        hand = rng.choice(pack, 10, replace=False)
        q = O.prepare(v, OddsRequest(hand=tuple(int(t) for t in hand), seat=0))
        known.append(O.simulate(q, v, table(4), 32, i, 1)[0])
    known = np.array(known)
    down, out = cols.index("down_turn_0"), cols.index("out_seat")
    for name, f in (("down by 3", lambda r: (r[:, down] > 0) & (r[:, down] <= 3)),
                    ("down", lambda r: r[:, down] > 0),
                    ("out first", lambda r: r[:, out] == 0)):
        a, b = f(plain).mean(), f(known).mean()
        p = (a + b) / 2
        se = np.sqrt(2 * p * (1 - p) / n)
        assert abs(a - b) < 4.5 * se, (name, a, b)
    pa = plain[:, cols.index("score_0")]
    pb = known[:, cols.index("score_0")]
    se = np.sqrt(pa.var() / n + pb.var() / n)
    assert abs(pa.mean() - pb.mean()) < 4.5 * se


def test_final_deal_curve_reaches_long_turns(tmp_path):
    """Deal 7 (all at once) lasts 100+ own turns: the curve's coarse grid and log plot."""
    png = tmp_path / "final.png"
    r = hand_odds(GAME, "odds", hand="7S 7H 7D QS QH 2C 5D 9H KC 4S 10H JK", options={"deal": 7}, seed=3,
                  deals=40, threads=2, plot=str(png))
    by = r.summary.set_index(["metric", "group"]).estimate
    assert by[("down_by_turn", "k=500")] == by[("down", "deal")]  # the 1000-turn cap: < 250 own turns
    assert any(r.table.quantity == "P(down by turn 100)") or by[("down", "deal")] - by[("down_by_turn", "k=20")] < 0.005
    assert png.stat().st_size > 1000


def test_scores_play_the_game_on_from_this_deal():
    """With --scores the deal is the same as without (same records of that deal: the game
    starts at it with the same streams), and the game's winners follow from the totals."""
    v = variant(4, contracts="2-0,1-1,0-2", hand_sizes=(10, 10, 10))
    names = [c.name for c in O.COLUMNS]
    deal_cols = [names.index(c) for c in ["turns", "exhausted", "out_seat"]
                 + [f"{m}_{s}" for m in ("score", "down_turn") for s in range(4)]]
    q0 = query(v, HAND4, seat=1, options={"deal": 2})
    q1 = query(v, HAND4, seat=1, options={"deal": 2}, scores=(30, 10, 0, 55))
    a = O.simulate(q0, v, table(4), 8, 0, 60)
    b = O.simulate(q1, v, table(4), 8, 0, 60)
    assert (a[:, deal_cols] == b[:, deal_cols]).all()
    assert (a[:, names.index("game_winners")] == -1).all()
    totals = b[:, [names.index(f"game_total_{s}") for s in range(4)]]
    d2 = b[:, [names.index(f"score_{s}") for s in range(4)]]
    assert (totals >= np.array([30, 10, 0, 55]) + d2).all()  # deal 3 adds penalties on top
    w = b[:, names.index("game_winners")]
    best = totals == totals.min(axis=1, keepdims=True)
    assert (w == (best * (1 << np.arange(4))).sum(axis=1)).all()
    # a lead no two deals can overturn: deal 6 of 7, every other seat 500 behind
    r = hand_odds(GAME, "odds", hand=HAND5 + " 3C 3C", options={"deal": 6}, seat=0,
                  settings=["num_players=5"], scores="0:500:500:500:500", seed=1, deals=40, threads=2)
    by = r.summary.set_index(["metric", "group"]).estimate
    assert by[("win_game", "game")] == 1.0
    assert "P(win the game)" in set(r.table.quantity)
