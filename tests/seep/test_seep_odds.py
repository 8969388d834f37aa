"""`simcards bid seep`: every legal bid played on the same deals around the bidder's four cards."""
import os
from itertools import combinations

import numpy as np
import pytest
from click.testing import CliRunner

from simcards.api import hand_odds
from simcards.cli import main
from simcards.core.cards import SUIT_MASKS, mask_of, parse_cards
from simcards.core.errors import SimcardsError
from simcards.core.game import OddsRequest
from simcards.games.seep import GAME, referee
from simcards.games.seep import odds as O
from simcards.games.seep.cards import VAL
from simcards.games.seep.layout import S_BID, S_HANDS, S_OPEN_FLOOR, S_OPEN_HAND, S_PLAYED, S_SCORE

BASIC = GAME.policies.table(["basic"])
RANDOM = GAME.policies.table(["random"])
GREEDY = GAME.policies.table([os.path.join(os.path.dirname(__file__), "seep_greedy_bots.py") + ":greedy"])
HAND = "KS 9H 2C 3D"
SPADES = int(SUIT_MASKS[3])


def prepared(hand=HAND, v=None, **kw):
    v = v or GAME.variant()
    return v, O.prepare(v, OddsRequest(hand=tuple(parse_cards(hand)), **kw))


def field(rows, name, b):
    return rows[:, O.COLUMNS.index(next(c for c in O.COLUMNS if c.name == f"{name}_{b}"))]


def dealt_hands(states, n):
    """Each seat's whole hand of a traced deal: what it played plus what it still holds at the end."""
    last = states[48]
    return [int(last[S_PLAYED + s]) | int(last[S_HANDS + s]) for s in range(n)]


def test_cli_end_to_end(tmp_path):
    plot = tmp_path / "bid.png"
    res = CliRunner().invoke(main, ["bid", "seep", "--hand", HAND, "--deals", "300", "--threads", "1",
                                    "--plot", str(plot)])
    assert res.exit_code == 0, res.output
    # the table's lines; a cold numba cache adds the compile notice (stderr, mixed in by older click)
    lines = [ln for ln in res.output.splitlines() if not ln.startswith("simcards: compiling")]
    assert "recommended" in lines[0] and "P(make)" in lines[0]
    body = lines[1:3]
    assert sorted(ln.split()[0] for ln in body) == ["13", "9"]
    assert sum(ln.rstrip().endswith("yes") for ln in body) == 1
    assert "300 deals" in res.output and plot.stat().st_size > 0


def test_cli_says_why_a_hand_without_a_bid_cannot_bid():
    res = CliRunner().invoke(main, ["bid", "seep", "--hand", "8S 5H 2D AC", "--deals", "10"])
    assert res.exit_code == 2
    assert "no bid is possible" in res.output and "deals again" in res.output and "Traceback" not in res.output


def test_options_are_the_values_held():
    assert prepared("KS KH 9H TD")[1]["options"] == (9, 10, 13)
    assert prepared("KS KH 9H TD", GAME.variant(pairs=["min_bid_value=10"]))[1]["options"] == (10, 13)
    _, q = prepared("QS 7H 5D 2C", seat=1)
    assert q["options"] == (12,) and q["dealer"] == 0 and q["seat"] == 1


@pytest.mark.parametrize("players", [4, 2])
def test_known_cards_and_constraints_hold_and_every_record_replays(players):
    """Traced deals: known cards with the bidder, constraints met, the referee accepts every
    move, and the traced scores are the simulated record's."""
    v = GAME.variant(pairs=[f"num_players={players}"])
    req = ("E:has=QD", "F:has=TD", "W:void=S") if players == 4 else ("1:has=QD", "F:has=TD", "0:len(S)>=4")
    _, q = prepared(v=v, seat=1, constraints=req)
    known = mask_of(parse_cards(HAND))
    rows = O.simulate(q, v, BASIC, 5, 0, 12)
    rules = referee.Rules.of(v)
    for i in range(12):
        decks = []
        for b in q["options"]:
            states, events, deck = O.trace_option(q, v, BASIC, 5, i, b)
            decks.append(deck.copy())
            first = states[0]
            assert int(first[S_OPEN_HAND]) == known and int(first[S_BID]) == b
            assert int(first[S_OPEN_FLOOR]) >> parse_cards("TD")[0] & 1
            hands = dealt_hands(states, players)
            assert hands[1] & known == known and sum(bin(h).count("1") for h in hands) == 48
            if players == 4:
                assert hands[1] & (1 << parse_cards("QD")[0]) and hands[2] & known == 0
                assert hands[3] & SPADES == 0
            else:
                assert hands[1] & (1 << parse_cards("QD")[0]) and bin(hands[0] & SPADES).count("1") >= 4
            result = referee.check_trace(states, events, rules)
            bt = 1 % 2
            assert result["scores"][bt] == field(rows, "bidder_team", b)[i]
            assert result["scores"][1 - bt] == field(rows, "other_team", b)[i]
            assert [int(states[48][S_SCORE + t]) for t in range(2)] == result["scores"]
        assert all(np.array_equal(decks[0], d) for d in decks[1:])  # every bid sees the same deal


