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


def test_before_dd_cards_it_plays_experts_card():
    card, solved, totals = card_totals(ending_view(":dd_cards=1"))
    assert solved == 0 and totals == {}
    assert card == parse_cards("AH")[0]  # expert wins it too


def test_node_budget_stops_after_min_worlds():
    _, solved, _ = card_totals(ending_view(":node_budget=1:min_worlds=3"))
    assert solved == 3


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
