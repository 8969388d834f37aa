"""Dealer and baazi flags of section 6, replay of whole baazis, user policies."""
import numpy as np
import pytest

from seep_util import variant
from simcards.core.errors import SimcardsError
from simcards.games.seep import GAME
from simcards.games.seep.layout import S_CARD_PTS, S_SCORE, S_SWEEP_PTS, ST_SIZE
from simcards.games.seep.rules import baazi_step, next_dealer, start_deal


def scored(a, b, sweeps=(0, 0)):
    st = np.zeros(ST_SIZE, np.int64)
    start_deal(st, variant().to_params(), 0, 0)
    st[S_CARD_PTS], st[S_CARD_PTS + 1] = a - sweeps[0], b - sweeps[1]
    st[S_SWEEP_PTS], st[S_SWEEP_PTS + 1] = sweeps
    st[S_SCORE], st[S_SCORE + 1] = a, b
    return st


def test_lead_inclusive_flag():
    assert baazi_step(variant().to_params(), 40, scored(80, 20)) == (0, 1, False)
    assert baazi_step(variant(baazi_lead_inclusive=False).to_params(), 40, scored(80, 20)) == (100, -1, False)
    assert baazi_step(variant(baazi_lead=50).to_params(), 0, scored(75, 25)) == (0, 1, False)


def test_min_points_flags():
    st = scored(58, 42 + 50 + 50, sweeps=(50, 100))  # A: 8 card points + one sweep
    assert baazi_step(variant().to_params(), 0, st)[1] == -1
    assert baazi_step(variant(min_points_includes_sweeps=False).to_params(), 0, st) == (0, 0, True)
    assert baazi_step(variant(min_points_rule=False).to_params(), 0, scored(5, 95)) == (-90, -1, False)
    assert baazi_step(variant(min_points_threshold=20).to_params(), 0, scored(15, 85)) == (0, 0, True)


def test_dealer_flags():
    nd = lambda v, dealer, D, a, b, loser: next_dealer(v.to_params(), dealer, D, a, b, loser)
    assert nd(variant(dealer_rule="rotate"), 2, -40, 30, 70, -1) == 3
    assert nd(variant(dealer_rule="rotate"), 3, 0, 130, 20, 1) == 0
    # last_deal basis: team A lost the deal although ahead in D -> dealer on A
    assert nd(variant(losing_team_basis="last_deal"), 1, 30, 40, 60, -1) == 2
    assert nd(variant(), 1, 30, 40, 60, -1) == 1
    assert nd(variant(tie_dealer="rotate"), 1, 0, 50, 50, -1) == 2
    # after a baazi lost by team B with dealer P3 (team B): W = P3
    assert nd(variant(), 3, 0, 120, 30, 1) == 1
    assert nd(variant(dealer_after_baazi="dealer_partner"), 3, 0, 120, 30, 1) == 1
    assert nd(variant(dealer_after_baazi="left_of_dealer"), 3, 0, 120, 30, 1) == 2
    assert nd(variant(dealer_after_baazi="no_shift"), 3, 0, 120, 30, 1) == 3
    assert nd(variant(dealer_after_baazi="no_shift"), 2, 0, 120, 30, 1) == 3


def test_replay_of_a_baazi_matches_its_record():
    v = variant()
    table = GAME.policies.table(["basic"])
    rec = GAME.simulate("baazi", v, table, 12, 4, 1)[0]
    text = GAME.replay("baazi", v, table, 12, 4)
    assert text.count("--- Deal ") == rec[1]
    assert f"Team {'AB'[rec[2]]} wins baazi 1" in text and f"next dealer P{rec[8]}" in text


def test_user_policy_file(tmp_path):
    bots = tmp_path / "seep_bots.py"
    bots.write_text(
        "from simcards import Policy\n"
        "from simcards.games.seep import policies as sp\n"
        "def first_capture(view, moves, n, rng):\n"
        "    for i in range(n):\n"
        "        if moves[i, 0] == 0:\n"
        "            return i\n"
        "    return n - 1\n"
        "greedy = Policy('greedy', move=first_capture, base=sp.BASIC)\n"
        "def bad_bid(view, rng):\n"
        "    return 3\n"
        "broken = Policy('broken', bid=bad_bid, base=sp.BASIC)\n")
    table = GAME.policies.table([f"{bots}:greedy", "basic"])
    out = GAME.simulate("deal", variant(), table, 1, 0, 200)
    assert ((out[:, 7] + out[:, 8]) == 100).all()
    with pytest.raises(SimcardsError, match=r"seep: seat \d \(policy .*:broken\): bid returned 3, which is not legal"):
        GAME.simulate("deal", variant(first_dealer=3), GAME.policies.table([f"{bots}:broken"]), 1, 0, 5)
    with pytest.raises(SimcardsError):
        GAME.policies.table([f"{bots}:nothing"])


