"""Variant fields, presets, validation and the Game object."""
import pytest

from simcards.core.errors import SimcardsError
from simcards.core.game import get_game
from simcards.games.contract_rummy.variant import PRESETS, ContractRummyVariant as V


def test_defaults_match_rules_table():
    v = V()
    assert (v.num_players, v.decks(), v.jokers()) == (4, 1, 1)
    assert v.contract_pairs() == [(2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3)]
    assert v.hand_sizes == (10, 10, 10, 10, 12, 12, 12)
    assert v.penalty_values == (15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 15)
    assert v.max_turns_per_deal == 1000 and v.first_dealer == "random"


@pytest.mark.parametrize("players,decks,jokers", [(3, 1, 1), (4, 1, 1), (5, 2, 2), (8, 2, 2)])
def test_auto_pack(players, decks, jokers):
    v = V(num_players=players)
    assert (v.decks(), v.jokers()) == (decks, jokers)


def test_contracts_accept_pairs_and_codes():
    assert V.from_pairs(["contracts=[(2,0),(0,3)]", "hand_sizes=10,12"]).contracts == ("2-0", "0-3")
    assert V.from_pairs(["contracts=1-1,3-0", "hand_sizes=10,10"]).contract_pairs() == [(1, 1), (3, 0)]


@pytest.mark.parametrize("pairs,words", [
    (["num_players=5", "num_decks=1"], "cannot deal"),
    (["num_players=6", "num_decks=1"], "at least 2 decks"),
    (["hand_sizes=10,10"], "one hand size per deal"),
    (["min_set_size=4", "max_set_size=3"], "exceeds max_set_size"),
    (["max_set_size=6"], "set_duplicate_suits"),
    (["contracts=3-0", "hand_sizes=8"], "needs 9"),
    (["first_dealer=5"], "seat"),
    (["contract=9"], "contract must be"),
    (["ace_mode=sideways"], "one of"),
    (["max_turns_per_deal=2"], ">="),
    # an all-at-once final deal nobody could go out in (3.6; issue 16): refused up front
    (["num_decks=2", "contracts=2-0,0-1", "hand_sizes=10,15"], "meld 15 cards into 1 run(s) of at most 14"),
    (["num_decks=2", "contracts=2-0,0-1", "hand_sizes=10,14", "ace_mode=low"], "of at most 13 cards, so nobody could go out"),
    (["num_decks=2", "contracts=2-0,0-1", "hand_sizes=10,14", "final_deal_go_out_discard=forbidden"], "meld 15 cards"),
    (["num_decks=2", "contracts=2-0,0-1", "hand_sizes=10,14", "go_out_discard=forbidden"], "meld 15 cards"),
])
def test_bad_values_give_one_line(pairs, words):
    with pytest.raises(SimcardsError) as e:
        V.from_pairs(pairs)
    assert words in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("pairs", [
    ["num_decks=2", "contracts=2-0,0-1", "hand_sizes=10,14"],  # 14 cards, one 14-card run (A..A): possible
    ["num_decks=2", "contracts=2-0,0-1", "hand_sizes=10,14", "final_deal_go_out_discard=required"],
    ["num_decks=2", "contracts=2-0,0-1", "hand_sizes=10,15", "final_deal_all_at_once=false"],  # an ordinary deal
    ["contracts=2-0,1-1", "hand_sizes=10,20", "num_players=3", "num_decks=2"],  # sets: an ordinary deal
])
def test_final_deals_that_can_be_won_are_accepted(pairs):
    V.from_pairs(pairs)


def test_presets_build():
    for name, settings in PRESETS.items():
        v = V.from_mapping(settings)
        assert v.game_name == "contract-rummy"
    p = V.from_mapping({**PRESETS["pagat_like"], "num_players": 5})
    assert (p.decks(), p.jokers(), p.min_run_length) == (2, 4, 4)
    lv = V.from_mapping(PRESETS["liverpool_like"])
    assert lv.set_duplicate_suits and lv.max_set_size == 8 and lv.buying_enabled


def test_game_object():
    g = get_game("contract-rummy")
    assert [u.name for u in g.units] == ["game", "deal"]
    assert g.shortcuts == {"players": "num_players", "contract": "contract"}
    assert set(g.policies.names()) == {"random", "basic", "expert", "greedy", "greedy_deep", "defensive", "hold_back"}
    assert get_game("rummy") is g
    v = g.variant("pagat_like", pairs=["num_players=3"])
    assert v.num_players == 3