def test_records_do_not_depend_on_chunking_and_bids_share_deals():
    v, q = prepared()
    whole = O.simulate(q, v, RANDOM, 11, 0, 60)
    parts = np.vstack([O.simulate(q, v, RANDOM, 11, 0, 25), O.simulate(q, v, RANDOM, 11, 25, 35)])
    assert np.array_equal(whole, parts)
    assert (field(whole, "bidder_team", 10) == O.NOT_AN_OPTION).all()  # T not held
    assert (whole[:, -1] >= 9).all() and set(whole[:, -1]) <= {9, 13}  # random policy's own bid
    # both bids are played on one deal: the same floor
    s9 = O.trace_option(q, v, RANDOM, 11, 3, 9)[0][0]
    s13 = O.trace_option(q, v, RANDOM, 11, 3, 13)[0][0]
    assert s9[S_OPEN_FLOOR] == s13[S_OPEN_FLOOR]


def exact_build_rate(hand, bid):
    """P(the opening builds a house) for the greedy test policy, by enumerating the floors.

    greedy (basic before it avoided sweepable floors) captures when it can (at the opening only with a card of the bid value), else
    builds when it can; with one card of the bid value and no other card above the bid,
    it builds iff no floor subset sums to ``bid`` and some floor subset sums to
    ``bid - val(c)`` for a card ``c`` below the bid.
    """
    known = parse_cards(hand)
    vals = np.array([VAL[c] for c in range(52) if c not in known])
    combos = np.array(list(combinations(range(48), 4)))
    fv = vals[combos]
    sums = np.stack([fv[:, list(s)].sum(axis=1) for k in range(1, 5) for s in combinations(range(4), k)], axis=1)
    needs = [bid - VAL[c] for c in known if VAL[c] < bid]
    can_capture = (sums == bid).any(axis=1)
    can_build = np.isin(sums, needs).any(axis=1)
    return float((~can_capture & can_build).mean())


def test_build_rate_matches_the_exact_value():
    v, q = prepared()
    n = 20_000
    rows = O.simulate(q, v, GREEDY, 17, 0, n)
    for b in (9, 13):
        p = exact_build_rate(HAND, b)
        est = field(rows, "built", b).mean()
        assert abs(est - p) < 4 * np.sqrt(p * (1 - p) / n), (b, est, p)
    # a capture opening always makes its bid; a build can be lost
    assert (field(rows, "made", 13) >= field(rows, "house_taken", 13)).all()


def test_accept_function_is_applied(tmp_path):
    f = tmp_path / "my_accept.py"
    f.write_text("import numpy as np\n\ndef east_long_spades(hands):\n"
                 f"    m = hands[1] & np.uint64({SPADES})\n"
                 "    k = 0\n    while m:\n        m &= m - np.uint64(1)\n        k += 1\n    return k >= 5\n")
    v, q = prepared(seat=0, accept=f"{f}:east_long_spades")
    for i in range(6):
        states = O.trace_option(q, v, BASIC, 2, i, 13)[0]
        assert bin(dealt_hands(states, 4)[1] & SPADES).count("1") >= 5


