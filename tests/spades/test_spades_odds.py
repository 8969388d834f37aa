"""`simcards bid spades`: dealing around a known hand and playing every legal bid."""
import numpy as np
import pytest
from spades_util import table, variant

from simcards.api import hand_odds
from simcards.core.cards import parse_cards
from simcards.core.errors import SimcardsError
from simcards.core.game import OddsRequest
from simcards.games.spades import GAME
from simcards.games.spades.odds import BID, prepare

ALL_SPADES = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"
HAND = "AS KS 7S 4S AH QH 9H 5D 4D 3D KC 8C 2C"


def request(hand=HAND, seat=0, dealer=3, bids=None, scores=(), require=()):
    return OddsRequest(hand=tuple(parse_cards(hand)), seat=seat, dealer=dealer, bids=bids or {},
                       scores=tuple(scores), constraints=tuple(require))


def test_known_hand_is_dealt_to_the_seat():
    """Holding all 13 spades, North takes every trick whatever the others hold."""
    result = hand_odds(GAME, "bid", hand=ALL_SPADES, seat="N", dealer="W", deals=300, policy="basic", threads=1)
    row = result.table.set_index("bid").loc["13"]
    assert row["P(own tricks>=bid)"] == 1 and row["own tricks"] == 13
    assert result.table.set_index("bid").loc["Nil", "P(makes)"] == 0


def test_options_are_the_legal_bids_after_the_earlier_ones():
    q = prepare(variant(), request(bids={3: "4", 0: "nil"}, seat=1, dealer=2))  # S deals: W, N, then E
    assert q["options"] == tuple(range(0, 14)) and q["prior"] == (0, -1, -1, 4)
    q = prepare(variant(min_team_bid=4), request(seat=2, dealer=3, bids={0: "1", 1: "3"}))
    assert q["options"] == tuple(range(3, 14))  # partner N bid 1: South must bring the team to 4
    q = prepare(variant(forbid_total_bids_13=True), request(seat=3, dealer=3, bids={0: "4", 1: "4", 2: "3"}))
    assert 2 not in q["options"] and 0 in q["options"]


@pytest.mark.parametrize("kw,message", [
    ({"hand": "AS KS"}, "13 cards"),
    ({"bids": {1: "3"}}, "bids after"),
    ({"seat": 2, "dealer": 3}, "earlier bids"),
    ({"seat": 1, "dealer": 3, "bids": {0: "14"}}, "1..13"),
    ({"scores": (1, 2, 3)}, "two team scores"),
])
def test_bad_requests_are_one_line_errors(kw, message):
    with pytest.raises(SimcardsError, match=message):
        prepare(variant(), request(**kw))


def test_same_results_whatever_the_batches():
    q = prepare(variant(), request(require=("E:void=S",)))
    t = table("expert")
    whole = BID.simulate(q, variant(), t, 9, 0, 300)
    parts = np.vstack([BID.simulate(q, variant(), t, 9, a, 150) for a in (0, 150)])
    assert np.array_equal(whole, parts)


def test_constraints_are_respected_and_impossible_ones_reported():
    with pytest.raises(SimcardsError):
        prepare(variant(), request(require=("E:has=AS",)))
    hearts = "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"
    q = prepare(variant(), request(hand=ALL_SPADES, require=(f"S:has={hearts.replace(' ', ',')}", "W:void=H")))
    out = BID.simulate(q, variant(), table("basic"), 1, 0, 50)
    field = {name: i for i, name in enumerate(c.name for c in BID.columns)}
    assert (out[:, field["tricks_13"]] == 13).all() and (out[:, field["team_tricks_13"]] == 13).all()
    with pytest.raises(SimcardsError, match="no deal satisfies"):
        q = prepare(variant(), request(hand=ALL_SPADES, require=("E:len(H)>=13",)))
        BID.simulate(q, variant(), table("basic"), 1, 0, 5)


def test_present_ranks_bids_by_expected_points():
    result = hand_odds(GAME, "bid", hand=HAND, seat="N", dealer="W", deals=1000, policy="expert", threads=1)
    pts = result.table["team points"].to_numpy()
    assert (np.diff(pts) <= 0).all() and result.table.iloc[0]["recommended"] == "yes"
    assert set(result.table["bid"]) == {"Nil"} | {str(b) for b in range(1, 14)}


def test_accept_function_is_used():
    import os
    spec = os.path.join(os.path.dirname(__file__), "spades_probe_bots.py") + ":refuse_all"
    with pytest.raises(SimcardsError, match="accept function keeps refusing"):
        hand_odds(GAME, "bid", hand=HAND, seat="N", dealer="W", deals=10, accept=spec, threads=1)
