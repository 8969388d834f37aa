"""The referee re-checks kernel traces move by move: legal-move sets, states and scores."""
import pytest

from seep_util import variant
from simcards.games.seep import GAME, referee
from simcards.games.seep.layout import S_CARD_PTS, S_SCORE
from simcards.games.seep.replay import trace

CASES = [
    ("basic", {}, 101, 150),
    ("random", {}, 102, 150),
    ("expert", {}, 103, 40),
    ("random", {"capture_sums": False}, 104, 15),
    ("random", {"capture_maximal": False}, 105, 15),
    ("random", {"absorption_mode": "mandatory"}, 106, 15),
    ("random", {"absorption_mode": "forbidden", "allow_direct_cemented_build": False}, 107, 15),
    ("random", {"owner_may_throw": False, "partner_add_free": False}, 108, 15),
    ("random", {"min_house_value": 7, "min_bid_value": 10, "early_sweep_plays": 4}, 109, 15),
    ("random", {"throw_requires_no_capture": False}, 110, 10),
    ("basic", {"num_players": 2}, 111, 30),
    ("random", {"num_players": 2}, 112, 30),
    ("expert", {"num_players": 2, "capture_sums": False}, 113, 15),
]


@pytest.mark.parametrize("policy,settings,seed,n", CASES, ids=[f"{c[0]}-{'-'.join(c[1]) or 'default'}" for c in CASES])
def test_referee_agrees_with_kernel_traces(policy, settings, seed, n):
    v = variant(**settings)
    table = GAME.policies.table([policy])
    rules = referee.Rules.of(v)
    for index in range(n):
        states, events = trace(v, table, seed, index)
        result = referee.check_trace(states, events, rules)
        last = states[48]
        assert result["points"] == [int(last[S_CARD_PTS]), int(last[S_CARD_PTS + 1])]
        assert result["scores"] == [int(last[S_SCORE]), int(last[S_SCORE + 1])]


def test_trace_matches_simulation_record():
    v = variant()
    table = GAME.policies.table(["basic"])
    records = GAME.simulate("deal", v, table, 7, 0, 5)
    for index in range(5):
        states, *_ = trace(v, table, 7, index)
        assert int(states[48][S_SCORE]) == records[index, 11] and int(states[48][S_SCORE + 1]) == records[index, 12]


def test_referee_rejects_an_illegal_move():
    v = variant()
    states, events = trace(v, GAME.policies.table(["basic"]), 3, 0)
    s = referee.from_kernel(states[5])
    legal = referee.legal_moves(s)
    hand = sorted(s.hands[s.to_move])
    bogus = next((referee.THROW, c, 0, frozenset(), False) for c in hand
                 if (referee.THROW, c, 0, frozenset(), False) not in legal) if any(
        (referee.THROW, c, 0, frozenset(), False) not in legal for c in hand) else (referee.BUILD, hand[0], 13, frozenset(), False)
    with pytest.raises(referee.IllegalMove):
        referee.apply(s, bogus)


def test_play_out_differential_entry_point():
    """Replaying a kernel deal through play_out from explicit cards gives the same score."""
    v = variant()
    states, events = trace(v, GAME.policies.table(["random"]), 11, 2)
    first = referee.from_kernel(states[0])
    second = referee.from_kernel(states[1])
    chosen = referee.chosen_moves(events)
    after_open = referee.apply(first, chosen[0], check=False)
    b = first.bidder
    order = [b, b + 1, b + 2, b + 3] * 2 + [b + 1, b + 2, b + 3]
    dealt = {t: sorted(second.hands[t] - after_open.hands[t]) for t in range(4)}
    stock = []
    for seat in order:
        stock += dealt[seat % 4][:4]
        dealt[seat % 4] = dealt[seat % 4][4:]
    result = referee.play_out(first.dealer, first.bid, first.hands, first.loose, stock, chosen)
    assert result["scores"] == [int(states[48][S_SCORE]), int(states[48][S_SCORE + 1])]


def test_replay_text():
    text = GAME.replay("deal", variant(), GAME.policies.table(["basic"]), 5, 3)
    assert "bids" in text and "deal score A" in text
    assert len([line for line in text.splitlines() if line[:3].strip().rstrip(".").isdigit()]) == 48