def test_scores_give_baazi_win_probabilities():
    far_ahead = hand_odds("seep", hand=HAND, scores="90:0", deals=400, threads=1, seed=3)
    far_behind = hand_odds("seep", hand=HAND, scores="0:90", deals=400, threads=1, seed=3)
    for res in (far_ahead, far_behind):
        assert "P(win baazi)" in res.table.columns and res.table["recommended"].str.contains("best P\\(win\\)").sum() == 1
    # the bidder (seat N, team A) leads by 90: it wins far more often than when 90 behind
    assert far_ahead.table["P(win baazi)"].min() > far_behind.table["P(win baazi)"].max() + 0.3
    plain = hand_odds("seep", hand=HAND, deals=200, threads=1)
    assert "P(win baazi)" not in plain.table.columns


def test_precision_stops_when_every_rate_is_tight():
    res = hand_odds("seep", hand=HAND, precision=0.03, threads=1, seed=1)
    assert res.resolved and res.widest_half_width() <= 0.03
    assert res.deals < 10_000
    rates = set(res.summary[res.summary.kind == "rate"].metric)
    assert rates == {"make", "house", "house_taken"}


def test_table_marks_the_best_expected_difference():
    res = hand_odds("seep", hand=HAND, deals=1000, threads=1, seed=4)
    t = res.table
    assert t.iloc[0]["recommended"] == "yes" and t["difference"].iloc[0] == t["difference"].max()
    assert t.iloc[0]["vs best (paired)"] == "best" and t.iloc[1]["vs best (paired)"].startswith("-")
    assert t.set_index("bid").loc[13, "policy bids"] == 1.0  # basic bids its highest value


@pytest.mark.parametrize("kw,message", [
    (dict(hand="KS 9H 3D"), "4 cards"),
    (dict(hand="KS 9H 3D BJ"), "not in the Seep deck"),
    (dict(hand=[51, 51, 3, 4]), "twice"),
    (dict(hand="8S 5H 2D AC"), "no bid is possible"),
    (dict(hand=HAND, seat="E", dealer="S"), "the bidder is the player after the dealer"),
    (dict(hand=HAND, bids="W=9"), "only the bidder bids"),
    (dict(hand=HAND, scores="10:20:30"), "two team totals"),
    (dict(hand=HAND, scores="150:20"), "already over"),
    (dict(hand=HAND, require=("F:has=AS,2S,3S,4S,5S",)), "the floor would hold 5"),
    (dict(hand=HAND, require=("E:has=KS",)), "cannot be in seat"),
    (dict(hand=HAND, require=("X:void=S",)), "unknown seat"),
    (dict(hand=HAND, accept="nowhere.py:f"), "not found"),
    (dict(hand=HAND, seat="N", require=("N:void=S",)), "no deal satisfies"),
])
def test_bad_input_is_one_clear_error(kw, message):
    with pytest.raises(SimcardsError, match=message):
        hand_odds("seep", deals=10, threads=1, **kw)


def test_impossible_length_bounds_are_reported():
    with pytest.raises(SimcardsError, match="no deal satisfies"):
        hand_odds("seep", hand=HAND, require=("E:len(S)>=12", "W:len(S)>=1"), deals=5, threads=1)


def test_constrained_deal_is_uniform_over_the_deals_that_fit():
    """East void in spades: the floor holds no spade with the exact probability
    C(24,4)/C(36,4) (E takes 12 of the 36 non-spades; the floor draws from the other 36)."""
    from simcards.games.seep.odds_kernel import deal_record

    _, q = prepared(constraints=("E:void=S",))
    c = q["constraints"]
    hands, seat_hands = np.zeros(5, np.uint64), np.zeros(4, np.uint64)
    buf, rng, deck = np.zeros(52, np.int64), np.zeros(1, np.uint64), np.zeros(52, np.int64)
    n, no_spade = 10_000, 0
    for i in range(n):
        deal_record((O._accept(None),), np.int64(q["known"]), c.fixed, c.min_len, c.max_len, q["sizes"],
                    q["pos_holder"], np.uint64(9), np.uint64(i), np.arange(52, dtype=np.int64), hands, seat_hands,
                    buf, rng, deck)
        assert sorted(deck) == list(range(52)) and mask_of(deck[:4].tolist()) == q["known"]
        assert int(hands[1]) & SPADES == 0
        no_spade += mask_of(deck[4:8].tolist()) & SPADES == 0
    p = 10626 / 58905
    assert abs(no_spade / n - p) < 4 * np.sqrt(p * (1 - p) / n)
