"""What `simcards rules` advertises is what the variants accept, and one problem gets one message."""
import pytest

from simcards.core.errors import SimcardsError
from simcards.core.game import get_game


def _error(game, pairs):
    with pytest.raises(SimcardsError) as err:
        get_game(game).variant_type.from_pairs(pairs)
    return str(err.value)


@pytest.mark.parametrize("game,name,allowed,refused", [
    ("seep", "num_players", "2 or 4", "3"),      # it advertised 2..4 though 3 is refused
    ("spades", "jokers", "0 or 2", "1"),         # it advertised 0..2 though 1 is refused
    ("cutthroat", "jokers", "0, 2 or 3", "1"),
])
def test_allowed_values_are_advertised_exactly(game, name, allowed, refused):
    assert get_game(game).variant_type.param_specs()[name].allowed() == allowed
    message = _error(game, [f"{name}={refused}"])
    assert f"must be {allowed}" in message and repr(refused) in message


@pytest.mark.parametrize("game,seats", [("spades", 4), ("seep", 4), ("cutthroat", 5), ("contract-rummy", 8)])
def test_first_dealer_has_one_message_for_every_bad_value(game, seats):
    """`first_dealer=N` said "must be an integer" while `first_dealer=9` named the seats."""
    words = _error(game, ["first_dealer=N"])
    assert "must be random or a seat 0.." in words and "'N'" in words
    assert "must be random or a seat 0.." in _error(game, [f"first_dealer={seats + 1}"])


def test_seep_bid_names_the_ranks_of_the_minimum_bid():
    from simcards.core.game import OddsRequest
    from simcards.core.cards import parse_cards

    g = get_game("seep")
    v = g.variant_type.from_pairs(["min_bid_value=12"])
    support = g.odds_support("bid")
    hand = tuple((support.parse_hand or parse_cards)("2S 5H 9D JC"))
    with pytest.raises(SimcardsError) as err:
        support.prepare(v, OddsRequest(hand=hand))
    assert "12..13 (Q K)" in str(err.value)


@pytest.mark.parametrize("game,pairs,seats", [
    ("cutthroat", ["num_players=3"], 3), ("contract-rummy", ["num_players=4"], 4), ("seep", ["num_players=2"], 2),
])
def test_first_dealer_names_the_seats_of_this_table(game, pairs, seats):
    """At three seats `first_dealer=4` named seats 0..2 but `first_dealer=N` named 0..4 (the
    largest table): every bad value now names the seats of the table being set up."""
    messages = {_error(game, pairs + [f"first_dealer={bad}"]).rsplit(";", 1)[0] for bad in ("N", seats, 9)}
    assert messages == {f"{game} parameter first_dealer must be random or a seat 0..{seats - 1}"}


def test_a_bad_number_says_what_is_allowed():
    """`first_dealer=N` in Kierki said "must be an integer" while 9 gave the allowed range."""
    assert _error("kierki", ["first_dealer=N"]).rsplit(";", 1)[0] == _error("kierki", ["first_dealer=9"]).rsplit(";", 1)[0]