def test_deal_around_known_cards():
    from simcards.core.cards import mask_of, parse_cards
    from simcards.games.seep.cards import VALMASK
    from simcards.games.seep.rules import shuffle_deal
    known = mask_of(parse_cards("KS 3H"))
    bid_mask = int(np.bitwise_or.reduce(VALMASK[9:14]))
    deck = np.zeros(52, np.int64)
    rng = np.array([12345], dtype=np.uint64)
    firsts = set()
    for _ in range(50):
        assert shuffle_deal(deck, rng, bid_mask, known) == 0  # the KS allows a bid: never a redeal
        assert set(deck[:2]) == set(parse_cards("KS 3H")) and sorted(deck) == list(range(52))
        firsts.add(int(deck[2]))
    assert len(firsts) > 20
    # without a bid card among the known ones the shuffle redeals until one arrives
    low = mask_of(parse_cards("2C 3D 4H"))
    redeals = sum(shuffle_deal(deck, rng, bid_mask, low) for _ in range(200))
    assert redeals > 0 and all((1 << int(c)) & bid_mask for c in deck[3:4])


def test_policies_see_only_public_information_and_their_hand(tmp_path):
    """3.7: the view holds no other hand, no stock, no hidden floor (checked by a spy policy)."""
    spy = tmp_path / "seep_spy.py"
    spy.write_text(
        "from simcards import Policy\n"
        "from simcards.games.seep import policies as sp\n"
        "from simcards.games.seep.layout import S_PRIVATE, S_LOOSE, S_HAND, S_NCARDS, S_PARAMS, S_SEAT\n"
        "import numba\n"
        "@numba.njit\n"
        "def clean(view):\n"
        "    for i in range(S_PRIVATE, S_PARAMS):  # after them: its own policy parameters\n"
        "        if view[i] != 0:\n"
        "            return False\n"
        "    n = 0\n"
        "    h = view[S_HAND]\n"
        "    while h:\n"
        "        h &= h - 1\n"
        "        n += 1\n"
        "    return n == view[S_NCARDS + view[S_SEAT]]\n"
        "def bid(view, rng):\n"
        "    if not clean(view) or view[S_LOOSE] != 0:\n"
        "        return -1\n"
        "    return sp.basic_bid(view, rng)\n"
        "def move(view, moves, n, rng):\n"
        "    if not clean(view):\n"
        "        return -1\n"
        "    return sp.basic_move(view, moves, n, rng)\n"
        "spy = Policy('spy', bid=bid, move=move, base=sp.BASIC)  # basic's parameters for basic's functions\n")
    out = GAME.simulate("deal", variant(), GAME.policies.table([f"{spy}:spy"]), 5, 0, 300)
    ref = GAME.simulate("deal", variant(), GAME.policies.table(["basic"]), 5, 0, 300)
    assert (out == ref).all()


def test_two_player_game():
    """6.2: seats 0 and 1, the player behind deals, the baazi loser deals next."""
    v = variant(num_players=2)
    cfg = v.to_params()
    assert next_dealer(cfg, 0, -30, 35, 65, -1) == 0      # seat 0 behind: deals again
    assert next_dealer(cfg, 0, 30, 65, 35, -1) == 1       # seat 1 behind
    assert next_dealer(cfg, 1, 0, 50, 50, -1) == 1        # level: same dealer
    assert next_dealer(cfg, 1, 0, 120, 30, 1) == 1        # seat 1 lost the baazi and deals
    assert next_dealer(cfg, 1, 0, 5, 95, 0) == 0
    assert GAME.seats(v) == 2
    table = GAME.policies.table(["expert", "basic"])
    deals = GAME.simulate("deal", v, table, 2, 0, 300)
    assert set(deals[:, 0]) == {0, 1} and (deals[:, 1] == 1 - deals[:, 0]).all()
    assert ((deals[:, 7] + deals[:, 8]) == 100).all()
    b = GAME.simulate("baazi", v, table, 2, 0, 30)
    assert set(b[:, 2]) <= {0, 1} and (b[:, 8] == 1 - b[:, 2]).all()
    text = GAME.replay("deal", v, table, 2, 0)
    assert "P2" not in text and "P3" not in text and text.count("Cards dealt") == 2
